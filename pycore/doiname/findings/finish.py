"""A name's findings made into the list :func:`doiname.findings.check` gives: in order,
each repeated character said once with its places, the repair of everything the rules
would repair given once, and at most :data:`~doiname.limits.MAX_FINDINGS` findings (the
rest counted by code)."""

from __future__ import annotations

import re

from ..codes import RULES
from ..limits import MAX_FINDINGS
from ..model import SEVERITIES, Finding
from ..syntax import places
from ..unicode_tables import lookalike
from .lookalikes import lookalike_message
from .subject import Subject

__all__ = ["bounded", "finish"]

_SEVERITY_RANK = {s: i for i, s in enumerate(SEVERITIES)}


def finish(s: Subject) -> list[Finding]:
    """Say each repeated character's places in its one finding, sort, give the repair of
    everything the rules would repair (lookalikes, spaces, double escapes) once, to the
    first finding it repairs (the most severe of them), and the other spelling of the
    combining marks once, likewise; count the rest."""
    for i, at in s.places.items():
        f = s.out[i]
        if len(at) > 1:
            ch = s.name[f.start]
            hit = lookalike(ch)
            assert hit is not None
            s.out[i] = Finding(f.code, f.severity, lookalike_message(ch, hit, places(at)),
                               f.start, f.end, f.input_start, f.input_end, f.in_name, f.source,
                               places=s.input_places([(a, a + 1) for a in at]))
    order = sorted(range(len(s.out)), key=lambda i: _order(s.out[i]))
    if s.reading is not None:
        fixes = dict(s.fixes)
        for i, at in s.places.items():
            fixes[i] = _lookalike_fixes(s, at)
        for given in (fixes, s.spellings):
            if given:
                _give_once(s, order, given)
    out = [s.out[i] for i in order]
    if s.more:
        stop = len(s.name)
        after = len(s.reading.text) if s.reading else stop  # after everything it counts
        out.append(_more_findings(s.more, stop, after))
    assert len(out) <= MAX_FINDINGS
    return out


def _more_findings(more: dict[str, int], end: int, at: int) -> Finding:
    """The last finding of a full list: how many more of each code were not listed."""
    total = sum(more.values())
    by_code = ", ".join(f"{n:,} {code}" for code, n in sorted(
        more.items(), key=lambda kv: (-kv[1], kv[0])))
    rule = RULES["more-findings"]
    return Finding("more-findings", rule.severity,
                   f"… and {total:,} more findings, not listed: {by_code}.",
                   end, end, at, at, in_name=False, source=rule.source)


_COUNTED = re.compile(r"([0-9][0-9,]*) ([a-z0-9-]+)")


def bounded(findings: tuple[Finding, ...] | list[Finding]) -> tuple[Finding, ...]:
    """At most :data:`~doiname.limits.MAX_FINDINGS` findings: a list made of several
    (a match's and its name's) keeps its first ones and counts the rest by code in one
    last ``more-findings`` (with what an earlier one counted)."""
    if len(findings) <= MAX_FINDINGS:
        return tuple(findings)
    kept: list[Finding] = []
    more: dict[str, int] = {}
    end = at = 0
    for f in findings:
        if f.code == "more-findings":
            for n, code in _COUNTED.findall(f.message.partition("not listed: ")[2]):
                more[code] = more.get(code, 0) + int(n.replace(",", ""))
        elif len(kept) < MAX_FINDINGS - 1:
            kept.append(f)
            continue
        else:
            more[f.code] = more.get(f.code, 0) + 1
        end = max(end, f.end)
        at = max(at, f.input_end if f.input_end is not None else f.end)
    return (*kept, _more_findings(more, end, at))


def _lookalike_fixes(s: Subject, at: list[int]) -> list[tuple[int, int, str]]:
    """The lookalike at each name position of ``at`` replaced by what it looks like."""
    changes = []
    for i in at:
        hit = lookalike(s.name[i])
        assert hit is not None
        changes.append((i, i + 1, hit[1]))
    return changes


def _give_once(s: Subject, order: list[int], given: dict[int, list[tuple[int, int, str]]]
               ) -> None:
    """Make one text with the changes of every finding in ``given`` (by its index in
    ``s.out``; a change that overlaps one before it is left out) and give it to the first
    of them in ``order`` that is not ``info`` (else the first): one repaired name a list,
    not one for each kind (:meth:`Subject.repaired_at`, linear in the name's length)."""
    changes = sorted(c for cs in given.values() for c in cs)
    apart: list[tuple[int, int, str]] = []
    for c in changes:
        if not apart or c[0] >= apart[-1][1]:
            apart.append(c)
    fixed = s.repaired_at(apart)
    if fixed is None:
        return
    mine = [i for i in order if i in given]
    at = next((i for i in mine if s.out[i].severity != "info"), mine[0])
    f = s.out[at]
    s.out[at] = Finding(f.code, f.severity, f.message, f.start, f.end, f.input_start,
                        f.input_end, f.in_name, f.source, fixed, f.places)


def _order(f: Finding) -> tuple[int, int, int, str]:
    a = f.input_start if f.input_start is not None else f.start
    b = f.input_end if f.input_end is not None else f.end
    return (a, b, _SEVERITY_RANK.get(f.severity, 3), f.code)
