// @ts-check
// The Batch table's model (src/views/batch/model.js): filter, search, sort, resolutions.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { BatchModel } from "../src/views/batch/model.js";

/** @typedef {import("../src/engine/types.gen.js").BatchRow} BatchRow */

/**
 * @param {number} line
 * @param {BatchRow["status"]} status
 * @param {Partial<BatchRow>} [more]
 * @returns {BatchRow}
 */
function row(line, status, more = {}) {
  return {
    line,
    input: `line ${line}`,
    status,
    doi: status === "no-doi" ? null : `10.1000/n${line}`,
    url: null,
    uri: null,
    findings: [],
    duplicate_of: null,
    start: null,
    end: null,
    text: null,
    form: null,
    api_url: status === "ok" || status === "warning" ? `https://doi.org/api/handles/10.1000/n${line}` : null,
    alternatives: [],
    record: null,
    ...more,
  };
}

/**
 * The statuses as Python's table gives them (`doiname.bridge.BATCH_STATUSES`), asked of
 * Python itself: the rule of what resolving does to a row is Python's, never this test's.
 * @type {import("../src/engine/types.gen.js").StatusLabel[]}
 */
const STATUSES = JSON.parse(
  execFileSync(
    process.env.PYTHON ?? "python3",
    [
      "-c",
      "import json, sys; sys.path.insert(0, sys.argv[1]); " +
        "from doiname.bridge.jobs import BATCH_STATUSES; print(json.dumps(BATCH_STATUSES))",
      fileURLToPath(new URL("../../pycore", import.meta.url)),
    ],
    { encoding: "utf8" },
  ),
);

test("the model reads Python's table of statuses, in its order", () => {
  const got = [...new BatchModel().statuses.values()];
  assert.deepEqual(
    got.map(({ rank, ...s }) => s),
    STATUSES,
  );
  assert.deepEqual(
    got.map((s) => s.rank),
    STATUSES.map((_, i) => i),
  );
});

function model() {
  const m = new BatchModel();
  m.addRows([row(1, "ok"), row(2, "no-doi"), row(3, "error")], 0);
  m.addRows(
    [
      row(4, "duplicate", { duplicate_of: 1, doi: "10.1000/N1" }),
      row(5, "warning", {
        findings: [
          {
            code: "w",
            severity: "warning",
            message: "m",
            start: 0,
            end: 1,
            input_start: null,
            input_end: null,
            in_name: true,
            source: "",
            repair: null,
            places: [],
          },
        ],
      }),
    ],
    3,
  );
  return m;
}

test("in input order with nothing hidden, new rows are appended to the view", () => {
  const m = model();
  m.refresh();
  assert.deepEqual(m.view, [0, 1, 2, 3, 4]);
  m.addRows([row(6, "ok")], 5);
  m.refresh();
  assert.deepEqual(m.view, [0, 1, 2, 3, 4, 5]);
  assert.ok(m.inInputOrder && m.identityView);
});

test("sorting by status follows Python's order, ties in input order, both ways", () => {
  const m = model();
  m.toggleSort("status");
  m.refresh();
  assert.deepEqual(
    m.view.map((i) => m.rows[i].status),
    ["error", "warning", "duplicate", "ok", "no-doi"],
  );
  m.toggleSort("status");
  m.refresh();
  assert.deepEqual(
    m.view.map((i) => m.rows[i].status),
    ["no-doi", "ok", "duplicate", "warning", "error"],
  );
  assert.equal(m.label("no-doi"), "No DOI");
});

test("filters: a status, or any row with a warning; search in input and name", () => {
  const m = model();
  m.filter = "warning";
  m.refresh();
  assert.deepEqual(m.view, [4]);
  m.filter = "duplicate";
  m.refresh();
  assert.deepEqual(m.view, [3]);
  m.filter = "all";
  m.search = "10.1000/n1";
  m.refresh();
  assert.deepEqual(m.view, [0, 3]);
  assert.equal(m.rowOfLine(4), 3);
});

test("only unique readable names are resolved, by their api_url; duplicates point at theirs", () => {
  const m = model();
  const targets = m.toResolve();
  assert.deepEqual(
    [...targets.keys()],
    ["https://doi.org/api/handles/10.1000/n1", "https://doi.org/api/handles/10.1000/n5"],
  );
  m.resolutions.set(
    0,
    /** @type {any} */ ({ ok: true, url: "https://example.org/", outcome: "ok", message: "", verdict: "resolves" }),
  );
  assert.equal(m.resolutionText(0), "https://example.org/");
  assert.equal(m.resolutionText(3), "see line 1");
  assert.deepEqual(m.resolvedForExport(), { 0: { outcome: "ok", url: "https://example.org/", verdict: "resolves" } });
  assert.equal(m.toResolve().size, 1);
});

test("after resolving, a name doi.org does not know is not-found, one not checked unreachable; filters find them", () => {
  const m = model();
  const statusBefore = m.statusOf(0);
  m.resolutions.set(
    0,
    /** @type {any} */ ({ ok: false, url: null, outcome: "not-found", message: "", verdict: "not-found" }),
  );
  m.resolutions.set(
    4,
    /** @type {any} */ ({ ok: false, url: null, outcome: "network", message: "", verdict: "unreachable" }),
  );
  assert.notEqual(statusBefore, "not-found");
  assert.equal(m.statusOf(0), "not-found");
  assert.equal(m.statusOf(4), "unreachable");
  assert.equal(m.statusOf(3), "duplicate"); // a duplicate keeps its status
  const counts = m.statusCounts();
  assert.equal(counts.get("not-found"), 1);
  assert.equal(counts.get("unreachable"), 1);
  m.filter = "not-found";
  m.refresh();
  assert.deepEqual(m.view, [0]);
  m.filter = "unreachable";
  m.refresh();
  assert.deepEqual(m.view, [4]);
});
