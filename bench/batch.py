"""Batch throughput and memory: the engine against a naive regex scan, the CLI on
1,000,000 lines, the engine inside Pyodide (Node), and the page.

* Engine (host Python): ``iter_batch_rows`` + ``write_csv`` over a generated reference
  list (citation lines, bare names, links, SICI names, proxy links with escapes,
  duplicates, lines without DOIs), against the naive scan most tools ship: a
  Crossref-style ``re.findall(r'10\\.\\d{4,9}/[-._;()/:A-Z0-9]+', re.I)`` per line and a
  ``csv.writer`` row, on the same lines, in alternating rounds. Target: doiname's time at
  most 4x the naive scan's (stretch 2x). Also the general path alone
  (``BatchSession(fast=False)``, the oracle of the fast path), for the gain of the fast path.
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

Prints medians, ranges and ratios measured in one run; never asserts. The engine's times
are processor time of this process (``time.process_time``), so that other work on a shared
machine does not move the ratio; the CLI prints wall time and processor time.

    python3 bench/batch.py [--lines N] [--cli-lines N] [--pyodide-lines N]
                           [--stream-mb N] [--page-lines N] [--file-mb N] [--rounds R]
                           [--no-page]
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore"))

from doiname.batch import BatchSession, iter_batch_rows, write_csv, write_jsonl  # noqa: E402

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
#: Lines the mix leaves out, printed per template (not in the mix, which stays the
#: issue's): its two lines that come again word for word (the SICI reference and the line
#: with no DOI) made distinct, since a line seen a moment ago is served from the parts
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

def _step_ms() -> int:
    """How long a batch step of the page reads lines (web/src/engine/batch-handle.js)."""
    js = ROOT / "web" / "src" / "engine" / "batch-handle.js"
    m = re.search(r"export const STEP_MS = (\d+);", js.read_text(encoding="utf-8"))
    if m is None:
        raise SystemExit(f"bench/batch.py: no STEP_MS in {js}")
    return int(m[1])


STEP_MS = _step_ms()

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


def timed(fn: Callable[[list[str]], None], lines: list[str]) -> float:
    """The processor time ``fn(lines)`` takes in this process: on a machine shared with
    other work, time spent waiting for a core is not counted against either contender."""
    t0 = time.process_time()
    fn(lines)
    return time.process_time() - t0


def _range(ts: list[float]) -> str:
    return f"median {statistics.median(ts):.2f} s, range {min(ts):.2f}-{max(ts):.2f} s"


def engine_bench(n: int, rounds: int) -> None:
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
    print(f"  doiname      {n / mo:>10,.0f} lines/s  ({_range(ours)})")
    print(f"  naive scan   {n / statistics.median(naive):>10,.0f} lines/s  ({_range(naive)})")
    print(f"  doiname / naive scan, same lines, per round: "
          f"{', '.join(f'{r:.1f}x' for r in ratios)}; median {statistics.median(ratios):.1f}x "
          "(target <= 4x, stretch 2x)")
    print(f"  general path alone (fast=False, on {n // 10:,} lines): {n // 10 / general:,.0f} "
          f"lines/s, {general / (n // 10) * n / mo:.1f}x the time of the fast path")
    by_template = []
    rng = random.Random(3)
    for t in TEMPLATES + MORE:
        sample = [t.format(r=rng.randrange(1000, 9999), n=rng.randrange(10**6),
                           m=rng.randrange(1000)) for _ in range(max(200, n // 50))]
        a, b = timed(run_naive, sample), timed(run_doiname, sample)
        by_template.append(f"{b / a:5.1f}x  {b / len(sample) * 1e6:5.1f} us/line  {t[:60]}"
                           + ("  (not in the mix)" if t in MORE else ""))
    print("  per template (doiname / naive scan, one round each; doiname's time per line):")
    for line in by_template:
        print("    " + line)


def slow_lines_bench() -> None:
    """The review's slow and large lines through the engine (iter_batch_rows + write_jsonl):
    seconds, the answer's size, and the time of as many lines of the mix, of as many
    characters, in the same run."""
    mix = make_lines(60_000, seed=5)
    print("slow lines (the review's), against the mix in the same run:")
    for label, text in (("99,000 U+2010 on one line (was 2.9 s)", "10.1000/" + "\u2010" * 99_000),
                        ("'{\\n' x 49,500, a record never closed (was 5.1 s)", "{\n" * 49_500),
                        ("24 KB name, a zero-width space after each letter (was 38 MB)",
                         "10.1000/" + "a\u200b" * 12_000)):
        lines = text.splitlines()
        out = io.StringIO()
        t0 = time.perf_counter()
        write_jsonl(iter_batch_rows(lines, BatchSession()), out)
        took = time.perf_counter() - t0
        by_lines = timed(run_doiname, mix[: len(lines)])
        chars, k = 0, 0
        while chars < len(text) and k < len(mix):
            chars += len(mix[k]) + 1
            k += 1
        by_chars = timed(run_doiname, mix[:k])
        print(f"  {label}: {took:.2f} s; {took / max(by_lines, by_chars):.1f}x the mix's "
              f"time for as many lines ({len(lines):,}) or characters ({len(text):,}); "
              f"answer {len(out.getvalue()) / 1e6:.2f} MB")


def cli_bench(n: int) -> None:
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
        if jobs.batch_step_json(job, 5000, args["step_ms"]).startswith('{"ok":{"done":true'):
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
            job.step_rows(5000, 0.05)
        fed += len(piece)
        if len(heap) < fed // 10_000_000:
            heap.append(heap_bytes())
    job.end()
    while not job.done:
        job.step_rows(5000, 0.05)
    heap.append(heap_bytes())
    out["stream"] = {"chars": fed, "seconds": time.perf_counter() - t0, "heap": heap,
                     "rows": job.rows_total, "kept": len(job.rows),
                     "summary": job.session.summary.as_dict()}
json.dumps(out)
`));
"""


