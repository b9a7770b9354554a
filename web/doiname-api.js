// @ts-check
/**
 * The site's entry: makes the DOI engine's client (engine/client.js) with the site's
 * config (build-info.js) and installs it as `window.doiname`, the public JavaScript API.
 *
 * ```js
 * await window.doiname.ready;                              // Python is usable
 * await doiname.inspect("doi: 10.1056/NEJMoa2001017.");    // the reading, every form
 * await doiname.call("to_url", "10.1000/a b", {kwargs: {level: "strict"}});
 * await doiname.resolve("10.1000/182", {signal, timeoutMs: 10000}); // handle record
 * ```
 * See README.md ("JavaScript API") and src/engine/client.js.
 * @module site
 */
import { BUILD } from "./build-info.js";
import { createDoiname } from "./src/engine/client.js";
import { siteConfig } from "./src/engine/config.js";

/** @type {any} */
const w = window;
const doiname = createDoiname({
  config: siteConfig(BUILD, new URL(".", import.meta.url)),
  workerURL: new URL("./worker.js", import.meta.url),
});
w.doiname = doiname;
