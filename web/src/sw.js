// @ts-check
/**
 * The site's service worker (bundled as sw.js at the site's root): after one visit the
 * page boots and answers with the network gone.
 *
 * Install: every file of this build (`DOINAME_PRECACHE.files`, written by build.py with
 * the integrity value of each) is fetched, checked against that value and stored in a
 * cache of its own, named by the build (`DOINAME_PRECACHE.cache`, the hash of that list)
 * and by this worker's scope, so that two builds served from two folders of one origin
 * never touch each other's copies. A file already stored (an install that was
 * interrupted) is checked again and fetched anew when it differs. What a host answers
 * through a redirect (`/x.html` -> 308 `/x`, as Cloudflare Pages does) is stored as a
 * plain answer: the browser refuses a redirected answer to a navigation. The list itself
 * (`DOINAME_PRECACHE.list`) is stored last, so a cache holding it is complete. Install
 * runs once the page is ready: the memory snapshot downloads in the background then.
 *
 * Activate: takes no open page (no `clients.claim()`): a page keeps the worker, and the
 * build, it was loaded with. A new build's worker waits until no page of the old build
 * is open (or the person chooses "Reload" on the page's notice, which sends
 * `skip-waiting`). The copy of an older build of this scope is deleted once no open page
 * was loaded from it (`prune`), so that such a page still restarts its engine.
 *
 * Fetch: a GET for a file of a stored build (also `/`, `/name` for `name.html`) is
 * answered from the cache, checked against this build's integrity value first (a copy
 * changed in the cache is dropped and fetched again), else from the network. A request
 * that names the integrity value it expects (the browser's `integrity`, or the worker's
 * `EXPECTED_HEADER`) may get an older stored build's copy of those bytes, checked
 * against that value; no other request does (a cache and its list can be written by any
 * script of the origin: only this worker's own values are trusted). A page comes with the
 * policy build.py gives it (`DOINAME_PRECACHE.policies`, as `_headers` does), whatever the
 * stored headers said. Requests to other origins (doi.org) are not touched.
 * @module sw
 */

import { EXPECTED_HEADER, hasIntegrity } from "./engine/verified.js";

/**
 * What build.py gives this worker.
 * @typedef {{cache: string, list: string, files: [string, string][], policies: Record<string, string>}} Precache
 */

/**
 * The parts of a service worker's scope used here (the DOM library of jsconfig.json has
 * no service worker types).
 * @typedef {{waitUntil: (p: Promise<unknown>) => void}} ExtendableEvent
 * @typedef {ExtendableEvent & {request: Request, resultingClientId?: string, respondWith: (r: Promise<Response>) => void}} FetchEvent
 * @typedef {{
 *   registration: {scope: string},
 *   clients: {matchAll: (o: {type: string, includeUncontrolled: boolean}) => Promise<{id: string}[]>},
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

const scope = sw.registration.scope;
/** The caches of this scope end so (web/src/worker/boot.js reads every `doiname-` cache). */
const SCOPE_SUFFIX = ` ${scope}`;
/** This build's cache. */
const CACHE = PRECACHE.cache + SCOPE_SUFFIX;
/** @param {string} path */
const href = (path) => new URL(path, scope).href;
/** This build's files by URL (no query, no fragment): their integrity values. */
const files = new Map(PRECACHE.files.map(([path, integrity]) => [href(path), integrity]));
/** The policy of each page, by URL. */
const policies = new Map(Object.entries(PRECACHE.policies ?? {}).map(([path, csp]) => [href(path), csp]));
/** Which cache each open page was loaded from (by client id), while this worker runs. */
const servedFrom = new Map();
/** Whether to prune once the next page this worker loaded asks for a file (it is listed then). */
let pruneDue = true;

/**
 * A stored answer: the body and headers of `response`, never marked as redirected.
 * @param {Response} response
 * @param {BodyInit | null} [body]
 * @param {Record<string, string>} [extra] headers set on it
 * @returns {Response}
 */
