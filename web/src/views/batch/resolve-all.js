// @ts-check
/**
 * Batch's "Resolve all": every unique name still to resolve is asked of doi.org by the
 * request URL Python made from its exact name (the row's `api_url`; never the decoded
 * name read again), through the client's pool (a few at a time, again while Python's
 * reading of the answer says it may help); each answer goes to the name's rows.
 * @module views/batch/resolve-all
 */
import { LOOKUPS_AT_ONCE } from "../../engine/limits.gen.js";
import { replace } from "../../ui/dom.js";
import { showDetail } from "./select.js";
import { askFirst } from "./status.js";
import { fmt } from "./table.js";

/** From this many names on, Resolve all asks first (how many requests, how long). */
export const ASK_FROM = 100;
/** A rough time per request (s), for the estimate. */
const SECONDS_EACH = 0.4;

/** @typedef {import("./view.js").BatchView} BatchView */

/**
 * Resolve every unique name of the view's rows; Cancel (the view's `resolving`) stops.
 * @param {BatchView} view
 */
export function resolveAll(view) {
  const { model } = view;
  const total = model.toResolve().size;
  if (!total) {
    view.say(
      model.resolutions.size ? "Every unique name is resolved already." : "There is no readable DOI name to resolve.",
      true,
    );
    return;
  }
  if (total < ASK_FROM) {
    void run(view);
    return;
  }
  const seconds = Math.ceil((total / LOOKUPS_AT_ONCE) * SECONDS_EACH);
  const time = seconds < 90 ? `about ${seconds} seconds` : `about ${Math.round(seconds / 60)} minutes`;
  askFirst(
    view.els.status,
    `Resolve all sends ${fmt(total)} requests to doi.org, ${LOOKUPS_AT_ONCE} at a time: ${time} on a good connection. You can cancel at any time; the names done so far keep their answers.`,
    `Resolve ${fmt(total)} names`,
    () => void run(view),
  );
}

/**
 * Resolve every unique name still to resolve.
 * @param {BatchView} view
 */
async function run(view) {
  const { model, els } = view;
  const targets = model.toResolve();
  const total = targets.size;
  const controller = new AbortController();
  view.resolving = controller;
  view.setRunning(true, false);
  els.progressWrap.hidden = false;
  let done = 0;
  const show = () => {
    els.progress.value = done / total;
    replace(els.progressText, `Resolved ${fmt(done)} of ${fmt(total)} names`);
  };
  show();
  view.say(`Resolving ${fmt(total)} unique names at doi.org, a few at a time…`, false);
  await view.doiname.lookupAll([...targets.keys()], {
    signal: controller.signal,
    onResult: (url, record) => {
      if (view.resolving !== controller) return;
      for (const index of targets.get(url) ?? []) {
        model.resolutions.set(index, record);
        if (index === view.selected) showDetail(view, index);
      }
      done++;
      show();
      view.schedule();
    },
  });
  if (view.resolving !== controller) return; // cleared or restarted meanwhile
  view.resolving = null;
  view.setRunning(false);
  view.refreshView(false);
  view.drawCounts();
  const records = [...model.resolutions.values()];
  const ok = records.filter((rec) => rec.ok).length;
  view.say(
    controller.signal.aborted
      ? `Resolving cancelled after ${fmt(done)} of ${fmt(total)} names; ${fmt(ok)} resolved so far.`
      : `Resolved ${fmt(total)} names: ${fmt(ok)} resolve, ${fmt(records.length - ok)} do not (the Not found and Could not be checked counts show them).`,
    false,
  );
}
