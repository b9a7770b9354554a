// @ts-check
// The runtime's downloads started at once, handed to the boot's own requests, and their
// progress in bytes over the network (src/worker/fetches.js).
import assert from "node:assert/strict";
import { test } from "node:test";
import { startFetches } from "../src/worker/fetches.js";

const BASE = "https://site.example/pyodide/";

/**
 * A scope whose `fetch` answers `bodies` (URL: [bytes, content-length or 0]) and logs calls.
 * @param {Record<string, [number, number]>} bodies
 */
function fakeScope(bodies) {
  /** @type {string[]} */
  const asked = [];
  const scope = {
    location: { href: "https://site.example/worker.js" },
    /** @param {string} url */
    fetch: async (url) => {
      asked.push(String(url));
      const [size, sent] = bodies[String(url)] ?? [0, 0];
      /** @type {Record<string, string>} */
      const headers = sent ? { "Content-Length": String(sent) } : {};
      const body = new ReadableStream({
        start(controller) {
          for (let at = 0; at < size; at += 1000) controller.enqueue(new Uint8Array(Math.min(1000, size - at)));
          controller.close();
        },
      });
      return new Response(body, { status: bodies[String(url)] ? 200 : 404, headers });
    },
  };
  return { scope, asked };
}

test("every file is asked for at once; the boot's request gets that response, once", async () => {
  const { scope, asked } = fakeScope({ [`${BASE}a.wasm`]: [4000, 1000], [`${BASE}b.zip`]: [2000, 0] });
  const files = [
    { url: `${BASE}a.wasm`, bytes: 4000, transfer: 1500 },
    { url: `${BASE}b.zip`, bytes: 2000 },
    { url: `${BASE}c.mjs`, bytes: 500, transfer: 200, module: true },
  ];
  startFetches(scope, files, () => {});
  assert.deepEqual(asked, [`${BASE}a.wasm`, `${BASE}b.zip`]); // modules are imported, not fetched
  const first = await scope.fetch(`${BASE}a.wasm`);
  assert.equal((await first.arrayBuffer()).byteLength, 4000);
  assert.equal(asked.length, 2, "answered from the download under way");
  await scope.fetch(`${BASE}a.wasm`);
  assert.equal(asked.length, 3, "a second request goes to the network");
  await scope.fetch("other.json");
  assert.equal(asked.at(-1), "other.json");
});

test("progress counts bytes over the network and ends at the total, reported at once", async () => {
  // 1001 sent for 4000 decoded: a share of the wasm's cost per chunk is not whole bytes.
  const { scope } = fakeScope({ [`${BASE}a.wasm`]: [4000, 1001], [`${BASE}b.zip`]: [2000, 0] });
  /** @type {{loaded: number, total: number}[]} */
  const seen = [];
  const files = [
    { url: `${BASE}a.wasm`, bytes: 4000, transfer: 1500 },
    { url: `${BASE}b.zip`, bytes: 2000 },
    { url: `${BASE}c.mjs`, bytes: 500, transfer: 200, module: true },
  ];
  const fetches = startFetches(scope, files, (p) => seen.push(p));
  await (await scope.fetch(`${BASE}a.wasm`)).arrayBuffer();
  await (await scope.fetch(`${BASE}b.zip`)).arrayBuffer();
  fetches.done(`${BASE}c.mjs`);
  fetches.done(`${BASE}c.mjs`); // counted once
  // The last file in: its report is made then, not after the 100 ms reports wait (the
  // boot goes on at once, and the page takes no report after ready).
  const last = seen.at(-1);
  // The wasm costs its Content-Length (1001, not the estimate 1500), the zip its size.
  assert.deepEqual(last, { loaded: 3201, total: 3201 });
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i].loaded >= seen[i - 1].loaded);
  assert.ok(seen.every((p) => Number.isInteger(p.loaded) && p.loaded <= p.total));
});

test("a body that arrives whole counts exactly its cost (no shortfall from shares of a byte)", async () => {
  // 4000 bytes decoded for 1001 sent: four chunks of 250.25 each added as floating-point
  // shares would end at 1000.9999999999999, short of the total, and wait for a timer.
  const { scope } = fakeScope({ [`${BASE}a.wasm`]: [4000, 1001] });
  /** @type {{loaded: number, total: number}[]} */
  const seen = [];
  startFetches(scope, [{ url: `${BASE}a.wasm`, bytes: 4000, transfer: 1500 }], (p) => seen.push(p));
  await (await scope.fetch(`${BASE}a.wasm`)).arrayBuffer();
  assert.deepEqual(seen.at(-1), { loaded: 1001, total: 1001 });
});

