"""Rules R1-R3: what is undone before scanning, and the map back to the original text.

The scanner walks a cleaned copy of the text (invisible characters dropped, HTML
references and backslash/LaTeX escapes replaced by their character). :class:`Text` keeps
every edit so that any span of the cleaned copy maps back to the original: positions in
results always count code points of the text that was given.
"""

from __future__ import annotations

import dataclasses
import html
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any, Literal

from ..model import Finding, Severity, joined_places
from ..syntax import char_label, places

__all__ = ["Edit", "Text", "edit_finding", "edit_findings", "needs_cleaning", "one_repair"]

#: R1: invisible characters dropped before scanning.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_INVISIBLE_SET = frozenset(INVISIBLE)
_INVISIBLE_RE = re.compile("[" + INVISIBLE + "]")
#: R3: LaTeX text commands and braced escapes, with the character each stands for.
_LATEX = {"textunderscore": "_", "textless": "<", "textgreater": ">",
          "textasciitilde": "~", "_": "_", "&": "&", "%": "%", "#": "#", "$": "$"}
# R1-R3: everything cleaning may change. Bounded quantifiers only (linear).
_EDIT_RE = re.compile(
    "[" + INVISIBLE + "]"
    r"|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
    r"|\{\\(?:textunderscore|textless|textgreater|textasciitilde|[_&%#$])(?:\{\})?\}"
    r"|\\(?:textunderscore|textless|textgreater|textasciitilde)(?:\{\}|(?![A-Za-z]))"
    r"|\\[/_&%#$]"
    r"|<[wW][bB][rR]\s{0,8}/?>"
)
_ESCAPE_NAMES = {"/": "JSON", "_": "LaTeX", "&": "LaTeX", "%": "LaTeX", "#": "LaTeX",
                 "$": "LaTeX"}
#: R3: a link wrapped by Proofpoint URL Defense (version 3), as e-mail security rewrites
#: the links of a message: ``https://urldefense.com/v3/__`` + the link, with some of its
#: characters written ``*`` + ``__;`` + those characters in base64url + ``!!`` + a token,
#: ``$``. Bounded quantifiers only (linear; a link of at most 2,048 characters, a browser's
#: practical bound).
_URLDEFENSE_RE = re.compile(
    r"https?://urldefense(?:\.proofpoint)?\.com/v3/__(?P<link>[^\s\"'<>]{1,2048}?)__;"
    r"(?P<chars>[A-Za-z0-9_\-]{0,4000})!![^\s\"'<>$]{0,4000}\$?", re.IGNORECASE | re.ASCII)
#: R3: the same in its version 2, the link in the query: ``u=`` + the link with each
#: "/" written "_" and every other escape "%XX" written "-XX" + ``&d=``...
_URLDEFENSE_V2_RE = re.compile(
    r"https?://urldefense(?:\.proofpoint)?\.com/v2/url\?u=(?P<link>[A-Za-z0-9_.~\-]{1,2048})"
    r"(?P<tail>&[a-z]=[^\s\"'<>]{0,4000})?", re.IGNORECASE | re.ASCII)
_V2_CODES = re.compile(r"(?:-[0-9A-Fa-f]{2})+|_")
#: What :func:`needs_cleaning` looks for first (URL Defense links are written in lower case).
_URLDEFENSE = "urldefense"

Kind = Literal["invisible", "entity", "escape", "latex", "wbr", "wrapper"]


@dataclass(frozen=True, slots=True)
class Edit:
    """One change made by cleaning: ``original[start:end]`` became ``value`` at ``at``."""

    at: int  # index in the cleaned text where the replacement starts
    size: int  # length of the replacement (0: dropped)
    start: int  # span of the original text it replaces
    end: int
    kind: Kind
    written: str  # the original text that was replaced
    value: str


_NONE: list[Any] = []  # shared by every text without edits, never mutated
_ZERO = [0]


