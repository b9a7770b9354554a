"""Text in pieces to lines, bounded: :class:`LineSplitter` (a pasted text or a file read as
a stream, cut anywhere) and :class:`LongLine` (a line cut at the bound).

Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``, as the CLI reads a file
(``open(..., newline="")``), wherever the pieces are cut: between ``\\r`` and ``\\n``,
inside a line, inside a record. A line longer than
:data:`~doiname.limits.BATCH_MAX_LINE_CHARS` keeps only its first characters; the rest is
counted, never held, so memory stays bounded whatever the input.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO, Literal, TextIO

from ..limits import BATCH_MAX_LINE_CHARS, TEXT_SNIFF_BYTES
from ..model import Finding

__all__ = ["LineSplitter", "LongLine", "NotText", "TextEncoding", "lines_of", "open_text",
           "read_lines",
           "read_up_to", "split_lines", "text_encoding", "too_long"]

#: How a text file is read: its encoding, as the WHATWG Encoding Standard names it (the
#: page's TextDecoder takes the same name; Python's codecs too).
TextEncoding = Literal["utf-8", "utf-16le", "utf-16be"]
#: Byte-order marks, longest first (UTF-32's starts like UTF-16's): the encoding each
#: says, or None for one that is not read.
_BOMS: tuple[tuple[bytes, TextEncoding | None, str], ...] = (
    (b"\xff\xfe\x00\x00", None, "UTF-32 LE"), (b"\x00\x00\xfe\xff", None, "UTF-32 BE"),
    (b"\xef\xbb\xbf", "utf-8", "UTF-8"), (b"\xff\xfe", "utf-16le", "UTF-16 LE"),
    (b"\xfe\xff", "utf-16be", "UTF-16 BE"))


class NotText(ValueError):
    """A file that is not read as text; the message says what was found and where."""


def text_encoding(head: bytes) -> tuple[TextEncoding, int]:
    """How a file whose first bytes are ``head`` is read (its first
    :data:`~doiname.limits.TEXT_SNIFF_BYTES` bytes decide), the one rule of the CLI, the
    page and Spark: its encoding and the length of the byte-order mark that starts it.

    A byte-order mark says UTF-8, UTF-16 LE or UTF-16 BE; without one the file is UTF-8
    (bytes that are not become U+FFFD). Raises :class:`NotText`, in words, for a UTF-32
    byte-order mark and for a NUL byte among the first bytes of a file without a UTF-16
    mark (images, PDFs, archives and spreadsheets all have one; read as text they would
    give a row of noise per line)."""
    for bom, encoding, name in _BOMS:
        if head.startswith(bom):
            if encoding is None:
                raise NotText(f"it is {name} text (its first bytes are the {name} "
                              "byte-order mark); doiname reads UTF-8 and UTF-16: save the "
                              "file as UTF-8")
            return encoding, len(bom)
    at = head.find(b"\x00", 0, TEXT_SNIFF_BYTES)
    if at >= 0:
        raise NotText(f"it is not text: a NUL byte at byte {at:,} (an image, a PDF, an "
                      "archive or a spreadsheet?)")
    return "utf-8", 0


def open_text(f: BinaryIO | io.BufferedReader) -> TextIO:
    """A file opened for its bytes, read as text by :func:`text_encoding` (its byte-order
    mark dropped, bad bytes as U+FFFD, line breaks kept for :func:`read_lines`). Raises
    :class:`NotText`."""
    peek = getattr(f, "peek", None)
    head = peek(TEXT_SNIFF_BYTES)[:TEXT_SNIFF_BYTES] if peek is not None else b""
    encoding, bom = text_encoding(head)
    f.read(bom)
    return io.TextIOWrapper(f, encoding=encoding, errors="replace", newline="")

_BREAK = re.compile(r"\r\n|\r|\n")
#: What a name never holds (R8, R9): where a line cut at the bound is cut again.
_NAME_ENDS = " \t\"`\u00a0\u3000“”«»"


class LongLine(str):
    """The first :data:`~doiname.limits.BATCH_MAX_LINE_CHARS` characters of a longer line;
    ``total`` is the length of the whole line."""

    total: int

    def __new__(cls, kept: str, total: int) -> LongLine:
        line = super().__new__(cls, kept)
        line.total = total
        return line


def _unmarked(text: str) -> str:
    """A whole text without the byte-order mark that starts it (``open(path).read()`` of
    a file saved "UTF-8 with BOM" keeps it): it is the file's encoding, not its text, as
    :func:`open_text` reads a file's bytes (a first line ``\ufeffTY  - JOUR`` would not
    open its record)."""
    return text[1:] if text[:1] == "\ufeff" else text


def split_lines(text: str) -> list[str]:
    """The lines of a whole text (without their breaks and its byte-order mark,
    :func:`_unmarked`; a final break ends the last line, it does not start an empty one;
    an empty text has no lines)."""
    text = _unmarked(text)
    if not text:
        return []
    lines = text.split("\n") if "\r" not in text else _BREAK.split(text)
    if lines[-1] == "":
        lines.pop()
    return lines


class LineSplitter:
    """Complete lines out of text fed in pieces cut anywhere.

    :meth:`feed` returns the lines a piece completes; :meth:`end` the last one. At most
    ``max_line`` characters of a line are held: a longer line comes out as a
    :class:`LongLine`. ``chars_in`` counts the characters fed.
    """

    __slots__ = ("_cr", "_held", "_held_len", "_total", "chars_in", "max_line")

    def __init__(self, max_line: int = BATCH_MAX_LINE_CHARS) -> None:
        self.max_line = max_line
        self._held: list[str] = []  # the start of a line not ended yet (at most max_line)
        self._held_len = 0
        self._total = 0  # the whole length of that line so far
        self._cr = False  # the last piece ended with "\r": a "\n" first ends no line
        self.chars_in = 0

    @property
    def held(self) -> int:
        """Characters held of a line not ended yet."""
        return self._held_len

    def feed(self, piece: str) -> list[str]:
        """The lines that ``piece`` completes, in order."""
        if not piece:
            return []
        if not self.chars_in:  # the text's first piece: its byte-order mark is not text
            self.chars_in = len(piece)
            piece = _unmarked(piece)
            if not piece:
                return []
        else:
            self.chars_in += len(piece)
        if self._cr:
            self._cr = False
            if piece[0] == "\n":  # the "\n" of a "\r\n" cut in two
                piece = piece[1:]
                if not piece:
                    return []
        self._cr = piece[-1] == "\r"
        parts = piece.split("\n") if "\r" not in piece else _BREAK.split(piece)
        if len(parts) == 1:
            self._hold(parts[0])
            return []
        out: list[str] = []
        if self._total:
            self._hold(parts[0])
            out.append(self._release())
        else:
            out.append(self._line(parts[0]))
        middle = parts[1:-1]
        if middle and max(map(len, middle)) > self.max_line:  # (else each is whole)
            middle = [self._line(x) for x in middle]
        out += middle
        self._hold(parts[-1])
        return out

    def end(self) -> list[str]:
        """The last line, when the text does not end with a line break."""
        self._cr = False
        return [self._release()] if self._total else []

    def _line(self, line: str) -> str:
        return line if len(line) <= self.max_line else LongLine(line[:self.max_line], len(line))

    def _hold(self, part: str) -> None:
        if not part:
            return
        self._total += len(part)
        room = self.max_line - self._held_len
        if room > 0:
            kept = part[:room]
            self._held.append(kept)
            self._held_len += len(kept)

    def _release(self) -> str:
        text = self._held[0] if len(self._held) == 1 else "".join(self._held)
        total = self._total
        self._held = []
        self._held_len = 0
        self._total = 0
        return text if total <= self.max_line else LongLine(text, total)


def _unbroken(line: str) -> str:
    """``line`` without its final ``\\n``, ``\\r\\n`` or ``\\r``."""
    if line[-1:] == "\n":
        return line[:-2] if line[-2:-1] == "\r" else line[:-1]
    return line[:-1] if line[-1:] == "\r" else line


def lines_of(lines: Iterable[str]) -> Iterable[str]:
    """``lines`` as lines: a ``str`` is the text of a whole list, read as a file's text is
    (:func:`read_lines`: broken at ``\n``, ``\r`` and ``\r\n``, each line bounded), not
    one character a line); any other iterable is its lines already. The byte-order mark
    that starts either is dropped (:func:`_unmarked`)."""
    if isinstance(lines, str):
        return read_lines(io.StringIO(_unmarked(lines), newline=""))
    return _first_unmarked(lines)


def _first_unmarked(lines: Iterable[str]) -> Iterator[str]:
    """``lines``, the first without the byte-order mark that starts it (the lines of a
    file opened as UTF-8 that was saved with one)."""
    source = iter(lines)
    for first in source:
        yield first if isinstance(first, LongLine) else _unmarked(first)
        yield from source


def read_lines(fp: TextIO, max_line: int = BATCH_MAX_LINE_CHARS) -> Iterator[str]:
    """The lines of a text file, without their breaks, read one at a time (a file opened
    with ``newline=""``, or standard input): a line longer than ``max_line`` comes out
    as a :class:`LongLine`, its rest read and counted but never held."""
    limit = max_line + 1
    cut_cr = False  # the last read stopped at its limit right after a "\r"

    def read() -> str:
        nonlocal cut_cr
        raw = fp.readline(limit)
        if cut_cr and raw[:1] == "\n":  # the "\n" of a "\r\n" the limit cut in two
            raw = raw[1:] or fp.readline(limit)
        cut_cr = len(raw) == limit and raw[-1] == "\r"
        return raw

    while True:
        raw = read()
        if not raw:
            return
        line = _unbroken(raw)
        if len(line) > max_line:  # the line goes on: count the rest
            total = len(line)
            while True:
                more = read()
                rest = _unbroken(more)
                total += len(rest)
                if len(rest) != len(more) or not more:
                    break
            line = LongLine(line[:max_line], total)
        yield line


def read_up_to(kept: str) -> int:
    """Where the text read of a line cut at the bound ends: after the last space or quote
    among its last 2,000 characters (nothing a name holds, R8 and R9), so the name the
    bound cuts is not read as a shorter one; the whole text when there is none."""
    lo = max(0, len(kept) - 2000)
    best = max(kept.rfind(c, lo) for c in _NAME_ENDS)
    return best + 1 if best != -1 else len(kept)


def too_long(total: int, at: int) -> Finding:
    """The error of a line of ``total`` characters read up to ``at`` (:func:`read_up_to`):
    what was read, what was not, and what to do."""
    return Finding(
        "line-too-long", "error",
        f"This line has {total:,} characters; a batch reads at most "
        f"{BATCH_MAX_LINE_CHARS:,} of a line: the names in its first {at:,} characters "
        f"are in the rows above, the {total - at:,} characters after were not read. Put "
        "one reference per line, or use the command line for this file.",
        at, at, at, at, in_name=False, source="doiname limits")
