"""Records, not lines: BibTeX entries, RIS records, JSON objects, CSV rows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doiname import records
from doiname.records import RECORD_MAX_LINES, iter_records

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "references"


def kinds(lines: list[str], **kw: Any) -> list[tuple[int, int, str, str | None]]:
    return [(r.first_line, r.last_line, r.kind, r.key) for r in iter_records(lines, **kw)]


def test_bibtex_entries_are_one_record_each_with_their_key() -> None:
    recs = [r for r in iter_records((FIXTURES / "bibtex.bib").read_text().splitlines())
            if r.kind == "bibtex"]
    assert [r.key for r in recs][:2] == ["lecun2015deep", "he2016deep"]
    assert all(r.lines[0].lstrip().startswith("@") for r in recs)
    assert all(r.text.count("{") == r.text.count("}") for r in recs)


def test_ris_records_run_from_ty_to_er_and_keep_their_id() -> None:
    lines = ["TY  - JOUR", "ID  - smith2020", "DO  - 10.1000/182", "ER  - ", "",
             "TY  - BOOK", "TI  - no id", "ER  -"]
    assert kinds(lines) == [(1, 4, "ris", "smith2020"), (5, 5, "structure", None),
                            (6, 8, "ris", None)]


def test_json_objects_over_several_lines_and_json_lines() -> None:
    lines = ["[", "  {", '    "id": "ref-1",', '    "DOI": "10.1000/1"', "  },",
             '  {"id": 7, "DOI": "10.1000/2"},', "]"]
    assert kinds(lines) == [(1, 1, "structure", None), (2, 5, "json", "ref-1"),
                            (6, 6, "json", "7"), (7, 7, "structure", None)]
    # a brace inside a JSON string does not close the object
    assert kinds(['{"title": "a } b",', '"DOI": "10.1/x"}']) == [(1, 2, "json", None)]


def test_csv_rows_with_line_breaks_in_quoted_cells_need_the_hint() -> None:
    lines = ['id,title,doi', '1,"A title', 'over two lines",10.1000/1', '2,B,10.1000/2']
    assert kinds(lines, hint="csv") == [(1, 1, "line", None), (2, 3, "csv", None),
                                        (4, 4, "line", None)]
    assert [k[2] for k in kinds(lines)] == ["line"] * 4  # plain text: lines


def test_a_mixed_list_is_grouped_piece_by_piece() -> None:
    lines = ["Smith J. A title. J Stuff. 2020. doi:10.1000/1",
             "@article{k1,", "  doi = {10.1000/2},", "}",
             "TY  - JOUR", "DO  - 10.1000/3", "ER  - ",
             "Doe A. (2019). https://doi.org/10.1000/4"]
    assert kinds(lines) == [(1, 1, "line", None), (2, 4, "bibtex", "k1"),
                            (5, 7, "ris", None), (8, 8, "line", None)]


def test_a_record_that_never_closes_gives_its_lines_back() -> None:
    lines = ["@article{open,", "  doi = {10.1000/1},"] + ["x"] * (RECORD_MAX_LINES + 5) + [
        "@misc{ok, doi={10.1000/2}}"]
    got = kinds(lines)
    assert got[0] == (1, 1, "line", None) and got[-1][2:] == ("bibtex", "ok")
    assert [g[0] for g in got] == list(range(1, len(lines) + 1))  # every line, in order
    assert kinds(["{", "{", "x"]) == [(1, 1, "line", None), (2, 2, "line", None),
                                      (3, 3, "line", None)]


def test_a_record_that_fails_is_skipped_not_fed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """``{`` on every line (an object that never closes): each line is read once, not
    up to RECORD_MAX_LINES times (the review's 49,500 lines took 5.1 s)."""
    fed: list[str] = []
    feed = records._Depth.feed

    def counted(self: records._Depth, line: str) -> int:
        fed.append(line)
        return feed(self, line)

    monkeypatch.setattr(records._Depth, "feed", counted)
    n = 10 * RECORD_MAX_LINES
    got = list(iter_records(["{"] * n + ["{ \"id\": \"k\", \"doi\": \"10.1/x\" }"]))
    assert [r.first_line for r in got] == list(range(1, n + 2))
    assert {r.kind for r in got[:-1]} == {"line"} and got[-1].key == "k"
    assert len(fed) <= n + RECORD_MAX_LINES  # it was about n * RECORD_MAX_LINES


@given(st.lists(st.sampled_from(["@a{k,", "}", "{", "TY  - X", "ER  -", "[", "x 10.1/x", "",
                                 '"', "doi = {10.1000/1}"]), max_size=60))
def test_every_line_is_in_exactly_one_record_in_order(lines: list[str]) -> None:
    seen: list[str] = []
    first = 1
    for r in iter_records(lines):
        assert r.first_line == first
        first = r.last_line + 1
        seen.extend(r.lines)
    assert seen == lines


def test_blank_lines_separate_records_without_rows_but_stay_lines_in_plain_text() -> None:
    assert kinds(["@a{k, doi={10.1/x}}", "", "", "plain line", ""]) == [
        (1, 1, "bibtex", "k"), (2, 2, "structure", None), (3, 3, "structure", None),
        (4, 4, "line", None), (5, 5, "line", None)]
