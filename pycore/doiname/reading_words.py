"""The words a person reads about an inspection, decided once for every surface.

Inspect's card, its list of readings, the widget and the CLI say the same thing about the
same text because they all take these words from :func:`doiname.inspect`'s reply:

* each candidate's ``label``: what the reading is for the person ("Most likely", "If the
  “.” belongs to the name", "DOI name 2 of 3"), never a severity that would call the
  likely reading a warning and the unlikely one OK;
* the ``headline``: what the reading policy did ("The final “.” was left out: it ends the
  sentence.") and the ``alternative`` it offers, with the code of the finding it explains;
* the ``offer``: where a finding has a repair, the repaired link to copy beside the link
  as written, and words for both buttons (a repair is never applied silently).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .errors import DoiError
from .extract.breaks import cut_by
from .extract.ends import R8_WORDS, r13_words
from .model import Doi, Finding
from .presentation import to_url
from .syntax import read

__all__ = ["LEFT_OUT", "Headline", "Offer", "candidate_labels", "headline", "offer"]

#: R8, R13, R14, R19, R20: the findings that say what was left out after a name, and why.
LEFT_OUT = ("trailing-punctuation", "viewer-tail", "truncated-name", "unbalanced-closer",
             "glued-text")


class _Reading(Protocol):
    """What these words read of a candidate (:class:`doiname.inspection.Candidate`)."""

    @property
    def doi(self) -> Doi: ...
    @property
    def kind(self) -> str: ...
    @property
    def how(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def of(self) -> int | None: ...
    @property
    def findings(self) -> tuple[Finding, ...]: ...


@dataclass(frozen=True, slots=True)
class Headline:
    """The card's one line about how the text was read: ``said`` in plain words, the
    ``alternative`` reading it offers (an index of the candidates) and its ``label``,
    and ``explains``, the code of the note (an ``info`` finding) that this line says in
    other words (a view lists it among the notes, not among the problems); ``""`` when
    what the line says is a warning, which stays among the problems."""

    said: str
    alternative: int | None = None
    label: str = ""
    explains: str = ""


@dataclass(frozen=True, slots=True)
class Offer:
    """A repaired link offered beside the link as written (003 ch. 6; UTS #39).

    ``label`` is the button that copies ``url``, the link of the repaired name ``name``
    ("Copy the link with “-” instead of the en dash"); ``as_written`` is the words of the
    button that copies the link as read ("Copy the link as written, with the en dash");
    ``repair`` is the repaired text (to put into the input); ``code`` the finding's."""

    label: str
    as_written: str
    repair: str
    name: str
    url: str
    code: str


def _quoted(s: str) -> str:
    return f"“{s}”"


def _left_tail(text: str, main: _Reading, alt: _Reading) -> str:
    """What the literal reading keeps after the main one (``.``, ``/full``, ``)``)."""
    return text[main.end:alt.end] if alt.end > main.end else ""


def _alt_label(text: str, main: _Reading, alt: _Reading) -> str:
    if alt.how == "literal":
        tail = _left_tail(text, main, alt)
        return f"If the {_quoted(tail)} belongs to the name" if tail else "Read as written"
    if alt.how == "trimmed":
        tail = text[alt.end:main.end].strip()
        return f"If the final {_quoted(tail)} ends the sentence" if tail else "Shorter"
    if alt.how == "joined":
        return f"If the {_cut_by(text, main, alt)} cut the name in two"
    return "The whole text read as one name"


def _cut_by(text: str, main: _Reading, alt: _Reading) -> str:
    """What the joined reading joins across, in words (extract R21, R22): ``line break``
    when the gap after the name holds one, else ``space``."""
    return cut_by(text, main.end, alt.end)[2:]


def candidate_labels(text: str, found: Sequence[_Reading]) -> list[str]:
    """Each candidate's label, in words (the reading policy of :mod:`doiname.inspection`;
    extract R13, R14, R19-R21)."""
    names = [c for c in found if c.of is None and c.how != "whole"]
    has_alt = {c.of for c in found if c.of is not None}
    out: list[str] = []
    k = 0
    for i, c in enumerate(found):
        if c.of is not None:
            label = _alt_label(text, found[c.of], c)
        elif c.how == "whole":
            label = "The whole text read as one name"
        else:
            k += 1
            if c.kind == "short-doi":
                label = "shortDOI"
            elif len(names) > 1:
                label = f"DOI name {k} of {len(names)}"
            else:
                label = "Most likely" if i in has_alt else "DOI name"
            if c.kind != "short-doi" and c.status == "error":
                label += ", not valid"
        out.append(label)
    return out


def headline(text: str, found: Sequence[_Reading], labels: Sequence[str],
             selected: int) -> Headline | None:
    """The card's line for the selected candidate: what was left out, kept or cut, and
    the other reading (extract R13, R14, R19-R21), or how many names the text holds."""
    c = found[selected]
    names = [x for x in found if x.of is None and x.how != "whole"]
    if c.of is None and len(names) > 1:
        where = names.index(c) + 1 if c in names else 1
        return Headline(f"{len(names)} DOI names in your text: this is name {where}; "
                        "the others are listed below.")
    if c.of is not None:
        main = found[c.of]
        label = labels[selected]
        return Headline(f"You picked the other reading ({label[:1].lower()}{label[1:]}).", c.of,
                        f"{labels[c.of]}: {main.doi}")
    alt = next((i for i, x in enumerate(found) if x.of == selected), None)
    if alt is None:
        return None
    other = found[alt]
    codes = {f.code: f for f in c.findings}
    explains = next((code for code in LEFT_OUT if code in codes), "")
    if other.how == "literal":
        tail = _left_tail(text, c, other)
        if explains == "trailing-punctuation":
            why = r13_words(tail)  # the finding's own words
        elif explains == "viewer-tail":
            why = "it names a publisher's page, file or version, not the DOI name"
        elif explains == "truncated-name":
            why = "the name was cut short for display; copy it whole from its source"
        elif explains == "unbalanced-closer":
            why = "it closes a bracket opened before the name"
        elif explains == "glued-text":
            why = R8_WORDS
        else:
            why = "it is not read as part of the name"
        said = f"The final {_quoted(tail)} was left out: {why}."
    elif other.how == "trimmed":
        tail = text[other.end:c.end].strip()
        explains = "ends-with-dot"
        said = (f"The final {_quoted(tail)} was kept: the name is alone on its line, and "
                "some registered names end in a dot.")
    elif other.how == "joined":
        explains = "line-break"
        said = f"The name was read up to the {_cut_by(text, c, other)}."
    else:
        before, after = text[other.start:c.start].strip(), text[c.end:other.end].strip()
        said = (f"{_quoted(after)} after the name was left out." if after and not before else
                f"{_quoted(before)} before the name was left out." if before and not after
                else "The text around the name was left out.")
        explains = ""
    # The line explains a finding as a note only when the finding is one: a warning (a
    # name cut for display or by a line break, a viewer path) stays a problem to check,
    # so Inspect's verdict is Batch's, the widget's and the CLI's (the finding's severity).
    if any(f.code == explains and f.severity != "info" for f in c.findings):
        explains = ""
    return Headline(said, alt, f"{labels[alt]}: {other.doi}", explains)


#: The most characters a repair's button names one by one.
_WORDS_MAX = 3


def _char_words(removed: str) -> str:
    """``the en dash`` for ``–``; several characters by their code points."""
    if len(removed) == 1:
        try:
            return "the " + unicodedata.name(removed).lower()
        except ValueError:
            return f"U+{ord(removed):04X}"
    return ", ".join(f"U+{ord(x):04X}" for x in removed)


def offer(c: _Reading, explains: str = "") -> Offer | None:
    """The repaired link of the selected name's first repair (a lookalike, an invisible
    character, an escape decoded twice: 003 ch. 6, UTS #39), in words; ``None`` when no
    finding of the name has a repair that reads as another name."""
    if c.kind != "doi" or c.status == "error":
        return None
    name = str(c.doi)
    for f in c.findings:
        if not f.repair or f.severity == "info" or f.code == explains or f.repair == name:
            continue
        try:
            doi = read(f.repair).doi
        except DoiError:
            continue
        fixed = str(doi)
        if fixed == name:
            continue
        a = 0
        while a < min(len(name), len(fixed)) and name[a] == fixed[a]:
            a += 1
        b = 0
        while b < min(len(name), len(fixed)) - a and name[-1 - b] == fixed[-1 - b]:
            b += 1
        removed, added = name[a:len(name) - b], fixed[a:len(fixed) - b]
        # (one repair for the whole name: its changes may lie far apart; a long stretch is
        # not spelled out, the repaired link is shown beside the button)
        what = _char_words(removed) if 0 < len(removed) <= _WORDS_MAX else ""
        if what and added:
            label = f"Copy the link with {_quoted(added)} instead of {what}"
        elif what:
            label = f"Copy the link without {what}"
        else:
            label = "Copy the repaired link"
        as_written = f"Copy the link as written, with {what}" if what else \
            "Copy the link as written"
        return Offer(label, as_written, f.repair, fixed, to_url(doi), f.code)
    return None
