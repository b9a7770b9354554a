// @ts-check
/**
 * What the widget's elements share: the link options a container asks for, and links.
 * @module widget/options
 */
import { el } from "../ui/dom.js";

/** @typedef {import("../engine/types.gen.js").LinkOptions} LinkOptions */

/**
 * The link options of an element: `data-resolver`, `data-level` and `data-proxy` of the
 * nearest element that has any (Python checks them).
 * @param {Element} node
 * @returns {LinkOptions}
 */
export function linkOptions(node) {
  const host = node.closest("[data-resolver],[data-level],[data-proxy]") || node;
  /** @type {Record<string, string>} */
  const options = {};
  for (const key of /** @type {const} */ (["resolver", "level", "proxy"])) {
    const value = host.getAttribute(`data-${key}`);
    if (value) options[key] = value;
  }
  return /** @type {LinkOptions} */ (options);
}

/**
 * A link the widget made (marked `data-doiname-link`). `href` is always a URL Python made
 * (`to_url`, `to_proxy_url`: an http(s) resolver, checked there) or vetted
 * (`is_linkable_url`), received from the tool's own frame only.
 * @param {string} href
 * @param {string} text
 * @param {string} title
 * @returns {HTMLAnchorElement}
 */
export function doiLink(href, text, title) {
  return el("a", { href, title, rel: "noopener noreferrer", "data-doiname-link": "", text });
}
