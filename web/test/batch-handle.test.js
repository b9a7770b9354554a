// @ts-check
// A batch driven a step at a time (src/engine/batch-handle.js) until a step says done.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AHEAD, batchRows, startBatch } from "../src/engine/batch-handle.js";
import { DoinameError } from "../src/engine/rpc.js";

/**
 * A worker-side batch of `lines` rows, `per` per step, keeping at most `keep` (as
 * BatchJob keeps BATCH_MAX_ROWS_KEPT).
 * @param {number} lines
 * @param {number} per
 * @param {number} [keep]
 */
function fakeAsk(lines, per, keep = Number.POSITIVE_INFINITY) {
  /** @type {[string, any][]} */
  const log = [];
  let done = 0;
  /** @type {any} */
  const ask = async (/** @type {string} */ method, /** @type {any} */ params, /** @type {any} */ opts = {}) => {
    log.push([method, params]);
    if (opts.signal?.aborted) throw new DoinameError("cancelled", "Cancelled.");
    if (method === "batch_open") return { job: 7, lines_total: lines, chars_total: lines };
    if (method === "batch_step") {
      const first = done;
      done = Math.min(lines, done + per);
      // (as BatchJob.step_rows: only the rows kept are handed over)
      const rows = Array.from({ length: Math.max(0, Math.min(done, keep) - first) }, (_, i) => ({
        line: first + i + 1,
      }));
      return {
        done: done === lines,
        lines_done: done,
        lines_total: lines,
        chars_done: done,
        chars_total: lines,
        summary: {},
        first_row: first,
        rows,
        rows_kept: Math.min(done, keep),
        rows_total: done,
      };
    }
    if (method === "batch_export") return `export of ${params.job}`;
    return true;
  };
  return { ask, log, made: () => done };
}

