"""The name one :func:`doiname.check` run looks at, and how its rules report: the
positions, the bound on how many findings are listed, and the repairs they offer."""

from __future__ import annotations

from ..codes import RULES
from ..limits import MAX_FINDINGS
from ..model import Doi, Finding, joined_places
from ..syntax import Reading
from ..written import written_form

__all__ = ["Subject", "where"]


def where(a: int, b: int) -> str:
    """``character 9`` or ``characters 9–12`` (counting from 1, as people do)."""
    return f"character {a + 1}" if b - a <= 1 else f"characters {a + 1}–{b}"


class Subject:
    """A readable name and the findings collected about it, at most ``MAX_FINDINGS``
    listed; past that they are only counted by code (``more`` becomes one finding)."""

    __slots__ = ("doi", "fixes", "flagged", "more", "name", "out", "places", "reading", "seen",
                 "spellings", "suffix_start")

    def __init__(self, reading: Reading | None, name: str, out: list[Finding]) -> None:
        self.reading = reading
        self.name = name
        self.doi = reading.doi if reading is not None else None
        self.suffix_start = len(self.doi.prefix) + 1 if self.doi is not None else 0
        self.out = out
        self.flagged: set[str] = set()  # characters with a per-character warning
        self.more: dict[str, int] = {}
        # A character reported again: (code, character) -> its finding's index in out,
        # and that finding's positions in the name (one finding for all of them).
        self.seen: dict[tuple[str, str], int] = {}
        self.places: dict[int, list[int]] = {}
        # The changes of the name a finding's repair makes (by its index in out): the
        # repair of them all is made once (doiname.findings.finish.finish), and given once.
        self.fixes: dict[int, list[tuple[int, int, str]]] = {}
        # Another spelling of the same text (combining marks precomposed): given once too.
        self.spellings: dict[int, list[tuple[int, int, str]]] = {}

    def again(self, code: str, ch: str, a: int) -> bool:
        """Whether ``code`` was already reported for the character ``ch``: then ``a`` is
        one more place of that finding (a finding said once for each kind)."""
        at = self.seen.get((code, ch))
        if at is None:
            return False
        self.places[at].append(a)
        return True

    def first(self, code: str, ch: str, a: int) -> None:
        """Remember that the finding about to be listed reports ``ch`` at ``a``."""
        self.seen[(code, ch)] = len(self.out)
        self.places[len(self.out)] = [a]

    @property
    def full(self) -> bool:
        """Whether the list is full: rules then only count (and skip building messages)."""
        return len(self.out) >= MAX_FINDINGS - 1

    def count(self, code: str) -> None:
        """One more finding of ``code`` past the bound."""
        self.more[code] = self.more.get(code, 0) + 1

    def add(self, code: str, message: str, a: int, b: int, repair: str | None = None,
            source: str | None = None, *, fix: list[tuple[int, int, str]] | None = None,
            spelling: list[tuple[int, int, str]] | None = None,
            places: list[tuple[int, int]] | None = None) -> None:
        """Report ``code`` (severity and source from :data:`RULES`; ``source``, when given,
        is a more precise one that starts with the rule's) at name span [a, b). ``fix``:
        the changes of the name (spans, in order, apart) that repair it, made with every
        other finding's in one repaired text; ``spelling``: those that write the same text
        another way, likewise made once; ``places``: the spans of the name the finding
        stands for when it is said once for several (``Finding.places``)."""
        if self.full:
            self.count(code)
            return
        if fix:
            self.fixes[len(self.out)] = fix
        if spelling:
            self.spellings[len(self.out)] = spelling
        rule = RULES[code]
        source = source or rule.source
        if self.reading is None:  # positions are in the (unreadable) input
            self.out.append(Finding(code, rule.severity, message, a, b, a, b, in_name=False,
                                    source=source, repair=repair,
                                    places=self.input_places(places) if places else ()))
            return
        ia, ib = self.reading.input_span(a, b)
        self.out.append(Finding(code, rule.severity, message, a, b, ia, ib, in_name=True,
                                source=source, repair=repair,
                                places=self.input_places(places) if places else ()))

    def input_places(self, spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        """The spans of the name ``spans`` in the input (``Finding.places``)."""
        if self.reading is None:
            return joined_places(sorted(spans))
        span = self.reading.input_span
        return joined_places([span(a, b) for a, b in sorted(spans)])

    def repaired_at(self, changes: list[tuple[int, int, str]]) -> str | None:
        """The text that reads as the name with each span ``[a, b)`` of ``changes`` (in
        order, apart) replaced by its text: the input with the same changes (a link stays a
        link), or, for a name given as a ``Doi``, a written form of the corrected name that
        reads back exactly. One repair for many places, linear in the name."""
        if self.reading is None or self.doi is None:
            return None
        if self.reading.form == "doi":  # checked as a Doi: write the corrected name
            fixed = _spliced(self.name, changes)
            cut = fixed.find("/")
            if cut <= 0:
                return None
            return written_form(Doi(fixed[:cut], fixed[cut + 1:]))
        span = self.reading.input_span
        return _spliced(self.reading.text, [(*span(a, b), r) for a, b, r in changes])


def _spliced(text: str, changes: list[tuple[int, int, str]]) -> str:
    """``text`` with each span of ``changes`` (in order, apart) replaced."""
    pieces: list[str] = []
    last = 0
    for a, b, replacement in changes:
        pieces.append(text[last:a])
        pieces.append(replacement)
        last = b
    pieces.append(text[last:])
    return "".join(pieces)
