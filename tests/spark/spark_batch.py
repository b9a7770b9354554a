"""batch() on Spark gives exactly the CLI's rows: several files, every hard case, files cut
into splits inside records, CSV with quoted line breaks, compressed files, DataFrame
cells; files that are not text or cannot be read give error rows and the job goes on."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

from doiname.batch import CSV_COLUMNS
from doiname.spark import batch, write

from .corpus import cli_rows, spark_csv_rows, write_corpus

#: A CSV row's cells by column name (the CLI's column order may change).
STATUS, DOI, DUPLICATE_OF, FINDINGS = (CSV_COLUMNS.index(c) for c in
                                       ("status", "doi", "duplicate_of", "findings"))


def csv_of(df: Any, tmp: Path, name: str = "out",
           extras: tuple[str, ...] = ("file", "duplicate_of_file")) -> list[list[str]]:
    """The rows as ``write`` writes them (CSV cells), read back."""
    out = tmp / name
    write(df, str(out))
    header, rows = spark_csv_rows(out)
    assert header == [*CSV_COLUMNS, *extras]
    return rows


def test_several_files_give_exactly_the_cli_rows(spark: Any, tmp_path: Path) -> None:
    files = write_corpus(tmp_path)
    expected = cli_rows(files, tmp_path)
    got = csv_of(batch([str(p) for p in files], spark=spark), tmp_path)
    assert got == expected
    statuses = {r[STATUS] for r in got}
    assert statuses >= {"ok", "warning", "error", "duplicate", "no-doi", "short-doi"}
    # duplicates across files point at the first file and line
    across = [r for r in got if r[STATUS] == "duplicate" and r[-1] != r[-2]]
    assert len(across) >= 4


def test_splits_inside_records_change_nothing(spark: Any, tmp_path: Path) -> None:
    files = write_corpus(tmp_path)
    expected = cli_rows(files, tmp_path)
    for split in (53, 211):  # many splits, boundaries inside BibTeX, RIS and CRLF pairs
        got = csv_of(batch([str(p) for p in files], spark=spark, split_bytes=split),
                     tmp_path, f"out{split}")
        assert got == expected, split


def test_a_directory_is_read_in_path_order(spark: Any, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    files = write_corpus(corpus)
    (corpus / "_SUCCESS").write_text("")
    (corpus / ".hidden.txt").write_text("10.1000/hidden\n")
    got = batch(str(corpus), spark=spark).collect()
    assert [r["file"] for r in got] == sorted(r["file"] for r in got)
    assert {r["file"] for r in got} == {str(p) for p in files}


def test_csv_rows_with_quoted_line_breaks(spark: Any, tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text('id,title,doi\r\n1,"A title\r\nover two lines",10.1000/1\r\n'
                    '2,"B ""quoted""",doi:10.1000/1\r\n3,C,10.1000/2\r\n', newline="")
    expected = cli_rows([path], tmp_path, extra=("--csv-input",))
    assert csv_of(batch(str(path), spark=spark, split_bytes=20), tmp_path) == expected
    assert [r[0] for r in expected] == ["1", "3", "4", "5"]  # the quoted line break


def test_compressed_files_are_read_as_their_text(spark: Any, tmp_path: Path) -> None:
    files = write_corpus(tmp_path)
    packed = []
    for p in files:
        gz = p.with_name(p.name + ".gz")
        gz.write_bytes(gzip.compress(p.read_bytes()))
        packed.append(gz)
    expected = cli_rows(files, tmp_path)
    got = csv_of(batch([str(p) for p in packed], spark=spark), tmp_path)
    assert [r[:-2] for r in got] == [r[:-2] for r in expected]
    assert {r[-2] for r in got} == {str(p) for p in packed}


