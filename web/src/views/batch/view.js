// @ts-check
/**
 * The Batch view: a pasted list or an opened file goes to the worker's batch
 * (`doiname.startBatch`, doiname.batch.BatchJob in Python), which finds, checks and
 * deduplicates every DOI name, a step at a time. This view shows what comes back: a
 * progress bar, the counts, and a table that draws only the rows in sight
 * (ui/virtual-table.js); rows, filter, search and sort are model.js, the cells table.js.
 * A run's life (start, go on after a restart, end) is run.js. The CSV and JSON files are
 * written by Python (`export`); "Resolve all" is resolve-all.js. No DOI rule is here.
 * @module views/batch/view
 */
import { announce, el, replace } from "../../ui/dom.js";
import { VirtualTable } from "../../ui/virtual-table.js";
import { checkAll } from "./check-all.js";
import { BatchModel } from "./model.js";
import { wirePaste } from "./paste.js";
import { resolveAll } from "./resolve-all.js";
import { startBatch } from "./run.js";
import { onTableKey, showDetail } from "./select.js";
import { download, drawCounts, drawProgress, fillFilter, startAsking, wireFiles } from "./status.js";
import { COLUMNS, fmt, headCells, rowOf } from "./table.js";

/** @typedef {import("../../engine/client.js").Doiname} Doiname */
/** @typedef {import("../../engine/types.gen.js").BatchSummary} BatchSummary */
/** @typedef {import("../../engine/batch-handle.js").BatchHandle} BatchHandle */
/** @typedef {import("../../engine/batch-handle.js").BatchProgress} BatchProgress */
/** @typedef {import("./model.js").Filter} Filter */

/** While a sorted or filtered batch is still running, re-sort at most this often (ms). */
const RESORT_MS = 400;
/** While a batch runs, draw its rows and counts at most this often (ms): the page's
 * drawing then costs the worker's batch little of the machine. */
const DRAW_MS = 150;

/**
 * @typedef {{
 *   input: HTMLTextAreaElement, run: HTMLButtonElement, cancel: HTMLButtonElement,
 *   clear: HTMLButtonElement, file: HTMLInputElement, progressWrap: HTMLElement,
 *   progress: HTMLProgressElement, progressText: HTMLElement, status: HTMLElement,
 *   results: HTMLElement, summary: HTMLElement, filter: HTMLSelectElement,
 *   search: HTMLInputElement, shown: HTMLElement, csv: HTMLButtonElement,
 *   unique: HTMLButtonElement, excel: HTMLButtonElement,
 *   json: HTMLButtonElement, shownOnly: HTMLInputElement, scroller: HTMLElement,
 *   resolve: HTMLButtonElement, check: HTMLButtonElement,
 *   table: HTMLTableElement, head: HTMLTableRowElement, body: HTMLTableSectionElement,
 *   detail: HTMLElement, onInspect: (text: string) => void,
 * }} Parts
 */

export class BatchView {
  /**
   * @param {Doiname} doiname
   * @param {Parts} els
   */
  constructor(doiname, els) {
    this.doiname = doiname;
    this.els = els;
    this.model = new BatchModel();
    this.table = new VirtualTable({ ...els, columns: COLUMNS.length }, (i, p) =>
      rowOf(this.model, i, p, i === this.selected),
    );
    /** @type {BatchHandle | null} */
    this.handle = null;
    this.running = false;
    /** The selected row's number, or -1. */
    this.selected = -1;
    this.lastResort = 0;
    this.frame = 0;
    this.timer = 0;
    this.lastDraw = 0;
    /** The progress not drawn yet. @type {BatchProgress | null} */
    this.progressDue = null;
    this.viewDirty = false;
    /** @type {BatchSummary | null} */
    this.counts = null;
    /** The last progress drawn. @type {BatchProgress | null} */
    this.reached = null;
    this.source = "";
    /** @type {AbortController | null} */
    this.resolving = null;
    /** Large pastes, held and handed over in pieces. */
    this.paste = wirePaste(els.input, (text, source) => startAsking(this, () => this.start(text, source)));
    this.wire();
    this.drawHead();
  }