def pyodide_bench(n: int, rounds: int, stream_mb: int) -> None:
    pyodide_dir = ROOT / "node_modules" / "pyodide"
    if not (pyodide_dir / "pyodide.mjs").is_file():
        print("pyodide: node_modules/pyodide missing (python3 build.py build runs npm ci); skipped")
        return
    args = json.dumps({"lines": n, "rounds": rounds, "stream_mb": stream_mb,
                       "step_ms": STEP_MS})
    proc = subprocess.run(["node", "--input-type=module", "-e", PYODIDE_JS, str(pyodide_dir),
                           str(ROOT), args], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        print(f"pyodide: failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")
        return
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    ours, naive = out["ours"], out["naive"]
    mo = statistics.median(ours)
    ratios = [o / v for o, v in zip(ours, naive, strict=True)]
    print(f"Pyodide (Python {out['python']} under Node), batch_step replies (BatchJob steps of "
          f"{STEP_MS} ms, their JSON included) on {n:,} "
          f"lines: {mo:.2f} s ({_range(ours)}; {n / mo:,.0f} lines/s, {out['steps']} steps; "
          f"target: 100,000 lines in <= 3 s); naive scan there {_range(naive)}; "
          f"doiname / naive scan median {statistics.median(ratios):.1f}x")
    stream = out.get("stream")
    if stream:
        heap = ", ".join(f"{h / 2**20:,.0f}" for h in stream["heap"])
        print(f"Pyodide stream: {stream['chars'] / 1e6:,.0f} MB fed in pieces, "
              f"{stream['seconds']:.0f} s, {stream['rows']:,} rows ({stream['kept']:,} kept), "
              f"{stream['summary']['unique']:,} distinct names "
              f"({stream['summary']['names_not_kept']:,} past the names kept); "
              f"WebAssembly heap after each 10 MB, MiB: {heap}")


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
    args = ap.parse_args()
    engine_bench(args.lines, args.rounds)
    slow_lines_bench()
    if args.cli_lines:
        cli_bench(args.cli_lines)
    if args.pyodide_lines:
        pyodide_bench(args.pyodide_lines, args.rounds, args.stream_mb)
    if not args.no_page:
        from batch_page import page_bench  # (it imports this module's lines and scan)

        page_bench(args.page_lines, args.rounds, args.file_mb)


if __name__ == "__main__":
    main()
