// @ts-check
/**
 * The input of a batch as a stream of bounded pieces of text, however large it is: a
 * string cut into slices, a file (a `Blob`) read with `Blob.stream()` through a
 * `TextDecoderStream` in the encoding Python said its first bytes ask for
 * (doiname.batch.lines.text_encoding: UTF-8 or UTF-16; a byte-order mark is dropped, as
 * the CLI does; bytes that are not text become U+FFFD), or any async iterable of strings. No piece is longer than
 * the bound asked for, and no piece ends between the two halves of a surrogate pair, so
 * Python receives whole characters. The worker then holds at most a few pieces at a time
 * (doiname.batch.BatchJob's back-pressure), whatever the input's size.
 * @module engine/pieces
 */

import { PIECE_CHARS } from "./limits.gen.js";

/**
 * Where the input is: `done` of `total` units read (bytes of a file, characters of a
 * string; `total` null when unknown).
 * @typedef {{done: number, total: number | null}} SourceProgress
 */

/**
 * A source of pieces: `next()` gives the next piece, or null at the end; `progress()`
 * how far it is; `cancel()` stops reading (a file is closed).
 * @typedef {{next: () => Promise<string | null>, progress: () => SourceProgress, cancel: () => void}} Pieces
 */

/**
 * Where to cut `text` at or before `at` so that no surrogate pair is split.
 * @param {string} text
 * @param {number} at
 * @returns {number}
 */
export function safeCut(text, at) {
  if (at <= 0 || at >= text.length) return Math.max(0, Math.min(at, text.length));
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  const splits = before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
  return splits ? at - 1 : at;
}

/**
 * Pieces of a string, each at most `size` characters (at least one character each).
 * @param {string} text
 * @param {number} [size]
 * @returns {Pieces}
 */
export function stringPieces(text, size = PIECE_CHARS) {
  let at = 0;
  return {
    next: async () => {
      if (at >= text.length) return null;
      let end = safeCut(text, Math.min(text.length, at + size));
      if (end <= at) end = Math.min(text.length, at + 2); // size 1 and a pair: keep the pair
      const piece = text.slice(at, end);
      at = end;
      return piece;
    },
    progress: () => ({ done: at, total: text.length }),
    cancel: () => {
      at = text.length;
    },
  };
}

/**
 * Pieces of any async iterable of strings (a decoded stream), regrouped so each is at
 * most `size` characters, never splitting a surrogate pair; `count()` says how far the
 * underlying source is.
 * @param {AsyncIterator<string>} source
 * @param {number} size
 * @param {() => SourceProgress} count
 * @param {() => void} stop
 * @returns {Pieces}
 */
export function regroup(source, size, count, stop) {
  let held = "";
  let ended = false;
  let stopped = false;
  return {
    async next() {
      while (!ended && held.length < size) {
        const { value, done } = await source.next();
        if (done) ended = true;
        else held += value;
      }
      if (stopped || !held) return null;
      let end = safeCut(held, Math.min(held.length, size));
      if (end === 0) end = Math.min(held.length, 2);
      const piece = held.slice(0, end);
      held = held.slice(end);
      return piece;
    },
    progress: count,
    cancel() {
      stopped = true;
      held = "";
      stop();
    },
  };
}

/**
 * Pieces of a file, read as a stream (never as one string), decoded in `encoding` (what
 * Python said of its first bytes; the byte-order mark dropped).
 * @param {Blob} blob
 * @param {number} [size]
 * @param {"utf-8" | "utf-16le" | "utf-16be"} [encoding]
 * @returns {Pieces}
 */
export function blobPieces(blob, size = PIECE_CHARS, encoding = "utf-8") {
  let bytes = 0;
  const counted = blob.stream().pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  const reader = counted.pipeThrough(new TextDecoderStream(encoding)).getReader();
  /** @type {AsyncIterator<string>} */
  const source = {
    next: async () => {
      const r = await reader.read();
      return r.done ? { done: true, value: undefined } : { done: false, value: r.value };
    },
  };
  return regroup(
    source,
    size,
    () => ({ done: bytes, total: blob.size }),
    () => {
      reader.cancel().catch(() => {});
    },
  );
}

/**
 * The pieces of a batch's input: a string, a file, or pieces already.
 * @param {string | Blob | Pieces} input
 * @param {number} [size]
 * @returns {Pieces}
 */
export function piecesOf(input, size = PIECE_CHARS) {
  if (typeof input === "string") return stringPieces(input, size);
  if (typeof Blob === "function" && input instanceof Blob) return blobPieces(input, size);
  return /** @type {Pieces} */ (input);
}
