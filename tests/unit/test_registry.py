"""Registry records: reading Crossref, DataCite and CSL-JSON answers into works, the one
request per agency, and every answer that is not a record as a plain sentence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doiname import Doi, Work, read_registry_answer, registry_request
from doiname.jsonable import to_jsonable
from doiname.limits import (
    CROSSREF_CONCURRENT_POLITE,
    CROSSREF_CONCURRENT_PUBLIC,
    CROSSREF_PER_SECOND_POLITE,
    CROSSREF_PER_SECOND_PUBLIC,
    REGISTRY_MAX_BODY,
    REGISTRY_MAX_DEPTH,
)
from doiname.registry import CSL_ACCEPT, RecordError, plain_title

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "registry"
#: The project's shared data, beside the repository (as in a fresh clone next to shared/).
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "references"
DOI = Doi("10.1371", "journal.pone.0033693")


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_a_crossref_work_reads_with_its_correction() -> None:
    answer = read_registry_answer(DOI, "Crossref", 200, fixture("crossref-corrected.json"))
    assert answer.outcome == "found"
    work = answer.work
    assert work is not None and work.doi == DOI
    assert work.title.startswith("Methylphenidate Exposure Induces Dopamine Neuron Loss")
    assert work.authors[0].family == "Sadasivan" and work.authors[0].given == "Shankar"
    assert (work.issued_year, work.container_title, work.first_page) == (2012, "PLoS ONE",
                                                                         "e33693")
    assert work.corrected and not work.retracted and not work.is_notice
    [update] = work.updates
    assert (update.kind, update.direction, update.date) == ("correction", "updated-by",
                                                            "2012-05-08")
    assert update.notice_doi is not None and update.notice_doi.prefix == "10.1371"
    assert "corrected" in work.status and update.notice_doi.name in work.status
    assert answer.message.startswith("Registered for “Methylphenidate")


def test_a_notice_reads_as_a_notice_not_as_the_updated_work() -> None:
    work = Work.from_crossref(json.loads(fixture("crossref-notice.json")))
    assert work.is_notice and not work.corrected and not work.retracted
    [update] = work.updates
    assert update.direction == "updates" and update.target_doi == Doi("10.1111", "ijal.12157")
    assert "notice" in work.status and "10.1111/ijal.12157" in work.status


def test_datacite_and_csl_answers_read() -> None:
    dryad = read_registry_answer(Doi("10.5061", "dryad.8515"), "DataCite", 200,
                                 fixture("datacite-dryad.json")).work
    assert dryad is not None and dryad.agency == "DataCite" and dryad.source == "datacite"
    assert dryad.title == "Data from: A new malaria agent in African hominids."
    assert [a.family for a in dryad.authors][:2] == ["Ollomo", "Durand"]
    assert (dryad.issued_year, dryad.online_year, dryad.type) == (2011, 2011, "dataset")
    csl = Work.from_csl(json.loads(fixture("csl-science.json")))
    assert csl.title == "The Structure of Ordinary Water" and csl.subtitle.startswith("New data")
    assert (csl.volume, csl.issue, csl.pages, csl.first_page) == ("169", "3946", "635-641", "635")
    assert csl.agency == "Crossref" and csl.print_year == 1970


def test_a_work_is_plain_json_data() -> None:
    work = Work.from_crossref(json.loads(fixture("crossref-corrected.json")))
    data = to_jsonable(work)
    assert data["doi"] == {"prefix": "10.1371", "suffix": "journal.pone.0033693",
                           "name": "10.1371/journal.pone.0033693"}
    assert data["updates"][0]["kind"] == "correction" and data["corrected"] is True
    json.dumps(data)


@pytest.mark.parametrize(("markup", "plain"), [
    ("The <i>E. coli</i> genome &amp; H<sub>2</sub>O", "The E. coli genome & H2O"),
    ("Spin <mml:math><mml:msub><mml:mi>S</mml:mi><mml:mn>z</mml:mn></mml:msub></mml:math> x",
     "Spin Sz x"),
    ("Line\n            broken &#946;-catenin", "Line broken β-catenin"),
    ("a < b and c > d", "a < b and c > d"),
])
def test_title_markup_becomes_text(markup: str, plain: str) -> None:
    assert plain_title(markup) == plain
    work = Work.from_csl({"title": markup, "DOI": "10.1/x"})
    assert (work.title, work.title_markup) == (plain, markup)


def test_each_agency_gets_its_one_request() -> None:
    polite = registry_request(DOI, "Crossref", mailto="library@example.org")
    assert polite.url == ("https://api.crossref.org/works/10.1371/journal.pone.0033693"
                          "?mailto=library@example.org")
    assert (polite.per_second, polite.concurrent) == (CROSSREF_PER_SECOND_POLITE,
                                                      CROSSREF_CONCURRENT_POLITE) == (10, 3)
    public = registry_request(DOI, "crossref")
    assert "mailto" not in public.url
    assert (public.per_second, public.concurrent) == (CROSSREF_PER_SECOND_PUBLIC,
                                                      CROSSREF_CONCURRENT_PUBLIC) == (5, 1)
    datacite = registry_request(Doi("10.5061", "dryad.8515"), "DataCite")
    assert datacite.url == "https://api.datacite.org/dois/10.5061/dryad.8515"
    assert datacite.form == "datacite" and datacite.readable
    odd = registry_request(Doi("10.1000", "a b#c"), "Crossref")
    assert odd.url == "https://api.crossref.org/works/10.1000/a%20b%23c"
    assert registry_request(DOI, "mEDRA").url == "https://doi.org/10.1371/journal.pone.0033693"
    assert registry_request(DOI, "JaLC").headers == {"Accept": CSL_ACCEPT}
    closed = registry_request(DOI, "KISTI")
    assert not closed.readable and closed.url == "" and "does not let browsers" in closed.message
    assert closed.open_url == "https://doi.org/10.1371/journal.pone.0033693"
    assert registry_request(DOI, "KISTI", browser=False).form == "csl"
    assert "ISTIC" in registry_request(DOI, "istic").message


@pytest.mark.parametrize(("status", "body", "kw", "outcome", "words"), [
    (429, "", {"retry_after": "7"}, "rate-limited", "7 seconds"),
    (404, '{"status":"failed"}', {}, "not-found", "no record"),
    (None, None, {"failure": "offline"}, "offline", "offline"),
    (None, None, {"failure": "timeout"}, "timeout", "in time"),
    (None, None, {"failure": "cors"}, "network", "does not let browsers"),
    (None, None, {"failure": "not-readable"}, "not-readable", "does not let browsers"),
    (200, "<!DOCTYPE html><html><body>Landing page</body></html>", {}, "bad-answer", "web page"),
    (200, "{}", {"content_type": "text/html; charset=utf-8"}, "bad-answer", "web page"),
    (200, '{"status": "ok", "message": {"DOI": "10.1/x", "title": ["T', {}, "bad-answer",
     "cut short"),
    (200, "[" * (REGISTRY_MAX_DEPTH + 1) + "]" * (REGISTRY_MAX_DEPTH + 1), {}, "bad-answer",
     "nested"),
    (200, "[" + "0," * 600_000 + "0]", {}, "too-large", "too large"),
    (200, " " * (REGISTRY_MAX_BODY + 1), {}, "too-large", "too large"),
    (200, '{"hello": "world"}', {}, "bad-answer", "not a record"),
    (500, "oops", {"retry_after": "30"}, "network", "server error"),
    (403, "", {}, "bad-answer", "refused"),
])
def test_every_answer_that_is_not_a_record_is_one_sentence(
        status: int | None, body: str | None, kw: dict[str, Any], outcome: str,
        words: str) -> None:
    answer = read_registry_answer(DOI, "Crossref", status, body, **kw)
    assert answer.outcome == outcome and answer.work is None
    assert words in answer.message and answer.message.endswith(".")
    assert "\n" not in answer.message and "Traceback" not in answer.message
    assert answer.open_url.startswith("https://doi.org/")


def test_retry_after_as_an_http_date_is_read() -> None:
    answer = read_registry_answer(DOI, "Crossref", 429, "",
                                  retry_after="Wed, 21 Oct 2015 07:28:00 GMT")
    assert answer.outcome == "rate-limited" and answer.retry_after_s == 0.0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["DOI", "title", "author", "issued", "message", "data", "status",
                         "attributes", "creators", "titles", "update-to", "updated-by",
                         "date-parts", "family", "page", "container-title", "x"]),
        inner, max_size=6),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(json_values, st.sampled_from(["Crossref", "DataCite", "mEDRA", ""]))
def test_any_json_reads_as_a_work_or_a_plain_sentence(value: Any, agency: str) -> None:
    answer = read_registry_answer(DOI, agency, 200, json.dumps(value))
    assert answer.outcome in ("found", "bad-answer")
    assert (answer.work is not None) == (answer.outcome == "found")
    json.dumps(to_jsonable(answer))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.sampled_from([None, "text/html", "application/json"]))
def test_any_text_reads_without_an_exception(body: str, content_type: str | None) -> None:
    answer = read_registry_answer(DOI, "Crossref", 200, body, content_type=content_type)
    assert answer.message


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 200), st.sampled_from("[{"))
def test_a_cut_or_deep_record_is_a_bad_answer(cut: int, bracket: str) -> None:
    text = fixture("crossref-corrected.json")
    assert read_registry_answer(DOI, "Crossref", 200, text[:-cut]).outcome == "bad-answer"
    bomb = bracket * 10_000
    assert read_registry_answer(DOI, "Crossref", 200, bomb).outcome == "bad-answer"


def test_readers_refuse_what_is_not_a_record() -> None:
    for bad in (None, 3, "x", [], [1, 2], {"a": 1}):
        with pytest.raises(RecordError):
            Work.from_crossref(bad)
        with pytest.raises(RecordError):
            Work.from_datacite(bad)


@pytest.mark.skipif(not (SHARED / "records.jsonl").is_file(), reason="shared data not here")
def test_every_recorded_registry_answer_reads() -> None:
    readers = {"crossref-work": Work.from_crossref, "datacite-api": Work.from_datacite,
               "csl-json": Work.from_csl}
    seen = 0
    with (SHARED / "records.jsonl").open(encoding="utf-8") as f:
        for line in f:
            item = json.loads(line)
            work = readers[item["kind"]](item["record"])
            assert work.doi is not None and work.doi.name.lower() == item["doi"].lower()
            assert "<" not in work.title or "<" in plain_title(work.title)
            seen += 1
    assert seen == 1913


def test_a_grave_notice_has_a_verdict_line_in_place_of_an_all_clear() -> None:
    """The card's notice gives the task's one line: a retracted work is no all-clear; a
    correction is a note, with no verdict line."""
    from doiname.work_card import work_card

    retracted = work_card(Work.from_crossref(json.loads(fixture("crossref-retracted.json"))))
    assert retracted.notice is not None and retracted.notice.level == "grave"
    assert "retracted" in retracted.notice.verdict
    assert "do not cite" in retracted.notice.verdict.lower()
    corrected = work_card(Work.from_crossref(json.loads(fixture("crossref-corrected.json"))))
    assert corrected.notice is not None and corrected.notice.level == "note"
    assert corrected.notice.verdict == ""
