"""What :func:`doiname.extract` returns: :class:`Match` and its :class:`Alternative` readings."""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Literal

from ..jsonable import to_jsonable
from ..model import Doi, Finding

__all__ = ["Alternative", "Found", "Match", "MatchKind"]

MatchKind = Literal["doi", "short-doi"]

_SEVERITY = attrgetter("severity")


@dataclass(frozen=True, slots=True)
class Alternative:
    """Another reading of the same place in the text, kept so nothing is decided silently.

    ``how`` says what it keeps or changes: ``literal`` keeps what the match left out (a
    final ``.``, a closing bracket, a viewer tail such as ``/full``, a final ``…``);
    ``trimmed`` leaves out the final dots that a name alone on its line kept (R13);
    ``joined`` joins a name cut by a line break (R21). ``start``/``end``/``text`` are the
    span of the original text it reads (for ``joined``, the span covers the break).
    """

    doi: Doi
    start: int
    end: int
    text: str
    how: Literal["literal", "trimmed", "joined"]


@dataclass(frozen=True, slots=True)
class Match:
    """One DOI name (or shortDOI) found in a text by :func:`doiname.extract`.

    ``start``/``end`` delimit what the match covers in the original text, label or link
    included (``doi:10.1000/182``, ``https://doi.org/10.1000/182``); ``text`` is
    ``original[start:end]``. ``doi`` is the name as read by the core reader; when the
    reader rejected it (``ok`` is ``False``), it holds the raw prefix and suffix and
    ``findings`` holds the error (rule R16). ``kind`` is ``short-doi`` for a shortDOI
    (R17): ``doi`` then holds its handle (``10`` and the code), which is an alias to
    expand, not a DOI name. ``form`` says how the name was written: ``name``, ``label``
    (``DOI 10...``, ``doi: 10...``), ``doi-uri`` (``doi:10...``), ``urn``, ``info-uri``,
    ``hdl-uri``, ``url``, ``urn-url``, ``api-url``, ``proxy-url``, ``proxy-login`` or
    ``in-url`` (inside another site's link). Findings are positioned in the original text
    (``in_name`` is ``False``). ``alternatives`` are the other readings of the same place
    (R13, R14, R19-R21), most likely first. ``short`` is the shortDOI as written with its
    ``10/`` (``10/abcde``) for a match of kind ``short-doi``, ``None`` otherwise; such a
    match is not a DOI name, so it is never ``ok``: ``[m.doi for m in extract(text) if
    m.ok]`` is the DOI names of a text.
    """

    doi: Doi
    start: int
    end: int
    text: str
    findings: tuple[Finding, ...] = ()
    form: str = "name"
    kind: MatchKind = "doi"
    alternatives: tuple[Alternative, ...] = ()
    short: str | None = None

    def __init__(self, doi: Doi, start: int, end: int, text: str,
                 findings: tuple[Finding, ...] = (), form: str = "name",
                 kind: MatchKind = "doi", alternatives: tuple[Alternative, ...] = (),
                 short: str | None = None) -> None:
        # The frozen dataclass's own __init__, sooner: each field set through its slot.
        _M_DOI(self, doi)
        _M_START(self, start)
        _M_END(self, end)
        _M_TEXT(self, text)
        _M_FINDINGS(self, findings)
        _M_FORM(self, form)
        _M_KIND(self, kind)
        _M_ALTERNATIVES(self, alternatives)
        _M_SHORT(self, short)

    @property
    def ok(self) -> bool:
        """Whether this is a DOI name that passed the core reader (no finding of severity
        ``error``; a shortDOI is an alias, not a DOI name: never ``ok``)."""
        if self.kind != "doi":
            return False
        # (no generator: asked of every match, often twice)
        return "error" not in map(_SEVERITY, self.findings)

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON data: the fields (``doi`` as ``{prefix, suffix, name}``) and ``ok``."""
        data: dict[str, Any] = to_jsonable(self)
        data["ok"] = self.ok
        return data


@dataclass(slots=True)
class Found:
    """A match in cleaned coordinates (before R15 merges link text into its link).
    ``repeats``: the scanner saw that it repeats the match before it, which R15 merges it
    into (:func:`~.scan.r15_repeats`); ``match`` is then that match's, not read again."""

    match: Match
    start: int
    end: int
    repeats: bool = False


# Each slot's setter, by the field's name (never by position).
(_M_DOI, _M_START, _M_END, _M_TEXT, _M_FINDINGS, _M_FORM, _M_KIND,
 _M_ALTERNATIVES, _M_SHORT) = (getattr(Match, name).__set__ for name in (
    "doi", "start", "end", "text", "findings", "form", "kind", "alternatives", "short"))
assert set(Match.__slots__) == {"doi", "start", "end", "text", "findings", "form", "kind",
                                "alternatives", "short"}
