// @ts-check
/**
 * A paste too long for a one-name box (Inspect's input, the widget's box). A text area
 * that sizes itself to its content lays out every character of what it holds: a
 * 1,000,000-character paste would block the page for seconds before anything could say
 * it is too long. So a paste over `limit` characters is not put into the box; `onLong`
 * gets it instead (the view asks Python, whose answer is the length message), and the
 * box keeps what it had. Display only; the bound is doiname.limits' INSPECT_MAX_CHARS.
 * @module ui/long-paste
 */

/**
 * @param {HTMLTextAreaElement | HTMLInputElement} box
 * @param {number} limit
 * @param {(text: string) => void} onLong
 */
export function guardLongPaste(box, limit, onLong) {
  box.addEventListener("paste", (ev) => {
    const text = /** @type {ClipboardEvent} */ (ev).clipboardData?.getData("text/plain") ?? "";
    if (text.length <= limit) return;
    ev.preventDefault();
    onLong(text);
  });
}
