// @ts-check
/**
 * Scripts checked before they run. No browser checks an integrity value for
 * `new Worker(url)` or `import(url)`, so such a script is fetched with its integrity
 * value (the browser refuses bytes that differ from it) and run from a `blob:` URL made
 * of exactly the bytes it checked: in the worker, the Pyodide loader and runtime module
 * (worker/loader.js). The worker's own script needs no download: it is part of the
 * page's script, which its `<script integrity>` covers, and runs from a `blob:` URL
 * (`moduleURL`, supervisor.js); the single file's worker makes its modules with
 * `moduleURL` too. The runtime's other files (the
 * wasm, the standard library, the lock file, the wheels, the snapshot) are checked as they
 * stream (`checkedResponse`: worker/fetches.js, worker/snapshot.js), and so is every file the
 * service worker stores or hands out (`hasIntegrity`: sw.js).
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
    } catch (err) {
      throw err instanceof IntegrityError ? err : new Error(`${what} could not be read to its end`);
    }
    return moduleURL(bytes);
  } finally {
    clearTimeout(timer);
  }
}

/** The reason a file's bytes are refused (the page shows it as it is). */
export class IntegrityError extends Error {}

/**
 * The plain reason `what` is refused: not the build's bytes.
 * @param {string} what
 * @returns {string}
 */
export function integrityFailed(what) {
  return `${what} is not the file this build was made with (its integrity check failed)`;
}

/**
 * Whether `bytes` have one of the Subresource Integrity values in `integrity`
 * (`sha256-`, `sha384-` or `sha512-` and the digest in base64, several separated by spaces).
 * @param {ArrayBuffer | Uint8Array} bytes
 * @param {string} integrity
 * @returns {Promise<boolean>}
 */
export async function hasIntegrity(bytes, integrity) {
  for (const value of integrity.trim().split(/\s+/)) {
    const m = /^sha(256|384|512)-([A-Za-z0-9+/]+={0,2})$/.exec(value);
    if (!m) continue;
    const digest = new Uint8Array(await crypto.subtle.digest(`SHA-${m[1]}`, /** @type {BufferSource} */ (bytes)));
    let text = "";
    for (const byte of digest) text += String.fromCharCode(byte);
    if (btoa(text) === m[2]) return true;
  }
  return false;
}

/**
 * `response` with its body checked against `integrity` as it streams: the bytes pass on
 * as they arrive (a streaming compile, a progress count), and the body fails at its end,
 * before any reader sees it complete, with an IntegrityError when the bytes differ. The
 * browser's own `integrity` option would hold the whole body back until checked.
 * @param {Response} response
 * @param {string} integrity
 * @param {string} what the file, as the reason names it
 * @param {(err: IntegrityError) => void} [onRefused] told when the bytes are refused
 * @returns {Response}
 */
export function checkedResponse(response, integrity, what, onRefused = () => {}) {
  /** @type {Uint8Array[]} */
  const chunks = [];
  let size = 0;
  const check = new TransformStream({
    transform(chunk, controller) {
      chunks.push(chunk);
      size += chunk.byteLength;
      controller.enqueue(chunk);
    },
    async flush() {
      const all = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks.splice(0)) {
        all.set(chunk, at);
        at += chunk.byteLength;
      }
      if (!(await hasIntegrity(all, integrity))) {
        const err = new IntegrityError(integrityFailed(what));
        onRefused(err);
        throw err;
      }
    },
  });
  const body = response.body ?? new Response(new Uint8Array(0)).body;
  return new Response(/** @type {ReadableStream<Uint8Array>} */ (body).pipeThrough(check), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The request header that names the integrity value a request expects, for the
 * service worker (sw.js): it answers from the stored build that holds those bytes (a page
 * of an older build still open gets its own build's files).
 */
export const EXPECTED_HEADER = "Doiname-Integrity";
