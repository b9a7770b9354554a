// @ts-check
/**
 * The worker's side of the page's early downloads (engine/early.js): each file's answer
 * rebuilt from the port's messages as a Response whose body streams as the chunks come,
 * for fetches.js to hand to the runtime instead of asking again. The page started them
 * from the same config (every runtime file not marked `later`), so `take` is asked only
 * for those.
 * @module worker/early
 */

/**
 * @typedef {{
 *   response: Promise<Response>,
 *   resolve: (r: Response) => void,
 *   reject: (err: Error) => void,
 *   stream: ReadableStream<Uint8Array>,
 *   controller: ReadableStreamDefaultController<Uint8Array>,
 * }} Entry
 */

/**
 * The answers arriving on `port`.
 * @param {MessagePort} port
 * @returns {{take: (url: string) => Promise<Response>, cancel: () => void}} `take` the
 *   answer for `url` (once); `cancel` tells the page to drop what is still arriving
 */
export function earlyResponses(port) {
  /** @type {Map<string, Entry>} */
  const entries = new Map();
  /** @param {string} url @returns {Entry} */
  const entry = (url) => {
    let found = entries.get(url);
    if (!found) {
      /** @type {any} */
      const parts = {};
      parts.response = new Promise((resolve, reject) => {
        parts.resolve = resolve;
        parts.reject = reject;
      });
      parts.response.catch(() => {}); // the taker sees it
      parts.stream = new ReadableStream({
        start(controller) {
          parts.controller = controller;
        },
      });
      found = /** @type {Entry} */ (parts);
      entries.set(url, found);
    }
    return found;
  };
  port.onmessage = (event) => {
    const data = event.data;
    if (!data || typeof data.url !== "string") return;
    const e = entry(data.url);
    if (data.head) {
      const { status, statusText, headers } = data.head;
      e.resolve(new Response(status === 204 || status === 304 ? null : e.stream, { status, statusText, headers }));
    } else if (data.chunk) {
      e.controller.enqueue(data.chunk);
    } else if (data.end) {
      e.controller.close();
    } else if (typeof data.error === "string") {
      const err = new TypeError(`Failed to fetch (${data.error})`);
      e.reject(err);
      e.controller.error(err);
    }
  };
  return {
    take: (url) => entry(url).response,
    cancel() {
      port.postMessage({ cancel: true });
      port.onmessage = null;
      port.close();
    },
  };
}
