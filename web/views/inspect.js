// @ts-check
/**
 * The main panel: everything the core says about one pasted text, updated as the
 * person types. Every value comes from `call`; this module only draws.
 * @module views/inspect
 */
import { el, replace, valueRow, copyButton, table } from "../dom.js";
import { call, coreError, latestOnly } from "./api.js";
import { chars, codePointLabel, isInvisible, spanWords, utf16Offset, visibleText } from "./text.js";

/** @typedef {import("./api.js").FindingJson} FindingJson */
/** @typedef {import("./api.js").ChangeJson} ChangeJson */
/** @typedef {import("./api.js").CoreError} CoreError */

/** The URL levels of `to_url`, in the order shown. */
const LEVELS = /** @type {const} */ ([
  ["recommended", "Recommended: what to print and link (DOI Handbook)."],
  ["mandatory", "Mandatory: only what must be encoded for a working link."],
  ["strict", "Strict: the 2025 Handbook's encoding for proxy and API URLs."],
]);

/** Human words for the input forms `read` reports. */
const FORMS = /** @type {Record<string, string>} */ ({
  "name": "a bare DOI name",
  "doi": "a DOI name",
  "doi-uri": "a doi: URI",
  "urn": "a urn:doi: name",
  "info-uri": "an info:doi/ URI",
  "hdl-uri": "an hdl: URI",
  "url": "a resolver link",
  "urn-url": "a resolver link in URN form",
  "api-url": "a handle API link",
  "proxy-url": "a link through a library proxy",
  "proxy-login": "a library proxy login link",
});

/** Error codes of the engine itself (the bridge, the worker), not verdicts on the text. */
const ENGINE_CODES = new Set(["internal", "not-started", "bad-arguments", "unknown-function"]);

const SEVERITY_RANK = /** @type {Record<string, number>} */ ({ info: 1, warning: 2, error: 3 });

/**
 * @typedef {{start: number, end: number, severity: string, message: string}} Mark
 */

