"""Site boot against bare Pyodide, first paint, keystroke to result (issue 3).

In one Chromium run, alternating rounds (a fresh browser context each) of:

* the site (``dist/site/index.html``): time from navigation start to ``window.doiname``
  ready (Pyodide, micropip and the core wheel in the worker), with its phases;
* a bare page (``dist/site/bare.html``): ``loadPyodide()`` from the same self-hosted
  files, nothing else.

Prints the medians, ranges and the ratio site / bare (target: at most 1.15), the time to
first paint and first contentful paint of the site (target: under 300 ms), and, after
ready, keystroke to result: from the ``input`` event on ``#doi-input`` to ``#result-name``
showing the new name (MutationObserver), and to the next frame after it (target: under
16 ms). Never asserts on time.

    python3 bench/boot.py [--rounds N] [--keys N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading

from common import ARGS, ROOT, load_build

SITE_READY = """() => window.doiname.ready.then(() => {
  const t = window.doiname.timings;
  const paint = Object.fromEntries(performance.getEntriesByType("paint")
    .map((e) => [e.name, e.startTime]));
  const steps = Object.fromEntries(Object.entries(t).filter(([k]) => k.startsWith("worker.")));
  return {ready: t.ready, runtime: t.runtime, packages: t.packages, core: t.core, steps,
          fp: paint["first-paint"] ?? null, fcp: paint["first-contentful-paint"] ?? null};
})"""

BARE_READY = "() => window.bareReady.then(() => ({ready: window.bareReadyAt}))"

KEYSTROKE = """async (texts) => {
  const input = document.getElementById("doi-input");
  const out = [];
  for (const [text, name] of texts) {
    const done = new Promise((resolve) => {
      const check = () => {
        const el = document.getElementById("result-name");
        return el && el.textContent === name;
      };
      const obs = new MutationObserver(() => {
        if (check()) { const t = performance.now(); obs.disconnect(); resolve(t); }
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
    await new Promise((r) => setTimeout(r, 30));
  }
  return out;
}"""



def summary(values: list[float]) -> str:
    if not values:
        return "no data"
    return (f"median {statistics.median(values):7.1f} ms  "
            f"(range {min(values):.1f}-{max(values):.1f}, n={len(values)})")


def key_inputs(n: int) -> list[tuple[str, str]]:
    """Texts a person types, each giving a new name; the name the page should show."""
    if str(ROOT / "pycore") not in sys.path:
        sys.path.insert(0, str(ROOT / "pycore"))
    import doiname

    base = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-"
    texts = [base + chr(ord("A") + i % 26) + str(i // 26) for i in range(n)]
    return [(t, str(doiname.parse(t))) for t in texts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of each page (5)")
    parser.add_argument("--keys", type=int, default=30, help="keystrokes measured (30)")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    build = load_build()
    site = build.build()
    server = build.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    site_ready: list[float] = []
    bare_ready: list[float] = []
    phases: dict[str, list[float]] = {"runtime": [], "packages": [], "core": []}
    steps: dict[str, list[float]] = {}
    fp: list[float] = []
    fcp: list[float] = []
    to_dom: list[float] = []
    to_frame: list[float] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        # One warm-up of each, not counted (disk cache of the OS, JIT of the driver).
        for warm in ("index.html", "bare.html"):
            ctx = browser.new_context()
            page = ctx.new_page()
            page.goto(base + warm)
            page.evaluate(SITE_READY if warm == "index.html" else BARE_READY)
            ctx.close()
        for i in range(args.rounds * 2):
            is_site = (i % 2 == 0) if (i // 2) % 2 == 0 else (i % 2 == 1)  # ABBA order
            ctx = browser.new_context()
            page = ctx.new_page()
            if is_site:
                page.goto(base + "index.html")
                r = page.evaluate(SITE_READY)
                site_ready.append(r["ready"])
                for k in phases:
                    if r.get(k) is not None:
                        phases[k].append(r[k])
                for k, v in r["steps"].items():
                    steps.setdefault(k, []).append(v)
                if r["fp"] is not None:
                    fp.append(r["fp"])
                if r["fcp"] is not None:
                    fcp.append(r["fcp"])
                if i < 2:  # keystrokes once, on a booted site
                    for a, b in page.evaluate(KEYSTROKE, key_inputs(args.keys)):
                        to_dom.append(a)
                        to_frame.append(b)
            else:
                page.goto(base + "bare.html")
                bare_ready.append(page.evaluate(BARE_READY)["ready"])
            ctx.close()
        version = browser.version
        browser.close()
    server.shutdown()

    print(f"Chromium {version}; {args.rounds} alternating rounds of each page (ABBA), "
          "fresh context each; times from navigation start.")
    print(f"site ready (window.doiname.ready)    {summary(site_ready)}")
    print(f"bare loadPyodide() ready             {summary(bare_ready)}")
    if site_ready and bare_ready:
        ratio = statistics.median(site_ready) / statistics.median(bare_ready)
        pairs = [s / b for s, b in zip(site_ready, bare_ready, strict=False)]
        print(f"ratio site / bare (medians): {ratio:.2f}x  (per round {min(pairs):.2f}-"
              f"{max(pairs):.2f}; target <= 1.15x)")
    for k, v in phases.items():
        print(f"  site phase {k!r:<10} reached at     {summary(v)}")
    if steps:
        print("  inside the worker, ms after it got its config, each step ending at:")
        for k, v in steps.items():
            print(f"    {k.removeprefix('worker.'):<16}{summary(v)}")
    print(f"site first paint                     {summary(fp)}")
    print(f"site first contentful paint          {summary(fcp)}  (target < 300 ms)")
    print(f"keystroke to result in the DOM       {summary(to_dom)}")
    print(f"keystroke to the next frame after it {summary(to_frame)}  (target < 16 ms)")


if __name__ == "__main__":
    main()
