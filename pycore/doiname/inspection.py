"""The reading policy for people: :func:`inspect` reads one pasted text.

Every surface reads pasted text through this module and :func:`doiname.extract` (the
scanner it uses), so the same text gets the same verdict, the same names and the same
candidates in the page's Inspect and Equivalence (:mod:`doiname.comparison`), in Batch
rows, in the widget's box and in linkify, and in the CLI:

* the names are those :func:`~doiname.extract` finds, in order (rules R1-R21 of
  :data:`doiname.extract.rules.RULES`), the first one selected; each keeps the other
  readings of its place (what was left out, several final dots, a line break) as
  alternatives, right after it;
* the literal reading of the whole text, when it is a valid name that differs (a name
  with a space in it, ``10.1038/nature14539 (accessed 2020)``), is kept as the last
  alternative;
* each candidate carries the findings of reading it and of :func:`~doiname.check` on the
  name (lookalikes, invisible characters, ...), with their repairs, and a status:
  ``ok``, ``warning``, ``error`` or ``short-doi``.

:func:`inspect` also computes everything a view shows for the selected name, from one
reading (the URLs at the three levels of 000/001/Handbook 2025 with what each character
became and why, the URN link, the ``doi:`` URI of 003, the handle API and Which RA
requests, the 2003 canonical URI of 004, HTML and Markdown links), so one user action is
one call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .equivalence import equivalence_key
from .errors import DoiError
from .extract import Match, extract
from .extract.clean import one_repair
from .findings import bounded
from .findings import check as _check
from .forms import FORM_NAMES, may_hold_one_name
from .limits import INSPECT_MAX_CHARS
from .linkify import utf16_offset
from .model import Doi, Finding, joined_places
from .presentation import Presentation, present, short_doi_api_url, to_handles_api_url
from .reading_words import Headline, Offer, candidate_labels, headline, offer
from .syntax import Reading, read
from .why_no_name import why_none
from .written import written_form

__all__ = ["Candidate", "Inspection", "Presentation", "inspect", "judge", "one_per_name",
           "present", "read_name", "status_of", "whole_reading", "written_form"]

Verdict = Literal["empty", "too-long", "none", "name", "names", "short-doi", "invalid"]
Status = Literal["ok", "warning", "error", "short-doi"]
How = Literal["exact", "found", "literal", "trimmed", "joined", "whole"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One reading of (a part of) the text: a DOI name, a shortDOI, or an unreadable name.

    ``start``/``end`` are code points of the text, ``start16``/``end16`` the same in UTF-16
    code units (for a JavaScript selection). ``how``: ``exact`` (the whole text is this
    name), ``found`` (found in a longer text), or, for an alternative of the candidate at
    index ``of``, ``literal``, ``trimmed`` or ``joined`` (:class:`doiname.extract.Alternative`)
    or ``whole`` (the whole text read as one name, when that is valid).
    ``api_url`` is the handle API request that resolves it (003 ch. 4; ``?type=HS_ALIAS``
    for a shortDOI), made from the exact name, never from a re-read string. ``form_label``
    says in words what the name was read from (:data:`doiname.forms.FORM_NAMES`);
    ``label`` what the reading is for the person ("Most likely", "If the “.” belongs to
    the name", "DOI name 2 of 3": :func:`doiname.reading_words.candidate_labels`).
    """

    doi: Doi
    kind: Literal["doi", "short-doi"]
    how: How
    status: Status
    start: int
    end: int
    start16: int
    end16: int
    text: str
    form: str
    findings: tuple[Finding, ...]
    of: int | None = None
    api_url: str | None = None
    form_label: str = ""
    label: str = ""


@dataclass(frozen=True, slots=True)
class Inspection:
    """What one pasted text holds, and everything to show for the selected candidate.

    ``verdict``: ``empty``, ``too-long`` (over :data:`~doiname.limits.INSPECT_MAX_CHARS`),
    ``none`` (no DOI name in it: ``notes`` says why, with the position), ``name`` (one
    name, possibly with alternative readings), ``names`` (several), ``short-doi``, or
    ``invalid`` (what it holds cannot be read as a DOI name; the candidate's error says
    why and may carry a repair). ``message`` says it in one plain sentence. ``notes`` are
    about the text as a whole (what was not read). ``headline`` is the card's one line on
    how the selected name was read and the other reading it offers, ``offer`` the
    repaired link offered beside the link as written
    (:mod:`doiname.reading_words`).
    """

    verdict: Verdict
    message: str
    length: int
    candidates: tuple[Candidate, ...]
    selected: int | None
    forms: Presentation | None
    notes: tuple[Finding, ...]
    headline: Headline | None = None
    offer: Offer | None = None


