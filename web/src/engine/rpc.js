// @ts-check
/**
 * One request/reply layer for every boundary of doiname: the page and its worker, the
 * widget's host page and its frame, the frame and its worker. One error type
 * (`DoinameError`: code, message, position, end) whatever side failed.
 *
 * Each request has a deadline that fits its kind (the caller gives it: an inspection
 * takes milliseconds, a batch step seconds, the boot up to two minutes) and may be
 * cancelled with an `AbortSignal`; either way the request fails at once with code
 * `timeout` or `cancelled`, and the other side is told (`{cancel}`), so a handler that
 * is still working can stop. A reply that cannot be read (JSON text that does not parse,
 * an envelope with neither `ok` nor `error`) fails its request with code `bad-reply`:
 * nothing is dropped. `fail(error)` fails every request under way and every later one:
 * the seam where a stopped worker is detected (and, later, replaced).
 *
 * Frames on the wire (plain objects, structured-cloned), all tagged `rpc: "doiname"`:
 * - request `{id, method, params}`; cancel `{id, cancel: true}`;
 * - reply `{id, ok}`, `{id, error}` or `{id, json}` (the JSON text of an `{"ok": ...}` or
 *   `{"error": ...}` envelope, as Python wrote it: read once, by the side that asked);
 * - event `{event, data}` (boot progress, a frame saying it is there).
 *
 * Why not Comlink or rpc-anywhere: neither has per-call deadlines or cancellation
 * (rpc-anywhere has one time limit for all requests, Comlink none), neither carries
 * Python's reply as JSON text to be parsed once on the asking side, and the widget needs
 * origin checks on both ends of a cross-origin window channel. This module is those
 * three things and nothing else.
 * @module engine/rpc
 */

/** @typedef {import("./types.gen.js").ErrorJson} ErrorJson */

/** The tag of every frame of this protocol (other messages on a channel are ignored). */
export const TAG = "doiname";

/**
 * @typedef {{rpc: string, id: number, method: string, params: unknown}} RequestFrame
 * @typedef {{rpc: string, id: number, cancel: true}} CancelFrame
 * @typedef {{rpc: string, id: number, ok?: unknown, error?: ErrorJson, json?: string}} ReplyFrame
 * @typedef {{rpc: string, event: string, data: unknown}} EventFrame
 * @typedef {RequestFrame | CancelFrame | ReplyFrame | EventFrame} Frame
 */

/**
 * Two ends of a channel: `post` sends a frame to the other side; `listen` calls
 * `onFrame` for each message that arrives (with a function that answers that message's
 * sender) and `onBroken` for a message that could not be deserialized; it returns a
 * function that stops listening.
 * @typedef {{
 *   post: (frame: Frame, transfer?: Transferable[]) => void,
 *   listen: (onFrame: (data: unknown, reply: (frame: Frame) => void) => void,
 *     onBroken?: () => void) => () => void,
 * }} Endpoint
 */

/** An error of doiname, from whichever side: Python, the worker, a frame, a deadline. */
export class DoinameError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number | null} [position] code point where the problem is, in the text it is about
   * @param {number | null} [end]
   */
  constructor(code, message, position = null, end = null) {
    super(message);
    this.name = "DoinameError";
    this.code = code;
    this.position = position;
    this.end = end;
  }

  /**
   * The error for anything thrown or sent as an error (an `ErrorJson`, an `Error`).
   * @param {unknown} value
   * @param {string} [fallbackCode]
   * @returns {DoinameError}
   */
  static from(value, fallbackCode = "internal") {
    if (value instanceof DoinameError) return value;
    const e = /** @type {Partial<ErrorJson> | null} */ (value && typeof value === "object" ? value : null);
    const message = e && typeof e.message === "string" && e.message ? e.message : String(value ?? "");
    return new DoinameError(
      e && typeof e.code === "string" ? e.code : fallbackCode,
      message || "The DOI engine failed.",
      e && typeof e.position === "number" ? e.position : null,
      e && typeof e.end === "number" ? e.end : null,
    );
  }

  /** @returns {ErrorJson} */
  toJSON() {
    return { code: this.code, message: this.message, position: this.position, end: this.end };
  }
}

