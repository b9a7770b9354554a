"""``doiname verify`` against a local fake registry (doi.org's Which RA, Crossref's and
DataCite's REST APIs on 127.0.0.1): the same rows as ``check_row`` gives the page."""

from __future__ import annotations

import csv
import io
import json
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from doiname import Doi, check_row, read_registry_answer, row_reference
from doiname.cli import main
from doiname.cli_verify import Fetched, Registry

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "registry"
CORRECTED = "10.1371/journal.pone.0033693"
DRYAD = "10.5061/dryad.8515"
RETRACTED = "10.1002/admt.201600145"
UNKNOWN = "10.1371/no-such-work"


def crossref(message: dict[str, Any]) -> bytes:
    return json.dumps({"status": "ok", "message-type": "work", "message": message}).encode()


RECORDS: dict[str, tuple[int, bytes, dict[str, str]]] = {
    f"/works/{CORRECTED}": (200, (FIXTURES / "crossref-corrected.json").read_bytes(), {}),
    f"/dois/{DRYAD}": (200, (FIXTURES / "datacite-dryad.json").read_bytes(), {}),
    f"/works/{RETRACTED}": (200, crossref({
        "DOI": RETRACTED, "type": "journal-article", "title": [
            "Generating Energy from Air: Solid State Planar Concentration Cell Based on "
            "Graphene Oxide"], "author": [{"family": "Kalon", "given": "G."}],
        "issued": {"date-parts": [[2016, 8]]}, "container-title": ["Adv Mater Technol"],
        "updated-by": [{"DOI": "10.1002/admt.201900226", "type": "retraction",
                        "updated": {"date-parts": [[2020, 4, 15]]}}]}), {}),
}
AGENCIES = {"10.1371": "Crossref", "10.1002": "Crossref", "10.5061": "DataCite"}

BIBTEX = f"""@article{{sadasivan2012,
  title = {{Methylphenidate exposure induces dopamine neuron loss and activation of
           microglia in the basal ganglia of mice}},
  author = {{Sadasivan, Shankar and Pond, Brooks B.}},
  journal = {{PLoS ONE}}, year = {{2012}}, volume = {{7}}, pages = {{e33693}},
  doi = {{{CORRECTED}}}
}}
@misc{{ollomo2011,
  title = {{Data from: A new malaria agent in African hominids}},
  author = {{Ollomo, Benjamin and Durand, Patrick}}, year = {{2011}},
  doi = {{{DRYAD}}}
}}
@article{{wrong,
  title = {{Attention is all you need}}, author = {{Vaswani, Ashish}}, year = {{2017}},
  doi = {{{DRYAD}}}
}}
@article{{kalon2016,
  title = {{Generating energy from air: solid state planar concentration cell based on
           graphene oxide}}, author = {{Kalon, G.}}, year = {{2016}},
  doi = {{{RETRACTED}}}
}}
@article{{unknown, title = {{Nothing}}, author = {{Nobody, N.}}, doi = {{{UNKNOWN}}}}}
"""
EXPECTED = {"sadasivan2012": "Retracted or corrected", "ollomo2011": "Matches",
            "wrong": "Points at another work", "kalon2016": "Retracted or corrected",
            "unknown": "No record"}