def status_of(findings: tuple[Finding, ...] | list[Finding]) -> Literal["ok", "warning", "error"]:
    """A name's status from its findings: ``error`` before ``warning`` before ``ok``."""
    status: Literal["ok", "warning"] = "ok"
    for f in findings:  # (no set made: most lists hold one or two findings)
        if f.severity == "error":
            return "error"
        if f.severity == "warning":
            status = "warning"
    return status


def judge(
    m: Match, *, positions: bool = False, check: Callable[[Doi], list[Finding]] | None = None,
) -> tuple[Status, tuple[Finding, ...]]:
    """A match's status and all its findings: those of reading it (extract) and those of
    :func:`~doiname.check` on the name (lookalikes, ...), a code reported once.

    With ``positions``, the name's findings also point into the text the match is in
    (``input_start``/``input_end``), when the match's text can be read on its own.
    ``check`` replaces :func:`~doiname.check` (tests)."""
    if m.kind == "short-doi":
        return "short-doi", bounded(m.findings)
    if not m.findings:  # (read with nothing to say: ok, unless check() says otherwise)
        extra = (check or _check)(m.doi)
        if not extra:
            return "ok", ()
    elif not m.ok:
        return "error", bounded(m.findings)
    else:
        extra = (check or _check)(m.doi)
    if extra:
        if m.findings:
            seen = {f.code for f in m.findings}
            extra = [f for f in extra if f.code not in seen]
        if positions:
            extra = _placed(m, extra)
    if not extra:
        return status_of(m.findings), bounded(m.findings)
    findings = (*m.findings, *extra)
    return status_of(findings), one_repair(bounded(findings))


def one_per_name(matches: list[Match]) -> list[Match]:
    """The matches of one text, a name read again after its first match left out (003
    ch. 3: names compared by their equivalence key; a CSV row's DOI column and its record
    link, ``...&doi=10.1016%2fj.cell.2020.01.001``): one name, whose first match says
    where else it is written (info ``same-name``). Errors and shortDOIs are each kept."""
    if len(matches) < 2:
        return matches
    first: dict[str, int] = {}
    again: dict[int, list[Match]] = {}
    kept: list[Match] = []
    for m in matches:
        if not m.ok or m.kind != "doi":
            kept.append(m)
            continue
        key = equivalence_key(m.doi)
        at = first.get(key)
        if at is None:
            first[key] = len(kept)
            kept.append(m)
        else:
            again.setdefault(at, []).append(m)
    for at, more in again.items():  # (a note for each place: it points at that text)
        notes = tuple(Finding(
            "same-name", "info",
            f"The same DOI name is written again at character {x.start + 1} (“{x.text}”): "
            "it is one name.", x.start, x.end, x.start, x.end, in_name=False,
            source="doiname policy") for x in more)
        kept[at] = dataclasses.replace(kept[at], findings=(*kept[at].findings, *notes))
    return kept


def _placed(m: Match, findings: list[Finding]) -> list[Finding]:
    """Name findings with the span of the text they come from (or none when unknown)."""
    try:
        reading = read(m.text)
    except DoiError:
        reading = None
    if reading is None or reading.doi != m.doi:
        return [dataclasses.replace(f, input_start=None, input_end=None, places=())
                for f in findings]
    out = []
    span = reading.input_span
    for f in findings:
        a, b = span(f.start, f.end)
        # (a name's finding's places are where the name's characters are: name positions)
        places = joined_places([(m.start + x, m.start + y)
                                for x, y in (span(*p) for p in f.places)])
        out.append(dataclasses.replace(f, input_start=m.start + a, input_end=m.start + b,
                                       places=places))
    return out


