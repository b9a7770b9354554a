"""Names back into inputs, exactly: :func:`written_form`.

A name that left Python (a shortDOI's target, a repaired name) may be put back into an
input box, where the reading policy reads it. The text put there must read back as
exactly that name, never as a decoded string parsed again (``10.1000/a%41`` must not
become ``10.1000/aA``).
"""

from __future__ import annotations

from .extract import extract
from .model import Doi
from .presentation import to_uri

__all__ = ["written_form"]


def written_form(doi: Doi) -> str:
    """A text that :func:`inspect` reads as exactly ``doi`` (the name itself when that
    round-trips, else its ``doi:`` URI of 003 ch. 2 with any final punctuation escaped), so
    a name that left Python can be put back into an input without being decoded again."""
    uri = to_uri(doi)
    tail = len(uri)
    while tail > 4 and not uri[tail - 1].isalnum() and uri[tail - 1] != "%":
        tail -= 1
    escaped = uri[:tail] + "".join(f"%{b:02X}" for b in uri[tail:].encode("utf-8"))
    for text in (str(doi), uri, escaped):
        found = extract(text)
        if (len(found) == 1 and found[0].ok and found[0].doi == doi and found[0].start == 0
                and found[0].end == len(text) and not found[0].alternatives):
            return text
    return escaped
