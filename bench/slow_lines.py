#!/usr/bin/env python3
"""The lines a review found slow or large, through the batch engine: each against the mix.

Each case (99,000 U+2010 on one line; ``{`` on 49,500 lines, an object never closed; a
24 KB name with a zero-width space after each letter) goes through ``iter_batch_rows`` and
``write_jsonl``, and so do as many lines of bench/batch.py's mix and as many characters
of it, in the same run: the ratio to the larger of the two, and the answer's size. The
work itself is asserted in the tests (the lines fed, the repairs made, a step's
characters), never the time.

    python3 bench/slow_lines.py [--rounds N]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (also when loaded by its path)

from batch import make_lines, run_doiname
from common import Figure, as_ratio, table, timed

from doiname.batch import BatchSession, iter_batch_rows, write_jsonl

CASES = [
    ("99,000 U+2010 on one line", "10.1000/" + "\u2010" * 99_000),
    ("'{' on 49,500 lines, an object never closed", "{\n" * 49_500),
    ("24 KB name, a zero-width space after each letter", "10.1000/" + "a\u200b" * 12_000),
]


def run_jsonl(lines: list[str]) -> None:
    write_jsonl(iter_batch_rows(lines, BatchSession()), io.StringIO())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    mix = make_lines(60_000, seed=5)
    figures = []
    for label, text in CASES:
        lines = text.splitlines()
        k, chars = 0, 0
        while chars < len(text) and k < len(mix):
            chars += len(mix[k]) + 1
            k += 1
        ours, base = [], []
        for _ in range(args.rounds):
            ours.append(timed(run_jsonl, lines))
            base.append(max(timed(run_doiname, mix[: len(lines)]), timed(run_doiname, mix[:k])))
        out = io.StringIO()
        write_jsonl(iter_batch_rows(lines, BatchSession()), out)
        took = statistics.median(ours)
        figures.append(Figure(
            f"{label} ({len(text):,} characters)", f"{took:.2f} s, answer "
            f"{len(out.getvalue()) / 1e6:.2f} MB",
            ratio=f"{as_ratio(took / statistics.median(base))} the mix's time for as many "
                  "lines or characters"))
    table("Slow lines", figures,
          "The review's lines (99,000 U+2010 took 2.9 s; '{' x 49,500 5.1 s; the zero-width "
          "name gave 38 MB of JSON); the mix is bench/batch.py's, in the same run.")


if __name__ == "__main__":
    main()
