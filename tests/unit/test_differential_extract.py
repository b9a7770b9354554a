"""The fast paths of extract give exactly the general path's matches (the oracle).

``extract`` takes a one-line regular expression for a name alone on its line, and
:func:`doiname.extract.plain.plain_names` for lines whose names are written plainly (or
need only the reader: escapes, proxy links); ``extract_general`` runs the scanner on every
text. Over generated reference lines, every fixture and every line of the benchmark, both
give the same matches: names, spans, texts, forms, findings with their positions,
alternative readings.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from doiname import forms
from doiname.extract import extract, extract_general
from doiname.extract.plain import Plain, plain_names
from doiname.model import Doi, make_doi

from .reference_text import bench_lines, fixture_lines, names, reference_lines


@settings(max_examples=800)
@given(reference_lines())
@example("Smith, J. (2019). A study. https://doi.org/10.1234/js.55555")
@example("10.1000/a 10.1000/A")  # R15 would merge equivalent neighbours: the scanner's
@example("x10.1234/abc doi 5 and https://doi.org/10/abcde")
@example("DOI: 10.4310/DUP.256")  # "10/" inside a name is no shortDOI
@example("doi 1.2.3.4")  # a label before an unreadable name: no "10" in the text
@example("https://doi-org.ezproxy.example.edu/10.1234/x%235555")
@example("10." * 50 + "10.1234/x")
def test_extract_fast_paths_give_the_scanners_matches(line: str) -> None:
    assert extract(line) == extract_general(line)


@settings(max_examples=500)
@given(st.lists(names(), min_size=1, max_size=4), st.sampled_from([" ", ", ", "; ", "\t"]))
def test_several_names_on_a_line(found: list[str], sep: str) -> None:
    line = sep.join(found)
    assert extract(line) == extract_general(line)


def test_every_fixture_and_bench_line() -> None:
    lines = fixture_lines() + bench_lines()
    taken = 0
    for line in lines:
        assert extract(line) == extract_general(line), line
        taken += plain_names(line) is not None
    assert taken > len(lines) // 2  # the fast path is what most of these lines take


def test_the_fast_path_is_taken_for_plain_and_escaped_names() -> None:
    plain = plain_names("Doe A. 2018. doi:10.1234/jm.2018.5 and DOI: 10.5555/x-1")
    assert plain == [Plain(13, 34, "doi-uri", "10.1234", "jm.2018.5", False),
                     Plain(39, 55, "label", "10.5555", "x-1", False)]
    proxy = plain_names("https://doi-org.ezproxy.example.edu/10.1234/x%235555")
    assert proxy is not None and proxy[0].form == "url" and proxy[0].read
    assert plain_names("nothing here, only 10.5 percent") == []
    # a sentence's final "." (R13 leaves it out and says so) and brackets in the suffix (R10)
    # are found here and read as the scanner reads them
    line = "Doe A. J Med. 2019. doi: 10.1234/xyz.55. PMID: 3155."
    assert plain_names(line) == [Plain(20, 39, "label", "10.1234", "xyz.55", True)]
    assert [f.code for f in extract(line)[0].findings] == ["trailing-punctuation"]
    line = "Lancet. 2020;395:497. https://doi.org/10.1016/S0140-6736(20)30183-5"
    assert plain_names(line) == [Plain(22, 67, "url", "10.1016", "S0140-6736(20)30183-5", True)]
    for other in ("10.1000/abc..", "see (10.1000/abc)", "10.1000/a(b", "10.1000/a(b)c)",
                  "doi: 10.abc/1", "https://doi.org/10/abcde", "10.1000/a&amp;b",
                  "10.1000/abc/full", "10.25/100 mg"):
        assert plain_names(other) is None, other


def test_make_doi_is_an_ordinary_doi() -> None:
    made = make_doi("10.1000", "182")
    assert type(made) is Doi and made == Doi("10.1000", "182")
    assert hash(made) == hash(Doi("10.1000", "182")) and str(made) == "10.1000/182"
    with pytest.raises(AttributeError):
        made.prefix = "10.1"  # type: ignore[misc]


_FRONT_OR_URL = (forms._FRONT, forms._GENERIC_URL)


def _may_hold_by_patterns(text: str) -> bool:
    """may_hold_one_name without its first-character shortcut (the oracle)."""
    lead = len(text) - len(text.lstrip())
    if lead >= len(text):
        return False
    if text[lead] == "1":
        return True
    end = len(text.rstrip())
    return any(p.match(text, lead, end) is not None for p in _FRONT_OR_URL)


@settings(max_examples=500)
@given(st.one_of(reference_lines(), st.text(max_size=20),
                 st.from_regex(re.compile(r"\s*(doi|urn|info|hdl|https?|www|dx|//|1)\S*",
                                          re.I))))
def test_may_hold_one_name_shortcut(text: str) -> None:
    assert forms.may_hold_one_name(text) == _may_hold_by_patterns(text)
