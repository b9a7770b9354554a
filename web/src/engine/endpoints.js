// @ts-check
/**
 * The channels rpc.js runs over: a worker seen from the page, the page seen from inside
 * a worker, a frame seen from its host page (only that frame's window and origin are
 * listened to), and the host seen from inside the frame (it answers whoever asked, at the
 * origin the question came from).
 * @module engine/endpoints
 */

/** @typedef {import("./rpc.js").Endpoint} Endpoint */
/** @typedef {import("./rpc.js").Frame} Frame */

/**
 * @param {{postMessage: (m: any, t: Transferable[]) => void,
 *   addEventListener: (type: string, cb: (e: any) => void) => void,
 *   removeEventListener: (type: string, cb: (e: any) => void) => void}} port
 *   a Worker, or a worker's global scope
 * @returns {Endpoint}
 */
export function portEndpoint(port) {
  return {
    post: (frame, transfer) => port.postMessage(frame, transfer ?? []),
    listen(onFrame, onBroken) {
      /** @param {MessageEvent} e */
      const onMessage = (e) => onFrame(e.data, (frame) => port.postMessage(frame, []));
      const onError = () => onBroken?.();
      port.addEventListener("message", onMessage);
      port.addEventListener("messageerror", onError);
      return () => {
        port.removeEventListener("message", onMessage);
        port.removeEventListener("messageerror", onError);
      };
    },
  };
}

/**
 * A frame's window seen from its host page: frames go to `origin` only, and only
 * messages from that window and origin are read.
 * @param {() => Window | null} target the frame's window (null while it has none)
 * @param {string} origin
 * @returns {Endpoint}
 */
export function frameEndpoint(target, origin) {
  return {
    post(frame) {
      const win = target();
      if (!win) throw new Error("the frame is not open");
      win.postMessage(frame, origin);
    },
    listen(onFrame, onBroken) {
      /** @param {MessageEvent} e */
      const onMessage = (e) => {
        const win = target();
        if (win && e.source === win && e.origin === origin) onFrame(e.data, (f) => win.postMessage(f, origin));
      };
      const onError = (/** @type {MessageEvent} */ e) => {
        if (e.source === target()) onBroken?.();
      };
      window.addEventListener("message", onMessage);
      window.addEventListener("messageerror", onError);
      return () => {
        window.removeEventListener("message", onMessage);
        window.removeEventListener("messageerror", onError);
      };
    },
  };
}

/**
 * The host page seen from inside a frame: requests come from the parent window of any
 * origin (the widget runs on any site), each is answered at the origin it came from;
 * events (`post`) go to the parent with no origin to keep, so they carry no data of note.
 * @returns {Endpoint}
 */
export function parentEndpoint() {
  return {
    post(frame) {
      if (window.parent !== window) window.parent.postMessage(frame, "*");
    },
    listen(onFrame) {
      /** @param {MessageEvent} e */
      const onMessage = (e) => {
        if (e.source !== window.parent || window.parent === window) return;
        const source = /** @type {Window} */ (e.source);
        onFrame(e.data, (f) => source.postMessage(f, e.origin));
      };
      window.addEventListener("message", onMessage);
      return () => window.removeEventListener("message", onMessage);
    },
  };
}
