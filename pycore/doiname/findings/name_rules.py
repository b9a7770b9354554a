"""Rules about what a name holds besides lookalikes: the reserved suffix start and the
length (002 §4.3), combining marks (003 ch. 2 note 1), right-to-left letters (003 ch. 6),
escapes left after decoding (001), spaces (002 §4.1), and characters outside the set
Crossref approves for new suffixes."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterator

from .. import citations as c
from ..memo import remembered
from ..syntax import char_label
from .subject import Subject, where

__all__ = [
    "CROSSREF_SET", "LONG_LINK", "LONG_NAME", "name_shape", "reserved_start",
    "rule_combining_marks", "rule_crossref_set", "rule_length", "rule_percent_escapes",
    "rule_reserved_suffix", "rule_right_to_left", "rule_spaces",
]

#: 100 characters: more than a printed line, far above ordinary names (long SICI-style
#: suffixes run to about 60); 002 sets no limit but asks for short suffixes.
LONG_NAME = 100
#: 2048 characters: a long-standing practical URL limit (the Sitemaps protocol's
#: maximum, common VARCHAR(2048) URL columns, old browsers near 2083).
LONG_LINK = 2048
#: Crossref's approved characters for new suffixes ("Tips for creating a DOI suffix").
CROSSREF_SET = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._;()/")
#: Each byte of a character of the set as ``a``, every other byte kept (the set is ASCII,
#: and no byte of another character's UTF-8 is ASCII).
_SHAPE_BYTES = bytes(ord("a") if chr(i) in CROSSREF_SET else i for i in range(256))
assert all(c.isascii() for c in CROSSREF_SET)


def name_shape(name: str) -> bytes:
    """The shape of a name (002 §4.3): every character of :data:`CROSSREF_SET` written
    ``a``, every other kept, as UTF-8 (two names have one shape exactly when their texts
    so rewritten are equal). What the findings of the rules that keep them by shape
    depend on, with the length of the prefix (:func:`doiname.findings.by_shape`)."""
    return name.encode("utf-8", "surrogatepass").translate(_SHAPE_BYTES)

_RUN_SHOWN = 40  # characters of a long run quoted in a message
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
#: Runs of characters outside CROSSREF_SET.
_OUTSIDE = re.compile("[^" + re.escape("".join(sorted(CROSSREF_SET))) + "]+")


def reserved_start(name: str, suffix_start: int) -> bool:
    """002 §4.3: whether the suffix of ``name`` (from ``suffix_start``) starts with one
    character and ``/``, a start the standard reserves."""
    return name[suffix_start + 1:suffix_start + 2] == "/"


def rule_reserved_suffix(s: Subject) -> None:
    """002 §4.3: "The Suffix cannot start with */ where * is any single character"."""
    assert s.doi is not None
    suffix = s.doi.suffix
    if reserved_start(s.name, s.suffix_start):
        a = s.suffix_start
        s.add("reserved-suffix-start",
              f"The suffix starts with “{suffix[:2]}” ({where(a, a + 2)}): the DOI standard "
              "reserves suffixes that begin with one character followed by “/” for future "
              "use.", a, a + 2)


def rule_length(s: Subject) -> None:
    """A name over ``LONG_NAME`` characters (info), or whose link passes ``LONG_LINK``."""
    name = s.name
    if len(name) <= LONG_NAME:
        return
    link_length = 0
    # Each byte of UTF-8 is at most three characters in a link: only past this bound can
    # the link pass LONG_LINK, so only then is it built.
    if len(name.encode("utf-8", "surrogatepass")) * 3 + 64 > LONG_LINK and s.doi is not None:
        from ..presentation import to_url
        link_length = len(to_url(s.doi))
    if link_length > LONG_LINK:
        s.add("very-long-link",
              f"The name has {len(name):,} characters and its doi.org link {link_length:,}: "
              f"past {LONG_LINK:,} characters many systems cut or reject links. The DOI "
              "standard sets no limit, but recommends short suffixes.", 0, len(name))
        return
    s.add("long-name",
          f"The name has {len(name):,} characters. The DOI standard sets no limit on length "
          "but recommends keeping the suffix as short as possible, because people read and "
          "re-type DOI names.", 0, len(name))


def rule_combining_marks(s: Subject) -> None:
    """One finding per combining sequence: the same text may be stored precomposed (NFC)
    or decomposed (NFD), and those are two names (003 ch. 2 note 1)."""
    name = s.name
    i, n = s.suffix_start, len(name)
    while i < n:
        if name[i] < "\u0300" or unicodedata.category(name[i])[0] != "M":
            i += 1
            continue
        j = i
        while j < n and unicodedata.category(name[j])[0] == "M":
            s.flagged.add(name[j])
            j += 1
        if s.full:
            s.count("combining-mark")
        else:
            _combining(s, i, j)
        i = j


def _combining(s: Subject, i: int, j: int) -> None:
    name = s.name
    base = i - 1 if i > s.suffix_start else i
    cluster = name[base:j]
    marks = ", ".join(char_label(m) for m in name[i:j])
    composed = unicodedata.normalize("NFC", cluster)
    if len(composed) < len(cluster):
        other = (f"It can also be stored precomposed as “{composed}” ("
                 + ", ".join(char_label(x) for x in composed) + ")")
    else:
        other = "Other spellings of the same text may exist (NFC/NFD)"
    joins = ("stands at the start of the suffix, so on screen it combines with the “/” "
             "before it") if i == s.suffix_start else "combines with the character before it"
    s.add("combining-mark",
          f"{marks} at {where(i, j)} {joins}. {other}; DOI names compare code points without "
          "Unicode normalization, so the two spellings are different names.", base, j,
          spelling=[(base, j, composed)] if composed != cluster else None)


def rule_right_to_left(s: Subject) -> None:
    """One finding for a name holding right-to-left letters (003 ch. 6, Unicode TR36)."""
    name = s.name
    first, count = -1, 0
    for i in range(s.suffix_start, len(name)):
        if name[i] >= "\u0590" and unicodedata.bidirectional(name[i]) in ("R", "AL"):
            count += 1
            if first < 0:
                first = i
    if first >= 0:
        more = f" and {count - 1} more" if count > 1 else ""
        s.add("right-to-left",
              f"The name holds right-to-left characters ({char_label(name[first])} at "
              f"{where(first, first + 1)}{more}): on screen they may not appear in the order "
              "they are stored, so copy the name rather than retype it.", first, first + 1)


def rule_percent_escapes(s: Subject) -> None:
    """``%XX`` still in the name after the one decoding (001): most likely encoded twice;
    one finding for each escape however often it comes, and its repair decodes it once
    more everywhere."""
    name = s.name
    if "%" not in name:
        return
    found: dict[str, list[tuple[int, int]]] = {}
    for m in _ESCAPE.finditer(name, s.suffix_start):
        s.flagged.add("%")
        found.setdefault(m[0].upper(), []).append(m.span())
    for escape, spans in found.items():
        if s.full:
            s.count("percent-escape-in-name")
            continue
        byte = int(escape[1:], 16)
        meaning = f"“{chr(byte)}”" if 0x20 < byte < 0x7F else (
            "a control character" if byte < 0x21 or byte == 0x7F else
            "part of a UTF-8 encoded character")
        (a, b), written = spans[0], name[spans[0][0]:spans[0][1]]
        s.add("percent-escape-in-name",
              f"The name holds “{written}” ({_spans(spans)}), which is the escape for "
              f"{meaning}. Names are decoded only once, so the text was most likely encoded "
              f"twice (“%25{written[1:]}”); check the name against its source.", a, b,
              fix=[(x, y, chr(byte)) for x, y in spans] if 0x20 < byte < 0x7F else None,
              places=spans if len(spans) > 1 else None)


def rule_spaces(s: Subject) -> None:
    """U+0020 SPACE in the name: legal (002 §4.1), usually a line break or a slip; one
    finding for all of them (their places), whose repair takes them all out."""
    name = s.name
    runs: list[tuple[int, int]] = []
    i = name.find(" ", s.suffix_start)
    while i != -1:
        j = i
        while j < len(name) and name[j] == " ":
            j += 1
        runs.append((i, j))
        i = name.find(" ", j)
    if not runs:
        return
    s.flagged.add(" ")
    what = f"a space at {where(*runs[0])}" if len(runs) == 1 else f"spaces ({_spans(runs)})"
    s.add("space-in-name",
          f"The name holds {what}. It is allowed but is usually a line break or a copying "
          "error; in a link it must be written %20.",
          *runs[0], fix=[(a, b, "") for a, b in runs], places=runs if len(runs) > 1 else None)


def _spans(spans: list[tuple[int, int]]) -> str:
    """Where spans of the name are: ``character 9``, ``characters 9–10``, or
    ``3 times, at characters 9, 12–13 and 20``."""
    if len(spans) == 1:
        return where(*spans[0])
    each = [f"{a + 1}" if b - a <= 1 else f"{a + 1}–{b}" for a, b in spans]
    return f"{len(spans):,} times, at characters {', '.join(each[:-1])} and {each[-1]}"


def rule_crossref_set(s: Subject) -> None:
    """One finding per run of characters outside :data:`CROSSREF_SET` not named by an
    earlier rule; a precomposed letter gets its decomposed spelling."""
    name = s.name
    for a, b, new, outside in _crossref_runs(name, s.suffix_start, s.flagged):
        if s.full:
            s.count("outside-crossref-set")
            continue
        message, decomposed = _crossref_message(name, a, b, new, outside)
        s.add("outside-crossref-set", message, a, b,
              source=c.both(c.CROSSREF_SUFFIXES, c.S003_2_NOTE1) if decomposed else None)


def _crossref_runs(name: str, start: int, flagged: Collection[str]
                   ) -> Iterator[tuple[int, int, list[str], str]]:
    """Each run ``[a, b)`` of ``name[start:]`` outside :data:`CROSSREF_SET` and without a
    character of ``flagged`` (named by an earlier rule) that holds a character no earlier
    run held: its span, those new characters, and every run's characters (where a
    character's times are counted)."""
    runs = [m.span() for m in _OUTSIDE.finditer(name, start)]
    if flagged:  # characters named by an earlier rule end a run
        runs = [r for a, b in runs for r in _unflagged(name, a, b, flagged)]
    outside = "".join([name[a:b] for a, b in runs]) if len(runs) > 1 else ""
    told: set[str] = set()
    for a, b in runs:
        if b - a == 1:
            new = [name[a]] if name[a] not in told else []
        else:
            new = [x for x in dict.fromkeys(name[a:b]) if x not in told]
        if new:  # (else every character of the run was named before)
            told.update(new)
            yield a, b, new, outside or name[a:b]


