// @ts-check
/**
 * The DOI engine's client: starts the engine (supervisor.js) and offers one method per user action
 * (`inspect`, `compare`, `box`, `linkTargets`, `codePoints`, `resolve`, `whichRa`,
 * `expandShort`, `lookupUrl`, `lookupAll`, `record`, `registryPlan`, `settle`,
 * `startBatch`, `batch`) plus `call` (any
 * public function of the Python package), `ready`, `onStatus`, `onProgress`, `info` and
 * `timings`.
 * This object is `window.doiname`, the public JavaScript API (README).
 *
 * Nothing here knows a DOI rule. Requests go to the worker through rpc.js, each with the
 * deadline of its kind (DEADLINES); those made before the engine is ready wait for it
 * (supervisor.js's BOOT_TIMEOUT_MS at most). Names go back to Python only as exact names
 * (`{prefix, suffix}`) or as the request URL Python made for them (`api_url`).
 * @module engine/client
 */

import { batchRows, startBatch } from "./batch-handle.js";
import { fetchAnswer } from "./lookup.js";
import { lookupAll } from "./pool.js";
import { createRegistry } from "./registry.js";
import { superviseEngine } from "./supervisor.js";

/** @typedef {import("./types.gen.js").Operations} Operations */
/** @typedef {import("./types.gen.js").ExactName} ExactName */
/** @typedef {import("./types.gen.js").HandleRecord} HandleRecord */
/** @typedef {import("./types.gen.js").WhichRaResult} WhichRaResult */
/** @typedef {import("./types.gen.js").AliasTarget} AliasTarget */
/** @typedef {import("./types.gen.js").LinkOptions} LinkOptions */
/** @typedef {import("./lookup.js").LookupOptions} LookupOptions */
/** @typedef {import("./batch-handle.js").BatchOptions} BatchOptions */
/** @typedef {import("./supervisor.js").BootStatus} BootStatus */
/** @typedef {import("./supervisor.js").BootProgress} BootProgress */

/** The deadline of each operation, in milliseconds, from the moment it is sent. */
export const DEADLINES = /** @type {const} */ ({
  inspect: 5_000,
  compare: 5_000,
  box: 5_000,
  code_points: 5_000,
  link_targets: 15_000,
  lookup: 5_000,
  read: 10_000,
  registry_plan: 5_000,
  settle: 5_000,
  call: 30_000,
  batch_open: 30_000,
  batch_step: 15_000,
  batch_export: 60_000,
  batch_close: 5_000,
  batch_target: 15_000,
  batch_check: 15_000,
  batch_feed: 15_000,
  batch_end: 5_000,
  info: 5_000,
});

/**
 * Whether `value` is the keyword-argument marker `{kwargs: {...}}` (its only key).
 * @param {unknown} value
 * @returns {value is {kwargs: Record<string, unknown>}}
 */
function isKwargs(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const kw = /** @type {{kwargs?: unknown}} */ (value).kwargs;
  return Object.keys(value).length === 1 && !!kw && typeof kw === "object" && !Array.isArray(kw);
}
/**
 * Start the engine (supervisor.js: its worker, kept alive) and return its API.
 * `mailto`: the address the host page gives for Crossref's polite pool (it may be set
 * later with `setMailto`, e.g. from the page's settings); never invented.
 * @param {import("./supervisor.js").EngineOptions & {mailto?: string | null}} options
 */
