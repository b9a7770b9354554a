"""The command line's input files: a path, or ``-`` for standard input."""

from __future__ import annotations

import contextlib
import io
from typing import TextIO

from .batch.lines import NotText, open_text

__all__ = ["open_input"]


def open_input(path: str, stdin: TextIO,
               stderr: TextIO) -> contextlib.AbstractContextManager[TextIO] | None:
    """The file at ``path`` opened for reading as text, in the encoding its byte-order mark
    says (:func:`doiname.batch.lines.text_encoding`: UTF-8 or UTF-16, the mark skipped,
    bad bytes replaced, line breaks kept as they are), or standard input for ``-``, read by
    the same rule from its bytes when it has them (a text stream without bytes, as a
    caller may give, is read as it is); ``None``, with the reason on ``stderr``, when it
    cannot be opened or is not text."""
    if path == "-":
        buffer = getattr(stdin, "buffer", None)
        if not isinstance(buffer, io.BufferedReader):
            return contextlib.nullcontext(stdin)
        try:
            return open_text(buffer)
        except NotText as err:
            stderr.write(f"doiname: standard input was not read: {err}.\n")
            return None
    try:
        f = open(path, "rb")  # noqa: SIM115
    except OSError as err:
        stderr.write(f"doiname: cannot read {path}: {err.strerror}\n")
        return None
    try:
        return open_text(f)
    except NotText as err:
        f.close()
        stderr.write(f"doiname: {path} was not read: {err}.\n")
        return None
