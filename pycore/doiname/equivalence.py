"""Equivalence of DOI names (003 ch. 3): percent-decode, compare code points, fold case
for Basic Latin letters only (U+0041..U+005A), no Unicode normalization.

``str.lower``/``str.casefold`` are never used on names: they fold far more than Basic
Latin (U+212A KELVIN SIGN would match ``k``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from .citations import S003_2_NOTE1, S003_3
from .model import Doi
from .syntax import char_label, parse

__all__ = ["Explanation", "equivalence_key", "equivalent", "explain_equivalence"]

# A-Z to a-z on UTF-8 bytes (every byte of a non-ASCII code point is >= 0x80); the rule as
# written, code point by code point, is the oracle of tests/unit/test_differential_core.py.
_FOLD_BYTES = bytes(c + 32 if 0x41 <= c <= 0x5A else c for c in range(256))

Verdict = Literal[
    "identical", "basic-latin-case", "normalization", "non-basic-latin-case", "different"
]


def _fold(name: str) -> str:
    # For ASCII text, str.lower changes exactly A-Z: the fast path is the same rule.
    if name.isascii():
        return name.lower()
    # Else A-Z in the UTF-8 bytes, in one pass of C ("surrogatepass": a Doi made directly
    # may hold a lone surrogate; it comes back as it was).
    return name.encode("utf-8", "surrogatepass").translate(_FOLD_BYTES).decode(
        "utf-8", "surrogatepass")


def equivalence_key(x: str | Doi) -> str:
    """A string that two names share exactly when they are equivalent (003 ch. 3).

    The name is read with :func:`~doiname.parse` (percent-escapes decoded once), then
    only ``A``-``Z`` are mapped to ``a``-``z``. No Unicode normalization.
    """
    doi = x if type(x) is Doi else parse(x)
    name = doi.prefix + "/" + doi.suffix
    return name.lower() if name.isascii() else _fold(name)


def equivalent(a: str | Doi, b: str | Doi) -> bool:
    """Whether two names (in any form :func:`~doiname.parse` reads) are equivalent (003 ch. 3)."""
    return equivalence_key(a) == equivalence_key(b)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why two names are or are not equivalent (003 ch. 3, ch. 2 note 1).

    ``verdict``: ``identical`` | ``basic-latin-case`` (equivalent) | ``normalization``
    (differ only by NFC/NFD, not equivalent) | ``non-basic-latin-case`` (differ only in case
    outside Basic Latin, not equivalent) | ``different``. ``position`` is the first differing
    index (in both names) when there is one; ``a_char``/``b_char`` name the code points.
    ``message`` says it in plain words; ``source`` is the rule it rests on (``003 ch. 3``,
    or ``003 ch. 2 note 1`` for normalization), shown apart from the message.
    """

    verdict: Verdict
    equivalent: bool
    message: str
    a: str
    b: str
    position: int | None = None
    a_char: str | None = None
    b_char: str | None = None
    source: str = S003_3


def _first_difference(a: str, b: str) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def _full_fold(s: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", s).casefold())


def _normalization_message(da: str, db: str, i: int, ca: str | None, cb: str | None) -> str:
    """Why two names that Unicode normalization would make one are still two (003 ch. 2
    note 1): an accent written two ways, or a character normalization replaces (the
    KELVIN SIGN, which becomes the letter K)."""
    around = [c for c in (da[i:i + 1], db[i:i + 1], da[i - 1:i], db[i - 1:i]) if c]
    accent = any(unicodedata.combining(c) or len(unicodedata.normalize("NFD", c)) > 1
                 for c in around)
    if accent:
        return ("Not equivalent: they look the same but one writes an accented letter as a "
                "base letter plus a combining mark (NFD) and the other as one precomposed code "
                f"point (NFC), first at character {i + 1} ({ca} vs {cb}). DOI names are "
                "compared code point by code point without normalization.")
    odd = next((c for c in (da[i:i + 1], db[i:i + 1])
                if c and unicodedata.normalize("NFC", c) != c), "")
    becomes = unicodedata.normalize("NFC", odd)
    swap = (f" Unicode normalization replaces {char_label(odd)} with "
            f"{', '.join(char_label(c) for c in becomes)}, which would make them match"
            if odd else " Unicode normalization would make them match")
    return (f"Not equivalent: they look alike, but at character {i + 1} one has {ca} and the "
            f"other {cb}.{swap}; but DOI names are compared code point by code point, without "
            "normalization.")


def explain_equivalence(a: str | Doi, b: str | Doi) -> Explanation:
    """Explain the verdict of :func:`equivalent` in words a librarian understands (003 ch. 3).

    Also says when names that are *not* equivalent differ only by Unicode normalization
    (003 ch. 2 note 1: "not identical") or by case outside Basic Latin.
    """
    da, db = str(parse(a)), str(parse(b))
    if da == db:
        return Explanation("identical", True, "The two DOI names are identical, code point for "
                           "code point.", da, db)
    fa, fb = _fold(da), _fold(db)
    i = _first_difference(da, db)
    ca = char_label(da[i]) if i < len(da) else None
    cb = char_label(db[i]) if i < len(db) else None
    if fa == fb:
        return Explanation(
            "basic-latin-case", True,
            f"Equivalent: they differ only in the case of Basic Latin letters (first at "
            f"character {i + 1}: {ca} vs {cb}); DOI names ignore that case.",
            da, db, i, ca, cb,
        )
    if _fold(unicodedata.normalize("NFC", da)) == _fold(unicodedata.normalize("NFC", db)):
        return Explanation(
            "normalization", False, _normalization_message(da, db, i, ca, cb),
            da, db, i, ca, cb, S003_2_NOTE1,
        )
    if _full_fold(fa) == _full_fold(fb):
        return Explanation(
            "non-basic-latin-case", False,
            f"Not equivalent: they differ in case outside Basic Latin (first at character "
            f"{i + 1}: {ca} vs {cb}). Only A-Z/a-z are case-insensitive in DOI names.",
            da, db, i, ca, cb,
        )
    j = _first_difference(fa, fb)
    ca = char_label(da[j]) if j < len(da) else None
    cb = char_label(db[j]) if j < len(db) else None
    which = "first" if ca else "second"
    detail = f"{ca} vs {cb}" if ca and cb else f"{ca or cb} is extra in the {which}"
    where = f"at character {j + 1}: {detail}"
    return Explanation(
        "different", False, f"Not equivalent: the names differ {where}.",
        da, db, j, ca, cb,
    )
