// @ts-check
/**
 * The blocks of the Inspect panel, each drawn from the one reply of `inspect`: the
 * findings (with their repairs as buttons), the three URL levels with what each
 * character became and why, the other forms, and each character of the input.
 * @module views/inspect-blocks
 */
import { copyButton, el, sourceLine, table, valueRow } from "../ui/dom.js";
import { chars, spanWords, visibleText } from "../ui/text.js";
import { codePointsBlock } from "./characters.js";

/** @typedef {import("../engine/types.gen.js").Finding} Finding */
/** @typedef {import("../engine/types.gen.js").Change} Change */
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
 *   whichRa: HTMLButtonElement,
 *   codePoints: (text: string) => Promise<import("../engine/types.gen.js").CodePoint[]>,
 * }} Context
 */

/** The URL levels of a Presentation, in the order shown. */
const LEVELS = /** @type {const} */ ([
  ["recommended", "url", "explain_recommended", "Recommended: what to print and link (DOI Handbook)."],
  ["mandatory", "url_mandatory", "explain_mandatory", "Mandatory: only what must be encoded for a working link."],
  ["strict", "url_strict", "explain_strict", "Strict: the 2025 Handbook's encoding for proxy and API URLs."],
]);

/** What the one link says when the three levels are the same link. */
const SAME_BLURB = "The same link at every level of encoding (recommended, mandatory, strict).";

/**
 * The findings, in the reply's order (most severe first), each with where it points and
 * its repair, when it has one, as a button that puts the repaired text in the input.
 * @param {Context} cx
 * @param {Finding[]} findings
 * @param {string} [explained] the code of the finding the card's reading line says
 * @returns {HTMLElement}
 */
export function findingsBlock(cx, findings, explained = "") {
  // A finding the card's reading line already says (what was left out, and the other
  // reading) is a note here, not a problem to check.
  const problems = findings.filter((f) => f.severity !== "info" && f.code !== explained);
  const notes = findings.filter((f) => f.severity === "info" || f.code === explained);
  /** @type {(Node | null)[]} */
  const parts = [];
  if (problems.length) {
    parts.push(
      el("h3", { text: "Check before you copy" }),
      el(
        "ul",
        { class: "findings", id: "findings" },
        problems.map((f) => findingItem(cx, f)),
      ),
    );
  }
  if (notes.length) {
    parts.push(
      disclosure(
        cx,
        "notes",
        `${notes.length} note${notes.length > 1 ? "s" : ""} (information only, nothing to fix)`,
        el(
          "ul",
          { class: "findings", id: problems.length ? "findings-info" : "findings" },
          notes.map((f) => findingItem(cx, f, f.code === explained ? "info" : f.severity)),
        ),
      ),
    );
  }
  return el("section", { class: "block findings-block" }, parts);
}

/**
 * One finding: its plain message first, its repair as a button, then where it points
 * and the source it follows, small.
 * @param {Context} cx
 * @param {Finding} f
 * @param {string} [severity] the severity shown (a finding the card's line explains is a note)
 * @returns {HTMLElement}
 */
function findingItem(cx, f, severity = f.severity) {
  const n = chars(cx.text).length;
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
    { class: `finding sev-${severity}`, "data-code": f.code },
    el("span", { class: `badge sev-${severity}`, text: severity }),
    el(
      "span",
      { class: "finding-body" },
      el("span", { class: "finding-message", text: f.message }),
      f.repair ? repairButton(cx.use, f.repair) : null,
      el(
        "span",
        { class: "finding-meta" },
        pos.length ? el("span", { class: "finding-pos" }, ...pos) : null,
        sourceLine(f.source),
      ),
    ),
  );
}

/**
 * A disclosure whose open state is kept across keystrokes (under `key`).
 * @param {Context} cx
 * @param {string} key
 * @param {string} summary
 * @param {...(Node | null | (Node | null)[])} body
 * @returns {HTMLDetailsElement}
 */
function disclosure(cx, key, summary, ...body) {
  const details = /** @type {HTMLDetailsElement} */ (
    el("details", { class: `more more-${key}`, open: cx.open.has(key) }, el("summary", { text: summary }), ...body)
  );
  details.addEventListener("toggle", () => {
    if (details.open) cx.open.add(key);
    else cx.open.delete(key);
  });
  return details;
}