/** A reply already written as JSON text (Python's envelope), sent as it is. */
export class JsonText {
  /** @param {string} text */
  constructor(text) {
    this.text = text;
  }
}

/**
 * Whether `data` is a frame of this protocol.
 * @param {unknown} data
 * @returns {data is Frame}
 */
function isFrame(data) {
  return !!data && typeof data === "object" && /** @type {{rpc?: unknown}} */ (data).rpc === TAG;
}

/**
 * The value of a reply frame, or the error it stands for.
 * @param {ReplyFrame} frame
 * @returns {{ok: true, value: unknown} | {ok: false, error: DoinameError}}
 */
export function readReply(frame) {
  /** @type {unknown} */
  let envelope = frame;
  if (typeof frame.json === "string") {
    try {
      envelope = JSON.parse(frame.json);
    } catch (err) {
      return { ok: false, error: badReply(`it is not JSON (${err instanceof Error ? err.message : err})`) };
    }
  }
  if (envelope && typeof envelope === "object") {
    const env = /** @type {{ok?: unknown, error?: unknown}} */ (envelope);
    if ("ok" in env) return { ok: true, value: env.ok };
    if (env.error && typeof env.error === "object") return { ok: false, error: DoinameError.from(env.error) };
  }
  return { ok: false, error: badReply("it has neither a result nor an error") };
}

/**
 * @param {string} why
 * @returns {DoinameError}
 */
function badReply(why) {
  return new DoinameError("bad-reply", `The DOI engine's answer could not be read: ${why}.`);
}

/**
 * @typedef {{timeoutMs: number, signal?: AbortSignal, transfer?: Transferable[], label?: string}} RequestOptions
 *
 * `timeoutMs`: the deadline (0: none); `label` names the request in the timeout's message.
 */

/**
 * The asking side of a channel. `onBadReply(error)` is told of every reply that could
 * not be read (after its request failed with it): the client takes such a worker for
 * broken and replaces it.
 * @param {Endpoint} endpoint
 * @param {{onBadReply?: (error: DoinameError) => void}} [options]
 */
