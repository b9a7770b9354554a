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

test("rateGate keeps at most `concurrent` at once and `perSecond` starts a second", async () => {
  const { rateGate } = await import("../src/engine/pool.js");
  const gate = rateGate({ perSecond: 3, concurrent: 2 });
  let inFlight = 0;
  let peak = 0;
  /** @type {number[]} */
  const started = [];
  await Promise.all(
    Array.from({ length: 5 }, async () => {
      const release = await gate.acquire();
      started.push(Date.now());
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      release();
    }),
  );
  assert.equal(peak, 2);
  started.sort((a, b) => a - b);
  // the 4th start comes a second after the 1st (3 a second)
  assert.ok(started[3] - started[0] >= 990, String(started[3] - started[0]));
});

test("rateGate holds every request while a Retry-After runs; a cancelled wait rejects", async () => {
  const { rateGate } = await import("../src/engine/pool.js");
  const gate = rateGate({ perSecond: 0, concurrent: 0 });
  gate.holdFor(60_000);
  const controller = new AbortController();
  const waiting = gate.acquire(controller.signal);
  controller.abort();
  await assert.rejects(waiting, /cancelled/);
});
