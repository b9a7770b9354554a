"""Retractions, corrections, expressions of concern and withdrawals, as Crossref carries
them (``updated-by`` on the work, ``update-to`` on the notice), read from real lists:
openretractions.com's retracted DOIs and its DOIs with other updates."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from doiname import Doi, Work, read_registry_answer
from doiname.registry.values import update_kind

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "registry"
SHARED = Path("/work/shared/data/references")

#: What each update type of the lists is (their own words, typing slips included).
KINDS = {"retraction": "retraction", "Retraction": "retraction", "retration": "retraction",
         "erratum": "correction", "err": "correction", "correction": "correction",
         "corrigendum": "correction", "withdrawal": "withdrawal", "removal": "withdrawal",
         "expression_of_concern": "expression-of-concern",
         "expression-of-concern": "expression-of-concern"}


def lines(name: str) -> Iterator[dict[str, Any]]:
    path = SHARED / name
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    with path.open(encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def sample() -> list[dict[str, Any]]:
    with (FIXTURES / "retractions-sample.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _date(ms: int) -> dict[str, Any]:
    day = datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC)
    return {"date-parts": [[day.year, day.month, day.day]],
            "date-time": day.strftime("%Y-%m-%dT%H:%M:%SZ"), "timestamp": ms}


def crossref_answers(item: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """Crossref's answer for the work, and for each notice with a DOI of its own, as the
    REST API carries them: the work ``updated-by`` each notice, a notice ``update-to``
    the work (a notice that is the work's own DOI is both)."""
    doi = item["doi"]
    by, notices = [], []
    for update in item["updates"]:
        notice = update["identifier"]["doi"]
        entry = {"DOI": notice, "type": update["type"], "source": "publisher",
                 "updated": _date(update["timestamp"])}
        by.append(entry)
        if notice.lower() != doi.lower():
            notices.append((notice, json.dumps({"status": "ok", "message-type": "work",
                "message": {"DOI": notice, "type": "journal-article",
                            "title": [f"Notice: {item.get('title') or ''}"],
                            "update-to": [dict(entry, DOI=doi)]}})))
    message: dict[str, Any] = {"DOI": doi, "type": "journal-article",
                               "title": [item.get("title") or ""], "updated-by": by}
    if any(u["identifier"]["doi"].lower() == doi.lower() for u in item["updates"]):
        message["update-to"] = [dict(e, DOI=doi) for e in by if e["DOI"].lower() == doi.lower()]
    answer = json.dumps({"status": "ok", "message-type": "work", "message": message})
    return answer, notices


def read(doi: str, body: str) -> Work:
    prefix, _, suffix = doi.partition("/")
    answer = read_registry_answer(Doi(prefix, suffix), "Crossref", 200, body)
    assert answer.outcome == "found", answer.message
    assert answer.work is not None
    return answer.work


def check(item: dict[str, Any], *, listed_retracted: bool) -> None:
    """The work reads as what its updates make it (retracted also when the publisher
    marked its title so, as the retracted list has it), and each notice as a notice."""
    answer, notices = crossref_answers(item)
    work = read(item["doi"], answer)
    kinds = {KINDS[u["type"]] for u in item["updates"]}
    if "retraction" in kinds:
        assert work.retracted, item["doi"]
    if not listed_retracted:
        assert not work.retracted, item["doi"]
    assert work.withdrawn >= ("withdrawal" in kinds)
    assert work.concern == ("expression-of-concern" in kinds)
    assert work.corrected == ("correction" in kinds)
    assert not work.is_notice
    gravest = next(w for k, w in (("retraction", "retracted"), ("withdrawal", "withdrawn"),
                                  ("expression-of-concern", "expression of concern"),
                                  ("correction", "corrected")) if k in kinds)
    assert gravest in work.status
    for notice_doi, body in notices:
        notice = read(notice_doi, body)
        assert notice.is_notice and not notice.retracted and not notice.corrected
        assert notice.status.startswith("This is a notice") and item["doi"] in notice.status


def test_every_update_type_of_the_lists_has_its_kind() -> None:
    for word, kind in KINDS.items():
        assert update_kind(word) == kind
    assert update_kind("Partial Retraction") == "retraction"
    assert update_kind("new_version") == "new-version"
    assert update_kind("clarification") == "other"


@pytest.mark.parametrize("item", sample(), ids=lambda i: f"{i['updates'][0]['type']}:{i['doi']}")
def test_a_sample_reads_as_what_it_is(item: dict[str, Any]) -> None:
    check(item, listed_retracted=item["retracted"])


def test_every_listed_retraction_reads_as_retracted_and_each_notice_as_a_notice() -> None:
    seen = retracted = 0
    for item in lines("retractions.jsonl"):
        check(item, listed_retracted=True)
        seen += 1
        retracted += any(KINDS[u["type"]] == "retraction" for u in item["updates"])
    assert seen == 4770 and retracted == 3655


def test_corrections_and_concerns_are_never_retracted() -> None:
    seen = 0
    for item in lines("retraction_negatives.jsonl"):
        check(item, listed_retracted=False)
        seen += 1
    assert seen == 990


def test_retraction_watch_s_own_entry_reads_as_a_retraction() -> None:
    message = {"DOI": "10.1000/x", "title": ["A work"], "updated-by": [
        {"DOI": "10.1000/x-notice", "type": "retraction", "source": "retraction-watch",
         "record-id": 12345, "label": "Retraction",
         "updated": {"date-parts": [[2024, 3, 5]], "timestamp": 1709596800000}}]}
    work = Work.from_crossref(message)
    assert work.retracted and work.updates[0].source == "retraction-watch"
    assert work.status == ("This work was retracted on 2024-03-05: see the notice "
                           "10.1000/x-notice.")


@pytest.mark.parametrize(("title", "retracted", "withdrawn"), [
    ("RETRACTED: A study of things", True, False),
    ("RETRACTED ARTICLE: A study of things", True, False),
    ("Notice of Retraction: A study of things", True, False),
    ("WITHDRAWN: A study of things", False, True),
    ("Retraction of the lens in cataract surgery", False, False),
    ("A study of retracted papers", False, False),
])
def test_a_title_the_publisher_marked_reads_as_marked(title: str, retracted: bool,
                                                      withdrawn: bool) -> None:
    work = Work.from_crossref({"DOI": "10.1000/x", "title": [title]})
    assert (work.retracted, work.withdrawn) == (retracted, withdrawn)
    assert ("marked this work" in work.status) == (retracted or withdrawn)
    notice = Work.from_crossref({"DOI": "10.1000/n", "title": [title], "update-to": [
        {"DOI": "10.1000/x", "type": "retraction"}]})
    assert notice.is_notice and not notice.retracted
