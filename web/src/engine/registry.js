// @ts-check
/**
 * What a DOI names, read from its registration agency: the agency found through Which RA
 * (kept per prefix for the page's life), the request Python makes for that agency
 * (`lookup` of kind `registry`: URL, headers, the agency's rate limits), the bytes
 * fetched here within those limits (pool.js's `rateGate`, one per limit group), and the
 * answer read by Python (`read`: the answer, the card, the check against a reference).
 * An answer Python read as found or not found is kept per exact name for the page's
 * life, so a name is fetched once; read again (cheaply) with another reference. A 429's
 * Retry-After, as Python read it, holds the agency's whole group. Nothing here knows a
 * rule: every decision is in the replies.
 * @module engine/registry
 */
import { fetchAnswer } from "./lookup.js";
import { rateGate } from "./pool.js";

/** @typedef {import("./types.gen.js").Operations} Operations */
/** @typedef {import("./types.gen.js").ExactName} ExactName */
/** @typedef {import("./types.gen.js").RegistryReading} RegistryReading */
/** @typedef {import("./types.gen.js").RegistryRequest} RegistryRequest */
/** @typedef {import("./lookup.js").Answer} Answer */
/**
 * @typedef {<M extends keyof Operations>(method: M, params: Operations[M]["params"],
 *   opts?: {signal?: AbortSignal}) => Promise<Operations[M]["result"]>} Ask
 */

/** What came back for a name, its agency and what Which RA said of it.
 * @typedef {{answer: Answer, agency: string, kind: string | null}} Got */

/** Outcomes kept for the page's life (the others are asked again). */
const KEPT = new Set(["found", "not-found"]);

/**
 * @param {Ask} ask one request of the worker protocol
 * @param {{mailto: () => string | null}} options the address the host page or the person gave
 */
export function createRegistry(ask, options) {
  /** Which RA's agency by prefix. @type {Map<string, Promise<{agency: string, kind: string | null}>>} */
  const agencies = new Map();
  /** What came back for each exact name, with its agency. @type {Map<string, Got>} */
  const answers = new Map();
  /** @type {Map<string, ReturnType<typeof rateGate>>} */
  const gates = new Map();

  /**
   * The agency of `doi`'s prefix (Which RA, asked once per prefix while it answers).
   * @param {ExactName} doi
   * @param {AbortSignal} [signal]
   * @returns {Promise<{agency: string, kind: string | null, failure: Answer["failure"]}>}
   */
  async function agencyOf(doi, signal) {
    const kept = agencies.get(doi.prefix);
    if (kept) return { ...(await kept), failure: null };
    const made = await ask("lookup", { kind: "which-ra", target: [{ prefix: doi.prefix, suffix: doi.suffix }] });
    const answer = await fetchAnswer(/** @type {{url: string}} */ (made).url, { signal });
    if (answer.failure) return { agency: "", kind: null, failure: answer.failure };
    const result = /** @type {import("./types.gen.js").WhichRaResult} */ (
      await ask("read", { kind: "which-ra", ...answer })
    );
    const first = result.answers?.[0];
    const found = { agency: first?.ra ?? "", kind: first?.kind ?? null };
    // Only an agency named is kept for the prefix; "does not exist" is of this name only.
    if (found.agency) agencies.set(doi.prefix, Promise.resolve(found));
    return { ...found, failure: result.ok ? null : "network" };
  }

  /**
   * The gate of a request's limit group (none: a gate with no limits of its own).
   * @param {RegistryRequest} req
   */
  function gateOf(req) {
    const key = req.limit_group || `agency:${req.agency}`;
    let gate = gates.get(key);
    if (!gate) {
      gate = rateGate({ perSecond: req.per_second, concurrent: req.concurrent });
      gates.set(key, gate);
    }
    return gate;
  }

  /**
   * What came back for `doi`'s record (kept for the page's life once Python read it as
   * found or not found: `keep`), its agency and what Which RA said, and the gate of its
   * request's limit group (null when no request was sent).
   * @param {ExactName} doi
   * @param {AbortSignal} [signal]
   * @returns {Promise<{got: Got, gate: ReturnType<typeof rateGate> | null, kept: boolean}>}
   */
  async function fetchRecord(doi, signal) {
    const exact = { prefix: doi.prefix, suffix: doi.suffix };
    const held = answers.get(`${doi.prefix}\n${doi.suffix}`);
    if (held) return { got: held, gate: null, kept: true };
    const ra = await agencyOf(exact, signal);
    /** @param {NonNullable<Answer["failure"]>} failure @returns {Got} */
    const failed = (failure) => ({
      answer: { status: null, body: null, failure, content_type: null, retry_after: null },
      agency: ra.agency,
      kind: ra.kind,
    });
    if (ra.failure) return { got: failed(ra.failure), gate: null, kept: false };
    if (!ra.agency) return { got: failed("not-readable"), gate: null, kept: false };
    const req = /** @type {RegistryRequest} */ (
      await ask("lookup", { kind: "registry", target: { doi: exact, agency: ra.agency, mailto: options.mailto() } })
    );
    if (!req.readable) return { got: failed("not-readable"), gate: null, kept: false };
    const gate = gateOf(req);
    let release;
    try {
      release = await gate.acquire(signal);
    } catch {
      return { got: failed("cancelled"), gate, kept: false };
    }
    try {
      const answer = await fetchAnswer(req.url, { signal, headers: req.headers, timeoutMs: req.deadline_ms });
      return { got: { answer, agency: ra.agency, kind: ra.kind }, gate, kept: false };
    } finally {
      release();
    }
  }

  /**
   * Keep what came back for `doi` for the page's life (Python read it as `outcome`).
   * @param {ExactName} doi @param {Got} got @param {string} outcome
   */
  function keep(doi, got, outcome) {
    if (KEPT.has(outcome)) answers.set(`${doi.prefix}\n${doi.suffix}`, got);
  }

  /**
   * The record of `doi`, read by Python (with its check against `reference`, if given).
   * @param {ExactName} doi
   * @param {{reference?: string | null, signal?: AbortSignal}} [opts]
   * @returns {Promise<RegistryReading>}
   */
  async function record(doi, opts = {}) {
    const { reference = null, signal } = opts;
    const exact = { prefix: doi.prefix, suffix: doi.suffix };
    const { got, gate, kept } = await fetchRecord(exact, signal);
    const reading = await readAnswer(exact, got, reference);
    const wait = reading.answer.retry_after_s;
    if (gate && typeof wait === "number" && wait > 0) gate.holdFor(wait * 1000);
    if (!kept) keep(exact, got, reading.answer.outcome);
    return reading;
  }

  /**
   * @param {ExactName} doi
   * @param {Got} got
   * @param {string | null} reference
   * @returns {Promise<RegistryReading>}
   */
  async function readAnswer(doi, got, reference) {
    return /** @type {RegistryReading} */ (
      await ask("read", { kind: "registry", doi, agency: got.agency, ra_kind: got.kind, reference, ...got.answer })
    );
  }

  return { record, fetchRecord, keep };
}
