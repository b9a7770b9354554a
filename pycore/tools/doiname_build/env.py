"""What the build needs installed: npm packages, the project venv, micropip's wheel, Java."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .paths import (
    DEV_LOCK,
    MICROPIP_SHA256,
    MICROPIP_VERSION,
    MICROPIP_WHEEL,
    NODE_MODULES,
    NODE_PYODIDE,
    PYODIDE_FILES,
    PYODIDE_VERSION,
    ROOT,
    VENV,
    WHEEL_CACHE,
)
from .proc import SOURCE_TREE, install_apt, log, run, sha256_file


def ensure_npm() -> Path:
    """``npm ci`` when node_modules is missing or older than package-lock.json; returns
    the npm ``pyodide`` package's folder."""
    lock = ROOT / "package-lock.json"
    installed = NODE_MODULES / ".package-lock.json"
    pkg = NODE_PYODIDE / "package.json"
    fresh = (
        installed.is_file()
        and pkg.is_file()
        and installed.stat().st_mtime >= lock.stat().st_mtime
        and json.loads(pkg.read_text(encoding="utf-8")).get("version") == PYODIDE_VERSION
        and all((NODE_PYODIDE / f).is_file() for f in PYODIDE_FILES)
    )
    if not fresh:
        if shutil.which("npm") is None:
            install_apt("npm", "nodejs")
        run(["npm", "ci", "--no-audit", "--no-fund"], cwd=ROOT)
        installed.touch()
    return NODE_PYODIDE


def venv_python() -> Path:
    """The project venv's interpreter (it may not exist yet)."""
    return VENV / "bin" / "python"


def ensure_venv(*, dev: bool = False) -> Path:
    """The project venv's python; with ``dev``, the dev tools installed from DEV_LOCK
    (hash-checked) and the project installed editable."""
    py = venv_python()
    if not py.is_file():
        log("$ python3 -m venv .venv")
        if subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=False).returncode:
            shutil.rmtree(VENV, ignore_errors=True)
            minor = f"{sys.version_info.major}.{sys.version_info.minor}"
            install_apt(f"python{minor}-venv", "python3-pip")
            run([sys.executable, "-m", "venv", str(VENV)])
    if dev:
        stamp = VENV / ".doiname-dev"
        want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()
                              + DEV_LOCK.read_bytes()).hexdigest()
        if not stamp.is_file() or stamp.read_text() != want:
            # Every dev tool at the version and hash the lock file pins, then the project
            # itself, editable, with nothing more (its dependencies are all pinned above).
            run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                 "--require-hashes", "-r", DEV_LOCK])
            with SOURCE_TREE:
                run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                     "--no-deps", "--no-build-isolation", "-e", ROOT])
            stamp.write_text(want)
    return py


def pip_command() -> list[str]:
    """A working pip: the host's, or the project venv's when the host has none."""
    probe = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True,
                           check=False)
    if probe.returncode == 0:
        return [sys.executable, "-m", "pip"]
    return [str(ensure_venv()), "-m", "pip"]


def ensure_micropip() -> Path:
    """micropip's wheel from PyPI (``pip download``), checked against its pinned sha256."""
    wheel = WHEEL_CACHE / MICROPIP_WHEEL
    if not wheel.is_file():
        WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
        run([*pip_command(), "download", "--quiet", "--no-deps", "--only-binary=:all:",
             "--python-version", "3.14", "--platform", "any", "--implementation", "py",
             "-d", WHEEL_CACHE, f"micropip=={MICROPIP_VERSION}"])
    digest = sha256_file(wheel)
    if digest != MICROPIP_SHA256:
        wheel.unlink()
        raise SystemExit(f"build.py: {MICROPIP_WHEEL} has sha256 {digest}, expected "
                         f"{MICROPIP_SHA256}; the download was removed, run the build again.")
    return wheel


#: The oldest Java that Spark (``doiname.spark``, pinned in pyproject's ``spark`` extra) runs on.
JAVA_MIN = 17
#: Debian's package that gives it (``/usr/lib/jvm/java-17-openjdk-<arch>``).
JAVA_PACKAGE = "openjdk-17-jre-headless"


def _java_major(java: str) -> int | None:
    """The major version ``java -version`` reports (``"1.8.0_292"`` is 8), or ``None``."""
    try:
        probe = subprocess.run([java, "-version"], capture_output=True, text=True,
                               timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r'version "(\d+)(?:\.(\d+))?', probe.stderr + probe.stdout)
    if m is None:
        return None
    major = int(m[1])
    return int(m[2] or 0) if major == 1 else major


def ensure_java() -> dict[str, str]:
    """Java for the Spark tests: Debian's JRE when ``java`` is missing or older than
    :data:`JAVA_MIN`. Returns what the tests' environment needs (``JAVA_HOME`` when the
    ``java`` on the PATH stays too old), else nothing."""
    java = shutil.which("java")
    if java is not None and (_java_major(java) or 0) >= JAVA_MIN:
        return {}
    installed = sorted(Path("/usr/lib/jvm").glob(f"java-{JAVA_MIN}-openjdk-*"))
    if not any((home / "bin" / "java").is_file() for home in installed):
        # Slim Debian images have no man directories, and the JDK's post-install needs one.
        Path("/usr/share/man/man1").mkdir(parents=True, exist_ok=True)
        install_apt(JAVA_PACKAGE)
        installed = sorted(Path("/usr/lib/jvm").glob(f"java-{JAVA_MIN}-openjdk-*"))
    java = shutil.which("java")
    if java is not None and (_java_major(java) or 0) >= JAVA_MIN:
        return {}
    for home in installed:
        if (home / "bin" / "java").is_file():
            return {"JAVA_HOME": str(home)}
    raise SystemExit(f"build.py: {JAVA_PACKAGE} was installed but no Java {JAVA_MIN} was found "
                     "in /usr/lib/jvm")
