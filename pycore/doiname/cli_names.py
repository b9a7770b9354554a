"""What each subcommand that reads its texts one by one computes, and how it is printed.

:data:`PER_NAME` maps a subcommand (``doiname url``, ``check``, ``parse`` ...) to the
function of its parsed arguments that gives a :class:`Command`: what it computes for one
text and its plain-text form (``--json`` prints the value itself). Each reads a text
through ``name``, the reading policy of :mod:`doiname.inspection` (or exactly one name
with ``--exact``), as the web page and Batch do.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NamedTuple

from . import presentation as pres
from .canonical import canonical_uri_2003
from .cli_text import check_plain, explain_plain, inspect_plain
from .codepoints import describe_code_points
from .equivalence import equivalence_key
from .errors import DoiError
from .inspection import inspect, read_name
from .jsonable import to_jsonable
from .model import Doi
from .syntax import read

__all__ = ["PER_NAME", "Command"]

#: How a subcommand reads one text as a name.
Namer = Callable[[str], Doi]


class Command(NamedTuple):
    """What a subcommand computes for one text, and how that value is printed."""

    fn: Callable[[str], Any]
    plain: Callable[[Any], str] = str


#: A subcommand's :class:`Command`, made from its arguments, its namer, and ``fail`` (a
#: text the command judges bad without an exception: the exit code is then 1).
Maker = Callable[[argparse.Namespace, Namer, Callable[[], None]], Command]


def _parse(args: argparse.Namespace, name: Namer, _fail: Callable[[], None]) -> Command:
    """``doiname parse``: the name, its form, and the reader's notes (002 §4, 001, 003 ch. 2)."""
    def fn(t: str) -> Any:
        if args.exact:
            r = read(t)
            return {**to_jsonable(r.doi), "form": r.form, "notes": to_jsonable(r.notes)}
        doi, found = read_name(t)
        c = found.candidates[found.selected or 0]
        name(t)  # says on stderr what the reading policy did
        return {**to_jsonable(doi), "form": c.form, "notes": to_jsonable(c.findings)}

    return Command(fn, lambda r: str(r["name"]))


def _url(args: argparse.Namespace, name: Namer, _fail: Callable[[], None]) -> Command:
    """``doiname url``: the name's URL at a level, through a proxy when asked (000)."""
    level, res, proxy = args.level, args.resolver, args.proxy

    def fn(t: str) -> str:
        if proxy:
            return pres.to_proxy_url(name(t), proxy, level=level, resolver=res)
        return pres.to_url(name(t), level=level, resolver=res)

    return Command(fn)


def _api(args: argparse.Namespace, name: Namer, _fail: Callable[[], None]) -> Command:
    """``doiname api``: the handle record's address at doi.org (RFC 3651, doi.org resolver)."""
    types, index = args.types, args.index
    return Command(lambda t: pres.to_handles_api_url(name(t), types=types, index=index))


def _check_command(args: argparse.Namespace, _name: Namer, fail: Callable[[], None]) -> Command:
    """``doiname check``: the findings (003 ch. 2 and 6); a text with an error fails."""
    def fn(t: str) -> Any:
        found = check_text(t, args.exact)
        if any(f.severity == "error" for f in found):
            fail()  # the input is not a readable DOI name: exit code 1
        return found

    return Command(fn, check_plain)


def _codepoints(args: argparse.Namespace, _name: Namer, _fail: Callable[[], None]) -> Command:
    """``doiname codepoints``: each character of the name read, or of the text (003 ch. 2
    note 2 and ch. 6)."""
    def plain(cps: Any) -> str:
        return "\n".join(f"{c.code_point:<9} {c.char!r:<6} {c.name} [{c.script}]" for c in cps)

    return Command(lambda t: describe_code_points(t if args.exact else _name_or_text(t)),
                   plain)


def _explain_url(args: argparse.Namespace, name: Namer, _fail: Callable[[], None]) -> Command:
    """``doiname explain-url``: why each character of the URL is written so (000)."""
    level = args.level
    return Command(lambda t: pres.explain_url(name(t), level), explain_plain)


def _simple(present: Callable[[Doi], str]) -> Maker:
    """A subcommand that presents the name read, and nothing else."""
    def make(_args: argparse.Namespace, name: Namer, _fail: Callable[[], None]) -> Command:
        return Command(lambda t: present(name(t)))

    return make


#: Every subcommand that reads its texts one by one.
PER_NAME: dict[str, Maker] = {
    "inspect": lambda _a, _n, _f: Command(inspect, inspect_plain),
    "parse": _parse,
    "url": _url,
    "api": _api,
    "check": _check_command,
    "codepoints": _codepoints,
    "explain-url": _explain_url,
    # the 2003 draft reads doi: URIs of any prefix itself
    "canonical": lambda _a, _n, _f: Command(canonical_uri_2003),
    "urn": _simple(pres.to_urn_url),
    "uri": _simple(pres.to_uri),
    "html": _simple(pres.to_html_link),
    "markdown": _simple(pres.to_markdown_link),
    "key": _simple(equivalence_key),
}


def _name_or_text(text: str) -> str | Doi:
    """The name the policy reads, for listing its characters; the text when none."""
    try:
        return read_name(text)[0]
    except DoiError:
        return text


def check_text(text: str, exact: bool) -> list[Any]:
    """``doiname check``: the findings of the name the policy reads (with what reading it
    said), or, with ``--exact`` or when nothing can be read, :func:`doiname.check`
    (003 ch. 2 and 6)."""
    from .findings import check

    if exact:
        return check(text)
    found = inspect(text, forms=False)
    if found.selected is None:
        return [*found.notes] if found.notes else check(text)
    c = found.candidates[found.selected]
    return [*c.findings, *found.notes]
