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

/**
 * Call `say(value)` once `value` has stayed the same for `ms` milliseconds (a result that
 * settled), and never twice in a row for the same value; `cancel()` drops a pending one.
 * For live regions: a screen reader hears the result the person stopped at, not every
 * keystroke's.
 * @param {(value: string) => void} say
 * @param {number} ms
 * @returns {{push: (value: string) => void, cancel: () => void, reset: () => void}}
 */
export function settled(say, ms) {
  let timer = 0;
  let last = "";
  return {
    push(value) {
      clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (value === last) return;
        last = value;
        say(value);
      }, ms);
    },
    cancel() {
      clearTimeout(timer);
    },
    reset() {
      clearTimeout(timer);
      last = "";
    },
  };
}