def test_files_read_through_spark_give_the_same_rows(spark: Any, tmp_path: Path) -> None:
    # what URIs (hdfs://, s3a://, ...) go through: Spark's binaryFile source, a compressed
    # file and a file that is not text among them
    files = write_corpus(tmp_path)
    files[2] = files[2].with_name(files[2].name + ".gz")
    files[2].write_bytes(gzip.compress(files[2].with_suffix("").read_bytes()))
    (tmp_path / "scan.pdf").write_bytes(b"%PDF-1.7\n\x00\x01")
    expected = cli_rows([p.with_suffix("") if p.suffix == ".gz" else p for p in files],
                        tmp_path)
    rows = batch([str(p) for p in [*files, tmp_path / "scan.pdf"]], spark=spark,
                 reader="spark")
    got = csv_of(rows, tmp_path)
    *got, pdf = got
    assert [r[:-2] for r in got] == [r[:-2] for r in expected]
    assert [Path(r[-2]).name for r in got] == [Path(r[-2]).name if not r[-2].endswith(
        ".bib") else Path(r[-2]).name + ".gz" for r in expected]
    assert got[0][-2].startswith("file:")  # Spark's own URI of the file
    assert (pdf[STATUS], pdf[FINDINGS][:21]) == ("error", "error not-text: This ")


def test_dataframe_cells_are_read_as_files(spark: Any, tmp_path: Path) -> None:
    texts = [("w1", "Smith. doi:10.1000/ABC.\nsecond line 10.1000/abc"), ("w2", None),
             ("w3", "@article{k,\r\n doi = {10.1000/182},\r\n}"),
             ("w4", "10.1000/182 and 10.1000/X y"), ("w5", "")]
    cells = []
    for work, text in texts:  # each cell as a file of its own, for the CLI
        path = tmp_path / work
        path.write_text(text or "", encoding="utf-8", newline="")
        cells.append(path)
    expected = [[*r[:-2], Path(r[-2]).name, r[-1] and Path(r[-1]).name]
                for r in cli_rows(cells, tmp_path)]
    df = spark.createDataFrame(texts, "work string, text string")
    rows = batch(df, "text", id="work")
    assert rows.columns == [*CSV_COLUMNS, "work", "duplicate_of_work"]
    assert csv_of(rows, tmp_path, extras=("work", "duplicate_of_work")) == expected
    (again,) = [r for r in expected if r[15] == "w4" and r[DOI] == "10.1000/182"]  # across cells
    assert (again[STATUS], again[16], again[DUPLICATE_OF]) == ("duplicate", "w3", "2")


