// @ts-check
/**
 * Large pastes into Batch's box. A text area given 100,000 lines blocks the page for
 * seconds (layout of the whole text), so a paste longer than BATCH_PASTE_STREAM_CHARS is
 * not put into the box: the text is taken from the clipboard once, the box shows its
 * beginning, a note says how much was pasted, and the batch starts at once, the text
 * handed to the worker in pieces (engine/pieces.js) and the rows drawn as they come.
 * "Find DOIs" reads the whole paste again while the box still shows that beginning; once
 * the box is edited, the box is what is read.
 * @module views/batch/paste
 */
import { BATCH_PASTE_STREAM_CHARS } from "../../engine/limits.gen.js";
import { safeCut } from "../../engine/pieces.js";
import { fmt } from "./table.js";

/** Characters of a large paste shown in the box (cut at a line break when there is one). */
const PREVIEW_CHARS = 4000;

/**
 * What a large paste left: its text, and what the box shows of it.
 * @typedef {{text: string, shown: string}} HeldPaste
 */

/**
 * The beginning of `text` shown in the box.
 * @param {string} text
 * @returns {string}
 */
export function previewOf(text) {
  const head = text.slice(0, safeCut(text, PREVIEW_CHARS));
  const nl = head.lastIndexOf("\n");
  return nl > 0 ? head.slice(0, nl + 1) : head;
}

/**
 * How a held paste is named in the view's messages.
 * @param {HeldPaste} held
 * @returns {string}
 */
function sourceOf(held) {
  return `the pasted text (${fmt(held.text.length)} characters; the box shows the first ${fmt(held.shown.length)})`;
}

/**
 * Take large pastes into `input` as described above; `start(text, source)` runs a batch.
 * Returns `take()`: the text a run reads now (the held paste while the box still shows
 * its beginning, else the box), and `drop()` to forget the held paste.
 * @param {HTMLTextAreaElement} input
 * @param {(text: string, source: string) => void} start
 */
export function wirePaste(input, start) {
  /** @type {HeldPaste | null} */
  let held = null;
  input.addEventListener("paste", (ev) => {
    const text = ev.clipboardData?.getData("text/plain") ?? "";
    if (text.length <= BATCH_PASTE_STREAM_CHARS) return; // the box takes it as usual
    ev.preventDefault();
    const shown = previewOf(text);
    input.value = shown;
    held = { text, shown };
    start(text, sourceOf(held));
  });
  return {
    /** @returns {{text: string, source: string}} */
    take() {
      if (held && input.value === held.shown) {
        return { text: held.text, source: sourceOf(held) };
      }
      held = null;
      return { text: input.value, source: "the text above" };
    },
    drop() {
      held = null;
    },
  };
}
