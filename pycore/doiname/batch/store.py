"""The rows a :class:`~doiname.batch.BatchJob` keeps for its table and exports, compactly:
:class:`RowStore`.

A :class:`~doiname.batch.BatchRow` holds 16 fields, six of them strings made from the
name (the link, the ``doi:`` URI, the API request) or from its line (the input, the text
matched); kept as objects, a row of a long line takes about a kilobyte. The store keeps
per row only what cannot be made again: the line number, the positions, the status, the
form, the name as written in the row, and the line it comes from (one string shared by
every row of that line); the rare fields (findings, other readings, a record's key) are
kept aside for the rows that have them. A row is made again, equal to the one the
session made, when it is read (:meth:`RowStore.__getitem__`): the links by the same
functions (:func:`~doiname.to_url`, :func:`~doiname.to_uri`,
:func:`~doiname.presentation.to_handles_api_url`), the input by
:func:`~doiname.batch.rows.shown_input`, the text as a slice of the line.

At most ``cap`` rows are kept (:data:`~doiname.limits.BATCH_MAX_ROWS_KEPT`); the rows
after those are counted (``dropped``), not kept.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from operator import attrgetter
from typing import Any, overload

from ..equivalence import equivalence_key
from ..limits import BATCH_MAX_LINE_CHARS, BATCH_MAX_ROWS_KEPT
from ..model import Finding, make_doi
from ..presentation import short_doi_api_url, to_handles_api_url, to_uri, to_url
from .rows import BatchRow, RowFields, fields_of, make_row, shown_input
from .status import STATUS_NAMES as _STATUSES

__all__ = ["RowStore"]

_FORMS = ("name", "label", "doi-uri", "urn", "info-uri", "hdl-uri", "url", "urn-url",
          "api-url", "proxy-url", "proxy-login", "in-url", "short-doi")
_FORM_CODE = {f: i for i, f in enumerate(_FORMS)}
_NO_FORM = 255  # form None
_OTHER_FORM = 254  # a form not in _FORMS: kept aside
_STATUS_CODE = {s: i for i, s in enumerate(_STATUSES)}
_NAMED = frozenset(i for s, i in _STATUS_CODE.items()
                   if s in ("ok", "warning", "duplicate", "not-found", "unreachable"))
_SHORT = _STATUS_CODE["short-doi"]
_STR = frozenset({str})
_LINE_OF = attrgetter("line")
_DOI_OF = attrgetter("doi")
#: The two code bytes of each status and form code, made once.
_CODES = tuple(tuple(bytes((s, f)) for f in range(256)) for s in range(len(_STATUSES)))
_NONE = -1  # an int field that is None

#: What a row keeps aside: (findings, alternatives, record, text, input, form).
_Aside = tuple[tuple[Finding, ...], tuple[str, ...], "str | None", "str | None", "str | None",
               "str | None"]


class RowStore(Sequence[BatchRow]):
    """Rows kept compactly, read back as :class:`BatchRow` objects (a sequence)."""

    __slots__ = ("_aside", "_codes", "_doi", "_dup", "_end", "_last", "_line", "_src",
                 "_start", "cap", "dropped")

    def __init__(self, cap: int = BATCH_MAX_ROWS_KEPT) -> None:
        self.cap = cap
        self.dropped = 0
        self._line = array("q")
        self._start = array("i")  # positions in a line: at most BATCH_MAX_LINE_CHARS
        self._end = array("i")
        self._dup = array("q")
        self._codes = bytearray()  # two bytes a row: status, form
        self._doi: list[str | None] = []
        self._src: list[str] = []
        self._aside: dict[int, _Aside] = {}
        self._last: tuple[str, str] = ("", "")  # the last line given and the one kept

    def __len__(self) -> int:
        return len(self._doi)

    @property
    def full(self) -> bool:
        """Whether no more rows are kept."""
        return len(self._doi) >= self.cap

    def add(self, row: BatchRow, src: str) -> bool:
        """Keep ``row``, made from the line ``src``; ``False`` (and counted in ``dropped``)
        when the store is full."""
        return self.add_fields(fields_of(row), src)

    def add_fields(self, t: RowFields, src: str) -> bool:
        """:meth:`add` for a row given as its :data:`~doiname.batch.rows.RowFields` tuple
        (what the session makes; no row object is made)."""
        kept = len(self._doi)
        self.add_rows([t], [src])
        return len(self._doi) > kept

    def _kept_line(self, src: str) -> str:
        """The line kept for a row made from ``src``: its first
        :data:`~doiname.limits.BATCH_MAX_LINE_CHARS` characters, as a plain ``str``, one
        string shared by every row of that line."""
        last = self._last
        if last[0] is not src:
            self._last = last = (src, str(src[:BATCH_MAX_LINE_CHARS]))
        return last[1]

    def add_rows(self, rows: list[RowFields], srcs: list[str]) -> None:
        """:meth:`add_fields` for each of ``rows`` (made from the lines ``srcs``), in
        order, the columns filled at once; the rows past the cap are counted in
        ``dropped``."""
        room = max(0, self.cap - len(self._doi))
        if len(rows) > room:
            self.dropped += len(rows) - room
            rows, srcs = rows[:room], srcs[:room]
        if not rows:
            return
        if not _STR.issuperset(map(type, srcs)) or max(map(len, srcs)) > BATCH_MAX_LINE_CHARS:
            srcs = [s if type(s) is str and len(s) <= BATCH_MAX_LINE_CHARS else
                    self._kept_line(s) for s in srcs]
        at = len(self._doi)
        self._line.extend(map(_LINE_OF, rows))
        self._start.extend([_NONE if t.start is None else t.start for t in rows])
        self._end.extend([_NONE if t.end is None else t.end for t in rows])
        self._dup.extend([_NONE if t.duplicate_of is None else t.duplicate_of for t in rows])
        form_code = _FORM_CODE.get
        self._codes += b"".join([_CODES[_STATUS_CODE[t.status]][
            _NO_FORM if t.form is None else form_code(t.form, _OTHER_FORM)] for t in rows])
        self._doi.extend(map(_DOI_OF, rows))
        self._src.extend(srcs)
        aside = self._aside
        for i, t, src in zip(range(at, at + len(rows)), rows, srcs, strict=True):
            start, end, text, form = t.start, t.end, t.text, t.form
            if text is not None and start is not None and end is not None and (
                    src[start:end] == text):
                text = None  # a slice of its line
            inp: str | None = t.input
            if inp is src or inp == shown_input(src, start, end):
                inp = None  # made again from its line
            other = form is not None and form not in _FORM_CODE
            if (t.findings or t.alternatives or t.record is not None or text is not None
                    or inp is not None or other):
                aside[i] = (t.findings, t.alternatives, t.record, text, inp,
                            form if other else None)

    @overload
    def __getitem__(self, i: int) -> BatchRow: ...

    @overload
    def __getitem__(self, i: slice) -> list[BatchRow]: ...

    def __getitem__(self, i: int | slice) -> BatchRow | list[BatchRow]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f"no row {i} (the batch keeps {len(self)} rows)")
        return self._row(i)

    def __iter__(self) -> Iterator[BatchRow]:
        for i in range(len(self._doi)):
            yield self._row(i)

    def _row(self, i: int) -> BatchRow:
        src = self._src[i]
        s, e, d = self._start[i], self._end[i], self._dup[i]
        start = None if s == _NONE else s
        end = None if e == _NONE else e
        status_code, form_code = self._codes[2 * i], self._codes[2 * i + 1]
        doi = self._doi[i]
        aside = self._aside.get(i)
        findings: tuple[Finding, ...] = ()
        alternatives: tuple[str, ...] = ()
        record = text = inp = form = None
        if aside is not None:
            findings, alternatives, record, text, inp, form = aside
        if form is None and form_code < len(_FORMS):
            form = _FORMS[form_code]
        if text is None and start is not None and end is not None:
            text = src[start:end]
        if inp is None:
            inp = shown_input(src, start, end)
        name = url = uri = api = None
        if status_code in _NAMED and doi is not None:
            prefix, _, suffix = doi.partition("/")
            name = make_doi(prefix, suffix)
            url, uri, api = to_url(name), to_uri(name), to_handles_api_url(name)
        elif status_code == _SHORT and doi is not None:
            api = short_doi_api_url(doi)
        return make_row(self._line[i], inp, _STATUSES[status_code], doi, url, uri, findings,
                        None if d == _NONE else d, start, end, text, form, api, alternatives,
                        record, name)

    def name_key(self, i: int) -> str | None:
        """The key row ``i`` is grouped by in a unique export: its name's equivalence key
        (003 ch. 3), ``short:`` and the handle for a shortDOI, ``None`` for a row without a
        readable name (without making the row)."""
        code, doi = self._codes[2 * i], self._doi[i]
        if doi is None:
            return None
        if code == _SHORT:
            return "short:" + doi
        if code in _NAMED:
            prefix, _, suffix = doi.partition("/")
            return equivalence_key(make_doi(prefix, suffix))
        return None

    def line_of(self, i: int) -> int:
        """The line number of row ``i`` (without making the row)."""
        return self._line[i]

    def sizes(self) -> dict[str, Any]:
        """What the store holds, for diagnostics."""
        return {"rows": len(self), "aside": len(self._aside), "dropped": self.dropped,
                "cap": self.cap}
