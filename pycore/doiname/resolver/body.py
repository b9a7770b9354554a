"""Bodies of answers from the network, read within bounds: text of at most
:data:`~doiname.limits.MAX_BODY`, JSON or JSONP, nesting checked before parsing."""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from ..limits import MAX_BODY

__all__ = ["MAX_DEPTH", "as_text", "load_json"]


def as_text(body: object) -> tuple[str | None, bool]:
    """(text, too large): bytes are read as UTF-8 (bad bytes become U+FFFD)."""
    if isinstance(body, (bytes, bytearray, memoryview)):
        data = bytes(body)
        if len(data) > MAX_BODY:
            return None, True
        return data.decode("utf-8", errors="replace"), False
    if isinstance(body, str):
        return (None, True) if len(body) > MAX_BODY else (body, False)
    return "", False


MAX_DEPTH = 100  # JSON nesting: a handle record is 4 deep; Pyodide's stack is small
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = [1 if b in b"[{" else -1 if b in b"]}" else 0 for b in range(256)]


def _too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether brackets nest deeper than ``limit`` outside strings. Linear, C speed.

    Checked before parsing: in Pyodide the JavaScript stack overflows before Python's
    recursion limit is reached, so a deep document must never reach ``json.loads``.
    Escapes are dropped (``\\\\`` first, then ``\\"``), so splitting at ``"`` leaves the
    text outside strings at even positions.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    outside = "".join(text.replace("\\\\", "").replace('\\"', "").split('"')[::2])
    brackets = outside.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit


_JSONP = re.compile(r"([A-Za-z_$][\w$.]{0,200})\s*\(", re.ASCII)


def load_json(text: str, *, max_depth: int = MAX_DEPTH) -> tuple[Any, bool, str | None]:
    """Parse JSON, or JSONP ``name(...)``: (value, ok, callback name), refused unparsed
    when it nests deeper than ``max_depth``. Never raises."""
    stripped = text.strip().lstrip("\ufeff").strip()
    callback = None
    m = _JSONP.match(stripped)
    if m is not None:
        inner = stripped[m.end():].rstrip().rstrip(";").rstrip()
        if inner.endswith(")"):
            callback, stripped = m.group(1), inner[:-1]
    if not stripped or _too_deep(stripped, max_depth):
        return None, False, callback
    try:
        return json.loads(stripped), True, callback
    except (ValueError, RecursionError, MemoryError):
        return None, False, callback
