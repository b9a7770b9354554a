// @ts-check
// The page's early downloads (src/engine/early.js) rebuilt in the worker
// (src/worker/early.js): the same status, headers and bytes, streamed; a failure as a
// failed fetch; `cancel` stops what is still arriving.
import assert from "node:assert/strict";
import { test } from "node:test";
import { earlyDownloads, startedEarly } from "../src/engine/early.js";
import { earlyResponses } from "../src/worker/early.js";

/** @typedef {import("../src/engine/config.js").RuntimeFile} RuntimeFile */

/** @type {RuntimeFile[]} */
const FILES = [
  { url: "https://site.example/pyodide/pyodide.asm.wasm", bytes: 6, early: true },
  { url: "https://site.example/pyodide/python_stdlib.zip", bytes: 3, early: true },
  { url: "https://site.example/pyodide/doiname-core.zip.gz", bytes: 3, later: true },
];

/**
 * A body in chunks, each a buffer of its own (as fetch gives them).
 * @param {number[][]} chunks
 */
function body(chunks) {
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(new Uint8Array(c));
      controller.close();
    },
  });
}

test("only the files the build marks early are started by the page", () => {
  assert.deepEqual(
    FILES.filter(startedEarly).map((f) => f.url.split("/").pop()),
    ["pyodide.asm.wasm", "python_stdlib.zip"],
  );
});

test("each answer reaches the worker whole, with its status and headers", async () => {
  /** @type {string[]} */
  const asked = [];
  const port = earlyDownloads(FILES, async (url, init) => {
    asked.push(url);
    assert.equal(init.credentials, "same-origin"); // as the preload hint asks
    const bytes = url.endsWith(".wasm")
      ? [
          [0, 97, 115],
          [109, 1, 0],
        ]
      : [[1, 2, 3]];
    const type = url.endsWith(".wasm") ? "application/wasm" : "application/zip";
    return new Response(body(bytes), { status: 200, headers: { "Content-Type": type, "Content-Length": "6" } });
  });
  assert.ok(port);
  assert.equal(asked.length, 2); // not the core's files, which come later
  const early = earlyResponses(port);
  const wasm = await early.take(FILES[0].url);
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers.get("content-type"), "application/wasm");
  assert.equal(wasm.headers.get("content-length"), "6");
  assert.deepEqual([...new Uint8Array(await wasm.arrayBuffer())], [0, 97, 115, 109, 1, 0]);
  const zip = await early.take(FILES[1].url);
  assert.deepEqual([...new Uint8Array(await zip.arrayBuffer())], [1, 2, 3]);
  early.cancel();
});

test("a download that fails is a failed fetch in the worker", async () => {
  const port = earlyDownloads(FILES.slice(0, 1), async () => {
    throw new TypeError("network down");
  });
  assert.ok(port);
  const early = earlyResponses(port);
  await assert.rejects(early.take(FILES[0].url), /Failed to fetch \(network down\)/);
  early.cancel();
});

test("an answer that is not 200 keeps its status", async () => {
  const port = earlyDownloads(FILES.slice(1, 2), async () => new Response("missing", { status: 404 }));
  assert.ok(port);
  const early = earlyResponses(port);
  const r = await early.take(FILES[1].url);
  assert.equal(r.status, 404);
  assert.equal(await r.text(), "missing");
  early.cancel();
});

test("cancel stops the page's downloads", async () => {
  /** @type {AbortSignal | undefined} */
  let signal;
  const port = earlyDownloads(FILES.slice(0, 1), (_url, init) => {
    signal = init.signal ?? undefined;
    return new Promise(() => {}); // never answers
  });
  assert.ok(port);
  earlyResponses(port).cancel();
  for (let i = 0; i < 50 && !signal?.aborted; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(signal?.aborted, true);
});

test("nothing is started when no file is early", () => {
  assert.equal(
    earlyDownloads([FILES[2]], () => Promise.reject(new Error("not asked"))),
    null,
  );
});
