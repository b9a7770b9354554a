/**
 * The resolve panel: the handle record of the name Inspect selected, asked of doi.org
 * by the request URL Python made from the exact name (`api_url`; a shortDOI's
 * `?type=HS_ALIAS`), read by the core's `read_handle_response`; and the Which RA lookup
 * of that exact name. The answers are drawn by handle-record.js: every value as text,
 * only values the core marked linkable (`href`) as links, within bounds (bounded.js):
 * the first values and the first characters of each, the rest behind "Show all".
 * @module views/resolve
 */
import { el, replace, sourceLine } from "../ui/dom.js";
import { drawRecord, drawWhichRa } from "./handle-record.js";

/** @typedef {import("../engine/client.js").Doiname} Doiname */
/** @typedef {import("../engine/types.gen.js").Inspection} Inspection */
/** @typedef {import("../engine/types.gen.js").HandleRecord} HandleRecord */
/** @typedef {import("../engine/types.gen.js").HandleValue} HandleValue */
/** @typedef {import("../engine/types.gen.js").WhichRaResult} WhichRaResult */

export class ResolveView {
  /**
   * @param {Doiname} doiname
   * @param {{
   *   resolveButton: HTMLButtonElement,
   *   cancelButton: HTMLButtonElement,
   *   whichRaButton: HTMLButtonElement,
   *   output: HTMLElement,
   *   getText: () => string,
   *   getReading: (text: string) => Promise<Inspection>,
   *   onAction: () => void,
   *   onResolved?: (text: string, found: Inspection, signal: AbortSignal) => Promise<void>,
   *   onClear?: () => void,
   * }} parts `onResolved`: after the handle record, what the name identifies (work-card.js)
   */
  constructor(doiname, parts) {
    this.doiname = doiname;
    this.parts = parts;
    /** @type {AbortController | null} */
    this.controller = null;
    /** What the name identifies, being read. @type {AbortController | null} */
    this.reading = null;
    parts.resolveButton.addEventListener("click", () => void this.run("resolve"));
    parts.whichRaButton.addEventListener("click", () => void this.run("which-ra"));
    parts.cancelButton.addEventListener("click", () => this.cancel());
  }

  /**
   * A lookup under way, or none: Cancel takes the place of Resolve (the two share one
   * place on the page, so nothing moves), and the focus goes with them.
   * @param {boolean} on
   */
  showRunning(on) {
    const { resolveButton, cancelButton } = this.parts;
    const focused = document.activeElement === (on ? resolveButton : cancelButton);
    cancelButton.hidden = !on;
    cancelButton.disabled = !on;
    resolveButton.hidden = on;
    if (focused) (on ? cancelButton : resolveButton).focus();
  }

  /** Stop the request under way, if any (and the reading of what the name identifies). */
  cancel() {
    if (this.controller) this.controller.abort();
    this.reading?.abort();
  }

  /** Forget the shown result (the input changed to another name): a run under way is
   * dropped, so it draws nothing for a text that is gone (not even "cancelled"). */
  clear() {
    this.cancel();
    this.controller = null;
    this.showRunning(false);
    this.parts.output.removeAttribute("aria-busy");
    replace(this.parts.output);
    this.parts.onClear?.();
  }

  /**
   * Say why nothing can be looked up.
   * @param {string} message
   * @param {(Node | null)[]} [next] what the person can do next
   * @param {string} [source] what the message rests on (a small source line)
   */
  problem(message, next = [], source = "") {
    replace(
      this.parts.output,
      el(
        "div",
        { class: "outcome outcome-error" },
        el("p", { class: "outcome-message", id: "resolve-outcome", "data-outcome": "error", text: message }),
        sourceLine(source, "p"),
        next.length ? el("p", { class: "actions" }, next) : null,
      ),
    );
  }

  /**
   * Look the name up (`resolve`) or ask which agency registered it (`which-ra`). The
   * buttons stay enabled and focused (pressing again asks again); Cancel shows while a
   * request is under way.
   * @param {"resolve" | "which-ra"} what
   */
  async run(what) {
    const p = this.parts;
    const text = p.getText();
    if (!text.trim()) {
      replace(
        p.output,
        el("p", { class: "problem", id: "resolve-outcome", text: "Type or paste a DOI name above first." }),
      );
      return;
    }
    p.onAction();
    this.cancel();
    const controller = new AbortController();
    this.controller = controller;
    this.showRunning(true);
    p.output.setAttribute("aria-busy", "true");
    const again = () => this.retryButton(what);
    try {
      const found = await p.getReading(text);
      const c = found.selected === null ? null : found.candidates[found.selected];
      if (this.controller !== controller) return;
      const name = c ? c.doi.name : "";
      const asking =
        what === "resolve"
          ? `Asking doi.org for the record of ${name}…`
          : `Asking doi.org which agency registered ${name}…`;
      replace(p.output, el("p", { class: "pending", id: "resolve-pending", text: asking }));
      if (!c || c.status === "error" || !c.api_url) {
        const error = (c ? c.findings : found.notes).find((f) => f.severity === "error");
        this.problem(error ? error.message : found.message, [], error?.source);
      } else if (what === "resolve") {
        const kind = c.kind === "short-doi" ? "alias" : "handle";
        const record = await this.doiname.lookupUrl(kind, c.api_url, { signal: controller.signal });
        if (this.controller !== controller) return;
        const link = found.forms?.url ?? null;
        replace(p.output, drawRecord(record, { name, link, again }));
        // What the name identifies, not awaited: Cancel, a new Resolve or another text stop it.
        if (c.kind === "doi" && p.onResolved) {
          const reading = new AbortController();
          this.reading = reading;
          void p.onResolved(text, found, reading.signal).catch(console.error);
        }
      } else if (c.kind === "short-doi") {
        this.problem(`${found.message} Expand it first: a shortDOI has no registration agency of its own.`);
      } else {
        // The URL Python made with the reading (one call, as Resolve); an exact name else.
        const url = found.forms?.which_ra_url;
        const exact = { prefix: c.doi.prefix, suffix: c.doi.suffix };
        const result = url
          ? await this.doiname.lookupUrl("which-ra", url, { signal: controller.signal })
          : await this.doiname.whichRa([exact], { signal: controller.signal });
        if (this.controller !== controller) return;
        replace(p.output, drawWhichRa(result, name, again));
      }
    } catch (e) {
      if (this.controller === controller) this.problem(e instanceof Error ? e.message : String(e), [again()]);
    } finally {
      if (this.controller === controller) {
        this.controller = null;
        this.showRunning(false);
        p.output.removeAttribute("aria-busy");
      }
    }
  }

  /**
   * "Try again": asks once more; the focus goes back to the button that acts.
   * @param {"resolve" | "which-ra"} what
   * @returns {HTMLButtonElement}
   */
  retryButton(what) {
    const button = el("button", { type: "button", class: "retry", text: "Try again" });
    button.addEventListener("click", () => {
      (what === "resolve" ? this.parts.resolveButton : this.parts.whichRaButton).focus();
      void this.run(what);
    });
    return button;
  }
}
