"""``window.doiname``: calls, and lookups at doi.org routed to the handle fixtures.

Every expected value is what the core computes on the host from the same input (and the
same fixture body); the browser must agree. The requests are made by the page's main
thread, so ``page.route`` sees them.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

import doiname as d
from doiname.jsonable import to_jsonable
from doiname.resolver import alias_target, read_handle_response, read_which_ra_response
from doiname.written import written_form

from .conftest import HANDLES, DoiRoutes

pytestmark = pytest.mark.e2e

SICI = "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"


@pytest.fixture
def api(booted_page: Page, shared_doi_routes: DoiRoutes) -> Page:
    """The site, booted (once for the module), with doi.org routed to the fixtures."""
    return booted_page


@pytest.fixture
def doi_routes(shared_doi_routes: DoiRoutes) -> DoiRoutes:
    """This module's tests share one page: route that one."""
    return shared_doi_routes


def plain(value: Any) -> Any:
    """The JSON the page should get for a host value."""
    return json.loads(json.dumps(to_jsonable(value)))


def fixture(path: str) -> tuple[int, str]:
    index = json.loads((HANDLES / "index.json").read_text())
    entry = index[path]
    return int(entry["status"]), (HANDLES / entry["file"]).read_text(encoding="utf-8")


def resolve(page: Page, text: str, **options: Any) -> Any:
    return page.evaluate(
        """([t, o]) => window.doiname.resolve(t, o)
             .catch((e) => ({rejected: e.message, code: e.code}))""",
        [text, options])


# call -----------------------------------------------------------------------------------


def test_results_are_plain_json_like_the_core(api: Page) -> None:
    text = "doi: 10.1000/\u0430bc\u2013x "
    for name, args in [("check", [text]), ("read", [text]),
                       ("explain_equivalence", ["10.1000/ABC", "10.1000/abc"]),
                       ("explain_url", [SICI, "strict"]), ("extract", [f"see {SICI}, and"]),
                       ("describe_code_points", ["10.1000/\u0430"])]:
        got = api.evaluate("([n, a]) => window.doiname.call(n, ...a)", [name, args])
        assert got == plain(getattr(d, name)(*args)), name


def test_keyword_arguments_go_last(api: Page) -> None:
    text = "10.1000/a,b/c"
    got = api.evaluate("(t) => window.doiname.call('to_url', t, {kwargs: {level: 'strict'}})", text)
    assert got == d.to_url(text, level="strict") != d.to_url(text)
    got = api.evaluate("""(t) => window.doiname.call('to_handles_api_url', t,
                            {kwargs: {types: ['URL', 'HS_ALIAS']}})""", text)
    assert got == d.to_handles_api_url(text, types=["URL", "HS_ALIAS"])


def test_many_calls_at_once_each_get_their_answer(api: Page) -> None:
    names = [f"10.{1000 + i}/x#{i} y" for i in range(300)]
    got = api.evaluate(
        """(ns) => Promise.all(ns.map(
             (n, i) => window.doiname.call(i % 2 ? 'to_url' : 'to_uri', n)))""",
        names)
    assert got == [d.to_uri(n) if i % 2 == 0 else d.to_url(n) for i, n in enumerate(names)]


@pytest.mark.parametrize(("expr", "code"), [
    ("window.doiname.call('__import__', 'os')", "unknown-function"),
    ("window.doiname.call('Doi', '10.1', 'x')", "unknown-function"),
    ("window.doiname.call('parse')", "bad-arguments"),
    ("window.doiname.call('parse', 12)", "bad-arguments"),
    ("window.doiname.call('to_url', '10.1/x', {kwargs: {colour: 'red'}})", "bad-arguments"),
])
def test_bad_calls_reject_plainly(api: Page, expr: str, code: str) -> None:
    got = api.evaluate(
        f"() => {expr}.then(() => null, (e) => [e instanceof Error, e.code, e.message])")
    assert got is not None
    is_error, got_code, message = got
    assert is_error and got_code == code
    assert message and "Traceback" not in message and 'File "' not in message


# resolve ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "path"), [
    ("10.1000/182", "/api/handles/10.1000/182"),
    (SICI, "/api/handles/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-O"),
    ("https://doi.org/10.1000/does-not-exist", "/api/handles/10.1000/does-not-exist"),
    ("doi:10.1000/empty", "/api/handles/10.1000/empty"),
    ("10.1000/server-error", "/api/handles/10.1000/server-error"),
    ("10.1000/not-json", "/api/handles/10.1000/not-json"),
    ("10.1000/hostile", "/api/handles/10.1000/hostile"),
])
def test_resolve_reads_each_answer_like_the_core(
    api: Page, doi_routes: DoiRoutes, text: str, path: str
) -> None:
    status, body = fixture(path)
    got = resolve(api, text)
    assert got == plain(read_handle_response(status, body))
    assert doi_routes.requests == [d.to_handles_api_url(text)]
    assert DoiRoutes.key(doi_routes.requests[0]) == path


