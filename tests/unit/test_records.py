"""Records, not lines: BibTeX entries, RIS records, JSON objects, CSV rows, references wrapped
over lines (the tagged exports of PubMed, EndNote and Web of Science: test_records_exports.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doiname import record_starts, records
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


def test_a_json_record_nested_too_deep_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A JSON record's key is read as other untrusted JSON is: its nesting checked before
    parsing (a parser's recursion would overflow Pyodide's small stack, not raise)."""
    import json

    parsed: list[str] = []
    real = json.loads

    def loads(text: str) -> Any:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr("json.loads", loads)
    deep = '{"id": "deep", "x": ' + "[" * 5_000 + "]" * 5_000 + "}"
    assert kinds([deep]) == [(1, 1, "json", None)]
    assert parsed == []  # refused before parsing
    assert kinds(['{"id": "flat", "x": [[1]]}']) == [(1, 1, "json", "flat")]
    assert len(parsed) == 1


def test_csv_rows_with_line_breaks_in_quoted_cells_need_the_hint() -> None:
    lines = ['id,title,doi', '1,"A title', 'over two lines",10.1000/1', '2,B,10.1000/2']
    assert kinds(lines, hint="csv") == [(1, 1, "line", None), (2, 3, "csv", None),
                                        (4, 4, "line", None)]
    # plain text: lines, the cell's second line going on with the first (lower case)
    assert [k[2] for k in kinds(lines)] == ["line", "reference", "line"]


def test_a_mixed_list_is_grouped_piece_by_piece() -> None:
    lines = ["Smith J. A title. J Stuff. 2020. doi:10.1000/1",
             "@article{k1,", "  doi = {10.1000/2},", "}",
             "TY  - JOUR", "DO  - 10.1000/3", "ER  - ",
             "Doe A. (2019). https://doi.org/10.1000/4"]
    assert kinds(lines) == [(1, 1, "line", None), (2, 4, "bibtex", "k1"),
                            (5, 7, "ris", None), (8, 8, "line", None)]


def test_only_a_bibtex_entrys_first_line_opens_one() -> None:
    # an entry opens with @type{key, (or the key alone, its comma on the next line), or
    # is an @string, @preamble or @comment; a handle or a formula with brackets is text
    lines = ["@SUM(1) 10.1000/z", "@nature (2020) see 10.1038/x1", "@Article{ k4 ",
             ", doi = {10.1000/4}}", '@String{jn = "J. Stuff"}', "@misc(k3, doi = {10.1000/3})"]
    assert kinds(lines) == [(1, 1, "line", None), (2, 2, "line", None), (3, 4, "bibtex", "k4"),
                            (5, 5, "bibtex", None), (6, 6, "bibtex", "k3")]


def test_a_record_that_never_closes_gives_its_lines_back() -> None:
    lines = ["@article{open,", "  doi = {10.1000/1},"] + ["x"] * (RECORD_MAX_LINES + 5) + [
        "@misc{ok, doi={10.1000/2}}"]
    got = kinds(lines)
    assert got[0] == (1, 1, "line", None) and got[-1][2:] == ("bibtex", "ok")
    # every line, in order: those given back one by one, those read after them as text
    # (the lower-case lines go on with each other: one wrapped reference)
    assert [g[0] for g in got[:RECORD_MAX_LINES]] == list(range(1, RECORD_MAX_LINES + 1))
    assert [g[1] + 1 for g in got[:-1]] == [g[0] for g in got[1:]]
    assert got[-2][2] == "reference" and got[-2][1] == len(lines) - 1
    assert kinds(["{", "{", "x"]) == [(1, 1, "line", None), (2, 2, "line", None),
                                      (3, 3, "line", None)]



