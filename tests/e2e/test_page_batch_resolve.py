"""Batch's Resolve all in the page: only unique names are asked for, a few at a time,
with retries where Python's reading says so; Cancel stops; the exact names are asked
(never a decoded name read again). Expected values come from the host's core."""

from __future__ import annotations

import csv
import io
import json
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .batch_page import (
    host_rows,
    read_download,
)
from .site_page import open_page

pytestmark = pytest.mark.e2e


def test_resolve_all_four_at_a_time_with_retry(page: Page, site_url: str) -> None:
    """Resolve all: only unique names are asked for, never more than 4 at once; 503 and
    429 are asked again (Python's reading says ``retry``), 404 is final; the downloads
    carry each name's resolution, also on its duplicates."""
    from doiname import to_handles_api_url

    names = [f"10.1000/r{i}" for i in range(10)]
    text = "\n".join([*names, "doi:10.1000/R0", "nothing", "10.1000/%zz"])
    record = {"responseCode": 1, "handle": "", "values": [
        {"index": 1, "type": "URL", "data": {"format": "string", "value": ""}}]}
    held: list[Any] = []
    asked: list[str] = []
    peak = 0

    def handler(route: Any) -> None:
        held.append(route)

    page.route("https://doi.org/**", handler)
    open_page(page, site_url)
    page.fill("#batch-input", text)
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 13 lines")
    page.click("#batch-resolve")
    # Four names are asked at once (however slowly the requests reach the router) ...
    deadline = time.monotonic() + 60
    while len(held) < 4 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    peak = len(held)
    assert peak == 4, held
    # ... and never more while the answers come.
    deadline = time.monotonic() + 60
    while (time.monotonic() < deadline
           and "Resolved 10 names" not in page.inner_text("#batch-status")):
        page.wait_for_timeout(150)
        peak = max(peak, len(held))
        for route in held:
            url = route.request.url
            asked.append(url)
            name = url.split("/api/handles/")[1].split("?")[0]
            tries = asked.count(url)
            if name == "10.1000/r1" and tries == 1:
                route.fulfill(status=503, body="Service Unavailable")
            elif name == "10.1000/r2" and tries < 3:
                route.fulfill(status=429, body="")
            elif name == "10.1000/r3":
                route.fulfill(status=404, content_type="application/json",
                              body=json.dumps({"responseCode": 100, "handle": name}))
            else:
                body = json.loads(json.dumps(record))
                body["handle"] = name
                body["values"][0]["data"]["value"] = f"https://example.org/{name}"
                route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
        held.clear()
    expect(page.locator("#batch-status")).to_contain_text("Resolved 10 names: 9 resolve, 1 do not")
    assert peak == 4
    assert sorted(set(asked)) == sorted(to_handles_api_url(n) for n in names)
    assert asked.count(to_handles_api_url("10.1000/r1")) == 2
    assert asked.count(to_handles_api_url("10.1000/r2")) == 3
    assert asked.count(to_handles_api_url("10.1000/r3")) == 1
    table = list(csv.reader(io.StringIO(read_download(page, "#batch-csv"))))
    assert table[0][-2:] == ["resolution", "resolves_to"]
    by_line = {row[0]: row[-2:] for row in table[1:]}
    assert by_line["1"] == ["ok", "https://example.org/10.1000/r0"]
    assert by_line["11"] == by_line["1"]  # the duplicate gets its original's resolution
    assert by_line["4"] == ["not-found", ""]
    assert by_line["12"] == ["", ""] and by_line["13"] == ["", ""]
    expect(page.locator('#batch-body tr[data-row="0"] td.col-resolution')).to_have_text(
        "https://example.org/10.1000/r0")
    # the row's details: the plain message, then the API's codes as its source line
    from doiname import read_handle_response

    gone = read_handle_response(404, json.dumps({"responseCode": 100, "handle": "10.1000/r3"}))
    page.click('#batch-body tr[data-row="3"]')
    detail = page.locator("#batch-detail")
    expect(detail).to_contain_text(gone.message)
    expect(detail.locator(".finding-source")).to_have_text(f"Source: {gone.source}")


def test_resolve_all_can_be_cancelled(page: Page, site_url: str) -> None:
    held: list[Any] = []
    page.route("https://doi.org/**", lambda route: held.append(route))
    open_page(page, site_url)
    page.fill("#batch-input", "\n".join(f"10.1000/c{i}" for i in range(20)))
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 20 lines")
    page.click("#batch-resolve")
    expect(page.locator("#batch-progress-text")).to_have_text("Resolved 0 of 20 names")
    deadline = time.monotonic() + 60
    while len(held) < 4 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert len(held) == 4
    page.get_by_role("button", name="Cancel the batch").click()
    expect(page.locator("#batch-status")).to_contain_text("Resolving cancelled after 0 of 20")
    page.wait_for_timeout(300)
    assert len(held) == 4  # nothing more was asked
    expect(page.locator("#batch-resolve")).to_be_enabled()


def test_resolve_all_asks_for_the_exact_names(page: Page, site_url: str) -> None:
    """Names holding ``%``: each is asked of doi.org as exactly the name its row holds
    (``10.1000/a%41``, not the ``10.1000/aA`` that reading the decoded name again gives),
    by the URL Python made from the exact name; never a decoded name read again."""
    lines = ["10.1000/a%2541", "https://doi.org/10.1000/x%2523y", "10.1000/p%2Fq",
             "doi:10.1000/b%252Fc"]
    expected = {
        "https://doi.org/api/handles/10.1000/a%2541": "10.1000/a%41",
        "https://doi.org/api/handles/10.1000/x%2523y": "10.1000/x%23y",
        "https://doi.org/api/handles/10.1000/p%2Fq": "10.1000/p/q",
        "https://doi.org/api/handles/10.1000/b%252Fc": "10.1000/b%2Fc",
    }
    rows = host_rows("\n".join(lines))
    assert {r.api_url: r.doi for r in rows} == expected  # the host agrees with this table
    asked: list[str] = []

    def answer(route: Any) -> None:
        url = route.request.url
        asked.append(url)
        handle = expected.get(url, "unexpected")
        route.fulfill(status=200, content_type="application/json", body=json.dumps({
            "responseCode": 1, "handle": handle, "values": [
                {"index": 1, "type": "URL",
                 "data": {"format": "string", "value": f"https://example.org/{len(asked)}"}}]}))

    page.route("https://doi.org/**", answer)
    open_page(page, site_url)
    page.fill("#batch-input", "\n".join(lines))
    page.click("#batch-run")
    expect(page.locator("#batch-status")).to_contain_text("Done: 4 lines")
    page.click("#batch-resolve")
    expect(page.locator("#batch-status")).to_contain_text("Resolved 4 names: 4 resolve")
    assert sorted(asked) == sorted(expected)
    # Each row shows the record asked for its own name.
    table = list(csv.reader(io.StringIO(read_download(page, "#batch-csv"))))
    header = table[0]
    got = {row[header.index("doi")]: row[header.index("resolves_to")] for row in table[1:]}
    assert {name: asked.index(url) + 1 for url, name in expected.items()} == {
        name: int(target.rsplit("/", 1)[1]) for name, target in got.items()}
