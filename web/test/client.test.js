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

const CONFIG = /** @type {any} */ ({ pyodideModuleURL: "x", indexURL: "x", coreFilesURL: "x" });

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

/**
 * A client whose workers come from `make` (a new one per boot); `workers` lists them.
 * @param {() => FakeWorker} make
 * @param {Record<string, number>} [extra]
 */
function restarting(make, extra = {}) {
  /** @type {FakeWorker[]} */
  const workers = [];
  const api = createDoiname({
    config: CONFIG,
    createWorker: () => {
      const w = make();
      workers.push(w);
      return /** @type {any} */ (w);
    },
    ...extra,
  });
  /** @type {string[]} */
  const phases = [];
  api.onStatus((s) => phases.push(s.phase));
  return { api, workers, phases };
}

/** A worker that answers boot and ping, and nothing else. */
const silent = () =>
  new FakeWorker((f) => (f.method === "boot" || f.method === "ping" ? { rpc: TAG, id: f.id, ok: {} } : undefined));

test("a worker that stops is replaced: what waited fails with 'restarted', the next call is answered", async () => {
  let n = 0;
  const { api, workers, phases } = restarting(() => (n++ === 0 ? silent() : answering(() => "answer")));
  await api.ready;
  const waiting = api.inspect("10.1000/182");
  await new Promise((r) => setTimeout(r, 10));
  const event = new Event("error", { cancelable: true });
  workers[0].dispatchEvent(Object.assign(event, { message: "out of memory" }));
  await assert.rejects(waiting, (/** @type {any} */ err) => {
    assert.equal(err.code, "restarted");
    assert.match(err.message, /restarted; try again/);
    return true;
  });
  assert.equal(workers[0].terminated, true);
  assert.equal(await api.inspect("10.1000/182"), "answer");
  assert.equal(workers.length, 2);
  assert.deepEqual(phases.slice(-2), ["restarting", "ready"]);
});

test("a reply that cannot be read fails its request with a message, and the worker is replaced", async () => {
  let n = 0;
  const { api, workers } = restarting(() =>
    n++ === 0
      ? new FakeWorker((f) =>
          f.method === "boot"
            ? { rpc: TAG, id: f.id, ok: {} }
            : "method" in f
              ? { rpc: TAG, id: f.id, json: '{"ok": "ab' }
              : undefined,
        )
      : answering(() => "fine"),
  );
  await api.ready;
  await assert.rejects(api.inspect("10.1000/182"), { code: "bad-reply" });
  assert.equal(await api.inspect("10.1000/182"), "fine");
  assert.equal(workers.length, 2);
});

test("a worker that answers no heartbeat is replaced", async () => {
  let n = 0;
  const hung = () => new FakeWorker((f) => (f.method === "boot" ? { rpc: TAG, id: f.id, ok: {} } : undefined));
  const { api, workers, phases } = restarting(() => (n++ === 0 ? hung() : answering(() => "alive")), {
    heartbeatMs: 20,
    heartbeatDeadlineMs: 100,
  });
  await api.ready;
  const waiting = api.inspect("10.1000/182");
  await assert.rejects(waiting, { code: "restarted" });
  assert.equal(await api.inspect("10.1000/182"), "alive");
  assert.ok(phases.includes("restarting"));
  assert.equal(workers.length, 2);
  for (const w of workers) w.terminate();
});

test("a worker that keeps stopping is given up, with a plain message", async () => {
  const { api, workers } = restarting(silent);
  await api.ready;
  for (let i = 0; i < 4; i++) {
    const w = workers.at(-1);
    await new Promise((r) => setTimeout(r, 5));
    w?.dispatchEvent(Object.assign(new Event("error", { cancelable: true }), { message: "crash" }));
    await new Promise((r) => setTimeout(r, 5));
  }
  await assert.rejects(api.inspect("10.1000/182"), (/** @type {any} */ err) => {
    assert.equal(err.code, "not-started");
    assert.match(err.message, /reload the page/);
    return true;
  });
});