def test_resolve_network_error(api: Page, doi_routes: DoiRoutes) -> None:
    doi_routes.fail("/api/handles/10.1000/182")
    assert resolve(api, "10.1000/182") == plain(d.transport_outcome("network"))


def test_resolve_cors_refusal_is_a_network_outcome(api: Page, doi_routes: DoiRoutes) -> None:
    status, body = fixture("/api/handles/10.1000/182")
    doi_routes.answer("/api/handles/10.1000/182", status, body, cors=False)
    assert resolve(api, "10.1000/182") == plain(d.transport_outcome("network"))
    assert len(doi_routes.requests) == 1


def test_resolve_timeout(api: Page, doi_routes: DoiRoutes) -> None:
    doi_routes.hang("/api/handles/10.1000/182")
    assert resolve(api, "10.1000/182", timeoutMs=300) == plain(d.transport_outcome("timeout"))


def test_resolve_cancel(api: Page, doi_routes: DoiRoutes) -> None:
    doi_routes.hang("/api/handles/10.1000/182")
    api.evaluate("""() => { window.__cancel = new AbortController();
      window.__pending = window.doiname.resolve("10.1000/182",
                                                {signal: window.__cancel.signal}); }""")
    deadline = time.monotonic() + 60
    while not doi_routes.held and time.monotonic() < deadline:  # until the router holds it
        api.wait_for_timeout(50)
    assert len(doi_routes.held) == 1
    got = api.evaluate("() => { window.__cancel.abort(); return window.__pending; }")
    assert got == plain(d.transport_outcome("cancelled"))


def test_resolve_already_cancelled_sends_nothing(api: Page, doi_routes: DoiRoutes) -> None:
    got = api.evaluate("""() => { const c = new AbortController(); c.abort();
      return window.doiname.resolve("10.1000/182", {signal: c.signal}); }""")
    assert got == plain(d.transport_outcome("cancelled"))
    assert doi_routes.requests == []


def test_resolve_rejects_what_is_not_a_doi_name(api: Page, doi_routes: DoiRoutes) -> None:
    text = "10.1000/a\u200bb"
    with pytest.raises(d.DoiError) as info:
        d.to_handles_api_url(text)
    assert resolve(api, text) == {"rejected": info.value.message, "code": info.value.code}
    assert doi_routes.requests == []


# Which RA, shortDOI -------------------------------------------------------------------


def test_which_ra(api: Page, doi_routes: DoiRoutes) -> None:
    names = ["10.1000/182", "10.7554/eLife.00001", "10.9999/nope"]
    status, body = fixture("/ra/10.1000/182,10.7554/eLife.00001,10.9999/nope")
    got = api.evaluate("(ns) => window.doiname.whichRa(ns)", names)
    assert got == plain(read_which_ra_response(status, body))
    assert got["answers"]
    assert doi_routes.requests == [d.to_which_ra_url(names)]


def test_which_ra_network_error(api: Page, doi_routes: DoiRoutes) -> None:
    doi_routes.fail("/ra/10.1000/182")
    got = api.evaluate("() => window.doiname.whichRa('10.1000/182')")
    network = d.transport_outcome("network")
    assert got == {"outcome": "network", "ok": False, "message": network.message,
                   "status": None, "answers": [], "source": ""}  # nothing received


def test_expand_short_doi(api: Page, doi_routes: DoiRoutes) -> None:
    status, body = fixture("/api/handles/10/abcde?type=HS_ALIAS")
    record = read_handle_response(status, body)
    got = api.evaluate("() => window.doiname.expandShort('10/abcde')")
    target = alias_target(record)
    assert target is not None
    exact = d.Doi(*target.split("/", 1))  # a handle value is an exact name: never decoded
    assert got == {**plain(record), "target": target, "target_doi": plain(exact),
                   "target_text": written_form(exact)}
    assert got["target"]
    assert doi_routes.requests == [d.short_doi_api_url("10/abcde")]


def test_expand_unknown_short_doi(api: Page, doi_routes: DoiRoutes) -> None:
    got = api.evaluate("() => window.doiname.expandShort('10/qqqqq')")
    record = read_handle_response(404, (HANDLES / "not-found.json").read_text(encoding="utf-8"))
    assert got == {**plain(record), "target": None, "target_doi": None, "target_text": None}


def test_fixture_files_exist() -> None:
    index = json.loads((HANDLES / "index.json").read_text())
    assert all(Path(HANDLES / v["file"]).is_file() for v in index.values())
