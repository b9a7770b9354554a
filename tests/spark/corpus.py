"""A small corpus with every hard case, and what the CLI gives for it.

Files (read in this order): APA references (LF), library notes (CRLF and a byte-order
mark: proxy links, SICI names, ``#``, a zero-width space), BibTeX and RIS (records over
lines), a text with non-ASCII names, lone-CR line ends and no final line break, and JSON
Lines; names recur across files in other cases and forms. The CLI's rows are those of
``doiname batch`` on the files' texts one after another (each decoded as the CLI decodes
a file, ending with a line break), their line numbers then counted in each file.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from doiname.batch.lines import open_text
from doiname.cli import main as cli_main

_ALSO_ON = re.compile(r"(also on line )([\d, ]+)( of this record)")
REFERENCES = Path(__file__).resolve().parents[1] / "fixtures" / "references"

EXTRA = (
    "Müller, K. (2020). Über Namen. doi:10.1000/ÄBC\r"
    "Same name, other case: 10.1000/äbc (not equivalent: only A-Z fold)\r"
    "Kelvin sign: 10.1000/\u212aelvin and 10.1000/kelvin\r"
    "DUPLICATE of the APA list: HTTPS://DOI.ORG/10.1037/0033-295X.84.2.191\r"
    "shortDOI: https://doi.org/10/abcde\r"
    "fragment: https://doi.org/10.1000/456%23789 and doi:10.1000/456#789\r"
    "lookalike dash: 10.1000/a\u2010b\r"
    "\r"
    "a name cut by a space: doi:10.1000/a b\r"
    "SICI again: doi:10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O"
)

JSONL = "\n".join(json.dumps(o, ensure_ascii=False) for o in [
    {"id": "w1", "DOI": "10.1126/SCIENCE.1127647", "title": "upper case of the RIS one"},
    {"id": "w2", "DOI": "10.1000/äbc", "reference": [{"DOI": "10.1038/nature14539"}]},
    {"id": "w3", "title": "no DOI here"},
    {"id": "w4", "DOI": "10.5555/12345678", "URL": "https://doi.org/10.5555/12345678"},
]) + "\n"


def write_corpus(directory: Path) -> list[Path]:
    """The corpus's files in ``directory``, in reading order."""
    files = [
        ("a_apa.txt", (REFERENCES / "apa.txt").read_bytes()),
        ("b_notes.txt", b"\xef\xbb\xbf" + (REFERENCES / "library-notes.txt").read_text(
            encoding="utf-8").replace("\n", "\r\n").encode()),
        ("c_refs.bib", (REFERENCES / "bibtex.bib").read_bytes()),
        ("d_refs.ris", (REFERENCES / "ris.ris").read_bytes()),
        ("e_extra.txt", EXTRA.encode()),
        ("f_works.jsonl", JSONL.encode()),
    ]
    out = []
    for name, data in files:
        path = directory / name
        path.write_bytes(data)
        out.append(path)
    return out


def cli_text(path: Path) -> str:
    """A file's text as the CLI reads it (:func:`doiname.batch.lines.open_text`: UTF-8
    or UTF-16 by its byte-order mark, the mark dropped, bad bytes replaced, line ends
    kept)."""
    with open_text(open(path, "rb")) as f:
        return f.read()


def line_count(text: str) -> int:
    return len(io.StringIO(text, newline="").readlines())


def cli_rows(files: list[Path], tmp: Path, *, extra: tuple[str, ...] = ()) -> list[list[str]]:
    """``doiname batch`` on the files one after another, as CSV rows (no header) with
    ``file`` and ``duplicate_of_file`` added and line numbers counted in each file."""
    texts = [cli_text(p) for p in files]
    joined = "".join(t if t.endswith(("\n", "\r")) or not t else t + "\n" for t in texts)
    concat = tmp / "concatenation.txt"
    concat.write_text(joined, encoding="utf-8", newline="")
    out, err = io.StringIO(), io.StringIO()
    assert cli_main(["batch", str(concat), *extra], stdout=out, stderr=err) == 0, err.getvalue()
    starts = []
    n = 0
    for t in texts:
        starts.append(n)
        n += line_count(t)

    def place(line: int) -> tuple[str, int]:
        i = max(k for k, s in enumerate(starts) if s < line)
        return str(files[i]), line - starts[i]

    table = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    header, rows = table[0], table[1:]
    col = {c: i for i, c in enumerate(header)}
    mapped = []
    for row in rows:
        file, line = place(int(row[col["line"]]))
        row[col["line"]] = str(line)
        dup_file = ""
        if row[col["duplicate_of"]]:
            dup_file, dup = place(int(row[col["duplicate_of"]]))
            row[col["duplicate_of"]] = str(dup)
        # a record's note names its other lines: in the file too
        row[col["findings"]] = _ALSO_ON.sub(lambda m: m[1] + ", ".join(
            str(place(int(n))[1]) for n in m[2].split(", ")) + m[3], row[col["findings"]])
        mapped.append([*row, file, dup_file])
    return mapped


def spark_csv_rows(out: Path) -> tuple[list[str], list[list[str]]]:
    """The header and rows of the CSV part files in ``out``, in part order (each part
    file starts with the header)."""
    header: list[str] = []
    rows: list[list[str]] = []
    for part in sorted(out.glob("part-*")):
        table = list(csv.reader(io.StringIO(part.read_text(encoding="utf-8"), newline="")))
        if not table:
            continue
        assert not header or table[0] == header
        header = table[0]
        rows += table[1:]
    return header, rows
