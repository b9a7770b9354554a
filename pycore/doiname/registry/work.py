"""What a DOI names, as its registration agency describes it: :class:`Work`, its
:class:`Author` list and its :class:`Update` notices (002 foreword, "DOI and Metadata").

A DOI string says nothing of what it identifies; the registry's metadata does. A
:class:`Work` is read from one of the three answers a person or a page gets:
CSL-JSON (doi.org content negotiation, :meth:`Work.from_csl`), a Crossref REST
``/works/{doi}`` ``message`` (:meth:`Work.from_crossref`) or a DataCite REST
``/dois/{doi}`` ``data`` object (:meth:`Work.from_datacite`). The readers take any JSON
value and never raise: a value that is not a record raises :class:`RecordError` with one
plain sentence (the :func:`~doiname.registry.read_registry_answer` path turns it into
an outcome). Every text is plain, bounded (:mod:`doiname.limits`), for ``textContent``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model import Doi

__all__ = ["Author", "RecordError", "Update", "UpdateKind", "Work"]

UpdateKind = Literal["retraction", "correction", "expression-of-concern", "withdrawal",
                     "new-version", "other"]


class RecordError(ValueError):
    """A registry answer that is not a record of a work (002 foreword, "DOI and
    Metadata"); ``str(err)`` is one plain sentence."""


@dataclass(frozen=True, slots=True)
class Author:
    """One creator, in the record's order: ``family`` and ``given`` names of a person, or
    ``literal`` (an organisation, or a name the record does not split)."""

    family: str = ""
    given: str = ""
    literal: str = ""

    @property
    def display(self) -> str:
        """``Family, Given``, or the literal name (002 foreword, "DOI and Metadata")."""
        if self.family:
            return f"{self.family}, {self.given}" if self.given else self.family
        return self.literal or self.given


@dataclass(frozen=True, slots=True)
class Update:
    """A notice that changes the status of a work: a retraction, a correction (erratum,
    corrigendum), an expression of concern, a withdrawal (or removal), a new version.

    ``direction`` says which side the record is on: ``updated-by`` (the record is the
    updated work; ``notice_doi`` is the notice) or ``updates`` (the record is the notice;
    ``target_doi`` is the work it updates). ``label`` is the registry's own word
    (``Partial Retraction``), ``date`` ``YYYY-MM-DD`` (or shorter) or ``""``, ``source``
    who asserted it (``publisher``, ``retraction-watch``) or ``""``.
    """

    kind: UpdateKind
    label: str
    date: str
    notice_doi: Doi | None
    target_doi: Doi | None
    direction: Literal["updated-by", "updates"]
    source: str = ""


@dataclass(frozen=True, slots=True)
class Work:
    """A registry record of the work a DOI names (002 foreword, "DOI and Metadata").

    ``title`` is plain text; ``title_markup`` the title as the registry gave it (``<i>``,
    MathML, entities). Years: ``issued_year`` (what a citation gives), ``online_year``
    and ``print_year`` where the record says. ``agency`` is the registration agency's
    name as Which RA gives it (``Crossref``, ``DataCite``) or ``""``; ``source`` the form
    read (``crossref``, ``datacite``, ``csl``). ``authors_total`` counts every author,
    ``authors`` keeps the first :data:`~doiname.limits.WORK_MAX_AUTHORS`.

    Read from the updates when the work is made: ``retracted`` (a retraction notice
    updates this work), ``withdrawn``, ``concern`` (an expression of concern),
    ``corrected``, ``is_notice`` (the record is itself a notice about another work:
    a retraction notice is a notice, not a retracted work) and ``status``, one plain
    sentence for a patron, or ``""`` when nothing updates it.
    """

    doi: Doi | None
    title: str
    title_markup: str = ""
    subtitle: str = ""
    authors: tuple[Author, ...] = ()
    authors_total: int = 0
    issued_year: int | None = None
    online_year: int | None = None
    print_year: int | None = None
    container_title: str = ""
    container_short: str = ""
    volume: str = ""
    issue: str = ""
    pages: str = ""
    first_page: str = ""
    type: str = ""
    publisher: str = ""
    agency: str = ""
    source: str = ""
    updates: tuple[Update, ...] = ()
    retracted: bool = field(init=False, default=False)
    withdrawn: bool = field(init=False, default=False)
    concern: bool = field(init=False, default=False)
    corrected: bool = field(init=False, default=False)
    is_notice: bool = field(init=False, default=False)
    status: str = field(init=False, default="")

    def __post_init__(self) -> None:
        mine = [u for u in self.updates if u.direction == "updated-by"
                or (u.target_doi is not None and self.doi is not None
                    and u.target_doi.name.lower() == self.doi.name.lower())]
        kinds = {u.kind for u in mine}
        notices = [u for u in self.updates if u.direction == "updates" and u not in mine]
        marked = _MARKED.match(self.title) if not notices else None
        said = marked.group(1).lower() if marked else ""
        setter = object.__setattr__
        setter(self, "retracted", "retraction" in kinds or "retract" in said)
        setter(self, "withdrawn", "withdrawal" in kinds or "withdrawn" in said)
        setter(self, "concern", "expression-of-concern" in kinds)
        setter(self, "corrected", "correction" in kinds)
        setter(self, "is_notice", bool(notices))
        status = _status(mine, notices, self.doi)
        if marked and (not status or ("retract" in said and "retraction" not in kinds)):
            what = "withdrawn" if "withdrawn" in said else "retracted"
            status = " ".join(x for x in (
                f"The publisher marked this work as {what} in its title "
                f"(“{marked.group(1)}”){'' if status else '; the record names no notice'}.",
                status) if x)
        setter(self, "status", status)

    @property
    def year(self) -> int | None:
        """The year a citation gives: issued, else print, else online."""
        return self.issued_year or self.print_year or self.online_year

    @classmethod
    def from_csl(cls, obj: Any, *, agency: str = "") -> Work:
        """A work from CSL-JSON (doi.org content negotiation, ``Accept:
        application/vnd.citationstyles.csl+json``; 002 foreword, "DOI and Metadata").
        Raises :class:`RecordError` for a value that is not a record."""
        from .csl import work_from_csl
        return work_from_csl(obj, agency=agency)

    @classmethod
    def from_crossref(cls, message: Any) -> Work:
        """A work from a Crossref REST ``/works/{doi}`` answer's ``message`` (or the whole
        answer), with its ``update-to``/``updated-by`` notices (002 foreword, "DOI and
        Metadata"). Raises :class:`RecordError` for a value that is not a record."""
        from .csl import work_from_crossref
        return work_from_crossref(message)

    @classmethod
    def from_datacite(cls, data: Any) -> Work:
        """A work from a DataCite REST ``/dois/{doi}`` answer's ``data`` object (or the
        whole answer, or its ``attributes``; 002 foreword, "DOI and Metadata"). Raises
        :class:`RecordError` for a value that is not a record."""
        from .datacite import work_from_datacite
        return work_from_datacite(data)


#: A title the publisher marked when it retracted or withdrew the work in place
#: (Elsevier's ``RETRACTED:``, Springer's ``RETRACTED ARTICLE:``, IEEE's ``Notice of
#: Retraction``): the work itself, retracted, even when no update says so.
_MARKED = re.compile(r"^\s*(RETRACTED ARTICLE|RETRACTED|Retracted|Notice of Retraction|"
                     r"WITHDRAWN)\b")

_PHRASES: dict[str, str] = {
    "retraction": "retracted", "withdrawal": "withdrawn",
    "expression-of-concern": "the subject of an expression of concern",
    "correction": "corrected", "new-version": "superseded by a new version",
    "other": "updated",
}
_ORDER = ("retraction", "withdrawal", "expression-of-concern", "correction", "new-version",
          "other")


def _status(mine: list[Update], notices: list[Update], own: Doi | None) -> str:
    """One sentence: the gravest update of the work, or what the notice is about."""
    if mine:
        worst = min(mine, key=lambda u: _ORDER.index(u.kind))
        said = f"This work was {_PHRASES[worst.kind]}"
        if worst.date:
            said += f" on {worst.date}"
        notice = worst.notice_doi
        if notice is not None and (own is None or notice.name.lower() != own.name.lower()):
            said += f": see the notice {notice.name}"
        elif notice is not None:
            said += " (the notice is this record itself)"
        return said + "."
    if notices:
        first = notices[0]
        what = first.label or first.kind.replace("-", " ")
        target = f" {first.target_doi.name}" if first.target_doi is not None else " another work"
        return f"This is a notice ({what}) about{target}, not the work itself."
    return ""
