// @ts-check
/**
 * The input mirror: a copy of the pasted text with the spans that findings point at
 * marked in place. Which finding a character shows when several cover it is the first
 * in the reply's order (Python lists findings most severe first); this module has no
 * order of its own. `mirrorRuns` is the plain part (tested with node --test),
 * `buildMirror` draws it.
 * @module views/mirror
 */
import { el } from "../ui/dom.js";
import { chars, codePointLabel, isInvisible, visibleText } from "../ui/text.js";

/** @typedef {import("../engine/types.gen.js").Finding} Finding */

/**
 * A span of the input a finding points at (code points), with what to say about it.
 * @typedef {{start: number, end: number, severity: string, message: string}} Mark
 */

/**
 * A piece of the mirror: text that one mark (the first that covers it) or none covers,
 * or a caret where a character is missing (an empty span).
 * @typedef {{kind: "text", text: string, start: number, end: number, severity: string | null,
 *   messages: string[]} | {kind: "caret", at: number, severity: string, messages: string[]}} Run
 */

/**
 * The marks of findings that point into the input and are not mere notes (`info`), in
 * the findings' order: one for each of a finding's places when it stands for several
 * (Python lists them), else its one span.
 * @param {Finding[]} findings
 * @returns {Mark[]}
 */
export function marksOf(findings) {
  /** @type {Mark[]} */
  const marks = [];
  for (const f of findings) {
    if (f.severity === "info" || f.input_start === null || f.input_end === null) continue;
    const spans = f.places?.length ? f.places : [[f.input_start, f.input_end]];
    for (const [start, end] of spans) marks.push({ start, end, severity: f.severity, message: f.message });
  }
  return marks;
}

/**
 * Split `text` into runs: each character takes the severity of the first mark covering
 * it and the messages of all of them; an empty span becomes a caret before its place.
 * @param {string} text
 * @param {Mark[]} marks in order of precedence
 * @returns {Run[]}
 */
export function mirrorRuns(text, marks) {
  const cps = chars(text);
  const n = cps.length;
  /** @type {{severity: string | null, messages: string[]}[]} */
  const at = cps.map(() => ({ severity: null, messages: [] }));
  /** @type {Map<number, Mark[]>} */
  const carets = new Map();
  for (const m of marks) {
    const start = Math.max(0, Math.min(m.start, n));
    const end = Math.max(start, Math.min(m.end, n));
    if (end === start) {
      carets.set(start, [...(carets.get(start) ?? []), m]);
      continue;
    }
    for (let i = start; i < end; i += 1) {
      const cell = at[i];
      cell.messages.push(m.message);
      cell.severity ??= m.severity;
    }
  }
  /** @type {Run[]} */
  const runs = [];
  /** @param {number} i */
  const caretAt = (i) => {
    const list = carets.get(i);
    if (list) runs.push({ kind: "caret", at: i, severity: list[0].severity, messages: list.map((m) => m.message) });
  };
  /** @param {number} i */
  const key = (i) => `${at[i].severity}\u0000${at[i].messages.join("\u0000")}`;
  let i = 0;
  while (i < n) {
    caretAt(i);
    let j = i + 1;
    while (j < n && !carets.has(j) && key(j) === key(i)) j += 1;
    runs.push({
      kind: "text",
      text: cps.slice(i, j).join(""),
      start: i,
      end: j,
      severity: at[i].severity,
      messages: at[i].messages,
    });
    i = j;
  }
  caretAt(n);
  return runs;
}

/**
 * The mirror's nodes: marked runs in `<mark>` (with their messages as a tooltip),
 * invisible characters as visible tags.
 * @param {string} text
 * @param {Mark[]} marks
 * @returns {Node[]}
 */
export function buildMirror(text, marks) {
  return mirrorRuns(text, marks).map((run) => {
    if (run.kind === "caret") {
      return el(
        "mark",
        {
          class: `caret sev-${run.severity}`,
          title: run.messages.join("\n"),
          "data-start": run.at,
          "data-end": run.at,
          "aria-label": `missing character at position ${run.at + 1}`,
        },
        "‸",
      );
    }
    if (!run.severity) return visibleText(run.text);
    const only = chars(run.text);
    if (only.length === 1 && only[0] !== " " && isInvisible(only[0])) {
      // One invisible character: its visible tag is the mark (one element, not two, for
      // each of a finding's places).
      const label = codePointLabel(only[0]);
      return el(
        "mark",
        {
          class: `cp-tag sev-${run.severity}`,
          title: [`${label} (invisible)`, ...run.messages].join("\n"),
          "data-start": run.start,
          "data-end": run.end,
        },
        label,
      );
    }
    return el(
      "mark",
      { class: `sev-${run.severity}`, title: run.messages.join("\n"), "data-start": run.start, "data-end": run.end },
      visibleText(run.text),
    );
  });
}
