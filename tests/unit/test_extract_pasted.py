"""extract() on text as people paste it: names cut by a line break or a space (R21),
preprint servers' links (R19), East Asian text (R5, R8, R9), links wrapped by e-mail
security (R3), a link's final "/" (R13); the reference lists and the other edge cases are
in test_extract.py."""

from __future__ import annotations

import pytest

from doiname.extract import extract, extract_general


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
    ("doi:10.2217/fca .14.82\nNext reference", "10.2217/fca", "10.2217/fca.14.82", "a space"),
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


@pytest.mark.parametrize(("text", "names"), [
    ("doi:10.1000/\nhttps://doi.org/10.1000/182", ["10.1000/", "10.1000/182"]),
    ("doi:10.1000/\ndoi:10.1000/183", ["10.1000/", "10.1000/183"]),
    ("DOI: 10.1000/\nhttps://example.org/a1", ["10.1000/"]),
    ("doi:10.1000/abc.\nhttps://doi.org/10.1000/182", ["10.1000/abc", "10.1000/182"]),
    ("see 10.1000/x-\n10.1000/182", ["10.1000/x-", "10.1000/182"]),
])
def test_a_link_or_a_name_on_the_next_line_is_not_a_rest(text: str, names: list[str]) -> None:
    # R21: what follows a cut holds a link or a name of its own: not joined, neither read
    # nor offered (it read "10.1000/https://doi.org/10.1000/182")
    got = extract(text)
    assert [str(m.doi) for m in got] == names and got == extract_general(text)
    assert all("://" not in str(a.doi) and str(a.doi).count("10.") == 1
               for m in got for a in m.alternatives)
    if not got[0].ok:  # as written, a label and a prefix with its "/": the suffix is missing
        (f,) = got[0].findings
        assert f.code == "empty-suffix" and "“/”" in f.message and "no “/”" not in f.message


SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"


@pytest.mark.parametrize(("text", "names"), [
    # a row of a file whose cells ";" parts (Excel's CSV in many languages)
    ("Smith J;A title;10.1000/182;2020;J Stuff", ["10.1000/182"]),
    ("10.1000/182;2", ["10.1000/182"]),
    ("10.1000/182;10.1000/183", ["10.1000/182", "10.1000/183"]),
    ("10.1000/182|10.1000/183", ["10.1000/182", "10.1000/183"]),  # ("|" before a name too)
    # the ";" of a SICI's control segment is the name's, in either case
    (SICI, [SICI]), (f"{SICI};2021;x", [SICI]), (SICI.lower(), [SICI.lower()]),
    ("doi:10.1577/1548-8659(1999)128<1006:NAHMOL>2.0.CO;2",
     ["10.1577/1548-8659(1999)128<1006:NAHMOL>2.0.CO;2"]),
    ("10.1002/(SICI)1521-3773(20000303)39:5<804::AID-ANIE804>3.0.TX;2-E",
     ["10.1002/(SICI)1521-3773(20000303)39:5<804::AID-ANIE804>3.0.TX;2-E"]),
])
def test_a_semicolon_ends_a_name_but_in_a_sici(text: str, names: list[str]) -> None:
    # R12: it read "10.1000/182;2020", a year glued to the name with no word
    got = extract(text)
    assert [str(m.doi) for m in got] == names and got == extract_general(text)
    assert all(m.ok for m in got)


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


@pytest.mark.parametrize(("text", "name"), [
    ("https://link.springer.com/content/pdf/10.1007/s00467-008-0811-4.pdf",
     "10.1007/s00467-008-0811-4"),
    ("PDF (https://link.springer.com/content/pdf/10.1007%2F978-3-319-24574-4_28.PDF).",
     "10.1007/978-3-319-24574-4_28"),
    ("https://link-springer-com.ezproxy.example.edu/content/pdf/10.1007/s1.pdf",
     "10.1007/s1"),
])
def test_the_pdf_a_publishers_link_sends_is_left_out(text: str, name: str) -> None:
    # R19: ".pdf" after a name in the path of a publisher's link is the file it sends
    (m,) = extract(text)
    assert str(m.doi) == name and m.form == "in-url"
    (f,) = [f for f in m.findings if f.severity != "info"]  # (a %2F is said in an info)
    assert (f.code, f.severity, f.source) == ("viewer-tail", "warning", "extract R19")
    tail = text[f.start:f.end]
    assert tail.lower() == ".pdf" and f"“{tail}”" in f.message
    alt = m.alternatives[0]  # (then the ")" R14 left out, with it)
    assert alt.how == "literal" and str(alt.doi) == name + tail
    assert extract_general(text) == extract(text)


@pytest.mark.parametrize(("text", "name"), [
    ("onlinelibrary.wiley.com/doi/10.1002/anie.202012345?af=R", "10.1002/anie.202012345"),
    ("See link.springer.com/content/pdf/10.1007/s1.pdf.", "10.1007/s1"),
    ("(pubs.acs.org/doi/abs/10.1021/acs.jmedchem.0c01234#)", "10.1021/acs.jmedchem.0c01234"),
])
def test_a_link_printed_without_its_scheme_is_a_link(text: str, name: str) -> None:
    # R6: a host name and a path before the name ("https://" left out, as documents print
    # links): read as a link to that site, so its query, fragment and file are not the
    # name's (it read "10.1002/anie.202012345?af=R" as a bare name)
    (m,) = extract(text)
    assert str(m.doi) == name and m.form == "in-url" and extract_general(text) == [m]


@pytest.mark.parametrize("text", [
    "https://doi.org/10.5368/aedj.2010.2.4.85-87.pdf",  # a registered name ends so
    "10.5368/aedj.2010.2.4.85-87.pdf",
    "doi:10.1107/S2059798318011506/gm5056sup1.pdf",  # IUCr's supplements too
    "https://link.springer.com/content/pdf/10.1007/.pdf",  # nothing before it
])
def test_pdf_is_kept_in_text_and_resolver_links(text: str) -> None:
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
    ("ดูที่10.1000/182เพื่อดูรายละเอียด", "10.1000/182", "เพื่อดูรายละเอียด"),  # Thai
    ("10.1000/182.を参照", "10.1000/182", ".を参照"),  # R13's "." said with it
    ("10.1000/abc(中文)を参照", "10.1000/abc(中文)", "を参照"),  # inside brackets: kept
])
def test_text_of_a_script_without_spaces_written_against_a_name_ends_it(text: str, name: str,
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
