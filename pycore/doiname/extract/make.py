"""From a scanned span to a :class:`~.model.Match`: reading it, saying what was left out.

Every name is read by the core reader (:func:`doiname.read` / :func:`doiname.parse`), so
decoding and validation follow the same rules everywhere (R6, R16). Then the findings of
what cleaning changed (R1-R3), of what the ends rules left out (R13, R14, R19, R20), the
other readings (:class:`~.model.Alternative`) and a name cut by a line break (R21) or
between two of its digits (R22): :mod:`.breaks`. The reading itself: :mod:`.reading`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import DoiError
from ..model import Doi, Finding, Severity
from ..syntax import char_label
from .breaks import r21_line_break, r21_read_joined, r22_cut
from .clean import Text, edit_findings, one_repair
from .ends import (
    FILE_TAIL,
    LINE_BREAKS,
    OPENER,
    R8_WORDS,
    TRAILING,
    r13_trailing,
    r13_words,
    to_line_end,
)
from .model import Alternative, Found, Match
from .reading import BARE_FORMS, WHOLE, moved, read_span

__all__ = ["LINK_FORMS", "Scanned", "alone_on_line", "make_match"]

LINK_FORMS = frozenset({"url", "urn-url", "api-url", "proxy-url", "proxy-login"})


@dataclass(slots=True)
class Scanned:
    """What the scanner found at one anchor, in cleaned coordinates."""

    start: int  # where the match starts (label or link included)
    a: int  # the anchor "10."
    p: int  # end of the prefix
    sep_end: int  # where the suffix starts
    end: int  # the end chosen by the rules
    end13: int  # the end after R13 alone
    raw_end: int  # where R8-R12 stopped
    kind: str
    text_end: int  # where they stopped with no glued text (R8) cut off: raw_end or later


def _error_finding(t: Text, err: DoiError, base: int, start: int, end: int) -> Finding:
    """R16: the reader's error, positioned in the original text."""
    if err.position is None:
        a, b = t.span(start, end)
        message = err.message
    else:
        stop = err.end if err.end is not None else err.position + 1
        a, b = t.span(base + err.position, base + max(stop, err.position + 1))
        message = err.moved(a, b).message
    repair = None
    if err.code in ("uri-fragment", "uri-query"):
        o0, o1 = t.span(start, end)
        written = t.original[o0:o1]
        head = written.find(":") + 1
        repair = written[:head] + written[head:].replace("#", "%23").replace("?", "%3F")
    return Finding(err.code, "error", message, a, b, a, b, in_name=False,
                   source=f"{err.source}; extract R16" if err.source else "extract R16",
                   repair=repair)


def alone_on_line(s: str, start: int, end: int) -> bool:
    """Whether ``s[start:end]`` is the only thing on its line: nothing before it, and after
    it only what the ends rules leave out (no other word). Bounded: linear overall."""
    k = start
    while k > 0 and s[k - 1] in " \t\u00a0":
        k -= 1
    if k > 0 and s[k - 1] not in LINE_BREAKS:
        return False
    j, n = end, len(s)
    while j < n and not s[j].isspace() and j - end < 64:
        j += 1
    return (j >= n or s[j].isspace()) and to_line_end(s, j)


