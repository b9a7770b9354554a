// @ts-check
/**
 * The site's page (pages/index.html; bundled as app.js): makes the DOI engine's client
 * with this build's config, installs it as `window.doiname` (the public JavaScript API),
 * starts the page with it (page.js), and keeps the site for offline use (offline.js);
 * framed by another site's page, it does none of this (framed.js).
 * Views get the client from here, never from the global.
 *
 * ```js
 * await window.doiname.ready;                              // Python is usable
 * await doiname.inspect("doi: 10.1056/NEJMoa2001017.");    // the reading, every form
 * await doiname.call("to_url", "10.1000/a b", {kwargs: {level: "strict"}});
 * ```
 * @module site
 */
import { createDoiname } from "./engine/client.js";
import { siteConfig } from "./engine/config.js";
import { framedByAnotherOrigin, refuseFramed } from "./framed.js";
import { keepOffline } from "./offline.js";
import { startPage } from "./page.js";

if (framedByAnotherOrigin()) {
  refuseFramed();
} else {
  /** `?snapshot=always` or `never` overrides when the memory snapshot is used (measuring). */
  const when = new URLSearchParams(location.search).get("snapshot");
  const doiname = createDoiname({
    config: siteConfig(
      DOINAME_BUILD,
      new URL(".", import.meta.url),
      when === "always" || when === "never" ? when : "stored",
    ),
    workerSource: DOINAME_WORKER,
  });
  /** @type {any} */ (window).doiname = doiname;
  startPage(doiname);
  keepOffline(doiname, new URL("sw.js", import.meta.url));
}
