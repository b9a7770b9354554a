"""The JSON bridge between the web page's worker and the package.

JavaScript never holds a Python object: every operation takes JSON text and returns JSON
text, so no proxy leaks across and nothing needs ``destroy()``. The worker knows no
operation: it hands each request to :func:`request_json`, which runs the operation named
in :data:`OPERATIONS` (one per user action: ``inspect`` for a keystroke in Inspect,
``compare`` for Equivalence, ``box`` for the widget's box, ``lookup`` for the request to
send to doi.org or a registry for exact names and ``read`` for what came back,
``registry_plan`` and ``settle`` for the readings Resolve looks up, the batch steps, ...).
The params and results of every operation are described in :mod:`doiname.bridge.protocol` and
the core's dataclasses; ``pycore/tools/gen_types.py`` writes the JavaScript types from
them. A name comes back into Python only as an exact name ``{prefix, suffix}``, checked
with :func:`doiname.syntax.validate_name` and never decoded again. The ``call``
operation runs any public function of the package (the functions named in
``doiname.__all__``) for the public JavaScript API ``window.doiname.call``.

A reply is ``{"ok": RESULT}`` or ``{"error": {"code", "message", "position", "end"}}``.
Results are plain JSON (:func:`doiname.jsonable.to_jsonable`): a ``Doi`` becomes
``{prefix, suffix, name}``, dataclasses objects of their fields, tuples lists. A
:class:`~doiname.errors.DoiError` keeps its code, message and span; any other failure
becomes a generic error with a plain message, and its traceback goes to ``stderr``
(the browser console), never to the page.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import doiname

from ..inspection import Inspection
from ..later import import_later
from ..limits import BATCH_STEP_LINES, BATCH_STEP_MS
from ..linkify import LinkTarget
from . import protocol as p
from .calls import call_json, functions, run_call
from .reading import (
    ANSWER_KINDS,
    TRANSPORT_FAILURES,
    box,
    code_points,
    compare_json,
    exact_name,
    for_view,
    inspect_json,
    linked_reading,
    links,
    lookup,
    read_answer_json,
)
from .reply import dumps, error

if TYPE_CHECKING:
    from .checks import batch_check_json, batch_target_json
    from .jobs import (
        BATCH_STATUSES,
        batch_close_json,
        batch_end_json,
        batch_export_json,
        batch_feed_json,
        batch_open_json,
        batch_step_json,
        export_rows,
        open_jobs,
    )
    from .registry import RegistryReading, plan_json, read_registry_json, settle_json

#: The names of the batch and registry operations' modules, which the first answer does
#: not need (they import the batch, verify and registry packages): imported on first use
#: (:mod:`doiname.later`).
_LATER: dict[str, tuple[str, ...]] = {
    "checks": ("batch_check_json", "batch_target_json"),
    "jobs": ("BATCH_STATUSES", "batch_close_json", "batch_end_json", "batch_export_json",
             "batch_feed_json", "batch_open_json", "batch_step_json", "export_rows",
             "open_jobs"),
    "registry": ("RegistryReading", "plan_json", "read_registry_json", "settle_json"),
}
import_later(__name__, _LATER)

__all__ = ["ANSWER_KINDS", "BATCH_STATUSES", "OPERATIONS", "TRANSPORT_FAILURES", "Operation",
           "RegistryReading", "batch_check_json", "batch_close_json", "batch_end_json",
           "batch_export_json", "batch_feed_json", "batch_open_json", "batch_step_json",
           "batch_target_json", "call_json", "compare_json", "exact_name", "export_rows",
           "for_view", "functions", "info_json", "inspect_json", "linked_reading", "open_jobs",
           "params_type", "plan_json", "read_answer_json", "read_registry_json", "request_json",
           "result_type", "settle_json"]

def _in(module: str) -> Any:
    """``doiname.bridge.<module>`` (``jobs``, ``checks``, ``registry``, ``batch_protocol``),
    imported on the first request that needs it."""
    return import_module(f"{__name__}.{module}")


class Operation(NamedTuple):
    """One operation of the worker protocol: its params (a TypedDict of
    :mod:`doiname.bridge.protocol`, or the name of one of :mod:`.batch_protocol`), the type
    of its reply's ``ok``, and the function that answers it with JSON text."""

    #: A TypedDict, or the name of one in :mod:`.batch_protocol`, which the first answer
    #: does not import (:func:`params_type` reads it).
    params: type | str
    #: A type, or a type expression as text where it names a type of a module the first
    #: answer does not import (:func:`result_type` reads it).
    result: object
    run: Callable[[dict[str, Any]], str]


