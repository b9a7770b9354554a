// @ts-check
/**
 * The top of an Inspect result, the part a person acts on: the task card (the name, the
 * link to copy, Copy, Open, Resolve), or in its place the box that says why the text is
 * not a DOI name (with its repair), or the panel of a shortDOI (with "Expand through
 * doi.org"). The card keeps its place and height while the person types, so nothing
 * below it moves. Draws only what the reply says.
 * @module views/inspect-card
 */
import { copyButton, el, replace, sourceLine } from "../ui/dom.js";
import { chars, codePointLabel, isInvisible, spanWords, visibleText } from "../ui/text.js";
import { repairButton } from "./inspect-blocks.js";

/** @typedef {import("../engine/client.js").Doiname} Doiname */
/** @typedef {import("../engine/types.gen.js").Inspection} Inspection */
/** @typedef {import("../engine/types.gen.js").Candidate} Candidate */
/** @typedef {import("../engine/types.gen.js").Finding} Finding */

/**
 * @typedef {{
 *   card: HTMLElement, empty: HTMLElement, placeholder: HTMLElement, errorBox: HTMLElement, task: HTMLElement,
 *   name: HTMLElement, link: HTMLElement, open: HTMLAnchorElement, checks: HTMLElement,
 *   reading: HTMLElement, offer: HTMLElement, copyRepaired: HTMLButtonElement,
 * }} CardParts
 */

/**
 * What the card shows: "empty" (nothing typed), "waiting" (the engine is not ready),
 * "task" (a name to act on), "error", "short" (a shortDOI).
 * @param {CardParts} p
 * @param {"empty" | "waiting" | "task" | "error" | "short"} state
 * @param {string} [message] the placeholder's words (empty, waiting)
 */
export function cardState(p, state, message) {
  p.card.dataset.state = state;
  p.empty.hidden = state !== "empty" && state !== "waiting";
  p.errorBox.hidden = state !== "error" && state !== "short";
  p.task.hidden = state !== "task";
  if (message !== undefined) replace(p.placeholder, message);
  if (state !== "error" && state !== "short") replace(p.errorBox);
  p.errorBox.classList.toggle("info-box", state === "short");
}

/**
 * The task card for a readable name: the name, the recommended link, Copy (and, where a
 * finding has a repair, the repaired link to copy beside it, each button saying what it
 * copies), the line that says how the text was read with the other reading one click
 * away, and a line that says what the checks found (listed below the card). Every word
 * comes from the reply (Python's `headline`, `offer`, labels).
 * @param {CardParts} p
 * @param {Candidate} c
 * @param {string} url the recommended URL Python made
 * @param {Inspection} found
 * @param {HTMLButtonElement} copy the Copy button of the link as read
 * @param {(index: number) => void} pick show another reading
 */
export function drawTask(p, c, url, found, copy, pick) {
  cardState(p, "task");
  p.task.dataset.how = c.how;
  p.task.dataset.status = c.status;
  replace(p.name, visibleText(c.doi.name));
  p.name.title = `Prefix ${c.doi.prefix}, suffix ${c.doi.suffix}, read from ${c.form_label}`;
  replace(p.link, url);
  p.open.setAttribute("href", url);
  const offer = found.offer;
  copy.textContent = offer ? offer.as_written : "Copy link";
  copy.classList.toggle("primary", !offer);
  p.copyRepaired.hidden = !offer;
  p.offer.hidden = !offer;
  if (offer) {
    p.copyRepaired.textContent = offer.label;
    p.copyRepaired.dataset.url = offer.url;
    replace(p.offer, "The repaired link: ", el("code", { class: "repaired-link", text: offer.url }));
  } else {
    replace(p.offer);
    delete p.copyRepaired.dataset.url;
  }
  const line = found.headline;
  p.reading.hidden = !line;
  if (line) {
    const alternative = line.alternative;
    replace(
      p.reading,
      el("span", { class: "reading-said", text: line.said }),
      alternative === null
        ? null
        : [
            " ",
            el(
              "button",
              { type: "button", class: "link-like other-reading", onclick: () => pick(alternative) },
              line.label,
            ),
          ],
    );
  } else replace(p.reading);
  const explained = line ? line.explains : "";
  const findings = [...c.findings, ...found.notes].filter((f) => f.code !== explained);
  const errors = findings.filter((f) => f.severity === "error").length;
  const warnings = findings.filter((f) => f.severity === "warning").length;
  const infos = findings.length - errors - warnings;
  /** @type {string[]} */
  const said = [];
  if (errors) said.push(`${errors} error${errors > 1 ? "s" : ""}`);
  if (warnings) said.push(`${warnings} warning${warnings > 1 ? "s" : ""}`);
  p.checks.className = `task-checks sev-${errors ? "error" : warnings ? "warning" : "ok"}`;
  replace(
    p.checks,
    said.length
      ? `Check before you copy: ${said.join(" and ")}, listed below.`
      : `No problems found${infos || explained ? " (notes below)" : ""}.`,
  );
}

