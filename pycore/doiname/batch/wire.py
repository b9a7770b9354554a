"""What a batch step sends to the page: its rows as JSON text, made from the row tuples.

The bridge's reply is compact, ASCII-only JSON (:func:`doiname.bridge.reply.dumps`); a
step's rows in it are :meth:`~doiname.batch.BatchRow.as_dict` objects. :func:`row_json`
writes the text ``dumps(row.as_dict())`` would write, the same characters, straight from
a :data:`~doiname.batch.rows.RowFields` tuple: no row object, no dictionary, each string
escaped by the JSON encoder's own function (``encode_basestring_ascii``). Each finding
of a row is written once per value (the findings of a link's head, of an escape, say the same
at the same place for many names). ``dumps(row.as_dict())`` stays the oracle:
tests/unit/test_differential_batch_job.py compares both over generated rows and lists,
every fixture and the benchmark's lines.
"""

from __future__ import annotations

import dataclasses
import json
from json.encoder import encode_basestring_ascii as _enc
from operator import attrgetter

from ..jsonable import to_jsonable
from ..memo import Memo
from ..model import Finding
from .rows import RowFields

__all__ = ["findings_json", "row_json", "rows_json"]

#: The fields of a finding in the order ``to_jsonable`` writes them (checked at import:
#: a field added or moved fails here, not in the page).
_FINDING_FIELDS = ("code", "severity", "message", "start", "end", "input_start", "input_end",
                   "in_name", "source", "repair", "places")
if tuple(f.name for f in dataclasses.fields(Finding)) != _FINDING_FIELDS:  # pragma: no cover
    raise ImportError("doiname.batch.wire: Finding's fields changed; update _FINDING_FIELDS")
_FINDING_VALUES = attrgetter(*_FINDING_FIELDS)


def _finding_json(f: Finding) -> str:
    """The JSON text of ``to_jsonable(f)`` (an object of its fields, in their order)."""
    code, severity, message, start, end, i_start, i_end, in_name, source, repair, places = (
        _FINDING_VALUES(f))
    if not (type(code) is str and type(severity) is str and type(message) is str
            and type(start) is int and type(end) is int and type(in_name) is bool
            and type(source) is str and (i_start is None or type(i_start) is int)
            and (i_end is None or type(i_end) is int)
            and (repair is None or type(repair) is str)
            and type(places) is tuple and all(type(p) is tuple and len(p) == 2
                                              and type(p[0]) is int and type(p[1]) is int
                                              for p in places)):  # (never made so): as dumps does
        return json.dumps(to_jsonable(f), ensure_ascii=True, allow_nan=False,
                          separators=(",", ":"))
    # (the ints as int.__repr__ writes them, as JSON does)
    return (f'{{"code":{_enc(code)},"severity":{_enc(severity)},"message":{_enc(message)},'
            f'"start":{start},"end":{end},'
            f'"input_start":{"null" if i_start is None else i_start},'
            f'"input_end":{"null" if i_end is None else i_end},'
            f'"in_name":{"true" if in_name else "false"},"source":{_enc(source)},'
            f'"repair":{"null" if repair is None else _enc(repair)},'
            f'"places":[{",".join(f"[{a},{b}]" for a, b in places)}]}}')


#: The texts of the findings written lately, by their fields' values and types (another
#: line's finding often says the same at the same place: a link's head, an escape).
_BY_VALUES: Memo[tuple[object, ...], str] = Memo(1024)


def findings_json(findings: tuple[Finding, ...]) -> str:
    """The JSON text of a row's findings (an array of :func:`~doiname.to_jsonable`
    objects, 002 §4 and 003 ch. 2 findings as the page shows them)."""
    if not findings:
        return "[]"
    parts = []
    for f in findings:
        values = _FINDING_VALUES(f)
        key = values + tuple(map(type, values))  # (equal values of the same types)
        try:
            one = _BY_VALUES.get(key)
        except TypeError:  # (a value that is not hashable: never made so)
            parts.append(_finding_json(f))
            continue
        if one is None:
            one = _BY_VALUES.put(key, _finding_json(f))
        parts.append(one)
    return "[" + ",".join(parts) + "]"


def row_json(t: RowFields) -> str:
    """The JSON text of the row ``t`` as the bridge sends it (``dumps(row.as_dict())``:
    the ``CSV_COLUMNS`` keys in order, 003 ch. 2)."""
    (line, inp, status, doi, url, uri, findings, dup, start, end, text, form, api,
     alternatives, record, _) = t
    # (the line, duplicate_of, start and end are ints: int.__repr__ is what JSON writes)
    return (
        f'{{"line":{line},"record":{"null" if record is None else _enc(record)},'
        f'"status":"{status}","doi":{"null" if doi is None else _enc(doi)},'
        f'"url":{"null" if url is None else _enc(url)},'
        f'"duplicate_of":{"null" if dup is None else dup},'
        f'"findings":{findings_json(findings) if findings else "[]"},'
        f'"input":{_enc(inp)},"uri":{"null" if uri is None else _enc(uri)},'
        f'"start":{"null" if start is None else start},'
        f'"end":{"null" if end is None else end},'
        f'"text":{"null" if text is None else _enc(text)},'
        f'"form":{"null" if form is None else _enc(form)},'
        f'"api_url":{"null" if api is None else _enc(api)},'
        f'"alternatives":[{",".join(map(_enc, alternatives)) if alternatives else ""}]}}')


def rows_json(rows: list[RowFields]) -> str:
    """The JSON array of :func:`row_json` of each of ``rows``."""
    return "[" + ",".join(map(row_json, rows)) + "]"
