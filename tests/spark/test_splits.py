"""A file cut into splits anywhere is grouped into the CLI's records (no Spark needed):
each split's own reading, the handovers between them, and the regions they give."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from doiname.records import RECORD_MAX_LINES, Record, iter_records
from doiname.spark.inputs import InputFile, Task, local_files, pack
from doiname.spark.splits import Scan, regions, scan_split, split_starts
from doiname.spark.worker import Numbered, region_records, region_rows

PIECES = ["@article{k1,", "  doi = {10.1000/1},", "}", "TY  - JOUR", "DO  - 10.1/2", "ER  - ",
          "", "{", '"id": "x",', '"DOI": "10.1/3"', "},", "[", "]", '{"id": 1, "DOI": "10.1/4"}',
          "plain 10.1000/182", "doi:10.1/ü", '1,"A title', 'over",10.1/5', "  ",
          "@misc{open,", '"a } b {"', "PMID- 7", "AID - 10.1/6 [doi]", "      AB wrapped",
          "%0 Journal Article", "%R 10.1/8", "%T A title", "wrapped 10.1/9", "PT J",
          "CR Roe K, 2001, X, DOI 10.1/10", "   Doe J, 2002, Y", "DI 10.1/11", "ER", "EF"]


def cli_records(raw: bytes, hint: str | None) -> list[Record]:
    f = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8-sig", errors="replace", newline="")
    return list(iter_records(f, hint=hint))


def split_records(raw: bytes, split: int, hint: str | None) -> list[Record]:
    starts = split_starts(len(raw), split)
    scans = [scan_split(io.BytesIO(raw), index=i, starts=starts, size=len(raw), hint=hint)
             for i in range(len(starts))]
    out: list[Record] = []
    for r in regions(scans):
        f = io.BytesIO(raw)
        f.seek(max(0, r.first_at - 1))
        out += region_records(Numbered(f, r.first_at), hint, first_line=r.first_line,
                              start=r.start, end=r.end)
    return out


files = st.tuples(st.lists(st.tuples(st.sampled_from(PIECES),
                                     st.sampled_from(["\n", "\r\n", "\r"])), max_size=40),
                  st.booleans(), st.booleans()).map(
    lambda t: (("\ufeff" if t[1] else "") + "".join(a + b for a, b in t[0])
               + ("tail without a line break" if t[2] else "")).encode())


@settings(max_examples=300)
@given(files, st.integers(1, 80), st.sampled_from([None, "csv"]))
@example(b"@article{k1,\n" * 5 + b"}\nER  - \ntail without a line break", 40, None)
def test_any_splits_give_the_records_of_the_whole_file(raw: bytes, split: int,
                                                       hint: str | None) -> None:
    assert split_records(raw, split, hint) == cli_records(raw, hint)


@pytest.mark.parametrize("split", [7, 64, 1000])
def test_a_record_that_never_closes_across_many_splits(split: int) -> None:
    text = "a line 10.1000/0\n@article{open,\n" + "".join(
        f"  note = {{line {i} 10.1000/{i}}},\n" for i in range(RECORD_MAX_LINES + 40))
    text += "@book{b,\n doi = {10.1000/b}\n}\n\n10.1000/last\n"
    raw = text.encode()
    got = split_records(raw, split, None)
    assert got == cli_records(raw, None)
    assert any(r.kind == "bibtex" and r.key == "b" for r in got)


def test_handovers_chain_from_the_first_split() -> None:
    # split 1 reads on to 250 where split 3 agrees; split 2 is run past; 3 runs to the end
    scans = [Scan(0, 0, 5, 1, 120), Scan(1, 101, 4, 3, 250), Scan(2, 201, 2, 3, 260),
             Scan(3, 230, 6, None, 400)]
    assert [(r.index, r.first_line, r.start, r.end) for r in regions(scans)] == [
        (0, 1, 0, 120), (1, 6, 120, 250), (3, 12, 250, 400)]


def test_region_rows_of_a_missing_file_say_so(tmp_path: Path) -> None:
    *rows, counts = region_rows(str(tmp_path / "gone.txt"), None, None)
    (row,) = rows
    assert (row["status"], row["line"], row["findings"][0]["code"]) == ("error", 1, "unreadable")
    assert "No such file or directory" in row["findings"][0]["message"]
    assert (counts["k"], counts["_lines"]) == (-1, 0)


def test_region_rows_read_each_record_with_a_session_of_its_own(tmp_path: Path) -> None:
    """A task reads its records with one session, which forgets the names of each record
    before the next (the shuffle finds duplicates across records); each row as a session
    of its own for that record gives it."""
    from doiname.batch import BatchSession

    lines = ["see 10.1000/182", "10.1000/182 again", "@article{k1,",
             "  doi = {10.1000/182},", "  url = {https://doi.org/10.1000/182}", "}",
             "doi:10.1000/182 and https://doi.org/10.1000/182", "10.1000/(a)b.", "10.1000/(a)b."]
    path = tmp_path / "list.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    *rows, _counts = region_rows(str(path), None, None)
    want = []
    for rec in iter_records(iter(lines)):
        want += [(r.line, r.status, r.duplicate_of)
                 for r in BatchSession().rows_for_record(rec)]
    assert [(r["line"], r["status"], r["duplicate_of"]) for r in rows] == want
    statuses = [r["status"] for r in rows]
    assert statuses[:2] == ["ok", "ok"]  # (not line 1's: the shuffle finds those)
    # (a name written twice in one record, a line or an entry, is one row that says so)
    assert "duplicate" not in statuses and len(rows) == 6


def test_inputs_in_order_directories_globs(tmp_path: Path) -> None:
    (tmp_path / "d" / "sub").mkdir(parents=True)
    for name in ("d/b.txt", "d/a.csv.gz", "d/sub/c.txt", "d/_SUCCESS", "d/.x", "e.bib"):
        (tmp_path / name).write_bytes(b"x\n")
    found = local_files([str(tmp_path / "e.bib"), str(tmp_path / "d"),
                         str(tmp_path / "d" / "*.txt")], first_index=3)
    assert [(f.index, os.path.relpath(f.path, tmp_path), f.compression, f.hint)
            for f in found] == [(3, "e.bib", None, None), (4, "d/a.csv.gz", "gzip", "csv"),
                                (5, "d/b.txt", None, None), (6, "d/sub/c.txt", None, None)]
    with pytest.raises(FileNotFoundError, match=r"nothing\.txt: no such file"):
        local_files([str(tmp_path / "nothing.txt")])


def test_small_tasks_share_a_partition() -> None:
    f = InputFile(0, "x", 100, None, None)
    tasks = [Task(f, 0, 1, 0, 30), Task(f, 30, 4, 30, 60), Task(f, 60, 9, 60, None)]
    assert [len(g) for g in pack(tasks, 60)] == [2, 1]
