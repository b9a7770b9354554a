// @ts-check
// A batch's input as bounded pieces (src/engine/pieces.js) and a streamed batch fed with
// them between steps (src/engine/batch-handle.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { startBatch } from "../src/engine/batch-handle.js";
import { PIECE_CHARS } from "../src/engine/limits.gen.js";
import { blobPieces, safeCut, stringPieces } from "../src/engine/pieces.js";

/** @param {import("../src/engine/pieces.js").Pieces} p */
async function all(p) {
  const out = [];
  for (let piece = await p.next(); piece !== null; piece = await p.next()) out.push(piece);
  return out;
}

/** @param {string} s */
const splitsPair = (s) => /^[\udc00-\udfff]|[\ud800-\udbff]$/.test(s);

test("a cut never falls between the halves of a surrogate pair", () => {
  const text = "ab\u{1F600}cd";
  assert.equal(safeCut(text, 2), 2);
  assert.equal(safeCut(text, 3), 2); // inside the pair: before it
  assert.equal(safeCut(text, 4), 4);
  assert.equal(safeCut(text, 0), 0);
  assert.equal(safeCut(text, 99), text.length);
});

test("string pieces: at, below and above the bound, whole characters, nothing lost", async () => {
  for (const size of [1, 2, 3, 7, 64]) {
    const text = "10.1000/\u{1F600}x\u{1D49C}\n".repeat(20);
    const pieces = await all(stringPieces(text, size));
    assert.equal(pieces.join(""), text);
    for (const p of pieces) {
      assert.ok(p.length <= Math.max(size, 2), `${p.length} > ${size}`);
      assert.ok(!splitsPair(p), JSON.stringify(p));
    }
  }
  assert.deepEqual(await all(stringPieces("abcd", 4)), ["abcd"]);
  assert.deepEqual(await all(stringPieces("abcde", 4)), ["abcd", "e"]);
  assert.deepEqual(await all(stringPieces("abc", 4)), ["abc"]);
  assert.deepEqual(await all(stringPieces("", 4)), []);
});

test("a file is read as a stream of pieces: UTF-8 split anywhere, BOM dropped, bytes counted", async () => {
  const text = "10.1000/é\u{1F600}\r\n".repeat(5000);
  const bytes = new TextEncoder().encode(`\ufeff${text}`);
  const source = blobPieces(new Blob([bytes.slice(0, 7), bytes.slice(7, 12345), bytes.slice(12345)]), 1000);
  const pieces = await all(source);
  assert.equal(pieces.join(""), text);
  for (const p of pieces) assert.ok(p.length <= 1000 && !splitsPair(p));
  assert.deepEqual(source.progress(), { done: bytes.length, total: bytes.length });
});

/**
 * A worker-side streamed batch: it holds at most `room` characters not read yet, and
 * each step reads `per` characters (one row each line, a line being a piece's text).
 * @param {number} room
 * @param {number} per
 */
function streamAsk(room, per) {
  let pending = "";
  let ended = false;
  let read = "";
  /** @type {string[]} */
  const log = [];
  /** @type {any} */
  const ask = async (/** @type {string} */ method, /** @type {any} */ params) => {
    log.push(method);
    if (method === "batch_open") {
      assert.equal(params.text, null);
      return { job: 3, lines_total: 0, chars_total: 0 };
    }
    if (method === "batch_feed") {
      if (pending.length + params.text.length > room) return { taken: false, room: room - pending.length };
      pending += params.text;
      return { taken: true, room: room - pending.length };
    }
    if (method === "batch_end") {
      ended = true;
      return true;
    }
    if (method === "batch_step") {
      await new Promise((r) => setImmediate(r)); // a worker answers in a later task
      const take = pending.slice(0, per);
      pending = pending.slice(per);
      read += take;
      const done = ended && !pending;
      return {
        done,
        lines_done: read.length,
        lines_total: read.length,
        chars_done: read.length,
        chars_total: read.length,
        summary: {},
        first_row: read.length - take.length,
        rows: Array.from(take, (c) => ({ c })),
        needs_input: !pending,
        rows_kept: read.length,
        rows_total: read.length,
      };
    }
    return true;
  };
  return { ask, log, read: () => read };
}

test("an input over one piece is fed in pieces as the job makes room, every character read once", async () => {
  const text = "x".repeat(PIECE_CHARS * 3 + 5);
  const { ask, log, read } = streamAsk(PIECE_CHARS * 2, PIECE_CHARS / 2);
  let rows = 0;
  const handle = startBatch(ask, text, {
    onRows: (r) => {
      rows += r.length;
    },
  });
  const last = await handle.finished;
  assert.equal(read(), text);
  assert.equal(rows, text.length);
  assert.equal(last.done, true);
  assert.deepEqual(last.source, { done: text.length, total: text.length });
  assert.equal(log.filter((m) => m === "batch_end").length, 1);
  assert.ok(log.filter((m) => m === "batch_feed").length >= 4);
});

test("a streamed batch cancelled stops reading its input", async () => {
  const { ask, read } = streamAsk(PIECE_CHARS, 100_000);
  const handle = startBatch(ask, "y".repeat(PIECE_CHARS * 4));
  setTimeout(() => handle.cancel(), 5);
  await assert.rejects(handle.finished, { code: "cancelled" });
  assert.ok(read().length < PIECE_CHARS * 4);
});
