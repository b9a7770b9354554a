// @ts-check
/**
 * The widget's engine room (pages/widget-frame.html, bundled as widget-frame.js): a
 * hidden iframe on the tool's own origin that runs the same DOI engine as the site (its
 * own client and worker) and answers the host page's widget through engine/rpc.js (to
 * the origin each request came from). Its operations are the widget's user actions:
 * `ready` (Python is usable), `box` (a keystroke in `<doi-tool>`, or a `data-doi`
 * element: one reading, Inspect's), `link_targets` (linkify) and `resolve` (the handle
 * record of an exact name `{prefix, suffix}` the box's reply gave, never text read again).
 * Resolve is one call to the worker, as on the page: the handle API URL Python made with
 * the reading (a candidate's `api_url`, kept here for the names of the last readings, by
 * exact name) is fetched and read; a name this frame did not read (the host's page may
 * send any) has its URL made first (`lookup`). The host's page never gives a URL.
 * @module widget/frame
 */
import { createDoiname } from "../engine/client.js";
import { siteConfig } from "../engine/config.js";
import { parentEndpoint } from "../engine/endpoints.js";
import { DoinameError, serve } from "../engine/rpc.js";

/** @typedef {import("../engine/types.gen.js").LinkOptions} LinkOptions */
/** @typedef {import("../engine/types.gen.js").LinkedReading} LinkedReading */
/** @typedef {import("../engine/types.gen.js").LinkTarget} LinkTarget */
/** @typedef {import("../engine/types.gen.js").ExactName} ExactName */
/** @typedef {import("../engine/types.gen.js").HandleRecord} HandleRecord */
/** @typedef {import("../engine/types.gen.js").AliasTarget} AliasTarget */

/**
 * What the widget asks of its frame: each operation's params and result.
 * @typedef {{
 *   ready: {params: null, result: true},
 *   box: {params: {text: string, options: LinkOptions}, result: LinkedReading},
 *   link_targets: {params: {texts: string[], options: LinkOptions}, result: LinkTarget[][]},
 *   resolve: {params: {name: ExactName}, result: HandleRecord},
 *   expand: {params: {short: string}, result: HandleRecord & AliasTarget},
 * }} FrameOperations
 */

const doiname = createDoiname({
  config: siteConfig(DOINAME_BUILD, new URL(".", import.meta.url)),
  workerSource: DOINAME_WORKER,
});

/** How many names' request URLs are kept (the most recent readings'). */
const URLS_KEPT = 256;
/** The handle API URL Python made for each exact name of a reading, by `[prefix, suffix]`. @type {Map<string, string>} */
const apiURLs = new Map();

/** @param {{prefix: string, suffix: string}} name */
const nameKey = (name) => JSON.stringify([name.prefix, name.suffix]);

/**
 * Keep the request URLs of a reading's DOI names (the newest last; the oldest dropped).
 * @param {LinkedReading} reading
 * @returns {LinkedReading}
 */
function keepURLs(reading) {
  for (const c of reading.inspection.candidates) {
    if (!c.api_url) continue;
    const key = c.kind === "doi" ? nameKey(c.doi) : `short:${c.doi.name}`;
    apiURLs.delete(key);
    apiURLs.set(key, c.api_url);
    if (apiURLs.size > URLS_KEPT) apiURLs.delete(/** @type {string} */ (apiURLs.keys().next().value));
  }
  return reading;
}

const server = serve(parentEndpoint(), async (method, params, { signal }) => {
  switch (method) {
    case "ready":
      await doiname.ready;
      return true;
    case "box":
      return keepURLs(await doiname.box(String(params?.text ?? ""), params?.options ?? {}));
    case "link_targets":
      return doiname.linkTargets(params?.texts, params?.options ?? {});
    case "resolve": {
      const name = params?.name;
      if (!name || typeof name !== "object" || typeof name.prefix !== "string" || typeof name.suffix !== "string") {
        throw new DoinameError("bad-arguments", "resolve takes an exact DOI name, {prefix, suffix}.");
      }
      const url = apiURLs.get(nameKey(name));
      if (url) return doiname.lookupUrl("handle", url, { signal });
      return doiname.resolve({ prefix: name.prefix, suffix: name.suffix }, { signal });
    }
    case "expand": {
      // A shortDOI the box read: its HS_ALIAS request as Python made it with the reading.
      const short = params?.short;
      if (typeof short !== "string") throw new DoinameError("bad-arguments", "expand takes a shortDOI, {short}.");
      const url = apiURLs.get(`short:${short}`);
      if (url) return doiname.lookupUrl("alias", url, { signal });
      return doiname.expandShort(short, { signal });
    }
    default:
      throw new DoinameError("unknown-operation", `The widget's frame has no operation named ${method}.`);
  }
});
server.emit("hello", null);
