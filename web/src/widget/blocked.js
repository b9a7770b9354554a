// @ts-check
/**
 * An embed that cannot fail silently: a Content-Security-Policy of the host page that
 * blocks the tool (its frame, its script) is said in one plain sentence, in every
 * `<doi-tool>` of the page and on the console. Only what the policy really blocked
 * counts: a report-only policy's events (`disposition === "report"`) block nothing, and
 * a violation of another origin is not the tool's.
 * @module widget/blocked
 */

/**
 * The sentence for a blocked request of the tool at `base` (its folder, ending in `/`).
 * @param {string} directive the violated directive (`frame-src`, `script-src-elem`, ...)
 * @param {string} base
 * @returns {string}
 */
export function blockedSentence(directive, base) {
  const name = /^(frame|child)-src/.test(directive)
    ? "frame-src"
    : /^script-src/.test(directive)
      ? "script-src"
      : directive;
  return `This page's Content-Security-Policy blocks the DOI tool: its ${name} must allow ${base} (with the final "/").`;
}

/**
 * Call `fail` with the sentence when the page's policy blocks a request to the tool.
 * @param {string} base the tool's folder, ending in `/`
 * @param {(why: string) => void} fail
 */
export function onPolicyBlock(base, fail) {
  const origin = new URL(base).origin;
  document.addEventListener("securitypolicyviolation", (e) => {
    if (e.disposition === "report") return;
    const uri = e.blockedURI || "";
    if (uri !== origin && !uri.startsWith(`${origin}/`)) return;
    fail(blockedSentence(e.effectiveDirective || e.violatedDirective, base));
  });
}

/**
 * Say `why` in every `<doi-tool>` of the page (the widget failed).
 * @param {string} why
 */
export function sayInBoxes(why) {
  for (const tool of document.querySelectorAll("doi-tool")) {
    const box = /** @type {HTMLElement & {fail?: (why: string) => void}} */ (tool);
    box.fail?.(why);
  }
}
