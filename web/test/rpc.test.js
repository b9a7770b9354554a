// @ts-check
// The request/reply layer (src/engine/rpc.js) over a real MessageChannel.
import assert from "node:assert/strict";
import { test } from "node:test";
import { portEndpoint } from "../src/engine/endpoints.js";
import { connect, DoinameError, JsonText, serve, TAG } from "../src/engine/rpc.js";

/**
 * A requester and a server on the two ends of one channel.
 * @param {(method: string, params: any, cx: {signal: AbortSignal}) => unknown} handle
 */
function pair(handle) {
  const { port1, port2 } = new MessageChannel();
  port1.start();
  port2.start();
  const server = serve(portEndpoint(/** @type {any} */ (port2)), handle);
  const rpc = connect(portEndpoint(/** @type {any} */ (port1)));
  const close = () => {
    port1.close();
    port2.close();
  };
  return { rpc, server, port1, port2, close };
}

test("a request gets its reply; JSON text is read once, on the asking side", async () => {
  const { rpc, close } = pair((method, params) =>
    method === "echo" ? { got: params } : new JsonText(JSON.stringify({ ok: { text: params.text } })),
  );
  assert.deepEqual(await rpc.request("echo", { a: 1 }, { timeoutMs: 1000 }), { got: { a: 1 } });
  assert.deepEqual(await rpc.request("py", { text: "10.1000/182" }, { timeoutMs: 1000 }), { text: "10.1000/182" });
  assert.equal(rpc.pending, 0);
  close();
});

test("many requests at once each get their own answer", async () => {
  const { rpc, close } = pair((_m, n) => n * 2);
  const got = await Promise.all(Array.from({ length: 200 }, (_, i) => rpc.request("double", i, { timeoutMs: 1000 })));
  assert.deepEqual(
    got,
    Array.from({ length: 200 }, (_, i) => i * 2),
  );
  close();
});

test("errors keep their code, message and span, from a throw or an error envelope", async () => {
  const { rpc, close } = pair((method) => {
    if (method === "throw") throw new DoinameError("bad-percent", "“%” at character 3", 2, 5);
    if (method === "reject") return Promise.reject(new Error("plain failure"));
    return new JsonText('{"error":{"code":"short-doi","message":"a shortDOI","position":0,"end":8}}');
  });
  await assert.rejects(rpc.request("throw", null, { timeoutMs: 1000 }), (err) => {
    assert.ok(err instanceof DoinameError);
    assert.deepEqual(err.toJSON(), { code: "bad-percent", message: "“%” at character 3", position: 2, end: 5 });
    return true;
  });
  await assert.rejects(rpc.request("reject", null, { timeoutMs: 1000 }), {
    code: "internal",
    message: "plain failure",
  });
  await assert.rejects(rpc.request("envelope", null, { timeoutMs: 1000 }), { code: "short-doi", position: 0, end: 8 });
  close();
});

test("a reply that cannot be read fails its request with a message", async () => {
  const { rpc, close } = pair((method) =>
    method === "garbled" ? new JsonText('{"ok": [1, 2') : new JsonText('{"result": 1}'),
  );
  await assert.rejects(rpc.request("garbled", null, { timeoutMs: 1000 }), (err) => {
    assert.ok(err instanceof DoinameError);
    assert.equal(err.code, "bad-reply");
    assert.match(err.message, /could not be read: it is not JSON/);
    return true;
  });
  await assert.rejects(rpc.request("shapeless", null, { timeoutMs: 1000 }), {
    code: "bad-reply",
    message: /neither a result nor an error/,
  });
  close();
});

test("a deadline fails the request at once and tells the other side to stop", async () => {
  /** @type {AbortSignal | null} */
  let seen = null;
  const { rpc, close } = pair((_m, _p, { signal }) => {
    seen = signal;
    return new Promise(() => {}); // never answers
  });
  const started = Date.now();
  await assert.rejects(rpc.request("slow", null, { timeoutMs: 50, label: "inspect" }), {
    code: "timeout",
    message: "The DOI engine did not answer within 0.05 s (inspect).",
  });
  assert.ok(Date.now() - started < 1000);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(/** @type {AbortSignal | null} */ (seen)?.aborted, true);
  assert.equal(rpc.pending, 0);
  close();
});

test("a signal cancels the request, before or after it is sent", async () => {
  /** @type {AbortSignal[]} */
  const signals = [];
  const { rpc, port1, close } = pair((_m, _p, { signal }) => {
    signals.push(signal);
    return new Promise(() => {});
  });
  const before = new AbortController();
  before.abort();
  let posted = 0;
  const post = port1.postMessage.bind(port1);
  port1.postMessage = (/** @type {any} */ m, /** @type {any} */ t) => {
    posted++;
    post(m, t);
  };
  await assert.rejects(rpc.request("x", null, { timeoutMs: 0, signal: before.signal }), { code: "cancelled" });
  assert.equal(posted, 0); // nothing sent
  const later = new AbortController();
  const asked = rpc.request("x", null, { timeoutMs: 0, signal: later.signal });
  await new Promise((r) => setTimeout(r, 20));
  later.abort();
  await assert.rejects(asked, { code: "cancelled" });
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(signals.length, 1);
  assert.equal(signals[0].aborted, true);
  close();
});

test("fail() fails what waits and every later request (the dead-worker seam)", async () => {
  const { rpc, close } = pair(() => new Promise(() => {}));
  const waiting = rpc.request("x", null, { timeoutMs: 0 });
  const gone = new DoinameError("not-started", "The DOI engine stopped working; reload the page.");
  rpc.fail(gone);
  await assert.rejects(waiting, gone);
  await assert.rejects(rpc.request("y", null, { timeoutMs: 0 }), gone);
  close();
});

test("events reach their listeners; other messages on the channel are ignored", async () => {
  const { rpc, server, port2, close } = pair(() => null);
  /** @type {unknown[]} */
  const got = [];
  const stop = rpc.on("status", (d) => got.push(d));
  port2.postMessage({ hello: "not ours" });
  port2.postMessage({ rpc: TAG, id: 999, ok: "a late reply" });
  server.emit("status", { phase: "runtime" });
  await new Promise((r) => setTimeout(r, 20));
  stop();
  server.emit("status", { phase: "ready" });
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(got, [{ phase: "runtime" }]);
  close();
});
