// @ts-check
/**
 * Batch's "Resolve all": every unique name still to resolve is asked of doi.org by the
 * request URL Python made from its exact name (the row's `api_url`; never the decoded
 * name read again), through the client's pool (a few at a time, again while Python's
 * reading of the answer says it may help); each answer goes to the name's rows.
 * @module views/batch/resolve-all
 */
import { replace } from "../../ui/dom.js";
import { fmt } from "./table.js";

/** @typedef {import("./view.js").BatchView} BatchView */

/**
 * Resolve every unique name of the view's rows; Cancel (the view's `resolving`) stops.
 * @param {BatchView} view
 */
export async function resolveAll(view) {
  const { model, els } = view;
  const targets = model.toResolve();
  const total = targets.size;
  if (!total) {
    view.say(
      model.resolutions.size ? "Every unique name is resolved already." : "There is no readable DOI name to resolve.",
      true,
    );
    return;
  }
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
        if (index === view.selected) view.drawDetail(index);
      }
      done++;
      show();
      view.schedule();
    },
  });
  if (view.resolving !== controller) return; // cleared or restarted meanwhile
  view.resolving = null;
  view.setRunning(false);
  view.draw();
  const records = [...model.resolutions.values()];
  const ok = records.filter((rec) => rec.ok).length;
  view.say(
    controller.signal.aborted
      ? `Resolving cancelled after ${fmt(done)} of ${fmt(total)} names; ${fmt(ok)} resolved so far.`
      : `Resolved ${fmt(total)} names: ${fmt(ok)} resolve, ${fmt(records.length - ok)} do not (see the Resolves to column).`,
    false,
  );
}
