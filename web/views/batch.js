// @ts-check
/**
 * The Batch view: a pasted list or an opened file goes to the worker's batch
 * (`window.doiname.startBatch`, doiname.batch.BatchJob in Python), which finds, checks
 * and deduplicates every DOI name, a step at a time. This view only shows what comes
 * back: a progress bar, the counts, and a table that draws only the rows in sight, so
 * that 100,000 lines scroll smoothly. Sorting and filtering reorder row numbers here;
 * the CSV and JSON files are written by Python (`export`), for every row in input order
 * or for the rows shown, in the order shown. "Resolve all" asks doi.org for each unique
 * name, at most RESOLVE_PARALLEL at a time, again with backoff when Python's reading of
 * the answer says it may help (`retry`: 429, 5xx, a timeout). No DOI rule is here.
 * @module views/batch
 */
import { announce, el, replace } from "../dom.js";
import { api, coreError } from "./api.js";
import { safeLink } from "./resolve.js";
import { visibleText } from "./text.js";

/** @typedef {import("../protocol.js").BatchRow} BatchRow */
/** @typedef {import("../protocol.js").BatchSummary} BatchSummary */
/** @typedef {import("../doiname-client.js").BatchHandle} BatchHandle */
/** @typedef {import("../doiname-client.js").BatchProgress} BatchProgress */

/** @typedef {"line" | "input" | "doi" | "status" | "duplicate_of" | "findings"} SortKey */
/** @typedef {"all" | "error" | "warning" | "duplicate" | "no-doi" | "ok"} Filter */

/** The table's columns: header text, the row field shown, whether it sorts. */
const COLUMNS = /** @type {const} */ ([
  { key: "line", label: "Line", sorts: true },
  { key: "status", label: "Status", sorts: true },
  { key: "input", label: "Input", sorts: true },
  { key: "doi", label: "DOI", sorts: true },
  { key: "duplicate_of", label: "Duplicate of", sorts: true },
  { key: "findings", label: "Findings", sorts: true },
  { key: "url", label: "URL", sorts: false },
  { key: "uri", label: "doi: URI", sorts: false },
  { key: "resolution", label: "Resolves to", sorts: false },
]);

/** How each status is named on the page. */
const STATUS_LABEL = {
  ok: "OK", warning: "Warning", error: "Error", duplicate: "Duplicate", "no-doi": "No DOI",
};
/** Order of statuses when sorting by status: the ones needing attention first. */
const STATUS_RANK = { error: 0, warning: 1, duplicate: 2, ok: 3, "no-doi": 4 };

/** Most doi.org requests in flight during "Resolve all". */
const RESOLVE_PARALLEL = 4;
/** Most attempts per name; waits between them double from RETRY_BASE_MS. */
const RESOLVE_TRIES = 4;
const RETRY_BASE_MS = 500;

/**
 * Wait `ms`, or less if `signal` fires.
 * @param {number} ms
 * @param {AbortSignal} signal
 * @returns {Promise<void>}
 */
function pause(ms, signal) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Rows drawn above and below the visible ones. */
const OVERSCAN = 8;
/** While a sorted or filtered batch is still running, re-sort at most this often (ms). */
const RESORT_MS = 400;

/**
 * A number with thousands separators.
 * @param {number} n
 * @returns {string}
 */
function fmt(n) {
  return n.toLocaleString("en-US");
}

/**
 * The text of the Findings cell: the first finding and how many more.
 * @param {BatchRow} row
 * @returns {string}
 */
function findingsText(row) {
  const list = row.findings || [];
  if (!list.length) return "";
  const first = `${list[0].severity}: ${list[0].message}`;
  return list.length > 1 ? `${first} (+${list.length - 1} more)` : first;
}

/**
 * Save text as a file (a download of a blob: URL made here).
 * @param {string} text
 * @param {string} name
 * @param {string} type
 */
