// @ts-check
/**
 * The Characters block of Inspect: each character of the input with its Unicode number,
 * name, kind and script, asked of Python when the person opens it.
 * @module views/characters
 */
import { el, table } from "../ui/dom.js";
import { codePointLabel, spanWords, visibleText } from "../ui/text.js";

/** @typedef {import("../engine/types.gen.js").CodePoint} CodePoint */
/** @typedef {import("./inspect-blocks.js").Context} Context */

/**
 * The code-point view, asked for when the person opens it.
 * @param {Context} cx
 * @param {number | null} count the name's length, or null when the input is not a name
 * @returns {HTMLElement}
 */
export function codePointsBlock(cx, count) {
  const key = "codepoints";
  const body = el("div", { class: "codepoints", id: "codepoints", hidden: true });
  const button = el("button", {
    type: "button",
    id: "codepoints-toggle",
    "aria-expanded": "false",
    "aria-controls": "codepoints",
    text: "Show each character",
  });
  const show = async () => {
    button.setAttribute("aria-expanded", "true");
    button.textContent = "Hide the characters";
    body.hidden = false;
    body.replaceChildren(el("p", { class: "pending", text: "Looking the characters up…" }));
    try {
      body.replaceChildren(codePointTable(await cx.codePoints(cx.text)));
    } catch (e) {
      body.replaceChildren(el("p", { class: "problem", text: e instanceof Error ? e.message : String(e) }));
    }
  };
  button.addEventListener("click", () => {
    if (button.getAttribute("aria-expanded") === "true") {
      cx.open.delete(key);
      button.setAttribute("aria-expanded", "false");
      button.textContent = "Show each character";
      body.hidden = true;
      body.replaceChildren();
    } else {
      cx.open.add(key);
      void show();
    }
  });
  if (cx.open.has(key)) void show();
  return el(
    "section",
    { class: "block" },
    el("h3", { text: "Characters" }),
    el("p", {
      class: "hint",
      text:
        count === null
          ? "See each character of your input with its Unicode number and name."
          : `The name has ${count} character${count === 1 ? "" : "s"}. See each one with its Unicode number, name and script.`,
    }),
    button,
    body,
  );
}

/**
 * @param {CodePoint[]} list
 * @returns {HTMLElement}
 */
function codePointTable(list) {
  return table({
    caption: "Each character",
    captionHidden: true,
    className: "cps",
    id: "codepoints-table",
    scroll: true,
    columns: ["#", "Character", "Code point", "Name", "Kind", "Script", "Looks like", "In your input"],
    rows: list.map((c, i) => [
      { class: "num", content: String(i + 1) },
      el("span", { class: "char" }, visibleText(c.char)),
      el("code", { text: c.code_point || codePointLabel(c.char) }),
      c.name,
      CATEGORIES[c.category] ? `${CATEGORIES[c.category]} (${c.category})` : c.category,
      c.script,
      c.looks_like ? { class: "looks", content: c.looks_like } : "",
      spanWords(c.input_start, c.input_end),
    ]),
    rowAttrs: (i) => (list[i].looks_like ? { class: "lookalike" } : null),
  });
}

/** Unicode general categories in words (display only). */
const CATEGORIES = /** @type {Record<string, string>} */ ({
  Lu: "uppercase letter",
  Ll: "lowercase letter",
  Lt: "titlecase letter",
  Lm: "modifier letter",
  Lo: "letter",
  Mn: "combining mark",
  Mc: "spacing mark",
  Me: "enclosing mark",
  Nd: "digit",
  Nl: "letter number",
  No: "number",
  Pc: "connector punctuation",
  Pd: "dash",
  Ps: "opening bracket",
  Pe: "closing bracket",
  Pi: "opening quote",
  Pf: "closing quote",
  Po: "punctuation",
  Sm: "math symbol",
  Sc: "currency symbol",
  Sk: "modifier symbol",
  So: "symbol",
  Zs: "space",
  Zl: "line separator",
  Zp: "paragraph separator",
  Cc: "control character",
  Cf: "invisible format character",
  Cs: "surrogate",
  Co: "private use",
  Cn: "unassigned",
});
