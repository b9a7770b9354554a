"""Logging, running commands (Node scripts with their results cached), installing Debian
packages, hashing files."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .paths import CACHE

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


class NodeFailed(Exception):
    """A build script run by Node could not run or failed (the message says how)."""


def cached_node_output(name: str, script: Path, inputs: Sequence[Path], args: Sequence[str],
                       finish: Callable[[Path], None] | None = None) -> Path:
    """The directory ``node SCRIPT *ARGS OUT`` writes, made once per set of inputs: kept
    as .cache/NAME/KEY, KEY the hash of every input file (the script among them), and
    ``finish(OUT)`` run on a fresh one before it is kept. Raises NodeFailed when node is
    missing or the script fails (with the last lines it printed)."""
    node = shutil.which("node")
    if node is None:
        raise NodeFailed("node is not installed")
    files = [script, *inputs]
    key = hashlib.sha256("\n".join(sha256_file(p) for p in files).encode()).hexdigest()
    cached = CACHE / name / key
    if (cached / ".done").is_file():
        return cached
    work = CACHE / name / f".{key}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    log(f"$ node {script.name} ({name})")
    done = subprocess.run([node, str(script), *args, str(work)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise NodeFailed(f"{script.name} failed with exit code {done.returncode}: "
                         + " | ".join(line[:200] for line in tail))
    if finish is not None:
        finish(work)
    (work / ".done").touch()
    shutil.rmtree(cached, ignore_errors=True)
    work.rename(cached)
    return cached
