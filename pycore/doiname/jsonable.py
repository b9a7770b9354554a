"""Plain JSON data for every result of the package, shared by the CLI and the web bridge.

A :class:`~doiname.model.Doi` becomes ``{"prefix", "suffix", "name"}``; dataclasses
(findings, matches, explanations, handle values) become objects of their fields;
tuples become lists; a :class:`~doiname.errors.DoiError` becomes
``{"code", "message", "position", "end"}``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any

from .errors import DoiError
from .memo import remembered
from .model import Doi

__all__ = ["error_json", "to_jsonable"]


#: Values that are JSON as they are (the commonest, checked first).
_PLAIN = frozenset({str, int, float, bool, type(None)})


@remembered(256)
def _field_names(cls: type) -> tuple[str, ...] | None:
    """The field names of a dataclass, or ``None`` for any other class."""
    if not dataclasses.is_dataclass(cls):
        return None
    return tuple(f.name for f in dataclasses.fields(cls))


@remembered(256)
def _field_values(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the values of a dataclass's fields, in their order (two or
    more fields: ``attrgetter`` then gives a tuple)."""
    names = _field_names(cls) or ()
    return attrgetter(*names) if len(names) > 1 else lambda v: tuple(getattr(v, n) for n in names)


def to_jsonable(value: Any) -> Any:
    """Plain JSON data for any result of the package (a ``Doi`` gets its ``name`` too)."""
    cls: type = type(value)
    if cls in _PLAIN:
        return value
    if isinstance(value, Doi):
        return {"prefix": value.prefix, "suffix": value.suffix, "name": str(value)}
    names = _field_names(cls)  # a dataclass instance (a dataclass itself is of type `type`)
    if names is not None:
        values = _field_values(cls)(value)
        if _PLAIN.issuperset(map(type, values)):  # (a finding): every value as it is
            return dict(zip(names, values, strict=True))
        return {name: to_jsonable(v) for name, v in zip(names, values, strict=True)}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value


def error_json(err: DoiError) -> dict[str, Any]:
    """The JSON form of a :class:`~doiname.errors.DoiError`."""
    return {"code": err.code, "message": err.message, "position": err.position, "end": err.end,
            "source": err.source}
