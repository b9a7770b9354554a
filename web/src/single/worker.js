// @ts-check
/**
 * The offline single file's worker (started by page.js from a `data:` URL): the same
 * DOI engine as the site's worker (worker/engine.js), whose files come from the page
 * instead of a server.
 *
 * 1. The page's first message, `{type: "doiname-single", base, assets}`, carries the
 *    inlined files (unpack.js); the engine's `boot` waits for it (`prepare`).
 * 2. `fetch` is answered for URLs under `base` (a fake `indexURL` ending in `/`) from
 *    those files: the wasm with `Content-Type: application/wasm`, which
 *    `WebAssembly.instantiateStreaming` insists on; an `integrity` option is checked
 *    (SHA-256) as the browser would. Every other URL goes to the real `fetch`.
 * 3. Pyodide's loader is imported from a small wrapper module (worker/loader.js; `blob:`
 *    URLs made here: from `file://` only the worker's own blob URLs can be imported) that
 *    hands it the already-imported `pyodide.asm.mjs` (`createPyodideModule`), because the
 *    loader would otherwise `import()` it from `indexURL`, which is not a real place.
 *
 * Nothing here knows a DOI rule.
 * @module single/worker
 */
import { moduleURL } from "../engine/verified.js";
import { serveEngine } from "../worker/engine.js";
import { loaderWrapper } from "../worker/loader.js";
import { bytesOf, unpack, unpacking } from "./unpack.js";

/** @typedef {import("./unpack.js").Asset} Asset */
/** @typedef {{type: "doiname-single", base: string, assets: Record<string, Asset>}} Files */

/** @type {any} */
const scope = globalThis;
const realFetch = scope.fetch.bind(scope);

/** @type {Record<string, string>} */
const TYPES = {
  wasm: "application/wasm",
  mjs: "text/javascript",
  js: "text/javascript",
  json: "application/json",
  zip: "application/zip",
  whl: "application/zip",
};

/** @type {(files: Files) => void} */
let arrived = () => {};
/** @type {Promise<Files>} */
const files = new Promise((resolve) => {
  arrived = resolve;
});
scope.addEventListener("message", (/** @type {MessageEvent} */ event) => {
  const data = event.data;
  if (data && typeof data === "object" && data.type === "doiname-single") arrived(data);
});

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
  if (!wanted.includes(btoa(b64))) {
    throw new TypeError("Failed to fetch: the inlined file does not match its integrity hash");
  }
}

/**
 * A `fetch` that answers URLs under `base` from `packed` (the inlined files, still gzip).
 * The body is streamed as it is decompressed (so the wasm compiles meanwhile), unless an
 * integrity hash must be checked first.
 * @param {string} base
 * @param {Map<string, Uint8Array>} packed
 * @returns {(input: RequestInfo | URL, init?: RequestInit) => Promise<Response>}
 */
function inlinedFetch(base, packed) {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(base)) return realFetch(input, init);
    const name = decodeURIComponent(url.slice(base.length).split(/[?#]/)[0]);
    const bytes = packed.get(name);
    if (!bytes) return new Response(`${name} is not in this file`, { status: 404, statusText: "Not Found" });
    const ext = name.slice(name.lastIndexOf(".") + 1);
    const headers = { "Content-Type": TYPES[ext] ?? "application/octet-stream" };
    const integrity = init?.integrity ? init.integrity : input instanceof Request ? input.integrity : "";
    if (!integrity) return new Response(unpacking(bytes), { status: 200, headers });
    const plain = await unpack(bytes);
    await checkIntegrity(plain, integrity);
    return new Response(/** @type {BodyInit} */ (plain), { status: 200, headers });
  };
}

serveEngine(scope, {
  async prepare(config) {
    const { base, assets } = await files;
    /** @type {Map<string, Uint8Array>} */
    const packed = new Map(Object.entries(assets).map(([name, asset]) => [name, bytesOf(asset)]));
    scope.fetch = inlinedFetch(String(base), packed);
    const loader = packed.get("pyodide.mjs");
    const asm = packed.get("pyodide.asm.mjs");
    if (!loader || !asm) throw new Error("the Pyodide loader is missing from this file");
    const [loaderSrc, asmSrc] = (await Promise.all([unpack(loader), unpack(asm)])).map(moduleURL);
    const wrapper = loaderWrapper(loaderSrc, asmSrc);
    return { ...config, pyodideModuleURL: wrapper };
  },
});
