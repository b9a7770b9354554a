// @ts-check
/**
 * `<doi-tool>`: the widget's lookup box, in a shadow root the host's CSS cannot reach.
 * Each pause in typing is one request (`box`: the text read as Inspect reads it, and the
 * selected name's link made with the box's link options); the box shows the name, its
 * link and `doi:` URI, or what is wrong and where, always with the reply's warnings
 * (a final period left out is said, never dropped silently). Enter or Resolve asks for
 * the handle record of that exact name (`{prefix, suffix}`, never the text read again).
 * Theme it with CSS custom properties: --doiname-accent, --doiname-bg, --doiname-fg,
 * --doiname-muted, --doiname-border, --doiname-radius, --doiname-font.
 * @module widget/box
 */
import { INSPECT_MAX_CHARS } from "../engine/limits.gen.js";
import { el } from "../ui/dom.js";
import { guardLongPaste } from "../ui/long-paste.js";
import { doiLink, linkOptions } from "./options.js";

/** @typedef {import("./channel.js").Channel} Channel */
/** @typedef {import("../engine/types.gen.js").LinkedReading} LinkedReading */

/** Wait after a keystroke before asking (ms). */
const PAUSE_MS = 120;

const STYLE = `
:host{all:initial;display:block;max-width:36rem;color:var(--doiname-fg,#1b1f24);
 font:var(--doiname-font,14px/1.4 system-ui,sans-serif)}
.box{all:initial;display:grid;gap:.5em;padding:.75em;background:var(--doiname-bg,#fff);
 color:var(--doiname-fg,#1b1f24);font:var(--doiname-font,14px/1.4 system-ui,sans-serif);
 border:1px solid var(--doiname-border,#8c959f);border-radius:var(--doiname-radius,6px)}
label{font-weight:600}
.row{display:flex;gap:.4em;flex-wrap:wrap}
textarea{flex:1 1 12em;min-width:0;font:inherit;resize:none;field-sizing:content;max-height:6lh;
 white-space:pre-wrap;overflow-wrap:anywhere;padding:.4em .5em;border:1px solid var(--doiname-border,#8c959f);
 border-radius:var(--doiname-radius,6px);background:var(--doiname-bg,#fff);color:inherit}
button{font:inherit;padding:.35em .7em;border-radius:var(--doiname-radius,6px);cursor:pointer;
 border:1px solid var(--doiname-accent,#0b5cad);background:var(--doiname-accent,#0b5cad);color:#fff}
button.quiet{background:transparent;color:var(--doiname-accent,#0b5cad)}
button:disabled{opacity:.5;cursor:default}
:focus-visible{outline:3px solid var(--doiname-accent,#0b5cad);outline-offset:2px}
a{color:var(--doiname-accent,#0b5cad);word-break:break-all}
code{font:12px/1.4 ui-monospace,monospace;word-break:break-all}
.out{display:grid;gap:.3em}
.readings{margin:0;padding-left:1.4em}
.readings [aria-current]{font-weight:600}
.muted{color:var(--doiname-muted,#57606a)}
.error{color:#b3261e}
[hidden]{display:none!important}`;

/**
 * What a reply says to the person: the selected name's first warning or error (Python
 * lists the most severe first) that the reading line does not already say, else the
 * reading line (what was left out, as Inspect's card says it), else, when there is no
 * name to link, the reply's message.
 * @param {LinkedReading} got
 * @returns {{text: string, error: boolean}}
 */
export function boxMessage(got) {
  const found = got.inspection;
  const c = found.selected === null ? null : found.candidates[found.selected];
  const line = found.headline;
  const explained = line ? line.explains : "";
  const worst = [...(c ? c.findings : []), ...found.notes].find((f) => f.severity !== "info" && f.code !== explained);
  if (worst) return { text: worst.message, error: worst.severity === "error" || !got.href };
  if (line && got.href) return { text: line.said, error: false };
  return got.href ? { text: "", error: false } : { text: found.message, error: true };
}

/**
 * Define `<doi-tool>` (once) for a channel to the engine; its links go where the
 * widget's configuration says (the element's own `data-level` aside).
 * @param {Channel} channel
 * @param {import("./options.js").WidgetConfig} config
 */