def _api_url(doi: Doi, kind: str) -> str | None:
    try:
        if kind == "short-doi":
            return short_doi_api_url(str(doi))
        return to_handles_api_url(doi)
    except DoiError:
        return None


def _candidate(text: str, doi: Doi, kind: Literal["doi", "short-doi"], how: How,
               status: Status, start: int, end: int, written: str, form: str,
               findings: tuple[Finding, ...], of: int | None) -> Candidate:
    return Candidate(doi, kind, how, status, start, end, utf16_offset(text, start),
                     utf16_offset(text, end), written, form, findings, of,
                     _api_url(doi, kind) if status != "error" else None,
                     FORM_NAMES.get(form, form))


def _candidates(text: str) -> list[Candidate]:
    out: list[Candidate] = []
    matches = extract(text)
    for m in one_per_name(matches):
        status, findings = judge(m, positions=True)
        whole = not text[:m.start].strip() and not text[m.end:].strip()
        index = len(out)
        out.append(_candidate(text, m.doi, m.kind, "exact" if whole else "found", status,
                              m.start, m.end, m.text, m.form, findings, None))
        for alt in m.alternatives:
            alt_match = Match(alt.doi, alt.start, alt.end, alt.text, (), m.form)
            a_status, a_findings = judge(alt_match, positions=alt.how != "joined")
            out.append(_candidate(text, alt.doi, "doi", alt.how, a_status, alt.start, alt.end,
                                  alt.text, m.form, a_findings, index))
    reading = whole_reading(text, matches)
    if reading is not None:
        out.append(_whole(text, reading, out))
    labels = candidate_labels(text, out)
    return [dataclasses.replace(c, label=label) for c, label in zip(out, labels, strict=True)]


def whole_reading(text: str, matches: list[Match]) -> Reading | None:
    """The whole text read as exactly one name, when that is valid, the text holds at most
    one match and that match is another name (``10.1000/a b``): kept as the last reading."""
    if len(matches) > 1:
        return None
    if matches and not text[:matches[0].start].strip() and not text[matches[0].end:].strip():
        return None  # the match is the whole text
    if not may_hold_one_name(text):
        return None
    try:
        reading = read(text)
    except DoiError:
        return None
    if any(m.doi == reading.doi or any(a.doi == reading.doi for a in m.alternatives)
           for m in matches):
        return None
    return reading


def _whole(text: str, reading: Reading, found: list[Candidate]) -> Candidate:
    """The candidate of :func:`whole_reading`."""
    lead = len(text) - len(text.lstrip())
    end = lead + len(text.strip())
    m = Match(reading.doi, lead, end, text[lead:end], reading.notes, reading.form)
    status, findings = judge(m, positions=True)
    return _candidate(text, reading.doi, "doi", "whole", status, lead, end, text[lead:end],
                      reading.form, findings, 0 if found else None)


def _left_out(text: str, found: list[Candidate]) -> Finding | None:
    """A note on the text that no candidate read (a reference around a name)."""
    spans = sorted([(c.start, c.end) for c in found if c.how != "whole"]
                   + [(f.start, f.end) for c in found for f in c.findings
                      if f.code == "same-name"])  # (read: the same name again)
    pieces: list[str] = []
    at = 0
    for a, b in spans:
        pieces.append(text[at:a])
        at = max(at, b)
    pieces.append(text[at:])
    rest = " ".join(p.strip() for p in pieces if p.strip())
    if not rest:
        return None
    shown = f"“{rest}”" if len(rest) <= 60 else f"{len(rest):,} characters"
    what = "name" if sum(1 for c in found if c.of is None) == 1 else "names"
    return Finding("text-left-out", "info",
                   f"The text around the {what} was not read as part of it: {shown}.",
                   0, len(text), 0, len(text), in_name=False, source="extract R8")


