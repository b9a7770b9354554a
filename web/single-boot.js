// @ts-check
/**
 * Page bootstrap of the offline single file (dist/doi-tool.html); build.py
 * inlines it as the file's only module script.
 *
 * The file holds, in `<script type="application/octet-stream" data-doiname-asset=NAME>`
 * blocks (gzip, written as text), the page's ES modules and every file the DOI engine
 * needs. This page only unpacks the `page` asset; the worker unpacks the rest.
 * From `file://` the page's modules cannot be imported by relative path, so the `page`
 * asset lists them with their relative imports already replaced by placeholders
 * (build.py); here each becomes a `blob:` module URL, dependencies first, with the
 * placeholders replaced by those URLs. Then, as doiname-api.js does on the site,
 * `window.doiname` is made with `createDoiname` from doiname-client.js, but with a
 * worker started from a `data:` URL (single-worker.js; a blob: worker fails from
 * file://), which gets the engine's files posted to it. Last, the page's own module
 * scripts (main.js) are imported: same UI, same API as the site.
 *
 * Nothing here knows a DOI rule.
 * @module single-boot
 */

/**
 * One inlined file: the text of its script block (see single-worker.js, `bytesOf`).
 * @typedef {{encoding: "gzip-base64" | "gzip-1252", text: string}} Asset
 */

/**
 * The `page` asset (JSON), written by build.py.
 * @typedef {{
 *   placeholder: string,
 *   modules: {path: string, source: string, deps: string[]}[],
 *   client: string,
 *   entries: string[],
 *   workerBoot: string,
 *   workerModules: {path: string, source: string, deps: string[]}[],
 *   base: string,
 *   config: import("./src/engine/config.js").WorkerConfig,
 *   engineAssets: string[],
 * }} Page
 */

/** @type {any} */
const w = window;

/**
 * Say on the page that the file could not start (main.js is not running yet).
 * @param {unknown} err
 */
function showFailure(err) {
  console.error("doiname single file: could not start", err);
  const why = err && typeof err === "object" && "message" in err ? String(err.message) : String(err);
  const box = document.getElementById("boot-message");
  const boot = document.getElementById("boot");
  if (boot) boot.dataset.phase = "failed";
  if (box) box.textContent = `This file could not start in this browser: ${why}`;
}

/**
 * The inlined assets, by name.
 * @returns {Map<string, Asset>}
 */
function readAssets() {
  /** @type {Map<string, Asset>} */
  const assets = new Map();
  for (const el of document.querySelectorAll("script[data-doiname-asset]")) {
    const node = /** @type {HTMLScriptElement} */ (el);
    assets.set(String(node.dataset.doinameAsset), {
      encoding: /** @type {Asset["encoding"]} */ (node.dataset.encoding),
      text: node.text,
    });
  }
  return assets;
}

/** What `=0` ... `=3` stand for in gzip-1252 text. */
const ESCAPED = [0x00, 0x0d, 0x3c, 0x3d];

/**
 * The bytes an asset's text stands for (the same as single-worker.js's `bytesOf`):
 * `gzip-base64` is base64; `gzip-1252` is the bytes themselves in this windows-1252
 * page, with NUL, CR, `<` and `=` written as `=0`..`=3`.
 * @param {Asset} asset
 * @returns {Uint8Array}
 */
function bytesOf(asset) {
  const text = asset.text;
  if (asset.encoding === "gzip-base64") {
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  if (asset.encoding !== "gzip-1252") throw new Error(`its scripts have an unknown encoding (${asset.encoding})`);
  const table = new Uint8Array(65536);
  const all = new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 256 }, (_, i) => i));
  for (let b = 0; b < 256; b++) table[all.charCodeAt(b)] = b;
  const out = new Uint8Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[n++] = c === 0x3d ? ESCAPED[text.charCodeAt(++i) - 0x30] : table[c];
  }
  return out.subarray(0, n);
}

/**
 * The text of an inlined (UTF-8) file.
 * @param {Asset | undefined} asset
 * @returns {Promise<string>}
 */
async function unpackText(asset) {
  if (!asset) throw new Error("the page's scripts are missing");
  if (typeof DecompressionStream !== "function") {
    throw new Error("it has no DecompressionStream; please use a current browser");
  }
  const stream = new Blob([/** @type {BlobPart} */ (bytesOf(asset))])
    .stream()
    .pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text();
}

/**
 * Blob URLs of the page's modules, dependencies first.
 * @param {Page} page
 * @returns {Map<string, string>}
 */
function moduleURLs(page) {
  /** @type {Map<string, string>} */
  const urls = new Map();
  for (const mod of page.modules) {
    let source = mod.source;
    for (const dep of mod.deps) {
      const url = urls.get(dep);
      if (!url) throw new Error(`the module ${mod.path} needs ${dep}, which comes later`);
      source = source.split(JSON.stringify(page.placeholder + dep)).join(JSON.stringify(url));
    }
    urls.set(mod.path, URL.createObjectURL(new Blob([source], { type: "text/javascript" })));
  }
  return urls;
}

async function main() {
  const assets = readAssets();
  /** @type {Page} */
  const page = JSON.parse(await unpackText(assets.get("page")));
  const urls = moduleURLs(page);
  /** @type {Record<string, Asset>} */
  const engine = {};
  for (const name of page.engineAssets) {
    const asset = assets.get(name);
    if (!asset) throw new Error(`${name} is missing`);
    engine[name] = asset;
  }
  const client = await import(/** @type {string} */ (urls.get(page.client)));
  if (!w.doiname) {
    w.doiname = client.createDoiname({
      config: page.config,
      createWorker: () => {
        const worker = new Worker(`data:text/javascript;charset=utf-8,${encodeURIComponent(page.workerBoot)}`, {
          type: "module",
          name: "doiname",
        });
        worker.postMessage({
          type: "doiname-single",
          base: page.base,
          placeholder: page.placeholder,
          modules: page.workerModules,
          assets: engine,
        });
        return worker;
      },
    });
  }
  for (const entry of page.entries) {
    await import(/** @type {string} */ (urls.get(entry)));
  }
}

main().catch(showFailure);

export {};
