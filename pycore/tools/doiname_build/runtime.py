"""The Pyodide files the site ships, as the build adapts them: the lock file (micropip's
entry with the hash of the wheel shipped), the trimmed standard library with the modules
the boot imports compiled, stored zips."""

from __future__ import annotations

import gzip
import io
import json
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

from .paths import (
    BOOT_SCRIPT,
    BYTECODE_MODULE,
    CORE_FILES,
    CORE_LATER,
    LATER_SITE_PACKAGES,
    MICROPIP_WHEEL,
    PYODIDE_FILES,
    STDLIB_BOOT,
    STDLIB_PYC_SCRIPT,
)
from .proc import NodeFailed, cached_node_output, log


def patched_lock(pyodide_dir: Path, micropip_sha256: str) -> str:
    """Pyodide's lock file with micropip's entry carrying the sha256 of the shipped wheel."""
    lock = json.loads((pyodide_dir / "pyodide-lock.json").read_text(encoding="utf-8"))
    entry = lock["packages"]["micropip"]
    if entry["file_name"] != MICROPIP_WHEEL:
        raise SystemExit(f"build.py: the Pyodide lock file wants {entry['file_name']}, "
                         f"not {MICROPIP_WHEEL}; update MICROPIP_VERSION.")
    entry["sha256"] = micropip_sha256
    return json.dumps(lock, separators=(",", ":"), sort_keys=False)


#: The standard library modules the site and the single file keep; ``name.*`` is a package with
#: every submodule, a bare name is that module (or that package's ``__init__``) alone.
#: Measured (sys.modules in Pyodide under Node): what Pyodide imports to boot, what
#: ``micropip.install("emfs:...")`` of the core wheel imports, and what importing every
#: ``doiname`` module imports; then the codecs and packages the core may reach lazily.
#: tests/e2e/test_stdlib_suite.py runs the core's unit suite in this trimmed runtime and
#: fails, naming the module, when the core (or micropip's install) needs one left out.
STDLIB_KEEP: tuple[str, ...] = (
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
    # micropip.install and importlib.metadata (email.message reads METADATA)
    "_markupbase", "_sysconfigdata__emscripten_wasm32-emscripten", "email.*", "hashlib",
    "html.*", "ipaddress", "platform", "sysconfig.*", "tarfile", "urllib", "urllib.parse",
    # the core (doiname.cli, doiname.resolver, doiname.batch, ...)
    "argparse", "csv", "gettext", "pkgutil", "xml", "xml.parsers", "xml.parsers.expat",
    "http", "datetime", "_pydatetime", "quopri", "calendar",
    # doiname.verify (titles compared by their longest common runs)
    "difflib",
    # the CLI's verify (its lookups), which the unit suite imports with every core module
    "urllib.error", "urllib.response", "urllib.request", "http.client",
    # host names written in IDNA (encodings.idna)
    "stringprep",
)


def _stdlib_module(arcname: str) -> str | None:
    """The module a ``.py`` (or compiled ``.pyc``) entry of python_stdlib.zip holds
    (``pkg`` for ``pkg/__init__.py``)."""
    source = arcname.removesuffix("c") if arcname.endswith(".pyc") else arcname
    if not source.endswith(".py"):
        return None
    name = source[:-3].replace("/", ".")
    return name.removesuffix(".__init__")


def stdlib_kept(module: str) -> bool:
    """Whether the single file keeps ``module`` of the standard library."""
    for entry in STDLIB_KEEP:
        if entry.endswith(".*"):
            package = entry[:-2]
            if module == package or module.startswith(package + "."):
                return True
        elif module == entry:
            return True
    return False


def stored_zip(data: bytes, keep: Callable[[str], bool] | None = None, *,
               deflate: bool = False) -> bytes:
    """A zip archive rewritten with every entry stored (uncompressed), or deflated at level
    9 with ``deflate``, optionally only the entries ``keep(arcname)`` accepts. The single
    file gzips a stored archive whole (stored entries compress better together, and
    zipimport reads them directly); the site ships a deflated one, small on any host."""
    out = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", compression=method, compresslevel=9) as dst:
        for info in src.infolist():
            if info.is_dir() or (keep is not None and not keep(info.filename)):
                continue
            entry = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            entry.external_attr = info.external_attr
            entry.compress_type = method
            dst.writestr(entry, src.read(info), compresslevel=9)
    return out.getvalue()


