"""doiname_build.bytecode on the host's Python: docstrings are all it leaves out (asserts,
``__debug__``, line numbers and every other statement stay), the ``.pyc`` header is PEP
552's unchecked hash form for this interpreter, and zipimport runs a zip it rewrote from
the ``.pyc`` alone, without the source. (The site's own zip, compiled by Pyodide's Python,
is checked against the boot in tests/e2e/test_stdlib_pyc.py.)"""

from __future__ import annotations

import ast
import importlib.util
import io
import json
import marshal
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from types import CodeType, ModuleType

import pytest

from doiname_build import bytecode, paths

SOURCE = textwrap.dedent('''\
    """The module's docstring."""
    from __future__ import annotations

    import dataclasses
    import sys
    from dataclasses import dataclass

    class Kept:
        """A class docstring."""

        def method(self) -> str:
            """A method docstring."""
            return "method"

        async def coro(self) -> int:
            """An async docstring."""
            return 1

    class OnlyDoc:
        """Nothing but a docstring."""

    def only_doc():
        """Nothing but a docstring."""

    def outer():
        """Outer."""
        def inner():
            """Inner."""
            return "not a docstring, a value"
        "a string statement that is not first stays"
        return inner

    def checks(x):
        assert x > 0, "x must be positive"
        return __debug__

    def fails():
        raise ValueError("raised")

    @dataclasses.dataclass(frozen=True)
    class Record:
        """A dataclass keeps its docstring."""
        x: int

    @dataclass
    class Plain:
        """So does one decorated by the bare name."""

        def method(self) -> None:
            """A dataclass's method docstring goes."""
    ''')


def _namespace(code: CodeType) -> dict[str, object]:
    """What running ``code`` as the module ``sample`` defines (registered while it runs:
    ``@dataclass`` looks its module up)."""
    module = ModuleType("sample")
    del module.__doc__  # exec sets none where the code has no docstring
    sys.modules["sample"] = module
    try:
        exec(code, module.__dict__)
    finally:
        del sys.modules["sample"]
    return {k: v for k, v in module.__dict__.items() if k != "__builtins__"}


def _stripped(source: str, filename: str = "sample.py") -> CodeType:
    tree = bytecode.strip_docstrings(ast.parse(source, filename))
    return compile(tree, filename, "exec", dont_inherit=True, optimize=0)


def test_docstrings_are_left_out_and_nothing_else() -> None:
    ns = _namespace(_stripped(SOURCE))
    kept, only, outer, checks, fails = (ns[n] for n in ("Kept", "OnlyDoc", "outer", "checks",
                                                         "fails"))
    assert ns.get("__doc__") is None
    for obj in (kept, kept.method, kept.coro, only, ns["only_doc"], outer, outer()):  # type: ignore[attr-defined,operator]
        assert obj.__doc__ is None, obj
    # a dataclass keeps its own (else @dataclass computes one from the signature at import)
    assert ns["Record"].__doc__ == "A dataclass keeps its docstring."
    assert ns["Plain"].__doc__ == "So does one decorated by the bare name."
    assert ns["Plain"].method.__doc__ is None  # type: ignore[attr-defined]
    assert kept().method() == "method"  # type: ignore[operator]
    assert ns["only_doc"]() is None  # type: ignore[operator]
    assert outer()() == "not a docstring, a value"  # type: ignore[operator]
    kept_tree = ast.dump(bytecode.strip_docstrings(ast.parse(SOURCE)))
    assert "a string statement that is not first stays" in kept_tree
    assert "A method docstring." not in kept_tree
    # asserts and __debug__ as the source says (optimize=0, not -OO)
    assert checks(1) is True  # type: ignore[operator]
    with pytest.raises(AssertionError, match="x must be positive"):
        checks(0)  # type: ignore[operator]
    # line numbers unchanged
    original = _namespace(compile(SOURCE, "sample.py", "exec", dont_inherit=True))
    assert original["__doc__"] == "The module's docstring."
    lines = []
    for f in (fails, original["fails"]):
        with pytest.raises(ValueError) as err:
            f()  # type: ignore[operator]
        lines.append(err.tb.tb_next.tb_lineno if err.tb.tb_next else None)
    assert lines[0] == lines[1] == SOURCE.splitlines().index('    raise ValueError("raised")') + 1