def test_the_lines_an_open_record_gives_back_at_the_end_are_grouped_as_anywhere() -> None:
    # An entry still open when the input ends gives back its first line; the lines after
    # it are grouped as the same lines are when nothing was open before them: here a
    # reference wrapped over two lines (what a reading started at the second line,
    # Spark's split of the file, makes of them too).
    lines = ["@article{k1,", "  title = {A study", "Doe J. A title of", "mice in cages."]
    assert kinds(lines) == [(1, 1, "line", None), (2, 2, "line", None),
                            (3, 4, "reference", None)]
    assert kinds(lines[1:]) == [(1, 1, "line", None), (2, 3, "reference", None)]
    # each entry the next one starts before it closes ends there; the last, open at the
    # end, gives its first line back
    nested = ["@a{k,"] * 3 + ["x 10.1/x", "Doe J. A title of", "mice in"]
    assert kinds(nested) == [(1, 1, "bibtex", "k"), (2, 2, "bibtex", "k"),
                             (3, 3, "line", None), (4, 4, "line", None),
                             (5, 6, "reference", None)]


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
                                 "PMID- 1", "AID - 10.1/m [doi]", "      wrapped",
                                 '"', "doi = {10.1000/1}", "Doe J. A title of", "mice in",
                                 "https://doi.org/10.1/y", "12345", "1. Roe K,"]),
                max_size=60))
def test_every_line_is_in_exactly_one_record_in_order(lines: list[str]) -> None:
    seen: list[str] = []
    first = 1
    for r in iter_records(lines):
        assert r.first_line == first
        first = r.last_line + 1
        seen.extend(r.lines)
    assert seen == lines


@pytest.mark.parametrize("lines", [
    ["Hornak J. 1996. Neuropsychologia 34, 247-261. (doi:10.1016/ ", "0028-3932(95)00106-9)"],
    ["Davis M. Mol. Psychiatry 6, 13-34. (doi:10. ", "1038/sj.mp.4000812)"],
    ["Crawford F. Immunity. 8:675-682. doi:10.1016/ ", "S1074-7613(00)80572-5"],
    ["Lancet. 2020. https://doi.org/10.", "1016/S0140-6736(20)30183-5"],
])
def test_a_name_cut_by_the_line_break_goes_on_on_the_next_line(lines: list[str]) -> None:
    # the rest of a name a PDF's line break cut (after its "/", its "10." or a "."): one
    # reference, whose text extract reads joined (R21)
    assert kinds(lines) == [(1, 2, "reference", None)]


def test_a_names_last_group_on_the_next_line_goes_on_with_it() -> None:
    # the rest of a name cut before its "-" or "." (extract R21 reads them joined)
    for lines in (["Pediatr Nephrol 23:2111. doi: 10.1007/s00467-008-0811", "-4"],
                  ["Future Cardiol 11(1):27-37. doi:10.2217/fca", ".14.82"]):
        assert kinds(lines) == [(1, 2, "reference", None)], lines
    assert [k[2] for k in kinds(["Roe K. doi:10.1000/182", "- an item"])] == ["line", "line"]


def test_a_line_after_a_name_is_not_its_rest_when_it_starts_another_reference() -> None:
    assert [k[2] for k in kinds(["Roe K. A title. doi:10.1000/", "Smith, J. (2019). B."])] == [
        "line", "line"]
    # a comment or a list item after a line ending in a name (a file's last line, the next
    # file's first): no name's rest
    for line in ("% Exported from a reference manager", "- an item", "_x_ 1"):
        assert [k[2] for k in kinds(["score 10.5/20.", line])] == ["line", "line"]


def test_blank_lines_separate_records_without_rows_but_stay_lines_in_plain_text() -> None:
    assert kinds(["@a{k, doi={10.1/x}}", "", "", "plain line", ""]) == [
        (1, 1, "bibtex", "k"), (2, 2, "structure", None), (3, 3, "structure", None),
        (4, 4, "line", None), (5, 5, "line", None)]


def wrapped(lines: list[str]) -> list[tuple[int, int, str]]:
    return [(a, b, k) for a, b, k, _ in kinds(lines)]


