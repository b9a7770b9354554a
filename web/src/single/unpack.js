// @ts-check
/**
 * The files inlined in the offline single file (dist/doi-tool.html): each is gzip,
 * written as the text of a `<script type="application/octet-stream"
 * data-doiname-asset=NAME data-encoding=...>` block that the browser never runs
 * (build.py, single_file.py). Read by the file's page (page.js) and its worker
 * (worker.js) alike; tested with node --test.
 * @module single/unpack
 */

/**
 * One inlined file: the text of its script block and how it is written.
 * @typedef {{encoding: "gzip-base64" | "gzip-1252", text: string}} Asset
 */

/** What `=0` ... `=3` stand for in gzip-1252 text. */
export const ESCAPED = [0x00, 0x0d, 0x3c, 0x3d];

/** Byte of each character of windows-1252 (as the page's parser decoded it), once made. */
let table1252 = /** @type {Uint8Array | null} */ (null);

/** @returns {Uint8Array} */
function windows1252() {
  if (!table1252) {
    table1252 = new Uint8Array(65536);
    const all = new TextDecoder("windows-1252").decode(Uint8Array.from({ length: 256 }, (_, i) => i));
    for (let b = 0; b < 256; b++) table1252[all.charCodeAt(b)] = b;
  }
  return table1252;
}

/**
 * The bytes an asset's text stands for: `gzip-base64` is base64; `gzip-1252` is the
 * bytes themselves in a page declared windows-1252, with the four the HTML parser would
 * not keep (NUL, CR, `<`) or that escape them (`=`) written as `=0`..`=3`.
 * @param {Asset} asset
 * @returns {Uint8Array}
 */
export function bytesOf(asset) {
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
  if (asset.encoding !== "gzip-1252") throw new Error(`an inlined file has an unknown encoding (${asset.encoding})`);
  const table = windows1252();
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
 * @param {Uint8Array} packed gzip
 * @returns {ReadableStream<Uint8Array>}
 */
export function unpacking(packed) {
  if (typeof DecompressionStream !== "function") {
    throw new Error("this browser has no DecompressionStream; please use a current browser");
  }
  return new Blob([/** @type {BlobPart} */ (packed)]).stream().pipeThrough(new DecompressionStream("gzip"));
}

/**
 * The original bytes of an inlined file.
 * @param {Uint8Array} packed gzip
 * @returns {Promise<Uint8Array>}
 */
export async function unpack(packed) {
  return new Uint8Array(await new Response(unpacking(packed)).arrayBuffer());
}

/**
 * The text of an inlined UTF-8 file.
 * @param {Asset | undefined} asset
 * @param {string} name what to call it when it is missing
 * @returns {Promise<string>}
 */
export async function unpackText(asset, name) {
  if (!asset) throw new Error(`${name} is missing from this file`);
  return new Response(unpacking(bytesOf(asset))).text();
}

/**
 * The inlined files of a document, by name.
 * @param {ParentNode} doc
 * @returns {Map<string, Asset>}
 */
export function readAssets(doc) {
  /** @type {Map<string, Asset>} */
  const assets = new Map();
  for (const node of doc.querySelectorAll("script[data-doiname-asset]")) {
    const el = /** @type {HTMLScriptElement} */ (node);
    assets.set(String(el.dataset.doinameAsset), {
      encoding: /** @type {Asset["encoding"]} */ (el.dataset.encoding),
      text: el.text,
    });
  }
  return assets;
}

/**
 * The inlined files of this page. The file declares itself windows-1252, so each byte
 * of an inlined file is one character of its script block. A server whose
 * `Content-Type` names another charset (`text/html; charset=utf-8`, the default of many
 * hosts) wins over that declaration, and the blocks are then decoded with bytes lost; the
 * file's own bytes are still there to fetch over http(s), and are read as the file
 * declares (the same parser, so the same script texts).
 * @param {Document} doc
 * @param {{href: string, protocol: string}} where the page's location
 * @param {(url: string, init?: RequestInit) => Promise<Response>} fetcher
 * @returns {Promise<Map<string, Asset>>}
 */
export async function pageAssets(doc, where, fetcher) {
  const charset = doc.characterSet.toLowerCase();
  if (charset === "windows-1252") return readAssets(doc);
  if (where.protocol !== "http:" && where.protocol !== "https:") {
    throw new Error(`this file was read as ${doc.characterSet}, not windows-1252; open it from disk`);
  }
  let bytes;
  try {
    const response = await fetcher(where.href, { cache: "force-cache", credentials: "same-origin" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    bytes = await response.arrayBuffer();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(
      `the server sent this file as ${doc.characterSet} text, and reading it again failed (${why}); download the file and open it from disk`,
    );
  }
  const text = new TextDecoder("windows-1252").decode(bytes);
  return readAssets(new DOMParser().parseFromString(text, "text/html"));
}
