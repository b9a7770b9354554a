// @ts-check
/**
 * What the Batch view says about a batch: its progress and counts, the line when it
 * ends; and the files: one opened to search, the ones Python writes of the rows.
 * @module views/batch/status
 */
import { STATUSES } from "../../engine/statuses.gen.js";
import { el, replace } from "../../ui/dom.js";
import { counted, fmt, saveFile } from "./table.js";

/** @typedef {import("../../engine/batch-handle.js").BatchProgress} BatchProgress */
/** @typedef {import("../../engine/types.gen.js").BatchSummary} BatchSummary */
/** @typedef {import("./view.js").BatchView} BatchView */

/** How Python's table of statuses names the rows of `status` (a filter, a count). */
const ROWS = new Map(STATUSES.map((s) => [s.status, s.rows]));

/**
 * The counts of the summary shown, in order: its key, the filter a press on it sets
 * (null: a count of everything, not a filter), and its label (null: the filter's rows,
 * as Python's table of statuses names them).
 */
const COUNTS = /** @type {const} */ ([
  ["lines", "all", "Records and lines"],
  ["dois", null, "DOI names"],
  ["unique", null, "Unique"],
  ["warnings", "warning", null],
  ["duplicates", "duplicate", null],
  ["errors", "error", null],
  ["no_doi", "no-doi", null],
]);

/** The counts that only Resolve all gives: the statuses a verdict gives, by Python's table. */
const RESOLVED_COUNTS = STATUSES.filter((s) => s.verdict !== null);

/**
 * The filter's options after "All rows": one per status, named and ordered by Python's
 * table.
 * @param {HTMLSelectElement} select
 */
export function fillFilter(select) {
  select.append(...STATUSES.map((s) => el("option", { value: s.status, text: s.rows })));
}

/** The counts that only Check all gives (their labels are Python's: `label`). */
const CHECKED_COUNTS = /** @type {const} */ (["another-work", "updated", "cannot-tell"]);

/**
 * One count; a count that is also a filter is a button that sets it.
 * @param {string} key
 * @param {string} label
 * @param {number} value
 * @param {string | null} filter
 * @param {string} active the filter now
 * @param {(filter: string) => void} onFilter
 * @returns {HTMLElement}
 */
function countCard(key, label, value, filter, active, onFilter) {
  const body = [
    el("span", { class: "count-label", text: label }),
    el("span", { class: "count-value", "data-count": key, text: fmt(value) }),
  ];
  if (filter === null) return el("div", { class: `count count-${key}` }, body);
  return el(
    "button",
    {
      type: "button",
      class: `count count-${key}`,
      "data-filter": filter,
      "aria-pressed": active === filter ? "true" : "false",
      title: `Show ${filter === "all" ? "all rows" : `only these rows`}`,
      onclick: () => onFilter(filter),
    },
    body,
  );
}

/**
 * Draw the counts: the batch's, then what Resolve all found (when it ran).
 * @param {HTMLElement} summary
 * @param {BatchSummary} counts
 * @param {Map<string, number> | null} resolved rows by status after Resolve all
 * @param {string} active the filter now
 * @param {(filter: string) => void} onFilter
 * @param {((status: string) => string) | null} [checked] a status's label, once Check all ran
 */
export function drawCounts(summary, counts, resolved, active, onFilter, checked = null) {
  replace(
    summary,
    COUNTS.map(([key, filter, label]) =>
      countCard(key, label ?? ROWS.get(filter ?? "") ?? key, counts[key], filter, active, onFilter),
    ),
    resolved
      ? RESOLVED_COUNTS.map((s) => countCard(s.status, s.rows, resolved.get(s.status) ?? 0, s.status, active, onFilter))
      : [],
    resolved && checked
      ? CHECKED_COUNTS.map((key) => countCard(key, checked(key), resolved.get(key) ?? 0, key, active, onFilter))
      : [],
  );
}

