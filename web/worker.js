// @ts-check
/**
 * The DOI engine's module worker: Pyodide, micropip and the doiname wheel, behind a
 * narrow JSON protocol (protocol.js). Python runs here only, so the page's main thread
 * never waits for it. This file knows no DOI rule; it moves JSON text to
 * `doiname.bridge` and back.
 *
 * Boot starts with the `init` message (the config, see protocol.js). Pyodide, micropip
 * (through `loadPyodide({packages: ["micropip"]})`) and the core wheel's bytes are all
 * fetched at the same time; the wheel is then written to the in-memory file system and
 * installed with micropip from there (`emfs:`). Calls that arrive during boot wait for it.
 *
 * On the site, the config also names a memory snapshot made at build time
 * (pycore/tools/make-snapshot.mjs: the same interpreter with micropip imported, the core installed
 * and `doiname.bridge` imported). The worker tries it first: when its `snapshot.json`
 * matches this runtime and core, Pyodide restores the interpreter from it instead of
 * starting Python, and the files micropip had installed are unpacked again. When the
 * snapshot is missing, does not match, or fails to load, the worker says so on the
 * console and boots the normal way. Without a snapshot in the config (the single file),
 * only the normal way is tried.
 * @module worker
 */

/** @typedef {import("./protocol.js").WorkerConfig} WorkerConfig */
/** @typedef {import("./protocol.js").Request} Request */
/** @typedef {import("./protocol.js").BootPhase} BootPhase */

/** @type {any} */
const scope = self;

/**
 * The Python functions of `doiname.bridge`, once booted (JS strings in, JS string out).
 * @type {{callJson: (name: string, args: string) => string,
 *   readAnswerJson: (kind: string, status?: number, body?: string, failure?: string) => string,
 *   infoJson: () => string,
 *   batchOpen: (text: string) => string,
 *   batchStep: (job: number, maxLines: number, budgetMs: number) => string,
 *   batchExport: (job: number, format: string, order: string, resolved: string) => string,
 *   batchClose: (job: number) => string} | null}
 */
let bridge = null;
/** @type {Promise<void> | null} */
let booted = null;
/** @type {string | null} */
let bootError = null;

/**
 * When each boot step ended, in ms since `init` arrived (the worker's own clock).
 * @type {Record<string, number>}
 */
const steps = {};
let bootStart = 0;

/** @param {string} name */
function step(name) {
  steps[name] = Math.round((performance.now() - bootStart) * 10) / 10;
}

/** The boot phases already announced (a snapshot that fails late must not repeat one). */
const announced = new Set();

/**
 * Post a status event (JSON text), once per phase; the last one (`ready`) carries the
 * step times.
 * @param {BootPhase} phase
 * @param {string} message
 */
function status(phase, message) {
  if (announced.has(phase)) return;
  announced.add(phase);
  const extra = phase === "ready" ? { steps } : {};
  scope.postMessage(JSON.stringify({ type: "status", phase, message, ...extra }));
}

/**
 * Post the reply to request `id`. `reply` is JSON text from the bridge:
 * `{"ok": ...}` or `{"error": {...}}`; it is embedded as it is, never re-encoded.
 * @param {number} id
 * @param {string} reply
 */
function answer(id, reply) {
  scope.postMessage(`{"type":"reply","id":${Number(id)},"reply":${reply}}`);
}

/**
 * An error reply made here (the engine is not running, or a message was not understood).
 * @param {string} code
 * @param {string} message
 * @returns {string}
 */
function errorReply(code, message) {
  return JSON.stringify({ error: { code, message, position: null, end: null } });
}

/**
 * A plain one-line reason from whatever was thrown (a Python traceback's last line).
 * @param {unknown} err
 * @returns {string}
 */
function plain(err) {
  const text = err && typeof err === "object" && "message" in err ? String(err.message) : String(err);
  const lines = text.trim().split("\n").filter((l) => l.trim());
  return lines.length ? lines[lines.length - 1].trim() : "unknown error";
}

/**
 * The core wheel's bytes: given in the config, or fetched (with its integrity hash).
 * @param {WorkerConfig} config
 * @returns {Promise<Uint8Array>}
 */
