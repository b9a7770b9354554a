"""Column functions give, for each text, what the CLI says for it (``doiname parse``, ``url
--level``, ``uri``, ``key``, ``check``; with ``exact``, their ``--exact``), through Arrow
and pandas UDFs alike and as SQL functions; a join by ``doi_key`` is right where a join by
``lower()`` is wrong both ways."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from doiname.cli import main as cli_main
from doiname.spark import doi_findings, doi_key, doi_name, doi_uri, doi_url, register
from doiname.spark.columns import _function

PASTES = Path(__file__).resolve().parents[1] / "fixtures" / "pastes.json"
MORE = ["10.1000/ÄBC", "10.1000/\u212aelvin", "https://doi.org/10.1000/456%23789",
        "doi:10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O", "10/abcde",
        "urn:doi:10.1000:182", "10.1000/a\u2010b", "", "   ", "no name here", "10.1000"]


def texts() -> list[str]:
    rows = json.loads(PASTES.read_text(encoding="utf-8"))["rows"]
    return [r["text"] for r in rows] + MORE


def cli(command: list[str], items: list[str]) -> list[Any]:
    """The CLI's result for each text (``None`` where it says the text holds no name)."""
    out: list[Any] = []
    for text in items:  # one call each: an empty text is not skipped, as on stdin
        buf = io.StringIO()
        cli_main([*command, "--json", "--", text], stdout=buf, stderr=io.StringIO())
        (line,) = buf.getvalue().splitlines()
        answer = json.loads(line)
        out.append(answer.get("result"))
    return out


@pytest.mark.parametrize("exact", [False, True])
def test_each_function_says_what_the_cli_says(spark: Any, exact: bool) -> None:
    items = texts()
    flag = ["--exact"] if exact else []
    df = spark.createDataFrame([(i, t) for i, t in enumerate(items)], "i int, t string")
    got = df.orderBy("i").select(
        doi_name("t", exact=exact).alias("name"), doi_uri("t", exact=exact).alias("uri"),
        doi_key("t", exact=exact).alias("key"), doi_findings("t", exact=exact).alias("codes"),
        *(doi_url("t", level, exact=exact).alias(level)
          for level in ("mandatory", "recommended", "strict"))).collect()
    parsed = cli(["parse", *flag], items)
    assert [r["name"] for r in got] == [p and p["name"] for p in parsed]
    assert [r["uri"] for r in got] == cli(["uri", *flag], items)
    assert [r["key"] for r in got] == cli(["key", *flag], items)
    for level in ("mandatory", "recommended", "strict"):
        assert [r[level] for r in got] == cli(["url", "--level", level, *flag], items)
    assert [r["codes"] for r in got] == [[f["code"] for f in c] for c in
                                         cli(["check", *flag], items)]
    assert sum(r["name"] is not None for r in got) > len(items) // 2


def test_pandas_udfs_give_the_same_columns(spark: Any) -> None:
    items = texts()
    df = spark.createDataFrame([(t,) for t in [*items, None]], "t string")
    for name in ("doi_name", "doi_key", "doi_findings"):
        arrow = df.select(_function(name, False, "arrow")("t").alias("v")).collect()
        pandas = df.select(_function(name, False, "pandas")("t").alias("v")).collect()
        assert arrow == pandas, name
        assert arrow[-1]["v"] is None  # null in, null out
    with pytest.raises(ValueError, match="level must be one of"):
        doi_url("t", "loose")


def test_sql_functions(spark: Any) -> None:
    assert register(spark) == ["doi_name", "doi_url", "doi_uri", "doi_key", "doi_findings"]
    spark.createDataFrame([("doi: 10.1000/456#789.",)], "t string").createOrReplaceTempView(
        "pasted")
    (row,) = spark.sql("SELECT doi_name(t) AS n, doi_url(t, 'strict') AS u, doi_uri(t) AS r, "
                       "doi_key(t) AS k, doi_findings(t) AS f FROM pasted").collect()
    assert row.asDict() == {"n": "10.1000/456#789", "u": "https://doi.org/10.1000/456%23789",
                            "r": "doi:10.1000/456%23789", "k": "10.1000/456#789",
                            "f": ["trailing-punctuation", "outside-crossref-set"]}


def test_a_join_by_doi_key_where_lower_is_wrong(spark: Any) -> None:
    from pyspark.sql import functions as F

    works = spark.createDataFrame([
        ("w1", "https://doi.org/10.1000/ABC"),  # a link, upper case
        ("w2", "10.1000/\u212a"),  # KELVIN SIGN: lower() makes it k
        ("w3", "doi:10.1000/456%23789"),  # the doi: URI of 10.1000/456#789
        ("w4", "10.1000/ÄB"),  # non-ASCII case is not folded (003 ch. 3)
    ], "work string, doi string")
    cited = spark.createDataFrame([
        ("c1", "10.1000/abc"), ("c2", "10.1000/k"), ("c3", "10.1000/456#789"),
        ("c4", "10.1000/äb"),
    ], "ref string, doi string")

    def pairs(left: Any, right: Any) -> set[tuple[str, str]]:
        joined = works.join(cited, left == right)
        return {(r["work"], r["ref"]) for r in joined.select("work", "ref").collect()}

    by_lower = pairs(F.lower(works.doi), F.lower(cited.doi))
    by_key = pairs(doi_key(works.doi), doi_key(cited.doi))
    assert by_key == {("w1", "c1"), ("w3", "c3")}
    assert by_lower == {("w2", "c2"), ("w4", "c4")}  # misses both links, joins 2 wrong
