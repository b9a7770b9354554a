// @ts-check
/**
 * The Inspect panel: everything the core says about one pasted text, updated as the
 * person types. One keystroke is one request (`doiname.inspect`), and everything drawn
 * comes from its one reply: the verdict and message, the candidates (another one is
 * picked with a click: a second request, for that text), the selected name's findings
 * with their repairs, URLs, other forms, and the marks in the input mirror. This module
 * only draws.
 * @module views/inspect
 */
import { copyButton, el, replace } from "../ui/dom.js";
import { latestOnly } from "../ui/schedule.js";
import { chars, codePointLabel, isInvisible, spanWords, utf16Offset, visibleText } from "../ui/text.js";
import { codePointsBlock, findingsBlock, formsBlocks, linksBlock, repairButton } from "./inspect-blocks.js";
import { buildMirror, marksOf } from "./mirror.js";

/** @typedef {import("../engine/client.js").Doiname} Doiname */
/** @typedef {import("../engine/types.gen.js").Inspection} Inspection */
/** @typedef {import("../engine/types.gen.js").Candidate} Candidate */
/** @typedef {import("../engine/types.gen.js").Finding} Finding */
/** @typedef {import("./inspect-blocks.js").Context} Context */

/** Error codes of the engine itself (the bridge, the worker), not verdicts on the text. */
const ENGINE_CODES = new Set([
  "internal",
  "not-started",
  "bad-arguments",
  "unknown-operation",
  "timeout",
  "bad-reply",
  "restarted",
]);

export class InspectView {
  /**
   * @param {Doiname} doiname
   * @param {{
   *   input: HTMLTextAreaElement,
   *   summary: HTMLElement,
   *   mirrorWrap: HTMLElement,
   *   mirror: HTMLElement,
   *   errorBox: HTMLElement,
   *   results: HTMLElement,
   *   onUse: (text: string) => void,
   * }} parts
   */
  constructor(doiname, parts) {
    this.doiname = doiname;
    this.parts = parts;
    /** Which disclosures are open (kept across updates). @type {Set<string>} */
    this.open = new Set();
    this.ready = false;
    /** @type {string | null} */
    this.failed = null;
    /** The reply on screen, and the text it is for. @type {{text: string, found: Inspection} | null} */
    this.shown = null;
    this.update = latestOnly(
      /** @param {{text: string, pick: number | null}} q */ (q, isStale) => this.compute(q.text, q.pick, isStale),
    );
  }

  /**
   * The reading of `text` as shown (the candidate picked), or asked for now.
   * @param {string} text
   * @returns {Promise<Inspection>}
   */
  reading(text) {
    if (this.shown && this.shown.text === text) return Promise.resolve(this.shown.found);
    return this.doiname.inspect(text);
  }

  /** Python is ready: results can be computed now. */
  setReady() {
    this.ready = true;
  }

  /**
   * Say that nothing can be computed (the engine did not start).
   * @param {string} message
   */
  setFailed(message) {
    this.failed = message;
    replace(this.parts.summary, message);
  }

  /**
   * Read `text` (its candidate `pick`, else the first) and draw the reply, unless newer
   * text waits by then.
   * @param {string} text
   * @param {number | null} pick
   * @param {() => boolean} isStale
   */
  async compute(text, pick, isStale) {
    const p = this.parts;
    if (!text.trim()) {
      this.shown = null;
      replace(p.summary, text ? "Only spaces so far: type or paste a DOI name." : "");
      this.clear();
      return;
    }
    if (this.failed) return;
    if (!this.ready) {
      const waiting = "Results will appear as soon as the DOI engine is ready.";
      replace(p.summary, waiting);
      replace(p.results, el("p", { class: "pending", id: "inspect-waiting", text: waiting }));
      p.results.setAttribute("aria-busy", "true");
    }
    /** @type {Inspection} */
    let found;
    try {
      found = await this.doiname.inspect(text, { pick });
    } catch (e) {
      if (isStale()) return;
      const err = /** @type {{code?: string, message?: string}} */ (e);
      this.drawEngineError(ENGINE_CODES.has(String(err.code)) ? String(err.message) : String(e));
      return;
    }
    if (isStale()) return;
    this.draw(text, found);
  }

  /** Empty the panel. */
  clear() {
    const p = this.parts;
    replace(p.results);
    replace(p.mirror);
    p.mirrorWrap.hidden = true;
    p.errorBox.hidden = true;
    replace(p.errorBox);
    p.results.removeAttribute("aria-busy");
    p.results.removeAttribute("data-verdict");
  }

