"""check() and describe_code_points(): a table of rules, exact positions and codes.

Code points used here have had the same properties in Unicode 13 to 16 (host CPython
3.11 is Unicode 14, the generated tables 15 and 13, Pyodide 16).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import doiname as d
from doiname.codepoints import CodePoint, describe_code_points
from doiname.findings import LONG_LINK, LONG_NAME, check

from .strategies import dois

# (code, severity, start, end, input_start, input_end, in_name)
Row = tuple[str, str, int, int, int | None, int | None, bool]


def rows(text: str | d.Doi) -> list[Row]:
    return [(f.code, f.severity, f.start, f.end, f.input_start, f.input_end, f.in_name)
            for f in check(text)]


def codes(text: str | d.Doi) -> list[str]:
    return [f.code for f in check(text)]


W, N, E = "warning", "info", "error"  # N: a note (info)

CASES: list[tuple[str, list[Row]]] = [
    # Nothing to say about a plain name.
    ("10.1000/182", []),
    ("10.1000/abc-DEF_1.2;(3)/x", []),
    # Reader notes are findings about the input.
    ("  10.1000/182\n", [("whitespace-trimmed", N, 0, 14, 0, 14, False)]),
    # 002 §4.3: reserved suffix start.
    ("10.1000/X/abc", [("reserved-suffix-start", W, 8, 10, 8, 10, True)]),
    ("10.1000/1/2", [("reserved-suffix-start", W, 8, 10, 8, 10, True)]),
    ("10.1000/XY/abc", []),
    ("10.1000//abc", []),  # "/" then "a": the second character is not "/"
    # Lookalike dashes, minus, quotes, slashes, spaces.
    ("10.1000/a\u2010b", [("lookalike-dash", W, 9, 10, 9, 10, True)]),
    ("10.1000/a\u2013b\u2014c", [("lookalike-dash", W, 9, 10, 9, 10, True),
                                 ("lookalike-dash", W, 11, 12, 11, 12, True)]),
    ("10.1000/x\u2212y", [("lookalike-dash", W, 9, 10, 9, 10, True)]),
    ("10.1000/\u201cx\u201d", [("lookalike-quote", W, 8, 9, 8, 9, True),
                               ("lookalike-quote", W, 10, 11, 10, 11, True)]),
    ("10.1000/a\u2019b", [("lookalike-quote", W, 9, 10, 9, 10, True)]),
    ("10.1000/a\u2044b", [("lookalike-slash", W, 9, 10, 9, 10, True)]),
    ("10.1000/a\u2215b", [("lookalike-slash", W, 9, 10, 9, 10, True)]),
    ("10.1000/a\u00a0b", [("lookalike-space", W, 9, 10, 9, 10, True)]),
    ("10.1000/a\u2024b", [("lookalike-character", W, 9, 10, 9, 10, True)]),
    # An escaped lookalike: the finding points at the name and at the nine input characters.
    ("10.1000/a%E2%80%90b", [("percent-decoded", N, 0, 19, 0, 19, False),
                             ("lookalike-dash", W, 9, 10, 9, 18, True)]),
    # Letters: other scripts in a Latin word, whole-script lookalikes, compatibility forms.
    ("10.1000/P\u0430per", [("mixed-scripts", W, 8, 13, 8, 13, True),
                            ("lookalike-letter", W, 9, 10, 9, 10, True)]),
    ("10.1000/\u0441\u043e\u0440", [("lookalike-letter", W, 8, 9, 8, 9, True),
                                    ("lookalike-letter", W, 9, 10, 9, 10, True),
                                    ("lookalike-letter", W, 10, 11, 10, 11, True)]),
    ("10.1000/\u212a", [("lookalike-letter", W, 8, 9, 8, 9, True)]),
    ("10.1000/\uff21b", [("lookalike-letter", W, 8, 9, 8, 9, True)]),
    ("10.1000/x.\u0399\u039f", [("lookalike-letter", W, 10, 11, 10, 11, True),
                                ("lookalike-letter", W, 11, 12, 11, 12, True)]),
    # A Russian word looks like no Latin word: only the Crossref note, once for the word.
    ("10.1000/\u0436\u0443\u0436", [("outside-crossref-set", N, 8, 11, 8, 11, True)]),
    # A run whose characters were all named before is not named again.
    ("10.1000/\u0436-\u0436\u0436", [("outside-crossref-set", N, 8, 9, 8, 9, True)]),
    ("10.1000/\u0436-\u0436\u0443", [("outside-crossref-set", N, 8, 9, 8, 9, True),
                                     ("outside-crossref-set", N, 10, 12, 10, 12, True)]),
    # Mixed scripts without lookalikes; Japanese mixes Han and kana legitimately.
    ("10.1000/ab\u0436", [("mixed-scripts", W, 8, 11, 8, 11, True),
                          ("outside-crossref-set", N, 10, 11, 10, 11, True)]),
    ("10.1000/\u65e5\u672c\u3054", [("outside-crossref-set", N, 8, 11, 8, 11, True)]),
    ("10.1000/T\u30b7\u30e3\u30c4", [("outside-crossref-set", N, 9, 12, 9, 12, True)]),
    ("10.1000/\u0436a\u03b1", [("outside-crossref-set", N, 8, 9, 8, 9, True),
                               ("mixed-scripts", W, 8, 11, 8, 11, True),
                               ("lookalike-letter", W, 10, 11, 10, 11, True)]),
    # Combining marks: the sequence (base + marks) is pointed at.
    ("10.1000/cafe\u0301", [("combining-mark", W, 11, 13, 11, 13, True)]),
    ("10.1000/a\u0301\u0302b", [("combining-mark", W, 8, 11, 8, 11, True)]),
    ("10.1000/\u0301x", [("combining-mark", W, 8, 9, 8, 9, True)]),  # nothing to join but "/"
    # A precomposed letter is only outside Crossref's set.
    ("10.1000/caf\u00e9", [("outside-crossref-set", N, 11, 12, 11, 12, True)]),
    # Double encoding: %2523 decodes once to %23.
    ("10.1000/a%2523b", [("percent-decoded", N, 0, 15, 0, 15, False),
                         ("percent-escape-in-name", W, 9, 12, 9, 14, True)]),
    # Spaces and ASCII outside Crossref's set (one finding per distinct character).
    ("10.1000/a b", [("space-in-name", W, 9, 10, 9, 10, True)]),
    ("10.1000/a<b>c<", [("outside-crossref-set", N, 9, 10, 9, 10, True),
                        ("outside-crossref-set", N, 11, 12, 11, 12, True)]),
    ("10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O",
     [("outside-crossref-set", N, 33, 34, 33, 34, True),
      ("outside-crossref-set", N, 35, 36, 35, 36, True),
      ("outside-crossref-set", N, 49, 50, 49, 50, True)]),
    # Right-to-left letters.
    ("10.1000/\u05d0", [("outside-crossref-set", N, 8, 9, 8, 9, True),
                        ("right-to-left", N, 8, 9, 8, 9, True)]),
    # Parse errors: one error finding, positions in the input.
    ("", [("empty", E, 0, 0, 0, 0, False)]),
    ("10.1000/50%zz", [("bad-percent", E, 10, 13, 10, 13, False)]),
    ("11.1000/x", [("bad-prefix", E, 1, 2, 1, 2, False)]),
    ("10/abcde", [("short-doi", E, 0, 8, 0, 8, False)]),
    ("10.1000/a\u200bb", [("not-graphic", E, 9, 10, 9, 10, False)]),
    # Bidirectional controls are not Graphic (003 ch. 2): the parse error names them.
    ("10.1000/a\u202eb", [("not-graphic", E, 9, 10, 9, 10, False)]),
    ("10.1000/a%E2%80%AEb", [("not-graphic", E, 9, 18, 9, 18, False)]),
    ("doi:10.1000/a#b", [("uri-fragment", E, 13, 14, 13, 14, False)]),
    # ... with the lookalikes of the input, which often explain the error.
    ("10.1000\u2215abc", [("no-slash", E, 0, 11, 0, 11, False),
                          ("lookalike-slash", W, 7, 8, 7, 8, False)]),
    ("\uff11\uff10.1000/x", [("bad-prefix", E, 0, 1, 0, 1, False),
                             ("lookalike-letter", W, 0, 1, 0, 1, False),
                             ("lookalike-letter", W, 1, 2, 1, 2, False)]),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[repr(c[0])[:40] for c in CASES])
def test_rules(text: str, expected: list[Row]) -> None:
    assert rows(text) == expected


def test_the_example_name_has_no_finding() -> None:
    assert check("10.1000/182") == []
    assert check(d.Doi("10.1000", "182")) == []
    assert check("https://doi.org/10.1000/182") == []


def test_a_doi_value_is_checked_as_it_is() -> None:
    assert rows(d.Doi("10.1000", "ab\u2010c")) == [("lookalike-dash", W, 10, 11, 10, 11, True)]
    # No decoding: %23 in a Doi is in the name.
    assert codes(d.Doi("10.1000", "a%23b")) == ["percent-escape-in-name"]
    # A Doi is not validated when made: check says what parse would reject.
    assert rows(d.Doi("10.1000", "a\u202eb")) == [("not-graphic", E, 9, 10, 9, 10, False)]
    assert codes(d.Doi("10.1000", "")) == ["empty-suffix"]
    assert codes(d.Doi("11.1000", "x")) == ["bad-prefix"]


@given(st.text(), st.text(alphabet=st.characters(codec=None)))
def test_check_never_raises_on_a_doi_value(prefix: str, suffix: str) -> None:
    doi = d.Doi(prefix, suffix)
    found = check(doi)
    _valid(str(doi), found)
    assert [f.severity for f in found].count("error") <= 1


def test_positions_map_through_url_forms() -> None:
    url = "https://doi.org/10.1000/P%D0%B0per"
    found = check(url)
    assert [f.code for f in found] == ["percent-decoded", "mixed-scripts", "lookalike-letter"]
    letter = found[-1]
    assert (letter.start, letter.end) == (9, 10)
    assert url[letter.input_start:letter.input_end] == "%D0%B0"
    urn = check("https://doi.org/urn:doi:10.1000:a\u2010b")
    dash = next(f for f in urn if f.code == "lookalike-dash")
    assert (dash.start, dash.end, dash.input_start, dash.input_end) == (9, 10, 33, 34)


def test_length_thresholds() -> None:
    name = "10.1000/" + "a" * (LONG_NAME - 8)
    assert len(name) == LONG_NAME and check(name) == []
    assert rows(name + "b") == [("long-name", N, 0, LONG_NAME + 1, 0, LONG_NAME + 1, True)]
    # The link, not the name, passes LONG_LINK: each é is six characters in a link.
    long_link = "10.1000/" + "\u00e9" * (LONG_LINK // 6 + 1)
    assert len(long_link) < LONG_LINK < len(d.to_url(long_link))
    assert codes(long_link) == ["very-long-link", "outside-crossref-set"]
    assert codes("10.1000/" + "a" * LONG_LINK) == ["very-long-link"]


def test_messages_name_the_code_point_and_what_it_looks_like() -> None:
    (dash,) = check("10.1000/a\u2212b")
    assert "U+2212 MINUS SIGN" in dash.message and "U+002D HYPHEN-MINUS" in dash.message
    # the source is written in the one citation vocabulary (doiname.citations)
    assert "character 10" in dash.message and dash.source == "003 ch. 6; UTS #39"
    mixed, letter = check("10.1000/P\u0430per")
    assert "Latin and Cyrillic" in mixed.message
    assert "U+0430 CYRILLIC SMALL LETTER A" in letter.message and "“a”" in letter.message
    (reserved,) = check("10.1000/X/abc")
    assert reserved.source == "002 §4.3" and "“X/”" in reserved.message
    (info,) = [f for f in check("10.1000/a<b<") if f.code == "outside-crossref-set"]
    assert "2 times" in info.message and info.source == "Crossref suffix guidance"
    (run,) = check("10.1000/\u65e5\u672c\u8a9e\u306e\u8ad6\u6587")
    assert run.message.startswith("“日本語の論文” (characters 9–14: U+65E5 CJK UNIFIED "
                                  "IDEOGRAPH-65E5, U+672C CJK UNIFIED IDEOGRAPH-672C, U+8A9E "
                                  "CJK UNIFIED IDEOGRAPH-8A9E and 3 more) is outside")
    (long_run,) = check("10.1000/" + "\u00e9" * 50)
    assert "\u00e9" * 40 + "…”" in long_run.message and "\u00e9" * 41 not in long_run.message
    assert "“é” can also be spelled decomposed" in long_run.message
    (mark,) = check("10.1000/e\u0301")
    assert "U+00E9" in mark.message and mark.source == "003 ch. 2 note 1"
    (esc,) = [f for f in check("10.1000/a%2523b") if f.code == "percent-escape-in-name"]
    assert "“#”" in esc.message and "%2523" in esc.message


@pytest.mark.parametrize(("control", "name"), [
    ("\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("\u202a", "U+202A LEFT-TO-RIGHT EMBEDDING"),
    ("\u2067", "U+2067 RIGHT-TO-LEFT ISOLATE"),
    ("\u200f", "U+200F RIGHT-TO-LEFT MARK"),
])
def test_bidi_controls_are_named(control: str, name: str) -> None:
    (f,) = check(f"10.1000/ab{control}c")
    assert (f.code, f.severity, f.start, f.in_name) == ("not-graphic", "error", 10, False)
    assert name in f.message and "bidirectional control" in f.message


def test_other_scripts_are_named_with_their_article() -> None:
    (f,) = check("10.1000/\u0441\u043e\u0440")[:1]
    assert "is a Cyrillic character" in f.message
    (g,) = [x for x in check("10.1000/x\u0661") if x.code == "lookalike-letter"]
    assert "is an Arabic character that looks like “1”" in g.message


def test_error_finding_is_the_parse_error() -> None:
    with pytest.raises(d.DoiError) as info:
        d.parse("10.1000/50%zz")
    (f,) = check("10.1000/50%zz")
    assert (f.code, f.message, f.start) == (info.value.code, info.value.message,
                                            info.value.position)


def test_describe_code_points() -> None:
    text = "doi:10.1000/a%E2%80%90b"
    cps = describe_code_points(text)
    assert "".join(c.char for c in cps) == "10.1000/a\u2010b"
    dash = cps[9]
    assert dash == CodePoint("\u2010", "U+2010", "HYPHEN", "Pd", "Common", 13, 22, "-", True)
    assert cps[8] == CodePoint("a", "U+0061", "LATIN SMALL LETTER A", "Ll", "Latin", 12, 13)
    assert describe_code_points("10.1000/\u0430")[-1].script == "Cyrillic"
    bad = describe_code_points("x\u2215")
    assert [(c.code_point, c.in_name, c.looks_like) for c in bad] == [
        ("U+0078", False, ""), ("U+2215", False, "/")]
    assert describe_code_points("") == []
    assert describe_code_points("\x00")[0].name == "control"


# --- properties -------------------------------------------------------------------------

KEBAB = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
anything = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(codec=None)),  # surrogates and all
    st.builds(lambda a, b: "10.1000/" + a + b, st.text(), st.text()),
    st.builds(lambda s: "https://doi.org/10.1000/" + s, st.text(alphabet="%25AEae0-/\u0301")),
)


def _valid(text: str, found: list[d.Finding]) -> None:
    keys = []
    for f in found:
        assert KEBAB.fullmatch(f.code), f.code
        assert f.severity in ("error", "warning", "info")
        assert f.message and f.source
        assert f.input_start is not None and f.input_end is not None
        assert 0 <= f.input_start <= f.input_end <= len(text)
        keys.append((f.input_start, f.input_end))
    assert keys == sorted(keys)


@given(anything)
def test_check_never_raises_and_positions_are_in_range(text: str) -> None:
    found = check(text)
    _valid(text, found)
    try:
        doi = d.parse(text)
    except d.DoiError:
        assert [f.severity for f in found].count("error") == 1
        return
    name = str(doi)
    assert all(f.severity != "error" for f in found)
    for f in found:
        if f.in_name:
            assert 0 <= f.start <= f.end <= len(name)


@given(dois())
def test_name_findings_do_not_depend_on_the_form(doi: d.Doi) -> None:
    def name_rows(x: str | d.Doi) -> list[tuple[str, int, int]]:
        return [(f.code, f.start, f.end) for f in check(x) if f.in_name]

    expected = name_rows(doi)
    for form in (d.to_url(doi), d.to_uri(doi), d.to_urn_url(doi)):
        assert name_rows(form) == expected


@given(st.from_regex(r"10\.[0-9]{1,6}/[A-Za-z0-9]{1,200}", fullmatch=True))
def test_ascii_letters_and_digits_give_no_warnings(name: str) -> None:
    found = check(name)
    assert all(f.severity == "info" for f in found)
    assert [f.code for f in found] == (["long-name"] if len(name) > LONG_NAME else [])


@given(st.text(alphabet=st.characters(categories=["L", "M", "N", "P", "S", "Zs"]),
               min_size=1, max_size=40))
def test_describe_code_points_covers_the_name(suffix: str) -> None:
    text = "10.1000/" + suffix
    cps = describe_code_points(text)
    try:
        name = str(d.parse(text))
    except d.DoiError:
        assert "".join(c.char for c in cps) == text
        return
    assert "".join(c.char for c in cps) == name
    assert all(text[c.input_start:c.input_end] for c in cps)
