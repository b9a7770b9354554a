"""Every size bound of the package, in one place (read by the web page and the README).

A bound says how much of an input or an answer is read, kept or drawn; what lies beyond
it is never silently dropped: the function that applies a bound says so in its result.
"""

from __future__ import annotations

__all__ = ["INSPECT_MAX_CHARS", "MAX_FINDINGS"]

#: Characters of text one Inspect reading takes (the page's input box, the widget's box,
#: :func:`doiname.inspect`). A DOI name is rarely over 300 characters and a pasted
#: reference a few thousand; longer text is refused with a message pointing to Batch.
INSPECT_MAX_CHARS = 8000

#: Findings :func:`doiname.check` returns for one name; the rest are counted, by code, in
#: one last finding (``more-findings``).
MAX_FINDINGS = 50
