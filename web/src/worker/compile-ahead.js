// @ts-check
/**
 * The runtime's wasm compiled as it arrives. Pyodide compiles `pyodide.asm.wasm` only
 * once its loader has imported the runtime module and asked for the wasm
 * (`WebAssembly.instantiateStreaming` in its `instantiateWasm`): in this worker, after the
 * loader's two scripts are downloaded, checked and imported, 130-200 ms after the wasm's
 * answer began to arrive on a fast network, with the compile on the boot's critical path
 * (Chromium, 2026-11-27). So the worker's own download of it (fetches.js) starts the
 * browser's streaming compilation the moment its answer comes (`compileAhead`), and
 * Pyodide's request gets a stand-in answer without a body; `instantiateStreaming` in this
 * worker (`useCompiledAhead`) instantiates the module compiled ahead for that stand-in,
 * with Pyodide's imports, and anything else as the browser does. The body is the one the
 * worker counts and checks: a wasm whose bytes are not the build's fails its compile, and
 * with it its instantiation, as it failed before.
 * @module worker/compile-ahead
 */

/** The content type a wasm's answer needs for streaming compilation. */
export const WASM_TYPE = "application/wasm";

/** The stand-in answers, each with the module compiled from the real one. @type {WeakMap<Response, Promise<WebAssembly.Module>>} */
const ahead = new WeakMap();

/** The mark of an `instantiateStreaming` that knows the stand-ins. */
const MARK = Symbol("compiledAhead");

/**
 * Whether `response` is a wasm this scope can compile as it streams (its content type
 * says so, and the scope compiles streams).
 * @param {any} scope
 * @param {Response} response
 * @returns {boolean}
 */
export function compilesAhead(scope, response) {
  const type = (response.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  const wasm = scope.WebAssembly;
  return type === WASM_TYPE && typeof wasm?.compileStreaming === "function" && !!wasm.instantiateStreaming?.[MARK];
}

/**
 * Start compiling `response` (a wasm's answer: its body is read by the compile) and
 * return the stand-in answer to hand to `instantiateStreaming` instead.
 * @param {any} scope
 * @param {Response} response
 * @returns {Response}
 */
export function compileAhead(scope, response) {
  /** @type {Promise<WebAssembly.Module>} */
  const module = scope.WebAssembly.compileStreaming(response);
  module.catch(() => {}); // the instantiation reports the failure
  const stand = new Response(null, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  ahead.set(stand, module);
  return stand;
}

/**
 * Make `scope.WebAssembly.instantiateStreaming` instantiate the module compiled ahead
 * for a stand-in answer (once per scope; any other source as before).
 * @param {any} scope
 */
export function useCompiledAhead(scope) {
  const wasm = scope.WebAssembly;
  if (typeof wasm?.instantiateStreaming !== "function" || wasm.instantiateStreaming[MARK]) return;
  const real = wasm.instantiateStreaming.bind(wasm);
  /**
   * @param {Response | PromiseLike<Response>} source
   * @param {WebAssembly.Imports} [imports]
   */
  const instantiateStreaming = async (source, imports) => {
    const response = await source;
    const module = ahead.get(response);
    if (!module) return real(response, imports);
    ahead.delete(response);
    const compiled = await module;
    return { module: compiled, instance: await wasm.instantiate(compiled, imports) };
  };
  Object.defineProperty(instantiateStreaming, MARK, { value: true });
  wasm.instantiateStreaming = instantiateStreaming;
}
