// @ts-check
// LateSpace (src/ui/space.js): a panel takes the first screen only for a late answer.
import assert from "node:assert/strict";
import { test } from "node:test";
import { IN_TIME_MS, LateSpace } from "../src/ui/space.js";

/** A stand-in for the panel element: its attributes only. */
function panel() {
  const attrs = new Set();
  return /** @type {HTMLElement} */ (
    /** @type {unknown} */ ({
      hasAttribute: (/** @type {string} */ name) => attrs.has(name),
      toggleAttribute: (/** @type {string} */ name, /** @type {boolean} */ on) => {
        if (on) attrs.add(name);
        else attrs.delete(name);
        return on;
      },
    })
  );
}

const wait = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

test("an answer drawn in time leaves the panel its own space", async () => {
  const space = new LateSpace(panel());
  const drawn = space.ask({ byPerson: true, late: false });
  drawn();
  await wait(IN_TIME_MS + 50);
  assert.equal(space.reserved(), false);
});

test("a late answer gets the first screen while the edit counts, the next in time gives it back", async () => {
  const space = new LateSpace(panel());
  const drawn = space.ask({ byPerson: true, late: false });
  await wait(IN_TIME_MS + 50);
  assert.equal(space.reserved(), true); // given before the answer, in time
  drawn();
  assert.equal(space.reserved(), true); // the late answer is drawn into it
  const next = space.ask({ byPerson: true, late: false });
  assert.equal(space.reserved(), true); // kept while the next answer is asked
  next();
  assert.equal(space.reserved(), false);
});

test("the address, Back, and an engine not ready get the first screen at once; only the newest answer counts", () => {
  const space = new LateSpace(panel());
  space.ask({ byPerson: false, late: false })();
  assert.equal(space.reserved(), true); // drawn in time, but not a key or a click
  const old = space.ask({ byPerson: true, late: true });
  const newer = space.ask({ byPerson: true, late: false });
  old();
  assert.equal(space.reserved(), true); // an older question's answer gives nothing back
  newer();
  assert.equal(space.reserved(), false);
  space.ask({ byPerson: true, late: true });
  space.empty();
  assert.equal(space.reserved(), false);
});
