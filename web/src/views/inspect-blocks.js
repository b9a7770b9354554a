// @ts-check
/**
 * The blocks of the Inspect panel, each drawn from the one reply of `inspect`: the
 * findings (with their repairs as buttons), the three URL levels with what each
 * character became and why, the other forms, and each character of the input.
 * @module views/inspect-blocks
 */
import { copyButton, el, table, valueRow } from "../ui/dom.js";
import { chars, codePointLabel, spanWords, visibleText } from "../ui/text.js";

/** @typedef {import("../engine/types.gen.js").Finding} Finding */
/** @typedef {import("../engine/types.gen.js").Change} Change */
/** @typedef {import("../engine/types.gen.js").CodePoint} CodePoint */
/** @typedef {import("../engine/types.gen.js").Presentation} Presentation */

/**
 * What the blocks need from the view: the text shown, a "Show in input" button for a
 * span, putting a repaired text into the input, the open/closed state of the
 * disclosures (kept across keystrokes), and the character descriptions (asked when the
 * person opens them).
 * @typedef {{
 *   text: string,
 *   select: (start: number, end: number) => HTMLButtonElement,
 *   use: (text: string) => void,
 *   open: Set<string>,
 *   codePoints: (text: string) => Promise<CodePoint[]>,
 * }} Context
 */

/** The URL levels of a Presentation, in the order shown. */
const LEVELS = /** @type {const} */ ([
  ["recommended", "url", "explain_recommended", "Recommended: what to print and link (DOI Handbook)."],
  ["mandatory", "url_mandatory", "explain_mandatory", "Mandatory: only what must be encoded for a working link."],
  ["strict", "url_strict", "explain_strict", "Strict: the 2025 Handbook's encoding for proxy and API URLs."],
]);

/**
 * The findings, in the reply's order (most severe first), each with where it points and
 * its repair, when it has one, as a button that puts the repaired text in the input.
 * @param {Context} cx
 * @param {Finding[]} findings
 * @returns {HTMLElement}
 */
export function findingsBlock(cx, findings) {
  const n = chars(cx.text).length;
  return el(
    "section",
    { class: "block findings-block" },
    el("h3", { text: "Checks" }),
    el(
      "ul",
      { class: "findings", id: "findings" },
      findings.map((f) => {
        /** @type {(Node | string)[]} */
        const pos = [];
        if (f.input_start !== null && f.input_end !== null) {
          const whole = f.input_start === 0 && f.input_end >= n;
          pos.push(whole ? "the whole input" : `${spanWords(f.input_start, f.input_end)} of your input`);
          if (!whole) pos.push(" ", cx.select(f.input_start, f.input_end));
        } else if (f.in_name) {
          pos.push(`${spanWords(f.start, f.end)} of the name`);
        }
        return el(
          "li",
          { class: `finding sev-${f.severity}`, "data-code": f.code },
          el("span", { class: `badge sev-${f.severity}`, text: f.severity }),
          el(
            "span",
            { class: "finding-body" },
            el("span", { class: "finding-message", text: f.message }),
            f.repair ? repairButton(cx.use, f.repair) : null,
            el(
              "span",
              { class: "finding-meta" },
              pos.length ? el("span", { class: "finding-pos" }, ...pos) : null,
              f.source ? el("span", { class: "finding-source", text: `Source: ${f.source}` }) : null,
            ),
          ),
        );
      }),
    ),
  );
}

/**
 * "Use … instead": puts the repaired text into the input (never applied silently).
 * @param {(text: string) => void} use
 * @param {string} repair
 * @returns {HTMLElement}
 */
export function repairButton(use, repair) {
  return el(
    "span",
    { class: "repair" },
    el(
      "button",
      { type: "button", class: "use-repair", "data-repair": repair, onclick: () => use(repair) },
      "Use ",
      el("code", null, visibleText(repair)),
      " instead",
    ),
  );
}

/**
 * The three URL levels, each with a copy button and its "why is this encoded" table.
 * @param {Context} cx
 * @param {Presentation} forms
 * @returns {HTMLElement}
 */
export function linksBlock(cx, forms) {
  return el(
    "section",
    { class: "block" },
    el("h3", { text: "Links" }),
    LEVELS.map(([level, urlKey, explainKey, blurb]) => {
      const url = forms[urlKey];
      const changes = forms[explainKey];
      const label = `URL (${level})`;
      const key = `explain-${level}`;
      const details = el(
        "details",
        { class: "why", open: cx.open.has(key) },
        el(
          "summary",
          null,
          changes.length
            ? `Why is this encoded? ${changes.length} character${changes.length > 1 ? "s" : ""} changed`
            : "Why is this encoded? Nothing needed encoding",
        ),
        explainTable(changes, level),
      );
      details.addEventListener("toggle", () => {
        if (details.open) cx.open.add(key);
        else cx.open.delete(key);
      });
      return el(
        "div",
        { class: "url-block" },
        el(
          "div",
          { class: "url-head" },
          el("span", { class: "level-name", text: label }),
          el("span", { class: "level-blurb", text: blurb }),
        ),
        el(
          "div",
          { class: "url-line" },
          el("code", { class: "value", id: `url-${level}`, text: url }),
          copyButton(() => url, label),
          level === "recommended" ? openLink(url) : null,
        ),
        details,
      );
    }),
  );
}

/**
 * "Open" for the resolver link Python made (always its http(s) resolver URL).
 * @param {string} url
 * @returns {HTMLAnchorElement}
 */
function openLink(url) {
  return el("a", {
    class: "button-link",
    href: url,
    rel: "noopener noreferrer",
    target: "_blank",
    "aria-label": "Open the link at the resolver (new tab)",
    text: "Open",
  });
}

/**
 * The "why is this encoded" table for one level.
 * @param {Change[]} changes
 * @param {string} level
 * @returns {HTMLElement}
 */
function explainTable(changes, level) {
  if (!changes.length) {
    return el("p", { class: "hint", text: `Every character of the name is kept as it is in the ${level} URL.` });
  }
  return table({
    caption: `Characters encoded in the ${level} URL`,
    captionHidden: true,
    className: "explain",
    columns: ["Character", "Position", "Encoded as", "Rule", "Source"],
    rows: changes.map((c) => [
      [el("span", { class: "char" }, visibleText(c.char)), " ", el("span", { class: "cp", text: c.code_point })],
      `${c.start + 1}`,
      el("code", { text: c.encoded }),
      c.rule,
      { class: "source", content: c.source },
    ]),
  });
}

/**
 * The other forms and the links for web pages and notes.
 * @param {Presentation} forms
 * @returns {HTMLElement[]}
 */
export function formsBlocks(forms) {
  return [
    el(
      "section",
      { class: "block" },
      el("h3", { text: "Other forms" }),
      el(
        "dl",
        { class: "values" },
        valueRow("URN link", forms.urn_url, { id: "result-urn" }),
        valueRow("doi: URI", forms.uri, { id: "result-uri" }),
        valueRow("Handle API URL", forms.api_url, { id: "result-api" }),
        forms.canonical_2003 === null
          ? null
          : valueRow("2003 canonical doi: URI", forms.canonical_2003, { id: "result-canonical" }),
      ),
    ),
    el(
      "section",
      { class: "block" },
      el("h3", { text: "For web pages and notes" }),
      el(
        "dl",
        { class: "values" },
        valueRow("HTML link", forms.html, { id: "result-html" }),
        valueRow("Markdown link", forms.markdown, { id: "result-markdown" }),
      ),
    ),
  ];
}

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
