"""Column functions: each text of a column read as the CLI reads it, Arrow-backed.

``doi_name(col)`` is ``doiname parse``'s name (null when the text holds no readable DOI
name), ``doi_url(col, level)`` ``doiname url --level``, ``doi_uri(col)`` ``doiname uri``,
``doi_key(col)`` ``doiname key`` (the equivalence key of 003 ch. 3: only A-Z folded,
never ``lower()``), ``doi_findings(col)`` the codes ``doiname check`` reports. Every text
goes through the reading policy (:func:`doiname.inspection.read_name`), or, with
``exact=True``, is read as exactly one name (:func:`doiname.parse`, the CLI's
``--exact``). Null in, null out.

They run as Arrow UDFs (``arrow_udf``, Spark 4.1 and later; ``pandas_udf`` before),
because a join condition or a ``select`` needs a column expression (``mapInArrow``, a
whole-frame map, read one column faster in ``bench/spark.py``: see bench/REPORT.md).
The five functions on one column read each text once: a worker remembers the last
:data:`REMEMBERED` readings, more than one Arrow batch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..encoding import LEVELS
from ..equivalence import equivalence_key
from ..errors import DoiError
from ..findings import check
from ..inspection import inspect, read_name
from ..memo import remembered
from ..model import Doi, Finding
from ..presentation import to_uri, to_url
from ..syntax import parse

if TYPE_CHECKING:
    from pyspark.sql import Column, SparkSession

__all__ = ["REMEMBERED", "doi_findings", "doi_key", "doi_name", "doi_uri", "doi_url",
           "reading", "register"]

#: How many readings a worker remembers (a batch is 10,000 rows by default).
REMEMBERED = 1 << 14
#: Texts longer than this are read again rather than remembered.
_REMEMBER_CHARS = 2000


def _read(text: str, exact: bool) -> tuple[Doi | None, tuple[str, ...]]:
    if exact:
        try:
            doi: Doi | None = parse(text)
        except DoiError:
            doi = None
        return doi, tuple(f.code for f in check(text))
    try:
        doi, found = read_name(text)
    except DoiError:
        doi, found = None, inspect(text, forms=False)
    findings: Sequence[Finding]
    if found.selected is None:  # what `doiname check` reports (cli._check)
        findings = found.notes or check(text)
    else:
        findings = (*found.candidates[found.selected].findings, *found.notes)
    return doi, tuple(f.code for f in findings)


_remembered = remembered(REMEMBERED)(_read)


def reading(text: str, exact: bool = False) -> tuple[Doi | None, tuple[str, ...]]:
    """The DOI name a text holds (``None`` when none can be read) and the codes of what
    ``doiname check`` says about it, as the CLI reads it (``exact``: as ``--exact``)."""
    return (_remembered if len(text) <= _REMEMBER_CHARS else _read)(text, exact)


def _names(fn: Callable[[Doi], Any], exact: bool) -> Callable[[list[str | None]], list[Any]]:
    def apply(texts: list[str | None]) -> list[Any]:
        out: list[Any] = []
        for text in texts:
            doi = reading(text, exact)[0] if isinstance(text, str) else None
            out.append(None if doi is None else fn(doi))
        return out

    return apply


def _codes(exact: bool) -> Callable[[list[str | None]], list[Any]]:
    def apply(texts: list[str | None]) -> list[Any]:
        return [list(reading(t, exact)[1]) if isinstance(t, str) else None for t in texts]

    return apply


def _urls(exact: bool) -> Callable[[list[str | None], list[str | None]], list[Any]]:
    def apply(texts: list[str | None], levels: list[str | None]) -> list[Any]:
        out: list[Any] = []
        for text, level in zip(texts, levels, strict=True):
            doi = reading(text, exact)[0] if isinstance(text, str) else None
            out.append(None if doi is None else to_url(doi, level=level or "recommended"))
        return out

    return apply


def _udf(name: str, kernel: Callable[..., list[Any]], returns: str,
         engine: str | None = None) -> Any:
    """``kernel`` (lists in, a list out) as a UDF called ``name``: an Arrow UDF (``engine``
    ``"arrow"``, the default from Spark 4.1) or a pandas UDF (``"pandas"``)."""
    import warnings

    from pyspark.sql.pandas import functions as P

    if engine is None:
        engine = "arrow" if hasattr(P, "arrow_udf") else "pandas"
    fn: Callable[..., Any]
    make: Any
    kind: int
    if engine == "arrow":
        import pyarrow as pa

        def on_arrow(*cols: Any) -> Any:
            return pa.array(kernel(*(c.to_pylist() for c in cols)))

        fn, make, kind = on_arrow, P.arrow_udf, P.ArrowUDFType.SCALAR
    else:
        import pandas as pd

        def on_pandas(*cols: Any) -> Any:
            lists = [[v if isinstance(v, str) else None for v in c.tolist()] for c in cols]
            return pd.Series(kernel(*lists), dtype=object)

        fn, make, kind = on_pandas, P.pandas_udf, P.PandasUDFType.SCALAR
    fn.__name__ = name
    with warnings.catch_warnings():  # "prefer type hints": they cannot say *cols
        warnings.simplefilter("ignore", UserWarning)
        return make(fn, returns, kind)


_NAMES: dict[str, Callable[[Doi], str]] = {"doi_name": str, "doi_uri": to_uri,
                                           "doi_key": equivalence_key}


@remembered(64)
def _function(name: str, exact: bool, engine: str | None = None) -> Any:
    if name == "doi_url":
        return _udf(name, _urls(exact), "string", engine)
    if name == "doi_findings":
        return _udf(name, _codes(exact), "array<string>", engine)
    return _udf(name, _names(_NAMES[name], exact), "string", engine)


def _col(col: Column | str) -> Column:
    from pyspark.sql import functions as F

    return F.col(col) if isinstance(col, str) else col


def doi_name(col: Column | str, *, exact: bool = False) -> Column:
    """The DOI name in each text (``doiname parse``; 002 §4), or null."""
    return _function("doi_name", exact)(_col(col))  # type: ignore[no-any-return]


def doi_url(col: Column | str, level: str = "recommended", *, exact: bool = False) -> Column:
    """The doi.org URL of the name in each text, encoded for ``level`` (``mandatory``,
    ``recommended`` or ``strict``; 000, 001, the Handbook's proxy rules), or null."""
    from pyspark.sql import functions as F

    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    return _function("doi_url", exact)(_col(col), F.lit(level))  # type: ignore[no-any-return]


def doi_uri(col: Column | str, *, exact: bool = False) -> Column:
    """The ``doi:`` URI of the name in each text (003 ch. 2), or null."""
    return _function("doi_uri", exact)(_col(col))  # type: ignore[no-any-return]


def doi_key(col: Column | str, *, exact: bool = False) -> Column:
    """The equivalence key of the name in each text (003 ch. 3): join and group by it,
    never by ``lower()`` (which folds far more than A-Z), or null."""
    return _function("doi_key", exact)(_col(col))  # type: ignore[no-any-return]


def doi_findings(col: Column | str, *, exact: bool = False) -> Column:
    """The codes of the findings ``doiname check`` reports for each text (lookalikes,
    invisible characters, what was left out or could not be read), or null."""
    return _function("doi_findings", exact)(_col(col))  # type: ignore[no-any-return]


def register(spark: SparkSession) -> list[str]:
    """Make the column functions SQL functions of ``spark`` (``doi_url(text, level)``
    takes the level as its second argument); returns their names."""
    names = ["doi_name", "doi_url", "doi_uri", "doi_key", "doi_findings"]
    for name in names:
        spark.udf.register(name, _function(name, False))
    return names
