"""Every code the package gives, in one table: ``RULES`` maps each code to its severity,
its source and a one-line summary (read by :class:`~doiname.errors.DoiError` for its
``source``, the docs, ``doiname check --help`` and a parametrised test). The findings of
:func:`doiname.check` (:mod:`doiname.findings`, which exports this table) and the reader's
errors and notes (:mod:`doiname.syntax`, :mod:`doiname.forms`) all have their entry here.
It rests on the citations and the model only, below every module that raises."""

from __future__ import annotations

from dataclasses import dataclass

from . import citations as c
from .model import Severity

__all__ = ["RULES", "Rule"]


@dataclass(frozen=True, slots=True)
class Rule:
    """What one finding code means: severity, source, summary."""

    code: str
    severity: Severity
    source: str
    summary: str


def _table(*rows: tuple[str, Severity, str, str]) -> dict[str, Rule]:
    return {r[0]: Rule(*r) for r in rows}


RULES: dict[str, Rule] = _table(
    # the name cannot be read (errors; positions in the input)
    ("empty", "error", c.S002_4, "nothing to read"),
    ("no-slash", "error", c.S002_4, "no '/' between prefix and suffix"),
    ("empty-suffix", "error", c.S002_4_3, "nothing after the '/'"),
    ("bad-prefix", "error", c.S002_A, "the prefix is not '10.' followed by digit groups"),
    ("short-doi", "error", c.SHORTDOI, "a shortDOI: an alias to expand, not a DOI name"),
    ("not-a-doi-link", "error", c.DOIORG,
     "a link to another site than a DOI resolver, not a DOI name"),
    ("bad-percent", "error", c.S001, "a '%' not followed by two hexadecimal digits"),
    ("bad-utf8", "error", c.both(c.S002_A, c.S003_2), "escaped bytes that are not UTF-8"),
    ("not-graphic", "error", c.both(c.S003_2, c.S002_4_1),
     "a control, invisible, bidirectional or unassigned code point"),
    ("uri-query", "error", c.S003_2, "a doi: URI with a query ('?')"),
    ("uri-fragment", "error", c.S003_2, "a doi: URI with a fragment ('#')"),
    # what the name holds (positions in the name and in the input)
    ("reserved-suffix-start", "warning", c.S002_4_3,
     "the suffix starts with one character and '/', reserved for future use"),
    ("long-name", "info", c.S002_4_3, "more than 100 characters"),
    ("very-long-link", "warning", c.S002_4_3, "its doi.org link is over 2048 characters"),
    ("lookalike-dash", "warning", c.both(c.S003_6, c.UTS39), "a dash that looks like '-'"),
    ("lookalike-quote", "warning", c.both(c.S003_6, c.UTS39), "a quotation mark lookalike"),
    ("lookalike-slash", "warning", c.both(c.S003_6, c.UTS39), "a character that looks like '/'"),
    ("lookalike-space", "warning", c.both(c.S003_6, c.UTS39), "a space that is not U+0020"),
    ("lookalike-letter", "warning", c.both(c.S003_6, c.UTS39),
     "a letter or digit that looks like a Basic Latin one"),
    ("lookalike-character", "warning", c.both(c.S003_6, c.UTS39),
     "another character that looks like Basic Latin text"),
    ("mixed-scripts", "warning", c.both(c.S003_6, c.UTS39_MIXED),
     "one word mixing letters of scripts that share none"),
    ("combining-mark", "warning", c.S003_2_NOTE1,
     "a combining mark: the same text may be stored precomposed or not"),
    ("right-to-left", "info", c.both(c.S003_6, c.TR36),
     "right-to-left letters: the display order may differ from the stored order"),
    ("space-in-name", "warning", c.both(c.S002_4_1, c.S000_MANDATORY),
     "a space inside the name"),
    ("percent-escape-in-name", "warning", c.S001,
     "'%XX' left after the one decoding: most likely encoded twice"),
    ("outside-crossref-set", "info", c.CROSSREF_SUFFIXES,
     "characters outside a-z A-Z 0-9 - . _ ; ( ) /"),
    ("more-findings", "info", c.POLICY, "more findings than are listed, counted by code"),
)