async function wheelBytes(config) {
  if (config.coreWheelBytes) return new Uint8Array(config.coreWheelBytes);
  /** @type {RequestInit} */
  const init = config.coreIntegrity ? { integrity: config.coreIntegrity } : {};
  let response;
  try {
    response = await fetch(config.coreWheelURL, init);
  } catch (err) {
    // A missing file fails its integrity check here too: the browser does not say which.
    throw new Error(`the doiname package could not be downloaded or did not match its hash (${plain(err)})`);
  }
  if (!response.ok) throw new Error(`the doiname package could not be downloaded (HTTP ${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The options of `loadPyodide` common to both ways of booting.
 * @param {WorkerConfig} config
 * @returns {Record<string, unknown>}
 */
function pyodideOptions(config) {
  /** @type {Record<string, unknown>} */
  const options = {
    indexURL: config.indexURL,
    packageBaseUrl: config.packageBaseUrl ?? config.indexURL,
  };
  if (config.lockFileURL) options.lockFileURL = config.lockFileURL;
  if (config.lockFileContents) options.lockFileContents = config.lockFileContents;
  return options;
}

/**
 * Why a snapshot's `snapshot.json` does not fit this runtime and core, or "" when it does.
 * (Pyodide itself also refuses a snapshot of another build of its runtime.)
 * @param {any} manifest
 * @param {WorkerConfig} config
 * @param {string} runtimeVersion the loader's `version`
 * @returns {string}
 */
function snapshotMismatch(manifest, config, runtimeVersion) {
  if (!manifest || typeof manifest !== "object") return "its snapshot.json is not an object";
  if (manifest.pyodideVersion !== runtimeVersion || manifest.pyodideVersion !== config.pyodideVersion) {
    return `it was made with Pyodide ${manifest.pyodideVersion}, this is ${runtimeVersion}`;
  }
  if (!config.wasmSha256 || manifest.wasmSha256 !== config.wasmSha256) {
    return "it was made with another pyodide.asm.wasm";
  }
  if (!config.coreIntegrity || manifest.coreIntegrity !== config.coreIntegrity) {
    return "it was made with another doiname wheel";
  }
  if (typeof manifest.sitePackages !== "string" || !manifest.sitePackages.startsWith("/")) {
    return "its snapshot.json has no sitePackages";
  }
  return "";
}

/**
 * The JavaScript objects Python held when the snapshot was made that have no global
 * name (pycore/tools/make-snapshot.mjs, `serializer`): forwarders to the restored instance, which
 * exists only once `loadPyodide` returns (`holder.pyodide`).
 * @param {{pyodide: any}} holder
 * @returns {(value: any) => any}
 */
function snapshotDeserializer(holder) {
  return (value) => {
    if (value && value.pyodide === true) {
      return new Proxy({}, { get: (_, key) => holder.pyodide?.[key] });
    }
    if (value && typeof value.api === "string") {
      return (/** @type {any[]} */ ...args) => holder.pyodide._api[value.api](...args);
    }
    if (value && typeof value.pub === "string") {
      return (/** @type {any[]} */ ...args) => holder.pyodide[value.pub](...args);
    }
    throw new Error(`the snapshot refers to an unknown object ${JSON.stringify(value)}`);
  };
}

/**
 * Restore the interpreter from the build-time memory snapshot; returns `doiname.bridge`
 * or throws why it could not (the caller then boots the normal way). The snapshot, the
 * files it needs and its `snapshot.json` are fetched at the same time; the first two are
 * dropped as soon as the third does not match.
 * @param {WorkerConfig} config
 * @returns {Promise<any>}
 */
async function fromSnapshot(config) {
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream here");
  const abort = new AbortController();
  /**
   * @param {string | undefined} url
   * @param {string} [integrity]
   */
  const get = async (url, integrity) => {
    /** @type {RequestInit} */
    const init = integrity ? { signal: abort.signal, integrity } : { signal: abort.signal };
    const response = await fetch(String(url), init);
    if (!response.ok) throw new Error(`${String(url).split("/").pop()}: HTTP ${response.status}`);
    return response;
  };
  const manifest = get(config.snapshotURL).then((r) => r.json());
  const data = get(config.snapshotDataURL, config.snapshotDataIntegrity).then((r) => {
    const body = /** @type {ReadableStream<Uint8Array>} */ (r.body);
    return new Response(body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
  });
  const files = get(config.snapshotFilesURL, config.snapshotFilesIntegrity).then((r) => r.arrayBuffer());
  data.catch(() => {}); // awaited below, or dropped on a mismatch
  files.catch(() => {});
  try {
    const [found, loader] = await Promise.all([manifest, import(config.pyodideModuleURL)]);
    const mismatch = snapshotMismatch(found, config, String(loader.version));
    if (mismatch) throw new Error(`the snapshot does not match: ${mismatch}`);
    /** @type {{pyodide: any}} */
    const holder = { pyodide: null };
    const pyodide = await loader.loadPyodide({
      ...pyodideOptions(config),
      _loadSnapshot: data,
      _snapshotDeserializer: snapshotDeserializer(holder),
    });
    holder.pyodide = pyodide;
    step("restoreSnapshot");
    status("packages", "Installing the doiname package…");
    // The snapshot holds memory, not files: put back what micropip had installed.
    pyodide.unpackArchive(await files, "zip", { extractDir: found.sitePackages });
    // A fresh random state for this visit (the snapshot froze the build's).
    pyodide.runPython("import importlib, random\nimportlib.invalidate_caches()\nrandom.seed()\n"
      + "del importlib, random");
    step("unpackFiles");
    status("core", "Starting doiname…");
    const module = pyodide.pyimport("doiname.bridge");
    if (!String(module.call_json("parse", '["10.1000/182"]')).startsWith('{"ok"')) {
      throw new Error("the restored interpreter does not answer");
    }
    step("importCore");
    return module;
  } catch (err) {
    abort.abort();
    throw err;
  }
}

/**
 * Start Python and install the core: from the snapshot when there is one that fits,
 * else the normal way.
 * @param {WorkerConfig} config
 */
async function boot(config) {
  if (typeof WebAssembly !== "object") {
    throw new Error("this browser does not run WebAssembly, which the DOI engine needs");
  }
  status("runtime", "Loading the Python runtime…");
  if (config.snapshotURL) {
    try {
      useBridge(await fromSnapshot(config));
      return;
    } catch (err) {
      step("snapshotFailed");
      // Pyodide's own refusals say why on their first line; a Python error on its last.
      const text = err instanceof Error ? err.message.trim() : String(err);
      const why = text.startsWith("Traceback") ? plain(err) : text.split("\n")[0];
      console.warn(`doiname worker: booting without the memory snapshot: ${why}`, err);
    }
  }
  const wheel = wheelBytes(config);
  wheel.catch(() => {}); // awaited below; do not report it as unhandled meanwhile
  const { loadPyodide } = await import(config.pyodideModuleURL);
  const pyodide = await loadPyodide({ ...pyodideOptions(config), packages: ["micropip"] });
  step("loadPyodide");
  status("packages", "Installing the doiname package…");
  const bytes = await wheel;
  step("wheel");
  const name = String(config.coreWheelName).replace(/[^A-Za-z0-9_.+-]/g, "_");
  const path = `/tmp/${name}`;
  pyodide.FS.writeFile(path, bytes);
  await pyodide.runPythonAsync("import micropip");
  step("importMicropip");
  await pyodide.runPythonAsync(`await micropip.install(${JSON.stringify("emfs:" + path)}, deps=False)`);
  step("install");
  status("core", "Starting doiname…");
  const module = pyodide.pyimport("doiname.bridge");
  step("importCore");
  useBridge(module);
}

/**
 * Keep the functions of `doiname.bridge` that the requests call.
 * @param {any} module
 */
function useBridge(module) {
  bridge = {
    callJson: module.call_json,
    readAnswerJson: module.read_answer_json,
    infoJson: module.info_json,
    batchOpen: module.batch_open_json,
    batchStep: module.batch_step_json,
    batchExport: module.batch_export_json,
    batchClose: module.batch_close_json,
  };
}

/**
 * Handle one request (after boot).
 * @param {Request} req
 * @returns {string} the reply JSON text
 */
function handle(req) {
  if (!bridge) return errorReply("not-started", bootError ?? "The DOI engine is not running.");
  switch (req.type) {
    case "call":
      return bridge.callJson(String(req.name), String(req.args));
    case "read":
      // undefined, not null: Pyodide turns JS null into `jsnull`, undefined into None.
      return bridge.readAnswerJson(String(req.kind), req.status ?? undefined, req.body ?? undefined,
        req.failure ?? undefined);
    case "info":
      return bridge.infoJson();
    case "batch-export":
      return bridge.batchExport(Number(req.job), String(req.format),
        req.order ? JSON.stringify(req.order) : "null",
        req.resolved ? JSON.stringify(req.resolved) : "null");
    case "batch-close":
      return bridge.batchClose(Number(req.job));
    case "batch-cancel":
      if (!running.has(Number(req.target))) return '{"ok":false}';
      cancelled.add(Number(req.target));
      return '{"ok":true}';
    default:
      return errorReply("bad-request", "The DOI engine got a request it does not know.");
  }
}

/** Longest a batch step keeps Python busy before the worker takes messages again (ms). */
const BATCH_STEP_MS = 50;
/** Most lines in one batch step. */
const BATCH_STEP_LINES = 5000;
/** The request ids of batches asked to stop. @type {Set<number>} */
const cancelled = new Set();
/** The request ids of batches under way. @type {Set<number>} */
const running = new Set();

/**
 * Run a batch (`{type: "batch", text}`): open a job in Python, then step it, posting
 * each step's rows as a `progress` message and yielding to the event loop in between,
 * so that other requests and a `batch-cancel` are answered while it runs. The reply
 * comes at the end: `{"ok": {job, lines_total}}`, or a `cancelled` error.
 * @param {Request} req
 */
function runBatch(req) {
  const id = req.id;
  if (!bridge) {
    answer(id, errorReply("not-started", bootError ?? "The DOI engine is not running."));
    return;
  }
  const py = bridge;
  const opened = py.batchOpen(String(req.text ?? ""));
  /** @type {any} */
  const head = JSON.parse(opened);
  if (!head.ok) {
    answer(id, opened);
    return;
  }
  const job = Number(head.ok.job);
  running.add(id);
  scope.postMessage(`{"type":"progress","id":${id},"job":${job},"step":null}`);
  /** @param {string} reply */
  const end = (reply) => {
    running.delete(id);
    cancelled.delete(id);
    answer(id, reply);
  };
  const next = () => {
    if (cancelled.has(id)) {
      end(errorReply("cancelled", "The batch was cancelled."));
      return;
    }
    let stepped;
    try {
      stepped = py.batchStep(job, BATCH_STEP_LINES, BATCH_STEP_MS);
    } catch (err) {
      console.error("doiname worker: batch step failed", err);
      end(errorReply("internal", `The batch failed unexpectedly (${plain(err)}).`));
      return;
    }
    // The step's JSON text is embedded as it is; only its start is looked at here.
    scope.postMessage(`{"type":"progress","id":${id},"job":${job},"step":${stepped}}`);
    if (!stepped.startsWith('{"ok"')) {
      end(stepped);
    } else if (stepped.startsWith('{"ok":{"done":true')) { // `done` is the first key (bridge.py)
      end(JSON.stringify({ ok: { job, lines_total: head.ok.lines_total } }));
    } else {
      setTimeout(next, 0);
    }
  };
  setTimeout(next, 0);
}

scope.addEventListener("message", (/** @type {MessageEvent} */ event) => {
  const data = event.data;
  if (data && typeof data === "object" && data.type === "init") {
    if (booted) return;
    bootStart = performance.now();
    booted = boot(/** @type {WorkerConfig} */ (data.config)).then(
      () => status("ready", "Ready."),
      (err) => {
        bootError = `The DOI engine could not start: ${plain(err)}.`;
        console.error("doiname worker: boot failed", err);
        status("error", bootError);
      },
    );
    return;
  }
  /** @type {Request} */
  let req;
  try {
    req = JSON.parse(String(data));
  } catch {
    return; // not ours
  }
  if (!req || typeof req.id !== "number") return;
  const run = () => {
    if (req.type === "batch") {
      try {
        runBatch(req);
      } catch (err) {
        console.error("doiname worker: batch failed", err);
        answer(req.id, errorReply("internal", `The batch failed unexpectedly (${plain(err)}).`));
      }
      return;
    }
    let reply;
    try {
      reply = handle(req);
    } catch (err) {
      console.error("doiname worker: request failed", err);
      reply = errorReply("internal", `The DOI engine failed unexpectedly (${plain(err)}).`);
    }
    answer(req.id, reply);
  };
  if (bridge || !booted) run();
  else void booted.then(run);
});
