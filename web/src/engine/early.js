// @ts-check
/**
 * The runtime's first downloads, started by the page as it loads and handed to the
 * worker as they arrive.
 *
 * The site's page names them in its head as preload hints (build.py), so they start as
 * the head is read, while the page's own script and then the worker's are still on
 * their way. Here the page takes those answers (a `fetch` of the same URL uses its
 * preload: nothing is asked for twice) and forwards each one over a MessagePort, its
 * status and headers and then its body chunk by chunk (transferred, not copied); the
 * worker answers its own request for the file with it (worker/early.js) and checks its
 * bytes against the build's integrity value as it would any download. The worker may
 * say `cancel` (it boots from the memory snapshot, or no longer needs them): what is
 * still arriving is dropped.
 *
 * Messages on the port, each `{url, ...}`: `head` ({status, statusText, headers}), then
 * `chunk` (a Uint8Array), then `end: true`; or `error` (a plain reason) instead.
 * @module engine/early
 */

/** @typedef {import("./config.js").RuntimeFile} RuntimeFile */

/**
 * Whether the page starts `file` (the build marks them `early`: the page's preload
 * hints name them); the worker takes the page's answers for exactly these
 * (worker/fetches.js).
 * @param {RuntimeFile} file
 * @returns {boolean}
 */
export function startedEarly(file) {
  return !!file.early;
}

/**
 * Start the downloads of `files` that the worker asks for at once (`startedEarly`);
 * returns the port to hand to the worker with its config, or null when there is
 * nothing to start or this browser cannot (no MessageChannel).
 * @param {RuntimeFile[]} files
 * @param {(url: string, init: RequestInit) => Promise<Response>} [fetcher]
 * @returns {MessagePort | null}
 */
export function earlyDownloads(files, fetcher = (url, init) => fetch(url, init)) {
  const wanted = files.filter(startedEarly);
  if (!wanted.length || typeof MessageChannel !== "function") return null;
  const { port1, port2 } = new MessageChannel();
  const abort = new AbortController();
  port1.onmessage = (event) => {
    if (event.data?.cancel) {
      abort.abort();
      port1.close();
    }
  };
  for (const { url } of wanted) {
    // The preload hint's request: same URL, mode and credentials.
    fetcher(url, { credentials: "same-origin", signal: abort.signal })
      .then(async (response) => {
        const headers = [...response.headers];
        port1.postMessage({ url, head: { status: response.status, statusText: response.statusText, headers } });
        if (response.body) {
          const reader = response.body.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            port1.postMessage({ url, chunk: value }, [value.buffer]);
          }
        }
        port1.postMessage({ url, end: true });
      })
      .catch((/** @type {unknown} */ err) => {
        if (abort.signal.aborted) return;
        port1.postMessage({ url, error: err instanceof Error ? err.message : String(err) });
      });
  }
  return port2;
}