#: Every operation the page, the widget and the single file ask of the worker, by name.
OPERATIONS: dict[str, Operation] = {
    "inspect": Operation(p.InspectParams, Inspection,
                         lambda q: inspect_json(q["text"], q.get("pick"))),
    "compare": Operation(p.CompareParams, "Comparison", lambda q: compare_json(q["a"], q["b"])),
    "box": Operation(p.BoxParams, p.LinkedReading, lambda q: box(q["text"], q.get("options"))),
    "link_targets": Operation(p.LinkTargetsParams, list[list[LinkTarget]],
                              lambda q: links(q["texts"], q.get("options"))),
    "code_points": Operation(p.CodePointsParams, "list[CodePoint]",
                             lambda q: code_points(q["text"])),
    "lookup": Operation(p.LookupParams, "p.LookupRequest | RegistryRequest",
                        lambda q: lookup(q["kind"], q["target"])),
    "read": Operation(p.ReadParams,
                      "HandleRecord | WhichRaResult | AliasRecord | RegistryReading",
                      lambda q: _in("registry").read_registry_json(q)
                      if q["kind"] == "registry" else
                      read_answer_json(q["kind"], q["status"], q["body"], q["failure"])),
    "registry_plan": Operation(p.PlanParams, p.RegistryPlan,
                               lambda q: _in("registry").plan_json(q["text"], q.get("pick"))),
    "settle": Operation(p.SettleParams, "Settled",
                        lambda q: _in("registry").settle_json(q["readings"])),
    "call": Operation(p.CallParams, Any,
                      lambda q: run_call(q["name"], q["args"], q.get("kwargs"))),
    "batch_open": Operation("BatchOpenParams", "bp.BatchOpened",
                            lambda q: _in("jobs").batch_open_json(
                                q.get("text"), q.get("skip_rows", 0), q.get("head"))),
    "batch_feed": Operation("BatchFeedParams", "bp.BatchFed",
                            lambda q: _in("jobs").batch_feed_json(q["job"], q["text"])),
    "batch_end": Operation("BatchEndParams", bool,
                           lambda q: _in("jobs").batch_end_json(q["job"])),
    "batch_step": Operation("BatchStepParams", "bp.BatchStep",
                            lambda q: _step(q["job"], q.get("max_lines", BATCH_STEP_LINES),
                                            q.get("budget_ms", BATCH_STEP_MS))),
    "batch_export": Operation("BatchExportParams", str,
                              lambda q: _in("jobs").export_rows(
                                  q["job"], q["format"], q.get("order"), q.get("resolved"),
                                  unique=q.get("unique", False), excel=q.get("excel", False))),
    "batch_close": Operation("BatchCloseParams", bool,
                             lambda q: _in("jobs").batch_close_json(q["job"])),
    "batch_target": Operation("BatchTargetParams", "list[bp.BatchTarget]",
                              lambda q: _in("checks").batch_target_json(q["job"], q["rows"])),
    "batch_check": Operation("BatchCheckParams", "bp.BatchChecked",
                            lambda q: _in("checks").batch_check_json(q)),
    "info": Operation(p.InfoParams, p.Info, lambda q: info_json()),
}


def _step(job: Any, max_lines: Any, budget_ms: Any) -> str:
    if not all(isinstance(v, int | float) and not isinstance(v, bool)
               for v in (max_lines, budget_ms)):
        return error("bad-arguments", "A batch step's max_lines and budget_ms are numbers.")
    return str(_in("jobs").batch_step_json(job, int(max_lines), float(budget_ms)))


