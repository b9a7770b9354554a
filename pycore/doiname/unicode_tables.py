"""Unicode scripts and lookalikes, read from the generated tables (:mod:`doiname._unidata`).

:func:`script_of` (Scripts.txt), :func:`script_set` (Script_Extensions with the UTS #39
§5.1 augmentation for Han, kana, Hangul and Bopomofo) and :func:`lookalike` (what
Basic Latin text a character can be taken for, from UTS #39 ``confusables.txt`` and the
UCD). The tables state their Unicode versions; they are decoded once, on first use
(:mod:`doiname._ranges`), and each answer is kept for the 4096 characters seen last.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from . import _unidata
from ._ranges import deltas, plain
from .memo import remembered

__all__ = ["NEUTRAL_SCRIPTS", "lookalike", "script_of", "script_set"]

#: Scripts that belong to no word in particular (UAX #24).
NEUTRAL_SCRIPTS = frozenset({"Common", "Inherited"})
# UTS #39 §5.1: Han, Hiragana, Katakana, Hangul and Bopomofo mix in Japanese,
# Korean and Chinese writing; their script sets are augmented before intersecting.
_AUGMENT = {
    "Han": ("Han", "Jpan", "Kore", "Hanb"),
    "Hiragana": ("Hiragana", "Jpan"),
    "Katakana": ("Katakana", "Jpan"),
    "Hangul": ("Hangul", "Kore"),
    "Bopomofo": ("Bopomofo", "Hanb"),
}
_CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class _Tables:
    script_names: tuple[str, ...]
    script_starts: list[int]
    script_values: list[int]
    scx_starts: list[int]
    scx_ends: list[int]
    scx_values: list[int]
    scx_sets: tuple[frozenset[str], ...]
    look_starts: list[int]
    look_ends: list[int]
    look_kinds: str
    look_texts: list[str]
    look_steps: str


@remembered(1)
def _tables() -> _Tables:
    """Decode :mod:`doiname._unidata` once (a few milliseconds, on first use)."""
    u = _unidata
    names = tuple(n.replace("_", " ") for n in u.SCRIPT_NAMES)
    scx_starts = deltas(u.SCX_STARTS)
    look_starts = deltas(u.LOOK_STARTS)
    return _Tables(
        names,
        deltas(u.SCRIPT_STARTS),
        plain(u.SCRIPT_VALUES),
        scx_starts,
        [s + n for s, n in zip(scx_starts, plain(u.SCX_LENGTHS), strict=True)],
        plain(u.SCX_VALUES),
        tuple(frozenset(names[i] for i in s) for s in u.SCX_SETS),
        look_starts,
        [s + n for s, n in zip(look_starts, plain(u.LOOK_LENGTHS), strict=True)],
        u.LOOK_KINDS,
        u.LOOK_TEXTS.split("\u00b7"),
        u.LOOK_STEPS,
    )


@remembered(_CACHE_SIZE)
def script_of(ch: str) -> str:
    """The Unicode script of ``ch`` (Scripts.txt), e.g. ``"Latin"``, ``"Common"``.

    Code points unassigned in the tables' Unicode version (and private use, surrogates)
    are ``"Unknown"`` (UAX #24); see :mod:`doiname._unidata` for the version.
    """
    t = _tables()
    return t.script_names[t.script_values[bisect_right(t.script_starts, ord(ch)) - 1]]


@remembered(_CACHE_SIZE)
def script_set(ch: str) -> frozenset[str] | None:
    """Script_Extensions of ``ch``, augmented (UTS #39 §5.1); ``None`` when neutral."""
    t = _tables()
    cp = ord(ch)
    i = bisect_right(t.scx_starts, cp) - 1
    if i >= 0 and cp <= t.scx_ends[i]:
        scripts = t.scx_sets[t.scx_values[i]]
    else:
        sc = script_of(ch)
        if sc in NEUTRAL_SCRIPTS:
            return None
        scripts = frozenset((sc,))
    out: set[str] = set()
    for s in scripts:
        out.update(_AUGMENT.get(s, (s,)))
    return frozenset(out)


def lookalike(ch: str) -> tuple[str, str] | None:
    """``(kind, text)`` when ``ch`` (not ASCII) can be taken for Basic Latin ``text``
    (003 ch. 6, UTS #39).

    Kinds: ``l`` letter or digit, ``s`` space, ``d`` dash, ``q`` quote, ``/`` slash,
    ``o`` other (tables from ``confusables.txt`` and the UCD, see
    pycore/tools/build_unidata.py).
    """
    if ch < "\x80":
        return None
    return _lookalike(ch)


@remembered(_CACHE_SIZE)
def _lookalike(ch: str) -> tuple[str, str] | None:
    t = _tables()
    cp = ord(ch)
    i = bisect_right(t.look_starts, cp) - 1
    if i < 0 or cp > t.look_ends[i]:
        return None
    text = t.look_texts[i]
    if t.look_steps[i] == "1":
        text = chr(ord(text) + cp - t.look_starts[i])
    return t.look_kinds[i], text
