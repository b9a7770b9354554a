"""Small readers of registry JSON values: bounded plain text, years, DOI names, update
kinds (002 foreword, "DOI and Metadata"). Each takes any JSON value and never raises."""

from __future__ import annotations

import re
from typing import Any

from ..limits import MAX_LABEL, WORK_MAX_TITLE_CHARS, WORK_MAX_UPDATES
from ..model import Doi
from .markup import plain_title
from .work import Author, Update, UpdateKind

__all__ = ["doi_of", "first_text", "page_first", "read_update", "text_of", "update_kind",
           "year_of"]

_DOI_HEAD = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", re.IGNORECASE)
_YEAR = re.compile(r"^\s*(\d{4})")


def text_of(value: Any, limit: int = MAX_LABEL) -> str:
    """A string value trimmed and bounded; a number as its digits; else ``""``."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, (int, float)):
        value = str(value)
    if not isinstance(value, str):
        return ""
    return value.strip()[:limit]


def first_text(value: Any, limit: int = WORK_MAX_TITLE_CHARS) -> str:
    """The first non-empty string of a list (CSL and Crossref write titles both ways)."""
    if isinstance(value, list):
        for item in value[:50]:
            got = text_of(item, limit)
            if got:
                return got
        return ""
    return text_of(value, limit)


def year_of(value: Any) -> int | None:
    """The year of a CSL/Crossref date (``{"date-parts": [[2012, 3, 21]]}``, ``raw``,
    ``date-time``) or of a DataCite date string (``2011-02-01``), if plausible."""
    if isinstance(value, dict):
        parts = value.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = parts[0][0]
            if isinstance(year, str) and year.strip().isdigit():
                year = int(year.strip())
            if isinstance(year, int) and not isinstance(year, bool) and 1000 <= year <= 2999:
                return year
        for key in ("date-time", "raw", "literal"):
            got = year_of(value.get(key))
            if got is not None:
                return got
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 1000 <= value <= 2999 else None
    if isinstance(value, str):
        m = _YEAR.match(value)
        if m is not None and 1000 <= int(m.group(1)) <= 2999:
            return int(m.group(1))
    return None


def date_of(value: Any) -> str:
    """``YYYY-MM-DD`` (or ``YYYY-MM``, ``YYYY``) of a CSL/Crossref date, or ``""``."""
    if isinstance(value, dict):
        parts = value.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list):
            nums = [p for p in parts[0][:3] if isinstance(p, int) and not isinstance(p, bool)]
            if nums and 1000 <= nums[0] <= 2999:
                return "-".join([f"{nums[0]:04d}", *(f"{n:02d}" for n in nums[1:])])
        stamp = value.get("date-time")
        if isinstance(stamp, str) and _YEAR.match(stamp):
            return stamp[:10]
    return ""


def doi_of(value: Any) -> Doi | None:
    """A DOI name from a registry's text (``10.1/x``, ``https://doi.org/10.1/x``), exactly
    as written but for the link head and outer white space; ``None`` when it is none."""
    text = _DOI_HEAD.sub("", text_of(value, 2000))
    prefix, slash, suffix = text.partition("/")
    if not slash or not suffix or not prefix.startswith("10.") or any(c.isspace() for c in text):
        return None
    return Doi(prefix, suffix)


def page_first(pages: str) -> str:
    """The first page of a range (``635-641`` -> ``635``; ``e33693`` stays)."""
    return re.split(r"\s*[-\u2010-\u2015,]\s*", pages.strip(), maxsplit=1)[0][:MAX_LABEL]


#: Registry words for update kinds (Crossref's ``update-to``/``updated-by`` types, their
#: labels, openretractions' types), letters only, lower case.
_KINDS: dict[str, UpdateKind] = {
    "retraction": "retraction", "partialretraction": "retraction",
    "retractionnotice": "retraction", "retracted": "retraction",
    "correction": "correction", "erratum": "correction", "corrigendum": "correction",
    "err": "correction", "addendum": "correction", "correctionnotice": "correction",
    "expressionofconcern": "expression-of-concern", "concern": "expression-of-concern",
    "withdrawal": "withdrawal", "withdrawn": "withdrawal", "removal": "withdrawal",
    "removed": "withdrawal",
    "newversion": "new-version", "newedition": "new-version",
}


def update_kind(word: str) -> UpdateKind:
    """The kind of an update type (``expression_of_concern``, ``Partial Retraction``);
    a word one typing slip from a known one (``retration``) is read as that one."""
    key = "".join(c for c in word.lower() if c.isalpha())
    known = _KINDS.get(key)
    if known is not None:
        return known
    if len(key) >= 6:
        for name, kind in _KINDS.items():
            if len(name) >= 6 and _one_slip(key, name):
                return kind
    return "other"


def _one_slip(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` differ by one inserted, deleted or replaced letter."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return a == b
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return a[i + 1:] == b[i + 1:] or a[i + 1:] == b[i:] or a[i:] == b[i + 1:]


def read_update(item: Any, direction: str, own: Doi | None) -> Update | None:
    """One Crossref ``update-to`` (the record is the notice) or ``updated-by`` (the record
    is the updated work) entry: ``{"DOI", "type", "label", "updated", "source"}``."""
    if not isinstance(item, dict):
        return None
    other = doi_of(item.get("DOI") or item.get("doi"))
    word = text_of(item.get("type")) or text_of(item.get("label"))
    date = date_of(item.get("updated")) or date_of(item.get("update-date"))
    label = text_of(item.get("label")) or word.replace("_", " ")
    source = text_of(item.get("source"))
    if direction == "updates":
        return Update(update_kind(word), label, date, own, other, "updates", source)
    return Update(update_kind(word), label, date, other, own, "updated-by", source)


def read_updates(record: dict[str, Any], own: Doi | None) -> tuple[Update, ...]:
    """The ``update-to`` and ``updated-by`` entries of a Crossref/CSL record, bounded."""
    out: list[Update] = []
    for key, direction in (("updated-by", "updated-by"), ("update-to", "updates")):
        items = record.get(key)
        if isinstance(items, list):
            for item in items[:WORK_MAX_UPDATES]:
                got = read_update(item, direction, own)
                if got is not None and len(out) < WORK_MAX_UPDATES:
                    out.append(got)
    return tuple(out)


def read_person(item: Any) -> Author | None:
    """A CSL/Crossref person (``family``/``given``/``literal``/``name``) or ``None``."""
    if not isinstance(item, dict):
        return None
    family, given = text_of(item.get("family")), text_of(item.get("given"))
    literal = text_of(item.get("literal")) or text_of(item.get("name"))
    if not (family or given or literal):
        return None
    return Author(family, given, "" if family else literal)


def plain(value: Any) -> tuple[str, str]:
    """(plain text, markup as given) of a title value (a string or a list of them)."""
    markup = first_text(value)
    return plain_title(markup)[:WORK_MAX_TITLE_CHARS], markup