export function connect(endpoint, options = {}) {
  /** @type {Map<number, {resolve: (v: any) => void, reject: (e: DoinameError) => void}>} */
  const pending = new Map();
  /** @type {Map<string, Set<(data: any) => void>>} */
  const listeners = new Map();
  /** @type {DoinameError | null} */
  let dead = null;
  let nextId = 1;

  const stop = endpoint.listen(
    (data) => {
      if (!isFrame(data)) return;
      if ("event" in data) {
        for (const cb of listeners.get(data.event) ?? []) {
          try {
            cb(data.data);
          } catch (err) {
            console.error(err);
          }
        }
        return;
      }
      const p = pending.get(data.id);
      if (!p || "method" in data || "cancel" in data) return; // late (timed out, cancelled)
      const read = readReply(/** @type {ReplyFrame} */ (data));
      if (read.ok) p.resolve(read.value);
      else p.reject(read.error);
      if (!read.ok && read.error.code === "bad-reply") options.onBadReply?.(read.error);
    },
    () => {
      // A message that could not be deserialized: which request it answered is unknown,
      // so every request under way fails with that reason rather than wait for its deadline.
      const error = badReply("the browser could not deserialize it");
      for (const p of pending.values()) p.reject(error);
      options.onBadReply?.(error);
    },
  );

  return {
    /**
     * Ask the other side; resolves with the reply's value, rejects with a DoinameError.
     * @param {string} method
     * @param {unknown} params
     * @param {RequestOptions} options
     * @returns {Promise<any>}
     */
    request(method, params, options) {
      if (dead) return Promise.reject(dead);
      const { timeoutMs, signal, transfer } = options;
      if (signal?.aborted) return Promise.reject(new DoinameError("cancelled", "Cancelled."));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        /** @type {ReturnType<typeof setTimeout> | undefined} */
        let timer;
        const settle = () => {
          pending.delete(id);
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
        };
        /** @param {DoinameError} error */
        const giveUp = (error) => {
          settle();
          reject(error);
          try {
            endpoint.post({ rpc: TAG, id, cancel: true });
          } catch {
            // the channel is gone: nothing to tell
          }
        };
        const onAbort = () => giveUp(new DoinameError("cancelled", "Cancelled."));
        pending.set(id, {
          resolve: (v) => {
            settle();
            resolve(v);
          },
          reject: (e) => {
            settle();
            reject(e);
          },
        });
        if (timeoutMs > 0) {
          timer = setTimeout(() => {
            const what = options.label ?? method;
            giveUp(
              new DoinameError("timeout", `The DOI engine did not answer within ${timeoutMs / 1000} s (${what}).`),
            );
          }, timeoutMs);
        }
        signal?.addEventListener("abort", onAbort, { once: true });
        try {
          endpoint.post({ rpc: TAG, id, method, params }, transfer);
        } catch (err) {
          settle();
          reject(
            new DoinameError(
              "bad-arguments",
              `The request could not be sent: ${err instanceof Error ? err.message : err}`,
            ),
          );
        }
      });
    },

    /**
     * Listen to the other side's events named `event`; returns a function that stops.
     * @param {string} event
     * @param {(data: any) => void} cb
     * @returns {() => void}
     */
    on(event, cb) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(cb);
      return () => set.delete(cb);
    },

    /**
     * The other side is gone: fail every request under way, and every later one, with
     * `error`. Replacing a stopped worker is a new `connect` on the new worker.
     * @param {DoinameError} error
     */
    fail(error) {
      if (dead) return;
      dead = error;
      for (const p of pending.values()) p.reject(error);
      pending.clear();
      stop();
    },

    /** How many requests wait for their reply. */
    get pending() {
      return pending.size;
    },
  };
}

/** @typedef {ReturnType<typeof connect>} Requester */

/**
 * What a handler may return: a value, JSON text to send as it is, or a promise of either.
 * @typedef {unknown} HandlerResult
 */

/**
 * The answering side of a channel: `handle(method, params, {signal})` answers each
 * request (a thrown error or rejection is sent as the request's error); a `{cancel}`
 * from the asker aborts that request's `signal`. Requests are answered in the order they
 * came when their handlers answer at once.
 * @param {Endpoint} endpoint
 * @param {(method: string, params: any, context: {signal: AbortSignal}) => HandlerResult} handle
 */
export function serve(endpoint, handle) {
  /** @type {Map<number, AbortController>} */
  const working = new Map();
  const stop = endpoint.listen((data, reply) => {
    if (!isFrame(data) || !("id" in data)) return;
    if ("cancel" in data) {
      working.get(data.id)?.abort();
      return;
    }
    if (!("method" in data)) return;
    const { id, method } = data;
    /** @param {unknown} result */
    const answer = (result) => {
      working.delete(id);
      reply(result instanceof JsonText ? { rpc: TAG, id, json: result.text } : { rpc: TAG, id, ok: result });
    };
    /** @param {unknown} err */
    const refuse = (err) => {
      working.delete(id);
      const error = DoinameError.from(err);
      if (error.code === "internal") console.error(`doiname: ${method} failed`, err);
      reply({ rpc: TAG, id, error: error.toJSON() });
    };
    const controller = new AbortController();
    working.set(id, controller);
    let result;
    try {
      result = handle(method, data.params, { signal: controller.signal });
    } catch (err) {
      refuse(err);
      return;
    }
    if (result instanceof Promise) result.then(answer, refuse);
    else answer(result);
  });
  return {
    /**
     * Tell the other side something (boot progress, "I am here").
     * @param {string} event
     * @param {unknown} data
     */
    emit(event, data) {
      endpoint.post({ rpc: TAG, event, data });
    },
    close: stop,
  };
}
