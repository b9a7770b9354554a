"""The words a person reads about an inspection (doiname.reading_words), and shortDOIs in
every written form (extract R17)."""

from __future__ import annotations

import pytest

from doiname import extract
from doiname.batch import BatchSession, iter_batch_rows
from doiname.inspection import inspect
from doiname.linkify import link_targets


def test_a_final_period_is_said_in_words_not_as_a_warning_on_the_right_reading() -> None:
    found = inspect("doi: 10.1016/S0140-6736(20)30183-5.")
    first, literal = found.candidates
    assert (first.label, literal.label) == ("Most likely", "If the “.” belongs to the name")
    assert found.headline is not None
    assert found.headline.said == "The final “.” was left out: it ends the sentence."
    assert found.headline.alternative == 1 and found.headline.explains == "trailing-punctuation"
    assert found.headline.label == "If the “.” belongs to the name: 10.1016/S0140-6736(20)30183-5."
    assert found.message == ("DOI name 10.1016/S0140-6736(20)30183-5. The final “.” was left "
                             "out: it ends the sentence.")
    # no doubled period in any message
    for c in found.candidates:
        for f in c.findings:
            assert ".." not in f.message.replace("“.”", "")
    picked = inspect("doi: 10.1016/S0140-6736(20)30183-5.", 1)
    assert ".." not in picked.message and "“10.1016/S0140-6736(20)30183-5.”" in picked.message
    assert picked.headline is not None and picked.headline.alternative == 0


@pytest.mark.parametrize(("text", "said"), [
    ("see 10.1000/182/full now", "The final “/full” was left out: it names a publisher's page"),
    ("https://link.springer.com/content/pdf/10.1007/s1.pdf",
     "The final “.pdf” was left out: it names a publisher's page, file or version"),
    ("(see 10.1000/182) now", "The final “)” was left out: it closes a bracket opened before"),
    ("10.1000/182", None),
    ("10.1000/182,", "“,” after the name was left out."),
    ("see 10.1000/182: and", "The final “:” was left out: it is punctuation after the name."),
])
def test_what_was_left_out_is_said(text: str, said: str | None) -> None:
    line = inspect(text).headline
    if said is None:
        assert line is None
    else:
        assert line is not None and line.said.startswith(said)


def test_separate_names_are_names_not_other_readings() -> None:
    found = inspect("10.1000/a, 10.1000/b, 10.1000/c")
    assert [c.label for c in found.candidates] == [
        "DOI name 1 of 3", "DOI name 2 of 3", "DOI name 3 of 3"]
    assert found.headline is not None and found.headline.said.startswith("3 DOI names")
    assert "reading" not in found.message


def test_a_lookalike_repair_is_offered_as_a_link_to_copy() -> None:
    found = inspect("10.1000/a\u2013b")
    assert found.offer is not None
    assert found.offer.label == "Copy the link with “-” instead of the en dash"
    assert found.offer.as_written == "Copy the link as written, with the en dash"
    assert found.offer.url == "https://doi.org/10.1000/a-b"
    assert found.forms is not None and found.forms.url == "https://doi.org/10.1000/a%E2%80%93b"
    assert inspect("10.1000/182").offer is None


def test_one_repair_far_apart_is_offered_without_spelling_the_stretch_out() -> None:
    """Lookalikes at both ends of a long name: one repaired link, its button in a few
    words (not every code point between the two changes)."""
    found = inspect("10.1000/\u0430" + "b" * 7_000 + "\u2013c")
    assert found.offer is not None
    assert found.offer.label == "Copy the repaired link"
    assert found.offer.as_written == "Copy the link as written"
    assert found.offer.url == "https://doi.org/10.1000/a" + "b" * 7_000 + "-c"


@pytest.mark.parametrize("text", [
    "https://doi.org/abcde", "doi.org/abcde", "10/abcde", "doi:10/abcde", "http://dx.doi.org/abcde",
    "https://doi.org/10/abcde", "See https://doi.org/abcde.", "DOI: 10/abcde",
])
def test_short_dois_in_every_written_form(text: str) -> None:
    found = inspect(text)
    assert found.verdict == "short-doi"
    (m,) = extract(text)
    assert m.kind == "short-doi" and m.short == "10/abcde" and not m.ok
    assert [x.doi for x in extract(text) if x.ok] == []


@pytest.mark.parametrize("text", [
    "10/2021", "10/12/2021", "doi.org/2021", "on 10/abc we met", "https://www.doi.org/abcde",
    "https://shortdoi.org/abcde", "https://doi.org/abcde/full", "1/2 10/3",
    "https://doi.org/https://doi.org/10.1000/182",  # a link doubled (a scheme, no code)
    "http://dx.doi.org/http://dx.doi.org/10.1000/182",
])
def test_what_only_looks_like_a_short_doi_is_not_one(text: str) -> None:
    assert all(m.kind != "short-doi" for m in extract(text))


def test_doi_names_of_a_text_are_its_ok_matches() -> None:
    text = "https://doi.org/abcde and 10.1000/182"
    assert [str(m.doi) for m in extract(text) if m.ok] == ["10.1000/182"]
    assert [m.short for m in extract(text)] == ["10/abcde", None]


@pytest.mark.parametrize("text", [
    "doi: 10.1016/S0140-6736(20)30183-5.", "see 10.1000/182: and", "(see 10.1000/182) now",
    "see 10.1000/182/full now", "10.1000/abc…", "doi: 10.1080/07853890.2016.\n1231932",
    "10.1000/182)", "10.1124/mol...",
])
def test_inspect_and_batch_give_one_verdict(text: str) -> None:
    """What the card's line says is a note only when its finding is one: Inspect counts
    the warnings Batch's row is a warning for, no more and no fewer."""
    from doiname.batch import iter_batch_rows

    found = inspect(text)
    assert found.selected is not None
    c = found.candidates[found.selected]
    explained = found.headline.explains if found.headline else ""
    warned = [f for f in (*c.findings, *found.notes)
              if f.severity == "warning" and f.code != explained]
    (row,) = [r for r in iter_batch_rows(text.splitlines()) if r.status != "no-doi"]
    assert row.doi == c.doi.name
    assert row.status == ("warning" if warned else "ok"), (row.findings, found.headline)


