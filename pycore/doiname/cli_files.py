"""The command line's input files: a path, or ``-`` for standard input."""

from __future__ import annotations

import contextlib
from typing import TextIO

__all__ = ["open_input"]


def open_input(path: str, stdin: TextIO,
               stderr: TextIO) -> contextlib.AbstractContextManager[TextIO] | None:
    """The file at ``path`` opened for reading as UTF-8 (a byte-order mark skipped, bad
    bytes replaced, line breaks kept as they are), or ``stdin`` for ``-``; ``None``, with
    the reason on ``stderr``, when it cannot be opened."""
    if path == "-":
        return contextlib.nullcontext(stdin)
    try:
        return open(path, encoding="utf-8-sig", errors="replace", newline="")
    except OSError as err:
        stderr.write(f"doiname: cannot read {path}: {err.strerror}\n")
        return None
