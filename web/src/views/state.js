// @ts-check
/**
 * Page state in the URL fragment: `#doi=...` for the main input, `a=...&b=...` for the
 * equivalence panel (URLSearchParams, so any text survives the round trip). A text over
 * INSPECT_MAX_CHARS (which Inspect does not read anyway) is left out of the fragment: a
 * URL of megabytes takes the browser seconds to store, and Chromium drops URLs over 2 MB.
 * @module views/state
 */
import { INSPECT_MAX_CHARS } from "../engine/limits.gen.js";

/** @typedef {{doi: string, a: string, b: string}} PageState */

/**
 * Read the state from a fragment (default: the current location's).
 * @param {string} [hash]
 * @returns {PageState}
 */
export function readState(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  return { doi: params.get("doi") ?? "", a: params.get("a") ?? "", b: params.get("b") ?? "" };
}

/**
 * Whether a fragment is a page state (`#doi=...`, `#a=...&b=...`, or none) rather than a
 * link to a place in the page (`#batch`, the skip link's `#doi-input`), which must leave
 * the inputs as they are.
 * @param {string} [hash]
 * @returns {boolean}
 */
export function isStateHash(hash = location.hash) {
  return hash === "" || hash === "#" || hash.includes("=");
}

/**
 * The fragment for a state (empty values are left out).
 * @param {PageState} state
 * @returns {string}
 */
export function stateHash(state) {
  const params = new URLSearchParams();
  /** @param {string} key @param {string} value */
  const keep = (key, value) => {
    if (value && value.length <= INSPECT_MAX_CHARS) params.set(key, value);
  };
  keep("doi", state.doi);
  keep("a", state.a);
  keep("b", state.b);
  const text = params.toString();
  return text ? `#${text}` : "";
}

/**
 * Write the state to the URL: `push` makes a history entry (deliberate actions),
 * otherwise the current entry is replaced (typing).
 * @param {PageState} state
 * @param {boolean} push
 */
export function writeState(state, push) {
  const hash = stateHash(state);
  const url = location.pathname + location.search + hash;
  if (url === location.pathname + location.search + location.hash) return;
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}