def test_a_reference_wrapped_over_lines_is_one_record() -> None:
    """As a copy from a PDF gives it: the DOI's link, the rest of the title, the rest of
    the authors on the next line."""
    apa = ["Smith, J., & Doe, K. (2020). Deep learning of things. Nature, 521(7553),",
           "436-444. https://doi.org/10.1038/nature14539",
           "Roe, A. (2019). Another study. Science, 1(2), 3-4.",
           "https://doi.org/10.1126/science.1",
           "Poe, E. (2018). A third one. Cell, 5, 6.", "doi:10.1016/j.cell.2018.01.001"]
    assert wrapped(apa) == [(1, 2, "reference"), (3, 4, "reference"), (5, 6, "reference")]
    vancouver = ["1. Smith J, Doe K, Roe A, Poe E, Moe F,", "White B. A study of things in",
                 "mice. Lancet. 2020;395:497-506. doi: 10.1016/S0140-6736(20)30183-5.",
                 "2. Green C. Title. BMJ. 2019;1:2. DOI:", "10.1136/bmj.l1",
                 "[3] Black D. Title. JAMA. 2018.", "- Grey E. Title. NEJM. 2017."]
    assert wrapped(vancouver) == [(1, 3, "reference"), (4, 5, "reference"), (6, 6, "line"),
                                  (7, 7, "line")]


def test_a_name_cut_by_the_line_break_is_one_record() -> None:
    assert wrapped(["Doe J. Angew Chem. 2020. doi:10.1002/anie.2020", "12345",
                    "Doe J. Angew Chem. 2020. doi:10.1002/anie.", "202012345",
                    "Doe J. Nature. https://doi.org/10.1038/nature14", "539 more"]) == [
        (1, 2, "reference"), (3, 4, "reference"), (5, 6, "reference")]


def test_lines_that_start_their_own_reference_are_records_of_their_own() -> None:
    # a list of names or links; a heading; author-year starts; numbers, bullets, blanks
    assert wrapped(["10.1000/1", "10.1000/2", "doi:10.1000/3", "https://doi.org/10.1000/4",
                    "10/abcde", "see also 10.1000/5"]) == [(n, n, "line") for n in range(1, 7)]
    assert wrapped(["References", "https://doi.org/10.1000/1"]) == [(1, 1, "line"),
                                                                    (2, 2, "line")]
    assert wrapped(["Smith, J. (2020). Title. Journal 5", "Doe, K. (2019). Title.",
                    "Roe A. A title without a final period", "Poe E, Moe F. Title.",
                    "The end of the list", "", "continued after a blank line",
                    "A line", "1) a numbered one", "* a bulleted one", "\u2022 another"]) == [
        (n, n, "line") for n in range(1, 12)]


def test_a_wrapped_reference_is_bounded_and_the_stream_reads_one_line_ahead() -> None:
    lines = ["A title that goes on and"] + ["on and"] * (RECORD_MAX_LINES + 3)
    got = wrapped(lines)
    assert got[0] == (1, RECORD_MAX_LINES, "reference") and got[1][0] == RECORD_MAX_LINES + 1
    read: list[str] = []

    def source() -> Iterator[str]:
        for line in ["Doe J. A title. Cell. 2020.", "https://doi.org/10.1/x", "Roe K. Next.",
                     "never read"]:
            read.append(line)
            yield line

    first = next(iter_records(source()))
    assert (first.first_line, first.last_line, first.kind) == (1, 2, "reference")
    assert len(read) == 3  # the third line, to know the second was the last


def test_a_record_is_pointed_at_by_its_key_and_first_line() -> None:
    """A Batch row's record: the key, then the first author, year and title of a
    structured record, or the first line as written of a wrapped reference."""
    text = ("@article{smith2020,\n  author = {M{\\\"u}ller, Jo and Doe, Kim},\n"
            "  title = {Deep {L}earning   in the wild},\n  year = 2020,\n"
            "  doi = {10.1000/182}\n}\n"
            "TY  - JOUR\nAU  - Roe, Ann\nPY  - 2019/05/01\nTI  - A RIS title\nID  - r7\n"
            "DO  - 10.1000/183\nER  - \n"
            '{"id": "c1", "title": "CSL", "author": [{"family": "Lee"}], '
            '"issued": {"date-parts": [[2018]]}, "DOI": "10.1/x"}\n'
            "@misc{bare, doi = {10.1/y}}\n"
            "Smith J, Doe K. Deep learning in the wild and\n"
            "other places. Nature. 2020. https://doi.org/10.1038/x\n"
            "A plain line 10.1000/1\n")
    got = [(r.kind, r.label) for r in iter_records(text.splitlines())]
    assert got == [
        ("bibtex", "smith2020 · Müller (2020) Deep Learning in the wild"),
        ("ris", "r7 · Roe (2019) A RIS title"),
        ("json", "c1 · Lee (2018) CSL"),
        ("bibtex", "bare"),
        ("reference", "Smith J, Doe K. Deep learning in the wild and"),
        ("line", None),
    ]
    long = iter_records(["@article{k, title = {" + "word " * 60 + "}, doi = {10.1/z}}"])
    label = next(long).label
    assert label is not None and label.endswith("…") and len(label) == len("k · ") + 120



