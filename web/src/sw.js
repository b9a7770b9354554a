// @ts-check
/**
 * The site's service worker (bundled as sw.js at the site's root): after one visit the
 * page boots and answers with the network gone.
 *
 * Install: every file of this build (`DOINAME_PRECACHE.files`, written by build.py with
 * the integrity value of each) is fetched, checked against that value and stored in a
 * cache of its own (`DOINAME_PRECACHE.cache`, named by the hash of that list); the list
 * itself (`DOINAME_PRECACHE.list`) is stored last, so a cache holding it is complete.
 * Files already stored by an install that was interrupted are kept; nothing is used
 * before the whole build is stored. Install runs once the page is ready: the memory
 * snapshot (the repeat visit's fast boot) downloads in the background then.
 *
 * Activate: the caches of other builds are deleted. A new build's worker waits until no
 * page of the old build is open (or the person chooses "Reload" on the page's notice,
 * which sends `skip-waiting`), so a page never gets files of two builds.
 *
 * Fetch: a GET for a file of this build (also `/`, `/name` for `name.html`) is answered
 * from the cache, else from the network; requests to other origins (doi.org) are not
 * touched: resolution always goes to doi.org.
 * @module sw
 */

/**
 * What build.py gives this worker.
 * @typedef {{cache: string, list: string, files: [string, string][]}} Precache
 */

/**
 * The parts of a service worker's scope used here (the DOM library of jsconfig.json has
 * no service worker types).
 * @typedef {{waitUntil: (p: Promise<unknown>) => void}} ExtendableEvent
 * @typedef {ExtendableEvent & {request: Request, respondWith: (r: Promise<Response>) => void}} FetchEvent
 * @typedef {{
 *   registration: {scope: string},
 *   clients: {claim: () => Promise<void>},
 *   skipWaiting: () => Promise<void>,
 *   addEventListener: {
 *     (type: "install" | "activate", cb: (e: ExtendableEvent) => void): void,
 *     (type: "fetch", cb: (e: FetchEvent) => void): void,
 *     (type: "message", cb: (e: MessageEvent) => void): void,
 *   },
 * }} ServiceWorkerScope
 */

/** @type {Precache} */
const PRECACHE = DOINAME_PRECACHE;
/** @type {ServiceWorkerScope} */
const sw = /** @type {any} */ (self);
/** The names of the caches of every build (web/src/worker/boot.js reads them too). */
const PREFIX = "doiname-";

const scope = sw.registration.scope;
/** @param {string} path */
const href = (path) => new URL(path, scope).href;
/** Every stored URL (no query, no fragment). */
const stored = new Set(PRECACHE.files.map(([path]) => href(path)));

/** Store every file of this build, each checked against its integrity value, then the list. */
async function install() {
  const cache = await caches.open(PRECACHE.cache);
  /** @type {Record<string, string>} */
  const listed = {};
  await Promise.all(
    PRECACHE.files.map(async ([path, integrity]) => {
      const url = href(path);
      if (!(await cache.match(url))) {
        const response = await fetch(url, { integrity, cache: "no-cache", credentials: "same-origin" });
        if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
        await cache.put(url, response);
      }
      listed[url] = integrity;
    }),
  );
  const list = JSON.stringify({ cache: PRECACHE.cache, files: listed });
  await cache.put(href(PRECACHE.list), new Response(list, { headers: { "Content-Type": "application/json" } }));
}

/** Drop the caches of other builds; take the open pages of this one. */
async function activate() {
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== PRECACHE.cache) await caches.delete(name);
  }
  await sw.clients.claim();
}

/**
 * The stored URL a request of this origin stands for, or "" (not a file of this build).
 * @param {Request} request
 * @returns {string}
 */
function storedURL(request) {
  const url = new URL(request.url);
  url.hash = "";
  if (request.mode === "navigate") url.search = "";
  if (url.search) return "";
  if (url.pathname.endsWith("/")) url.pathname += "index.html";
  if (stored.has(url.href)) return url.href;
  url.pathname += ".html"; // `/name` is `name.html`, as static hosts serve it
  return stored.has(url.href) ? url.href : "";
}

/**
 * The stored answer, else the network's.
 * @param {Request} request
 * @param {string} url
 * @returns {Promise<Response>}
 */
async function answer(request, url) {
  try {
    const cache = await caches.open(PRECACHE.cache);
    const hit = await cache.match(url);
    if (hit) return hit;
  } catch (err) {
    console.warn("doiname service worker: the cache could not be read", err);
  }
  return fetch(request);
}

sw.addEventListener("install", (event) => event.waitUntil(install()));
sw.addEventListener("activate", (event) => event.waitUntil(activate()));
sw.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") sw.skipWaiting();
});
sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== location.origin) return;
  const url = storedURL(request);
  if (url) event.respondWith(answer(request, url));
});
