"""Batch throughput and memory: the engine against a naive regex scan, the CLI on
1,000,000 lines, the engine inside Pyodide (Node), and the page.

* Engine (host Python): ``iter_batch_rows`` + ``write_csv`` over a generated reference
  list (citation lines, bare names, links, SICI names, proxy links with escapes,
  duplicates, lines without DOIs), against the naive scan most tools ship: a
  Crossref-style ``re.findall(r'10\\.\\d{4,9}/[-._;()/:A-Z0-9]+', re.I)`` per line and a
  ``csv.writer`` row, on the same lines, in alternating rounds. Target: doiname's time at
  most 4x the naive scan's (stretch 2x). Also the general path alone
  (``BatchSession(fast=False)``, the oracle of the fast path), for the gain of the fast path.
  Then each line shape alone (:data:`SHAPES`: APA, Vancouver, BibTeX, an HTML anchor, SICI,
  a proxy link, a bare name, a non-ASCII name, the mix's own templates) on distinct lines,
  and a mix of the real shapes: time a line and ratio to the naive scan of the same lines
  in the same run (targets: each shape <= 10x, the mix <= 4x); ``--shapes`` runs that
  table alone.
* CLI: ``doiname batch`` on a file of 1,000,000 such lines, in a process of its own: its
  time and its peak memory (resident set, as the kernel counts it). Target: <= 300 MB.
* Pyodide (the page's engine): the same ``batch_step`` requests the worker runs (a
  ``BatchJob`` step of the page's ``STEP_MS`` and its reply's JSON text,
  :mod:`doiname.bridge.jobs`) on 100,000 lines, in the shipped Pyodide under Node,
  against the naive scan there; and a
  streamed input read in pieces, with the WebAssembly heap after each 10 MB. Target: the
  page's 100,000 lines in <= 3 s.
* Page (bench/batch_page.py): if ``dist/site`` is built, ``window.doiname.batch`` on
  100,000 lines in Chromium, with the naive scan of the same lines in the same run;
  how often progress is reported during such a batch and how soon ``cancel()`` is
  answered (target: both within 100 ms);
  the longest main-thread task (PerformanceObserver ``longtask``) while 100,000 lines are
  pasted into Batch with Ctrl+V and searched (target: <= 200 ms); and the worker's
  WebAssembly heap, sampled every 2 s, while Batch reads a file of ``--file-mb`` MB opened
  in its file input (target: far below 2 GiB whatever the size).

Prints medians, ranges and ratios measured in one run, then one table of the figures
beside their goals (:func:`common.table`, what bench/REPORT.md shows); never asserts.
The engine's times
are processor time of this process (``time.process_time``), so that other work on a shared
machine does not move the ratio; the CLI prints wall time and processor time.

    python3 bench/batch.py [--lines N] [--cli-lines N] [--pyodide-lines N]
                           [--stream-mb N] [--page-lines N] [--file-mb N] [--rounds R]
                           [--no-page] [--shapes]
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (also when loaded by its path)

from batch_page import PAGE_GOAL, PAGE_RATE, page_bench
from common import ROOT, Figure, as_ratio, spread, table, timed

from doiname.batch import BatchSession, iter_batch_rows, write_csv
from doiname.limits import BATCH_STEP_LINES, PAGE_STEP_MS

TEMPLATES = [
    "Smith, J. (2019). A study of things. Journal of Stuff, 12(3), 45-67. https://doi.org/10.{r}/js.{n}",
    "[{n}] Doe A, Roe B. Title of the article. J Med. 2018;5:1-9. doi:10.{r}/jm.2018.{n}",
    "10.{r}/abc.{n}",
    "Hert CA. Facilitating statistical information seeking. JASIS. 1998;49(8):693. "
    "doi:10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O",
    "no identifier on this line, only 10.5 percent and ISBN 978-3-16-148410-0",
    "https://doi-org.ezproxy.example.edu/10.{r}/x%23{n}",
    "DOI: 10.{r}/DUP.{m}",
]
#: Lines the mix leaves out, timed apart (not in the mix, which stays as it was): its two
#: lines that come again word for word (the SICI reference and the line with no DOI) made
#: distinct, since a line seen a moment ago is served from the parts
#: cache; and common ways of real lists the mix does not have (a name with brackets, a
#: sentence's final period after the name, PubMed's "doi: ... PMID").
MORE = [
    "Hert CA. Facilitating statistical information seeking. JASIS. 1998;49({m}):693. "
    "doi:10.1002/(SICI)1097-4571(1998{m})49:8<693::AID-ASI4>3.0.CO;2-O",
    "no identifier on this line, only 10.5 percent ({n}) and ISBN 978-3-16-148410-0",
    "Huang C, Wang Y. Clinical features. Lancet. 2020;395(10223):497-506. "
    "doi:10.1016/S0140-6736({m})3{n}-5",
    "10.1016/S0140-6736({m})3{n}-5",
    "Smith J. A title. J Stuff. 2019;3:1-9. doi: 10.{r}/xyz.{n}. PMID: 31{n}.",
    "Smith, J. (2019). A study of things. Journal of Stuff, 12(3), 45-67. "
    "https://doi.org/10.{r}/js.{n}.",
]

#: Line shapes of real lists, each timed alone on distinct lines (no line repeated): the
#: common ways references carry a DOI, then the bench's own templates.
SHAPES = [
    ("APA reference, doi.org link",
     "Smith, J. ({m}). A study of things {n}. Journal of Stuff, 12(3), 45-67. "
     "https://doi.org/10.{r}/js.{n}"),
    ("bare name", "10.{r}/abc.{n}"),
    ("proxy link with %23", "https://doi-org.ezproxy.example.edu/10.{r}/x%23{n}"),
    ("Vancouver, doi: ...(YY)3NNN-N.",
     "Huang C, Wang Y, Li X. Clinical features {n}. Lancet. 2020;395(10223):497-506. "
     "doi: 10.1016/S0140-6736({y})3{k}-{d}."),
    ("BibTeX entry on one line",
     "@article{{smith{n}, author = {{Smith, J.}}, title = {{A study}}, journal = {{J. Stuff}}, "
     "year = {{2019}}, doi = {{10.{r}/js.{n}}}}}"),
    ("HTML anchor, link as href and text",
     '<a href="https://doi.org/10.{r}/js.{n}">https://doi.org/10.{r}/js.{n}</a>'),
    ("SICI after doi:",
     "Hert CA. Facilitating statistical information seeking. JASIS. 1998;49({m}):693. "
     "doi:10.1002/(SICI)1097-4571(1998{m})49:8<693::AID-ASI{n}>3.0.CO;2-O"),
    ("non-ASCII letter in the name", "10.{r}/étude.{n}"),
] + [(f"bench mix: {t[:28]}", t) for t in TEMPLATES] + [(f"more: {t[:34]}", t) for t in MORE]
#: The shapes of real lists mixed (the first REAL_MIX of SHAPES, one line of each in turn).
REAL_MIX = 8


def shape_lines(template: str, n: int, seed: int) -> list[str]:
    """``n`` distinct lines of one template (a line seen twice would be read from the
    cache of lines: a shape is timed on lines read for the first time)."""
    rng = random.Random(seed)
    out: dict[str, None] = {}
    tries = 0
    while len(out) < n and tries < 20 * n:
        tries += 1
        out[template.format(r=rng.randrange(1000, 9999), n=rng.randrange(10**7),
                            m=rng.randrange(10**4), y=rng.randrange(10, 100),
                            k=rng.randrange(1000, 10000), d=rng.randrange(10))] = None
    return list(out)


#: The naive scan of the issue: what most tools ship.
NAIVE = re.compile(r"10\.\d{4,9}/[-._;()/:A-Z0-9]+", re.I)


def make_lines(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(TEMPLATES).format(r=rng.randrange(1000, 9999), n=rng.randrange(10**6),
                                         m=rng.randrange(1000)) for _ in range(n)]


def run_doiname(lines: list[str]) -> None:
    write_csv(iter_batch_rows(lines, BatchSession()), io.StringIO())


def run_general(lines: list[str]) -> None:
    write_csv(iter_batch_rows(lines, BatchSession(fast=False)), io.StringIO())


def run_naive(lines: list[str]) -> None:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    findall = NAIVE.findall
    for number, line in enumerate(lines, 1):
        writer.writerow((number, line, *findall(line)))


def engine_bench(n: int, rounds: int) -> list[Figure]:
    lines = make_lines(n)
    ours: list[float] = []
    naive: list[float] = []
    for _ in range(rounds):
        naive.append(timed(run_naive, lines))
        ours.append(timed(run_doiname, lines))
    general = timed(run_general, lines[: n // 10])  # the oracle: slow, on a tenth
    ratios = [o / v for o, v in zip(ours, naive, strict=True)]
    mo = statistics.median(ours)
    print(f"engine (iter_batch_rows + write_csv), {n:,} lines, Python {sys.version.split()[0]}:")
    print(f"  doiname      {n / mo:>10,.0f} lines/s  ({spread(ours)})")
    print(f"  naive scan   {n / statistics.median(naive):>10,.0f} lines/s  ({spread(naive)})")
    print(f"  doiname / naive scan, same lines, per round: "
          f"{', '.join(f'{r:.1f}x' for r in ratios)}; median {statistics.median(ratios):.1f}x "
          "(target <= 4x, stretch 2x)")
    print(f"  general path alone (fast=False, on {n // 10:,} lines): {n // 10 / general:,.0f} "
          f"lines/s, {general / (n // 10) * n / mo:.1f}x the time of the fast path")
    ratio = statistics.median(ratios)
    figures = [
        Figure(f"engine, {n:,} lines of the mix (host Python): doiname / naive scan",
               as_ratio(ratio), "<= 4x (stretch 2x)",
               f"{n / mo:,.0f} against {n / statistics.median(naive):,.0f} lines/s",
               ratio <= 4),
        Figure(f"general path alone (the oracle), {n // 10:,} lines",
               f"{n // 10 / general:,.0f} lines/s", "",
               f"{as_ratio(general / (n // 10) * n / mo)} the time of the whole engine"),
    ]
    return figures


def shapes_bench(n: int, rounds: int) -> list[Figure]:
    """Each line shape alone on ``n`` distinct lines, then the real lists' shapes mixed
    (the first :data:`REAL_MIX` shapes in turn): doiname's time a line and its ratio to
    the naive scan of the same lines, the median of ``rounds`` rounds, each round timing
    both on lines no round read before (so no cache of names helps a later round)."""
    cases = [(name, shape_lines(t, n * rounds, 100 + i)) for i, (name, t) in enumerate(SHAPES)]
    mixed = [line for group in zip(*(lines for _, lines in cases[:REAL_MIX]), strict=True)
             for line in group]
    # (a template of the bench's mix written without a number is one line: its distinct
    # lines are those of "more:")
    cases = [c for c in cases if len(c[1]) == n * rounds]
    cases.append((f"real mix (the first {REAL_MIX} shapes, in turn)", mixed))
    cases.append(("bench mix (make_lines: some lines repeat)", make_lines(n * rounds, seed=9)))
    print(f"  per line shape, distinct lines ({n:,} a round; median of {rounds} rounds; "
          "target: each <= 10x, the mix <= 4x):")
    figures = []
    for name, lines in cases:
        size = len(lines) // rounds
        ours: list[float] = []
        ratios: list[float] = []
        for r in range(rounds):
            part = lines[r * size:(r + 1) * size]
            a = timed(run_naive, part)
            b = timed(run_doiname, part)
            ours.append(b)
            ratios.append(b / a)
        ratio, us = statistics.median(ratios), statistics.median(ours) / size * 1e6
        print(f"    {ratio:5.1f}x  {us:5.1f} us/line  {name}")
        mix = name.startswith(("real mix", "bench mix ("))
        figures.append(Figure(f"line shape: {name}", f"{us:.1f} us a line",
                              "<= 4x" if mix else "<= 10x", f"{as_ratio(ratio)} the naive scan",
                              ratio <= (4 if mix else 10)))
    return figures


def cli_bench(n: int) -> list[Figure]:
    import resource  # (not in Pyodide, which imports this module for make_lines)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "list.txt"
        with path.open("w", encoding="utf-8") as fp:
            for start in range(0, n, 100_000):
                fp.write("\n".join(make_lines(min(100_000, n - start), seed=start)) + "\n")
        size = path.stat().st_size
        cmd = [sys.executable, "-m", "doiname", "batch", str(path)]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, check=False, cwd=ROOT,
                              env={"PYTHONPATH": str(ROOT / "pycore"), "PATH": "/usr/bin"})
        took = time.perf_counter() - t0
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        peak_mb = usage.ru_maxrss / 1024
        cpu = usage.ru_utime + usage.ru_stime
    print(f"CLI doiname batch, {n:,} lines ({size / 1e6:,.0f} MB): {took:.1f} s "
          f"({cpu:.1f} s of processor time, {n / cpu:,.0f} lines/s); "
          f"peak memory {peak_mb:,.0f} MB (target <= 300 MB); "
          f"exit {proc.returncode}; "
          f"{proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ''}")
    return [Figure(f"CLI doiname batch, {n:,} lines ({size / 1e6:,.0f} MB): peak memory",
                   f"{peak_mb:,.0f} MB", "<= 300 MB",
                   f"{n / cpu:,.0f} lines/s ({took:.1f} s, exit {proc.returncode})",
                   peak_mb <= 300 and proc.returncode == 0)]


PYODIDE_JS = r"""
const [pyodideDir, root, argsJson] = process.argv.slice(1);
const { pathToFileURL } = await import("node:url");
const { join, resolve } = await import("node:path");
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/" });
pyodide.mountNodeFS("/repo", resolve(root));
pyodide.globals.set("bench_args", argsJson);
pyodide.globals.set("heap_bytes", () => pyodide._module.HEAPU8.length);
console.log(pyodide.runPython(`
import json, sys, time, statistics
sys.path[:0] = ["/repo/pycore", "/repo/bench"]
sys.dont_write_bytecode = True
import batch as bench
from doiname.batch import BatchJob
from doiname.bridge import jobs
args = json.loads(bench_args)
lines = bench.make_lines(args["lines"], seed=11)
text = "\\n".join(lines)
def job_run():
    # what the worker runs: the bridge's batch_step, each reply's JSON text made
    job = json.loads(jobs.batch_open_json(text))["ok"]["job"]
    steps = 0
    while True:
        steps += 1
        if jobs.batch_step_json(job, args["step_lines"], args["step_ms"]).startswith(
                '{"ok":{"done":true'):
            break
    jobs.batch_close_json(job)
    return steps
ours, naive = [], []
for _ in range(args["rounds"]):
    t0 = time.perf_counter(); bench.run_naive(lines); naive.append(time.perf_counter() - t0)
    t0 = time.perf_counter(); steps = job_run(); ours.append(time.perf_counter() - t0)
out = {"python": sys.version.split()[0], "ours": ours, "naive": naive, "steps": steps}
if args["stream_mb"]:
    job = BatchJob()
    fed = 0
    heap = []
    t0 = time.perf_counter()
    while fed < args["stream_mb"] * 1_000_000:
        # fresh lines for every piece: distinct names, the most a batch has to remember
        piece = "\\n".join(bench.make_lines(20000, seed=5 + len(heap) * 1000 + fed)) + "\\n"
        while not job.feed(piece):
            job.step_rows()
        fed += len(piece)
        if len(heap) < fed // 10_000_000:
            heap.append(heap_bytes())
    job.end()
    while not job.done:
        job.step_rows()
    heap.append(heap_bytes())
    out["stream"] = {"chars": fed, "seconds": time.perf_counter() - t0, "heap": heap,
                     "rows": job.rows_total, "kept": len(job.rows),
                     "summary": job.session.summary.as_dict()}
json.dumps(out)
`));
"""


def pyodide_bench(n: int, rounds: int, stream_mb: int) -> list[Figure]:
    pyodide_dir = ROOT / "node_modules" / "pyodide"
    if not (pyodide_dir / "pyodide.mjs").is_file():
        print("pyodide: node_modules/pyodide missing (python3 build.py build runs npm ci); skipped")
        return []
    args = json.dumps({"lines": n, "rounds": rounds, "stream_mb": stream_mb,
                       "step_ms": PAGE_STEP_MS, "step_lines": BATCH_STEP_LINES})
    proc = subprocess.run(["node", "--input-type=module", "-e", PYODIDE_JS, str(pyodide_dir),
                           str(ROOT), args], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        print(f"pyodide: failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
        return []
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    ours, naive = out["ours"], out["naive"]
    mo = statistics.median(ours)
    ratios = [o / v for o, v in zip(ours, naive, strict=True)]
    print(f"Pyodide (Python {out['python']} under Node), batch_step replies (BatchJob steps of "
          f"{PAGE_STEP_MS} ms, their JSON included) on {n:,} "
          f"lines: {mo:.2f} s ({spread(ours)}; {n / mo:,.0f} lines/s, {out['steps']} steps; "
          f"target: 100,000 lines in <= 3 s); naive scan there {spread(naive)}; "
          f"doiname / naive scan median {statistics.median(ratios):.1f}x")
    figures = [Figure(f"Pyodide under Node, {n:,} lines as the worker steps them",
                      f"{n / mo:,.0f} lines/s ({mo:.2f} s)", PAGE_GOAL,
                      f"{as_ratio(statistics.median(ratios))} the naive scan there",
                      n / mo >= PAGE_RATE)]
    stream = out.get("stream")
    if stream:
        heap = ", ".join(f"{h / 2**20:,.0f}" for h in stream["heap"])
        print(f"Pyodide stream: {stream['chars'] / 1e6:,.0f} MB fed in pieces, "
              f"{stream['seconds']:.0f} s, {stream['rows']:,} rows ({stream['kept']:,} kept), "
              f"{stream['summary']['unique']:,} distinct names "
              f"({stream['summary']['names_not_kept']:,} past the names kept); "
              f"WebAssembly heap after each 10 MB, MiB: {heap}")
        top = max(stream["heap"]) / 2**20
        figures.append(Figure(f"Pyodide stream, {stream['chars'] / 1e6:,.0f} MB fed in pieces: "
                              "largest WebAssembly heap", f"{top:,.0f} MiB", "far below 2 GiB",
                              f"{stream['rows']:,} rows in {stream['seconds']:.0f} s",
                              top < 1024))
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=200_000, help="engine lines (host)")
    ap.add_argument("--cli-lines", type=int, default=1_000_000)
    ap.add_argument("--pyodide-lines", type=int, default=100_000)
    ap.add_argument("--stream-mb", type=int, default=50, help="Pyodide stream (0: skip)")
    ap.add_argument("--page-lines", type=int, default=100_000)
    ap.add_argument("--file-mb", type=int, default=1000,
                    help="MB of the file Batch reads for the worker's memory (0: skip)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-page", action="store_true")
    ap.add_argument("--shapes", action="store_true",
                    help="only the engine's line shapes (host Python)")
    args = ap.parse_args()
    shapes = shapes_bench(max(2000, args.lines // 50), args.rounds)
    table("Batch line shapes", shapes,
          "Each shape alone on distinct lines (bench/batch.py's SHAPES), then the first "
          f"{REAL_MIX} mixed and the bench's own mix; the naive scan of the same lines in the "
          "same run.")
    if args.shapes:
        return
    figures = engine_bench(args.lines, args.rounds)
    if args.cli_lines:
        figures += cli_bench(args.cli_lines)
    if args.pyodide_lines:
        figures += pyodide_bench(args.pyodide_lines, args.rounds, args.stream_mb)
    if not args.no_page:
        figures += page_bench(make_lines(args.page_lines, seed=11), run_naive, args.rounds,
                              make_lines(20_000, seed=13) if args.file_mb else [],
                              args.file_mb)
    table("Batch throughput and memory", figures,
          "The mix: bench/batch.py's TEMPLATES, random; the naive scan is a Crossref-style "
          "regular expression and a CSV row per line, timed on the same lines in the same run.")


if __name__ == "__main__":
    main()
