// @ts-check
/**
 * The DOI engine's client on the page: starts the worker (worker.js) and offers
 * `{ready, call, resolve, whichRa, expandShort, batch, startBatch, onStatus, info, timings}`.
 *
 * Nothing here knows a DOI rule. `call` runs a public function of the Python package;
 * `resolve`, `whichRa` and `expandShort` ask Python for the request URL, `fetch()` it
 * here on the main thread (so a page, a test's router or a proxy sees an ordinary
 * request), and hand the status and body back to Python to read. A request that gets
 * no answer is reported as one of the core's transport outcomes: `network` (also a
 * CORS refusal: the browser does not tell them apart), `timeout` or `cancelled`.
 *
 * This module has no side effects: doiname-api.js installs `window.doiname` with it;
 * other packagings (single file, widget) can call `createDoiname` with their own worker.
 * @module doiname-client
 */

/** @typedef {import("./protocol.js").WorkerConfig} WorkerConfig */
/** @typedef {import("./protocol.js").BootStatus} BootStatus */
/** @typedef {import("./protocol.js").AnswerKind} AnswerKind */
/** @typedef {import("./protocol.js").TransportFailure} TransportFailure */
/** @typedef {import("./protocol.js").ErrorJson} ErrorJson */
/** @typedef {import("./protocol.js").BatchRow} BatchRow */
/** @typedef {import("./protocol.js").BatchStep} BatchStep */
/** @typedef {import("./protocol.js").BatchSummary} BatchSummary */

/**
 * Options of a request to doi.org.
 * @typedef {{signal?: AbortSignal, timeoutMs?: number}} LookupOptions
 */

/**
 * How far a batch is (a step without its rows), for `onProgress`.
 * @typedef {{lines_done: number, lines_total: number, chars_done: number, chars_total: number,
 *   done: boolean, summary: BatchSummary, rows_done: number}} BatchProgress
 */

/**
 * Options of a batch: `onRows(rows, firstRow)` gets each step's new rows as they come
 * (row numbers count from 0 in input order), `onProgress` how far it is; `signal`
 * cancels it.
 * @typedef {{signal?: AbortSignal, onProgress?: (p: BatchProgress) => void,
 *   onRows?: (rows: BatchRow[], firstRow: number) => void}} BatchOptions
 */

/**
 * A running batch (`startBatch`). `finished` resolves with the last progress when every
 * line is done, or rejects (code `cancelled` after `cancel()` or the signal). The rows
 * stay in the worker until `close()`: `export` writes them (all in input order, or the
 * row numbers in `order`) as the text of a CSV, JSON or JSON Lines file, also after a
 * cancel (the rows done so far); `resolved` (row number to `{outcome, url}` of a
 * `resolve`) adds the columns `resolution` and `resolves_to`, also to the duplicates.
 * @typedef {{
 *   finished: Promise<BatchProgress>,
 *   cancel: () => void,
 *   export: (format: "csv" | "json" | "jsonl", order?: number[] | null,
 *     resolved?: Record<number, {outcome: string, url: string | null}> | null) => Promise<string>,
 *   close: () => Promise<void>,
 * }} BatchHandle
 */

/**
 * The API (`window.doiname`).
 * @typedef {{
 *   ready: Promise<void>,
 *   call: (name: string, ...args: unknown[]) => Promise<any>,
 *   resolve: (text: string, options?: LookupOptions) => Promise<any>,
 *   whichRa: (texts: string | string[], options?: LookupOptions) => Promise<any>,
 *   expandShort: (text: string, options?: LookupOptions) => Promise<any>,
 *   batch: (text: string, options?: BatchOptions) => Promise<BatchRow[]>,
 *   startBatch: (text: string, options?: BatchOptions) => BatchHandle,
 *   onStatus: (cb: (status: BootStatus) => void) => () => void,
 *   info: () => Promise<any>,
 *   timings: Record<string, number>,
 * }} DoinameApi
 */

/**
 * An Error carrying a DoiError's (or the bridge's) code and span.
 * @typedef {Error & {code: string, position: number | null, end: number | null}} DoinameError
 */

/** Default time limit of a request to doi.org, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Default time limit for Python to become usable, in milliseconds. */
export const DEFAULT_BOOT_TIMEOUT_MS = 120_000;

/**
 * An Error from an error reply.
 * @param {Partial<ErrorJson>} e
 * @returns {DoinameError}
 */