export class InspectView {
  /**
   * @param {{
   *   input: HTMLInputElement,
   *   summary: HTMLElement,
   *   mirrorWrap: HTMLElement,
   *   mirror: HTMLElement,
   *   errorBox: HTMLElement,
   *   results: HTMLElement,
   *   expandShort: (text: string) => Promise<any>,
   *   onUse: (text: string) => void,
   * }} parts
   */
  constructor(parts) {
    this.parts = parts;
    /** Which "why is this encoded" views and code-point views are open (kept across updates). */
    this.open = new Set();
    this.ready = false;
    /** The text whose results are on screen. */
    this.shown = null;
    this.update = latestOnly(/** @param {string} text */ (text, isStale) => this.compute(text, isStale));
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
   * Compute and draw the results for `text` (drops the answer when newer text waits).
   * @param {string} text
   * @param {() => boolean} isStale
   */
  async compute(text, isStale) {
    const p = this.parts;
    if (!text.trim()) {
      this.shown = text;
      replace(p.summary, text ? "Only spaces so far: type or paste a DOI name." : "");
      replace(p.results);
      replace(p.mirror);
      p.mirrorWrap.hidden = true;
      p.errorBox.hidden = true;
      replace(p.errorBox);
      return;
    }
    if (this.failed) return;
    if (!this.ready) {
      const waiting = "Results will appear as soon as the DOI engine is ready.";
      replace(p.summary, waiting);
      replace(p.results, el("p", { class: "pending", id: "inspect-waiting", text: waiting }));
      p.results.setAttribute("aria-busy", "true");
    }
    const [reading, findings] = await Promise.allSettled([call("read", text), call("check", text)]);
    if (isStale()) return;
    /** @type {FindingJson[]} */
    const found = findings.status === "fulfilled" && Array.isArray(findings.value) ? findings.value : [];
    if (reading.status === "rejected") {
      const err = coreError(reading.reason);
      if (!err.code || ENGINE_CODES.has(err.code)) {
        // Not a verdict on the text: the engine itself failed.
        this.drawEngineError(text, err.message);
        return;
      }
      const canonical = await call("canonical_uri_2003", text).then((v) => /** @type {string} */ (v), () => null);
      if (isStale()) return;
      this.drawError(text, err, found, canonical);
      return;
    }
    const doi = reading.value.doi;
    const form = String(reading.value.form ?? "");
    const requests = {
      recommended: call("to_url", text),
      mandatory: call("to_url", text, { kwargs: { level: "mandatory" } }),
      strict: call("to_url", text, { kwargs: { level: "strict" } }),
      explain_recommended: call("explain_url", text, "recommended"),
      explain_mandatory: call("explain_url", text, "mandatory"),
      explain_strict: call("explain_url", text, "strict"),
      urn: call("to_urn_url", text),
      uri: call("to_uri", text),
      api: call("to_handles_api_url", text),
      canonical: call("canonical_uri_2003", text),
      html: call("to_html_link", text),
      markdown: call("to_markdown_link", text),
    };
    const keys = Object.keys(requests);
    const settled = await Promise.allSettled(Object.values(requests));
    if (isStale()) return;
    /** @type {Record<string, {ok: boolean, value: any, error?: CoreError}>} */
    const r = {};
    keys.forEach((k, i) => {
      const s = settled[i];
      r[k] = s.status === "fulfilled" ? { ok: true, value: s.value } : { ok: false, value: null, error: coreError(s.reason) };
    });
    this.drawResult(text, doi, form, r, found);
  }

  /**
   * The summary line, the mirror with its marks and the findings list.
   * @param {string} text
   * @param {Mark[]} marks
   */
  drawMirror(text, marks) {
    const p = this.parts;
    const shown = marks.filter((m) => m.severity !== "info");
    if (!shown.length) {
      p.mirrorWrap.hidden = true;
      replace(p.mirror);
      return;
    }
    p.mirrorWrap.hidden = false;
    replace(p.mirror, buildMirror(text, shown));
  }

  /**
   * @param {string} text
   * @param {CoreError} err
   * @param {FindingJson[]} findings
   * @param {string | null} canonical
   */
  drawError(text, err, findings, canonical) {
    const p = this.parts;
    this.shown = text;
    p.results.removeAttribute("aria-busy");
    /** @type {Mark[]} */
    const marks = findingMarks(findings);
    if (err.position !== null && err.position !== undefined) {
      const end = err.end ?? err.position + 1;
      if (!marks.some((m) => m.severity === "error" && m.start === err.position && m.end === end)) {
        marks.push({ start: err.position, end, severity: "error", message: err.message });
      }
    }
    this.drawMirror(text, marks);
    replace(p.summary, "Not a DOI name: " + err.message);

    const box = p.errorBox;
    box.hidden = false;
    const cps = chars(text);
    /** @type {(Node | string | null)[]} */
    const where = [];
    if (err.position !== null && err.position !== undefined && err.position < cps.length) {
      const end = Math.min(err.end ?? err.position + 1, cps.length);
      const at = cps.slice(err.position, end);
      where.push(el("p", { class: "where" },
        `Where: ${spanWords(err.position, end)} of your input`,
        at.length === 1 ? ` (${codePointLabel(at[0])}${isInvisible(at[0]) ? ", invisible" : ""})` : "",
        ". ",
        this.selectButton(text, err.position, end)));
    } else if (err.position !== null && err.position !== undefined) {
      where.push(el("p", { class: "where" }, `Where: at the end of your input (after character ${cps.length}).`));
    }
    /** @type {HTMLElement | null} */
    let expand = null;
    if (err.code === "short-doi") {
      const out = el("div", { class: "expand-out", role: "status", "aria-live": "polite" });
      const button = el("button", { type: "button", class: "primary", text: "Expand" });
      button.addEventListener("click", () => this.expand(text, button, out));
      expand = el("div", { class: "expand" },
        el("p", null, "A shortDOI is an alias. Expanding it asks doi.org for the DOI name it stands for."),
        button, out);
    }
    replace(box,
      el("h3", { class: "error-title", text: "This is not a DOI name" }),
      el("p", { class: "error-message", id: "error-message", text: err.message }),
      where,
      expand);
    /** @type {Node[]} */
    const blocks = [];
    const others = findings.filter((f) => f.message !== err.message);
    if (others.length) blocks.push(this.findingsBlock(text, others));
    blocks.push(this.codePointsBlock(text, null));
    if (canonical) {
      blocks.push(el("section", { class: "block" },
        el("h3", { text: "Other forms" }),
        el("dl", { class: "values" }, valueRow("2003 canonical doi: URI", canonical, { id: "result-canonical" }))));
    }
    replace(p.results, blocks);
  }

  /**
   * The engine failed on this text (not the text's fault): say so plainly.
   * @param {string} text
   * @param {string} message
   */
  drawEngineError(text, message) {
    const p = this.parts;
    this.shown = text;
    p.results.removeAttribute("aria-busy");
    p.mirrorWrap.hidden = true;
    replace(p.mirror);
    const say = `The DOI engine could not process this input: ${message}`;
    replace(p.summary, say);
    p.errorBox.hidden = false;
    replace(p.errorBox, el("h3", { class: "error-title", text: "Something went wrong on this page" }),
      el("p", { class: "error-message", id: "error-message", text: say }));
    replace(p.results);
  }

  /**
   * @param {string} text
   * @param {HTMLButtonElement} button
   * @param {HTMLElement} out
   */
  async expand(text, button, out) {
    button.disabled = true;
    replace(out, el("p", { class: "pending", text: "Asking doi.org…" }));
    try {
      const record = await this.parts.expandShort(text);
      const target = expandTarget(record);
      /** @type {(Node | string | null)[]} */
      const parts = [el("p", { class: record && record.ok ? "ok" : "problem", text: String(record?.message ?? "") })];
      if (target) {
        const use = el("button", { type: "button", text: "Inspect this DOI name" });
        use.addEventListener("click", () => this.parts.onUse(target));
        parts.push(el("p", null, "It stands for ", el("code", { class: "expanded", id: "expanded-name", text: target }), " ",
          copyButton(() => target, "expanded DOI name"), " ", use));
      }
      replace(out, parts);
    } catch (e) {
      replace(out, el("p", { class: "problem", text: coreError(e).message }));
    } finally {
      button.disabled = false;
    }
  }

  /**
   * @param {string} text
   * @param {{prefix: string, suffix: string, name: string}} doi
   * @param {string} form
   * @param {Record<string, {ok: boolean, value: any, error?: CoreError}>} r
   * @param {FindingJson[]} findings
   */
  drawResult(text, doi, form, r, findings) {
    const p = this.parts;
    this.shown = text;
    p.results.removeAttribute("aria-busy");
    p.errorBox.hidden = true;
    replace(p.errorBox);
    this.drawMirror(text, findingMarks(findings));
    const counts = countSeverities(findings);
    const notes = [counts.error && `${counts.error} error${counts.error > 1 ? "s" : ""}`,
      counts.warning && `${counts.warning} warning${counts.warning > 1 ? "s" : ""}`].filter(Boolean);
    replace(p.summary, `DOI name ${doi.name}` + (notes.length ? ` (${notes.join(", ")})` : "") + ".");

    const nameCode = el("code", { id: "result-name", class: "value name", text: doi.name });
    const head = el("section", { class: "block name-block" },
      el("h3", { text: "DOI name" }),
      el("div", { class: "name-line" }, nameCode, copyButton(() => doi.name, "DOI name")),
      el("p", { class: "meta" },
        "Prefix ", el("code", { text: doi.prefix }), " · suffix ", el("code", { text: doi.suffix }),
        form ? ` · read from ${FORMS[form] ?? form}` : ""));

    const urls = el("section", { class: "block" }, el("h3", { text: "Links" }),
      LEVELS.map(([level, blurb]) => this.urlBlock(level, blurb, r[level], r["explain_" + level])));

    const forms = el("section", { class: "block" }, el("h3", { text: "Other forms" }),
      el("dl", { class: "values" },
        row("URN link", r.urn, "result-urn"),
        row("doi: URI", r.uri, "result-uri"),
        row("Handle API URL", r.api, "result-api"),
        row("2003 canonical doi: URI", r.canonical, "result-canonical")));

    const cite = el("section", { class: "block" }, el("h3", { text: "For web pages and notes" }),
      el("dl", { class: "values" },
        row("HTML link", r.html, "result-html"),
        row("Markdown link", r.markdown, "result-markdown")));

    replace(p.results, head,
      findings.length ? this.findingsBlock(text, findings) : null,
      urls, forms, cite, this.codePointsBlock(text, chars(doi.name).length));
  }

  /**
   * One URL level: the URL, a copy button, and the "why is this encoded" table.
   * @param {string} level
   * @param {string} blurb
   * @param {{ok: boolean, value: any, error?: CoreError}} url
   * @param {{ok: boolean, value: any, error?: CoreError}} explain
   * @returns {HTMLElement}
   */
  urlBlock(level, blurb, url, explain) {
    const id = `url-${level}`;
    const label = `URL (${level})`;
    if (!url.ok) {
      return el("div", { class: "url-block" }, el("p", { class: "level-name", text: label }),
        el("p", { class: "problem", text: url.error?.message ?? "" }));
    }
    /** @type {ChangeJson[]} */
    const changes = explain.ok && Array.isArray(explain.value) ? explain.value : [];
    const key = "explain-" + level;
    const details = el("details", { class: "why", open: this.open.has(key) },
      el("summary", null, changes.length
        ? `Why is this encoded? ${changes.length} character${changes.length > 1 ? "s" : ""} changed`
        : "Why is this encoded? Nothing needed encoding"),
      explain.ok ? explainTable(changes, level) : el("p", { class: "problem", text: explain.error?.message ?? "" }));
    details.addEventListener("toggle", () => {
      if (details.open) this.open.add(key);
      else this.open.delete(key);
    });
    const code = el("code", { class: "value", id, text: url.value });
    return el("div", { class: "url-block" },
      el("div", { class: "url-head" },
        el("span", { class: "level-name", text: label }),
        el("span", { class: "level-blurb", text: blurb })),
      el("div", { class: "url-line" }, code, copyButton(() => url.value, label),
        level === "recommended" ? openLink(String(url.value)) : null),
      details);
  }

  /**
   * The list of findings from `check`, each with its position.
   * @param {string} text
   * @param {FindingJson[]} findings
   * @returns {HTMLElement}
   */
  findingsBlock(text, findings) {
    const sorted = [...findings].sort((a, b) =>
      (SEVERITY_RANK[b.severity] ?? 0) - (SEVERITY_RANK[a.severity] ?? 0));
    return el("section", { class: "block findings-block" },
      el("h3", { text: "Checks" }),
      el("ul", { class: "findings", id: "findings" }, sorted.map((f) => {
        const hasInput = typeof f.input_start === "number" && typeof f.input_end === "number";
        /** @type {(Node | string)[]} */
        const pos = [];
        if (hasInput) {
          const s = /** @type {number} */ (f.input_start);
          const e = /** @type {number} */ (f.input_end);
          const whole = s === 0 && e >= chars(text).length;
          pos.push(whole ? "the whole input" : `${spanWords(s, e)} of your input`);
          if (!whole) pos.push(" ", this.selectButton(text, s, e));
        } else if (f.in_name) {
          pos.push(`${spanWords(f.start, f.end)} of the name`);
        }
        return el("li", { class: `finding sev-${f.severity}`, "data-code": f.code },
          el("span", { class: `badge sev-${f.severity}`, text: f.severity }),
          el("span", { class: "finding-body" },
            el("span", { class: "finding-message", text: f.message }),
            el("span", { class: "finding-meta" },
              pos.length ? el("span", { class: "finding-pos" }, ...pos) : null,
              f.source ? el("span", { class: "finding-source", text: `Source: ${f.source}` }) : null)));
      })));
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
      type: "button", class: "link-like", text: "Show in input",
      "aria-label": `Show in input: ${spanWords(start, end)}`,
      onclick: () => {
        if (input.value !== text) return;
        input.focus();
        input.setSelectionRange(utf16Offset(text, start), utf16Offset(text, Math.max(end, start)));
      },
    });
  }

  /**
   * The code-point view, computed on demand by `describe_code_points(text)`.
   * @param {string} text the input (its name's characters are listed, or the input's own)
   * @param {number | null} count the name's length, or null when the input is not a name
   * @returns {HTMLElement}
   */
  codePointsBlock(text, count) {
    const key = "codepoints";
    const body = el("div", { class: "codepoints", id: "codepoints" });
    const button = el("button", {
      type: "button", id: "codepoints-toggle", "aria-expanded": "false", "aria-controls": "codepoints",
      text: "Show each character",
    });
    const show = async () => {
      button.setAttribute("aria-expanded", "true");
      button.textContent = "Hide the characters";
      body.hidden = false;
      replace(body, el("p", { class: "pending", text: "Looking the characters up…" }));
      try {
        const list = await call("describe_code_points", text);
        replace(body, codePointTable(Array.isArray(list) ? list : []));
      } catch (e) {
        replace(body, el("p", { class: "problem", text: coreError(e).message }));
      }
    };
    const hide = () => {
      button.setAttribute("aria-expanded", "false");
      button.textContent = "Show each character";
      body.hidden = true;
      replace(body);
    };
    button.addEventListener("click", () => {
      if (button.getAttribute("aria-expanded") === "true") {
        this.open.delete(key);
        hide();
      } else {
        this.open.add(key);
        void show();
      }
    });
    body.hidden = true;
    if (this.open.has(key)) void show();
    return el("section", { class: "block" },
      el("h3", { text: "Characters" }),
      el("p", { class: "hint", text: count === null
        ? "See each character of your input with its Unicode number and name."
        : `The name has ${count} character${count === 1 ? "" : "s"}. See each one with its Unicode number, name and script.` }),
      button, body);
  }
}

