"""The registries routed to fixtures for the page's record lookups: Crossref's and
DataCite's REST APIs answered from ``tests/fixtures/registry`` (the real formats),
doi.org's Which RA and handle answers for the same names, and the failures a test asks
for (a 429 with Retry-After, an answer without CORS, a landing page)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Page, Route

from .conftest import DoiRoutes

REGISTRY = Path(__file__).resolve().parents[1] / "fixtures" / "registry"
HOSTS = ("https://api.crossref.org/**", "https://api.datacite.org/**")

#: The names of the fixtures: exact name, its agency, its answer's file.
RECORDS = {
    "10.1038/srep16696": ("Crossref", "crossref-srep16696.json"),
    "10.1371/journal.pone.0033693": ("Crossref", "crossref-corrected.json"),
    "10.1080/13813455.2019.1651869": ("Crossref", "crossref-retracted.json"),
    "10.5061/dryad.8515": ("DataCite", "datacite-dryad.json"),
}
#: The name in check-all.bib that no agency knows (Which RA says so).
UNKNOWN = "10.1038/srep99999999"
#: A reference around a name cut by a space (the record's own fields, PubMed style).
CUT_REFERENCE = (
    "Tosatto L, Horrocks MH, Dear AJ, et al. Single-molecule FRET studies on "
    "alpha-synuclein oligomerization of Parkinson's disease genetically related mutants. "
    "Sci Rep. 2015;5:16696. https://doi.org/10.1038/srep16 696")


@dataclass
class Reply:
    """One routed registry answer."""

    status: int
    body: str
    content_type: str = "application/json"
    cors: bool = True
    headers: dict[str, str] | None = None


class RegistryRoutes:
    """Answers for Crossref's ``/works/{doi}`` and DataCite's ``/dois/{doi}``, by path;
    anything else gets the agency's 404 (``Resource not found.``). ``requests`` lists the
    URLs asked for."""

    def __init__(self, doi: DoiRoutes) -> None:
        self.replies: dict[str, Reply] = {}
        self.requests: list[str] = []
        self._lock = threading.Lock()
        for name, (agency, file) in RECORDS.items():
            body = (REGISTRY / file).read_text(encoding="utf-8")
            path = f"/works/{name}" if agency == "Crossref" else f"/dois/{name}"
            self.replies[path] = Reply(200, body, "application/json" if agency == "Crossref"
                                       else "application/vnd.api+json")
            doi.answer(f"/ra/{name}", 200, [{"DOI": name, "RA": agency}])
            doi.answer(f"/api/handles/{name}", 200, {
                "responseCode": 1, "handle": name, "values": [
                    {"index": 1, "type": "URL", "data": {
                        "format": "string", "value": f"https://example.org/article/{name}"},
                     "ttl": 86400, "timestamp": "2020-01-01T00:00:00Z"}]})

        doi.answer(f"/ra/{UNKNOWN}", 200, [{"DOI": UNKNOWN, "status": "DOI does not exist"}])

    def reply(self, path: str, reply: Reply) -> None:
        """Answer ``path`` (``/works/10.1038/x``) with ``reply``."""
        self.replies[path] = reply

    def handle(self, route: Route) -> None:
        url = route.request.url
        with self._lock:
            self.requests.append(url)
        reply = self.replies.get(urlsplit(url).path)
        if reply is None:
            reply = Reply(404, "Resource not found.", "text/plain")
        headers = {"Access-Control-Allow-Origin": "*" if reply.cors
                   else "https://another-site.example", **(reply.headers or {})}
        route.fulfill(status=reply.status, body=reply.body, content_type=reply.content_type,
                      headers=headers)


def route_registries(page: Page, doi: DoiRoutes) -> RegistryRoutes:
    """Route Crossref and DataCite on ``page`` (doi.org is routed by ``doi``)."""
    routes = RegistryRoutes(doi)
    for host in HOSTS:
        page.route(host, routes.handle)
    return routes

