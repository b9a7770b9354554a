"""After the site is ready, for bench/boot.py: its first contentful paint and the time
from a keystroke in Inspect to the result on screen."""

from __future__ import annotations

from typing import Any

from boot_visits import SITE_READY
from common import ARGS, CHROMIUM, ROOT, median

#: After ready: from the ``input`` event on ``#doi-input`` to ``#result-name`` showing the
#: new name, and to the next frame after it (ms each).
# Each keystroke starts after the previous one's frame and a wait. With a fixed wait of 30 ms
# every keystroke fell about 2 ms before a frame (30 ms is 1.8 frames at 60 Hz), the one
# phase where a result never makes the first frame; a person's keystrokes come at any
# phase of the frame, so with `spread` the waits step through the whole frame
# (30 + 0..16 ms, in a mixed order) and the other phases are measured too.
KEYSTROKE = """async ([texts, spread]) => {
  const input = document.getElementById("doi-input");
  const out = [];
  for (const [i, [text, name]] of texts.entries()) {
    const done = new Promise((resolve) => {
      const obs = new MutationObserver(() => {
        const el = document.getElementById("result-name");
        if (el && el.textContent === name) { obs.disconnect(); resolve(performance.now()); }
      });
      obs.observe(document.body, {subtree: true, childList: true, characterData: true});
    });
    const t0 = performance.now();
    input.value = text;
    input.dispatchEvent(new InputEvent("input", {bubbles: true, data: text.slice(-1),
                                                 inputType: "insertText"}));
    const t1 = await done;
    const t2 = await new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    out.push([t1 - t0, t2 - t0]);
    await new Promise((r) => setTimeout(r, 30 + (spread ? (i * 7) % 17 : 0)));
  }
  return out;
}"""
PAINT = """() => performance.getEntriesByType("paint").find(
  (e) => e.name === "first-contentful-paint")?.startTime ?? null"""

def key_inputs(n: int) -> list[tuple[str, str]]:
    """Texts a person types, each giving a new name; the name the page should show."""
    import sys

    sys.path.insert(0, str(ROOT / "pycore"))
    import doiname

    base = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-"
    texts = [base + chr(ord("A") + i % 26) + str(i // 26) for i in range(n)]
    return [(t, str(doiname.parse(t))) for t in texts]


def paint_and_keys(browser_type: Any, url: str, rounds: int,
                   ) -> tuple[list[float], list[Any], list[Any]]:
    """First contentful paint of the site (fresh profile each) and keystroke to result:
    keystrokes at phases spread over the frame, then each just before a frame."""
    fcp: list[float] = []
    keys: list[Any] = []
    locked: list[Any] = []
    browser = browser_type.launch(executable_path=CHROMIUM, args=ARGS)
    for i in range(rounds):
        context = browser.new_context(service_workers="block")
        page = context.new_page()
        page.goto(url, wait_until="commit")
        page.evaluate(SITE_READY)
        paint = page.evaluate(PAINT)
        if paint is not None:
            fcp.append(float(paint))
        if i == 0:
            texts = key_inputs(60)
            keys = page.evaluate(KEYSTROKE, [texts[:30], True])
            locked = page.evaluate(KEYSTROKE, [texts[30:], False])
        context.close()
    browser.close()
    return fcp, keys, locked


def keystroke_line(keys: list[Any], locked: list[Any]) -> str:
    """The keystroke figures: at phases spread over the frame (the target's), and each
    keystroke just before a frame (the earlier method's worst phase), for comparison."""
    def part(got: list[Any]) -> str:
        return (f"result in the DOM median {median([a for a, _ in got]):.1f} ms, next frame "
                f"median {median([b for _, b in got]):.1f} ms (n={len(got)})")
    return (f"keystroke, phases spread over the frame: {part(keys)}; target < 16 ms\n"
            f"keystroke, each about 2 ms before a frame: {part(locked)}")