test("steps are asked ahead, one after another, until one says done", async () => {
  const { ask, log } = fakeAsk(10, 4);
  /** @type {number[]} */
  const progress = [];
  const rows = await batchRows(ask, "text", { onProgress: (p) => progress.push(p.rows_done) });
  assert.deepEqual(
    rows.map((/** @type {any} */ r) => r.line),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
  assert.deepEqual(progress, [4, 8, 10]);
  const methods = log.map(([m]) => m);
  assert.deepEqual([methods[0], methods.at(-1)], ["batch_open", "batch_close"]);
  // Three steps make the rows; at most AHEAD - 1 more were asked before the last came.
  const steps = methods.filter((m) => m === "batch_step").length;
  assert.ok(steps >= 3 && steps <= 3 + AHEAD - 1, String(steps));
});

test("the page holds the rows Python keeps, no more; the counts go on past them", async () => {
  const { ask } = fakeAsk(10, 4, 6);
  /** @type {number[]} */
  const got = [];
  const handle = startBatch(ask, "text", {
    onRows: (rows) => got.push(...rows.map((/** @type {any} */ r) => r.line)),
  });
  const last = await handle.finished;
  assert.deepEqual(got, [1, 2, 3, 4, 5, 6]);
  assert.equal(last.rows_done, 10);
  assert.equal(last.rows_kept, 6);
  assert.equal(last.rows_total, 10);
});

test("cancel stops asking; the steps asked already still come, so the page has every row the worker made", async () => {
  const { ask, log, made } = fakeAsk(100, 1);
  /** @type {number[]} */
  const got = [];
  const handle = startBatch(ask, "text", {
    onRows: (rows, first) => {
      got.push(...rows.map((/** @type {any} */ r) => r.line));
      if (first === 2) handle.cancel();
    },
  });
  await assert.rejects(handle.finished, { code: "cancelled" });
  // the three steps up to the one whose drawing cancelled, and the AHEAD asked before it
  assert.ok(log.filter(([m]) => m === "batch_step").length <= 3 + AHEAD);
  assert.deepEqual(
    got,
    Array.from({ length: made() }, (_, i) => i + 1),
  );
  assert.equal(await handle.export("csv"), "export of 7");
  await handle.close();
  assert.equal(log.at(-1)?.[0], "batch_close");
});

test("going on after a restart: skip_rows is sent, and nothing is drawn until the job passed the rows the page has", async () => {
  const { ask: plain, log } = fakeAsk(10, 3);
  // The worker's side of skip_rows (bridge/jobs.py): rows below it are made, not sent.
  /** @type {any} */
  const ask = async (/** @type {string} */ method, /** @type {any} */ params, /** @type {any} */ opts) => {
    const reply = await plain(method, params, opts);
    if (method !== "batch_step") return reply;
    const kept = reply.rows.filter((/** @type {any} */ _r, /** @type {number} */ i) => reply.first_row + i >= 5);
    const first = Math.max(reply.first_row, Math.min(5, reply.first_row + reply.rows.length));
    return { ...reply, rows: kept, first_row: first, rows_total: reply.lines_done };
  };
  /** @type {[number, number][]} */
  const drawn = [];
  /** @type {number[]} */
  const progress = [];
  const handle = startBatch(ask, "text", {
    skipRows: 5,
    onRows: (rows, first) => drawn.push([first, rows.length]),
    onProgress: (p) => progress.push(p.lines_done),
  });
  assert.equal(handle.reached(), null);
  const last = await handle.finished;
  assert.deepEqual(log[0], ["batch_open", { text: "text", skip_rows: 5 }]);
  assert.deepEqual(drawn, [
    [5, 1],
    [6, 3],
    [9, 1],
  ]);
  assert.deepEqual(progress, [6, 9, 10]); // the steps before row 5 were quiet
  assert.equal(handle.reached(), last);
  assert.equal(last.rows_done, 10);
});

/**
 * A worker-side streamed batch: `batch_feed` takes a piece's lines, each step makes up to
 * `per` rows of the lines fed so far; the log keeps every request and when each step's
 * rows were drawn.
 * @param {number} per
 */
function fakeStream(per) {
  /** @type {string[]} */
  const log = [];
  let fed = 0;
  let made = 0;
  let ended = false;
  /** @type {any} */
  const ask = async (/** @type {string} */ method, /** @type {any} */ params) => {
    log.push(method);
    await new Promise((r) => setTimeout(r, 1)); // the worker answers later
    if (method === "batch_open") return { job: 3, lines_total: 0, chars_total: 0 };
    if (method === "batch_feed") {
      fed += params.text.split("\n").filter(Boolean).length;
      return { taken: true, room: 0 };
    }
    if (method === "batch_end") {
      ended = true;
      return true;
    }
    if (method === "batch_step") {
      const first = made;
      made = Math.min(fed, made + per);
      const rows = Array.from({ length: made - first }, (_, i) => ({ line: first + i + 1 }));
      const done = ended && made === fed;
      return {
        done,
        lines_done: made,
        lines_total: fed,
        chars_done: made,
        chars_total: fed,
        summary: {},
        first_row: first,
        rows,
        rows_kept: made,
        rows_total: made,
        needs_input: !done,
      };
    }
    return true;
  };
  return { ask, log, made: () => made };
}

/** Pieces of `n` lines each, `count` pieces. @param {number} count @param {number} n */
function linePieces(count, n) {
  let at = 0;
  let line = 0;
  return {
    next: async () => {
      if (at >= count) return null;
      at++;
      return `${Array.from({ length: n }, () => `line ${++line}`).join("\n")}\n`;
    },
    progress: () => ({ done: at, total: count }),
    cancel: () => {},
  };
}

/**
 * A streamed batch whose drawn rows' lines go to `got`, `then(handle)` after each draw.
 * @param {any} ask
 * @param {import("../src/engine/pieces.js").Pieces} pieces
 * @param {number[]} got
 * @param {(handle: import("../src/engine/batch-handle.js").BatchHandle) => void} then
 */
function streamInto(ask, pieces, got, then) {
  const handle = startBatch(ask, pieces, {
    onRows: (rows) => {
      got.push(...rows.map((/** @type {any} */ r) => r.line));
      then(handle);
    },
  });
  return handle;
}

test("a streamed batch asks for its next step before it draws the last, and draws every row in order", async () => {
  const { ask, log } = fakeStream(4);
  /** @type {number[]} */
  const got = [];
  const handle = streamInto(ask, linePieces(3, 5), got, () => log.push("draw"));
  const last = await handle.finished;
  assert.deepEqual(
    got,
    Array.from({ length: 15 }, (_, i) => i + 1),
  );
  assert.equal(last.rows_done, 15);
  assert.ok(last.done);
  // Every step's rows but the last's are drawn after the next step was asked (the worker
  // is never idle while the page draws); none is asked after the last, which says done.
  const lastDraw = log.lastIndexOf("draw");
  assert.equal(log.slice(lastDraw).filter((m) => m === "batch_step").length, 0);
  for (let i = 0; i < lastDraw; i++) {
    if (log[i] !== "draw") continue;
    const stepsBefore = log.slice(0, i).filter((m) => m === "batch_step").length;
    const drawsBefore = log.slice(0, i + 1).filter((m) => m === "draw").length;
    assert.ok(stepsBefore > drawsBefore, `draw ${drawsBefore} came before its next step was asked: ${log}`);
  }
  await handle.close();
});

test("cancelling a streamed batch still draws the step asked already", async () => {
  const { ask, made } = fakeStream(2);
  /** @type {number[]} */
  const got = [];
  const handle = streamInto(ask, linePieces(50, 4), got, (h) => {
    if (got.length >= 6) h.cancel();
  });
  await assert.rejects(handle.finished, { code: "cancelled" });
  assert.deepEqual(
    got,
    Array.from({ length: made() }, (_, i) => i + 1),
  );
  assert.ok(made() < 200);
});
