"""An import with the work it does the same way every time done beforehand: the build
records it in the runtime's own Python (:func:`record`) and the site's worker imports the
core with that record (:func:`imported`).

Two kinds of work are recorded, both pure functions of their text for one version of
Python: the code a ``@dataclass`` writes for its class (``dataclasses`` compiles a source
text with ``exec``; recorded: that text's code object) and a regular expression's
compiled program (``re._compiler.compile`` parses and compiles a pattern; recorded: the
arguments it hands ``_sre.compile``). In Pyodide those are about half of the time
``import doiname.bridge`` takes in a browser (dataclasses 57-109 ms and patterns 30-56 ms
of 177-326 ms, Chromium, 2026-11-27). What is applied is what the same Python would have
computed: a text or pattern not in the record, a record of another Python version (or
format), or a runtime whose ``dataclasses`` or ``re`` lacks what is used here imports
the plain way. The record is written next to this module as ``warm.bin`` by the build
(the wheel has none: an import from it is the plain one).
"""

from __future__ import annotations

import builtins
import dataclasses
import importlib
import marshal
import os
import sys
from collections.abc import Callable
from types import CodeType, ModuleType
from typing import Any

__all__ = ["FORMAT", "RECORD", "imported", "record", "seen"]

#: The record's format; a record of another format is not used.
FORMAT = 1
#: Where the build writes the record (beside this module).
RECORD = "warm.bin"
#: What the last :func:`imported` took from the record (``dataclass``, ``pattern``) and
#: computed itself (``dataclass-missed``, ``pattern-missed``).
seen: dict[str, int] = {}

_Compile = Callable[..., Any]
#: A pattern's program: ("str", pattern, flags) -> the arguments of ``_sre.compile``.
_Programs = dict[tuple[str, str, int], tuple[Any, ...]]


def _stamp() -> tuple[str, str, int]:
    """What a record must have been made with: this Python (its version and its bytecode's
    cache tag) and this format."""
    return sys.version, str(sys.implementation.cache_tag), FORMAT


def _compiled(text: str) -> CodeType:
    """``text`` compiled as ``dataclasses``' own ``exec(text, ...)`` compiles it: no
    ``__future__`` flag inherited (that module has none; this one has ``annotations``)."""
    return builtins.compile(text, "<string>", "exec", dont_inherit=True)


def _compiler() -> Any:
    """``re``'s compiler module (``re._compiler``), or None in a Python without it."""
    try:
        return importlib.import_module("re._compiler")
    except ImportError:
        return None


def _hooks_present() -> bool:
    """Whether ``dataclasses`` and ``re`` have what this module wraps."""
    compiler = _compiler()
    return callable(getattr(compiler, "compile", None)) and hasattr(compiler, "_sre") \
        and hasattr(dataclasses, "dataclass")


def _wrapped(module: str, on_exec: Callable[[str, dict[str, Any], Any], None],
             on_compile: Callable[[_Compile, Any, int], Any]) -> ModuleType:
    """``module`` imported with ``dataclasses``' ``exec`` and ``re._compiler.compile``
    replaced by ``on_exec`` and ``on_compile`` (given the real one), put back after."""
    compiler = _compiler()
    real = compiler.compile
    names = vars(dataclasses)  # its ``exec`` is the builtin, looked up as a global
    missing = object()
    had = names.get("exec", missing)  # (a global ``exec`` someone else put there stays)
    names["exec"] = on_exec
    compiler.compile = lambda p, flags=0: on_compile(real, p, flags)
    try:
        return importlib.import_module(module)
    finally:
        compiler.compile = real
        if had is missing:
            del names["exec"]
        else:
            names["exec"] = had


def record(module: str) -> bytes:
    """Import ``module`` (not imported yet) and return the record of its import: each
    dataclass's code and each pattern's program, with this Python's stamp (marshal)."""
    codes: dict[str, CodeType] = {}
    programs: _Programs = {}

    def on_exec(text: str, globals_: dict[str, Any], namespace: Any) -> None:
        code = _compiled(text)
        codes[text] = code
        builtins.exec(code, globals_, namespace)

    def on_compile(real: _Compile, pattern: Any, flags: int) -> Any:
        if not isinstance(pattern, str):
            return real(pattern, flags)
        compiler = _compiler()
        sre = compiler._sre
        got: list[tuple[Any, ...]] = []

        class Recording:
            def __getattr__(self, name: str) -> Any:
                return getattr(sre, name)

            def compile(self, *args: Any) -> Any:
                got.append(args)
                return sre.compile(*args)

        compiler._sre = Recording()
        try:
            compiled = real(pattern, flags)
        finally:
            compiler._sre = sre
        if len(got) == 1:  # (marshal takes ints, not RegexFlag)
            text, final, code, groups, groupindex, indexgroup = got[0]
            programs[("str", pattern, int(flags))] = (
                text, int(final), [int(c) for c in code], int(groups), dict(groupindex),
                tuple(indexgroup))
        return compiled

    if not _hooks_present():
        importlib.import_module(module)
        return marshal.dumps((_stamp(), {}, {}))
    _wrapped(module, on_exec, on_compile)
    return marshal.dumps((_stamp(), codes, programs))


def _load(data: bytes) -> tuple[dict[str, CodeType], _Programs] | None:
    """The record's codes and programs, or None when it is not this Python's."""
    try:
        stamp, codes, programs = marshal.loads(data)
        fits = tuple(stamp) == _stamp()
    except (ValueError, EOFError, TypeError):
        return None
    if not fits or not isinstance(codes, dict) or not isinstance(programs, dict):
        return None
    return codes, programs


def imported(module: str, data: bytes | None = None) -> ModuleType:
    """``module`` imported with the record ``data`` (default: :data:`RECORD` beside this
    module, when there is one) applied; the plain import when there is none or it does
    not fit. :data:`seen` says what was taken from it."""
    seen.clear()
    if data is None:
        path = os.path.join(os.path.dirname(__file__), RECORD)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                data = f.read()
    loaded = _load(data) if data is not None and _hooks_present() else None
    if loaded is None or module in sys.modules:
        return importlib.import_module(module)
    codes, programs = loaded
    sre = _compiler()._sre

    def on_exec(text: str, globals_: dict[str, Any], namespace: Any) -> None:
        code = codes.get(text)
        key = "dataclass" if code is not None else "dataclass-missed"
        seen[key] = seen.get(key, 0) + 1
        builtins.exec(code if code is not None else _compiled(text), globals_, namespace)

    def on_compile(real: _Compile, pattern: Any, flags: int) -> Any:
        if not isinstance(pattern, str):  # (bytes patterns are not recorded)
            return real(pattern, flags)
        args = programs.get(("str", pattern, int(flags)))
        key = "pattern" if args is not None else "pattern-missed"
        seen[key] = seen.get(key, 0) + 1
        return sre.compile(*args) if args is not None else real(pattern, flags)

    return _wrapped(module, on_exec, on_compile)
