// @ts-check
/**
 * A batch in the worker (doiname.batch.BatchJob), driven from the page: open the job,
 * then ask for one step after another (AHEAD of the one being drawn) until a step says
 * `done`. Each step is its own request, with a deadline of seconds; requests of other
 * views (a keystroke in Inspect) are answered between steps; cancelling is not asking for
 * more, and the rows of the steps asked already still come (the page's rows are always
 * the worker's).
 * @module engine/batch-handle
 */

import { DoinameError } from "./rpc.js";

/** @typedef {import("./types.gen.js").BatchRow} BatchRow */
/** @typedef {import("./types.gen.js").BatchStep} BatchStep */
/** @typedef {import("./types.gen.js").BatchSummary} BatchSummary */
/** @typedef {import("./types.gen.js").BatchOpened} BatchOpened */
/** @typedef {import("./types.gen.js").Resolution} Resolution */
/** @typedef {import("./types.gen.js").Operations} Operations */

/** Longest a batch step keeps Python busy before the worker takes other requests (ms). */
export const STEP_MS = 50;
/** Most lines in one batch step. */
export const STEP_LINES = 5000;
/** Steps asked for ahead of the one being drawn. */
export const AHEAD = 2;

/**
 * How far a batch is (a step without its rows), for `onProgress`.
 * @typedef {{lines_done: number, lines_total: number, chars_done: number, chars_total: number,
 *   done: boolean, summary: BatchSummary, rows_done: number}} BatchProgress
 */

/**
 * Options of a batch: `onRows(rows, firstRow)` gets each step's new rows as they come
 * (row numbers count from 0 in input order), `onProgress` how far it is, `onOpen` the
 * opened job (its size, the row statuses in sort order); `signal` cancels it.
 * @typedef {{signal?: AbortSignal, onProgress?: (p: BatchProgress) => void,
 *   onRows?: (rows: BatchRow[], firstRow: number) => void,
 *   onOpen?: (opened: BatchOpened) => void}} BatchOptions
 */

/**
 * A running batch. `finished` resolves with the last progress when every line is done,
 * or rejects (code `cancelled` after `cancel()` or the signal). The rows stay in the
 * worker until `close()`: `export` writes them (all in input order, or the row numbers
 * in `order`) as the text of a CSV, JSON or JSON Lines file, also after a cancel (the
 * rows done so far); `resolved` (row number to `{outcome, url, verdict}`) adds the
 * columns `resolution` and `resolves_to`, also to the duplicates; `options.unique`
 * writes each distinct name once, `options.excel` a CSV for Excel (UTF-8 BOM).
 * @typedef {{
 *   finished: Promise<BatchProgress>,
 *   cancel: () => void,
 *   export: (format: "csv" | "json" | "jsonl", order?: number[] | null,
 *     resolved?: Record<number, Resolution> | null,
 *     options?: {unique?: boolean, excel?: boolean}) => Promise<string>,
 *   close: () => Promise<void>,
 * }} BatchHandle
 */

/**
 * @typedef {<M extends keyof Operations>(method: M, params: Operations[M]["params"],
 *   options?: {signal?: AbortSignal}) => Promise<Operations[M]["result"]>} Ask
 */

/**
 * Start a batch over `text` with `ask` (the client's request to the worker).
 * @param {Ask} ask
 * @param {string} text
 * @param {BatchOptions} [options]
 * @returns {BatchHandle}
 */
export function startBatch(ask, text, options = {}) {
  const { signal, onProgress, onRows, onOpen } = options;
  const stop = new AbortController();
  const cancel = () => stop.abort();
  if (signal?.aborted) cancel();
  else signal?.addEventListener("abort", cancel, { once: true });
  const opened = ask("batch_open", { text: String(text) }, { signal: stop.signal });
  opened.catch(() => {}); // reported through `finished`

  /** @returns {Promise<BatchProgress>} */
  async function run() {
    const head = await opened;
    onOpen?.(head);
    const params = { job: head.job, max_lines: STEP_LINES, budget_ms: STEP_MS };
    /** @returns {Promise<BatchStep>} */
    const ask1 = () => {
      const step = ask("batch_step", params);
      step.catch(() => {}); // awaited in turn below
      return step;
    };
    // AHEAD steps are always asked for, so the worker goes on while the page draws the
    // last one. A step under way is never abandoned (it would add rows in the worker that
    // the page never sees): Cancel stops asking, and the steps asked already still come.
    const asked = Array.from({ length: AHEAD }, ask1);
    /** @type {BatchProgress | null} */
    let last = null;
    for (;;) {
      const step = /** @type {BatchStep} */ (await asked.shift());
      const { rows, first_row, ...progress } = step;
      last = { ...progress, rows_done: first_row + rows.length };
      try {
        if (rows.length) onRows?.(rows, first_row);
        onProgress?.(last);
      } catch (err) {
        console.error(err);
      }
      if (step.done) return last;
      if (!stop.signal.aborted) asked.push(ask1());
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
    cancel,
    export: async (format, order = null, resolved = null, options = {}) =>
      ask("batch_export", { job: await job(), format, order, resolved, ...options }),
    close: async () => {
      cancel();
      const number = await job().catch(() => -1);
      if (number >= 0) await ask("batch_close", { job: number });
    },
  };
}

/**
 * Every row of a batch over `text`, in input order (`onProgress` as it goes).
 * @param {Ask} ask
 * @param {string} text
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
