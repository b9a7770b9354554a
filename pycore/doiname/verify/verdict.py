"""The reference check: is the work a DOI is registered for the work a reference cites
(002 foreword, "DOI and Metadata")? :func:`verify` weighs the fields of
:mod:`.compare` into ``matches``, ``mismatch`` or ``cannot-tell``, and says why.

The rules, in general terms (no list of known works):

* The title decides when both sides have one, unless the other fields say it is another
  work with the same title (an annual database paper, an editorial, a statement printed
  in two journals, a reply with the title of the paper it answers): the first page
  differs, or two of journal, volume and year do with no number agreeing.
* A title that differs may be a translation (the reference gives it in English, the
  record in the original language): the author, volume and first page all agreeing then
  outweigh it.
* A notice about the cited work (``Correction to: <the title>``, an erratum, a
  retraction notice) is not the cited work: its title with the notice's head taken off
  agrees with the reference, whose own title has no such head.
* With no title to compare, at least three other fields must agree, including the
  volume or first page, and none differ, for ``matches``; two differing fields give
  ``mismatch``; anything else is ``cannot-tell``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from ..model import Doi
from ..registry.work import Work
from .compare import (
    DATA_HEAD,
    NOTICE_HEAD,
    Context,
    Evidence,
    compare_author,
    compare_container,
    compare_number,
    compare_title,
    compare_year,
    container_follows,
    registered_title,
)
from .fields import ReferenceEvidence, reference_evidence
from .normalise import significant, words
from .title import about_words, locate_title, split_joined

__all__ = ["Notice", "Verdict", "Verification", "verify"]

Verdict = Literal["matches", "mismatch", "cannot-tell"]


@dataclass(frozen=True, slots=True)
class Notice:
    """The work is a notice (``kind``: its head as written, ``Correction to``) about the
    cited work, whose title is ``about_title``; ``target_doi`` the work it updates when
    the record says so."""

    kind: str
    about_title: str
    target_doi: Doi | None
    message: str


@dataclass(frozen=True, slots=True)
class Verification:
    """What :func:`verify` found (002 foreword, "DOI and Metadata"): ``verdict``, the
    ``evidence`` per field, ``summary`` (one plain sentence), ``registered`` (the work in
    a few words: “Title” (Smith, 2019)), ``notice`` when the work is a notice about the
    cited work, ``truncated`` when only the first part of a long reference was read."""

    verdict: Verdict
    evidence: tuple[Evidence, ...]
    summary: str
    registered: str
    notice: Notice | None = None
    truncated: bool = False


def registered_words(work: Work) -> str:
    """“Title” (Smith, 2019): the work in a few words."""
    who = (work.authors[0].family or work.authors[0].literal) if work.authors else ""
    said = ", ".join(x for x in (who, str(work.year) if work.year else "") if x)
    return f"“{work.title or '(no title)'}”" + (f" ({said})" if said else "")


def _notice(ref: ReferenceEvidence, work: Work, ref_words: list[str]) -> Notice | None:
    """The work as a notice about the cited work (or its data), when it is one: its title
    with the head taken off agrees with the reference, which does not carry the head."""
    head = NOTICE_HEAD.match(work.title) or DATA_HEAD.match(work.title)
    if head is None or head.end() >= len(work.title):
        if not work.is_notice:
            return None
        about, head_words = work.title, []
    else:
        about, head_words = work.title[head.end():], significant(words(head.group(0)))
    if work.updates and not work.is_notice and any(
            u.direction == "updated-by" for u in work.updates):
        return None  # the updated work itself, its title marked (RETRACTED: ...)
    if ref.structured:
        if NOTICE_HEAD.match(ref.title) or DATA_HEAD.match(ref.title):
            return None  # the reference cites the notice (or the data)
        match = locate_title(about, words(ref.title), compact=False)
    else:
        match = locate_title(about, ref_words)
        before = set(ref_words[max(0, match.start - 6):match.start])
        if head_words and all(w in before for w in head_words):
            return None  # the reference's text carries the head too: it cites the notice
    if match.cover < 0.8:
        return None
    kind = head.group(0).strip(" :.-\u2013\u2014") if head else "Notice"
    target = next((u.target_doi for u in work.updates if u.direction == "updates"), None)
    if head is not None and DATA_HEAD.match(work.title):
        said = (f"The DOI is registered for the data (“{kind}”) of the cited work, not for "
                "the work itself.")
    else:
        said = (f"The DOI is registered for a notice (“{kind}”) about the cited work, not "
                "for the work itself.")
    return Notice(kind, about, target, said)


def _decide(title: Evidence, short: bool, others: list[Evidence]) -> Verdict:
    state = {e.field: e.state for e in others}
    agreed = [f for f, s in state.items() if s == "agreed"]
    differed = [f for f, s in state.items() if s == "differed"]
    numbers_agree = "volume" in agreed or "first-page" in agreed
    where = [f for f in differed if f in ("container", "volume", "first-page", "year")]
    if title.state == "agreed":
        if state.get("first-page") == "differed":
            return "mismatch"  # another work with the same title, or a reply to it
        if len(where) >= 2 and not numbers_agree:
            return "mismatch"  # another work with the same title
        if short and where:
            return "mismatch"  # a title of a word or two says little
        return "matches"
    if title.state == "differed":
        if {"first-author", "volume", "first-page"} <= set(agreed) and not differed:
            return "matches"  # the title translated, or garbled beyond finding
        return "mismatch"
    if len(agreed) >= 3 and numbers_agree and not differed:
        return "matches"
    if len(differed) >= 2:
        return "mismatch"
    return "cannot-tell"


def verify(reference: str | Mapping[str, str], work: Work) -> Verification:
    """Whether ``work`` is the work ``reference`` cites (002 foreword, "DOI and Metadata").

    ``reference`` is the reference's text (any citation style; PDF line breaks and
    hyphenation are undone) or its fields (BibTeX, RIS or CSL names, see
    :data:`doiname.verify.fields.FIELD_NAMES`). Titles are compared after folding case,
    accents, markup, punctuation and Greek letters, and allowing for a subtitle left out
    or a title cut short; years may differ by one (online first). Never raises.
    """
    ref = reference_evidence(reference)
    full = registered_title(work)
    ref_words = split_joined(words(ref.text), full)
    match = (locate_title(full, split_joined(words(ref.title), full), compact=False)
             if ref.structured else locate_title(full, ref_words))
    ctx = Context(ref, ref_words, match)
    title = compare_title(ctx, work)
    if title.state == "agreed" and match.main_only and not ref.structured and not (
            container_follows(ctx, work)):
        title = Evidence("title", "differed", "Title partly differs: the reference's goes "
                         f"on otherwise after “{work.title.split(':')[0]}”.")
    others = [compare_author(ctx, work), compare_year(ctx, work),
              compare_container(ctx, work), compare_number(ctx, work, "volume"),
              compare_number(ctx, work, "first-page")]
    evidence = (title, *others)
    registered = registered_words(work)
    notice = _notice(ref, work, ref_words)
    if notice is not None:
        return Verification("mismatch", evidence, notice.message + f" It is {registered}.",
                            registered, notice, ref.truncated)
    about = about_words(ref_words, match) if title.state == "agreed" and not (
        ref.structured) else ""
    if about and not NOTICE_HEAD.match(work.title):
        return Verification("mismatch", evidence, f"The reference cites “{about} …” the "
                            f"work, not the work the DOI is registered for ({registered}).",
                            registered, None, ref.truncated)
    verdict = _decide(title, match.size < 3, others)
    return Verification(verdict, evidence, _summary(verdict, evidence, registered),
                        registered, None, ref.truncated)


def _summary(verdict: Verdict, evidence: tuple[Evidence, ...], registered: str) -> str:
    agreed = [e.field.replace("-", " ") for e in evidence if e.state == "agreed"]
    if verdict == "matches":
        return f"Matches: {', '.join(agreed) or 'the reference'} agree with {registered}."
    if verdict == "mismatch":
        first = next((e for e in evidence if e.state == "differed"), None)
        if first is not None and first.field == "title":
            return f"Title differs: the DOI is registered for {registered}."
        said = first.message if first is not None else "The fields differ."
        return f"{said} The DOI is registered for {registered}."
    return (f"Cannot tell: the reference says too little to compare with {registered}.")
