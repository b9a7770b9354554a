"""What the benchmarks share: the repository root, Chromium's path and flags, the build
package (``pycore/tools/doiname_build``: ``site.build()``, ``paths``, the server), how a
contender is timed, and the one way a bench gives its figures to the report (:func:`table`).

A bench prints what it measures as it goes (its log), and hands each table of figures to
:func:`table`, which prints the table and, when the bench runs under ``bench/run`` (the
environment names a results file in ``DOINAME_BENCH_RESULTS``), adds it to that file as
one JSON line. ``bench/run`` turns those tables into ``bench/REPORT.md``; bench/README.md
says how to add a table or a bench.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore" / "tools"))
if str(ROOT / "pycore") not in sys.path:
    sys.path.insert(0, str(ROOT / "pycore"))

from doiname_build import paths  # noqa: E402

CHROMIUM = str(paths.CHROMIUM)
ARGS = list(paths.CHROMIUM_ARGS)

#: The environment variable through which ``bench/run`` asks for the tables as JSON lines.
RESULTS_ENV = "DOINAME_BENCH_RESULTS"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Figure:
    """One row of a table: what was measured, its value, the goal it is held to and the
    ratio measured in the same run, as text with their units (``"3.4x the naive scan"``).

    ``met`` says whether the value meets the goal (``None``: no goal, or one the bench
    cannot judge alone). The bench decides it from the numbers, never the report.
    """

    figure: str
    value: str
    goal: str = ""
    ratio: str = ""
    met: bool | None = None


def table(title: str, figures: Iterable[Figure], note: str = "") -> None:
    """Print one table of figures and, under ``bench/run``, add it to the results.

    ``title`` names the table in the report (unique within the bench); ``note`` is one
    short paragraph printed under it (the workload, what a ratio compares)."""
    rows = list(figures)
    print(f"\n{title}")
    for f in rows:
        goal = f"  (goal {f.goal}: {'met' if f.met else 'not met'})" if f.goal and \
            f.met is not None else (f"  (goal {f.goal})" if f.goal else "")
        ratio = f"; {f.ratio}" if f.ratio else ""
        print(f"  {f.figure}: {f.value}{ratio}{goal}")
    if note:
        print(f"  ({note})")
    out = os.environ.get(RESULTS_ENV)
    if out:
        with open(out, "a", encoding="utf-8") as fp:
            fp.write(json.dumps({"title": title, "note": note,
                                 "figures": [asdict(f) for f in rows]}) + "\n")


def timed(fn: Callable[[T], object], arg: T) -> float:
    """The processor time ``fn(arg)`` takes in this process: on a machine shared with
    other work, time spent waiting for a core is not counted against either contender."""
    t0 = time.process_time()
    fn(arg)
    return time.process_time() - t0


def spread(ts: list[float]) -> str:
    """A list of times in seconds as its median and range."""
    return f"median {statistics.median(ts):.2f} s, range {min(ts):.2f}-{max(ts):.2f} s"


def as_ratio(n: float) -> str:
    """A ratio as the report writes them: ``3.4x``, ``0.25x``."""
    return f"{n:.2f}x" if n < 1 else f"{n:.1f}x"


def median(values: list[float]) -> float:
    """The median of ``values``; NaN when there are none."""
    return statistics.median(values) if values else float("nan")


def throttle(context: Any, page: Any, mbit: float, rtt: float) -> None:
    """Chromium's network emulation (DevTools) on ``page``: ``mbit`` Mbit/s each way and
    ``rtt`` ms of latency; nothing when ``mbit`` is 0 (unthrottled)."""
    if not mbit:
        return
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": rtt, "downloadThroughput": mbit * 1e6 / 8,
        "uploadThroughput": mbit * 1e6 / 8})
