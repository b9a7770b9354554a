// @ts-check
/**
 * Drawing untrusted answers within bounds (a handle record from doi.org, or from anyone
 * in the middle of an `http:` resolver, may hold megabytes): at most DRAW_MAX_VALUE_CHARS
 * characters of a text and DRAW_MAX_VALUES items of a list are drawn at first; the rest
 * is behind "Show all", which shows the list in pages of DRAW_PAGE_VALUES items, or a
 * button that draws the next DRAW_MAX_VALUE_CHARS characters of a text; so no drawing
 * blocks the page and nothing is out of reach.
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
 * `text` drawn faithfully (visibleText: invisible characters tagged; spaces are plain
 * spaces here, this is free text), its first `limit` characters at first; a button draws
 * the next `limit` at each press, saying how many are left.
 * @param {string} text
 * @param {number} [limit]
 * @returns {Node}
 */
export function boundedText(text, limit = DRAW_MAX_VALUE_CHARS) {
  const frag = document.createDocumentFragment();
  let at = 0;
  const drawNext = () => {
    const end = safeCut(text, Math.min(text.length, at + limit)) || Math.min(text.length, at + 2);
    const part = visibleText(text.slice(at, end), { spaces: false });
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
 * Draw into `parent` the first `first` of `items` (each drawn by `draw`). When there are
 * more, return a control (for the caller to place): "Show all" turns the list into pages
 * of `page` items with Previous and Next, each page replacing the one shown, so the page
 * never holds more than `page` items however long the list (a table of a thousand long
 * rows takes the browser seconds to lay out at each change). Else null.
 * @template T
 * @param {Element} parent where the drawn items go
 * @param {T[]} items
 * @param {(item: T, index: number) => Node} draw
 * @param {{noun: string, first?: number, page?: number}} options
 * @returns {HTMLElement | null}
 */
export function boundedList(parent, items, draw, options) {
  const { noun, first = DRAW_MAX_VALUES, page = DRAW_PAGE_VALUES } = options;
  /** @param {number} from @param {number} to */
  const show = (from, to) => {
    const frag = document.createDocumentFragment();
    for (let i = from; i < to; i++) frag.appendChild(draw(items[i], i));
    parent.replaceChildren(frag);
  };
  show(0, Math.min(items.length, first));
  if (items.length <= first) return null;
  const nav = el("div", { class: "more-nav", "data-more": noun });
  const all = el("button", {
    type: "button",
    class: "more",
    text: `Show all ${fmt(items.length)} ${noun} (${fmt(items.length - first)} not shown), ${fmt(page)} at a time`,
  });
  const where = el("span", { class: "meta", "aria-live": "polite" });
  const prev = el("button", { type: "button", class: "more", "data-page": "previous", text: `Previous ${fmt(page)}` });
  const next = el("button", { type: "button", class: "more", "data-page": "next", text: `Next ${fmt(page)}` });
  let at = 0;
  const go = (/** @type {number} */ to) => {
    at = Math.max(0, Math.min(to, Math.floor((items.length - 1) / page) * page));
    const end = Math.min(items.length, at + page);
    show(at, end);
    where.textContent = `${noun[0].toUpperCase()}${noun.slice(1)} ${fmt(at + 1)}–${fmt(end)} of ${fmt(items.length)}`;
    prev.disabled = at === 0;
    next.disabled = end >= items.length;
  };
  all.addEventListener("click", () => {
    nav.replaceChildren(prev, " ", where, " ", next);
    go(0);
    where.focus?.();
  });
  prev.addEventListener("click", () => go(at - page));
  next.addEventListener("click", () => go(at + page));
  nav.append(all);
  return nav;
}
