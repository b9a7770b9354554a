"""Which files a batch reads, in which order, and how they are cut into tasks.

Inputs are files, directories (every file under them, recursively, in path order, names
starting with ``.`` or ``_`` left out as Spark leaves them out) and glob patterns, in the
order given. A path without a scheme (or a ``file:`` URI) that exists here is read by the
Python workers themselves, split into byte ranges when it is large and not compressed;
any other URI (``hdfs://``, ``s3a://``, ``abfss://``, ``gs://``, ...) is read through
Spark's ``binaryFile`` source, one task per file. Nothing here imports Spark.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from .lines import compression_of, text_hint

__all__ = ["InputFile", "Task", "local_files", "pack", "remote_uri"]

_GLOB = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class InputFile:
    """One file of the input, ``index`` its place in the file order."""

    index: int
    path: str
    size: int
    compression: str | None
    hint: str | None


@dataclass(frozen=True, slots=True)
class Task:
    """What one task reads: the records of ``file`` that start in bytes ``[start, end)``
    (``end`` ``None``: to its end), reading from byte ``first_at``, line ``first_line``
    (:class:`doiname.spark.splits.Region`)."""

    file: InputFile
    first_at: int
    first_line: int
    start: int
    end: int | None

    @property
    def weight(self) -> int:
        """About how many bytes the task reads."""
        end = self.file.size if self.end is None else self.end
        return max(1, end - self.start)


def remote_uri(path: str) -> bool:
    """Whether ``path`` names a file through a Hadoop file system (not a local path)."""
    scheme = urlsplit(path).scheme
    return len(scheme) > 1 and scheme != "file"


def _local(path: str) -> str:
    return unquote(urlsplit(path).path) if path.startswith("file:") else path


def _under(directory: str) -> list[str]:
    found: list[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
        found += (os.path.join(root, f) for f in files if not f.startswith((".", "_")))
    return sorted(found)


def local_files(paths: Sequence[str], *, first_index: int = 0,
                csv_input: bool | None = None) -> list[InputFile]:
    """The files that local ``paths`` name, in order (``FileNotFoundError`` naming the
    path when one names nothing). ``csv_input`` says every file is CSV (``True``), none
    is (``False``), or (``None``) that the name decides, as the CLI decides."""
    out: list[InputFile] = []
    seen: set[str] = set()
    for given in paths:
        path = _local(given)
        if os.path.isdir(path):
            names = _under(path)
        elif os.path.exists(path):
            names = [path]
        elif _GLOB & set(path):
            names = sorted(p for p in glob.glob(path, recursive=True) if os.path.isfile(p))
        else:
            names = []
        if not names:
            raise FileNotFoundError(f"{given}: no such file or directory")
        for name in names:
            if name in seen:
                continue
            seen.add(name)
            hint = text_hint(name) if csv_input is None else "csv" if csv_input else None
            out.append(InputFile(first_index + len(out), name, os.path.getsize(name),
                                 compression_of(name), hint))
    return out


def pack(tasks: Iterable[Task], target: int) -> list[list[Task]]:
    """Tasks in order, packed into groups of about ``target`` bytes (a large task alone),
    so that many small files do not each cost a task."""
    groups: list[list[Task]] = []
    size = 0
    for task in tasks:
        if groups and size + task.weight <= target:
            groups[-1].append(task)
            size += task.weight
        else:
            groups.append([task])
            size = task.weight
    return groups
