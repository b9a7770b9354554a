// @ts-check
/*
 * doiname embeddable widget. One classic script tag on a library or publisher page:
 *
 *   <script src="https://TOOL-ORIGIN/widget.js" defer></script>
 *   <doi-tool></doi-tool>                               a compact lookup box
 *   <div data-doiname-linkify> ...references... </div>  DOIs in the text become links
 *   <span data-doi="10.1000/182"></span>                 one DOI, rendered as a link
 *
 * Nothing heavy happens until it is needed: the first focus of a <doi-tool>, or a linkify
 * container or data-doi element scrolled into view, opens a hidden iframe on the tool's own
 * origin (widget-frame.html). That frame runs the same Pyodide worker as the site; this script
 * only sends it calls with postMessage and draws the answers. Every DOI rule (finding DOIs,
 * encoding links) is Python's: this file splits text nodes where Python says and sets textContent.
 *
 * Options on containers: data-resolver, data-level (mandatory|recommended|strict), data-proxy
 * (a library's EZproxy prefix ending in url= or qurl=).
 * Theme <doi-tool> with CSS custom properties: --doiname-accent, --doiname-bg, --doiname-fg,
 * --doiname-muted, --doiname-border, --doiname-radius, --doiname-font.
 */
(() => {
  /** @type {any} */
  const w = window;
  if (w.__doinameWidget) return;
  /** @type {HTMLScriptElement | null} */
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  const base = new URL(".", script?.src ? script.src : location.href).href;
  const toolOrigin = new URL(base).origin;
  const PREFIX = "[doiname widget]";

  /** @typedef {{resolve: (v: any) => void, reject: (e: Error) => void}} Pending */
  /** @type {Map<number, Pending>} */
  const pending = new Map();
  let seq = 0;
  /** @type {HTMLIFrameElement | null} */
  let frame = null;
  /** @type {Promise<void> | null} */
  let readyPromise = null;
  /** @type {(() => void) | null} */
  let markReady = null;
  /** @type {((e: Error) => void) | null} */
  let markFailed = null;
  let failed = false;

  /** @param {string} why */
  function fail(why) {
    if (failed) return;
    failed = true;
    console.warn(
      `${PREFIX} ${why} DOIs stay plain links. To enable the widget, the page's ` +
        `Content-Security-Policy must allow ${toolOrigin} in script-src and frame-src.`,
    );
    if (markFailed) markFailed(new Error(why));
    for (const p of pending.values()) p.reject(new Error(why));
    pending.clear();
  }

  document.addEventListener("securitypolicyviolation", (e) => {
    if (e.blockedURI?.startsWith(toolOrigin)) {
      fail(`The page's Content-Security-Policy blocked ${e.violatedDirective}.`);
    }
  });

  window.addEventListener("message", (e) => {
    if (!frame || e.source !== frame.contentWindow || e.origin !== toolOrigin) return;
    const msg = e.data;
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "doiname-ready" && markReady) markReady();
    else if (msg.type === "doiname-failed") fail(String(msg.message || "The tool could not start."));
    else if (msg.type === "doiname-result") {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value);
      else {
        const err = new Error(String(msg.error?.message || "Failed"));
        Object.assign(err, { code: msg.error?.code, position: msg.error?.position });
        p.reject(err);
      }
    }
  });

  /** Opens the tool frame once; resolves when Python is ready in it. */
  function activate() {
    if (readyPromise) return readyPromise;
    readyPromise = new Promise((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
      if (failed) {
        reject(new Error("unavailable"));
        return;
      }
      frame = document.createElement("iframe");
      frame.src = `${base}widget-frame.html`;
      frame.title = "doiname engine";
      frame.setAttribute("aria-hidden", "true");
      frame.tabIndex = -1;
      frame.style.cssText =
        "position:absolute!important;width:1px!important;height:1px!important;" +
        "border:0!important;clip:rect(0 0 0 0)!important;overflow:hidden!important;left:-9999px!important";
      (document.body || document.documentElement).appendChild(frame);
      setTimeout(() => fail("The tool did not start within 60 seconds."), 60000);
    });
    readyPromise.catch(() => {});
    return readyPromise;
  }

  /**
   * @param {string} type
   * @param {Record<string, unknown>} payload
   * @returns {Promise<any>}
   */
  function send(type, payload) {
    return activate().then(
      () =>
        new Promise((resolve, reject) => {
          const id = ++seq;
          pending.set(id, { resolve, reject });
          if (!frame?.contentWindow) {
            reject(new Error("unavailable"));
            return;
          }
          frame.contentWindow.postMessage({ type, id, ...payload }, toolOrigin);
        }),
    );
  }
  /** @param {string} name @param {unknown[]} args @param {Record<string, unknown>} [kwargs] */
  const call = (name, args, kwargs) => send("doiname-call", { name, args, kwargs: kwargs || {} });

  /** @param {Element} el */
  function options(el) {
    const host = el.closest("[data-resolver],[data-level],[data-proxy]") || el;
    /** @type {Record<string, string>} */
    const kw = {};
    const resolver = host.getAttribute("data-resolver");
    const level = host.getAttribute("data-level");
    const proxy = host.getAttribute("data-proxy");
    if (resolver) kw.resolver = resolver;
    if (level) kw.level = level;
    if (proxy) kw.proxy = proxy;
    return kw;
  }

  /** Only http(s) URLs ever become links (a safety check on data, not a DOI rule). */
  const isHttp = (/** @type {unknown} */ u) => typeof u === "string" && /^https?:\/\//i.test(u);

  /** @param {string} href @param {string} text @param {string} title */
  function makeLink(href, text, title) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    a.title = title;
    a.rel = "noopener noreferrer";
    a.setAttribute("data-doiname-link", "");
    return a;
  }

  // ------------------------------------------------------------------ linkify
  const SKIP = new Set([
    "A",
    "SCRIPT",
    "STYLE",
    "TEXTAREA",
    "INPUT",
    "SELECT",
    "OPTION",
    "NOSCRIPT",
    "TEMPLATE",
    "IFRAME",
    "SVG",
    "MATH",
    "DOI-TOOL",
  ]);

  /** @param {Node} root @returns {Text[]} */
  function textNodes(root) {
    /** @type {Text[]} */
    const out = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode(node) {
        for (let p = node.parentElement; p && p !== root.parentElement; p = p.parentElement) {
          if (SKIP.has(p.tagName.toUpperCase()) || p.isContentEditable) return NodeFilter.FILTER_REJECT;
        }
        return !ours.has(node) && node.nodeValue && node.nodeValue.includes("10")
          ? NodeFilter.FILTER_ACCEPT
          : NodeFilter.FILTER_REJECT;
      },
    });
    for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(/** @type {Text} */ (n));
    return out;
  }

  /** Text pieces this script made around new links: already scanned. */
  const ours = new WeakSet();

  /** @param {Text} node @param {{start16: number, end16: number, href: string, title: string}[]} targets */
  function splice(node, targets) {
    const text = node.nodeValue || "";
    const frag = document.createDocumentFragment();
    let at = 0;
    for (const t of targets) {
      // start16/end16: UTF-16 offsets, as JS strings count
      if (!isHttp(t.href) || t.start16 < at || t.end16 > text.length) continue;
      if (t.start16 > at) frag.appendChild(piece(text.slice(at, t.start16)));
      frag.appendChild(makeLink(t.href, text.slice(t.start16, t.end16), t.title));
      at = t.end16;
    }
    if (at === 0) return;
    if (at < text.length) frag.appendChild(piece(text.slice(at)));
    if (node.parentNode) node.parentNode.replaceChild(frag, node);
  }

  /** @param {string} text */
  function piece(text) {
    const node = document.createTextNode(text);
    ours.add(node);
    return node;
  }

  /** @param {Element} container @param {Node} [root] */
  async function linkify(container, root) {
    const nodes = textNodes(root || container);
    const kw = options(container);
    for (let i = 0; i < nodes.length; i += 200) {
      const chunk = nodes.slice(i, i + 200).filter((n) => n.isConnected);
      if (!chunk.length) continue;
      /** @type {any[][]} */
      let plan;
      try {
        plan = await call("link_targets", [chunk.map((n) => n.nodeValue || "")], kw);
      } catch (e) {
        if (!failed) console.warn(`${PREFIX} ${e instanceof Error ? e.message : e}`);
        return;
      }
      chunk.forEach((n, k) => {
        if (plan[k]?.length && n.isConnected) splice(n, plan[k]);
      });
      await new Promise((r) => setTimeout(r, 0)); // let the page breathe between chunks
    }
  }

  /** @param {Element} container */
  function watch(container) {
    /** @type {Set<Node>} */
    const added = new Set();
    let timer = 0;
    const mo = new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === "characterData") added.add(r.target);
        r.addedNodes.forEach((n) => {
          if (!(n instanceof Element && n.hasAttribute("data-doiname-link"))) added.add(n);
        });
      }
      clearTimeout(timer);
      timer = window.setTimeout(() => {
        const todo = [...added];
        added.clear();
        for (const n of todo) if (n.isConnected) linkify(container, n.nodeType === 3 ? n.parentNode || n : n);
      }, 50);
    });
    mo.observe(container, { childList: true, subtree: true, characterData: true });
  }

  // ------------------------------------------------------------------ data-doi
  /** @param {Element} el */
  function placeholder(el) {
    const text = el.getAttribute("data-doi") || "";
    if (!text || el.querySelector("[data-doiname-link]")) return;
    // Until Python says where the DOI resolves, link to this tool's page, which shows it.
    el.replaceChildren(makeLink(`${base}#doi=${encodeURIComponent(text)}`, text, "Look up this DOI"));
  }

  /** @param {Element} el */
  async function upgrade(el) {
    const text = el.getAttribute("data-doi") || "";
    try {
      const href = await call(
        options(el).proxy ? "to_proxy_url" : "to_url",
        options(el).proxy ? [text, options(el).proxy] : [text],
        Object.fromEntries(Object.entries(options(el)).filter(([k]) => k !== "proxy")),
      );
      const name = await call("parse", [text]);
      if (isHttp(href)) el.replaceChildren(makeLink(href, name?.name || text, `DOI ${name?.name || text}`));
    } catch (e) {
      if (!failed) el.setAttribute("title", e instanceof Error ? e.message : String(e));
    }
  }

  // ------------------------------------------------------------------ <doi-tool>
  const STYLE = `
:host{all:initial;display:block;max-width:36rem;color:var(--doiname-fg,#1b1f24);
 font:var(--doiname-font,14px/1.4 system-ui,sans-serif)}
.box{all:initial;display:grid;gap:.5em;padding:.75em;background:var(--doiname-bg,#fff);
 color:var(--doiname-fg,#1b1f24);font:var(--doiname-font,14px/1.4 system-ui,sans-serif);
 border:1px solid var(--doiname-border,#8c959f);border-radius:var(--doiname-radius,6px)}
label{font-weight:600}
.row{display:flex;gap:.4em;flex-wrap:wrap}
input{flex:1 1 12em;min-width:0;font:inherit;padding:.4em .5em;border:1px solid var(--doiname-border,#8c959f);
 border-radius:var(--doiname-radius,6px);background:var(--doiname-bg,#fff);color:inherit}
button{font:inherit;padding:.35em .7em;border-radius:var(--doiname-radius,6px);cursor:pointer;
 border:1px solid var(--doiname-accent,#0b5cad);background:var(--doiname-accent,#0b5cad);color:#fff}
button.quiet{background:transparent;color:var(--doiname-accent,#0b5cad)}
button:disabled{opacity:.5;cursor:default}
:focus-visible{outline:3px solid var(--doiname-accent,#0b5cad);outline-offset:2px}
a{color:var(--doiname-accent,#0b5cad);word-break:break-all}
code{font:12px/1.4 ui-monospace,monospace;word-break:break-all}
.out{display:grid;gap:.3em}
.muted{color:var(--doiname-muted,#57606a)}
.error{color:#b3261e}
[hidden]{display:none!important}`;

  class DoiTool extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: "open" });
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLE);
      root.adoptedStyleSheets = [sheet];
      const id = "doiname-input";
      const box = h("div", { class: "box", part: "box" });
      const label = h("label", { for: id }, "DOI, doi: URI or doi.org link");
      this.input = /** @type {HTMLInputElement} */ (
        h("input", {
          id,
          type: "text",
          autocomplete: "off",
          spellcheck: "false",
          placeholder: "10.1000/182",
          part: "input",
        })
      );
      this.resolveButton = /** @type {HTMLButtonElement} */ (h("button", { type: "button" }, "Resolve"));
      this.out = h("div", { class: "out", hidden: "" });
      this.link = /** @type {HTMLAnchorElement} */ (h("a", { rel: "noopener noreferrer" }));
      this.uri = h("code");
      this.copyLink = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "quiet" }, "Copy link"));
      this.copyUri = /** @type {HTMLButtonElement} */ (
        h("button", { type: "button", class: "quiet" }, "Copy doi: URI")
      );
      this.status = h("div", { class: "muted", role: "status", "aria-live": "polite" });
      this.out.append(
        h("div", {}, "Link: ", this.link),
        h("div", {}, "URI: ", this.uri),
        h("div", { class: "row" }, this.copyLink, this.copyUri),
      );
      box.append(label, h("div", { class: "row" }, this.input, this.resolveButton), this.out, this.status);
      root.append(box);
      /** @type {number} */
      this.timer = 0;
      this.version = 0;
      this.input.addEventListener(
        "focus",
        () => {
          activate().catch(() => this.say("The DOI tool is not available on this page.", true));
        },
        { once: true },
      );
      this.input.addEventListener("input", () => {
        clearTimeout(this.timer);
        this.timer = window.setTimeout(() => this.update(), 120);
      });
      this.input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") this.resolve();
      });
      this.resolveButton.addEventListener("click", () => this.resolve());
      this.copyLink.addEventListener("click", () => this.copy(this.link.href, "Link copied."));
      this.copyUri.addEventListener("click", () => this.copy(this.uri.textContent || "", "doi: URI copied."));
    }

    connectedCallback() {
      const initial = this.getAttribute("value");
      if (initial && !this.input.value) {
        this.input.value = initial;
      }
    }

    /** @param {string} text @param {boolean} [error] */
    say(text, error) {
      this.status.textContent = text;
      this.status.className = error ? "error" : "muted";
    }

    async update() {
      const text = this.input.value;
      const v = ++this.version;
      if (!text.trim()) {
        this.out.hidden = true;
        this.say("");
        return;
      }
      try {
        const kw = options(this);
        const proxy = kw.proxy;
        delete kw.proxy;
        const [href, uri] = await Promise.all([
          proxy ? call("to_proxy_url", [text, proxy], kw) : call("to_url", [text], kw),
          call("to_uri", [text]),
        ]);
        if (v !== this.version) return;
        const name = await call("parse", [text]);
        if (v !== this.version) return;
        this.link.textContent = name.name;
        if (isHttp(href)) this.link.href = href;
        else this.link.removeAttribute("href");
        this.uri.textContent = uri;
        this.out.hidden = false;
        this.say("");
      } catch (e) {
        if (v !== this.version) return;
        this.out.hidden = true;
        const err = /** @type {Error & {position?: number}} */ (e);
        this.say(err.message || String(e), true);
      }
    }

    async resolve() {
      const text = this.input.value;
      if (!text.trim()) return;
      this.resolveButton.disabled = true;
      this.say("Resolving…");
      try {
        const rec = await send("doiname-resolve", { text });
        this.say(rec.message, !rec.ok);
        if (rec.ok && isHttp(rec.url)) {
          const a = makeLink(rec.url, rec.url, "Where this DOI resolves");
          this.status.append(" ", a);
        }
      } catch (e) {
        this.say(e instanceof Error ? e.message : String(e), true);
      } finally {
        this.resolveButton.disabled = false;
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

  /**
   * @param {string} tag @param {Record<string, string>} [attrs] @param {...(Node|string)} kids
   * @returns {HTMLElement}
   */
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    for (const kid of kids) el.append(kid);
    return el;
  }

  // ------------------------------------------------------------------ start
  function start() {
    if (!customElements.get("doi-tool")) customElements.define("doi-tool", DoiTool);
    const lazy = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          if (!e.isIntersecting) continue;
          lazy.unobserve(e.target);
          if (e.target.hasAttribute("data-doi")) upgrade(e.target);
          else {
            linkify(e.target).then(() => watch(e.target));
          }
        }
      },
      { rootMargin: "200px" },
    );
    document.querySelectorAll("[data-doi]").forEach((el) => {
      placeholder(el);
      lazy.observe(el);
    });
    document.querySelectorAll("[data-doiname-linkify]").forEach((el) => lazy.observe(el));
    // Elements added to the page later.
    new MutationObserver((records) => {
      for (const r of records)
        r.addedNodes.forEach((n) => {
          if (!(n instanceof Element) || n.hasAttribute("data-doiname-link")) return;
          const found = [n, ...n.querySelectorAll("[data-doi],[data-doiname-linkify]")];
          for (const el of found) {
            if (el.hasAttribute("data-doi")) {
              placeholder(el);
              lazy.observe(el);
            } else if (
              el.hasAttribute("data-doiname-linkify") &&
              !el.closest("[data-doiname-linkify] [data-doiname-linkify]")
            )
              lazy.observe(el);
          }
        });
    }).observe(document.documentElement, { childList: true, subtree: true });
  }

  w.__doinameWidget = { activate, call };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
