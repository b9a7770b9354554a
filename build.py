#!/usr/bin/env python3
"""Build, serve and test the doiname web page. Standard library only.

    python3 build.py build            # writes dist/site/ (a static site)
    python3 build.py serve [--port N] # builds, then serves dist/site on 127.0.0.1:N (8000)
    python3 build.py test [ARGS...]   # sets everything up, builds, ruff, mypy --strict, pytest

``build`` runs ``npm ci`` when ``node_modules`` is missing or older than
``package-lock.json`` (Pyodide comes from the npm ``pyodide`` package pinned there) and
``pip download`` when micropip's wheel is not in ``.cache/wheels`` yet. Nothing is ever
loaded from a CDN: the site holds the Pyodide runtime, micropip's wheel (with its real
sha256 in the copied ``pyodide-lock.json``, so integrity checks stay on) and the core's
wheel, built here from ``pycore/doiname`` with :mod:`zipfile`.

``test`` is the README's test command for a fresh Debian machine: it installs Chromium
with apt when ``/usr/bin/chromium`` is missing, makes ``.venv`` with ``pip install -e
.[dev]``, builds, then runs ``ruff check``, ``mypy --strict`` and ``pytest tests`` in the
venv. Its exit code is nonzero when any step fails.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import csv
import email.policy
import fcntl
import gzip
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from collections.abc import Callable, Iterator, Sequence
from email.message import EmailMessage
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
CORE = ROOT / "pycore" / "doiname"
DIST = ROOT / "dist"
SITE = DIST / "site"
CACHE = ROOT / ".cache"
WHEEL_CACHE = CACHE / "wheels"
VENV = ROOT / ".venv"
NODE_PYODIDE = ROOT / "node_modules" / "pyodide"
CHROMIUM = Path("/usr/bin/chromium")

PYODIDE_VERSION = "314.0.7"
#: What the site needs from the npm package (no wheels: the package carries none).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
)
#: The build-time memory snapshot: made by this Node script, written to
#: ``pyodide/`` as SNAPSHOT_FILES. ``DOINAME_SNAPSHOT=0`` builds a site without it.
SNAPSHOT_SCRIPT = ROOT / "pycore" / "tools" / "make-snapshot.mjs"
SNAPSHOT_FILES = ("snapshot.json", "snapshot.bin.gz", "snapshot-files.zip")
MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
#: sha256 of PyPI's micropip 0.11.1 wheel (it differs from the one in Pyodide's lock
#: file, which is why the copied lock file is patched with this one).
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"

#: Content types the server must get right (wasm streaming compilation needs the first).
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".html": "text/html",
    ".css": "text/css",
    ".svg": "image/svg+xml",
}

# Build ---------------------------------------------------------------------------------


def log(message: str) -> None:
    """One progress line on stderr."""
    print(f"build.py: {message}", file=sys.stderr, flush=True)


def run(cmd: Sequence[str | os.PathLike[str]], **kwargs: Any) -> None:
    """Run a command, echoing it; raise SystemExit with its code when it fails."""
    log("$ " + " ".join(str(c) for c in cmd))
    code = subprocess.run([str(c) for c in cmd], check=False, **kwargs).returncode
    if code != 0:
        raise SystemExit(f"build.py: command failed with exit code {code}: {cmd[0]}")


def project_metadata() -> dict[str, Any]:
    """The ``[project]`` table of pyproject.toml."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        project: dict[str, Any] = tomllib.load(f)["project"]
    return project


def ensure_npm() -> Path:
    """``npm ci`` when node_modules is missing or older than package-lock.json."""
    lock = ROOT / "package-lock.json"
    installed = ROOT / "node_modules" / ".package-lock.json"
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


def pip_command() -> list[str]:
    """A working pip: the host's, or the project venv's when the host has none."""
    probe = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True,
                           check=False)
    if probe.returncode == 0:
        return [sys.executable, "-m", "pip"]
    return [str(ensure_venv()), "-m", "pip"]


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


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


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def wheel_name() -> str:
    """File name of the core's wheel (PEP 427), from pyproject.toml."""
    project = project_metadata()
    name = str(project["name"]).replace("-", "_")
    return f"{name}-{project['version']}-py3-none-any.whl"


def core_sources() -> list[Path]:
    """The files of the core package that go into the wheel, sorted."""
    files = [p for p in CORE.rglob("*") if p.is_file()
             and "__pycache__" not in p.parts and p.suffix in (".py", ".typed")]
    return sorted(files, key=lambda p: p.relative_to(CORE).as_posix())


def wheel_metadata() -> str:
    """The METADATA file (core metadata 2.1) of the core's wheel."""
    project = project_metadata()
    msg = EmailMessage(policy=email.policy.compat32)
    msg["Metadata-Version"] = "2.1"
    msg["Name"] = str(project["name"])
    msg["Version"] = str(project["version"])
    msg["Summary"] = str(project.get("description", ""))
    if "requires-python" in project:
        msg["Requires-Python"] = str(project["requires-python"])
    lic = project.get("license")
    if isinstance(lic, dict) and "text" in lic:
        msg["License"] = str(lic["text"])
    for classifier in project.get("classifiers", []):
        msg["Classifier"] = str(classifier)
    for dep in project.get("dependencies", []):
        msg["Requires-Dist"] = str(dep)
    return msg.as_string()


