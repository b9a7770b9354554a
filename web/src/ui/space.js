// @ts-check
/**
 * The space a panel takes while its answer may come late. The browser counts a change of
 * layout in the 500 ms after a key or a click as that input's answer; a later one is a
 * layout shift that moves what a person reads. So a panel whose answer is drawn in time
 * takes only its own space, and one whose answer is late (the engine starting or
 * restarting, a first use of the Unicode tables, a busy device) is given the first
 * screen (`data-reserve`, style.css) while the edit still counts, draws its answer into
 * it, and gives the space back with the next answer drawn in time. A question not asked
 * by a key or a click (a name in the address, Back) keeps the first screen until then.
 * @module ui/space
 */

/** How soon after a key or a click its answer must be drawn for the panel to take only
 * its own space (ms): the browser's 500 ms, less time for the frame on a busy device. */
export const IN_TIME_MS = 250;

export class LateSpace {
  /** @param {HTMLElement} panel */
  constructor(panel) {
    this.panel = panel;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** Counts the questions: only the last one's answer gives the space back. */
    this.asked = 0;
  }

  /**
   * A new question whose answer the panel will draw.
   * @param {{byPerson: boolean, late: boolean}} how `byPerson`: it answers a key or a
   *   click; `late`: its answer cannot come in time (the engine is not ready)
   * @returns {() => void} to call once the answer is drawn
   */
  ask({ byPerson, late }) {
    clearTimeout(this.timer);
    const mine = ++this.asked;
    const at = performance.now();
    if (!byPerson || late) this.reserve(true);
    else if (!this.reserved()) this.timer = setTimeout(() => this.reserve(true), IN_TIME_MS);
    return () => {
      if (mine !== this.asked) return;
      clearTimeout(this.timer);
      if (byPerson && performance.now() - at <= IN_TIME_MS) this.reserve(false);
    };
  }

  /** Nothing to answer (no text, no engine): the panel takes its own space at once. */
  empty() {
    clearTimeout(this.timer);
    this.asked += 1;
    this.reserve(false);
  }

  /** @returns {boolean} */
  reserved() {
    return this.panel.hasAttribute("data-reserve");
  }

  /** @param {boolean} on */
  reserve(on) {
    this.panel.toggleAttribute("data-reserve", on);
  }
}