def _unflagged(name: str, a: int, b: int, flagged: Collection[str]) -> list[tuple[int, int]]:
    """The runs of ``name[a:b]`` between characters in ``flagged``."""
    out = []
    run_start = -1
    for i in range(a, b):
        if name[i] not in flagged:
            if run_start < 0:
                run_start = i
        elif run_start >= 0:
            out.append((run_start, i))
            run_start = -1
    if run_start >= 0:
        out.append((run_start, b))
    return out


def _crossref_message(name: str, a: int, b: int, new: list[str],
                      outside: str) -> tuple[str, bool]:
    """The message, and whether it says a letter has a decomposed spelling (003 ch. 2
    note 1, then part of the finding's source). ``outside`` holds every character of the
    runs reported (how many times a character appears is counted there)."""
    if b - a == 1:  # one character (``new`` is that character)
        ch = name[a]
        return _one_character_message(ch, a, outside.count(ch))
    spelled = _spelled(new, "")
    shown = name[a:b] if b - a <= _RUN_SHOWN else name[a:a + _RUN_SHOWN] + "…"
    labels = ", ".join(char_label(x) for x in new[:3])
    if len(new) > 3:
        labels += f" and {len(new) - 3} more"
    return (f"“{shown}” ({where(a, b)}: {labels}) is outside the characters Crossref "
            f"approves for new suffixes (a–z, A–Z, 0–9 and - . _ ; ( ) /). They are allowed "
            f"in a DOI name, but some systems mishandle them.{spelled}", bool(spelled))


