"""The reference check: is the work a DOI is registered for the one a reference cites?
(002 foreword, "DOI and Metadata"). No network: the registry's record is given.

| module | holds |
|---|---|
| ``normalise.py`` | text folded for comparing (case, accents, markup, Greek, PDF breaks) |
| ``fields.py`` | a reference's text or fields (BibTeX, RIS, MEDLINE, Refer, JSON) as evidence |
| ``compare.py`` | one field compared: :class:`Evidence` |
| ``verdict.py`` | :func:`verify` and :class:`Verification` |
| ``rows.py`` | a list's row checked: :func:`check_row`, its export cells |
"""

from .compare import Evidence, EvidenceField, EvidenceState
from .fields import ReferenceEvidence, parse_record_fields, reference_evidence
from .rows import CHECK_COLUMNS, CHECK_LABELS, CheckStatus, RowCheck, check_row, row_reference
from .verdict import Notice, Verdict, Verification, verify

__all__ = ["CHECK_COLUMNS", "CHECK_LABELS", "CheckStatus", "Evidence", "EvidenceField",
           "EvidenceState", "Notice", "ReferenceEvidence", "RowCheck", "Verdict",
           "Verification", "check_row", "parse_record_fields", "reference_evidence",
           "row_reference", "verify"]
