"""The one exception type of the package: :class:`DoiError`.

Every rejection the package makes is a ``DoiError``. It carries a short, stable
``code`` (for programs), a ``message`` a librarian understands (for people, with no
spec citation in it), the ``source`` it rests on (a spec section, shown apart from the
message), and, when the problem sits at one place in the text, the 0-based ``position``
of the offending character in the text that was given (the message counts from 1, as
people do: "character 9").

A message that names a position is made from a template (:meth:`DoiError.at`) and
formatted only when it is read, so an error found in a piece of a text (the link inside
a proxy link, a name inside a reference) can be moved to the whole text with
:meth:`DoiError.moved` and still say the right character.
"""

from __future__ import annotations

from typing import Any

from .codes import RULES

__all__ = ["DoiError"]


class DoiError(ValueError):
    """A DOI name (or one of its presentations) was rejected.

    Attributes:
        code: short stable identifier such as ``"no-slash"`` or ``"not-graphic"``.
        message: a plain-language explanation (formatted when read).
        position: 0-based index into the text that was given, or ``None``.
        end: 0-based end (exclusive) of the offending span, or ``None``.
        source: what the rejection rests on (``002 §4``): the one given, else the
            source of ``code`` in :data:`doiname.codes.RULES`, else ``""``.
    """

    code: str
    position: int | None
    end: int | None

    def __init__(
        self,
        code: str,
        message: str,
        position: int | None = None,
        end: int | None = None,
        *,
        source: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self._source = source
        self._literal = message
        self._template: str | None = None
        self._fields: dict[str, Any] = {}
        self.position = position
        self.end = end if end is not None or position is None else position + 1

    @classmethod
    def at(cls, code: str, template: str, position: int, end: int | None = None,
           *, source: str | None = None, **fields: Any) -> DoiError:
        """An error whose message names its position: ``{at}`` in ``template`` becomes the
        1-based position when the message is read; other ``{names}`` come from ``fields``
        (put text from the input there, never into the template itself)."""
        err = cls(code, "", position, end, source=source)
        err._template = template
        err._fields = dict(fields)
        err.args = (err.message,)
        return err

    @property
    def message(self) -> str:
        """The explanation, with the position counted from 1 as people count."""
        if self._template is None:
            return self._literal
        at = (self.position or 0) + 1
        return self._template.format(at=at, **self._fields)

    @property
    def source(self) -> str:
        """What the rejection rests on, for a small "Source:" line apart from the message."""
        if self._source is not None:
            return self._source
        rule = RULES.get(self.code)
        return rule.source if rule is not None else ""

    def moved(self, position: int, end: int | None = None) -> DoiError:
        """The same error at another span (of a larger text); the message follows."""
        err = DoiError(self.code, self._literal, position, end, source=self._source)
        err._template = self._template
        err._fields = self._fields
        err.args = (err.message,)
        return err

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"DoiError({self.code!r}, {self.message!r}, position={self.position!r})"
