"""extract(): real reference lists and the edge cases (properties and linear time:
test_extract_properties.py).

Fixtures in tests/fixtures/references/ are reference lists in several citation styles
(APA 7, Vancouver, BibTeX, RIS, a publisher's HTML page, a librarian's notes with
EZproxy links, ``urn:doi:``, zero-width characters and HTML entities); each has an
``.expected.txt`` file listing the DOI names in the order they appear.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import doiname as d
from doiname.extract import extract, extract_general

from .strategies import SICI

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "references"
REFERENCE_LISTS = sorted(p for p in FIXTURES.iterdir() if ".expected." not in p.name)


def expected_for(path: Path) -> list[str]:
    exp = path.with_name(path.name.split(".")[0] + ".expected.txt")
    return [line for line in exp.read_text(encoding="utf-8").splitlines() if line]


def names(text: str) -> list[str]:
    return [str(m.doi) for m in extract(text)]


# ------------------------------------------------------------------ real reference lists


def test_every_style_has_a_fixture() -> None:
    kinds = {p.suffix for p in REFERENCE_LISTS}
    assert {".txt", ".bib", ".ris", ".html"} <= kinds
    stems = {p.name.split(".")[0] for p in REFERENCE_LISTS}
    assert {"apa", "vancouver", "bibtex", "ris", "publisher", "library-notes"} <= stems


#: Matches of the fixtures that are errors by the specs, with the repair offered (R6: a doi:
#: URI written without a space follows 003 ch. 2, so a raw "#" in it starts a fragment).
KNOWN_ERRORS = {("library-notes.txt", "doi:10.1000/456#789"): ("uri-fragment",
                                                             "doi:10.1000/456%23789")}


@pytest.mark.parametrize("path", REFERENCE_LISTS, ids=lambda p: p.name)
def test_reference_list(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = extract(text)
    assert [str(m.doi) for m in found] == expected_for(path)
    for m in found:
        assert text[m.start:m.end] == m.text
        known = KNOWN_ERRORS.get((path.name, m.text))
        if known is None:
            assert m.ok, m.findings
        else:
            assert [(f.code, f.repair) for f in m.findings if f.severity == "error"] == [known]


def test_ris_lines_end_in_crlf_and_the_cr_is_not_part_of_the_name() -> None:
    raw = (FIXTURES / "ris.ris").read_bytes().decode("utf-8")
    assert "\r\n" in raw
    assert all("\r" not in m.text for m in extract(raw))


def test_publisher_page_link_text_is_not_reported_twice() -> None:
    text = (FIXTURES / "publisher.html").read_text(encoding="utf-8")
    found = extract(text)
    sici = [m for m in found if "SIM777" in str(m.doi)]
    assert len(sici) == 1  # href (percent-encoded) and link text (HTML-escaped): one match
    assert sici[0].form == "url" and sici[0].text.startswith("https://doi.org/10.1002/%28SICI")
    assert "duplicate-link-text" in {f.code for f in sici[0].findings}
    numpy = [m for m in found if str(m.doi) == "10.1038/s41586-020-2649-2"]
    assert len(numpy) == 1 and "wbr-dropped" in {f.code for f in numpy[0].findings}


def test_library_notes_forms_and_findings() -> None:
    text = (FIXTURES / "library-notes.txt").read_text(encoding="utf-8")
    by_form = [(m.form, str(m.doi)) for m in extract(text)]
    assert ("proxy-login", "10.1016/S0140-6736(20)30183-5") in by_form
    assert ("proxy-login", "10.1056/NEJMoa2001017") in by_form
    assert ("proxy-url", "10.1000/456#789") in by_form
    assert ("urn", "10.1000/182") in by_form
    zw = [m for m in extract(text) if any(f.code == "zero-width-dropped" for f in m.findings)]
    assert [str(m.doi) for m in zw] == ["10.1038/s41586-020-2649-2",
                                        "10.1371/journal.pmed.0020124"]


# ------------------------------------------------------------------------ edge cases


# (text, [(name, matched text), ...])
CASES: list[tuple[str, list[tuple[str, str]]]] = [
    # labels and URI forms
    ("doi:10.1000/182", [("10.1000/182", "doi:10.1000/182")]),
    ("DOI: 10.1000/182", [("10.1000/182", "DOI: 10.1000/182")]),
    ("DOI 10.1000/182", [("10.1000/182", "DOI 10.1000/182")]),
    ("[doi:10.1000/182]", [("10.1000/182", "doi:10.1000/182")]),
    ("DOI10.1000/182", [("10.1000/182", "DOI10.1000/182")]),
    ("DOI：10.1000/182", [("10.1000/182", "DOI：10.1000/182")]),
    ("urn:doi:10.1000:182", [("10.1000/182", "urn:doi:10.1000:182")]),
    ("info:doi/10.1000/182", [("10.1000/182", "info:doi/10.1000/182")]),
    ("hdl:10.1000/182", [("10.1000/182", "hdl:10.1000/182")]),
    # links
    ("https://doi.org/10.1000/182", [("10.1000/182", "https://doi.org/10.1000/182")]),
    ("http://dx.doi.org/10.1000/182.", [("10.1000/182", "http://dx.doi.org/10.1000/182")]),
    ("see doi.org/10.1000/182", [("10.1000/182", "doi.org/10.1000/182")]),
    ("https://doi.org/urn:doi:10.1000:182", [("10.1000/182", "https://doi.org/urn:doi:10.1000:182")]),
    ("https://doi.org/10.1000%2F182", [("10.1000/182", "https://doi.org/10.1000%2F182")]),
    ("https://doi.org/10.1000/456%23789", [("10.1000/456#789", "https://doi.org/10.1000/456%23789")]),
    ("https://doi.org/10.1000/abc%252Fdef", [("10.1000/abc%2Fdef", "https://doi.org/10.1000/abc%252Fdef")]),
    ("https://doi-org.ezproxy.lib.example.edu/10.1000/182",
     [("10.1000/182", "https://doi-org.ezproxy.lib.example.edu/10.1000/182")]),
    ("https://login.ezproxy.example.edu/login?url=https://doi.org/10.1000/182",
     [("10.1000/182", "https://login.ezproxy.example.edu/login?url=https://doi.org/10.1000/182")]),
    ("x https://login.p.edu/login?qurl=https%3A%2F%2Fdoi.org%2F10.1000%2F182&y=1 z",
     [("10.1000/182", "https://login.p.edu/login?qurl=https%3A%2F%2Fdoi.org%2F10.1000%2F182&y=1")]),
    ("<https://doi.org/10.1000/182>", [("10.1000/182", "https://doi.org/10.1000/182")]),
    # another site's link: only the name, ending at ? # (path) or & # (query)
    ("https://link.springer.com/article/10.1007/s00134-020-05991-x?utm=1",
     [("10.1007/s00134-020-05991-x", "10.1007/s00134-020-05991-x")]),
    ("https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0123456&type=printable",
     [("10.1371/journal.pone.0123456", "10.1371/journal.pone.0123456")]),
    ("https://onlinelibrary.wiley.com/doi/10.1002%2Fanie.201915678",
     [("10.1002/anie.201915678", "10.1002%2Fanie.201915678")]),
    ("https://scholar.google.com/scholar?q=https://doi.org/10.1000/182&hl=en",
     [("10.1000/182", "https://doi.org/10.1000/182")]),
    ("https://x.example/r?to=https%3A%2F%2Fdoi.org%2F10.1000%2F182&y",
     [("10.1000/182", "10.1000%2F182")]),
    # a host that only looks like doi.org: the whole link is read, with a lookalike-host warning
    ("https://www.doi.org.evil.example/10.1000/182",
     [("10.1000/182", "https://www.doi.org.evil.example/10.1000/182")]),
    # SICI names keep < > ; : #
    (SICI, [(SICI, SICI)]),
    (f"See {SICI}.", [(SICI, SICI)]),
    (f"({SICI})", [(SICI, SICI)]),
    ("10.1175/1520-0477(1996)077<0437:TNYRP>2.0.CO;2",
     [("10.1175/1520-0477(1996)077<0437:TNYRP>2.0.CO;2",) * 2]),
    ("10.1002/(SICI)1099-1727(199604)12:2<::AID-SDR100>3.0.CO;2-W",
     [("10.1002/(SICI)1099-1727(199604)12:2<::AID-SDR100>3.0.CO;2-W",) * 2]),
    ("10.1000/456#789", [("10.1000/456#789", "10.1000/456#789")]),
    ("doi:10.1000/456#789", [("10.1000/456#789", "doi:10.1000/456#789")]),
    # brackets: closers kept only when they balance one inside
    ("10.3319/TAO.2009.05.25.02(IWNOP)", [("10.3319/TAO.2009.05.25.02(IWNOP)",) * 2]),
    ("(see 10.1000/182)", [("10.1000/182", "10.1000/182")]),
    ("[10.1000/182]", [("10.1000/182", "10.1000/182")]),
    ("doi = {10.1000/182},", [("10.1000/182", "10.1000/182")]),
    ("(10.1016/S0140-6736(20)30183-5)", [("10.1016/S0140-6736(20)30183-5",) * 2]),
    ("10.1000/a(b]c", [("10.1000/a(b", "10.1000/a(b")]),
    # trailing punctuation; dots inside stay
    ("10.1000/182.", [("10.1000/182", "10.1000/182")]),
    ("10.1000/182, 10.1000/183; 10.1000/184: x", [
        ("10.1000/182", "10.1000/182"), ("10.1000/183", "10.1000/183"),
        ("10.1000/184", "10.1000/184")]),
    ("Is it 10.1000/182?!", [("10.1000/182", "10.1000/182")]),
    # R13: a bare name alone on its line keeps several final dots (registered names end so)
    ("10.1000/abc.def...", [("10.1000/abc.def...", "10.1000/abc.def...")]),
    ("see 10.1000/abc.def... now", [("10.1000/abc.def", "10.1000/abc.def")]),
    ("**10.1000/182**", [("10.1000/182", "10.1000/182")]),
    ("10.1000/182\u200e", [("10.1000/182", "10.1000/182")]),
    # quotes, HTML tags
    ('"10.1000/182"', [("10.1000/182", "10.1000/182")]),
    ("'10.1000/182'", [("10.1000/182", "10.1000/182")]),
    ("“10.1000/182”", [("10.1000/182", "10.1000/182")]),
    ("10.1000/O'Brien", [("10.1000/O'Brien", "10.1000/O'Brien")]),
    ("<td>10.1000/182</td>", [("10.1000/182", "10.1000/182")]),
    ("10.1000/182<br>10.1000/183<br/>", [("10.1000/182", "10.1000/182"),
                                         ("10.1000/183", "10.1000/183")]),
    ('<span class="doi">10.1000/182</span>', [("10.1000/182", "10.1000/182")]),
    ("`10.1000/182`", [("10.1000/182", "10.1000/182")]),
    # lists and cells
    ("10.1000/182,Title", [("10.1000/182", "10.1000/182")]),
    ("10.1000/182;10.1000/183", [("10.1000/182", "10.1000/182"), ("10.1000/183", "10.1000/183")]),
    ("10.1000/182\t10.1000/183", [("10.1000/182", "10.1000/182"), ("10.1000/183", "10.1000/183")]),
    ("10.1000/(1,2)", [("10.1000/(1,2)", "10.1000/(1,2)")]),
    # HTML escaping, zero-width characters, backslash escapes
    ("10.1002/(SICI)1097-4571(199806)49:8&lt;693::AID-ASI4&gt;3.0.CO;2-O",
     [(SICI, "10.1002/(SICI)1097-4571(199806)49:8&lt;693::AID-ASI4&gt;3.0.CO;2-O")]),
    ("10.1000/a&amp;b", [("10.1000/a&b", "10.1000/a&amp;b")]),
    ("10.1000/&#60;1&#x3E;", [("10.1000/<1>", "10.1000/&#60;1&#x3E;")]),
    ("10.1000/a&lt;br&gt;", [("10.1000/a", "10.1000/a")]),
    ("&quot;10.1000/182&quot;", [("10.1000/182", "10.1000/182")]),
    ("DOI:&nbsp;10.1000/182", [("10.1000/182", "DOI:&nbsp;10.1000/182")]),
    ("10.1000/a&unknown;2", [("10.1000/a&unknown;2", "10.1000/a&unknown;2")]),
    ("10.1000/1\u200b82", [("10.1000/182", "10.1000/1\u200b82")]),
    ("1\u200c0.1000/182", [("10.1000/182", "1\u200c0.1000/182")]),
    ("10.1000\u200d/182", [("10.1000/182", "10.1000\u200d/182")]),
    ("\ufeff10.1000/18\u20602", [("10.1000/182", "10.1000/18\u20602")]),
    ("10.1000/ab\u00adc", [("10.1000/abc", "10.1000/ab\u00adc")]),
    ("10.1000/a&#8203;b", [("10.1000/ab", "10.1000/a&#8203;b")]),
    ("word\u200b10.1000/182", [("10.1000/182", "10.1000/182")]),
    ('"10.1000\\/182"', [("10.1000/182", "10.1000\\/182")]),
    ("{10.1000/a\\_b}", [("10.1000/a_b", "10.1000/a\\_b")]),
    # registrants
    ("10.21/2V9FYC24", [("10.21/2V9FYC24", "10.21/2V9FYC24")]),
    ("10.1000.10/xyz", [("10.1000.10/xyz", "10.1000.10/xyz")]),
    ("doi:10.5/xyz", [("10.5/xyz", "doi:10.5/xyz")]),
    ("https://doi.org/10.25/100", [("10.25/100", "https://doi.org/10.25/100")]),
    ("10.48550/arXiv.1706.03762", [("10.48550/arXiv.1706.03762",) * 2]),
    # R5: BioMed Central's references, the DOI after the page and a "-"
    ("BMC Genomics. 2013, 14 (1): 564-10.1186/1471-2164-14-564.",
     [("10.1186/1471-2164-14-564", "10.1186/1471-2164-14-564")]),
    # non-ASCII names
    ("10.1000/café.", [("10.1000/café", "10.1000/café")]),
    ("10.1000/caf%C3%A9", [("10.1000/café", "10.1000/caf%C3%A9")]),
]

NOT_DOIS = [
    "10.5 percent",
    "growth of 10.5% a year",
    "version 10.2.1",
    "v10.2.1/linux",
    "3.10.1/build",
    "it costs 10.99/month",
    "it costs $10.99/m1",
    "10.50€/kg",
    "score 10.5/20",
    "a dose of 10.25/100 mg",
    "the ratio 10.25/12.5.",
    "ISBN 978-3-16-148410-0",
    "ISBN-10: 0-306-40615-2",
    "192.168.10.1",
    "10.0.0.1",
    "10.0.0.0/8",
    "10.10.10.10/24",
    "prefix 10.1000 only",
    "10.1000/ and nothing",
    "10.1000/.",
    "110.1000/182",
    "x10.1000/182",
    "v2-10.1000/182",  # (a "-" after a letter, or before a short registrant: no name)
    "pages 1-10.12/3",
    "10.1000/182"[:-4] + "/",
    "10./182",
    "10.a/182",
    "10/2021",  # a date: no letter, so not a shortDOI (R17)
    "see 10/abcde",  # a shortDOI is only read after a doi.org link or a label, or alone
    "",
    "no numbers here",
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_case(text: str, expected: list[tuple[str, str]]) -> None:
    found = extract(text)
    assert [(str(m.doi), m.text) for m in found] == expected
    for m in found:
        assert text[m.start:m.end] == m.text


@pytest.mark.parametrize("text", NOT_DOIS)
def test_not_a_doi(text: str) -> None:
    assert extract(text) == []


def test_positions_are_offsets_in_the_original_text() -> None:
    text = "a\u200bb &amp; see doi:10.1000/x\u200by&lt;1&gt; then 10.1000/182."
    first, second = extract(text)
    assert text[first.start:first.end] == "doi:10.1000/x\u200by&lt;1&gt;"
    assert str(first.doi) == "10.1000/xy<1>"
    zw = [f for f in first.findings if f.code == "zero-width-dropped"]
    assert len(zw) == 1 and text[zw[0].start:zw[0].end] == "\u200b"
    ent = [f for f in first.findings if f.code == "html-entity"]
    assert [text[f.start:f.end] for f in ent] == ["&lt;1&gt;"]  # one finding for both
    assert "“&lt;” as “<” at character" in ent[0].message
    assert "“&gt;” as “>” at character" in ent[0].message
    assert second.text == "10.1000/182" and text[second.start:second.end] == "10.1000/182"
    trail = [f for f in second.findings if f.code == "trailing-punctuation"]
    assert len(trail) == 1 and text[trail[0].start:trail[0].end] == "."


def test_findings_of_each_kind() -> None:
    def codes(text: str) -> list[str]:
        (m,) = extract(text)
        return [f.code for f in m.findings]

    assert codes("10.1000/182.") == ["trailing-punctuation"]
    assert codes("(see 10.1000/182)") == ["unbalanced-closer"]
    assert codes("(10.1000/182)") == []
    assert codes("doi = {10.1000/182},") == []
    assert codes("https://doi.org/10.1000/182?x=1") == ["url-query-dropped"]
    assert codes("https://doi.org/10.1000/456#789") == ["url-fragment-dropped"]
    assert codes("10.1000/a\u200bb") == ["zero-width-dropped"]
    assert codes("10.1000/a&lt;1&gt;") == ["html-entity"]  # one finding for each kind
    assert codes("10.1000/a\\_b") == ["backslash-escape"]
    assert codes("10.1000/a<wbr>b") == ["wbr-dropped"]
    assert codes("https://doi-org.proxy.example.edu/10.1000/182") == ["proxy-link"]
    assert codes("DOI 10.1000/182") == []
    assert codes("10.1000/182") == []


def test_zero_width_finding_is_a_warning_naming_the_character() -> None:
    (m,) = extract("10.1000/a\u200bb")
    (f,) = m.findings
    assert f.severity == "warning" and "U+200B ZERO WIDTH SPACE" in f.message
    assert "character 10" in f.message and (f.start, f.end) == (9, 10)


def test_line_broken_name_is_not_joined_but_flagged() -> None:
    (m, *_rest) = extract("doi:10.1002/anie.2019-\n15678 and more")
    assert str(m.doi) == "10.1002/anie.2019-"
    assert [f.code for f in m.findings] == ["line-break"]
    assert m.findings[0].severity == "warning"


@pytest.mark.parametrize(("text", "name", "joined", "cut"), [
    # real references: a space typeset before the name's last "." or "-" group
    ("Future Cardiol 11(1):27-37. doi:10.2217/fca\u00a0.14.82", "10.2217/fca",
     "10.2217/fca.14.82", "a space"),
    ("Pediatr Nephrol 23:2111-2120. doi: 10.1007/s00467-008-0811 -4",
     "10.1007/s00467-008-0811", "10.1007/s00467-008-0811-4", "a space"),
    ("doi:10.1002/anie.2019\n-15678", "10.1002/anie.2019", "10.1002/anie.2019-15678",
     "a line break"),
])
def test_a_rest_that_starts_with_a_separator_is_offered_joined(text: str, name: str,
                                                              joined: str, cut: str) -> None:
    # R21: the cut before the rest's "." or "-": the name as read stays the reading, the
    # joined one is offered (never chosen without asking)
    (m,) = extract(text)
    assert str(m.doi) == name
    (f,) = m.findings
    assert (f.code, f.severity) == ("line-break", "warning") and f"cut by {cut}" in f.message
    assert [(str(a.doi), a.how) for a in m.alternatives] == [(joined, "joined")]
    assert extract_general(text) == extract(text)
    for other in (name + " -5 and more", name + " -", name + " -x", name + "  .", name + " .x"):
        assert all(f.code != "line-break" for m in extract(other) for f in m.findings), other


@pytest.mark.parametrize(("text", "written", "name"), [
    ("Smith J. 2019. https://doi.org/10.1000/\n182", "https://doi.org/10.1000/\n182",
     "10.1000/182"),
    ("10.1000/\n182.", "10.1000/\n182", "10.1000/182"),
    ("doi: 10.1000/\r\n  182\n", "doi: 10.1000/\r\n  182", "10.1000/182"),
    ("doi:10.1000/ 182", "doi:10.1000/ 182", "10.1000/182"),
    ("x https://doi-org.proxy.example.edu/10.1000/\nabc.182",
     "https://doi-org.proxy.example.edu/10.1000/\nabc.182", "10.1000/abc.182"),
    ("Coral Reefs 25, 73-76. (doi:10.1007/ \ns00338-005-0072-7)",
     "doi:10.1007/ \ns00338-005-0072-7", "10.1007/s00338-005-0072-7"),
    ("Child Adolesc Soc Work J, 17, 115-140. doi:10.1023/ \nA:1007558323191.",
     "doi:10.1023/ \nA:1007558323191", "10.1023/A:1007558323191"),
    # cut inside the prefix, after "10." (a PDF breaks lines at a dot): no prefix as written
    ("Mol. Psychiatry 6, 13-34. (doi:10. \n1038/sj.mp.4000812)",
     "doi:10. \n1038/sj.mp.4000812", "10.1038/sj.mp.4000812"),
    ("https://doi.org/10.\n1000/182", "https://doi.org/10.\n1000/182", "10.1000/182"),
])
def test_a_name_cut_right_after_the_slash_is_read_joined(text: str, written: str,
                                                         name: str) -> None:
    # R21 when the cut left no suffix: as written there is no name, so the name is read
    # joined across the break (or the space), with a warning that says so; the text is
    # the match's as written, the break inside it
    (m,) = extract(text)
    assert m.ok and m.text == written and str(m.doi) == name
    assert text[m.start:m.end] == written and m.alternatives == ()
    brk = next(f for f in m.findings if f.code == "line-break")
    assert brk.severity == "warning" and brk.repair is None
    assert text[brk.start:brk.end].isspace()
    assert extract_general(text) == extract(text)


@pytest.mark.parametrize("text", [
    "10.1000/\nabc",  # the next line holds no digit
    "10.1000/\n182 and more",  # nor ends with the token
    "10.1000/\n\n182",  # two line breaks: a paragraph apart
    "score 10.5/\n2020",  # R7: a number, not a name
    "10.1000/ ",
    "Section 10.\n2000/01 and 10. \n1000/182",  # a cut prefix is joined after a label only
])
def test_no_suffix_without_its_rest_is_no_match(text: str) -> None:
    assert extract(text) == extract_general(text) == []


@pytest.mark.parametrize(("text", "where"), [
    ("https://doi.org/10.1000/%ZZ", 24), ("see https://doi.org/10.1000/a%C3 now", 29),
    ("see https://x.org/a?u=https://doi.org/10.1000/%ZZ", 46),
])
def test_a_links_error_is_placed_in_the_text(text: str, where: int) -> None:
    # the reader reads a link's name alone when the link is not one it knows; its error
    # is counted in the text, not in the name
    (m,) = extract(text)
    (f,) = m.findings
    assert f.severity == "error" and f.start == where and f"character {where + 1}" in f.message


@pytest.mark.parametrize(("text", "name", "tail"), [
    ("https://www.biorxiv.org/content/10.1101/2020.01.01.123456v2.full.pdf",
     "10.1101/2020.01.01.123456", "v2.full.pdf"),
    ("see https://www.medrxiv.org/content/10.1101/2020.03.22.20040287v1.full-text here",
     "10.1101/2020.03.22.20040287", "v1.full-text"),
    ("https://biorxiv.org/content/10.1101/123456v1", "10.1101/123456", "v1"),
    ("https://www.biorxiv.org/content/10.1101/2020.01.01.123456v3/full",
     "10.1101/2020.01.01.123456", "v3/full"),
    ("https://www.biorxiv.org/content/10.1101/2020.01.01.123456v2?versioned=true",
     "10.1101/2020.01.01.123456", "v2"),
])
def test_a_preprint_servers_version_and_page_are_left_out(text: str, name: str,
                                                          tail: str) -> None:
    # R19 in a bioRxiv or medRxiv link: the name without what the server adds, said, the
    # literal reading kept
    (m,) = extract(text)
    assert str(m.doi) == name and m.form == "in-url"
    (f,) = m.findings
    assert f.code == "viewer-tail" and f.severity == "warning" and f"“{tail}”" in f.message
    (alt,) = m.alternatives
    assert alt.how == "literal" and str(alt.doi) == name + tail
    assert extract_general(text) == extract(text)


@pytest.mark.parametrize("text", [
    "https://www.biorxiv.org/content/10.1101/2020.01.01.123456",  # no version: as it is
    "https://www.biorxiv.org/content/10.1101/gr.123456.110v2",  # not a preprint's shape
    "https://genome.cshlp.org/content/10.1101/2020.01.01.123456v2",  # another site
    "https://figshare.com/articles/10.6084/m9.figshare.123456.v2",  # versions in names
    "https://www.biorxiv.org/content/10.1102/2020.01.01.123456v2",  # another registrant
])
def test_versions_are_left_out_only_in_preprint_servers_links(text: str) -> None:
    (m,) = extract(text)
    assert m.findings == () and text.endswith(str(m.doi))


@pytest.mark.parametrize(("text", "names"), [
    ("10.1000/182。次の文", ["10.1000/182"]),
    ("（10.1000/182）", ["10.1000/182"]),
    ("「10.1000/182」と『10.1000/183』", ["10.1000/182", "10.1000/183"]),
    ("doi：10.1000/182、と", ["10.1000/182"]),
    ("10.1000/182，10.1000/183", ["10.1000/182", "10.1000/183"]),
    ("【10.1000/182】", ["10.1000/182"]),
    ("https://doi.org/10.1000/182。", ["10.1000/182"]),
])
def test_east_asian_punctuation_and_brackets_end_a_name(text: str, names: list[str]) -> None:
    # R8, R9: such text has no spaces between words; no name holds these characters
    assert [str(m.doi) for m in extract(text)] == names
    assert extract_general(text) == extract(text)


@pytest.mark.parametrize(("text", "name", "left"), [
    ("詳細は10.1000/182を参照", "10.1000/182", "を参照"),  # kana before and after
    ("10.1000/182を参照してください。", "10.1000/182", "を参照してください"),  # a line's start
    ("DOI为10.1016/j.cell.2020.01.001的文章", "10.1016/j.cell.2020.01.001", "的文章"),
    ("见https://doi.org/10.1000/182了解", "10.1000/182", "了解"),
    ("doi:10.1000/182を参照", "10.1000/182", "を参照"),
    ("참고 10.1000/182를 보라", "10.1000/182", "를"),  # a Hangul particle
    ("10.1000/182.を参照", "10.1000/182", ".を参照"),  # R13's "." said with it
    ("10.1000/abc(中文)を参照", "10.1000/abc(中文)", "を参照"),  # inside brackets: kept
])
def test_east_asian_text_written_against_a_name_ends_it(text: str, name: str,
                                                       left: str) -> None:
    # R5: a name may start right after such a letter; R8: a run of them after a suffix
    # character of another script ends the name, the literal reading kept
    (m,) = extract(text)
    assert str(m.doi) == name
    (note,) = [f for f in m.findings if f.code == "glued-text"]
    assert note.severity == "info" and text[note.start:note.end] == left
    assert note.source == "extract R8" and f"“{left}”" in note.message
    (alt,) = m.alternatives
    assert alt.how == "literal" and str(alt.doi) == name + left
    assert extract_general(text) == extract(text)


@pytest.mark.parametrize("text", ["10.1000/中文", "10.1000/中文abc", "https://doi.org/10.1000/日本",
                                  "10.1000/a(中", "山田10.1000/182"])
def test_a_name_of_east_asian_letters_is_read_whole(text: str) -> None:
    # R8 cuts only text written after a suffix character of another script, outside
    # brackets: a suffix that starts with such letters keeps them
    (m,) = extract(text)
    assert text.endswith(str(m.doi)) and m.alternatives == () and m.findings == ()


def test_a_link_wrapped_by_url_defense_is_read_unwrapped() -> None:
    # R3: Proofpoint URL Defense (v3) wraps a message's links: the link inside is read, its
    # characters written "*" as the ones the wrapper gives after "__;" (base64url)
    plain = "https://urldefense.com/v3/__https://doi.org/10.1038/nature14539__;!!abc$"
    (m,) = extract(plain)
    assert str(m.doi) == "10.1038/nature14539" and m.text == "https://doi.org/10.1038/nature14539"
    assert m.findings == () and m.start == plain.index("https://doi.org")
    star = "See https://urldefense.com/v3/__https://doi.org/10.1000/x*23abc__;JQ!!Fjc1L!x-y$ now"
    (m,) = extract(star)
    assert str(m.doi) == "10.1000/x#abc" and m.text == "https://doi.org/10.1000/x*23abc"
    wrapper = next(f for f in m.findings if f.code == "link-wrapper")
    assert star[wrapper.start:wrapper.end] == "*" and "read as “%”" in wrapper.message
    # without the characters it stands for, a "*" is left as written
    (m,) = extract("https://urldefense.com/v3/__https://doi.org/10.1000/x*23abc__;!!Fjc$")
    assert str(m.doi) == "10.1000/x*23abc"
    for text in (plain, star):
        assert extract_general(text) == extract(text)


@pytest.mark.parametrize(("text", "name"), [
    ("https://urldefense.proofpoint.com/v2/url?u=https-3A__doi.org_10.1038_nature14539"
     "&d=DwMFaQ&c=abc&r=def&m=ghi&s=jkl&e=", "10.1038/nature14539"),
    ("see https://urldefense.proofpoint.com/v2/url?u=https-3A__doi.org_10.1016_S0140-2D6736"
     "-2820-2930183-2D5&d=DwMFaQ&e= now", "10.1016/S0140-6736(20)30183-5"),
    ("https://urldefense.proofpoint.com/v2/url?u=https-3A__doi.org_10.1000_-C3-A9tude&d=x",
     "10.1000/étude"),
])
def test_a_link_wrapped_by_url_defense_v2_is_read_unwrapped(text: str, name: str) -> None:
    # R3: version 2 writes "/" as "_" and every other escape "%XX" as "-XX"
    (m,) = extract(text)
    assert str(m.doi) == name and m.form == "url"
    assert [f.code for f in m.findings] == ["link-wrapper"]
    assert extract_general(text) == extract(text)


@pytest.mark.parametrize(("text", "name", "left"), [
    ("https://doi.org/10.1000/182/", "10.1000/182", "/"),
    ("see https://doi.org/10.1038/nature14539/ for", "10.1038/nature14539", "/"),
    ("10.1000/a/b/", "10.1000/a/b", "/"),
])
def test_a_links_final_slash_is_left_out_and_said(text: str, name: str, left: str) -> None:
    # R13: a link copied with a final "/" (doi.org finds no name ending so); the literal
    # reading is kept, so it is a note
    (m,) = extract(text)
    assert str(m.doi) == name
    (f,) = m.findings
    assert f.code == "trailing-punctuation" and f.severity == "info"
    assert f"The final “{left}” was left out: a link's path" in f.message
    assert [(str(a.doi), a.how) for a in m.alternatives] == [(name + left, "literal")]
    assert extract_general(text) == extract(text)
    # a viewer path's own final "/" is said with it, once
    (m,) = extract("x 10.1002/anie.201915678/full/")
    assert [(f.code, "“/full/”" in f.message) for f in m.findings] == [("viewer-tail", True)]


def test_rejected_name_is_kept_with_the_readers_error() -> None:
    (m,) = extract("see 10.1234/50%zz now")
    assert not m.ok
    assert m.doi == d.Doi("10.1234", "50%zz")
    (f,) = m.findings
    assert f.code == "bad-percent" and f.severity == "error"
    assert (f.start, f.end) == (14, 17)
    assert "character 15" in f.message  # counted in the text, not in the name
    (bidi,) = extract("10.1000/a\u202eb")
    assert [f.code for f in bidi.findings] == ["not-graphic"]


def test_link_text_and_markdown_are_merged_to_the_link() -> None:
    html_link = '<a href="https://doi.org/10.1000/182" target="_blank">10.1000/182</a>'
    (m,) = extract(html_link)
    assert m.text == "https://doi.org/10.1000/182" and m.form == "url"
    (m,) = extract('<a href="https://doi.org/10.1000/ABC"><span>10.1000/abc</span></a>')
    assert m.form == "url"  # equivalent names (003 ch. 3: Basic Latin case) are one link
    (m,) = extract("[10.1000/182](https://doi.org/10.1000/182)")
    assert m.text == "https://doi.org/10.1000/182"
    # the same DOI twice in running text is reported twice
    assert len(extract("10.1000/182 and again 10.1000/182")) == 2
    # a link to one DOI whose text is another DOI: both
    assert len(extract('<a href="https://doi.org/10.1000/1">10.1000/2</a>')) == 2


def test_as_dict_is_plain_json() -> None:
    (m,) = extract("doi:10.1000/182.")
    dd = m.as_dict()
    assert dd["doi"] == {"prefix": "10.1000", "suffix": "182", "name": "10.1000/182"}
    assert dd["form"] == "doi-uri" and dd["ok"] is True
    assert dd["start"] == 0 and dd["end"] == 15 and dd["text"] == "doi:10.1000/182"
    (f,) = dd["findings"]
    # R13: the final "." ends the sentence: a note, the literal reading kept beside it
    assert f["code"] == "trailing-punctuation" and f["severity"] == "info"
    assert f["message"] == ("The final “.” was left out: it ends the sentence. If it belongs "
                            "to the name, the name is “10.1000/182.”.")
    assert [str(a.doi) for a in m.alternatives] == ["10.1000/182."]
    assert (f["start"], f["end"], f["in_name"]) == (15, 16, False)
    assert json.loads(json.dumps(dd)) == dd


def test_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        extract(b"10.1000/182")  # type: ignore[arg-type]