function saveFile(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = el("a", { href: url, download: name, class: "offscreen", tabindex: "-1" });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export class BatchView {
  /**
   * @param {{
   *   input: HTMLTextAreaElement, run: HTMLButtonElement, cancel: HTMLButtonElement,
   *   clear: HTMLButtonElement, file: HTMLInputElement, progressWrap: HTMLElement,
   *   progress: HTMLProgressElement, progressText: HTMLElement, status: HTMLElement,
   *   results: HTMLElement, summary: HTMLElement, filter: HTMLSelectElement,
   *   search: HTMLInputElement, shown: HTMLElement, csv: HTMLButtonElement,
   *   json: HTMLButtonElement, shownOnly: HTMLInputElement, scroller: HTMLElement,
   *   resolve: HTMLButtonElement,
   *   table: HTMLTableElement, head: HTMLTableRowElement, body: HTMLTableSectionElement,
   *   detail: HTMLElement, onInspect: (text: string) => void,
   * }} els
   */
  constructor(els) {
    this.els = els;
    /** Every row received, in input order. @type {BatchRow[]} */
    this.rows = [];
    /** Row numbers shown, in the order shown. @type {number[]} */
    this.view = [];
    /** Whether `view` is every row in input order (so new rows are appended). */
    this.identityView = true;
    /** @type {BatchHandle | null} */
    this.handle = null;
    this.running = false;
    /** @type {{key: SortKey, dir: 1 | -1}} */
    this.sort = { key: "line", dir: 1 };
    /** @type {Filter} */
    this.filter = "all";
    this.search = "";
    /** The selected row's number, or -1. */
    this.selected = -1;
    this.rowHeight = 0;
    this.lastResort = 0;
    this.frame = 0;
    this.viewDirty = false;
    /** @type {BatchSummary | null} */
    this.counts = null;
    this.source = "";
    /** What resolving each unique name gave, by row number. @type {Map<number, any>} */
    this.resolutions = new Map();
    /** @type {AbortController | null} */
    this.resolving = null;

    els.run.addEventListener("click", () => this.start(els.input.value, "the text above"));
    els.cancel.addEventListener("click", () => this.cancel());
    els.clear.addEventListener("click", () => this.clear());
    els.input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
        ev.preventDefault();
        this.start(els.input.value, "the text above");
      }
    });
    els.file.addEventListener("change", () => {
      const file = els.file.files && els.file.files[0];
      if (file) void this.openFile(file);
    });
    els.input.addEventListener("dragover", (ev) => {
      if (ev.dataTransfer && Array.from(ev.dataTransfer.types).includes("Files")) ev.preventDefault();
    });
    els.input.addEventListener("drop", (ev) => {
      const file = ev.dataTransfer && ev.dataTransfer.files[0];
      if (!file) return; // dropped text goes into the box as usual
      ev.preventDefault();
      void this.openFile(file);
    });
    els.filter.addEventListener("change", () => {
      this.filter = /** @type {Filter} */ (els.filter.value);
      this.refreshView(true);
    });
    let searchTimer = 0;
    els.search.addEventListener("input", () => {
      clearTimeout(searchTimer);
      searchTimer = window.setTimeout(() => {
        this.search = els.search.value.trim().toLowerCase();
        this.refreshView(true);
      }, 120);
    });
    els.resolve.addEventListener("click", () => void this.resolveAll());
    els.csv.addEventListener("click", () => void this.download("csv"));
    els.json.addEventListener("click", () => void this.download("json"));
    els.scroller.addEventListener("scroll", () => this.schedule(), { passive: true });
    els.scroller.addEventListener("keydown", (ev) => this.onKey(ev));
    els.body.addEventListener("click", (ev) => {
      const tr = /** @type {HTMLElement | null} */ (ev.target instanceof Element ? ev.target.closest("tr[data-row]") : null);
      if (tr) this.select(Number(tr.dataset.row), false);
    });
    window.addEventListener("resize", () => this.schedule());
    this.drawHead();
  }

  /**
   * Read a file as text (UTF-8; a byte-order mark is dropped, as the CLI does) and run it.
   * @param {File} file
   */
  async openFile(file) {
    let text;
    try {
      text = await file.text();
    } catch (err) {
      this.say(`The file ${file.name} could not be read: ${coreError(err).message}`, true);
      return;
    }
    this.start(text, `the file ${file.name} (${fmt(file.size)} bytes)`);
    this.els.file.value = "";
  }

  /**
   * Start a batch over `text` (a previous one is cancelled and forgotten).
   * @param {string} text
   * @param {string} source how to name the input in messages
   */
  start(text, source) {
    const a = api();
    if (!a || typeof a.startBatch !== "function") {
      this.say("The batch is not available: the DOI engine did not load.", true);
      return;
    }
    if (!text.trim()) {
      this.say("There is nothing to search: paste a list or open a file first.", true);
      this.els.input.focus();
      return;
    }
    this.discard();
    this.rows = [];
    this.view = [];
    this.identityView = true;
    this.selected = -1;
    this.counts = null;
    this.source = source;
    this.running = true;
    this.els.results.hidden = false;
    this.els.progressWrap.hidden = false;
    this.els.progress.value = 0;
    replace(this.els.progressText, "Starting…");
    replace(this.els.detail);
    this.setRunning(true);
    this.say(`Searching ${source} for DOI names…`, false);
    /** @type {BatchHandle} */
    const handle = a.startBatch(text, {
      onRows: (rows, first) => this.addRows(rows, first),
      onProgress: (p) => this.onProgress(p),
    });
    this.handle = handle;
    handle.finished.then(
      (last) => {
        if (this.handle !== handle) return;
        this.finish(last, false);
      },
      (err) => {
        if (this.handle !== handle) return;
        const e = coreError(err);
        if (e.code === "cancelled") this.finish(null, true);
        else {
          this.running = false;
          this.setRunning(false);
          this.say(`The batch failed: ${e.message}`, true);
        }
      },
    );
  }

  /** Cancel the running batch; the rows done so far stay. */
  cancel() {
    if (this.resolving) this.resolving.abort();
    else if (this.handle && this.running) this.handle.cancel();
  }

  /** Cancel and forget the current batch (its rows in the worker too). */
  discard() {
    if (this.resolving) this.resolving.abort();
    this.resolving = null;
    this.resolutions = new Map();
    const old = this.handle;
    this.handle = null;
    if (old) void old.close().catch(() => {});
  }

  /** Clear the input and the results. */
  clear() {
    this.discard();
    this.running = false;
    this.setRunning(false);
    this.rows = [];
    this.view = [];
    this.identityView = true;
    this.counts = null;
    this.els.input.value = "";
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
    this.els.resolve.disabled = running;
    this.els.run.textContent = searching ? "Start again" : "Find DOIs";
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

  /**
   * @param {BatchRow[]} rows
   * @param {number} first
   */
  addRows(rows, first) {
    for (let i = 0; i < rows.length; i++) this.rows[first + i] = rows[i];
    this.viewDirty = true;
    this.schedule();
  }

  /** @param {BatchProgress} p */
  onProgress(p) {
    const fraction = p.chars_total ? p.chars_done / p.chars_total : 1;
    this.els.progress.value = fraction;
    replace(this.els.progressText,
      `Line ${fmt(p.lines_done)} of ${fmt(p.lines_total)} (${Math.floor(fraction * 100)}%)`);
    this.counts = p.summary;
    this.drawCounts();
  }

  /**
   * The batch ended (all lines done, or cancelled).
   * @param {BatchProgress | null} last
   * @param {boolean} cancelled
   */
  finish(last, cancelled) {
    this.running = false;
    this.setRunning(false);
    if (last) this.onProgress(last);
    this.refreshView(false);
    const c = this.counts;
    if (cancelled) {
      const done = c ? c.lines : 0;
      this.say(`Cancelled after ${fmt(done)} lines of ${this.source}. The table and the downloads have the rows of those lines.`, false);
    } else if (c) {
      this.say(`Done: ${fmt(c.lines)} lines, ${fmt(c.dois)} DOI names (${fmt(c.unique)} unique, ` +
        `${fmt(c.duplicates)} duplicates, ${fmt(c.errors)} unreadable), ${fmt(c.no_doi)} lines without a DOI.`, false);
    }
  }

  drawCounts() {
    const c = this.counts;
    if (!c) return;
    /** @type {[string, string, number][]} */
    const items = [
      ["lines", "Lines", c.lines], ["dois", "DOI names", c.dois], ["unique", "Unique", c.unique],
      ["warnings", "With warnings", c.warnings], ["duplicates", "Duplicates", c.duplicates],
      ["errors", "Unreadable", c.errors], ["no_doi", "Lines without a DOI", c.no_doi],
    ];
    replace(this.els.summary, items.map(([key, label, n]) => el("div", { class: `count count-${key}` },
      el("dt", { text: label }), el("dd", { "data-count": key, text: fmt(n) }))));
  }

  /**
   * Whether row `r` passes the filter and the search.
   * @param {BatchRow} r
   * @returns {boolean}
   */
  passes(r) {
    if (this.filter !== "all") {
      if (this.filter === "warning") {
        if (!(r.findings || []).some((f) => f.severity === "warning")) return false;
      } else if (r.status !== this.filter) return false;
    }
    if (this.search) {
      const hay = `${r.input}\n${r.doi ?? ""}`.toLowerCase();
      if (!hay.includes(this.search)) return false;
    }
    return true;
  }

  /**
   * The value a row sorts by.
   * @param {BatchRow} r
   * @param {SortKey} key
   * @returns {string | number}
   */
  sortValue(r, key) {
    switch (key) {
      case "line": return r.line;
      case "status": return STATUS_RANK[r.status] ?? 9;
      case "duplicate_of": return r.duplicate_of ?? Number.MAX_SAFE_INTEGER;
      case "findings": return -(r.findings || []).length;
      case "input": return r.input;
      default: return r.doi ?? "\uffff";
    }
  }

  /**
   * Recompute the rows shown (filter, search, sort) and redraw.
   * @param {boolean} resetScroll
   */
  refreshView(resetScroll) {
    const { key, dir } = this.sort;
    const identity = this.filter === "all" && !this.search && key === "line" && dir === 1;
    /** @type {number[]} */
    let view;
    if (identity) {
      // Input order, nothing hidden: extend the last view with the rows that came since.
      view = this.identityView ? this.view : [];
      for (let i = view.length; i < this.rows.length && this.rows[i]; i++) view.push(i);
    } else {
      view = [];
      for (let i = 0; i < this.rows.length; i++) {
        const r = this.rows[i];
        if (r && this.passes(r)) view.push(i);
      }
      if (!(key === "line" && dir === 1)) {
        const values = new Map(view.map((i) => [i, this.sortValue(this.rows[i], key)]));
        view.sort((x, y) => {
          const a = /** @type {string | number} */ (values.get(x));
          const b = /** @type {string | number} */ (values.get(y));
          return (a < b ? -dir : a > b ? dir : 0) || x - y;
        });
      }
    }
    this.view = view;
    this.identityView = identity;
    this.viewDirty = false;
    this.lastResort = performance.now();
    if (resetScroll) this.els.scroller.scrollTop = 0;
    const total = this.rows.length;
    replace(this.els.shown, view.length === total
      ? `Showing all ${fmt(total)} rows`
      : `Showing ${fmt(view.length)} of ${fmt(total)} rows`);
    this.draw();
  }

  /** Redraw on the next frame (scrolling, new rows, resizing). */
  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.viewDirty) {
        const sorted = !(this.filter === "all" && !this.search && this.sort.key === "line" && this.sort.dir === 1);
        if (!sorted || !this.running || performance.now() - this.lastResort > RESORT_MS) {
          this.refreshView(false);
          return;
        }
        setTimeout(() => this.schedule(), RESORT_MS);
      }
      this.draw();
    });
  }

  drawHead() {
    replace(this.els.head, COLUMNS.map((c) => {
      const active = this.sort.key === c.key;
      /** @type {string | null} */
      const ariaSort = active ? (this.sort.dir === 1 ? "ascending" : "descending") : (c.sorts ? "none" : null);
      const th = el("th", { scope: "col", class: `col-${c.key}`, "aria-sort": ariaSort });
      if (c.sorts) {
        th.appendChild(el("button", {
          type: "button", class: "sort", "data-sort": c.key,
          onclick: () => {
            const key = /** @type {SortKey} */ (c.key);
            this.sort = this.sort.key === key ? { key, dir: this.sort.dir === 1 ? -1 : 1 } : { key, dir: 1 };
            this.drawHead();
            this.refreshView(true);
            announce(`Sorted by ${c.label}, ${this.sort.dir === 1 ? "ascending" : "descending"}`);
          },
        }, c.label, el("span", { class: "sort-mark", "aria-hidden": "true", text: active ? (this.sort.dir === 1 ? " ▲" : " ▼") : "" })));
      } else {
        th.textContent = c.label;
      }
      return th;
    }));
  }

  /**
   * One table row.
   * @param {number} index the row's number
   * @param {number} position its place in the view
   * @returns {HTMLTableRowElement}
   */
  drawRow(index, position) {
    const r = this.rows[index];
    const tr = el("tr", {
      "data-row": index, "data-status": r.status, "aria-rowindex": position + 2,
      class: index === this.selected ? "selected" : null,
    },
    el("td", { class: "col-line num", text: r.line }),
    el("td", { class: "col-status" }, el("span", { class: `status status-${r.status}`, text: STATUS_LABEL[r.status] ?? r.status })),
    el("td", { class: "col-input", title: r.input }, visibleText(r.input)),
    el("td", { class: "col-doi mono" }, r.doi ? visibleText(r.doi) : ""),
    el("td", { class: "col-duplicate_of num", text: r.duplicate_of === null ? "" : `line ${r.duplicate_of}` }),
    el("td", { class: "col-findings", text: findingsText(r) }),
    el("td", { class: "col-url mono", text: r.url ?? "" }),
    el("td", { class: "col-uri mono", text: r.uri ?? "" }),
    el("td", { class: "col-resolution", text: this.resolutionText(index) }));
    return tr;
  }

  /**
   * The Resolves-to cell: where the name resolves, or why not.
   * @param {number} index
   * @returns {string}
   */
  resolutionText(index) {
    const rec = this.resolutions.get(index);
    if (rec) return rec.ok ? (rec.url ?? "resolved (no URL value)") : rec.message;
    const r = this.rows[index];
    if (r.status === "duplicate" && this.resolutions.size) return `see line ${r.duplicate_of}`;
    return "";
  }

  /**
   * Resolve one name, again with growing waits while the answer says it may help.
   * @param {string} doi
   * @param {AbortSignal} signal
   * @returns {Promise<any>}
   */
  async resolveOne(doi, signal) {
    const a = /** @type {NonNullable<ReturnType<typeof api>>} */ (api());
    let rec = null;
    for (let attempt = 0; attempt < RESOLVE_TRIES; attempt++) {
      if (attempt) await pause(RETRY_BASE_MS * 2 ** (attempt - 1) * (1 + Math.random() / 4), signal);
      rec = await a.resolve(doi, { signal });
      if (!rec.retry || signal.aborted) break;
    }
    return rec;
  }

  /** Resolve every unique name at doi.org, a few at a time (the Resolve all button). */
  async resolveAll() {
    const targets = [];
    for (let i = 0; i < this.rows.length; i++) {
      const r = this.rows[i];
      if (r && (r.status === "ok" || r.status === "warning") && r.doi && !this.resolutions.has(i)) targets.push(i);
    }
    if (!targets.length) {
      this.say(this.resolutions.size ? "Every unique name is resolved already." : "There is no readable DOI name to resolve.", true);
      return;
    }
    const controller = new AbortController();
    this.resolving = controller;
    const signal = controller.signal;
    this.setRunning(true, false);
    this.els.progressWrap.hidden = false;
    let done = 0;
    const total = targets.length;
    const show = () => {
      this.els.progress.value = done / total;
      replace(this.els.progressText, `Resolved ${fmt(done)} of ${fmt(total)} names`);
    };
    show();
    this.say(`Resolving ${fmt(total)} unique names at doi.org, ${RESOLVE_PARALLEL} at a time…`, false);
    const queue = targets.slice();
    const lane = async () => {
      while (queue.length && !signal.aborted) {
        const index = /** @type {number} */ (queue.shift());
        try {
          const rec = await this.resolveOne(/** @type {string} */ (this.rows[index].doi), signal);
          if (signal.aborted && rec && rec.outcome === "cancelled") break;
          if (this.resolving !== controller) return;
          this.resolutions.set(index, rec);
        } catch (err) {
          console.error(err);
        }
        done++;
        show();
        this.schedule();
        if (index === this.selected) this.drawDetail(this.rows[index]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(RESOLVE_PARALLEL, total) }, lane));
    if (this.resolving !== controller) return; // cleared or restarted meanwhile
    this.resolving = null;
    this.setRunning(false);
    this.draw();
    let ok = 0;
    for (const rec of this.resolutions.values()) if (rec && rec.ok) ok++;
    this.say(signal.aborted
      ? `Resolving cancelled after ${fmt(done)} of ${fmt(total)} names; ${fmt(ok)} resolved so far.`
      : `Resolved ${fmt(total)} names: ${fmt(ok)} resolve, ${fmt(this.resolutions.size - ok)} do not (see the Resolves to column).`, false);
  }

  /** Draw the rows in sight, with spacers standing for the others. */
  draw() {
    const { scroller, body, table } = this.els;
    const n = this.view.length;
    table.setAttribute("aria-rowcount", String(n + 1));
    if (!this.rowHeight && n) {
      replace(body, this.drawRow(this.view[0], 0));
      this.rowHeight = /** @type {HTMLElement} */ (body.firstChild).getBoundingClientRect().height || 34;
    }
    const h = this.rowHeight || 34;
    const top = Math.max(0, Math.floor(scroller.scrollTop / h) - OVERSCAN);
    const count = Math.ceil((scroller.clientHeight || 400) / h) + 2 * OVERSCAN;
    const end = Math.min(n, top + count);
    const before = el("tr", { class: "spacer", "aria-hidden": "true" }, el("td", { colspan: COLUMNS.length }));
    const after = el("tr", { class: "spacer", "aria-hidden": "true" }, el("td", { colspan: COLUMNS.length }));
    before.style.height = `${top * h}px`;
    after.style.height = `${Math.max(0, n - end) * h}px`;
    /** @type {HTMLTableRowElement[]} */
    const rows = [];
    for (let p = top; p < end; p++) rows.push(this.drawRow(this.view[p], p));
    replace(body, before, rows, after);
    if (!n && this.rows.length) {
      replace(body, el("tr", null, el("td", { colspan: COLUMNS.length, class: "empty", text: "No rows match the filter." })));
    }
  }

  /**
   * Keyboard in the table: arrows, Page Up/Down, Home/End move the selection; Enter
   * opens the selected DOI in the Inspect section.
   * @param {KeyboardEvent} ev
   */
  onKey(ev) {
    const n = this.view.length;
    if (!n) return;
    const at = this.view.indexOf(this.selected);
    const page = Math.max(1, Math.floor(this.els.scroller.clientHeight / (this.rowHeight || 34)) - 1);
    /** @type {number | null} */
    let to = null;
    switch (ev.key) {
      case "ArrowDown": to = at < 0 ? 0 : Math.min(n - 1, at + 1); break;
      case "ArrowUp": to = at < 0 ? 0 : Math.max(0, at - 1); break;
      case "PageDown": to = Math.min(n - 1, Math.max(0, at) + page); break;
      case "PageUp": to = Math.max(0, at - page); break;
      case "Home": to = 0; break;
      case "End": to = n - 1; break;
      case "Enter": {
        const r = this.rows[this.selected];
        if (r && r.text) { // a row with a DOI (or the text that failed to read as one)
          ev.preventDefault();
          this.els.onInspect(r.text);
        }
        return;
      }
      default: return;
    }
    ev.preventDefault();
    this.select(this.view[to], true);
  }

  /**
   * Select a row: mark it, show its details, scroll it into sight if asked.
   * @param {number} index
   * @param {boolean} reveal
   */
  select(index, reveal) {
    const r = this.rows[index];
    if (!r) return;
    this.selected = index;
    if (reveal) {
      const at = this.view.indexOf(index);
      const h = this.rowHeight || 34;
      const s = this.els.scroller;
      const head = this.els.head.getBoundingClientRect().height;
      const y = at * h;
      if (y < s.scrollTop) s.scrollTop = y;
      else if (y + h > s.scrollTop + s.clientHeight - head) s.scrollTop = y + h - s.clientHeight + head;
    }
    this.draw();
    this.drawDetail(r);
  }

  /**
   * The selected row in full.
   * @param {BatchRow} r
   */
  drawDetail(r) {
    const findings = r.findings || [];
    replace(this.els.detail,
      el("h3", { text: `Line ${fmt(r.line)}: ${STATUS_LABEL[r.status] ?? r.status}` }),
      el("dl", { class: "details" },
        el("div", null, el("dt", { text: "Input" }), el("dd", { class: "value" }, visibleText(r.input))),
        r.doi ? el("div", null, el("dt", { text: r.status === "error" ? "Text read" : "DOI name" }),
          el("dd", { class: "value" }, visibleText(r.doi))) : null,
        r.url ? el("div", null, el("dt", { text: "URL" }), el("dd", null, safeLink(r.url))) : null,
        r.uri ? el("div", null, el("dt", { text: "URI" }), el("dd", { class: "value", text: r.uri })) : null,
        this.resolutions.has(this.selected) ? el("div", null, el("dt", { text: "Resolution" }),
          el("dd", null, this.resolutionDetail(this.resolutions.get(this.selected)))) : null,
        r.duplicate_of !== null ? el("div", null, el("dt", { text: "Duplicate of" }),
          el("dd", null, el("button", { type: "button", class: "link-like", onclick: () => this.goToLine(/** @type {number} */ (r.duplicate_of)) }, `line ${fmt(r.duplicate_of)}`))) : null),
      findings.length ? el("ul", { class: "findings" }, findings.map((f) => el("li", { class: `finding sev-${f.severity}` },
        el("span", { class: `badge sev-${f.severity}`, text: f.severity }),
        el("span", { class: "finding-body" }, el("span", { text: f.message }))))) : null,
      r.text ? el("p", null, el("button", {
        type: "button", onclick: () => this.els.onInspect(/** @type {string} */ (r.text)),
      }, "Open in Inspect")) : null);
  }

  /**
   * What resolving a name gave, with its target as a link (the record's `url` is the
   * first value the core found linkable, or null).
   * @param {any} rec
   * @returns {Node}
   */
  resolutionDetail(rec) {
    return el("span", null, rec ? String(rec.message) : "",
      rec && rec.url ? [" ", safeLink(String(rec.url))] : null);
  }

  /**
   * Select the first row of a line (clearing filter and search if it is hidden).
   * @param {number} line
   */
  goToLine(line) {
    let index = this.rows.findIndex((r) => r && r.line === line);
    if (index < 0) return;
    if (!this.view.includes(index)) {
      this.filter = "all";
      this.search = "";
      this.els.filter.value = "all";
      this.els.search.value = "";
      this.refreshView(false);
      index = this.rows.findIndex((r) => r && r.line === line);
    }
    this.select(index, true);
    this.els.scroller.focus();
  }

  /**
   * Download the rows as a file written by Python.
   * @param {"csv" | "json"} format
   */
  async download(format) {
    if (!this.handle || !this.rows.length) {
      this.say("There are no rows to download yet.", true);
      return;
    }
    const shownOnly = this.els.shownOnly.checked;
    const order = shownOnly ? this.view.slice() : null;
    const count = order ? order.length : this.rows.length;
    try {
      /** @type {Record<number, {outcome: string, url: string | null}> | null} */
      let resolved = null;
      if (this.resolutions.size) {
        resolved = {};
        for (const [i, rec] of this.resolutions) if (rec) resolved[i] = { outcome: rec.outcome, url: rec.url ?? null };
      }
      const text = await this.handle.export(format, order, resolved);
      const name = `doiname-batch.${format}`;
      saveFile(text, name, format === "csv" ? "text/csv;charset=utf-8" : "application/json");
      this.say(`Saved ${name}: ${fmt(count)} rows${shownOnly ? " as shown" : ", in input order"}.`, false);
    } catch (err) {
      this.say(`The download could not be made: ${coreError(err).message}`, true);
    }
  }
}
