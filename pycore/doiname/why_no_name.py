"""Why a pasted text holds no DOI name, in the words Inspect, the widget and the CLI show:
the strict reader's error when the text is one token that tries to be a name (002 §4,
003 ch. 2), else a plain note; and what the text reads written with the Basic Latin
characters its lookalikes pass for, when that holds a name (003 ch. 6, UTS #39), offered
as the repair, never applied."""

from __future__ import annotations

import dataclasses

from .errors import DoiError
from .extract import extract
from .model import Finding, joined_places
from .syntax import char_label, read
from .unicode_tables import lookalike

__all__ = ["why_none", "with_lookalikes_undone"]


def why_none(text: str) -> Finding:
    """Why a text holds no DOI name: the strict reader's error when the text is one token
    that tries to be one, else a plain note; with the text written in the characters its
    lookalikes pass for as the repair, when that text holds a name (003 ch. 6: fullwidth
    digits, a fullwidth or division slash)."""
    stripped = text.strip()
    why = None
    if not any(c.isspace() for c in stripped):
        try:
            read(text)
        except DoiError as err:
            a = err.position if err.position is not None else 0
            b = err.end if err.end is not None else len(text)
            if err.position is None:
                a, b = 0, len(text)
            why = Finding(err.code, "error", err.message, a, b, a, b, in_name=False,
                          source=err.source or "002 §4")
    if why is None:
        why = Finding("no-doi", "error",
                      "No DOI name was found in this text. A DOI name starts with “10.”, a "
                      "number such as 1000, and a “/”: 10.1000/182.",
                      0, len(text), 0, len(text), in_name=False, source="002 §4")
    return with_lookalikes_undone(text, why)


def with_lookalikes_undone(text: str, why: Finding) -> Finding:
    """``why``, and what the text reads written with the Basic Latin characters its
    lookalikes pass for (003 ch. 6, UTS #39) when that holds a DOI name: said, and offered
    as the repair (never applied silently)."""
    if text.isascii():
        return why
    swapped = [(i, c, hit[1]) for i, c in enumerate(text)
               if (hit := lookalike(c)) is not None and hit[0] in "l/do"]
    if not swapped:
        return why
    plain = list(text)
    for i, _, ascii_text in swapped:
        plain[i] = ascii_text
    repaired = "".join(plain)
    names = [m for m in extract(repaired) if m.ok]
    if not names:
        return why
    chars = {c: ascii_text for _, c, ascii_text in swapped}  # (each once, in order)
    shown = ", ".join(f"{char_label(c)} for “{ascii_text}”"
                      for c, ascii_text in list(chars.items())[:3])
    shown += ", ..." if len(chars) > 3 else ""
    message = (f"{why.message} The text holds characters that look like others ({shown}); "
               f"written with those, it reads {names[0].doi}.")
    return dataclasses.replace(why, message=message, repair=repaired,
                               places=joined_places([(i, i + 1) for i, _, _ in swapped]))
