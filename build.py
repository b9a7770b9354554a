#!/usr/bin/env python3
"""Build, serve and test the doiname web page. Standard library only.

    python3 build.py build            # writes dist/site/ and dist/doi-tool.html
    python3 build.py serve [--port N] # builds, then serves dist/site on 127.0.0.1:N (8000)
    python3 build.py test [ARGS...]   # sets everything up, builds, runs every check and test

``build`` runs ``npm ci`` when ``node_modules`` is missing or older than
``package-lock.json`` (Pyodide comes from the npm ``pyodide`` package pinned there) and
``pip download`` when micropip's wheel is not in ``.cache/wheels`` yet. Nothing is ever
loaded from a CDN: the site holds the Pyodide runtime, micropip's wheel (with its real
sha256 in the copied ``pyodide-lock.json``, so integrity checks stay on) and the core's
wheel, built by the ``pyproject.toml`` backend through ``pip wheel``.

``test`` is the README's test command for a fresh Debian machine: it installs what is
missing (Chromium with apt, ``.venv`` with ``pip install -e .[dev]``, the npm tools),
builds, then runs every check and test; its exit code is nonzero when any step fails.

The work is done by the package ``pycore/tools/doiname_build`` (its README lists the
modules); this file is its command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "pycore" / "tools"))

from doiname_build.check import test
from doiname_build.serve import serve
from doiname_build.site import build


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and run one command; returns the exit code."""
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="write dist/site/ and dist/doi-tool.html")
    p_serve = sub.add_parser("serve", help="build, then serve dist/site on 127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    sub.add_parser("test", help="install what is missing, build, run every check and test "
                                "(further arguments go to pytest)")
    args, rest = parser.parse_known_args(argv)
    if rest and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "build":
        build()
        return 0
    if args.command == "serve":
        serve(args.port, build())
        return 0
    return test(rest)


if __name__ == "__main__":
    sys.exit(main())
