"""Names imported on first use (doiname.later): each package's list equals what it imports
for type checkers, every listed name is there, a submodule named like a function leaves
the function in place, and the worker's first answer (an Inspect) imports none of the
modules of the other views: batch, verify, registry, handle records, Equivalence, the
character view, Resolve's settling."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import doiname
import doiname.bridge

PYCORE = Path(doiname.__file__).resolve().parents[1]
#: Each package that names its names on first use, and the table it gives import_later.
PACKAGES = {"doiname": "_PUBLIC", "doiname.bridge": "_LATER", "doiname.resolver": "_NAMES"}


def _type_checking_imports(package: str) -> dict[str, tuple[str, ...]]:
    """What ``package``'s ``__init__`` imports under ``if TYPE_CHECKING:``, by module."""
    path = PYCORE / package.replace(".", "/") / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom) and stmt.level == 1, ast.unparse(stmt)
                out[stmt.module or ""] = tuple(a.asname or a.name for a in stmt.names)
    return out


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_the_list_is_what_type_checkers_see(package: str) -> None:
    module = importlib.import_module(package)
    listed: dict[str, tuple[str, ...]] = getattr(module, PACKAGES[package])
    seen = _type_checking_imports(package)
    if package == "doiname.bridge":
        # The bridge's type-checking imports are its later names only.
        assert seen == listed
    else:
        assert {k: set(v) for k, v in seen.items()} == {k: set(v) for k, v in listed.items()}
    for names in listed.values():
        for name in names:
            assert name in module.__all__, name
            assert getattr(module, name) is getattr(
                importlib.import_module(f"{package}.{_home(listed, name)}"), name)
    assert set(listed_names(listed)) <= set(dir(module))


def _home(listed: dict[str, tuple[str, ...]], name: str) -> str:
    return next(home for home, names in listed.items() if name in names)


def listed_names(listed: dict[str, tuple[str, ...]]) -> list[str]:
    return [n for names in listed.values() for n in names]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        _ = doiname.nothing_here  # type: ignore[attr-defined]
    assert not hasattr(doiname.bridge, "nothing_here")


FRESH = """
import json, sys
import doiname.bridge
first = json.loads(doiname.bridge.request_json("inspect", '{"text": "10.1000/182"}'))
after_first = sorted(m for m in sys.modules if m.startswith(("doiname", "difflib", "csv",
                     "email", "xml", "datetime", "importlib.metadata", "urllib", "ipaddress")))
import doiname.verify.rows, doiname.extract.scan
print(json.dumps({"ok": "ok" in first, "modules": after_first,
                  "verify": type(doiname.verify).__name__,
                  "extract": type(doiname.extract).__name__,
                  "url": doiname.to_url("10.1000/182")}))
"""


@pytest.mark.skipif(sys.platform == "emscripten", reason="no subprocesses in Pyodide")
def test_the_first_answer_imports_no_batch_verify_or_registry_module() -> None:
    # (nor the batch operations' TypedDicts, nor urllib.parse and ipaddress: a link's host
    # is read by doiname.resolver.links itself)
    out = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True,
                         check=True, cwd=PYCORE, env={"PYTHONPATH": str(PYCORE)})
    got = json.loads(out.stdout)
    assert got["ok"]
    heavy = [m for m in got["modules"]
             if m.startswith(("doiname.batch", "doiname.verify", "doiname.registry",
                              "doiname.bridge.jobs", "doiname.bridge.checks",
                              "doiname.bridge.registry", "doiname.resolver.handle",
                              "doiname.resolver.model", "doiname.comparison",
                              "doiname.codepoints", "doiname.settle",
                              "doiname.bridge.batch_protocol", "difflib", "csv", "email",
                              "xml", "importlib.metadata", "urllib", "ipaddress"))]
    assert heavy == [], heavy
    # A submodule imported later leaves the function of the same name in place.
    assert got["verify"] == "function" and got["extract"] == "function"
    assert got["url"] == "https://doi.org/10.1000/182"