def trimmed_stdlib(data: bytes, *, deflate: bool = False) -> bytes:
    """python_stdlib.zip with only the modules in STDLIB_KEEP (stored, or deflated)."""
    def keep(arcname: str) -> bool:
        module = _stdlib_module(arcname)
        return module is not None and stdlib_kept(module)
    return stored_zip(data, keep, deflate=deflate)


def compile_boot(runtime: Path, wheel: Path) -> dict[str, str]:
    """Write, in ``runtime`` (the site's ``pyodide/``), CORE_FILES and CORE_LATER: the
    files micropip's install of ``wheel`` writes to site-packages, each ``.py`` compiled
    by Pyodide's own Python, in two zips of stored entries, gzipped whole (the modules the
    boot imports, and the rest with the standard library's rest: :func:`split_core`,
    :func:`later_files`); replace, in its python_stdlib.zip (the trimmed standard
    library, as source), each module the boot imports by a ``.pyc`` compiled by that
    Python; and write STDLIB_BOOT, those ``.pyc`` alone (:func:`split_stdlib`). Return
    those modules (name -> the zip entry they came from).

    ``compile-stdlib.mjs`` installs the wheel with micropip, compiles what it wrote, then
    boots ``runtime`` as the worker does (CORE_FILES unpacked, ``doiname.bridge`` imported
    and asked once) and reads sys.modules, so the lists (the standard library's modules
    and the core's) are the boot's own at every build; that import is recorded
    (``doiname.warm``), and the record travels in CORE_FILES beside that module;
    ``bytecode.py`` says what each ``.pyc`` holds. Every other module stays source.
    Results are kept in .cache/stdlib-pyc/, keyed by the hash of every input. Raises
    SystemExit when it cannot be made (the build needs Node anyway)."""
    inputs = [BOOT_SCRIPT, BYTECODE_MODULE, wheel,
              *(runtime / f for f in (*PYODIDE_FILES, MICROPIP_WHEEL, "pyodide-lock.json"))]
    try:
        cached = cached_node_output("stdlib-pyc", STDLIB_PYC_SCRIPT, inputs,
                                    [str(runtime), str(wheel)])
    except NodeFailed as err:
        raise SystemExit(f"build.py: the boot's standard library modules could not be "
                         f"compiled: {err}") from None
    stdlib = runtime / "python_stdlib.zip"
    before = stdlib.stat().st_size
    shutil.copyfile(cached / "python_stdlib.zip", stdlib)
    modules: dict[str, str] = json.loads((cached / "modules.json").read_text(encoding="utf-8"))
    stdlib_boot, stdlib_rest = split_stdlib(stdlib.read_bytes(), modules)
    (runtime / STDLIB_BOOT).write_bytes(stdlib_boot)
    boot_files = json.loads((cached / "core.json").read_text(encoding="utf-8"))
    first, rest = split_core((cached / "core-files.zip").read_bytes(), boot_files)
    # The record of the boot's import (doiname.warm), where that module reads it.
    warm_entry = json.loads((cached / "warm.json").read_text(encoding="utf-8"))["entry"]
    first = with_entry(first, warm_entry, (cached / "warm.bin").read_bytes())
    for name, data in ((CORE_FILES, first), (CORE_LATER, later_files(rest, stdlib_rest))):
        (runtime / name).write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    log(f"standard library: {len(modules)} modules the boot imports compiled, "
        f"{before / 1e6:.2f} MB -> {stdlib.stat().st_size / 1e6:.2f} MB, of which "
        f"{STDLIB_BOOT} {len(stdlib_boot) / 1e6:.2f} MB; the core compiled: "
        f"{wheel.stat().st_size / 1e3:.0f} kB wheel -> "
        f"{(runtime / CORE_FILES).stat().st_size / 1e3:.0f} kB {CORE_FILES} "
        f"({len(boot_files)} modules the boot imports) + "
        f"{(runtime / CORE_LATER).stat().st_size / 1e3:.0f} kB {CORE_LATER} (with the "
        f"standard library's {len(stdlib_later(runtime / CORE_LATER))} other modules)")
    return modules


