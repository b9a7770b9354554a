// @ts-check
/**
 * A Batch run's life: started over a pasted list or a file, its rows and progress handed
 * to the view as the worker's batch (`doiname.startBatch`) sends them, gone on with after
 * an engine restart, ended (all lines done, cancelled, or stopped with a reason). The
 * drawing is view.js's; the words of the progress and the end are status.js's.
 * @module views/batch/run
 */
import { replace } from "../../ui/dom.js";
import { endMessage, offerGoOn } from "./status.js";
import { fmt } from "./table.js";

/** @typedef {import("./view.js").BatchView} BatchView */
/** @typedef {import("../../engine/batch-handle.js").BatchProgress} BatchProgress */

/**
 * Start a batch over `text` or a file (read as a stream); a previous one is cancelled
 * and forgotten.
 * @param {BatchView} view
 * @param {string | Blob} text
 * @param {string} source how to name the input in messages
 */
export function startBatch(view, text, source) {
  if (typeof text === "string" && !text.trim()) {
    view.say("There is nothing to search: paste a list or open a file first.", true);
    view.els.input.focus();
    return;
  }
  view.discard();
  view.model.reset();
  view.selected = -1;
  view.counts = null;
  view.reached = null;
  view.source = source;
  view.running = true;
  view.els.results.hidden = false;
  view.els.progressWrap.hidden = false;
  view.els.progress.value = 0;
  replace(view.els.progressText, "Starting…");
  replace(view.els.detail);
  view.setRunning(true);
  view.say(`Searching ${source} for DOI names…`, false);
  runBatch(view, text, source, 0);
}

/**
 * Go on with a batch an engine restart stopped (`reached`): the same input in the new
 * engine, whose first rows are made again but not sent; the rows drawn stay.
 * @param {BatchView} view
 * @param {string | Blob} text @param {string} source @param {BatchProgress | null} reached
 */
function goOn(view, text, source, reached) {
  view.handle = null; // its worker is gone, and its job number may be a new job's
  view.running = true;
  view.setRunning(true);
  view.els.cancel.focus();
  view.say(`Going on from line ${fmt((reached?.lines_done ?? 0) + 1)} of ${source}…`, false);
  runBatch(view, text, source, reached?.rows_done ?? 0);
}

/**
 * Run a batch over `text` and draw what comes back.
 * @param {BatchView} view
 * @param {string | Blob} text
 * @param {string} source
 * @param {number} skipRows the rows the table holds already (going on after a restart)
 */
function runBatch(view, text, source, skipRows) {
  const handle = view.doiname.startBatch(text, {
    skipRows,
    onRows: (rows, first) => {
      view.model.addRows(rows, first);
      view.viewDirty = true;
      view.schedule();
    },
    onProgress: (p) => {
      view.progressDue = p;
      view.schedule();
    },
  });
  view.handle = handle;
  handle.finished.then(
    (last) => {
      if (view.handle === handle) finishBatch(view, last, false);
    },
    (/** @type {{code?: string, message?: string}} */ err) => {
      if (view.handle !== handle) return;
      if (err.code === "cancelled") {
        finishBatch(view, null, true);
        return;
      }
      view.running = false;
      view.setRunning(false);
      const latest = view.progressDue;
      if (latest) view.onProgress(latest);
      view.refreshView(false);
      if (err.code === "restarted") {
        // How far it got (or, stopped before its first step, how far the run before got).
        const reached = handle.reached() ?? view.reached;
        offerGoOn(view, reached, () => goOn(view, text, source, reached));
        return;
      }
      if (err.code === "not-text") {
        // A file Python refused from its first bytes (what it is and where): no rows.
        view.els.progressWrap.hidden = true;
        view.say(`${err.message ?? err} Open a text file (UTF-8 or UTF-16), or paste the list.`, true);
        return;
      }
      // How far it got: the rows drawn so far stay in the table.
      const c = view.counts;
      const far = c ? ` after ${fmt(c.lines)} lines of ${source}; the table keeps the rows of those lines` : "";
      view.say(`The batch stopped${far}. ${err.message ?? err} Find DOIs starts it again.`, true);
    },
  );
}

/**
 * The batch ended (all lines done, or cancelled).
 * @param {BatchView} view
 * @param {BatchProgress | null} last
 * @param {boolean} cancelled
 */
function finishBatch(view, last, cancelled) {
  view.running = false;
  view.setRunning(false);
  const latest = last ?? view.progressDue; // a cancel's last step may not be drawn yet
  if (latest) view.onProgress(latest);
  view.refreshView(false);
  const said = endMessage(view.counts, cancelled, view.source, latest);
  if (said) view.say(said, false);
}