@remembered(1024)
def _one_character_message(ch: str, a: int, times: int) -> tuple[str, bool]:
    """:func:`_crossref_message` for a run of one character ``ch`` at ``a`` that appears
    ``times`` times in the suffix: it depends on nothing else (kept for the 1024 asked
    last: a list's names repeat the same character at the same place)."""
    spelled = _spelled([ch], "It")
    again = f"; it appears {times} times" if times > 1 else ""
    return (f"{char_label(ch)} ({where(a, a + 1)}{again}) is outside the characters Crossref "
            f"approves for new suffixes (a–z, A–Z, 0–9 and - . _ ; ( ) /). It is allowed in "
            f"a DOI name, but some systems mishandle it.{spelled}", bool(spelled))


def _spelled(new: list[str], subject: str) -> str:
    """The sentence saying that the first precomposed letter of ``new`` can also be
    spelled decomposed (``subject`` names it; empty: the letter quoted), or ``""``."""
    precomposed = [x for x in new if unicodedata.decomposition(x)
                   and not unicodedata.decomposition(x).startswith("<")]
    if not precomposed:
        return ""
    first = precomposed[0]
    return (f" {subject or f'“{first}”'} can also be spelled decomposed ("
            + " + ".join(char_label(x) for x in unicodedata.normalize("NFD", first))
            + "), which is a different name.")
