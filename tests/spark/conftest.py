"""One local SparkSession for every Spark test (``local[2]``, no web UI, 127.0.0.1, few
shuffle partitions). Every test that needs it lives in ``test_spark.py`` (which gathers
the ``spark_*.py`` modules), so that pytest-xdist, which gives each test file to one
worker, starts one JVM, not one per worker."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

# The gathered modules are not named test_*.py: pytest rewrites their asserts when told.
pytest.register_assert_rewrite("tests.spark.corpus", "tests.spark.spark_batch",
                               "tests.spark.spark_cli", "tests.spark.spark_columns")


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark", reason="pyspark is in the dev extra (pip install -e .[dev])")
    if shutil.which("java") is None:
        pytest.fail("Spark needs Java: apt-get install openjdk-17-jre-headless "
                    "(python3 build.py test installs it)")
    from doiname.spark import session

    s = session("local[2]", {"spark.sql.shuffle.partitions": "4",
                             "spark.default.parallelism": "2",
                             "spark.sql.adaptive.coalescePartitions.enabled": "false"},
                app="doiname-tests")
    yield s
    s.stop()
