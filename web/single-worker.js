// @ts-check
/**
 * Worker bootstrap of the offline single file (dist/doi-tool.html).
 *
 * From `file://` a module worker made from a `blob:` URL fails silently, so the page
 * starts this file from a `data:` URL instead. Here, and only here, it builds `blob:`
 * URLs from the sources the page posts (measured on this Chromium: blob URLs made by
 * the worker itself can be imported). It then runs the site's own worker.js unchanged:
 *
 * 1. The first message, `{type: "doiname-single", base, placeholder, modules, assets}`,
 *    carries worker.js and the modules it imports (dependencies first, relative import
 *    specifiers replaced by `placeholder + path` by build.py) and the inlined files
 *    (gzip, as text: see `bytesOf`).
 * 2. `fetch` is answered for URLs under `base` (a fake `indexURL` ending in `/`) from
 *    those files: the wasm with `Content-Type: application/wasm`, which
 *    `WebAssembly.instantiateStreaming` insists on; an `integrity` option is checked
 *    (SHA-256) as the browser would. Every other URL goes to the real `fetch`.
 * 3. Pyodide's loader is imported from a small wrapper module that hands it the
 *    already-imported `pyodide.asm.mjs` (`createPyodideModule`), because the loader
 *    would otherwise `import()` it from `indexURL`, which is not a real place.
 * 4. worker.js is imported from a blob URL (its imports from theirs); messages that
 *    came meanwhile (the client's `init`) are replayed to it, with
 *    `config.pyodideModuleURL` set to the wrapper.
 *
 * Nothing here knows a DOI rule. A failure is reported as worker.js reports its own:
 * a `status` message with phase `error`.
 * @module single-worker
 */

/** @type {any} */
const scope = self;
const realFetch = scope.fetch.bind(scope);

/**
 * One inlined file: the text of its script block (see `bytesOf`).
 * @typedef {{encoding: "gzip-base64" | "gzip-1252", text: string}} Asset
 */

/** The inlined files, still gzip-compressed, by name. @type {Map<string, Uint8Array>} */
const files = new Map();
/** @type {Record<string, string>} */
const TYPES = {
  wasm: "application/wasm",
  mjs: "text/javascript",
  js: "text/javascript",
  json: "application/json",
  zip: "application/zip",
  whl: "application/zip",
};
/** URL prefix answered from `files` (set by the first message). */
let base = "";
/** The wrapper module's blob URL, once made. */
let loaderURL = "";
/** True once worker.js is running: from then on it handles every message. */
let handedOver = false;
/** @type {unknown[]} */
const waiting = [];

/**
 * Report a failure the way worker.js does (the client then rejects `ready`).
 * @param {unknown} err
 */
function fail(err) {
  console.error("doiname single file: the worker could not start", err);
  const why = err && typeof err === "object" && "message" in err ? String(err.message) : String(err);
  scope.postMessage(
    JSON.stringify({
      type: "status",
      phase: "error",
      message: `The DOI engine could not be unpacked from this file: ${why}`,
    }),
  );
}

/** Byte of each character of windows-1252 (as the page's parser decoded it). */
let table1252 = /** @type {Uint8Array | null} */ (null);
/** What `=0` ... `=3` stand for in gzip-1252 text. */
const ESCAPED = [0x00, 0x0d, 0x3c, 0x3d];

/**
 * The bytes an asset's text stands for: `gzip-base64` is base64; `gzip-1252` is the
 * bytes themselves in a windows-1252 page, with the four the HTML parser would not
 * keep (NUL, CR, `<`) or that escape them (`=`) written as `=0`..`=3`.
 * @param {Asset} asset
 * @returns {Uint8Array}
 */
function bytesOf(asset) {
  const text = asset.text;
  if (asset.encoding === "gzip-base64") {
    /** @type {any} */
    const U8 = Uint8Array;
    if (typeof U8.fromBase64 === "function") return U8.fromBase64(text);
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  if (asset.encoding !== "gzip-1252") throw new Error(`unknown encoding ${asset.encoding}`);
  if (!table1252) {
    table1252 = new Uint8Array(65536);
    const all = new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 256 }, (_, i) => i));
    for (let b = 0; b < 256; b++) table1252[all.charCodeAt(b)] = b;
  }
  const table = table1252;
  const out = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[n++] = c === 0x3d ? ESCAPED[text.charCodeAt(++i) - 0x30] : table[c];
  }
  return out.subarray(0, n);
}

/**
 * The original bytes of an inlined file, as they are decompressed.
 * @param {Uint8Array} packed
 * @returns {ReadableStream<Uint8Array>}
 */
function unpacking(packed) {
  return new Blob([/** @type {BlobPart} */ (packed)]).stream().pipeThrough(new DecompressionStream("gzip"));
}

