"""The one exception type of the package: :class:`DoiError`.

Every rejection the package makes is a ``DoiError``. It carries a short, stable
``code`` (for programs), a ``message`` a librarian understands (for people), and,
when the problem sits at one place in the text, the 0-based ``position`` of the
offending character in the text that was given (the message counts from 1, as
people do: "character 9").
"""

from __future__ import annotations

__all__ = ["DoiError"]


class DoiError(ValueError):
    """A DOI name (or one of its presentations) was rejected.

    Attributes:
        code: short stable identifier such as ``"no-slash"`` or ``"not-graphic"``.
        message: a plain-language explanation.
        position: 0-based index into the text that was given, or ``None``.
        end: 0-based end (exclusive) of the offending span, or ``None``.
    """

    code: str
    message: str
    position: int | None
    end: int | None

    def __init__(
        self,
        code: str,
        message: str,
        position: int | None = None,
        end: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position
        self.end = end if end is not None or position is None else position + 1

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"DoiError({self.code!r}, {self.message!r}, position={self.position!r})"

    def shifted(self, offset: int) -> DoiError:
        """Return the same error with its span moved by ``offset`` characters."""
        if self.position is None:
            return self
        end = self.end if self.end is not None else self.position + 1
        return DoiError(self.code, self.message, self.position + offset, end + offset)
