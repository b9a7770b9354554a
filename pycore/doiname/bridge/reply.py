"""The replies of the bridge's operations: JSON text, ``{"ok": ...}`` or ``{"error": ...}``."""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from typing import Any

from ..errors import DoiError
from ..jsonable import error_json, to_jsonable

__all__ = ["dumps", "error", "guarded", "internal"]


def dumps(value: Any) -> str:
    """Compact, ASCII-only JSON text (no NaN): what crosses to JavaScript."""
    return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def error(code: str, message: str, position: int | None = None,
          end: int | None = None) -> str:
    """An error reply (:class:`doiname.bridge.protocol.ErrorJson`)."""
    return dumps({"error": {"code": code, "message": message, "position": position,
                            "end": end}})


def internal(what: str, exc: BaseException) -> str:
    """A generic error reply; the traceback goes to stderr (the console), not the page."""
    print(f"doiname bridge: {what} failed:", file=sys.stderr)
    traceback.print_exception(exc, file=sys.stderr)
    return error("internal", f"{what} failed unexpectedly ({type(exc).__name__}). This is "
                 "a bug in doiname; the details are in the browser console.")


def guarded(what: str, compute: Callable[[], Any]) -> str:
    """``{"ok": compute()}`` as JSON; a :class:`DoiError` becomes its error reply, any other
    failure an ``internal`` one (``what`` names the work in its message)."""
    try:
        return dumps({"ok": to_jsonable(compute())})
    except DoiError as err:
        return dumps({"error": error_json(err)})
    except Exception as exc:
        return internal(what, exc)
