// @ts-check
/**
 * Showing text faithfully: positions from Python count code points, JavaScript strings
 * count UTF-16 units; invisible characters get a visible stand-in. No DOI rule here:
 * these are display concerns only.
 * @module views/text
 */
import { el } from "./dom.js";

/**
 * The code points of a text (Python's indexing).
 * @param {string} text
 * @returns {string[]}
 */
export function chars(text) {
  return Array.from(text);
}

/**
 * The UTF-16 offset of code point index `index` in `text` (for setSelectionRange).
 * @param {string} text
 * @param {number} index
 * @returns {number}
 */
export function utf16Offset(text, index) {
  let offset = 0;
  let i = 0;
  for (const ch of text) {
    if (i >= index) break;
    offset += ch.length;
    i += 1;
  }
  return offset;
}

const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Z}\p{Co}\p{Cn}\p{Cs}]$/u;

/**
 * Whether a character draws nothing (or only space) on screen.
 * @param {string} ch one code point
 * @returns {boolean}
 */
export function isInvisible(ch) {
  return INVISIBLE.test(ch);
}

/**
 * `U+XXXX` for one code point.
 * @param {string} ch
 * @returns {string}
 */
export function codePointLabel(ch) {
  const cp = ch.codePointAt(0) ?? 0;
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * A node showing `text` exactly, with each invisible character written as a small
 * visible `U+XXXX` tag (the character itself is kept next to it), and each space marked
 * (unless `spaces` is false: free text such as a record's description, where a space is
 * a space and an element per space would cost the page seconds on a long text).
 * `breaks` draws a line feed as what it is in a text of several lines (a reference
 * wrapped over lines): `"line"` a line break, `"mark"` a small ↵ in a one-line cell.
 * @param {string} text
 * @param {{spaces?: boolean, breaks?: "line" | "mark"}} [options]
 * @returns {DocumentFragment}
 */
export function visibleText(text, options = {}) {
  const markSpaces = options.spaces ?? true;
  const breaks = options.breaks;
  const frag = document.createDocumentFragment();
  let run = "";
  for (const ch of text) {
    if (ch === "\n" && breaks) {
      if (run) frag.appendChild(document.createTextNode(run));
      run = "";
      frag.appendChild(
        breaks === "line" ? el("br") : el("span", { class: "line-break", title: "line break" }, "\u21b5 "),
      );
    } else if (isInvisible(ch) && ch !== " ") {
      if (run) frag.appendChild(document.createTextNode(run));
      run = "";
      // Only the label: a bidi control kept here would reorder the text around it.
      frag.appendChild(el("span", { class: "cp-tag", title: `${codePointLabel(ch)} (invisible)` }, codePointLabel(ch)));
    } else if (ch === " " && markSpaces) {
      if (run) frag.appendChild(document.createTextNode(run));
      run = "";
      frag.appendChild(el("span", { class: "space", title: "U+0020 SPACE" }, " "));
    } else {
      run += ch;
    }
  }
  if (run) frag.appendChild(document.createTextNode(run));
  return frag;
}

/**
 * "character 10" or "characters 10–12" (1-based, as the core's messages count).
 * @param {number} start 0-based
 * @param {number} end 0-based, exclusive
 * @returns {string}
 */
export function spanWords(start, end) {
  if (end <= start + 1) return `character ${start + 1}`;
  return `characters ${start + 1}–${end}`;
}

/**
 * A link for a URL the core made or marked linkable (`is_linkable_url`: http(s) only):
 * opens in a new tab, tells nothing back.
 * @param {string} href
 * @param {string} [label]
 * @returns {HTMLAnchorElement}
 */
export function safeLink(href, label) {
  return el("a", { href, rel: "noopener noreferrer", target: "_blank", class: "ext" }, visibleText(label ?? href));
}
