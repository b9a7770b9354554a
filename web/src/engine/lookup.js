// @ts-check
/**
 * Requests to doi.org and the registries, made on the page's main thread (so the page, a
 * test's router or a proxy sees an ordinary request) with a time limit and cancellation.
 * The URL and the request headers (such as Accept) always come from Python; what came
 * back (the status, the body, its Content-Type and Retry-After) goes to Python to read
 * (`read`). A request that
 * gets no answer is one of the core's transport outcomes: `network` (also a CORS
 * refusal: the browser does not tell them apart), `offline` (the browser says it has no
 * network), `timeout` or `cancelled`. An answer is read as a stream and abandoned
 * (`too-large`) as soon as it passes MAX_BODY bytes (or says it will, in Content-Length):
 * the rest is never downloaded, so a huge or endless answer costs the tab at most
 * MAX_BODY bytes.
 * @module engine/lookup
 */
import { MAX_BODY } from "./limits.gen.js";

/** @typedef {import("./types.gen.js").ReadParams["failure"]} TransportFailure */

/** Default time limit of a request to doi.org, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Options of a request: cancellation, its time limit, and the headers Python chose.
 * @typedef {{signal?: AbortSignal, timeoutMs?: number, headers?: Record<string, string>}} LookupOptions
 */

/**
 * What came back, as bytes for Python: the status, the body, and the two headers Python
 * reads (`content_type`, `retry_after`); or how the request failed.
 * @typedef {{status: number, body: string, failure: null, content_type: string | null, retry_after: string | null}
 *   | {status: null, body: null, failure: NonNullable<TransportFailure>, content_type: null, retry_after: null}} Answer
 */

/**
 * Fetch `url`; never throws.
 * @param {string} url
 * @param {LookupOptions} [options]
 * @returns {Promise<Answer>}
 */
export async function fetchAnswer(url, options = {}) {
  const { signal, timeoutMs = DEFAULT_TIMEOUT_MS, headers = {} } = options;
  /** @param {NonNullable<TransportFailure>} failure @returns {Answer} */
  const failed = (failure) => ({ status: null, body: null, failure, content_type: null, retry_after: null });
  const controller = new AbortController();
  /** @type {TransportFailure} */
  let why = null;
  const onCancel = () => {
    why = why ?? "cancelled";
    controller.abort();
  };
  if (signal?.aborted) return failed("cancelled");
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
      headers,
    });
    const body = await readBounded(response, MAX_BODY);
    if (body === null) {
      why = why ?? "too-large";
      controller.abort();
    } else if (!why)
      return {
        status: response.status,
        body,
        failure: null,
        content_type: response.headers.get("content-type"),
        retry_after: response.headers.get("retry-after"),
      };
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
  return failed(why ?? "network");
}

/**
 * The body of `response` as UTF-8 text, or null (the body cancelled) once it passes
 * `limit` bytes, or when its Content-Length says it will.
 * @param {Response} response
 * @param {number} limit
 * @returns {Promise<string | null>}
 */
export async function readBounded(response, limit) {
  const declared = Number(response.headers.get("content-length") ?? "");
  const reader = response.body?.getReader();
  if (!reader) return "";
  if (Number.isFinite(declared) && declared > limit) {
    await reader.cancel().catch(() => {});
    return null;
  }
  /** @type {Uint8Array[]} */
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
