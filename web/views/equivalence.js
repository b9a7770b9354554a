// @ts-check
/**
 * The equivalence panel: two inputs, the verdict and explanation of
 * `explain_equivalence` (003 ch. 3), the first difference marked in both names.
 * @module views/equivalence
 */
import { el, replace } from "../dom.js";
import { call, coreError, latestOnly } from "./api.js";
import { chars, spanWords, visibleText } from "./text.js";

/** @typedef {import("./api.js").ExplanationJson} ExplanationJson */

const VERDICTS = /** @type {Record<string, string>} */ ({
  "identical": "Identical",
  "basic-latin-case": "Equivalent (case of A–Z only)",
  "normalization": "Not equivalent (Unicode normalization differs)",
  "non-basic-latin-case": "Not equivalent (case outside A–Z)",
  "different": "Not equivalent",
});

export class EquivalenceView {
  /**
   * @param {{a: HTMLInputElement, b: HTMLInputElement, output: HTMLElement}} parts
   */
  constructor(parts) {
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
      replace(out, a.trim() || b.trim()
        ? el("p", { class: "hint", text: "Give both names to compare them." })
        : null);
      return;
    }
    try {
      /** @type {ExplanationJson} */
      const ex = await call("explain_equivalence", a, b);
      if (isStale()) return;
      replace(out, this.verdict(ex));
    } catch (e) {
      if (isStale()) return;
      const err = coreError(e);
      // Say which of the two could not be read.
      const [ra, rb] = await Promise.allSettled([call("parse", a), call("parse", b)]);
      if (isStale()) return;
      /** @type {Node[]} */
      const items = [];
      for (const [label, r] of /** @type {const} */ ([["First name", ra], ["Second name", rb]])) {
        if (r.status === "rejected") {
          const re = coreError(r.reason);
          items.push(el("li", null, el("strong", { text: `${label}: ` }), re.message));
        }
      }
      replace(out, el("div", { class: "verdict verdict-error", id: "eq-verdict", "data-verdict": "error" },
        el("p", { class: "verdict-title", text: "Cannot compare" }),
        items.length ? el("ul", null, items) : el("p", { text: err.message })));
    }
  }

  /**
   * @param {ExplanationJson} ex
   * @returns {HTMLElement}
   */
  verdict(ex) {
    const pos = typeof ex.position === "number" ? ex.position : null;
    return el("div", {
      class: `verdict ${ex.equivalent ? "verdict-yes" : "verdict-no"}`, id: "eq-verdict", "data-verdict": ex.verdict,
    },
    el("p", { class: "verdict-title" },
      el("span", { class: "verdict-icon", "aria-hidden": "true", text: ex.equivalent ? "=" : "≠" }),
      VERDICTS[ex.verdict] ?? ex.verdict),
    el("p", { class: "verdict-message", id: "eq-message", text: ex.message }),
    el("dl", { class: "values eq-names" },
      el("div", { class: "row" }, el("dt", { text: "First, as a DOI name" }), el("dd", null, markedName(ex.a, pos, "eq-name-a"))),
      el("div", { class: "row" }, el("dt", { text: "Second, as a DOI name" }), el("dd", null, markedName(ex.b, pos, "eq-name-b")))),
    pos !== null ? el("p", { class: "hint", text: `The first difference is at ${spanWords(pos, pos + 1)}, marked above.` }) : null);
  }
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
