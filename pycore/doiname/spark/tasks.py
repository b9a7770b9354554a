"""The functions Spark runs in its Python workers (``mapInArrow``): scan splits, read
file regions and DataFrame cells into rows. Each takes and yields Arrow record batches;
the work itself is :mod:`doiname.spark.splits` and :mod:`doiname.spark.worker`."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from ..batch.lines import NotText, text_encoding
from .lines import ReadFailed, head, open_bytes
from .splits import scan_split, split_starts
from .worker import file_error, region_rows, stats, text_rows

__all__ = ["BATCH_ROWS", "cell_batches", "region_batches", "scan_batches"]

#: How many rows go into one Arrow batch a task yields.
BATCH_ROWS = 2048


def _batches(rows: Iterable[dict[str, Any]], schema: Any) -> Iterator[Any]:
    import pyarrow as pa

    buf: list[dict[str, Any]] = []
    for row in rows:
        buf.append(row)
        if len(buf) >= BATCH_ROWS:
            yield pa.RecordBatch.from_pylist(buf, schema=schema)
            buf = []
    if buf:
        yield pa.RecordBatch.from_pylist(buf, schema=schema)


def too_large(size: int) -> dict[str, Any]:
    """The error row of a file too large for Spark's ``binaryFile`` source."""
    return file_error(1, "unreadable", f"This file was not read: it has {size:,} bytes, more "
                      "than Spark's binaryFile source reads (2 GiB). Put it where the Python "
                      "workers can open it (a local or mounted path), or cut it in parts.")


def scan_batches(batches: Iterator[Any], schema: Any) -> Iterator[Any]:
    """Scan each split of the input (``SCAN_TASK`` rows); one ``SCAN_RESULT`` row each."""

    def scans() -> Iterator[dict[str, Any]]:
        for batch in batches:
            for t in batch.to_pylist():
                out = {"file_index": t["file_index"], "index": t["index"]}
                try:
                    with open_bytes(t["path"], None) as f:
                        if text_encoding(head(f))[0] != "utf-8":
                            # UTF-16 is not cut at bytes: the file is read in one task
                            yield {**out, "error": "UTF-16: read whole"}
                            continue
                        s = scan_split(f, index=t["index"], size=t["size"], hint=t["hint"],
                                       starts=split_starts(t["size"], t["split_bytes"]))
                except (OSError, ReadFailed, NotText) as err:
                    yield {**out, "error": str(err) or type(err).__name__}
                    continue
                yield {**out, "first_at": s.first_at, "lines": s.lines,
                       "to_split": s.to_split, "to_at": s.to_at}

    return _batches(scans(), schema)


def region_batches(batches: Iterator[Any], schema: Any) -> Iterator[Any]:
    """The rows of each file region (``TASK`` rows, with ``content`` when Spark read the
    file), each with the file's ``file_index`` and ``file``."""

    def rows() -> Iterator[dict[str, Any]]:
        for batch in batches:
            for t in batch.to_pylist():
                where = {"file_index": t["file_index"], "file": t["path"]}
                if "content" in t and t["content"] is None:  # binaryFile did not read it
                    for row in (too_large(t["size"]), stats(0, 0)):
                        row.update(where)
                        yield row
                    continue
                for row in region_rows(t["path"], t["compression"], t["hint"],
                                       first_at=t["first_at"], first_line=t["first_line"],
                                       start=t["start"], end=t["end"],
                                       content=t.get("content")):
                    row.update(where)
                    yield row

    return _batches(rows(), schema)


def cell_batches(batches: Iterator[Any], schema: Any, *, id_name: str, column: str,
                 hint: str | None) -> Iterator[Any]:
    """The rows of each text cell of ``column``, each with its row's ``id_name``."""

    def rows() -> Iterator[dict[str, Any]]:
        for batch in batches:
            ids = batch.column(id_name).to_pylist()
            texts = batch.column(column).to_pylist()
            counts = [0, 0]
            for ident, text in zip(ids, texts, strict=True):
                for row in text_rows(text, hint, counts):
                    row[id_name] = ident
                    yield row
            yield stats(*counts)

    return _batches(rows(), schema)