def make_match(t: Text, sc: Scanned) -> Found:
    """Read one scanned span and say everything about it (R6, R13-R16, R19-R22)."""
    s = t.text
    findings: list[Finding] = []
    start, kind = sc.start, sc.kind
    base = start if kind in WHOLE else sc.a
    end = sc.end
    alternatives: list[Alternative] = []
    # R13: a bare name that is all its line has keeps its final dots when there are
    # several (10.1124/mol...); a single final "." is almost always a sentence's
    dots_kept = (kind == "name" and sc.end13 + 1 < sc.raw_end and sc.end == sc.end13
                 and s[sc.end13:sc.raw_end].strip(".") == ""
                 and alone_on_line(s, sc.start, sc.end))
    if dots_kept:
        end = sc.raw_end
    try:
        doi, form, notes, base = read_span(s, kind, start, sc.a, end)
        if form == "in-url" and kind == "url":
            start = sc.a
        if notes:
            findings.extend([moved(t, n, base) for n in notes])
    except DoiError as err:
        doi, form = Doi(s[sc.a:sc.p], s[sc.sep_end:end]), BARE_FORMS.get(kind, kind)
        findings.append(_error_finding(t, err, base, start, end))
        if sc.raw_end == sc.sep_end:  # R21: cut right after the "/" (no suffix as written)
            joined = r21_read_joined(t, sc)
            if joined is not None:
                return joined
        return _finish(t, Match(doi, *_orig(t, start, end), tuple(findings), form),
                       start, end)
    kind = "in-url" if form == "in-url" else kind
    if t.edits:
        o_start, o_end = t.span(start, end)
        findings.extend(edit_findings(t.edits_in(start, end), s[start:end]))
    else:  # (nothing cleaned: the same places)
        o_start, o_end = start, end
    raw_end, n = sc.raw_end, len(s)
    if dots_kept:
        alt = _alternative(t, kind, start, sc.a, sc.end13, doi, "trimmed")
        left = s[sc.end13:sc.raw_end]
        findings.append(_note(
            t, "ends-with-dot", "warning", sc.end13, sc.raw_end,
            f"The name ends in “{left}”, kept because the name is all there is on its line "
            "(some registered names end in dots). If the dots ended a sentence, the name is "
            + (f"“{alt.doi}”." if alt else "shorter."), "extract R13"))
        alternatives.extend([alt] if alt else [])
    elif (sc.end < sc.end13 or sc.end13 < raw_end or raw_end < sc.text_end
          or (raw_end < n and s[raw_end] in ")]}>")):  # (what _left_out reports)
        _left_out(t, sc, kind, doi, findings, alternatives)
    if "\ufffd" in doi.suffix or "\ufffd" in doi.prefix:
        at = str(doi).index("\ufffd")
        findings.append(_note(
            t, "replacement-character", "warning", start, end,
            f"The name holds U+FFFD REPLACEMENT CHARACTER (character {at + 1} of the name): "
            "the text was damaged by a wrong character encoding somewhere, so the real "
            "name has another character here. Copy it again from its source.",
            "extract R20"))
    # R21 and R22 look at what follows the name: a space, or a "-" before the line's end
    if (((raw_end < n and s[raw_end].isspace()) or s[sc.end - 1] == "-")
            and not r21_line_break(t, sc, kind, start, doi, findings, alternatives)
            and sc.end == raw_end):
        r22_cut(t, sc, kind, start, doi, findings, alternatives)
    m = Match(doi, o_start, o_end, t.original[o_start:o_end],
              one_repair(tuple(findings)) if findings else (), form, "doi",
              tuple(alternatives) if alternatives else ())
    return Found(m, start, end)


def _orig(t: Text, start: int, end: int) -> tuple[int, int, str]:
    o0, o1 = t.span(start, end)
    return o0, o1, t.original[o0:o1]


def _finish(t: Text, m: Match, start: int, end: int) -> Found:
    if t.edits:
        extra = tuple(edit_findings(t.edits_in(start, end)))
        m = dataclasses.replace(m, findings=(*m.findings, *extra))
    return Found(m, start, end)


def _note(t: Text, code: str, severity: Severity, a: int, b: int, message: str, source: str,
          repair: str | None = None) -> Finding:
    o0, o1 = t.span(a, b)
    sev: Severity = "warning" if severity == "warning" else "info"
    return Finding(code, sev, message, o0, o1, o0, o1, in_name=False, source=source,
                   repair=repair)


def _alternative(t: Text, kind: str, start: int, a: int, end: int, chosen: Doi,
                 how: str) -> Alternative | None:
    """The reading of ``[start, end)`` as another candidate, if it is a different name."""
    try:
        doi = read_span(t.text, kind, start, a, end)[0]
    except DoiError:
        return None
    if doi == chosen:
        return None
    o0, o1 = t.span(start, end)
    return Alternative(doi, o0, o1, t.original[o0:o1],
                       "trimmed" if how == "trimmed" else "literal")


def _shown(text: str) -> str:
    return text if text.isprintable() else ", ".join(char_label(c) for c in text)


