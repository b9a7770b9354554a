"""Rules for characters that pass for others (003 ch. 6, UTS #39): lookalike letters,
dashes, quotes, slashes and spaces, and words that mix scripts.

"Two DOI names rendering to the same sequence of glyphs can identify referents" that
differ (003 ch. 6). Each rule names the character, where it is, and what it looks like;
the tables come from ``confusables.txt`` and the UCD (:mod:`doiname.unicode_tables`).
"""

from __future__ import annotations

import unicodedata

from ..syntax import char_label
from ..unicode_tables import NEUTRAL_SCRIPTS, lookalike, script_of, script_set
from .subject import Subject, where

__all__ = ["QUIET_LATIN", "lookalike_message", "quiet_latin", "rule_lookalike_characters",
           "rule_lookalike_letters", "rule_mixed_scripts", "word_runs"]

_KIND_CODES = {
    "d": "lookalike-dash",
    "q": "lookalike-quote",
    "/": "lookalike-slash",
    "s": "lookalike-space",
    "l": "lookalike-letter",
    "o": "lookalike-character",
}
# Latin with Han and kana (or Hangul, or Bopomofo) is how Japanese, Korean and Chinese
# are written: UTS #39 §5.1's augmented sets, at its "highly restrictive" level.
_CJK = frozenset({"Jpan", "Kore", "Hanb"})


#: The Latin letters of Latin-1, Latin Extended-A and B and Latin Extended Additional
#: that none of this module's rules, nor those of combining marks and right-to-left
#: letters, names (:func:`quiet_latin`, what the Unicode tables say: written here as a
#: pattern's ranges, so that no table is decoded before a name outside ASCII is checked;
#: tests/unit/test_findings.py compares the two). A word of such letters and ASCII is one
#: script, with nothing that looks like another character (003 ch. 6, UTS #39): a name
#: whose characters outside ASCII are all among them gets no lookalike, mixed-script,
#: combining-mark or right-to-left finding (the rules' precondition).
QUIET_LATIN = (
    "\u00c0-\u00c5\u00c7-\u00d6\u00d8-\u00e5\u00e7-\u00f6\u00f8-\u0130\u0134-\u0148"
    "\u014a-\u0151\u0154-\u017e\u0180\u0182-\u0183\u0185-\u0186\u0188-\u0189"
    "\u018b-\u018c\u018e-\u0192\u0194-\u0195\u0197\u0199-\u01a3\u01a5\u01a8-\u01ab"
    "\u01ad-\u01b2\u01b4-\u01b6\u01b8-\u01bb\u01be-\u01bf\u01c2\u01c4-\u01c6"
    "\u01cd-\u01f0\u01f4-\u021b\u021d-\u0221\u0224-\u0240\u0242-\u024f\u1e00-\u1e99"
    "\u1e9b-\u1e9c\u1e9e-\u1efe"
)


def quiet_latin() -> str:
    """The letters of U+00C0-U+024F and U+1E00-U+1EFF that none of the lookalike rules
    names: a letter (general category L) whose Script and Script_Extensions are Latin,
    not a lookalike of Basic Latin, written left to right (what :data:`QUIET_LATIN`
    holds)."""
    out = []
    for cp in (*range(0xC0, 0x250), *range(0x1E00, 0x1F00)):
        ch = chr(cp)
        if (unicodedata.category(ch)[0] == "L" and script_of(ch) == "Latin"
                and script_set(ch) == frozenset(("Latin",)) and lookalike(ch) is None
                and unicodedata.bidirectional(ch) == "L"):
            out.append(ch)
    return "".join(out)


def word_runs(name: str, start: int) -> list[tuple[int, int]]:
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


def _report(s: Subject, ch: str, hit: tuple[str, str], a: int, b: int) -> None:
    """One lookalike finding for each character, however often it occurs: what it is,
    what it looks like, where (its other places are added to it; the repair of every
    lookalike at once is made by :func:`doiname.check`, once)."""
    code = _KIND_CODES[hit[0]]
    if s.again(code, ch, a):
        return
    if s.full:
        s.count(code)
        return
    s.first(code, ch, a)
    s.add(code, lookalike_message(ch, hit, where(a, b)), a, b)


def lookalike_message(ch: str, hit: tuple[str, str], at: str) -> str:
    """What a lookalike character is and what it looks like, ``at`` its places."""
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
    return (f"{what} ({at}). It is a different character, so the name is a different "
            "name from the one it looks like; check it was not pasted from a word processor "
            "or typed with the wrong keyboard.")


def rule_lookalike_letters(s: Subject, a: int, b: int) -> set[int]:
    """Letters and digits of the word ``name[a:b]`` that look Latin: reported when the
    character is itself a Latin or Common compatibility form (fullwidth, mathematical
    bold, KELVIN SIGN), when its word also holds Latin letters, or when every letter of
    its word looks Latin (a whole-script confusable such as Cyrillic ``сор``); a word
    such as ``Россия`` is not a lookalike. Returns the positions reported."""
    name = s.name
    if name[a:b].isascii():
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
        if script in NEUTRAL_SCRIPTS or script == "Latin" or has_latin or all_look_latin:
            _report(s, name[i], hit, i, i + 1)
            reported.add(i)
    return reported


def rule_lookalike_characters(s: Subject, start: int) -> None:
    """Characters other than letters (dashes, quotes, slashes, spaces, ...) that look like
    Basic Latin text, one finding each; combining marks are left to their own rule."""
    name = s.name
    for i in range(start, len(name)):
        ch = name[i]
        if ch < "\x80":
            continue
        hit = lookalike(ch)
        if hit is not None and hit[0] != "l" and not unicodedata.category(ch).startswith("M"):
            s.flagged.add(ch)
            _report(s, ch, hit, i, i + 1)


def rule_mixed_scripts(s: Subject, a: int, b: int) -> None:
    """A word (a run of letters, marks and digits) whose letters share no script, with
    Script_Extensions and UTS #39's augmentation; Latin with Han and kana passes."""
    name = s.name
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
            scripts = script_set(ch)
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
        return
    if s.full:
        s.count("mixed-scripts")
        return
    main = max(counts, key=lambda x: (counts[x], -seen[x]))
    others = [x for x in sorted(seen, key=lambda x: seen[x]) if x != main]
    scripts_text = " and ".join([main, *others]) if len(others) == 1 else \
        ", ".join([main, *others[:-1]]) + f" and {others[-1]}"
    examples = "; ".join(f"{char_label(name[seen[x]])} is {x}" for x in others)
    word = name[a:b] if b - a <= 60 else name[a:a + 60] + "…"
    s.add("mixed-scripts",
          f"“{word}” ({where(a, b)}) mixes {scripts_text} letters in one word ({examples}). "
          "A word in one script with a few letters from another is the classic lookalike "
          "trap.", a, b)
