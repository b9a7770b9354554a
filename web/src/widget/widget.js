// @ts-check
/**
 * doiname's embeddable widget (bundled as one classic script, widget.js). On a library or
 * publisher page:
 *
 *   <script src="https://TOOL-ORIGIN/widget.js" defer></script>
 *   <doi-tool></doi-tool>                               a compact lookup box (box.js)
 *   <div data-doiname-linkify> ...references... </div>  DOIs in the text become links
 *   <span data-doi="10.1000/182"></span>                 one DOI, rendered as a link
 *
 * Nothing heavy happens until it is needed: the first focus of a `<doi-tool>`, or a
 * linkify container or `data-doi` element scrolled into view, opens the tool's frame
 * (channel.js), where the same DOI engine as the site runs. Every DOI rule is Python's.
 * Options on containers: data-resolver, data-level (mandatory|recommended|strict),
 * data-proxy (a library's EZproxy prefix ending in url= or qurl=).
 * @module widget/widget
 */
import { sayInBoxes } from "./blocked.js";
import { defineBox } from "./box.js";
import { frameChannel } from "./channel.js";
import { linkify, placeholder, upgrade, watch } from "./linkify.js";

/** @type {any} */
const w = window;

/**
 * Start the widget on this page.
 * @param {string} base the tool's folder (where widget.js came from)
 */
function start(base) {
  const channel = frameChannel(base, (why) => {
    console.warn(
      `[doiname widget] ${why} DOIs stay plain links. To enable the widget, the page's ` +
        `Content-Security-Policy must allow ${base} in script-src and frame-src.`,
    );
    sayInBoxes(why);
  });
  defineBox(channel);
  const lazy = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        lazy.unobserve(e.target);
        if (e.target.hasAttribute("data-doi")) void upgrade(channel, e.target);
        else void linkify(channel, e.target).then(() => watch(channel, e.target));
      }
    },
    { rootMargin: "200px" },
  );
  /** @param {Element} node */
  const observe = (node) => {
    if (node.hasAttribute("data-doi")) placeholder(node, base);
    lazy.observe(node);
  };
  for (const node of document.querySelectorAll("[data-doi],[data-doiname-linkify]")) observe(node);
  // Elements added to the page later.
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (!(n instanceof Element) || n.hasAttribute("data-doiname-link")) continue;
        for (const node of [n, ...n.querySelectorAll("[data-doi],[data-doiname-linkify]")]) {
          // A container inside one already linked is linked with it (its watch).
          if (node.hasAttribute("data-doi")) observe(node);
          else if (
            node.hasAttribute("data-doiname-linkify") &&
            !node.parentElement?.closest("[data-doiname-linkify]")
          ) {
            observe(node);
          }
        }
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
  return channel;
}

if (!w.__doinameWidget) {
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  const base = new URL(".", script?.src ? script.src : location.href).href;
  w.__doinameWidget = { base };
  const go = () => {
    w.__doinameWidget.channel = start(base);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", go);
  else go();
}
