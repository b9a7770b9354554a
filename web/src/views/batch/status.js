// @ts-check
/**
 * What the Batch view says about a batch: its progress and counts, the line when it
 * ends; and the files: one opened to search, the ones Python writes of the rows.
 * @module views/batch/status
 */
import { el, replace } from "../../ui/dom.js";
import { fmt, saveFile } from "./table.js";

/** @typedef {import("../../engine/batch-handle.js").BatchProgress} BatchProgress */
/** @typedef {import("../../engine/types.gen.js").BatchSummary} BatchSummary */
/** @typedef {import("./view.js").BatchView} BatchView */

/** The counts shown, in order: the summary's key and its label. */
const COUNTS = /** @type {const} */ ([
  ["lines", "Lines"],
  ["dois", "DOI names"],
  ["unique", "Unique"],
  ["warnings", "With warnings"],
  ["duplicates", "Duplicates"],
  ["errors", "Unreadable"],
  ["no_doi", "Lines without a DOI"],
]);

/**
 * Draw how far a batch is: the progress bar, its line, the counts.
 * @param {{progress: HTMLProgressElement, progressText: HTMLElement, summary: HTMLElement}} els
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
  replace(
    els.summary,
    COUNTS.map(([key, label]) =>
      el(
        "div",
        { class: `count count-${key}` },
        el("dt", { text: label }),
        el("dd", { "data-count": key, text: fmt(p.summary[key]) }),
      ),
    ),
  );
}

/**
 * What to say when a batch ends (every line done, or cancelled), or "" when there is
 * nothing to count.
 * @param {BatchSummary | null} c the last counts
 * @param {boolean} cancelled
 * @param {string} source how the input is named
 * @returns {string}
 */
export function endMessage(c, cancelled, source) {
  if (cancelled) {
    return `Cancelled after ${fmt(c ? c.lines : 0)} lines of ${source}. The table and the downloads have the rows of those lines.`;
  }
  if (!c) return "";
  const dois = `${fmt(c.dois)} DOI names (${fmt(c.unique)} unique, ${fmt(c.duplicates)} duplicates, ${fmt(c.errors)} unreadable)`;
  return `Done: ${fmt(c.lines)} lines, ${dois}, ${fmt(c.no_doi)} lines without a DOI.`;
}

/**
 * Download the view's rows as a file written by Python (every row in input order, or
 * the rows shown, in that order), with what resolving them gave.
 * @param {BatchView} view
 * @param {"csv" | "json"} format
 */
export async function download(view, format) {
  if (!view.handle || !view.model.rows.length) {
    view.say("There are no rows to download yet.", true);
    return;
  }
  const shownOnly = view.els.shownOnly.checked;
  const order = shownOnly ? view.model.view.slice() : null;
  const count = order ? order.length : view.model.rows.length;
  try {
    const text = await view.handle.export(format, order, view.model.resolvedForExport());
    const name = `doiname-batch.${format}`;
    saveFile(text, name, format === "csv" ? "text/csv;charset=utf-8" : "application/json");
    view.say(`Saved ${name}: ${fmt(count)} rows${shownOnly ? " as shown" : ", in input order"}.`, false);
  } catch (err) {
    view.say(`The download could not be made: ${err instanceof Error ? err.message : err}`, true);
  }
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