def _left_out(t: Text, sc: Scanned, kind: str, doi: Doi, findings: list[Finding],
              alternatives: list[Alternative]) -> None:
    """R13, R14, R19, R20: say what the ends rules left out; keep the literal reading."""
    s = t.text
    end13 = sc.end13
    if sc.end < end13 and s[end13:sc.raw_end] == "/":
        end13 = sc.raw_end  # ("/full/": the viewer path's own final "/", said with it)
    if sc.end < end13:  # R19 / R20 cut a viewer tail or an ellipsis
        cut = s[sc.end:end13]
        alt = _alternative(t, kind, sc.start, sc.a, end13, doi, "literal")
        if cut.endswith("\u2026"):
            code, what = "truncated-name", (
                f"The name ends in “{cut}”: it was cut short for display, so the real name "
                "is longer. Copy the whole name from its source.")
            rule = "extract R20"
        elif sc.kind == "in-url-path" and cut.lower() == FILE_TAIL:
            code, what = "viewer-tail", (
                f"“{cut}” after the name is the file the publisher's link sends (the "
                "article's PDF), not part of the DOI name; it was left out.")
            rule = "extract R19"
        elif sc.kind == "in-url-preprint" and cut[:1] == "v":
            code, what = "viewer-tail", (
                f"“{cut}” after the name is the version (and page) that bioRxiv and medRxiv "
                "add to their links, not part of the DOI name; it was left out.")
            rule = "extract R19"
        else:
            code, what = "viewer-tail", (
                f"“{cut}” after the name looks like a publisher's page for the article "
                "(full text, abstract, PDF), not part of the DOI name; it was left out.")
            rule = "extract R19"
        if alt is not None:
            what += f" If it belongs to the name, the name is “{alt.doi}”."
            alternatives.append(alt)
        findings.append(_note(t, code, "warning", sc.end, end13, what, rule))
    if sc.raw_end < sc.text_end:  # R8: text written against the name (and R13 before it)
        _glued(t, sc, kind, end13, doi, findings, alternatives)
    elif end13 < sc.raw_end:  # R13
        left = s[end13:sc.raw_end]
        alt = (_alternative(t, kind, sc.start, sc.a, sc.raw_end, doi, "literal")
               if sc.end == end13 else None)
        what = f"The final “{_shown(left)}” was left out: {r13_words(left)}."
        if alt is not None:
            what += f" If it belongs to the name, the name is “{alt.doi}”."
            alternatives.append(alt)
        # A name may end in these characters (10.1124/mol... is registered), so the
        # literal reading is kept as the alternative; with it, what was left out is a
        # note, as Inspect's card says it (the likely reading is no warning). Without it
        # (another rule cut the name too) the shorter reading is a warning.
        severity: Severity = "info" if alt is not None or not left.isprintable() \
            else "warning"
        findings.append(_note(t, "trailing-punctuation", severity, end13, sc.raw_end, what,
                              "extract R13"))
    elif sc.raw_end < len(s) and s[sc.raw_end] in ")]}>":  # R14
        closer = s[sc.raw_end]
        if sc.start > 0 and s[sc.start - 1] == OPENER[closer]:
            return  # wrapped in that pair: nothing was cut
        k = sc.raw_end
        while k < len(s) and (s[k] in ")]}>" or s[k] in TRAILING):
            k += 1
        alt = None
        if k >= len(s) or s[k].isspace():
            alt = _alternative(t, kind, sc.start, sc.a, sc.raw_end + 1, doi, "literal")
        o0 = t.span(sc.raw_end, sc.raw_end + 1)[0]
        what = (f"“{closer}” after the DOI (character {o0 + 1}) was left out: it closes a "
                "bracket opened before the name, not one inside it.")
        if alt is not None:
            what += f" If it belongs to the name, the name is “{alt.doi}”."
            alternatives.append(alt)
        alone = alone_on_line(s, sc.start, sc.end)
        findings.append(_note(t, "unbalanced-closer", "warning" if alone else "info",
                              sc.raw_end, sc.raw_end + 1, what, "extract R14"))


def _glued(t: Text, sc: Scanned, kind: str, end13: int, doi: Doi, findings: list[Finding],
           alternatives: list[Alternative]) -> None:
    """R8: say that the text written against the name (letters of a script written without
    spaces, :data:`~.ends.SPACELESS`) was left out, with any punctuation R13 left out
    before it; keep the literal reading (up to where R8-R12 stop without that rule, R13
    applied)."""
    s = t.text
    lit = r13_trailing(s, sc.raw_end, sc.text_end)
    alt = _alternative(t, kind, sc.start, sc.a, lit, doi, "literal")
    left = s[end13:lit]
    o0 = t.span(end13, lit)[0]
    what = (f"“{_shown(left)}” (from character {o0 + 1}) was left out: {R8_WORDS}.")
    if alt is not None:
        what += f" If it belongs to the name, the name is “{alt.doi}”."
        alternatives.append(alt)
    findings.append(_note(t, "glued-text", "info" if alt is not None else "warning", end13,
                          lit, what, "extract R8"))
