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
 * @module worker/fetches
 */

/** @typedef {import("../engine/config.js").RuntimeFile} RuntimeFile */
/** @typedef {{loaded: number, total: number}} Progress */

/**
 * A response whose body reports each chunk's size to `count` as it is read.
 * @param {Response} response
 * @param {(n: number) => void} count
 * @returns {Response}
 */
function counted(response, count) {
  if (!response.body) return response;
  const meter = new TransformStream({
    transform(chunk, controller) {
      count(chunk.byteLength);
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(meter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * Start every download of `files` now; replace `scope.fetch` so that the first request
 * for each URL gets its response. Returns a function that reports a module's size as
 * loaded (a module script without an integrity value is imported, not fetched:
 * `import()` cannot be counted; one with a value is fetched and checked, loader.js).
 * @param {any} scope the worker's global scope
 * @param {RuntimeFile[]} files absolute URLs
 * @param {(progress: Progress) => void} onProgress called at most every 100 ms, and at the end
 * @returns {{done: (url: string) => void}}
 */
export function startFetches(scope, files, onProgress) {
  const realFetch = scope.fetch.bind(scope);
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
  /** @param {number} n bytes over the network */
  const count = (n) => {
    loaded += n;
    if (loaded >= total) {
      if (timer) clearTimeout(timer);
      emit();
    } else if (!timer) {
      timer = setTimeout(emit, Math.max(0, 100 - (performance.now() - last)));
    }
  };
  /** @type {Map<string, Promise<Response>>} */
  const pending = new Map();
  for (const file of files) {
    if (file.module && !file.integrity) continue; // imported: see `done`
    /** @type {RequestInit} */
    const init = file.integrity ? { integrity: file.integrity } : {};
    const response = realFetch(file.url, init).then((/** @type {Response} */ r) => {
      if (!r.ok) return r;
      const sent = Number(r.headers.get("Content-Length"));
      const before = cost.get(file.url) ?? 0;
      const after = sent > 0 ? sent : before;
      cost.set(file.url, after);
      total += after - before;
      const scale = file.bytes > 0 ? after / file.bytes : 1;
      return counted(r, (n) => count(n * scale));
    });
    response.catch(() => {}); // the boot's own request sees the failure
    pending.set(file.url, response);
  }
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
    if (!early) return realFetch(input, init);
    pending.delete(key);
    return early;
  };
  const modules = new Set(files.filter((f) => f.module && !f.integrity).map((f) => f.url));
  return {
    done(url) {
      if (modules.delete(url)) count(cost.get(url) ?? 0);
    },
  };
}
