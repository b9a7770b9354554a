// @ts-check
/**
 * What the widget's elements share: its configuration (from its own `<script>` element,
 * which only the host page writes), the link options of a container, and links.
 *
 *   <script src="https://TOOL-ORIGIN/widget.js" data-resolver="…" data-proxy="…"
 *           data-level="…" data-containers="#references, .refs" defer></script>
 *
 * Where links go (resolver, proxy) is the script's to say, never a linked element's: a
 * sanitiser that keeps `data-*` attributes (DOMPurify's default) lets anyone who writes a
 * comment set them. Links are made only inside the containers the host marks
 * (`data-containers`, a CSS selector; `[data-doiname-linkify]` by default), `data-doi`
 * elements included, and in the widget's own elements (`<doi-tool>`).
 * @module widget/options
 */
import { el } from "../ui/dom.js";

/** @typedef {import("../engine/types.gen.js").LinkOptions} LinkOptions */
/** @typedef {{base: string, containers: string, options: LinkOptions}} WidgetConfig */

/** The containers linked when the script names none. */
export const DEFAULT_CONTAINERS = "[data-doiname-linkify]";

/**
 * The widget's configuration from its script element (null: the page's own address, no
 * options). Python checks the options when it makes a link.
 * @param {HTMLScriptElement | null} script
 * @returns {WidgetConfig}
 */
export function widgetConfig(script) {
  /** @type {Record<string, string>} */
  const options = {};
  for (const key of /** @type {const} */ (["resolver", "level", "proxy"])) {
    const value = script?.getAttribute(`data-${key}`);
    if (value) options[key] = value;
  }
  let containers = script?.getAttribute("data-containers") || DEFAULT_CONTAINERS;
  try {
    document.createDocumentFragment().querySelector(containers);
  } catch {
    console.warn(`[doiname widget] data-containers is not a CSS selector: ${containers}`);
    containers = DEFAULT_CONTAINERS;
  }
  const base = new URL(".", script?.src ? script.src : location.href).href;
  return { base, containers, options: /** @type {LinkOptions} */ (options) };
}

/**
 * The link options of a container: the script's, with the container's own `data-level`
 * (how the link is percent-encoded; it cannot change where the link goes).
 * @param {WidgetConfig} config
 * @param {Element} container
 * @returns {LinkOptions}
 */
export function linkOptions(config, container) {
  const level = container.getAttribute("data-level");
  return /** @type {LinkOptions} */ (level ? { ...config.options, level } : { ...config.options });
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