/**
 * The box that says the text is not a DOI name: the plain message, where, the repair.
 * @param {CardParts} p
 * @param {string} text the input
 * @param {Finding | null} error
 * @param {string} message the reply's message (for text that is not read at all)
 * @param {{select: (start: number, end: number) => HTMLButtonElement, use: (text: string) => void}} act
 */
export function drawErrorBox(p, text, error, message, act) {
  cardState(p, "error");
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
          act.select(start, end),
        ),
      );
    } else if (start >= cps.length) {
      where.push(el("p", { class: "where" }, `Where: at the end of your input (after character ${cps.length}).`));
    }
  }
  replace(
    p.errorBox,
    el("h3", { class: "error-title", text: "This is not a DOI name" }),
    el("p", {
      class: "error-message",
      id: "error-message",
      "data-code": error ? error.code : null,
      text: error ? error.message : message,
    }),
    where,
    error?.repair ? repairButton(act.use, error.repair) : null,
    sourceLine(error?.source, "p"),
  );
}

/**
 * A shortDOI: what it is, and "Expand through doi.org" (asks doi.org for its HS_ALIAS
 * record, by the request URL Python made for it); the answer says what it found.
 * @param {CardParts} p
 * @param {Doiname} doiname
 * @param {Candidate} c
 * @param {string} message
 * @param {(text: string) => void} use
 */
export function drawShortDoi(p, doiname, c, message, use) {
  cardState(p, "short");
  const out = el("div", { class: "expand-out", role: "status", "aria-live": "polite" });
  const button = el("button", {
    type: "button",
    class: "primary",
    id: "expand-button",
    text: "Expand through doi.org",
  });
  button.addEventListener("click", () => void expand(doiname, c, button, out, use));
  replace(
    p.errorBox,
    el("h3", { class: "info-title", text: "A shortDOI: a short alias of a DOI name" }),
    el("p", { class: "error-message", id: "shortdoi-message", text: message }),
    el(
      "div",
      { class: "expand" },
      el("p", { class: "hint", text: "doi.org keeps which DOI name each shortDOI stands for. Expanding asks it." }),
      button,
      out,
    ),
  );
}

/**
 * @param {Doiname} doiname
 * @param {Candidate} c the shortDOI (its `api_url` is the HS_ALIAS request)
 * @param {HTMLButtonElement} button
 * @param {HTMLElement} out
 * @param {(text: string) => void} use
 */
async function expand(doiname, c, button, out, use) {
  button.disabled = true;
  const short = c.doi.name;
  replace(out, el("p", { class: "pending", text: `Asking doi.org what ${short} stands for…` }));
  try {
    /** @type {import("../engine/types.gen.js").HandleRecord & import("../engine/types.gen.js").AliasTarget} */
    const record = await doiname.lookupUrl("alias", /** @type {string} */ (c.api_url));
    const target = record.target_doi;
    const written = record.target_text;
    if (target && written) {
      const inspect = el("button", { type: "button", class: "primary", text: "Inspect this DOI name" });
      inspect.addEventListener("click", () => use(written));
      replace(
        out,
        el(
          "p",
          { class: "ok" },
          `doi.org says ${short} stands for `,
          el("code", { class: "expanded", id: "expanded-name" }, visibleText(target.name)),
          ".",
        ),
        el(
          "p",
          { class: "actions" },
          inspect,
          copyButton(() => target.name, "expanded DOI name"),
        ),
      );
    } else if (record.ok) {
      replace(out, el("p", { class: "problem", text: `doi.org knows ${short}, but its record names no DOI name.` }));
    } else {
      replace(out, el("p", { class: "problem", text: `${short}: ${record.message}` }));
    }
  } catch (e) {
    replace(out, el("p", { class: "problem", text: e instanceof Error ? e.message : String(e) }));
  } finally {
    button.disabled = false;
  }
}
