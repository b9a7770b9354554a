"""``python3 build.py lock``: pin every dev tool with its hashes in DEV_LOCK.

The inputs are pyproject.toml's ``dev`` extra and its build backend (the editable install
is made without build isolation, from the pinned setuptools). pip-tools runs in a venv of
its own, made for this, from PyPI; the lock is for the Python that runs the build.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import tomllib
from pathlib import Path

from .paths import DEV_LOCK, ROOT
from .proc import log, run

PIP_TOOLS = "pip-tools==7.6.2"


def lock() -> Path:
    """Write DEV_LOCK from pyproject.toml; returns its path."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        pyproject = tomllib.load(f)
    backend = pyproject["build-system"]["requires"]
    with tempfile.TemporaryDirectory(prefix="doiname-lock-") as tmp:
        venv = Path(tmp) / "venv"
        run([sys.executable, "-m", "venv", venv])
        py = venv / "bin" / "python"
        run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", PIP_TOOLS])
        extra = Path(tmp) / "backend.in"
        extra.write_text("\n".join(backend) + "\n", encoding="utf-8")
        run([py, "-m", "piptools", "compile", "--quiet", "--extra", "dev",
             "--generate-hashes", "--allow-unsafe", "--strip-extras", "--no-emit-index-url",
             "--no-emit-find-links", "--no-emit-trusted-host", "--no-annotate",
             "--resolver", "backtracking",
             "--output-file", DEV_LOCK, ROOT / "pyproject.toml", extra], cwd=tmp,
            env={**os.environ, "CUSTOM_COMPILE_COMMAND": "python3 build.py lock"})
    DEV_LOCK.write_text(with_markers(DEV_LOCK.read_text(encoding="utf-8"),
                                     pyproject["project"]["optional-dependencies"]["dev"]),
                        encoding="utf-8")
    log(f"wrote {DEV_LOCK.relative_to(ROOT)}")
    return DEV_LOCK


def with_markers(text: str, requirements: list[str]) -> str:
    """The lock with the environment markers of pyproject's requirements put back on their
    pins (pip-compile resolves for this machine and drops them: ``atheris`` only exists
    for some platforms)."""
    for requirement in requirements:
        spec, _, marker = requirement.partition(";")
        if not marker.strip():
            continue
        name = re.split(r"[<>=!~\[ ]", spec.strip(), maxsplit=1)[0].lower().replace("_", "-")
        text = re.sub(rf"(?im)^({re.escape(name)}==[^ \n]+)( \\)$",
                      rf"\1 ; {marker.strip()}\2", text)
    return text
