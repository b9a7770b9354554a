"""R22: a name cut between two of its digits by a space or a line break.

PDF text and copied references often cut a name inside a run of digits:
``https://doi.org/10.1038/nature14 539`` (a space in the middle of the article number),
``10.1002/anie.2020`` then a line break then ``12345``. R8 ends the name at the space;
this rule finds where the rest probably is: the name ends in a digit, one space (or one
line break with spaces around it) follows, then a run of digits that ends its line (a
final ``.``, ``,`` or ``;`` allowed). The shorter reading stays the one read, with a
warning that names the joined reading, which is offered as an alternative (``joined``):
nothing is joined without asking, and only the registry (Resolve) can say which exists.
"""

from __future__ import annotations

__all__ = ["r22_cut_digits"]

_DIGITS = frozenset("0123456789")
_LINE_BREAKS = frozenset("\n\r\u2028\u2029\x85\x0b\x0c")
#: Longest run of digits read as the rest of a cut name (an article number's length).
_MAX_RUN = 12


def r22_cut_digits(s: str, end: int) -> tuple[int, int] | None:
    """R22: where the rest of a name cut between digits lies, ``(start, end)`` of the run
    of digits after the space or line break at ``end`` (the end of the name read), or
    ``None``. Bounded: looks at most ``_MAX_RUN`` + 10 characters ahead."""
    n = len(s)
    if end >= n or end == 0 or s[end - 1] not in _DIGITS or s[end] not in " \t\n\r":
        return None
    w = end
    breaks = 0
    while w < n and s[w] in " \t\n\r" and w - end < 8:
        if s[w] == "\n" or (s[w] == "\r" and not (w + 1 < n and s[w + 1] == "\n")):
            breaks += 1
        w += 1
    if breaks > 1 or (breaks == 0 and w - end != 1) or w >= n or s[w] not in _DIGITS:
        return None
    k = w
    while k < n and s[k] in _DIGITS:
        k += 1
    if k - w > _MAX_RUN:
        return None
    j = k
    while j < n and s[j] in ".,;:":
        j += 1
    while j < n and s[j] in " \t":
        j += 1
    if j < n and s[j] not in _LINE_BREAKS:
        return None
    return w, k
