// @ts-check
// Many lookups (src/engine/pool.js): a few at a time, again while the answer says retry.
import assert from "node:assert/strict";
import { test } from "node:test";
import { lookupAll } from "../src/engine/pool.js";

test("at most `concurrency` in flight; retried while `retry`; cancel stops the queue", async () => {
  let inFlight = 0;
  let peak = 0;
  /** @type {Record<string, number>} */
  const tries = {};
  const look = async (/** @type {string} */ item) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    tries[item] = (tries[item] ?? 0) + 1;
    await new Promise((r) => setTimeout(r, 5));
    inFlight--;
    const retry = item === "busy" && tries[item] < 3;
    return /** @type {any} */ ({ outcome: retry ? "http-error" : "ok", ok: !retry, retry, message: "" });
  };
  /** @type {string[]} */
  const done = [];
  const items = ["busy", ...Array.from({ length: 9 }, (_, i) => `n${i}`)];
  await lookupAll(items, look, {
    signal: new AbortController().signal,
    onResult: (item) => done.push(item),
    concurrency: 3,
    baseMs: 1,
  });
  assert.ok(peak <= 3 && peak > 1, String(peak));
  assert.equal(tries.busy, 3);
  assert.deepEqual(done.sort(), items.sort());

  const stop = new AbortController();
  /** @type {string[]} */
  const some = [];
  await lookupAll(items, look, {
    signal: stop.signal,
    onResult: (item) => {
      some.push(item);
      stop.abort();
    },
    concurrency: 2,
    baseMs: 1,
  });
  assert.ok(some.length <= 2, String(some));
});
