"""The JSON bridge between the web page's worker and the package.

JavaScript never holds a Python object: every call takes JSON text and returns JSON
text, so no proxy leaks across and nothing needs ``destroy()``. The page calls one
operation per user action: :func:`inspect_json` (a keystroke in Inspect or the widget's
box), :func:`compare_json` (Equivalence), :func:`lookup_json` (the request to send to
doi.org for an exact name) and :func:`read_answer_json` (what came back), and the batch
operations. A name comes back into Python only as an exact name ``{prefix, suffix}``,
checked with :func:`doiname.syntax.validate_name` and never decoded again.
:func:`call_json` runs any public function of the package (the functions named in
``doiname.__all__``) for the public JavaScript API ``window.doiname.call``.

A reply is ``{"ok": RESULT}`` or ``{"error": {"code", "message", "position", "end"}}``.
Results are plain JSON (:func:`doiname.jsonable.to_jsonable`): a ``Doi`` becomes
``{prefix, suffix, name}``, dataclasses objects of their fields, tuples lists. A
:class:`~doiname.errors.DoiError` keeps its code, message and span; any other failure
becomes a generic error with a plain message, and its traceback goes to ``stderr``
(the browser console), never to the page.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import sys
import traceback
from collections.abc import Callable
from typing import Any

import doiname

from . import inspection
from .batch import BatchJob
from .comparison import compare
from .errors import DoiError
from .inspection import written_form
from .jsonable import error_json, to_jsonable
from .model import Doi
from .presentation import short_doi_api_url, to_handles_api_url, to_which_ra_url
from .resolver import HandleRecord, WhichRaResult, alias_target, transport_outcome
from .resolver import read_handle_response as _read_handle
from .resolver import read_which_ra_response as _read_which_ra
from .syntax import validate_name

__all__ = ["ANSWER_KINDS", "TRANSPORT_FAILURES", "batch_close_json", "batch_export_json",
           "batch_open_json", "batch_step_json", "call_json", "compare_json", "exact_name",
           "functions", "info_json", "inspect_json", "lookup_json", "read_answer_json"]

#: How a request can fail without an answer (the main thread's ``fetch`` reports these).
TRANSPORT_FAILURES = ("network", "timeout", "cancelled")
#: What an answer from doi.org is read as.
ANSWER_KINDS = ("handle", "which-ra", "alias")


def functions() -> dict[str, Callable[..., Any]]:
    """The callable public functions of the package, by name (classes are left out)."""
    out: dict[str, Callable[..., Any]] = {}
    for name in doiname.__all__:
        obj = getattr(doiname, name, None)
        if inspect.isfunction(obj):
            out[name] = obj
    return out


_FUNCTIONS = functions()


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def _error(code: str, message: str, position: int | None = None,
           end: int | None = None) -> str:
    return _dumps({"error": {"code": code, "message": message, "position": position,
                             "end": end}})


def _internal(what: str, exc: BaseException) -> str:
    """A generic error reply; the traceback goes to stderr (the console), not the page."""
    print(f"doiname bridge: {what} failed:", file=sys.stderr)
    traceback.print_exception(exc, file=sys.stderr)
    return _error("internal", f"{what} failed unexpectedly ({type(exc).__name__}). This is "
                  "a bug in doiname; the details are in the browser console.")


def _split_args(args_json: str) -> tuple[list[Any], dict[str, Any]]:
    """``[a, b]`` or ``{"args": [a, b], "kwargs": {...}}`` into positional and keyword."""
    data = json.loads(args_json) if args_json else []
    if isinstance(data, list):
        return data, {}
    if isinstance(data, dict) and set(data) <= {"args", "kwargs"}:
        args = data.get("args", [])
        kwargs = data.get("kwargs", {})
        if isinstance(args, list) and isinstance(kwargs, dict):
            return args, {str(k): v for k, v in kwargs.items()}
    raise ValueError("arguments must be a JSON array or {\"args\": [...], \"kwargs\": {...}}")


def call_json(name: str, args_json: str = "[]") -> str:
    """Call the public function ``doiname.<name>`` with JSON arguments; reply as JSON text.

    ``args_json`` is a JSON array of positional arguments, or an object
    ``{"args": [...], "kwargs": {...}}``. Unknown names and arguments the function does
    not take, or values of the wrong type (a ``TypeError``), are refused with a plain
    message (codes ``unknown-function``, ``bad-arguments``); any other exception is an
    ``internal`` error whose traceback goes to stderr.
    """
    fn = _FUNCTIONS.get(name)
    if fn is None:
        return _error("unknown-function", f"doiname has no public function named {name!r}.")
    try:
        args, kwargs = _split_args(args_json)
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        return _error("bad-arguments", f"The arguments for {name} are not valid: {exc}")
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except TypeError as exc:
        return _error("bad-arguments", f"{name} cannot be called like this: {exc}.")
    try:
        result = fn(*args, **kwargs)
    except DoiError as err:
        return _dumps({"error": error_json(err)})
    except TypeError as exc:  # the core refuses values of the wrong type this way
        traceback.print_exception(exc, file=sys.stderr)
        return _error("bad-arguments", f"{name} cannot take these values: {exc}.")
    except Exception as exc:
        return _internal(name, exc)
    try:
        return _dumps({"ok": to_jsonable(result)})
    except (TypeError, ValueError) as exc:
        return _internal(f"turning the result of {name} into JSON", exc)


def _read(kind: str, status: int | None, body: str | None,
          failure: str | None) -> HandleRecord | WhichRaResult:
    if failure is not None:
        record = transport_outcome(failure)
        if kind == "which-ra":
            return WhichRaResult(record.outcome, False, record.message)
        return record
    if kind == "which-ra":
        return _read_which_ra(status, body)
    return _read_handle(status, body)


def read_answer_json(kind: str, status: int | None, body: str | None,
                     failure: str | None = None) -> str:
    """Read what doi.org answered (or how the request failed); reply as JSON text.

    ``kind`` is ``handle`` (:func:`doiname.read_handle_response`), ``which-ra``
    (:func:`doiname.read_which_ra_response`) or ``alias`` (a shortDOI's ``HS_ALIAS``
    record: the handle record plus ``target``, the DOI name it stands for (or None),
    ``target_doi``, the same exact name as ``{prefix, suffix, name}`` (a handle value is
    never percent-decoded), and ``target_text``, a text that Inspect reads back as
    exactly that name).
    ``failure`` is ``network``, ``timeout`` or ``cancelled`` when no answer arrived
    (:func:`doiname.transport_outcome`); the reply is then that outcome.
    """
    if kind not in ANSWER_KINDS:
        return _error("bad-arguments", f"Unknown kind of answer {kind!r}.")
    if failure is not None and failure not in TRANSPORT_FAILURES:
        return _error("bad-arguments", f"Unknown request failure {failure!r}.")
    try:
        outcome = _read(kind, status, body, failure)
        data = to_jsonable(outcome)
        if kind == "alias" and isinstance(outcome, HandleRecord):
            target = _alias_name(outcome)
            data["target"] = str(target) if target is not None else None
            data["target_doi"] = to_jsonable(target) if target is not None else None
            data["target_text"] = written_form(target) if target is not None else None
        return _dumps({"ok": data})
    except Exception as exc:
        return _internal(f"reading the {kind} answer", exc)


def _alias_name(record: HandleRecord) -> Doi | None:
    handle = alias_target(record)
    if handle is None:
        return None
    try:
        return validate_name(handle)
    except DoiError:
        return None


def exact_name(value: Any) -> Doi:
    """An exact name sent back from JavaScript: ``{prefix, suffix}`` (as every name left
    Python), checked (002 §4, 003 ch. 2) but never decoded: ``10.1000/a%41`` stays that.
    Raises :class:`DoiError` (``bad-name``) for anything else."""
    if not isinstance(value, dict) or not isinstance(value.get("prefix"), str) \
            or not isinstance(value.get("suffix"), str):
        raise DoiError("bad-name", "An exact DOI name is sent as {prefix, suffix}.")
    doi = validate_name(value["prefix"] + "/" + value["suffix"])
    if doi.prefix != value["prefix"]:
        raise DoiError("bad-name", "The prefix of an exact DOI name holds no “/”.")
    return doi


def inspect_json(text: str, pick: int | None = None) -> str:
    """:func:`doiname.inspection.inspect` as JSON text: one keystroke, one reading."""
    if not isinstance(text, str):
        return _error("bad-arguments", "The text to inspect must be a string.")
    try:
        found = inspection.inspect(text, pick if isinstance(pick, int) else None)
        return _dumps({"ok": to_jsonable(found)})
    except Exception as exc:
        return _internal("inspecting the text", exc)


def compare_json(a: str, b: str) -> str:
    """:func:`doiname.inspection.compare` as JSON text (the Equivalence view's one call)."""
    if not isinstance(a, str) or not isinstance(b, str):
        return _error("bad-arguments", "The texts to compare must be strings.")
    try:
        return _dumps({"ok": to_jsonable(compare(a, b))})
    except Exception as exc:
        return _internal("comparing the names", exc)


def lookup_json(kind: str, target_json: str) -> str:
    """The request to send to doi.org, ``{"url": ...}``, for exact names.

    ``kind`` ``handle``: ``target_json`` is one exact name ``{prefix, suffix}``
    (:func:`doiname.to_handles_api_url`, 003 ch. 4); ``which-ra``: a list of exact names
    (:func:`doiname.to_which_ra_url`); ``alias``: ``{"short": "10/abcde"}``
    (:func:`doiname.short_doi_api_url`). No name is parsed from text here.
    """
    try:
        target = json.loads(target_json)
        if kind == "handle":
            url = to_handles_api_url(exact_name(target))
        elif kind == "which-ra":
            if not isinstance(target, list) or not target:
                raise DoiError("bad-name", "Which RA takes a list of exact DOI names.")
            url = to_which_ra_url([exact_name(t) for t in target])
        elif kind == "alias":
            if not isinstance(target, dict) or not isinstance(target.get("short"), str):
                raise DoiError("bad-name", "A shortDOI is sent as {short: \"10/abcde\"}.")
            url = short_doi_api_url(target["short"])
        else:
            return _error("bad-arguments", f"Unknown kind of lookup {kind!r}.")
    except DoiError as err:
        return _dumps({"error": error_json(err)})
    except ValueError as exc:
        return _error("bad-arguments", f"The lookup target is not valid JSON: {exc}")
    except Exception as exc:
        return _internal("making the lookup request", exc)
    return _dumps({"ok": {"url": url}})


# ------------------------------------------------------------------------ batch jobs

#: The open batch jobs, by number. The page closes a job when its table is cleared.
_JOBS: dict[int, BatchJob] = {}
_next_job = 0


def batch_open_json(text: str) -> str:
    """Start a batch over ``text`` (:class:`doiname.batch.BatchJob`); reply ``{job, lines_total}``.

    The job's rows stay here for :func:`batch_export_json` until :func:`batch_close_json`.
    """
    global _next_job
    if not isinstance(text, str):
        return _error("bad-arguments", "The text of a batch must be a string.")
    try:
        job = BatchJob(text)
    except Exception as exc:
        return _internal("starting the batch", exc)
    _next_job += 1
    _JOBS[_next_job] = job
    return _dumps({"ok": {"job": _next_job, "lines_total": job.lines_total,
                          "chars_total": job.chars_total}})


def _job(job: int) -> BatchJob | None:
    return _JOBS.get(int(job)) if isinstance(job, int | float) else None


def batch_step_json(job: int, max_lines: int = 5000, budget_ms: float = 50) -> str:
    """Work on a batch for up to ``budget_ms`` milliseconds; reply :meth:`BatchJob.step`.

    The reply text starts with ``{"ok":{"done":true`` exactly when the batch is finished.
    """
    found = _job(job)
    if found is None:
        return _error("unknown-job", "This batch is closed or never existed.")
    try:
        return _dumps({"ok": found.step(int(max_lines), float(budget_ms) / 1000)})
    except Exception as exc:
        return _internal("the batch", exc)


def batch_export_json(job: int, fmt: str, order_json: str = "null",
                      resolved_json: str = "null") -> str:
    """A batch's rows as the text of a CSV, JSON or JSON Lines file (:meth:`BatchJob.export`).

    ``order_json`` is ``null`` (every row, input order) or a JSON array of row indices;
    ``resolved_json`` is ``null`` or a JSON object from row indices to ``{outcome, url}``.
    """
    found = _job(job)
    if found is None:
        return _error("unknown-job", "This batch is closed or never existed.")
    try:
        order = json.loads(order_json) if order_json else None
        if order is not None and not isinstance(order, list):
            raise ValueError("the order must be a list of row numbers")
        resolved = json.loads(resolved_json) if resolved_json else None
        if resolved is not None:
            if not isinstance(resolved, dict) or not all(k.isdigit() for k in resolved):
                raise ValueError("the resolutions must be an object keyed by row number")
            resolved = {int(k): v for k, v in resolved.items()}
        text = found.export(str(fmt), order, resolved=resolved)
    except ValueError as exc:
        return _error("bad-arguments", f"The rows cannot be exported: {exc}")
    except Exception as exc:
        return _internal("exporting the batch", exc)
    return _dumps({"ok": text})


def batch_close_json(job: int) -> str:
    """Forget a batch and its rows; reply ``{"ok": true}`` (also when it was not open)."""
    found = _job(job)
    if found is not None:
        del _JOBS[int(job)]
    return _dumps({"ok": found is not None})


def info_json() -> str:
    """Facts about the running package, for diagnostics and tests: versions, installer."""
    try:
        dist = importlib.metadata.distribution("doiname")
        installer = (dist.read_text("INSTALLER") or "").strip() or None
        version: str | None = dist.version
    except importlib.metadata.PackageNotFoundError:
        installer = None
        version = None
    return _dumps({"ok": {
        "doiname": doiname.__version__,
        "distribution": version,
        "installer": installer,
        "location": str(getattr(doiname, "__file__", "")),
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "functions": sorted(_FUNCTIONS),
        "batch_jobs": len(_JOBS),
        "memory": _memory(),
    }})


def _memory() -> dict[str, int | None]:
    """Python's live allocated blocks and, inside Pyodide, the WebAssembly heap size."""
    heap: int | None = None
    if sys.platform == "emscripten":  # pragma: no cover (Pyodide only)
        try:
            import pyodide_js  # type: ignore[import-not-found]

            heap = int(pyodide_js._module.HEAPU8.length)
        except Exception:  # a diagnostic never fails the call
            heap = None
    return {"python_blocks": sys.getallocatedblocks(), "wasm_heap_bytes": heap}
