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

/** While typing, the address follows at most this often (ms); see `StateHistory.typed`. */
const TYPING_WRITE_MS = 250;

/**
 * The page's history as a person edits it. The first keystroke after a deliberate step
 * (load, Enter, a button, Back or Forward) makes a new entry; the keystrokes that follow
 * only replace it, so Back returns to the state before the edit, not to every letter
 * typed. While typing, the entry is replaced at most every TYPING_WRITE_MS (a history
 * write costs about a millisecond, a good part of a keystroke's budget): the state of
 * the last keystroke not written yet is written first by a deliberate step, so the entry
 * before keeps exactly what was typed; Back or Forward drops it.
 */
export class StateHistory {
  /** @param {() => PageState} current the state the inputs hold now */
  constructor(current) {
    this.current = current;
    this.editing = false;
    /** @type {PageState | null} */
    this.unwritten = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  /** Write the keystroke's state that waits (a reload or Back then finds the last text). */
  flush() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.unwritten) writeState(this.unwritten, false);
    this.unwritten = null;
  }

  /** A keystroke: the first makes the entry, the others replace it, at most so often. */
  typed() {
    if (!this.editing) {
      this.flush();
      writeState(this.current(), true);
      this.editing = true;
      return;
    }
    this.unwritten = this.current();
    if (this.timer === undefined) this.timer = setTimeout(() => this.flush(), TYPING_WRITE_MS);
  }

  /** A deliberate step: the current state keeps its own entry. */
  commit() {
    this.flush();
    if (this.editing) writeState(this.current(), false);
    this.editing = false;
  }

  /** A new text put in by a deliberate step (a paste, an example, a button): its own entry,
   * the entry before keeping what was there. */
  push() {
    this.flush();
    writeState(this.current(), true);
    this.editing = false;
  }

  /** The inputs were set from the address (load, Back, Forward): what waited was for the
   * entry left behind, and the next keystroke makes a new entry. */
  restored() {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unwritten = null;
    this.editing = false;
  }
}
