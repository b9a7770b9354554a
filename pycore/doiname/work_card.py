"""What a DOI names, in the few words a page shows under its link, and the notice shown
above it (002 foreword, "DOI and Metadata").

:func:`work_card` turns a :class:`~doiname.registry.Work` into a :class:`WorkCard`: the
title, the first authors, the year, the container, the type and the registration agency
as plain text, and, when the work was retracted, withdrawn, given an expression of
concern or corrected, a :class:`CardNotice` in words a patron understands with the link
of the notice (only ``https://doi.org/`` links, made from the notice's exact name). A
retraction, a withdrawal or an expression of concern is ``grave`` (shown above the link);
a correction or a new version is a ``note`` (shown less loudly). A record that is itself a
notice says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .presentation import to_url
from .registry import Update, Work

__all__ = ["CARD_AUTHORS", "CardNotice", "NoticeLevel", "WorkCard", "work_card"]

#: How loudly a notice is shown: above the link (``grave``) or in the card (``note``).
NoticeLevel = Literal["grave", "note"]

#: Authors named on a card; the rest are counted ("and 12 others").
CARD_AUTHORS = 3

_GRAVE = ("retraction", "withdrawal", "expression-of-concern")
_ORDER = ("retraction", "withdrawal", "expression-of-concern", "correction", "new-version",
          "other")
_HEADS = {
    "retraction": ("Retracted", "This work was retracted{when}: its publisher withdrew it "
                   "because it cannot be relied on. Do not cite it as valid."),
    "withdrawal": ("Withdrawn", "This work was withdrawn{when}: its publisher took it back. "
                   "Do not cite it as valid."),
    "expression-of-concern": ("Expression of concern", "The publisher warned readers about "
                              "this work{when}: its findings are in doubt while it is "
                              "looked into."),
    "correction": ("Corrected", "This work was corrected{when}: read the correction with "
                   "it."),
    "new-version": ("New version", "A newer version of this work exists{when}."),
    "other": ("Updated", "The publisher updated this work{when}."),
}
#: The one line of a grave notice in place of an all-clear: the name is right, the work
#: is not to be relied on.
_VERDICTS = {
    "retraction": "The name is right, but the work it names was retracted: do not cite it "
                  "as valid.",
    "withdrawal": "The name is right, but the work it names was withdrawn: do not cite it "
                  "as valid.",
    "expression-of-concern": "The name is right, but its publisher has doubts about the "
                             "work: read the expression of concern before citing it.",
}
_NOTICE_LINK = {"retraction": "Read the retraction notice",
                "withdrawal": "Read the withdrawal notice",
                "expression-of-concern": "Read the expression of concern",
                "correction": "Read the correction", "new-version": "Open the new version",
                "other": "Read the notice"}
_TYPES = {"journal-article": "Journal article", "article-journal": "Journal article",
          "book-chapter": "Book chapter", "chapter": "Book chapter",
          "proceedings-article": "Conference paper", "paper-conference": "Conference paper",
          "posted-content": "Preprint", "dataset": "Dataset", "Dataset": "Dataset",
          "dissertation": "Thesis", "report": "Report", "book": "Book",
          "monograph": "Book", "edited-book": "Book", "reference-entry": "Reference entry",
          "peer-review": "Peer review", "component": "Part of a work",
          "journal-issue": "Journal issue", "journal": "Journal", "standard": "Standard",
          "software": "Software", "Software": "Software"}


@dataclass(frozen=True, slots=True)
class CardNotice:
    """A notice about the work, for a patron: ``level`` ``grave`` (retracted, withdrawn,
    an expression of concern: shown above the link) or ``note`` (corrected, a new
    version); ``head`` a word or two, ``text`` one or two sentences, ``href`` the notice's
    link at doi.org (``None`` when the record names no notice) and ``link_text``;
    ``verdict`` the one line a grave notice puts in place of the name's all-clear (the
    name is right, the work is not to be relied on), ``""`` for a note."""

    level: NoticeLevel
    kind: str
    head: str
    text: str
    href: str | None
    link_text: str
    verdict: str = ""


@dataclass(frozen=True, slots=True)
class WorkCard:
    """The work a DOI names, as plain text for a card (002 foreword, "DOI and Metadata"):
    ``title`` (with its subtitle), ``authors`` (the first :data:`CARD_AUTHORS`, then how
    many others), ``year``, ``container`` (journal, book or repository), ``type`` in
    words, ``agency``; ``notice`` the gravest update of the work, ``about`` a sentence
    when the record is itself a notice about another work (else ``""``)."""

    title: str
    authors: str
    year: str
    container: str
    type: str
    agency: str
    notice: CardNotice | None
    about: str


def _authors(work: Work) -> str:
    names = [a.display for a in work.authors[:CARD_AUTHORS] if a.display]
    total = max(work.authors_total, len(work.authors))
    more = total - len(names)
    said = "; ".join(names)
    if more > 0 and names:
        said += f" and {more} other{'s' if more > 1 else ''}"
    return said


def _notice(update: Update) -> CardNotice:
    head, text = _HEADS[update.kind]
    when = f" on {update.date}" if update.date else ""
    href = to_url(update.notice_doi) if update.notice_doi is not None else None
    level: NoticeLevel = "grave" if update.kind in _GRAVE else "note"
    return CardNotice(level, update.kind, head, text.format(when=when), href,
                      _NOTICE_LINK[update.kind], _VERDICTS.get(update.kind, ""))


def _type(work: Work) -> str:
    raw = work.type.strip()
    return _TYPES.get(raw) or raw.replace("-", " ").replace("_", " ").capitalize()


def work_card(work: Work) -> WorkCard:
    """A :class:`WorkCard` for ``work`` (002 foreword, "DOI and Metadata"): every value
    plain text for ``textContent``; the notice of the gravest update that concerns the
    work itself (retraction, withdrawal, expression of concern, correction, new version),
    with the notice's doi.org link made from its exact name."""
    mine = [u for u in work.updates if u.direction == "updated-by"]
    notice = _notice(min(mine, key=lambda u: _ORDER.index(u.kind))) if mine else None
    if notice is None and (work.retracted or work.withdrawn or work.concern):
        kind = "retraction" if work.retracted else "withdrawal" if work.withdrawn else \
            "expression-of-concern"
        head, text = _HEADS[kind]
        notice = CardNotice("grave", kind, head, text.format(when=""), None, "",
                            _VERDICTS[kind])
    title = work.title + (f": {work.subtitle}" if work.subtitle else "")
    container = work.container_title or work.container_short or work.publisher
    return WorkCard(title or "(no title in the record)", _authors(work),
                    str(work.year) if work.year else "", container, _type(work), work.agency,
                    notice, work.status if work.is_notice else "")