function plainAnswer(response, body = response.body, extra = {}) {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Store every file of this build, each checked against its integrity value, then the list. */
async function install() {
  const cache = await caches.open(CACHE);
  await Promise.all(
    [...files].map(async ([url, integrity]) => {
      const kept = await cache.match(url);
      if (kept && (await hasIntegrity(await kept.arrayBuffer(), integrity))) return;
      const response = await fetch(url, { integrity, cache: "no-cache", credentials: "same-origin" });
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      await cache.put(url, plainAnswer(response));
    }),
  );
  const list = JSON.stringify({ cache: CACHE, files: Object.fromEntries(files) });
  await cache.put(href(PRECACHE.list), new Response(list, { headers: { "Content-Type": "application/json" } }));
}

/**
 * The caches to look in for a request: this build's, and the older builds' of this scope
 * when the request names the integrity value it expects. (Read with `caches.match`, which
 * never makes a cache that `prune` has just deleted, as `caches.open` would.)
 * @param {string} expected
 * @returns {Promise<string[]>}
 */
async function candidates(expected) {
  if (!expected) return [CACHE];
  return [CACHE, ...(await caches.keys()).filter((n) => n !== CACHE && n.endsWith(SCOPE_SUFFIX))];
}

/**
 * Delete the copies of older builds of this scope that no open page was loaded from. A
 * page this worker did not see load (loaded before it ran, or before it restarted) keeps
 * every copy until it closes.
 */
async function prune() {
  const pages = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
  const used = new Set(pages.map((page) => servedFrom.get(page.id)));
  if (used.has(undefined)) return;
  for (const name of await caches.keys()) {
    if (name !== CACHE && name.endsWith(SCOPE_SUFFIX) && !used.has(name)) await caches.delete(name);
  }
}

/**
 * The stored URL a request of this origin stands for, or "" (not a file of a build).
 * @param {Request} request
 * @returns {string}
 */
function storedURL(request) {
  const url = new URL(request.url);
  url.hash = "";
  if (request.mode === "navigate") url.search = "";
  if (url.search || !url.href.startsWith(scope)) return "";
  if (url.pathname.endsWith("/")) url.pathname += "index.html";
  if (files.has(url.href)) return url.href;
  url.pathname += ".html"; // `/name` is `name.html`, as static hosts serve it
  return files.has(url.href) ? url.href : "";
}

/**
 * The stored answer, checked, from the build that holds what the request expects (this
 * one when it names nothing), else the network's.
 * @param {FetchEvent} event
 * @param {string} url
 * @returns {Promise<Response>}
 */
async function answer(event, url) {
  const request = event.request;
  const expected = request.integrity || request.headers.get(EXPECTED_HEADER) || "";
  try {
    for (const name of await candidates(expected)) {
      // This build's values are its own (not a stored list, which a script could
      // rewrite); another build's copy serves only a request that names what it expects.
      const integrity = name === CACHE ? files.get(url) : expected;
      const hit = integrity ? await caches.match(url, { cacheName: name }) : undefined;
      if (!integrity || !hit) continue;
      const body = await hit.arrayBuffer();
      if (!(await hasIntegrity(body, integrity))) {
        if (name === CACHE) {
          console.warn(`doiname service worker: the stored ${url} is not the build's: fetched again`);
          await (await caches.open(CACHE)).delete(url);
        }
        continue;
      }
      if (expected && expected !== integrity && !(await hasIntegrity(body, expected))) continue;
      if (request.mode === "navigate" && event.resultingClientId) {
        servedFrom.set(event.resultingClientId, name);
        pruneDue = true;
      }
      const policy = policies.get(url);
      return plainAnswer(hit, body, policy ? { "Content-Security-Policy": policy } : {});
    }
  } catch (err) {
    console.warn("doiname service worker: the cache could not be read", err);
  }
  return fetch(request);
}

sw.addEventListener("install", (event) => event.waitUntil(install()));
sw.addEventListener("activate", (event) => event.waitUntil(prune()));
sw.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") sw.skipWaiting();
});
sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== location.origin) return;
  if (pruneDue && servedFrom.has(/** @type {any} */ (event).clientId)) {
    pruneDue = false;
    event.waitUntil(prune());
  }
  const url = storedURL(request);
  if (url) event.respondWith(answer(event, url));
});