/**
 * Draw how far a batch is: the progress bar and its line.
 * @param {{progress: HTMLProgressElement, progressText: HTMLElement}} els
 * @param {BatchProgress} p
 */
export function drawProgress(els, p) {
  // A streamed input's lines are counted as they come: its progress is how much of it
  // was read (bytes of a file, characters of a paste) times how much of that is done.
  const read = p.source.total ? p.source.done / p.source.total : 1;
  const fraction = Math.min(1, (p.chars_total ? p.chars_done / p.chars_total : 1) * read);
  els.progress.value = fraction;
  const of = read < 1 ? `${fmt(p.lines_total)} read so far` : fmt(p.lines_total);
  replace(els.progressText, `Line ${fmt(p.lines_done)} of ${of} (${Math.floor(fraction * 100)}%)`);
}

/**
 * Run `go` (a new batch), first asking when a batch or Resolve all is under way: the
 * primary button never throws away running work without asking.
 * @param {BatchView} view
 * @param {() => void} go
 */
export function startAsking(view, go) {
  if (!view.running && !view.resolving) {
    go();
    return;
  }
  const what = view.resolving ? "Resolve all is still asking doi.org" : "A batch is still running";
  const question = `${what}. Stop it and start a new batch? The rows so far will be cleared.`;
  askFirst(view.els.status, question, "Stop and start again", go, "Keep it running");
}

/**
 * Ask before doing something big or something that throws work away: the question in
 * the status line with two buttons; `yes` runs on the first. The focus goes to it.
 * @param {HTMLElement} status
 * @param {string} question
 * @param {string} yesLabel
 * @param {() => void} yes
 * @param {string} [noLabel]
 */
export function askFirst(status, question, yesLabel, yes, noLabel = "Not now") {
  const ok = el("button", { type: "button", class: "primary", text: yesLabel });
  const no = el("button", { type: "button", text: noLabel });
  ok.addEventListener("click", () => {
    replace(status);
    yes();
  });
  no.addEventListener("click", () => replace(status));
  replace(
    status,
    el(
      "div",
      { class: "ask", role: "group", "aria-label": "Confirm" },
      el("p", { text: question }),
      el("p", { class: "actions" }, ok, no),
    ),
  );
  ok.focus();
}

/**
 * Say that an engine restart stopped the batch, how far it got, and offer to go on from
 * the next line (`goOn`). The button gets the focus when the focus was in the Batch
 * panel or nowhere (the disabled Cancel button loses it), never away from another view.
 * @param {BatchView} view
 * @param {BatchProgress | null} reached the last progress drawn
 * @param {() => void} goOn
 */
export function offerGoOn(view, reached, goOn) {
  const done = reached?.lines_done ?? 0;
  const read = reached ? reached.source.total && reached.source.done < reached.source.total : false;
  const of = `${fmt(reached?.lines_total ?? 0)}${read ? " read so far" : ""}`;
  const button = el("button", { type: "button", class: "primary", text: `Go on from line ${fmt(done + 1)}` });
  button.addEventListener("click", goOn);
  const active = document.activeElement;
  const panel = view.els.cancel.closest("section") ?? view.els.results;
  // Asked before the status is replaced: the focus may be on a button it holds.
  const ours = !active || active === document.body || panel.contains(active);
  replace(
    view.els.status,
    el(
      "div",
      { class: "ask", role: "group", "aria-label": "Batch stopped" },
      el("p", {
        class: "problem",
        text: `Stopped at line ${fmt(done)} of ${of} by an engine restart. The table keeps the rows of those lines.`,
      }),
      el("p", { class: "actions" }, button),
    ),
  );
  if (ours) button.focus();
}

/**
 * What to say when a batch ends (every line done, or cancelled), or "" when there is
 * nothing to count.
 * @param {BatchSummary | null} c the last counts
 * @param {boolean} cancelled
 * @param {string} source how the input is named
 * @param {{rows_kept: number, rows_total: number} | null} [last] the last progress: a
 *   list longer than the rows Python keeps is counted whole, its first rows held
 * @returns {string}
 */
