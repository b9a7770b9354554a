"""What a name identifies, in Inspect: the card under the link and a retraction above it,
read from Crossref and DataCite routed to fixtures (tests/fixtures/registry, from the
shared references data); a name cut by a space settled by the registry; each failure's
one sentence, as the core reads the same answer on the host."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from doiname import Doi, read_registry_answer
from doiname.work_card import work_card

from .batch_page import read_download
from .conftest import DoiRoutes
from .registry_routes import (
    CUT_REFERENCE,
    REGISTRY,
    UNKNOWN,
    RegistryRoutes,
    Reply,
    route_registries,
)
from .site_page import open_page

pytestmark = pytest.mark.e2e

RETRACTED = "10.1080/13813455.2019.1651869"
SREP = "10.1038/srep16696"


@pytest.fixture
def registries(page: Page, doi_routes: DoiRoutes) -> Iterator[RegistryRoutes]:
    yield route_registries(page, doi_routes)


def crossref_requests(routes: RegistryRoutes) -> list[str]:
    return [u for u in routes.requests if u.startswith("https://api.crossref.org/")]


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_inspect_shows_the_card_and_a_retraction_above_the_link(
        page: Page, site_url: str, registries: RegistryRoutes, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_page(page, site_url)
    page.fill("#doi-input", RETRACTED)
    expect(page.locator("#result-name")).to_have_text(RETRACTED)
    assert crossref_requests(registries) == []  # never on a keystroke
    page.locator("#doi-input").press("Enter")
    banner = page.locator("#work-notice")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("Retracted")
    expect(banner).to_contain_text("This work was retracted on 2020-06-09")
    # The task's one line is no green all-clear next to it: the core's words for it.
    checks = page.locator("#task-checks")
    answer = read_registry_answer(Doi(*RETRACTED.split("/", 1)), "Crossref", 200,
                                  (REGISTRY / "crossref-retracted.json").read_text())
    assert answer.work is not None
    notice = work_card(answer.work).notice
    assert notice is not None and notice.level == "grave" and notice.verdict
    expect(checks).to_have_text(notice.verdict)
    expect(checks).to_have_class(re.compile(r"\bsev-error\b"))
    expect(checks).not_to_contain_text("No problems found")
    from .test_axe_and_hostile import axe_violations

    assert axe_violations(page) == [], "retraction and its verdict line"
    shots = Path(__file__).resolve().parents[1] / "screenshots"
    shots.mkdir(exist_ok=True)
    page.screenshot(path=str(shots / f"inspect-retracted-verdict-{size[0]}.png"))
    link = banner.get_by_role("link", name="Read the retraction notice")
    expect(link).to_have_attribute("href", "https://doi.org/10.1080/13813455.2019.1700048")
    notice_box = banner.bounding_box()
    link_box = page.locator("#url-recommended").bounding_box()
    assert notice_box and link_box and notice_box["y"] + notice_box["height"] <= link_box["y"]
    card = page.locator("#work-card")
    expect(card.locator("#work-title")).to_have_text(
        "Involvement of pro-inflammatory cytokines in diabetic neuropathic pain via central "
        "PI3K/Akt/mTOR signal pathway")
    expect(card).to_contain_text("Archives of Physiology and Biochemistry")
    card_box = card.bounding_box()
    assert card_box and card_box["y"] > link_box["y"]  # under the link
    # Kept per exact name: resolving again asks no registry again.
    page.get_by_role("button", name="Resolve", exact=True).click()
    expect(card.locator("#work-title")).to_be_visible()
    expect(checks).to_have_text(notice.verdict)
    assert len(crossref_requests(registries)) == 1
    # Another name: its own line, the notice gone.
    page.fill("#doi-input", "10.1000/182")
    expect(banner).to_be_hidden()
    expect(checks).to_have_text("No problems found.")


def test_the_card_names_title_authors_year_container_type_agency(
        page: Page, site_url: str, registries: RegistryRoutes) -> None:
    open_page(page, site_url, doi=SREP)
    expect(page.locator("#result-name")).to_have_text(SREP)
    page.get_by_role("button", name="Resolve", exact=True).click()
    card = page.locator("#work-card")
    expect(card.locator("#work-title")).to_contain_text("Single-molecule FRET studies")
    for said in ("Tosatto, Laura; Horrocks, Mathew H.; Dear, Alexander J. and 5 others",
                 "2015", "Scientific Reports", "Journal article", "Crossref"):
        expect(card).to_contain_text(said)
    expect(page.locator("#work-notice")).to_be_hidden()
    assert crossref_requests(registries) == [f"https://api.crossref.org/works/{SREP}"]


def test_a_dataset_is_read_from_datacite(
        page: Page, site_url: str, registries: RegistryRoutes) -> None:
    open_page(page, site_url, doi="10.5061/dryad.8515")
    expect(page.locator("#result-name")).to_have_text("10.5061/dryad.8515")
    page.locator("#doi-input").press("Enter")
    card = page.locator("#work-card")
    expect(card).to_contain_text("DataCite")
    expect(card).to_contain_text("Ollomo, Benjamin")
    assert [u for u in registries.requests if "datacite" in u] == [
        "https://api.datacite.org/dois/10.5061/dryad.8515"]


def test_a_name_cut_by_a_space_is_settled_on_the_registered_reading(
        page: Page, site_url: str, registries: RegistryRoutes) -> None:
    open_page(page, site_url)
    page.fill("#doi-input", CUT_REFERENCE)
    expect(page.locator("#result-name")).to_have_text("10.1038/srep16")
    expect(page.locator("#task-checks")).to_contain_text("Check before you copy")
    page.get_by_role("button", name="Resolve", exact=True).click()
    expect(page.locator("#result-name")).to_have_text(SREP)
    settled = page.locator("#work-settled")
    expect(settled).to_contain_text(f"{SREP} is registered and its record fits the reference")
    expect(settled).to_contain_text("10.1038/srep16 is not registered")
    expect(page.locator("#work-title")).to_contain_text("Single-molecule FRET studies")
    expect(page.locator("#url-recommended")).to_have_text(f"https://doi.org/{SREP}")


def _failure(page: Page, site_url: str, registries: RegistryRoutes, reply: Reply,
             said: str) -> None:
    """A fresh page (its own life: nothing kept, no limit held) gets ``reply`` for SREP's
    record and says ``said``, with the DOI's link to open instead."""
    registries.reply(f"/works/{SREP}", reply)
    page.goto("about:blank")
    open_page(page, site_url, doi=SREP)
    expect(page.locator("#result-name")).to_have_text(SREP)
    page.get_by_role("button", name="Resolve", exact=True).click()
    message = page.locator("#work-message")
    expect(message).to_have_text(f"{said} Open the DOI's page")
    expect(message.get_by_role("link")).to_have_attribute("href", f"https://doi.org/{SREP}")


