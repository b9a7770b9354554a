"""The fast path of a batch line: names written plainly, and lines seen before.

Two shortcuts, each giving exactly the rows of the general path (:mod:`.general`, which
stays the oracle: ``BatchSession(fast=False)``, compared over generated lines, every
fixture and the benchmark's lines in tests/unit/test_differential_batch.py):

* a line whose names are all plain (:func:`doiname.extract.plain.plain_names`): no rule of
  extract has anything to say and :func:`doiname.check` nothing either (ASCII letters,
  digits and ``. _ / -`` only, at most 100 characters, no reserved ``x/`` start), so the
  row needs no finding and its links are the name itself (none of its characters is
  encoded, except a suffix slash in a URI or an API request, and a ``.``/``..`` segment of
  the link's path is protected as 000 asks): :meth:`BatchSession._plain_rows`;
* a line whose text was analysed a moment ago (:class:`PartsCache`): the parts of a text
  depend on nothing else, so they are kept, by the exact text, for the last lines read.
"""

from __future__ import annotations

from collections import OrderedDict

from .general import Part

__all__ = ["PartsCache"]


class PartsCache:
    """The parts of the last lines analysed, by their exact text (at most ``size`` lines
    of at most ``max_chars`` characters; the oldest is forgotten first)."""

    __slots__ = ("_parts", "max_chars", "size")

    def __init__(self, size: int = 1024, max_chars: int = 1000) -> None:
        self._parts: OrderedDict[str, tuple[Part, ...]] = OrderedDict()
        self.size = size
        self.max_chars = max_chars

    def get(self, text: str) -> tuple[Part, ...] | None:
        """The parts of ``text`` when it was analysed lately."""
        return self._parts.get(text)

    def put(self, text: str, parts: tuple[Part, ...]) -> None:
        """Remember the parts of ``text`` (short texts only)."""
        if len(text) > self.max_chars:
            return
        cache = self._parts
        if len(cache) >= self.size:
            cache.popitem(last=False)  # the oldest (O(1), unlike a dict's first key)
        cache[text] = parts