def request_json(op: str, params_json: str = "{}") -> str:
    """Answer one request of the worker protocol: operation ``op`` of :data:`OPERATIONS`
    with its params as a JSON object; reply as JSON text. An unknown operation, params
    that are not an object or miss a required key are refused with a plain message
    (codes ``unknown-operation``, ``bad-arguments``)."""
    found = OPERATIONS.get(op) if isinstance(op, str) else None
    if found is None:
        return error("unknown-operation", f"The DOI engine has no operation named {op!r}.")
    try:
        params = json.loads(params_json) if params_json else {}
    except ValueError as exc:
        return error("bad-arguments", f"The params of {op} are not valid JSON: {exc}")
    if not isinstance(params, dict):
        return error("bad-arguments", f"The params of {op} are not a JSON object.")
    missing = [k for k, (_, required) in p.fields_of(params_type(found)).items()
               if required and k not in params]
    if missing:
        return error("bad-arguments", f"The request {op} needs {', '.join(missing)}.")
    return found.run(params)


def params_type(op: Operation) -> type:
    """The TypedDict of ``op``'s params (:attr:`Operation.params`): named in
    :mod:`.batch_protocol` for the batch operations, imported by the first of them."""
    if isinstance(op.params, type):
        return op.params
    found: type = getattr(_in("batch_protocol"), op.params)
    return found


def result_type(op: Operation) -> object:
    """The type of the ``ok`` of ``op``'s reply (:attr:`Operation.result`), a type
    expression given as text evaluated among this module's names and the types it names
    (their modules imported now). ``AliasRecord``, a shortDOI's record (``read`` of kind
    ``alias``), is a :class:`~doiname.resolver.HandleRecord` whose JSON object also has the
    fields of :class:`~doiname.bridge.protocol.AliasTarget` (gen_types writes
    ``Annotated[A, B]`` as ``A & B``)."""
    if not isinstance(op.result, str):
        return op.result
    from ..codepoints import CodePoint
    from ..comparison import Comparison
    from ..registry import RegistryRequest
    from ..resolver import HandleRecord, WhichRaResult
    from ..settle import Settled
    from . import batch_protocol
    from .registry import RegistryReading

    names = {**globals(), "bp": batch_protocol, "CodePoint": CodePoint, "Comparison": Comparison,
             "RegistryRequest": RegistryRequest, "HandleRecord": HandleRecord,
             "WhichRaResult": WhichRaResult, "Settled": Settled,
             "RegistryReading": RegistryReading,
             "AliasRecord": Annotated[HandleRecord, p.AliasTarget]}
    return eval(op.result, names)  # a constant of OPERATIONS, never data


def info_json() -> str:
    """Facts about the running package, for diagnostics and tests: versions, installer."""
    import importlib.metadata  # here: nothing before ready reads the package's metadata

    try:
        dist = importlib.metadata.distribution("doiname")
        installer = (dist.read_text("INSTALLER") or "").strip() or None
        version = _metadata_version(dist.read_text("METADATA") or "")
    except importlib.metadata.PackageNotFoundError:
        installer = None
        version = None
    return dumps({"ok": {
        "doiname": doiname.__version__,
        "distribution": version,
        "installer": installer,
        "location": str(getattr(doiname, "__file__", "")),
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "functions": sorted(functions()),
        "batch_jobs": _in("jobs").open_jobs(),
        "memory": _memory(),
    }})


def _metadata_version(metadata: str) -> str | None:
    """The ``Version`` field of a distribution's METADATA (core metadata, a header block).

    Read here rather than through ``Distribution.version``, which parses the headers with
    :mod:`email`: the site's trimmed standard library leaves ``email.message`` out."""
    for line in metadata.splitlines():
        if not line.strip():
            break  # the body (the long description) starts after the headers
        name, sep, value = line.partition(":")
        if sep and name.strip().lower() == "version":
            return value.strip() or None
    return None


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
