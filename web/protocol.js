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
 * - `{"type": "reply", "id": number, "reply": Reply}`, one per request, in order.
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
 * }} WorkerConfig
 */

/**
 * A request (sent as JSON text).
 * @typedef {(
 *   {id: number, type: "call", name: string, args: string} |
 *   {id: number, type: "read", kind: AnswerKind, status: number | null, body: string | null,
 *    failure: TransportFailure | null} |
 *   {id: number, type: "info"}
 * ) & {[key: string]: any}} Request
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
