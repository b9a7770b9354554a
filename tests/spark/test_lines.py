"""Lines as the CLI reads a file, from any byte (no Spark needed)."""

from __future__ import annotations

import gzip
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doiname.spark import lines
from doiname.spark.lines import compression_of, decode, head, iter_lines, not_text, text_hint

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


def test_what_is_not_text() -> None:
    assert not_text(b"10.1000/182\n") is None
    assert "NUL byte at byte 3" in (not_text(b"PK\x03\x00\x04") or "")
    assert "UTF-16" in (not_text("10.1000/1".encode("utf-16")) or "")
    assert "UTF-32" in (not_text("10.1000/1".encode("utf-32")) or "")
    assert not_text(b"x" * 9000 + b"\x00") is None  # only the first 8,000 bytes decide


def test_names_say_how_to_read_a_file() -> None:
    assert [compression_of(p) for p in ("a.txt", "a.JSONL.GZ", "b.bz2", "c.xz")] == [
        None, "gzip", "bz2", "lzma"]
    assert [text_hint(p) for p in ("a.csv", "a.TSV.gz", "a.txt", "csv")] == [
        "csv", "csv", None, None]


def test_the_head_of_a_cut_stream_is_what_could_be_read() -> None:
    packed = gzip.compress(b"".join(b"10.1000/%d\n" % i for i in range(5000)))
    cut = gzip.GzipFile(fileobj=io.BytesIO(packed[: len(packed) // 2]))
    assert head(cut).startswith(b"10.1000/0\n10.1000/1\n")
