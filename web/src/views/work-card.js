// @ts-check
/**
 * What the name identifies, under its link in Inspect: a card with the title, the first
 * authors, the year, the container, the type and the agency, read from the registry on
 * Resolve (and Enter), never on a keystroke; a retraction, a withdrawal or an expression
 * of concern above the link in a patron's words with the notice's link (a correction
 * more quietly, in the card). When the text has several readings of one place (a name
 * cut by a space, a final "."), each is looked up (Python's plan, bounded) and the one
 * Python's `settle` puts first is selected, with its reason. The card keeps its height
 * while loading (style.css: `.work-card`), and only the settled result is announced.
 * Every value is drawn as text; only links Python made become links.
 * @module views/work-card
 */
import { announce, el, replace } from "../ui/dom.js";
import { safeLink, visibleText } from "../ui/text.js";

/** @typedef {import("../engine/client.js").Doiname} Doiname */
/** @typedef {import("../engine/types.gen.js").Inspection} Inspection */
/** @typedef {import("../engine/types.gen.js").RegistryReading} RegistryReading */
/** @typedef {import("../engine/types.gen.js").Settled} Settled */

export class WorkCardView {
  /**
   * @param {Doiname} doiname
   * @param {{notice: HTMLElement, card: HTMLElement, checks: HTMLElement,
   *   onPick: (candidate: number) => void}} parts `notice` sits above the link, `card`
   *   under it; `checks` is the task's one line (a grave notice's verdict takes the
   *   place of an all-clear); `onPick` selects another reading (and resolves it)
   */
  constructor(doiname, parts) {
    this.doiname = doiname;
    this.parts = parts;
    /** The task line a grave notice replaced, put back when the card goes. @type {{className: string, text: string, shown: string} | null} */
    this.checksBefore = null;
    /** The reason a reading was put first, for the text it was settled for. @type {{text: string, reason: string} | null} */
    this.settledFor = null;
    /** Counts what was cleared: a lookup draws only if nothing was cleared since it began. */
    this.shownFor = 0;
  }

  /** Forget what is shown (the input changed); a lookup under way then draws nothing. */
  clear() {
    const p = this.parts;
    this.shownFor += 1;
    const before = this.checksBefore;
    this.checksBefore = null;
    if (before && p.checks.textContent === before.shown) {
      p.checks.className = before.className;
      replace(p.checks, before.text);
    }
    replace(p.notice);
    p.notice.hidden = true;
    replace(p.card);
    p.card.hidden = true;
    delete p.card.dataset.state;
  }

  /**
   * Look up what the selected reading of `text` names (and the other readings of its
   * place), settle which comes first, and draw it.
   * @param {string} text
   * @param {Inspection} found
   * @param {AbortSignal} signal
   */
  async show(text, found, signal) {
    const p = this.parts;
    const mine = this.shownFor;
    const stale = () => signal.aborted || mine !== this.shownFor;
    const plan = await this.doiname.registryPlan(text, found.selected);
    if (stale()) return;
    if (!plan.targets.length) {
      this.clear();
      return;
    }
    const name = plan.targets[0].doi.name;
    replace(p.notice);
    p.notice.hidden = true;
    p.card.hidden = false;
    p.card.dataset.state = "loading";
    p.card.setAttribute("aria-busy", "true");
    replace(p.card, el("p", { class: "pending", text: `Reading what ${name} names, from its registration agency…` }));
    try {
      const readings = await Promise.all(
        plan.targets.map((t) => this.doiname.record(t.doi, { reference: plan.reference, signal })),
      );
      if (stale()) return;
      /** @type {Settled | null} */
      let settled = null;
      if (plan.targets.length > 1) {
        settled = await this.doiname.settle(
          plan.targets.map((t, i) => ({
            candidate: t.candidate,
            name: t.doi.name,
            outcome: readings[i].answer.outcome,
            verdict: readings[i].verification?.verdict ?? null,
            summary: readings[i].verification?.summary ?? "",
          })),
        );
        if (stale()) return;
        if (settled.first !== null && settled.first !== found.selected) {
          this.settledFor = { text, reason: settled.reason };
          p.onPick(settled.first);
          return;
        }
      }
      const reason = settled?.reason || (this.settledFor?.text === text ? this.settledFor.reason : "");
      this.draw(name, readings[0], reason, settled ? settled.first !== null : true);
    } catch (e) {
      if (stale()) return;
      p.card.dataset.state = "failed";
      const said = `The record of ${name} could not be read: ${e instanceof Error ? e.message : String(e)}`;
      replace(p.card, el("p", { class: "work-failed", text: said }));
      announce(said);
    } finally {
      p.card.removeAttribute("aria-busy");
      if (signal.aborted && p.card.dataset.state === "loading") {
        p.card.dataset.state = "failed";
        replace(p.card, el("p", { class: "work-failed", text: `Reading what ${name} names was cancelled.` }));
      }
    }
  }

