// @ts-check
/**
 * The widget's engine room: runs inside a hidden iframe on the tool's own origin, so
 * the host page never runs Python and its CSP only has to allow this origin. It relays the host
 * page's postMessage calls to window.doiname (doiname-api.js: the same worker as the site) and
 * posts the answers back to the asking window only.
 * @module widget-frame
 */

/** @type {any} */
const api = /** @type {any} */ (window).doiname;

/** @param {unknown} message */
function tellParent(message) {
  if (window.parent !== window) window.parent.postMessage(message, "*");
}

if (!api) {
  tellParent({ type: "doiname-failed", message: "The DOI engine did not load." });
} else {
  api.ready.then(
    () => tellParent({ type: "doiname-ready" }),
    (/** @type {any} */ e) => tellParent({ type: "doiname-failed", message: String(e?.message || e) }),
  );
}

window.addEventListener("message", async (event) => {
  if (!api || event.source !== window.parent) return;
  const msg = event.data;
  if (!msg || typeof msg !== "object" || typeof msg.id !== "number") return;
  const reply = (/** @type {Record<string, unknown>} */ body) =>
    /** @type {Window} */ (event.source).postMessage({ type: "doiname-result", id: msg.id, ...body }, event.origin);
  try {
    let value;
    if (msg.type === "doiname-call" && typeof msg.name === "string" && Array.isArray(msg.args)) {
      const kwargs =
        msg.kwargs && typeof msg.kwargs === "object" && Object.keys(msg.kwargs).length ? [{ kwargs: msg.kwargs }] : [];
      value = await api.call(msg.name, ...msg.args, ...kwargs);
    } else if (msg.type === "doiname-resolve" && typeof msg.text === "string") {
      value = await api.resolve(msg.text);
    } else {
      return;
    }
    reply({ ok: true, value });
  } catch (e) {
    const err = /** @type {any} */ (e);
    reply({
      ok: false,
      error: { message: String(err?.message || err), code: err?.code, position: err?.position },
    });
  }
});
