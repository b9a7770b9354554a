"""The core's wheel, built by the one backend ``pyproject.toml`` declares (setuptools),
through ``pip wheel``: the same builder as ``pip install``, reproducible
(``SOURCE_DATE_EPOCH``: every entry dated 1980-01-01, in sorted order)."""

from __future__ import annotations

import hashlib
import os
import shutil
import tomllib
from pathlib import Path
from typing import Any

from .env import pip_command
from .paths import CACHE, CORE, ROOT
from .proc import SOURCE_TREE, log, run

#: 1980-01-01 00:00 UTC, the earliest date a zip entry can hold.
SOURCE_DATE_EPOCH = "315532800"


def project_metadata() -> dict[str, Any]:
    """The ``[project]`` table of pyproject.toml."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        project: dict[str, Any] = tomllib.load(f)["project"]
    return project


def wheel_name() -> str:
    """File name of the core's wheel (PEP 427), from pyproject.toml."""
    project = project_metadata()
    name = str(project["name"]).replace("-", "_")
    return f"{name}-{project['version']}-py3-none-any.whl"


def _inputs_digest() -> str:
    """A hash of everything the wheel is made from (sources, pyproject, README)."""
    h = hashlib.sha256()
    files = [p for p in CORE.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    for path in sorted([*files, ROOT / "pyproject.toml", ROOT / "README.md"]):
        h.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def build_wheel(dest_dir: Path) -> Path:
    """The core's pure-Python wheel (py3-none-any) in ``dest_dir``: built with ``pip
    wheel`` by the pyproject backend, kept in .cache/wheels/ by the hash of its inputs."""
    cached = CACHE / "wheels" / f"core-{_inputs_digest()[:32]}" / wheel_name()
    if not cached.is_file():
        work = cached.parent.with_name(f".{cached.parent.name}-{os.getpid()}")
        shutil.rmtree(work, ignore_errors=True)
        env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
        with SOURCE_TREE:
            # setuptools builds in ./build, where files removed from the sources would
            # linger and be packed again: start from none.
            shutil.rmtree(ROOT / "build", ignore_errors=True)
            run([*pip_command(), "wheel", "--quiet", "--no-deps", "--disable-pip-version-check",
                 "-w", work, ROOT], env=env)
            shutil.rmtree(ROOT / "build", ignore_errors=True)
        built = work / wheel_name()
        if not built.is_file():
            raise SystemExit(f"build.py: pip wheel did not write {built.name}")
        shutil.rmtree(cached.parent, ignore_errors=True)
        work.rename(cached.parent)
        log(f"core wheel built: {cached.name}")
    dest_dir.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy2(cached, dest_dir / cached.name))
