"""The command line: arguments, streamed stdin, --json, exit codes, errors with a caret."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from doiname.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_url_from_arguments() -> None:
    assert run(["url", "10.1000/456#789"]) == (0, "https://doi.org/10.1000/456%23789\n", "")


def test_levels_and_proxy() -> None:
    _code, out, _ = run(["url", "--level", "strict", "10.6338/JDA.202212/SP_17(4).0000"])
    assert out == "https://doi.org/10.6338/JDA.202212%2FSP_17(4).0000\n"
    _code, out, _ = run(["url", "--proxy", "https://x.example.edu/login?qurl=", "10.1/a#b"])
    assert out == "https://x.example.edu/login?qurl=https%3A%2F%2Fdoi.org%2F10.1%2Fa%2523b\n"


def test_stdin_lines_stream_and_errors_exit_1() -> None:
    lines = "10.1000/182\n\n10.1000/a\u200bb\nhttps://doi.org/10.1/x%2Fy\n"
    code, out, err = run(["uri", "--exact"], lines)
    assert code == 1
    assert out.splitlines() == ["doi:10.1000/182", "doi:10.1/x%2Fy"]
    assert "U+200B" in err and "character 10" in err and "^" in err
    # the reading policy (as the page and Batch read it): the invisible character is
    # dropped, and stderr says so (never silently)
    code, out, err = run(["uri"], lines + "nope\n")
    assert code == 1
    assert out.splitlines() == ["doi:10.1000/182", "doi:10.1000/ab", "doi:10.1/x%2Fy"]
    assert "U+200B" in err and "character 10" in err and "dropped" in err


def test_json_output() -> None:
    code, out, _ = run(["parse", "--json", "doi:10.1000/456%23789", "nope"])
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert rows[0]["result"]["name"] == "10.1000/456#789"
    assert rows[0]["result"]["form"] == "doi-uri"
    assert rows[1]["error"]["code"] == "no-slash"


def test_equivalent_exit_codes() -> None:
    assert run(["equivalent", "10.1000/ABC", "doi:10.1000/abc"])[0] == 0
    assert run(["equivalent", "10.1000/\u212a", "10.1000/k"])[0] == 3
    assert run(["equivalent", "x", "10.1000/k"])[0] == 1


def test_other_commands() -> None:
    assert run(["urn", "10.123/456ABC/zyz"])[1] == "https://doi.org/urn:doi:10.123:456ABC%2Fzyz\n"
    assert run(["canonical", "doi:dk%2FP%C3%A6dagogi%2037%282%29%2C%20562"])[1] == (
        "doi:DK/P%C3%A6DAGOGI%2037(2),%20562\n")
    assert run(["key", "10.1000/ABC"])[1] == "10.1000/abc\n"
    assert run(["which-ra", "--exact", "10.1/a,b", "10.1000/182"])[1] == (
        "https://doi.org/ra/10.1/a%2Cb,10.1000/182\n")
    # read by the policy, "," ends a name (extract R12), and stderr names the other reading
    _code, out, err = run(["which-ra", "10.1/a,b", "10.1000/182"])
    assert out == "https://doi.org/ra/10.1/a,10.1000/182\n" and "10.1/a,b" in err
    assert run(["api", "--type", "URL", "10.1000/182"])[1] == (
        "https://doi.org/api/handles/10.1000/182?type=URL\n")
    assert "%23" in run(["explain-url", "10.1/a#b"])[1]
    assert run(["html", "10.1/a<b"])[1] == '<a href="https://doi.org/10.1/a%3Cb">10.1/a&lt;b</a>\n'


@pytest.mark.skipif(sys.platform == "emscripten", reason="no subprocesses in Pyodide")
def test_python_dash_m_and_help() -> None:
    env_path = str(ROOT / "pycore")
    proc = subprocess.run(
        [sys.executable, "-m", "doiname", "--help"], capture_output=True, text=True,
        env={"PYTHONPATH": env_path}, check=False,
    )
    assert proc.returncode == 0 and "examples:" in proc.stdout


def test_check_and_codepoints() -> None:
    code, out, _ = run(["check", "10.1000/182"])
    assert (code, out) == (0, "no findings\n")
    code, out, _ = run(["check", "10.1000/a\u2010b"])
    assert code == 0 and "lookalike-dash" in out
    code, out, _ = run(["check", "--json", "--exact", "10.1000/a\u200bb"])
    assert code == 1 and json.loads(out)["result"][0]["code"] == "not-graphic"
    code, out, _ = run(["check", "--json", "10.1000/a\u200bb"])  # the reading policy: R1
    (f,) = json.loads(out)["result"]
    assert code == 0 and f["code"] == "zero-width-dropped" and f["repair"] == "10.1000/ab"
    code, out, _ = run(["codepoints", "10.1/\u0430"])
    assert "U+0430" in out and "CYRILLIC SMALL LETTER A" in out


def test_messages_are_plain_and_their_source_follows_quietly() -> None:
    code, out, _ = run(["check", "--exact", "10.1000/a/b"])
    (line,) = out.splitlines()
    message, source = line.split("  (source: ")
    assert code == 0 and "reserves suffixes" in message and "002" not in message
    assert source == "002 §4.3)"  # the citation is kept, after the message
    code, out, _ = run(["check", "--json", "--exact", "10.1000/a/b"])
    (f,) = json.loads(out)["result"]
    assert f["source"] == "002 §4.3" and "§" not in f["message"]
    code, _, err = run(["url", "--exact", "10.1000"])  # an error: its source too
    assert code == 1 and "then a suffix.  (source: 002 §4)" in err
    code, out, _ = run(["parse", "--json", "--exact", "10.1000"])
    assert json.loads(out)["error"]["source"] == "002 §4"
    code, out, _ = run(["equivalent", "10.1000/\u00e9", "10.1000/e\u0301"])
    assert code == 3 and out.endswith("without normalization.  (source: 003 ch. 2 note 1)\n")
    code, out, _ = run(["inspect", "doi: 10.1056/NEJMoa2001017."])
    assert "(source: extract R13)" in out


def test_batch_and_extract_files(tmp_path: Path) -> None:
    src = tmp_path / "refs.txt"
    src.write_text("See doi:10.1000/182.\nnothing\nhttps://doi.org/10.1000/182\n", encoding="utf-8")
    code, out, err = run(["batch", str(src)])
    assert code == 0 and out.splitlines()[0].startswith(
        "line,record,status,doi,url,duplicate_of,findings,input")
    assert "3 lines, 2 DOIs (1 unique, 1 duplicate," in err
    code, out, err = run(["extract", "--json", "-"], stdin=src.read_text())
    assert [json.loads(x)["doi"] for x in out.splitlines()] == ["10.1000/182", "10.1000/182"]
    assert run(["batch", str(tmp_path / "missing.txt")])[0] == 1


def test_inspect_says_what_was_left_out_and_keeps_the_literal_reading() -> None:
    code, out, _ = run(["inspect", "doi: 10.1056/NEJMoa2001017."])
    assert code == 0
    said = "The final “.” was left out: it ends the sentence."
    assert f"DOI name 10.1056/NEJMoa2001017. {said}" in out
    assert "10.1056/NEJMoa2001017  [Most likely]" in out
    assert "trailing-punctuation" in out and (
        "10.1056/NEJMoa2001017.  [If the “.” belongs to the name] (literal reading)" in out)
    assert "[ok]" not in out and "name is 10.1056/NEJMoa2001017.." not in out
    code, out, err = run(["url", "https://doi.org/10.1038/nature14539."])
    assert out == "https://doi.org/10.1038/nature14539\n"
    assert said in err and "10.1038/nature14539." in err
    assert run(["url", "--exact", "https://doi.org/10.1038/nature14539."])[1] == (
        "https://doi.org/10.1038/nature14539.\n")


def test_batch_unique_and_excel(tmp_path: Path) -> None:
    """One row per reference, each name once with its count, CSV for Excel."""
    src = tmp_path / "refs.bib"
    src.write_text("@article{a,\n doi = {10.1000/1},\n url = {https://doi.org/10.1000/1}}\n\n"
                   "TY  - JOUR\nID  - r1\nAU  - Roe, Ann\nPY  - 2019\nTI  - A  RIS title\n"
                   "DO  - 10.1000/1\nER  - \n\n"
                   "Smith J. A title. doi:10.1000/2.\n", encoding="utf-8")
    code, out, err = run(["batch", str(src)])
    table = list(csv.DictReader(io.StringIO(out)))
    # the record column points at the reference: its key and first line (author, year,
    # title) when it has them
    assert code == 0 and [(r["line"], r["doi"], r["status"], r["record"]) for r in table] == [
        ("2", "10.1000/1", "ok", "a"),
        ("10", "10.1000/1", "duplicate", "r1 · Roe (2019) A RIS title"),
        ("13", "10.1000/2", "ok", "")]
    # the final "." left out is said as Inspect says it: a note, not a warning
    assert table[2]["findings"] == (
        "info trailing-punctuation: The final “.” was left out: it ends the sentence. If it "
        "belongs to the name, the name is “10.1000/2.”.")
    assert json.loads(run(["batch", "--json", str(src)])[1].splitlines()[-1])[
        "alternatives"] == ["10.1000/2."]
    assert "3 references" in err
    code, out, _ = run(["batch", "--unique", "--excel", str(src)])
    assert out.startswith("\ufeffline,")
    table = list(csv.DictReader(io.StringIO(out.lstrip("\ufeff"))))
    assert [(r["doi"], r["occurrences"], r["duplicate_lines"]) for r in table] == [
        ("10.1000/1", "2", "10"), ("10.1000/2", "1", "")]


def test_a_file_is_read_by_its_byte_order_mark(tmp_path: Path) -> None:
    """UTF-16 (LE and BE) read as its text (it was read as UTF-8: "0 DOI names, 7 lines
    without a DOI", NULs in the CSV); a binary file refused in words, with where."""
    names = [f"10.1000/{i}" for i in range(1, 7)]
    text = "References\r\n" + "\r\n".join(names) + "\r\n"
    for codec, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"),
                       ("utf-8", b"\xef\xbb\xbf")):
        path = tmp_path / f"{codec}.txt"
        path.write_bytes(bom + text.encode(codec))
        code, out, err = run(["batch", "--json", str(path)])
        rows = [json.loads(line) for line in out.splitlines()]
        assert code == 0 and [r["doi"] for r in rows] == [None, *names], codec
        assert "7 lines, 6 DOIs" in err and "\x00" not in out
    binary = tmp_path / "scan.pdf"
    binary.write_bytes(b"%PDF-1.7\n\x00\x01 10.1000/182\n")
    code, out, err = run(["batch", str(binary)])
    assert (code, out) == (1, "")
    assert err == (f"doiname: {binary} was not read: it is not text: a NUL byte at byte 9 (an "
                   "image, a PDF, an archive or a spreadsheet?).\n")


