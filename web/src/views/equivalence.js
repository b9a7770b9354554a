// @ts-check
/**
 * The equivalence panel: two inputs, one request (`doiname.compare`: each side read as
 * Inspect reads it, then 003 ch. 3), the verdict and its explanation, the first
 * difference marked in both names, or which side holds no DOI name and why.
 * @module views/equivalence
 */
import { el, replace, sourceLine } from "../ui/dom.js";
import { latestOnly } from "../ui/schedule.js";
import { chars, spanWords, visibleText } from "../ui/text.js";

/** @typedef {import("../engine/client.js").Doiname} Doiname */
/** @typedef {import("../engine/types.gen.js").Comparison} Comparison */
/** @typedef {import("../engine/types.gen.js").Explanation} Explanation */

export class EquivalenceView {
  /**
   * @param {Doiname} doiname
   * @param {{a: HTMLInputElement, b: HTMLInputElement, output: HTMLElement}} parts
   */
  constructor(doiname, parts) {
    this.doiname = doiname;
    this.parts = parts;
    this.update = latestOnly(/** @param {[string, string]} pair */ (pair, isStale) => this.compute(pair, isStale));
  }

  /**
   * @param {[string, string]} pair
   * @param {() => boolean} isStale
   */
  async compute([a, b], isStale) {
    const out = this.parts.output;
    if (!a.trim() || !b.trim()) {
      replace(out, a.trim() || b.trim() ? el("p", { class: "hint", text: "Give both names to compare them." }) : null);
      return;
    }
    /** @type {Comparison} */
    let got;
    try {
      got = await this.doiname.compare(a, b);
    } catch (e) {
      if (isStale()) return;
      replace(out, cannot("Cannot compare", [el("p", { text: e instanceof Error ? e.message : String(e) })]));
      return;
    }
    if (isStale()) return;
    if (got.explanation) {
      replace(out, verdict(got.explanation, got));
      return;
    }
    /** @type {Node[]} */
    const items = [];
    for (const [label, side] of /** @type {const} */ ([
      ["First name", got.a],
      ["Second name", got.b],
    ])) {
      const error = side.findings.find((f) => f.severity === "error");
      if (!side.doi)
        items.push(el("li", null, el("strong", { text: `${label}: ` }), side.message, sourceLine(error?.source)));
    }
    const why = items.length ? [el("ul", null, items)] : [el("p", { text: got.message }), sourceLine(got.source, "p")];
    replace(out, cannot(got.title, why));
  }
}

/**
 * No verdict (`title`: Python's "Cannot compare"), and why.
 * @param {string} title
 * @param {(Node | null)[]} why
 * @returns {HTMLElement}
 */
function cannot(title, why) {
  return el(
    "div",
    { class: "verdict verdict-error", id: "eq-verdict", "data-verdict": "error" },
    el("p", { class: "verdict-title", text: title }),
    why,
  );
}

/**
 * @param {Explanation} ex
 * @param {Comparison} got
 * @returns {HTMLElement}
 */
function verdict(ex, got) {
  const pos = ex.position;
  /** @type {(Node | null)[]} */
  const notes = [];
  for (const [label, side] of /** @type {const} */ ([
    ["First", got.a],
    ["Second", got.b],
  ])) {
    if (side.how && side.how !== "exact") notes.push(el("li", null, `${label}: ${side.message}`));
  }
  return el(
    "div",
    { class: `verdict ${ex.equivalent ? "verdict-yes" : "verdict-no"}`, id: "eq-verdict", "data-verdict": ex.verdict },
    el(
      "p",
      { class: "verdict-title" },
      el("span", { class: "verdict-icon", "aria-hidden": "true", text: ex.equivalent ? "=" : "≠" }),
      got.title,
    ),
    el("p", { class: "verdict-message", id: "eq-message", text: ex.message }),
    sourceLine(ex.source, "p"),
    el(
      "dl",
      { class: "values eq-names" },
      el(
        "div",
        { class: "row" },
        el("dt", { text: "First, as a DOI name" }),
        el("dd", null, markedName(ex.a, pos, "eq-name-a")),
      ),
      el(
        "div",
        { class: "row" },
        el("dt", { text: "Second, as a DOI name" }),
        el("dd", null, markedName(ex.b, pos, "eq-name-b")),
      ),
    ),
    pos !== null
      ? el("p", { class: "hint", text: `The first difference is at ${spanWords(pos, pos + 1)}, marked above.` })
      : null,
    notes.length ? el("ul", { class: "eq-readings" }, notes) : null,
  );
}

/**
 * A name with the character at `pos` marked (or a caret when the name ends before it).
 * @param {string} name
 * @param {number | null} pos
 * @param {string} id
 * @returns {HTMLElement}
 */
function markedName(name, pos, id) {
  const code = el("code", { class: "value", id });
  const cps = chars(name);
  if (pos === null) {
    code.appendChild(visibleText(name));
    return code;
  }
  code.appendChild(visibleText(cps.slice(0, pos).join("")));
  if (pos < cps.length) {
    code.appendChild(el("mark", { class: "sev-warning" }, visibleText(cps[pos])));
    code.appendChild(visibleText(cps.slice(pos + 1).join("")));
  } else {
    code.appendChild(el("mark", { class: "caret sev-warning", "aria-label": "ends here" }, "‸"));
  }
  return code;
}
