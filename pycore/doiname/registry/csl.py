"""Reading CSL-JSON (doi.org content negotiation) and Crossref REST ``/works/{doi}``
messages into a :class:`~doiname.registry.Work` (002 foreword, "DOI and Metadata").

The two forms share their names (``title``, ``author``, ``issued``, ``container-title``,
``page``...) and differ in small ways: Crossref writes titles as lists and persons of an
organisation as ``name``, CSL as strings and ``literal``; Crossref's short container is
``short-container-title``, CSL's ``container-title-short``; Crossref's ``update-to`` /
``updated-by`` carry retractions, corrections and the like (Crossref's CSL often carries
them too). One reader takes both.
"""

from __future__ import annotations

from typing import Any

from ..limits import WORK_MAX_AUTHORS, WORK_MAX_TITLE_CHARS
from .values import (
    doi_of,
    first_text,
    page_first,
    plain,
    read_person,
    read_updates,
    text_of,
    year_of,
)
from .work import Author, RecordError, Work

__all__ = ["work_from_crossref", "work_from_csl"]


def _record(obj: Any, envelope: str) -> dict[str, Any]:
    if isinstance(obj, dict) and isinstance(obj.get(envelope), dict) and "status" in obj:
        obj = obj[envelope]  # the whole answer: {"status": "ok", "message": {...}}
    if isinstance(obj, list) and len(obj) == 1:
        obj = obj[0]  # CSL-JSON is sometimes an array of one item
    if not isinstance(obj, dict):
        raise RecordError("The answer is not a record of a work: it holds no object of "
                          "fields.")
    if not any(k in obj for k in ("DOI", "title", "author", "issued", "container-title",
                                  "type", "URL")):
        raise RecordError("The answer is not a record of a work: it has none of the fields "
                          "a record has (title, authors, date, DOI).")
    return obj


def _authors(value: Any) -> tuple[tuple[Author, ...], int]:
    if not isinstance(value, list):
        return (), 0
    people = [a for a in (read_person(item) for item in value) if a is not None]
    return tuple(people[:WORK_MAX_AUTHORS]), len(people)


def _read(rec: dict[str, Any], *, source: str, agency: str) -> Work:
    doi = doi_of(rec.get("DOI"))
    title, markup = plain(rec.get("title"))
    subtitle, _ = plain(rec.get("subtitle"))
    if not title:
        short, _ = plain(rec.get("short-title"))
        title = short or plain(rec.get("original-title"))[0]
    authors, total = _authors(rec.get("author"))
    if not authors:  # an edited book: its editors stand first in a citation
        authors, total = _authors(rec.get("editor"))
    short = (first_text(rec.get("short-container-title"))
             or first_text(rec.get("container-title-short")))
    pages = text_of(rec.get("page"))
    first = page_first(pages) if pages else text_of(rec.get("article-number"))
    return Work(
        doi=doi,
        title=title,
        title_markup=markup,
        subtitle=subtitle,
        authors=authors,
        authors_total=total,
        issued_year=year_of(rec.get("issued")) or year_of(rec.get("published")),
        online_year=year_of(rec.get("published-online")),
        print_year=year_of(rec.get("published-print")),
        container_title=first_text(rec.get("container-title"), WORK_MAX_TITLE_CHARS),
        container_short=short,
        volume=text_of(rec.get("volume")),
        issue=text_of(rec.get("issue")),
        pages=pages,
        first_page=first,
        type=text_of(rec.get("type")),
        publisher=text_of(rec.get("publisher")),
        agency=agency,
        source=source,
        updates=read_updates(rec, doi),
    )


def work_from_crossref(message: Any) -> Work:
    """A :class:`Work` from a Crossref ``/works/{doi}`` message (002 foreword, "DOI and
    Metadata"). Raises :class:`RecordError` for anything else."""
    return _read(_record(message, "message"), source="crossref", agency="Crossref")


def work_from_csl(obj: Any, *, agency: str = "") -> Work:
    """A :class:`Work` from CSL-JSON (002 foreword, "DOI and Metadata"); ``agency`` is
    the registration agency when known (CSL names none; Crossref's says ``source``)."""
    rec = _record(obj, "message")
    if not agency and text_of(rec.get("source")).lower() == "crossref":
        agency = "Crossref"
    return _read(rec, source="csl", agency=agency)
