// @ts-check
/**
 * Drawing untrusted answers within bounds (a handle record from doi.org, or from anyone
 * in the middle of an `http:` resolver, may hold megabytes): at most DRAW_MAX_VALUE_CHARS
 * characters of a text and DRAW_MAX_VALUES items of a list are drawn at first; the rest
 * is behind a button that says how much is left and draws it in pages (DRAW_PAGE_VALUES
 * items, or DRAW_MAX_VALUE_CHARS characters, per task), so no drawing blocks the page.
 * Nothing is dropped: every character can be shown. Display only; no DOI rule here.
 * @module views/bounded
 */
import { DRAW_MAX_VALUE_CHARS, DRAW_MAX_VALUES, DRAW_PAGE_VALUES } from "../engine/limits.gen.js";
import { safeCut } from "../engine/pieces.js";
import { el } from "../ui/dom.js";
import { visibleText } from "../ui/text.js";

/**
 * `n` formatted for people.
 * @param {number} n
 */
const fmt = (n) => n.toLocaleString("en-US");

/**
 * `text` drawn faithfully (visibleText), its first `limit` characters at first; a button
 * draws the next `limit` at each press, saying how many are left.
 * @param {string} text
 * @param {number} [limit]
 * @returns {Node}
 */
export function boundedText(text, limit = DRAW_MAX_VALUE_CHARS) {
  const frag = document.createDocumentFragment();
  let at = 0;
  const drawNext = () => {
    const end = safeCut(text, Math.min(text.length, at + limit)) || Math.min(text.length, at + 2);
    const part = visibleText(text.slice(at, end));
    at = end;
    return part;
  };
  frag.appendChild(drawNext());
  if (at < text.length) {
    const button = el("button", { type: "button", class: "more", "data-more": "text" });
    const label = () => {
      button.textContent = `Show ${fmt(Math.min(limit, text.length - at))} more characters (${fmt(text.length - at)} of ${fmt(text.length)} not shown)`;
    };
    label();
    button.addEventListener("click", () => {
      button.before(drawNext());
      if (at >= text.length) button.remove();
      else label();
    });
    frag.appendChild(button);
  }
  return frag;
}

/**
 * Append to `parent` the first `first` of `items` (each drawn by `draw`); when there are
 * more, return a "Show all" button (for the caller to place) that draws the rest in
 * pages of `page`, one page per task, saying how far it is; else null.
 * @template T
 * @param {Element} parent where the drawn items go
 * @param {T[]} items
 * @param {(item: T, index: number) => Node} draw
 * @param {{noun: string, first?: number, page?: number}} options
 * @returns {HTMLButtonElement | null}
 */
export function boundedList(parent, items, draw, options) {
  const { noun, first = DRAW_MAX_VALUES, page = DRAW_PAGE_VALUES } = options;
  let at = 0;
  /** @param {number} n */
  const drawSome = (n) => {
    const end = Math.min(items.length, at + n);
    const frag = document.createDocumentFragment();
    for (; at < end; at++) frag.appendChild(draw(items[at], at));
    parent.appendChild(frag);
  };
  drawSome(first);
  if (at >= items.length) return null;
  const button = el("button", {
    type: "button",
    class: "more",
    "data-more": noun,
    text: `Show all ${fmt(items.length)} ${noun} (${fmt(items.length - at)} more)`,
  });
  button.addEventListener("click", () => {
    button.disabled = true;
    const step = () => {
      drawSome(page);
      if (at >= items.length) {
        button.remove();
        return;
      }
      button.textContent = `Drawing ${noun}: ${fmt(at)} of ${fmt(items.length)}…`;
      setTimeout(step, 0);
    };
    step();
  });
  return button;
}