export function endMessage(c, cancelled, source, last = null) {
  const held =
    last && last.rows_total > last.rows_kept
      ? ` The table and the downloads hold the first ${fmt(last.rows_kept)} of its ${fmt(last.rows_total)} rows (the most one batch keeps); the counts cover every line.`
      : "";
  if (cancelled) {
    return `Cancelled after ${counted(c ? c.lines : 0, "line")} of ${source}. The table and the downloads have the rows of those lines.${held}`;
  }
  if (!c) return "";
  const dois = `${counted(c.dois, "DOI name")} (${fmt(c.unique)} unique, ${counted(c.duplicates, "duplicate")}, ${fmt(c.errors)} unreadable)`;
  // (lines grouped into records, a BibTeX entry or a PubMed record: each record is a row)
  const grouped = c.records < c.input_lines;
  const read = grouped
    ? `${counted(c.input_lines, "line")} in ${counted(c.records, "record")}`
    : counted(c.lines, "line");
  return `Done: ${read}, ${dois}, ${counted(c.no_doi, grouped ? "record" : "line")} without a DOI.${held}`;
}

/** The downloads: file format, Python's options, the file's name and what to say. */
export const DOWNLOADS = /** @type {const} */ ({
  csv: { format: "csv", options: {}, name: "doiname-batch.csv", what: "rows" },
  unique: { format: "csv", options: { unique: true }, name: "doiname-unique.csv", what: "unique names" },
  excel: { format: "csv", options: { excel: true }, name: "doiname-batch-excel.csv", what: "rows (CSV for Excel)" },
  json: { format: "json", options: {}, name: "doiname-batch.json", what: "rows" },
});

/**
 * Download the view's rows as a file written by Python (every row in input order, or
 * the rows shown, in that order; or each distinct name once), with what resolving them
 * gave.
 * @param {BatchView} view
 * @param {keyof typeof DOWNLOADS} kind
 */
export async function download(view, kind) {
  if (!view.handle || !view.model.rows.length) {
    view.say("There are no rows to download yet.", true);
    return;
  }
  const d = DOWNLOADS[kind];
  const shownOnly = view.els.shownOnly.checked;
  const order = shownOnly ? view.model.view.slice() : null;
  try {
    const text = await view.handle.export(d.format, order, view.model.resolvedForExport(), d.options);
    const type = d.format === "csv" ? "text/csv;charset=utf-8" : "application/json";
    saveFile(text, d.name, type);
    const how = shownOnly ? "of the rows shown, in that order" : "in input order";
    view.say(`Saved ${d.name}: the ${d.what}, ${how}.`, false);
  } catch (err) {
    view.say(`The download could not be made: ${err instanceof Error ? err.message : err}`, true);
  }
}

/**
 * A file opened with the file field or dropped on the text box is searched (asking
 * first when a batch runs); dropped text goes into the box as usual.
 * @param {BatchView} view
 */
export function wireFiles(view) {
  const els = view.els;
  els.file.addEventListener("change", () => {
    const file = els.file.files?.[0];
    if (file) startAsking(view, () => openFile(view, file));
  });
  els.input.addEventListener("dragover", (ev) => {
    if (ev.dataTransfer && Array.from(ev.dataTransfer.types).includes("Files")) ev.preventDefault();
  });
  els.input.addEventListener("drop", (ev) => {
    const file = ev.dataTransfer?.files[0];
    if (!file) return;
    ev.preventDefault();
    startAsking(view, () => openFile(view, file));
  });
}

/**
 * Run a file: read as a stream of pieces (UTF-8; a byte-order mark is dropped, as the
 * CLI does), never as one string, so a file of any size keeps memory bounded.
 * @param {BatchView} view
 * @param {File} file
 */
export function openFile(view, file) {
  view.start(file, `the file ${file.name} (${fmt(file.size)} bytes)`);
  view.els.file.value = "";
}
