// @ts-check
// The runtime's wasm compiled as its answer arrives, before Pyodide asks for it, and
// Pyodide's instantiation given that module (src/worker/compile-ahead.js, fetches.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { startFetches } from "../src/worker/fetches.js";

const URL_WASM = "https://site.example/pyodide/pyodide.asm.wasm";

/** A wasm module exporting `f`, which returns 42. */
const WASM = new Uint8Array([
  0x00,
  0x61,
  0x73,
  0x6d,
  0x01,
  0x00,
  0x00,
  0x00, // magic, version
  0x01,
  0x05,
  0x01,
  0x60,
  0x00,
  0x01,
  0x7f, // one type: () -> i32
  0x03,
  0x02,
  0x01,
  0x00, // one function of that type
  0x07,
  0x05,
  0x01,
  0x01,
  0x66,
  0x00,
  0x00, // export "f"
  0x0a,
  0x06,
  0x01,
  0x04,
  0x00,
  0x41,
  0x2a,
  0x0b, // its body: i32.const 42
]);

/** @param {Uint8Array<ArrayBuffer>} bytes */
async function integrityOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-384", bytes));
  return `sha384-${btoa(String.fromCharCode(...digest))}`;
}

/**
 * A worker scope whose `fetch` answers `bytes` with `type`, and whose `WebAssembly`
 * delegates to the real one, logging what is called when.
 * @param {Uint8Array<ArrayBuffer>} bytes
 * @param {string} [type]
 */
function fakeScope(bytes, type = "application/wasm") {
  /** @type {string[]} */
  const log = [];
  const scope = {
    location: { href: "https://site.example/worker.js" },
    fetch: async (/** @type {string} */ url) => {
      log.push(`fetch ${url.split("/").pop()}`);
      return new Response(bytes.slice(), { status: 200, headers: { "Content-Type": type } });
    },
    WebAssembly: {
      /** @param {Response | PromiseLike<Response>} source */
      compileStreaming: (source) => {
        log.push("compileStreaming");
        return WebAssembly.compileStreaming(source);
      },
      /** @param {WebAssembly.Module} module @param {WebAssembly.Imports} [imports] */
      instantiate: (module, imports) => {
        log.push("instantiate");
        return WebAssembly.instantiate(module, imports);
      },
      /** @param {Response | PromiseLike<Response>} source @param {WebAssembly.Imports} [imports] */
      instantiateStreaming: (source, imports) => {
        log.push("instantiateStreaming (the browser's)");
        return WebAssembly.instantiateStreaming(source, imports);
      },
    },
  };
  return { scope, log };
}

/** @param {() => boolean} until */
async function settle(until) {
  for (let i = 0; i < 100 && !until(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
}

test("the wasm is compiled when its answer comes; Pyodide's instantiation gets that module", async () => {
  const { scope, log } = fakeScope(WASM);
  /** @type {{loaded: number, total: number}[]} */
  const seen = [];
  startFetches(scope, [{ url: URL_WASM, bytes: WASM.length }], (p) => seen.push(p));
  await settle(() => log.includes("compileStreaming"));
  assert.deepEqual(log, ["fetch pyodide.asm.wasm", "compileStreaming"], "compiled before anyone asks");
  const stand = await scope.fetch(URL_WASM); // Pyodide's own request
  assert.equal(stand.body, null, "a stand-in: the body went to the compile");
  const { instance, module } = await scope.WebAssembly.instantiateStreaming(stand, {});
  assert.ok(module instanceof WebAssembly.Module);
  assert.equal(/** @type {() => number} */ (instance.exports.f)(), 42);
  assert.deepEqual(log.slice(2), ["instantiate"], "not compiled a second time");
  assert.deepEqual(seen.at(-1), { loaded: WASM.length, total: WASM.length }, "its bytes counted");
});

test("a wasm that is not the build's fails its instantiation and stops the boot", async () => {
  const other = WASM.slice();
  other[other.length - 2] = 0x2b; // returns 43
  const { scope } = fakeScope(other);
  const integrity = await integrityOf(WASM);
  const fetches = startFetches(scope, [{ url: URL_WASM, bytes: WASM.length, integrity }], () => {});
  const stand = await scope.fetch(URL_WASM);
  await assert.rejects(scope.WebAssembly.instantiateStreaming(stand, {}), /integrity check failed/);
  await assert.rejects(fetches.refused, /pyodide\.asm\.wasm is not the file this build was made with/);
});

test("the build's wasm passes its check and is compiled ahead all the same", async () => {
  const { scope } = fakeScope(WASM);
  const integrity = await integrityOf(WASM);
  startFetches(scope, [{ url: URL_WASM, bytes: WASM.length, integrity }], () => {});
  const { instance } = await scope.WebAssembly.instantiateStreaming(scope.fetch(URL_WASM), {});
  assert.equal(/** @type {() => number} */ (instance.exports.f)(), 42);
});

test("an answer that is not a wasm is passed on as it came; other sources go to the browser's instantiation", async () => {
  const { scope, log } = fakeScope(WASM, "application/octet-stream");
  startFetches(scope, [{ url: URL_WASM, bytes: WASM.length }], () => {});
  const answer = await scope.fetch(URL_WASM);
  assert.ok(answer.body, "the body is there");
  assert.ok(!log.includes("compileStreaming"));
  const direct = new Response(WASM, { headers: { "Content-Type": "application/wasm" } });
  const { instance } = await scope.WebAssembly.instantiateStreaming(direct, {});
  assert.equal(/** @type {() => number} */ (instance.exports.f)(), 42);
  assert.ok(log.includes("instantiateStreaming (the browser's)"));
});