export function createDoiname(options) {
  const engine = superviseEngine(options);
  /** @type {string | null} */
  let mailto = options.mailto || null;

  /**
   * One request of the worker protocol, once the engine is ready, with its deadline.
   * @template {keyof Operations} M
   * @param {M} method
   * @param {Operations[M]["params"]} params
   * @param {{signal?: AbortSignal}} [opts]
   * @returns {Promise<Operations[M]["result"]>}
   */
  function ask(method, params, opts = {}) {
    return engine.request(method, params, { timeoutMs: DEADLINES[method], signal: opts.signal });
  }

  /**
   * Call the public function `name` of the doiname package. Keyword arguments go last
   * as `{kwargs: {...}}`.
   * @param {string} name
   * @param {...unknown} args
   * @returns {Promise<any>}
   */
  function call(name, ...args) {
    const kwargs =
      args.length && isKwargs(args[args.length - 1])
        ? /** @type {{kwargs: Record<string, unknown>}} */ (args.pop()).kwargs
        : {};
    return ask("call", { name: String(name), args, kwargs });
  }

  /**
   * Fetch a doi.org URL that Python made, and have Python read what came back.
   * @param {"handle" | "which-ra" | "alias"} kind
   * @param {string} url
   * @param {LookupOptions} [opts]
   * @returns {Promise<any>}
   */
  async function lookupUrl(kind, url, opts = {}) {
    const answer = await fetchAnswer(url, opts);
    return ask("read", { kind, ...answer });
  }

  /**
   * The URL of a lookup: for text, what `fn` (a public function) makes of it; for exact
   * names, what `lookup` makes of them (never parsed again).
   * @param {"handle" | "which-ra"} kind
   * @param {string} fn
   * @param {unknown} target
   * @returns {Promise<string>}
   */
  async function urlFor(kind, fn, target) {
    const exact = Array.isArray(target)
      ? target.every((t) => t && typeof t === "object")
      : !!target && typeof target === "object";
    if (!exact) return call(fn, target);
    const made = await ask("lookup", { kind, target: /** @type {ExactName | ExactName[]} */ (target) });
    return made.url;
  }

  const registry = createRegistry(ask, { mailto: () => mailto });

  return {
    ready: engine.ready,
    onStatus: engine.onStatus,
    onProgress: engine.onProgress,
    timings: engine.timings,
    call,
    /** Everything a view shows for a pasted text (Python's `inspect`); `pick` selects a candidate. */
    inspect: (/** @type {string} */ text, /** @type {{pick?: number | null, signal?: AbortSignal}} */ o = {}) =>
      ask("inspect", { text, pick: o.pick ?? null }, o),
    /** Whether two pasted texts name the same DOI, and why (Python's `compare`). */
    compare: (/** @type {string} */ a, /** @type {string} */ b) => ask("compare", { a, b }),
    /** The widget's box: the reading, and the selected name's link made with `options`. */
    box: (/** @type {string} */ text, /** @type {LinkOptions} */ options = {}) => ask("box", { text, options }),
    /** The DOI names in each text and the links they become (linkify). */
    linkTargets: (/** @type {string[]} */ texts, /** @type {LinkOptions} */ options = {}) =>
      ask("link_targets", { texts, options }),
    /** Each character of a pasted text, described. */
    codePoints: (/** @type {string} */ text) => ask("code_points", { text }),
    /**
     * The handle record of a name (003 ch. 4): text is read as `to_handles_api_url` reads
     * it (rejects with its DoiError); an exact name `{prefix, suffix}` is never read again.
     * @param {string | ExactName} target
     * @param {LookupOptions} [opts]
     * @returns {Promise<HandleRecord>}
     */
    resolve: async (target, opts) => lookupUrl("handle", await urlFor("handle", "to_handles_api_url", target), opts),
    /**
     * Which registration agency registered each name: texts, or exact names.
     * @param {string | string[] | ExactName[]} targets
     * @param {LookupOptions} [opts]
     * @returns {Promise<WhichRaResult>}
     */
    whichRa: async (targets, opts) => lookupUrl("which-ra", await urlFor("which-ra", "to_which_ra_url", targets), opts),
    /**
     * A shortDOI's HS_ALIAS record; `target_doi` is the exact name it stands for and
     * `target_text` a text that Inspect reads back as exactly that name.
     * @param {string} short
     * @param {LookupOptions} [opts]
     * @returns {Promise<HandleRecord & AliasTarget>}
     */
    expandShort: async (short, opts) => {
      const made = await ask("lookup", { kind: "alias", target: { short: String(short) } });
      return lookupUrl("alias", made.url, opts);
    },
    lookupUrl,
    /**
     * Resolve many handle API URLs (batch rows' `api_url`), a few at a time, again while
     * Python says it may help; `onResult(url, record)` as each ends.
     * @param {string[]} urls
     * @param {{signal: AbortSignal, onResult: (url: string, record: HandleRecord) => void}} opts
     */
    lookupAll: (urls, opts) => lookupAll(urls, (url, signal) => lookupUrl("handle", url, { signal }), opts),
    /** A batch over a text, a file (`Blob`, read as a stream) or pieces of text. @param {string | Blob | import("./pieces.js").Pieces} input @param {BatchOptions} [opts] */
    startBatch: (input, opts) => startBatch(ask, input, opts),
    /** Every row of a batch (see startBatch). @param {string | Blob | import("./pieces.js").Pieces} input @param {BatchOptions} [opts] */
    batch: (input, opts) => batchRows(ask, input, opts),
    /**
     * What a name identifies: its record at its registration agency, read by Python into
     * the answer, the card and (with `reference`) the check; kept per exact name.
     */
    record: registry.record,
    /** What came back for a name's record, unread (Batch's Check all has Python read it). */
    fetchRecord: registry.fetchRecord,
    /** Keep what came back for a name for the page's life (Python read it as `outcome`). */
    keepRecord: registry.keep,
    /** The request Python makes for a name's record at `agency` (its limits among them). */
    registryRequest: (/** @type {ExactName} */ doi, /** @type {string} */ agency) =>
      ask("lookup", { kind: "registry", target: { doi, agency, mailto } }),
    /** The readings of `text` that Resolve looks up, and the reference around them. */
    registryPlan: (/** @type {string} */ text, /** @type {number | null} */ pick = null) =>
      ask("registry_plan", { text, pick }),
    /** The order the registry settles readings in, and why (Python's `settle`). */
    settle: (/** @type {import("./types.gen.js").SettleReading[]} */ readings) => ask("settle", { readings }),
    /** The e-mail address sent to Crossref (the host page's or the person's), or null. */
    setMailto: (/** @type {string | null} */ address) => {
      mailto = address?.trim() || null;
    },
    /** The address sent to Crossref, or null. */
    mailto: () => mailto,
    /** Facts about the running package: versions, installer, memory. */
    info: () => ask("info", {}),
  };
}

/** @typedef {ReturnType<typeof createDoiname>} Doiname */
