"""``call``: any public function of the package by name, for ``window.doiname.call``."""

from __future__ import annotations

import inspect
import json
import sys
import traceback
from collections.abc import Callable
from functools import cache
from typing import Any

import doiname

from ..errors import DoiError
from ..jsonable import error_json, to_jsonable
from .reply import dumps, error, internal

__all__ = ["call_json", "function", "functions", "run_call"]


def function(name: str) -> Callable[..., Any] | None:
    """The public function ``doiname.<name>`` (not a class), or None. Only its own module
    is imported (a name the package imports on first use)."""
    if name not in doiname.__all__:
        return None
    obj = getattr(doiname, name, None)
    return obj if inspect.isfunction(obj) else None


@cache
def functions() -> dict[str, Callable[..., Any]]:
    """The callable public functions of the package, by name (classes are left out).
    Made when first asked for (it imports every module of the package), then kept."""
    return {name: fn for name in doiname.__all__ if (fn := function(name)) is not None}


def _split_args(args_json: str) -> tuple[list[Any], dict[str, Any]]:
    """``[a, b]`` or ``{"args": [a, b], "kwargs": {...}}`` into positional and keyword."""
    data = json.loads(args_json) if args_json else []
    if isinstance(data, list):
        return data, {}
    if isinstance(data, dict) and set(data) <= {"args", "kwargs"}:
        return data.get("args", []), data.get("kwargs", {})
    raise ValueError("arguments must be a JSON array or {\"args\": [...], \"kwargs\": {...}}")


def call_json(name: str, args_json: str = "[]") -> str:
    """Call the public function ``doiname.<name>`` with JSON arguments; reply as JSON text.

    ``args_json`` is a JSON array of positional arguments, or an object
    ``{"args": [...], "kwargs": {...}}`` (:func:`run_call`).
    """
    try:
        args, kwargs = _split_args(args_json)
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        return error("bad-arguments", f"The arguments for {name} are not valid: {exc}")
    return run_call(name, args, kwargs)


def run_call(name: Any, args: Any, kwargs: Any = None) -> str:
    """Call the public function ``doiname.<name>``; reply as JSON text.

    Unknown names and arguments the function does not take, or values of the wrong type
    (a ``TypeError``), are refused with a plain message (codes ``unknown-function``,
    ``bad-arguments``); any other exception is an ``internal`` error whose traceback goes
    to stderr.
    """
    fn = function(name) if isinstance(name, str) else None
    if fn is None:
        return error("unknown-function", f"doiname has no public function named {name!r}.")
    kwargs = {} if kwargs is None else kwargs
    if not isinstance(args, list) or not isinstance(kwargs, dict):
        return error("bad-arguments", f"The arguments for {name} are not valid: arguments "
                     "are a list and keyword arguments an object.")
    try:
        inspect.signature(fn).bind(*args, **{str(k): v for k, v in kwargs.items()})
    except TypeError as exc:
        return error("bad-arguments", f"{name} cannot be called like this: {exc}.")
    try:
        result = fn(*args, **kwargs)
    except DoiError as err:
        return dumps({"error": error_json(err)})
    except TypeError as exc:  # the core refuses values of the wrong type this way
        traceback.print_exception(exc, file=sys.stderr)
        return error("bad-arguments", f"{name} cannot take these values: {exc}.")
    except Exception as exc:
        return internal(name, exc)
    try:
        return dumps({"ok": to_jsonable(result)})
    except (TypeError, ValueError) as exc:
        return internal(f"turning the result of {name} into JSON", exc)
