// @ts-check
/**
 * Moving about the Batch table: the keyboard in it, the selected row's details, and
 * going to the first row of a line (a duplicate's "see line N").
 * @module views/batch/select
 */
import { replace } from "../../ui/dom.js";
import { safeLink } from "../../ui/text.js";
import { moveTo } from "../../ui/virtual-table.js";
import { detailOf } from "./detail.js";

/** @typedef {import("./view.js").BatchView} BatchView */

/**
 * Keyboard in the table: arrows, Page Up/Down, Home/End move the selection; Enter
 * opens the selected DOI in the Inspect section.
 * @param {BatchView} view
 * @param {KeyboardEvent} ev
 */
export function onTableKey(view, ev) {
  const shown = view.model.view;
  if (!shown.length) return;
  if (ev.key === "Enter") {
    const r = view.model.rows[view.selected];
    if (r?.text) {
      // a row with a DOI (or the text that failed to read as one)
      ev.preventDefault();
      view.els.onInspect(r.text);
    }
    return;
  }
  const to = moveTo(ev.key, shown.indexOf(view.selected), shown.length, view.table.pageRows);
  if (to === null) return;
  ev.preventDefault();
  view.select(shown[to], true);
}

/**
 * Show the details of row `index` in the view's detail panel.
 * @param {BatchView} view
 * @param {number} index
 */
export function showDetail(view, index) {
  const act = {
    goToLine: (/** @type {number} */ line) => goToLine(view, line),
    inspect: view.els.onInspect,
    link: safeLink,
  };
  replace(view.els.detail, detailOf(view.model, index, act));
}

/**
 * Select the first row of a line (clearing filter and search if it is hidden).
 * @param {BatchView} view
 * @param {number} line
 */
export function goToLine(view, line) {
  let index = view.model.rowOfLine(line);
  if (index < 0) return;
  if (!view.model.view.includes(index)) {
    view.model.filter = "all";
    view.model.search = "";
    view.els.filter.value = "all";
    view.els.search.value = "";
    view.refreshView(false);
    index = view.model.rowOfLine(line);
  }
  view.select(index, true);
  view.els.scroller.focus();
}