def split_core(data: bytes, boot_files: list[str]) -> tuple[bytes, bytes]:
    """The core's files (``data``, a zip of stored entries as installed in site-packages)
    in two zips of stored entries, each in the original order: the entries named in
    ``boot_files`` (the ``.pyc`` of each module the boot imported), and all the others.
    Raises when a boot file is not in the zip."""
    wanted = set(boot_files)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        missing = wanted - set(z.namelist())
    if missing:
        raise SystemExit(f"build.py: the boot imported core modules that are not among "
                         f"the core's files: {sorted(missing)}")
    return (stored_zip(data, lambda name: name in wanted),
            stored_zip(data, lambda name: name not in wanted))


def with_entry(data: bytes, name: str, content: bytes) -> bytes:
    """The zip ``data`` (stored entries) with one more stored entry, ``name``."""
    out = io.BytesIO(data)
    with zipfile.ZipFile(out, "a", compression=zipfile.ZIP_STORED) as z:
        z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), content)
    return out.getvalue()


def split_stdlib(data: bytes, boot_modules: dict[str, str]) -> tuple[bytes, bytes]:
    """The site's standard library (``data``, python_stdlib.zip with the boot's modules
    compiled) in two zips: STDLIB_BOOT, the ``.pyc`` of each module the boot imported
    (``boot_modules``: name -> its source's entry) deflated as python_stdlib.zip is, and
    every other entry, stored (it travels in CORE_LATER, gzipped whole). Raises when a
    boot module has no ``.pyc`` in the zip."""
    wanted = {entry.removesuffix("c") + "c" for entry in boot_modules.values()}
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        missing = wanted - set(z.namelist())
    if missing:
        raise SystemExit(f"build.py: the boot imported standard library modules that are "
                         f"not compiled in python_stdlib.zip: {sorted(missing)}")
    return (stored_zip(data, lambda name: name in wanted, deflate=True),
            stored_zip(data, lambda name: name not in wanted))


def later_files(core_rest: bytes, stdlib_rest: bytes) -> bytes:
    """CORE_LATER's zip (stored entries), unpacked into the standard library's folder:
    the standard library's rest (``stdlib_rest``) at its root, as in python_stdlib.zip,
    and the core's rest (``core_rest``, named as in site-packages) under
    LATER_SITE_PACKAGES. One download, one unpacking for both."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as dst:
        for prefix, data in ((LATER_SITE_PACKAGES, core_rest), ("", stdlib_rest)):
            with zipfile.ZipFile(io.BytesIO(data)) as src:
                for info in src.infolist():
                    entry = zipfile.ZipInfo(prefix + info.filename, date_time=info.date_time)
                    entry.external_attr = info.external_attr
                    dst.writestr(entry, src.read(info))
    return out.getvalue()


def stdlib_later(later: Path) -> list[str]:
    """The standard library's modules in ``later`` (CORE_LATER, as the site ships it), by
    name: what an import before it arrives fetches it for (doiname.bridge.arrival)."""
    with zipfile.ZipFile(io.BytesIO(gzip.decompress(later.read_bytes()))) as z:
        names = (_stdlib_module(n) for n in z.namelist()
                 if not n.startswith(LATER_SITE_PACKAGES))
        return sorted(n for n in names if n is not None)


def micropip_lock(pyodide_dir: Path, micropip_sha256: str) -> str:
    """Pyodide's lock file cut down to micropip (the only package loaded by name; the
    site and the single file hold no other package's wheel), with the sha256 of the
    wheel shipped: what the boot reads of it is these few entries, not 357."""
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
