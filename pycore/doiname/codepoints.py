"""Every code point of a DOI name, with where it came from: :func:`describe_code_points`.

For the code-point view of the page (003 ch. 2 note 2 and ch. 6: only code points tell
lookalike names apart).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .errors import DoiError
from .model import Doi
from .syntax import char_label, read
from .unicode_tables import lookalike, script_of

__all__ = ["CodePoint", "describe_code_points"]


@dataclass(frozen=True, slots=True)
class CodePoint:
    """One character of a DOI name (or of unreadable input), for a code-point view.

    ``input_start``/``input_end`` is the span of the input that produced it (an escape
    ``%E2%80%90`` produces one character from nine); ``in_name`` is ``False`` when the
    input could not be read as a DOI name and its characters are listed instead.
    ``looks_like`` is the Basic Latin text the character can be taken for, or ``""``
    (003 ch. 6, UTS #39).
    """

    char: str
    code_point: str
    name: str
    category: str
    script: str
    input_start: int
    input_end: int
    looks_like: str = ""
    in_name: bool = True


def describe_code_points(text: str | Doi) -> list[CodePoint]:
    """Each code point of the DOI name in ``text``, with where it came from in the input.

    For the code-point view of the page (003 ch. 2 note 2 and ch. 6: only code points
    tell lookalike names apart). When ``text`` cannot be read as a DOI name the input's
    own characters are listed, with ``in_name=False``. Never raises for a ``str``.
    """
    try:
        reading = read(text)
    except DoiError:
        assert isinstance(text, str)
        return [_code_point(ch, i, i + 1, False) for i, ch in enumerate(text)]
    name = str(reading.doi)
    spans = reading.spans
    out: list[CodePoint] = []
    for i, ch in enumerate(name):
        a, b = spans[i] if i < len(spans) else reading.input_span(i, i + 1)
        out.append(_code_point(ch, a, b, True))
    return out


def _code_point(ch: str, a: int, b: int, in_name: bool) -> CodePoint:
    label = char_label(ch)
    hit = lookalike(ch)
    return CodePoint(
        ch, f"U+{ord(ch):04X}", label.split(" ", 1)[1], unicodedata.category(ch),
        script_of(ch), a, b, hit[1] if hit is not None else "", in_name,
    )
