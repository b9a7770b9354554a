// @ts-check
/**
 * The site offline after one visit: registers the service worker (sw.js) once the engine
 * is ready (its install then stores this build, the memory snapshot included, in the
 * background), and offers a reload when a new build is stored and waiting.
 * @module offline
 */

/** @typedef {import("./engine/client.js").Doiname} Doiname */

/**
 * Register `workerURL` after `doiname` is ready; say when a new version waits.
 * @param {Doiname} doiname
 * @param {URL} workerURL
 */
export function keepOffline(doiname, workerURL) {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  doiname.ready.then(
    () =>
      navigator.serviceWorker.register(workerURL, { scope: "./" }).then(watch, (err) => {
        console.warn("doiname: the page will not work offline (its service worker was refused)", err);
      }),
    () => {},
  );
}

/**
 * Offer the waiting version of the site, now and whenever one finishes installing.
 * @param {ServiceWorkerRegistration} registration
 */
function watch(registration) {
  const offer = () => {
    if (registration.waiting && navigator.serviceWorker.controller) showNotice(registration.waiting);
  };
  offer();
  registration.addEventListener("updatefound", () => {
    const next = registration.installing;
    next?.addEventListener("statechange", () => {
      if (next.state === "installed") offer();
    });
  });
}

/**
 * A notice over the page (fixed: nothing moves): a new version is stored; Reload uses it.
 * @param {ServiceWorker} waiting
 */
function showNotice(waiting) {
  if (document.getElementById("update-note")) return;
  const note = document.createElement("div");
  note.id = "update-note";
  note.className = "update-note";
  note.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = "A new version of this page is ready.";
  const reload = document.createElement("button");
  reload.type = "button";
  reload.className = "primary";
  reload.textContent = "Reload";
  const later = document.createElement("button");
  later.type = "button";
  later.textContent = "Later";
  reload.addEventListener("click", () => {
    reload.disabled = true;
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
    waiting.postMessage({ type: "skip-waiting" });
  });
  later.addEventListener("click", () => note.remove());
  note.append(text, reload, later);
  document.body.append(note);
}