/**
 * "Open" for the resolver link the core made (always its http(s) resolver URL).
 * @param {string} url
 * @returns {HTMLAnchorElement | null}
 */
function openLink(url) {
  if (!/^https?:\/\//i.test(url)) return null;
  return el("a", { class: "button-link", href: url, rel: "noopener noreferrer", target: "_blank",
    "aria-label": "Open the link at the resolver (new tab)", text: "Open" });
}

/**
 * A value row from a settled call (the core's message when it failed).
 * @param {string} label
 * @param {{ok: boolean, value: any, error?: CoreError}} result
 * @param {string} id
 * @returns {HTMLElement}
 */
function row(label, result, id) {
  if (result.ok) return valueRow(label, String(result.value), { id });
  return el("div", { class: "row" }, el("dt", { text: label }),
    el("dd", null, el("span", { class: "problem", id, text: result.error?.message ?? "" })));
}

/**
 * @param {FindingJson[]} findings
 * @returns {{error: number, warning: number, info: number}}
 */
function countSeverities(findings) {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) {
    if (f.severity in counts) counts[/** @type {"error" | "warning" | "info"} */ (f.severity)] += 1;
  }
  return counts;
}

/**
 * The input spans the findings point at.
 * @param {FindingJson[]} findings
 * @returns {Mark[]}
 */
