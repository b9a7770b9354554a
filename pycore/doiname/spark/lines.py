"""Lines of a file as the CLI reads them, with the byte offset where each one starts.

``doiname batch FILE`` opens its file with ``encoding="utf-8-sig", errors="replace",
newline=""``: a byte-order mark at the very start is dropped, bytes that are not UTF-8
become U+FFFD, and lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``. :func:`iter_lines`
splits the bytes at the same places (UTF-8 never uses the bytes 0x0A and 0x0D inside a
character, so splitting bytes first and decoding each line gives the same text) and
says where each line starts, so that a task can begin at any byte of a file, as Spark
splits files: the line that starts at or after its first byte is the first one it owns.

A line holds at most :data:`LINE_BYTES` bytes in memory, however long it is (the CLI's
line bound, ``BATCH_MAX_LINE_CHARS`` characters: the rest is counted, not held).
Compressed files (``.gz``, ``.bz2``, ``.xz``) are read whole by one task, decompressed a
chunk at a time. A file is read as :func:`doiname.batch.text_encoding` says, as the CLI
and the page read it: UTF-8, or UTF-16 by its byte-order mark (:func:`text_reader`: its
text as UTF-8 bytes); a file that is not text is not read. Nothing here needs Spark.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterator
from typing import IO, Any, TypeAlias

from ..batch.lines import LongLine, TextEncoding
from ..limits import BATCH_MAX_LINE_CHARS, TEXT_SNIFF_BYTES

__all__ = [
    "CHUNK",
    "COMPRESSIONS",
    "LINE_BYTES",
    "SNIFF_BYTES",
    "Bytes",
    "LongBytes",
    "ReadFailed",
    "Utf8Of",
    "compression_of",
    "decode",
    "head",
    "iter_lines",
    "open_bytes",
    "read_some",
    "text_hint",
    "text_reader",
]

#: How many bytes are read at a time.
CHUNK = 1 << 20
#: How many bytes at the start of a file decide how it is read (text_encoding).
SNIFF_BYTES = TEXT_SNIFF_BYTES
#: File name endings read through a decompressor (by the standard library's modules).
COMPRESSIONS = {".gz": "gzip", ".bz2": "bz2", ".xz": "lzma", ".lzma": "lzma"}

#: A file's bytes: an open file, a decompressing reader or bytes in memory.
Bytes: TypeAlias = IO[bytes] | io.BufferedIOBase

_EOL = re.compile(rb"\r\n?|\n")
#: Bytes of one line held at most: BATCH_MAX_LINE_CHARS characters of UTF-8 (at most
#: four bytes each); the rest of a longer line is counted, never held.
LINE_BYTES = 4 * BATCH_MAX_LINE_CHARS
_CONTINUATION = bytes(range(0x80, 0xC0))
_BOM = b"\xef\xbb\xbf"


class LongBytes(bytes):
    """The first :data:`LINE_BYTES` bytes of a longer line; ``more`` is how many
    characters follow them (decoded, the line is a :class:`~doiname.batch.LongLine`)."""

    more: int

    @classmethod
    def of(cls, kept: bytes, more: int) -> LongBytes:
        """``kept`` followed by ``more`` characters not held."""
        line = cls(kept)
        line.more = more
        return line


class ReadFailed(Exception):
    """Reading a file stopped: ``offset`` is the byte (of the decompressed text) reached,
    ``reason`` says why in plain words."""

    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(f"{reason} (at byte {offset:,})")
        self.offset = offset
        self.reason = reason


def compression_of(path: str) -> str | None:
    """The decompressor a file name asks for (``gzip``, ``bz2``, ``lzma``), or ``None``."""
    lower = path.lower()
    for ending, name in COMPRESSIONS.items():
        if lower.endswith(ending):
            return name
    return None


def text_hint(path: str) -> str | None:
    """``"csv"`` for a ``.csv`` or ``.tsv`` file (also compressed), as the CLI decides
    (a quoted cell may then hold line breaks), else ``None``."""
    lower = path.lower()
    for ending in COMPRESSIONS:
        if lower.endswith(ending):
            lower = lower[: -len(ending)]
            break
    return "csv" if lower.endswith((".csv", ".tsv")) else None


def open_bytes(path: str, compression: str | None) -> Bytes:
    """The file's bytes, decompressed when ``compression`` says so (``OSError`` if it
    cannot be opened)."""
    if compression == "gzip":
        import gzip

        return gzip.open(path, "rb")
    if compression == "bz2":
        import bz2

        return bz2.open(path, "rb")
    if compression == "lzma":
        import lzma

        return lzma.open(path, "rb")
    return open(path, "rb")


def _why(err: BaseException) -> str:
    text = getattr(err, "strerror", None) or str(err) or type(err).__name__
    return text[:1].upper() + text[1:]


def read_some(f: Bytes, n: int, offset: int) -> bytes:
    """Up to ``n`` bytes of ``f`` (``read1``: what is there, so that the text before a
    cut in a compressed stream is not lost with it), any failure (I/O, a corrupt or cut
    compressed stream) raised as :class:`ReadFailed` at ``offset``."""
    read = getattr(f, "read1", f.read)
    try:
        return bytes(read(n))
    except Exception as err:  # decompressors raise OSError, EOFError, zlib/lzma errors
        raise ReadFailed(offset, _why(err)) from err


def head(f: Bytes) -> bytes:
    """The first :data:`SNIFF_BYTES` bytes of ``f`` (fewer at its end, or where reading
    fails: the failure is for the reading of lines to report)."""
    got = b""
    while len(got) < SNIFF_BYTES:
        try:
            more = read_some(f, SNIFF_BYTES - len(got), len(got))
        except ReadFailed:
            break
        if not more:
            break
        got += more
    return got


class Utf8Of(io.RawIOBase):
    """The text of a UTF-16 file as UTF-8 bytes, decoded a chunk at a time (a bad code
    unit becomes U+FFFD, as the CLI reads it), so that :func:`iter_lines` splits it as
    it splits any file. ``f`` is past the byte-order mark."""

    def __init__(self, f: Bytes, encoding: str) -> None:
        super().__init__()
        self.f = f
        self.decoder = codecs.getincrementaldecoder(encoding)("replace")
        self.out = b""
        self.at = 0
        self.ended = False

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        while not self.out and not self.ended:
            data = read_some(self.f, CHUNK, self.at)
            self.at += len(data)
            self.ended = not data
            self.out = self.decoder.decode(data, final=self.ended).encode("utf-8")
        n = min(len(b), len(self.out))
        b[:n] = self.out[:n]
        self.out = self.out[n:]
        return n

    def close(self) -> None:
        self.f.close()
        super().close()


def text_reader(f: Bytes, encoding: TextEncoding, bom: int) -> Bytes:
    """``f``, at its start, read as :func:`~doiname.batch.text_encoding` says: UTF-8 as
    it is; UTF-16 as its text in UTF-8, without its byte-order mark."""
    if encoding == "utf-8":
        return f
    read_some(f, bom, 0)
    return io.BufferedReader(Utf8Of(f, encoding), CHUNK)


def decode(line: bytes, offset: int) -> str:
    """One line's text as the CLI reads it (UTF-8, bad bytes as U+FFFD; the file's first
    line without its byte-order mark)."""
    more = line.more if isinstance(line, LongBytes) else 0
    if offset == 0 and line.startswith(_BOM):
        line = line[3:]
    text = line.decode("utf-8", "replace")
    if more or len(text) > BATCH_MAX_LINE_CHARS:
        return LongLine(text[:BATCH_MAX_LINE_CHARS], len(text) + more)
    return text


def iter_lines(f: Bytes, start: int = 0) -> Iterator[tuple[int, bytes]]:
    """``(offset, bytes)`` of each line that starts at byte ``start`` or later, without its
    line break, lazily, to the end of the file.

    ``f`` must be positioned at byte ``max(0, start - 1)`` (the byte before ``start``
    says whether a line starts at ``start``). A last line without a line break is a
    line; nothing after the last line break is not. At most :data:`LINE_BYTES` bytes of
    a line are held, as the CLI holds at most ``BATCH_MAX_LINE_CHARS`` characters
    (:func:`doiname.batch.read_lines`): a longer line comes out as :class:`LongBytes`,
    its rest read (decompressed a chunk at a time) and counted, never held. Raises
    :class:`ReadFailed` when reading fails."""
    pos = start - 1 if start > 0 else 0
    pieces: list[bytes] = []  # the current line's bytes from earlier chunks
    held = 0  # how many bytes pieces hold (at most LINE_BYTES)
    more = 0  # characters of the current line after those held
    line_at = pos  # where the current line starts
    offset = pos  # where the current chunk starts
    after_cr = False  # the last chunk ended with \r: a \n now belongs to it
    while True:
        data = read_some(f, CHUNK, offset)
        if not data:
            break
        i = 0
        n = len(data)
        if after_cr:
            after_cr = False
            if data[0] == 0x0A:
                i = 1
            line_at = offset + i
        search = _EOL.search
        while True:
            m = search(data, i)
            if m is None:
                break
            a, b = m.span()
            if pieces or a - i > LINE_BYTES:
                keep = max(0, min(a - i, LINE_BYTES - held))
                pieces.append(data[i:i + keep])
                more += _chars(data, i + keep, a)
                line = b"".join(pieces)
                if more:
                    line = LongBytes.of(line, more)
                pieces = []
                held = more = 0
            else:
                line = data[i:a]
            if line_at >= start:
                yield line_at, line
            i = b
            line_at = offset + b
            if b == n and b - a == 1 and data[a] == 0x0D:  # \r ends the chunk: \r\n cut?
                after_cr = True
        if i < n:
            keep = max(0, min(n - i, LINE_BYTES - held))
            if keep:
                pieces.append(data[i:i + keep])
                held += keep
            more += _chars(data, i + keep, n)
        offset += n
    if pieces and line_at >= start:
        last = b"".join(pieces)
        if line_at or last != _BOM:  # a file of a byte-order mark alone has no line
            yield line_at, LongBytes.of(last, more) if more else last


def _chars(data: bytes, a: int, b: int) -> int:
    """How many characters ``data[a:b]`` starts (UTF-8: the bytes that do not continue
    a character; each byte that is not UTF-8 is one U+FFFD, as decoding makes it)."""
    if b <= a:
        return 0
    return len(data[a:b].translate(None, _CONTINUATION))
