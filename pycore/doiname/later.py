"""Names of a package imported on first use (:pep:`562`), so that importing the package
(``import doiname``, ``import doiname.bridge``) loads only what its first caller needs:
the web worker's first answer does not wait for the registry, verify or batch modules.

A package lists where each such name lives (``{module: (name, ...)}``, the modules
relative to the package) and calls :func:`import_later`; the same names are imported
under ``TYPE_CHECKING`` for type checkers, and tests/unit/test_later.py holds the two
lists equal.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import Any

__all__ = ["LaterPackage", "import_later"]


class LaterPackage(ModuleType):
    """A package's module object whose listed names are imported from their modules on
    first use, then kept. A submodule named like one of those names (``doiname.verify``
    and the function ``verify``) stays in ``sys.modules`` but never replaces the name as
    the package's attribute, as when the package imported its names eagerly."""

    _later: dict[str, str]

    def __getattr__(self, name: str) -> Any:
        module = self.__dict__.get("_later", {}).get(name)
        if module is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f"{self.__name__}.{module}"), name)
        self.__dict__[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        if (isinstance(value, ModuleType) and name in self.__dict__.get("_later", {})
                and value.__name__ == f"{self.__name__}.{name}"):
            return  # the import system naming a submodule: the listed name wins
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *self.__dict__.get("_later", {})})


def import_later(package: str, names: dict[str, tuple[str, ...]]) -> None:
    """Make ``names`` (by module of ``package``, relative to it) attributes of the
    package ``package`` (already in ``sys.modules``: call it from its ``__init__``) that
    are imported the first time they are read."""
    module = sys.modules[package]
    module.__dict__["_later"] = {name: home for home, listed in names.items()
                                 for name in listed}
    module.__class__ = LaterPackage
