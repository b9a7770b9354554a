"""The ``doiname`` command line: every public function as a subcommand.

Names come from the arguments or, when there are none, from standard input, one per
line, streamed (memory does not grow with the input). ``--json`` prints one JSON object
per input line. Bad input prints what is wrong and where, and the exit code is 1.

Every text is read with the same reading policy as the web page and Batch
(:mod:`doiname.inspection`): ``doi: 10.1000/182.`` is the name ``10.1000/182``, and what
was left out or read another way is said on standard error (``doiname inspect`` shows
all of it). ``--exact`` reads each text as exactly one name (:func:`doiname.parse`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO, cast

from . import __version__
from . import presentation as pres
from .batch import (
    UNIQUE_COLUMNS,
    BatchRow,
    BatchSession,
    iter_batch_rows,
    iter_line_matches,
    read_lines,
    unique_rows,
    write_csv,
    write_jsonl,
    write_matches_csv,
    write_matches_jsonl,
)
from .cli_files import open_input
from .cli_names import PER_NAME
from .cli_text import TerminalOut, policy_notes, visible, with_source
from .cli_verify import add_verify_parser, run_verify
from .comparison import compare
from .equivalence import explain_equivalence
from .errors import DoiError
from .findings import RULES
from .inspection import read_name
from .jsonable import error_json, to_jsonable
from .model import Doi
from .presentation import DEFAULT_RESOLVER
from .resolver.text import plural
from .syntax import parse

__all__ = ["main"]

EXAMPLES = """\
examples:
  doiname url '10.1000/456#789'              -> https://doi.org/10.1000/456%23789
  doiname url --level strict 10.6338/JDA.202212/SP_17(4).0000
  doiname uri 'https://doi.org/10.1000/456%23789'   -> doi:10.1000/456%23789
  doiname urn 10.123/456ABC/zyz              -> https://doi.org/urn:doi:10.123:456ABC%2Fzyz
  doiname equivalent 10.1000/ABC doi:10.1000/abc
  doiname check '10.1000/a\u2010b'                -> a lookalike dash, with its position
  doiname inspect 'doi: 10.1056/NEJMoa2001017.'   -> the name, what was left out, other readings
  doiname canonical 'doi:dk%2FP%C3%A6dagogi%2037%282%29%2C%20562'
  cat dois.txt | doiname url --json          (one name per line, streamed)
  doiname extract references.txt --format csv
