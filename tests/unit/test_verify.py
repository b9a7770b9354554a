"""The reference check: a reference (text in any style, or a record's fields) against the
work a DOI is registered for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doiname import Author, Doi, RegistryAnswer, Update, Work, check_row, row_reference, verify
from doiname.jsonable import to_jsonable

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "registry"

DEEP = Work(doi=Doi("10.1038", "nature14539"), title="Deep learning",
            authors=(Author("LeCun", "Yann"), Author("Bengio", "Yoshua")), issued_year=2015,
            container_title="Nature", volume="521", issue="7553", pages="436-444",
            first_page="436", type="journal-article")
APA = ("LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), "
       "436-444.")


def test_the_right_work_matches_in_any_style() -> None:
    for text in (APA,
                 "LeCun Y, Bengio Y, Hinton G. Deep learning. Nature. 2015;521:436-44.",
                 "LECUN, Y. et al. (2015) 'Deep learning', Nature, 521, pp. 436-444."):
        got = verify(text, DEEP)
        assert got.verdict == "matches", (text, got)
        states = {e.field: e.state for e in got.evidence}
        assert states["title"] == states["first-author"] == states["year"] == "agreed"


def test_another_work_is_a_mismatch_with_the_registered_title_said() -> None:
    text = ("He K, Zhang X, Ren S, Sun J. Deep residual learning for image recognition. "
            "CVPR 2016:770-778.")
    got = verify(text, DEEP)
    assert got.verdict == "mismatch"
    assert got.summary.startswith("Title differs: the DOI is registered for “Deep learning” "
                                  "(LeCun, 2015)")


def test_titles_compare_after_folding_markup_accents_greek_and_pdf_breaks() -> None:
    work = Work(doi=None, title="Rôle of <i>β</i>-catenin in Wnt signalling: a review",
                authors=(Author("Müller", "J."),), issued_year=2019)
    text = "Muller J (2020) Role of beta-cate-\nnin in Wnt signalling. J Cell Sci 12:1-9"
    got = verify(text, work)
    assert got.verdict == "matches", got
    assert {e.field: e.state for e in got.evidence}["year"] == "agreed"  # online first


def test_a_record_s_fields_are_compared_field_by_field() -> None:
    bib = ("@article{lecun2015,\n  title = {Deep {Learning}},\n  author = {LeCun, Yann and "
           "Bengio, Yoshua},\n  journal = {Nature},\n  year = {2015},\n  volume = {521},\n"
           "  pages = {436--444}\n}")
    fields = row_reference(bib, "bibtex")
    assert isinstance(fields, dict) and fields["title"] == "Deep Learning"
    assert verify(fields, DEEP).verdict == "matches"
    ris = "TY  - JOUR\nTI  - Deep learning\nAU  - LeCun, Yann\nPY  - 2015\nER  - "
    assert verify(row_reference(ris, "ris"), DEEP).verdict == "matches"
    wrong = dict(fields, title="Attention is all you need", author="Vaswani, Ashish")
    assert verify(wrong, DEEP).verdict == "mismatch"


def test_a_notice_about_the_cited_work_is_not_the_work() -> None:
    notice = Work(doi=Doi("10.1038", "nature.2016.1"), title="Correction to: Deep learning",
                  authors=(Author("LeCun", "Yann"),), issued_year=2016,
                  container_title="Nature")
    got = verify(APA, notice)
    assert got.verdict == "mismatch" and got.notice is not None
    assert got.notice.kind == "Correction to" and got.notice.about_title == "Deep learning"
    cites_the_notice = "LeCun Y (2016) Correction to: Deep learning. Nature."
    assert verify(cites_the_notice, notice).notice is None


def test_too_little_to_compare_is_cannot_tell() -> None:
    assert verify("See the website.", DEEP).verdict in ("cannot-tell", "mismatch")
    assert verify({"note": "x"}, DEEP).verdict == "cannot-tell"


def test_a_row_check_gives_its_status_and_export_cells() -> None:
    message = json.loads((FIXTURES / "crossref-corrected.json").read_text())["message"]
    work = Work.from_crossref(message)
    answer = RegistryAnswer("found", work, "Registered.", None, "https://doi.org/x", "Crossref")
    reference = ("Sadasivan S, Pond BB, Pani AK (2012) Methylphenidate exposure induces "
                 "dopamine neuron loss and activation of microglia in the basal ganglia of "
                 "mice. PLoS ONE 7: e33693.")
    row = check_row(reference, answer)
    assert (row.status, row.label, row.verdict) == ("updated", "Retracted or corrected",
                                                    "matches")
    assert row.registered_year == "2012" and row.registered_title.startswith("Methylphenidate")
    assert row.update.startswith("correction 2012-05-08 10.1371/annotation/")
    assert "title: agreed" in row.evidence
    json.dumps(to_jsonable(row))
    other = check_row("Smith J (2001) Something else entirely. Cell 1:2-3.", answer)
    assert (other.status, other.label) == ("another-work", "Points at another work")
    missing = check_row(reference, RegistryAnswer("not-found", None, "Not found.", None, ""))
    assert missing.status == "not-found" and missing.cells == ("", "", "", "", "")


@pytest.mark.parametrize("kind", ["retraction", "expression-of-concern"])
def test_a_retracted_work_that_matches_is_retracted_or_corrected(kind: str) -> None:
    update = Update(kind, kind, "2020-01-02", Doi("10.1", "notice"), DEEP.doi,  # type: ignore[arg-type]
                    "updated-by")
    work = Work(doi=DEEP.doi, title=DEEP.title, authors=DEEP.authors, issued_year=2015,
                container_title="Nature", volume="521", first_page="436", updates=(update,))
    row = check_row(APA, RegistryAnswer("found", work, "", None, ""))
    assert row.status == "updated" and row.update == f"{kind} 2020-01-02 10.1/notice"


UNIPROT = Work(doi=Doi("10.1093", "nar/gky1049"), title="UniProt: a worldwide hub of protein "
               "knowledge", authors=(Author(literal="The UniProt Consortium"),),
               issued_year=2019, container_title="Nucleic Acids Research", volume="47",
               first_page="D506", pages="D506-D515")


@pytest.mark.parametrize(("reference", "verdict"), [
    # the right work, written in many ways
    ("The UniProt Consortium. UniProt: a worldwide hub of protein knowledge. Nucleic Acids "
     "Res. 2019;47(D1):D506-D515.", "matches"),
    ("UniProt Consortium (2018) UniProt: a worldwide hub of protein know-\nledge. Nucleic "
     "Acids Res 47:D506–D515", "matches"),  # online first, a PDF's hyphenation
    ("UniProt Consortium. UniProt. Nucleic Acids Res. 2019;47:D506.", "matches"),  # subtitle
    # the same title in another year's issue: another work
    ("The UniProt Consortium. UniProt: a worldwide hub of protein knowledge. Nucleic Acids "
     "Res. 2021;49:D480-D489.", "mismatch"),
    # a reply that carries the title
    ("Smith J. Comment on: UniProt: a worldwide hub of protein knowledge. Nucleic Acids Res. "
     "2019;47:D1100.", "mismatch"),
])
def test_the_same_title_told_apart_by_year_volume_and_pages(reference: str,
                                                             verdict: str) -> None:
    assert verify(reference, UNIPROT).verdict == verdict, verify(reference, UNIPROT)


def test_greek_letters_diacritics_and_markup_compare_alike() -> None:
    work = Work(doi=None, title="TGF-<i>β</i> signalling in Schwann cells of the Müller glia",
                authors=(Author("Łukasiewicz", "J."),), issued_year=2001,
                container_title="Glia", volume="12", first_page="100")
    text = "Lukasiewicz J. TGF-beta signalling in schwann cells of the Muller glia. Glia 2001."
    got = verify(text, work)
    assert got.verdict == "matches"
    assert [e.state for e in got.evidence[:3]] == ["agreed", "agreed", "agreed"]


def test_a_style_without_titles_is_compared_by_its_other_fields() -> None:
    physics = "Y. LeCun, Y. Bengio, G. Hinton, Nature 521, 436 (2015)."
    got = verify(physics, DEEP)
    assert got.verdict == "matches" and got.evidence[0].state == "absent"
    assert verify("LeCun Y. 2015.", DEEP).verdict == "cannot-tell"
    assert verify("Smith Q, Cell 9, 100 (1999).", DEEP).verdict == "mismatch"


def test_a_retracted_work_marked_in_its_title_is_still_the_work() -> None:
    notice = Update("retraction", "Retraction", "2020-01-01", DEEP.doi, DEEP.doi,
                    "updated-by")
    marked = Work(doi=DEEP.doi, title="RETRACTED: Deep learning", authors=DEEP.authors,
                  issued_year=2015, container_title="Nature", volume="521",
                  first_page="436", updates=(notice,))
    got = verify(APA, marked)
    assert got.verdict == "matches" and got.notice is None and marked.retracted


@pytest.mark.parametrize("head", ["Erratum", "Retraction note to", "Expression of concern",
                                  "Corrigendum to", "Author Correction"])
def test_every_kind_of_notice_about_the_cited_work_is_a_notice(head: str) -> None:
    notice = Work(doi=Doi("10.1038", "n1"), title=f"{head}: Deep learning",
                  authors=(Author("LeCun", "Yann"),), issued_year=2016, container_title="Nature")
    got = verify(APA, notice)
    assert got.verdict == "mismatch" and got.notice is not None
    assert got.summary.startswith("The DOI is registered for a notice")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400), st.dictionaries(st.sampled_from(
    ["title", "author", "year", "journal", "volume", "pages", "TI", "AU", "x"]),
    st.text(max_size=60), max_size=6))
def test_verify_never_raises_and_always_says_why(text: str, fields: dict[str, str]) -> None:
    for reference in (text, fields):
        for work in (DEEP, UNIPROT, Work(doi=None, title="")):
            got = verify(reference, work)
            assert got.verdict in ("matches", "mismatch", "cannot-tell")
            assert got.summary and len(got.evidence) == 6


def test_links_and_issue_numbers_are_no_volume_or_page() -> None:
    work = Work(doi=Doi("10.1111", "ele.13085"), title="From noise to knowledge: how "
                "randomness generates novel phenomena and reveals information",
                authors=(Author("Boettiger", "Carl"),), issued_year=2018,
                container_title="Ecology Letters", volume="21", issue="8", first_page="1255")
    text = ("Boettiger C (2018) From noise to knowledge: how randomness generates novel "
            "phenomena and reveals information. Ecology Letters. "
            "https://doi.org/10.1111/ele.13085")
    assert verify(text, work).verdict == "matches"
    volume_and_issue = ("Boettiger, C. “From noise to knowledge: how randomness generates "
                        "novel phenomena and reveals information”. Ecology Letters, 21, 8 "
                        "(2018).")
    got = verify(volume_and_issue, work)
    assert got.verdict == "matches"
    assert {e.field: e.state for e in got.evidence}["first-page"] == "absent"


def test_data_and_the_work_it_comes_from_are_told_apart() -> None:
    article = Work(doi=None, title="The transition from resistance to acceptance",
                   authors=(Author("Keller", "A."),), issued_year=2025,
                   container_title="Journal of Applied Ecology")
    data = Work(doi=None, title="Data from: The transition from resistance to acceptance",
                authors=(Author("Keller", "A."),), issued_year=2025, publisher="Dryad")
    cites_data = "Keller A (2025) Data from: The transition from resistance to acceptance. Dryad."
    cites_article = ("Keller A (2025) The transition from resistance to acceptance. J Appl "
                     "Ecol.")
    assert verify(cites_data, data).verdict == "matches"
    assert verify(cites_article, article).verdict == "matches"
    wrong_way = verify(cites_data, article)
    assert wrong_way.verdict == "mismatch" and "“data from …”" in wrong_way.summary
    other_way = verify(cites_article, data)
    assert other_way.verdict == "mismatch" and other_way.notice is not None
    assert other_way.summary.startswith("The DOI is registered for the data")


def test_a_notice_with_a_long_title_is_still_a_notice() -> None:
    long_title = ("Methylphenidate exposure induces dopamine neuron loss and activation of "
                  "microglia in the basal ganglia of mice in a dose dependent way")
    notice = Work(doi=None, title=f"Correction: {long_title}",
                  authors=(Author("Sadasivan", "S."),), issued_year=2013)
    text = f"Sadasivan S (2012) {long_title}. PLoS ONE 7:e33693."
    assert verify(text, notice).notice is not None
    assert verify(f"Sadasivan S (2013) Correction: {long_title}. PLoS ONE 8.",
                  notice).notice is None


@pytest.mark.parametrize(("title", "author", "other"), [
    ("Математическое моделирование твердофазной плунжерной экструзии", "Паршин",
     "Теория упругости анизотропного тела"),
    ("数学的モデルによる流体の研究", "山田", "機械学習の応用"),
    ("Ελληνική γλώσσα και ιστορία", "Παπαδόπουλος", "Αρχαία φιλοσοφία"),
])
def test_titles_in_any_script_are_compared(title: str, author: str, other: str) -> None:
    work = Work(doi=None, title=title, authors=(Author(author, ""),), issued_year=2015,
                container_title="Журнал", volume="49", first_page="361")
    assert verify({"title": title, "author": author, "year": "2015"}, work).verdict == "matches"
    assert verify(f"{author} (2015) {title}. Журнал 49:361-366.", work).verdict == "matches"
    assert verify({"title": other, "author": author, "year": "2015"}, work).verdict == "mismatch"


def test_a_main_title_before_a_dash_and_a_subtitle_agrees_when_the_journal_follows() -> None:
    work = Work(doi=None, title="Graduate Curriculum Initiative - COSMIC",
                subtitle="A Report", authors=(Author("Krenz", "G."),), issued_year=2019,
                container_title="Proceedings of the 50th ACM Technical Symposium on Computer "
                "Science Education")
    text = ("Krenz G. Graduate Curriculum Initiative - COSMIC. Proceedings of the 50th ACM "
            "Technical Symposium on Computer Science Education. 2019.")
    assert verify(text, work).verdict == "matches"
    goes_on = ("Krenz G. Graduate Curriculum Initiative - COSMIC and beyond in teaching. "
               "Other Journal. 2019.")
    assert verify(goes_on, work).verdict == "mismatch"


def test_a_number_inside_a_name_is_no_volume_or_page() -> None:
    # Another work of the same author, journal and volume: its first page, 1, stands in
    # the reference only inside a chemical's name.
    other = Work(doi=None, title="Defining the bioaccumulation of PAC in mussels",
                 authors=(Author("Hellou", "J."),), container_short="Int J Polyc Arom Comp",
                 volume="26", first_page="1")
    text = ("Hellou J, Beach DG (2010) Balanced fates of pyrene and 1-hydroxypyrene in "
            "snails. Int J Polyc Arom Comp 26:75-90")
    got = verify(text, other)
    assert got.verdict == "mismatch"
    assert {e.field: e.state for e in got.evidence}["first-page"] == "differed"
    for pages, first in (("S93-S95", "S93"), ("ii13-ii16", "ii13"), ("293_318", "293"),
                         ("2165-a-2166", "2165"), ("11,023-33", "11,023")):
        work = Work(doi=None, title="Balanced fates of pyrene and 1-hydroxypyrene in snails",
                    authors=(Author("Hellou", "J."),), container_short="Int J Polyc Arom Comp",
                    volume="26", first_page=first)
        cited = text.replace("75-90", pages)
        assert {e.field: e.state for e in verify(cited, work).evidence}["first-page"] == (
            "agreed"), pages


def test_bibtex_latex_reads_as_text() -> None:
    bib = ("@article{m,\n  title = {The {$\\beta$}-catenin of {M}{\\\"u}ller cells in "
           "Fran\\c{c}ois's \\textit{Xenopus}},\n  author = {M{\\\"u}ller, J. and Erd\\H{o}s, "
           "P.},\n  year = 2001\n}")
    fields = row_reference(bib, "bibtex")
    assert isinstance(fields, dict)
    assert fields["title"] == "The  beta -catenin of Müller cells in François's Xenopus"
    assert fields["author"] == "Müller, J. and Erdős, P."
    work = Work(doi=None, title="The β-catenin of Müller cells in François's <i>Xenopus</i>",
                authors=(Author("Müller", "J."),), issued_year=2001)
    assert verify(fields, work).verdict == "matches"


@pytest.mark.parametrize(("kind", "record", "fields_read"), [
    # PubMed's export (MEDLINE): TI over two lines, AU, DP, VI, PG
    ("medline", "PMID- 5452358\nDP  - 1970 Aug 14\nTI  - The structure of ordinary\n"
     "      water.\nPG  - 635-41\nFAU - Frank, H S\nAU  - Frank HS\nVI  - 169\n"
     "JT  - Science (New York, N.Y.)\nAID - 10.1126/science.169.3946.635 [doi]\n",
     {"ti": "The structure of ordinary water.", "dp": "1970 Aug 14"}),
    # EndNote's export (Refer): %T over two lines, %A, %D, %V, %P
    ("refer", "%0 Journal Article\n%A Frank, H. S.\n%T The structure of ordinary\nwater\n"
     "%J Science\n%D 1970\n%V 169\n%P 635-641\n%R 10.1126/science.169.3946.635\n",
     {"title": "The structure of ordinary water", "year": "1970", "author": "Frank, H. S."}),
    # Web of Science's export: TI over two lines, AU (one author a line), PY, SO, VL, BP
    ("wos", "PT J\nAU Frank, HS\n   Other, A\nTI The structure of ordinary\n   water\n"
     "SO SCIENCE\nCR Smith J, 1950, NATURE, V1, P1, DOI 10.1000/cited\nPY 1970\n"
     "VL 169\nBP 635\nDI 10.1126/science.169.3946.635\nER\n",
     {"title": "The structure of ordinary water", "year": "1970", "author": "Frank, HS"}),
])
def test_a_record_of_tagged_lines_is_checked_by_its_fields(kind: str, record: str,
                                                           fields_read: dict[str, str]) -> None:
    # the record's fields against the registry's record: the cited work, and another
    # work's fields
    path = Path(__file__).resolve().parents[1] / "fixtures" / "registry" / "csl-science.json"
    work = Work.from_csl(json.loads(path.read_text(encoding="utf-8")))
    fields = row_reference(record, kind)
    assert not isinstance(fields, str)
    assert {k: fields[k] for k in fields_read} == fields_read
    assert verify(fields, work).verdict == "matches"
    other = record.replace("The structure of ordinary", "Deep learning in").replace(
        "Frank", "LeCun").replace("1970", "2015")
    assert verify(row_reference(other, kind), work).verdict == "mismatch"


