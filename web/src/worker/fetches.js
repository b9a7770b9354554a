// @ts-check
/**
 * The runtime's downloads, all started at once when the worker gets its config, with
 * their progress counted. Pyodide asks for its files one after another (the loader, then
 * the wasm and the standard library, then the lock file, then micropip); here every file
 * the boot needs is asked for at the same moment, and `fetch` in this worker answers
 * Pyodide's own request for one of them with the response already under way (once; any
 * later request goes to the network as usual). The wasm keeps streaming compilation: its
 * response is handed over as it arrives, with its `Content-Type`.
 *
 * Progress is in bytes over the network: each body's decoded bytes are counted as they
 * are read, as a share of the file's size (`RuntimeFile.bytes`), times what the file
 * costs to send: its `Content-Length` once its answer says (the compressed length when
 * the host compresses), the build's brotli size until then (`RuntimeFile.transfer`).
 * Counts are whole bytes, and a body that has arrived whole counts exactly its cost, so
 * `loaded` reaches `total` when the last body arrives; that report goes at once (not
 * after the 100 ms a report otherwise waits), before the boot goes on to unpack and
 * import, so the page has it before `ready`.
 *
 * The files marked `later` (the wheels: Pyodide asks for micropip's only once the
 * interpreter runs, and the core's is installed after it) are asked for once every other
 * download has arrived or failed, so that they do not share the connection with the wasm
 * and the standard library, which the interpreter waits for; they arrive while it
 * starts. A request for one of them before that gets its download when it starts.
 *
 * Every file with an integrity value in the build (all of them: the wasm, the standard
 * library, the lock file, the wheels) is checked against it, on the first request and on
 * any later one, from the network or from the service worker's copy: its body fails at
 * its end when the bytes differ, so Pyodide never runs or reads a changed file.
 *
 * The wasm's first request gets a stand-in answer: its body is being compiled already,
 * since its answer came (compile-ahead.js).
 * @module worker/fetches
 */

import { checkedResponse, EXPECTED_HEADER } from "../engine/verified.js";
import { compileAhead, compilesAhead, useCompiledAhead } from "./compile-ahead.js";

/** @typedef {import("../engine/config.js").RuntimeFile} RuntimeFile */
/** @typedef {{loaded: number, total: number}} Progress */

/**
 * A response whose body reports each chunk's size to `count` as it is read, and calls
 * `end` when the body has arrived (`whole` true), failed or been cancelled.
 * @param {Response} response
 * @param {(n: number) => void} count
 * @param {(whole: boolean) => void} end
 * @returns {Response}
 */
