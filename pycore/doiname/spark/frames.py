"""The batch as a Spark plan: inputs to rows (``mapInArrow`` tasks), rows to the CLI's
rows with duplicates found across the corpus (one shuffle by equivalence key), in input
order. Nothing is collected to the driver but the list of files and, for files cut into
several splits, one small scan result per split."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..batch import CSV_COLUMNS
from .inputs import InputFile, Task, local_files, pack, remote_uri
from .schema import ROW_TYPES, SCAN_RESULT, SCAN_TASK, TASK, arrow_schema, struct
from .splits import Region, Scan, regions, split_starts
from .tasks import cell_batches, region_batches, scan_batches

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["MIN_SPLIT", "batch_plan", "output_columns"]

#: The smallest split a large file is cut into (when the split size is not given).
MIN_SPLIT = 4 << 20
#: The most bytes Spark's ``binaryFile`` source can read of one file.
BINARY_FILE_MAX = 2**31 - 1


def output_columns(by: Sequence[str]) -> list[str]:
    """The columns of a batch's rows: the CLI's, then where each row comes from (``file``,
    or the source row id) and where its first occurrence is (``duplicate_of_file``...)."""
    source = by[-1]
    return [*CSV_COLUMNS, source, f"duplicate_of_{source}"]


def _bytes(text: str) -> int:
    text = text.strip().lower().rstrip("b")
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    if text and text[-1] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def _split_size(spark: SparkSession, total: int) -> int:
    """Spark's own rule for file splits, with more splits per core (the work is CPU)."""
    most = _bytes(spark.conf.get("spark.sql.files.maxPartitionBytes") or "128m")
    try:
        cores = spark.sparkContext.defaultParallelism
    except Exception:  # Spark Connect has no SparkContext
        cores = 2
    return max(1, min(most, max(MIN_SPLIT, math.ceil(total / (4 * cores)))))


def _frame(spark: SparkSession, rows: list[dict[str, Any]], fields: tuple[tuple[str, str], ...],
           parts: int) -> DataFrame:
    """A DataFrame of task rows with each ``part`` in a partition of its own."""
    df = spark.createDataFrame(rows, struct(fields))
    return df.repartitionByRange(max(1, parts), "part")


