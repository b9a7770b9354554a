// @ts-check
/**
 * Many lookups at doi.org at once, politely: at most `concurrency` in flight, and each
 * asked again, after waits that double, while Python's reading of the answer says it
 * may help (`retry`: 429, 5xx, a timeout). Batch's "Resolve all" uses it.
 * @module engine/pool
 */

import { LOOKUPS_AT_ONCE } from "./limits.gen.js";

/** @typedef {import("./types.gen.js").HandleRecord} HandleRecord */

/** Most attempts per name; waits between them double from RETRY_BASE_MS. */
export const TRIES = 4;
export const RETRY_BASE_MS = 500;

/**
 * Wait `ms`, or less if `signal` fires.
 * @param {number} ms
 * @param {AbortSignal} signal
 * @returns {Promise<void>}
 */
export function pause(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Look up every item, `concurrency` at a time; `onResult(item, record)` as each ends
 * (not called for one cancelled by `signal`). Resolves when all are done or cancelled.
 * @template T
 * @param {T[]} items
 * @param {(item: T, signal: AbortSignal) => Promise<HandleRecord>} look one lookup
 * @param {{signal: AbortSignal, onResult: (item: T, record: HandleRecord) => void,
 *   concurrency?: number, tries?: number, baseMs?: number}} options
 * @returns {Promise<void>}
 */
export async function lookupAll(items, look, options) {
  const { signal, onResult, concurrency = LOOKUPS_AT_ONCE, tries = TRIES, baseMs = RETRY_BASE_MS } = options;
  const queue = items.slice();
  /** @param {T} item */
  const one = async (item) => {
    /** @type {HandleRecord | null} */
    let record = null;
    for (let attempt = 0; attempt < tries; attempt++) {
      if (attempt) await pause(baseMs * 2 ** (attempt - 1) * (1 + Math.random() / 4), signal);
      record = await look(item, signal);
      if (!record.retry || signal.aborted) break;
    }
    return /** @type {HandleRecord} */ (record);
  };
  const lane = async () => {
    while (queue.length && !signal.aborted) {
      const item = /** @type {T} */ (queue.shift());
      let record;
      try {
        record = await one(item);
      } catch (err) {
        console.error(err);
        continue;
      }
      if (signal.aborted && record.outcome === "cancelled") break;
      onResult(item, record);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

/**
 * A registry's rate limits kept by the page (the numbers come from Python with each
 * request: Crossref's `per_second` and `concurrent`; 0 is none): `acquire` waits for a
 * free place and a free second, and gives back the function that frees the place;
 * `holdFor(ms)` stops every request of the group until then (a 429's Retry-After, as
 * Python read it).
 * @param {{perSecond: number, concurrent: number}} limits
 */
export function rateGate(limits) {
  /** Start times of the requests of the last second. @type {number[]} */
  const starts = [];
  let active = 0;
  let heldUntil = 0;
  /** @type {Set<() => void>} */
  const waiting = new Set();
  const wake = () => {
    for (const w of [...waiting]) w();
  };
  return {
    get limits() {
      return limits;
    },
    /**
     * @param {AbortSignal} [signal]
     * @returns {Promise<() => void>}
     */
    async acquire(signal) {
      for (;;) {
        const now = Date.now();
        while (starts.length && now - starts[0] >= 1000) starts.shift();
        const rateOk = !limits.perSecond || starts.length < limits.perSecond;
        const placeOk = !limits.concurrent || active < limits.concurrent;
        if (now >= heldUntil && rateOk && placeOk) break;
        if (signal?.aborted) throw new DOMException("cancelled", "AbortError");
        const until = Math.max(heldUntil - now, rateOk ? 0 : 1000 - (now - starts[0]), 0);
        await new Promise((resolve) => {
          const done = () => {
            waiting.delete(done);
            clearTimeout(t);
            signal?.removeEventListener("abort", done);
            resolve(undefined);
          };
          const t = until ? setTimeout(done, until) : 0;
          waiting.add(done);
          signal?.addEventListener("abort", done, { once: true });
        });
      }
      starts.push(Date.now());
      active++;
      let freed = false;
      return () => {
        if (freed) return;
        freed = true;
        active--;
        wake();
      };
    },
    /** @param {number} ms */
    holdFor(ms) {
      heldUntil = Math.max(heldUntil, Date.now() + ms);
    },
  };
}
