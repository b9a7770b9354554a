// @ts-check
/**
 * Installs `window.doiname` on a page of the built site (dist/site): the DOI engine
 * (Pyodide and the doiname package in a module worker) and its JavaScript API.
 *
 * ```js
 * await window.doiname.ready;                              // Python is usable
 * await doiname.call("parse", "10.1000/182");              // {prefix, suffix, name}
 * await doiname.call("to_url", "10.1000/a b", {kwargs: {level: "strict"}});
 * await doiname.resolve("10.1000/182", {signal, timeoutMs: 10000}); // handle record
 * await doiname.whichRa(["10.1000/182"]);                  // registration agencies
 * await doiname.expandShort("10/abcde");                   // record + target
 * doiname.onStatus(({phase, message}) => ...);             // boot progress
 * ```
 * See README.md ("JavaScript API") and doiname-client.js.
 * @module doiname-api
 */
import { BUILD } from "./build-info.js";
import { createDoiname, siteConfig } from "./doiname-client.js";

/** @type {any} */
const w = window;
if (!w.doiname) {
  w.doiname = createDoiname({ config: siteConfig(BUILD, new URL(".", import.meta.url)) });
}