/**
 * The original bytes of an inlined file.
 * @param {Uint8Array} packed
 * @returns {Promise<Uint8Array>}
 */
async function unpack(packed) {
  return new Uint8Array(await new Response(unpacking(packed)).arrayBuffer());
}

/**
 * Check bytes against a Subresource Integrity value (its sha256 entries).
 * @param {Uint8Array} bytes
 * @param {string} integrity
 */
async function checkIntegrity(bytes, integrity) {
  const wanted = integrity
    .split(/\s+/)
    .filter((h) => h.startsWith("sha256-"))
    .map((h) => h.slice(7).split("?")[0]);
  if (!wanted.length) return;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", /** @type {BufferSource} */ (bytes)));
  let b64 = "";
  for (const byte of digest) b64 += String.fromCharCode(byte);
  b64 = btoa(b64);
  if (!wanted.includes(b64)) {
    throw new TypeError("Failed to fetch: the inlined file does not match its integrity hash");
  }
}

/**
 * `fetch`, answering URLs under `base` from the inlined files. The body is streamed as
 * it is decompressed (so the wasm compiles meanwhile), unless an integrity hash must
 * be checked first.
 * @param {RequestInfo | URL} input
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
async function singleFetch(input, init) {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!base || !url.startsWith(base)) return realFetch(input, init);
  const name = decodeURIComponent(url.slice(base.length).split(/[?#]/)[0]);
  const packed = files.get(name);
  if (!packed) return new Response(`${name} is not in this file`, { status: 404, statusText: "Not Found" });
  const ext = name.slice(name.lastIndexOf(".") + 1);
  const headers = { "Content-Type": TYPES[ext] ?? "application/octet-stream" };
  const integrity = init?.integrity ? init.integrity : input instanceof Request ? input.integrity : "";
  if (!integrity) return new Response(unpacking(packed), { status: 200, headers });
  const bytes = await unpack(packed);
  await checkIntegrity(bytes, integrity);
  return new Response(/** @type {BodyInit} */ (bytes), { status: 200, headers });
}

/**
 * A blob URL for JavaScript source (text or UTF-8 bytes).
 * @param {string | Uint8Array} source
 * @returns {string}
 */
function moduleURL(source) {
  return URL.createObjectURL(new Blob([/** @type {BlobPart} */ (source)], { type: "text/javascript" }));
}

/**
 * Point the client's init config at the inlined loader.
 * @param {unknown} data
 */
function patch(data) {
  const msg = /** @type {any} */ (data);
  if (msg && typeof msg === "object" && msg.method === "boot" && msg.params && typeof msg.params === "object") {
    msg.params.pyodideModuleURL = loaderURL;
  }
}

/**
 * Unpack, make the loader and worker.js importable, hand over.
 * @param {{base: string, placeholder: string,
 *   modules: {path: string, source: string, deps: string[]}[],
 *   assets: Record<string, Asset>}} msg
 */
async function start(msg) {
  base = String(msg.base);
  for (const [name, asset] of Object.entries(msg.assets)) files.set(name, bytesOf(asset));
  scope.fetch = singleFetch;
  const loader = files.get("pyodide.mjs");
  const asm = files.get("pyodide.asm.mjs");
  if (!loader || !asm) throw new Error("the Pyodide loader is missing");
  const [loaderSrc, asmSrc] = (await Promise.all([unpack(loader), unpack(asm)])).map(moduleURL);
  loaderURL = moduleURL(
    [
      `import { loadPyodide as load } from ${JSON.stringify(loaderSrc)};`,
      `import createPyodideModule from ${JSON.stringify(asmSrc)};`,
      "export function loadPyodide(options) { return load({ ...options, createPyodideModule }); }",
      "",
    ].join("\n"),
  );
  /** @type {Map<string, string>} */
  const urls = new Map();
  let last = "";
  for (const mod of msg.modules) {
    let source = String(mod.source);
    for (const dep of mod.deps) {
      const url = urls.get(dep);
      if (!url) throw new Error(`the module ${mod.path} needs ${dep}, which comes later`);
      source = source.split(JSON.stringify(msg.placeholder + dep)).join(JSON.stringify(url));
    }
    last = moduleURL(source);
    urls.set(mod.path, last);
  }
  if (!last) throw new Error("worker.js is missing");
  await import(last);
  handedOver = true;
  for (const data of waiting.splice(0)) {
    patch(data);
    scope.dispatchEvent(new MessageEvent("message", { data }));
  }
}

scope.addEventListener("message", (/** @type {MessageEvent} */ event) => {
  const data = event.data;
  if (handedOver) {
    // Registered before worker.js's own listener, so this runs first.
    patch(data);
    return;
  }
  if (data && typeof data === "object" && data.type === "doiname-single") {
    if (!base) start(data).catch(fail);
    return;
  }
  waiting.push(data);
});

export {};
