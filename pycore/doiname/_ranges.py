"""The packed format of the generated Unicode tables, both ways (as idna's intranges).

Sorted integers are written as base-36 deltas separated by spaces (``delta_string``),
other integers as plain base-36 (``plain_string``); :mod:`doiname.unicode_tables` reads
them back (``deltas``, ``plain``). ``pycore/tools/build_unidata.py`` writes
:mod:`doiname._unidata` with the encoders here, so writer and reader cannot drift.
"""

from __future__ import annotations

__all__ = ["b36", "delta_string", "deltas", "plain", "plain_string"]

_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def b36(n: int) -> str:
    """``n`` (>= 0) in base 36, lowercase."""
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = _DIGITS[r] + s
        if n == 0:
            return s


def delta_string(values: list[int]) -> str:
    """Sorted ints as base-36 deltas separated by spaces."""
    out = []
    prev = 0
    for v in values:
        out.append(b36(v - prev))
        prev = v
    return " ".join(out)


def plain_string(values: list[int]) -> str:
    """Ints as base 36, separated by spaces."""
    return " ".join(b36(v) for v in values)


def deltas(text: str) -> list[int]:
    """The ints of :func:`delta_string`."""
    out: list[int] = []
    total = 0
    for item in text.split():
        total += int(item, 36)
        out.append(total)
    return out


def plain(text: str) -> list[int]:
    """The ints of :func:`plain_string`."""
    return [int(item, 36) for item in text.split()]
