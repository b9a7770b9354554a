"""A list's row checked against the registry: what Batch's "Check all" and the CLI's
``verify`` show and export for each row (002 foreword, "DOI and Metadata").

:func:`row_reference` takes what a row's record says (a BibTeX entry's or a RIS record's
fields, a JSON object's, or the line's text); :func:`check_row` compares it with the
registry's answer for the row's DOI and gives the row's :class:`RowCheck`: its status, a
sentence, and the export cells ``registered_title``, ``registered_year``, ``verdict``,
``evidence`` and ``update`` (:data:`CHECK_COLUMNS`). The page and the CLI call the same
two functions, so a row has the same verdict in both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ..record_starts import REFERENCE_KINDS
from ..registry.answers import RegistryAnswer
from ..registry.work import Work
from .fields import parse_record_fields
from .verdict import Verification, verify

__all__ = ["CHECK_COLUMNS", "CHECK_LABELS", "CheckStatus", "RowCheck", "check_row",
           "row_reference"]

CheckStatus = Literal["matches", "another-work", "updated", "cannot-tell", "not-found",
                      "unchecked"]

#: What each status is called on the page, its filters and the exports.
CHECK_LABELS: dict[str, str] = {
    "matches": "Matches", "another-work": "Points at another work",
    "updated": "Retracted or corrected", "cannot-tell": "Cannot tell",
    "not-found": "No record", "unchecked": "Not checked",
}
#: The export columns a check adds, in order.
CHECK_COLUMNS = ("registered_title", "registered_year", "verdict", "evidence", "update")


@dataclass(frozen=True, slots=True)
class RowCheck:
    """One row's check: ``status`` (:data:`CHECK_LABELS` names it), ``message`` one plain
    sentence, ``verification`` when a record was compared, the registry's ``outcome``,
    and the export cells (:data:`CHECK_COLUMNS`; ``update`` lists each update as
    ``kind date notice-DOI``, ``; ``-separated)."""

    status: CheckStatus
    label: str
    message: str
    outcome: str
    verification: Verification | None
    registered_title: str
    registered_year: str
    verdict: str
    evidence: str
    update: str

    @property
    def cells(self) -> tuple[str, str, str, str, str]:
        """The export cells, in :data:`CHECK_COLUMNS` order."""
        return (self.registered_title, self.registered_year, self.verdict, self.evidence,
                self.update)


def row_reference(text: str, kind: str = "line") -> str | Mapping[str, str]:
    """What a row's record says of the cited work, for :func:`check_row`: the fields of
    a record of :data:`~doiname.record_starts.REFERENCE_KINDS` (BibTeX, RIS, MEDLINE, Refer,
    JSON) when it has a title or an author, else its text (002 foreword, "DOI and
    Metadata")."""
    if kind in REFERENCE_KINDS:
        fields = parse_record_fields(text, kind)
        if any(k in fields for k in ("title", "ti", "t1", "author", "au", "a1")):
            return fields
    return text


def _updates(work: Work) -> str:
    parts = []
    for u in work.updates:
        other = u.notice_doi if u.direction == "updated-by" else u.target_doi
        said = " ".join(x for x in (u.kind if u.direction == "updated-by" else
                                    f"notice ({u.kind}) about", u.date,
                                    other.name if other is not None else "") if x)
        parts.append(said)
    return "; ".join(parts)


def check_row(reference: str | Mapping[str, str], answer: RegistryAnswer) -> RowCheck:
    """Check a row: its reference (:func:`row_reference`) against the registry's answer
    for its DOI (:func:`doiname.read_registry_answer`; 002 foreword, "DOI and Metadata").

    ``another-work`` when the record is not the cited work (or is a notice about it),
    ``updated`` when it is the cited work and it was retracted, withdrawn, corrected or
    given an expression of concern, ``matches``, ``cannot-tell`` when the reference says
    too little; ``not-found`` when the registry has no record and ``unchecked`` when none
    could be read (the answer's sentence says why).
    """
    work = answer.work
    if work is None:
        status: CheckStatus = "not-found" if answer.outcome == "not-found" else "unchecked"
        return RowCheck(status, CHECK_LABELS[status], answer.message, answer.outcome, None,
                        "", "", "", "", "")
    checked = verify(reference, work)
    graver = work.retracted or work.withdrawn or work.concern or work.corrected
    if checked.verdict == "mismatch":
        status = "another-work"
        message = checked.summary
    elif graver:
        status = "updated"
        message = work.status
    else:
        status = "matches" if checked.verdict == "matches" else "cannot-tell"
        message = checked.summary
    evidence = "; ".join(f"{e.field.replace('-', ' ')}: {e.state}" for e in checked.evidence)
    return RowCheck(status, CHECK_LABELS[status], message, answer.outcome, checked,
                    work.title, str(work.year or ""), checked.verdict, evidence,
                    _updates(work))
