"""Finding DOI names in running text: :func:`extract`, the reading policy's scanner.

Reference lists, spreadsheets, BibTeX/RIS exports, JSON, HTML and a sentence pasted with
its final period all go through one hand-written scanner: it looks for anchors, reads
the prefix, looks back a bounded distance for a label or a link, then walks forward over
the suffix, deciding at each special character whether the name goes on. Every match is
then read by the core reader (:func:`doiname.read` / :func:`doiname.parse`), so
percent-decoding and validation follow the same rules as everywhere else. Nothing found
is lost (an unreadable match is returned with its error) and nothing is decided
silently: what was left out or repaired is a finding, and the other readings of the same
place are kept as :class:`Alternative` readings.

The rules R1-R22, what each decides and where it comes from, are listed in
:data:`doiname.extract.rules.RULES`; each is implemented by a function named after it.
Positions are code-point offsets into the text given to :func:`extract`.
"""

from __future__ import annotations

import re

from ..forms import DOI_LINK_HEADS
from ..model import Doi
from .clean import needs_cleaning
from .ends import has_spaceless, r19_viewer_tail
from .model import Alternative, Match, MatchKind
from .plain import plain_names, read_plains
from .rules import RULES, Rule
from .scan import has_doi_word, scan

__all__ = ["RULES", "Alternative", "Match", "MatchKind", "Rule", "extract", "extract_general"]

# Fast path for the commonest line of a list: one bare name with a 4+ digit registrant,
# or one plain doi.org link, made only of characters no rule decides on (letters and
# digits of any script, "_", "/", "-": word characters are Graphic, none is cleaned, R1-R3,
# nor ends a name, R8-R14) and not ending in a dot; not ending in "-" (R21) or "/" (R13)
# nor in a viewer tail (R19). It gives exactly what the scanner gives (tested), only sooner.
_FAST_LINE_RE = re.compile(
    r"[ \t]*(?P<m>(?P<u>" + "|".join(re.escape(head) for head in DOI_LINK_HEADS)
    + r")?(?P<p>10\.[0-9]{4,9})/"
    r"(?P<s>[\w/\-]+(?:\.[\w/\-]+)*))[ \t]*"
)


def fast_line(text: str) -> re.Match[str] | None:
    """The one-line fast path's match of ``text`` (:data:`_FAST_LINE_RE`), or ``None``
    when the scanner must read it: no match, or letters of a script written without
    spaces, which a name may end before (R8: ``10.1000/182を参照``; the pattern's word
    characters hold them)."""
    m = _FAST_LINE_RE.fullmatch(text)
    return None if m is None or has_spaceless(text) else m


def extract(text: str) -> list[Match]:
    """Find every DOI name (and shortDOI) in ``text``, in order, without overlaps.

    Reads bare names, ``doi:`` URIs and ``doi:``/``DOI`` labels, ``urn:doi:``,
    ``info:doi/``, ``hdl:``, links on doi.org and other resolvers, library proxy links,
    SICI names with ``< > ; : #``, and names inside other sites' links, following the
    rules R1-R22 (:data:`RULES`; 002 §4, 001, 003 ch. 2-3, 000 and the policies the specs
    leave open). Positions are code-point offsets into ``text``. Never raises for a
    ``str``; runs in time linear in ``len(text)``.
    """
    if not isinstance(text, str):
        raise TypeError(f"extract() takes a str, not {type(text).__name__}")
    clean = needs_cleaning(text)
    if not clean:
        if "10" not in text and not has_doi_word(text):
            return []  # no anchor (R4), no shortDOI (R17), no label (R18)
        fast = fast_line(text)
        if fast is not None:
            s0, s1 = fast.span("s")
            if text[s1 - 1] not in "-/" and r19_viewer_tail(text, s0 - 1, s1) == s1:
                start, end = fast.span("m")
                return [Match(Doi(fast["p"], fast["s"]), start, end, fast["m"], (),
                              "url" if fast["u"] else "name")]
        plain = plain_names(text)
        if plain is not None:
            matches = read_plains(text, plain)
            if matches is not None:
                return matches
    return scan(text, clean)


def extract_general(text: str) -> list[Match]:
    """:func:`extract` without its fast paths: the scanner alone, on every text.

    The oracle of the fast paths (the one-line regular expression above and
    :func:`~.plain.plain_names`): for every ``str``, ``extract(text) ==
    extract_general(text)`` (tests/unit/test_differential_extract.py).
    """
    if not isinstance(text, str):
        raise TypeError(f"extract() takes a str, not {type(text).__name__}")
    return scan(text, needs_cleaning(text))