  wire() {
    const els = this.els;
    const run = () =>
      startAsking(this, () => {
        const { text, source } = this.paste.take();
        this.start(text, source);
      });
    els.run.addEventListener("click", run);
    els.cancel.addEventListener("click", () => this.cancel());
    els.clear.addEventListener("click", () => this.clear());
    els.input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
        ev.preventDefault();
        run();
      }
    });
    wireFiles(this);
    fillFilter(els.filter);
    els.filter.addEventListener("change", () => this.setFilter(els.filter.value));
    let searchTimer = 0;
    els.search.addEventListener("input", () => {
      clearTimeout(searchTimer);
      searchTimer = window.setTimeout(() => {
        this.model.search = els.search.value.trim().toLowerCase();
        this.refreshView(true);
      }, 120);
    });
    els.resolve.addEventListener("click", () => void resolveAll(this));
    els.check.addEventListener("click", () => void checkAll(this));
    els.csv.addEventListener("click", () => void download(this, "csv"));
    els.unique.addEventListener("click", () => void download(this, "unique"));
    els.excel.addEventListener("click", () => void download(this, "excel"));
    els.json.addEventListener("click", () => void download(this, "json"));
    els.scroller.addEventListener("scroll", () => this.schedule(true), { passive: true });
    els.scroller.addEventListener("keydown", (ev) => onTableKey(this, ev));
    els.body.addEventListener("click", (ev) => {
      const tr =
        ev.target instanceof Element ? /** @type {HTMLElement | null} */ (ev.target.closest("tr[data-row]")) : null;
      if (tr) this.select(Number(tr.dataset.row), false);
    });
    window.addEventListener("resize", () => this.schedule(true));
  }

  /**
   * Show only the rows of `filter` (the select and the count cards both set it).
   * @param {string} filter
   */
  setFilter(filter) {
    this.model.filter = /** @type {Filter} */ (filter);
    this.els.filter.value = filter;
    this.refreshView(true);
    this.drawCounts();
  }

  /** Draw the count cards (the batch's counts, and Resolve all's when it ran). */
  drawCounts() {
    if (!this.counts) return;
    const resolved = this.model.resolutions.size || this.model.checks.size ? this.model.statusCounts() : null;
    const checked = this.model.checks.size ? (/** @type {string} */ s) => this.model.label(s) : null;
    drawCounts(this.els.summary, this.counts, resolved, this.model.filter, (f) => this.setFilter(f), checked);
  }

  /**
   * Start a batch over `text` or a file (read as a stream); a previous one is cancelled
   * and forgotten (run.js).
   * @param {string | Blob} text
   * @param {string} source how to name the input in messages
   */
  start(text, source) {
    startBatch(this, text, source);
  }

  /** Cancel the running batch or Resolve all; the rows done so far stay. */
  cancel() {
    if (this.resolving) this.resolving.abort();
    else if (this.handle && this.running) this.handle.cancel();
  }

  /** Cancel and forget the current batch (its rows in the worker too). */
  discard() {
    this.resolving?.abort();
    this.resolving = null;
    const old = this.handle;
    this.handle = null;
    if (old) void old.close().catch(() => {});
  }

  /** Clear the input and the results. */
  clear() {
    this.discard();
    this.running = false;
    this.setRunning(false);
    this.model.reset();
    this.counts = null;
    this.reached = null;
    this.els.input.value = "";
    this.paste.drop();
    this.els.results.hidden = true;
    this.els.progressWrap.hidden = true;
    replace(this.els.status);
    replace(this.els.detail);
    this.els.input.focus();
  }

  /**
   * @param {boolean} running a batch or a Resolve all is under way (Cancel stops it)
   * @param {boolean} [searching] it is a batch (the run button then starts it again)
   */
  setRunning(running, searching = running) {
    this.els.cancel.disabled = !running;
    this.els.resolve.disabled = this.els.check.disabled = running;
    this.els.run.classList.toggle("second", searching); // "New batch…", else "Find DOIs"
    this.els.results.setAttribute("aria-busy", running ? "true" : "false");
  }

  /**
   * A message in the status line (and for screen readers).
   * @param {string} message
   * @param {boolean} problem
   */
  say(message, problem) {
    replace(this.els.status, el("p", { class: problem ? "problem" : null, text: message }));
  }

  /** @param {BatchProgress} p */
  onProgress(p) {
    this.progressDue = null;
    this.reached = p;
    this.counts = p.summary;
    drawProgress(this.els, p);
    this.drawCounts();
  }

  /**
   * Recompute the rows shown (filter, search, sort) and redraw (`grown`: the view only
   * gained rows at its end, see VirtualTable.draw).
   * @param {boolean} resetScroll
   * @param {boolean} [grown]
   */
  refreshView(resetScroll, grown = false) {
    this.model.refresh();
    this.viewDirty = false;
    this.lastResort = performance.now();
    if (resetScroll) this.els.scroller.scrollTop = 0;
    const total = this.model.rows.length;
    const shown = this.model.view.length;
    replace(
      this.els.shown,
      shown === total ? `Showing all ${fmt(total)} rows` : `Showing ${fmt(shown)} of ${fmt(total)} rows`,
    );
    this.draw(grown && !resetScroll);
  }

  /**
   * Draw the rows in sight (`grown`: only rows were added at the end of the view).
   * @param {boolean} [grown]
   */
  draw(grown = false) {
    this.table.draw(this.model.view, this.model.rows.length ? "No rows match the filter." : null, grown);
  }

  /**
   * Redraw on the next frame: at once for the person (`now`: scrolling, resizing), at
   * most every DRAW_MS for a running batch's new rows and progress.
   * @param {boolean} [now]
   */
  schedule(now = false) {
    if (this.frame) return;
    const wait = now || !this.running ? 0 : this.lastDraw + DRAW_MS - performance.now();
    if (wait > 0) {
      if (!this.timer) {
        this.timer = window.setTimeout(() => {
          this.timer = 0;
          this.schedule(true);
        }, wait);
      }
      return;
    }
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.lastDraw = performance.now();
      if (this.progressDue) this.onProgress(this.progressDue);
      if (this.viewDirty) {
        if (this.model.inInputOrder || !this.running || performance.now() - this.lastResort > RESORT_MS) {
          // In input order a running batch only adds rows after the others.
          this.refreshView(false, this.running && this.model.inInputOrder);
          return;
        }
        setTimeout(() => this.schedule(), RESORT_MS);
      }
      this.draw();
    });
  }

  drawHead() {
    const cells = headCells(this.model, (key, label) => {
      this.model.toggleSort(key);
      this.drawHead();
      this.refreshView(true);
      announce(`Sorted by ${label}, ${this.model.sort.dir === 1 ? "ascending" : "descending"}`);
    });
    replace(this.els.head, cells);
  }

  /**
   * Select a row: mark it, show its details, scroll it into sight if asked.
   * @param {number} index
   * @param {boolean} reveal
   */
  select(index, reveal) {
    if (!this.model.rows[index]) return;
    this.selected = index;
    if (reveal) this.table.reveal(this.model.view.indexOf(index));
    this.draw();
    showDetail(this, index);
    // The details are below the table: brought into sight when their top is out of it.
    const detail = this.els.detail;
    if (detail.getBoundingClientRect().top > window.innerHeight - 48) detail.scrollIntoView({ block: "nearest" });
  }
}
