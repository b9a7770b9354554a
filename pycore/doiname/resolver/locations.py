"""The ``10320/loc`` value (DOI multiple resolution): a list of ``<location>`` elements,
parsed safely (expat, no DTD, no entities, bounded size and depth)."""

from __future__ import annotations

from xml.parsers import expat

from ..limits import MAX_LABEL, MAX_URL, MAX_VALUES, MAX_XML
from .links import is_linkable_url
from .model import Location
from .text import clip

__all__ = ["read_locations"]


class _Refused(Exception):
    """A 10320/loc value this reader will not parse (a DTD, too deep, too many elements)."""


def read_locations(xml_text: str) -> tuple[tuple[Location, ...], tuple[tuple[str, str], ...],
                                       str | None]:
    """Parse a ``10320/loc`` value safely: expat, no DTD, no entities, bounded size.

    Returns (locations, root attributes as details, problem or None).
    """
    if len(xml_text) > MAX_XML:
        return (), (), "the location list is too long to parse"
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    found: list[Location] = []
    root: list[tuple[str, dict[str, str]]] = []
    depth = 0
    count = 0

    def refuse_dtd(*_: object) -> None:
        raise _Refused("the location list declares a DTD; it was not parsed")

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth, count
        depth += 1
        count += 1
        if depth > 32 or count > 10 * MAX_VALUES:
            raise _Refused("the location list is nested too deeply or too long to parse")
        if depth == 1:
            root.append((name, attrs))
        if name == "location" and len(found) < MAX_VALUES:
            href = attrs.get("href", "")
            rest = tuple((clip(k, MAX_LABEL), clip(v, MAX_LABEL)) for k, v in attrs.items()
                         if k not in ("href", "weight", "view"))
            found.append(Location(clip(href, MAX_URL), is_linkable_url(href),
                                  attrs.get("weight"), attrs.get("view"), rest))

    def end(_name: str) -> None:
        nonlocal depth
        depth -= 1

    parser.StartDoctypeDeclHandler = refuse_dtd
    parser.EntityDeclHandler = refuse_dtd
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(xml_text, True)
    except _Refused as e:
        return (), (), str(e)
    except (expat.ExpatError, ValueError, RecursionError):
        return (), (), "the location list is not well-formed XML"
    details: list[tuple[str, str]] = []
    problem = None
    if root:
        name, attrs = root[0]
        if name != "locations":
            problem = f"the location list starts with <{clip(name, 80)}>, not <locations>"
        details = [(f"locations {clip(k, MAX_LABEL)}", clip(v, MAX_LABEL))
                   for k, v in attrs.items()]
    if not found and problem is None:
        problem = "the location list has no <location> entries"
    return tuple(found), tuple(details), problem