def _replacement(src: str) -> tuple[str, Kind] | None:
    """What one piece matched by ``_EDIT_RE`` stands for (R1-R3), or None to keep it."""
    first = src[0]
    if first == "&":  # R2
        value = html.unescape(src)
        if value == src:
            return None
        if all(c in _INVISIBLE_SET for c in value):
            return "", "invisible"
        return value, "entity"
    if first == "{" or (first == "\\" and len(src) > 2):  # R3, LaTeX commands
        word = src.strip("{}").lstrip("\\")
        return _LATEX[word], "latex"
    if first == "\\":  # R3
        return src[1], "escape"
    if first == "<":  # R1 <wbr>
        return "", "wbr"
    return "", "invisible"  # R1


class Text:
    """The text the scanner walks (R1-R3 applied) and the map back to the original.

    ``ats[i]`` is where edit ``i`` starts in the cleaned text and ``keys[i]`` where it
    ends there; ``shift[i]`` is how many more original characters than cleaned ones lie
    before edit ``i`` (``shift[len(edits)]`` after the last). A cleaned index ``k``
    outside every edit maps to ``k + shift[i]`` with ``i`` the edits ending at or before
    ``k``; inside an edit it maps to that edit's original span.
    """

    __slots__ = ("ats", "edits", "keys", "original", "shift", "text")
    original: str
    text: str
    edits: list[Edit]
    ats: list[int]
    keys: list[int]
    shift: list[int]

    def __init__(self, original: str, clean: bool = True) -> None:
        self.original = original
        if not clean:
            self.text = original
            self.edits = self.ats = self.keys = _NONE
            self.shift = _ZERO
            return
        edits: list[Edit] = []
        pieces: list[str] = []
        last = 0
        out = 0
        for start, end, value, kind in _changes(original):
            if start < last:
                continue  # (inside a change made already)
            pieces.append(original[last:start])
            out += start - last
            edits.append(Edit(out, len(value), start, end, kind, original[start:end], value))
            pieces.append(value)
            out += len(value)
            last = end
        if edits:
            pieces.append(original[last:])
            self.text = "".join(pieces)
        else:
            self.text = original
        self.edits = edits
        self.ats = [e.at for e in edits]
        self.keys = [e.at + e.size for e in edits]
        shift = [0]
        for e in edits:
            shift.append(shift[-1] + (e.end - e.start) - e.size)
        self.shift = shift

    def char_start(self, k: int) -> int:
        """Original offset where cleaned character ``k`` (or the end, ``k == len``) starts."""
        if not self.edits:
            return k
        i = bisect_right(self.keys, k)
        if i < len(self.edits) and self.edits[i].at <= k:
            return self.edits[i].start
        return k + self.shift[i]

    def char_end(self, k: int) -> int:
        """Original offset just after cleaned character ``k``."""
        if not self.edits:
            return k + 1
        i = bisect_right(self.keys, k)
        if i < len(self.edits) and self.edits[i].at <= k:
            return self.edits[i].end
        return k + self.shift[i] + 1

    def span(self, a: int, b: int) -> tuple[int, int]:
        """Map the cleaned span ``[a, b)`` to the original text."""
        if not self.edits:  # nothing cleaned: the same places
            return (a, b) if b > a else (a, a)
        if b <= a:
            at = self.char_start(a)
            return at, at
        return self.char_start(a), self.char_end(b - 1)

    def dropped_before(self, k: int) -> bool:
        """Whether an invisible character was dropped right before cleaned index ``k``."""
        i = bisect_left(self.ats, k)
        while i < len(self.edits) and self.edits[i].at == k:
            if self.edits[i].size == 0:
                return True
            i += 1
        return False

    def edits_in(self, a: int, b: int) -> list[Edit]:
        """Edits strictly inside the cleaned span ``[a, b)`` (drops at its edges excluded)."""
        lo = bisect_left(self.ats, a)
        hi = bisect_left(self.ats, b)
        return [e for e in self.edits[lo:hi] if e.size or e.at > a]


