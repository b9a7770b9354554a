"""One reading of whatever people paste, the same in every surface.

The table (tests/fixtures/pastes.json) gives, for each paste, what ``doiname.inspect``
reads: the verdict, the selected candidate and every candidate in order. The same text
must then give the same names and statuses in a Batch row, the same links in linkify,
the same result from the CLI, and a name equivalent to itself in ``compare``. The
browser side (the page, the widget's box, linkify in Chromium) reads the same table in
tests/e2e/test_reading_surfaces.py.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import doiname as d
from doiname.batch import BatchJob
from doiname.cli import main
from doiname.comparison import compare
from doiname.inspection import Candidate, inspect, written_form
from doiname.jsonable import to_jsonable
from doiname.linkify import LinkTarget, link_targets

from .reference_text import reference_lines

TABLE = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "pastes.json")
                   .read_text(encoding="utf-8"))["rows"]
IDS = [repr(r["text"])[1:40] for r in TABLE]


def test_the_table_is_large_enough_and_covers_every_verdict() -> None:
    assert len(TABLE) >= 60
    assert {r["verdict"] for r in TABLE} == {
        "name", "names", "short-doi", "invalid", "none", "empty"}
    hows = {c[0] for r in TABLE for c in r["candidates"]}
    assert hows == {"exact", "found", "literal", "trimmed", "joined", "whole"}


def shape(c: Candidate) -> list[Any]:
    return [c.how, str(c.doi), c.status,
            sorted({f.code for f in c.findings if f.severity != "info"})]


@pytest.mark.parametrize("row", TABLE, ids=IDS)
def test_inspect_reads_the_table(row: dict[str, Any]) -> None:
    found = inspect(row["text"])
    assert found.verdict == row["verdict"]
    assert found.selected == row["selected"]
    assert [shape(c) for c in found.candidates] == row["candidates"]
    for c in found.candidates:  # spans point at what each candidate read
        assert 0 <= c.start <= c.end <= len(row["text"])
        if c.how in ("exact", "found", "whole"):
            assert row["text"][c.start:c.end] == c.text
        if c.of is not None:
            assert found.candidates[c.of].of is None


def first_places(targets: list[LinkTarget]) -> list[LinkTarget]:
    """Each name's first place among ``targets`` (003 ch. 3: by its equivalence key)."""
    firsts: dict[str, LinkTarget] = {}
    for t in targets:
        firsts.setdefault(d.equivalence_key(t.name), t)
    return list(firsts.values())


def primaries(text: str) -> list[Candidate]:
    """The names a text holds (not the other readings of their places)."""
    return [c for c in inspect(text).candidates if c.of is None and c.how != "whole"]


def batch_rows(text: str) -> list[d.batch.BatchRow]:
    job = BatchJob(text)
    while not job.done:
        job.step(100_000, 10.0)
    return list(job.rows)


@pytest.mark.parametrize("row", TABLE, ids=IDS)
def test_batch_rows_read_each_line_as_inspect_does(row: dict[str, Any]) -> None:
    batch_reads_as_inspect(row["text"])


@settings(max_examples=300, deadline=None)
@given(st.lists(reference_lines(), min_size=1, max_size=3).map("\n".join))
@example("Doe J. https://doi.org/10.1000/\n182")
def test_batch_rows_read_generated_lines_as_inspect_does(text: str) -> None:
    batch_reads_as_inspect(text)


def batch_reads_as_inspect(text: str) -> None:
    """Each line's Batch rows (or a wrapped record's) name what Inspect reads in it."""
    rows = batch_rows(text)
    lines: list[str | None] = list(text.replace("\r\n", "\n").replace("\r", "\n")
                                   .split("\n"))
    # A reference wrapped over several lines is one record, read as Inspect reads its text.
    wrapped = {r.line: r.input for r in rows if "\n" in r.input}
    if wrapped:
        lines = [wrapped.get(n, line) for n, line in enumerate(lines, 1)]
        lines = [x if n in wrapped or not any(n > k and n <= k + v.count("\n")
                                             for k, v in wrapped.items()) else None
                 for n, x in enumerate(lines, 1)]
    for number, line in enumerate(lines, 1):
        if line is None:
            continue  # inside a wrapped record, read with its first line
        if not line and number == len(lines):
            continue  # the text's last line break
        mine = [r for r in rows if r.line == number]
        names = primaries(line)
        if not names:
            assert [r.status for r in mine] == ["no-doi"]
            continue
        assert [r.doi for r in mine] == [str(c.doi) for c in names]
        for r, c in zip(mine, names, strict=True):
            assert r.status == c.status or (r.status == "duplicate" and c.status != "error")
            assert {f.code for f in r.findings} == {f.code for f in c.findings}
            others = [x for x in inspect(line).candidates
                      if x.of is not None and inspect(line).candidates[x.of] == c]
            assert list(r.alternatives) == [str(x.doi) for x in others]
            if c.status not in ("error",):
                assert r.api_url == c.api_url


