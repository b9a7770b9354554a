"""The core's files, and the standard library's, that arrive after the web page is ready.

The site ships the core's compiled files in two zips (``doiname_build/runtime.py``): the
modules the worker's first answer imports, unpacked before the engine is ready, and the
rest (batch, registry, verify, the package's metadata, ...), which the worker downloads
once the first zip is in and unpacks when it arrives (``web/src/worker/boot.js``). The
standard library is split the same way: the worker mounts the modules the boot imports
as the standard library, and the second zip holds the others (``csv``, ``email``,
``importlib.metadata``, ``encodings.idna``, ...), unpacked into the standard library's
folder (the core's rest into its ``site-packages/``); the packages already imported from
the standard library's zip then look in that folder too (:func:`arrived`).

Until then :class:`Arriving` sits last in ``sys.meta_path``. An import of a module of
the package, or of one of those standard library modules, that is not there yet, or a
read of the package's metadata, does not fail:
it downloads the rest at once, synchronously (a web worker may block on its own
request), checks the bytes against the build's integrity value, has them unpacked by
the worker's own unpacker (``unpackCore`` in
``web/src/worker/site-packages.js``, which unpacks the first zip too), and goes on as if
they had always been there. So a request that comes early waits for the files it needs
and nothing else; the worker's own download is then not unpacked again
(:func:`waiting`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from importlib.machinery import ModuleSpec, PathFinder
from typing import Any

__all__ = ["FETCH_DEADLINE_MS", "Arriving", "arrived", "expect", "fetch_sync", "integrity_ok",
           "waiting"]

#: The package whose modules and metadata may still be on their way (with the standard
#: library modules :func:`expect` names).
PACKAGE = "doiname"
#: Milliseconds the synchronous download of the rest may take: the worker waits for
#: nothing else meanwhile (its 0.6 MB take about 3 s at 1.6 Mbit/s); past it the
#: import fails with that reason, and a later one tries again.
FETCH_DEADLINE_MS = 60_000
#: What the zip holds, as a message names it: the core's modules that the first answer
#: does not import, and the standard library modules the boot does not.
REST = "the rest of the DOI engine's files (doiname's and the standard library's)"


def integrity_ok(data: bytes, integrity: str) -> bool:
    """Whether ``data`` has one of the hashes of ``integrity`` (Subresource Integrity's
    ``sha256-``/``sha384-``/``sha512-`` base64 values, space separated), as the browser
    checks the first zip."""
    import base64
    import hashlib

    for value in integrity.split():
        algorithm, _, digest = value.partition("-")
        if algorithm in ("sha256", "sha384", "sha512"):
            got = base64.b64encode(hashlib.new(algorithm, data).digest()).decode("ascii")
            if got == digest:
                return True
    return False


def fetch_sync(url: str) -> bytes:
    """The body of ``url``, fetched synchronously (an ``XMLHttpRequest`` in the web
    worker, which may block). Raises ImportError with a plain reason when it fails."""
    from js import Uint8Array, XMLHttpRequest  # type: ignore[import-not-found]

    request = XMLHttpRequest.new()
    request.open("GET", url, False)
    request.responseType = "arraybuffer"
    request.timeout = FETCH_DEADLINE_MS  # (a worker's synchronous request may have one)
    try:
        request.send()
    except Exception as err:  # the browser's network error or time-out, as a JsException
        raise ImportError(f"{REST} could not be downloaded "
                          f"within {FETCH_DEADLINE_MS // 1000} s ({url}: {err})") from None
    if request.status != 200:
        raise ImportError(f"{REST} could not be downloaded "
                          f"({url}: HTTP {request.status})")
    data: bytes = Uint8Array.new(request.response).to_bytes()
    return data


class Arriving:
    """The meta path finder of the package's files still on their way (the class
    module's docstring says how it is used)."""

    def __init__(self, url: str, integrity: str, folder: str, unpack: Callable[[bytes], None],
                 fetch: Callable[[str], bytes] = fetch_sync,
                 modules: Iterable[str] = ()) -> None:
        self.url = url
        self.integrity = integrity
        self.folder = folder
        self.unpack = unpack
        self.fetch = fetch
        self.modules = frozenset(str(m) for m in modules)
        self.bringing = False

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: Any = None) -> ModuleSpec | None:
        """A module of the package, or a standard library module of the rest, that no
        other finder found: the rest is fetched now, then the path finder is asked again
        (``path``, a package's ``__path__``, has the rest's folder by then)."""
        if self.bringing or (name != PACKAGE and not name.startswith(PACKAGE + ".")
                             and name not in self.modules):
            return None
        self.bring()
        return PathFinder.find_spec(name, path, target)

    def find_distributions(self, context: Any = None) -> Iterable[Any]:
        """The package's distribution when it is asked for (by name, or every one): the
        rest, which holds its metadata, is fetched now."""
        name = getattr(context, "name", None)
        if name is not None and name.lower().replace("_", "-") != PACKAGE:
            return iter(())
        self.bring()
        from importlib.metadata import DistributionFinder

        return PathFinder.find_distributions(
            DistributionFinder.Context(name=PACKAGE, path=getattr(context, "path", sys.path)))

    def bring(self) -> None:
        """Download, check, ungzip and unpack the rest, then stop waiting for it. What
        this imports must not be in the rest (the build's measurement of the boot runs
        :func:`integrity_ok`); an import of it meanwhile is not asked for again."""
        self.bringing = True
        try:
            self._bring()
        finally:
            self.bringing = False

    def _bring(self) -> None:
        import zlib

        data = self.fetch(self.url)
        if not integrity_ok(data, self.integrity):
            raise ImportError(f"{REST} is not the file this build "
                              f"was made with ({self.url}: its integrity check failed)")
        try:
            self.unpack(zlib.decompress(data, 16 + zlib.MAX_WBITS))
        except Exception as err:  # not gzip, not a zip the unpacker reads
            raise ImportError(f"{REST} could not be read "
                              f"({self.url}: {err})") from None
        arrived()


