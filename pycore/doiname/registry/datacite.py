"""Reading a DataCite REST ``/dois/{doi}`` answer into a :class:`~doiname.registry.Work`
(002 foreword, "DOI and Metadata").

DataCite's JSON:API form: ``{"data": {"id", "type": "dois", "attributes": {...}}}`` with
``creators`` (``name``, ``nameType``, ``givenName``, ``familyName``), ``titles``
(``title``, ``titleType``: none for the main title, ``Subtitle``, ...), ``publisher`` (a
string, or ``{"name"}`` when asked with ``publisher=true``), ``container`` (``title``,
``volume``, ``issue``, ``firstPage``, ``lastPage``), ``publicationYear``, ``dates``
(``dateType`` ``Issued``, ``Available``...), ``types`` and ``relatedIdentifiers``
(``IsPreviousVersionOf``: a newer version exists).
"""

from __future__ import annotations

from typing import Any

from ..limits import WORK_MAX_AUTHORS, WORK_MAX_TITLE_CHARS, WORK_MAX_UPDATES
from .markup import plain_title
from .values import doi_of, text_of, year_of
from .work import Author, RecordError, Update, Work

__all__ = ["work_from_datacite"]


def _attributes(data: Any) -> dict[str, Any]:
    if isinstance(data, dict) and isinstance(data.get("data"), dict):
        data = data["data"]  # the whole answer
    if isinstance(data, dict) and isinstance(data.get("attributes"), dict):
        data = data["attributes"]
    if not isinstance(data, dict):
        raise RecordError("The answer is not a DataCite record: it holds no object of "
                          "attributes.")
    if not any(k in data for k in ("doi", "titles", "creators", "publicationYear")):
        raise RecordError("The answer is not a DataCite record: it has none of the fields a "
                          "record has (titles, creators, publication year, DOI).")
    return data


def _creator(item: Any) -> Author | None:
    if not isinstance(item, dict):
        return None
    family, given = text_of(item.get("familyName")), text_of(item.get("givenName"))
    name = text_of(item.get("name"))
    if family:
        return Author(family, given)
    if text_of(item.get("nameType")) == "Personal" and ", " in name:
        fam, _, giv = name.partition(", ")
        return Author(fam, giv)
    return Author(literal=name) if name else None


def _titles(value: Any) -> tuple[str, str]:
    """(main title markup, subtitle markup)."""
    main = subtitle = ""
    if isinstance(value, list):
        for item in value[:50]:
            if not isinstance(item, dict):
                continue
            text = text_of(item.get("title"), WORK_MAX_TITLE_CHARS)
            kind = text_of(item.get("titleType"))
            if not kind and not main:
                main = text
            elif kind == "Subtitle" and not subtitle:
                subtitle = text
        if not main:  # only typed titles: the first of them
            firsts = [text_of(i.get("title"), WORK_MAX_TITLE_CHARS) for i in value[:50]
                      if isinstance(i, dict)]
            main = next((t for t in firsts if t), "")
    return main, subtitle


def _dated(dates: Any, kind: str) -> int | None:
    if isinstance(dates, list):
        for item in dates[:100]:
            if isinstance(item, dict) and text_of(item.get("dateType")) == kind:
                return year_of(text_of(item.get("date")))
    return None


def _updates(related: Any, own: Any) -> tuple[Update, ...]:
    out: list[Update] = []
    if isinstance(related, list):
        for item in related[:1000]:
            if len(out) >= WORK_MAX_UPDATES:
                break
            if (isinstance(item, dict) and item.get("relationType") == "IsPreviousVersionOf"
                    and text_of(item.get("relatedIdentifierType")) == "DOI"):
                newer = doi_of(item.get("relatedIdentifier"))
                if newer is not None:
                    out.append(Update("new-version", "New version", "", newer, own,
                                      "updated-by", "datacite"))
    return tuple(out)


def work_from_datacite(data: Any) -> Work:
    """A :class:`Work` from a DataCite ``/dois/{doi}`` answer (002 foreword, "DOI and
    Metadata"). Raises :class:`RecordError` for anything else."""
    attrs = _attributes(data)
    doi = doi_of(attrs.get("doi"))
    main, sub = _titles(attrs.get("titles"))
    creators = attrs.get("creators")
    people = [a for a in (_creator(c) for c in creators)
              if a is not None] if isinstance(creators, list) else []
    container = attrs.get("container") if isinstance(attrs.get("container"), dict) else {}
    assert isinstance(container, dict)
    publisher = attrs.get("publisher")
    if isinstance(publisher, dict):
        publisher = publisher.get("name")
    types = attrs.get("types") if isinstance(attrs.get("types"), dict) else {}
    assert isinstance(types, dict)
    first, last = text_of(container.get("firstPage")), text_of(container.get("lastPage"))
    return Work(
        doi=doi,
        title=plain_title(main)[:WORK_MAX_TITLE_CHARS],
        title_markup=main,
        subtitle=plain_title(sub)[:WORK_MAX_TITLE_CHARS],
        authors=tuple(people[:WORK_MAX_AUTHORS]),
        authors_total=len(people),
        issued_year=_dated(attrs.get("dates"), "Issued") or year_of(attrs.get("publicationYear")),
        online_year=_dated(attrs.get("dates"), "Available"),
        container_title=plain_title(text_of(container.get("title"), WORK_MAX_TITLE_CHARS)),
        volume=text_of(container.get("volume")),
        issue=text_of(container.get("issue")),
        pages=f"{first}-{last}" if first and last else first,
        first_page=first,
        type=text_of(types.get("citeproc")) or text_of(types.get("resourceTypeGeneral")),
        publisher=text_of(publisher),
        agency="DataCite",
        source="datacite",
        updates=_updates(attrs.get("relatedIdentifiers"), doi),
    )
