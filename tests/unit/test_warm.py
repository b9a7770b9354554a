"""doiname.warm: an import with its dataclasses' code and its patterns' programs recorded
beforehand gives the same module as the plain import, takes them from the record, and
falls back to the plain import for a record it cannot use.

Each import is of a module not imported before (the same text under a new name), with
``re``'s cache emptied first, so that every dataclass and pattern is made by that import.
Runs in host Python and in Pyodide's (the runtime the record is made for)."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import marshal
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from doiname import warm

#: A module with what the core's modules have: frozen, slotted dataclasses (defaults,
#: a factory, a method, inheritance) and patterns (named groups, flags, bytes).
CASE = textwrap.dedent('''
    from __future__ import annotations
    import re
    from dataclasses import dataclass, field

    @dataclass(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 2
        tags: tuple[str, ...] = ()
        notes: list[str] = field(default_factory=list, compare=False)

        def total(self) -> int:
            return self.x + self.y

    @dataclass(frozen=True, slots=True)
    class Named(Point):
        name: str = "n"

    @dataclass(order=True)
    class Plain:
        a: int
        b: str = "b"

    NAME = re.compile(r"(?P<prefix>10\\.\\d{4,9})/(?P<suffix>\\S+)(?#warm-case)", re.I)
    WORDS = re.compile(r"""
        (?P<word>[a-z]+)   # a word (warm-case)
        \\s*               # space
    """, re.X | re.I)
    RAW = re.compile(rb"\\x00+(?#warm-case)")
''')

_names = itertools.count()


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A function that writes CASE under a new module name and returns that name."""
    monkeypatch.syspath_prepend(str(tmp_path))
    made: list[str] = []

    def new() -> str:
        name = f"warmcase_{next(_names)}"
        (tmp_path / f"{name}.py").write_text(CASE, encoding="utf-8")
        importlib.invalidate_caches()
        re.purge()
        made.append(name)
        return name

    yield new
    for name in made:
        sys.modules.pop(name, None)


def _observe(m: ModuleType) -> dict[str, object]:
    p = m.Point(1)
    n = m.Named(3, name="z")
    out: dict[str, object] = {
        "repr": [repr(p), repr(n), repr(m.Plain(1))],
        "eq": [p == m.Point(1), p == m.Point(1, notes=["x"]), hash(p) == hash(m.Point(1))],
        "order": m.Plain(1) < m.Plain(2),
        "total": n.total(),
        "fields": [f.name for f in dataclasses.fields(m.Named)],
        "slots": list(m.Point.__slots__),
        "init": str(m.Point.__init__.__annotations__),
        "match": m.NAME.match("10.1000/ABC").groupdict(),
        "groupindex": dict(m.NAME.groupindex),
        "flags": [m.NAME.flags, m.WORDS.flags, m.RAW.flags],
        "words": [x.group("word") for x in m.WORDS.finditer("Ab cd ef")],
        "raw": m.RAW.sub(b"-", b"a\x00\x00b"),
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 5
    return out


def _plain(fresh: Any) -> dict[str, object]:
    return _observe(importlib.import_module(fresh()))


def test_the_recorded_import_is_the_plain_one_without_the_work(fresh: Any) -> None:
    record = warm.record(fresh())
    plain = _plain(fresh)
    warmed = _observe(warm.imported(fresh(), record))
    assert warmed == plain
    # Every dataclass's code and every str pattern's program came from the record.
    assert warm.seen.get("dataclass", 0) >= 3 and "dataclass-missed" not in warm.seen
    assert warm.seen.get("pattern", 0) >= 2 and "pattern-missed" not in warm.seen


def test_a_record_of_another_python_or_none_at_all_gives_the_plain_import(fresh: Any) -> None:
    stamp, codes, programs = marshal.loads(warm.record(fresh()))
    plain = _plain(fresh)
    for record in (marshal.dumps((("2.7.18", *stamp[1:]), codes, programs)), b"no record",
                   marshal.dumps((5, codes, programs)), marshal.dumps([stamp, codes])):
        assert _observe(warm.imported(fresh(), record)) == plain
        assert warm.seen == {}


def test_a_text_or_pattern_the_record_lacks_is_computed(fresh: Any) -> None:
    stamp, codes, programs = marshal.loads(warm.record(fresh()))
    part = marshal.dumps((stamp, dict(list(codes.items())[1:]), dict(list(programs.items())[1:])))
    plain = _plain(fresh)
    # (the code computed here must not take this module's own __future__ flags)
    assert _observe(warm.imported(fresh(), part)) == plain
    assert warm.seen.get("dataclass-missed", 0) >= 1 and warm.seen.get("pattern-missed", 0) >= 1


def test_the_wrapped_functions_are_put_back(fresh: Any) -> None:
    compiler = importlib.import_module("re._compiler")
    before = compiler.compile
    record = warm.record(fresh())
    warm.imported(fresh(), record)
    assert compiler.compile is before
    assert "exec" not in vars(dataclasses)


def test_a_global_exec_that_was_there_stays(fresh: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def theirs(*args: Any) -> None:
        exec(*args)

    monkeypatch.setitem(vars(dataclasses), "exec", theirs)
    record = warm.record(fresh())
    assert vars(dataclasses)["exec"] is theirs
    warm.imported(fresh(), record)
    assert vars(dataclasses)["exec"] is theirs
