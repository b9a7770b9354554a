"""What is worth telling a person about a DOI name: :func:`check`.

A DOI name may hold any Unicode graphic character (002 §4.1), so a name can be valid
and still be a trap: a dash that only looks like ``-``, a Cyrillic ``а`` in a Latin word,
an accent that may be stored precomposed or not (003 ch. 6, pointing to Unicode TR36).
Each rule is a function (:mod:`.lookalikes`, :mod:`.name_rules`); every code, its
severity, source and summary are in :data:`RULES`. ``10.1000/182`` gets no finding.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import DoiError
from ..limits import MAX_FINDINGS
from ..model import SEVERITIES, Doi, Finding
from ..syntax import Reading, name_reading, places, read, validate_name
from ..unicode_tables import lookalike
from .lookalikes import (
    lookalike_message,
    rule_lookalike_characters,
    rule_lookalike_letters,
    rule_mixed_scripts,
    word_runs,
)
from .name_rules import (
    CROSSREF_SET,
    LONG_LINK,
    LONG_NAME,
    ascii_name_findings,
    rule_combining_marks,
    rule_crossref_set,
    rule_length,
    rule_percent_escapes,
    rule_reserved_suffix,
    rule_right_to_left,
    rule_spaces,
)
from .rules import RULES, Rule
from .subject import Subject

__all__ = ["CROSSREF_SET", "LONG_LINK", "LONG_NAME", "RULES", "Rule", "bounded", "check"]

_SEVERITY_RANK = {s: i for i, s in enumerate(SEVERITIES)}
#: A name made only of CROSSREF_SET (the same set, as a pattern).
_ALL_CROSSREF = re.compile("[" + re.escape("".join(sorted(CROSSREF_SET))) + "]*").fullmatch


def check(text: str | Doi) -> list[Finding]:
    """Everything worth telling about ``text`` as a DOI name (002, 003 ch. 2 and 6, 001).

    Returns :class:`~doiname.model.Finding` objects sorted by position in the input, each
    code as in :data:`RULES`; lookalike findings carry the ``repair`` (the name with every
    lookalike replaced by what it looks like), as do double escapes and combining marks.
    A ``Doi`` is checked as it is (no decoding); one that :func:`~doiname.parse` would
    reject (a code point that is not Graphic, a bad prefix) gets that error; for input
    that cannot be read, the lookalike rules still run over the input, because a
    lookalike slash or digit is often *why* it cannot be read. At most
    :data:`~doiname.limits.MAX_FINDINGS` findings are listed; the rest are counted by code
    in a last ``more-findings``. Never raises for a ``str`` or a ``Doi``; linear in the
    length (a ``Doi``'s findings are remembered for the 4096 names checked last).
    """
    if isinstance(text, Doi):
        return list(_check_name(text))
    return _check(text)


@lru_cache(maxsize=4096)
def _check_name(doi: Doi) -> tuple[Finding, ...]:
    return tuple(_check(doi))


def _check(text: str | Doi, ascii_path: bool = True) -> list[Finding]:
    """:func:`check`; ``ascii_path=False`` checks a plain ASCII name by every rule too
    (the oracle of :func:`~.name_rules.ascii_name_findings`)."""
    try:
        if isinstance(text, Doi):
            # A Doi value is not validated when it is made: say what parse() would reject.
            name = str(text)
            validate_name(name)
            if ascii_path:
                found = ascii_name_findings(text, name)
                if found is not None:
                    return found
            reading = name_reading(text)
        else:
            reading = read(text)
    except DoiError as err:
        raw = str(text)
        s = Subject(None, raw, [_error_finding(err, raw)])
        _scan_unreadable(s)
        return _finish(s)
    s = Subject(reading, str(reading.doi), list(reading.notes))
    _run(s, reading)
    return _finish(s)


def _run(s: Subject, reading: Reading) -> None:
    """The rules, in order (a rule that names a character keeps later rules from
    naming it again)."""
    rule_reserved_suffix(s)
    rule_length(s)
    name = s.name
    if _ALL_CROSSREF(name) is not None:  # the common case: nothing more to say
        return
    if not name.isascii():
        for a, b in word_runs(name, s.suffix_start):
            for i in rule_lookalike_letters(s, a, b):
                s.flagged.add(name[i])
            rule_mixed_scripts(s, a, b)
        rule_combining_marks(s)
        rule_right_to_left(s)
        rule_lookalike_characters(s, s.suffix_start)
    rule_percent_escapes(s)
    rule_spaces(s)
    rule_crossref_set(s)


def _scan_unreadable(s: Subject) -> None:
    """Lookalike findings over input that is not a DOI name (positions in the input)."""
    if s.name.isascii():
        return
    for a, b in word_runs(s.name, 0):
        rule_lookalike_letters(s, a, b)
    rule_lookalike_characters(s, 0)


def _finish(s: Subject) -> list[Finding]:
    """Say each repeated character's places in its one finding, give the first lookalike
    finding the repair of all lookalikes (made once), sort, count the rest."""
    for i, at in s.places.items():
        f = s.out[i]
        if len(at) > 1:
            ch = s.name[f.start]
            hit = lookalike(ch)
            assert hit is not None
            s.out[i] = Finding(f.code, f.severity, lookalike_message(ch, hit, places(at)),
                               f.start, f.end, f.input_start, f.input_end, f.in_name, f.source)
    out = sorted(s.out, key=_order)
    if s.places and s.reading is not None:
        fixed = _repair_all(s, [i for at in s.places.values() for i in at])
        first = next(i for i, f in enumerate(out) if f.code.startswith("lookalike-"))
        f = out[first]
        out[first] = Finding(f.code, f.severity, f.message, f.start, f.end, f.input_start,
                             f.input_end, f.in_name, f.source, fixed)
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


def _repair_all(s: Subject, at: list[int]) -> str | None:
    """One text with the lookalike at each name position of ``at`` replaced by what it
    looks like (:meth:`Subject.repaired_at`: made once, linear in the name's length)."""
    changes = []
    for i in sorted(at):
        hit = lookalike(s.name[i])
        assert hit is not None
        changes.append((i, i + 1, hit[1]))
    return s.repaired_at(changes)


def _order(f: Finding) -> tuple[int, int, int, str]:
    a = f.input_start if f.input_start is not None else f.start
    b = f.input_end if f.input_end is not None else f.end
    return (a, b, _SEVERITY_RANK.get(f.severity, 3), f.code)


def _error_finding(err: DoiError, text: str) -> Finding:
    if err.position is None:
        start, end = 0, len(text)
    else:
        start = max(0, min(err.position, len(text)))
        end = err.end if err.end is not None else start + 1
        end = max(start, min(end, len(text)))
    return Finding(err.code, "error", err.message, start, end, start, end, in_name=False,
                   source=err.source or "doiname")
