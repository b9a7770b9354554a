"""``doiname verify FILE``: each reference of a list checked against the record its DOI is
registered for (002 foreword, "DOI and Metadata"), as the page's Batch "Check all" does.

The list is read as Batch reads it (records: BibTeX entries, RIS, MEDLINE, Refer and Web of
Science records, JSON objects, lines); each DOI's agency is asked of doi.org's Which RA once
per prefix; its record is read with the request :func:`doiname.registry_request` builds,
through ``urllib`` with a deadline and a size cap, one request at a time (within Crossref's
limits with or without a ``mailto``: at most
:data:`~doiname.limits.CROSSREF_PER_SECOND_PUBLIC` a second without one), waiting as a 429's
``Retry-After`` asks (up to :data:`~doiname.limits.REGISTRY_RETRY_AFTER_MAX_S`). Each row is
:func:`doiname.check_row`'s: the page gives the same verdict for the same record.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO
from urllib.parse import urlsplit

from .batch import BatchSession, read_lines
from .batch.export import safe_cell
from .cli_files import open_input
from .jsonable import to_jsonable
from .limits import REGISTRY_DEADLINE_MS, REGISTRY_MAX_BODY, REGISTRY_RETRY_AFTER_MAX_S
from .model import Doi
from .presentation import to_which_ra_url
from .records import iter_records
from .registry import RegistryAnswer, read_registry_answer, registry_request
from .resolver import read_which_ra_response
from .verify import CHECK_COLUMNS, RowCheck, check_row, row_reference

__all__ = ["COLUMNS", "Fetched", "Registry", "add_verify_parser", "run_verify"]

#: The CSV columns of ``doiname verify``.
COLUMNS = ("line", "record", "doi", "status", *CHECK_COLUMNS, "message")


@dataclass(frozen=True, slots=True)
class Fetched:
    """What one request came to: ``status`` and ``body`` (``None`` when nothing came),
    ``failure`` (``timeout``, ``too-large``, ``network``), ``retry_after`` and
    ``content_type`` headers."""

    status: int | None
    body: str | None
    failure: str | None = None
    retry_after: str | None = None
    content_type: str | None = None


def fetch(url: str, headers: dict[str, str], deadline_s: float) -> Fetched:
    """GET ``url`` within ``deadline_s`` seconds, reading at most ``REGISTRY_MAX_BODY``
    bytes; never raises (002 foreword, "DOI and Metadata")."""
    request = urllib.request.Request(url, headers={"User-Agent": "doiname", **headers})
    try:
        with urllib.request.urlopen(request, timeout=deadline_s) as reply:
            return _read(reply.status, reply, reply.headers)
    except urllib.error.HTTPError as err:
        with contextlib.closing(err):
            return _read(err.code, err, err.headers)
    except TimeoutError:
        return Fetched(None, None, "timeout")
    except (urllib.error.URLError, OSError, ValueError) as err:
        timed_out = "timed out" in str(err)
        return Fetched(None, None, "timeout" if timed_out else "network")


def _read(status: int, reply: Any, headers: Any) -> Fetched:
    data = reply.read(REGISTRY_MAX_BODY + 1)
    if len(data) > REGISTRY_MAX_BODY:
        return Fetched(status, None, "too-large")
    return Fetched(status, data.decode("utf-8", "replace"), None,
                   headers.get("Retry-After"), headers.get("Content-Type"))


@dataclass
class Registry:
    """Reads records for the CLI: Which RA once per prefix, then the agency's request,
    paced (one request at a time, each agency's rate kept) and retried after a 429 as
    its ``Retry-After`` says. ``via`` sends every request to another origin (a mirror,
    a test server) with the same path and query."""

    mailto: str | None = None
    via: str | None = None
    fetcher: Callable[[str, dict[str, str], float], Fetched] = fetch
    sleep: Callable[[float], None] = time.sleep
    agencies: dict[str, str | None] = field(default_factory=dict)
    _last: dict[str, float] = field(default_factory=dict)

    def _get(self, url: str, headers: dict[str, str]) -> Fetched:
        if self.via:
            parts = urlsplit(url)
            url = self.via.rstrip("/") + parts.path + (f"?{parts.query}" if parts.query else "")
        return self.fetcher(url, headers, REGISTRY_DEADLINE_MS / 1000)

    def agency(self, doi: Doi) -> str | None:
        """The registration agency of ``doi``'s prefix (Which RA), ``""`` when none
        knows the name, ``None`` when Which RA could not be read."""
        if doi.prefix not in self.agencies:
            got = self._get(to_which_ra_url(doi), {"Accept": "application/json"})
            result = read_which_ra_response(got.status, got.body)
            answer = result.answers[0] if result.ok and result.answers else None
            if answer is None:
                return None  # not cached: asked again for the next name
            self.agencies[doi.prefix] = answer.ra or ("" if answer.kind == "does-not-exist"
                                                     else None)
        return self.agencies[doi.prefix]

    def record(self, doi: Doi) -> RegistryAnswer:
        """The registry's answer for ``doi`` (002 foreword, "DOI and Metadata")."""
        agency = self.agency(doi)
        if agency is None:
            return read_registry_answer(doi, "", None, None, failure="network")
        if agency == "":
            return read_registry_answer(doi, "", None, None, failure="does-not-exist")
        request = registry_request(doi, agency, mailto=self.mailto, browser=False)
        if not request.readable:
            return read_registry_answer(doi, agency, None, None, failure="not-readable")
        for _attempt in range(3):
            self._pace(request.limit_group or request.agency, request.per_second)
            got = self._get(request.url, request.headers)
            answer = read_registry_answer(doi, agency, got.status, got.body,
                                          failure=got.failure, retry_after=got.retry_after,
                                          content_type=got.content_type)
            wait = answer.retry_after_s
            if answer.outcome != "rate-limited" or (wait or 1) > REGISTRY_RETRY_AFTER_MAX_S:
                return answer
            self.sleep(wait if wait is not None else 1.0)
        return answer

    def _pace(self, group: str, per_second: int) -> None:
        if per_second:
            gap = 1.0 / per_second - (time.monotonic() - self._last.get(group, -1e9))
            if gap > 0:
                self.sleep(gap)
        self._last[group] = time.monotonic()


def add_verify_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """The ``verify`` subcommand's arguments."""
    p = sub.add_parser("verify", parents=[common], help="check each reference of a list "
                       "against the record its DOI is registered for (network)",
                       description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="a path, or - for standard input")
    p.add_argument("--mailto", help="your e-mail address, sent to Crossref as its API asks "
                   "(faster limits); none is sent without it")
    p.add_argument("--format", choices=["csv", "json"], default=None,
                   help="csv (default) or json (one object a line)")
    p.add_argument("--csv-input", action="store_true", help="the input is CSV or TSV")
    p.add_argument("--via", help=argparse.SUPPRESS)  # a mirror or a test server


def run_verify(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO,
               registry: Registry | None = None) -> int:
    """Run ``doiname verify`` (002 foreword, "DOI and Metadata")."""
    fmt = args.format or ("json" if args.json else "csv")
    registry = registry or Registry(args.mailto, args.via)
    opened = open_input(args.file, stdin, stderr)
    if opened is None:
        return 1
    hint = "csv" if args.csv_input or args.file.lower().endswith((".csv", ".tsv")) else None
    writer = csv.writer(stdout, lineterminator="\n") if fmt == "csv" else None
    if writer is not None:
        writer.writerow(COLUMNS)
    counts: dict[str, int] = {}
    checked: dict[str, RegistryAnswer] = {}
    session = BatchSession(hint=hint)
    with opened as source:
        for record in iter_records(read_lines(source), hint=hint):
            if record.kind == "structure":
                continue
            reference = row_reference(record.text, record.kind)
            names: set[str] = set()
            for row in session.iter_rows(record.lines):
                if row.name is None or row.status in ("error", "short-doi"):
                    continue
                key = row.name.name.lower()
                if key in names:
                    continue  # the same name twice in one record (its doi and url fields)
                names.add(key)
                if key not in checked:
                    checked[key] = registry.record(row.name)
                result = check_row(reference, checked[key])
                counts[result.label] = counts.get(result.label, 0) + 1
                _write(stdout, writer, record.first_line, record.key, row.name.name, result)
    said = ", ".join(f"{n} {label.lower()}" for label, n in counts.items()) or "no DOIs"
    stderr.write(f"doiname verify: {said}; {len(checked)} records asked\n")
    return 0


def _write(out: TextIO, writer: Any, line: int, key: str | None, doi: str,
           result: RowCheck) -> None:
    if writer is not None:
        writer.writerow([line, safe_cell(key or ""), safe_cell(doi), result.label,
                         *(safe_cell(c) for c in result.cells), safe_cell(result.message)])
        return
    data = {"line": line, "record": key, "doi": doi, "status": result.status,
            "label": result.label, **dict(zip(CHECK_COLUMNS, result.cells, strict=True)),
            "message": result.message, "outcome": result.outcome,
            "verification": to_jsonable(result.verification)}
    out.write(json.dumps(data, ensure_ascii=False) + "\n")
