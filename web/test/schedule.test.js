// @ts-check
// latestOnly (src/ui/schedule.js): the newest value wins, stale answers are dropped.
import assert from "node:assert/strict";
import { test } from "node:test";
import { latestOnly } from "../src/ui/schedule.js";

test("while one run is under way, only the newest of the values that come runs next", async () => {
  /** @type {[string, boolean][]} */
  const runs = [];
  /** @type {() => void} */
  let release = () => {};
  const update = latestOnly(async (/** @type {string} */ value, isStale) => {
    if (value === "a") await new Promise((r) => (release = () => r(undefined)));
    runs.push([value, isStale()]);
  });
  const done = update("a");
  update("b");
  update("c");
  release();
  await done;
  assert.deepEqual(runs, [
    ["a", true],
    ["c", false],
  ]);
});

test("a failing run does not stop the queue", async () => {
  /** @type {string[]} */
  const seen = [];
  const original = console.error;
  console.error = () => {};
  const update = latestOnly(async (/** @type {string} */ v) => {
    seen.push(v);
    if (v === "bad") throw new Error("boom");
  });
  await update("bad");
  await update("good");
  console.error = original;
  assert.deepEqual(seen, ["bad", "good"]);
});