def _current() -> Arriving | None:
    return next((f for f in sys.meta_path if isinstance(f, Arriving)), None)


def expect(url: str, integrity: str, folder: str, unpack: Callable[[bytes], None],
           modules: Iterable[str] = ()) -> None:
    """Wait for the rest of the package and the standard library ``modules`` it holds
    (``url``, a gzipped zip with the ``integrity`` value, which ``unpack`` writes into
    ``folder``, the standard library's folder, once ungzipped): until :func:`arrived`, an
    import that needs it fetches it itself."""
    if _current() is None:
        sys.meta_path.append(Arriving(url, integrity, folder, unpack, modules=modules))


def waiting() -> bool:
    """Whether the rest is still awaited (no import has fetched it already)."""
    return _current() is not None


def arrived() -> None:
    """The rest is unpacked into its folder: that folder is on ``sys.path`` (after the
    standard library's zip), the path finders of it and below forget what they listed (a
    folder they found missing is looked at again), each
    package imported from a zip on ``sys.path`` (the standard library's) looks in the
    same package's folder there too when the rest has one (``encodings``, ``importlib``:
    their other modules came with the rest), and nothing waits any more."""
    finder = _current()
    if finder is None:
        return
    sys.meta_path.remove(finder)
    folder = finder.folder.rstrip("/")
    if folder not in sys.path:  # the standard library's folder, which Pyodide leaves out
        after = next((i + 1 for i, p in enumerate(sys.path) if p.endswith(".zip")), 0)
        sys.path.insert(after, folder)
    for path, cached in list(sys.path_importer_cache.items()):
        if path == folder or path.startswith(folder + os.sep):
            if cached is None:
                del sys.path_importer_cache[path]
            elif hasattr(cached, "invalidate_caches"):
                cached.invalidate_caches()
    zips = [p.rstrip("/") + "/" for p in sys.path if p.endswith(".zip")]
    for module in list(sys.modules.values()):
        search = getattr(module, "__path__", None)
        if not isinstance(search, list):
            continue
        for entry in list(search):
            inside = next((entry[len(z):] for z in zips if entry.startswith(z)), None)
            there = os.path.join(folder, inside) if inside else None
            if there is not None and there not in search and os.path.isdir(there):
                search.append(there)
