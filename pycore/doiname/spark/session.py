"""A SparkSession for the command line and the tests: the one ``spark-submit`` made, or a
local one that stays on this machine (no web UI, bound to 127.0.0.1, Python workers
running this interpreter)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["LOCAL_CONF", "session"]

#: What a local session is given unless told otherwise.
LOCAL_CONF = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.host": "127.0.0.1",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
}


def session(master: str | None = None, conf: Mapping[str, str] | None = None, *,
            app: str = "doiname") -> SparkSession:
    """The active SparkSession, or a new one for ``master`` (``local[2]``, ``yarn``, a
    ``spark://`` URL; ``None``: what ``spark-submit`` or the defaults say) with ``conf``.

    A local master gets :data:`LOCAL_CONF` and, unless ``PYSPARK_PYTHON`` says otherwise,
    Python workers that run this interpreter (so they import the same ``doiname``)."""
    from pyspark import SparkConf
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None and master is None and not conf:
        return active
    if master is None and "PYSPARK_GATEWAY_PORT" not in os.environ:
        master = "local[*]"  # not under spark-submit: pyspark's own default
    # Under spark-submit the master is in its configuration (the JVM is already up).
    known = master or SparkConf().get("spark.master") or "local[*]"
    local = known.startswith("local")
    settings = dict(LOCAL_CONF) if local else {}
    if local:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")  # before the JVM starts
        if not (os.environ.get("PYSPARK_PYTHON") or (conf or {}).get("spark.pyspark.python")):
            os.environ["PYSPARK_PYTHON"] = sys.executable  # pyspark reads this, not the conf
    builder = SparkSession.builder.appName(app)
    if master is not None:
        builder = builder.master(master)
    settings.update(conf or {})
    for key, value in settings.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