function findingMarks(findings) {
  /** @type {Mark[]} */
  const marks = [];
  for (const f of findings) {
    if (typeof f.input_start !== "number" || typeof f.input_end !== "number") continue;
    marks.push({ start: f.input_start, end: f.input_end, severity: f.severity, message: f.message });
  }
  return marks;
}

/**
 * A copy of the input with <mark> around the characters the marks point at.
 * An empty span (a missing character) becomes a caret mark at its place.
 * @param {string} text
 * @param {Mark[]} marks
 * @returns {Node[]}
 */
export function buildMirror(text, marks) {
  const cps = chars(text);
  const n = cps.length;
  /** @type {{rank: number, severity: string, messages: string[]}[]} */
  const at = cps.map(() => ({ rank: 0, severity: "", messages: [] }));
  /** @type {Map<number, Mark[]>} */
  const carets = new Map();
  for (const m of marks) {
    const start = Math.max(0, Math.min(m.start, n));
    const end = Math.max(start, Math.min(m.end, n));
    if (end === start) {
      carets.set(start, [...(carets.get(start) ?? []), m]);
      continue;
    }
    const rank = SEVERITY_RANK[m.severity] ?? 0;
    for (let i = start; i < end; i += 1) {
      const cell = at[i];
      cell.messages.push(m.message);
      if (rank > cell.rank) {
        cell.rank = rank;
        cell.severity = m.severity;
      }
    }
  }
  /** @type {Node[]} */
  const out = [];
  /**
   * @param {number} i
   */
  const caretAt = (i) => {
    const list = carets.get(i);
    if (!list) return;
    const worst = list.reduce((a, b) => ((SEVERITY_RANK[b.severity] ?? 0) > (SEVERITY_RANK[a.severity] ?? 0) ? b : a));
    out.push(el("mark", {
      class: `caret sev-${worst.severity}`, title: list.map((m) => m.message).join("\n"),
      "data-start": i, "data-end": i, "aria-label": `missing character at position ${i + 1}`,
    }, "‸"));
  };
  let i = 0;
  while (i < n) {
    caretAt(i);
    const cell = at[i];
    let j = i + 1;
    const key = cell.rank + "\u0000" + cell.messages.join("\u0000");
    while (j < n && !carets.has(j) && at[j].rank + "\u0000" + at[j].messages.join("\u0000") === key) j += 1;
    const piece = cps.slice(i, j).join("");
    if (cell.rank > 0) {
      out.push(el("mark", {
        class: `sev-${cell.severity}`, title: cell.messages.join("\n"), "data-start": i, "data-end": j,
      }, visibleText(piece)));
    } else {
      out.push(visibleText(piece));
    }
    i = j;
  }
  caretAt(n);
  return out;
}

