// @ts-check
/**
 * Scripts checked before they run. No browser checks an integrity value for
 * `new Worker(url)` or `import(url)`, so such a script is fetched with its integrity
 * value (the browser refuses bytes that differ from it) and run from a `blob:` URL made
 * of exactly the bytes it checked. Used for the worker's own script (supervisor.js) and,
 * in the worker, for the Pyodide loader and runtime module (worker/loader.js); the single
 * file's worker makes its modules with `moduleURL` too.
 * @module engine/verified
 */

/**
 * How long a checked script may take to arrive (ms): the engine's boot limit
 * (supervisor.js's BOOT_TIMEOUT_MS), which it is part of.
 */
export const SCRIPT_DEADLINE_MS = 120_000;

/**
 * A `blob:` URL for JavaScript source (text or bytes), to run as a module or a worker.
 * @param {string | Uint8Array | ArrayBuffer} source
 * @returns {string}
 */
export function moduleURL(source) {
  return URL.createObjectURL(new Blob([/** @type {BlobPart} */ (source)], { type: "text/javascript" }));
}

/**
 * Fetch the script at `url` with its integrity value and return a `blob:` URL of its
 * checked bytes. Rejects with a plain one-line reason (naming the script as `what`): not
 * downloaded, not the build's bytes (the browser does not tell these two apart), an HTTP
 * error, or too slow.
 * @param {string} url absolute
 * @param {string} integrity a Subresource Integrity value from the build
 * @param {{what: string, timeoutMs?: number, fetcher?: (url: string, init: RequestInit) => Promise<Response>}} opts
 * @returns {Promise<string>}
 */
export async function verifiedScriptURL(url, integrity, opts) {
  const { what, timeoutMs = SCRIPT_DEADLINE_MS } = opts;
  const fetcher = opts.fetcher ?? ((u, init) => fetch(u, init)); // the scope's fetch when called
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    let response;
    try {
      response = await fetcher(url, { integrity, signal: abort.signal, credentials: "same-origin" });
    } catch {
      throw new Error(
        abort.signal.aborted
          ? `${what} did not arrive within ${timeoutMs / 1000} seconds`
          : `${what} could not be downloaded, or it is not the file this build was made with (its integrity check failed)`,
      );
    }
    if (!response.ok) throw new Error(`${what} could not be downloaded (HTTP ${response.status})`);
    let bytes;
    try {
      bytes = await response.arrayBuffer();
    } catch {
      throw new Error(`${what} could not be read to its end`);
    }
    return moduleURL(bytes);
  } finally {
    clearTimeout(timer);
  }
}