  /**
   * Draw one reply.
   * @param {string} text
   * @param {Inspection} found
   */
  draw(text, found) {
    const p = this.parts;
    this.shown = { text, found };
    this.clear();
    p.results.dataset.verdict = found.verdict;
    replace(p.summary, found.message);
    const c = found.selected === null ? null : found.candidates[found.selected];
    /** @type {Context} */
    const cx = {
      text,
      open: this.open,
      select: (start, end) => this.selectButton(text, start, end),
      use: (repaired) => p.onUse(repaired),
      codePoints: (t) => this.doiname.codePoints(t),
    };
    const findings = c ? [...c.findings, ...found.notes] : found.notes;
    const marks = marksOf(findings);
    if (marks.length) {
      p.mirrorWrap.hidden = false;
      replace(p.mirror, buildMirror(text, marks));
    }
    const problem = c
      ? c.status === "error"
        ? c.findings.find((f) => f.severity === "error")
        : null
      : found.notes.find((f) => f.severity === "error");
    if (found.verdict === "too-long" || problem) this.drawError(text, problem ?? null, found.message);
    if (c && c.kind === "short-doi") this.drawShortDoi(c, found.message);
    /** @type {(Node | null)[]} */
    const blocks = [];
    // Readings to pick from: several, or one that is not selected (shown, not taken).
    if (found.candidates.length > 1 || (found.candidates.length && !c)) blocks.push(this.candidatesBlock(text, found));
    if (c && c.kind === "doi" && c.status !== "error") blocks.push(nameBlock(c));
    const others = problem ? findings.filter((f) => f !== problem) : findings;
    if (others.length) blocks.push(findingsBlock(cx, others));
    if (found.forms) blocks.push(linksBlock(cx, found.forms), ...formsBlocks(found.forms));
    if (found.verdict !== "too-long") {
      const named = c && c.kind === "doi" && c.status !== "error" ? chars(c.doi.name).length : null;
      blocks.push(codePointsBlock(cx, named));
    }
    replace(p.results, blocks);
  }

  /**
   * The error box: what is wrong and where, and the repair when there is one.
   * @param {string} text
   * @param {Finding | null} error
   * @param {string} message the reply's message (for text that is not read at all)
   */
  drawError(text, error, message) {
    const box = this.parts.errorBox;
    box.hidden = false;
    const cps = chars(text);
    /** @type {(Node | string | null)[]} */
    const where = [];
    if (error && error.input_start !== null && error.input_end !== null) {
      const start = error.input_start;
      const end = Math.max(start + 1, error.input_end);
      if (start < cps.length && !(start === 0 && end >= cps.length)) {
        const at = cps.slice(start, end);
        where.push(
          el(
            "p",
            { class: "where" },
            `Where: ${spanWords(start, end)} of your input`,
            at.length === 1 ? ` (${codePointLabel(at[0])}${isInvisible(at[0]) ? ", invisible" : ""})` : "",
            ". ",
            this.selectButton(text, start, end),
          ),
        );
      } else if (start >= cps.length) {
        where.push(el("p", { class: "where" }, `Where: at the end of your input (after character ${cps.length}).`));
      }
    }
    replace(
      box,
      el("h3", { class: "error-title", text: "This is not a DOI name" }),
      el("p", {
        class: "error-message",
        id: "error-message",
        "data-code": error ? error.code : null,
        text: error ? error.message : message,
      }),
      where,
      error?.repair ? repairButton(this.parts.onUse, error.repair) : null,
    );
  }

  /**
   * A shortDOI: what it is, and "Expand" (asks doi.org for its HS_ALIAS record, by the
   * request URL Python made for it).
   * @param {Candidate} c
   * @param {string} message
   */
  drawShortDoi(c, message) {
    const box = this.parts.errorBox;
    box.hidden = false;
    const out = el("div", { class: "expand-out", role: "status", "aria-live": "polite" });
    const button = el("button", { type: "button", class: "primary", text: "Expand" });
    button.addEventListener("click", () => void this.expand(/** @type {string} */ (c.api_url), button, out));
    replace(
      box,
      el("h3", { class: "error-title", text: "A shortDOI, not a DOI name" }),
      el("p", { class: "error-message", id: "shortdoi-message", text: message }),
      el(
        "div",
        { class: "expand" },
        el("p", null, "A shortDOI is an alias. Expanding it asks doi.org for the DOI name it stands for."),
        button,
        out,
      ),
    );
  }

