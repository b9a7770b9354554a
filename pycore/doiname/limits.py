"""Every size bound of the package, in one place (read by the web page and the README).

A bound says how much of an input or an answer is read, kept or drawn; what lies beyond
it is never silently dropped: the function that applies a bound says so in its result.
"""

from __future__ import annotations

__all__ = ["INSPECT_MAX_CHARS", "MAX_BODY", "MAX_FINDINGS", "MAX_LABEL", "MAX_TEXT", "MAX_URL",
           "MAX_VALUES", "MAX_XML"]

#: Characters of text one Inspect reading takes (the page's input box, the widget's box,
#: :func:`doiname.inspect`). A DOI name is rarely over 300 characters and a pasted
#: reference a few thousand; longer text is refused with a message pointing to Batch.
INSPECT_MAX_CHARS = 8000

#: Findings :func:`doiname.check` returns for one name; the rest are counted, by code, in
#: one last finding (``more-findings``).
MAX_FINDINGS = 50

# Answers from doi.org (doiname.resolver): untrusted, read within these bounds.

#: Bytes (or characters) of one answer that are read; a larger one is refused unread
#: (outcome ``too-large``).
MAX_BODY = 10 * 1024 * 1024
#: Values, locations, vlist members and servers kept from one answer.
MAX_VALUES = 1000
#: Characters of one decoded value kept for display (the rest is counted).
MAX_TEXT = 100_000
#: Characters kept of a type, format, name or attribute.
MAX_LABEL = 500
#: Characters of a ``10320/loc`` value that are parsed.
MAX_XML = 1_000_000
#: Characters: a longer text never becomes a link.
MAX_URL = 8000
