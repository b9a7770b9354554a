// @ts-check
// The single file's inlined files (src/single/unpack.js): the bytes written by build.py
// (single_file.py: gzip, then `=`, NUL, CR and `<` escaped in a windows-1252 page, or
// base64) come back exactly.
import assert from "node:assert/strict";
import { test } from "node:test";
import { gzipSync } from "node:zlib";
import { bytesOf, unpack, unpackText } from "../src/single/unpack.js";

/**
 * What single_file.py's `_escape_1252` writes, as the page's parser reads it back (each
 * byte one windows-1252 character).
 * @param {Uint8Array} data
 * @returns {string}
 */
function as1252Text(data) {
  /** @type {number[]} */
  const out = [];
  for (const b of data) {
    if (b === 0x3d) out.push(0x3d, 0x33);
    else if (b === 0x00) out.push(0x3d, 0x30);
    else if (b === 0x0d) out.push(0x3d, 0x31);
    else if (b === 0x3c) out.push(0x3d, 0x32);
    else out.push(b);
  }
  return new TextDecoder("windows-1252").decode(Uint8Array.from(out));
}

const EVERY_BYTE = Uint8Array.from({ length: 1024 }, (_, i) => (i * 7 + (i >> 8)) % 256);

test("gzip-1252 text gives back every byte, the escaped four included", () => {
  const text = as1252Text(EVERY_BYTE);
  assert.ok(!text.includes("<") && !text.includes("\r") && !text.includes("\0"));
  assert.deepEqual(bytesOf({ encoding: "gzip-1252", text }), EVERY_BYTE);
});

test("gzip-base64 text gives back every byte", () => {
  const text = Buffer.from(EVERY_BYTE).toString("base64");
  assert.deepEqual(bytesOf({ encoding: "gzip-base64", text }), EVERY_BYTE);
});

test("an unknown encoding is refused with a message", () => {
  assert.throws(() => bytesOf(/** @type {any} */ ({ encoding: "zip", text: "" })), /unknown encoding \(zip\)/);
});

test("an inlined file is decompressed: bytes, and UTF-8 text", async () => {
  const source = "export const name = '10.1000/\u00e9\u2013x';\n".repeat(50);
  const packed = gzipSync(Buffer.from(source, "utf-8"));
  const asset = { encoding: /** @type {const} */ ("gzip-1252"), text: as1252Text(packed) };
  assert.equal(await unpackText(asset, "x.js"), source);
  assert.deepEqual(Buffer.from(await unpack(bytesOf(asset))).toString("utf-8"), source);
  await assert.rejects(unpackText(undefined, "config.json"), /config.json is missing from this file/);
});
