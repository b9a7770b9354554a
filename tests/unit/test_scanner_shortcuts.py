"""The scanner's own shortcuts decide as its rules do, one step at a time.

* :func:`doiname.extract.ends.scan_suffix` takes, with its run of plain characters, a pair
  of brackets around them, a ``<`` that is no tag and a ``;`` before a digit (SICI names)
  in one pattern: the walk of one character at a time (the plain run alone) ends every
  suffix at the same place.
* :func:`doiname.extract.scan.r15_repeats`: a link's text that repeats the link is not
  read again, R15 merging it into the link: the matches are those of reading it.
"""

from __future__ import annotations

import importlib
import re
from unittest import mock

from hypothesis import example, given, settings
from hypothesis import strategies as st

from doiname.extract import ends, extract_general
from doiname.extract.clean import needs_cleaning

#: The scanner's module (``doiname.extract.scan`` is also the name of its function).
_SCAN = importlib.import_module("doiname.extract.scan")
_WALK = re.compile(r"[\w./\-:%+=@!$*~]*")

_SUFFIX_PIECES = st.sampled_from([
    "a", "1", "é", ".", "/", "-", ":", "(", ")", "[", "]", "{", "}", "<", ">", ";", ",", "|",
    "?", "#", "&", "'", '"', " ", "\t", "\n", "\x01", "10.1", "<a", "</", "<!", "|x=", "}}",
    "CO;2-O", ";1", "(SICI)", "<693::AID-ASI4>",
])


@settings(max_examples=1500)
@given(st.lists(_SUFFIX_PIECES, max_size=12).map("".join), st.integers(0, 3),
       st.sampled_from(["", "?#", "&#", "'", "&#'"]))
@example("(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O rest", 0, "")
def test_scan_suffix_ends_where_the_walk_ends(s: str, at: int, stops: str) -> None:
    i = min(at, len(s))
    fast = ends.scan_suffix(s, i, len(s), stops)
    with mock.patch.object(ends, "_PLAIN_RE", _WALK):
        assert ends.scan_suffix(s, i, len(s), stops) == fast


_LINKS = st.sampled_from([
    "https://doi.org/10.1234/abc.5", "http://dx.doi.org/10.1234/abc.5", "10.1234/abc.5",
    "doi:10.1234/abc.5", "https://doi.org/10.1234/ABC.5", "https://doi.org/10.1234/abc.5.",
    "https://doi.org/10.1234/abc.5..", "10.1234/abc.5..", "https://doi.org/10.1234/a%2Fb",
    "https://doi-org.proxy.example.edu/10.1234/abc.5",
    "https://example.org/?u=https://doi.org/10.1234/abc.5", "10.12/ab1",
    "10.1234/abc.5/full", "https://doi.org/10.1234/(a)b", "10.1234/abc-", "10.1234/ab\u200bc",
    "10.1234/abc.5&amp;x", "10.1234/a b",
])
_GAPS = st.sampled_from(['">', '" >', '">\n', "'>", '"><b>', '"> ', "](", ">",
                         '" title="doi:10/abc">',
                         '" data-x="10/ab">', '" class="DOI">', '" title="x">', " "])
_TAILS = st.sampled_from(["</a>", "</a>.", "</a> 10.1234/x", "</a>)", "", ")", " 567",
                          "</a>\n12", "</b></a>", "</a> and 10.1234/abc.5"])


@settings(max_examples=1500)
@given(st.sampled_from(["<a href=\"", "[", "", "x "]), _LINKS, _GAPS, _LINKS, _TAILS)
@example('<a href="', "https://doi.org/10.1234/js.5", '">', "https://doi.org/10.1234/js.5",
         "</a>")
@example('<a href="', "10.1234/abc.5", '">\n', "10.1234/abc.5..", "</a>")  # R13 keeps
@example('<a href="', "10.1234/abc.5", '" title="doi:10/abc">', "10.1234/abc.5", "")  # R17
def test_a_link_text_not_read_again_gives_the_matches_of_reading_it(
        head: str, href: str, gap: str, shown: str, tail: str) -> None:
    text = head + href + gap + shown + tail
    found = _SCAN.scan(text, needs_cleaning(text))
    with mock.patch.object(_SCAN, "r15_repeats", lambda *args: False):
        assert _SCAN.scan(text, needs_cleaning(text)) == found
    assert extract_general(text) == found


def test_the_link_text_of_an_anchor_is_not_read_again() -> None:
    text = '<a href="https://doi.org/10.1234/js.5">https://doi.org/10.1234/js.5</a>'
    with mock.patch.object(_SCAN, "make_match", wraps=_SCAN.make_match) as made:
        (m,) = extract_general(text)
    assert made.call_count == 1
    assert (m.start, m.end, m.form) == (9, 37, "url")
    assert [f.code for f in m.findings] == ["duplicate-link-text"]
    assert (m.findings[0].start, m.findings[0].end) == (39, 67)
