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
from doiname.extract import extract

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
    ("10.1000/a&unknown;2", [("10.1000/a&unknown", "10.1000/a&unknown")]),  # (R12: no SICI)
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
