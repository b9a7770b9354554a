// @ts-check
/**
 * Requests to doi.org, made on the page's main thread (so the page, a test's router or a
 * proxy sees an ordinary request) with a time limit and cancellation. The URL always
 * comes from Python; what came back goes to Python to read (`read`). A request that
 * gets no answer is one of the core's transport outcomes: `network` (also a CORS
 * refusal: the browser does not tell them apart), `offline` (the browser says it has no
 * network), `timeout` or `cancelled`.
 * @module engine/lookup
 */

/** @typedef {import("./types.gen.js").ReadParams["failure"]} TransportFailure */

/** Default time limit of a request to doi.org, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Options of a request to doi.org.
 * @typedef {{signal?: AbortSignal, timeoutMs?: number}} LookupOptions
 */

/**
 * Fetch `url`; never throws.
 * @param {string} url
 * @param {LookupOptions} [options]
 * @returns {Promise<{status: number, body: string, failure: null} | {status: null, body: null, failure: NonNullable<TransportFailure>}>}
 */
export async function fetchAnswer(url, options = {}) {
  const { signal, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  const controller = new AbortController();
  /** @type {TransportFailure} */
  let why = null;
  const onCancel = () => {
    why = why ?? "cancelled";
    controller.abort();
  };
  if (signal?.aborted) return { status: null, body: null, failure: "cancelled" };
  signal?.addEventListener("abort", onCancel, { once: true });
  const limit = setTimeout(() => {
    why = why ?? "timeout";
    controller.abort();
  }, timeoutMs);
  try {
    const response = await fetch(url, {
      signal: controller.signal,
      credentials: "omit",
      referrerPolicy: "no-referrer",
    });
    const body = await response.text();
    if (!why) return { status: response.status, body, failure: null };
  } catch (err) {
    if (!why) {
      // The browser knows when it has no network at all: say so, not "could not reach".
      why = typeof navigator !== "undefined" && navigator.onLine === false ? "offline" : "network";
      console.warn(`doiname: no answer from ${url}:`, err);
    }
  } finally {
    clearTimeout(limit);
    signal?.removeEventListener("abort", onCancel);
  }
  return { status: null, body: null, failure: why ?? "network" };
}
