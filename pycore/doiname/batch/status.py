"""The statuses of batch rows, in one table (:data:`STATUSES`): each one's name, how a
row of it is labelled, how its rows are named in a filter or a count, what the counts
take it for, whether Resolve all asks doi.org about its rows, and the verdict of doi.org
that gives it.

Everything else reads this table: the rows and their counts (:mod:`.rows`), the exports
(:func:`status_after`), the worker (``doiname.bridge.BATCH_STATUSES``) and the page,
through ``web/src/engine/statuses.gen.js`` (written by ``pycore/tools/gen_types.py``: the
filter's options, the counts Resolve all adds, the order of the Status column). A new
status is its name in :data:`Status` and its entry in :data:`STATUSES`, nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..verify.rows import CHECK_LABELS

__all__ = ["CHECK_STATUSES", "NAME_STATUSES", "RESOLVED_STATUSES", "STATUSES", "STATUS_NAMES",
           "VERDICT_STATUSES", "Counted", "Status", "StatusInfo", "status_after",
           "status_named"]

Status = Literal["error", "not-found", "another-work", "updated", "unreachable",
                 "cannot-tell", "warning", "duplicate", "short-doi", "ok", "no-doi"]

#: What :class:`~doiname.batch.rows.BatchSummary` counts a row as: a distinct DOI name
#: (``unique``), a repeat of one, an unreadable name, a record with no DOI, a shortDOI.
Counted = Literal["name", "duplicate", "error", "no-doi", "short-doi"]


@dataclass(frozen=True, slots=True)
class StatusInfo:
    """One status of batch rows.

    ``label`` names it in a row (the Status column), ``rows`` names its rows (the
    filter's option, a count); ``counted`` is what the counts take a row of it for;
    ``resolve`` whether Resolve all asks doi.org about the name of a row of it;
    ``verdict`` the verdict of doi.org (:data:`doiname.resolver.outcome.Verdict`) that
    gives a resolved row this status (``None``: reading gives it).
    """

    status: Status
    label: str
    rows: str
    counted: Counted
    resolve: bool = False
    verdict: str | None = None


#: Every status, in the order rows sort by status: the ones that need attention first.
STATUSES: tuple[StatusInfo, ...] = (
    StatusInfo("error", "Error", "Unreadable", "error"),
    StatusInfo("not-found", "Not found", "Not found at doi.org", "name", verdict="not-found"),
    StatusInfo("another-work", CHECK_LABELS["another-work"], CHECK_LABELS["another-work"],
               "name"),
    StatusInfo("updated", CHECK_LABELS["updated"], CHECK_LABELS["updated"], "name"),
    StatusInfo("unreachable", "Unreachable", "Could not be checked", "name",
               verdict="unreachable"),
    StatusInfo("cannot-tell", CHECK_LABELS["cannot-tell"], CHECK_LABELS["cannot-tell"], "name"),
    StatusInfo("warning", "Warning", "With warnings", "name", resolve=True),
    StatusInfo("duplicate", "Duplicate", "Duplicates", "duplicate"),
    StatusInfo("short-doi", "shortDOI", "shortDOIs", "short-doi"),
    StatusInfo("ok", "OK", "OK", "name", resolve=True),
    StatusInfo("no-doi", "No DOI", "Without a DOI", "no-doi"),
)

#: The names of :data:`STATUSES`, in their order.
STATUS_NAMES: tuple[Status, ...] = tuple(s.status for s in STATUSES)

#: The statuses of the rows whose name "Resolve all" asks doi.org about: a readable DOI
#: name (a duplicate's name is asked once, through its first row; a shortDOI, an error
#: or a row with no name are not asked).
RESOLVED_STATUSES: tuple[Status, ...] = tuple(s.status for s in STATUSES if s.resolve)

#: The status such a row takes from its name's verdict when that says more than reading
#: did; other verdicts leave the row as it was.
VERDICT_STATUSES: dict[str, Status] = {s.verdict: s.status for s in STATUSES if s.verdict}

#: The status a row takes from the check of its record against its name's registry record
#: (:data:`doiname.verify.CheckStatus`, Batch's "Check all"): ``matches`` leaves it as it
#: was; no record read (``unchecked``) is ``unreachable``.
CHECK_STATUSES: dict[str, Status] = {"another-work": "another-work", "updated": "updated",
                                     "cannot-tell": "cannot-tell", "not-found": "not-found",
                                     "unchecked": "unreachable"}

#: The statuses of rows that are distinct DOI names (the summary's ``unique``).
NAME_STATUSES: tuple[Status, ...] = tuple(s.status for s in STATUSES if s.counted == "name")


def status_after(status: Status, verdict: str | None) -> Status:
    """A row's status once its name was resolved at doi.org (003 ch. 4) and the record's
    verdict is ``verdict`` (``None``: not resolved): the status of :data:`VERDICT_STATUSES`
    for a row of :data:`RESOLVED_STATUSES`, its own status otherwise. The page reads this
    rule as data (each status's ``after``), never as code of its own."""
    if verdict is None or status not in RESOLVED_STATUSES:
        return status
    return VERDICT_STATUSES.get(verdict, status)


def status_named(value: object) -> Status:
    """The :data:`Status` spelled ``value``; ``ValueError`` for anything else."""
    for s in STATUS_NAMES:
        if s == value:
            return s
    raise ValueError(f"unknown batch status {value!r}")
