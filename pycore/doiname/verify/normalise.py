"""Text of references and registry records brought to one form before comparing them
(002 foreword, "DOI and Metadata"): the same title written with markup or without, with
accents or without, ``β`` or ``beta``, broken across PDF lines with a hyphen, reads the
same words here.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..registry.markup import plain_title

__all__ = ["GREEK", "STOP_WORDS", "fold", "join_breaks", "significant", "words"]

#: Greek letters written out, as titles spell them (``α`` -> ``alpha``).
GREEK: dict[str, str] = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu",
    "ν": "nu", "ξ": "xi", "ο": "omicron", "π": "pi", "ρ": "rho", "σ": "sigma", "τ": "tau",
    "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega", "ϵ": "epsilon",
    "ϑ": "theta", "ϕ": "phi", "ϱ": "rho", "ς": "sigma"}
#: Letters NFKD does not take apart.
_LETTERS = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d",
            "þ": "th", "ı": "i", "ŀ": "l", "ŉ": "n", "µ": "mu", "ʼ": "", "’": "", "'": ""}
_FOLD = str.maketrans(_LETTERS)
#: Greek letters in a row: one or two are symbols (``β``, ``γδ``), written out; more are
#: a Greek word, kept.
_GREEK_RUN = re.compile("[" + "".join(GREEK) + "]+")
#: Characters of scripts written without spaces between words (kana, CJK ideographs):
#: each is a word of its own.
_UNSPACED = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])")
_NOT_WORD = re.compile(r"[\W_]+")
#: A word cut by a hyphen at the end of a PDF line: ``Endo-\nscopic`` (the next line
#: going on in lower case).
_BREAK_HYPHEN = re.compile(r"(?<=[^\W\d_])[-\u00ad\u2010\u2011]\s*\n\s*(?=[^\W\d_A-Z])")
_BREAK = re.compile(r"\s*\n\s*")

#: Words that say nothing of which work is meant.
STOP_WORDS = frozenset({
    "a", "an", "and", "the", "of", "in", "on", "for", "to", "with", "by", "from", "at",
    "as", "or", "is", "are", "be", "its", "into", "via", "vs", "versus", "de", "la", "le",
    "les", "des", "du", "et", "en", "el", "los", "las", "y", "del", "der", "die", "das",
    "und", "im", "zur", "zum", "von"})


def join_breaks(text: str) -> str:
    """Line breaks of a PDF copy undone: a hyphen that cuts a word at a line's end goes
    (``Endo-\\nscopic`` -> ``Endoscopic``), every other break becomes a space."""
    if "\n" not in text:
        return text
    return _BREAK.sub(" ", _BREAK_HYPHEN.sub("", text))


def _greek(m: re.Match[str]) -> str:
    run = m.group(0)
    return " ".join(GREEK[c] for c in run) if len(run) <= 2 else run


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Lower-case words of letters and digits (of any script), one space apart: markup
    dropped, accents taken off, Greek letters used as symbols written out (``β`` is
    ``beta``), punctuation a space, each character of Chinese or Japanese a word."""
    text = plain_title(join_breaks(text)).lower()
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).translate(_FOLD)
    text = _GREEK_RUN.sub(lambda m: f" {_greek(m)} ", text)
    text = _UNSPACED.sub(r" \1 ", text)
    return _NOT_WORD.sub(" ", text).strip()


def words(text: str) -> list[str]:
    """The folded words of a text (:func:`fold`)."""
    folded = fold(text)
    return folded.split() if folded else []


def significant(tokens: list[str]) -> list[str]:
    """The words that tell works apart: no stop words."""
    return [t for t in tokens if t not in STOP_WORDS]
