// @ts-check
/**
 * The page: `startPage(doiname)` wires the inputs, the views (each given the client),
 * the boot status and the URL state. Draws nothing heavy before first paint; results
 * fill in when Python is ready. The entry that made the client (the site's, the single
 * file's) calls it.
 * @module page
 */
import { INSPECT_MAX_CHARS } from "./engine/limits.gen.js";
import { byId, el, replace } from "./ui/dom.js";
import { guardLongPaste } from "./ui/long-paste.js";
import { BatchView } from "./views/batch/view.js";
import { EquivalenceView } from "./views/equivalence.js";
import { InspectView } from "./views/inspect.js";
import { ResolveView } from "./views/resolve.js";
import { isStateHash, readState, StateHistory, writeState } from "./views/state.js";
import { WorkCardView } from "./views/work-card.js";

/** @typedef {import("./views/state.js").PageState} PageState */
/** @typedef {import("./engine/client.js").Doiname} Doiname */

/**
 * Wire the page to `doiname`.
 * @param {Doiname} doiname
 */
export function startPage(doiname) {
  const input = /** @type {HTMLTextAreaElement} */ (byId("doi-input"));
  const eqA = /** @type {HTMLInputElement} */ (byId("eq-a"));
  const eqB = /** @type {HTMLInputElement} */ (byId("eq-b"));

  /** @returns {PageState} */
  function currentState() {
    return { doi: input.value, a: eqA.value, b: eqB.value };
  }

  const addressHistory = new StateHistory(currentState);
  const commitState = () => addressHistory.commit();

  // "Which RA?" lives under Inspect's "Other forms" (drawn again with each name): one
  // button, asked by the resolve view, placed by the inspect view.
  const whichRaButton = /** @type {HTMLButtonElement} */ (
    el("button", { type: "button", id: "which-ra-button", text: "Which RA?" })
  );
  const inspect = new InspectView(doiname, {
    panel: byId("inspect"),
    input,
    summary: byId("inspect-summary"),
    card: {
      card: byId("inspect-card"),
      empty: byId("inspect-empty"),
      placeholder: byId("inspect-placeholder"),
      errorBox: byId("inspect-error"),
      task: byId("inspect-task"),
      name: byId("result-name"),
      link: byId("url-recommended"),
      open: /** @type {HTMLAnchorElement} */ (byId("open-link")),
      checks: byId("task-checks"),
      reading: byId("task-reading"),
      offer: byId("task-offer"),
      copyRepaired: /** @type {HTMLButtonElement} */ (byId("copy-repaired")),
    },
    copy: /** @type {HTMLButtonElement} */ (byId("copy-link")),
    whichRa: whichRaButton,
    mirrorWrap: byId("mirror-wrap"),
    mirror: byId("mirror"),
    results: byId("inspect-results"),
    onUse: (text) => putInInspect(text),
  });

  const equivalence = new EquivalenceView(doiname, { a: eqA, b: eqB, output: byId("eq-output") });

  // The address sent to Crossref: the host page's (`<html data-crossref-mailto>`), or the
  // person's, typed into Settings (kept for this visit); never one of our own.
  const mailtoInput = /** @type {HTMLInputElement} */ (byId("crossref-mailto"));
  const hostMailto = document.documentElement.dataset.crossrefMailto ?? "";
  if (hostMailto && !doiname.mailto()) doiname.setMailto(hostMailto);
  mailtoInput.value = doiname.mailto() ?? "";
  mailtoInput.addEventListener("change", () => doiname.setMailto(mailtoInput.value));

  const work = new WorkCardView(doiname, {
    notice: byId("work-notice"),
    card: byId("work-card"),
    checks: byId("task-checks"),
    onPick: (candidate) => {
      void inspect.update({ text: input.value, pick: candidate }).then(() => resolve.run("resolve"));
    },
  });

  const resolve = new ResolveView(doiname, {
    resolveButton: /** @type {HTMLButtonElement} */ (byId("resolve-button")),
    cancelButton: /** @type {HTMLButtonElement} */ (byId("resolve-cancel")),
    whichRaButton,
    output: byId("resolve-output"),
    getText: () => input.value,
    getReading: (text) => inspect.reading(text),
    onAction: commitState,
    onResolved: (text, found, signal) => work.show(text, found, signal),
    onClear: () => work.clear(),
  });

  new BatchView(doiname, {
    // wires the Batch section; nothing else talks to it
    input: /** @type {HTMLTextAreaElement} */ (byId("batch-input")),
    run: /** @type {HTMLButtonElement} */ (byId("batch-run")),
    cancel: /** @type {HTMLButtonElement} */ (byId("batch-cancel")),
    clear: /** @type {HTMLButtonElement} */ (byId("batch-clear")),
    file: /** @type {HTMLInputElement} */ (byId("batch-file")),
    progressWrap: byId("batch-progress-wrap"),
    progress: /** @type {HTMLProgressElement} */ (byId("batch-progress")),
    progressText: byId("batch-progress-text"),
    status: byId("batch-status"),
    results: byId("batch-results"),
    summary: byId("batch-summary"),
    filter: /** @type {HTMLSelectElement} */ (byId("batch-filter")),
    search: /** @type {HTMLInputElement} */ (byId("batch-search")),
    shown: byId("batch-shown"),
    csv: /** @type {HTMLButtonElement} */ (byId("batch-csv")),
    unique: /** @type {HTMLButtonElement} */ (byId("batch-unique")),
    excel: /** @type {HTMLButtonElement} */ (byId("batch-excel")),
    json: /** @type {HTMLButtonElement} */ (byId("batch-json")),
    resolve: /** @type {HTMLButtonElement} */ (byId("batch-resolve")),
    check: /** @type {HTMLButtonElement} */ (byId("batch-check")),
    shownOnly: /** @type {HTMLInputElement} */ (byId("batch-shown-only")),
    scroller: byId("batch-scroll"),
    table: /** @type {HTMLTableElement} */ (byId("batch-table")),
    head: /** @type {HTMLTableRowElement} */ (byId("batch-head")),
    body: /** @type {HTMLTableSectionElement} */ (byId("batch-body")),
    detail: byId("batch-detail"),
    onInspect: (text) => {
      putInInspect(text);
      input.scrollIntoView({ block: "center" });
    },
  });

  /** The text the resolve result belongs to. */
  let resolvedFor = input.value;

  /**
   * The input's text changed: read it. `byPerson` (the default): by a key or a click;
   * else by the address or Back, whose answer Inspect draws in the first screen
   * (ui/space.js), as no key or click makes its layout the person's own doing.
   * @param {boolean} [byPerson]
   */
  function onInspectInput(byPerson = true) {
    if (input.value !== resolvedFor) {
      resolve.clear();
      resolvedFor = input.value;
    }
    void inspect.update({ text: input.value, pick: null }, byPerson);
  }

  /**
   * A deliberate step that puts `text` into the Inspect input (an example, Clear, a
   * "use this" link, a batch row): it gets its own history entry, and the input the focus.
   * @param {string} text
   */
  function putInInspect(text) {
    commitState();
    input.value = text;
    addressHistory.push();
    onInspectInput();
    input.focus();
  }

  function onEquivalenceInput() {
    void equivalence.update([eqA.value, eqB.value]);
  }

  /** Pasting or dropping text is a deliberate step: it gets its own history entry. */
  const DELIBERATE_INPUT = new Set(["insertFromPaste", "insertFromDrop", "insertReplacementText"]);

  // The box grows with its text once the person uses it (style.css: `.sized`). Filled
  // from the address at load, it keeps its one line, so nothing below it moves before
  // anyone acted (the name is whole in the result card).
  const sized = () => input.classList.add("sized");
  for (const type of ["focus", "input", "pointerdown"]) input.addEventListener(type, sized, { once: true });
  if (document.activeElement === input) sized();

  // A paste too long to inspect stays out of the box; Python's answer says so at once.
  guardLongPaste(input, INSPECT_MAX_CHARS, (text) => {
    resolve.clear();
    resolvedFor = text;
    void inspect.update({ text, pick: null });
  });
  input.addEventListener("input", (ev) => {
    if (ev instanceof InputEvent && DELIBERATE_INPUT.has(ev.inputType)) {
      // The entry before keeps what was there; the pasted text is a new one.
      addressHistory.push();
    } else {
      addressHistory.typed();
    }
    onInspectInput();
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault(); // Shift+Enter starts a new line; pasted lines keep theirs
      commitState();
      if (input.value.trim()) void resolve.run("resolve"); // the focus stays in the input
    } else if (ev.key === "Escape" && input.value) {
      ev.preventDefault();
      input.value = "";
      addressHistory.typed();
      onInspectInput();
    }
  });
  input.addEventListener("change", commitState);
  for (const box of [eqA, eqB]) {
    box.addEventListener("input", () => {
      addressHistory.typed();
      onEquivalenceInput();
    });
    box.addEventListener("change", commitState);
    box.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") {
        ev.preventDefault();
        commitState();
      }
    });
  }
  byId("doi-clear").addEventListener("click", () => putInInspect(""));

  for (const button of document.querySelectorAll("button[data-example]")) {
    button.addEventListener("click", () => putInInspect(/** @type {HTMLElement} */ (button).dataset.example ?? ""));
  }

  // A link to a place in the page (the skip link, "Also on this page") moves there and
  // to its first field without touching the address, which holds the page's state.
  document.addEventListener("click", (ev) => {
    const link = ev.target instanceof Element ? ev.target.closest('a[href^="#"]') : null;
    const id = link?.getAttribute("href")?.slice(1) ?? "";
    const target = id && !isStateHash(`#${id}`) ? document.getElementById(id) : null;
    if (!target) return;
    ev.preventDefault();
    const field = target.matches("input, textarea") ? target : target.querySelector("input, textarea");
    target.scrollIntoView({ block: "start" });
    /** @type {HTMLElement} */ (field ?? target).focus({ preventScroll: true });
  });

  /**
   * Put the URL's state in the inputs (page load, back, forward). On load (`first`), text
   * a person typed or pasted before the scripts ran is kept (it is newer than the link),
   * and the URL follows it. A fragment that names a place in the page is not a state:
   * the inputs stay as they are.
   * @param {boolean} [first]
   */
  function restore(first = false) {
    if (!first && !isStateHash()) return;
    addressHistory.restored();
    const state = readState();
    /** @param {HTMLInputElement | HTMLTextAreaElement} el @param {string} value */
    const put = (el, value) => {
      if (el.value !== value && !(first && el.value)) el.value = value;
    };
    put(input, state.doi);
    put(eqA, state.a);
    put(eqB, state.b);
    if (first && (input.value !== state.doi || eqA.value !== state.a || eqB.value !== state.b)) {
      writeState(currentState(), false);
    }
    onInspectInput(false);
    onEquivalenceInput();
  }
  window.addEventListener("popstate", () => restore());
  window.addEventListener("hashchange", () => restore());
  window.addEventListener("pagehide", () => addressHistory.flush()); // a reload or Back finds the last text

  showBootStatus(doiname, inspect);
  restore(true);
}