"""


def _inputs(args: list[str], stdin: TextIO) -> Iterator[str]:
    if args:
        yield from args
        return
    for line in stdin:
        line = line.rstrip("\r\n")
        if line.strip():
            yield line


class _Out:
    def __init__(self, as_json: bool, out: TextIO, err: TextIO) -> None:
        self.as_json = as_json
        self.out = out
        self.err = err
        self.failed = 0

    def fail(self) -> None:
        """A text judged bad without an exception (the exit code is 1)."""
        self.failed += 1

    def result(self, text: str, value: Any, plain: str) -> None:
        if self.as_json:
            self.out.write(json.dumps({"input": text, "result": to_jsonable(value)},
                                      ensure_ascii=False) + "\n")
        else:
            self.out.write(visible(plain) + "\n")

    def error(self, text: str, err: DoiError) -> None:
        self.failed += 1
        if self.as_json:
            self.out.write(json.dumps({"input": text, "error": error_json(err)},
                                      ensure_ascii=False) + "\n")
            return
        self.err.write(f"doiname: {visible(with_source(err.message, err.source))}\n")
        if err.position is not None and "\n" not in text and len(text) < 200:
            # (one column a character, for the caret: what a terminal hides or acts on is
            # a dot, as C0 controls were)
            shown = "".join(c if c.isprintable() else "\u00b7" for c in text)
            width = max(1, (err.end or err.position + 1) - err.position)
            self.err.write(f"  {shown}\n  {' ' * err.position}{'^' * width}\n")


def _each(
    out: _Out, items: Iterable[str], fn: Callable[[str], Any], plain: Callable[[Any], str]
) -> None:
    for text in items:
        try:
            value = fn(text)
        except DoiError as err:
            out.error(text, err)
            continue
        out.result(text, value, plain(value))


def _build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="one JSON object per input")
    common.add_argument("--exact", action="store_true",
                        help="read each text as exactly one name (no reading policy)")
    parser = argparse.ArgumentParser(
        prog="doiname",
        description="DOI names done right: read any pasted form, present, compare, check.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"doiname {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, help_: str, *, texts: bool = True, level: bool = False,
            epilog: str = EXAMPLES) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, parents=[common], description=help_,
                           epilog=epilog, formatter_class=argparse.RawDescriptionHelpFormatter)
        if level:
            p.add_argument("--level", choices=["mandatory", "recommended", "strict"],
                           default="recommended")
        if texts:
            p.add_argument("text", nargs="*")
        return p

    add("inspect", "read pasted text as a person means it: names, what was left out, "
        "other readings, findings, links")
    add("parse", "read a DOI name from any pasted form (name, doi:, urn:doi:, URL, EZproxy)")
    p = add("url", "the doi.org URL, percent-encoded (000/001)", level=True)
    p.add_argument("--resolver", default=DEFAULT_RESOLVER)
    p.add_argument("--proxy", help="EZproxy login prefix ending in url= or qurl=")
    for name, help_ in [
        ("urn", "the URN URL https://doi.org/urn:doi:PREFIX:SUFFIX (000)"),
        ("uri", "the doi: URI (003 ch. 2)"),
        ("html", "an HTML link"),
        ("markdown", "a Markdown link"),
        ("key", "the equivalence key (003 ch. 3)"),
        ("canonical", "the 2003 canonical doi: URI (004)"),
        ("codepoints", "every character of the name with its U+ number, name and script"),
    ]:
        add(name, help_)
    add("check", "findings: lookalikes, mixed scripts, invisible characters, encoding slips",
        epilog=_rules_help() + "\n\n" + EXAMPLES)
    p = add("api", "the handle API URL (003 ch. 4)")
    p.add_argument("--type", action="append", default=[], dest="types")
    p.add_argument("--index", action="append", default=[], type=int)
    add("which-ra", "one Which RA request URL for all the names given")
    add("explain-url", "why each character of the URL is encoded", level=True)
    p = add("extract", "find every DOI in a text file or - (stdin), streamed; CSV or JSON Lines")
    p.add_argument("file", help="a path, or - for standard input")
    p.add_argument("--format", choices=["csv", "jsonl"], default=None,
                   help="output format (default csv; --json means jsonl)")
    p = add("batch", "find, clean, check and deduplicate the DOIs of a list, one row per "
            "reference (a BibTeX entry, a RIS or PubMed record, a JSON object, a line of text)")
    p.add_argument("file", help="a path, or - for standard input")
    p.add_argument("--format", choices=["csv", "jsonl"], default=None,
                   help="output format (default csv; --json means jsonl)")
    p.add_argument("--unique", action="store_true",
                   help="each distinct DOI name once: its first row, with the number of "
                   "times it occurs and the lines of the others")
    p.add_argument("--excel", action="store_true",
                   help="CSV for Excel: starts with a UTF-8 byte-order mark")
    p.add_argument("--csv-input", action="store_true",
                   help="the input is CSV or TSV (a quoted cell may hold line breaks); "
                   "implied by a .csv or .tsv file name")
    add_verify_parser(sub, common)
    p = add("equivalent", "are two names equivalent? (003 ch. 3) exit 0 yes, 3 no")
    p.add_argument("a")
    p.add_argument("b")
    return parser


def _rules_help() -> str:
    """The findings ``check`` can give, from :data:`doiname.findings.RULES`."""
    width = max(len(code) for code in RULES)
    rows = [f"  {code:<{width}}  {rule.severity:<7}  {rule.summary} ({rule.source})"
            for code, rule in RULES.items()]
    return "findings (code, severity, what it means, source):\n" + "\n".join(rows)


def _stream_file(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    """``doiname extract`` / ``doiname batch``: stream a file, rows out, counts to stderr."""
    fmt = args.format or ("jsonl" if args.json else "csv")
    opened = open_input(args.file, stdin, stderr)
    if opened is None:
        return 1
    with opened as source:
        lines = read_lines(source)  # one line at a time, each bounded
        if args.command == "extract":
            items = iter_line_matches(lines)
            count = (write_matches_csv if fmt == "csv" else write_matches_jsonl)(items, stdout)
            stderr.write(f"doiname extract: {plural(count, 'DOI')} found\n")
            return 0
        csv_input = args.csv_input or args.file.lower().endswith((".csv", ".tsv"))
        session = BatchSession(hint="csv" if csv_input else None)
        rows: Iterable[BatchRow] = iter_batch_rows(lines, session)
        if source.isatty():  # typed in: each row as soon as its line (no chunk read ahead)
            rows = (row for row in rows)
        extra = None
        columns: tuple[str, ...] = ()
        if args.unique:
            found = list(unique_rows(rows))
            counts = {id(row): (n, lines) for row, n, lines in found}
            rows = [row for row, _n, _lines in found]

            def extra(row: BatchRow) -> dict[str, Any]:
                n, lines = counts[id(row)]
                return {"occurrences": n, "duplicate_lines": "; ".join(map(str, lines))}
            columns = UNIQUE_COLUMNS
        if fmt == "csv":
            write_csv(rows, stdout, extra=extra, extra_columns=columns, excel=args.excel)
        else:
            write_jsonl(rows, stdout, extra=extra)
    c = session.summary.as_dict()
    stderr.write(
        f"doiname batch: {plural(c['input_lines'], 'line')}, {plural(c['dois'], 'DOI')} "
        f"({c['unique']} unique, {plural(c['duplicates'], 'duplicate')}, {c['errors']} "
        f"unreadable), {c['no_doi']} without a DOI; {plural(c['records'], 'reference')}"
        + (f", {plural(c['short_dois'], 'shortDOI')}" if c["short_dois"] else "") + "\n"
    )
    return 0


def main(argv: list[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the command line (``python -m doiname`` / ``doiname``); returns the exit code."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if stdout.isatty():  # rows quote the input: shown, never obeyed, on a screen
        stdout = cast(TextIO, TerminalOut(stdout))
    args = _build_parser().parse_args(argv)
    try:
        return _run(args, stdin, stdout, stderr)
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        with contextlib.suppress(OSError, ValueError, AttributeError):
            # Python flushes stdout at exit: point it at /dev/null so that cannot fail again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    out = _Out(args.json, stdout, stderr)
    cmd = args.command
    if cmd in ("extract", "batch"):
        return _stream_file(args, stdin, stdout, stderr)
    if cmd == "verify":
        return run_verify(args, stdin, stdout, stderr)
    if cmd == "equivalent":
        return _equivalent(args, out)
    name = _namer(args.exact, stderr)
    if cmd == "which-ra":
        items = list(_inputs(args.text, stdin))
        _each(out, ["\n".join(items)], lambda _t: pres.to_which_ra_url([name(i) for i in items]),
              str)
        return 1 if out.failed else 0
    command = PER_NAME[cmd](args, name, out.fail)
    _each(out, _inputs(args.text, stdin), command.fn, command.plain)
    return 1 if out.failed else 0


def _equivalent(args: argparse.Namespace, out: _Out) -> int:
    """``doiname equivalent``: 0 when the two texts name the same DOI name, 3 when not,
    1 when one cannot be read (003 ch. 3: case-insensitive ASCII; ``--exact``: the names
    as given, :func:`~doiname.explain_equivalence`)."""
    pair = f"{args.a} {args.b}"
    if args.exact:
        try:
            ex = explain_equivalence(args.a, args.b)
        except DoiError as err:
            out.error(args.a + " / " + args.b, err)
            return 1
        said = ("equivalent: " if ex.equivalent else "not equivalent: ")
        out.result(pair, ex, said + with_source(ex.message, ex.source))
        return 0 if ex.equivalent else 3
    cmp = compare(args.a, args.b)
    if cmp.equivalent is None:
        out.error(args.a + " / " + args.b, DoiError(cmp.verdict, cmp.message, source=cmp.source))
        return 1
    said = ("equivalent: " if cmp.equivalent else "not equivalent: ")
    out.result(pair, cmp, said + with_source(cmp.message, cmp.source))
    return 0 if cmp.equivalent else 3


def _namer(exact: bool, stderr: TextIO) -> Callable[[str], Doi]:
    """How a command reads each text: the reading policy (what it did said on stderr), or
    exactly one name with ``--exact``."""
    if exact:
        return parse

    def name(text: str) -> Doi:
        doi, found = read_name(text)
        for line in policy_notes(found):
            stderr.write(visible(f"doiname: {text[:80]}: {line}") + "\n")
        return doi

    return name


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
