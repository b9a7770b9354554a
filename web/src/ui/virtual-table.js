// @ts-check
/**
 * A table body that draws only the rows in sight (plus a few above and below), with
 * spacer rows standing for the others, so that 100,000 rows scroll smoothly; and the
 * keys that move a selection through it.
 * @module ui/virtual-table
 */
import { el, replace } from "./dom.js";

/** Rows drawn above and below the visible ones. */
const OVERSCAN = 8;
/** A row's height until one is measured (px). */
const DEFAULT_ROW_PX = 34;

/**
 * Where a key moves the selection in a list of `n` rows: `at` is the selected position
 * (-1: none), `page` the rows in one screen. Null for a key that does not move it.
 * @param {string} key
 * @param {number} at
 * @param {number} n
 * @param {number} page
 * @returns {number | null}
 */
export function moveTo(key, at, n, page) {
  if (!n) return null;
  switch (key) {
    case "ArrowDown":
      return at < 0 ? 0 : Math.min(n - 1, at + 1);
    case "ArrowUp":
      return at < 0 ? 0 : Math.max(0, at - 1);
    case "PageDown":
      return Math.min(n - 1, Math.max(0, at) + page);
    case "PageUp":
      return Math.max(0, at - page);
    case "Home":
      return 0;
    case "End":
      return n - 1;
    default:
      return null;
  }
}

export class VirtualTable {
  /**
   * @param {{scroller: HTMLElement, table: HTMLTableElement, head: HTMLElement,
   *   body: HTMLTableSectionElement, columns: number}} parts
   * @param {(index: number, position: number) => HTMLTableRowElement} drawRow
   */
  constructor(parts, drawRow) {
    this.parts = parts;
    this.drawRow = drawRow;
    this.rowHeight = 0;
    /**
     * What the last draw put in the body: the view it drew from, the positions of the
     * rows drawn, and the spacer after them.
     * @type {{view: number[], top: number, end: number, after: HTMLElement} | null}
     */
    this.last = null;
  }

  /** A row's height (measured once a row is drawn). */
  get rowPx() {
    return this.rowHeight || DEFAULT_ROW_PX;
  }

  /** Rows in one screen. */
  get pageRows() {
    return Math.max(1, Math.floor(this.parts.scroller.clientHeight / this.rowPx) - 1);
  }

  /**
   * Draw the rows of `view` (row numbers, in order) that are in sight.
   * `grown` says that nothing in the view changed but rows added at its end (a running
   * batch in input order): when the rows in sight are the ones already drawn, only the
   * spacer after them grows, and the rows are not made again (a redraw of every row in
   * sight, several times a second, is most of the page's work while a long list is read).
   * @param {number[]} view
   * @param {string | null} empty what to say when `view` is empty (null: say nothing)
   * @param {boolean} [grown]
   */
  draw(view, empty, grown = false) {
    const { scroller, body, table, columns } = this.parts;
    const n = view.length;
    table.setAttribute("aria-rowcount", String(n + 1));
    if (!this.rowHeight && n) {
      replace(body, this.drawRow(view[0], 0));
      this.rowHeight = /** @type {HTMLElement} */ (body.firstChild).getBoundingClientRect().height || DEFAULT_ROW_PX;
    }
    const h = this.rowPx;
    const top = Math.max(0, Math.floor(scroller.scrollTop / h) - OVERSCAN);
    const count = Math.ceil((scroller.clientHeight || 400) / h) + 2 * OVERSCAN;
    const end = Math.min(n, top + count);
    const last = this.last;
    if (grown && last && last.view === view && last.top === top && last.end === end && n) {
      last.after.style.height = `${Math.max(0, n - end) * h}px`;
      return;
    }
    const before = el("tr", { class: "spacer", "aria-hidden": "true" }, el("td", { colspan: columns }));
    const after = el("tr", { class: "spacer", "aria-hidden": "true" }, el("td", { colspan: columns }));
    before.style.height = `${top * h}px`;
    after.style.height = `${Math.max(0, n - end) * h}px`;
    /** @type {HTMLTableRowElement[]} */
    const rows = [];
    for (let p = top; p < end; p++) rows.push(this.drawRow(view[p], p));
    replace(body, before, rows, after);
    this.last = n ? { view, top, end, after } : null;
    if (!n && empty) replace(body, el("tr", null, el("td", { colspan: columns, class: "empty", text: empty })));
  }

  /**
   * Scroll so that the row at `position` is in sight.
   * @param {number} position
   */
  reveal(position) {
    const h = this.rowPx;
    const s = this.parts.scroller;
    const head = this.parts.head.getBoundingClientRect().height;
    const y = position * h;
    if (y < s.scrollTop) s.scrollTop = y;
    else if (y + h > s.scrollTop + s.clientHeight - head) s.scrollTop = y + h - s.clientHeight + head;
  }
}
