// @ts-check
/**
 * The views' one door to the core: `window.doiname` (installed by doiname-api.js).
 * Nothing here knows a DOI rule; it only passes text to Python and back.
 * @module views/api
 */

/**
 * @typedef {{prefix: string, suffix: string, name: string}} DoiJson
 * @typedef {{code: string, severity: "error" | "warning" | "info", message: string,
 *   start: number, end: number, input_start: number | null, input_end: number | null,
 *   in_name: boolean, source: string}} FindingJson
 * @typedef {{start: number, end: number, char: string, code_point: string, encoded: string,
 *   rule: string, source: string}} ChangeJson
 * @typedef {{verdict: string, equivalent: boolean, message: string, a: string, b: string,
 *   position: number | null, a_char: string | null, b_char: string | null}} ExplanationJson
 * @typedef {{message: string, code?: string, position?: number | null, end?: number | null}} CoreError
 * @typedef {{phase: string, message: string}} BootStatus
 * @typedef {{
 *   ready: Promise<unknown>,
 *   call: (name: string, ...args: unknown[]) => Promise<any>,
 *   resolve: (text: string, options?: {signal?: AbortSignal}) => Promise<any>,
 *   whichRa?: (texts: string[], options?: {signal?: AbortSignal}) => Promise<any>,
 *   expandShort?: (text: string, options?: {signal?: AbortSignal}) => Promise<any>,
 *   onStatus?: (cb: (status: BootStatus) => void) => unknown,
 * }} DoinameApi
 */

/**
 * The API object, or null when doiname-api.js did not load.
 * @returns {DoinameApi | null}
 */
export function api() {
  const w = /** @type {any} */ (window);
  return w.doiname && typeof w.doiname.call === "function" ? w.doiname : null;
}

/**
 * Call the core's public function `name`. Keyword arguments go last as
 * `{kwargs: {...}}`, the bridge's convention (bridge.py / doiname-api.js).
 * @param {string} name
 * @param {...unknown} args
 * @returns {Promise<any>}
 */
export function call(name, ...args) {
  const a = api();
  if (!a) return Promise.reject(new Error("The DOI engine (doiname-api.js) did not load."));
  return a.call(name, ...args);
}

/**
 * Keyword arguments for `call` (e.g. `kw({level: "strict"})`).
 * @param {Record<string, unknown>} kwargs
 * @returns {{kwargs: Record<string, unknown>}}
 */
export function kw(kwargs) {
  return { kwargs };
}

/**
 * The plain facts of a rejection from `call`: message, code, position, end.
 * @param {unknown} err
 * @returns {CoreError}
 */
export function coreError(err) {
  const e = /** @type {any} */ (err);
  const message = e && typeof e.message === "string" && e.message ? e.message : String(err);
  return {
    message,
    code: e && typeof e.code === "string" ? e.code : undefined,
    position: e && typeof e.position === "number" ? e.position : null,
    end: e && typeof e.end === "number" ? e.end : null,
  };
}

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
