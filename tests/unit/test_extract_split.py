"""R22: a name cut between two of its digits by a space or a line break is read short,
with a warning that names the joined reading, offered as a candidate (never joined
silently, never a silent green)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from doiname.extract import RULES, extract, extract_general
from doiname.inspection import inspect

CUT_BY_SPACE = ("Nature, 521(7553), 436-444. https://doi.org/10.1038/nature14 539")
CUT_BY_BREAK = "10.1002/anie.2020\n12345"


def test_a_name_cut_by_a_space_is_a_warning_with_the_joined_reading() -> None:
    (m,) = extract(CUT_BY_SPACE)
    assert str(m.doi) == "10.1038/nature14"
    (f,) = m.findings
    assert (f.code, f.severity, f.source) == ("split-name", "warning", "extract R22")
    assert "10.1038/nature14539" in f.message and "a space" in f.message
    assert f.repair == "https://doi.org/10.1038/nature14539"
    (alt,) = m.alternatives
    assert (str(alt.doi), alt.how) == ("10.1038/nature14539", "joined")
    assert CUT_BY_SPACE[alt.start:alt.end] == "https://doi.org/10.1038/nature14 539"


def test_a_name_cut_by_a_line_break_is_a_warning_with_the_joined_reading() -> None:
    (m,) = extract(CUT_BY_BREAK)
    assert str(m.doi) == "10.1002/anie.2020"
    assert [f.code for f in m.findings] == ["split-name"]
    assert "a line break" in m.findings[0].message
    assert [str(a.doi) for a in m.alternatives] == ["10.1002/anie.202012345"]


def test_inspect_is_never_green_for_a_cut_name_and_offers_both() -> None:
    for text, joined in ((CUT_BY_SPACE, "10.1038/nature14539"),
                         (CUT_BY_BREAK, "10.1002/anie.202012345")):
        found = inspect(text)
        first = found.candidates[0]
        assert first.status == "warning", text
        assert joined in [str(c.doi) for c in found.candidates], text


def test_digits_that_go_on_into_the_sentence_or_words_are_not_a_cut() -> None:
    for text in ("10.1000/182 2015 was a good year", "10.1000/182 and 539",
                 "10.1000/abc 539", "10.1000/182  539", "10.1000/182\n\n539",
                 "10.1000/182 1234567890123", "10.1000/182 539 x"):
        assert all(not m.alternatives or all(a.how != "joined" for a in m.alternatives)
                   for m in extract(text)), text
        assert all(f.code != "split-name" for m in extract(text) for f in m.findings), text


def test_the_rule_is_listed() -> None:
    assert RULES["R22"].source == "policy" and "split-name" in RULES["R22"].summary


@given(st.text(alphabet="0123456789 \n.x/", max_size=12),
       st.sampled_from(["10.1000/a1", "https://doi.org/10.1038/n14", "doi:10.5555/12"]))
def test_fast_paths_agree_with_the_scanner_around_cut_digits(tail: str, head: str) -> None:
    text = head + tail
    assert extract(text) == extract_general(text)