test("a module script with an integrity value is fetched with it (checked, then imported from its bytes)", async () => {
  const { scope, asked } = fakeScope({ [`${BASE}a.mjs`]: [3000, 0] });
  /** @type {RequestInit[]} */
  const inits = [];
  const plain = scope.fetch;
  /** @type {any} */ (scope).fetch = async (/** @type {string} */ url, /** @type {RequestInit} */ init) => {
    inits.push(init);
    return plain(url);
  };
  /** @type {{loaded: number, total: number}[]} */
  const seen = [];
  const files = [
    { url: `${BASE}a.mjs`, bytes: 3000, module: true, integrity: "sha384-abc" },
    { url: `${BASE}c.mjs`, bytes: 500, module: true },
  ];
  startFetches(scope, files, (p) => seen.push(p));
  assert.deepEqual(asked, [`${BASE}a.mjs`]);
  assert.equal(inits[0].integrity, "sha384-abc");
  await (await scope.fetch(`${BASE}a.mjs`)).arrayBuffer();
  await new Promise((r) => setTimeout(r, 150));
  assert.deepEqual(seen.at(-1), { loaded: 3000, total: 3500 });
});

test("the later files are asked for once every other download has arrived, and a request waits for them", async () => {
  const { scope, asked } = fakeScope({
    [`${BASE}a.wasm`]: [4000, 0],
    [`${BASE}b.zip`]: [2000, 0],
    [`${BASE}w.whl`]: [300, 0],
  });
  const files = [
    { url: `${BASE}a.wasm`, bytes: 4000 },
    { url: `${BASE}w.whl`, bytes: 300, later: true },
    { url: `${BASE}b.zip`, bytes: 2000 },
  ];
  startFetches(scope, files, () => {});
  const early = scope.fetch(`${BASE}w.whl`); // the boot asks at once: it waits
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(asked, [`${BASE}a.wasm`, `${BASE}b.zip`]);
  await (await scope.fetch(`${BASE}a.wasm`)).arrayBuffer();
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(asked, [`${BASE}a.wasm`, `${BASE}b.zip`], "the zip is still arriving");
  await (await scope.fetch(`${BASE}b.zip`)).arrayBuffer();
  const wheel = await early;
  assert.equal((await wheel.arrayBuffer()).byteLength, 300);
  assert.deepEqual(asked, [`${BASE}a.wasm`, `${BASE}b.zip`, `${BASE}w.whl`]);
});

test("a failed or cancelled download lets the later files go; release asks for them at once", async () => {
  const { scope, asked } = fakeScope({ [`${BASE}a.wasm`]: [4000, 0], [`${BASE}w.whl`]: [300, 0] });
  const files = [
    { url: `${BASE}a.wasm`, bytes: 4000 },
    { url: `${BASE}gone.zip`, bytes: 2000 },
    { url: `${BASE}w.whl`, bytes: 300, later: true },
  ];
  startFetches(scope, files, () => {});
  assert.equal((await scope.fetch(`${BASE}gone.zip`)).status, 404);
  const wasm = await scope.fetch(`${BASE}a.wasm`);
  await wasm.body?.cancel();
  await (await scope.fetch(`${BASE}w.whl`)).arrayBuffer();
  assert.deepEqual(asked, [`${BASE}a.wasm`, `${BASE}gone.zip`, `${BASE}w.whl`]);

  const second = fakeScope({ [`${BASE}a.wasm`]: [4000, 0], [`${BASE}w.whl`]: [300, 0] });
  const fetches = startFetches(
    second.scope,
    [
      { url: `${BASE}a.wasm`, bytes: 4000 },
      { url: `${BASE}w.whl`, bytes: 300, later: true },
    ],
    () => {},
  );
  const wheel = second.scope.fetch(`${BASE}w.whl`);
  fetches.release(); // the wasm was never read
  await (await wheel).arrayBuffer();
  assert.deepEqual(second.asked, [`${BASE}a.wasm`, `${BASE}w.whl`]);
});

test("a data file is checked as it streams, on its first request and on every later one", async () => {
  const good = new Uint8Array(2500).fill(7);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-384", good));
  const integrity = `sha384-${btoa(String.fromCharCode(...digest))}`;
  let bytes = good;
  /** @type {RequestInit[]} */
  const inits = [];
  const scope = {
    location: { href: "https://site.example/worker.js" },
    fetch: async (/** @type {string} */ _url, /** @type {RequestInit} */ init = {}) => {
      inits.push(init);
      return new Response(bytes.slice(), { status: 200 });
    },
  };
  const url = `${BASE}python_stdlib.zip`;
  const fetches = startFetches(scope, [{ url, bytes: 2500, integrity }], () => {});
  // Named for the service worker, not the browser's integrity option (which holds the body back).
  assert.equal(inits[0].integrity, undefined);
  assert.equal(/** @type {Record<string, string>} */ (inits[0].headers)["Doiname-Integrity"], integrity);
  assert.equal((await (await scope.fetch(url)).arrayBuffer()).byteLength, 2500);
  bytes = good.slice();
  bytes[100] = 8; // the later request gets changed bytes
  await assert.rejects(
    (await scope.fetch(url)).arrayBuffer(),
    /python_stdlib\.zip is not the file this build was made with \(its integrity check failed\)/,
  );
  await assert.rejects(fetches.refused, /python_stdlib\.zip is not the file/);
});
