"""The general path of a batch line: every rule, for every text (the oracle of the fast
path in :mod:`.fast`).

A line is read in two steps. :func:`analyse` depends on the text alone: the names
:func:`~doiname.extract.extract_general` finds, each judged as every surface judges it
(:func:`doiname.inspection.judge`) with its forms (URL, ``doi:`` URI, handle API request)
and equivalence key, and the whole line read as one name when that is another valid name.
Then the session gives the parts their line number and their dedupe status (only the
session knows which names came before).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from ..equivalence import equivalence_key
from ..extract import Match, extract_general
from ..inspection import judge, one_per_name, whole_reading
from ..memo import remembered
from ..model import Doi, Finding
from ..presentation import DEFAULT_RESOLVER, _api_url, short_doi_api_url, to_uri, to_url
from .rows import Status

__all__ = ["Checker", "Part", "analyse", "key_of", "new_part", "part_of", "shifted"]

Checker = Callable[[Doi], list[Finding]]

class Part(NamedTuple):
    """One name of a line, before dedupe (what depends on the line's text alone): the
    status as judged, the fields a row shows of it, the :class:`~doiname.model.Doi`
    and its equivalence key (``None`` for an ``error`` or a ``short-doi``, which are
    never deduplicated)."""

    status: Status
    doi: str
    url: str | None
    uri: str | None
    findings: tuple[Finding, ...]
    start: int
    end: int
    text: str
    form: str
    api_url: str | None
    alternatives: tuple[str, ...]
    name: Doi | None
    key: str | None


#: ``new_part((status, doi, ...))``: a :class:`Part` of the 13 values in their order, without
#: a Python frame (``tuple.__new__``).
new_part: Callable[[tuple[object, ...]], Part] = partial(tuple.__new__, Part)


def part_of(m: Match, check: Checker, alternatives: tuple[str, ...] | None = None) -> Part:
    """The part of one match (its alternatives as names, unless given)."""
    if alternatives is not None:
        alts = alternatives
    else:
        alts = tuple([str(a.doi) for a in m.alternatives]) if m.alternatives else ()
    judged, findings = judge(m, check=check)
    if judged == "short-doi":
        return new_part(("short-doi", str(m.doi), None, None, findings, m.start, m.end, m.text,
                         m.form, short_doi_api_url(str(m.doi)), (), None, None))
    if judged == "error":
        return new_part(("error", str(m.doi), None, None, findings, m.start, m.end, m.text,
                         m.form, None, alts, None, None))
    doi = m.doi
    name, url, uri, api_url, key = name_forms(doi)
    return new_part((judged, name, url, uri, findings, m.start, m.end, m.text, m.form, api_url,
                     alts, doi, key))


@remembered(4096)
def name_forms(doi: Doi) -> tuple[str, str, str, str, str]:
    """What a row shows of a name that depends on the name alone: the name, its URL, its
    ``doi:`` URI, its handle API request and its equivalence key (kept for the 4096
    names seen last: a list names the same DOI again and again)."""
    url = to_url(doi)
    uri = to_uri(doi)  # (from the escapes to_url kept, when it can)
    # to_handles_api_url, from the URI's scheme-specific part (003 ch. 4)
    return (str(doi), url, uri, _api_url(uri[4:], (), (), DEFAULT_RESOLVER),
            equivalence_key(doi))


def analyse(text: str, check: Checker, matches: list[Match] | None = None) -> tuple[Part, ...]:
    """Everything a line gives that depends on its text alone (no part: no DOI).

    ``matches`` are those of :func:`~doiname.extract.extract_general` (the oracle), found
    here unless given (a fast path found the same sooner)."""
    if matches is None:
        matches = extract_general(text)
    if not matches:
        return ()
    parts = ([part_of(matches[0], check)] if len(matches) == 1  # (no comprehension's frame)
             else [part_of(m, check) for m in one_per_name(matches)])
    whole = whole_reading(text, matches) if len(matches) == 1 else None
    if whole is not None:  # the whole line as one name: its last other reading
        p = parts[0]
        # (new_part of the fields in their order: _replace makes a dict and maps it back)
        parts[0] = new_part((*p[:10], (*p.alternatives, str(whole.doi)), *p[11:]))
    return tuple(parts)


def key_of(m: Match) -> str | None:
    """The equivalence key of a readable match (to merge one reference's fields)."""
    if not m.ok and m.kind != "short-doi":
        return None
    return ("short:" if m.kind == "short-doi" else "") + equivalence_key(m.doi)


def shifted(m: Match, by: int) -> Match:
    """The match with its positions (and its findings') moved by ``by``."""
    if by == 0:
        return m
    findings = tuple(dataclasses.replace(
        f, start=f.start + by, end=f.end + by,
        input_start=None if f.input_start is None else f.input_start + by,
        input_end=None if f.input_end is None else f.input_end + by,
        places=tuple((a + by, b + by) for a, b in f.places)) if not f.in_name else f
        for f in m.findings)
    return dataclasses.replace(m, start=m.start + by, end=m.end + by, findings=findings)
