"""The core's files in two parts: the modules the first answer imports before ready, the
rest once the first part is in. A request that needs the rest before the worker's own
download of it arrives fetches it itself (a synchronous request in the worker,
doiname.bridge.arrival) and is answered; a rest that is not the build's is refused with
a plain reason. (The single file unpacks both before ready: test_single_file.py.)
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route

import doiname as d
from doiname.jsonable import to_jsonable
from doiname_build import paths as build_paths

from .test_boot import boot, without_snapshot

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

