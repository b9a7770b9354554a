"""Value types: :class:`Doi` (an exact DOI name) and :class:`Finding` (a note from ``check``).

Spec: 002 §4 (Z39.84-2000): a DOI is ``<DIR>.<REG>/<DSS>``, the prefix
``<DIR>.<REG>`` and the suffix separated by the first ``/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["KEEP_ESCAPED", "SEVERITIES", "Doi", "Finding", "Severity", "finding_of",
           "joined_places", "make_doi"]

Severity = Literal["error", "warning", "info"]
#: The severities, most severe first: the order findings are sorted and shown in.
SEVERITIES: tuple[Severity, ...] = ("error", "warning", "info")


class _Known:
    """What the reader proved about a name, kept with the :class:`Doi` (not a field: not
    compared, hashed, shown or converted). ``_plain``: its name needs no escape in a URL
    at 000's recommended level nor in a ``doi:`` URI (003 ch. 2), and has no ``.`` or
    ``..`` segment (000 note): ``to_url`` and ``to_uri`` write it as it is. Only a match
    of the reader's ``FAST``/``FAST_HEAD`` plain group (:mod:`doiname.plain_forms`) sets
    it true; ``Doi(...)``, a copy and an unpickled one know nothing. ``_escaped``: the name
    escaped at 000's recommended level (before the dot-segment fix), kept by ``to_url`` for
    the next ``to_url`` and for ``to_uri`` (003 escapes the same characters but ``/`` and
    ``+``); ``None`` until then. ``_valid``: the reader read it (002 §4: a prefix ``10.``
    and digit groups, a non-empty suffix, Graphic code points), so ``check`` need not
    test that again; a plain name is valid."""

    __slots__ = ("_escaped", "_plain", "_valid")
    _plain: bool
    _valid: bool
    _escaped: str | None


@dataclass(frozen=True, slots=True)
class Doi(_Known):
    """An exact DOI name: prefix and suffix as code points, nothing decoded or folded.

    ``str(doi) == doi.prefix + "/" + doi.suffix`` (002 §4). Construction does
    not validate; use :func:`doiname.parse` to read and check text. Two ``Doi`` values
    are ``==`` only when their code points are identical; use
    :func:`doiname.equivalent` for the equivalence of 003 chapter 3.
    """

    prefix: str
    suffix: str

    def __init__(self, prefix: str, suffix: str) -> None:
        # The frozen dataclass's own __init__ sets the fields through their slots, as this
        # does; and nothing is known of the name yet.
        _D_PREFIX(self, prefix)
        _D_SUFFIX(self, suffix)
        _D_PLAIN(self, False)
        _D_VALID(self, False)
        KEEP_ESCAPED(self, None)

    def __setstate__(self, state: list[str]) -> None:
        """Unpickle (and copy): the fields, and nothing known (002 §4)."""
        self.__init__(*state)  # type: ignore[misc]

    def __str__(self) -> str:
        return self.prefix + "/" + self.suffix

    @property
    def name(self) -> str:
        """The DOI name as one string (002 §4: ``<DIR>.<REG>/<DSS>``)."""
        return self.prefix + "/" + self.suffix

    @property
    def directory(self) -> str:
        """The directory code ``<DIR>`` (always ``"10"`` for DOI names, 002 appendix A)."""
        return self.prefix.split(".", 1)[0]

    @property
    def registrant(self) -> str:
        """The registrant code ``<REG>``: the prefix after ``10.`` (002 §4.2).

        It may itself contain dots (``10.1000.10`` has registrant ``1000.10``).
        """
        parts = self.prefix.split(".", 1)
        return parts[1] if len(parts) == 2 else ""


_D_PREFIX, _D_SUFFIX, _D_PLAIN, _D_VALID, KEEP_ESCAPED = (
    getattr(Doi, name).__set__ for name in ("prefix", "suffix", "_plain", "_valid", "_escaped"))
assert Doi.__slots__ == ("prefix", "suffix")


class _BlankDoi(_Known):
    """A :class:`Doi` being made (the same slots, no ``__init__``)."""

    __slots__ = Doi.__slots__  # the same names, in the same order


def make_doi(prefix: str, suffix: str, plain: bool = False, valid: bool = False) -> Doi:
    """``Doi(prefix, suffix)`` in less time than ``__init__`` (002 §4): an object of a
    class with the same slots becomes a ``Doi`` (allowed between classes of one layout).
    Nothing is checked, as with ``Doi(...)``; ``plain`` and ``valid`` are what the reader
    proved (see ``_Known``; a plain name is valid)."""
    doi: Any = _BlankDoi()
    doi.prefix = prefix
    doi.suffix = suffix
    doi._plain = plain
    doi._valid = valid or plain
    doi._escaped = None
    doi.__class__ = Doi
    return doi  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Finding:
    """One observation about a DOI name, from :func:`doiname.check`.

    ``start``/``end`` index the DOI name (``str(doi)``) when the input could be read as
    one; ``input_start``/``input_end`` index the text that was given (so a user
    interface can highlight it in place). For a finding about the input as a whole
    (a parse error, trimmed whitespace) ``start``/``end`` index the input too and
    ``in_name`` is ``False``. ``repair``, when there is an obvious one, is a text that,
    read alone, gives the corrected name (never applied silently: a view offers it); a
    list of findings gives one (the first finding it repairs holds it). ``places``: every
    span of the input a finding said once for several places stands for (a character
    repeated, spaces, an escape, invisible characters dropped), in order, neighbours
    joined, in the coordinates of ``input_start``/``input_end``; empty when it stands
    for that one span (or the input's positions are unknown).
    """

    code: str
    severity: Severity
    message: str
    start: int
    end: int
    input_start: int | None = None
    input_end: int | None = None
    in_name: bool = True
    source: str = ""
    repair: str | None = None
    places: tuple[tuple[int, int], ...] = ()

    def __init__(self, code: str, severity: Severity, message: str, start: int, end: int,
                 input_start: int | None = None, input_end: int | None = None,
                 in_name: bool = True, source: str = "", repair: str | None = None,
                 places: tuple[tuple[int, int], ...] = ()) -> None:
        # The frozen dataclass's own __init__, in half the time (a batch makes several
        # findings a line): each field is set through its slot, as object.__setattr__
        # would set it.
        _F_CODE(self, code)
        _F_SEVERITY(self, severity)
        _F_MESSAGE(self, message)
        _F_START(self, start)
        _F_END(self, end)
        _F_INPUT_START(self, input_start)
        _F_INPUT_END(self, input_end)
        _F_IN_NAME(self, in_name)
        _F_SOURCE(self, source)
        _F_REPAIR(self, repair)
        _F_PLACES(self, places)


# Each slot's setter, by the field's name (never by position: a field added or moved
# cannot set another's slot).
(_F_CODE, _F_SEVERITY, _F_MESSAGE, _F_START, _F_END, _F_INPUT_START, _F_INPUT_END, _F_IN_NAME,
 _F_SOURCE, _F_REPAIR, _F_PLACES) = (getattr(Finding, name).__set__ for name in (
    "code", "severity", "message", "start", "end", "input_start", "input_end", "in_name",
    "source", "repair", "places"))
assert set(Finding.__slots__) == {"code", "severity", "message", "start", "end", "input_start",
                                  "input_end", "in_name", "source", "repair", "places"}


def finding_of(data: Mapping[str, Any]) -> Finding:
    """A finding back from its JSON object (:func:`doiname.to_jsonable`'s, as a row's
    findings are exported and read back): its places as pairs again."""
    return Finding(**{**data, "places": tuple((int(a), int(b))
                                              for a, b in data.get("places") or ())})


def joined_places(spans: list[tuple[int, int]] | tuple[tuple[int, int], ...]
                  ) -> tuple[tuple[int, int], ...]:
    """``spans`` (in order, apart) with neighbours joined into one (``Finding.places``):
    as many as the runs, never more than the spans."""
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and out[-1][1] == a:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return tuple(out)
