// @ts-check
/**
 * The site's pages run only at the top or framed by the site itself. A host that sends
 * the site's headers refuses other framers already (`frame-ancestors 'self'`); a host that
 * sends none leaves only the page's `<meta>` policy, which cannot say `frame-ancestors`,
 * so the page checks for itself and, framed by another origin, shows a note with a link
 * that opens it at the top instead of running (no clicks or keys for a framer to steer).
 * @module framed
 */
import { el } from "./ui/dom.js";

/**
 * Whether this window is framed by a page of another origin (any frame above it).
 * @returns {boolean}
 */
export function framedByAnotherOrigin() {
  if (window.top === window.self) return false;
  const ancestors = location.ancestorOrigins;
  if (ancestors) return [...ancestors].some((origin) => origin !== location.origin);
  try {
    return window.top?.location.origin !== location.origin; // throws across origins
  } catch {
    return true;
  }
}

/** Replace the page by a note that it runs on its own site only. */
export function refuseFramed() {
  const link = el("a", { href: location.href, target: "_top", rel: "noopener", text: "Open doiname on its own" });
  document.body.replaceChildren(
    el(
      "main",
      { class: "wrap", id: "framed-note" },
      el("p", { text: "This page does not run inside another site's page. " }, link),
    ),
  );
}
