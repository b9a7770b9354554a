"""Lines as the CLI reads a file, from any byte (no Spark needed)."""

from __future__ import annotations

import gzip
import io
import tracemalloc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doiname.batch import LongLine, read_lines
from doiname.batch.lines import NotText, TextEncoding, text_encoding
from doiname.limits import BATCH_MAX_LINE_CHARS
from doiname.spark import lines
from doiname.spark.lines import (
    CHUNK,
    compression_of,
    decode,
    head,
    iter_lines,
    text_hint,
    text_reader,
)

PIECES = [b"\r", b"\n", b"\r\n", b"\xef\xbb\xbf", b"a", b"10.1000/x", b"\xc3\xa9", b"\xc3",
          b"\xe2\x80", b"\xff", b"\x80", b" ", b"\xf0\x9f\x98\x80", b"{", b"}"]
data = st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join)


def cli_lines(raw: bytes) -> list[str]:
    f = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8-sig", errors="replace", newline="")
    return [line.removesuffix("\n").removesuffix("\r") for line in f]


def ours(raw: bytes, start: int = 0) -> list[tuple[int, str]]:
    f = io.BytesIO(raw)
    f.seek(max(0, start - 1))
    return [(at, decode(b, at)) for at, b in iter_lines(f, start)]


@settings(max_examples=400)
@given(data, st.integers(1, 7), st.data())
def test_lines_and_their_text_are_the_clis_from_any_byte(
        raw: bytes, chunk: int, pick: st.DataObject) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(lines, "CHUNK", chunk)  # line breaks cut between chunks
        whole = ours(raw)
        assert [text for _, text in whole] == cli_lines(raw)
        start = pick.draw(st.integers(0, len(raw) + 1))
        assert ours(raw, start) == [(at, text) for at, text in whole if at >= start]


class _Stream(io.RawIOBase):
    """``size`` bytes of ``unit`` said again and again, then ``tail``, made as they are read
    (never in memory whole: what a decompressor gives)."""

    def __init__(self, unit: bytes, size: int, tail: bytes) -> None:
        self.unit, self.left, self.tail = unit, size, tail

    def readable(self) -> bool:
        return True

    def readinto(self, b: Any) -> int:
        if self.left <= 0:
            n = min(len(b), len(self.tail))
            b[:n] = self.tail[:n]
            self.tail = self.tail[n:]
            return n
        n = min(len(b), self.left) // len(self.unit) * len(self.unit) or len(self.unit)
        b[:n] = self.unit * (n // len(self.unit))
        self.left -= n
        return n


def test_a_long_line_holds_the_clis_bound_not_the_line() -> None:
    """A line of 32 MB: at most LINE_BYTES of it are held (the rest counted), and it reads
    as the CLI reads it: its first BATCH_MAX_LINE_CHARS characters and its length."""
    unit, tail = "ab\u00e9\u2010".encode(), b"\n10.1000/x\n"
    size = (32 << 20) // len(unit) * len(unit)
    chars = size // len(unit) * 4
    tracemalloc.start()
    got = [(at, decode(raw, at)) for at, raw in iter_lines(io.BufferedReader(
        _Stream(unit, size, tail), CHUNK))]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 3 * CHUNK + 4 * lines.LINE_BYTES, peak  # it was the whole line, 3 times
    (first_at, first), (second_at, second) = got
    assert isinstance(first, LongLine) and first.total == chars
    assert first == ("ab\u00e9\u2010" * BATCH_MAX_LINE_CHARS)[:BATCH_MAX_LINE_CHARS]
    assert (first_at, second_at, second) == (0, size + 1, "10.1000/x")
    cli = list(read_lines(io.TextIOWrapper(io.BufferedReader(_Stream(unit, size, tail)),
                                           encoding="utf-8", newline="")))
    assert [(x, getattr(x, "total", None)) for x in cli] == [
        (first, chars), ("10.1000/x", None)]


def test_how_a_file_is_read_is_its_byte_order_mark() -> None:
    assert text_encoding(b"10.1000/182\n") == ("utf-8", 0)
    assert text_encoding(b"\xef\xbb\xbf10.1000/182") == ("utf-8", 3)
    assert text_encoding("10.1000/1".encode("utf-16-le")[:0] + b"\xff\xfe1\x00") == (
        "utf-16le", 2)
    assert text_encoding(b"\xfe\xff\x001") == ("utf-16be", 2)
    for raw, words in ((b"PK\x03\x00\x04", "NUL byte at byte 3"),
                       ("10.1000/1".encode("utf-32"), "UTF-32 LE text")):
        with pytest.raises(NotText, match=words):
            text_encoding(raw)
    assert text_encoding(b"x" * 9000 + b"\x00") == ("utf-8", 0)  # the first 8,000 bytes


def test_utf16_is_read_as_its_text_in_utf8() -> None:
    text = "10.1000/1\r\n\u00e9 10.1000/\U0001f600\n\ud800x\n"
    cases: list[tuple[str, TextEncoding, bytes]] = [("utf-16-le", "utf-16le", b"\xff\xfe"),
                                                    ("utf-16-be", "utf-16be", b"\xfe\xff")]
    for codec, encoding, bom in cases:
        f = io.BufferedReader(io.BytesIO(bom + text.encode(codec, "surrogatepass")))
        assert text_encoding(head(f)) == (encoding, 2)
        f.seek(0)
        got = [decode(b, at) for at, b in iter_lines(text_reader(f, encoding, 2))]
        assert got == ["10.1000/1", "\u00e9 10.1000/\U0001f600", "\ufffdx"]


def test_names_say_how_to_read_a_file() -> None:
    assert [compression_of(p) for p in ("a.txt", "a.JSONL.GZ", "b.bz2", "c.xz")] == [
        None, "gzip", "bz2", "lzma"]
    assert [text_hint(p) for p in ("a.csv", "a.TSV.gz", "a.txt", "csv")] == [
        "csv", "csv", None, None]


def test_the_head_of_a_cut_stream_is_what_could_be_read() -> None:
    packed = gzip.compress(b"".join(b"10.1000/%d\n" % i for i in range(5000)))
    cut = gzip.GzipFile(fileobj=io.BytesIO(packed[: len(packed) // 2]))
    assert head(cut).startswith(b"10.1000/0\n10.1000/1\n")
