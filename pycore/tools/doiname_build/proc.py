"""Logging, running commands, installing Debian packages, hashing files."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: One setuptools build in the project's tree at a time (``build.py test`` installs the
#: project editable while the build makes the core wheel; both write build/ and egg-info).
SOURCE_TREE = threading.Lock()


def log(message: str) -> None:
    """One progress line on stderr."""
    print(f"build.py: {message}", file=sys.stderr, flush=True)


def run(cmd: Sequence[str | os.PathLike[str]], **kwargs: Any) -> None:
    """Run a command, echoing it; raise SystemExit with its code when it fails."""
    log("$ " + " ".join(str(c) for c in cmd))
    code = subprocess.run([str(c) for c in cmd], check=False, **kwargs).returncode
    if code != 0:
        raise SystemExit(f"build.py: command failed with exit code {code}: {cmd[0]}")


def install_apt(*packages: str) -> None:
    """``apt-get install -y`` (as root), with one ``apt-get update`` retry."""
    if os.geteuid() != 0:
        raise SystemExit(f"build.py: please install {' '.join(packages)} (apt-get install "
                         f"-y {' '.join(packages)}); this needs root.")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    cmd = ["apt-get", "install", "-y", "--no-install-recommends", *packages]
    log("$ " + " ".join(cmd))
    if subprocess.run(cmd, env=env, check=False).returncode != 0:
        run(["apt-get", "update"], env=env)
        run(cmd, env=env)


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
