// @ts-check
/**
 * The Batch table's header and rows, drawn from the model (labels of statuses come
 * from Python with the rows).
 * @module views/batch/table
 */

import { el } from "../../ui/dom.js";
import { visibleText } from "../../ui/text.js";
import { firstOccurrence } from "./detail.js";

/** @typedef {import("../../engine/types.gen.js").BatchRow} BatchRow */
/** @typedef {import("./model.js").BatchModel} BatchModel */
/** @typedef {import("./model.js").SortKey} SortKey */

/** The table's columns: header text, the row field shown, whether it sorts. */
export const COLUMNS = /** @type {const} */ ([
  { key: "line", label: "Line", sorts: true },
  { key: "status", label: "Status", sorts: true },
  { key: "doi", label: "DOI", sorts: true },
  { key: "record", label: "Record", sorts: true },
  { key: "input", label: "Input", sorts: true },
  { key: "duplicate_of", label: "Duplicate of", sorts: true },
  { key: "findings", label: "Findings", sorts: true },
  { key: "url", label: "URL", sorts: false },
  { key: "uri", label: "doi: URI", sorts: false },
  { key: "resolution", label: "Resolves to", sorts: false },
]);

/**
 * A number with thousands separators.
 * @param {number} n
 * @returns {string}
 */
export function fmt(n) {
  return n.toLocaleString("en-US");
}

/**
 * A count and its noun, singular for one: `counted(1, "line")` is "1 line".
 * @param {number} n
 * @param {string} one the noun for one
 * @param {string} [many] the noun for any other count (`one` and "s")
 * @returns {string}
 */
export function counted(n, one, many = `${one}s`) {
  return `${fmt(n)} ${n === 1 ? one : many}`;
}

/**
 * The text of the Findings cell: the first finding and how many more.
 * @param {BatchRow} row
 * @returns {string}
 */
export function findingsText(row) {
  const list = row.findings;
  if (!list.length) return "";
  const first = `${list[0].severity}: ${list[0].message}`;
  return list.length > 1 ? `${first} (+${list.length - 1} more)` : first;
}

/**
 * The header cells; a sortable column's header is a button (`onSort(key, label)`).
 * @param {BatchModel} model
 * @param {(key: SortKey, label: string) => void} onSort
 * @returns {HTMLTableCellElement[]}
 */
export function headCells(model, onSort) {
  const sort = model.sort;
  return COLUMNS.map((c) => {
    const active = sort.key === c.key;
    const ariaSort = active ? (sort.dir === 1 ? "ascending" : "descending") : c.sorts ? "none" : null;
    const th = el("th", { scope: "col", class: `col-${c.key}`, "aria-sort": ariaSort });
    if (!c.sorts) {
      th.textContent = c.label;
      return th;
    }
    const mark = active ? (sort.dir === 1 ? " ▲" : " ▼") : "";
    const onclick = () => onSort(/** @type {SortKey} */ (c.key), c.label);
    th.appendChild(
      el(
        "button",
        { type: "button", class: "sort", "data-sort": c.key, onclick },
        c.label,
        el("span", { class: "sort-mark", "aria-hidden": "true", text: mark }),
      ),
    );
    return th;
  });
}

/**
 * One table row.
 * @param {BatchModel} model
 * @param {number} index the row's number
 * @param {number} position its place in the view
 * @param {boolean} selected
 * @returns {HTMLTableRowElement}
 */
export function rowOf(model, index, position, selected) {
  const r = model.rows[index];
  const status = model.statusOf(index);
  return el(
    "tr",
    {
      "data-row": index,
      "data-status": status,
      "aria-rowindex": position + 2,
      "aria-selected": selected ? "true" : "false",
      class: selected ? "selected" : null,
    },
    el("td", { class: "col-line num", text: r.line }),
    el("td", { class: "col-status" }, el("span", { class: `status status-${status}`, text: model.label(status) })),
    el("td", { class: "col-doi mono", title: r.doi ?? "" }, r.doi ? visibleText(r.doi) : ""),
    el("td", { class: "col-record", title: r.record ?? "" }, r.record ? visibleText(r.record) : ""),
    el("td", { class: "col-input", title: r.input }, visibleText(r.input, { breaks: "mark" })),
    el("td", {
      class: "col-duplicate_of",
      text: r.duplicate_of === null ? "" : firstOccurrence(model, r.duplicate_of),
    }),
    el("td", { class: "col-findings", text: findingsText(r) }),
    el("td", { class: "col-url mono", text: r.url ?? "" }),
    el("td", { class: "col-uri mono", text: r.uri ?? "" }),
    el("td", { class: "col-resolution", text: model.resolutionText(index) }),
  );
}

/**
 * Save text as a file (a download of a blob: URL made here).
 * @param {string} text
 * @param {string} name
 * @param {string} type
 */
export function saveFile(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el("a", { href: url, download: name, class: "offscreen", tabindex: "-1" });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
