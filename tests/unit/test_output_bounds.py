"""Answers grow with their input, not with its square: a character repeated is one
finding (its count and its places), a repair is given once, every finding list is under
``MAX_FINDINGS`` (the CLI's batch, the worker's replies to Inspect and to a batch)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doiname import Doi, bridge, check
from doiname.cli import main
from doiname.limits import INSPECT_MAX_CHARS, MAX_FINDINGS

#: The review's line: 24 KB of a name whose letters are each followed by U+200B.
ZERO_WIDTH_LINE = "10.1000/" + "a\u200b" * 12_000


def batch_json(text: str, tmp_path: Path) -> list[dict[str, Any]]:
    path = tmp_path / "in.txt"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["batch", "--json", str(path)], stdout=out, stderr=err) == 0, err.getvalue()
    answer = out.getvalue()
    assert len(answer.encode()) < 1_000_000, len(answer)
    return [json.loads(line) for line in answer.splitlines()]


def reply(op: str, **params: Any) -> tuple[str, Any]:
    text = bridge.request_json(op, json.dumps(params))
    data = json.loads(text)
    assert "ok" in data, data
    return text, data["ok"]


def test_a_24kb_zero_width_line_gives_one_finding_and_an_answer_under_1mb(
        tmp_path: Path) -> None:
    (row,) = batch_json(ZERO_WIDTH_LINE + "\n", tmp_path)
    assert row["doi"] == "10.1000/" + "a" * 12_000
    (zw,) = [f for f in row["findings"] if f["code"] == "zero-width-dropped"]
    assert "11,999 invisible characters" in zw["message"]  # the last one ends the name
    assert "11,999 times, at characters 10, 12, 14, " in zw["message"]
    assert " and 24006)" in zw["message"]
    assert zw["repair"] == row["doi"]  # the repair, once
    assert sum(1 for f in row["findings"] if f["repair"]) == 1
    # every place of the one finding, for a view to mark (each U+200B of the line)
    assert zw["places"] == [[i, i + 1] for i in range(9, 24_006, 2)]


def test_the_worker_answers_the_zero_width_line_in_a_batch_and_in_inspect() -> None:
    text, opened = reply("batch_open", text=ZERO_WIDTH_LINE)
    step_text, step = reply("batch_step", job=opened["job"], max_lines=100, budget_ms=5000)
    assert len(text) + len(step_text) < 1_000_000
    (row,) = step["rows"]
    assert [f["code"] for f in row["findings"]].count("zero-width-dropped") == 1
    reply("batch_close", job=opened["job"])
    # Inspect takes its first INSPECT_MAX_CHARS: the review's 8,000 characters
    case = ("10.1000/" + "a\u200b" * INSPECT_MAX_CHARS)[:INSPECT_MAX_CHARS]
    text, found = reply("inspect", text=case)
    assert len(text) < 300_000  # it was 17.5 MB
    (candidate,) = found["candidates"]
    codes = [f["code"] for f in candidate["findings"]]
    assert codes.count("zero-width-dropped") == 1 and len(codes) <= MAX_FINDINGS


@pytest.mark.parametrize("line", [
    "10.1000/" + "a\u200b\u2010" * 2_000,  # zero-width characters beside lookalike dashes
    "https://doi.org/10.1000/x\u00ad\u2212y",  # in a link: the reader's repair is the link
    "see doi:10.1000/a\u200bb\u0430c here",  # a Cyrillic letter in a doi: URI
])
def test_a_row_offers_one_repaired_text(line: str, tmp_path: Path) -> None:
    """The reader drops the invisible characters and the rules repair the lookalikes: the
    row (CLI batch, the worker's batch, Inspect) offers one repaired text, the one that
    does both, and the zero-width finding is still said."""
    (row,) = batch_json(line + "\n", tmp_path)
    repairs = [f["repair"] for f in row["findings"] if f["repair"]]
    assert len(repairs) == 1
    assert "\u200b" not in repairs[0] and "\u00ad" not in repairs[0]
    assert not any(c in repairs[0] for c in "\u2010\u2212\u0430")
    assert "zero-width-dropped" in [f["code"] for f in row["findings"]]
    _, opened = reply("batch_open", text=line)
    _, step = reply("batch_step", job=opened["job"], max_lines=100, budget_ms=5000)
    reply("batch_close", job=opened["job"])
    (got,) = step["rows"]
    assert [f["repair"] for f in got["findings"] if f["repair"]] == repairs
    _, found = reply("inspect", text=line)
    chosen = found["candidates"][found["selected"]]["findings"]
    assert [f["repair"] for f in chosen if f["repair"]] == repairs


def test_inspect_marks_every_place_of_a_finding_said_once() -> None:
    """Inspect's reply gives each place of a finding said once for several (a lookalike,
    an escape, invisible characters), in the text as typed: the page only draws them."""
    def places(text: str) -> dict[str, list[str]]:
        _, found = reply("inspect", text=text)
        findings = found["candidates"][found["selected"]]["findings"]
        return {f["code"]: [text[a:b] for a, b in f["places"]] for f in findings}

    at = places("see 10.1000/\u0430b\u0430-\u0430x%2541y%2541 again")
    assert at["lookalike-letter"] == ["\u0430"] * 3
    assert at["percent-escape-in-name"] == ["%2541"] * 2
    assert at["mixed-scripts"] == []  # said of one word each: its one span says where
    assert places("see doi:10.1000/a\u200bb\u200bc again")["zero-width-dropped"] == ["\u200b"] * 2
    # spaces (read from a name given alone), in the coordinates of the input, neighbours
    # joined; one place: the finding's own span says where
    (spaces,) = [f for f in check("doi:10.1000/a b  c") if f.code == "space-in-name"]
    assert spaces.places == ((13, 14), (15, 17))
    (one,) = [f for f in check("doi:10.1000/a b") if f.code == "space-in-name"]
    assert one.places == () and (one.input_start, one.input_end) == (13, 14)


def test_a_repeated_lookalike_is_repaired_once(tmp_path: Path) -> None:
    (row,) = batch_json("10.1000/" + "\u2010" * 20_000 + "\n", tmp_path)
    (dash,) = [f for f in row["findings"] if f["code"] == "lookalike-dash"]
    assert "(20,000 times, at characters 9–20008)" in dash["message"]
    assert dash["repair"] == "10.1000/" + "-" * 20_000


_PIECES = ["a", "\u200b", "\u00ad", "&shy;", "\u2010", "\u2212", "\u0430", "\u0441", "&amp;",
           "\\_", "<wbr>", "%41", "%2541", "\u0301", "\u05d0", "(", ")", "."]


@settings(max_examples=25, deadline=None)
@given(piece=st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join))
def test_output_grows_linearly_with_the_input(piece: str) -> None:
    """A name made of ``piece`` said 1 and 1,000 times: the answer for 1,000 is at most
    1,000 times what one more piece adds (with a margin), and every list is bounded."""
    def size(k: int) -> int:
        out = io.StringIO()
        main(["batch", "--json", "-"], stdin=io.StringIO(f"10.1000/x{piece * k}y\n"),
             stdout=out, stderr=io.StringIO())
        for line in out.getvalue().splitlines():
            row = json.loads(line)
            assert len(row["findings"]) <= MAX_FINDINGS
            assert len(row.get("alternatives") or []) <= MAX_FINDINGS
        return len(out.getvalue())

    base, one, many = size(0), size(1), size(1000)
    assert many - base <= 2 * 1000 * max(one - base, len(piece) * 40) + 20_000


def test_the_lookalike_repair_is_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """99,000 U+2010 took 2.9 s: the repaired name was written out again for each
    finding. It is written once, whatever the number of lookalikes."""
    from doiname.written import written_form

    made: list[str] = []

    def counted(doi: Doi) -> str:
        made.append(str(doi))
        return written_form(doi)

    monkeypatch.setattr("doiname.findings.subject.written_form", counted)
    found = check(Doi("10.1000", "x" + "\u2010" * 5_000 + "\u2212\u2013"))
    assert len(made) == 1 and made[0] == "10.1000/x" + "-" * 5_002
    assert [f.code for f in found].count("lookalike-dash") == 3  # one for each character