def test_rate_limited_missing_cors_and_a_landing_page_each_say_their_sentence(
        page: Page, site_url: str, registries: RegistryRoutes) -> None:
    doi = Doi("10.1038", "srep16696")
    limited = read_registry_answer(doi, "Crossref", 429, "", retry_after="7")
    _failure(page, site_url, registries, Reply(
        429, "", "text/plain", headers={"Retry-After": "7",
                                        "Access-Control-Expose-Headers": "Retry-After"}),
             limited.message)
    assert limited.message == "Crossref is limiting requests. Asking again in 7 seconds."
    refused = read_registry_answer(doi, "Crossref", None, None, failure="network")
    body = (REGISTRY / "crossref-srep16696.json").read_text(encoding="utf-8")
    _failure(page, site_url, registries, Reply(200, body, cors=False), refused.message)
    html = "<!DOCTYPE html><html><head><title>Article</title></head><body>x</body></html>"
    page_answer = read_registry_answer(doi, "Crossref", 200, html, content_type="text/html")
    _failure(page, site_url, registries, Reply(200, html, "text/html"), page_answer.message)
    assert "web page" in page_answer.message and "does not let" in refused.message


def test_check_all_gives_a_bibtex_list_its_statuses_and_exports(
        page: Page, site_url: str, registries: RegistryRoutes) -> None:
    """One right DOI, one wrong (another work's record), one retracted, one unknown: each
    row gets the status the core's check_row gives it, the counts and the filters show
    them, the CSV carries the check's columns, and each name was asked once."""
    from doiname.bridge import BATCH_STATUSES

    labels: dict[str, str] = {s["status"]: s["label"] for s in BATCH_STATUSES}
    unknown = UNKNOWN
    bib = (REGISTRY / "check-all.bib").read_text(encoding="utf-8")
    open_page(page, site_url)
    page.fill("#batch-input", bib)
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done")
    page.click("#batch-check")
    status = page.locator("#batch-status")
    expect(status).to_contain_text("Checked 3 names")
    expect(status).to_contain_text(f"1 {labels['another-work'].lower()}")
    expect(status).to_contain_text(f"1 {labels['updated'].lower()}")
    rows = page.locator("#batch-body tr[data-row]")
    for i, want in enumerate(("ok", "another-work", "updated", "not-found")):
        expect(rows.nth(i)).to_contain_text(labels[want])
    page.select_option("#batch-filter", "another-work")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Title differs")
    page.select_option("#batch-filter", "updated")
    expect(rows).to_have_count(1)
    page.select_option("#batch-filter", "all")
    table = list(csv.DictReader(io.StringIO(read_download(page, "#batch-csv"))))
    assert [(r["record"].partition(" · ")[0], r["status"], r["verdict"]) for r in table] == [
        ("right", "ok", "matches"), ("wrong", "another-work", "mismatch"),
        ("retracted", "updated", "matches"), ("unknown", "not-found", "")]
    # The record column is the record's label as the core gives it (key and first line).
    from doiname.records import iter_records
    assert [r["record"] for r in table] == [
        r.label for r in iter_records(bib.splitlines()) if r.kind == "bibtex"]
    assert table[1]["registered_title"].startswith("Single-molecule FRET studies")
    assert table[0]["registered_year"] == "2015"
    assert table[2]["update"] == "retraction 2020-06-09 10.1080/13813455.2019.1700048"
    # Each name asked once (the unknown one not at all when Which RA said so first).
    asked = [u.rsplit("/works/", 1)[1] for u in registries.requests]
    assert sorted(set(asked)) == sorted(asked)
    assert {SREP, RETRACTED} <= set(asked) <= {SREP, RETRACTED, unknown}


def test_axe_finds_nothing_in_the_card_the_notice_the_settings_and_the_checks(
        page: Page, site_url: str, doi_routes: DoiRoutes, registries: RegistryRoutes) -> None:
    from .test_axe_and_hostile import axe_violations

    open_page(page, site_url, doi=RETRACTED)
    expect(page.locator("#result-name")).to_have_text(RETRACTED)
    page.locator("#doi-input").press("Enter")
    expect(page.locator("#work-notice")).to_be_visible()
    assert axe_violations(page) == [], "retraction and card"
    page.fill("#crossref-mailto", "library@example.edu")
    page.fill("#doi-input", CUT_REFERENCE)
    page.get_by_role("button", name="Resolve", exact=True).click()
    expect(page.locator("#work-settled")).to_be_visible()
    assert axe_violations(page) == [], "settled reading"
    page.fill("#batch-input", (REGISTRY / "check-all.bib").read_text(encoding="utf-8"))
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done")
    page.click("#batch-check")
    expect(page.locator("#batch-status")).to_contain_text("Checked 3 names")
    page.locator('#batch-body tr[data-row="1"]').click()
    expect(page.locator("#batch-detail")).to_contain_text("Points at another work")
    assert axe_violations(page) == [], "checked batch"