_FIELD = st.sampled_from(["author", "Author", "title", "TITLE", "year", "ti", "au", "py",
                          "date", "journal", "doi", "pages", "abstract"])
_VALUE = st.sampled_from(["{Smith, J. and Doe, K.}", "{ }", "{}", "{A {B} study}", '"Roe, A."',
                          "2020", "{n.d.}", "{May 2019}", "{M{\\\"u}ller, Jo}", "{10.1000/1}",
                          "{\\textit{Deep} learning}", "{}}", "{{"])


@given(st.lists(st.tuples(_FIELD, _VALUE), max_size=9))
def test_a_bibtex_label_read_until_its_parts_have_values_is_the_label_of_every_field(
        fields: list[tuple[str, str]]) -> None:
    """A BibTeX entry's label reads its fields only until its author, year and title have
    values (a field given twice keeps its first value): the label every field gives."""
    from doiname import record_names
    from doiname.verify import fields as verify_fields

    text = "@article{k, " + ", ".join(f"{name} = {value}" for name, value in fields) + "}"
    record_names._verify_fields()
    enough = record_names._ENOUGH
    assert enough == ("author", "year", "title")
    read = verify_fields.parse_record_fields(text, "bibtex", enough)
    every = verify_fields.parse_record_fields(text, "bibtex")
    assert all(every[name] == value for name, value in read.items())
    try:
        record_names._ENOUGH = ()
        whole = record_names.label_of("bibtex", "k", (text,))
    finally:
        record_names._ENOUGH = enough
    assert record_names.label_of("bibtex", "k", (text,)) == whole

def _depth_by_character(lines: list[str], quotes: bool) -> list[int]:
    """The brace depth after each line, read character by character (strings in JSON
    hide braces, with backslash escapes): the oracle of ``_Depth.feed``."""
    depth, in_string, out = 0, False, []
    for line in lines:
        escaped = False
        for c in line:
            if in_string:
                if escaped:
                    escaped = False
                elif c == "\\":
                    escaped = True
                elif c == '"':
                    in_string = False
            elif c == '"' and quotes:
                in_string = True
            elif c in ("{" if quotes else "{("):
                depth += 1
            elif c in ("}" if quotes else "})"):
                depth -= 1
        out.append(depth)
    return out


@given(st.lists(st.text(alphabet='{}()"\\ a', max_size=12), max_size=6), st.booleans())
def test_the_depth_of_braces_is_counted_as_read_character_by_character(
        lines: list[str], quotes: bool) -> None:
    depth = records._Depth(quotes=quotes)
    assert [depth.feed(line) for line in lines] == _depth_by_character(lines, quotes)


@given(st.text(alphabet="aAndinofthe tor&,;-\u2010\u2013/x1_.\u00e9\u0130 ", max_size=16))
def test_an_open_end_is_read_from_the_last_four_characters(text: str) -> None:
    """``continues`` asks whether a line ends mid-sentence of its last four characters
    only: the longest ending is a joining word of three letters after a word boundary,
    so the answer is the one a search along the whole line gives."""
    tail = text.rstrip()
    whole = record_starts._OPEN_END.search(tail) is not None
    assert (record_starts._OPEN_END.search(tail[-4:]) is not None) == whole
