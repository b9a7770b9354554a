"""The Spark types of a batch's rows and of the tasks that make them (pyspark imported
when called, never when this module is imported)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..batch import CSV_COLUMNS

if TYPE_CHECKING:
    from pyspark.sql.types import DataType, StructType

__all__ = ["FINDING_TYPES", "ROW_TYPES", "SCAN_RESULT", "SCAN_TASK", "TASK", "arrow_schema",
           "findings_type", "struct"]

#: A finding's fields and their Spark types (as :class:`doiname.Finding` has them).
FINDING_TYPES = (("code", "string"), ("severity", "string"), ("message", "string"),
                 ("start", "int"), ("end", "int"), ("input_start", "int"),
                 ("input_end", "int"), ("in_name", "boolean"), ("source", "string"),
                 ("repair", "string"), ("places", "spans"))

#: A row's columns as the tasks make them: the CLI's (``CSV_COLUMNS``), ``k`` (its place
#: in its record), ``key`` (equivalence key) and the counts of a task's last row.
ROW_TYPES = (("line", "long"), ("k", "int"), ("input", "string"), ("doi", "string"),
             ("url", "string"), ("uri", "string"), ("status", "string"),
             ("duplicate_of", "long"), ("findings", "findings"), ("start", "int"),
             ("end", "int"), ("text", "string"), ("form", "string"), ("api_url", "string"),
             ("alternatives", "strings"), ("record", "string"), ("key", "string"),
             ("_lines", "long"), ("_records", "long"))

assert {n for n, _ in ROW_TYPES} >= set(CSV_COLUMNS)

#: A file region to read (:class:`doiname.spark.inputs.Task`), packed by ``part``.
TASK = (("part", "long"), ("file_index", "long"), ("path", "string"), ("size", "long"),
        ("compression", "string"), ("hint", "string"), ("first_at", "long"),
        ("first_line", "long"), ("start", "long"), ("end", "long"))
#: A split to scan (:func:`doiname.spark.splits.scan_split`) and what the scan found.
SCAN_TASK = (("part", "long"), ("file_index", "long"), ("path", "string"), ("size", "long"),
             ("hint", "string"), ("index", "int"), ("split_bytes", "long"))
SCAN_RESULT = (("file_index", "long"), ("index", "int"), ("first_at", "long"),
               ("lines", "long"), ("to_split", "int"), ("to_at", "long"), ("error", "string"))


def _type(name: str) -> DataType:
    from pyspark.sql import types as t

    simple: dict[str, Any] = {"string": t.StringType, "int": t.IntegerType,
                              "long": t.LongType, "boolean": t.BooleanType,
                              "binary": t.BinaryType}
    if name == "strings":
        return t.ArrayType(t.StringType())
    if name == "spans":
        return t.ArrayType(t.ArrayType(t.IntegerType()))
    if name == "findings":
        return findings_type()
    return simple[name]()  # type: ignore[no-any-return]


def findings_type() -> DataType:
    """``array<struct<code, severity, message, ...>>``: a row's findings."""
    from pyspark.sql import types as t

    return t.ArrayType(t.StructType([t.StructField(n, _type(k)) for n, k in FINDING_TYPES]))


def struct(fields: tuple[tuple[str, str], ...], *extra: tuple[str, DataType]) -> StructType:
    """A Spark struct of ``(name, type name)`` fields, then ``extra`` ``(name, DataType)``."""
    from pyspark.sql import types as t

    return t.StructType([*(t.StructField(n, _type(k)) for n, k in fields),
                         *(t.StructField(n, k) for n, k in extra)])


def arrow_schema(schema: StructType) -> Any:
    """The Arrow schema Spark expects for ``schema`` (what ``mapInArrow`` must yield)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(schema)