def test_files_that_are_not_text_or_cannot_be_read(spark: Any, tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("10.1000/182\n10.1000/183\n")
    binary = tmp_path / "scan.pdf"
    binary.write_bytes(b"%PDF-1.7\n\x00\x01\x02 10.1000/182 stream\n" * 50)
    utf16 = tmp_path / "utf16.txt"
    utf16.write_bytes("10.1000/182\n".encode("utf-16"))
    cut = tmp_path / "cut.txt.gz"
    packed = gzip.compress("".join(f"10.1000/{i}\n" for i in range(20000)).encode())
    cut.write_bytes(packed[: len(packed) * 2 // 3])  # a download cut short
    rows = batch([str(p) for p in (good, binary, utf16, cut, good)], spark=spark).collect()
    by_file: dict[str, list[Any]] = {}
    for r in rows:
        by_file.setdefault(r["file"], []).append(r)
    assert [r["status"] for r in by_file[str(good)]] == ["ok", "ok"]
    (only,) = by_file[str(binary)]
    assert (only["status"], only["line"], only["doi"]) == ("error", 1, None)
    assert only["findings"][0]["code"] == "not-text"
    assert "NUL byte at byte 9" in by_file[str(binary)][0]["findings"][0]["message"]
    assert [(r["status"], r["doi"]) for r in by_file[str(utf16)]] == [
        ("duplicate", "10.1000/182")]  # read by its byte-order mark
    *read, last = by_file[str(cut)]
    assert len(read) > 10000
    assert {r["doi"] for r in read if r["status"] != "ok"} == {"10.1000/182", "10.1000/183"}
    assert by_file[str(good)][0]["status"] == "ok"  # the first of the two good.txt
    assert last["status"] == "error" and last["findings"][0]["code"] == "unreadable"
    assert last["line"] == read[-1]["line"] + 1
    assert "stopped after line" in last["findings"][0]["message"]


def test_a_utf16_file_gives_the_rows_of_the_cli(spark: Any, tmp_path: Path) -> None:
    """The review's file: UTF-16 (LE, then BE) with 6 DOI names; the CLI read it as UTF-8
    ("0 DOI names, 7 lines without a DOI") and Spark refused it. Both read its text."""
    files = []
    for codec, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
        path = tmp_path / f"{codec}.txt"
        path.write_bytes(bom + UTF16_TEXT.encode(codec))
        files.append(path)
    expected = cli_rows(files, tmp_path)
    got = csv_of(batch([str(p) for p in files], spark=spark), tmp_path)
    assert got == expected
    # a file cut into splits: UTF-16 is read in one task (its bytes are not lines)
    assert csv_of(batch([str(p) for p in files], spark=spark, split_bytes=53), tmp_path,
                  "split") == expected
    first = [r for r in got if r[-2] == str(files[0])]
    assert [r[DOI] for r in first if r[STATUS] in ("ok", "warning")] == UTF16_NAMES


#: Six names, in a UTF-16 file's text (a title with an accent, one name in a link).
UTF16_NAMES = ["10.1000/1", "10.1000/2", "10.1038/nphys1170", "10.1000/\u00e9t\u00e9",
               "10.1000/5", "10.1000/6"]
UTF16_TEXT = ("Titre: \u00e9tudes\r\n" + "\r\n".join(
    f"https://doi.org/{n}" if i == 2 else n for i, n in enumerate(UTF16_NAMES)) + "\r\n")


def test_each_task_group_gets_a_partition_of_its_own(spark: Any) -> None:
    from pyspark.sql import functions as F

    from doiname.spark.frames import _frame
    from doiname.spark.schema import SCAN_TASK

    rows = [{"part": p, "file_index": 0, "path": "x", "size": 1, "hint": None, "index": i,
             "split_bytes": 1} for p in range(7) for i in range(3)]
    df = _frame(spark, rows, SCAN_TASK, 7)
    placed = df.select("part", F.spark_partition_id().alias("pid")).distinct().collect()
    assert df.rdd.getNumPartitions() == 7
    assert sorted((r["part"], r["pid"]) for r in placed) == [(p, p) for p in range(7)]


def _rows_and_peak(path: str) -> tuple[list[tuple[Any, ...]], int]:
    """In a Spark Python worker: the rows of a ``.gz`` file, and the worker's peak RSS
    (bytes) while it read them (the peak reset first)."""
    import re as re_

    from doiname.spark.worker import region_rows

    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset VmHWM, the peak resident set
    rows = [(r["line"], r["status"], r["doi"], [f["code"] for f in r["findings"]],
             [f["message"] for f in r["findings"]])
            for r in region_rows(path, "gzip", None) if r["status"] is not None]
    with open("/proc/self/status") as f:
        found = re_.search(r"VmHWM:\s+(\d+) kB", f.read())
    assert found is not None
    return rows, int(found[1]) * 1024


def test_a_gz_holding_a_1_gib_line_is_read_in_bounded_memory(spark: Any,
                                                             tmp_path: Path) -> None:
    """The review's file: about 1 MB of gzip holding one line of 1 GiB, then a name. The
    Python worker stays under 300 MB (it peaked at 3.1 GB) and says what the CLI says."""
    path = tmp_path / "one-line.txt.gz"
    block = b"x" * (1 << 20)
    with gzip.open(path, "wb", compresslevel=9) as f:
        for _ in range(1 << 10):
            f.write(block)
        f.write(b" 10.1000/182\n10.1000/183\n")
    assert path.stat().st_size < 2 << 20
    ((rows, peak),) = spark.sparkContext.parallelize([str(path)], 1).map(
        _rows_and_peak).collect()
    assert peak < 300 << 20, peak
    (line, status, _doi, codes, messages), second = rows[-2:]
    assert (line, status, codes) == (1, "error", ["line-too-long"])
    assert f"This line has {(1 << 30) + 12:,} characters" in messages[0]
    assert second[:3] == (2, "ok", "10.1000/183")