  /**
   * @param {string} url the shortDOI's HS_ALIAS request (the candidate's `api_url`)
   * @param {HTMLButtonElement} button
   * @param {HTMLElement} out
   */
  async expand(url, button, out) {
    button.disabled = true;
    replace(out, el("p", { class: "pending", text: "Asking doi.org…" }));
    try {
      /** @type {import("../engine/types.gen.js").HandleRecord & import("../engine/types.gen.js").AliasTarget} */
      const record = await this.doiname.lookupUrl("alias", url);
      /** @type {(Node | string | null)[]} */
      const parts = [el("p", { class: record.ok ? "ok" : "problem", text: record.message })];
      const target = record.target_doi;
      const written = record.target_text;
      if (target && written) {
        const use = el("button", { type: "button", text: "Inspect this DOI name" });
        use.addEventListener("click", () => this.parts.onUse(written));
        parts.push(
          el(
            "p",
            null,
            "It stands for ",
            el("code", { class: "expanded", id: "expanded-name" }, visibleText(target.name)),
            " ",
            copyButton(() => target.name, "expanded DOI name"),
            " ",
            use,
          ),
        );
      }
      replace(out, parts);
    } catch (e) {
      replace(out, el("p", { class: "problem", text: e instanceof Error ? e.message : String(e) }));
    } finally {
      button.disabled = false;
    }
  }

  /**
   * The readings of the text, the selected one marked; another is picked with a click.
   * @param {string} text
   * @param {Inspection} found
   * @returns {HTMLElement}
   */
  candidatesBlock(text, found) {
    return el(
      "section",
      { class: "block candidates-block" },
      el("h3", { text: "Readings of your input" }),
      el(
        "ol",
        { class: "candidates", id: "candidates" },
        found.candidates.map((c, i) => {
          const selected = i === found.selected;
          return el(
            "li",
            {
              class: `candidate sev-${c.status}`,
              "data-how": c.how,
              "data-status": c.status,
              "data-kind": c.kind,
              "data-name": c.doi.name,
            },
            el(
              "button",
              {
                type: "button",
                class: "pick",
                "aria-pressed": selected ? "true" : "false",
                onclick: () => {
                  if (!selected) void this.update({ text, pick: i });
                },
              },
              el("code", { class: "candidate-name" }, visibleText(c.doi.name)),
            ),
            " ",
            el("span", { class: `badge sev-${c.status}`, text: c.status }),
            el("span", { class: "meta" }, ` from ${c.form_label}, ${spanWords(c.start, c.end)}`),
          );
        }),
      ),
    );
  }

  /**
   * The engine failed on this text (not the text's fault): say so plainly.
   * @param {string} message
   */
  drawEngineError(message) {
    const p = this.parts;
    this.clear();
    const say = `The DOI engine could not process this input: ${message}`;
    replace(p.summary, say);
    p.errorBox.hidden = false;
    replace(
      p.errorBox,
      el("h3", { class: "error-title", text: "Something went wrong on this page" }),
      el("p", { class: "error-message", id: "error-message", text: say }),
    );
  }

  /**
   * A button that selects characters `start`..`end` (code points) in the input.
   * @param {string} text
   * @param {number} start
   * @param {number} end
   * @returns {HTMLButtonElement}
   */
  selectButton(text, start, end) {
    const input = this.parts.input;
    return el("button", {
      type: "button",
      class: "link-like",
      text: "Show in input",
      "aria-label": `Show in input: ${spanWords(start, end)}`,
      onclick: () => {
        if (input.value !== text) return;
        input.focus();
        input.setSelectionRange(utf16Offset(text, start), utf16Offset(text, Math.max(end, start)));
      },
    });
  }
}

/**
 * The selected name, with its prefix, suffix and what it was read from.
 * @param {Candidate} c
 * @returns {HTMLElement}
 */
function nameBlock(c) {
  return el(
    "section",
    { class: "block name-block", "data-how": c.how, "data-status": c.status },
    el("h3", { text: "DOI name" }),
    el(
      "div",
      { class: "name-line" },
      el("code", { id: "result-name", class: "value name", text: c.doi.name }),
      copyButton(() => c.doi.name, "DOI name"),
    ),
    el(
      "p",
      { class: "meta" },
      "Prefix ",
      el("code", { text: c.doi.prefix }),
      " · suffix ",
      el("code", { text: c.doi.suffix }),
      ` · read from ${c.form_label}`,
    ),
  );
}
