"""Every source the package cites, written once (one citation vocabulary).

The spec texts are in the project's ``shared/specs`` (index: its README): ``000`` DOI
Handbook, "DOI Name Encoding Rules for URL Presentation"; ``001`` "Handling of Special
Characters Within the DOI Syntax" (2000); ``002`` ANSI/NISO Z39.84-2000; ``003`` "DOI URI
Scheme" (2024); ``004`` notes on draft-paskin-doi-uri-04 (2003). Sections are written
``002 §4.3``, chapters ``003 ch. 2``. A finding's ``source`` is one of these constants
(or several joined with ``; ``). Messages for people never cite them: they say the rule
in plain words, and a view shows the ``source`` apart, as a small "Source:" line.
"""

from __future__ import annotations

__all__ = [
    "CROSSREF_SUFFIXES", "DOIORG", "EZPROXY", "HANDBOOK_STRICT", "POLICY", "RFC3651",
    "S000_MANDATORY", "S000_RECOMMENDED", "S000_URN", "S001", "S002_4", "S002_4_1",
    "S002_4_3", "S002_A", "S002_METADATA", "S003_2", "S003_2_NOTE1", "S003_3", "S003_4",
    "S003_6", "S004",
    "SHORTDOI", "TR36", "UTS39", "UTS39_MIXED", "both",
]

S000_MANDATORY = "000 mandatory"
S000_RECOMMENDED = "000 recommended"
S000_URN = "000 (URN note)"
S001 = "001"
S002_4 = "002 §4"
S002_4_1 = "002 §4.1"
S002_4_3 = "002 §4.3"
S002_A = "002 appendix A"
#: 002's foreword, "DOI and Metadata": a DOI string carries no description of what it
#: names; registry metadata makes it meaningful.
S002_METADATA = "002 foreword (DOI and Metadata)"
S003_2 = "003 ch. 2"
S003_2_NOTE1 = "003 ch. 2 note 1"
S003_3 = "003 ch. 3"
S003_4 = "003 ch. 4"
S003_6 = "003 ch. 6"
S004 = "004"
UTS39 = "UTS #39"
UTS39_MIXED = "UTS #39 mixed-script detection"
TR36 = "Unicode TR36"
RFC3651 = "RFC 3651"
HANDBOOK_STRICT = "DOI Handbook 2025 (proxy encoding)"
EZPROXY = "specs README (EZproxy)"
SHORTDOI = "specs README (shortDOI)"
CROSSREF_SUFFIXES = "Crossref suffix guidance"
DOIORG = "doi.org resolver"
#: A rule of this package where the specs leave the choice open (the reading policy).
POLICY = "doiname policy"


def both(*sources: str) -> str:
    """Several sources for one finding: ``003 ch. 6; UTS #39``."""
    return "; ".join(sources)
