/**
 * doi.org's answers drawn: where resolving a name leads (or why not, and what to do
 * next) with its handle record folded away, and what Which RA said of a name. Every value
 * is drawn as text; only values the core marked linkable (`href`) become links; a record
 * is drawn within bounds (bounded.js). The resolve panel (resolve.js) asks and draws them.
 * @module views/handle-record
 */
import { copyButton, el, sourceLine, table, tableRow } from "../ui/dom.js";
import { safeLink, visibleText } from "../ui/text.js";
import { boundedList, boundedText } from "./bounded.js";

/** @typedef {import("../engine/types.gen.js").HandleRecord} HandleRecord */
/** @typedef {import("../engine/types.gen.js").HandleValue} HandleValue */
/** @typedef {import("../engine/types.gen.js").WhichRaResult} WhichRaResult */

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
