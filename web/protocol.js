// @ts-check
/**
 * The protocol between the page (doiname-client.js) and the DOI engine's worker
 * (worker.js). Types only; this module exports nothing at run time.
 *
 * Page to worker:
 * - one `init` message, a plain object `{type: "init", config: WorkerConfig}` (it may
 *   carry bytes, so it is structured-cloned, not JSON);
 * - then requests, each as JSON text (`Request`): a call of a public function of the
 *   `doiname` package with its arguments as JSON text (`doiname.bridge.call_json`), the
 *   reading of an answer from doi.org (`read_answer_json`), or `info`.
 *
 * Worker to page, always JSON text:
 * - `{"type": "status", "phase": BootPhase, "message": string}` during boot;
 * - `{"type": "reply", "id": number, "reply": Reply}`, one per request, in order, except
 *   that a `batch` is answered when it ends, after the requests sent meanwhile;
 * - `{"type": "progress", "id": number, "job": number, "step": null | Reply}` while a
 *   batch runs: first with `step: null` (the job is open), then once per step, whose
 *   `ok` is a `BatchStep`.
 *
 * No Python object ever crosses: the bridge takes and returns JSON text.
 * @module protocol
 */

/**
 * Boot phases, in order; `error` ends a failed boot.
 * @typedef {"starting" | "runtime" | "packages" | "core" | "ready" | "error"} BootPhase
 */

/**
 * @typedef {{phase: BootPhase, message: string}} BootStatus
 */

/**
 * What the worker needs to boot. URLs are absolute.
 * @typedef {{
 *   pyodideModuleURL: string,
 *   indexURL: string,
 *   packageBaseUrl?: string,
 *   lockFileURL?: string,
 *   lockFileContents?: string,
 *   coreWheelURL: string,
 *   coreWheelName: string,
 *   coreIntegrity?: string,
 *   coreWheelBytes?: ArrayBuffer,
 *   pyodideVersion?: string,
 *   wasmSha256?: string,
 *   snapshotURL?: string,
 *   snapshotDataURL?: string,
 *   snapshotFilesURL?: string,
 *   snapshotDataIntegrity?: string,
 *   snapshotFilesIntegrity?: string,
 * }} WorkerConfig
 *
 * `snapshotURL` (the site only) is the build-time memory snapshot's `snapshot.json`, with
 * the snapshot (`snapshotDataURL`, gzip) and the files it needs (`snapshotFilesURL`), each
 * fetched with its integrity value when the config has one (`snapshot*Integrity`); the
 * worker uses it when that JSON matches `pyodideVersion`, `wasmSha256` and `coreIntegrity`,
 * and boots the normal way otherwise (and always when there is no `snapshotURL`).
 */

/**
 * A request (sent as JSON text).
 * @typedef {(
 *   {id: number, type: "call", name: string, args: string} |
 *   {id: number, type: "read", kind: AnswerKind, status: number | null, body: string | null,
 *    failure: TransportFailure | null} |
 *   {id: number, type: "info"} |
 *   {id: number, type: "batch", text: string} |
 *   {id: number, type: "batch-cancel", target: number} |
 *   {id: number, type: "batch-export", job: number, format: "csv" | "json" | "jsonl",
 *    order: number[] | null, resolved: Record<string, {outcome: string, url: string | null}> | null} |
 *   {id: number, type: "batch-close", job: number}
 * ) & {[key: string]: any}} Request
 */

/**
 * Counts of a batch (doiname.batch.BatchSummary).
 * @typedef {{lines: number, dois: number, unique: number, duplicates: number, errors: number,
 *   warnings: number, no_doi: number}} BatchSummary
 */

/**
 * One row of a batch (doiname.batch.BatchRow.as_dict).
 * @typedef {{line: number, input: string, doi: string | null, url: string | null,
 *   uri: string | null, status: "ok" | "warning" | "error" | "no-doi" | "duplicate",
 *   duplicate_of: number | null, findings: any[], start: number | null, end: number | null,
 *   text: string | null, form: string | null}} BatchRow
 */

/**
 * One step of a batch (doiname.batch.BatchJob.step): the rows it made, from row number
 * `first_row` on, and how far the batch is.
 * @typedef {{done: boolean, lines_done: number, lines_total: number, chars_done: number,
 *   chars_total: number, summary: BatchSummary, first_row: number, rows: BatchRow[]}} BatchStep
 */

/**
 * How an answer from doi.org is read: `handle` (read_handle_response), `which-ra`
 * (read_which_ra_response), `alias` (a shortDOI's handle record plus `target`).
 * @typedef {"handle" | "which-ra" | "alias"} AnswerKind
 */

/**
 * Why a request to doi.org got no answer (the core's transport_outcome).
 * @typedef {"network" | "timeout" | "cancelled"} TransportFailure
 */

/**
 * The error of a rejected call: a DoiError's fields, or one of the bridge's codes
 * (`unknown-function`, `bad-arguments`, `internal`, `not-started`, `bad-request`).
 * @typedef {{code: string, message: string, position: number | null, end: number | null}} ErrorJson
 */

/**
 * @typedef {{ok: any} | {error: ErrorJson}} Reply
 */

export {};
