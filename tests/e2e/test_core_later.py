"""The core's files in two parts: the modules the first answer imports before ready, the
rest once the first part is in, with the standard library's modules the boot does not
import (the worker mounts only those it imports). A request that needs the rest before
the worker's own download of it arrives fetches it itself (a synchronous request in the
worker, doiname.bridge.arrival) and is answered; a rest that is not the build's is
refused with a plain reason. (The single file unpacks both before ready: test_single_file.py.)
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, expect

import doiname as d
from doiname.jsonable import to_jsonable
from doiname_build import paths as build_paths

from .batch_page import count, read_download
from .site_page import open_page
from .test_boot import boot, without_snapshot
from .test_page_bounded_reading import UTF16_NAMES, UTF16_TEXT, _cli_csv

pytestmark = pytest.mark.e2e

LATER = f"**/pyodide/{build_paths.CORE_LATER}"
WHICH_RA = '[{"DOI": "10.1000/182", "RA": "DOI"}]'
#: A public function whose module is in the rest (the resolver's Which RA reader).
CALL = f"() => window.doiname.call('read_which_ra_response', 200, {json.dumps(WHICH_RA)})"


def _expected() -> Any:
    return json.loads(json.dumps(to_jsonable(d.read_which_ra_response(200, WHICH_RA))))


def test_the_rest_is_asked_for_once_the_first_part_is_in(page: Page, site_url: str) -> None:
    without_snapshot(page)
    order: list[str] = []
    page.on("request", lambda r: order.append(r.url.rsplit("/", 1)[-1]))
    answered: list[str] = []
    page.on("response", lambda r: answered.append(r.url.rsplit("/", 1)[-1]))
    with page.expect_request_finished(lambda r: r.url.endswith(build_paths.CORE_LATER)):
        boot(page, site_url)
    assert order.count(build_paths.CORE_LATER) == 1
    # Asked for once the first part is in (its answer came before the rest was asked for;
    # worker/boot.js asks only once that body has been read whole).
    assert answered.index(build_paths.CORE_FILES) < order.index(build_paths.CORE_LATER)
    assert page.evaluate(CALL) == _expected()
    assert page.evaluate("() => window.doiname.info()")["installer"] == "micropip"


def test_a_request_before_the_rest_arrives_fetches_it_itself(page: Page, site_url: str) -> None:
    without_snapshot(page)
    held: list[Route] = []
    types: list[str] = []

    def hold_the_download(route: Route) -> None:
        types.append(route.request.resource_type)
        if route.request.resource_type == "fetch":
            held.append(route)  # the worker's own download: never answered
        else:
            route.continue_()

    page.route(LATER, hold_the_download)
    boot(page, site_url)
    assert page.evaluate(CALL) == _expected()
    # The package's metadata is in the rest too.
    assert page.evaluate("() => window.doiname.info()")["installer"] == "micropip"
    assert types == ["fetch", "xhr"] and len(held) == 1
    # An Inspect, a Batch of the mix: every surface answers as before.
    assert page.evaluate("() => window.doiname.call('to_url', '10.1000/456#789')") == \
        "https://doi.org/10.1000/456%23789"


def _hold_the_workers_download(page: Page) -> list[str]:
    """The worker's own download of the rest is never answered; the synchronous one of an
    import goes through. Returns the kinds of request made for it."""
    types: list[str] = []

    def hold(route: Route) -> None:
        types.append(route.request.resource_type)
        if route.request.resource_type != "fetch":
            route.continue_()

    page.route(LATER, hold)
    return types


def test_a_standard_library_module_of_the_rest_fetches_it_itself(page: Page,
                                                                 site_url: str) -> None:
    """The first request that needs the rest imports a standard library module of it
    (``importlib.metadata``, to read the package's version), not a module of the core."""
    without_snapshot(page)
    types = _hold_the_workers_download(page)
    boot(page, site_url)
    info = page.evaluate("() => window.doiname.info()")
    assert info["installer"] == "micropip" and info["distribution"] == info["doiname"]
    assert types == ["fetch", "xhr"]
    assert page.evaluate(CALL) == _expected()  # the core's rest came with it


def test_a_batch_csv_export_before_the_rest_arrives(page: Page, site_url: str,
                                                    tmp_path: Path) -> None:
    """A Batch of a UTF-16 file and its CSV: the batch's modules, ``csv`` and the codec
    (``encodings.utf_16_le``: its package was imported from the mounted zip, the module
    itself is in the rest) all come with the rest, fetched by the import that needs it."""
    without_snapshot(page)
    types = _hold_the_workers_download(page)
    path = tmp_path / "references.txt"
    path.write_bytes(b"\xff\xfe" + UTF16_TEXT.encode("utf-16-le"))
    want = _cli_csv(path)
    open_page(page, site_url)
    page.set_input_files("#batch-file", str(path))
    expect(page.locator("#batch-status")).to_contain_text("Done:", timeout=60_000)
    assert count(page, "dois") == len(UTF16_NAMES)
    got = list(csv.reader(io.StringIO(read_download(page, "#batch-csv"), newline="")))
    assert got == want
    assert types == ["fetch", "xhr"]


def test_a_rest_that_is_not_the_builds_is_refused(page: Page, site_url: str) -> None:
    without_snapshot(page)

    def tampered(route: Route, request: Request) -> None:
        if request.resource_type == "fetch":
            return  # held: the import below asks for it itself
        route.fulfill(status=200, body=b"\x1f\x8b not the build's")

    page.route(LATER, tampered)
    boot(page, site_url)
    got = page.evaluate(CALL + ".catch((e) => e.message)")
    assert isinstance(got, str) and "integrity check failed" in got
    assert "Traceback" not in got and "  File " not in got
    # What the first part holds still answers.
    assert page.evaluate("() => window.doiname.call('to_url', '10.1000/1')") == \
        "https://doi.org/10.1000/1"