export function toError(e) {
  const err = /** @type {DoinameError} */ (new Error(String(e && e.message ? e.message : "The DOI engine failed.")));
  err.name = "DoinameError";
  err.code = e && typeof e.code === "string" ? e.code : "internal";
  err.position = e && typeof e.position === "number" ? e.position : null;
  err.end = e && typeof e.end === "number" ? e.end : null;
  return err;
}

/**
 * Whether `value` is the keyword-argument marker `{kwargs: {...}}` (its only key).
 * @param {unknown} value
 * @returns {value is {kwargs: Record<string, unknown>}}
 */
function isKwargs(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const kw = /** @type {any} */ (value).kwargs;
  return keys.length === 1 && keys[0] === "kwargs" && !!kw && typeof kw === "object" && !Array.isArray(kw);
}

/**
 * Start the engine and return its API.
 * @param {{
 *   config: WorkerConfig,
 *   workerURL?: string | URL,
 *   createWorker?: () => Worker,
 *   bootTimeoutMs?: number,
 * }} options
 * @returns {DoinameApi}
 */
export function createDoiname(options) {
  const bootTimeoutMs = options.bootTimeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS;
  /** @type {Record<string, number>} */
  const timings = { start: performance.now() };
  /** @type {Set<(status: BootStatus) => void>} */
  const listeners = new Set();
  /** @type {BootStatus} */
  let current = { phase: "starting", message: "Starting the DOI engine…" };
  /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
  const pending = new Map();
  /** Batches under way: what to do with their progress messages. @type {Map<number, (msg: any) => void>} */
  const progress = new Map();
  let nextId = 1;
  /** @type {Error | null} */
  let failure = null;
  /** @type {Worker | null} */
  let worker = null;

  /** @type {() => void} */
  let markReady = () => {};
  /** @type {(e: Error) => void} */
  let markFailed = () => {};
  /** @type {Promise<void>} */
  const ready = new Promise((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });
  ready.catch(() => {}); // a page that never asks must not log an unhandled rejection

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
   * Boot failed or the worker died: say so, reject what waits.
   * @param {string} message
   */
  function fail(message) {
    if (failure) return;
    failure = toError({ code: "not-started", message });
    clearTimeout(timer);
    setStatus({ phase: "error", message });
    markFailed(failure);
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
    if (worker) worker.terminate();
  }

  const timer = setTimeout(() => {
    if (current.phase !== "ready") {
      fail(`Python did not become ready within ${bootTimeoutMs / 1000} seconds.`);
    }
  }, bootTimeoutMs);

  /** @param {MessageEvent} event */
  function onMessage(event) {
    /** @type {any} */
    let msg;
    try {
      msg = JSON.parse(String(event.data));
    } catch {
      return;
    }
    if (msg.type === "reply") {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      const reply = msg.reply;
      if (reply && "ok" in reply) p.resolve(reply.ok);
      else {
        const err = toError(reply && reply.error);
        if (err.code === "internal") console.error(`doiname: ${err.message}`);
        p.reject(err);
      }
    } else if (msg.type === "progress") {
      const cb = progress.get(msg.id);
      if (cb) cb(msg);
    } else if (msg.type === "status") {
      if (failure) return;
      if (msg.phase === "error") {
        fail(String(msg.message));
      } else {
        if (msg.steps && typeof msg.steps === "object") {
          for (const [k, v] of Object.entries(msg.steps)) timings[`worker.${k}`] = Number(v);
        }
        setStatus({ phase: msg.phase, message: String(msg.message) });
        if (msg.phase === "ready") {
          clearTimeout(timer);
          markReady();
        }
      }
    }
  }

  if (typeof WebAssembly !== "object" || WebAssembly === null) {
    fail("This browser does not run WebAssembly, which the DOI engine needs.");
  } else if (typeof Worker !== "function") {
    fail("This browser does not run Web Workers, which the DOI engine needs.");
  } else {
    try {
      worker = options.createWorker
        ? options.createWorker()
        : new Worker(options.workerURL ?? new URL("./worker.js", import.meta.url), { type: "module" });
      timings.worker = performance.now();
      worker.addEventListener("message", onMessage);
      worker.addEventListener("error", (event) => {
        event.preventDefault();
        console.error("doiname: the worker failed", event.message || event);
        fail(current.phase === "ready"
          ? "The DOI engine stopped working; reload the page."
          : "The DOI engine's worker could not be started.");
      });
      worker.addEventListener("messageerror", () => console.error("doiname: a message from the worker could not be read"));
      worker.postMessage({ type: "init", config: options.config });
      setStatus(current);
    } catch (err) {
      console.error("doiname: the worker could not be created", err);
      fail(`Web Workers are not available here (${err instanceof Error ? err.message : String(err)}).`);
    }
  }

  /**
   * Send one request; resolve with the reply's `ok`, reject with its `error`.
   * @param {Record<string, unknown>} req
   * @param {number} [id] the request's id, when it was taken before (`nextId++`)
   * @returns {Promise<any>}
   */
  function send(req, id = nextId++) {
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      try {
        /** @type {Worker} */ (worker).postMessage(JSON.stringify({ ...req, id }));
      } catch (err) {
        pending.delete(id);
        reject(toError({ code: "bad-arguments", message: `The arguments could not be sent: ${String(err)}` }));
      }
    });
  }

  /**
   * Call the public function `name` of the doiname package. Keyword arguments go last
   * as `{kwargs: {...}}`. Calls made before `ready` wait for it.
   * @param {string} name
   * @param {...unknown} args
   * @returns {Promise<any>}
   */
  function call(name, ...args) {
    /** @type {Record<string, unknown>} */
    let kwargs = {};
    if (args.length && isKwargs(args[args.length - 1])) {
      kwargs = /** @type {{kwargs: Record<string, unknown>}} */ (args.pop()).kwargs;
    }
    /** @type {string} */
    let payload;
    try {
      payload = JSON.stringify({ args, kwargs });
    } catch (err) {
      return Promise.reject(toError({ code: "bad-arguments", message: `The arguments of ${name} are not JSON: ${String(err)}` }));
    }
    return send({ type: "call", name: String(name), args: payload });
  }

  /**
   * Fetch `url` (the main thread's fetch), then let Python read the answer.
   * @param {AnswerKind} kind
   * @param {string} url
   * @param {LookupOptions} [opts]
   * @returns {Promise<any>}
   */
  async function lookup(kind, url, opts = {}) {
    const { signal, timeoutMs = DEFAULT_TIMEOUT_MS } = opts;
    const controller = new AbortController();
    /** @type {TransportFailure | null} */
    let why = null;
    const onCancel = () => {
      why = why ?? "cancelled";
      controller.abort();
    };
    if (signal) {
      if (signal.aborted) why = "cancelled";
      else signal.addEventListener("abort", onCancel, { once: true });
    }
    const limit = setTimeout(() => {
      why = why ?? "timeout";
      controller.abort();
    }, timeoutMs);
    /** @type {{status: number, body: string} | null} */
    let answer = null;
    try {
      if (!why) {
        const response = await fetch(url, {
          signal: controller.signal, credentials: "omit", referrerPolicy: "no-referrer",
        });
        const body = await response.text();
        answer = { status: response.status, body };
      }
    } catch (err) {
      if (!why) {
        why = "network";
        console.warn(`doiname: no answer from ${url}:`, err);
      }
    } finally {
      clearTimeout(limit);
      if (signal) signal.removeEventListener("abort", onCancel);
    }
    if (answer && !why) return send({ type: "read", kind, status: answer.status, body: answer.body, failure: null });
    return send({ type: "read", kind, status: null, body: null, failure: why ?? "network" });
  }

  /**
   * Start a batch over `text` in the worker (doiname.batch.BatchJob): see BatchHandle.
   * @param {string} text
   * @param {BatchOptions} [opts]
   * @returns {BatchHandle}
   */
  function startBatch(text, opts = {}) {
    const { signal, onProgress, onRows } = opts;
    const id = nextId++; // the batch request's id: its progress messages carry it
    /** @type {(job: number) => void} */
    let setJob = () => {};
    /** @type {Promise<number>} */
    const jobId = new Promise((resolve) => { setJob = resolve; });
    /** @type {BatchProgress | null} */
    let last = null;
    let rowsDone = 0;
    let stopped = false;
    progress.set(id, (msg) => {
      setJob(Number(msg.job));
      const reply = msg.step;
      if (!reply || !("ok" in reply)) return;
      /** @type {BatchStep} */
      const step = reply.ok;
      rowsDone = step.first_row + step.rows.length;
      last = {
        lines_done: step.lines_done, lines_total: step.lines_total, chars_done: step.chars_done,
        chars_total: step.chars_total, done: step.done, summary: step.summary, rows_done: rowsDone,
      };
      try {
        if (onRows && step.rows.length) onRows(step.rows, step.first_row);
        if (onProgress) onProgress(last);
      } catch (err) {
        console.error(err);
      }
    });
    const cancel = () => {
      if (stopped) return;
      stopped = true;
      void send({ type: "batch-cancel", target: id }).catch(() => {});
    };
    const finished = send({ type: "batch", text: String(text) }, id).then(
      () => /** @type {BatchProgress} */ (last),
      (err) => {
        setJob(-1);
        throw err;
      },
    ).finally(() => {
      progress.delete(id);
      stopped = true;
      if (signal) signal.removeEventListener("abort", cancel);
    });
    finished.catch(() => {}); // the caller may only use export/close
    if (signal) {
      if (signal.aborted) cancel();
      else signal.addEventListener("abort", cancel, { once: true });
    }
    return {
      finished,
      cancel,
      export: async (format, order = null, resolved = null) => {
        const job = await jobId;
        if (job < 0) throw toError({ code: "unknown-job", message: "This batch did not start." });
        return send({ type: "batch-export", job, format, order, resolved });
      },
      close: async () => {
        cancel();
        const job = await jobId;
        if (job >= 0) await send({ type: "batch-close", job });
      },
    };
  }

  /**
   * Every row of a batch over `text`, in input order (`onProgress` as it goes).
   * @param {string} text
   * @param {BatchOptions} [opts]
   * @returns {Promise<BatchRow[]>}
   */
  async function batch(text, opts = {}) {
    /** @type {BatchRow[]} */
    const rows = [];
    const handle = startBatch(text, {
      ...opts,
      onRows: (chunk, first) => {
        for (let i = 0; i < chunk.length; i++) rows[first + i] = chunk[i];
        if (opts.onRows) opts.onRows(chunk, first);
      },
    });
    try {
      await handle.finished;
    } finally {
      void handle.close().catch(() => {});
    }
    return rows;
  }

  /** @type {DoinameApi} */
  const api = {
    ready,
    call,
    /**
     * The handle record of a DOI name (003 ch. 4), read by `read_handle_response`.
     * Rejects only when `text` is not a DOI name (the DoiError of `to_handles_api_url`).
     */
    resolve: async (text, opts) => lookup("handle", await call("to_handles_api_url", text), opts),
    /** Which registration agency registered each name (`read_which_ra_response`). */
    whichRa: async (texts, opts) => lookup("which-ra", await call("to_which_ra_url", texts), opts),
    /** A shortDOI's HS_ALIAS record; `target` is the DOI name it stands for, or null. */
    expandShort: async (text, opts) => lookup("alias", await call("short_doi_api_url", text), opts),
    batch,
    startBatch,
    onStatus(cb) {
      listeners.add(cb);
      try {
        cb(current);
      } catch (err) {
        console.error(err);
      }
      return () => listeners.delete(cb);
    },
    info: () => send({ type: "info" }),
    timings,
  };
  return api;
}

