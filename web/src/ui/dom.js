// @ts-check
/**
 * DOM helpers for the page. Every string from data goes through textContent or
 * setAttribute; nothing here (or anywhere in the page) parses HTML from strings.
 * @module dom
 */

/** @typedef {string | number | Node | null | undefined | false} Child */
/** @typedef {Record<string, string | number | boolean | null | undefined | ((ev: Event) => void)>} Attrs */

/**
 * Create an element. `attrs` keys: `class`, `text` (textContent), `on<event>` (a
 * listener function), boolean values (present / absent), anything else as an attribute.
 * Children are nodes or text (strings become text nodes; null/undefined/false are skipped).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (typeof value === "function") {
        node.addEventListener(key.replace(/^on/, ""), /** @type {EventListener} */ (value));
      } else if (key === "text") {
        node.textContent = String(value);
      } else if (key === "class") {
        node.className = String(value);
      } else if (value === true) {
        node.setAttribute(key, "");
      } else {
        node.setAttribute(key, String(value));
      }
    }
  }
  append(node, children);
  return node;
}

/**
 * The source of a message (the spec section or service it rests on, kept out of the
 * plain words) behind a small "Why?" that opens it (closed by default), or null when there
 * is none. Drawn as text, like everything; exports and the JSON API keep the source.
 * @param {string | null | undefined} source
 * @param {"span" | "p"} [tag] the element of the "Source: …" line
 * @returns {HTMLElement | null}
 */
export function sourceLine(source, tag = "span") {
  if (!source) return null;
  return el(
    "details",
    { class: "why-source" },
    el("summary", { text: "Why?" }),
    el(tag, { class: "finding-source", text: `Source: ${source}` }),
  );
}

/**
 * Append children (text or nodes, nested arrays allowed) to a node.
 * @param {Node} node
 * @param {(Child | Child[])[]} children
 */
export function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replace the contents of `node` with `children`.
 * @param {Node} node
 * @param {...(Child | Child[])} children
 */
export function replace(node, ...children) {
  while (node.firstChild) node.removeChild(node.firstChild);
  append(node, children);
}

/**
 * Find an element by id (throws if missing: the page's markup is fixed).
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @returns {T}
 */
export function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`missing #${id}`);
  return /** @type {T} */ (node);
}

/** @type {HTMLElement | null} */
let announcer = null;

/**
 * Say something to screen-reader users (polite live region), e.g. "Copied".
 * @param {string} message
 */
export function announce(message) {
  if (!announcer) announcer = document.getElementById("announcer");
  if (!announcer) return;
  announcer.textContent = "";
  // A fresh text node on the next frame makes repeated messages heard again.
  requestAnimationFrame(() => {
    if (announcer) announcer.textContent = message;
  });
}

/**
 * Copy text to the clipboard: the async Clipboard API, or a hidden textarea and
 * execCommand("copy") where that API is missing or refused (http pages, old browsers).
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the fallback
  }
  const area = el("textarea", { class: "offscreen", readonly: true, "aria-hidden": "true", tabindex: "-1" });
  area.value = text;
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  area.remove();
  if (active && typeof active.focus === "function") active.focus();
  return ok;
}

/**
 * A copy button for a value given by `get` (read at click time).
 * @param {() => string} get
 * @param {string} what accessible name of the copied thing, e.g. "URL (recommended)"
 * @returns {HTMLButtonElement}
 */
export function copyButton(get, what) {
  const button = el("button", { type: "button", class: "copy", "aria-label": `Copy ${what}`, text: "Copy" });
  wireCopy(button, get, what);
  return button;
}

/**
 * Make `button` copy `get()` when pressed, saying so on the button for a moment (its
 * text comes back after) and to screen readers.
 * @param {HTMLButtonElement} button
 * @param {() => string} get
 * @param {string} what how the copied value is named ("link", "DOI name")
 */
export function wireCopy(button, get, what) {
  // The words to come back to are the button's own when pressed (a view may change them).
  let idle = button.textContent ?? "Copy";
  /** @type {number} */
  let timer = 0;
  button.addEventListener("click", async () => {
    const value = get();
    if (!value) return;
    if (!button.classList.contains("done")) idle = button.textContent ?? idle;
    const ok = await copyText(value);
    const said = ok ? "Copied" : "Copy failed";
    button.textContent = said;
    button.classList.toggle("done", ok);
    announce(ok ? `Copied ${what}` : `Could not copy ${what}; select the text and copy it by hand.`);
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      // (words a view gave the button meanwhile, for another name, are kept)
      if (button.textContent === said) button.textContent = idle;
      button.classList.remove("done");
    }, 1600);
  });
}

/**
 * A value row: a label, the value in a <code> element, and a copy button.
 * @param {string} label
 * @param {string} value
 * @param {{id?: string, extra?: Node | null}} [options]
 * @returns {HTMLDivElement}
 */
export function valueRow(label, value, options = {}) {
  const code = el("code", { class: "value", id: options.id ?? null, text: value });
  return el(
    "div",
    { class: "row" },
    el("dt", { text: label }),
    el(
      "dd",
      null,
      code,
      el(
        "span",
        { class: "row-actions" },
        copyButton(() => code.textContent ?? "", label),
        options.extra ?? null,
      ),
    ),
  );
}

/** @typedef {Child | Child[] | {class?: string, content: Child | Child[]}} Cell */

/**
 * A data table. Each cell carries its column name (`data-label`), so on narrow
 * screens the stylesheet can show each row as a small card of label/value lines.
 * With `scroll: true` the table keeps its columns and scrolls sideways instead.
 * @param {{caption: string, columns: string[], rows: Cell[][], id?: string, className?: string,
 *   captionHidden?: boolean, scroll?: boolean, rowAttrs?: (index: number) => Attrs | null}} spec
 * @returns {HTMLDivElement}
 */
export function table(spec) {
  return el(
    "div",
    { class: "table-wrap" },
    el(
      "table",
      { class: `${spec.scroll ? "" : "stack "}${spec.className ?? ""}`.trim(), id: spec.id ?? null },
      el("caption", { class: spec.captionHidden ? "offscreen" : null, text: spec.caption }),
      el(
        "thead",
        null,
        el(
          "tr",
          null,
          spec.columns.map((h) => el("th", { scope: "col", text: h })),
        ),
      ),
      el(
        "tbody",
        null,
        spec.rows.map((cells, r) => tableRow(spec.columns, cells, spec.rowAttrs ? spec.rowAttrs(r) : null)),
      ),
    ),
  );
}

/**
 * One row of a `table` (for rows drawn later, a page at a time).
 * @param {string[]} columns the column names (each cell's `data-label`)
 * @param {Cell[]} cells
 * @param {Attrs | null} [attrs]
 * @returns {HTMLTableRowElement}
 */
export function tableRow(columns, cells, attrs = null) {
  return el(
    "tr",
    attrs,
    cells.map((cell, i) => {
      const isSpec =
        cell !== null &&
        typeof cell === "object" &&
        !Array.isArray(cell) &&
        !(cell instanceof Node) &&
        "content" in cell;
      const withClass = isSpec ? /** @type {{class?: string, content: Child | Child[]}} */ (cell) : null;
      const content = withClass ? withClass.content : /** @type {Child | Child[]} */ (cell);
      return el(
        "td",
        { "data-label": columns[i], class: withClass?.class ?? null },
        el("div", { class: "cell" }, ...(Array.isArray(content) ? content : [content])),
      );
    }),
  );
}
