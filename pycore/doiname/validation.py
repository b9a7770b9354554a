"""Whether a decoded DOI name is valid, and the words that say where it is not.

The prefix is ``10.`` followed by dot-separated digit groups (002 §4 and appendix A:
"<DIR> = 10", "The prefix is numeric"); the suffix is not empty; every code point is of
the Unicode Graphic type (003 ch. 2, 002 §4.1). ``10/abcde`` is a shortDOI (an alias, not
a DOI name) and gets its own code; ``10/2021`` (no letter) is not one. A character is
named as ``U+XXXX NAME`` (:func:`char_label`), its places counted from 1
(:func:`places`).
"""

from __future__ import annotations

import re
import unicodedata

from .errors import DoiError
from .model import Doi, make_doi

__all__ = ["char_label", "is_short_doi_code", "places", "validate_name"]

_PREFIX = re.compile(r"10(?:\.[0-9]+)+")
# A shortDOI's code: letters and digits (shortdoi.org), at least one letter, so that a
# date such as 10/2021 is not taken for one.
_SHORT_CODE = re.compile(r"[0-9A-Za-z]*[A-Za-z][0-9A-Za-z]*")
_DATE_LIKE = re.compile(r"[0-9]{1,4}(?:/[0-9]{1,4})*")

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e")
_NOT_GRAPHIC = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Cs": "a surrogate (half of a UTF-16 pair, not a character)",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


def char_label(ch: str) -> str:
    """``U+XXXX NAME`` for one character, with a fallback when it has no name."""
    name = unicodedata.name(ch, "")
    if not name:
        if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            names = {"\t": "TAB", "\n": "LINE FEED", "\r": "CARRIAGE RETURN", "\x7f": "DELETE"}
            name = names.get(ch, "control")
        else:
            name = {"Cs": "surrogate", "Co": "private use", "Cn": "unassigned"}.get(
                unicodedata.category(ch), "no name")
    return f"U+{ord(ch):04X} {name}"


def places(positions: list[int]) -> str:
    """Where one character occurs, each place counted from 1 and runs of neighbours
    joined: ``character 9``, or ``10 times, at characters 9, 11 and 13–20``. Linear in
    the number of places (a finding said once for all of them, not once each)."""
    if len(positions) == 1:
        return f"character {positions[0] + 1}"
    runs: list[str] = []
    first = last = positions[0]
    for p in positions[1:]:
        if p != last + 1:
            runs.append(f"{first + 1}" if first == last else f"{first + 1}–{last + 1}")
            first = p
        last = p
    runs.append(f"{first + 1}" if first == last else f"{first + 1}–{last + 1}")
    listed = runs[0] if len(runs) == 1 else ", ".join(runs[:-1]) + " and " + runs[-1]
    return f"{len(positions):,} times, at characters {listed}"


def is_short_doi_code(code: str) -> bool:
    """Whether ``code`` can be a shortDOI's code (``10/abcde``): letters and digits, with at
    least one letter (so a date such as ``10/2021`` is not one)."""
    return _SHORT_CODE.fullmatch(code) is not None


def validate_name(name: str) -> Doi:
    """Check a decoded name: Graphic code points, ``10.`` prefix, a suffix (002 §4, 003 ch. 2).

    The name is taken as it is (no form is recognised, nothing is decoded); raises
    :class:`DoiError` with the position of the first problem.
    """
    # str.isprintable is False exactly for Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than
    # U+0020: when it is True every code point is Graphic; otherwise look closer.
    if not name.isprintable():
        _check_graphic(name)
    slash = name.find("/")
    if slash == -1:
        twice = name.lower().find("%2f")
        if twice != -1:  # ("%252F" in a link or a text decoded once: "/" escaped twice)
            raise DoiError.at(
                "no-slash",
                "There is no “/”, but at character {at} is its escape, escaped twice "
                "(“%252F”: the text was encoded twice), and names are decoded only once. "
                "Decoded again it would read {again}; check the name against its source.",
                twice, twice + 3, again=name[:twice] + "/" + name[twice + 3:],
            )
        raise DoiError(
            "no-slash",
            "There is no “/”: a DOI name is a prefix such as 10.1000, a “/”, then a "
            "suffix.",
        )
    prefix, suffix = name[:slash], name[slash + 1:]
    if _PREFIX.fullmatch(prefix) is None:
        if prefix == "10" and is_short_doi_code(suffix):
            raise DoiError.at(
                "short-doi",
                "“{name}” is a shortDOI: an alias that points to a DOI name, not a DOI "
                "name itself. It can be expanded to the full DOI name.",
                0, len(name), name=name,
            )
        raise _bad_prefix(prefix, suffix)
    if not suffix:
        raise DoiError.at(
            "empty-suffix",
            "The suffix after the “/” at character {at} is empty: a DOI name needs one.",
            slash,
        )
    return make_doi(prefix, suffix, valid=True)  # (Doi(prefix, suffix), without __init__)


def _check_graphic(name: str) -> None:
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        if cat[0] in "CZ" and cat not in ("Zs",):
            what = _NOT_GRAPHIC.get(cat, "not a graphic character")
            if ch in _BIDI:
                what = "a bidirectional control (it can reorder how the name is displayed)"
            elif ch in _ZERO_WIDTH:
                what = "an invisible zero-width character (often pasted by accident)"
            raise DoiError.at(
                "not-graphic",
                "{label} at character {at} is {what}. DOI names are made of Unicode graphic "
                "characters only.",
                i, label=char_label(ch), what=what,
            )


_EXPECTED = "a prefix is “10.” followed by digits, such as 10.1000 or 10.21"


def _bad_prefix(prefix: str, suffix: str) -> DoiError:
    if not prefix:
        return DoiError.at("bad-prefix", "The name starts with “/” at character {at}: {x}.",
                           0, x=_EXPECTED)
    if prefix == "10":
        date = _DATE_LIKE.fullmatch(suffix) is not None
        return DoiError.at(
            "bad-prefix",
            "“10” at character {at} has no registrant code after it: {x}.{date}", 0, 2,
            x=_EXPECTED,
            date=f" “10/{suffix}” looks like a date, not a DOI name." if date else "",
        )
    if not prefix.startswith("10."):
        i = 0
        while i < min(len(prefix), 3) and prefix[i] == "10."[i]:
            i += 1
        i = min(i, len(prefix) - 1)
        return DoiError.at(
            "bad-prefix",
            "The prefix “{prefix}” does not start with “10.” (character {at} is {label}): {x}.",
            i, prefix=prefix, label=char_label(prefix[i]), x=_EXPECTED,
        )
    i = 3
    group_start = 3
    while i < len(prefix):
        ch = prefix[i]
        if ch == "." and i > group_start:
            group_start = i + 1
        elif not ("0" <= ch <= "9"):
            what = "an empty group of digits" if ch == "." else char_label(ch)
            return DoiError.at(
                "bad-prefix", "The prefix “{prefix}” has {what} at character {at}: {x}.",
                i, prefix=prefix, what=what, x=_EXPECTED,
            )
        i += 1
    last = max(len(prefix) - 1, 0)
    return DoiError.at(
        "bad-prefix",
        "The prefix “{prefix}” ends without digits after its last “.” (character {at}): {x}.",
        last, prefix=prefix, x=_EXPECTED,
    )