function counted(response, count, end) {
  if (!response.body) {
    end(true);
    return response;
  }
  const meter = new TransformStream({
    transform(chunk, controller) {
      count(chunk.byteLength);
      controller.enqueue(chunk);
    },
    flush: () => end(true),
  });
  response.body.pipeTo(meter.writable).catch(() => end(false));
  return new Response(meter.readable, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * How a runtime file is asked for: a module script with the browser's `integrity` option
 * (loader.js reads it whole anyway), any other with the integrity value it expects named
 * for the service worker (`EXPECTED_HEADER`), its bytes checked as they stream (`checked`).
 * @param {RuntimeFile} file
 * @returns {RequestInit}
 */
function requestInit(file) {
  if (!file.integrity) return {};
  return file.module ? { integrity: file.integrity } : { headers: { [EXPECTED_HEADER]: file.integrity } };
}

/**
 * Start every download of `files` now; replace `scope.fetch` so that the first request
 * for each URL gets its response. Returns a function that reports a module's size as
 * loaded (a module script without an integrity value is imported, not fetched:
 * `import()` cannot be counted; one with a value is fetched and checked, loader.js).
 * @param {any} scope the worker's global scope
 * @param {RuntimeFile[]} files absolute URLs
 * @param {(progress: Progress) => void} onProgress called at most every 100 ms, and at the end
 * @returns {{done: (url: string) => void, release: () => void, refused: Promise<never>}}
 *   `release` asks for the `later` files now (the boot calls it once the interpreter is
 *   up, in case a download was never read); `refused` rejects with the reason when a
 *   file is not the build's (the boot stops then)
 */
export function startFetches(scope, files, onProgress) {
  const realFetch = scope.fetch.bind(scope);
  useCompiledAhead(scope);
  /** What each file costs to send, by URL (the build's estimate, then its Content-Length). */
  const cost = new Map(files.map((f) => [f.url, Math.max(0, f.transfer || f.bytes || 0)]));
  let total = [...cost.values()].reduce((a, b) => a + b, 0);
  let loaded = 0;
  let last = 0;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  const emit = () => {
    timer = null;
    last = performance.now();
    onProgress({ loaded: Math.round(Math.min(loaded, total)), total: Math.round(total) });
  };
  /**
   * Add `n` whole bytes over the network; report at once when `now` (a body arrived
   * whole) or everything has, else within 100 ms.
   * @param {number} n
   * @param {boolean} [now]
   */
  const count = (n, now = false) => {
    loaded += n;
    if (now || loaded >= total) {
      if (timer) clearTimeout(timer);
      emit();
    } else if (!timer) {
      timer = setTimeout(emit, Math.max(0, 100 - (performance.now() - last)));
    }
  };
  /** @type {Map<string, Promise<Response>>} */
  const pending = new Map();
  /** @type {() => void} */
  let release = () => {};
  /** Opens when no download but the `later` ones is still arriving (or on `release`). */
  const gate = new Promise((resolve) => {
    release = () => resolve(undefined);
  });
  let arriving = 0;
  /** @param {RuntimeFile} file @param {boolean} first */
  const start = (file, first) => {
    let ended = false;
    const end = () => {
      if (first && !ended && --arriving === 0) release();
      ended = true;
    };
    return realFetch(file.url, requestInit(file)).then(
      (/** @type {Response} */ r) => {
        if (!r.ok) {
          end();
          return r;
        }
        r = checked(file, r);
        const sent = Number(r.headers.get("Content-Length"));
        const before = cost.get(file.url) ?? 0;
        const after = sent > 0 ? sent : before;
        cost.set(file.url, after);
        total += after - before;
        // The body's count so far: its decoded bytes' share of `after` in whole bytes,
        // and all of `after` once it has arrived whole.
        let decoded = 0;
        let sofar = 0;
        /** @param {number} share @param {boolean} [whole] */
        const countTo = (share, whole = false) => {
          const next = Math.min(after, Math.max(sofar, share));
          const n = next - sofar;
          sofar = next;
          if (n > 0 || whole) count(n, whole);
        };
        const body = counted(
          r,
          (n) => {
            decoded += n;
            countTo(file.bytes > 0 ? Math.floor((decoded * after) / file.bytes) : decoded);
          },
          (whole) => {
            if (whole && !ended) countTo(after, true);
            end();
          },
        );
        // The wasm: compiled as it arrives, not once Pyodide's loader asks (compile-ahead.js).
        return compilesAhead(scope, body) ? compileAhead(scope, body) : body;
      },
      (/** @type {unknown} */ err) => {
        end();
        throw err;
      },
    );
  };
  /** @type {(err: Error) => void} */
  let refuse = () => {};
  /** Rejects when a file's bytes are refused (Pyodide may hang on a failed download). */
  /** @type {Promise<never>} */
  const refused = new Promise((_, reject) => {
    refuse = reject;
  });
  refused.catch(() => {});
  /**
   * A runtime file's answer with its body checked against the build's value as it
   * streams (a module script's was checked by the browser).
   * @param {RuntimeFile} file
   * @param {Response} response
   * @returns {Response}
   */
  const checked = (file, response) => {
    if (!file.integrity || file.module) return response;
    return checkedResponse(response, file.integrity, file.url.split("/").pop() || file.url, refuse);
  };
  const byURL = new Map(files.map((f) => [f.url, f]));
  const fetched = files.filter((f) => !(f.module && !f.integrity)); // the others are imported: see `done`
  arriving = fetched.filter((f) => !f.later).length;
  for (const file of fetched) {
    const response = file.later ? gate.then(() => start(file, false)) : start(file, true);
    response.catch(() => {}); // the boot's own request sees the failure
    pending.set(file.url, response);
  }
  if (arriving === 0) release();
  scope.fetch = (/** @type {RequestInfo | URL} */ input, /** @type {RequestInit | undefined} */ init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = (
      init?.method ?? (typeof input === "object" && "method" in input ? input.method : "GET")
    ).toUpperCase();
    let key = "";
    try {
      key = new URL(url, scope.location?.href).href;
    } catch {}
    const early = method === "GET" ? pending.get(key) : undefined;
    if (early) {
      pending.delete(key);
      return early;
    }
    const file = method === "GET" ? byURL.get(key) : undefined;
    if (!file?.integrity || file.module) return realFetch(input, init);
    return realFetch(key, { ...init, ...requestInit(file) }).then((/** @type {Response} */ r) =>
      r.ok ? checked(file, r) : r,
    );
  };
  const modules = new Set(files.filter((f) => f.module && !f.integrity).map((f) => f.url));
  return {
    done(url) {
      if (modules.delete(url)) count(cost.get(url) ?? 0, true);
    },
    release,
    refused,
  };
}

/**
 * The bytes of a gzipped body (the core's files, the snapshot), ungzipped as it arrives.
 * @param {Response} response
 * @returns {Promise<Uint8Array>}
 */
export async function gunzipped(response) {
  const body = /** @type {ReadableStream<BufferSource>} */ (response.body);
  return new Uint8Array(await new Response(body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
}
