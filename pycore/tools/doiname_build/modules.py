"""The page's ES module graph, read from its static ``import`` statements."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: Relative import specifiers of the page's modules become ``"<this><path>"`` (the single
#: file's boot script resolves them to the ``blob:`` URLs it makes).
MODULE_PLACEHOLDER = "doiname-single:"

_STATIC_IMPORT = re.compile(
    r"""^([ \t]*(?:import|export)\b[^;"'`]*?\bfrom[ \t]*|[ \t]*import[ \t]*)"""
    r"""(["'])(\.{1,2}/[^"'\n]+)\2""",
    re.MULTILINE)


def page_modules(site: Path, entries: Sequence[str]) -> list[dict[str, Any]]:
    """The page's ES modules reachable from ``entries`` (paths relative to ``site``),
    dependencies first, each with its relative import specifiers replaced by
    ``"<MODULE_PLACEHOLDER><path>"`` and the list of those paths (``deps``)."""
    order: list[dict[str, Any]] = []
    state: dict[str, str] = {}

    def visit(path: str, chain: tuple[str, ...]) -> None:
        if state.get(path) == "done":
            return
        if state.get(path) == "visiting":
            raise SystemExit("build.py: the single file cannot inline an import cycle: "
                             + " -> ".join((*chain, path)))
        state[path] = "visiting"
        file = site / path
        if not file.is_file():
            raise SystemExit(f"build.py: {chain[-1] if chain else 'index.html'} imports "
                             f"{path}, which is not in {site}")
        deps: list[str] = []

        def rewrite(m: re.Match[str]) -> str:
            target = (Path(path).parent / m.group(3)).as_posix()
            target = os.path.normpath(target)
            if target.startswith(".."):
                raise SystemExit(f"build.py: {path} imports {m.group(3)}, outside the site")
            if target not in deps:
                deps.append(target)
            return f'{m.group(1)}"{MODULE_PLACEHOLDER}{target}"'

        source = _STATIC_IMPORT.sub(rewrite, file.read_text(encoding="utf-8"))
        for dep in deps:
            visit(dep, (*chain, path))
        state[path] = "done"
        order.append({"path": path, "source": source, "deps": deps})

    for entry in entries:
        visit(os.path.normpath(entry), ())
    return order
