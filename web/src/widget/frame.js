// @ts-check
/**
 * The widget's engine room (pages/widget-frame.html, bundled as widget-frame.js): a
 * hidden iframe on the tool's own origin that runs the same DOI engine as the site (its
 * own client and worker) and answers the host page's widget through engine/rpc.js (to
 * the origin each request came from). Its operations are the widget's user actions:
 * `ready` (Python is usable), `box` (a keystroke in `<doi-tool>`, or a `data-doi`
 * element: one reading, Inspect's), `link_targets` (linkify) and `resolve` (the handle
 * record of an exact name `{prefix, suffix}` the box's reply gave, never text read again).
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

/**
 * What the widget asks of its frame: each operation's params and result.
 * @typedef {{
 *   ready: {params: null, result: true},
 *   box: {params: {text: string, options: LinkOptions}, result: LinkedReading},
 *   link_targets: {params: {texts: string[], options: LinkOptions}, result: LinkTarget[][]},
 *   resolve: {params: {name: ExactName}, result: HandleRecord},
 * }} FrameOperations
 */

const doiname = createDoiname({
  config: siteConfig(DOINAME_BUILD, new URL(".", import.meta.url)),
  workerURL: new URL("worker.js", import.meta.url),
  workerIntegrity: DOINAME_BUILD.workerIntegrity,
});

const server = serve(parentEndpoint(), async (method, params, { signal }) => {
  switch (method) {
    case "ready":
      await doiname.ready;
      return true;
    case "box":
      return doiname.box(String(params?.text ?? ""), params?.options ?? {});
    case "link_targets":
      return doiname.linkTargets(params?.texts, params?.options ?? {});
    case "resolve": {
      const name = params?.name;
      if (!name || typeof name !== "object" || typeof name.prefix !== "string" || typeof name.suffix !== "string") {
        throw new DoinameError("bad-arguments", "resolve takes an exact DOI name, {prefix, suffix}.");
      }
      return doiname.resolve({ prefix: name.prefix, suffix: name.suffix }, { signal });
    }
    default:
      throw new DoinameError("unknown-operation", `The widget's frame has no operation named ${method}.`);
  }
});
server.emit("hello", null);
