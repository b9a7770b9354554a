"""The package's one mechanism for remembering what it computed: bounded, by value.

A list names the same DOI, the same link head, the same finding again and again, so a
few answers are worth keeping. Every cache of the package is made here: a :class:`Memo`
(a map of at most ``size`` entries, the oldest forgotten first) or a function wrapped by
:func:`remembered` (:func:`functools.lru_cache` of at most ``size`` calls). Each is keyed
by the value it was computed from, never by an object's ``id()``, and each is listed, so
that :func:`forget_all` empties them together (a rule registered in
:mod:`doiname.findings` changes what a name gives: nothing remembered before may be
served after).
"""

from __future__ import annotations

import functools
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Memo", "forget_all", "remembered"]

K = TypeVar("K")
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., object])

#: How every remembering function of the package is emptied.
_CLEARS: list[Callable[[], None]] = []


class Memo(Generic[K, V]):
    """At most ``size`` answers, by the value they were computed from; the oldest is
    forgotten first. ``get(key)`` is the dict's own (``None`` when not kept); ``put``
    keeps an answer and returns it."""

    __slots__ = ("__weakref__", "_data", "get", "size")

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("a Memo keeps at least one answer")
        self._data: OrderedDict[K, V] = OrderedDict()
        self.size = size
        #: The answer kept for a key, else ``None`` (the dict's own ``get``: no method of
        #: this class is called for a look-up).
        self.get: Callable[[K], V | None] = self._data.get
        _MEMOS.add(self)  # type: ignore[arg-type]

    def put(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (forgetting the oldest answer when full)."""
        data = self._data
        data[key] = value  # (a key kept before keeps its place, as it did)
        if len(data) > self.size:
            data.popitem(last=False)  # the oldest, at once (a dict's first key is not)
        return value

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        """Forget every answer."""
        self._data.clear()


def remembered(size: int) -> Callable[[F], F]:
    """A function's answers for its last ``size`` distinct arguments (hashable ones),
    forgotten with every other cache by :func:`forget_all`."""

    def wrap(fn: F) -> F:
        kept = functools.lru_cache(maxsize=size)(fn)
        _CLEARS.append(kept.cache_clear)
        return kept  # type: ignore[return-value]

    return wrap


#: Every Memo alive (a session's own are forgotten with it).
_MEMOS: weakref.WeakSet[Memo[object, object]] = weakref.WeakSet()


def forget_all() -> None:
    """Empty every cache of the package."""
    for memo in list(_MEMOS):
        memo.clear()
    for clear in _CLEARS:
        clear()
