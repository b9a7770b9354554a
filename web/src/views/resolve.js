/**
 * The resolve panel: the handle record of the name Inspect selected, asked of doi.org
 * by the request URL Python made from the exact name (`api_url`; a shortDOI's
 * `?type=HS_ALIAS`), read by the core's `read_handle_response`; and the Which RA lookup
 * of that exact name. Every value is drawn as text; only values the core marked
 * linkable (`href`) become links. A record is drawn within bounds (bounded.js): the
 * first values and the first characters of each, the rest behind "Show all".
 * @module views/resolve
 */
import { copyButton, el, replace, table, tableRow } from "../ui/dom.js";
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
   * }} parts
   */
  constructor(doiname, parts) {
    this.doiname = doiname;
    this.parts = parts;
    /** @type {AbortController | null} */
    this.controller = null;
    parts.resolveButton.addEventListener("click", () => void this.run("resolve"));
    parts.whichRaButton.addEventListener("click", () => void this.run("which-ra"));
    parts.cancelButton.addEventListener("click", () => this.cancel());
  }

  /** Stop the request under way, if any. */
  cancel() {
    if (this.controller) this.controller.abort();
  }

  /** Forget the shown result (the input changed to another name). */
  clear() {
    this.cancel();
    replace(this.parts.output);
  }

  /**
   * Say why nothing can be looked up.
   * @param {string} message
   */
  problem(message) {
    replace(
      this.parts.output,
      el(
        "div",
        { class: "outcome outcome-error" },
        el("p", { class: "outcome-message", id: "resolve-outcome", "data-outcome": "error", text: message }),
      ),
    );
  }

  /**
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
    p.cancelButton.disabled = false;
    p.resolveButton.disabled = true;
    p.whichRaButton.disabled = true;
    p.output.setAttribute("aria-busy", "true");
    const asking = what === "resolve" ? "Asking doi.org for the record…" : "Asking doi.org which agency registered it…";
    replace(p.output, el("p", { class: "pending", id: "resolve-pending", text: asking }));
    try {
      const found = await p.getReading(text);
      const c = found.selected === null ? null : found.candidates[found.selected];
      if (this.controller !== controller) return;
      if (!c || c.status === "error" || !c.api_url) {
        const error = (c ? c.findings : found.notes).find((f) => f.severity === "error");
        this.problem(error ? error.message : found.message);
      } else if (what === "resolve") {
        const kind = c.kind === "short-doi" ? "alias" : "handle";
        const record = await this.doiname.lookupUrl(kind, c.api_url, { signal: controller.signal });
        if (this.controller !== controller) return;
        replace(p.output, drawRecord(record));
      } else if (c.kind === "short-doi") {
        this.problem(`${found.message} Expand it first: a shortDOI has no registration agency of its own.`);
      } else {
        const exact = { prefix: c.doi.prefix, suffix: c.doi.suffix };
        const result = await this.doiname.whichRa([exact], { signal: controller.signal });
        if (this.controller !== controller) return;
        replace(p.output, drawWhichRa(result));
      }
    } catch (e) {
      if (this.controller === controller) this.problem(e instanceof Error ? e.message : String(e));
    } finally {
      if (this.controller === controller) {
        this.controller = null;
        p.cancelButton.disabled = true;
        p.resolveButton.disabled = false;
        p.whichRaButton.disabled = false;
        p.output.removeAttribute("aria-busy");
      }
    }
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
 * The outcome line shared by both lookups.
 * @param {{outcome: string, ok: boolean, message: string, status: number | null}} r
 * @param {(Node | string | null)[]} extra
 * @returns {HTMLElement}
 */
function outcomeLine(r, extra) {
  return el(
    "div",
    { class: `outcome ${r.ok ? "outcome-ok" : "outcome-problem"}` },
    el("p", {
      class: "outcome-message",
      id: "resolve-outcome",
      "data-outcome": r.outcome,
      text: String(r.message ?? ""),
    }),
    extra.length ? el("p", { class: "meta" }, ...extra) : null,
  );
}

/**
 * @param {HandleRecord} record
 * @returns {Node[]}
 */
export function drawRecord(record) {
  /** @type {(Node | string | null)[]} */
  const meta = [];
  if (typeof record.status === "number" && record.status) meta.push(`HTTP ${record.status}`);
  if (typeof record.response_code === "number")
    meta.push(`${meta.length ? " · " : ""}responseCode ${record.response_code}`);
  if (record.handle) meta.push(`${meta.length ? " · " : ""}handle `, el("code", null, visibleText(record.handle)));
  /** @type {Node[]} */
  const out = [outcomeLine(record, meta)];
  if (record.url) {
    out.push(
      el(
        "p",
        { class: "resolves-to" },
        "Resolves to ",
        safeLink(record.url),
        " ",
        copyButton(() => record.url ?? "", "target URL"),
      ),
    );
  }
  if (Array.isArray(record.notes) && record.notes.length) {
    out.push(
      el(
        "ul",
        { class: "notes" },
        record.notes.map((n) => el("li", { text: String(n) })),
      ),
    );
  }
  const values = Array.isArray(record.values) ? record.values : [];
  if (values.length) {
    const columns = ["Index", "Type", "Format", "Data", "TTL", "Timestamp"];
    const wrap = table({
      caption: `${values.length} value${values.length > 1 ? "s" : ""} in the handle record`,
      id: "handle-values",
      className: "values-table",
      columns,
      rows: [],
    });
    const body = /** @type {HTMLElement} */ (wrap.querySelector("tbody"));
    const more = boundedList(body, values, (v) => tableRow(columns, valueCells(v), { "data-type": v.type }), {
      noun: "values",
    });
    out.push(wrap);
    if (more) out.push(more);
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
 * @returns {Node[]}
 */
export function drawWhichRa(result) {
  /** @type {Node[]} */
  const out = [
    outcomeLine(result, typeof result.status === "number" && result.status ? [`HTTP ${result.status}`] : []),
  ];
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
  return out;
}
