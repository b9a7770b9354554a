"""What is worth telling a person about a DOI name: :func:`check` and :func:`describe_code_points`.

A DOI name may hold any Unicode graphic character (002 section 4.1), so a name can be
valid and still be a trap: a dash that only looks like ``-``, a Cyrillic ``а`` in a Latin
word, an accent that may be stored precomposed or not. 003 chapter 6 (security
considerations, pointing to Unicode TR36) warns that "two DOI names rendering to the
same sequence of glyphs can identify referents" that differ. :func:`check` names each
such character, where it is, and what it looks like.

Rules (``code``: severity, ``source``):

* every :func:`~doiname.parse` error (``code`` is the :class:`~doiname.errors.DoiError`
  code): error, positions in the input; for input that cannot be read, the lookalike
  rules below still run over the input (``in_name=False``), because a lookalike slash
  or digit is often *why* it cannot be read. Bidirectional controls (U+202E RIGHT-TO-LEFT
  OVERRIDE, ...) and zero-width characters are not Graphic (003 ch. 2), so they arrive
  as the parser's ``not-graphic`` error, whose message says what they are;
* the reader's notes (``whitespace-trimmed``, ``percent-decoded``, ``proxy-link``,
  ``url-query-dropped``, ...), positions in the input;
* ``reserved-suffix-start``: warning, "002 §4.3": "The Suffix cannot start with */
  where * is any single character. This is reserved for future use.";
* ``lookalike-dash``, ``lookalike-quote``, ``lookalike-slash``, ``lookalike-space``,
  ``lookalike-letter``, ``lookalike-character``: warning, "003 ch.6 / UTS #39": one per
  occurrence, naming the code point, its name and the Basic Latin text it looks like
  (tables generated from Unicode's ``confusables.txt`` and the UCD by
  ``pycore/tools/build_unidata.py``). A letter or digit that looks Latin is reported when it
  is itself a Latin or Common compatibility form (fullwidth, mathematical bold,
  KELVIN SIGN), when its word also holds Latin letters, or when every letter of its
  word looks Latin (a whole-script confusable such as Cyrillic ``сор``); a Russian
  word such as ``Россия`` is not a lookalike of anything;
* ``mixed-scripts``: warning, "003 ch.6 / UTS #39": one per word (a run of letters,
  marks and digits) whose letters share no script, resolved with Script_Extensions and
  the Han/Japanese/Korean augmentation of UTS #39 section 5.1; Latin with Han and kana
  (or Hangul, or Bopomofo) is how Japanese, Korean and Chinese are written and passes,
  as at UTS #39's "highly restrictive" level;
* ``combining-mark``: warning, "003 ch.2 note 1": one per combining sequence; the same
  text may be stored precomposed (NFC) or decomposed (NFD) and the two are different
  names, because equivalence compares code points without normalization;
* ``right-to-left``: info, "003 ch.6 / UTS #39": the name holds right-to-left letters,
  so what is displayed may not be in code-point order (one finding for the name);
* ``space-in-name``: warning, "002 §4.1": a U+0020 SPACE inside the name is legal but
  is usually a line break or a copy error;
* ``percent-escape-in-name``: warning, "001": after the one decoding the name still
  holds ``%XX``, most likely because it was encoded twice (``%2523`` became ``%23``);
* ``outside-crossref-set``: info, "Crossref suffix guidance": one per run of
  characters outside ``a-z A-Z 0-9 - . _ ; ( ) /`` (Crossref's approved suffix
  characters for new DOIs, "Tips for creating a DOI suffix"), so a word in another
  script is one finding; a run whose characters were all named by an earlier one is
  not repeated, and a lone character says how often it appears. A precomposed letter
  gets its decomposed spelling. Characters that already have a lookalike, space or
  combining-mark warning are not repeated here;
* ``long-name``: info, "002 §4.3": more than ``LONG_NAME`` (100) characters. 002 puts
  no limit on length but recommends the suffix "be kept as short as possible to allow
  for human readability"; Crossref asks for concise suffixes that people re-type.
  100 characters is more than a printed line and far above ordinary names (the long
  SICI-style suffixes run to about 60);
* ``very-long-link``: warning, "002 §4.3": the recommended doi.org link is longer than
  ``LONG_LINK`` (2048) characters: 2048 is a long-standing practical URL limit
  (the Sitemaps protocol's maximum, common ``VARCHAR(2048)`` URL columns, old browsers
  near 2083), so such a link is likely to be cut somewhere; RFC 9110 only recommends
  8000 octets as a minimum.

``10.1000/182`` gets no finding at all. :func:`check` is linear in the length of its
input (one table look-up per character, ``bisect`` over range tables), never raises
for a ``str`` and is meant to be called on every keystroke.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from typing import TypeVar

from . import _unidata
from .errors import DoiError
from .model import Doi, Finding, Severity
from .syntax import Reading, char_label, read, validate_name

__all__ = ["CodePoint", "check", "describe_code_points"]

_T = TypeVar("_T")

LONG_NAME = 100
LONG_LINK = 2048
_RUN_SHOWN = 40  # characters of a long run quoted in a message

CROSSREF_SET = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._;()/")

_SRC_LOOKALIKE = "003 ch.6 / UTS #39"
_SRC_CROSSREF = "Crossref suffix guidance"
_ERROR_SOURCES = {
    "empty": "002 §4",
    "no-slash": "002 §4",
    "empty-suffix": "002 §4.3",
    "bad-prefix": "002 appendix A",
    "short-doi": "shortDOI service",
    "bad-percent": "001",
    "bad-utf8": "002 appendix A / 003 ch.2",
    "not-graphic": "003 ch.2 / 002 §4.1",
    "uri-query": "003 ch.2",
    "uri-fragment": "003 ch.2",
}
_SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_NEUTRAL = frozenset({"Common", "Inherited"})
_KIND_CODES = {
    "d": "lookalike-dash",
    "q": "lookalike-quote",
    "/": "lookalike-slash",
    "s": "lookalike-space",
    "l": "lookalike-letter",
    "o": "lookalike-character",
}
# UTS #39 section 5.1: Han, Hiragana, Katakana, Hangul and Bopomofo mix in Japanese,
# Korean and Chinese writing; their script sets are augmented before intersecting.
_CJK = frozenset({"Jpan", "Kore", "Hanb"})
_AUGMENT = {
    "Han": ("Han", "Jpan", "Kore", "Hanb"),
    "Hiragana": ("Hiragana", "Jpan"),
    "Katakana": ("Katakana", "Jpan"),
    "Hangul": ("Hangul", "Kore"),
    "Bopomofo": ("Bopomofo", "Hanb"),
}


@dataclass(frozen=True, slots=True)
class CodePoint:
    """One character of a DOI name (or of unreadable input), for a code-point view.

    ``input_start``/``input_end`` is the span of the input that produced it (an escape
    ``%E2%80%90`` produces one character from nine); ``in_name`` is ``False`` when the
    input could not be read as a DOI name and its characters are listed instead.
    ``looks_like`` is the Basic Latin text the character can be taken for, or ``""``
    (003 ch. 6, UTS #39).
    """

    char: str
    code_point: str
    name: str
    category: str
    script: str
    input_start: int
    input_end: int
    looks_like: str = ""
    in_name: bool = True


# --- the generated tables --------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Tables:
    script_names: tuple[str, ...]
    script_starts: list[int]
    script_values: list[int]
    scx_starts: list[int]
    scx_ends: list[int]
    scx_values: list[int]
    scx_sets: tuple[frozenset[str], ...]
    look_starts: list[int]
    look_ends: list[int]
    look_kinds: str
    look_texts: list[str]
    look_steps: str


def _deltas(text: str) -> list[int]:
    out: list[int] = []
    total = 0
    for item in text.split():
        total += int(item, 36)
        out.append(total)
    return out


def _plain(text: str) -> list[int]:
    return [int(item, 36) for item in text.split()]


@cache
def _tables() -> _Tables:
    """Decode :mod:`doiname._unidata` once (a few milliseconds, on first use)."""
    u = _unidata
    names = tuple(n.replace("_", " ") for n in u.SCRIPT_NAMES)
    scx_starts = _deltas(u.SCX_STARTS)
    look_starts = _deltas(u.LOOK_STARTS)
    return _Tables(
        names,
        _deltas(u.SCRIPT_STARTS),
        _plain(u.SCRIPT_VALUES),
        scx_starts,
        [s + n for s, n in zip(scx_starts, _plain(u.SCX_LENGTHS), strict=True)],
        _plain(u.SCX_VALUES),
        tuple(frozenset(names[i] for i in s) for s in u.SCX_SETS),
        look_starts,
        [s + n for s, n in zip(look_starts, _plain(u.LOOK_LENGTHS), strict=True)],
        u.LOOK_KINDS,
        u.LOOK_TEXTS.split("\u00b7"),
        u.LOOK_STEPS,
    )


# Per-character answers, kept for the characters seen most recently: names repeat
# their characters, and check() runs on every keystroke. Bounded, so arbitrary input
# cannot grow them without limit.
_CACHE_SIZE = 4096
_SCRIPT_CACHE: dict[str, str] = {}
_SET_CACHE: dict[str, frozenset[str] | None] = {}
_LOOK_CACHE: dict[str, tuple[str, str] | None] = {}


def _remember(cache: dict[str, _T], ch: str, value: _T) -> _T:
    if len(cache) >= _CACHE_SIZE:
        cache.clear()
    cache[ch] = value
    return value


def script_of(ch: str) -> str:
    """The Unicode script of ``ch`` (Scripts.txt), e.g. ``"Latin"``, ``"Common"``.

    Code points unassigned in the tables' Unicode version (and private use, surrogates)
    are ``"Unknown"`` (UAX #24); see :mod:`doiname._unidata` for the version.
    """
    found = _SCRIPT_CACHE.get(ch)
    if found is not None:
        return found
    t = _tables()
    cp = ord(ch)
    return _remember(_SCRIPT_CACHE, ch, t.script_names[
        t.script_values[bisect_right(t.script_starts, cp) - 1]])


def _script_set(ch: str) -> frozenset[str] | None:
    """Script_Extensions of ``ch``, augmented (UTS #39 5.1); ``None`` when neutral."""
    if ch in _SET_CACHE:
        return _SET_CACHE[ch]
    return _remember(_SET_CACHE, ch, _script_set_uncached(ch))


def _script_set_uncached(ch: str) -> frozenset[str] | None:
    t = _tables()
    cp = ord(ch)
    i = bisect_right(t.scx_starts, cp) - 1
    if i >= 0 and cp <= t.scx_ends[i]:
        scripts = t.scx_sets[t.scx_values[i]]
    else:
        sc = script_of(ch)
        if sc in _NEUTRAL:
            return None
        scripts = frozenset((sc,))
    out: set[str] = set()
    for s in scripts:
        out.update(_AUGMENT.get(s, (s,)))
    return frozenset(out)


def lookalike(ch: str) -> tuple[str, str] | None:
    """``(kind, text)`` when ``ch`` (not ASCII) can be taken for Basic Latin ``text``.

    Kinds: ``l`` letter or digit, ``s`` space, ``d`` dash, ``q`` quote, ``/`` slash,
    ``o`` other (tables from ``confusables.txt`` and the UCD, see
    pycore/tools/build_unidata.py).
    """
    cp = ord(ch)
    if cp < 0x80:
        return None
    if ch in _LOOK_CACHE:
        return _LOOK_CACHE[ch]
    return _remember(_LOOK_CACHE, ch, _lookalike_uncached(cp))


def _lookalike_uncached(cp: int) -> tuple[str, str] | None:
    t = _tables()
    i = bisect_right(t.look_starts, cp) - 1
    if i < 0 or cp > t.look_ends[i]:
        return None
    text = t.look_texts[i]
    if t.look_steps[i] == "1":
        text = chr(ord(text) + cp - t.look_starts[i])
    return t.look_kinds[i], text


# --- check ------------------------------------------------------------------------------

def check(text: str | Doi) -> list[Finding]:
    """Everything worth telling about ``text`` as a DOI name (002, 003 ch. 2 and 6, 001).

    Returns :class:`~doiname.model.Finding` objects sorted by position in the input;
    see the module docstring for each rule, its code, severity and source. A ``Doi`` is
    checked as it is (no decoding); one that :func:`~doiname.parse` would reject (a code
    point that is not Graphic, a bad prefix) gets that error. Never raises for a ``str``
    or a ``Doi``; linear in the length.
    """
    try:
        if isinstance(text, Doi):
            # A Doi value is not validated when it is made: say what parse() would reject.
            validate_name(str(text))
        reading = read(text)
    except DoiError as err:
        raw = str(text)
        return _sorted([_error_finding(err, raw), *_scan_unreadable(raw)])
    out: list[Finding] = list(reading.notes)
    _Scanner(reading, out).run()
    return _sorted(out)


def _sorted(findings: list[Finding]) -> list[Finding]:
    def key(f: Finding) -> tuple[int, int, int, str]:
        a = f.input_start if f.input_start is not None else f.start
        b = f.input_end if f.input_end is not None else f.end
        return (a, b, _SEVERITY_RANK.get(f.severity, 3), f.code)

    return sorted(findings, key=key)


def _error_finding(err: DoiError, text: str) -> Finding:
    if err.position is None:
        start, end = 0, len(text)
    else:
        start = max(0, min(err.position, len(text)))
        end = err.end if err.end is not None else start + 1
        end = max(start, min(end, len(text)))
    return Finding(err.code, "error", err.message, start, end, start, end, in_name=False,
                   source=_ERROR_SOURCES.get(err.code, "doiname"))


def _scan_unreadable(text: str) -> list[Finding]:
    """Lookalike findings over input that is not a DOI name (positions in the input)."""
    if text.isascii():
        return []
    out: list[Finding] = []
    for a, b in _word_runs(text, 0):
        _lookalike_letters(text, a, b, out, None)
    for i, ch in enumerate(text):
        hit = lookalike(ch)
        if hit is not None and hit[0] != "l" and not unicodedata.category(ch).startswith("M"):
            out.append(_lookalike_finding(ch, hit, i, i + 1, None))
    return out


def _word_runs(name: str, start: int) -> list[tuple[int, int]]:
    """Maximal runs of letters, marks and digits (general category L, M, N)."""
    runs: list[tuple[int, int]] = []
    run_start = -1
    for i in range(start, len(name)):
        ch = name[i]
        word = ch.isalnum() or (ch >= "\u0300" and unicodedata.category(ch)[0] in "LMN")
        if word and run_start < 0:
            run_start = i
        elif not word and run_start >= 0:
            runs.append((run_start, i))
            run_start = -1
    if run_start >= 0:
        runs.append((run_start, len(name)))
    return runs


def _where(a: int, b: int) -> str:
    return f"character {a + 1}" if b - a <= 1 else f"characters {a + 1}–{b}"


def _lookalike_finding(ch: str, hit: tuple[str, str], a: int, b: int,
                       reading: Reading | None) -> Finding:
    kind, looks = hit
    label = char_label(ch)
    target = f"“{looks}”"
    if len(looks) == 1:
        target += f" ({char_label(looks)})"
    script = script_of(ch)
    if kind == "d":
        what = f"{label} is a dash or minus sign and looks like {target}"
    elif kind == "q" and looks not in ("'", '"', "`", "''"):
        what = f"{label} is a quotation mark, easily taken for {target}"
    elif kind == "l" and script not in ("Latin", "Common", "Inherited"):
        article = "an" if script[0] in "AEIOU" else "a"
        what = f"{label} is {article} {script} character that looks like {target}"
    else:
        what = f"{label} looks like {target}"
    message = (
        f"{what} ({_where(a, b)}). It is a different character, so the name is a "
        "different name from the one it looks like; check it was not pasted from a word "
        "processor or typed with the wrong keyboard (003 ch. 6, UTS #39)."
    )
    return _name_finding(_KIND_CODES[kind], "warning", message, a, b, reading,
                         _SRC_LOOKALIKE)


def _name_finding(code: str, severity: Severity, message: str, a: int, b: int,
                  reading: Reading | None, source: str) -> Finding:
    if reading is None:  # positions are in the (unreadable) input
        return Finding(code, severity, message, a, b, a, b, in_name=False, source=source)
    ia, ib = reading.input_span(a, b)
    return Finding(code, severity, message, a, b, ia, ib, in_name=True, source=source)


def _lookalike_letters(name: str, a: int, b: int, out: list[Finding],
                       reading: Reading | None) -> set[int]:
    """Lookalike letters of the word ``name[a:b]``; returns the positions reported."""
    if name.isascii() or name[a:b].isascii():
        return set()
    hits: list[tuple[int, tuple[str, str]]] = []
    has_latin = False  # a Latin letter that is not itself a lookalike
    all_look_latin = True  # every other letter looks like a Basic Latin letter or digit
    for i in range(a, b):
        ch = name[i]
        if ch < "\x80":
            has_latin = has_latin or ch.isalpha()
            continue
        cat = unicodedata.category(ch)
        if cat[0] == "M":
            continue
        hit = lookalike(ch)
        if hit is not None and hit[0] == "l":
            hits.append((i, hit))
            if cat[0] == "L" and not hit[1].isalnum():
                all_look_latin = False
        elif cat[0] == "L":
            if script_of(ch) == "Latin":
                has_latin = True
            else:
                all_look_latin = False
    reported: set[int] = set()
    for i, hit in hits:
        script = script_of(name[i])
        if script in _NEUTRAL or script == "Latin" or has_latin or all_look_latin:
            out.append(_lookalike_finding(name[i], hit, i, i + 1, reading))
            reported.add(i)
    return reported


class _Scanner:
    """One pass over a readable name, collecting name-level findings."""

    def __init__(self, reading: Reading, out: list[Finding]) -> None:
        self.reading = reading
        self.doi = reading.doi
        self.name = str(reading.doi)
        self.out = out
        self.suffix_start = len(self.doi.prefix) + 1
        self.flagged: set[str] = set()  # characters with a per-character warning

    def add(self, code: str, severity: Severity, message: str, a: int, b: int,
            source: str) -> None:
        self.out.append(_name_finding(code, severity, message, a, b, self.reading, source))

    def run(self) -> None:
        name = self.name
        self._reserved_start()
        self._length()
        plain = all(c in CROSSREF_SET for c in name)  # the common case: nothing to say
        if plain:
            return
        if not name.isascii():
            self._words()
            self._characters()
        self._escapes()
        self._spaces()
        self._crossref()

    def _reserved_start(self) -> None:
        suffix = self.doi.suffix
        if len(suffix) >= 2 and suffix[1] == "/":
            a = self.suffix_start
            self.add(
                "reserved-suffix-start", "warning",
                f"The suffix starts with “{suffix[:2]}” ({_where(a, a + 2)}): Z39.84 "
                "reserves suffixes that begin with one character followed by “/” for "
                "future use (002 §4.3).",
                a, a + 2, "002 §4.3",
            )

    def _length(self) -> None:
        name = self.name
        if len(name) <= LONG_NAME:
            return
        link_length = 0
        # Each byte of UTF-8 is at most three characters in a link: only past this bound
        # can the link pass LONG_LINK, so only then is it built.
        if len(name.encode("utf-8", "surrogatepass")) * 3 + 64 > LONG_LINK:
            from .presentation import to_url
            link_length = len(to_url(self.doi))
        if link_length > LONG_LINK:
            self.add(
                "very-long-link", "warning",
                f"The name has {len(name):,} characters and its doi.org link "
                f"{link_length:,}: past {LONG_LINK:,} characters many systems cut or "
                "reject links. 002 sets no limit, but recommends short suffixes (002 §4.3).",
                0, len(name), "002 §4.3",
            )
            return
        self.add(
            "long-name", "info",
            f"The name has {len(name):,} characters. 002 sets no limit on length but "
            "recommends keeping the suffix as short as possible, because people read and "
            "re-type DOI names (002 §4.3).",
            0, len(name), "002 §4.3",
        )

    def _words(self) -> None:
        name = self.name
        for a, b in _word_runs(name, self.suffix_start):
            for i in _lookalike_letters(name, a, b, self.out, self.reading):
                self.flagged.add(name[i])
            self._mixed(a, b)

    def _mixed(self, a: int, b: int) -> None:
        name = self.name
        if name[a:b].isascii():
            return
        common: frozenset[str] | None = None
        common_besides_latin: frozenset[str] | None = None
        seen: dict[str, int] = {}  # script -> first position
        counts: dict[str, int] = {}
        for i in range(a, b):
            ch = name[i]
            if ch < "\x80":
                if not ch.isalpha():
                    continue
                scripts: frozenset[str] | None = frozenset(("Latin",))
                sc = "Latin"
            else:
                if not unicodedata.category(ch).startswith("L"):
                    continue
                scripts = _script_set(ch)
                sc = script_of(ch)
            if scripts is None:
                continue
            seen.setdefault(sc, i)
            counts[sc] = counts.get(sc, 0) + 1
            common = scripts if common is None else common & scripts
            if sc != "Latin":
                common_besides_latin = scripts if common_besides_latin is None else \
                    common_besides_latin & scripts
        if common is None or common or len(seen) < 2:
            return
        if common_besides_latin is not None and common_besides_latin & _CJK:
            return  # Latin with Japanese, Korean or Chinese: UTS #39 "highly restrictive"
        main = max(counts, key=lambda s: (counts[s], -seen[s]))
        others = [s for s in sorted(seen, key=lambda s: seen[s]) if s != main]
        scripts_text = " and ".join([main, *others]) if len(others) == 1 else \
            ", ".join([main, *others[:-1]]) + f" and {others[-1]}"
        examples = "; ".join(f"{char_label(name[seen[s]])} is {s}" for s in others)
        self.add(
            "mixed-scripts", "warning",
            f"“{name[a:b]}” ({_where(a, b)}) mixes {scripts_text} letters in one word "
            f"({examples}). A word in one script with a few letters from another is the "
            "classic lookalike trap (003 ch. 6, UTS #39 mixed-script detection).",
            a, b, _SRC_LOOKALIKE,
        )

    def _characters(self) -> None:
        name = self.name
        rtl_first = -1
        rtl_count = 0
        i = self.suffix_start
        n = len(name)
        while i < n:
            ch = name[i]
            if ch < "\x80":
                i += 1
                continue
            cat = unicodedata.category(ch)
            if cat[0] == "M":
                j = i
                while j < n and unicodedata.category(name[j])[0] == "M":
                    self.flagged.add(name[j])
                    j += 1
                self._combining(i, j)
                i = j
                continue
            if unicodedata.bidirectional(ch) in ("R", "AL"):
                rtl_count += 1
                if rtl_first < 0:
                    rtl_first = i
            hit = lookalike(ch)
            if hit is not None and hit[0] != "l":
                self.flagged.add(ch)
                self.out.append(_lookalike_finding(ch, hit, i, i + 1, self.reading))
            i += 1
        if rtl_first >= 0:
            ch = name[rtl_first]
            more = f" and {rtl_count - 1} more" if rtl_count > 1 else ""
            self.add(
                "right-to-left", "info",
                f"The name holds right-to-left characters ({char_label(ch)} at "
                f"{_where(rtl_first, rtl_first + 1)}{more}): on screen they may not appear "
                "in the order they are stored, so copy the name rather than retype it "
                "(003 ch. 6, Unicode TR36).",
                rtl_first, rtl_first + 1, _SRC_LOOKALIKE,
            )

    def _combining(self, i: int, j: int) -> None:
        name = self.name
        base = i - 1 if i > self.suffix_start else i
        cluster = name[base:j]
        marks = ", ".join(char_label(m) for m in name[i:j])
        composed = unicodedata.normalize("NFC", cluster)
        if len(composed) < len(cluster):
            other = (f"It can also be stored precomposed as “{composed}” ("
                     + ", ".join(char_label(c) for c in composed) + ")")
        else:
            other = "Other spellings of the same text may exist (NFC/NFD)"
        joins = ("stands at the start of the suffix, so on screen it combines with the "
                 "“/” before it") if i == self.suffix_start else \
            "combines with the character before it"
        self.add(
            "combining-mark", "warning",
            f"{marks} at {_where(i, j)} {joins}. {other}; "
            "DOI names compare code points without Unicode normalization, so the two "
            "spellings are different names (003 ch. 2 note 1).",
            base, j, "003 ch.2 note 1",
        )

    def _escapes(self) -> None:
        name = self.name
        if "%" not in name:
            return
        for m in _ESCAPE.finditer(name, self.suffix_start):
            self.flagged.add("%")
            byte = int(m[0][1:], 16)
            meaning = f"“{chr(byte)}”" if 0x20 < byte < 0x7F else (
                "a control character" if byte < 0x21 or byte == 0x7F else
                "part of a UTF-8 encoded character")
            twice = f"%25{m[0][1:]}"
            self.add(
                "percent-escape-in-name", "warning",
                f"The name holds “{m[0]}” ({_where(m.start(), m.end())}), which is the "
                f"escape for {meaning}. Names are decoded once (001), so the text was "
                f"most likely encoded twice (“{twice}”); check the name against its "
                "source.",
                m.start(), m.end(), "001",
            )

    def _spaces(self) -> None:
        name = self.name
        i = name.find(" ", self.suffix_start)
        while i != -1:
            j = i
            while j < len(name) and name[j] == " ":
                j += 1
            self.flagged.add(" ")
            self.add(
                "space-in-name", "warning",
                f"The name holds a space at {_where(i, j)}. It is legal (002 §4.1) but "
                "is usually a line break or a copying error; in a link it must be written "
                "%20 (000).",
                i, j, "002 §4.1",
            )
            i = name.find(" ", j)

    def _crossref(self) -> None:
        name = self.name
        runs: list[tuple[int, int]] = []
        count: dict[str, int] = {}
        run_start = -1
        for i in range(self.suffix_start, len(name)):
            ch = name[i]
            if ch not in CROSSREF_SET and ch not in self.flagged:
                count[ch] = count.get(ch, 0) + 1
                if run_start < 0:
                    run_start = i
            elif run_start >= 0:
                runs.append((run_start, i))
                run_start = -1
        if run_start >= 0:
            runs.append((run_start, len(name)))
        told: set[str] = set()
        for a, b in runs:
            new = [c for c in dict.fromkeys(name[a:b]) if c not in told]
            if not new:
                continue  # every character of the run was named before
            told.update(new)
            precomposed = [c for c in new if unicodedata.decomposition(c)
                           and not unicodedata.decomposition(c).startswith("<")]
            spelled = ""
            if precomposed:
                c = precomposed[0]
                spelled = (
                    f" {'It' if b - a == 1 else f'“{c}”'} can also be spelled decomposed ("
                    + " + ".join(char_label(x) for x in unicodedata.normalize("NFD", c))
                    + "), which is a different name (003 ch. 2 note 1)."
                )
            if b - a == 1:
                ch = name[a]
                times = f"; it appears {count[ch]} times" if count[ch] > 1 else ""
                what = f"{char_label(ch)} ({_where(a, b)}{times}) is"
                it = "It is"
            else:
                shown = name[a:b] if b - a <= _RUN_SHOWN else name[a:a + _RUN_SHOWN] + "…"
                labels = ", ".join(char_label(c) for c in new[:3])
                if len(new) > 3:
                    labels += f" and {len(new) - 3} more"
                what = f"“{shown}” ({_where(a, b)}: {labels}) is"
                it = "They are"
            self.add(
                "outside-crossref-set", "info",
                f"{what} outside the characters Crossref approves for new suffixes "
                "(a–z, A–Z, 0–9 and - . _ ; ( ) /). "
                f"{it} allowed in a DOI name, but some systems mishandle "
                f"{'it' if b - a == 1 else 'them'}.{spelled}",
                a, b, _SRC_CROSSREF,
            )


# --- describe_code_points ------------------------------------------------------------------

def describe_code_points(text: str | Doi) -> list[CodePoint]:
    """Each code point of the DOI name in ``text``, with where it came from in the input.

    For the code-point view of the page (003 ch. 2 note 2 and ch. 6: only code points
    tell lookalike names apart). When ``text`` cannot be read as a DOI name the input's
    own characters are listed, with ``in_name=False``. Never raises for a ``str``.
    """
    try:
        reading = read(text)
    except DoiError:
        assert isinstance(text, str)
        return [_code_point(ch, i, i + 1, False) for i, ch in enumerate(text)]
    name = str(reading.doi)
    spans = reading.spans
    out: list[CodePoint] = []
    for i, ch in enumerate(name):
        a, b = spans[i] if i < len(spans) else reading.input_span(i, i + 1)
        out.append(_code_point(ch, a, b, True))
    return out


def _code_point(ch: str, a: int, b: int, in_name: bool) -> CodePoint:
    label = char_label(ch)
    hit = lookalike(ch)
    return CodePoint(
        ch, f"U+{ord(ch):04X}", label.split(" ", 1)[1], unicodedata.category(ch),
        script_of(ch), a, b, hit[1] if hit is not None else "", in_name,
    )