/**
 * The "why is this encoded" table for one level.
 * @param {ChangeJson[]} changes
 * @param {string} level
 * @returns {HTMLElement}
 */
function explainTable(changes, level) {
  if (!changes.length) {
    return el("p", { class: "hint", text: `Every character of the name is kept as it is in the ${level} URL.` });
  }
  return table({
    caption: `Characters encoded in the ${level} URL`, captionHidden: true, className: "explain",
    columns: ["Character", "Position", "Encoded as", "Rule", "Source"],
    rows: changes.map((c) => [
      [el("span", { class: "char" }, visibleText(c.char)), " ", el("span", { class: "cp", text: c.code_point })],
      `${c.start + 1}`,
      el("code", { text: c.encoded }),
      c.rule,
      { class: "source", content: c.source },
    ]),
  });
}

/**
 * The code-point table from `describe_code_points`.
 * @param {Record<string, any>[]} list
 * @returns {HTMLElement}
 */
function codePointTable(list) {
  return table({
    caption: "Each character", captionHidden: true, className: "cps", id: "codepoints-table", scroll: true,
    columns: ["#", "Character", "Code point", "Name", "Kind", "Script", "Looks like", "In your input"],
    rows: list.map((c, i) => {
      const ch = String(c.char ?? "");
      const cat = String(c.category ?? "");
      const where = typeof c.input_start === "number" && typeof c.input_end === "number"
        ? spanWords(c.input_start, c.input_end) : "";
      return [
        { class: "num", content: String(i + 1) },
        el("span", { class: "char" }, visibleText(ch)),
        el("code", { text: String(c.code_point ?? codePointLabel(ch)) }),
        String(c.name ?? ""),
        CATEGORIES[cat] ? `${CATEGORIES[cat]} (${cat})` : cat,
        String(c.script ?? ""),
        c.looks_like ? { class: "looks", content: String(c.looks_like) } : "",
        where,
      ];
    }),
    rowAttrs: (i) => (list[i].looks_like ? { class: "lookalike" } : null),
  });
}