def test_standard_input_is_read_by_its_byte_order_mark() -> None:
    """``-`` reads standard input's bytes by the files' rule: UTF-16 with its mark is read
    as a file would be, and bytes that are not text are refused in words."""
    text = "Titre: \u00e9tudes\r\n10.1000/1\r\nhttps://doi.org/10.1000/\u00e9t\u00e9\r\n"

    def stdin_of(data: bytes) -> io.TextIOWrapper:
        return io.TextIOWrapper(io.BufferedReader(io.BytesIO(data)), encoding="utf-8")

    for codec, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
        out, err = io.StringIO(), io.StringIO()
        assert main(["batch", "-"], stdin=stdin_of(bom + text.encode(codec)), stdout=out,
                    stderr=err) == 0, err.getvalue()
        rows = list(csv.DictReader(io.StringIO(out.getvalue())))
        assert [r["doi"] for r in rows if r["doi"]] == ["10.1000/1", "10.1000/\u00e9t\u00e9"]
    out, err = io.StringIO(), io.StringIO()
    assert main(["batch", "-"], stdin=stdin_of(b"%PDF\x00\x01 10.1000/1\n"), stdout=out,
                stderr=err) != 0
    assert "standard input was not read: it is not text" in err.getvalue()


@pytest.mark.parametrize("argv", [
    ["inspect", "10.1000/a\x1b[2Jb\x07"],
    ["check", "10.1000/a\x1b]0;title\x07b"],
    ["url", "see 10.1000/x\u202ey"],
    ["inspect", "10.1000/x\u2066y\u2069 and \x9b31m"],
])
def test_what_people_read_never_carries_terminal_controls(argv: list[str]) -> None:
    # the input is quoted in messages: an escape sequence or a bidirectional control in it
    # would act on the terminal; it is shown as its code point instead
    _, out, err = run(argv)
    for text in (out, err):
        assert not any(c in text for c in "\x1b\x07\x9b\u202e\u2066\u2069")
    assert "U+" in out + err  # (named by its code point)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("fmt", [[], ["--json"]])
