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
 * step ended) and `progress` events (`{loaded, total}` bytes) while the runtime downloads. Requests that come before it is ready are refused (`not-started`): the
 * client sends none before. `prepare` (the single file's worker) may change the config
 * before the boot starts.
 * @module worker/engine
 */

import { portEndpoint } from "../engine/endpoints.js";
import { DoinameError, JsonText, serve } from "../engine/rpc.js";
import { boot, plain } from "./boot.js";

/** @typedef {import("../engine/config.js").WorkerConfig} WorkerConfig */

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

  const server = serve(portEndpoint(scope), (method, params) => {
    if (method === "boot") return start(/** @type {WorkerConfig} */ (params));
    if (!bridge) throw new DoinameError("not-started", bootError ?? "The DOI engine is not running.");
    let reply;
    try {
      reply = bridge.request_json(method, JSON.stringify(params ?? {}));
    } catch (err) {
      console.error(`doiname worker: ${method} failed`, err);
      throw new DoinameError("internal", `The DOI engine failed unexpectedly (${plain(err)}).`);
    }
    return new JsonText(String(reply));
  });

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