def build_wheel(dest_dir: Path) -> Path:
    """Write the core's pure-Python wheel (py3-none-any) to ``dest_dir``; reproducible."""
    project = project_metadata()
    dist_info = f"{str(project['name']).replace('-', '_')}-{project['version']}.dist-info"
    entries: list[tuple[str, bytes]] = [
        ("doiname/" + p.relative_to(CORE).as_posix(), p.read_bytes()) for p in core_sources()
    ]
    entries.append((f"{dist_info}/METADATA", wheel_metadata().encode("utf-8")))
    entries.append((f"{dist_info}/WHEEL", (
        "Wheel-Version: 1.0\nGenerator: doiname build.py\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n").encode("ascii")))
    scripts = project.get("scripts", {})
    if scripts:
        lines = ["[console_scripts]", *(f"{k} = {v}" for k, v in sorted(scripts.items()))]
        entries.append((f"{dist_info}/entry_points.txt", ("\n".join(lines) + "\n").encode()))
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for arcname, data in entries:
        writer.writerow([arcname, _record_hash(data), str(len(data))])
    writer.writerow([f"{dist_info}/RECORD", "", ""])
    entries.append((f"{dist_info}/RECORD", record.getvalue().encode("utf-8")))

    dest_dir.mkdir(parents=True, exist_ok=True)
    path = dest_dir / wheel_name()
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for arcname, data in entries:
            info = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    return path