def test_rows_written_to_a_terminal_show_the_inputs_controls(fmt: list[str]) -> None:
    # batch's rows quote each line: on a terminal its controls are shown, not obeyed;
    # piped or redirected, the rows are written exactly (what a program reads)
    lines = "see 10.1000/182 \x1b]0;title\x07 now \u202ereversed\n10.1000/x\u00a0y\n"
    screen, err = _Terminal(), io.StringIO()
    assert main(["batch", *fmt, "-"], stdin=io.StringIO(lines), stdout=screen, stderr=err) == 0
    shown = screen.getvalue()
    assert not any(c in shown for c in "\x1b\x07\u202e\r") and "⟨U+202E⟩reversed" in shown
    assert ("⟨U+001B⟩]0;title" if not fmt else "\\u001b]0;title") in shown  # (JSON's own)
    assert "10.1000/182" in shown and "\u00a0" in shown  # (a space is shown as it is)
    _, piped, _ = run(["batch", *fmt, "-"], lines)
    rows = (list(csv.DictReader(io.StringIO(piped))) if not fmt
            else [json.loads(x) for x in piped.splitlines()])
    assert [r["input"] for r in rows] == lines.splitlines()


def test_a_valid_name_is_printed_exactly_spaces_included() -> None:
    # a valid name holds Graphic characters only: nothing of it is rewritten for display
    code, out, _ = run(["parse", "--exact", "10.1000/a\u00a0b"])
    assert code == 0 and out == "10.1000/a\u00a0b\n"
