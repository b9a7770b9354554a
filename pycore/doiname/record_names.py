"""What names a record in a list: its own key (a BibTeX key, a RIS ``ID``, a PMID, a JSON
object's identifier) and its label, the key and the first line a person recognises
(:attr:`doiname.records.Record.label`)."""

from __future__ import annotations

from types import ModuleType

from .limits import RECORD_MAX_CHARS
from .record_starts import MEDLINE_START
from .resolver.body import load_json

__all__ = ["LABEL_FIRST_LINE_CHARS", "json_key", "label_of", "tagged_key"]

_JSON_KEYS = ("id", "ID", "key", "citationKey", "citation-key")

#: How much of a record's first line its label keeps (code points; ``…`` marks a cut).
LABEL_FIRST_LINE_CHARS = 120


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


#: :mod:`doiname.verify.fields`, imported when the first structured record is labelled
#: (a list of plain lines never loads the verify package).
_FIELDS: ModuleType | None = None
#: The parts of a record a label shows, and the first field name of each
#: (:data:`doiname.verify.fields.FIELD_NAMES`): once each of these has a value, no later
#: field changes the label, so the entry is read no further.
_PARTS = ("author", "year", "title")
_ENOUGH: tuple[str, ...] = ()


def _verify_fields() -> ModuleType:
    global _FIELDS, _ENOUGH
    from .verify import fields

    _ENOUGH = tuple(fields.FIELD_NAMES[p][0] for p in _PARTS)
    _FIELDS = fields
    return fields


def _fields_line(text: str, kind: str) -> str:
    """``Smith (2020) Title`` from a structured record's fields (what it has of them)."""
    fm = _FIELDS or _verify_fields()
    fields: dict[str, str] = fm.parse_record_fields(text, kind, _ENOUGH)
    if not fields:
        return ""
    get = fields.get
    names: dict[str, tuple[str, ...]] = fm.FIELD_NAMES

    def part(name: str) -> str:
        for k in names[name]:  # the first of the part's field names given
            v = get(k)
            if v and not v.isspace():
                return " ".join(v.split())
        return ""

    authors, years, title = [part(p) for p in _PARTS]
    year = fm.YEAR.search(years)
    author: str = fm.first_author(authors)
    head = f"{author} ({year.group(1)})" if author and year else (
        author or (f"({year.group(1)})" if year else ""))
    return _cut(f"{head} {title}".strip(), LABEL_FIRST_LINE_CHARS)


def label_of(kind: str, key: str | None, lines: tuple[str, ...]) -> str | None:
    """A record's label (:attr:`doiname.records.Record.label`) from its kind, key and
    lines: the key and the first line, ``smith2020 · Smith (2020) Deep learning…``."""
    if kind == "line" or kind == "structure":
        return key
    if kind == "reference" or kind == "csv":
        first = _cut(" ".join(lines[0].split()), LABEL_FIRST_LINE_CHARS)
    else:
        first = _fields_line("\n".join(lines)[:RECORD_MAX_CHARS], kind)
    if key and first:
        return f"{key} · {first}"
    return key or first or None


def json_key(text: str) -> str | None:
    """The key of a JSON record (its first identifier field), read as the other JSON
    readers read untrusted JSON: nesting checked before parsing (Pyodide's stack is small:
    :func:`doiname.resolver.body.load_json`), JSONP not taken."""
    data, ok, callback = load_json(text.rstrip().rstrip(","))
    if not ok or callback is not None:
        return None
    if isinstance(data, dict):
        for k in _JSON_KEYS:
            value = data.get(k)
            if isinstance(value, str | int) and not isinstance(value, bool) and str(value):
                return str(value)[:200]
    return None


#: The field that keys a record of each kind of tagged lines, the first with a value of
#: those given in order: RIS's ``ID`` (else ``AN``), MEDLINE's ``PMID``, Refer's label
#: ``%F`` (else the accession number ``%M``), Web of Science's accession number ``UT``.
_KEY_TAGS: dict[str, tuple[str, ...]] = {
    "ris": ("ID  -", "AN  -"), "medline": (MEDLINE_START,), "refer": ("%F ", "%M "),
    "wos": ("UT ",),
}


def tagged_key(lines: tuple[str, ...] | list[str], kind: str) -> str | None:
    """The key of a RIS, MEDLINE, Refer or Web of Science record (``ID  - smith2020``,
    ``PMID- 26017442``, ``%F lecun2015``, ``UT WOS:000355286600030``): the value of its
    first keying field (:data:`_KEY_TAGS`), at most 200 characters; ``None`` without one
    (or for a record of another kind)."""
    for tag in _KEY_TAGS.get(kind, ()):
        for line in lines:
            if line.startswith(tag):
                value = line[len(tag):].strip()
                if value:
                    return value[:200]
    return None