def _changes(original: str) -> list[tuple[int, int, str, Kind]]:
    """Every change R1-R3 make to ``original``, in order: ``(start, end, value, kind)``
    (a change inside one before it is skipped by the caller)."""
    out: list[tuple[int, int, str, Kind]] = []
    for m in _EDIT_RE.finditer(original):
        found = _replacement(m[0])
        if found is not None:
            out.append((m.start(), m.end(), *found))
    if _URLDEFENSE in original:
        wrapped = [c for m in _URLDEFENSE_RE.finditer(original) for c in _unwrapped(m)]
        wrapped += [c for m in _URLDEFENSE_V2_RE.finditer(original) for c in _unwrapped_v2(m)]
        if wrapped:
            out = sorted(out + wrapped)
    return out


def _unwrapped(m: re.Match[str]) -> list[tuple[int, int, str, Kind]]:
    """R3 on one URL Defense link: each ``*`` of the link as the character it stands for,
    in order (when the characters given after ``__;`` are as many; else the link is left
    as written), and what follows the link (``__;...$``) as a space, so that a name ends
    with the link."""
    out: list[tuple[int, int, str, Kind]] = []
    link, stars = m.start("link"), m["link"].count("*")
    if stars:
        import base64  # (only for such a link: not in the boot's import)

        chars = m["chars"]
        try:
            given = base64.urlsafe_b64decode(chars + "=" * (-len(chars) % 4)).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            given = ""
        if len(given) == stars and "**" not in m["link"]:  # ("**x": a run, not read here)
            at = link
            for c in given:
                at = m.string.index("*", at)
                out.append((at, at + 1, c, "wrapper"))
                at += 1
    out.append((m.end("link"), m.end(), " ", "wrapper"))
    return out


def _unwrapped_v2(m: re.Match[str]) -> list[tuple[int, int, str, Kind]]:
    """R3 on one URL Defense link of version 2: each ``_`` of the link as "/", each run of
    ``-XX`` as the characters its bytes make in UTF-8 (a run that makes none is left as
    written), and what follows the link (``&d=...``) as a space."""
    out: list[tuple[int, int, str, Kind]] = []
    at = m.start("link")
    for piece in _V2_CODES.finditer(m["link"]):
        code = piece[0]
        if code == "_":
            value = "/"
        else:
            try:
                value = bytes.fromhex(code.replace("-", "")).decode("utf-8")
            except UnicodeDecodeError:
                continue
        out.append((at + piece.start(), at + piece.end(), value, "wrapper"))
    if m["tail"]:
        out.append((m.start("tail"), m.end("tail"), " ", "wrapper"))
    return out


def needs_cleaning(text: str) -> bool:
    """Whether R1-R3 could change anything in ``text`` (a quick test before the regex)."""
    if "&" in text or "\\" in text or "<w" in text or "<W" in text or _URLDEFENSE in text:
        return True
    if text.isascii():
        return False
    return _INVISIBLE_RE.search(text) is not None


def edit_findings(edits: list[Edit], repair: str | None = None) -> list[Finding]:
    """The findings that report the cleaning edits inside a match (R1-R3), one for each
    kind of edit however many there are: its count and its places (the invisible
    characters dropped carry ``repair``, the name they were dropped from, once). Linear
    in the number of edits."""
    kinds: dict[str, list[Edit]] = {}
    for e in edits:
        kinds.setdefault(e.kind, []).append(e)
    out = []
    for kind, group in kinds.items():
        f = edit_finding(group[0]) if len(group) == 1 else _edits_finding(kind, group)
        if kind == "invisible" and repair is not None:
            f = Finding(f.code, f.severity, f.message, f.start, f.end, f.input_start,
                        f.input_end, f.in_name, f.source, repair, f.places)
        out.append(f)
    return out


