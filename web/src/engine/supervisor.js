// @ts-check
/**
 * The DOI engine's worker, kept alive: starts it, boots Python in it, tells the page how
 * the boot goes (`onStatus`, `onProgress`), watches it (a Web Lock it holds while it
 * lives, its `error` event, a heartbeat) and replaces a worker that stops. Requests go
 * through `request`, which waits for the engine to be ready. It knows no operation but
 * `boot`, `hold` and `ping`; client.js offers the operations.
 * @module engine/supervisor
 */

import { portEndpoint } from "./endpoints.js";
import { connect, DoinameError } from "./rpc.js";
import { moduleURL } from "./verified.js";

/** @typedef {import("./types.gen.js").Operations} Operations */
/** @typedef {import("./rpc.js").RequestOptions} RequestOptions */
/** @typedef {import("./config.js").WorkerConfig} WorkerConfig */

/**
 * How to start the engine: the worker's config, its script (or a function that makes
 * the worker), and the time limits (the defaults below) tests may shorten.
 * `workerSource` is the worker's script itself, bundled into the page's (the build's
 * `DOINAME_WORKER`), so the page's own integrity value covers it (no browser checks one
 * for `new Worker(url)`): the worker runs it from a `blob:` URL, made at once, with no
 * download in between. The config's URLs are absolute, so the worker needs no base of
 * its own.
 * @typedef {{
 *   config: WorkerConfig,
 *   workerSource?: string,
 *   createWorker?: () => Worker,
 *   bootTimeoutMs?: number,
 *   heartbeatMs?: number,
 *   heartbeatDeadlineMs?: number,
 * }} EngineOptions
 */

/**
 * Boot phases, in order; `error` ends a failed boot; `restarting` (after `ready`) while a
 * stopped worker is replaced, then `ready` again.
 * @typedef {{phase: "starting" | "runtime" | "packages" | "core" | "ready" | "error" | "restarting", message: string}} BootStatus
 */

/**
 * The runtime's download while the engine starts: bytes here so far, of `total`.
 * @typedef {{loaded: number, total: number}} BootProgress
 */

/** Default time limit for Python to become usable, in milliseconds. */
export const BOOT_TIMEOUT_MS = 120_000;

/** How often the page asks a ready worker whether it still answers (ms). */
export const HEARTBEAT_MS = 5_000;
/**
 * A ready worker that has answered no heartbeat for this long is taken for stopped and
 * replaced (ms). Longer than any request's deadline (client.js's DEADLINES), so Python working on a
 * long request is not mistaken for a hang. A worker that ends (closed, crashed, out of
 * memory) is seen at once where the browser has Web Locks (it holds a lock while it
 * lives), and by its `error` event or this deadline otherwise.
 */
export const HEARTBEAT_DEADLINE_MS = 75_000;
/** A worker replaced more than this many times within RESTART_WINDOW_MS is not replaced again. */
export const MAX_RESTARTS = 3;
/** See MAX_RESTARTS (ms). */
export const RESTART_WINDOW_MS = 120_000;
/** The code of a request that failed because the engine was replaced while it waited. */
export const RESTARTED = "restarted";

/**
 * Start the engine's worker and keep it going.
 *
 * A worker that stops after it was ready (its `error` event, a Python fatal error it
 * reports, its lock released, no heartbeat, a reply that cannot be read) is replaced by
 * a new one: the requests under way fail with code `restarted` ("the engine restarted,
 * try again"), the status goes to `restarting` and back to `ready`, and later requests
 * wait for the new worker. A boot that fails (the first or a restart) ends the engine.
 * @param {EngineOptions} options
 */
