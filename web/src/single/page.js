// @ts-check
/**
 * The offline single file's page (dist/doi-tool.html; build.py inlines this bundle as
 * the file's only script). The same page as the site (page.js), with a client whose
 * worker is started from a `data:` URL (a `blob:` module worker fails from `file://`):
 * the worker's bundle (worker.js here) and everything the engine needs are inlined
 * files (unpack.js); the page posts the engine's files to the worker, which answers
 * Pyodide's requests for them. `window.doiname` is the same public API as on the site.
 * Served by a web server that labels it UTF-8, the file reads its inlined files from its
 * own bytes again (unpack.js, `pageAssets`).
 * Nothing here knows a DOI rule.
 * @module single/page
 */
import { createDoiname } from "../engine/client.js";
import { startPage } from "../page.js";
import { pageAssets, unpackText } from "./unpack.js";

/**
 * The `config.json` inlined file, written by build.py: the worker's config, the URL
 * prefix the worker answers from the inlined files, and which files those are.
 * @typedef {{worker: import("../engine/config.js").WorkerConfig, base: string, engineAssets: string[]}} SingleConfig
 */

/**
 * Say on the page that the file could not start (page.js is not running yet).
 * @param {unknown} err
 */
function showFailure(err) {
  console.error("doiname single file: could not start", err);
  const why = err && typeof err === "object" && "message" in err ? String(err.message) : String(err);
  const box = document.getElementById("boot-message");
  const boot = document.getElementById("boot");
  if (boot) boot.dataset.phase = "failed";
  if (box) box.textContent = `This file could not start in this browser: ${why}`;
}

async function main() {
  const assets = await pageAssets(document, location, (url, init) => fetch(url, init));
  /** @type {SingleConfig} */
  const config = JSON.parse(await unpackText(assets.get("config.json"), "config.json"));
  const workerSource = await unpackText(assets.get("worker.js"), "worker.js");
  /** @type {Record<string, import("./unpack.js").Asset>} */
  const engine = {};
  for (const name of config.engineAssets) {
    const asset = assets.get(name);
    if (!asset) throw new Error(`${name} is missing from this file`);
    engine[name] = asset;
  }
  const doiname = createDoiname({
    config: config.worker,
    createWorker: () => {
      const worker = new Worker(`data:text/javascript;charset=utf-8,${encodeURIComponent(workerSource)}`, {
        type: "module",
        name: "doiname",
      });
      worker.postMessage({ type: "doiname-single", base: config.base, assets: engine });
      return worker;
    },
  });
  /** @type {any} */ (window).doiname = doiname;
  startPage(doiname);
}

main().catch(showFailure);
