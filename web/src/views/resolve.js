/**
 * The resolve panel: the handle record of the name Inspect selected, asked of doi.org
 * by the request URL Python made from the exact name (`api_url`; a shortDOI's
 * `?type=HS_ALIAS`), read by the core's `read_handle_response`; and the Which RA lookup
 * of that exact name. Every value is drawn as text; only values the core marked
 * linkable (`href`) become links. A record is drawn within bounds (bounded.js): the
 * first values and the first characters of each, the rest behind "Show all".
 * @module views/resolve
 */
import { copyButton, el, replace, sourceLine, table, tableRow } from "../ui/dom.js";
import { visibleText } from "../ui/text.js";
import { boundedList, boundedText } from "./bounded.js";

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
    this.parts.cancelButton.hidden = true;
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
    p.cancelButton.hidden = false;
    p.cancelButton.disabled = false;
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
        p.cancelButton.hidden = true;
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

/**
 * A link for a URL the core made or marked linkable (`is_linkable_url`: http(s) only):
 * opens in a new tab, tells nothing back.
 * @param {string} href
 * @param {string} [label]
 * @returns {HTMLAnchorElement}
 */
export function safeLink(href, label) {
  return el("a", { href, rel: "noopener noreferrer", target: "_blank", class: "ext" }, visibleText(label ?? href));
}

/**
 * The outcome line shared by both lookups: what it means for the name first, what to do
 * next, then the protocol's own words (the service, response code and HTTP status) as a
 * small source line; the record itself is folded away below.
 * @param {{outcome: string, ok: boolean, message: string, source: string}} r
 * @param {(Node | string | null)[]} lead the plain result (names the DOI)
 * @param {(Node | null)[]} next buttons and links for what to do next
 * @returns {HTMLElement}
 */
function outcomeLine(r, lead, next) {
  return el(
    "div",
    { class: `outcome ${r.ok ? "outcome-ok" : "outcome-problem"}` },
    el("p", { class: "outcome-message", id: "resolve-outcome", "data-outcome": r.outcome }, ...lead),
    sourceLine(r.source, "p"),
    next.some(Boolean) ? el("p", { class: "actions" }, next) : null,
  );
}

/**
 * What resolving a name gave: where it leads (or why not, and what to do next), then the
 * handle record itself folded away (its values, the administrator entries).
 * @param {HandleRecord} record
 * @param {{name: string, link: string | null, again: () => HTMLButtonElement}} [about]
 *   the name asked for, its link at doi.org, and a "Try again" button
 * @returns {Node[]}
 */
export function drawRecord(record, about) {
  const name = about?.name ?? record.handle ?? "";
  /** @type {(Node | string | null)[]} */
  const lead = [];
  /** @type {(Node | null)[]} */
  const next = [];
  if (record.ok && record.url) {
    lead.push(el("code", { class: "asked" }, visibleText(name)), " leads to ", safeLink(record.url));
    next.push(copyButton(() => record.url ?? "", "target URL"));
  } else {
    lead.push(name ? el("code", { class: "asked" }, visibleText(name)) : null, name ? ": " : "", record.message);
    if (!record.ok && record.retry && about) next.push(about.again());
    if (!record.ok && about?.link) next.push(safeLink(about.link, "Open at doi.org"));
  }
  /** @type {Node[]} */
  const out = [outcomeLine(record, lead, next)];
  if (Array.isArray(record.notes) && record.notes.length) {
    out.push(
      el(
        "ul",
        { class: "notes" },
        record.notes.map((n) => el("li", { text: String(n) })),
      ),
    );
  }
  /** @type {(Node | string | null)[]} */
  const meta = [];
  if (typeof record.status === "number" && record.status) meta.push(`HTTP ${record.status}`);
  if (typeof record.response_code === "number")
    meta.push(`${meta.length ? " · " : ""}responseCode ${record.response_code}`);
  if (record.handle) meta.push(`${meta.length ? " · " : ""}handle `, el("code", null, visibleText(record.handle)));
  const values = Array.isArray(record.values) ? record.values : [];
  if (values.length || meta.length) {
    /** @type {HTMLElement | null} */
    let wrap = null;
    /** @type {HTMLElement | null} */
    let more = null;
    if (values.length) {
      const columns = ["Index", "Type", "Format", "Data", "TTL", "Timestamp"];
      wrap = table({
        caption: `${values.length} value${values.length > 1 ? "s" : ""} in the handle record`,
        id: "handle-values",
        className: "values-table",
        columns,
        rows: [],
      });
      const body = /** @type {HTMLElement} */ (wrap.querySelector("tbody"));
      more = boundedList(body, values, (v) => tableRow(columns, valueCells(v), { "data-type": v.type }), {
        noun: "values",
      });
    }
    out.push(
      el(
        "details",
        { class: "record-details" },
        el("summary", {
          text: values.length
            ? `The handle record: ${values.length} value${values.length > 1 ? "s" : ""}, administrators included`
            : "What doi.org answered",
        }),
        meta.length ? el("p", { class: "meta" }, ...meta) : null,
        wrap,
        more,
      ),
    );
  }
  return out;
}

