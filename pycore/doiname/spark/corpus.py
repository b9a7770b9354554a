"""``batch``: the CLI's rows for a whole corpus, duplicates found across it; ``write``:
the rows as CSV (the CLI's bytes) or Parquet; the counts the CLI prints."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..batch import CSV_COLUMNS
from ..batch.export import csv_line, fields_csv
from ..batch.rows import new_fields
from ..model import Finding, finding_of
from .frames import batch_plan, output_columns

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, Observation, SparkSession

__all__ = ["batch", "counts_text", "deduplicated", "observed", "public", "write"]


def deduplicated(rows: DataFrame, by: Sequence[str]) -> DataFrame:
    """The rows with duplicates found across the corpus (the CLI's rule: a name whose
    equivalence key an earlier row has is a ``duplicate`` of that row's line), in input
    order; the tasks' count rows (``k`` -1) are still there.

    One shuffle by key: each row learns the first place of its key, ordered by ``by``
    (``file_index``, or the source row id), ``line`` and ``k``. Rows without a key go to
    groups of their own, spread by a hash (no skew)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    source = by[-1]
    rows = rows.withColumn("_order", F.struct(*(F.col(c) for c in by), F.col("line"),
                                              F.col("k")))
    alone = F.concat(F.lit("\u0000"), F.xxhash64(F.col("_order")).cast("string"))
    rows = rows.withColumn("_group", F.coalesce(F.col("key"), alone))
    rows = rows.withColumn("_first", F.min("_order").over(Window.partitionBy("_group")))
    dup = F.col("key").isNotNull() & (F.col("_order") != F.col("_first"))
    return (rows
            .withColumn("status", F.when(dup, F.lit("duplicate")).otherwise(F.col("status")))
            .withColumn("duplicate_of", F.when(dup, F.col("_first.line"))
                        .otherwise(F.col("duplicate_of")))
            .withColumn(f"duplicate_of_{source}", F.when(dup, F.col(f"_first.{source}")))
            .orderBy("_order"))


def public(rows: DataFrame, by: Sequence[str]) -> DataFrame:
    """The output columns (:func:`doiname.spark.frames.output_columns`), count rows out."""
    from pyspark.sql import functions as F

    return rows.where(F.col("k") >= 0).select(*output_columns(by))


def batch(source: Any, column: str | None = None, *, id: str | None = None,
          spark: SparkSession | None = None, csv_input: bool | None = None,
          split_bytes: int | None = None, reader: str = "auto") -> DataFrame:
    """The CLI's batch rows (``doiname batch``) for a corpus, as a DataFrame in input order.

    ``source`` is a path, a directory, a glob, a URI or a list of them (files in that
    order; ``.gz``/``.bz2``/``.xz`` decompressed; ``.csv``/``.tsv`` read as CSV, or all
    or none with ``csv_input``), or a DataFrame whose ``column`` holds texts (each read
    as a file holding it; rows keep the source row's ``id`` column, by default a
    ``row_id`` added with ``monotonically_increasing_id``).

    Columns: the CLI's (``doiname.batch.CSV_COLUMNS``; ``line`` counts in each file or
    text), ``file`` (or the id column) and ``duplicate_of_file`` (or
    ``duplicate_of_<id>``): a duplicate points at the first equivalent name (003 ch. 3)
    in (file order, line) order, found across the whole corpus by Spark's shuffle.
    Records (BibTeX, RIS, MEDLINE, Refer, Web of Science, JSON, CSV rows) are grouped as the
    CLI groups them, also where a large file is cut into splits (``split_bytes``, by default
    Spark's split size); a file that is not text or cannot be read gives an ``error`` row
    saying so. Paths are read by the Python workers, URIs (``hdfs://``, ``s3a://``, ...)
    through Spark's ``binaryFile`` source (``reader="spark"``: every file so).
    """
    rows, by, _files = batch_plan(source, column, id=id, spark=spark, csv_input=csv_input,
                                  split_bytes=split_bytes, reader=reader)
    return public(deduplicated(rows, by), by)


_COUNTS = ("input_lines", "records", "dois", "unique", "duplicates", "errors", "no_doi",
           "short_dois", "files_not_read")


def observed(rows: DataFrame) -> tuple[DataFrame, Observation]:
    """``rows`` (from :func:`deduplicated`) counted as they are written: the CLI's counts
    (``doiname batch`` prints them), read from the observation once the rows are."""
    from pyspark.sql import Observation
    from pyspark.sql import functions as F

    obs = Observation("doiname")
    status = F.col("status")
    named = F.col("doi").isNotNull()

    def count(cond: Any) -> Any:
        return F.sum(F.when(cond, 1).otherwise(0))

    metrics = [
        F.sum("_lines"), F.sum("_records"),
        count(status.isin("ok", "warning", "duplicate") | (status == "error") & named),
        count(status.isin("ok", "warning")), count(status == "duplicate"),
        count((status == "error") & named), count(status == "no-doi"),
        count(status == "short-doi"), count((status == "error") & ~named),
    ]
    return rows.observe(obs, *(m.alias(n) for m, n in zip(metrics, _COUNTS, strict=True))), obs


def counts_text(counts: dict[str, Any], files: int | None = None) -> str:
    """The counts as the CLI says them (``doiname batch: N lines, ...``)."""
    c = {k: int(counts.get(k) or 0) for k in _COUNTS}
    text = (f"{c['input_lines']} lines, {c['dois']} DOIs ({c['unique']} unique, "
            f"{c['duplicates']} duplicates, {c['errors']} unreadable), {c['no_doi']} without a "
            f"DOI; {c['records']} references"
            + (f", {c['short_dois']} shortDOIs" if c["short_dois"] else ""))
    if files is not None:
        text += f"; {files} files"
    if c["files_not_read"]:
        text += f" ({c['files_not_read']} not read: see their error rows)"
    return text


#: The findings of rows written lately, by their fields' values: a list says the same
#: things again and again (a proxy's host, an escape decoded), and the writer keeps a
#: findings cell by its tuple.
_FOUND: dict[tuple[tuple[Any, ...], ...], tuple[Finding, ...]] = {}


def _findings(found: list[dict[str, Any]] | None) -> tuple[Finding, ...]:
    """A row's findings (Arrow's structs, as dicts) as :class:`~doiname.model.Finding`."""
    if not found:
        return ()
    key = tuple(tuple(tuple(map(tuple, v)) if k == "places" else v for k, v in f.items())
                for f in found)
    got = _FOUND.get(key)
    if got is None:
        got = tuple(finding_of(f) for f in found)
        if len(_FOUND) >= 1024:
            _FOUND.clear()
        _FOUND[key] = got
    return got


def _csv_batches(batches: Iterator[Any], *, extras: tuple[str, ...]) -> Iterator[Any]:
    """Each batch of rows as CSV text, written by the CLI's writer (one text per batch,
    without its last line break; the header first in each partition). The rows are read
    column by column into the writer's row tuples (no dict, no row object per row)."""
    import pyarrow as pa

    header = True
    for batch in batches:
        if batch.num_rows == 0:
            continue
        col = {name: batch.column(name).to_pylist() for name in (*CSV_COLUMNS, *extras)}
        findings = [_findings(fs) for fs in col["findings"]]
        alternatives = [tuple(a) if a else () for a in col["alternatives"]]
        rows = map(new_fields, zip(
            col["line"], col["input"], col["status"], col["doi"], col["url"], col["uri"],
            findings, col["duplicate_of"], col["start"], col["end"], col["text"], col["form"],
            col["api_url"], alternatives, col["record"], itertools.repeat(None)))
        more = (zip(*[["" if v is None else str(v) for v in col[c]] for c in extras], strict=True)
                if extras else None)
        text = fields_csv(rows, more)
        if header:
            text = csv_line((*CSV_COLUMNS, *extras)) + text
            header = False
        yield pa.RecordBatch.from_pylist([{"value": text[:-2]}])


def write(rows: DataFrame, out: str, *, format: str = "csv", mode: str = "errorifexists") -> None:
    """Write public rows (:func:`batch`) to the directory ``out``: ``csv`` (the CLI's
    columns and cells, spreadsheet-safe, CRLF, a header in each part file, part files in
    row order) or ``parquet`` (typed: findings as structs, alternatives as a list)."""
    if format == "parquet":
        rows.write.mode(mode).parquet(out)
        return
    if format != "csv":
        raise ValueError(f"format must be csv or parquet, not {format!r}")
    extras = tuple(c for c in rows.columns if c not in CSV_COLUMNS)
    text = rows.mapInArrow(functools.partial(_csv_batches, extras=extras), "value string")
    text.write.mode(mode).option("lineSep", "\r\n").text(out)
    _name_parts_csv(rows.sparkSession, out)


def _name_parts_csv(spark: SparkSession, out: str) -> None:
    """``part-*.txt`` (Spark's text source names them so) renamed ``part-*.csv``, through
    Hadoop's file system API (any URI); left as they are where there is none (Connect)."""
    jvm = getattr(spark, "_jvm", None)
    jsc = getattr(spark, "_jsc", None)
    if jvm is None or jsc is None:
        return
    path = jvm.org.apache.hadoop.fs.Path(out)
    fs = path.getFileSystem(jsc.hadoopConfiguration())
    for status in fs.listStatus(path):
        name = status.getPath().getName()
        if name.startswith("part-") and name.endswith(".txt"):
            fs.rename(status.getPath(), jvm.org.apache.hadoop.fs.Path(path, name[:-4] + ".csv"))
