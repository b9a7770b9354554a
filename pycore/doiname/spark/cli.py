"""``python -m doiname.spark``: the CLI's batch for a corpus, or SQL over it.

    python -m doiname.spark --master 'local[2]' --out DIR INPUT...
    python -m doiname.spark --sql "SELECT ... FROM batch" INPUT...
    spark-submit [spark options] .../doiname/spark/__main__.py --out DIR INPUT...

INPUT: files, directories, globs or URIs (``hdfs://``, ``s3a://``, ...), in that order.
The rows (``doiname batch``'s columns, plus ``file`` and ``duplicate_of_file``) go to
``DIR`` as CSV (the CLI's cells; a header in each part file; part files in row order) or
Parquet (``--format``); the counts go to standard error. With ``--sql``, the rows are the
view ``batch``, each ``--table NAME=PATH`` a view of its own, the column functions
(``doi_name``, ``doi_url``, ``doi_uri``, ``doi_key``, ``doi_findings``) SQL functions;
the query's result goes to ``DIR``, or as CSV to standard output without ``--out``.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from .columns import register
from .corpus import counts_text, deduplicated, observed, public, write
from .frames import batch_plan
from .session import session

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["main"]

_READERS = {".parquet": "parquet", ".json": "json", ".jsonl": "json", ".ndjson": "json",
            ".csv": "csv", ".tsv": "csv", ".txt": "text", ".orc": "orc"}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m doiname.spark",
        description="doiname batch for whole corpora on Apache Spark: one row per DOI name "
        "found (or per reference without one), duplicates found across every input.",
        epilog="examples:\n"
        "  python -m doiname.spark --master 'local[*]' --out cleaned/ refs/*.bib dump.jsonl.gz\n"
        "  python -m doiname.spark --format parquet --out rows/ hdfs:///dumps/crossref/\n"
        "  python -m doiname.spark --table works=works.parquet --sql \"SELECT doi_key(doi) "
        "AS k, count(*) AS n FROM works GROUP BY k HAVING n > 1\"",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("inputs", nargs="*", metavar="INPUT",
                   help="files, directories, globs or URIs, read in this order")
    p.add_argument("--master", help="Spark master (local[2], yarn, spark://...); default: "
                   "what spark-submit says, else local[*]")
    p.add_argument("--out", help="output directory (or URI)")
    p.add_argument("--format", choices=["csv", "parquet"], default="csv")
    p.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    csv_input = p.add_mutually_exclusive_group()
    csv_input.add_argument("--csv-input", dest="csv_input", action="store_true", default=None,
                           help="every input is CSV or TSV (quoted cells may hold line "
                           "breaks); default: files named .csv or .tsv")
    csv_input.add_argument("--no-csv-input", dest="csv_input", action="store_false",
                           help="no input is CSV")
    p.add_argument("--split-mb", type=float, help="cut large uncompressed files into "
                   "splits of this many MiB (default: Spark's split size)")
    p.add_argument("--sql", help="run this query: the rows are the view 'batch'")
    p.add_argument("--table", action="append", default=[], metavar="NAME=PATH",
                   help="a view for --sql (Parquet, JSON Lines, CSV with a header, text, "
                   "ORC: by the file name)")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                   help="a Spark setting (repeatable)")
    return p


def _pairs(items: Sequence[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"{what} must be NAME=VALUE, not {item!r}")
        out[key] = value
    return out


def _table(spark: SparkSession, path: str) -> DataFrame:
    name = path.rstrip("/")
    if os.path.isdir(name):
        inside = sorted(f for f in os.listdir(name) if not f.startswith((".", "_")))
        name = inside[0] if inside else name
    base = name.lower()
    for ending in (".gz", ".bz2", ".xz", ".snappy", ".zst"):
        base = base.removesuffix(ending)
    kind = _READERS.get(os.path.splitext(base)[1], "parquet")
    reader = spark.read
    if kind == "csv":
        reader = reader.option("header", "true").option(
            "sep", "\t" if base.endswith(".tsv") else ",")
    return reader.format(kind).load(path)


def _stdout_csv(df: DataFrame, out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(df.columns)
    for row in df.toLocalIterator():
        writer.writerow(["" if v is None else v for v in row])


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit code (1: bad arguments or input)."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.sql and not args.out:
        parser.error("give --out DIR (or --sql QUERY)")
    if not args.sql and not args.inputs:
        parser.error("give at least one INPUT")
    try:
        conf = _pairs(args.conf, "--conf")
        tables = _pairs(args.table, "--table")
    except ValueError as err:
        parser.error(str(err))
    if args.out and "://" not in args.out and os.path.exists(args.out) and not args.overwrite:
        stderr.write(f"doiname.spark: {args.out} exists (--overwrite replaces it)\n")
        return 1
    spark = session(args.master, conf)
    mode = "overwrite" if args.overwrite else "errorifexists"
    try:
        rows = by = files = None
        if args.inputs:
            plan, by, files = batch_plan(args.inputs, spark=spark, csv_input=args.csv_input,
                                  split_bytes=int(args.split_mb * (1 << 20)) if args.split_mb
                                  else None)
            rows = deduplicated(plan, by)
    except (FileNotFoundError, ValueError) as err:
        stderr.write(f"doiname.spark: {err}\n")
        return 1
    if args.sql:
        register(spark)
        if rows is not None and by is not None:
            public(rows, by).createOrReplaceTempView("batch")
        for name, path in tables.items():
            _table(spark, path).createOrReplaceTempView(name)
        result = spark.sql(args.sql)
        if args.out:
            result.write.mode(mode).format(args.format).option("header", "true").save(args.out)
        else:
            _stdout_csv(result, stdout)
        return 0
    assert rows is not None and by is not None
    counted, obs = observed(rows)
    write(public(counted, by), args.out, format=args.format, mode=mode)
    stderr.write(f"doiname.spark batch: {counts_text(obs.get, files)}\n"
                 f"doiname.spark: wrote {args.out} ({args.format})\n")
    return 0
