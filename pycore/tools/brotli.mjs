// Brotli for the build (Python's standard library has none): node brotli.mjs SRC DEST ...
// compresses each SRC to DEST at the highest quality, with the size hint brotli uses to
// pick its window. Run by pycore/tools/doiname_build/compress.py.
import { readFileSync, writeFileSync } from "node:fs";
import { constants, brotliCompressSync } from "node:zlib";

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2 !== 0) {
  console.error("usage: node brotli.mjs SRC DEST [SRC DEST ...]");
  process.exit(2);
}
for (let i = 0; i < args.length; i += 2) {
  const data = readFileSync(args[i]);
  const packed = brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
    },
  });
  writeFileSync(args[i + 1], packed);
}