export function superviseEngine(options) {
  const bootTimeoutMs = options.bootTimeoutMs ?? BOOT_TIMEOUT_MS;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const heartbeatDeadlineMs = options.heartbeatDeadlineMs ?? HEARTBEAT_DEADLINE_MS;
  /** @type {Record<string, number>} */
  const timings = { start: performance.now() };
  /** @type {Set<(status: BootStatus) => void>} */
  const listeners = new Set();
  /** @type {Set<(progress: BootProgress) => void>} */
  const progressListeners = new Set();
  /** @type {BootProgress | null} */
  let progress = null;
  /** @type {BootStatus} */
  let current = { phase: "starting", message: "Starting the DOI engine…" };
  /** @type {DoinameError | null} */
  let failure = null;
  /** The worker of the moment and its channel. @type {{worker: Worker, rpc: ReturnType<typeof connect>, ready: Promise<void>, stop: () => void} | null} */
  let engine = null;
  /** When each restart happened (performance.now()). @type {number[]} */
  const restarts = [];
  let generation = 0;

  /** @param {BootStatus} status */
  function setStatus(status) {
    current = status;
    timings[status.phase] = performance.now();
    for (const cb of listeners) {
      try {
        cb(status);
      } catch (err) {
        console.error(err);
      }
    }
  }

  /**
   * The engine cannot be used (boot failed, restarted too often): say so, fail what waits.
   * @param {string} message
   * @returns {DoinameError}
   */
  function fail(message) {
    if (failure) return failure;
    failure = new DoinameError("not-started", message);
    setStatus({ phase: "error", message });
    engine?.rpc.fail(failure);
    engine?.stop();
    return failure;
  }

  /**
   * The worker of `gen` stopped after it was ready: replace it.
   * @param {number} gen
   * @param {string} why what was seen, in plain words
   */
  function restart(gen, why) {
    if (failure || gen !== generation || !engine) return;
    console.warn(`doiname: the DOI engine stopped (${why}); starting a new one`);
    const now = performance.now();
    while (restarts.length && now - restarts[0] > RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length >= MAX_RESTARTS) {
      fail(`The DOI engine stopped ${restarts.length + 1} times in a row (${why}); reload the page.`);
      return;
    }
    restarts.push(now);
    timings.restarts = (timings.restarts ?? 0) + 1;
    const old = engine;
    old.rpc.fail(new DoinameError(RESTARTED, `The DOI engine stopped (${why}) and was restarted; try again.`));
    old.stop();
    setStatus({ phase: "restarting", message: `The DOI engine stopped (${why}); restarting it…` });
    start().catch(() => {}); // a failed restart is reported through fail()
  }

  /** The `blob:` URL of the worker's script, made once (a restart runs the same bytes). */
  let scriptURL = "";

  /**
   * Start a worker and boot it; resolves once it is ready. The worker is made at once,
   * before this returns.
   * @returns {Promise<void>}
   */
  function start() {
    if (typeof WebAssembly !== "object" || WebAssembly === null) {
      return Promise.reject(fail("This browser does not run WebAssembly, which the DOI engine needs."));
    }
    if (!options.createWorker && typeof Worker !== "function") {
      return Promise.reject(fail("This browser does not run Web Workers, which the DOI engine needs."));
    }
    if (options.createWorker) return launch(options.createWorker);
    if (!options.workerSource) return Promise.reject(fail("This page has no script for the DOI engine's worker."));
    scriptURL ||= moduleURL(options.workerSource);
    return launch(() => new Worker(scriptURL, { type: "module", name: "doiname" }));
  }

  /**
   * Make a worker (`create`) and boot it; resolves once it is ready.
   * @param {() => Worker} create
   * @returns {Promise<void>}
   */
  function launch(create) {
    if (failure) return Promise.reject(failure);
    /** @type {Worker} */
    let worker;
    try {
      worker = create();
    } catch (err) {
      console.error("doiname: the worker could not be created", err);
      return Promise.reject(fail(`Web Workers are not available here (${err instanceof Error ? err.message : err}).`));
    }
    const gen = ++generation;
    const first = gen === 1;
    timings.worker = performance.now();
    /** @type {ReturnType<typeof setInterval> | undefined} */
    let beat;
    let answered = performance.now();
    let isReady = false;
    const channel = connect(portEndpoint(worker), {
      onBadReply: () => {
        if (isReady) restart(gen, "it sent an answer that could not be read");
      },
    });
    const stop = () => {
      clearInterval(beat);
      worker.terminate();
    };
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      console.error("doiname: the worker failed", event.message || event);
      if (isReady) restart(gen, "its worker failed");
      else fail("The DOI engine's worker could not be started.");
    });
    channel.on("status", (/** @type {BootStatus & {steps?: Record<string, number>}} */ s) => {
      if (failure || gen !== generation) return;
      for (const [k, v] of Object.entries(s.steps ?? {})) timings[`worker.${k}`] = Number(v);
      // A restart's boot phases are one "restarting" for the page; its ready comes below.
      if (first) setStatus({ phase: s.phase, message: String(s.message) });
    });
    channel.on("progress", (/** @type {BootProgress} */ p) => {
      if (failure || !first || gen !== generation || current.phase === "ready") return;
      progress = { loaded: Number(p.loaded) || 0, total: Number(p.total) || 0 };
      for (const cb of progressListeners) {
        try {
          cb(progress);
        } catch (err) {
          console.error(err);
        }
      }
    });
    channel.on("stopped", (/** @type {{reason?: string}} */ s) => restart(gen, String(s?.reason ?? "it stopped")));
    engine = { worker, rpc: channel, ready: Promise.resolve(), stop };
    if (first) setStatus(current);
    // Watched from its first message, not from ready: a worker that ends at once after
    // ready (or while booting) is then seen as soon as the browser can tell.
    watch(gen, channel, () => {
      if (isReady) restart(gen, "its worker ended");
      else if (!failure && gen === generation) fail("The DOI engine's worker stopped while it was starting.");
    });
    const ready = channel.request("boot", options.config, { timeoutMs: bootTimeoutMs, label: "boot" }).then(
      () => {
        isReady = true;
        answered = performance.now();
        beat = setInterval(() => {
          if (performance.now() - answered > heartbeatDeadlineMs) {
            restart(gen, `it did not answer for ${heartbeatDeadlineMs / 1000} s`);
            return;
          }
          channel.request("ping", {}, { timeoutMs: heartbeatDeadlineMs }).then(
            () => {
              answered = performance.now();
            },
            () => {},
          );
        }, heartbeatMs);
        /** @type {{unref?: () => void}} */ (/** @type {unknown} */ (beat)).unref?.(); // Node (tests): no process kept alive by it
        if (current.phase !== "ready") setStatus({ phase: "ready", message: "Ready." });
      },
      (/** @type {DoinameError} */ err) => {
        if (gen !== generation || err.code === RESTARTED) throw err;
        throw fail(
          err.code === "timeout" ? `Python did not become ready within ${bootTimeoutMs / 1000} seconds.` : err.message,
        );
      },
    );
    engine.ready = ready;
    return ready;
  }

  /**
   * Notice the end of the worker of `gen` as soon as the browser can tell: the worker
   * holds a Web Lock while it lives (`hold`, answered without Python, so it comes before
   * the boot's answer); the page's own request for that lock is granted when the worker
   * ends, and `ended` runs. Where Web Locks are missing (the single file's `data:` worker
   * has an opaque origin), the heartbeat alone watches.
   * @param {number} gen
   * @param {ReturnType<typeof connect>} channel
   * @param {() => void} ended
   */
  function watch(gen, channel, ended) {
    const locks = typeof navigator === "object" ? navigator.locks : undefined;
    if (!locks) return;
    const name = `doiname-engine-${Math.random().toString(36).slice(2)}-${gen}`;
    channel.request("hold", { lock: name }, { timeoutMs: bootTimeoutMs }).then(
      (held) => {
        if (held !== true || gen !== generation) return;
        locks.request(name, ended).catch(() => {});
      },
      () => {},
    );
  }

  const ready = start();
  ready.catch(() => {}); // a page that never asks must not log an unhandled rejection

  /**
   * One request of the worker protocol, once the engine is ready.
   * @template {keyof Operations} M
   * @param {M} method
   * @param {Operations[M]["params"]} params
   * @param {RequestOptions} opts
   * @returns {Promise<Operations[M]["result"]>}
   */
  function request(method, params, opts) {
    return ready.then(async () => {
      if (failure) throw failure;
      const now = /** @type {NonNullable<typeof engine>} */ (engine);
      await now.ready;
      return now.rpc.request(method, params, opts);
    });
  }

  return {
    ready,
    timings,
    request,
    /** @param {(status: BootStatus) => void} cb @returns {() => void} */
    onStatus(cb) {
      listeners.add(cb);
      try {
        cb(current);
      } catch (err) {
        console.error(err);
      }
      return () => listeners.delete(cb);
    },
    /**
     * The runtime's download while the engine starts (called with the last figure at
     * once when there is one, then as bytes arrive; nothing once it is ready).
     * @param {(progress: BootProgress) => void} cb
     * @returns {() => void}
     */
    onProgress(cb) {
      progressListeners.add(cb);
      if (progress) cb(progress);
      return () => progressListeners.delete(cb);
    },
  };
}
