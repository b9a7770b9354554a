"""Site boot with and without the memory snapshot against bare Pyodide, first paint,
keystroke to result (issues 3 and 6).

In one Chromium run, rounds (a fresh browser context each, the order rotated from round
to round) of:

* the site (``dist/site/index.html``): time from navigation start to ``window.doiname``
  ready, with its phases; the worker restores the build-time memory snapshot;
* the same site with the snapshot's files answering 404, so the worker boots the normal
  way (Pyodide, micropip and the core wheel);
* a bare page (``dist/site/bare.html``): ``loadPyodide()`` from the same self-hosted
  files, nothing else.

Prints the medians, ranges and ratios (site / bare target: at most 1.15; the snapshot is
kept only if it is at least 25% faster than the normal boot), the bytes the snapshot adds,
the time to first paint and first contentful paint of the site (target: under 300 ms),
and, after ready, keystroke to result: from the ``input`` event on ``#doi-input`` to
``#result-name`` showing the new name (MutationObserver), and to the next frame after it
(target: under 16 ms). Never asserts on time.

    python3 bench/boot.py [--rounds N] [--keys N]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import threading
from typing import Any

from common import ARGS, CHROMIUM, ROOT

from doiname_build import paths, serve, wheel
from doiname_build import site as site_build

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
    parser.add_argument("--mbit", type=float, default=0,
                        help="throttle each page's network to this many Mbit/s down, 20 ms "
                             "latency (Chromium's DevTools emulation; the local server does "
                             "not gzip, so raw bytes count); 0: no throttling")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    site = site_build.build()
    server = serve.make_server(site, 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    variants = ("snapshot", "normal", "bare")
    ready: dict[str, list[float]] = {v: [] for v in variants}
    phases: dict[str, dict[str, list[float]]] = {
        v: {"runtime": [], "packages": [], "core": []} for v in variants[:2]}
    steps: dict[str, dict[str, list[float]]] = {v: {} for v in variants[:2]}
    fp: list[float] = []
    fcp: list[float] = []
    to_dom: list[float] = []
    to_frame: list[float] = []
    no_snapshot = re.compile(r".*/pyodide/snapshot[^/]*$")

    def run(browser: Any, variant: str) -> dict[str, Any]:
        ctx = browser.new_context()
        page = ctx.new_page()
        if args.mbit:
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": 20, "downloadThroughput": args.mbit * 1e6 / 8,
                "uploadThroughput": args.mbit * 1e6 / 8})
        if variant == "normal":
            page.route(no_snapshot, lambda route: route.fulfill(status=404, body="missing"))
        page.goto(base + ("bare.html" if variant == "bare" else "index.html"))
        r: dict[str, Any] = page.evaluate(BARE_READY if variant == "bare" else SITE_READY)
        if variant == "snapshot" and not to_dom:  # keystrokes once, on a booted site
            for a, b in page.evaluate(KEYSTROKE, key_inputs(args.keys)):
                to_dom.append(a)
                to_frame.append(b)
        ctx.close()
        return r

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for v in variants:  # one warm-up of each, not counted (OS disk cache, driver JIT)
            run(browser, v)
        for i in range(args.rounds):
            order = variants[i % 3:] + variants[:i % 3]
            for v in (order if i % 2 == 0 else order[::-1]):
                r = run(browser, v)
                ready[v].append(r["ready"])
                if v == "bare":
                    continue
                for k in phases[v]:
                    if r.get(k) is not None:
                        phases[v][k].append(r[k])
                for k, val in r["steps"].items():
                    steps[v].setdefault(k, []).append(val)
                if v == "snapshot" and r["fp"] is not None:
                    fp.append(r["fp"])
                if v == "snapshot" and r["fcp"] is not None:
                    fcp.append(r["fcp"])
        version = browser.version
        browser.close()
    server.shutdown()

    print(f"Chromium {version}; {args.rounds} rounds of each page, order rotated, fresh "
          "context each; times from navigation start"
          + (f"; network throttled to {args.mbit:g} Mbit/s, 20 ms." if args.mbit else "."))
    print(f"site ready, from the snapshot        {summary(ready['snapshot'])}")
    print(f"site ready, normal boot (no snapshot) {summary(ready['normal'])}")
    print(f"bare loadPyodide() ready             {summary(ready['bare'])}")

    def ratio(a: str, b: str, note: str) -> None:
        if ready[a] and ready[b]:
            m = statistics.median(ready[a]) / statistics.median(ready[b])
            pairs = [x / y for x, y in zip(ready[a], ready[b], strict=False)]
            print(f"ratio {a} / {b} (medians): {m:.2f}x  (per round {min(pairs):.2f}-"
                  f"{max(pairs):.2f}){note}")

    ratio("snapshot", "normal", "; kept only if <= 0.75x")
    ratio("snapshot", "bare", "; target <= 1.15x")
    ratio("normal", "bare", "")
    manifest = site / "pyodide" / "snapshot.json"
    if manifest.is_file():
        m = json.loads(manifest.read_text(encoding="utf-8"))
        files = (site / "pyodide" / "snapshot-files.zip").stat().st_size
        wheels = (site / "pyodide" / paths.MICROPIP_WHEEL).stat().st_size + \
            (site / "wheels" / wheel.wheel_name()).stat().st_size
        extra = m["gzipBytes"] + files - wheels
        print(f"snapshot bytes: {m['bytes'] / 1e6:.1f} MB raw, {m['gzipBytes'] / 1e6:.2f} MB "
              f"gzip + {files / 1e6:.2f} MB of files, instead of {wheels / 1e6:.2f} MB of "
              f"wheels: {extra / 1e6:+.2f} MB per first visit "
              f"({extra * 8 / 50e6:+.2f} s at 50 Mbit/s, {extra * 8 / 10e6:+.2f} s at 10 Mbit/s)")
    for v in variants[:2]:
        for k, vals in phases[v].items():
            print(f"  {v:<8} phase {k!r:<10} reached at {summary(vals)}")
        if steps[v]:
            print(f"  {v}: inside the worker, ms after it got its config, each step ending at:")
            for k, vals in steps[v].items():
                print(f"    {k.removeprefix('worker.'):<16}{summary(vals)}")
    print(f"site first paint                     {summary(fp)}")
    print(f"site first contentful paint          {summary(fcp)}  (target < 300 ms)")
    print(f"keystroke to result in the DOM       {summary(to_dom)}")
    print(f"keystroke to the next frame after it {summary(to_frame)}  (target < 16 ms)")


if __name__ == "__main__":
    main()
