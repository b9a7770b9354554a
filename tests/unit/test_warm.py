"""doiname.warm: an import with its dataclasses' code and its patterns' programs recorded
beforehand gives the same module as the plain import, takes them from the record, and
falls back to the plain import for a record it cannot use.

Each import runs in a fresh interpreter (the module, ``re``'s cache and the dataclasses
must not be there already)."""

from __future__ import annotations

import json
import marshal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: A module with what the core's modules have: frozen, slotted dataclasses (defaults,
#: a factory, a method, inheritance) and patterns (named groups, flags, bytes).
CASE = textwrap.dedent('''
    from __future__ import annotations
    import dataclasses, re
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

    NAME = re.compile(r"(?P<prefix>10\\.\\d{4,9})/(?P<suffix>\\S+)", re.I)
    WORDS = re.compile(r"""
        (?P<word>[a-z]+)   # a word
        \\s*               # space
    """, re.X | re.I)
    RAW = re.compile(rb"\\x00+")
''')

OBSERVE = textwrap.dedent('''
    import dataclasses, json, sys
    import warmcase as m
    p = m.Point(1)
    n = m.Named(3, name="z")
    out = {
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
        "raw": m.RAW.sub(b"-", b"a\\x00\\x00b").decode(),
    }
    try:
        p.x = 5
    except dataclasses.FrozenInstanceError:
        out["frozen"] = True
    print(json.dumps(out, sort_keys=True))
''')


def _run(tmp_path: Path, code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, check=False,
                          env={"PYTHONPATH": f"{tmp_path}:{ROOT / 'pycore'}"})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def case(tmp_path: Path) -> Path:
    (tmp_path / "warmcase.py").write_text(CASE, encoding="utf-8")
    _run(tmp_path, "import doiname.warm as w\n"
                   "open('record.bin', 'wb').write(w.record('warmcase'))")
    return tmp_path


def _observe_with(tmp_path: Path, record: str) -> tuple[dict[str, object], dict[str, int]]:
    out = _run(tmp_path, "import json, doiname.warm as w\n"
                         f"w.imported('warmcase', open({record!r}, 'rb').read())\n"
                         "print(json.dumps(w.seen))\n" + OBSERVE).splitlines()
    return json.loads(out[1]), json.loads(out[0])


def test_the_recorded_import_is_the_plain_one_without_the_work(case: Path) -> None:
    plain = json.loads(_run(case, OBSERVE))
    warmed, seen = _observe_with(case, "record.bin")
    assert warmed == plain
    assert plain["frozen"] is True
    # Every dataclass's code and every str pattern's program came from the record.
    assert seen.get("dataclass", 0) >= 3 and "dataclass-missed" not in seen
    assert seen.get("pattern", 0) >= 2 and "pattern-missed" not in seen


def test_a_record_of_another_python_or_none_at_all_gives_the_plain_import(case: Path) -> None:
    plain = json.loads(_run(case, OBSERVE))
    stamp, codes, programs = marshal.loads((case / "record.bin").read_bytes())
    (case / "other.bin").write_bytes(marshal.dumps((("2.7.18", *stamp[1:]), codes, programs)))
    (case / "junk.bin").write_bytes(b"not a record")
    for record in ("other.bin", "junk.bin"):
        warmed, seen = _observe_with(case, record)
        assert warmed == plain
        assert seen == {}


def test_a_text_or_pattern_the_record_lacks_is_computed(case: Path) -> None:
    plain = json.loads(_run(case, OBSERVE))
    stamp, codes, programs = marshal.loads((case / "record.bin").read_bytes())
    (case / "part.bin").write_bytes(marshal.dumps(
        (stamp, dict(list(codes.items())[1:]), dict(list(programs.items())[1:]))))
    warmed, seen = _observe_with(case, "part.bin")
    assert warmed == plain
    assert seen.get("dataclass-missed", 0) >= 1 and seen.get("pattern-missed", 0) >= 1


def test_the_wrapped_functions_are_put_back(case: Path) -> None:
    out = _run(case, "import dataclasses, re, doiname.warm as w\n"
                     "before = re._compiler.compile\n"
                     "w.imported('warmcase', open('record.bin', 'rb').read())\n"
                     "print(re._compiler.compile is before, 'exec' in vars(dataclasses))")
    assert out == "True False"
