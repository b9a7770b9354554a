"""Records of the tagged exports of reference databases: PubMed (MEDLINE format, .nbib),
EndNote (Refer, .enw) and Web of Science (plain text): where each record starts and ends,
its key and label, and the rows it gives (the other kinds: test_records.py)."""

from __future__ import annotations

from pathlib import Path

from doiname import record_starts
from doiname.batch import iter_batch_rows
from doiname.records import RECORD_MAX_LINES, iter_records

from .test_records import kinds

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "references"


def test_pubmed_records_in_medline_format_are_one_record_each_with_their_pmid() -> None:
    # PubMed's export (.nbib): "PMID- " opens a record, a blank line ends it, and so do
    # the next record's first line and the end of the input
    lines = (FIXTURES / "medline.nbib").read_text().splitlines()
    got = kinds(lines)
    assert got == [(1, 25, "medline", "26017442"), (26, 38, "medline", "16873662"),
                   (39, 54, "medline", "31986264")]
    labels = [r.label for r in iter_records(lines)]
    assert labels == [
        "26017442 · LeCun (2015) Deep learning.",
        "16873662 · Hinton (2006) Reducing the dimensionality of data with neural networks.",
        "31986264 · Huang (2020) Clinical features of patients infected with 2019 novel "
        "coronavirus in Wuhan, China."]
    # a line of text that starts with a P is text
    assert kinds(["Proc. 10.1000/1", "PMID: 123 10.1000/2"]) == [
        (1, 1, "line", None), (2, 2, "line", None)]


def test_endnote_records_in_the_refer_format_are_one_record_each() -> None:
    # EndNote's tagged export (.enw): "%0 " opens a record, a blank line ends it, and so do
    # the next record's "%0 " and the end of the input; the key is its %F label
    lines = (FIXTURES / "endnote.enw").read_text().splitlines()
    assert kinds(lines) == [(1, 15, "refer", "lecun2015"), (16, 22, "refer", None),
                            (23, 28, "refer", None)]
    assert [r.label for r in iter_records(lines)] == [
        "lecun2015 · LeCun (2015) Deep learning",
        "Smith (2019) A study of things that wrap over two lines",  # (a title over lines)
        "Doe (2001) Chapter without a DOI"]
    # a line of text that starts with a % is text
    assert kinds(["% a comment 10.1000/1", "%0", "100% of 10.1000/2"]) == [
        (1, 1, "line", None), (2, 2, "line", None), (3, 3, "line", None)]


def test_endnote_records_give_one_row_each() -> None:
    rows = list(iter_batch_rows((FIXTURES / "endnote.enw").read_text()))
    assert [(r.line, r.doi, r.status, r.record) for r in rows] == [
        (11, "10.1038/nature14539", "ok", "lecun2015 · LeCun (2015) Deep learning"),
        (22, "10.1000/182", "ok", "Smith (2019) A study of things that wrap over two lines"),
        (23, None, "no-doi", "Doe (2001) Chapter without a DOI")]


def test_a_pubmed_record_of_a_consortium_is_one_record_however_many_its_authors() -> None:
    # three lines an author (FAU, AU, AD): a record of 400 authors is over RECORD_MAX_LINES
    # lines; a blank line ends it, so only its characters bound it
    authors = [f"FAU - Author{i}, A\nAU  - Author{i} A\nAD  - Lab {i}." for i in range(400)]
    text = ("PMID- 1\nTI  - A consortium's paper.\n" + "\n".join(authors)
            + "\nAID - 10.1000/consortium [doi]\n\nPMID- 2\nAID - 10.1000/2 [doi]\n")
    lines = text.splitlines()
    assert len(lines) > RECORD_MAX_LINES
    got = kinds(lines)
    assert got == [(1, 1204, "medline", "1"), (1205, 1206, "medline", "2")]
    # an open BibTeX entry is still given back at the bound
    assert kinds(["@article{k,"] + ["x"] * RECORD_MAX_LINES)[0] == (1, 1, "line", None)


def test_web_of_science_records_are_one_record_each_with_their_accession_number() -> None:
    # Web of Science's plain-text export: "PT J" opens a record, "ER" ends it; the lines
    # that frame the export (FN, VR, EF) and the blank lines between records are structure
    lines = (FIXTURES / "wos.txt").read_text().splitlines()
    assert [k for k in kinds(lines) if k[2] != "structure"] == [
        (3, 28, "wos", "WOS:000355286600030"), (30, 43, "wos", "WOS:000239395500036"),
        (45, 50, "wos", "WOS:000000000000001")]
    assert [r.label for r in iter_records(lines) if r.kind == "wos"] == [
        "WOS:000355286600030 · LeCun (2015) Deep learning",
        "WOS:000239395500036 · Hinton (2006) Reducing the dimensionality of data with neural "
        "networks",  # (a title over two lines)
        "WOS:000000000000001 · Doe (2001) A book chapter without a DOI"]
    assert record_starts.cited_lines(lines[2:28]) == range(11, 14)
    # a line of text that starts with "PT" or frames nothing is text
    assert [k[2] for k in kinds(["PT Barnum 10.1000/1", "VR headset 10.1000/2", "EF"])] == [
        "line", "line", "structure"]


def test_a_web_of_science_record_gives_a_row_for_its_own_doi_not_its_cited_works() -> None:
    rows = list(iter_batch_rows((FIXTURES / "wos.txt").read_text()))
    assert [(r.line, r.doi, r.status) for r in rows] == [
        (25, "10.1038/nature14539", "ok"), (41, "10.1126/science.1127647", "ok"),
        (45, None, "no-doi")]  # (the second record's DOI is no duplicate of a cited one)
    (note,) = rows[0].findings
    assert note.code == "cited-references" and note.severity == "info"
    assert "lines 14-16" in note.message and "3 DOI names" in note.message
    assert "10.1126/science.1127647" in note.message


def test_pubmed_records_give_one_row_each() -> None:
    rows = list(iter_batch_rows((FIXTURES / "medline.nbib").read_text()))
    assert [(r.line, r.doi, r.status) for r in rows] == [
        (7, "10.1038/nature14539", "ok"), (37, "10.1126/science.1127647", "ok"),
        (46, "10.1016/S0140-6736(20)30183-5", "ok")]
    assert [f.code for f in rows[0].findings] == ["same-name"]
    assert rows[0].record == "26017442 · LeCun (2015) Deep learning."
