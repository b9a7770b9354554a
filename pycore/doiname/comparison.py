"""Are two pasted texts the same DOI name? :func:`compare`, read with the reading policy.

Each side is read as :func:`doiname.inspection.inspect` reads it (the selected candidate),
so a trailing period or a label is handled as everywhere else; the two exact names are
then explained by :func:`doiname.explain_equivalence` (003 ch. 3).
"""

from __future__ import annotations

from dataclasses import dataclass

from .equivalence import Explanation, explain_equivalence
from .inspection import How, Status, inspect
from .model import Doi, Finding

__all__ = ["TITLES", "Comparison", "Side", "compare"]

#: What each verdict is called where a comparison is shown (the page's heading).
TITLES: dict[str, str] = {
    "identical": "Identical",
    "basic-latin-case": "Equivalent (case of A–Z only)",
    "normalization": "Not equivalent (Unicode normalization differs)",
    "non-basic-latin-case": "Not equivalent (case outside A–Z)",
    "different": "Not equivalent",
    "unreadable": "Cannot compare",
    "empty": "",
}


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison: the name read from its text (:func:`inspect`'s selected
    candidate) and what reading it said, or why no name could be read."""

    text: str
    doi: Doi | None
    how: How | None
    status: Status | None
    findings: tuple[Finding, ...]
    message: str


@dataclass(frozen=True, slots=True)
class Comparison:
    """Whether two pasted texts name the same DOI (003 ch. 3), and why.

    ``verdict`` is ``empty`` (a side is empty), ``unreadable`` (a side holds no DOI name:
    its ``message`` says why) or the :class:`~doiname.equivalence.Explanation`'s verdict
    (``identical``, ``basic-latin-case``, ``normalization``, ``non-basic-latin-case``,
    ``different``); ``title`` is that verdict in a few words (:data:`TITLES`). ``source`` is
    what ``message`` rests on (the explanation's, or the unreadable side's error's), shown
    apart from it."""

    verdict: str
    equivalent: bool | None
    title: str
    message: str
    explanation: Explanation | None
    a: Side
    b: Side
    source: str = ""


def _side(text: str) -> Side:
    result = inspect(text)
    if result.selected is None:
        return Side(text, None, None, None, result.notes, result.message)
    c = result.candidates[result.selected]
    if c.kind == "short-doi" or c.status == "error":
        return Side(text, None, c.how, c.status, c.findings, result.message)
    return Side(text, c.doi, c.how, c.status, c.findings, result.message)


def compare(a: str, b: str) -> Comparison:
    """Read two texts with the reading policy (:func:`inspect`) and explain whether their
    names are equivalent (003 ch. 3: percent-decoded, Basic Latin case folded, no
    normalization). Never raises for two ``str``."""
    sa, sb = _side(a), _side(b)
    if not a.strip() or not b.strip():
        return Comparison("empty", None, TITLES["empty"], "", None, sa, sb)
    if sa.doi is None or sb.doi is None:
        which = "first" if sa.doi is None else "second"
        bad = sa if sa.doi is None else sb
        source = next((f.source for f in bad.findings if f.severity == "error"), "")
        return Comparison("unreadable", None, TITLES["unreadable"], f"The {which} text holds "
                          f"no DOI name to compare. {bad.message}", None, sa, sb, source)
    ex = explain_equivalence(sa.doi, sb.doi)
    return Comparison(ex.verdict, ex.equivalent, TITLES[ex.verdict], ex.message, ex, sa, sb,
                      ex.source)