/** Unicode general categories in words (display only). */
const CATEGORIES = /** @type {Record<string, string>} */ ({
  Lu: "uppercase letter", Ll: "lowercase letter", Lt: "titlecase letter", Lm: "modifier letter",
  Lo: "letter", Mn: "combining mark", Mc: "spacing mark", Me: "enclosing mark", Nd: "digit",
  Nl: "letter number", No: "number", Pc: "connector punctuation", Pd: "dash", Ps: "opening bracket",
  Pe: "closing bracket", Pi: "opening quote", Pf: "closing quote", Po: "punctuation", Sm: "math symbol",
  Sc: "currency symbol", Sk: "modifier symbol", So: "symbol", Zs: "space", Zl: "line separator",
  Zp: "paragraph separator", Cc: "control character", Cf: "invisible format character",
  Cs: "surrogate", Co: "private use", Cn: "unassigned",
});

/**
 * The DOI name a shortDOI expansion found, whatever the bridge calls the field.
 * @param {any} record
 * @returns {string | null}
 */
function expandTarget(record) {
  if (!record || typeof record !== "object") return null;
  for (const key of ["target", "name", "doi", "alias"]) {
    const v = record[key];
    if (typeof v === "string" && v) return v;
    if (v && typeof v === "object" && typeof v.name === "string") return v.name;
  }
  return null;
}
