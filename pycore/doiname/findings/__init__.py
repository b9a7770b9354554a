"""What is worth telling a person about a DOI name: :func:`check`.

A DOI name may hold any Unicode graphic character (002 §4.1), so a name can be valid
and still be a trap: a dash that only looks like ``-``, a Cyrillic ``а`` in a Latin word,
an accent that may be stored precomposed or not (003 ch. 6, pointing to Unicode TR36).
Each rule is a function (:mod:`.lookalikes`, :mod:`.name_rules`); every code, its
severity, source and summary are in :data:`RULES`. ``10.1000/182`` gets no finding.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..codes import RULES, Rule
from ..errors import DoiError
from ..memo import Memo, forget_all
from ..model import Doi, Finding
from ..syntax import Reading, name_reading, read, validate_name
from .finish import bounded, finish
from .lookalikes import (
    QUIET_LATIN,
    rule_lookalike_characters,
    rule_lookalike_letters,
    rule_mixed_scripts,
    word_runs,
)
from .name_rules import (
    CROSSREF_SET,
    LONG_LINK,
    LONG_NAME,
    name_shape,
    rule_combining_marks,
    rule_crossref_set,
    rule_length,
    rule_percent_escapes,
    rule_reserved_suffix,
    rule_right_to_left,
    rule_spaces,
)
from .subject import Subject

__all__ = [
    "CHECKS",
    "CROSSREF_SET",
    "LONG_LINK",
    "LONG_NAME",
    "RULES",
    "NameCheck",
    "Rule",
    "bounded",
    "by_shape",
    "check",
    "quiet",
    "register",
    "unregister",
]



@dataclass(frozen=True, slots=True)
class NameCheck:
    """One rule of :func:`check` on a readable name: ``run(subject)`` reports its findings
    (:class:`~.subject.Subject`); ``when`` is its precondition, a pattern searched in the
    name, exact: no match when the rule certainly has nothing to say of the name (the
    rule is then skipped); the empty pattern: every name. ``code`` names it in the
    registry (its first finding code, in :data:`RULES`)."""

    code: str
    run: Callable[[Subject], None]
    when: re.Pattern[str]
    #: Whether its findings on a valid name depend only on where the name's characters
    #: outside :data:`CROSSREF_SET` are, and which, and on the name's length
    #: (:func:`by_shape`).
    by_shape: bool = False
    #: Whether ``when`` matches one character (a class or a literal): the preconditions of
    #: such rules are then tested on an ASCII name as one class.
    chars: bool = False
    #: Whether ``when`` matches only at the start of the name (it starts with ``\A`` and
    #: has no other branch): such preconditions are tested there only.
    at_start: bool = False


def _lookalikes(s: Subject) -> None:
    """003 ch. 6 (Unicode TR36, UTS #39) and 003 ch. 2 note 1 on the letters of a name that
    is not ASCII: lookalike letters and mixed scripts word by word, combining marks,
    right-to-left letters, lookalike characters (a rule that names a character keeps
    later rules from naming it again)."""
    name = s.name
    for a, b in word_runs(name, s.suffix_start):
        for i in rule_lookalike_letters(s, a, b):
            s.flagged.add(name[i])
        rule_mixed_scripts(s, a, b)
    rule_combining_marks(s)
    rule_right_to_left(s)
    rule_lookalike_characters(s, s.suffix_start)


#: The rules of :func:`check` on a readable name, in order, each with its precondition:
#: the one registry of them (:func:`register` adds one). A name none of them applies to
#: gets no finding (:func:`quiet`), which is what lets a reader of plain names skip
#: :func:`check` without knowing its rules.
CHECKS: list[NameCheck] = [
    # 002 §4.3: the suffix starts with one character and "/" (the prefix holds no "/")
    NameCheck("reserved-suffix-start", rule_reserved_suffix,
              re.compile(r"\A[^/]*/./", re.DOTALL), at_start=True),
    NameCheck("long-name", rule_length, re.compile(f"\\A.{{{LONG_NAME + 1}}}", re.DOTALL),
              at_start=True),
    # (a name whose letters outside ASCII are all plain Latin ones gives it nothing to say)
    NameCheck("lookalike-letter", _lookalikes,
              re.compile("[^\x00-\x7f" + QUIET_LATIN + "]"), chars=True),
    NameCheck("percent-escape-in-name", rule_percent_escapes, re.compile("%"), chars=True),
    NameCheck("space-in-name", rule_spaces, re.compile(" "), chars=True),
    NameCheck("outside-crossref-set", rule_crossref_set,
              re.compile("[^" + re.escape("".join(sorted(CROSSREF_SET))) + "]"), True, True),
]


#: A compiled pattern's ``match`` or ``search``: a precondition's test of a name.
_Test = Callable[[str], object]


def _tests(checks: list[NameCheck]) -> tuple[tuple[_Test, ...], tuple[_Test, ...]]:
    """The tests of whether a precondition of ``checks`` holds on a name (for an ASCII name,
    for another). For an ASCII name one pattern matched at the start: the preconditions
    at the start of the name, the one-character ones as one class (the ASCII characters
    any of them matches) reached by a possessive run of the others, and the rest searched
    (``.*?``). For another name those at the start matched there, the others (the
    one-character ones too) one pattern searched."""
    def one_pattern(patterns: list[str]) -> re.Pattern[str] | None:
        if not patterns:
            return None
        return re.compile("|".join(f"(?:{p})" for p in patterns), re.DOTALL)

    starts = [c.when.pattern for c in checks if c.at_start]
    held = re.escape("".join(chr(i) for i in range(128)
                             if any(c.when.fullmatch(chr(i)) for c in checks if c.chars)))
    rest = [c.when.pattern for c in checks if not c.at_start and not c.chars]
    ascii_test = one_pattern(starts + ([f"[^{held}]*+[{held}]"] if held else [])
                             + [f".*?(?:{p})" for p in rest])
    start = one_pattern(starts)
    wide = one_pattern([c.when.pattern for c in checks if not c.at_start])
    return (tuple(p.match for p in (ascii_test,) if p is not None),
            (*(p.match for p in (start,) if p is not None),
             *(p.search for p in (wide,) if p is not None)))


def _any_applies(tests: tuple[tuple[_Test, ...], tuple[_Test, ...]]) -> Callable[[str], bool]:
    """Whether a precondition holds on a name, by the :func:`_tests` of the checks."""
    ascii_tests, other_tests = tests

    def applies(name: str) -> bool:
        for test in ascii_tests if name.isascii() else other_tests:
            if test(name) is not None:
                return True
        return False

    return applies


#: The tests of :func:`quiet` and of :func:`by_shape` (:func:`_tests`), read by those
#: functions themselves (one Python frame a name on the batch's hot path); replaced in
#: place when a rule is registered.
_QUIET_TESTS: list[tuple[_Test, ...]] = []
_SHAPE_TESTS: list[tuple[_Test, ...]] = []


def _rebuild() -> None:
    """The patterns of every rule's precondition, and of those not kept by shape."""
    global _APPLIES, _NOT_BY_SHAPE
    _QUIET_TESTS[:] = _tests(CHECKS)
    _SHAPE_TESTS[:] = _tests([c for c in CHECKS if not c.by_shape])
    _APPLIES = _any_applies((_QUIET_TESTS[0], _QUIET_TESTS[1]))
    _NOT_BY_SHAPE = _any_applies((_SHAPE_TESTS[0], _SHAPE_TESTS[1]))


_APPLIES = _NOT_BY_SHAPE = _any_applies(((), ()))
_rebuild()


def register(check: NameCheck, rule: Rule) -> None:
    """Add a rule to :func:`check`, after the others: ``check`` runs it on every readable
    name its precondition accepts, and ``rule`` (its code, severity, source, summary)
    joins :data:`RULES`. Every surface reports it (Inspect, Batch, the CLI): the names
    remembered by the package's caches are forgotten (:func:`doiname.memo.forget_all`)."""
    RULES[rule.code] = rule
    CHECKS.append(check)
    _rebuild()
    forget_all()


def unregister(code: str) -> None:
    """Take out the rule :func:`register` added as ``code`` (and its entry in RULES)."""
    CHECKS[:] = [c for c in CHECKS if c.code != code]
    RULES.pop(code, None)
    _rebuild()
    forget_all()


def quiet(name: str) -> bool:
    """Whether :func:`check` certainly has nothing to say of the valid name ``name``: no
    rule's precondition holds (one search of the rules' patterns)."""
    for test in _QUIET_TESTS[0] if name.isascii() else _QUIET_TESTS[1]:
        if test(name) is not None:
            return False
    return True


def by_shape(name: str) -> bool:
    """Whether :func:`check`'s findings on the valid name ``name`` depend only on its
    length and on where its characters outside :data:`CROSSREF_SET` are, and which
    (plain Latin letters such as ``é`` among them): every rule whose precondition holds
    says so of itself
    (``NameCheck.by_shape``). A reader may then keep them by that shape."""
    for test in _SHAPE_TESTS[0] if name.isascii() else _SHAPE_TESTS[1]:
        if test(name) is not None:
            return False
    return True


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
        if text._valid:  # a name the reader read: what no rule or only rules kept by
            name = text.prefix + "/" + text.suffix  # shape say is said at once
            if not _APPLIES(name):
                return []
            if not _NOT_BY_SHAPE(name):
                return list(_by_shape(text, name))
        got = _CHECKED.get(text)
        if got is None:
            got = _CHECKED.put(text, tuple(_check(text)))
        return list(got)
    return _check(text)


#: The findings of the names checked last.
_CHECKED: Memo[Doi, tuple[Finding, ...]] = Memo(4096)
#: The findings of the names every rule that applies to keeps by shape (:func:`by_shape`),
#: by the length of the prefix and the name's shape.
_SHAPED: Memo[tuple[int, bytes], tuple[Finding, ...]] = Memo(1024)


def _check(text: str | Doi) -> list[Finding]:
    """:func:`check`, without the names remembered."""
    try:
        if isinstance(text, Doi):
            # A Doi value is not validated when it is made: say what parse() would reject
            # (nothing, for a name the reader read: model._Known).
            name = str(text)
            if not text._valid:
                validate_name(name)
            if not _APPLIES(name):
                return []  # no rule applies, and a name given as a Doi has no reader's notes
            if not _NOT_BY_SHAPE(name):  # (valid: printable, Latin letters outside ASCII)
                return list(_by_shape(text, name))
            reading = name_reading(text)
        else:
            reading = read(text)
    except DoiError as err:
        raw = str(text)
        s = Subject(None, raw, [_error_finding(err, raw)])
        _scan_unreadable(s)
        return finish(s)
    return _checked(reading, text)


def _by_shape(doi: Doi, name: str) -> tuple[Finding, ...]:
    """The findings of the valid name ``name`` of ``doi`` when every rule that applies to
    it keeps them by shape (:func:`by_shape`): those of the last name of its shape."""
    key = (len(doi.prefix), name_shape(name))
    got = _SHAPED.get(key)
    if got is None:
        got = _SHAPED.put(key, tuple(_checked(name_reading(doi), doi)))
    return got


def _checked(reading: Reading, text: str | Doi) -> list[Finding]:
    """The rules whose preconditions hold, on a readable name."""
    s = Subject(reading, str(reading.doi), list(reading.notes))
    name = s.name
    if isinstance(text, Doi) or _APPLIES(name):  # (a Doi's was searched before)
        for c in CHECKS:
            if c.when.search(name) is not None:
                c.run(s)
    return finish(s)


def _scan_unreadable(s: Subject) -> None:
    """Lookalike findings over input that is not a DOI name (positions in the input)."""
    if s.name.isascii():
        return
    for a, b in word_runs(s.name, 0):
        rule_lookalike_letters(s, a, b)
    rule_lookalike_characters(s, 0)


def _error_finding(err: DoiError, text: str) -> Finding:
    if err.position is None:
        start, end = 0, len(text)
    else:
        start = max(0, min(err.position, len(text)))
        end = err.end if err.end is not None else start + 1
        end = max(start, min(end, len(text)))
    return Finding(err.code, "error", err.message, start, end, start, end, in_name=False,
                   source=err.source or "doiname")
