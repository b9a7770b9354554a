// @ts-check
/**
 * Batch's "Check all": for each unique name (its first row), the record its registration
 * agency holds is fetched (the client's registry: Which RA kept per prefix, the request
 * Python makes, the agency's limits, answers kept per exact name) and Python reads it and
 * checks it against the record of every row of that name (`batch_check`); each row then
 * has the status Python gives. A rate-limited or timed-out answer is asked again after
 * the wait Python read (at most TRIES times). Progress, Cancel (the view's `resolving`,
 * as Resolve all), a question with a time estimate before long runs (the agency's limit
 * from the request Python makes). After an engine restart the new job holds no checks:
 * Check all checks every name again, from the answers kept (no request is sent again).
 * @module views/batch/check-all
 */
import { replace } from "../../ui/dom.js";
import { ASK_FROM } from "./resolve-all.js";
import { showDetail } from "./select.js";
import { askFirst } from "./status.js";
import { fmt } from "./table.js";

/** @typedef {import("./view.js").BatchView} BatchView */
/** @typedef {import("../../engine/types.gen.js").BatchTarget} BatchTarget */

/** Names asked at once (each agency's own limits hold them back further). */
const LANES = 6;
/** Most attempts per name while the answer says to wait. */
const TRIES = 4;
/** Exact names asked of the worker at a time. */
const TARGETS_AT_ONCE = 1000;

/**
 * Check every unique name of the view's rows; Cancel stops.
 * @param {BatchView} view
 */
export async function checkAll(view) {
  const handle = view.handle;
  if (!handle) {
    view.say("Find DOIs first: Check all checks the names the batch found.", true);
    return;
  }
  const rows = view.model.toCheck(handle);
  if (!rows.length) {
    view.say(
      view.model.checks.size ? "Every unique name is checked already." : "There is no readable DOI name to check.",
      true,
    );
    return;
  }
  if (rows.length < ASK_FROM) {
    void run(view, rows);
    return;
  }
  // The estimate: Crossref's limit for this page's requests, from the request Python makes.
  const [first] = await handle.targets(rows.slice(0, 1));
  const req = first
    ? /** @type {import("../../engine/types.gen.js").RegistryRequest} */ (
        await view.doiname.registryRequest(first.doi, "Crossref")
      )
    : null;
  const perSecond = req?.per_second || 1;
  const seconds = Math.ceil(rows.length / perSecond);
  const time = seconds < 90 ? `about ${seconds} seconds` : `about ${Math.round(seconds / 60)} minutes`;
  askFirst(
    view.els.status,
    `Check all reads ${fmt(rows.length)} records from their registration agencies, within their limits (Crossref: ${perSecond} a second${view.doiname.mailto() ? "" : "; give your e-mail address in Settings for more"}): ${time}. You can cancel at any time; the names done so far keep their checks.`,
    `Check ${fmt(rows.length)} names`,
    () => void run(view, rows),
  );
}

/**
 * @param {BatchView} view
 * @param {number[]} rows the first row of each name to check
 */
async function run(view, rows) {
  const { model, els, doiname } = view;
  const handle = /** @type {NonNullable<BatchView["handle"]>} */ (view.handle);
  const controller = new AbortController();
  const { signal } = controller;
  view.resolving = controller;
  view.setRunning(true, false);
  els.progressWrap.hidden = false;
  const total = rows.length;
  let done = 0;
  let failed = 0;
  const show = () => {
    els.progress.value = done / total;
    replace(els.progressText, `Checked ${fmt(done)} of ${fmt(total)} names`);
  };
  show();
  view.say(`Checking ${fmt(total)} unique names against their registry records…`, false);
  if (model.checkedIn !== handle) model.checks = new Map();
  model.checkedIn = handle;
  /** @type {BatchTarget[]} */
  const queue = [];
  for (let at = 0; at < rows.length && !signal.aborted; at += TARGETS_AT_ONCE)
    queue.push(...(await handle.targets(rows.slice(at, at + TARGETS_AT_ONCE))));
  done += total - queue.length; // rows without a readable name: nothing to check
  /** @type {unknown} */
  let stopped = null;
  const lane = async () => {
    while (queue.length && !signal.aborted && !stopped) {
      const target = /** @type {BatchTarget} */ (queue.shift());
      try {
        for (let attempt = 0; attempt < TRIES && !signal.aborted; attempt++) {
          const { got, gate, kept } = await doiname.fetchRecord(target.doi, signal);
          if (signal.aborted) return;
          const res = await handle.check(target.row, { ...got.answer, agency: got.agency, ra_kind: got.kind });
          if (!kept) doiname.keepRecord(target.doi, got, res.outcome);
          const wait = res.retry_after_s ?? 0;
          if (res.rows.length || !(res.outcome === "rate-limited" || res.outcome === "timeout")) {
            for (const r of res.rows) {
              model.checks.set(r.row, r);
              if (r.row === view.selected) showDetail(view, r.row);
            }
            if (!res.rows.length) failed++;
            break;
          }
          gate?.holdFor(Math.max(wait, 1) * 1000);
          if (attempt === TRIES - 1) failed++;
        }
      } catch (err) {
        stopped = err; // the engine stopped (restart) or the batch was closed
        return;
      }
      done++;
      show();
      view.schedule();
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, queue.length) }, lane));
  if (view.resolving !== controller) return; // cleared or restarted meanwhile
  view.resolving = null;
  view.setRunning(false);
  view.refreshView(false);
  view.drawCounts();
  const counts = model.statusCounts();
  const said = ["another-work", "updated", "cannot-tell", "not-found"]
    .filter((s) => counts.get(s))
    .map((s) => `${fmt(counts.get(s) ?? 0)} ${model.label(s).toLowerCase()}`);
  const err = /** @type {{code?: string, message?: string} | null} */ (stopped);
  if (err) {
    view.say(
      `Check all stopped after ${fmt(done)} of ${fmt(total)} names: ${err.message ?? String(err)}${err.code === "restarted" ? " Once the batch has gone on, press Check all to go on: the names done so far are not asked again." : ""}`,
      true,
    );
    return;
  }
  view.say(
    signal.aborted
      ? `Checking cancelled after ${fmt(done)} of ${fmt(total)} names; the rows checked so far keep their status.`
      : `Checked ${fmt(total)} names${said.length ? `: ${said.join(", ")}` : ": every reference matches its DOI's record"}${failed ? `; ${fmt(failed)} could not be read (Could not be checked)` : ""}.`,
    false,
  );
}
