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
import { el, replace, wireCopy } from "../ui/dom.js";
import { latestOnly, settled } from "../ui/schedule.js";
import { LateSpace } from "../ui/space.js";
import { chars, spanWords, utf16Offset, visibleText } from "../ui/text.js";
import { findingsBlock, moreBlock } from "./inspect-blocks.js";
import { cardState, drawErrorBox, drawShortDoi, drawTask } from "./inspect-card.js";
import { buildMirror, marksOf } from "./mirror.js";

/** @typedef {import("../engine/client.js").Doiname} Doiname */
/** @typedef {import("../engine/types.gen.js").Inspection} Inspection */
/** @typedef {import("../engine/types.gen.js").Candidate} Candidate */
/** @typedef {import("../engine/types.gen.js").Finding} Finding */
/** @typedef {import("./inspect-blocks.js").Context} Context */
/** @typedef {import("./inspect-card.js").CardParts} CardParts */

/** How long a result must stay on screen before it is announced (ms): a screen reader
 * hears the result the person stopped at, never each keystroke's. */
export const SETTLE_MS = 700;

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
   *   panel: HTMLElement,
   *   input: HTMLTextAreaElement,
   *   summary: HTMLElement,
   *   card: CardParts,
   *   copy: HTMLButtonElement,
   *   whichRa: HTMLButtonElement,
   *   mirrorWrap: HTMLElement,
   *   mirror: HTMLElement,
   *   results: HTMLElement,
   *   onUse: (text: string) => void,
   * }} parts `panel` takes the first screen while an answer is late (ui/space.js)
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
    /** The live summary: written once a result has settled. */
    this.announcer = settled((message) => replace(parts.summary, message), SETTLE_MS);
    wireCopy(parts.copy, () => parts.card.link.textContent ?? "", "link");
    wireCopy(parts.card.copyRepaired, () => parts.card.copyRepaired.dataset.url ?? "", "repaired link");
    /** The panel's space while an answer may come late. */
    this.space = new LateSpace(parts.panel);
    const run = latestOnly(
      /** @param {{text: string, pick: number | null, drawn: () => void}} q */ (q, isStale) =>
        this.compute(q.text, q.pick, isStale, q.drawn),
    );
    /**
     * Read newer text: a result still waiting to be announced is not settled any more.
     * `byPerson` (the default): asked by a key or a click, not by the address or Back.
     * @param {{text: string, pick: number | null}} q
     * @param {boolean} [byPerson]
     */
    this.update = (q, byPerson = true) => {
      this.announcer.cancel();
      let drawn = () => {};
      if (!q.text.trim() || this.failed) this.space.empty();
      else drawn = this.space.ask({ byPerson, late: !this.ready });
      return run({ ...q, drawn });
    };
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
    this.space.empty();
    this.announcer.cancel();
    replace(this.parts.summary, message);
  }

  /**
   * Read `text` (its candidate `pick`, else the first) and draw the reply, unless newer
   * text waits by then.
   * @param {string} text
   * @param {number | null} pick
   * @param {() => boolean} isStale
   * @param {() => void} drawn called once the reply is drawn
   */
  async compute(text, pick, isStale, drawn) {
    const p = this.parts;
    if (!text.trim()) {
      this.shown = null;
      this.clear();
      this.announcer.reset();
      replace(p.summary, text ? "Only spaces so far: type or paste a DOI name." : "");
      return;
    }
    if (this.failed) return;
    if (!this.ready) {
      this.clear();
      cardState(p.card, "waiting", "Your text is kept: its result appears as soon as the DOI engine is ready.");
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
      drawn();
      return;
    }
    if (isStale()) return;
    this.draw(text, found);
    drawn();
  }

  /** Empty the panel. */
  clear() {
    const p = this.parts;
    replace(p.results);
    replace(p.mirror);
    p.mirrorWrap.hidden = true;
    cardState(p.card, "empty", "The DOI name, its link to copy and Resolve appear here.");
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
    this.announcer.push(found.message);
    const c = found.selected === null ? null : found.candidates[found.selected];
    /** @type {Context} */
    const cx = {
      text,
      open: this.open,
      whichRa: p.whichRa,
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
    if (found.verdict === "too-long" || problem || !c) {
      drawErrorBox(p.card, text, problem ?? null, found.message, cx);
    } else if (c.kind === "short-doi") {
      drawShortDoi(p.card, this.doiname, c, found.message, p.onUse);
    } else if (found.forms) {
      drawTask(p.card, c, found.forms.url, found, p.copy, (i) => void this.update({ text, pick: i }));
    }
    /** @type {(Node | null)[]} */
    const blocks = [];
    // Readings to pick from: several, or one that is not selected (shown, not taken).
    if (found.candidates.length > 1 || (found.candidates.length && !c)) blocks.push(this.candidatesBlock(text, found));
    const others = problem ? findings.filter((f) => f !== problem) : findings;
    const explained = found.headline ? found.headline.explains : "";
    if (others.length) blocks.push(findingsBlock(cx, others, explained));
    if (found.verdict !== "too-long") {
      const named = c && c.kind === "doi" && c.status !== "error" ? chars(c.doi.name).length : null;
      blocks.push(moreBlock(cx, found.forms, named));
    }
    replace(p.results, blocks);
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
            el("span", { class: `reading-label sev-${c.status === "error" ? "error" : "none"}`, text: c.label }),
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
    this.announcer.push(say);
    cardState(p.card, "error");
    replace(
      p.card.errorBox,
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