def test_a_link_to_another_site_is_said_to_be_one() -> None:
    # not "the prefix “https:” does not start with 10.": the site is named, and the host
    # is what the finding points at
    found = inspect("https://www.nature.com/articles/nature14539")
    assert found.verdict == "none"
    assert "“www.nature.com” (character 9) is not a DOI resolver" in found.message
    assert "https:" not in found.message.split("resolver")[0]


@pytest.mark.parametrize(("text", "cut"), [
    ("LeCun Y. Deep learning. Nature. https://doi.org/10.1038/nature14 539", "space"),
    ("https://doi.org/10.1002/anie.2020\n12345", "line break"),
    ("https://doi.org/10.1002/anie.2020\r\n12345", "line break"),
    ("see 10.1002/anie.2020 12345", "space"),
])
def test_the_joined_reading_says_what_cut_the_name(text: str, cut: str) -> None:
    # extract R21 and R22 join across a space or a line break: the words name which
    found = inspect(text)
    joined = next(c for c in found.candidates if c.how == "joined")
    assert joined.label == f"If the {cut} cut the name in two"
    assert found.headline is not None
    assert found.headline.said == f"The name was read up to the {cut}."


@pytest.mark.parametrize(("text", "cut"), [
    ("Coral Reefs 25, 73-76. (doi:10.1007/ \ns00338-005-0072-7)", "line break"),
    ("doi:10.1000/ 182", "space"),
])
def test_a_name_cut_right_after_its_slash_is_read_joined(text: str, cut: str) -> None:
    # extract R21: as written there is no suffix, so the joined name is the reading, with
    # a warning that says so; Inspect, Batch and the CLI say the same
    found = inspect(text)
    first = found.candidates[0]
    assert found.verdict == "name" and first.status == "warning"
    assert [f.code for f in first.findings] == ["line-break"]
    assert f"cut by a {cut} right after its “/”" in first.findings[0].message
    assert first.findings[0].repair is None


@pytest.mark.parametrize(("text", "char", "repaired"), [
    ("10.1000\uff0f182", "U+FF0F FULLWIDTH SOLIDUS", "10.1000/182"),
    ("\uff11\uff10.\uff11\uff10\uff10\uff10/182", "U+FF11 FULLWIDTH DIGIT ONE", "10.1000/182"),
    ("10.1000\u2215182", "U+2215 DIVISION SLASH", "10.1000/182"),
    ("See \uff11\uff10\uff0e\uff11\uff10\uff10\uff10\uff0f\uff11\uff18\uff12 please",
     "U+FF0E FULLWIDTH FULL STOP", "See 10.1000/182 please"),
])
def test_a_name_written_in_lookalikes_is_said_and_its_repair_offered(
        text: str, char: str, repaired: str) -> None:
    # 003 ch. 6: no name as written (the verdict every surface gives), but the text in the
    # characters its lookalikes pass for holds one: said, and offered as the repair
    found = inspect(text)
    assert found.verdict == "none" and found.candidates == ()
    (why,) = found.notes
    assert why.severity == "error" and char in why.message and "it reads 10.1000/182" in why.message
    assert why.repair == repaired
    assert inspect(repaired).verdict == "name"


SCOPUS_ROW = ('"Smith J.","A title","2020","10.1016/j.cell.2020.01.001","https://www.scopus.com/'
              'inward/record.uri?eid=2-s2.0-85&doi=10.1016%2fj.cell.2020.01.001&partnerID=40"')


@pytest.mark.parametrize(("text", "names", "again"), [
    (SCOPUS_ROW, ["10.1016/j.cell.2020.01.001"], "10.1016%2fj.cell.2020.01.001"),
    ("10.1000/ABC and again 10.1000/abc, then 10.1000/182", ["10.1000/ABC", "10.1000/182"],
     "10.1000/abc"),
])
def test_a_name_written_twice_is_one_name(text: str, names: list[str], again: str) -> None:
    # a Scopus CSV row holds its DOI in the DOI column and in its record link: it gave an
    # OK row and a "duplicate" of its own line, and Inspect said "2 DOI names found"
    found = inspect(text)
    primaries = [c for c in found.candidates if c.of is None]
    assert [str(c.doi) for c in primaries] == names
    assert found.verdict == ("name" if len(names) == 1 else "names")
    (note,) = [f for f in primaries[0].findings if f.code == "same-name"]
    assert note.severity == "info" and text[note.start:note.end] == again
    assert f"character {text.index(again) + 1} (“{again}”)" in note.message
    session = BatchSession(hint="csv")
    rows = list(session.iter_rows([text]))
    assert [(r.doi, r.status) for r in rows] == [(n, "ok") for n in names]
    assert [f.code for f in rows[0].findings] == ["same-name"]
    assert session.summary.duplicates == 0
    # every place is still a link
    (targets,) = link_targets([text])
    assert len(targets) == len(names) + 1


def test_a_reference_wrapped_over_lines_names_its_doi_once() -> None:
    lines = ["Smith J. A study of things. doi:10.1000/182. Available",
             "from https://doi.org/10.1000/182 today"]
    (row,) = iter_batch_rows(lines)
    assert row.line == 1 and row.doi == "10.1000/182" and row.status == "ok"
    assert "same-name" in {f.code for f in row.findings}
