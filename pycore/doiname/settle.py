"""Which reading of a pasted text the registry settles on (002 foreword, "DOI and
Metadata"; the reading policy, extract R13, R19-R22).

When the reading policy offers several readings of one place (a final ``.``, a viewer
tail, a name cut by a line break or a space), only the registry can say which one is
registered, and only the record can say which one is the work the surrounding reference
cites. :func:`registry_targets` says which readings to look up (at most
:data:`~doiname.limits.SETTLE_MAX_CANDIDATES`) and what text to check their records
against; :func:`settle` puts first the one that exists and fits, and says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from .inspection import Inspection
from .limits import SETTLE_MAX_CANDIDATES
from .model import Doi

__all__ = ["SettleReading", "Settled", "Target", "registry_targets", "settle"]

#: A reference holds the name and more: at least this many characters besides it.
_REFERENCE_MIN_EXTRA = 20


@dataclass(frozen=True, slots=True)
class Target:
    """A reading to look up: its index among the inspection's candidates and its name."""

    candidate: int
    doi: Doi


@dataclass(frozen=True, slots=True)
class SettleReading:
    """What looking one reading up gave: its candidate index, its name as text, the
    registry's outcome (``found``, ``not-found``, ...) and, for a found record compared
    with the reference, the verdict (``matches``, ``mismatch``, ``cannot-tell``) and its
    one-sentence summary."""

    candidate: int
    name: str
    outcome: str
    verdict: str | None = None
    summary: str = ""


@dataclass(frozen=True, slots=True)
class Settled:
    """The readings in the order to show them (candidate indexes), the one put first
    (``None`` when the registry settles nothing) and why, in one sentence."""

    order: tuple[int, ...]
    first: int | None
    reason: str


def registry_targets(text: str, found: Inspection) -> tuple[tuple[Target, ...], str | None]:
    """The readings of the selected place in ``text`` (inspected as ``found``) to look up:
    the selected candidate first, then the other readings of the same place, DOI names
    only, at most :data:`~doiname.limits.SETTLE_MAX_CANDIDATES`; and the reference to
    check their records against: ``text`` when it holds more than the name (a reference
    around it), else ``None`` (002 foreword, "DOI and Metadata")."""
    if found.selected is None:
        return (), None
    chosen = found.candidates[found.selected]
    root = chosen.of if chosen.of is not None else found.selected
    group = [i for i, c in enumerate(found.candidates)
             if (i == root or c.of == root) and c.kind == "doi" and c.status != "error"]
    if found.selected in group:
        group.remove(found.selected)
        group.insert(0, found.selected)
    targets = tuple(Target(i, found.candidates[i].doi) for i in group[:SETTLE_MAX_CANDIDATES])
    extra = len(text.strip()) - len(found.candidates[root].text)
    return targets, (text if extra >= _REFERENCE_MIN_EXTRA else None)


_RANK = {"matches": 0, "cannot-tell": 1, None: 1, "mismatch": 2}


def _rank(r: SettleReading) -> int:
    if r.outcome != "found":
        return 10 if r.outcome == "not-found" else 5
    return _RANK.get(r.verdict, 1)


def settle(readings: list[SettleReading]) -> Settled:
    """Order the readings of one place by what the registry said (002 foreword, "DOI and
    Metadata"): a registered name whose record fits the reference first, then registered
    names the reference says too little about, then registered names of another work,
    then names no answer was read for, then names not registered; readings the registry
    puts equal keep the reading policy's order. ``first`` is set only when the first
    reading is registered (and, with a reference, not another work), with the reason."""
    if not readings:
        return Settled((), None, "")
    ordered = sorted(readings, key=_rank)  # stable: equal ranks keep the policy's order
    best = ordered[0]
    others = ordered[1:]
    unknown = [r.name for r in others if r.outcome == "not-found"]
    tail = (f" {_names(unknown)} {'is' if len(unknown) == 1 else 'are'} not registered."
            if unknown else "")
    if best.outcome != "found":
        reason = ("The registry confirms none of the readings: "
                  + ("none is registered." if all(r.outcome == "not-found" for r in readings)
                     else "some could not be looked up."))
        return Settled(tuple(r.candidate for r in readings), None, reason)
    if best.verdict == "mismatch":
        reason = (f"{best.name} is registered, but for another work than the reference "
                  f"cites: {best.summary}{tail}")
        return Settled(tuple(r.candidate for r in ordered), None, reason.strip())
    if best.verdict == "matches":
        reason = f"{best.name} is registered and its record fits the reference. {best.summary}"
    elif best.verdict == "cannot-tell":
        reason = (f"{best.name} is registered; the reference says too little to tell whether "
                  "it is the work cited.")
    else:
        reason = f"{best.name} is registered."
    return Settled(tuple(r.candidate for r in ordered), best.candidate, (reason + tail).strip())


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