def _scanned(spark: SparkSession, files: list[InputFile], split: int) -> list[Task]:
    """The tasks of large files: scan their splits (first pass), follow the handovers."""
    todo: list[dict[str, Any]] = []
    for f in files:
        for i in range(len(split_starts(f.size, split))):
            todo.append({"file_index": f.index, "path": f.path, "size": f.size,
                         "hint": f.hint, "index": i, "split_bytes": split})
    per_part = max(1, MIN_SPLIT // split)  # small splits (tests) share a task
    for n, row in enumerate(todo):
        row["part"] = n // per_part
    schema = struct(SCAN_RESULT)
    found = _frame(spark, todo, SCAN_TASK, todo[-1]["part"] + 1).mapInArrow(
        functools.partial(scan_batches, schema=arrow_schema(schema)), schema).collect()
    by_file: dict[int, dict[int, Any]] = {}
    for r in found:
        by_file.setdefault(r["file_index"], {})[r["index"]] = r
    tasks: list[Task] = []
    for f in files:
        got = by_file.get(f.index, {})
        scans = [got.get(i) for i in range(len(split_starts(f.size, split)))]
        if any(s is None or s["error"] is not None for s in scans):  # read it in one task
            tasks.append(Task(f, 0, 1, 0, None))
            continue
        for region in regions([Scan(s["index"], s["first_at"], s["lines"], s["to_split"],
                                    s["to_at"]) for s in scans if s is not None]):
            tasks.append(_task(f, region))
    return tasks


def _task(f: InputFile, r: Region) -> Task:
    return Task(f, r.first_at, r.first_line, r.start, None if r.end >= f.size else r.end)


def _task_row(part: int, t: Task) -> dict[str, Any]:
    return {"part": part, "file_index": t.file.index, "path": t.file.path,
            "size": t.file.size, "compression": t.file.compression, "hint": t.file.hint,
            "first_at": t.first_at, "first_line": t.first_line, "start": t.start,
            "end": t.end}


def _local_rows(spark: SparkSession, files: list[InputFile], split_bytes: int | None,
                schema: Any) -> DataFrame:
    split = split_bytes or _split_size(spark, sum(f.size for f in files))
    whole = [f for f in files if f.compression is not None or f.size <= split]
    cut = [f for f in files if f not in whole]
    tasks = [Task(f, 0, 1, 0, None) for f in whole]
    if cut:
        tasks += _scanned(spark, cut, split)
    tasks.sort(key=lambda t: (t.file.index, t.start))
    groups = pack(tasks, max(split, MIN_SPLIT))
    rows = [_task_row(part, t) for part, group in enumerate(groups) for t in group]
    return _frame(spark, rows, TASK, len(groups)).mapInArrow(
        functools.partial(region_batches, schema=arrow_schema(schema)), schema)


def _spark_read_rows(spark: SparkSession, uris: list[str], first_index: int,
                     csv_input: bool | None, schema: Any) -> tuple[DataFrame, int]:
    """Rows of files read through Spark's ``binaryFile`` source (any Hadoop file system),
    each file whole, in one task; a file over 2 GiB gets an error row instead."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as t

    from .lines import compression_of, text_hint

    listed: list[InputFile] = []
    for uri in uris:
        found = sorted(spark.read.format("binaryFile").option("recursiveFileLookup", "true")
                       .load(uri).select("path", "length").collect(), key=lambda r: r["path"])
        if not found:
            raise FileNotFoundError(f"{uri}: no such file or directory")
        for r in found:
            hint = text_hint(r["path"]) if csv_input is None else "csv" if csv_input else None
            listed.append(InputFile(first_index + len(listed), r["path"], r["length"],
                                    compression_of(r["path"]), hint))
    task_type = struct(TASK)
    binary = t.BinaryType()
    small = [f for f in listed if f.size <= BINARY_FILE_MAX]
    big = [f for f in listed if f.size > BINARY_FILE_MAX]
    frames = []
    if small:
        meta = spark.createDataFrame([_task_row(f.index, Task(f, 0, 1, 0, None))
                                      for f in small], task_type)
        content = spark.read.format("binaryFile").load([f.path for f in small])
        frames.append(content.select("path", "content").join(F.broadcast(meta), "path"))
    if big:  # no content: region_batches says why
        frames.append(spark.createDataFrame(
            [_task_row(f.index, Task(f, 0, 1, 0, None)) for f in big], task_type)
            .withColumn("content", F.lit(None).cast(binary)))
    tasks = functools.reduce(lambda a, b: a.unionByName(b), frames)
    rows = tasks.mapInArrow(functools.partial(region_batches, schema=arrow_schema(schema)),
                            schema)
    return rows, len(listed)


def batch_plan(source: Any, column: str | None = None, *, id: str | None = None,
               spark: SparkSession | None = None, csv_input: bool | None = None,
               split_bytes: int | None = None, reader: str = "auto",
               ) -> tuple[DataFrame, list[str], int | None]:
    """The rows of ``source`` before deduplication, the columns that order them, and how
    many files were read (``None`` for a DataFrame). ``reader``: ``"auto"`` (paths by the
    Python workers, URIs by Spark), ``"spark"`` (every file through Spark's
    ``binaryFile``: for paths the workers cannot open, one task per file)."""
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql import types as t

    if isinstance(source, DataFrame):
        if column is None:
            raise ValueError("batch(df, column): name the column that holds the text")
        id_name = id or "row_id"
        df = source if id else source.withColumn(id_name, F.monotonically_increasing_id())
        if id_name in {n for n, _ in ROW_TYPES} or id_name.startswith("duplicate_of"):
            raise ValueError(f"batch(): the id column may not be named {id_name!r}")
        id_type = df.schema[id_name].dataType
        schema = struct(ROW_TYPES, (id_name, id_type))
        hint = "csv" if csv_input else None
        rows = df.select(id_name, column).mapInArrow(functools.partial(
            cell_batches, schema=arrow_schema(schema), id_name=id_name, column=column,
            hint=hint), schema)
        return rows, [id_name], None
    spark = spark or SparkSession.getActiveSession() or SparkSession.builder.getOrCreate()
    paths = [os.fspath(source)] if isinstance(source, str | os.PathLike) else [
        os.fspath(p) for p in source]
    schema = struct(ROW_TYPES, ("file_index", t.LongType()), ("file", t.StringType()))
    frames: list[DataFrame] = []
    index = 0
    i = 0
    while i < len(paths):  # runs of local paths and of URIs, in the order given
        j = i
        remote = reader == "spark" or remote_uri(paths[i])
        while j < len(paths) and (reader == "spark" or remote_uri(paths[j])) == remote:
            j += 1
        if remote:
            rows, n = _spark_read_rows(spark, paths[i:j], index, csv_input, schema)
        else:
            files = local_files(paths[i:j], first_index=index, csv_input=csv_input)
            rows, n = _local_rows(spark, files, split_bytes, schema), len(files)
        frames.append(rows)
        index += n
        i = j
    if not frames:
        raise ValueError("batch(): no input")
    rows = functools.reduce(lambda a, b: a.unionByName(b), frames)
    return rows, ["file_index", "file"], index
