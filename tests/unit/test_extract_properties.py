"""extract()'s properties on any text (never raises, spans sound, names read back, the
fast paths agree with the scanner) and its linear time: the lines of the extract package
executed for pathological inputs (a step count, never a timing) grow linearly."""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any
from unittest import mock

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import doiname as d
from doiname.extract import Match, ends, extract
from doiname.extract.clean import needs_cleaning

from .strategies import SICI, dois

# the package itself (it also exports a function of the same name) and its scanner
extract_module = importlib.import_module("doiname.extract")
scan_module = importlib.import_module("doiname.extract.scan")
EXTRACT_DIR = str(Path(str(extract_module.__file__)).parent)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "references"
REFERENCE_LISTS = sorted(p for p in FIXTURES.iterdir() if ".expected." not in p.name)


# ------------------------------------------------------------------------- properties

TOKENS = st.sampled_from([
    "10.", "10.1000", "10.21", "/", "182", "abc", "X", "(", ")", "[", "]", "{", "}", "<", ">",
    "</a>", "<br>", "<wbr>", ".", ",", ";", ":", "#", "%", "%2F", "%zz", "&lt;", "&amp;",
    "&#8203;", "&nbsp;", "\\/", "\\_", "\u200b", "\u00ad", "\ufeff", "\u202e", " ", "\n",
    "\r\n", '"', "'", "doi:", "DOI ", "urn:doi:", "https://", "doi.org/", "doi-org.px.edu/",
    "login?url=", "?qurl=", "?id=", "&", "?", "é", "\U0001f600", "\x00", "http://x.org/",
    '<a href="', '">',
])
texty = st.one_of(st.text(), st.lists(TOKENS, max_size=40).map("".join))
CLEANING = {"zero-width-dropped", "html-entity", "backslash-escape", "wbr-dropped"}


def check_invariants(text: str, found: list[Match]) -> None:
    last_end = 0
    for m in found:
        assert 0 <= m.start < m.end <= len(text)
        assert text[m.start:m.end] == m.text
        assert m.start >= last_end  # in order, no overlaps
        last_end = m.end
        if m.kind == "short-doi":  # R17: an alias, 10/<letters and digits>, not a DOI name
            assert m.doi.prefix == "10" and m.doi.suffix.isalnum() and not m.ok
            assert m.short == f"10/{m.doi.suffix}"
            continue
        if any(f.source.endswith("extract R18") for f in m.findings):  # a labelled unreadable name
            assert not m.ok and m.doi.prefix[:1].isdigit()
            continue
        assert m.doi.prefix.startswith("10.")
        assert m.doi.suffix
        for f in m.findings:
            assert 0 <= f.start <= f.end <= len(text)
        if m.ok:
            assert d.parse(d.to_url(m.doi)) == m.doi  # a valid name
            if not any(f.code in CLEANING for f in m.findings):
                try:
                    again = d.parse(m.text)
                except d.DoiError:
                    continue
                assert again == m.doi


@settings(max_examples=400)
@given(texty)
def test_extract_never_raises_and_spans_are_sound(text: str) -> None:
    check_invariants(text, extract(text))


@settings(max_examples=200)
@given(dois(), st.sampled_from(["See {} now.", "({})", "<a href=\"{}\">x</a>", "{}", "- {};"]))
def test_a_strict_link_to_any_name_is_found_and_read_back(doi: d.Doi, frame: str) -> None:
    url = d.to_url(doi, level="strict")
    path = url[len("https://doi.org/"):]
    # strict encoding keeps ( ) ' ; ! * : @ & = + $ raw; skip names where those would be
    # read as the text around the link (R9, R10, R12, R13)
    depth = 0
    for ch in path:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        assume(depth >= 0)
    assume(depth == 0 and path[-1] not in ".,;:!?'*" and "'" not in path and ";" not in path)
    text = frame.format(url)
    found = extract(text)
    check_invariants(text, found)
    assert [m.doi for m in found] == [doi]
    assert found[0].text == url


@settings(max_examples=200)
@given(st.lists(st.sampled_from([
    "10.1000/182", "10.21/2V9FYC24", "doi:10.1038/nature14539",
    "https://doi.org/10.1002/%28SICI%291097-4571%28199806%2949%3A8%3C693%3A%3AAID-ASI4%3E3.0.CO%3B2-O",
    SICI, "10.3319/TAO.2009.05.25.02(IWNOP)", "urn:doi:10.1000:182",
]), min_size=1, max_size=6), st.sampled_from([" ", "\n", ", ", "; ", " and ", "\t"]))
def test_lists_of_known_names_are_found_in_order(items: list[str], sep: str) -> None:
    text = sep.join(items) + "."
    assert [str(m.doi) for m in extract(text)] == [str(d.parse(i)) for i in items]


