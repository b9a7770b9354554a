"""What the command line prints for people (without ``--json``): findings, URL
explanations, inspections, and the notes that say what the reading policy did.

A message is printed as it is written for people (no spec citation in it); its source
follows on the same line in a quieter form, ``(source: 002 §4.3)``, so nothing is lost
for experts (:func:`with_source`)."""

from __future__ import annotations

import io
import unicodedata
from typing import Any, TextIO

from .inspection import Inspection
from .reading_words import LEFT_OUT

__all__ = ["TerminalOut", "check_plain", "explain_plain", "inspect_plain", "policy_notes",
           "visible", "with_source"]


def visible(text: str) -> str:
    """``text`` as a terminal may show it: every character that is not Unicode Graphic
    (C0 and C1 controls, which start a terminal's escape sequences; the bidirectional
    controls that reorder what follows them; invisible format characters; line and
    paragraph separators) written as ``⟨U+001B⟩``, line breaks kept. What the command
    line prints for people quotes the input, which is untrusted (003 ch. 6); a valid DOI
    name is made of Graphic characters only (003 ch. 2, 002 §4.1), so it comes out as it
    is, spaces such as U+00A0 included."""
    if text.isprintable():
        return text
    if "\n" in text:  # (each line by itself: most take the test above, a terminal's rows)
        return "\n".join(map(visible, text.split("\n")))
    return "".join(c if c.isprintable() or unicodedata.category(c) == "Zs"
                   else f"⟨U+{ord(c):04X}⟩" for c in text)


class TerminalOut(io.TextIOBase):
    """Standard output when it is a terminal: every text written to it is shown as
    :func:`visible` shows it, each ``\r\n`` as ``\n``. The rows of ``doiname batch`` and
    ``extract`` (CSV, JSON Lines) quote the input, which may hold an escape sequence or a
    bidirectional control; on a screen they are shown, not obeyed. Piped or redirected,
    the output is written exactly as it is (what a program reads)."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self._out = out

    def write(self, text: str) -> int:
        self._out.write(visible(text.replace("\r\n", "\n")))
        return len(text)

    def flush(self) -> None:
        self._out.flush()

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return True


def with_source(message: str, source: str) -> str:
    """``message  (source: 002 §4.3)``, or the message alone when it has no source."""
    return f"{message}  (source: {source})" if source else message


def check_plain(findings: Any) -> str:
    if not findings:
        return "no findings"
    return "\n".join(f"{f.severity:<7} {f.code:<24} {with_source(f.message, f.source)}"
                     for f in findings)


def explain_plain(changes: Any) -> str:
    if not changes:
        return "(nothing to encode)"
    return "\n".join(
        f"{c.start + 1:>4}  {c.code_point:<8} {c.char!r:<6} -> {c.encoded:<12} "
        f"{c.rule} [{c.source}]"
        for c in changes
    )


def inspect_plain(found: Inspection) -> str:
    lines = [found.message or "(empty)"]
    if found.headline is not None and found.headline.label:
        lines.append(f"  other reading: {found.headline.label}")
    for i, c in enumerate(found.candidates):
        mark = "*" if i == found.selected else " "
        how = "" if c.of is None and c.how in ("exact", "found") else f" ({c.how} reading)"
        lines.append(f"{mark} {i + 1}. {c.doi}  [{c.label or c.status}]{how}")
        lines.extend(f"       {f.severity} {f.code}: {with_source(f.message, f.source)}"
                     for f in c.findings)
    lines.extend(f"  note {f.code}: {with_source(f.message, f.source)}" for f in found.notes)
    if found.forms is not None:
        lines.append(f"  link: {found.forms.url}")
    if found.offer is not None:
        lines.append(f"  {found.offer.label}: {found.offer.url}")
    return "\n".join(lines)


def policy_notes(found: Inspection) -> list[str]:
    """What the reading policy did that the output alone does not show (never silent)."""
    if found.selected is None:
        return []
    c = found.candidates[found.selected]
    line = found.headline
    said = [line.said] if line is not None and line.explains else []
    said += [f"{f.severity}: {with_source(f.message, f.source)}" for f in c.findings
             if (f.severity != "info" or f.code in LEFT_OUT)  # (what was left out: said)
             and not (line is not None and f.code == line.explains)]
    others = [x for x in found.candidates if x is not c]
    if others:
        said.append("other readings: " + ", ".join(str(x.doi) for x in others)
                    + " (doiname inspect shows them; --exact reads the text as one name)")
    return said
