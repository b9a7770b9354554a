"""Small readers shared by the resolver modules: bounded text and exact integers."""

from __future__ import annotations

import json

from ..limits import MAX_LABEL, MAX_TEXT

__all__ = ["clip", "label", "plural", "raw_json", "read_int"]

_JS_SAFE = 2**53 - 1  # integers beyond this lose precision in JavaScript


def read_int(value: object) -> int | None:
    """A JSON integer JavaScript can hold exactly, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and -_JS_SAFE <= value <= _JS_SAFE:
        return value
    return None


def clip(text: str, limit: int = MAX_TEXT) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"… ({len(text):,} characters in all)"


def label(value: object) -> str:
    return clip(value, MAX_LABEL) if isinstance(value, str) else ""


def raw_json(value: object) -> str:
    try:
        return clip(json.dumps(value, ensure_ascii=False))
    except (ValueError, TypeError, RecursionError):
        return "(not representable)"


def plural(n: int, word: str, many: str = "") -> str:
    return f"{n} {word if n == 1 else many or word + 's'}"


