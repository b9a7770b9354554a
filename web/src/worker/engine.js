// @ts-check
/**
 * The DOI engine behind the request/reply layer of engine/rpc.js, in a worker: Python
 * (Pyodide and the doiname package). It knows no DOI rule and no operation but `boot`:
 * every other request goes, as JSON text, to `doiname.bridge.request_json`, whose reply
 * (JSON text) goes back as it is, read once by the asking side. Python runs here only,
 * so the page's main thread never waits for it.
 *
 * `boot` (params: the WorkerConfig) starts Python (boot.js) and answers once it is ready,
 * emitting a `status` event as each phase begins (the last, `ready`, with the time each
 * step ended) and `progress` events (`{loaded, total}` bytes) while the runtime
 * downloads. Requests that come before it is ready are refused (`not-started`): the
 * client sends none before. `ping` (the page's heartbeat) and `hold` (a Web Lock held
 * for the worker's life, so the page sees it end) never reach Python. When Python fails
 * beyond repair (isFatal), the worker emits `stopped` and closes itself; the page
 * replaces it. `prepare` (the single file's worker) may change the config
 * before the boot starts.
 * @module worker/engine
 */

import { portEndpoint } from "../engine/endpoints.js";
import { DoinameError, JsonText, serve } from "../engine/rpc.js";
import { boot, plain } from "./boot.js";

/** @typedef {import("../engine/config.js").WorkerConfig} WorkerConfig */

/**
 * Whether a failure leaves Python unusable: Pyodide's fatal error, or WebAssembly out of
 * memory or trapping (a RangeError or RuntimeError from the runtime itself).
 * @param {unknown} err
 * @returns {boolean}
 */
export function isFatal(err) {
  const text = err && typeof err === "object" && "message" in err ? String(err.message) : String(err);
  if (/fatally failed|Pyodide has suffered a fatal error|out of memory|memory access out of bounds/i.test(text)) {
    return true;
  }
  const wasm = typeof WebAssembly === "object" ? WebAssembly : null;
  return err instanceof RangeError || (!!wasm && err instanceof wasm.RuntimeError);
}

/**
 * Answer the engine's requests that come to `scope` (a worker's global scope).
 * @param {any} scope
 * @param {{prepare?: (config: WorkerConfig) => Promise<WorkerConfig>}} [options]
 */
export function serveEngine(scope, options = {}) {
  /** `doiname.bridge`, once booted (JS strings in, a JS string out). @type {{request_json: (op: string, params: string) => string} | null} */
  let bridge = null;
  /** @type {Promise<unknown> | null} */
  let booting = null;
  /** @type {string | null} */
  let bootError = null;
  /** When each boot step ended, in ms since `boot` arrived (the worker's own clock). @type {Record<string, number>} */
  const steps = {};
  let bootStart = 0;
  /** The boot phases already announced (a snapshot that fails late must not repeat one). */
  const announced = new Set();

  /** Set once Python failed beyond repair (out of memory, a fatal error). @type {string | null} */
  let broken = null;

  const server = serve(portEndpoint(scope), (method, params) => {
    if (method === "boot") return start(/** @type {WorkerConfig} */ (params));
    if (method === "ping") return true; // the heartbeat: answered whenever this thread is free
    if (method === "hold") return hold(String(/** @type {{lock?: unknown}} */ (params)?.lock ?? ""));
    if (broken) throw new DoinameError("not-started", broken);
    if (!bridge) throw new DoinameError("not-started", bootError ?? "The DOI engine is not running.");
    let reply;
    try {
      reply = bridge.request_json(method, JSON.stringify(params ?? {}));
    } catch (err) {
      console.error(`doiname worker: ${method} failed`, err);
      if (isFatal(err)) stopBroken(plain(err));
      throw new DoinameError("internal", `The DOI engine failed unexpectedly (${plain(err)}).`);
    }
    return new JsonText(String(reply));
  });

  /**
   * Python cannot go on (Pyodide's fatal error, WebAssembly out of memory): say so to the
   * page, which replaces this worker, and end it once the reply has gone.
   * @param {string} reason
   */
  function stopBroken(reason) {
    if (broken) return;
    broken = `The DOI engine failed beyond repair (${reason}).`;
    server.emit("stopped", { reason: `Python failed: ${reason}` });
    setTimeout(() => scope.close?.(), 0);
  }

  /**
   * Hold the Web Lock `name` for the life of this worker (the page waits for it to tell
   * when the worker ends); answers `true` once it is held, `false` where locks are
   * missing or refused (an opaque origin).
   * @param {string} name
   * @returns {Promise<boolean>}
   */
  function hold(name) {
    const locks = scope.navigator?.locks;
    if (!locks || !name) return Promise.resolve(false);
    return new Promise((resolve) => {
      locks
        .request(name, { ifAvailable: true }, (/** @type {unknown} */ lock) => {
          resolve(!!lock);
          return lock ? new Promise(() => {}) : undefined; // held until the worker ends
        })
        .catch(() => resolve(false));
    });
  }

  /**
   * Announce a boot phase, once; `ready` carries the step times.
   * @param {string} phase
   * @param {string} message
   */
  function report(phase, message) {
    if (announced.has(phase)) return;
    announced.add(phase);
    server.emit("status", { phase, message, ...(phase === "ready" ? { steps } : {}) });
  }

  /** @param {string} name */
  function step(name) {
    steps[name] = Math.round((performance.now() - bootStart) * 10) / 10;
  }

  /**
   * Boot once (a second `boot` waits for the first).
   * @param {WorkerConfig} config
   * @returns {Promise<{steps: Record<string, number>}>}
   */
  async function start(config) {
    if (!booting) {
      bootStart = performance.now();
      const progress = (/** @type {{loaded: number, total: number}} */ p) => server.emit("progress", p);
      booting = (async () =>
        boot(options.prepare ? await options.prepare(config) : config, report, step, progress))().then(
        (module) => {
          bridge = module;
          report("ready", "Ready.");
        },
        (err) => {
          bootError = `The DOI engine could not start: ${plain(err)}.`;
          console.error("doiname worker: boot failed", err);
          throw new DoinameError("not-started", bootError);
        },
      );
    }
    await booting;
    return { steps };
  }
}