/**
 * The start-up status: its phase and message, from the client's status reports (a
 * stopped worker being replaced, ready again, or given up after the first boot); Inspect
 * told when Python is ready or could not start.
 * @param {Doiname} doiname
 * @param {InspectView} inspect
 */
function showBootStatus(doiname, inspect) {
  const boot = byId("boot");
  const bootMessage = byId("boot-message");
  /**
   * @param {string} phase
   * @param {string} message
   */
  function showBoot(phase, message) {
    boot.dataset.phase = phase;
    replace(bootMessage, message);
  }

  showProgress(doiname);
  doiname.onStatus((status) => {
    // After the first boot: a stopped worker being replaced, ready again, or given up.
    if (boot.dataset.phase === "ready" || boot.dataset.phase === "restarting") {
      if (status.phase === "restarting") showBoot("restarting", status.message);
      else if (status.phase === "ready" && boot.dataset.phase === "restarting") {
        showBoot("ready", "Ready again: the engine restarted.");
      } else if (status.phase === "error") showBoot("failed", status.message);
      return;
    }
    if (boot.dataset.phase === "failed") return;
    // Failure is reported (in words of this page) when `ready` rejects.
    if (status.phase === "error") return;
    showBoot(status.phase, status.message);
  });
  doiname.ready.then(
    () => {
      inspect.setReady();
      showBoot("ready", "Ready: all computed in your browser.");
    },
    (err) => {
      const plain = `The DOI engine could not start in this browser: ${err instanceof Error ? err.message : err}`;
      showBoot("failed", plain);
      inspect.setFailed(plain);
    },
  );
}

/**
 * The runtime's download in the start-up status: a determinate bar, bytes and percent.
 * @param {Doiname} doiname
 */
function showProgress(doiname) {
  const bar = /** @type {HTMLProgressElement | null} */ (document.getElementById("boot-progress"));
  const text = document.getElementById("boot-bytes");
  if (!bar || !text) return;
  const mb = (/** @type {number} */ n) => (n / 1e6).toFixed(1);
  doiname.onProgress(({ loaded, total }) => {
    if (!total) return;
    const share = Math.min(1, loaded / total);
    bar.value = share;
    const words = `${mb(loaded)} of ${mb(total)} MB (${Math.floor(share * 100)}%)`;
    if (text.textContent !== words) replace(text, words);
  });
}
