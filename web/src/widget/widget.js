// @ts-check
/**
 * doiname's embeddable widget (bundled as one classic script, widget.js). On a library or
 * publisher page:
 *
 *   <script src="https://TOOL-ORIGIN/widget.js" defer></script>
 *   <doi-tool></doi-tool>                               a compact lookup box (box.js)
 *   <div data-doiname-linkify> ...references... </div>  DOIs in the text become links
 *   <span data-doi="10.1000/182"></span>                 one DOI (in a container), as a link
 *
 * Nothing heavy happens until it is needed: the first focus of a `<doi-tool>`, or a
 * linkify container or `data-doi` element scrolled into view, opens the tool's frame
 * (channel.js), where the same DOI engine as the site runs. Every DOI rule is Python's.
 * Options on the script element (options.js): data-resolver, data-proxy (a library's
 * EZproxy prefix ending in url= or qurl=), data-level (mandatory|recommended|strict; a
 * container may set its own), data-containers (a CSS selector of the containers to link;
 * `[data-doiname-linkify]` by default). `data-doi` elements are linked inside them only.
 * @module widget/widget
 */
import { sayInBoxes } from "./blocked.js";
import { defineBox } from "./box.js";
import { frameChannel } from "./channel.js";
import { linkify, placeholder, upgrade, watch } from "./linkify.js";
import { widgetConfig } from "./options.js";

/** @typedef {import("./options.js").WidgetConfig} WidgetConfig */

/**
 * Whether the widget runs on this page already (a second copy of the script stays idle).
 * A symbol on `window`: no element of the page can stand for it, as an element's `id`
 * or `name` stands for a global name (`<a id="__doinameWidget">`).
 */
const RUNNING = Symbol.for("doiname.widget");

/**
 * Start the widget on this page.
 * @param {WidgetConfig} config
 */
function start(config) {
  const { base } = config;
  const channel = frameChannel(base, (why) => {
    console.warn(
      `[doiname widget] ${why} DOIs stay plain links. To enable the widget, the page's ` +
        `Content-Security-Policy must allow ${base} in script-src and frame-src.`,
    );
    sayInBoxes(why);
  });
  defineBox(channel, config);
  /** The marked container an element is in (itself included), or null. @param {Element} node */
  const containerOf = (node) => {
    try {
      return node.closest(config.containers);
    } catch {
      return null;
    }
  };
  const lazy = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        lazy.unobserve(e.target);
        const container = containerOf(e.target);
        if (!container) continue;
        if (e.target.hasAttribute("data-doi")) void upgrade(channel, config, container, e.target);
        else void linkify(channel, config, container).then(() => watch(channel, config, container));
      }
    },
    { rootMargin: "200px" },
  );
  /** @param {Element} node a container, or a `data-doi` element in one */
  const observe = (node) => {
    if (node.hasAttribute("data-doi")) placeholder(node, base);
    lazy.observe(node);
  };
  /** The containers and `data-doi` elements in `root` (itself included) to link. @param {Element} root */
  const found = (root) => {
    const out = [];
    for (const node of [root, ...root.querySelectorAll(`${config.containers}, [data-doi]`)]) {
      const container = containerOf(node);
      if (!container || node.hasAttribute("data-doiname-link")) continue;
      if (node.hasAttribute("data-doi")) out.push(node);
      // A container inside one already linked is linked with it (its watch).
      else if (node === container && !node.parentElement?.closest(config.containers)) out.push(node);
    }
    return out;
  };
  for (const node of found(document.documentElement)) observe(node);
  // Elements added to the page later.
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n instanceof Element && !n.hasAttribute("data-doiname-link")) for (const node of found(n)) observe(node);
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
  return channel;
}

/** @type {any} */
const w = window;
if (!w[RUNNING]) {
  const config = widgetConfig(/** @type {HTMLScriptElement | null} */ (document.currentScript));
  Object.defineProperty(w, RUNNING, { value: true });
  const go = () => {
    start(config);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", go);
  else go();
}