/**
 * Everything else, under one disclosure: the three URL levels and why each character
 * is encoded, the other forms, the links for web pages, and each character.
 * @param {Context} cx
 * @param {Presentation | null} forms null when the text is not read as a name
 * @param {number | null} count the name's length, or null when the input is not a name
 * @returns {HTMLElement}
 */
export function moreBlock(cx, forms, count) {
  const title = forms ? "Other forms and why each character is encoded" : "Each character of your input";
  return el(
    "section",
    { class: "block more-block" },
    disclosure(
      cx,
      "more",
      title,
      forms ? [linksBlock(cx, forms), ...formsBlocks(forms, cx.whichRa)] : [],
      codePointsBlock(cx, count),
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
  // The three levels are one link when they are the same: shown once, with why.
  const same = forms.url === forms.url_mandatory && forms.url === forms.url_strict;
  /** @type {readonly (readonly [string, "url" | "url_mandatory" | "url_strict", "explain_recommended" | "explain_mandatory" | "explain_strict", string])[]} */
  const levels = same ? [["recommended", "url", "explain_recommended", SAME_BLURB]] : LEVELS;
  return el(
    "section",
    { class: "block" },
    el("h3", { text: "Links" }),
    levels.map(([level, urlKey, explainKey, blurb]) => {
      const url = forms[urlKey];
      const changes = forms[explainKey];
      const label = same ? "Link" : `URL (${level})`;
      const key = `explain-${level}`;
      const summary = el(
        "summary",
        null,
        changes.length
          ? `Why is this encoded? ${changes.length} character${changes.length > 1 ? "s" : ""} changed`
          : "Why is this encoded? Nothing needed encoding",
      );
      const details = el("details", { class: "why", open: cx.open.has(key) }, summary);
      // The table is made when it is first opened (a click on the summary, by mouse or
      // keyboard, runs before the details opens), not on every keystroke while closed.
      let filled = false;
      const fill = () => {
        if (filled) return;
        filled = true;
        details.append(explainTable(changes, level));
      };
      if (cx.open.has(key)) fill();
      summary.addEventListener("click", fill);
      details.addEventListener("toggle", () => {
        if (details.open) {
          fill();
          cx.open.add(key);
        } else cx.open.delete(key);
      });
      return el(
        "div",
        { class: "url-block", id: same ? "links-same" : null },
        el(
          "div",
          { class: "url-head" },
          el("span", { class: "level-name", text: label }),
          el("span", { class: "level-blurb", text: blurb }),
        ),
        el(
          "div",
          { class: "url-line" },
          el("code", { class: "value", id: level === "recommended" ? null : `url-${level}`, text: url }),
          copyButton(() => url, label),
        ),
        details,
      );
    }),
  );
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
 * A value row with one line of plain explanation under its name.
 * @param {HTMLElement} row
 * @param {string} text
 * @returns {HTMLElement}
 */
function explained(row, text) {
  row.querySelector("dt")?.append(el("span", { class: "form-explained", text }));
  return row;
}

/**
 * The other forms, the page's one "Which RA?" button, and the links for web pages and
 * notes.
 * @param {Presentation} forms
 * @param {HTMLButtonElement} whichRa
 * @returns {HTMLElement[]}
 */
export function formsBlocks(forms, whichRa) {
  return [
    el(
      "section",
      { class: "block" },
      el("h3", { text: "Other forms" }),
      el(
        "dl",
        { class: "values" },
        explained(
          valueRow("URN link", forms.urn_url, { id: "result-urn" }),
          "The name written as a URN, a form some catalogues use.",
        ),
        explained(
          valueRow("doi: URI", forms.uri, { id: "result-uri" }),
          "The name as a web address of its own kind, for metadata and citations.",
        ),
        explained(
          valueRow("Handle API URL", forms.api_url, { id: "result-api" }),
          "Where programs read doi.org's record of the name.",
        ),
        forms.canonical_2003 === null
          ? null
          : explained(
              valueRow("Older doi: URI (2003 draft)", forms.canonical_2003, { id: "result-canonical" }),
              "The form an older draft used to compare names: upper case, escapes for the rest.",
            ),
        explained(
          el("div", { class: "row" }, el("dt", { text: "Registration agency" }), el("dd", null, whichRa)),
          "Asks doi.org which agency registered the name (Crossref, DataCite, ...): the one that holds what it names.",
        ),
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
