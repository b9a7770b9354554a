// @ts-check
/**
 * A batch in the worker (doiname.batch.BatchJob), driven from the page: open the job,
 * then ask for one step after another (AHEAD of the one being drawn) until a step says
 * `done`. An input larger than one piece (PIECE_CHARS: a long paste, any file) is not
 * sent whole: it is read as a stream of pieces (pieces.js) and fed to the job
 * (`batch_feed`) between steps, as the job makes room for them, then `batch_end`; so the
 * page never holds a file's text and the worker holds a few pieces at a time. Each
 * step is its own request, with a deadline of seconds; requests of other
 * views (a keystroke in Inspect) are answered between steps; cancelling is not asking for
 * more, and the rows of the steps asked already still come (the page's rows are always
 * the worker's). A batch stopped by an engine restart (its `finished` rejects with code
 * `restarted`; `reached()` says how far it got) goes on as a new batch over the same
 * input with `skipRows`: Python reads it all again, so every count and duplicate is
 * right, and sends only the rows after those the page holds.
 * @module engine/batch-handle
 */

import { BATCH_STEP_LINES, PAGE_STEP_MS, PIECE_CHARS, TEXT_SNIFF_BYTES } from "./limits.gen.js";
import { blobPieces, piecesOf } from "./pieces.js";
import { DoinameError } from "./rpc.js";

/** @typedef {import("./pieces.js").Pieces} Pieces */
/** @typedef {import("./pieces.js").SourceProgress} SourceProgress */

/** @typedef {import("./types.gen.js").BatchRow} BatchRow */
/** @typedef {import("./types.gen.js").BatchStep} BatchStep */
/** @typedef {import("./types.gen.js").BatchSummary} BatchSummary */
/** @typedef {import("./types.gen.js").BatchOpened} BatchOpened */
/** @typedef {import("./types.gen.js").Resolution} Resolution */
/** @typedef {import("./types.gen.js").Operations} Operations */

/** Steps asked for ahead of the one being drawn (the worker's next step). */
export const AHEAD = 1;

/**
 * How far a batch is (a step without its rows), for `onProgress`. `source` says how
 * much of the input was read (of a streamed input, whose lines are counted as they come).
 * @typedef {{lines_done: number, lines_total: number, chars_done: number, chars_total: number,
 *   done: boolean, summary: BatchSummary, rows_done: number, rows_kept: number,
 *   rows_total: number, source: SourceProgress}} BatchProgress
 */

/**
 * Options of a batch: `onRows(rows, firstRow)` gets each step's new rows as they come
 * (row numbers count from 0 in input order; only rows the worker keeps,
 * BATCH_MAX_ROWS_KEPT: past them a step has none), `onProgress` how far it is, `onOpen` the
 * opened job (its number and size); `signal` cancels it.
 * `skipRows` (a batch going on after an engine restart): the page holds the first
 * `skipRows` rows already; the worker makes them again but does not send them, and no
 * progress is reported until its job has passed them (the counts then go on from there).
 * @typedef {{signal?: AbortSignal, onProgress?: (p: BatchProgress) => void,
 *   onRows?: (rows: BatchRow[], firstRow: number) => void,
 *   onOpen?: (opened: BatchOpened) => void, skipRows?: number}} BatchOptions
 */

/**
 * A running batch. `finished` resolves with the last progress when every line is done,
 * or rejects (code `cancelled` after `cancel()` or the signal). The rows stay in the
 * worker until `close()`: `export` writes them (all in input order, or the row numbers
 * in `order`) as the text of a CSV, JSON or JSON Lines file, also after a cancel (the
 * rows done so far); `resolved` (row number to `{outcome, url, verdict}`) adds the
 * columns `resolution` and `resolves_to`, also to the duplicates; `options.unique`
 * writes each distinct name once, `options.excel` a CSV for Excel (UTF-8 BOM).
 * `reached()` is the last progress drawn (null before the first): where a batch that
 * failed stopped. `targets` and `check` are Check all's (the rows' exact names; a
 * registry answer checked against every row of its name).
 * @typedef {{
 *   finished: Promise<BatchProgress>,
 *   reached: () => BatchProgress | null,
 *   cancel: () => void,
 *   export: (format: "csv" | "json" | "jsonl", order?: number[] | null,
 *     resolved?: Record<number, Resolution> | null,
 *     options?: {unique?: boolean, excel?: boolean}) => Promise<string>,
 *   targets: (rows: number[]) => Promise<import("./types.gen.js").BatchTarget[]>,
 *   check: (row: number, answer: Omit<import("./types.gen.js").BatchCheckParams, "job" | "row">)
 *     => Promise<import("./types.gen.js").BatchChecked>,
 *   close: () => Promise<void>,
 * }} BatchHandle
 */