def _message(verdict: Verdict, found: list[Candidate], selected: int | None,
             line: Headline | None = None) -> str:
    if selected is None:
        return ""
    c = found[selected]
    names = [x for x in found if x.of is None]
    if verdict == "short-doi":
        return f"{c.doi} is a shortDOI: an alias of a DOI name, which doi.org can expand."
    if verdict == "invalid":
        error = next((f for f in c.findings if f.severity == "error"), None)
        return "Not a valid DOI name" + (f": {error.message}" if error else ".")
    explained = line.explains if line else ""
    counts = {s: sum(1 for f in c.findings if f.severity == s and f.code != explained)
              for s in ("warning", "error")}
    tail = f" ({counts['warning']} warning{'s' if counts['warning'] != 1 else ''})" \
        if counts["warning"] else ""
    if verdict == "names":
        return f"{len(names)} DOI names found; the first is {c.doi}{tail}."
    name = f"“{c.doi}”" if str(c.doi)[-1] in ".,;:!?" else str(c.doi)
    if line is not None:
        return f"DOI name {name}{tail}. {line.said}"
    return f"DOI name {name}{tail}."


def inspect(text: str, pick: int | None = None, *, forms: bool = True) -> Inspection:
    """Read whatever a person pasted (the reading policy of this module; extract R1-R21,
    002 §4, 003 ch. 2-4, 000, 004): the candidates, the selected one (``pick``, an index
    of ``candidates``, else the first), and every form of its name (not computed when
    ``forms`` is false). Never raises for a ``str``; text over
    :data:`~doiname.limits.INSPECT_MAX_CHARS` characters is not read."""
    if not isinstance(text, str):
        raise TypeError(f"inspect() takes a str, not {type(text).__name__}")
    n = len(text)
    if not text.strip():
        return Inspection("empty", "", n, (), None, None, ())
    if n > INSPECT_MAX_CHARS:
        return Inspection(
            "too-long",
            f"This text is {n:,} characters long; Inspect reads up to {INSPECT_MAX_CHARS:,}. "
            "For lists and long texts, use Batch.", n, (), None, None, ())
    found = _candidates(text)
    if not found or found[0].how == "whole":
        why = why_none(text)
        message = why.message if why.code == "no-doi" else "No DOI name found: " + why.message
        if found:  # valid as typed, but the scanner does not take it for a name (R7)
            message = (f"No DOI name found: “{found[0].text}” looks like a number or an "
                       "address, not a DOI name. Read exactly as typed it is a valid DOI "
                       "name, shown as the one reading below.")
            why = Finding("looks-like-a-number", "info", message, 0, n, 0, n,
                          in_name=False, source="extract R7")
        picked = 0 if found and pick == 0 else None
        shown = present(found[0].doi) if picked is not None and forms else None
        return Inspection("none", message, n, tuple(found), picked, shown, (why,))
    selected = pick if isinstance(pick, int) and 0 <= pick < len(found) else 0
    c = found[selected]
    names = [x for x in found if x.of is None]
    verdict: Verdict
    if c.kind == "short-doi":
        verdict = "short-doi"
    elif len(names) > 1:
        verdict = "names"
    elif c.status == "error":
        verdict = "invalid"
    else:
        verdict = "name"
    shown = present(c.doi) if forms and c.kind == "doi" and c.status != "error" else None
    left = _left_out(text, found)
    line = headline(text, found, [x.label for x in found], selected)
    return Inspection(verdict, _message(verdict, found, selected, line), n, tuple(found),
                      selected, shown, (left,) if left is not None else (), line,
                      offer(c, line.explains if line else ""))


def read_name(text: str) -> tuple[Doi, Inspection]:
    """The DOI name a person means by ``text`` (:func:`inspect`'s selected candidate), with
    the inspection that says how it was read; raises :class:`DoiError` when the text holds
    no readable DOI name (positioned, as :func:`doiname.parse` does)."""
    found = inspect(text, forms=False)
    if found.selected is not None:
        c = found.candidates[found.selected]
        if c.kind == "doi" and c.status != "error":
            return c.doi, found
        error = next((f for f in c.findings if f.severity == "error"), None)
        if c.kind == "short-doi":
            raise DoiError("short-doi", found.message, c.start, c.end)
    else:
        error = next((f for f in found.notes if f.severity == "error"), None)
    if error is None:
        raise DoiError(found.verdict, found.message or "Nothing to read: the input is empty.")
    raise DoiError(error.code, error.message, error.input_start, error.input_end,
                   source=error.source)
