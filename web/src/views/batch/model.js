// @ts-check
/**
 * The Batch table's data, with no DOM: every row received (in input order), the row
 * numbers shown (after the filter, the search and the sort), and what resolving each
 * unique name gave. The statuses, their order and labels come from Python's table
 * (statuses.gen.js), so this module holds no status of its own. Tested with node --test.
 * @module views/batch/model
 */
import { STATUSES } from "../../engine/statuses.gen.js";

/** @typedef {import("../../engine/types.gen.js").BatchRow} BatchRow */
/** @typedef {import("../../engine/types.gen.js").StatusLabel} StatusLabel */
/** @typedef {import("../../engine/types.gen.js").Status} Status */
/** @typedef {import("../../engine/types.gen.js").HandleRecord} HandleRecord */
/** @typedef {import("../../engine/types.gen.js").CheckedRow} CheckedRow */

/** @typedef {"line" | "input" | "doi" | "record" | "status" | "duplicate_of" | "findings"} SortKey */
/** @typedef {"all" | Status} Filter */

/** Each status by name, with its place when sorting by status. */
const BY_STATUS = new Map(STATUSES.map((s, rank) => [s.status, { ...s, rank }]));

export class BatchModel {
  constructor() {
    /** Every row received, in input order. @type {BatchRow[]} */
    this.rows = [];
    /** Row numbers shown, in the order shown. @type {number[]} */
    this.view = [];
    /** Whether `view` is every row in input order (so new rows are appended). */
    this.identityView = true;
    /** @type {{key: SortKey, dir: 1 | -1}} */
    this.sort = { key: "line", dir: 1 };
    /** @type {Filter} */
    this.filter = "all";
    /** Lower-case text a shown row's input or name contains. */
    this.search = "";
    /** Each status's place when sorting by status, its label and what resolving does to it (Python's). @type {ReadonlyMap<string, StatusLabel & {rank: number}>} */
    this.statuses = BY_STATUS;
    /** What resolving each unique name gave, by row number. @type {Map<number, HandleRecord>} */
    this.resolutions = new Map();
    /** Check all's result per row (its status, Python's). @type {Map<number, CheckedRow>} */
    this.checks = new Map();
    /** The batch handle the checks were made in (a new job after a restart has none). @type {unknown} */
    this.checkedIn = null;
  }

  /**
   * How a status is named on the page.
   * @param {string} status
   * @returns {string}
   */
  label(status) {
    return this.statuses.get(status)?.label ?? status;
  }

  /** Forget every row and resolution; keep the sort, filter and search. */
  reset() {
    this.rows = [];
    this.view = [];
    this.identityView = true;
    this.resolutions = new Map();
    this.checks = new Map();
    this.checkedIn = null;
  }

  /**
   * @param {BatchRow[]} rows
   * @param {number} first the row number of the first
   */
  addRows(rows, first) {
    for (let i = 0; i < rows.length; i++) this.rows[first + i] = rows[i];
  }

  /** Whether the rows are shown as they came (nothing hidden, input order). */
  get inInputOrder() {
    return this.filter === "all" && !this.search && this.sort.key === "line" && this.sort.dir === 1;
  }

  /**
   * Whether row `r` (number `index`) passes the filter and the search.
   * @param {BatchRow} r
   * @param {number} index
   * @returns {boolean}
   */
  passes(r, index) {
    if (this.filter === "warning") {
      if (!r.findings.some((f) => f.severity === "warning")) return false;
    } else if (this.filter !== "all" && this.statusOf(index) !== this.filter) {
      return false;
    }
    if (!this.search) return true;
    const record = r.record ?? "";
    return `${r.input}\n${r.doi ?? ""}\n${record}\n${this.resolutionText(index)}`.toLowerCase().includes(this.search);
  }

  /**
   * A row's status now: what reading gave it, or, once its name was resolved, the status
   * Python's table (`StatusLabel.after`, from `status_after`, which its batch export
   * follows too) gives that status for the record's verdict.
   * @param {number} index
   * @returns {string}
   */
  statusOf(index) {
    const checked = this.checks.get(index);
    if (checked) return checked.status; // Check all's, Python's
    const r = this.rows[index];
    const verdict = this.resolutions.get(index)?.verdict;
    return (verdict && this.statuses.get(r.status)?.after[verdict]) || r.status;
  }

  /**
   * How many rows have each status now (after Resolve all too).
   * @returns {Map<string, number>}
   */
  statusCounts() {
    /** @type {Map<string, number>} */
    const out = new Map();
    for (let i = 0; i < this.rows.length; i++) {
      if (!this.rows[i]) continue;
      const s = this.statusOf(i);
      out.set(s, (out.get(s) ?? 0) + 1);
    }
    return out;
  }