def test_code_without_docstrings_is_compiled_as_from_source() -> None:
    """Stripping touches only docstrings: a module without any compiles to equal code
    (this build package's own paths.py has only a module docstring: the rest is equal)."""
    no_docs = "import os\n\ndef f(x):\n    return os.sep + str(x)\n\nclass C:\n    y = 1\n"
    assert _stripped(no_docs) == compile(no_docs, "sample.py", "exec", dont_inherit=True)
    source = (paths.TOOLS / "doiname_build" / "paths.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    assert isinstance(tree.body[0], ast.Expr)
    tree.body = tree.body[1:]  # its one docstring, by hand
    assert _stripped(source) == compile(tree, "sample.py", "exec", dont_inherit=True)


def test_pyc_header_is_unchecked_hash_for_this_interpreter() -> None:
    data = bytecode.pyc(SOURCE.encode(), "/lib/sample.py")
    assert data[:4] == importlib.util.MAGIC_NUMBER
    assert int.from_bytes(data[4:8], "little") == 0b01
    assert data[8:16] == importlib.util.source_hash(SOURCE.encode())
    code = marshal.loads(data[16:])
    assert code.co_filename == "/lib/sample.py"
    assert "__doc__" not in _namespace(code)  # no docstring: exec sets none
    assert "__doc__" in _namespace(compile(SOURCE, "sample.py", "exec"))


def _zip(entries: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return out.getvalue()


def test_compiled_zip_needs_column_ranges_off() -> None:
    if not bytecode.has_column_ranges():
        pytest.skip("this Python runs without column ranges already")
    with pytest.raises(RuntimeError, match="PYTHONNODEBUGRANGES"):
        bytecode.compiled_zip(_zip({"a.py": b"x = 1\n"}), {"a": "a.py"}, "/lib/x.zip")


def _without_ranges(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``script`` run by this Python with PYTHONNODEBUGRANGES=1 (as compile-stdlib.mjs runs
    Pyodide's), the build package's directory and ``args`` as its arguments."""
    return subprocess.run([sys.executable, "-c", script, str(paths.TOOLS), *args],
                          capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONNODEBUGRANGES": "1"})


#: Run in a Python with PYTHONNODEBUGRANGES=1: rewrite a zip, import from it by zipimport.
ZIP_RUN = textwrap.dedent('''\
    import json, sys, zipfile
    sys.path.insert(0, sys.argv[1])
    import doiname_build.bytecode as b
    src = sys.argv[2] + "/src.zip"
    out = sys.argv[2] + "/out.zip"
    data = b.compiled_zip(open(src, "rb").read(), {"mod": "mod.py", "pkg": "pkg/__init__.py"},
                          out)
    open(out, "wb").write(data)
    names = zipfile.ZipFile(out).namelist()
    sys.path.insert(0, out)
    sys.dont_write_bytecode = True
    import mod, pkg, pkg.sub, other
    try:
        mod.fail()
    except ValueError as err:
        tb = err.__traceback__
        while tb.tb_next:
            tb = tb.tb_next
        line, file = tb.tb_lineno, tb.tb_frame.f_code.co_filename
    print(json.dumps({"names": names, "files": [m.__file__ for m in (mod, pkg, pkg.sub, other)],
                      "docs": [mod.__doc__, mod.fail.__doc__, other.__doc__],
                      "values": [mod.VALUE, pkg.VALUE, pkg.sub.VALUE], "line": line,
                      "file": file, "cols": list(mod.fail.__code__.co_positions())[-1]}))
    ''')


def test_zipimport_runs_the_compiled_entries_without_their_source(tmp_path: Path) -> None:
    (tmp_path / "src.zip").write_bytes(_zip({
        "mod.py": b'"""doc"""\nVALUE = 1\n\ndef fail():\n    """doc"""\n    raise ValueError\n',
        "pkg/__init__.py": b'"""doc"""\nVALUE = 2\n',
        "pkg/sub.py": b"VALUE = 3\n",
        "other.py": b'"""other doc"""\n',
        "data.txt": b"kept",
    }))
    done = _without_ranges(ZIP_RUN, str(tmp_path))
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    out = str(tmp_path / "out.zip")
    assert got["names"] == ["mod.pyc", "pkg/__init__.pyc", "pkg/sub.py", "other.py", "data.txt"]
    assert got["files"] == [f"{out}/mod.pyc", f"{out}/pkg/__init__.pyc", f"{out}/pkg/sub.py",
                            f"{out}/other.py"]
    assert got["docs"] == [None, None, "other doc"]
    assert got["values"] == [1, 2, 3]
    assert got["file"] == f"{out}/mod.py"
    assert got["line"] == 6
    assert got["cols"][2:] == [None, None]  # no column ranges, the line kept


#: Run in a Python with PYTHONNODEBUGRANGES=1: the installed files of a distribution as
#: installed_zip ships them, unpacked into a fresh directory and imported from there.
INSTALLED_RUN = textwrap.dedent('''\
    import io, json, sys, zipfile
    sys.path.insert(0, sys.argv[1])
    import doiname_build.bytecode as b
    site, out = sys.argv[2] + "/site", sys.argv[2] + "/out"
    data = b.installed_zip(site, "pkg-1.0.dist-info")
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = [(i.filename, i.compress_type) for i in z.infolist()]
        record = z.read("pkg-1.0.dist-info/RECORD").decode()
        z.extractall(out)
    sys.path.insert(0, out)
    sys.dont_write_bytecode = True
    import pkg, pkg.sub
    print(json.dumps({"infos": infos, "record": record, "file": pkg.sub.__file__,
                      "doc": pkg.__doc__, "value": pkg.sub.VALUE,
                      "code_file": pkg.sub.f.__code__.co_filename}))
    ''')


def test_installed_zip_ships_what_record_names_compiled(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "pkg").mkdir(parents=True)
    (site / "pkg-1.0.dist-info").mkdir()
    (site / "pkg" / "__init__.py").write_text('"""doc"""\n')
    (site / "pkg" / "sub.py").write_text("VALUE = 3\n\ndef f():\n    return VALUE\n")
    (site / "pkg" / "data.txt").write_text("kept")
    (site / "pkg" / "__pycache__").mkdir()
    (site / "pkg-1.0.dist-info" / "METADATA").write_text("Name: pkg\nVersion: 1.0\n")
    (site / "pkg-1.0.dist-info" / "INSTALLER").write_text("micropip\n")  # not in RECORD
    (site / "pkg-1.0.dist-info" / "RECORD").write_text(
        "pkg/__init__.py,sha256=x,10\npkg/sub.py,sha256=y,20\npkg/data.txt,,\n"
        "pkg/__pycache__/sub.cpython-311.pyc,,\n../../bin/pkg,,\n"
        "pkg-1.0.dist-info/METADATA,,\npkg-1.0.dist-info/RECORD,,\n")
    done = _without_ranges(INSTALLED_RUN, str(tmp_path))
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    names = [n for n, _ in got["infos"]]
    assert names == ["pkg/__init__.pyc", "pkg/sub.pyc", "pkg/data.txt",
                     "pkg-1.0.dist-info/METADATA", "pkg-1.0.dist-info/INSTALLER",
                     "pkg-1.0.dist-info/RECORD"]
    assert {c for _, c in got["infos"]} == {zipfile.ZIP_STORED}
    assert got["file"] == str(tmp_path / "out" / "pkg" / "sub.pyc")
    assert got["code_file"] == f"{site}/pkg/sub.py"
    assert got["doc"] is None and got["value"] == 3
    rows = [line.split(",") for line in got["record"].splitlines()]
    assert [r[0] for r in rows] == names
    assert rows[-1] == ["pkg-1.0.dist-info/RECORD", "", ""]
    assert all(r[1].startswith("sha256=") and int(r[2]) > 0 for r in rows[:-1])


def test_installed_zip_refuses_a_file_record_names_but_the_install_lacks(
        tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "pkg-1.0.dist-info").mkdir(parents=True)
    (site / "pkg-1.0.dist-info" / "RECORD").write_text("pkg/gone.py,,\n")
    done = _without_ranges(
        "import sys; sys.path.insert(0, sys.argv[1]); import doiname_build.bytecode as b; "
        "b.installed_zip(sys.argv[2], 'pkg-1.0.dist-info')", str(site))
    assert done.returncode != 0 and "pkg/gone.py is in RECORD but not installed" in done.stderr
