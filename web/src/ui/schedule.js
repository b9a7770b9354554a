// @ts-check
/**
 * Scheduling for views that recompute as the person types.
 * @module ui/schedule
 */

/**
 * Run `work(value, isStale)` for the latest value only: while one run is under way,
 * newer values replace each other and only the newest runs next. `isStale()` says
 * that a newer value is waiting, so a run can drop its (stale) answer.
 * @template T
 * @param {(value: T, isStale: () => boolean) => Promise<void>} work
 * @returns {(value: T) => Promise<void>} resolves when the queue is drained
 */
export function latestOnly(work) {
  /** @type {{value: T} | null} */
  let pending = null;
  /** @type {Promise<void> | null} */
  let running = null;
  const isStale = () => pending !== null;
  async function pump() {
    while (pending) {
      const { value } = pending;
      pending = null;
      try {
        await work(value, isStale);
      } catch (err) {
        console.error(err);
      }
    }
    running = null;
  }
  return (value) => {
    pending = { value };
    if (!running) running = pump();
    return running;
  };
}