FAST_LINES = st.builds(
    lambda lead, link, reg, suffix, trail: f"{lead}{link}10.{reg}/{suffix}{trail}",
    st.sampled_from(["", " ", "\t ", "  "]),
    st.sampled_from(["", "https://doi.org/", "http://dx.doi.org/", "https://dx.doi.org/"]),
    st.from_regex(r"[0-9]{4,9}", fullmatch=True),
    st.from_regex(r"[A-Za-z0-9_/\-]+(\.[A-Za-z0-9_/\-]+)*", fullmatch=True),
    st.sampled_from(["", " ", "\t"]),
)


@settings(max_examples=300)
@given(FAST_LINES)
def test_whole_line_fast_path_agrees_with_the_scanner(line: str) -> None:
    assert extract_module._FAST_LINE_RE.fullmatch(line) is not None  # the fast path is taken
    assert extract(line) == scan_module.scan(line, False)


@pytest.mark.parametrize("path", REFERENCE_LISTS, ids=lambda p: p.name)
def test_every_fixture_line_gives_what_the_scanner_gives(path: Path) -> None:
    for line in path.read_text(encoding="utf-8").splitlines():
        slow = scan_module.scan(line, needs_cleaning(line))
        assert extract(line) == slow


# ------------------------------------------------------------------------ linear time


def count_lines(text: str) -> int:
    """Lines of the extract package executed for ``text`` (a step count, not a timing)."""
    steps = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal steps
        if not frame.f_code.co_filename.startswith(EXTRACT_DIR):
            return None
        if event == "line":
            steps += 1
        return tracer

    sys.settrace(tracer)
    try:
        extract(text)
    finally:
        sys.settrace(None)
    return steps


PATHOLOGICAL: dict[str, Callable[[int], str]] = {
    "10. repeated": lambda k: "10." * k,
    "open parens": lambda k: "10.1000/" + "(" * k,
    "nested names": lambda k: "10.1000/(" * (k // 4),
    "open angles": lambda k: "doi:10.1/" + "<" * k,
    "closers": lambda k: "10.1000/a" + ")" * k,
    "trailing dots": lambda k: "10.1000/a" + "." * k,
    "many names": lambda k: "10.1000/a;" * k,
    "comma lists": lambda k: "10.1000/a," * k,
    "short registrants": lambda k: "10.5/" * k,
    "two-digit, numbers": lambda k: "10.25/" * k,
    "digits and dots": lambda k: "10.25/" + "1." * k + " x",
    "label spaces": lambda k: "doi" + " " * k + "10.1000/1",
    "long token": lambda k: "http://x.org/" + "a" * k + "/10.1000/1",
    "doi.org repeated": lambda k: "https://doi.org/" * k + "10.1000/1",
    "links and texts": lambda k: '<a href="https://doi.org/10.1000/1">10.1000/1</a>' * (k // 20),
    "entities": lambda k: "10.1000/" + "&lt;" * k,
    "zero width": lambda k: "10.1000/a" + "\u200b" * k + "b",
    "zero width anchors": lambda k: "\u200b10.1000/a" * (k // 5),
    "tags": lambda k: "10.1000/a" + "<b" * k,
    "percent": lambda k: "https://doi.org/10.1000/" + "%" * k,
}


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_steps_grow_linearly(name: str) -> None:
    make = PATHOLOGICAL[name]
    small, large = count_lines(make(1500)), count_lines(make(6000))
    # 4x the input: a linear scanner does about 4x the steps, a quadratic one 16x
    assert large <= 5 * small + 200, (small, large)


def test_one_megabyte_inputs_finish() -> None:
    big_refs = ((FIXTURES / "apa.txt").read_text(encoding="utf-8") + "\n") * 300
    assert len(big_refs) > 900_000
    assert len(extract(big_refs)) == 12 * 300
    for text in ("10." * 350_000, "10.1/" + "(" * 1_000_000, "doi:10.1/" + "(" * 1_000_000,
                 "10.1000/a," * 100_000, "&lt;" * 250_000 + "10.1000/x"):
        check_invariants(text, extract(text))


_SUFFIX_PIECES = [*"aZ09._/-:%+=@!$*~#?&'\"`“«,;|()[]{}<> \t\n\x00\x85", "é", "٣", "\u00a0",
                  "\u2010", "\u200b", "10.1", "<b>", "</a>", "|pmid=", "}}", "(1)", ";2"]


@settings(max_examples=600)
@given(st.lists(st.sampled_from(_SUFFIX_PIECES), max_size=30).map("".join),
       st.sampled_from(["", "?#", "&#", "'", "?#'", "&#'"]))
def test_the_suffix_walk_skips_only_what_needs_no_decision(text: str, stops: str) -> None:
    """scan_suffix (R8-R12) skips runs of characters that need no decision with one
    pattern: it stops where it stops when it looks at every character."""
    fast = ends.scan_suffix(text, 0, len(text), stops)
    with mock.patch.object(ends, "_PLAIN_RE", re.compile("")):
        assert fast == ends.scan_suffix(text, 0, len(text), stops)
