"""Every test that needs the SparkSession (one JVM for all: see conftest.py)."""

from __future__ import annotations

from .spark_batch import *  # noqa: F403
from .spark_cli import *  # noqa: F403
from .spark_columns import *  # noqa: F403


