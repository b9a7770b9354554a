// @ts-check
/**
 * The selected Batch row in full: its input, name, links, resolution, duplicate and
 * findings, and "Open in Inspect".
 * @module views/batch/detail
 */
import { el, sourceLine } from "../../ui/dom.js";
import { visibleText } from "../../ui/text.js";

/** @typedef {import("./model.js").BatchModel} BatchModel */
/** @typedef {import("../../engine/types.gen.js").HandleRecord} HandleRecord */

/** The record key of each line, per row list (built once per list and length). @type {WeakMap<object, {n: number, keys: Map<number, string>}>} */
const KEYS = new WeakMap();

/**
 * How a duplicate names its first occurrence: the record's key and its line when the
 * record has a key (a BibTeX key, a RIS ID), else the line.
 * @param {BatchModel} model
 * @param {number} line
 * @returns {string}
 */
export function firstOccurrence(model, line) {
  let known = KEYS.get(model.rows);
  if (!known || known.n !== model.rows.length) {
    const keys = new Map();
    for (const row of model.rows) if (row.record && !keys.has(row.line)) keys.set(row.line, row.record);
    known = { n: model.rows.length, keys };
    KEYS.set(model.rows, known);
  }
  const key = known.keys.get(line);
  const at = `line ${line.toLocaleString("en-US")}`;
  return key ? `${key} (${at})` : at;
}

/**
 * @param {BatchModel} model
 * @param {number} index the row's number
 * @param {{goToLine: (line: number) => void, inspect: (text: string) => void,
 *   link: (href: string) => HTMLAnchorElement}} act
 * @returns {Node[]}
 */
export function detailOf(model, index, act) {
  const r = model.rows[index];
  const rec = model.resolutions.get(index);
  const checked = model.checks.get(index);
  /**
   * @param {string} label
   * @param {Node | string} value
   * @param {string | null} [cls]
   */
  const item = (label, value, cls = null) =>
    el("div", null, el("dt", { text: label }), el("dd", { class: cls }, value));
  return [
    el("h3", { text: `Line ${r.line.toLocaleString("en-US")}: ${model.label(r.status)}` }),
    el(
      "dl",
      { class: "details" },
      // The record's key and first line, wrapped between words as the text is.
      r.record ? item("Record", r.record, "value record") : null,
      // The text as written: only unusual spaces and invisible characters are marked.
      item("Input", visibleText(r.input, { spaces: false, breaks: "line" }), "value data-text-plain"),
      r.doi ? item(r.status === "error" ? "Text read" : "DOI name", visibleText(r.doi), "value") : null,
      r.url ? item("URL", act.link(r.url)) : null,
      r.uri ? item("URI", r.uri, "value") : null,
      rec ? item("Resolution", resolution(rec, act.link)) : null,
      checked ? item(checked.check.label, visibleText(checked.check.message)) : null,
      r.duplicate_of !== null
        ? item(
            "Duplicate of",
            el(
              "button",
              {
                type: "button",
                class: "link-like",
                onclick: () => act.goToLine(/** @type {number} */ (r.duplicate_of)),
              },
              firstOccurrence(model, r.duplicate_of),
            ),
          )
        : null,
    ),
    r.findings.length
      ? el(
          "ul",
          { class: "findings" },
          r.findings.map((f) =>
            el(
              "li",
              { class: `finding sev-${f.severity}` },
              el("span", { class: `badge sev-${f.severity}`, text: f.severity }),
              el("span", { class: "finding-body" }, el("span", { text: f.message }), sourceLine(f.source)),
            ),
          ),
        )
      : null,
    r.text
      ? el(
          "p",
          null,
          el(
            "button",
            { type: "button", onclick: () => act.inspect(/** @type {string} */ (r.text)) },
            "Open in Inspect",
          ),
        )
      : null,
  ].filter((n) => n !== null);
}

/**
 * What resolving a name gave, with its target as a link (the record's `url` is the
 * first value Python found linkable, or null), then its source line (the API,
 * responseCode and HTTP status).
 * @param {HandleRecord} rec
 * @param {(href: string) => HTMLAnchorElement} link
 * @returns {Node}
 */
function resolution(rec, link) {
  return el("span", null, rec.message, rec.url ? [" ", link(rec.url)] : null, sourceLine(rec.source));
}