def patched_lock(pyodide_dir: Path, micropip_sha256: str) -> str:
    """Pyodide's lock file with micropip's entry carrying the sha256 of the shipped wheel."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    entry = lock["packages"]["micropip"]
    if entry["file_name"] != MICROPIP_WHEEL:
        raise SystemExit(f"build.py: the Pyodide lock file wants {entry['file_name']}, "
                         f"not {MICROPIP_WHEEL}; update MICROPIP_VERSION.")
    entry["sha256"] = micropip_sha256
    return json.dumps(lock, separators=(",", ":"), sort_keys=False)


def memory_snapshot(runtime: Path, wheel: Path) -> dict[str, str] | None:
    """Write the memory snapshot of the booted interpreter (micropip imported, the core
    installed, ``doiname.bridge`` imported) to ``runtime`` (the site's ``pyodide/``) and
    return the paths build-info.js gives the worker, or None (logged) when it cannot be
    made: the site then boots the normal way.

    ``snapshot.json`` carries the match data the worker checks before using it (Pyodide's
    version and the sha256 of pyodide.asm.wasm and of the core wheel it was made with);
    Pyodide itself refuses a snapshot of another build of pyodide.asm.mjs/.wasm.
    ``snapshot.bin.gz`` is gzip (the worker decompresses it: any static host works);
    results are kept in .cache/snapshot/, keyed by the hash of every input."""
    if os.environ.get("DOINAME_SNAPSHOT") == "0":
        log("memory snapshot skipped (DOINAME_SNAPSHOT=0)")
        return None
    node = shutil.which("node")
    if node is None:
        log("memory snapshot skipped: node is not installed")
        return None
    inputs = [SNAPSHOT_SCRIPT, wheel, *(runtime / f for f in (*PYODIDE_FILES, MICROPIP_WHEEL,
                                                              "pyodide-lock.json"))]
    key = hashlib.sha256("\n".join(sha256_file(p) for p in inputs).encode()).hexdigest()
    cached = CACHE / "snapshot" / key
    if not (cached / "snapshot.json").is_file():
        work = CACHE / "snapshot" / f".{key}-{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        log(f"$ node {SNAPSHOT_SCRIPT.name} (memory snapshot)")
        done = subprocess.run([node, str(SNAPSHOT_SCRIPT), str(runtime), str(wheel), str(work)],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            shutil.rmtree(work, ignore_errors=True)
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            log("memory snapshot skipped: make-snapshot.mjs failed: "
                + " | ".join(line[:200] for line in tail))
            return None
        made = json.loads((work / "snapshot.json").read_text(encoding="utf-8"))
        raw = work / "snapshot.bin"
        packed = gzip.compress(raw.read_bytes(), compresslevel=9, mtime=0)
        (work / "snapshot.bin.gz").write_bytes(packed)
        manifest = {
            "pyodideVersion": made["pyodideVersion"],
            "wasmSha256": sha256_file(runtime / "pyodide.asm.wasm"),
            "coreIntegrity": "sha256-" + base64.b64encode(
                hashlib.sha256(wheel.read_bytes()).digest()).decode("ascii"),
            "sitePackages": made["sitePackages"],
            "bytes": raw.stat().st_size,
            "gzipBytes": len(packed),
        }
        raw.unlink()
        (work / "snapshot.json").write_text(json.dumps(manifest, indent=2) + "\n",
                                           encoding="utf-8")
        shutil.rmtree(cached, ignore_errors=True)
        work.rename(cached)
    for name in SNAPSHOT_FILES:
        shutil.copy2(cached / name, runtime / name)
    manifest = json.loads((cached / "snapshot.json").read_text(encoding="utf-8"))
    log(f"memory snapshot: {manifest['bytes'] / 1e6:.1f} MB, "
        f"{manifest['gzipBytes'] / 1e6:.1f} MB gzip")
    manifest_name, data_name, files_name = SNAPSHOT_FILES
    return {"manifest": f"pyodide/{manifest_name}", "data": f"pyodide/{data_name}",
            "files": f"pyodide/{files_name}",
            # build-info.js is under the page's integrity checks: so are these two.
            "dataIntegrity": sri((runtime / data_name).read_bytes()),
            "filesIntegrity": sri((runtime / files_name).read_bytes())}


def build_info_js(info: dict[str, Any]) -> str:
    """``build-info.js``: what the worker needs to know about this build."""
    return ("// Generated by build.py; do not edit.\n"
            f"export const BUILD = Object.freeze({json.dumps(info, indent=2)});\n")


@contextlib.contextmanager
def build_lock() -> Iterator[None]:
    """One build at a time (tests and people may build concurrently)."""
    DIST.mkdir(parents=True, exist_ok=True)
    with (DIST / ".build.lock").open("w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build() -> Path:
    """Write dist/site/ and return its path. The old site is swapped out atomically."""
    started = time.monotonic()
    pyodide_dir = ensure_npm()
    micropip = ensure_micropip()
    with build_lock():
        tmp = DIST / f".site-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        shutil.copytree(WEB, tmp, ignore=shutil.ignore_patterns("*~", ".*"))
        runtime = tmp / "pyodide"
        runtime.mkdir()
        for name in PYODIDE_FILES:
            shutil.copy2(pyodide_dir / name, runtime / name)
        shutil.copy2(micropip, runtime / MICROPIP_WHEEL)
        (runtime / "pyodide-lock.json").write_text(
            patched_lock(pyodide_dir, sha256_file(micropip)), encoding="utf-8")
        wheel = build_wheel(tmp / "wheels")
        digest = hashlib.sha256(wheel.read_bytes()).digest()
        info = {
            "pyodideVersion": PYODIDE_VERSION,
            "indexURL": "pyodide/",
            "coreWheel": f"wheels/{wheel.name}",
            "coreWheelName": wheel.name,
            "coreIntegrity": "sha256-" + base64.b64encode(digest).decode("ascii"),
            "coreVersion": str(project_metadata()["version"]),
            "micropip": MICROPIP_WHEEL,
            "wasmSha256": sha256_file(runtime / "pyodide.asm.wasm"),
            "snapshot": memory_snapshot(runtime, wheel),
        }
        (tmp / "build-info.js").write_text(build_info_js(info), encoding="utf-8")
        add_integrity(tmp)
        (tmp / "_headers").write_text(static_headers(tmp), encoding="utf-8")
        old = DIST / f".old-{os.getpid()}"
        if SITE.exists():
            SITE.rename(old)
        tmp.rename(SITE)
        if old.exists():
            shutil.rmtree(old, ignore_errors=True)
        single_file(SITE)  # dist/doi-tool.html
    log(f"wrote {SITE.relative_to(ROOT)} in {time.monotonic() - started:.1f} s")
    return SITE


# Integrity and Content-Security-Policy -------------------------------------

_IMPORTMAP = re.compile(r'<script type="importmap">(.*?)</script>\s*', re.DOTALL)

#: The site's policy; ``{hashes}`` are the sources of its inline import maps.
SITE_CSP = ("default-src 'none'; script-src 'self' {hashes} 'wasm-unsafe-eval'; "
            "worker-src 'self'; connect-src 'self' https://doi.org; style-src 'self'; "
            "img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none'")


def sri(data: bytes) -> str:
    """A Subresource Integrity value (SHA-384) for these bytes."""
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode("ascii")


def add_integrity(site: Path) -> None:
    """Subresource integrity for the site's own scripts.

    Each page's ``<script src>`` gets an ``integrity`` attribute, and a page with module
    scripts gets an import map whose ``integrity`` section lists every module its
    scripts import, directly or not: the browser refuses a module whose bytes changed.
    Worker scripts cannot carry integrity (no browser supports it); the worker checks
    the core wheel's hash itself, and Pyodide the packages of its lock file.
    """
    for page in sorted(site.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        tags = [m.group(0) for m in _SCRIPT_SRC.finditer(html)]
        if not tags:
            continue
        modules = [_attr(t, "src") or "" for t in tags
                   if (_attr(t, "type") or "").lower() == "module"]
        graph = [m["path"] for m in page_modules(site, modules)] if modules else []

        def with_integrity(m: re.Match[str]) -> str:
            src = os.path.normpath(_attr(m.group(0), "src") or "")
            value = sri((site / src).read_bytes())
            return m.group(0).replace("<script ", f'<script integrity="{value}" ', 1)

        html = _SCRIPT_SRC.sub(with_integrity, html)
        if graph:
            imap = json.dumps({"integrity": {f"./{p}": sri((site / p).read_bytes())
                                             for p in sorted(graph)}},
                              separators=(",", ":"))
            first = _SCRIPT_SRC.search(html)
            assert first is not None
            html = (html[:first.start()] + f'<script type="importmap">{imap}</script>\n'
                    + html[first.start():])
            # A page with its own policy (widget-frame.html) must allow its import map.
            source = _csp_hash(imap)
            html = re.sub(r'(<meta http-equiv="Content-Security-Policy" content="[^"]*?'
                          r"script-src 'self')", rf"\1 {source}", html)
        page.write_text(html, encoding="utf-8")


def site_csp(site: Path, *, frame_ancestors: str | None = "'self'") -> str:
    """The strictest policy the built site works under: the hashes of its import maps."""
    hashes = sorted({_csp_hash(m.group(1)) for page in site.glob("*.html")
                     for m in _IMPORTMAP.finditer(page.read_text(encoding="utf-8"))})
    policy = SITE_CSP.format(hashes=" ".join(hashes)).replace("  ", " ")
    return policy + (f"; frame-ancestors {frame_ancestors}" if frame_ancestors else "")


def static_headers(site: Path) -> str:
    """A ``_headers`` file (Netlify and Cloudflare Pages read it) with the site's policy.

    The widget's frame may be embedded anywhere, so it has no ``frame-ancestors``.
    """
    page = site_csp(site)
    frame = site_csp(site, frame_ancestors=None)
    lines = ["# Written by build.py: the headers a static host should send (README, CSP)."]
    for path, policy in (("/", page), ("/index.html", page), ("/widget-demo.html", page),
                         ("/widget-frame.html", frame)):
        lines += [path, f"  Content-Security-Policy: {policy}",
                  "  X-Content-Type-Options: nosniff", ""]
    return "\n".join(lines)


# Serve ---------------------------------------------------------------------------------


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the right MIME types, CORS open (the widget needs it), no caching."""

    quiet: ClassVar[bool] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Set before the base class handles the request (it does so in __init__).
        self.extensions_map = {**self.extensions_map, **MIME_TYPES}
        super().__init__(*args, **kwargs)

    def end_headers(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def make_server(directory: Path, port: int = 0, *, quiet: bool = False,
                host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    """A threading HTTP server for ``directory`` on ``host:port`` (0: a free port)."""

    class Handler(SiteHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(directory), **kwargs)

    class Server(http.server.ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: Any, client_address: Any) -> None:
            # A browser that drops a connection (page closed mid-download) is no error.
            if quiet and isinstance(sys.exc_info()[1], ConnectionError):
                return
            super().handle_error(request, client_address)

    Handler.quiet = quiet
    return Server((host, port), Handler)


def serve(port: int) -> None:
    """Build, then serve dist/site until interrupted."""
    site = build()
    server = make_server(site, port)
    print(f"Serving {site.relative_to(ROOT)} at http://127.0.0.1:{server.server_port}/ "
          "(Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


# Test ----------------------------------------------------------------------------------


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


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv(*, dev: bool = False) -> Path:
    """The project venv's python; with ``dev``, ``pip install -e .[dev]`` done for pyproject."""
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
        want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
        if not stamp.is_file() or stamp.read_text() != want:
            run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                 "-e", f"{ROOT}[dev]"])
            stamp.write_text(want)
    return py


def mypy_targets() -> list[str]:
    """The configured mypy files plus build.py and the benchmarks."""
    with (ROOT / "pyproject.toml").open("rb") as f:
        files = list(tomllib.load(f).get("tool", {}).get("mypy", {}).get("files", []))
    for extra in ("build.py", "bench"):
        if extra not in files and (ROOT / extra).exists():
            files.append(extra)
    return files


def test(pytest_args: Sequence[str]) -> int:
    """The README's test command: set up, build, lint, type-check, run every test."""
    started = time.monotonic()
    missing = [pkg for pkg, path in (("chromium", CHROMIUM),
                                     ("unicode-data", Path("/usr/share/unicode/Scripts.txt")))
               if not path.is_file()]
    if missing:  # Chromium for the browser tests; the UCD to check the generated tables
        install_apt(*missing)
    py = ensure_venv(dev=True)
    build()
    env = {**os.environ, "DOINAME_SITE_BUILT": "1", "PYTHONDONTWRITEBYTECODE": "1",
           "MYPYPATH": str(ROOT / "pycore")}
    env.pop("PYTHONPATH", None)
    steps: list[tuple[str, list[str]]] = [
        ("ruff", [str(py), "-m", "ruff", "check", "."]),
        ("mypy", [str(py), "-m", "mypy", "--strict", *mypy_targets()]),
        # Two workers (pytest-xdist), one test file each at a time: most of the time of the
        # browser tests is Pyodide booting in Chromium, which keeps one core busy.
        ("pytest", [str(py), "-m", "pytest", "tests", "-p", "no:cacheprovider",
                    "-n", str(min(2, os.cpu_count() or 1)), "--dist", "loadfile",
                    "--screenshot", "only-on-failure", "--output", "test-results",
                    *pytest_args]),
        # The same unit suite inside the shipped Pyodide (Python 3.14, Unicode 16), in Node.
        ("pyodide", [str(py), "tests/pyodide/run.py", "-q"]),
        # A short coverage-guided fuzz pass; saved crashes are replayed by the unit suite.
        ("fuzz", [str(py), "tests/fuzz/run.py", "--seconds", "5"]),
    ]
    failed: list[str] = []
    for name, cmd in steps:
        log("$ " + " ".join(cmd))
        t0 = time.monotonic()
        code = subprocess.run(cmd, cwd=ROOT, env=env, check=False).returncode
        log(f"{name}: {'ok' if code == 0 else f'FAILED (exit code {code})'} "
            f"in {time.monotonic() - t0:.0f} s")
        if code != 0:
            failed.append(name)
    total = time.monotonic() - started
    if failed:
        log(f"FAILED: {', '.join(failed)} ({total:.0f} s)")
        return 1
    log(f"all checks passed ({total:.0f} s)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="write dist/site/")
    p_serve = sub.add_parser("serve", help="build, then serve dist/site on 127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    sub.add_parser("test", help="install what is missing, build, ruff, mypy, pytest "
                                "(further arguments go to pytest)")
    args, rest = parser.parse_known_args(argv)
    if rest and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "build":
        build()
        return 0
    if args.command == "serve":
        serve(args.port)
        return 0
    return test(rest)


# Single file -----------------------------------------------------------------
#
# dist/doi-tool.html: the site in one file that works from file:// with no network.
# The page's HTML and CSS are inlined (non-ASCII as references: the page is declared
# windows-1252); everything else is gzip, written raw (SINGLE_ENCODING), in
# <script type="application/octet-stream" data-doiname-asset=NAME> blocks: the page's ES
# modules (web/single-boot.js turns them into blob: modules), worker.js, the Pyodide
# runtime, a trimmed standard library, micropip's wheel and the core's wheel (the worker
# bootstrap web/single-worker.js answers fetch() for them; see those files).

SINGLE_FILE = DIST / "doi-tool.html"
SINGLE_BOOT = "single-boot.js"
SINGLE_WORKER = "single-worker.js"
#: The fake ``indexURL`` the single file's worker answers from its inlined files
#: (``.invalid`` never resolves, so a file missing from the inlined set fails at once).
SINGLE_BASE = "https://pyodide.doiname.invalid/"
#: Relative import specifiers of the page's modules become ``"<this><path>"``.
SINGLE_PLACEHOLDER = "doiname-single:"
#: How the inlined files are written: ``gzip-1252`` is the gzip bytes themselves in a
#: page declared windows-1252 (every byte is one character there), with four bytes
#: escaped: 1.6 % larger than the bytes, where base64 (``gzip-base64``) is 33 % larger.
SINGLE_ENCODING = "gzip-1252"
#: The page's module scripts that the single file replaces (it makes window.doiname).
SINGLE_REPLACED = frozenset({"doiname-api.js"})
#: The standard library modules the single file keeps; ``name.*`` is a package with
#: every submodule, a bare name is that module (or that package's ``__init__``) alone.
#: Measured (sys.modules in Pyodide under Node): what Pyodide imports to boot, what
#: ``micropip.install("emfs:...")`` of the core wheel imports, and what importing every
#: ``doiname`` module imports; then the codecs and packages the core may reach lazily.
#: tests/e2e/test_single_file.py runs the core's unit suite in this trimmed runtime and
#: fails, naming the module, when the core (or micropip's install) needs one left out.
SINGLE_STDLIB_KEEP: tuple[str, ...] = (
    # Pyodide's own boot
    "__future__", "_collections_abc", "_colorize", "_opcode_metadata", "_py_warnings",
    "_pyodide.*", "_sitebuiltins", "_ssl", "_weakrefset", "abc", "annotationlib", "ast",
    "asyncio.*", "base64", "bisect", "bz2", "codecs", "codeop", "collections.*",
    "compression.*", "concurrent", "concurrent.futures", "concurrent.futures._base",
    "contextlib", "contextvars", "copy", "copyreg", "dataclasses", "dis", "enum",
    "fnmatch", "functools", "genericpath", "glob", "heapq", "importlib.*", "inspect", "io",
    "json.*", "keyword", "linecache", "locale", "logging", "lzma", "ntpath", "opcode",
    "operator", "os", "pathlib.*", "posixpath", "pyodide.*", "random", "re.*", "reprlib",
    "selectors", "shutil", "signal", "site", "socket", "ssl", "stat", "string.*", "struct",
    "subprocess", "tempfile", "textwrap", "threading", "token", "tokenize", "traceback",
    "types", "typing", "warnings", "weakref", "zipfile.*", "zipimport",
    # Codecs: Python's startup and the Unicode ones the core and micropip use
    "encodings", "encodings.aliases", "encodings.utf_8", "encodings.utf_8_sig",
    "encodings.utf_16", "encodings.utf_16_le", "encodings.utf_16_be", "encodings.utf_32",
    "encodings.utf_32_le", "encodings.utf_32_be", "encodings.ascii", "encodings.latin_1",
    "encodings.cp437", "encodings.idna", "encodings.punycode",
    "encodings.raw_unicode_escape", "encodings.unicode_escape",
    # micropip.install
    "_markupbase", "_sysconfigdata__emscripten_wasm32-emscripten", "email", "hashlib",
    "html.*", "ipaddress", "platform", "sysconfig.*", "tarfile", "urllib", "urllib.parse",
    # the core (doiname.cli, doiname.resolver, doiname.batch, ...)
    "argparse", "csv", "gettext", "pkgutil", "xml", "xml.parsers", "xml.parsers.expat",
    "http", "datetime", "_pydatetime",
)


def _stdlib_module(arcname: str) -> str | None:
    """The module a ``.py`` entry of python_stdlib.zip holds (``pkg`` for ``pkg/__init__.py``)."""
    if not arcname.endswith(".py"):
        return None
    name = arcname[:-3].replace("/", ".")
    return name.removesuffix(".__init__")


def single_stdlib_kept(module: str) -> bool:
    """Whether the single file keeps ``module`` of the standard library."""
    for entry in SINGLE_STDLIB_KEEP:
        if entry.endswith(".*"):
            package = entry[:-2]
            if module == package or module.startswith(package + "."):
                return True
        elif module == entry:
            return True
    return False


def stored_zip(data: bytes, keep: Callable[[str], bool] | None = None) -> bytes:
    """A zip archive rewritten with every entry stored (uncompressed), optionally only the
    entries ``keep(arcname)`` accepts. The single file gzips it whole: stored entries
    compress better together than deflated ones, and zipimport reads them directly."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as dst:
        for info in src.infolist():
            if info.is_dir() or (keep is not None and not keep(info.filename)):
                continue
            entry = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            entry.external_attr = info.external_attr
            entry.compress_type = zipfile.ZIP_STORED
            dst.writestr(entry, src.read(info))
    return out.getvalue()


def trimmed_stdlib(data: bytes) -> bytes:
    """python_stdlib.zip with only the modules in SINGLE_STDLIB_KEEP, stored."""
    def keep(arcname: str) -> bool:
        module = _stdlib_module(arcname)
        return module is not None and single_stdlib_kept(module)
    return stored_zip(data, keep)


def single_lock(pyodide_dir: Path, micropip_sha256: str) -> str:
    """Pyodide's lock file cut down to micropip (the only package loaded by name), with
    the sha256 of the wheel the single file carries."""
    lock = json.loads(patched_lock(pyodide_dir, micropip_sha256))
    wanted = {"micropip"}
    todo = ["micropip"]
    while todo:
        for dep in lock["packages"][todo.pop()].get("depends", []):
            if dep not in wanted:
                wanted.add(dep)
                todo.append(dep)
    lock["packages"] = {k: v for k, v in lock["packages"].items() if k in wanted}
    return json.dumps(lock, separators=(",", ":"))


_STATIC_IMPORT = re.compile(
    r"""^([ \t]*(?:import|export)\b[^;"'`]*?\bfrom[ \t]*|[ \t]*import[ \t]*)"""
    r"""(["'])(\.{1,2}/[^"'\n]+)\2""",
    re.MULTILINE)


def page_modules(site: Path, entries: Sequence[str]) -> list[dict[str, Any]]:
    """The page's ES modules reachable from ``entries`` (paths relative to ``site``),
    dependencies first, each with its relative import specifiers replaced by
    ``"<SINGLE_PLACEHOLDER><path>"`` and the list of those paths (``deps``)."""
    order: list[dict[str, Any]] = []
    state: dict[str, str] = {}

    def visit(path: str, chain: tuple[str, ...]) -> None:
        if state.get(path) == "done":
            return
        if state.get(path) == "visiting":
            raise SystemExit("build.py: the single file cannot inline an import cycle: "
                             + " -> ".join((*chain, path)))
        state[path] = "visiting"
        file = site / path
        if not file.is_file():
            raise SystemExit(f"build.py: {chain[-1] if chain else 'index.html'} imports "
                             f"{path}, which is not in {site}")
        deps: list[str] = []

        def rewrite(m: re.Match[str]) -> str:
            target = (Path(path).parent / m.group(3)).as_posix()
            target = os.path.normpath(target)
            if target.startswith(".."):
                raise SystemExit(f"build.py: {path} imports {m.group(3)}, outside the site")
            if target not in deps:
                deps.append(target)
            return f'{m.group(1)}"{SINGLE_PLACEHOLDER}{target}"'

        source = _STATIC_IMPORT.sub(rewrite, file.read_text(encoding="utf-8"))
        for dep in deps:
            visit(dep, (*chain, path))
        state[path] = "done"
        order.append({"path": path, "source": source, "deps": deps})

    for entry in entries:
        visit(os.path.normpath(entry), ())
    return order


def _gzip(data: bytes) -> bytes:
    """gzip, zlib level 9, with no name or time in the header (reproducible). Results
    for large inputs (the wasm takes seconds) are kept in .cache/single-file/."""
    if len(data) < 1 << 20:
        return gzip.compress(data, compresslevel=9, mtime=0)
    cached = CACHE / "single-file" / (hashlib.sha256(data).hexdigest() + ".gz")
    if cached.is_file():
        return cached.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_name(f".{cached.name}-{os.getpid()}")
    tmp.write_bytes(packed)
    tmp.replace(cached)
    return packed


def _escape_1252(data: bytes) -> bytes:
    """Bytes that survive as the text of a script block in a windows-1252 page: the HTML
    parser turns NUL into U+FFFD and CR into LF, and ``<`` could end the block; they and
    the escape byte ``=`` itself become ``=0`` .. ``=3`` (web/single-worker.js, bytesOf)."""
    return (data.replace(b"=", b"=3").replace(b"\x00", b"=0").replace(b"\r", b"=1")
            .replace(b"<", b"=2"))


def _asset_block(name: str, data: bytes, encoding: str) -> bytes:
    """One inlined file, gzipped, in a script block the browser does not run."""
    packed = _gzip(data)
    if encoding == "gzip-1252":
        text = _escape_1252(packed)
    elif encoding == "gzip-base64":
        text = base64.b64encode(packed)
    else:
        raise ValueError(f"unknown single-file encoding {encoding!r}")
    return (f'<script type="application/octet-stream" data-doiname-asset="{name}" '
            f'data-encoding="{encoding}" data-size="{len(data)}">').encode("ascii") + text + \
        b"</script>\n"


def _ascii_html(html: str) -> str:
    """HTML text with every non-ASCII character as a character reference."""
    return html.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _ascii_css(css: str) -> str:
    """CSS with every non-ASCII character as a CSS escape (six hex digits, no space)."""
    return re.sub(r"[^\x00-\x7f]", lambda m: f"\\{ord(m.group(0)):06X}", css)


_LINK = re.compile(r"<link\b[^>]*>\s*", re.IGNORECASE)
_SCRIPT_SRC = re.compile(r"<script\b[^>]*\bsrc=[^>]*>\s*</script>\s*", re.IGNORECASE)


def _attr(tag: str, name: str) -> str | None:
    """The value of attribute ``name`` in an HTML start tag (quoted or not), or None."""
    m = re.search(rf"""\b{name}\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", tag,
                  re.IGNORECASE)
    return None if m is None else next(g for g in m.groups() if g is not None)


def _csp_hash(text: str) -> str:
    """A CSP source for an inline script or style with exactly this text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


def single_file_csp(scripts: Sequence[str], styles: Sequence[str]) -> str:
    """The Content-Security-Policy the single file carries in a ``<meta>``.

    Only its own inline boot script and stylesheets (by hash), the ``blob:`` modules
    it unpacks, its ``data:`` worker, WebAssembly compilation, and requests to doi.org.
    ``frame-ancestors`` cannot be set from a ``<meta>``; a server can add it as a header.
    """
    script_src = " ".join(_csp_hash(t) for t in scripts)
    style_src = " ".join(_csp_hash(t) for t in styles) or "'none'"
    return ("default-src 'none'; "
            f"script-src {script_src} blob: 'wasm-unsafe-eval'; worker-src data: blob:; "
            "connect-src https://doi.org blob: data:; "
            f"style-src {style_src}; img-src data:; base-uri 'none'; form-action 'none'")


def single_file(site: Path = SITE, dest: Path = SINGLE_FILE, *,
                encoding: str = SINGLE_ENCODING) -> Path:
    """Write the offline single file from a built site (``build()`` calls it).

    The page is the site's index.html with its stylesheets inlined and its module
    scripts taken out; web/single-boot.js, inlined, imports them from the inlined
    modules instead, after making ``window.doiname`` with a worker started from a
    ``data:`` URL (web/single-worker.js). Returns the path written.
    """
    started = time.monotonic()
    html = (site / "index.html").read_text(encoding="utf-8")

    def inline_link(m: re.Match[str]) -> str:
        # Stylesheets are inlined; other links to files of the site (preload hints, a
        # manifest) have nothing to point at in a single file and are dropped.
        href = _attr(m.group(0), "href") or ""
        if href.startswith("data:") or re.match(r"[a-z][a-z0-9+.-]*:", href, re.IGNORECASE):
            return m.group(0)
        if (_attr(m.group(0), "rel") or "").lower() != "stylesheet":
            return ""
        css = (site / href).read_text(encoding="utf-8")
        if "</style" in css.lower():
            raise SystemExit(f"build.py: {href} contains </style; cannot inline it")
        return f"<style>\n{_ascii_css(css)}</style>"

    if re.search(r"<(script|style)\b[^>]*>[^<]*[^\x00-\x7f]", html, re.IGNORECASE):
        raise SystemExit("build.py: index.html has non-ASCII text in an inline script or "
                         "style; the single file cannot re-encode it")
    html = _ascii_html(html)
    html, charsets = re.subn(r"""<meta\s+charset=["']?[\w-]+["']?\s*/?>""",
                             '<meta charset="windows-1252">' if encoding == "gzip-1252"
                             else '<meta charset="utf-8">', html, count=1, flags=re.IGNORECASE)
    if not charsets:
        raise SystemExit('build.py: index.html has no <meta charset=...>; the single file '
                         'needs it to say how it is written')
    html = _LINK.sub(inline_link, html)
    scripts: list[str] = []

    def take_script(m: re.Match[str]) -> str:
        src = _attr(m.group(0), "src") or ""
        if (_attr(m.group(0), "type") or "").lower() != "module":
            raise SystemExit(f"build.py: index.html loads {src} as a classic script; the "
                             "single file only inlines module scripts")
        scripts.append(os.path.normpath(src))
        return ""

    html = _SCRIPT_SRC.sub(take_script, html)
    html = _IMPORTMAP.sub("", html)  # the file's modules are blob: URLs, checked as a whole
    entries = [s for s in scripts if s not in SINGLE_REPLACED]
    if "</body>" not in html:
        raise SystemExit("build.py: index.html has no </body>; cannot write the single file")

    runtime = site / "pyodide"
    build_info = json.loads((site / "build-info.js").read_text(encoding="utf-8")
                            .split("Object.freeze(", 1)[1].rsplit(");", 1)[0])
    core_name = str(build_info["coreWheelName"])
    core = stored_zip((site / "wheels" / core_name).read_bytes())
    micropip = stored_zip((runtime / MICROPIP_WHEEL).read_bytes())
    micropip_sha = hashlib.sha256(micropip).hexdigest()
    engine: dict[str, bytes] = {
        "pyodide.mjs": (runtime / "pyodide.mjs").read_bytes(),
        "pyodide.asm.mjs": (runtime / "pyodide.asm.mjs").read_bytes(),
        "pyodide.asm.wasm": (runtime / "pyodide.asm.wasm").read_bytes(),
        "python_stdlib.zip": trimmed_stdlib((runtime / "python_stdlib.zip").read_bytes()),
        MICROPIP_WHEEL: micropip,
        core_name: core,
    }
    client = "doiname-client.js"
    modules = page_modules(site, [client, *entries])
    config = {
        "pyodideModuleURL": SINGLE_BASE + "pyodide.mjs",  # the worker bootstrap replaces it
        "indexURL": SINGLE_BASE,
        "packageBaseUrl": SINGLE_BASE,
        "lockFileContents": single_lock(NODE_PYODIDE, micropip_sha),
        "coreWheelURL": SINGLE_BASE + core_name,
        "coreWheelName": core_name,
        "coreIntegrity": "sha256-" + base64.b64encode(hashlib.sha256(core).digest()).decode(),
    }
    page = {
        "placeholder": SINGLE_PLACEHOLDER,
        "modules": modules,
        "client": client,
        "entries": entries,
        "workerBoot": (site / SINGLE_WORKER).read_text(encoding="utf-8"),
        "workerModules": page_modules(site, ["worker.js"]),
        "base": SINGLE_BASE,
        "config": config,
        "engineAssets": list(engine),
    }
    boot = (site / SINGLE_BOOT).read_text(encoding="utf-8")
    if "</script" in boot.lower() or not boot.isascii():
        raise SystemExit(f"build.py: {SINGLE_BOOT} must be ASCII without </script to be inlined")
    blocks = [_asset_block("page", json.dumps(page, ensure_ascii=False).encode("utf-8"),
                           encoding)]
    blocks += [_asset_block(name, data, encoding) for name, data in engine.items()]
    script = f"\n{boot}"
    styles = re.findall(r"<style>(.*?)</style>", html, flags=re.DOTALL)
    html = re.sub(r"(<meta charset=[^>]*>)",
                  lambda m: f'{m.group(1)}\n<meta http-equiv="Content-Security-Policy" '
                            f'content="{single_file_csp([script], styles)}">', html, count=1)
    head, _, rest = html.rpartition("</body>")
    out = b"".join([head.encode("ascii"), *blocks,
                    f'<script type="module">{script}</script>\n</body>{rest}'.encode("ascii")])
    tmp = dest.with_name(f".{dest.name}-{os.getpid()}")
    tmp.write_bytes(out)
    tmp.replace(dest)
    log(f"wrote {dest.relative_to(ROOT) if dest.is_relative_to(ROOT) else dest} "
        f"({dest.stat().st_size / 1e6:.2f} MB) in {time.monotonic() - started:.1f} s")
    return dest


if __name__ == "__main__":
    sys.exit(main())