/**
 * The cells of one value.
 * @param {HandleValue} v
 * @returns {import("../ui/dom.js").Cell[]}
 */
function valueCells(v) {
  return [
    { class: "num", content: v.index === null || v.index === undefined ? "–" : String(v.index) },
    el("code", null, boundedText(v.type || "–")),
    v.format || "–",
    { class: "data", content: dataCell(v) },
    { class: "ttl", content: v.ttl || "–" },
    { class: "when", content: v.timestamp ? visibleText(v.timestamp) : "–" },
  ];
}

/**
 * The decoded data of one value, as the core decoded it.
 * @param {HandleValue} v
 * @returns {Node[]}
 */
function dataCell(v) {
  /** @type {Node[]} */
  const out = [];
  const locations = Array.isArray(v.locations) ? v.locations : [];
  if (v.href) out.push(el("div", { class: "data-text" }, safeLink(v.href)));
  else if (v.text && !locations.length && !(Array.isArray(v.details) && v.details.length))
    out.push(el("div", { class: "data-text" }, boundedText(v.text)));
  const details = Array.isArray(v.details) ? v.details : [];
  if (details.length) {
    const dl = el("dl", { class: "details" });
    const more = boundedList(
      dl,
      details,
      ([k, val]) => el("div", null, el("dt", null, boundedText(String(k))), el("dd", null, boundedText(String(val)))),
      { noun: "fields" },
    );
    out.push(dl);
    if (more) out.push(more);
  }
  if (locations.length) {
    const ol = el("ol", { class: "locations", "aria-label": "Locations" });
    const more = boundedList(
      ol,
      locations,
      (loc) => {
        const attrs = [
          loc.weight !== null && loc.weight !== undefined ? `weight ${loc.weight}` : "",
          loc.view ? `view ${loc.view}` : "",
          ...(Array.isArray(loc.attributes) ? loc.attributes.map(([k, val]) => `${k} ${val}`) : []),
        ]
          .filter(Boolean)
          .join(" · ");
        return el(
          "li",
          null,
          loc.linkable ? safeLink(loc.href) : el("span", { class: "inert" }, boundedText(loc.href || "(no address)")),
          loc.linkable ? null : el("span", { class: "tag", text: "not a web link" }),
          attrs ? el("span", { class: "loc-attrs" }, " ", boundedText(attrs)) : null,
        );
      },
      { noun: "locations" },
    );
    out.push(ol);
    if (more) out.push(more);
  }
  if (v.note) out.push(el("p", { class: "note", text: String(v.note) }));
  if (locations.length && v.text) {
    out.push(lazyDetails("The location list as received", v.text));
  } else if (v.raw && v.format !== "string") {
    out.push(lazyDetails("As received", v.raw));
  }
  return out;
}

/**
 * A closed disclosure whose text is drawn when it is first opened (a record's raw
 * values may be long: they cost nothing until asked for).
 * @param {string} summary
 * @param {string} text
 * @returns {HTMLDetailsElement}
 */
function lazyDetails(summary, text) {
  const code = el("code", { class: "raw-json" });
  const details = el("details", { class: "raw" }, el("summary", { text: summary }), code);
  details.addEventListener(
    "toggle",
    () => {
      if (details.open && !code.firstChild) code.appendChild(boundedText(text));
    },
    { once: false },
  );
  return details;
}

/**
 * @param {WhichRaResult} result
 * @param {string} [name] the name asked about
 * @param {() => HTMLButtonElement} [again] a "Try again" button
 * @returns {Node[]}
 */
export function drawWhichRa(result, name = "", again) {
  const lead = [name ? el("code", { class: "asked" }, visibleText(name)) : null, name ? ": " : "", result.message];
  /** @type {(Node | null)[]} */
  const next = !result.ok && again ? [again()] : [];
  /** @type {Node[]} */
  const out = [outcomeLine(result, lead, next)];
  const answers = Array.isArray(result.answers) ? result.answers : [];
  if (answers.length) {
    out.push(
      table({
        caption: "Registration agencies",
        id: "which-ra",
        className: "values-table",
        columns: ["DOI name", "Registration agency", "Answer"],
        rows: answers.map((x) => [
          el("code", null, visibleText(x.doi || "–")),
          x.ra ?? "–",
          visibleText(x.message || x.status || ""),
        ]),
      }),
    );
  }
  if (typeof result.status === "number" && result.status)
    out.push(el("p", { class: "meta", text: `HTTP ${result.status}` }));
  return out;
}
