// @ts-check
// Scripts run only from their checked bytes (src/engine/verified.js): the integrity value
// goes with the request, a refusal is one plain line naming the script.
import assert from "node:assert/strict";
import { resolveObjectURL } from "node:buffer";
import { test } from "node:test";
import { verifiedScriptURL } from "../src/engine/verified.js";

test("the script is asked for with its integrity value and comes back as a blob: URL of its bytes", async () => {
  /** @type {RequestInit[]} */
  const inits = [];
  const url = await verifiedScriptURL("https://site.example/worker.js", "sha384-xyz", {
    what: "The script",
    fetcher: async (_u, init) => {
      inits.push(init);
      return new Response("export const x = 1;", { status: 200 });
    },
  });
  assert.equal(inits[0].integrity, "sha384-xyz");
  assert.ok(url.startsWith("blob:"), url);
  assert.equal(await resolveObjectURL(url)?.text(), "export const x = 1;");
});

test("a refused script (integrity or network) rejects with one plain line", async () => {
  const refused = verifiedScriptURL("https://site.example/worker.js", "sha384-xyz", {
    what: "The DOI engine's script (worker.js)",
    fetcher: async () => {
      throw new TypeError("Failed to fetch");
    },
  });
  await assert.rejects(refused, (/** @type {Error} */ err) => {
    assert.match(err.message, /^The DOI engine's script \(worker\.js\) could not be downloaded, or it is not the file/);
    assert.ok(!err.message.includes("\n"));
    return true;
  });
  const missing = verifiedScriptURL("https://site.example/x.mjs", "sha384-xyz", {
    what: "x.mjs",
    fetcher: async () => new Response("", { status: 404 }),
  });
  await assert.rejects(missing, /x\.mjs could not be downloaded \(HTTP 404\)/);
});

test("a script that never arrives is given up at its deadline", async () => {
  const slow = verifiedScriptURL("https://site.example/x.mjs", "sha384-xyz", {
    what: "x.mjs",
    timeoutMs: 20,
    fetcher: (_u, init) =>
      new Promise((_, reject) => init.signal?.addEventListener("abort", () => reject(new Error("aborted")))),
  });
  await assert.rejects(slow, /x\.mjs did not arrive within 0\.02 seconds/);
});

test("hasIntegrity reads SRI values of each algorithm; a checked response fails at its end on other bytes", async () => {
  const { checkedResponse, hasIntegrity, IntegrityError } = await import("../src/engine/verified.js");
  const bytes = new TextEncoder().encode("doiname");
  const value = async (/** @type {string} */ alg) =>
    btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest(alg, bytes))));
  assert.ok(await hasIntegrity(bytes, `sha256-${await value("SHA-256")}`));
  assert.ok(await hasIntegrity(bytes, `sha512-x sha384-${await value("SHA-384")}`));
  assert.ok(!(await hasIntegrity(bytes, `sha384-${await value("SHA-256")}`)));
  assert.ok(!(await hasIntegrity(bytes, "md5-abc")));
  const good = `sha384-${await value("SHA-384")}`;
  assert.equal(await checkedResponse(new Response(bytes), good, "x").text(), "doiname");
  /** @type {unknown[]} */
  const told = [];
  const bad = checkedResponse(new Response("doinamf"), good, "python_stdlib.zip", (e) => told.push(e));
  await assert.rejects(
    bad.arrayBuffer(),
    (err) => err instanceof IntegrityError && /integrity check failed/.test(err.message),
  );
  assert.equal(told.length, 1);
});
