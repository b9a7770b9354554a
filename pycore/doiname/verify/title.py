"""Finding a registered title in a reference (002 foreword, "DOI and Metadata"): how much
of it is there, where, and what surrounds it.

A reference's text is not split into fields (no citation style is assumed): the title's
words are looked for, in order and close together, among the reference's words. Where
they are found tells the rest of the check where the authors (before) and the journal,
volume and pages (after) are, so that a number in a title is not taken for a volume and
a reference cut after its title is not said to name another journal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import pairwise

from .normalise import STOP_WORDS, words

__all__ = ["ABOUT_HEAD", "TitleMatch", "about_words", "locate_title", "split_joined"]

#: Words before a title that make a reference cite something about the work, not the
#: work (``Reply to comments on 'X'``, ``Comment on: X``, ``Erratum to X``, ``Data from:
#: X``).
ABOUT_HEAD = re.compile(
    r"(?:^| )(?:comments?|commentary|reply|replies|response|rebuttal|letter|erratum|"
    r"correction|corrigendum|retraction|retracted|addendum|data|dataset|supplementary|"
    r"supplemental|supporting)(?: (?:to|on|of|for|about|re|from))?"
    r"(?: (?:the|a|an))?(?: (?:comments?|letter|article|paper|editorial|material|materials|"
    r"information|data))?"
    r"(?: (?:to|on|of|by|about))?$")
#: Words after a title that do the same (``X: Comment``, ``X: Letter to the editor``).
ABOUT_TAIL = re.compile(r"^(?:comment|commentary|reply|author reply|authors reply|"
                        r"letter to the editor|letter to editor|in reply|response)\b")
#: Where a main title may end and its subtitle begin.
_MAIN_END = re.compile(r"[:?!]\s|\.\s|\s[-\u2013\u2014]\s")
_ROMAN = re.compile(r"^(?:x{0,3})(?:ix|iv|v?i{0,3})$")


@dataclass(frozen=True, slots=True)
class TitleMatch:
    """Where a registered title is in a reference's words: ``cover`` (0 to 1, the share
    of its significant words found in order and close together), ``start`` and ``end``
    (the span of the reference's words it was found in; ``start == end`` when not
    found), ``size`` its significant words, ``numerals_differ`` when the reference
    numbers the title otherwise (``Part II`` for ``Part I``), ``main_only`` when only the
    main title (without its subtitle) was found."""

    cover: float
    start: int
    end: int
    size: int
    numerals_differ: bool = False
    main_only: bool = False


def split_joined(ref_words: list[str], registered: str) -> list[str]:
    """The reference's words with a word that is two adjacent words of the registered
    title run together split back (``hostpathogen`` for ``host-pathogen``: a PDF line
    broken after a real hyphen reads like a word broken by hyphenation)."""
    tokens = words(registered)
    pairs = {a + b: (a, b) for a, b in pairwise(tokens)}
    if not pairs or not any(w in pairs for w in ref_words):
        return ref_words
    out: list[str] = []
    for w in ref_words:
        out.extend(pairs.get(w, (w,)))
    return out


def _numeral(word: str) -> bool:
    return word.isdigit() or (len(word) <= 5 and _ROMAN.match(word) is not None and word != "")


def _best_run(title: list[str], text: list[str], compact: bool) -> tuple[int, int, int]:
    """(matched words, first, last + 1 in ``text``) of the best run of matching blocks;
    ``compact``: within a stretch at most a third longer than the title (so that ``Deep
    learning`` is not found in ``Deep residual learning for ...``)."""
    if not title or not text:
        return 0, 0, 0
    matcher = SequenceMatcher(None, title, text, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size]
    reach = len(title) + len(title) // 3 if compact else len(text)
    best = (0, 0, 0)
    for i, first in enumerate(blocks):
        got, last = 0, first.b
        for b in blocks[i:]:
            if b.b + b.size - first.b > reach:
                break
            got += b.size
            last = b.b + b.size
        if got > best[0]:
            best = (got, first.b, last)
    return best


def _locate(tokens: list[str], ref_sig: list[str], where: list[int],
            compact: bool) -> tuple[float, int, int]:
    got, first, last = _best_run(tokens, ref_sig, compact)
    if not got:
        return 0.0, 0, 0
    return got / len(tokens), where[first], where[last - 1] + 1


def locate_title(registered: str, ref_words: list[str], *, compact: bool = True) -> TitleMatch:
    """Find ``registered`` in a reference's folded words (:func:`~.normalise.words`):
    its significant words in order, else its main title alone (before a subtitle's
    colon, question mark or dash) when that is held whole, counted a little less.
    ``compact`` (for a whole reference's text, not a title field): the words close
    together."""
    tokens = [t for t in words(registered) if t not in STOP_WORDS]
    if not tokens:
        return TitleMatch(0.0, 0, 0, 0)
    where = [i for i, w in enumerate(ref_words) if w not in STOP_WORDS]
    ref_sig = [ref_words[i] for i in where]
    cover, start, end = _locate(tokens, ref_sig, where, compact)
    main_only = False
    if cover < 1.0:  # a subtitle left out: the longest main title (before a colon, a
        # question mark, a full stop or a dash) that is held whole, counted a little less
        for cut in sorted((m.start() for m in _MAIN_END.finditer(registered)), reverse=True):
            main_tokens = [t for t in words(registered[:cut]) if t not in STOP_WORDS]
            if len(main_tokens) < 2 or len(main_tokens) >= len(tokens):
                continue
            main_cover, main_start, main_end = _locate(main_tokens, ref_sig, where, compact)
            if main_cover == 1.0:
                if cover < 0.95:
                    cover, start, end, main_only = 0.95, main_start, main_end, True
                break
    numerals = {t for t in tokens if _numeral(t)}
    span = set(ref_words[start:end + 1])
    differ = bool(numerals) and not numerals <= span and any(
        _numeral(w) and w not in numerals for w in ref_words[start:end + 1])
    return TitleMatch(cover, start, end, len(tokens), differ, main_only)


def about_words(ref_words: list[str], match: TitleMatch) -> str:
    """The words that make the reference cite something about the work (a comment, a
    reply, a letter, an erratum) rather than the work, or ``""``."""
    if match.start >= match.end:
        return ""
    head = " ".join(ref_words[max(0, match.start - 5):match.start])
    m = ABOUT_HEAD.search(head)
    if m is not None:
        said = m.group(0).split()
        while said and said[-1] in ("the", "a", "an"):
            said.pop()
        return " ".join(said)
    tail = " ".join(ref_words[match.end:match.end + 4])
    m = ABOUT_TAIL.match(tail)
    return m.group(0) if m is not None else ""