export function defineBox(channel, config) {
  if (customElements.get("doi-tool")) return;

  class DoiTool extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: "open" });
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLE);
      root.adoptedStyleSheets = [sheet];
      const id = "doiname-input";
      // A text area of one row: pasted lines keep their breaks (an <input> turns them into
      // spaces, and the reading of a list then differs from Batch's).
      this.input = el("textarea", {
        id,
        rows: "1",
        autocomplete: "off",
        spellcheck: "false",
        placeholder: "10.1000/182",
        part: "input",
      });
      this.resolveButton = el("button", { type: "button", text: "Resolve" });
      this.link = el("a", { rel: "noopener noreferrer" });
      this.uri = el("code");
      this.copyLink = el("button", { type: "button", class: "quiet", text: "Copy link" });
      this.copyUri = el("button", { type: "button", class: "quiet", text: "Copy doi: URI" });
      this.out = el(
        "div",
        { class: "out", hidden: true },
        el("div", null, "Link: ", this.link),
        el("div", null, "URI: ", this.uri),
        el("div", { class: "row" }, this.copyLink, this.copyUri),
      );
      this.readings = el("ol", { class: "readings", "aria-label": "Readings of the text", hidden: true });
      this.status = el("div", { class: "muted", role: "status", "aria-live": "polite" });
      this.box = el(
        "div",
        { class: "box", part: "box" },
        el("label", { for: id, text: "DOI, doi: URI or doi.org link" }),
        el("div", { class: "row" }, this.input, this.resolveButton),
        this.out,
        this.readings,
        this.status,
      );
      root.append(this.box);
      this.timer = 0;
      this.version = 0;
      /** The reading on screen and the text it is for. @type {{text: string, got: LinkedReading} | null} */
      this.shown = null;
      this.input.addEventListener(
        "focus",
        () => channel.open().catch((e) => this.fail(e instanceof Error ? e.message : String(e))),
        { once: true },
      );
      this.input.addEventListener("input", () => {
        clearTimeout(this.timer);
        this.timer = window.setTimeout(() => void this.update(), PAUSE_MS);
      });
      // A paste too long to read stays out of the box; Python's answer says so at once.
      guardLongPaste(this.input, INSPECT_MAX_CHARS, (text) => {
        clearTimeout(this.timer);
        void this.update(text);
      });
      this.input.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
          e.preventDefault(); // Shift+Enter starts a new line
          void this.resolve();
        }
      });
      this.resolveButton.addEventListener("click", () => void this.resolve());
      this.copyLink.addEventListener("click", () => void this.copy(this.link.href, "Link copied."));
      this.copyUri.addEventListener("click", () => void this.copy(this.uri.textContent || "", "doi: URI copied."));
    }

    connectedCallback() {
      const initial = this.getAttribute("value");
      if (initial && !this.input.value) this.input.value = initial;
    }

    /**
     * The widget cannot work on this page: say why, in the box (widget/blocked.js).
     * @param {string} why
     */
    fail(why) {
      this.out.hidden = true;
      this.readings.hidden = true;
      this.say(why, true);
    }

    /** @param {string} text @param {boolean} [error] */
    say(text, error = false) {
      this.status.textContent = text;
      this.status.className = error ? "error" : "muted";
    }

    /**
     * The reading of `text` (the one on screen, or asked now).
     * @param {string} text
     * @returns {Promise<LinkedReading>}
     */
    async read(text) {
      if (this.shown && this.shown.text === text) return this.shown.got;
      return channel.request("box", { text, options: linkOptions(config, this) });
    }

    /** @param {string} [text] what to read (default: the box's text) */
    async update(text = this.input.value) {
      const v = ++this.version;
      if (!text.trim()) {
        this.shown = null;
        this.out.hidden = true;
        this.readings.hidden = true;
        delete this.box.dataset.verdict;
        this.say("");
        return;
      }
      try {
        const got = await this.read(text);
        if (v !== this.version) return;
        this.shown = { text, got };
        this.draw(got);
      } catch (e) {
        if (v !== this.version) return;
        this.out.hidden = true;
        this.readings.hidden = true;
        this.say(e instanceof Error ? e.message : String(e), true);
      }
    }

    /** @param {LinkedReading} got */
    draw(got) {
      const found = got.inspection;
      const c = found.selected === null ? null : found.candidates[found.selected];
      const message = boxMessage(got);
      // A shortDOI: Resolve asks doi.org what it stands for (one click).
      const short = c !== null && c.kind === "short-doi";
      this.resolveButton.textContent = short ? "Expand" : "Resolve";
      if (got.href && c) {
        this.link.textContent = c.doi.name;
        this.link.href = got.href;
        this.uri.textContent = got.uri ?? "";
        this.out.hidden = false;
      } else {
        this.out.hidden = true;
      }
      // The other readings of the text, as Inspect lists them (the selected one marked).
      const several = found.candidates.length > 1 || (found.candidates.length === 1 && !c);
      this.readings.hidden = !several;
      this.readings.replaceChildren(
        ...(several
          ? found.candidates.map((r, i) =>
              el(
                "li",
                {
                  "data-how": r.how,
                  "data-status": r.status,
                  "data-name": r.doi.name,
                  "aria-current": i === found.selected ? "true" : null,
                },
                el("code", { text: r.doi.name }),
                ` (${r.label})`,
              ),
            )
          : []),
      );
      this.box.dataset.verdict = found.verdict;
      if (short) this.say(found.message);
      else this.say(message.text, message.error);
    }

    async resolve() {
      const text = this.input.value;
      if (!text.trim()) return;
      this.resolveButton.disabled = true;
      this.say("Resolving…");
      try {
        const got = await this.read(text);
        const found = got.inspection;
        const c = found.selected === null ? null : found.candidates[found.selected];
        if (c && c.kind === "short-doi") {
          await this.expand(c.doi.name);
          return;
        }
        if (!got.href || !c) {
          const message = boxMessage(got);
          this.say(message.text, true);
          return;
        }
        const record = await channel.request("resolve", { name: { prefix: c.doi.prefix, suffix: c.doi.suffix } });
        this.say(record.message, !record.ok);
        if (record.ok && record.url)
          this.status.append(" ", doiLink(record.url, record.url, "Where this DOI resolves"));
      } catch (e) {
        this.say(e instanceof Error ? e.message : String(e), true);
      } finally {
        this.resolveButton.disabled = false;
      }
    }

    /**
     * Ask doi.org what the shortDOI `short` stands for; the DOI name it names goes into
     * the box (read as any text is), and the answer is said.
     * @param {string} short
     */
    async expand(short) {
      this.say(`Asking doi.org what ${short} stands for…`);
      const record = await channel.request("expand", { short });
      const written = record.target_text;
      if (record.target_doi && written) {
        this.input.value = written;
        await this.update(written);
        this.say(`doi.org says ${short} stands for ${record.target_doi.name}.`);
      } else {
        this.say(record.ok ? `doi.org knows ${short}, but its record names no DOI name.` : record.message, true);
      }
    }

    /** @param {string} text @param {string} done */
    async copy(text, done) {
      try {
        await navigator.clipboard.writeText(text);
        this.say(done);
      } catch {
        this.say("Copy failed: select the text and copy it by hand.", true);
      }
    }
  }

  customElements.define("doi-tool", DoiTool);
}