/**
 * The worker config of a site built by build.py, from its `build-info.js`.
 * @param {{indexURL: string, coreWheel: string, coreWheelName: string, coreIntegrity?: string,
 *   pyodideVersion?: string, wasmSha256?: string,
 *   snapshot?: {manifest: string, data: string, files: string, dataIntegrity?: string,
 *     filesIntegrity?: string} | null}} build
 * @param {string | URL} base the site's base URL
 * @returns {WorkerConfig}
 */
export function siteConfig(build, base) {
  const indexURL = new URL(build.indexURL, base).href;
  return {
    pyodideModuleURL: new URL("pyodide.mjs", indexURL).href,
    indexURL,
    packageBaseUrl: indexURL,
    coreWheelURL: new URL(build.coreWheel, base).href,
    coreWheelName: build.coreWheelName,
    coreIntegrity: build.coreIntegrity,
    ...(build.snapshot ? {
      pyodideVersion: build.pyodideVersion,
      wasmSha256: build.wasmSha256,
      snapshotURL: new URL(build.snapshot.manifest, base).href,
      snapshotDataURL: new URL(build.snapshot.data, base).href,
      snapshotFilesURL: new URL(build.snapshot.files, base).href,
      snapshotDataIntegrity: build.snapshot.dataIntegrity,
      snapshotFilesIntegrity: build.snapshot.filesIntegrity,
    } : {}),
  };
}
