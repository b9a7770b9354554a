// @ts-check
/**
 * The widget's links in the host page's text, inside the containers the host marks
 * (options.js): the DOI names Python finds in their text nodes become links (also in
 * text added later), and their `data-doi` elements (one name, linked as the box links
 * it). No text under a link, SVG, MathML, a control or editable text is linked. Python finds the names and
 * makes the links (`link_targets`, `box`); this module splits text nodes where it says and
 * sets `textContent`. The visible text stays exactly as it was.
 * @module widget/linkify
 */
import { doiLink, linkOptions } from "./options.js";

/** @typedef {import("./channel.js").Channel} Channel */
/** @typedef {import("./options.js").WidgetConfig} WidgetConfig */
/** @typedef {import("../engine/types.gen.js").LinkTarget} LinkTarget */

/** Text nodes sent to Python in one request. */
const CHUNK = 200;
/**
 * Elements whose text is never linked, at any depth: a link, SVG and MathML (an HTML
 * `<a>` there is not rendered), controls and editable text, what is not shown as text,
 * and the widget's own box.
 */
const SKIP =
  "a, svg, math, button, textarea, input, select, option, label, [contenteditable], " +
  "script, style, noscript, template, iframe, object, canvas, doi-tool";

/** Text pieces made around new links: scanned already. */
const ours = new WeakSet();

/**
 * Whether the text of `node` may become links: no ancestor up to the document is one of
 * SKIP, or editable, and it is not a piece made here.
 * @param {Node} node
 * @returns {boolean}
 */
function linkable(node) {
  const parent = node.parentElement;
  return !ours.has(node) && !!parent && !parent.closest(SKIP) && !parent.isContentEditable;
}

/**
 * The text nodes under `root` that may hold a DOI name.
 * @param {Node} root
 * @returns {Text[]}
 */
function textNodes(root) {
  /** @type {Text[]} */
  const out = [];
  if (root.nodeType === Node.TEXT_NODE) {
    if (linkable(root) && root.nodeValue?.includes("10")) out.push(/** @type {Text} */ (root));
    return out;
  }
  if (root instanceof Element && root.closest(SKIP)) return out;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      return node.nodeValue?.includes("10") && linkable(node) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
    },
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(/** @type {Text} */ (n));
  return out;
}

/**
 * @param {string} text
 * @returns {Text}
 */
function piece(text) {
  const node = document.createTextNode(text);
  ours.add(node);
  return node;
}

/**
 * Replace a text node by its text with links where `targets` say (UTF-16 offsets).
 * @param {Text} node
 * @param {LinkTarget[]} targets
 */
function splice(node, targets) {
  const text = node.nodeValue || "";
  const frag = document.createDocumentFragment();
  let at = 0;
  for (const t of targets) {
    if (t.start16 < at || t.end16 > text.length) continue;
    if (t.start16 > at) frag.appendChild(piece(text.slice(at, t.start16)));
    frag.appendChild(doiLink(t.href, text.slice(t.start16, t.end16), t.title));
    at = t.end16;
  }
  if (at === 0) return;
  if (at < text.length) frag.appendChild(piece(text.slice(at)));
  node.parentNode?.replaceChild(frag, node);
}

/**
 * Link the DOI names in the text under `root` (the container's own by default).
 * @param {Channel} channel
 * @param {WidgetConfig} config
 * @param {Element} container
 * @param {Node} [root]
 */
export async function linkify(channel, config, container, root = container) {
  const nodes = textNodes(root);
  const options = linkOptions(config, container);
  for (let i = 0; i < nodes.length; i += CHUNK) {
    const chunk = nodes.slice(i, i + CHUNK).filter((n) => n.isConnected);
    if (!chunk.length) continue;
    /** @type {LinkTarget[][]} */
    let plan;
    const texts = chunk.map((n) => n.nodeValue || "");
    try {
      plan = await channel.request("link_targets", { texts, options });
    } catch (e) {
      if (!channel.failed) console.warn(`[doiname widget] ${e instanceof Error ? e.message : e}`);
      return;
    }
    chunk.forEach((n, k) => {
      // Checked again: the page may have moved or changed the text meanwhile.
      if (plan[k]?.length && n.isConnected && linkable(n) && n.nodeValue === texts[k]) splice(n, plan[k]);
    });
    await new Promise((r) => setTimeout(r, 0)); // let the page breathe between chunks
  }
}

/**
 * Link text added to a linked container later.
 * @param {Channel} channel
 * @param {WidgetConfig} config
 * @param {Element} container
 */
export function watch(channel, config, container) {
  /** @type {Set<Node>} */
  const added = new Set();
  let timer = 0;
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "characterData") added.add(r.target);
      for (const n of r.addedNodes) if (!(n instanceof Element && n.hasAttribute("data-doiname-link"))) added.add(n);
    }
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      const todo = [...added];
      added.clear();
      for (const n of todo) {
        if (n.isConnected) void linkify(channel, config, container, n);
      }
    }, 50);
  }).observe(container, { childList: true, subtree: true, characterData: true });
}

/**
 * Until Python says where a `data-doi` element's name resolves, a link to this tool's
 * page, which shows it.
 * @param {Element} node
 * @param {string} base the tool's folder
 */
export function placeholder(node, base) {
  const text = node.getAttribute("data-doi") || "";
  if (!text || node.querySelector("[data-doiname-link]")) return;
  node.replaceChildren(doiLink(`${base}#doi=${encodeURIComponent(text)}`, text, "Look up this DOI"));
}

/**
 * A `data-doi` element in a container: its name read as the box reads it, linked with
 * the container's options (never the element's own).
 * @param {Channel} channel
 * @param {WidgetConfig} config
 * @param {Element} container
 * @param {Element} node
 */
export async function upgrade(channel, config, container, node) {
  const text = node.getAttribute("data-doi") || "";
  try {
    const got = await channel.request("box", { text, options: linkOptions(config, container) });
    const found = got.inspection;
    const c = found.selected === null ? null : found.candidates[found.selected];
    if (got.href && c) node.replaceChildren(doiLink(got.href, c.doi.name, `DOI ${c.doi.name}`));
    else node.setAttribute("title", found.message);
  } catch (e) {
    if (!channel.failed) node.setAttribute("title", e instanceof Error ? e.message : String(e));
  }
}
