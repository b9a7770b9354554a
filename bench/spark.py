"""Spark throughput: ``doiname.spark`` in ``local[2]`` vs the CLI in one process.

1. Batch: the same 1,000,000 generated reference lines (``bench/batch.py``'s mix) in one
   file, read by ``doiname batch`` in this process (``iter_batch_rows`` + ``write_csv``,
   as the CLI runs it) and by ``doiname.spark.batch`` + ``write`` (CSV) in ``local[2]``;
   lines/s of each and their ratio, per round (rounds alternate) and of the medians.
2. Column functions: ``doi_key`` over a cached column of texts as an Arrow UDF, a pandas
   UDF and through ``mapInArrow``; rows/s of each, then all five functions at once.
3. Crossref-like records: JSON Lines works, each with its DOI and a few dozen references
   (most with DOIs); records/s per core of the CLI and of Spark, and what Crossref's
   public data file (165 million records in 2025) would take on paper.

Timings start once the SparkSession is up (its start-up is printed apart). Prints medians
and ranges, then one table (:func:`common.table`); never asserts. Wall time: Spark's
work is in other processes.

    python3 bench/spark.py [--lines N] [--texts N] [--works N] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch import make_lines
from common import Figure, as_ratio, table

from doiname.batch import BatchSession, iter_batch_rows, write_csv

CROSSREF_RECORDS = 165_000_000  # Crossref's 2025 public data file ("over 165 million")


def cli_file(path: Path) -> None:
    """What ``doiname batch FILE > /dev/null`` runs."""
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as src, \
            open(os.devnull, "w", encoding="utf-8", newline="") as sink:
        write_csv(iter_batch_rows(src, BatchSession()), sink)


def spark_file(path: Path, out: Path) -> None:
    from doiname.spark import batch, write

    write(batch(str(path)), str(out), mode="overwrite")


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def line(name: str, n: int, unit: str, times: list[float]) -> str:
    m = statistics.median(times)
    return (f"  {name:<34} {n / m:>10,.0f} {unit}/s  median {m:7.2f} s  range "
            f"{min(times):.2f}-{max(times):.2f} s")


def alternate(rounds: int, runs: Mapping[str, Callable[[], object]]) -> dict[str, list[float]]:
    """Each run once per round, the order rotated every round."""
    times: dict[str, list[float]] = {k: [] for k in runs}
    names = list(runs)
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            times[name].append(timed(runs[name]))
    return times


def key_in_arrow(batches: Iterator[Any]) -> Iterator[Any]:
    """``doi_key`` of column ``t`` added by ``mapInArrow`` (the candidate that lost)."""
    import pyarrow as pa

    from doiname.equivalence import equivalence_key
    from doiname.spark.columns import _names

    kernel = _names(equivalence_key, False)
    for b in batches:
        yield b.append_column("k", pa.array(kernel(b.column("t").to_pylist()), pa.string()))


def columns_bench(spark: Any, texts: list[str], rounds: int) -> list[Figure]:
    from doiname.spark import doi_findings, doi_key, doi_name, doi_uri, doi_url
    from doiname.spark.columns import _function

    df = spark.createDataFrame([(t,) for t in texts], "t string").repartition(2).cache()
    df.count()

    def noop(frame: Any) -> Callable[[], None]:
        return lambda: frame.write.format("noop").mode("overwrite").save()

    runs = {
        "arrow_udf doi_key": noop(df.select(_function("doi_key", False, "arrow")("t"))),
        "pandas_udf doi_key": noop(df.select(_function("doi_key", False, "pandas")("t"))),
        "mapInArrow doi_key": noop(df.mapInArrow(key_in_arrow, "t string, k string")),
    }
    times = alternate(rounds, runs)
    n = len(texts)
    print(f"column functions, {n:,} texts in local[2] (rows/s; noop sink):")
    for name, t in times.items():
        print(line(name, n, "rows", t))
    best = min(times, key=lambda k: statistics.median(times[k]))
    print(f"  fastest: {best}; ratios to it: " + ", ".join(
        f"{k} {statistics.median(v) / statistics.median(times[best]):.2f}x"
        for k, v in times.items() if k != best))
    five = df.select(doi_name("t"), doi_url("t"), doi_uri("t"), doi_key("t"), doi_findings("t"))
    t5 = [timed(noop(five)) for _ in range(rounds)]
    print(line("all five functions (one select)", n, "rows", t5)
          + f"  ({statistics.median(t5) / statistics.median(times['arrow_udf doi_key']):.2f}x "
          "the time of doi_key alone)")
    df.unpersist()
    arrow = statistics.median(times["arrow_udf doi_key"])
    return [Figure(f"column function doi_key as an Arrow UDF, {n:,} texts",
                   f"{n / arrow:,.0f} rows/s", "",
                   ", ".join(f"{k} {as_ratio(statistics.median(v) / arrow)} its time"
                             for k, v in times.items() if k != "arrow_udf doi_key")),
            Figure("all five column functions in one select",
                   f"{n / statistics.median(t5):,.0f} rows/s", "",
                   f"{as_ratio(statistics.median(t5) / arrow)} the time of doi_key alone")]


def make_works(n: int, seed: int = 11) -> list[str]:
    """Crossref-like works: a DOI, a title, authors, and 0-60 references (mean about 20),
    four in five with a DOI (some as links, some in upper case), the rest unstructured."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        refs = []
        for k in range(rng.choice([0, 0, 5, 10, 20, 30, 40, 60])):
            r = rng.randrange(1000, 9999)
            doi = f"10.{r}/j.{rng.randrange(10**6)}.{k}"
            ref: dict[str, Any] = {"key": f"ref{k}", "unstructured": f"A. Author, Title {k}, "
                                   f"J. Things {rng.randrange(1, 60)} (2019) {k}-{k + 9}."}
            if rng.random() < 0.8:
                ref["DOI"] = doi.upper() if rng.random() < 0.1 else doi
            refs.append(ref)
        out.append(json.dumps({
            "DOI": f"10.{5000 + i % 3000}/work.{i}", "type": "journal-article",
            "title": [f"On the study of things, part {i}"],
            "author": [{"given": "A.", "family": f"Author{j}"} for j in range(rng.randrange(1, 6))],
            "container-title": ["Journal of Things"], "reference-count": len(refs),
            "reference": refs}, ensure_ascii=False))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--texts", type=int, default=200_000)
    ap.add_argument("--works", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="doiname-bench-spark-"))
    try:
        lines = make_lines(args.lines)
        refs = tmp / "references.txt"
        refs.write_text("\n".join(lines) + "\n", encoding="utf-8")
        works = tmp / "works.jsonl"
        works.write_text("\n".join(make_works(args.works)) + "\n", encoding="utf-8")
        t0 = time.perf_counter()
        from doiname.spark import session

        spark = session("local[2]", {"spark.sql.shuffle.partitions": "8"})
        start_up = time.perf_counter() - t0
        version = spark.version
        print(f"Spark {version} local[2], Python {sys.version.split()[0]}; "
              f"session start-up {start_up:.1f} s (not counted below)")
        warm = tmp / "warm.txt"
        warm.write_text("\n".join(lines[:20_000]) + "\n", encoding="utf-8")
        spark_file(warm, tmp / "warm")  # the first job starts the Python workers

        n = args.lines
        times = alternate(args.rounds, {"CLI (one process)": lambda: cli_file(refs),
                                        "Spark local[2]": lambda: spark_file(refs, tmp / "o")})
        print(f"batch, {n:,} lines ({refs.stat().st_size / 1e6:.0f} MB), "
              f"{args.rounds} alternating rounds:")
        for name, t in times.items():
            print(line(name, n, "lines", t))
        cli_t, sp_t = times["CLI (one process)"], times["Spark local[2]"]
        per = ", ".join(f"{c / s:.2f}x" for c, s in zip(cli_t, sp_t, strict=True))
        ratio = statistics.median(cli_t) / statistics.median(sp_t)
        print(f"  speed ratio Spark local[2] / CLI: {ratio:.2f}x (per round {per}); "
              f"{ratio / 2:.0%} of two cores' ideal 2x")
        figures = [Figure(f"batch, {n:,} reference lines: speed of Spark local[2] / the CLI "
                          "in one process", as_ratio(ratio), "",
                          f"{n / statistics.median(sp_t):,.0f} against "
                          f"{n / statistics.median(cli_t):,.0f} lines/s; the session's "
                          f"{start_up:.0f} s start-up not counted")]

        figures += columns_bench(spark, lines[:args.texts], args.rounds)

        w = args.works
        times = alternate(args.rounds, {"CLI (one process)": lambda: cli_file(works),
                                        "Spark local[2]": lambda: spark_file(works, tmp / "w")})
        print(f"Crossref-like works, {w:,} JSON lines ({works.stat().st_size / 1e6:.0f} MB):")
        for name, t in times.items():
            print(line(name, w, "records", t))
        per_core = w / statistics.median(times["Spark local[2]"]) / 2
        core_hours = CROSSREF_RECORDS / per_core / 3600
        print(f"  per core in Spark: {per_core:,.0f} records/s; Crossref's "
              f"{CROSSREF_RECORDS / 1e6:.0f} million records: {core_hours:,.0f} core-hours;")
        print("  on paper (linear): " + "; ".join(
            f"{e} executors x 4 cores {core_hours / (4 * e):.1f} h" for e in (10, 50, 100)))
        figures.append(Figure(f"Crossref-like works ({w:,} JSON lines) in Spark, per core",
                              f"{per_core:,.0f} records/s", "",
                              f"Crossref's {CROSSREF_RECORDS / 1e6:.0f} million records: "
                              f"{core_hours:,.0f} core-hours on paper (linear; "
                              f"{core_hours / 40:.1f} h on 10 executors of 4 cores)"))
        spark.stop()
        table("Spark", figures, f"Spark {version} local[2]; {args.rounds} alternating "
              "rounds; bench/batch.py's mix of reference lines.")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