/**
 * @typedef {<M extends keyof Operations>(method: M, params: Operations[M]["params"],
 *   options?: {signal?: AbortSignal}) => Promise<Operations[M]["result"]>} Ask
 */

/**
 * Start a batch over `input` (a text, a file, or pieces of text) with `ask` (the
 * client's request to the worker).
 * @param {Ask} ask
 * @param {string | Blob | Pieces} input
 * @param {BatchOptions} [options]
 * @returns {BatchHandle}
 */
export function startBatch(ask, input, options = {}) {
  const { signal, onProgress, onRows, onOpen } = options;
  const skipRows = Math.max(0, Math.floor(options.skipRows ?? 0));
  const stop = new AbortController();
  const cancel = () => stop.abort();
  if (signal?.aborted) cancel();
  else signal?.addEventListener("abort", cancel, { once: true });
  const whole = typeof input === "string" && input.length <= PIECE_CHARS ? input : null;
  // A file: Python reads its first bytes and says how to decode it (or refuses it).
  const file = typeof Blob === "function" && input instanceof Blob ? input : null;
  /** @type {Pieces | null} */
  let pieces = whole === null && file === null ? piecesOf(input) : null;
  const opened = (async () => {
    /** @type {Operations["batch_open"]["params"]} */
    const params = { text: whole };
    if (skipRows) params.skip_rows = skipRows;
    if (file) params.head = Array.from(new Uint8Array(await file.slice(0, TEXT_SNIFF_BYTES).arrayBuffer()));
    const head = await ask("batch_open", params, { signal: stop.signal });
    if (file) pieces = blobPieces(file, PIECE_CHARS, head.encoding);
    return head;
  })();
  /** @type {BatchProgress | null} */
  let reached = null;
  opened.catch(() => {}); // reported through `finished`

  /**
   * Draw a step: its rows, then how far the batch is.
   * @param {BatchStep} step
   * @returns {BatchProgress}
   */
  function drawStep(step) {
    const { rows, first_row, needs_input, rows_kept, rows_total, ...progress } = step;
    const source = pieces ? pieces.progress() : { done: step.chars_done, total: step.chars_total };
    const last = { ...progress, rows_done: rows_total, rows_kept, rows_total, source };
    // Going on after a restart: quiet while the job makes again the rows the page has.
    if (rows_total < skipRows && !step.done) return last;
    reached = last;
    try {
      // A step brings only rows Python keeps (BATCH_MAX_ROWS_KEPT: its table and
      // downloads), so the page holds those; the rows past it are in the counts only, and
      // the tab's memory stays bounded however long the list.
      if (rows.length) onRows?.(rows, first_row);
      onProgress?.(last);
    } catch (err) {
      console.error(err);
    }
    return last;
  }

  /**
   * What asks the worker for one step of the job (awaited in turn by the caller; never
   * abandoned).
   * @param {{job: number, max_lines: number, budget_ms: number}} params
   * @returns {() => Promise<BatchStep>}
   */
  function stepAsker(params) {
    return () => {
      const step = ask("batch_step", params);
      step.catch(() => {}); // awaited in turn by the caller
      return step;
    };
  }

  /**
   * A streamed batch: feed a piece whenever the job takes it, step in between.
   * @param {number} job
   * @param {Pieces} source
   * @returns {Promise<BatchProgress>}
   */
  async function stream(job, source) {
    const params = { job, max_lines: BATCH_STEP_LINES, budget_ms: PAGE_STEP_MS };
    let piece = source.next();
    let ended = false;
    /** The step under way (one at most), drawn once the next one is asked. @type {Promise<BatchStep> | null} */
    let asked = null;
    const askStep = stepAsker(params);
    try {
      for (;;) {
        if (stop.signal.aborted) {
          if (asked) drawStep(await asked); // a step asked already still comes
          throw new DoinameError("cancelled", "The batch was cancelled.");
        }
        // Feed while the job takes pieces (it refuses one when too much text waits); a
        // feed's answer comes after the step under way.
        while (!ended) {
          const text = await piece;
          if (text === null) {
            await ask("batch_end", { job });
            ended = true;
            break;
          }
          const fed = await ask("batch_feed", { job, text });
          if (!fed.taken) break;
          piece = source.next(); // read the next piece while the worker steps
          if (fed.room < PIECE_CHARS) break;
        }
        // As a batch sent whole: the next step is asked as soon as a step comes, before it
        // is drawn, so the worker goes on while the page draws and a Cancel waits for one
        // step at most; none is asked after the one that says done.
        const step = /** @type {BatchStep | null} */ (asked ? await asked : null);
        asked = step?.done || stop.signal.aborted ? null : askStep();
        if (step) {
          const last = drawStep(step);
          if (last.done) return last;
        }
      }
    } finally {
      if (!ended) source.cancel();
    }
  }

  /** @returns {Promise<BatchProgress>} */
  async function run() {
    const head = await opened;
    onOpen?.(head);
    if (pieces) return stream(head.job, pieces);
    const ask1 = stepAsker({ job: head.job, max_lines: BATCH_STEP_LINES, budget_ms: PAGE_STEP_MS });
    // AHEAD steps are always asked for: the next is asked as soon as a step comes, before
    // it is drawn, so the worker goes on while the page draws, and a Cancel waits for
    // AHEAD steps at most. A step under way is never abandoned (it would add rows in the
    // worker that the page never sees): Cancel stops asking, and the steps asked already
    // still come.
    const asked = Array.from({ length: AHEAD }, ask1);
    for (;;) {
      const step = /** @type {BatchStep} */ (await asked.shift());
      if (!step.done && !stop.signal.aborted) asked.push(ask1()); // before this one is drawn
      const last = drawStep(step);
      if (step.done) return last;
      if (stop.signal.aborted && !asked.length) throw new DoinameError("cancelled", "The batch was cancelled.");
    }
  }

  const finished = run().finally(() => signal?.removeEventListener("abort", cancel));
  finished.catch(() => {}); // the caller may only use export/close
  /** @returns {Promise<number>} the job, once open */
  const job = () =>
    opened.then(
      (h) => h.job,
      () => {
        throw new DoinameError("unknown-job", "This batch did not start.");
      },
    );
  return {
    finished,
    reached: () => reached,
    cancel,
    export: async (format, order = null, resolved = null, options = {}) =>
      ask("batch_export", { job: await job(), format, order, resolved, ...options }),
    targets: async (rows) => ask("batch_target", { job: await job(), rows }),
    check: async (row, answer) => ask("batch_check", { job: await job(), row, ...answer }),
    close: async () => {
      cancel();
      const number = await job().catch(() => -1);
      if (number >= 0) await ask("batch_close", { job: number });
    },
  };
}

/**
 * Every row of a batch over `text` (a text, a file, pieces), in input order
 * (`onProgress` as it goes); for a list of more rows than one batch keeps
 * (BATCH_MAX_ROWS_KEPT), its first rows, as the downloads have them.
 * @param {Ask} ask
 * @param {string | Blob | Pieces} text
 * @param {BatchOptions} [options]
 * @returns {Promise<BatchRow[]>}
 */
export async function batchRows(ask, text, options = {}) {
  /** @type {BatchRow[]} */
  const rows = [];
  const handle = startBatch(ask, text, {
    ...options,
    onRows: (chunk, first) => {
      for (let i = 0; i < chunk.length; i++) rows[first + i] = chunk[i];
      options.onRows?.(chunk, first);
    },
  });
  try {
    await handle.finished;
  } finally {
    await handle.close().catch(() => {});
  }
  return rows;
}
