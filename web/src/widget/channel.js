// @ts-check
/**
 * The widget's way to the DOI engine: a hidden iframe on the tool's own origin
 * (widget-frame.html, frame.js), opened on first need, and the request/reply layer of
 * engine/rpc.js over it (frames go to that window and origin only). The host page never
 * runs Python, and its Content-Security-Policy only has to allow the tool's origin.
 *
 * Opening: the frame's page loads (LOAD_MS at most), its script says `hello`
 * (HELLO_MS after the load at most), then `ready` waits for Python in the frame (at most
 * DEADLINES.ready). A Content-Security-Policy that blocks the tool, or any of these
 * limits, fails the channel: every request under way and every later one is refused,
 * and the console says once why (the page's DOIs stay plain text or plain links).
 * @module widget/channel
 */

import { frameEndpoint } from "../engine/endpoints.js";
import { connect, DoinameError } from "../engine/rpc.js";
import { el } from "../ui/dom.js";
import { onPolicyBlock } from "./blocked.js";

/** @typedef {import("./frame.js").FrameOperations} FrameOperations */

/** Longest the frame's page may take to load, and then its script to say hello (ms). */
export const LOAD_MS = 30_000;
export const HELLO_MS = 5_000;

/** The deadline of each request to the frame (ms): a little more than the frame's own. */
export const DEADLINES = /** @type {const} */ ({
  ready: 125_000,
  box: 10_000,
  link_targets: 20_000,
  resolve: 20_000,
  expand: 20_000,
});

/**
 * A promise that rejects with `message` after `ms`, unless `promise` settles first.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} message
 * @returns {Promise<T>}
 */
function within(promise, ms, message) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new DoinameError("timeout", message)), ms);
  });
  return /** @type {Promise<T>} */ (Promise.race([promise, late]).finally(() => clearTimeout(timer)));
}

/**
 * The channel to the tool at `base` (the folder of widget.js, ending in `/`).
 * @param {string} base
 * @param {(why: string) => void} onFail told once, when the channel fails
 */
export function frameChannel(base, onFail) {
  const origin = new URL(base).origin;
  /** @type {HTMLIFrameElement | null} */
  let frame = null;
  /** @type {Promise<void> | null} */
  let opened = null;
  /** @type {DoinameError | null} */
  let failure = null;
  /** @type {(e: DoinameError) => void} */
  let refuse = () => {};
  /** Rejects when the channel fails (raced against every wait). @type {Promise<never>} */
  const failed = new Promise((_, reject) => {
    refuse = reject;
  });
  failed.catch(() => {});
  const rpc = connect(frameEndpoint(() => frame?.contentWindow ?? null, origin));
  /** @type {() => void} */
  let heard = () => {};
  /** @type {Promise<void>} */
  const hello = new Promise((resolve) => {
    heard = resolve;
  });
  rpc.on("hello", () => heard());

  /** @param {string} why */
  function fail(why) {
    if (failure) return;
    failure = new DoinameError("unavailable", why);
    onFail(why);
    refuse(failure);
    rpc.fail(failure);
  }

  onPolicyBlock(base, fail);

  /** Open the frame once; resolves when Python is ready in it. @returns {Promise<void>} */
  function open() {
    if (opened) return opened;
    opened = (async () => {
      if (failure) throw failure;
      const page = el("iframe", { src: `${base}widget-frame.html`, title: "doiname engine", "aria-hidden": "true" });
      page.tabIndex = -1;
      page.style.cssText =
        "position:absolute!important;width:1px!important;height:1px!important;" +
        "border:0!important;clip:rect(0 0 0 0)!important;overflow:hidden!important;left:-9999px!important";
      const loaded = new Promise((resolve) => page.addEventListener("load", resolve, { once: true }));
      frame = page;
      (document.body || document.documentElement).appendChild(page);
      await Promise.race([within(loaded, LOAD_MS, "The tool's page did not load within 30 seconds."), failed]);
      await Promise.race([within(hello, HELLO_MS, "The tool's page loaded but its script did not start."), failed]);
      await rpc.request("ready", null, { timeoutMs: DEADLINES.ready, label: "start" });
    })();
    opened.catch((e) => fail(e instanceof Error ? e.message : String(e)));
    return opened;
  }

  return {
    open,
    /**
     * Ask the engine in the frame (opening it first), with the deadline of `method`.
     * @template {keyof typeof DEADLINES & keyof FrameOperations} M
     * @param {M} method
     * @param {FrameOperations[M]["params"]} params
     * @returns {Promise<FrameOperations[M]["result"]>}
     */
    async request(method, params) {
      await open();
      return rpc.request(method, params, { timeoutMs: DEADLINES[method] });
    },
    /** Whether the channel failed (the widget then leaves the page as it is). */
    get failed() {
      return failure !== null;
    },
  };
}

/** @typedef {ReturnType<typeof frameChannel>} Channel */
