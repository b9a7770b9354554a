// @ts-check
// The input mirror's runs (src/views/mirror.js): the first finding wins, carets, code points.
import assert from "node:assert/strict";
import { test } from "node:test";
import { marksOf, mirrorRuns } from "../src/views/mirror.js";

test("each character takes the first mark that covers it (Python's order), all messages", () => {
  const runs = mirrorRuns("10.1000/abc", [
    { start: 8, end: 10, severity: "error", message: "e" },
    { start: 9, end: 11, severity: "warning", message: "w" },
  ]);
  assert.deepEqual(
    runs.map((r) => (r.kind === "text" ? [r.text, r.severity, r.messages] : ["caret"])),
    [
      ["10.1000/", null, []],
      ["a", "error", ["e"]],
      ["b", "error", ["e", "w"]],
      ["c", "warning", ["w"]],
    ],
  );
});

test("an empty span is a caret at its place; positions count code points", () => {
  const text = "10.1000/\u{1d400}\u200bb";
  const runs = mirrorRuns(text, [
    { start: 9, end: 10, severity: "warning", message: "zero width" },
    { start: 11, end: 11, severity: "error", message: "missing" },
  ]);
  const marked = runs.filter((r) => r.kind === "text" && r.severity);
  assert.deepEqual(
    marked.map((r) => r.kind === "text" && [r.start, r.end, r.text]),
    [[9, 10, "\u200b"]],
  );
  assert.deepEqual(runs.at(-1), { kind: "caret", at: 11, severity: "error", messages: ["missing"] });
});

test("notes and findings outside the input are not marked", () => {
  /** @param {string} severity @param {number | null} at */
  const f = (severity, at) =>
    /** @type {any} */ ({ severity, message: severity, input_start: at, input_end: at === null ? null : at + 1 });
  assert.deepEqual(marksOf([f("info", 0), f("warning", null), f("warning", 2)]), [
    { start: 2, end: 3, severity: "warning", message: "warning" },
  ]);
});

test("a finding said once for several places marks each of them", () => {
  const f = /** @type {any} */ ({
    severity: "warning",
    message: "twice",
    input_start: 9,
    input_end: 10,
    places: [
      [9, 10],
      [12, 14],
    ],
  });
  assert.deepEqual(marksOf([f]), [
    { start: 9, end: 10, severity: "warning", message: "twice" },
    { start: 12, end: 14, severity: "warning", message: "twice" },
  ]);
  const runs = mirrorRuns("10.1000/a b  c", marksOf([f]));
  assert.deepEqual(
    runs.filter((r) => r.kind === "text" && r.severity).map((r) => r.kind === "text" && [r.start, r.end]),
    [
      [9, 10],
      [12, 14],
    ],
  );
});
