// @ts-check
// The client (src/engine/client.js) with a stand-in worker: boot, deadlines, one frame per
// action, a worker that stops.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createDoiname } from "../src/engine/client.js";
import { TAG } from "../src/engine/rpc.js";

/** A worker that answers frames with `respond` (undefined: no answer). */
class FakeWorker extends EventTarget {
  /** @param {(frame: any) => unknown} respond */
  constructor(respond) {
    super();
    this.respond = respond;
    /** @type {any[]} */
    this.posted = [];
    this.terminated = false;
  }

  /** @param {any} frame */
  postMessage(frame) {
    this.posted.push(frame);
    setTimeout(() => {
      const reply = this.respond(frame);
      if (reply !== undefined) this.dispatchEvent(new MessageEvent("message", { data: reply }));
    }, 0);
  }

  terminate() {
    this.terminated = true;
  }
}

const CONFIG = /** @type {any} */ ({ pyodideModuleURL: "x", indexURL: "x", coreWheelURL: "x", coreWheelName: "x" });

/** @param {FakeWorker} worker @param {number} [bootTimeoutMs] */
function start(worker, bootTimeoutMs) {
  return createDoiname({ config: CONFIG, createWorker: () => /** @type {any} */ (worker), bootTimeoutMs });
}

/** Answers `boot` at once and every other request with `ok(method, params)`. */
function answering(/** @type {(m: string, p: any) => unknown} */ ok) {
  return new FakeWorker((f) =>
    f.method === "boot"
      ? { rpc: TAG, id: f.id, ok: { steps: {} } }
      : "method" in f
        ? { rpc: TAG, id: f.id, json: JSON.stringify({ ok: ok(f.method, f.params) }) }
        : undefined,
  );
}

test("a boot that never ends fails with the time limit, and so does every call", async () => {
  const worker = new FakeWorker(() => undefined);
  const api = start(worker, 200);
  /** @type {string[]} */
  const phases = [];
  api.onStatus((s) => phases.push(s.phase));
  await assert.rejects(api.ready, { code: "not-started", message: "Python did not become ready within 0.2 seconds." });
  assert.deepEqual(phases, ["starting", "error"]);
  await assert.rejects(api.call("parse", "10.1000/1"), { code: "not-started" });
  assert.equal(worker.terminated, true);
});

test("calls made before ready wait for it; one user action is one frame", async () => {
  const worker = answering((m, p) => (m === "inspect" ? { verdict: "name", text: p.text, pick: p.pick } : p));
  const api = start(worker);
  const early = api.inspect("10.1000/182");
  await api.ready;
  assert.deepEqual(await early, { verdict: "name", text: "10.1000/182", pick: null });
  const before = worker.posted.length;
  await api.inspect("doi: 10.1056/NEJMoa2001017.", { pick: 1 });
  assert.equal(worker.posted.length - before, 1);
  assert.deepEqual(worker.posted.at(-1).params, { text: "doi: 10.1056/NEJMoa2001017.", pick: 1 });
  assert.deepEqual(await api.call("to_url", "10.1000/a b", { kwargs: { level: "strict" } }), {
    name: "to_url",
    args: ["10.1000/a b"],
    kwargs: { level: "strict" },
  });
  assert.deepEqual(await api.compare("a", "b"), { a: "a", b: "b" });
});

test("exact names go to lookup, never back through a text function", async () => {
  /** @type {string[]} */
  const methods = [];
  const worker = answering((m, p) => {
    methods.push(m);
    if (m === "lookup") return { url: `https://doi.org/api/handles/${p.target.prefix}/${p.target.suffix}` };
    return { outcome: "ok", ok: true, message: "ok", retry: false };
  });
  const api = start(worker);
  /** @type {string[]} */
  const calls = [];
  globalThis.fetch = async (/** @type {any} */ url) => {
    calls.push(String(url));
    return new Response("{}", { status: 200 });
  };
  await api.resolve({ prefix: "10.1000", suffix: "a%41" });
  assert.deepEqual(methods, ["lookup", "read"]);
  assert.deepEqual(calls, ["https://doi.org/api/handles/10.1000/a%41"]);
});

test("a worker that stops fails what waits, with a plain message", async () => {
  const worker = new FakeWorker((f) => (f.method === "boot" ? { rpc: TAG, id: f.id, ok: {} } : undefined));
  const api = start(worker);
  await api.ready;
  const waiting = api.inspect("10.1000/182");
  await new Promise((r) => setTimeout(r, 10));
  const event = new Event("error", { cancelable: true });
  worker.dispatchEvent(Object.assign(event, { message: "out of memory" }));
  await assert.rejects(waiting, { code: "not-started", message: "The DOI engine stopped working; reload the page." });
});