@pytest.mark.parametrize("row", TABLE, ids=IDS)
def test_linkify_links_the_names_inspect_reads(row: dict[str, Any]) -> None:
    (targets,) = link_targets([row["text"]])
    want = [c for c in primaries(row["text"]) if c.kind == "doi" and c.status != "error"]
    # (every place is a link; a name written twice is one name in Inspect, at its first)
    firsts = first_places(targets)
    assert [t.name for t in firsts] == [str(c.doi) for c in want]
    assert [(t.start, t.end) for t in firsts] == [(c.start, c.end) for c in want]
    assert [t.href for t in firsts] == [d.to_url(c.doi) for c in want]


@pytest.mark.parametrize("row", TABLE, ids=IDS)
def test_the_cli_inspects_as_the_library_does(row: dict[str, Any]) -> None:
    if not row["text"].strip() or "\n" in row["text"]:
        return  # the CLI takes non-empty single-line texts as arguments
    out = io.StringIO()
    main(["inspect", "--json", row["text"]], stdout=out, stderr=io.StringIO())
    got = json.loads(out.getvalue())
    assert got["result"] == json.loads(json.dumps(to_jsonable(inspect(row["text"]))))


@pytest.mark.parametrize("row", TABLE, ids=IDS)
def test_a_name_is_equivalent_to_itself_and_round_trips(row: dict[str, Any]) -> None:
    found = inspect(row["text"])
    result = compare(row["text"], row["text"])
    if row["verdict"] in ("name", "names"):
        assert result.equivalent is True
        c = found.candidates[row["selected"]]
        again = inspect(written_form(c.doi))  # exact: never decoded twice
        assert again.candidates[again.selected or 0].doi == c.doi
    else:
        assert result.equivalent is None


def test_a_candidate_can_be_picked_and_its_forms_come_with_it() -> None:
    text = "doi: 10.1056/NEJMoa2001017."
    first, literal = inspect(text), inspect(text, pick=1)
    assert first.forms is not None and first.forms.url == "https://doi.org/10.1056/NEJMoa2001017"
    assert literal.forms is not None
    assert literal.forms.url == "https://doi.org/10.1056/NEJMoa2001017."
    assert literal.selected == 1 and inspect(text, pick=9).selected == 0


def test_too_long_text_is_refused_at_once_with_the_limit() -> None:
    text = "<" * 1_000_000
    found = inspect(text)
    assert found.verdict == "too-long" and found.candidates == ()
    assert "1,000,000 characters" in found.message and "Batch" in found.message
    assert inspect("x" * d.limits.INSPECT_MAX_CHARS).verdict == "none"


def test_repairs_are_offered_never_applied() -> None:
    (c,) = inspect("doi:10.1000/456#789").candidates
    (f,) = c.findings
    assert c.status == "error" and f.repair == "doi:10.1000/456%23789"
    repaired = inspect(f.repair)
    assert repaired.verdict == "name" and str(repaired.candidates[0].doi) == "10.1000/456#789"
    joined = inspect("10.1080/07853890.2016. 1231932")
    (brk,) = [f for f in joined.candidates[0].findings if f.code == "line-break"]
    assert brk.repair == "10.1080/07853890.2016.1231932"
    assert str(joined.candidates[0].doi) == "10.1080/07853890.2016"  # not joined silently
    zw = inspect("10.1000/a\u200bb").candidates[0]
    assert [f.repair for f in zw.findings] == ["10.1000/ab"]


def test_exact_names_come_back_exactly() -> None:
    """A name that holds %, # or / reads back as itself from its written form."""
    for name in ("10.1000/a%41", "10.1000/x%23y", "10.1000/x#y", "10.1000/a/b",
                 "10.1038/nature14539.", "10.1124/mol...", "10.1000/a b", "10.1000/a)"):
        exact = d.Doi(*name.split("/", 1))
        text = written_form(exact)
        back = inspect(text)
        assert back.verdict == "name" and back.candidates[0].doi == exact, text


def test_the_kelvin_sign_is_explained_without_accents() -> None:
    """U+212A is a compatibility character, not an accented letter."""
    kelvin = compare("10.1000/\u212a", "10.1000/k")
    assert kelvin.verdict == "normalization" and kelvin.equivalent is False
    assert "KELVIN SIGN" in kelvin.message and "LATIN CAPITAL LETTER K" in kelvin.message
    assert "accent" not in kelvin.message and "combining" not in kelvin.message
    accent = compare("10.1000/\u00c1", "10.1000/A\u0301")
    assert accent.verdict == "normalization" and "combining mark" in accent.message
