"""The page's registry operations: ``lookup``/``read`` of kind ``registry``, the readings
Resolve looks up (``registry_plan``) and their order (``settle``), the Inspect card and its
notice; answers from tests/fixtures/registry (taken from the shared references data)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from doiname.bridge import request_json

FIXTURES = Path(__file__).parents[1] / "fixtures" / "registry"
SREP = {"prefix": "10.1038", "suffix": "srep16696"}
RETRACTED = {"prefix": "10.1080", "suffix": "13813455.2019.1651869"}
REFERENCE = ("Tosatto L, Horrocks MH, Dear AJ, et al. Single-molecule FRET studies on "
             "alpha-synuclein oligomerization of Parkinson's disease genetically related "
             "mutants. Sci Rep. 2015;5:16696. https://doi.org/10.1038/srep16 696")


def ask(op: str, **params: Any) -> Any:
    reply = json.loads(request_json(op, json.dumps(params)))
    assert "ok" in reply, reply
    return reply["ok"]


def refused(op: str, **params: Any) -> dict[str, Any]:
    reply = json.loads(request_json(op, json.dumps(params)))
    assert "error" in reply, reply
    error: dict[str, Any] = reply["error"]
    return error


def read(doi: dict[str, str], status: int | None, body: str | None, **more: Any) -> Any:
    return ask("read", kind="registry", doi=doi, agency="Crossref", status=status, body=body,
               failure=more.pop("failure", None), **more)


def test_the_request_carries_the_mailto_given_and_crossrefs_limits() -> None:
    polite = ask("lookup", kind="registry",
                 target={"doi": SREP, "agency": "Crossref", "mailto": "lib@example.org"})
    assert polite["url"] == ("https://api.crossref.org/works/10.1038/srep16696"
                             "?mailto=lib@example.org")
    assert (polite["per_second"], polite["concurrent"]) == (10, 3)
    public = ask("lookup", kind="registry", target={"doi": SREP, "agency": "Crossref"})
    assert "mailto" not in public["url"] and (public["per_second"], public["concurrent"]) == (5, 1)
    bad = refused("lookup", kind="registry",
                  target={"doi": SREP, "agency": "Crossref", "mailto": "not an address"})
    assert bad["code"] == "bad-mailto" and "nothing was sent" in bad["message"]


def test_a_record_is_read_into_a_card_and_checked_against_the_reference() -> None:
    body = (FIXTURES / "crossref-srep16696.json").read_text(encoding="utf-8")
    got = read(SREP, 200, body, content_type="application/json", reference=REFERENCE)
    assert got["answer"]["outcome"] == "found"
    card = got["card"]
    assert card["title"].startswith("Single-molecule FRET studies")
    assert card["authors"] == "Tosatto, Laura; Horrocks, Mathew H.; Dear, Alexander J. and 5 others"
    assert (card["year"], card["container"], card["type"], card["agency"]) == (
        "2015", "Scientific Reports", "Journal article", "Crossref")
    assert card["notice"] is None and got["verification"]["verdict"] == "matches"
    alone = read(SREP, 200, body)
    assert alone["verification"] is None and alone["card"] == card


def test_a_retraction_is_a_grave_notice_with_the_notice_link() -> None:
    body = (FIXTURES / "crossref-retracted.json").read_text(encoding="utf-8")
    notice = read(RETRACTED, 200, body)["card"]["notice"]
    assert (notice["level"], notice["head"]) == ("grave", "Retracted")
    assert "2020-06-09" in notice["text"] and "Do not cite it" in notice["text"]
    assert notice["href"] == "https://doi.org/10.1080/13813455.2019.1700048"
    corrected = (FIXTURES / "crossref-corrected.json").read_text(encoding="utf-8")
    note = read({"prefix": "10.1371", "suffix": "journal.pone.0033693"}, 200,
                corrected)["card"]["notice"]
    assert (note["level"], note["head"]) == ("note", "Corrected")


def test_each_failure_is_one_sentence() -> None:
    limited = read(SREP, 429, "", retry_after="7")["answer"]
    assert limited["outcome"] == "rate-limited" and limited["retry_after_s"] == 7
    assert limited["message"] == "Crossref is limiting requests. Asking again in 7 seconds."
    cors = read(SREP, None, None, failure="network")["answer"]
    assert cors["outcome"] == "network" and "does not let browsers" in cors["message"]
    page = read(SREP, 200, "<!DOCTYPE html><html><body>Article</body></html>",
                content_type="text/html")["answer"]
    assert page["outcome"] == "bad-answer" and "web page" in page["message"]
    missing = read(SREP, 404, "Resource not found.")["answer"]
    assert missing["message"] == "Not found: Crossref has no record of this DOI."
    assert refused("read", kind="registry", doi=SREP, status=None, body=None,
                   failure="weird")["code"] == "bad-arguments"


def test_resolve_looks_up_the_readings_of_a_cut_name_and_settles_on_the_registered() -> None:
    plan = ask("registry_plan", text=REFERENCE)
    names = [t["doi"]["name"] for t in plan["targets"]]
    assert names == ["10.1038/srep16", "10.1038/srep16696"] and plan["reference"] == REFERENCE
    assert ask("registry_plan", text="10.1038/srep16696")["reference"] is None
    body = (FIXTURES / "crossref-srep16696.json").read_text(encoding="utf-8")
    fits = read(SREP, 200, body, reference=REFERENCE)["verification"]
    settled = ask("settle", readings=[
        {"candidate": 0, "name": names[0], "outcome": "not-found"},
        {"candidate": 1, "name": names[1], "outcome": "found", "verdict": fits["verdict"],
         "summary": fits["summary"]}])
    assert settled["order"] == [1, 0] and settled["first"] == 1
    assert settled["reason"].startswith("10.1038/srep16696 is registered and its record fits")
    assert settled["reason"].endswith("10.1038/srep16 is not registered.")
    none = ask("settle", readings=[{"candidate": 0, "name": "a", "outcome": "not-found"}])
    assert none["first"] is None and "none is registered" in none["reason"]
    other = ask("settle", readings=[{"candidate": 0, "name": "10.1/a", "outcome": "found",
                                     "verdict": "mismatch", "summary": "Title differs."}])
    assert other["first"] is None and "another work" in other["reason"]