  /**
   * The value a row sorts by.
   * @param {BatchRow} r
   * @param {number} index its row number
   * @param {SortKey} key
   * @returns {string | number}
   */
  sortValue(r, index, key) {
    switch (key) {
      case "line":
        return r.line;
      case "status":
        return this.statuses.get(this.statusOf(index))?.rank ?? this.statuses.size;
      case "record":
        return r.record ?? "\uffff";
      case "duplicate_of":
        return r.duplicate_of ?? Number.MAX_SAFE_INTEGER;
      case "findings":
        return -r.findings.length;
      case "input":
        return r.input;
      default:
        return r.doi ?? "\uffff";
    }
  }

  /**
   * Sort by `key`: ascending, or the other way when it is the current key.
   * @param {SortKey} key
   */
  toggleSort(key) {
    this.sort = this.sort.key === key ? { key, dir: this.sort.dir === 1 ? -1 : 1 } : { key, dir: 1 };
  }

  /** Recompute the rows shown (filter, search, sort); ties keep input order. */
  refresh() {
    const { key, dir } = this.sort;
    /** @type {number[]} */
    let view;
    if (this.inInputOrder) {
      // Input order, nothing hidden: extend the last view with the rows that came since.
      view = this.identityView ? this.view : [];
      for (let i = view.length; i < this.rows.length && this.rows[i]; i++) view.push(i);
    } else {
      view = [];
      for (let i = 0; i < this.rows.length; i++) {
        const r = this.rows[i];
        if (r && this.passes(r, i)) view.push(i);
      }
      if (!(key === "line" && dir === 1)) {
        const values = new Map(view.map((i) => [i, this.sortValue(this.rows[i], i, key)]));
        view.sort((x, y) => {
          const a = /** @type {string | number} */ (values.get(x));
          const b = /** @type {string | number} */ (values.get(y));
          return (a < b ? -dir : a > b ? dir : 0) || x - y;
        });
      }
    }
    this.view = view;
    this.identityView = this.inInputOrder;
  }

  /**
   * The first row of a line, or -1.
   * @param {number} line
   * @returns {number}
   */
  rowOfLine(line) {
    return this.rows.findIndex((r) => r && r.line === line);
  }

  /**
   * The unique names still to resolve (of rows whose status Python marks `resolve`):
   * each one's handle API request (`api_url`, made
   * by Python from the exact name) and the rows it is for.
   * @returns {Map<string, number[]>}
   */
  toResolve() {
    /** @type {Map<string, number[]>} */
    const out = new Map();
    this.rows.forEach((r, i) => {
      if (!r?.api_url || !this.statuses.get(r.status)?.resolve || this.resolutions.has(i)) return;
      out.set(r.api_url, [...(out.get(r.api_url) ?? []), i]);
    });
    return out;
  }

  /**
   * The rows Check all asks about, one per name: the first row of each unique name whose
   * status Resolve all would ask about, not checked yet (all of them when the checks were
   * made in another job: an engine restart's new job holds none; their answers are kept).
   * @param {unknown} handle the batch's job now
   * @returns {number[]}
   */
  toCheck(handle) {
    const fresh = this.checkedIn !== handle;
    /** @type {Map<string, number>} */
    const first = new Map();
    this.rows.forEach((r, i) => {
      if (!r?.api_url || !this.statuses.get(r.status)?.resolve || (!fresh && this.checks.has(i))) return;
      if (!first.has(r.api_url)) first.set(r.api_url, i);
    });
    return [...first.values()];
  }

  /**
   * The Resolves-to cell: where the name resolves, or why not (or what Check all found).
   * @param {number} index
   * @returns {string}
   */
  resolutionText(index) {
    const checked = this.checks.get(index);
    if (checked) return `${checked.check.label}: ${checked.check.message}`;
    const rec = this.resolutions.get(index);
    if (rec) return rec.ok ? (rec.url ?? "resolved (no URL value)") : rec.message;
    const r = this.rows[index];
    if (r.status === "duplicate" && this.resolutions.size) return `see line ${r.duplicate_of}`;
    return "";
  }

  /**
   * The resolutions for an export: row number to `{outcome, url, verdict}`, or null.
   * @returns {Record<string, import("../../engine/types.gen.js").Resolution> | null}
   */
  resolvedForExport() {
    if (!this.resolutions.size) return null;
    /** @type {Record<string, import("../../engine/types.gen.js").Resolution>} */
    const out = {};
    for (const [i, rec] of this.resolutions) {
      out[String(i)] = { outcome: rec.outcome, url: rec.url ?? null, verdict: rec.verdict };
    }
    return out;
  }
}