def one_repair(findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    """``findings`` with one repaired text at most for the invisible characters dropped
    (R1): every other repair (a lookalike's, a joined reading's) was made from the text
    they were already dropped from, so R1's repair gives way to it, and a row offers one
    repaired text for what the reader and the rules would both repair (003 ch. 2)."""
    for f in findings:  # (most lists have none: no list made for them)
        if f.code == "zero-width-dropped" and f.repair is not None:
            break
    else:
        return findings
    dropped = [i for i, f in enumerate(findings)
               if f.code == "zero-width-dropped" and f.repair is not None]
    if len(dropped) == sum(f.repair is not None for f in findings):
        return findings
    return tuple(dataclasses.replace(f, repair=None) if i in dropped else f
                 for i, f in enumerate(findings))


def _edits_finding(kind: str, group: list[Edit]) -> Finding:
    """One finding for several edits of one kind: each text, how often, where."""
    by_text: dict[str, list[int]] = {}
    for e in group:
        written = html.unescape(e.written) if kind == "invisible" and e.written[0] == "&" \
            else e.written
        by_text.setdefault(written, []).append(e.start)
    first, last = group[0], group[-1]
    severity: Severity = "info"
    if kind == "invisible":
        each = "; ".join(f"{', '.join(char_label(c) for c in chars)} {_at(places(at))}"
                         for chars, at in by_text.items())
        code, severity, rule = "zero-width-dropped", "warning", "003 ch. 2; extract R1"
        what = (f"{len(group):,} invisible characters were dropped ({each}): invisible "
                "characters are not part of DOI names (only Unicode graphic characters "
                "are); they were probably pasted by accident.")
    elif kind == "wbr":
        each = "; ".join(f"“{w}” {_at(places(at))}" for w, at in by_text.items())
        code, rule = "wbr-dropped", "extract R1"
        what = (f"{len(group):,} line-break hints were dropped ({each}); publishers put them "
                "inside long names.")
    else:
        code, rule, how = {
            "entity": ("html-entity", "extract R2", "HTML escaping"),
            "latex": ("latex-escape", "extract R3", "LaTeX, as BibTeX exports write it"),
            "wrapper": _WRAPPER,
        }.get(kind, ("backslash-escape", "extract R3", "backslash escaping"))
        values = {e.written: e.value for e in group}
        each = "; ".join(f"“{w}” as “{values[w]}” {_at(places(at))}"
                         for w, at in by_text.items())
        what = f"{len(group):,} escapes were undone ({how}): {each}."
    return Finding(code, severity, what, first.start, last.end, first.start, last.end,
                   in_name=False, source=rule,
                   places=joined_places([(e.start, e.end) for e in group]))


#: The finding of a character of a wrapped link undone (R3): code, rule, how it was written.
_WRAPPER = ("link-wrapper", "extract R3",
            "Proofpoint URL Defense rewrites the links it wraps in e-mail")


def _at(where: str) -> str:
    return "at " + where if where.startswith("character ") else where


def edit_finding(e: Edit) -> Finding:
    """The finding that reports one cleaning edit inside a match (R1-R3)."""
    at = f"at character {e.start + 1}"
    severity: Severity = "info"
    if e.kind == "wbr":
        code, rule = "wbr-dropped", "extract R1"
        what = (f"The line-break hint “{e.written}” {at} was dropped (publishers put it "
                "inside long names).")
    elif e.kind == "invisible":
        chars = e.written if e.written[0] != "&" else html.unescape(e.written)
        code, severity, rule = "zero-width-dropped", "warning", "003 ch. 2; extract R1"
        what = (f"{', '.join(char_label(c) for c in chars)} {at} was dropped: invisible "
                "characters are not part of DOI names (only Unicode graphic characters are); "
                "it was probably pasted by accident.")
    else:  # an escape undone: HTML, LaTeX, backslash
        code, rule, how = {
            "entity": ("html-entity", "extract R2", "HTML escaping"),
            "latex": ("latex-escape", "extract R3", "LaTeX, as BibTeX exports write it"),
            "wrapper": _WRAPPER,
        }.get(e.kind, ("backslash-escape", "extract R3",
                       f"{_ESCAPE_NAMES.get(e.value, 'backslash')} escaping"))
        what = f"“{e.written}” {at} was read as “{e.value}” ({how})."
    return Finding(code, severity, what, e.start, e.end, e.start, e.end, in_name=False,
                   source=rule)