  /**
   * Draw one reading: the notice above the link, the card (or why there is none).
   * @param {string} name
   * @param {RegistryReading} reading
   * @param {string} reason why this reading was put first, or why none was ("" for neither)
   * @param {boolean} settledOn whether the registry settled on a reading
   */
  draw(name, reading, reason, settledOn) {
    const p = this.parts;
    const { answer, card, verification } = reading;
    /** @type {string[]} */
    const said = [];
    const why = reason
      ? el("p", { class: settledOn ? "work-settled" : "work-unsettled", id: "work-settled", text: reason })
      : null;
    if (reason) said.push(reason);
    if (!card) {
      p.card.dataset.state = "failed";
      p.card.dataset.outcome = answer.outcome;
      replace(
        p.card,
        why,
        el(
          "p",
          { class: "work-failed", id: "work-message" },
          answer.message,
          answer.open_url ? " " : null,
          answer.open_url ? safeLink(answer.open_url, "Open the DOI's page") : null,
        ),
      );
      said.push(answer.message);
      announce(said.join(" "));
      return;
    }
    p.card.dataset.state = "found";
    p.card.dataset.outcome = answer.outcome;
    const notice = card.notice;
    if (notice && notice.level === "grave") {
      p.notice.hidden = false;
      p.notice.dataset.kind = notice.kind;
      replace(
        p.notice,
        el("p", { class: "work-notice-head" }, el("strong", { text: notice.head })),
        el("p", { class: "work-notice-text", text: notice.text }),
        notice.href ? el("p", null, safeLink(notice.href, notice.link_text)) : null,
      );
      said.push(`${notice.head}. ${notice.text}`);
      const drawn = this.checksBefore && p.checks.textContent === this.checksBefore.shown;
      if (notice.verdict && !drawn) {
        // Not an all-clear next to a retraction: the core's line for it, and what the
        // checks found when they found something.
        const text = p.checks.textContent ?? "";
        const shown = p.checks.classList.contains("sev-ok") ? notice.verdict : `${notice.verdict} ${text}`;
        this.checksBefore = { className: p.checks.className, text, shown };
        p.checks.className = "task-checks sev-error";
        replace(p.checks, shown);
      }
    }
    /** @type {[string, string][]} */
    const rows = [
      ["Authors", card.authors],
      ["Year", card.year],
      ["Published in", card.container],
      ["Type", card.type],
      ["Registered with", card.agency],
    ];
    replace(
      p.card,
      why,
      el("p", { class: "work-label", text: "What this DOI names" }),
      el("p", { class: "work-title", id: "work-title" }, visibleText(card.title)),
      el(
        "dl",
        { class: "work-fields" },
        rows
          .filter(([, v]) => v)
          .map(([k, v]) => el("div", null, el("dt", { text: k }), el("dd", null, visibleText(v)))),
      ),
      card.about ? el("p", { class: "work-about", text: card.about }) : null,
      notice && notice.level === "note"
        ? el(
            "p",
            { class: "work-note", "data-kind": notice.kind },
            `${notice.head}: ${notice.text} `,
            notice.href ? safeLink(notice.href, notice.link_text) : null,
          )
        : null,
      verification
        ? el("p", { class: `work-check verdict-${verification.verdict}`, id: "work-check", text: verification.summary })
        : null,
    );
    said.push(`${name} names “${card.title}”${card.year ? ` (${card.year})` : ""}.`);
    if (verification) said.push(verification.summary);
    announce(said.join(" "));
  }
}
