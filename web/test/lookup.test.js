// @ts-check
// Answers from doi.org read within MAX_BODY (src/engine/lookup.js): at, below and above
// the bound; an endless answer abandoned once past it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_BODY } from "../src/engine/limits.gen.js";
import { fetchAnswer, readBounded } from "../src/engine/lookup.js";

/**
 * A streamed body of `total` bytes of "a" (Infinity: endless), in chunks of `chunk`;
 * `pulled()` says how many bytes were handed out.
 * @param {number} total
 * @param {number} chunk
 * @param {Record<string, string>} [headers]
 */
function streamed(total, chunk, headers = {}) {
  let sent = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        return;
      }
      const n = Math.min(chunk, total - sent);
      sent += n;
      controller.enqueue(new Uint8Array(n).fill(97));
    },
  });
  return { response: new Response(body, { headers }), pulled: () => sent };
}

test("a body at and below the bound is read whole; one byte over is refused", async () => {
  assert.equal(await readBounded(new Response("abc"), 3), "abc");
  assert.equal(await readBounded(new Response("ab"), 3), "ab");
  assert.equal(await readBounded(new Response("abcd"), 3), null);
  assert.equal(await readBounded(new Response("é"), 2), "é"); // bytes are counted, UTF-8 read
  assert.equal(await readBounded(new Response("é"), 1), null);
});

test("an endless answer is abandoned just past MAX_BODY bytes", async () => {
  const { response, pulled } = streamed(Infinity, 1 << 20);
  assert.equal(await readBounded(response, MAX_BODY), null);
  assert.ok(pulled() <= MAX_BODY + 2 * (1 << 20), `${pulled()} bytes read`);
});

test("a Content-Length over the bound is refused before reading", async () => {
  const { response, pulled } = streamed(100, 10, { "content-length": String(MAX_BODY + 1) });
  assert.equal(await readBounded(response, MAX_BODY), null);
  assert.ok(pulled() <= 10);
});

test("fetchAnswer reports a too large answer as the transport failure too-large", async () => {
  const saved = globalThis.fetch;
  globalThis.fetch = async () => streamed(MAX_BODY + 1, 1 << 20).response;
  try {
    assert.deepEqual(await fetchAnswer("https://doi.org/api/handles/10.1000/1"), {
      status: null,
      body: null,
      failure: "too-large",
      content_type: null,
      retry_after: null,
    });
    globalThis.fetch = async () => streamed(MAX_BODY, 1 << 20).response;
    const ok = await fetchAnswer("https://doi.org/api/handles/10.1000/1");
    assert.equal(ok.failure, null);
    assert.equal(ok.body?.length, MAX_BODY);
  } finally {
    globalThis.fetch = saved;
  }
});

test("fetchAnswer sends the headers Python chose and brings back Content-Type and Retry-After", async () => {
  const saved = globalThis.fetch;
  /** @type {RequestInit | undefined} */
  let sent;
  globalThis.fetch = async (_url, init) => {
    sent = init;
    return new Response("{}", { status: 429, headers: { "content-type": "application/json", "retry-after": "7" } });
  };
  try {
    const got = await fetchAnswer("https://api.crossref.org/works/10.1000/1", {
      headers: { Accept: "application/json" },
    });
    assert.deepEqual(sent?.headers, { Accept: "application/json" });
    assert.equal(sent?.credentials, "omit");
    assert.deepEqual(got, {
      status: 429,
      body: "{}",
      failure: null,
      content_type: "application/json",
      retry_after: "7",
    });
  } finally {
    globalThis.fetch = saved;
  }
});
