"""``python -m doiname.spark``: the CLI's bytes and counts for a file, Parquet, SQL over
the rows, clear errors; the same command under ``spark-submit`` and as ``python -m``."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from doiname.batch import CSV_COLUMNS
from doiname.cli import main as cli_main
from doiname.spark import batch
from doiname.spark.cli import main

from .corpus import spark_csv_rows, write_corpus

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def cli_batch(path: Path) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    assert cli_main(["batch", str(path)], stdout=out, stderr=err) == 0
    return out.getvalue(), err.getvalue()


def parts(out: Path) -> str:
    return "".join(p.read_bytes().decode() for p in sorted(out.glob("part-*.csv")))


def test_one_file_gives_the_cli_bytes_and_counts(spark: Any, tmp_path: Path) -> None:
    notes = write_corpus(tmp_path)[1]  # CRLF, a byte-order mark, proxy links, SICI, #
    expected, expected_err = cli_batch(notes)
    code, _, err = run(["--out", str(tmp_path / "out"), str(notes)])
    assert code == 0, err
    got = parts(tmp_path / "out")
    header, *lines = expected.split("\r\n")
    assert got.startswith(header + ",file,duplicate_of_file\r\n")
    assert got.endswith("\r\n")
    rows = list(csv.reader(io.StringIO(expected, newline="")))[1:]
    want = [line + f",{notes}," + (str(notes) if row[CSV_COLUMNS.index("duplicate_of")] else "")
            for line, row in zip(lines[:-1], rows, strict=True)]
    assert got.split("\r\n")[1:-1] == want  # every cell the CLI's, byte for byte
    assert err.splitlines()[0] == expected_err.strip().replace("doiname batch", "doiname.spark "
                                                               "batch") + "; 1 files"


def test_parquet_sql_and_errors(spark: Any, tmp_path: Path) -> None:
    files = write_corpus(tmp_path)
    args = [str(p) for p in files]
    code, _, err = run(["--format", "parquet", "--out", str(tmp_path / "pq"), *args])
    assert code == 0, err
    table = pq.read_table(tmp_path / "pq")
    rows = batch(args, spark=spark).collect()
    assert table.to_pylist() == [r.asDict(recursive=True) for r in rows]
    assert table.schema.field("findings").type.value_type.names[:3] == [
        "code", "severity", "message"]
    code, out, err = run(["--sql", "SELECT status, count(*) AS n FROM batch GROUP BY status "
                          "ORDER BY status", *args])
    assert code == 0, err
    counts = {s: int(n) for s, n in (line.split(",") for line in out.splitlines()[1:])}
    assert counts == {s: sum(r["status"] == s for r in rows) for s in {r["status"] for r in rows}}
    (tmp_path / "t.jsonl").write_text('{"d": "https://doi.org/10.1000/ABC"}\n'
                                      '{"d": "10.1000/abc"}\n')
    code, out, err = run(["--table", f"t={tmp_path / 't.jsonl'}", "--sql",
                          "SELECT doi_key(d) AS k, count(*) AS n FROM t GROUP BY k"])
    assert (code, out) == (0, "k,n\n10.1000/abc,2\n"), err
    code, _, err = run(["--out", str(tmp_path / "pq"), *args])
    assert code == 1 and "exists (--overwrite replaces it)" in err
    code, _, err = run(["--out", str(tmp_path / "x"), str(tmp_path / "missing.txt")])
    assert code == 1 and "missing.txt: no such file or directory" in err


def _env() -> dict[str, str]:
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    env.pop("PYSPARK_GATEWAY_PORT", None)
    return env


def test_the_command_under_spark_submit(spark: Any, tmp_path: Path) -> None:
    files = [str(p) for p in write_corpus(tmp_path)]
    code, _, err = run(["--out", str(tmp_path / "here"), *files])
    assert code == 0, err
    submit = Path(sys.executable).with_name("spark-submit")
    script = ROOT / "pycore" / "doiname" / "spark" / "__main__.py"
    proc = subprocess.run(
        [str(submit), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
         "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.sql.shuffle.partitions=2",
         str(script), "--out", str(tmp_path / "submitted"), *files],
        env=_env(), capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "doiname.spark batch: " in proc.stdout  # spark-submit joins the two streams
    assert spark_csv_rows(tmp_path / "submitted") == spark_csv_rows(tmp_path / "here")


def test_python_m_doiname_spark(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "doiname.spark", "--help"], env=_env(),
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0 and "--master" in proc.stdout and "--sql" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "doiname.spark", str(tmp_path / "x.txt")],
                          env=_env(), capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 2 and "give --out DIR" in proc.stderr
