"""Percent-escapes decoded exactly once, keeping where each character came from.

001: "% will always be interpreted as the start of a hex encoded character" (a literal
``%`` is written ``%25``); 002 appendix A and 003 ch. 2: the escaped bytes are UTF-8.
:func:`decode` is the one decoder of the package: positions are the product (a finding
points at the characters of the input that produced a character of the name), so it
returns, for each decoded character, the span of the input it came from.
"""

from __future__ import annotations

import binascii
import re

from .errors import DoiError

__all__ = ["HEX", "Span", "bad_escape_at", "decode", "decode_valid"]

Span = tuple[int, int]

HEX = frozenset("0123456789abcdefABCDEF")
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")


def bad_escape_at(text: str, start: int = 0, end: int | None = None) -> int:
    """Index of the first ``%`` in ``text[start:end]`` not followed by two hex digits, or -1."""
    m = _BAD_ESCAPE.search(text, start, len(text) if end is None else end)
    if m is None:
        return -1
    stop = len(text) if end is None else end
    # A "%" whose two hex digits run past ``end`` is bad inside the slice too.
    return m.start() if m.start() < stop else -1


def _bad_percent(i: int, end: int) -> DoiError:
    return DoiError.at(
        "bad-percent",
        "“%” at character {at} is not followed by two hexadecimal digits. "
        "“%” always starts an escape; a literal “%” is written %25.",
        i, min(i + 3, end),
    )


def decode(text: str, start: int = 0, end: int | None = None,
           want_spans: bool = True) -> tuple[str, list[Span]]:
    """Decode the %-escapes of ``text[start:end]`` once, as UTF-8 (001, 003 ch. 2).

    Returns the decoded text and, when ``want_spans``, for each of its characters the
    ``(start, end)`` of the input that produced it (an escape ``%E2%80%90`` produces one
    character from nine). Raises :class:`DoiError` ``bad-percent`` (a ``%`` without two
    hex digits) or ``bad-utf8``, positioned in ``text``.
    """
    stop = len(text) if end is None else end
    pct = text.find("%", start, stop)
    if pct == -1:
        seg = text[start:stop]
        return seg, list(zip(range(start, stop), range(start + 1, stop + 1), strict=True)) \
            if want_spans else []
    if not want_spans:
        plain = decode_valid(text[start:stop])
        if plain is not None:
            return plain, []
        # the slow path below says where the escapes go wrong
    out: list[str] = []
    spans: list[Span] = []
    i = start
    while i < stop:
        if text[i] != "%":
            j = text.find("%", i, stop)
            if j == -1:
                j = stop
            out.append(text[i:j])  # a run without escapes: one span per character
            spans.extend(zip(range(i, j), range(i + 1, j + 1), strict=True))
            i = j
            continue
        run_start = i
        data = bytearray()
        while i < stop and text[i] == "%":
            h = text[i + 1:i + 3]
            if i + 2 >= stop or len(h) < 2 or h[0] not in HEX or h[1] not in HEX:
                raise _bad_percent(i, stop)
            data.append(int(h, 16))
            i += 3
        _append_utf8(bytes(data), run_start, out, spans)
    return "".join(out), spans


def decode_valid(seg: str) -> str | None:
    """``seg`` with its %-escapes decoded once as UTF-8 (001, 003 ch. 2), or ``None`` when an
    escape is bad (a ``%`` without two hex digits, bytes that are not UTF-8): what
    :func:`decode` gives without spans, less the error it would raise."""
    if _BAD_ESCAPE.search(seg) is not None:
        return None
    try:
        if "=" in seg or not seg.isascii():
            return _unescape(seg)
        # Every "%" starts an escape (searched above) and there is no "=": written with "="
        # the escapes are quoted-printable ones, which a2b_qp decodes to their bytes in C,
        # copying every other character (no "_" rule: header=False); then UTF-8, strict.
        return binascii.a2b_qp(seg.replace("%", "=")).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _unescape(seg: str) -> str:
    """Decode the valid %-escapes of ``seg`` as UTF-8 (strict): the fast path of :func:`decode`."""
    pieces = seg.split("%")
    out = [pieces[0]]
    data = bytearray()
    for piece in pieces[1:]:
        data.append(int(piece[:2], 16))
        if len(piece) > 2:
            out.append(data.decode("utf-8"))
            data.clear()
            out.append(piece[2:])
    if data:
        out.append(data.decode("utf-8"))
    return "".join(out)


def _utf8_size(first: int) -> int:
    """Length of the UTF-8 sequence that starts with byte ``first`` (0: not a start byte)."""
    if first < 0x80:
        return 1
    if first >> 5 == 6:
        return 2
    if first >> 4 == 14:
        return 3
    return 4 if first >> 3 == 30 else 0


def _append_utf8(data: bytes, run_start: int, out: list[str], spans: list[Span]) -> None:
    """Decode one run of escaped bytes, keeping for each character the span of its escapes."""
    pos = 0
    while pos < len(data):
        first = data[pos]
        size = _utf8_size(first)
        chunk = data[pos:pos + size] if size else b""
        try:
            if not size or len(chunk) < size:
                raise UnicodeDecodeError("utf-8", chunk, 0, 1, "truncated")
            ch = chunk.decode("utf-8")
        except UnicodeDecodeError:
            at = run_start + 3 * pos
            raise DoiError.at(
                "bad-utf8",
                "The escapes starting at character {at} are not valid UTF-8 (byte %{byte}); "
                "DOI names are written in UTF-8.",
                at, run_start + 3 * min(pos + max(size, 1), len(data)), byte=f"{first:02X}",
            ) from None
        out.append(ch)
        spans.append((run_start + 3 * pos, run_start + 3 * (pos + size)))
        pos += size
