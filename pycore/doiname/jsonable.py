"""Plain JSON data for every result of the package, shared by the CLI and the web bridge.

A :class:`~doiname.model.Doi` becomes ``{"prefix", "suffix", "name"}``; dataclasses
(findings, matches, explanations, handle values) become objects of their fields;
tuples become lists; a :class:`~doiname.errors.DoiError` becomes
``{"code", "message", "position", "end"}``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .errors import DoiError
from .model import Doi

__all__ = ["error_json", "to_jsonable"]


def to_jsonable(value: Any) -> Any:
    """Plain JSON data for any result of the package (a ``Doi`` gets its ``name`` too)."""
    if isinstance(value, Doi):
        return {"prefix": value.prefix, "suffix": value.suffix, "name": str(value)}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value


def error_json(err: DoiError) -> dict[str, Any]:
    """The JSON form of a :class:`~doiname.errors.DoiError`."""
    return {"code": err.code, "message": err.message, "position": err.position, "end": err.end}
