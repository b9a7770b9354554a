#!/usr/bin/env python3
"""A change's effect on the batch where people meet it: the CLI on a long list and the
page's ``window.doiname.batch``, this checkout against an earlier commit, in one run.

The earlier commit is taken out of git (``git archive``) into a temporary folder and its
site built there (``build.py build``, with a copy of this checkout's ``node_modules`` made
of hard links); then each
contender runs on the same lines, rounds alternating, so the ratio after / before does
not depend on how busy the machine is. Two lists: bench/batch.py's mix (its CLI and page
figures) and the mix of real lists' line shapes (``REAL_MIX`` of its ``SHAPES``).

    bench/before_after.py --before REV [--cli-lines N] [--page-lines N] [--rounds N]

A ratio above 1 means this checkout is slower. Goal: no slower (<= 1.05x, what two runs
of one commit differ by here).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from batch import REAL_MIX, SHAPES, make_lines, shape_lines
from common import ARGS, CHROMIUM, ROOT, Figure, table

#: Two runs of one commit differ by about this much here: within it is "no slower".
SAME = 1.05


def real_mix(n: int) -> list[str]:
    """``n`` lines of the real lists' shapes, one of each in turn, none repeated."""
    each = [shape_lines(t, n // REAL_MIX + 1, seed=i) for i, (_, t) in
            enumerate(SHAPES[:REAL_MIX])]
    return [each[i % REAL_MIX][i // REAL_MIX] for i in range(n)]


def link_or_copy(src: str, dst: str) -> None:
    """A hard link where the two folders share a file system, else a copy."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@contextmanager
def checkout(rev: str, build: bool) -> Iterator[Path]:
    """The tree of ``rev`` in a temporary folder (its site built when ``build``)."""
    with tempfile.TemporaryDirectory(prefix="doiname-before-") as tmp:
        root = Path(tmp)
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
        if build:
            # a copy made of hard links: the build may run `npm ci` there, which empties
            # its node_modules first (through a symlink it would empty this checkout's)
            shutil.copytree(ROOT / "node_modules", root / "node_modules", symlinks=True,
                            copy_function=link_or_copy)
            t0 = time.monotonic()
            subprocess.run([sys.executable, "build.py", "build"], cwd=root, check=True,
                           stdout=subprocess.DEVNULL)
            print(f"built {rev}'s site in {time.monotonic() - t0:.0f} s")
        yield root


def cli_time(root: Path, path: Path) -> float:
    """Processor time of ``doiname batch`` from ``root``'s core on the list at ``path``."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "doiname", "batch", str(path)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={"PYTHONPATH": str(root / "pycore"), "PATH": "/usr/bin"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare(label: str, times: dict[str, list[float]], n: int) -> Figure:
    """One row: this checkout's time against the earlier commit's, round by round."""
    ratios = [a / b for a, b in zip(times["after"], times["before"], strict=True)]
    ratio = statistics.median(ratios)
    after, before = statistics.median(times["after"]), statistics.median(times["before"])
    print(f"{label}: after {n / after:,.0f} lines/s, before {n / before:,.0f} lines/s; "
          f"after / before {', '.join(f'{r:.2f}' for r in ratios)}")
    return Figure(label, f"{ratio:.2f}x the time before", f"<= {SAME}x (no slower)",
                  f"{n / after:,.0f} against {n / before:,.0f} lines/s", ratio <= SAME)


def cli_figures(before: Path, lists: dict[str, list[str]], rounds: int) -> list[Figure]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, lines in lists.items():
            path = Path(tmp) / "list.txt"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            times: dict[str, list[float]] = {"after": [], "before": []}
            for r in range(rounds):
                order = [("after", ROOT), ("before", before)]
                for who, root in order if r % 2 == 0 else order[::-1]:
                    times[who].append(cli_time(root, path))
            out.append(compare(f"CLI doiname batch, {len(lines):,} lines of {name}", times,
                               len(lines)))
    return out


BATCH = """async (text) => { const t0 = performance.now();
  await window.doiname.batch(text); return performance.now() - t0; }"""


def page_figures(before: Path, lists: dict[str, list[str]], rounds: int) -> list[Figure]:
    from playwright.sync_api import sync_playwright

    from doiname_build import serve  # the site's own server (MIME types, compression)

    servers = {"after": serve.make_server(ROOT / "dist" / "site", 0, quiet=True),
               "before": serve.make_server(before / "dist" / "site", 0, quiet=True)}
    for s in servers.values():
        threading.Thread(target=s.serve_forever, daemon=True).start()
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pages = {}
        for who, s in servers.items():
            pages[who] = browser.new_context().new_page()
            pages[who].goto(f"http://127.0.0.1:{s.server_port}/index.html")
            pages[who].evaluate("() => window.doiname.ready")
        for name, lines in lists.items():
            text = "\n".join(lines)
            for tab in pages.values():  # a first batch imports what batches use: not timed
                tab.evaluate(BATCH, "\n".join(lines[:2000]))
            times: dict[str, list[float]] = {"after": [], "before": []}
            for r in range(rounds):
                for who in ("after", "before") if r % 2 == 0 else ("before", "after"):
                    times[who].append(pages[who].evaluate(BATCH, text) / 1000)
            out.append(compare(f"page, window.doiname.batch on {len(lines):,} lines of {name}",
                               times, len(lines)))
        browser.close()
    for s in servers.values():
        s.shutdown()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", required=True, help="the earlier commit (any git revision)")
    ap.add_argument("--cli-lines", type=int, default=1_000_000)
    ap.add_argument("--page-lines", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    rev = subprocess.run(["git", "rev-parse", "--short=10", args.before], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.strip()
    page = bool(args.page_lines) and (ROOT / "dist" / "site" / "index.html").is_file() \
        and Path(CHROMIUM).exists() and shutil.which("node") is not None
    if args.page_lines and not page:
        print("page: dist/site not built (python3 build.py build) or Chromium missing; skipped")
    figures = []
    with checkout(rev, build=page) as before:
        if args.cli_lines:
            figures += cli_figures(before, {
                "the bench mix": make_lines(args.cli_lines, seed=3),
                "real lists' shapes": real_mix(args.cli_lines // 5)}, args.rounds)
        if page:
            figures += page_figures(before, {
                "the bench mix": make_lines(args.page_lines, seed=5),
                "real lists' shapes": real_mix(args.page_lines)}, args.rounds)
    table("Before and after", figures,
          f"This checkout against commit {rev}, on the same lines, rounds alternating; "
          "processor time for the CLI (a fifth as many lines of real shapes), the page's "
          "own clock for window.doiname.batch.")


if __name__ == "__main__":
    main()
