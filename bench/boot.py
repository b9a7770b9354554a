"""Boot of the site against bare Pyodide: first and repeat visits, on throttled
connections, through a server that compresses like a real host; the single file beside.

In one Chromium run, for each connection (``--speeds``; default unthrottled, 10 Mbit/s
with 40 ms, 1.6 Mbit/s with 150 ms: Chromium's DevTools emulation on every page), rounds
of three pages, the order rotated from round to round and reversed every other round.
Each page gets a fresh persistent profile (a disk cache, as a visitor's browser has), is
opened once (the first visit) and then again in a new tab (the repeat visit):

* ``site``: ``dist/site/index.html`` as ``build.py serve`` sends it (brotli, ETags). Its
  first visit boots the normal way; once ready, its service worker stores the build (the
  memory snapshot included) and the bench waits for that before the repeat visit, which
  boots from the stored snapshot with no request to the server but the service worker's
  update check.
* ``bare``: ``loadPyodide()`` and nothing else, from the npm package's files as they ship
  (the whole standard library and lock file), served from the same server and origin,
  compressed the same way (``/bare/``). The baseline of the issue's targets.
* ``bare-site``: ``loadPyodide()`` from the site's own ``pyodide/`` folder (its trimmed
  standard library): how much of the site's time is the runtime itself.

Times are from navigation start to ``window.doiname.ready`` (site) or to Python running
``1 + 1`` (bare). Bytes are counted by the server: the bodies of the answers to the
requests that came between the navigation and the moment the page was ready (the server
notes when each request came, the page when it was ready, on the machine's one clock; the
service worker's script and what it stores come later), and during the repeat visit.
Prints each round's figures and the ratio of each round, then medians.
Never asserts on time.

The single file (``dist/doi-tool.html``) is opened from ``file://`` in the same run
(no network at all) and its time to ready is printed beside the site's unthrottled one.
Then, unthrottled, the site's first contentful paint and, once ready, keystroke to result
(from the ``input`` event to ``#result-name`` showing the new name, and to the next
frame). Also prints the sizes of the memory snapshot (gzip as shipped, brotli measured; this
Chromium's ``DecompressionStream`` is asked which formats it can undo).

    python3 bench/boot.py [--rounds N] [--speeds 0:0,10:40,1.6:150]
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from boot_keys import keystroke_line, paint_and_keys
from boot_visits import Meter, bench_root, make_server, round_of, single_file_ready
from common import ARGS, CHROMIUM, Figure, as_ratio, median, table

from doiname_build import compress, paths
from doiname_build import site as site_build

DECOMPRESSION = """() => Object.fromEntries(["gzip", "deflate", "br", "brotli", "zstd"].map((f) => {
  try { new DecompressionStream(f); return [f, true]; } catch { return [f, false]; }
}))"""


def snapshot_sizes(site: Path, work: Path) -> str:
    import gzip as gz

    packed = site / "pyodide" / "snapshot.bin.gz"
    if not packed.is_file():
        return "no memory snapshot in this build"
    raw = work / "snapshot.bin"
    raw.write_bytes(gz.decompress(packed.read_bytes()))
    node = shutil.which("node")
    br = ""
    # Brotli at q11 of 31 MB takes minutes: kept by content, as the build keeps its own.
    cached = paths.CACHE / "compress" / f"{hashlib.sha256(raw.read_bytes()).hexdigest()}.br"
    if node and not cached.is_file():
        cached.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([node, str(compress.BROTLI_SCRIPT), str(raw), f"{cached}.tmp"],
                       check=True)
        Path(f"{cached}.tmp").replace(cached)
    if cached.is_file():
        br = f", brotli (q11) {cached.stat().st_size / 1e6:.2f} MB"
    files = (site / "pyodide" / paths.CORE_FILES).stat().st_size
    later = (site / "pyodide" / paths.CORE_LATER).stat().st_size
    return (f"memory snapshot: {raw.stat().st_size / 1e6:.1f} MB raw, gzip (as shipped) "
            f"{packed.stat().st_size / 1e6:.2f} MB{br}; its files (the core's, "
            f"{paths.CORE_FILES}, which the first visit has) {files / 1e6:.2f} MB, then "
            f"the rest as on a first visit ({paths.CORE_LATER}) {later / 1e6:.2f} MB")


def steps_line(steps: list[Any]) -> str:
    """The site's first visits: when the page started its worker, and the worker's boot
    steps (medians; each step's time in ms after the worker got its config)."""
    if not steps:
        return "site boot steps: none reported"
    parts = []
    for name, _ in steps[0]["steps"]:
        at = median([dict(s["steps"]).get(name, 0) for s in steps])
        parts.append(f"{name.removeprefix('worker.')} {at:.0f}")
    started = median([s["worker"] for s in steps])
    return (f"site first visit: worker started at {started:.0f} ms; its steps, ms after it "
            f"got its config (median of {len(steps)}): " + ", ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds per connection (3)")
    parser.add_argument("--speeds", default="0:0,10:40,1.6:150",
                        help="connections as MBIT:RTT_MS, comma-separated; 0:0 unthrottled")
    parser.add_argument("--no-build", action="store_true", help="use dist/site as it is")
    args = parser.parse_args()
    speeds = [tuple(float(x) for x in s.split(":")) for s in args.speeds.split(",")]

    from playwright.sync_api import sync_playwright

    site = paths.SITE if args.no_build and (paths.SITE / "sw.js").is_file() else \
        site_build.build()
    variants = ("site", "bare", "bare-site")
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        work = Path(tmp)
        root = bench_root(site, work)
        meter = Meter()
        server = make_server(root, meter)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}/"
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        version = browser.version
        formats = browser.new_page().evaluate(DECOMPRESSION)
        browser.close()
        print(f"Chromium {version}; {args.rounds} rounds per connection, order rotated; "
              "a fresh profile per page and round; times from navigation start to ready; "
              "bytes: bodies the server sent (brotli where the file has a .br copy).")
        for v in variants:  # one warm-up of each, not counted (disk cache, Node's JIT)
            round_of(p.chromium, base, v, meter, 0, 0)
        for mbit, rtt in speeds:
            label = f"{mbit:g} Mbit/s, {rtt:g} ms" if mbit else "unthrottled (localhost)"
            print(f"\n== {label}")
            results: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
            steps: list[Any] = []
            started = time.monotonic()
            for i in range(args.rounds):
                order = variants[i % 3:] + variants[:i % 3]
                order = order if i % 2 == 0 else order[::-1]
                got = {v: round_of(p.chromium, base, v, meter, mbit, rtt, steps)
                       for v in order}
                for v in variants:
                    results[v].append(got[v])
                s, b, bs = got["site"], got["bare"], got["bare-site"]
                print(f"round {i + 1} ({' '.join(order)}): first site {s['first']:7.0f} ms "
                      f"({s['first_bytes'] / 1e6:.2f} MB), bare {b['first']:7.0f} ms "
                      f"({b['first_bytes'] / 1e6:.2f} MB), bare-site {bs['first']:7.0f} ms "
                      f"({bs['first_bytes'] / 1e6:.2f} MB); ratio site/bare "
                      f"{s['first'] / b['first']:.2f}x, site/bare-site "
                      f"{s['first'] / bs['first']:.2f}x")
                print(f"          repeat site {s['repeat']:7.0f} ms ({s['repeat_bytes']} B in "
                      f"{s['repeat_requests']:.0f} answers), bare {b['repeat']:7.0f} ms "
                      f"({b['repeat_bytes']} B in {b['repeat_requests']:.0f} answers); "
                      f"ratio site/bare {s['repeat'] / b['repeat']:.2f}x")
            for kind in ("first", "repeat"):
                med = {v: median([r[kind] for r in results[v]]) for v in variants}
                mb = {v: median([r[f"{kind}_bytes"] for r in results[v]]) / 1e6 for v in variants}
                print(f"median {kind:<6}: site {med['site']:7.0f} ms ({mb['site']:.2f} MB), "
                      f"bare {med['bare']:7.0f} ms ({mb['bare']:.2f} MB), bare-site "
                      f"{med['bare-site']:7.0f} ms ({mb['bare-site']:.2f} MB); site/bare "
                      f"{med['site'] / med['bare']:.2f}x, site/bare-site "
                      f"{med['site'] / med['bare-site']:.2f}x")
                ratio = med["site"] / med["bare"]
                goal = 1.0 if kind == "first" else 0.5
                figures.append(Figure(
                    f"{kind} visit, {label}: the site / bare Pyodide, navigation to ready",
                    as_ratio(ratio), f"<= {goal}x", f"{med['site']:,.0f} against "
                    f"{med['bare']:,.0f} ms; {mb['site']:.2f} MB against {mb['bare']:.2f} MB",
                    ratio <= goal))
                if kind == "first":
                    # What the page adds to loading Pyodide from its own files.
                    own = med["site"] / med["bare-site"]
                    own_goal = 1.05 if mbit else 1.3
                    figures.append(Figure(
                        f"first visit, {label}: the site / bare Pyodide on the site's files",
                        as_ratio(own), f"<= {own_goal}x", f"{med['site']:,.0f} against "
                        f"{med['bare-site']:,.0f} ms", own <= own_goal))
                if kind == "first" and not mbit:
                    figures.append(Figure("first visit: bytes the site sent until ready "
                                          "(brotli)", f"{mb['site']:.2f} MB", "<= 6 MB", "",
                                          mb["site"] <= 6))
            print(steps_line(steps))
            print(f"({time.monotonic() - started:.0f} s for this connection)")
        fcp, keys, locked = paint_and_keys(p.chromium, base + "index.html", args.rounds)
        if fcp:
            print(f"\nsite first contentful paint (unthrottled): median {median(fcp):.0f} ms "
                  f"(range {min(fcp):.0f}-{max(fcp):.0f}; target < 300 ms)")
            figures.append(Figure("first contentful paint, unthrottled",
                                  f"{median(fcp):.0f} ms", "< 300 ms",
                                  f"range {min(fcp):.0f}-{max(fcp):.0f} ms", median(fcp) < 300))
        if keys:
            print(keystroke_line(keys, locked))
            frame = median([b for _, b in keys])
            figures.append(Figure("a keystroke in Inspect: from the input event to the next "
                                  "frame showing the result", f"{frame:.1f} ms", "< 16 ms",
                                  f"result in the DOM {median([a for a, _ in keys]):.1f} ms",
                                  frame < 16))
        if paths.SINGLE_FILE.is_file():
            single = single_file_ready(p.chromium, args.rounds)
            print(f"\nsingle file from file:// (no network): ready in median "
                  f"{median(single):.0f} ms (range {min(single):.0f}-{max(single):.0f}); "
                  "compare with the site's unthrottled first and repeat visits above")
            figures.append(Figure("the single file from file://, navigation to ready",
                                  f"{median(single):,.0f} ms", "",
                                  f"range {min(single):,.0f}-{max(single):,.0f} ms"))
        server.shutdown()
        print(f"DecompressionStream formats in this Chromium: "
              f"{', '.join(f for f, ok in formats.items() if ok)} "
              f"(not: {', '.join(f for f, ok in formats.items() if not ok) or 'none'})")
        print(snapshot_sizes(site, work))
    table("Boot: the site against bare Pyodide", figures,
          f"{args.rounds} rounds per connection in Chromium (DevTools throttling), order "
          "rotated, a fresh profile per page; bytes are the bodies the server sent. "
          "Goals: a first visit no slower than bare Pyodide, a repeat visit in half its time.")


if __name__ == "__main__":
    main()
