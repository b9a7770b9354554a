// @ts-check
/**
 * A batch in the worker (doiname.batch.BatchJob), driven from the page: open the job,
 * then ask for one step after another until a step says `done`. Each step is its own
 * request, with a deadline of seconds; requests of other views (a keystroke in Inspect)
 * are answered between two steps; cancelling is not asking for the next one.
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
 * rows done so far); `resolved` (row number to `{outcome, url}`) adds the columns
 * `resolution` and `resolves_to`, also to the duplicates.
 * @typedef {{
 *   finished: Promise<BatchProgress>,
 *   cancel: () => void,
 *   export: (format: "csv" | "json" | "jsonl", order?: number[] | null,
 *     resolved?: Record<number, Resolution> | null) => Promise<string>,
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
    /** @type {BatchProgress | null} */
    let last = null;
    for (;;) {
      if (stop.signal.aborted) throw new DoinameError("cancelled", "The batch was cancelled.");
      // Not cancelled midway: a step the worker has begun ends, and its rows are shown, so
      // the rows on the page are always those the job holds (and exports).
      /** @type {BatchStep} */
      const step = await ask("batch_step", { job: head.job, max_lines: STEP_LINES, budget_ms: STEP_MS });
      const { rows, first_row, ...progress } = step;
      last = { ...progress, rows_done: first_row + rows.length };
      try {
        if (rows.length) onRows?.(rows, first_row);
        onProgress?.(last);
      } catch (err) {
        console.error(err);
      }
      if (step.done) return last;
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
    export: async (format, order = null, resolved = null) =>
      ask("batch_export", { job: await job(), format, order, resolved }),
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
