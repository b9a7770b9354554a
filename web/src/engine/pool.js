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