class FakeRegistry(BaseHTTPRequestHandler):
    """doi.org's /ra/, Crossref's /works/ and DataCite's /dois/, from the fixtures; the
    first request for the retracted work is refused with 429 and Retry-After: 0."""

    asked: list[str] = []  # noqa: RUF012

    def do_GET(self) -> None:
        path = unquote(self.path.split("?")[0])
        type(self).asked.append(self.path)
        if path.startswith("/ra/"):
            doi = path[4:]
            ra = AGENCIES.get(doi.split("/")[0])
            item = {"DOI": doi, "RA": ra} if ra and doi != UNKNOWN else {
                "DOI": doi, "status": "DOI does not exist"}
            self._send(200, json.dumps([item]).encode(), {})
        elif path == f"/works/{RETRACTED}" and self.asked.count(self.path) == 1:
            self._send(429, b'{"status": "failed"}', {"Retry-After": "0"})
        elif path in RECORDS:
            self._send(*RECORDS[path])
        else:
            self._send(404, b"Resource not found.", {"Content-Type": "text/plain"})

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", headers.pop("Content-Type", "application/json"))
        for k, v in headers.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def server() -> Iterator[str]:
    if sys.platform == "emscripten":
        pytest.skip("no threads or listening sockets in Pyodide")
    FakeRegistry.asked = []
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeRegistry)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_verify_gives_each_record_its_status(server: str, tmp_path: Path) -> None:
    listing = tmp_path / "refs.bib"
    listing.write_text(BIBTEX, encoding="utf-8")
    code, out, err = run(["verify", str(listing), "--via", server,
                          "--mailto", "library@example.org"])
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["record"]: r["status"] for r in rows} == EXPECTED
    by = {r["record"]: r for r in rows}
    assert by["kalon2016"]["update"] == "retraction 2020-04-15 10.1002/admt.201900226"
    assert by["wrong"]["registered_title"] == "Data from: A new malaria agent in African hominids."
    assert by["wrong"]["verdict"] == "mismatch" and "title: differed" in by["wrong"]["evidence"]
    assert by["sadasivan2012"]["registered_year"] == "2012"
    asked = FakeRegistry.asked
    assert sum(p.startswith("/ra/10.5061") for p in asked) == 1  # Which RA once per prefix
    assert sum(p.startswith("/ra/10.1371") for p in asked) == 1
    assert f"/works/{CORRECTED}?mailto=library@example.org" in asked
    assert sum(p.startswith(f"/works/{RETRACTED}") for p in asked) == 2  # 429, then again
    assert "2 retracted or corrected" in err


def test_verify_rows_are_check_row_s_for_the_same_answers(server: str) -> None:
    code, out, _ = run(["verify", "-", "--via", server, "--format", "json"], BIBTEX)
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["label"] for r in rows] == list(EXPECTED.values())
    paths = {CORRECTED: f"/works/{CORRECTED}", DRYAD: f"/dois/{DRYAD}",
             RETRACTED: f"/works/{RETRACTED}"}
    for row, entry in zip(rows, BIBTEX.split("\n@"), strict=True):
        prefix, _, suffix = row["doi"].partition("/")
        if row["doi"] in paths:
            status, body, _ = RECORDS[paths[row["doi"]]]
            answer = read_registry_answer(Doi(prefix, suffix), AGENCIES[prefix], status,
                                          body.decode())
            page = check_row(row_reference("@" + entry.lstrip("@"), "bibtex"), answer)
            assert (row["status"], row["verdict"], row["evidence"]) == (
                page.status, page.verdict, page.evidence)


def test_a_long_retry_after_is_reported_not_waited() -> None:
    slept: list[float] = []

    def fetcher(url: str, headers: dict[str, str], deadline: float) -> Fetched:
        if "/ra/" in url:
            return Fetched(200, '[{"DOI": "10.1000/x", "RA": "Crossref"}]')
        return Fetched(429, "", retry_after="3600")

    registry = Registry(fetcher=fetcher, sleep=slept.append)
    answer = registry.record(Doi("10.1000", "x"))
    assert answer.outcome == "rate-limited" and answer.retry_after_s == 3600
    assert answer.message == ("Crossref is limiting requests. It asks to wait 3600 seconds: "
                              "try again later.")
    assert all(s < 1 for s in slept)  # only the pacing between requests


def test_crossref_requests_are_paced_to_its_limit_without_a_mailto() -> None:
    slept: list[float] = []

    def fetcher(url: str, headers: dict[str, str], deadline: float) -> Fetched:
        if "/ra/" in url:
            return Fetched(200, '[{"DOI": "10.1000/x", "RA": "Crossref"}]')
        assert "mailto" not in url
        return Fetched(404, "Resource not found.")

    registry = Registry(fetcher=fetcher, sleep=slept.append)
    for n in range(3):
        assert registry.record(Doi("10.1000", f"x{n}")).outcome == "not-found"
    assert len(slept) == 2 and all(0 < s <= 1 / 5 for s in slept)


def test_no_network_is_one_sentence_per_row(tmp_path: Path) -> None:
    listing = tmp_path / "refs.txt"
    listing.write_text("Smith J (2020) A title. J Things 1:2. doi:10.1000/abc\n")
    code, out, err = run(["verify", str(listing), "--via", "http://127.0.0.1:9"])
    assert code == 0
    [row] = list(csv.DictReader(io.StringIO(out)))
    assert row["status"] == "Not checked" and row["message"].endswith(".")
    assert "Traceback" not in err
