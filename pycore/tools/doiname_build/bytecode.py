"""Compiling the standard library modules the site's boot imports, and the core as
micropip installed it, to ``.pyc``.

Runs inside Pyodide's own Python (``compile-stdlib.mjs`` executes this file there), so
the bytecode carries that interpreter's magic number; only the standard library, no
relative imports. Host tests import it too (the docstring stripping is the same there).

What is written, and why (bench/REPORT.md has the figures):

* Each compiled module's ``NAME.py`` is replaced by ``NAME.pyc`` in the zip. zipimport
  tries ``.pyc`` before ``.py`` and, with no source beside it, uses it without any
  staleness check. The header is PEP 552's unchecked hash-based form (the hash of the
  source it was made from, never compared at import): reproducible (no timestamp), and
  it records which source it came from, which the build's test compares.
* Docstrings are left out (module, class and function docstrings: what ``-OO`` does to
  them, which the standard library supports, so ``__doc__`` is None there), except a
  dataclass's own: ``@dataclass`` gives a class without one a docstring made from
  ``inspect.signature`` of the class, at import (in Pyodide, 7% of the time
  ``import doiname.bridge`` took, 2026-11-27). Asserts and ``__debug__`` stay as they
  are (``optimize=0``: not ``-OO``).
* The interpreter that compiles runs with ``PYTHONNODEBUGRANGES``: line numbers are kept,
  column ranges are not (they only draw a traceback's ``^^^`` under a source line, and
  these modules have no source lines to show).

So a traceback through a compiled standard library frame shows its file and line number
but no source line.

The core is shipped the same way (``installed_zip``): the files micropip's install of the
core's wheel wrote to site-packages, each ``.py`` replaced by its ``.pyc`` (a sourceless
module in the package's own directory, which the path finder loads without any check), in
a zip the worker unpacks into site-packages; the wheel itself stays on the site for
micropip. That zip's entries are stored: the build gzips it whole (the modules compress
better together than one by one), and the worker undoes the gzip as it arrives.
"""

from __future__ import annotations

import ast
import base64
import csv
import hashlib
import importlib.util
import io
import marshal
import os
import zipfile

#: PEP 552 flags: hash-based (bit 0), source not checked (bit 1 clear).
UNCHECKED_HASH = 0b01


def is_dataclass_def(node: ast.AST) -> bool:
    """Whether ``node`` is a class statement decorated with ``dataclass`` (by that name,
    called or not, plain or as an attribute such as ``dataclasses.dataclass``)."""
    if not isinstance(node, ast.ClassDef):
        return False
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = (target.id if isinstance(target, ast.Name)
                else target.attr if isinstance(target, ast.Attribute) else "")
        if name == "dataclass":
            return True
    return False


def strip_docstrings(tree: ast.Module) -> ast.Module:
    """``tree`` without module, class and function docstrings (a body left empty gets
    ``pass``), a dataclass's own docstring kept; nothing else changes, positions
    included."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef) or is_dataclass_def(node):
            continue
        body = node.body
        first = body[0] if body else None
        if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            rest = body[1:]
            if not rest:
                rest = [ast.copy_location(ast.Pass(), first)]
            node.body = rest
    return tree


def has_column_ranges() -> bool:
    """Whether this interpreter's compiler records column ranges (PYTHONNODEBUGRANGES
    unset)."""
    code = compile("x = 1\n", "<probe>", "exec", dont_inherit=True)
    return any(col is not None for _, _, col, _ in code.co_positions())


def pyc(source: bytes, filename: str) -> bytes:
    """``source`` compiled by this interpreter, docstrings left out, as an unchecked
    hash-based ``.pyc`` whose code objects name ``filename``."""
    tree = strip_docstrings(ast.parse(source, filename))
    code = compile(tree, filename, "exec", dont_inherit=True, optimize=0)
    header = (importlib.util.MAGIC_NUMBER + UNCHECKED_HASH.to_bytes(4, "little")
              + importlib.util.source_hash(source))
    return header + marshal.dumps(code)


def compiled_zip(data: bytes, modules: dict[str, str], archive: str) -> bytes:
    """The zip ``data`` with each module of ``modules`` (name -> its ``.py`` entry) as a
    ``.pyc`` in that entry's place; every entry deflated at level 9, in the same order.
    ``archive`` is where the runtime mounts the zip (code objects name their file there,
    as zipimport's own compiling would). Raises when this interpreter records column
    ranges (run it with PYTHONNODEBUGRANGES) or an entry is missing."""
    if has_column_ranges():
        raise RuntimeError("compile with PYTHONNODEBUGRANGES=1 (column ranges off)")
    wanted = set(modules.values())
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
        missing = wanted - set(src.namelist())
        if missing:
            raise RuntimeError(f"not in the standard library zip: {sorted(missing)}")
        for info in src.infolist():
            body = src.read(info)
            name = info.filename
            if name in wanted:
                body = pyc(body, f"{archive}/{name}")
                name += "c"
            entry = zipfile.ZipInfo(name, date_time=info.date_time)
            entry.external_attr = info.external_attr
            entry.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(entry, body, compresslevel=9)
    return out.getvalue()


def _record_hash(data: bytes) -> str:
    """A RECORD file's hash of ``data`` (PEP 376 / the wheel spec: urlsafe base64 sha256)."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def installed_zip(site_packages: str, dist_info: str) -> bytes:
    """The files an install wrote to ``site_packages`` for one distribution (those its
    ``dist_info/RECORD`` names, inside site-packages, and every file of ``dist_info``: an
    installer's own records, INSTALLER among them, are not in RECORD), as a zip to unpack
    there again:
    each ``.py`` compiled as by :func:`pyc` (its code objects name the ``.py`` in
    site-packages) and stored as a sourceless ``.pyc`` in its place, the other files as
    they are, ``RECORD`` rewritten to name what is shipped; entries in RECORD's order (the
    rest of ``dist_info`` after them, by name), stored (the build compresses the archive
    whole). Raises when column ranges are on (PYTHONNODEBUGRANGES) or a file RECORD names
    is missing."""
    if has_column_ranges():
        raise RuntimeError("compile with PYTHONNODEBUGRANGES=1 (column ranges off)")
    record_name = f"{dist_info}/RECORD"
    with open(os.path.join(site_packages, record_name), encoding="utf-8", newline="") as f:
        names = [row[0] for row in csv.reader(f) if row]
    records = sorted(f"{dist_info}/{n}"
                     for n in os.listdir(os.path.join(site_packages, dist_info)))
    names += [n for n in records if n not in names]
    files: list[tuple[str, bytes]] = []
    for name in names:
        # RECORD itself is written below; files outside site-packages (scripts) and
        # caches of bytecode are not the package's.
        if name == record_name or name.startswith(("/", "../")) or "__pycache__" in name:
            continue
        if not os.path.isfile(os.path.join(site_packages, name)):
            raise RuntimeError(f"{name} is in RECORD but not installed")
        with open(os.path.join(site_packages, name), "rb") as f:
            body = f.read()
        if name.endswith(".py"):
            body = pyc(body, f"{site_packages}/{name}")
            name += "c"
        files.append((name, body))
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for name, body in files:
        writer.writerow([name, _record_hash(body), len(body)])
    writer.writerow([record_name, "", ""])
    files.append((record_name, record.getvalue().encode("utf-8")))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as dst:
        for name, body in files:
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            dst.writestr(entry, body)
    return out.getvalue()
