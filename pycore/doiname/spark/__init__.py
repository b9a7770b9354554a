"""doiname on Apache Spark: the batch of the CLI for whole corpora, and column functions.

Needs the optional extra ``doiname[spark]`` (pyspark with pandas and pyarrow); pyspark is
imported when a function is called, never when ``doiname`` is.

* :func:`batch`: the CLI's batch rows (``doiname batch``) for text files, CSV, JSON Lines,
  BibTeX, RIS, PubMed MEDLINE, EndNote (Refer), Web of Science (also compressed), or a
  DataFrame's text column, with duplicates found across the whole corpus through Spark's
  shuffle; :func:`write` writes them as CSV (the CLI's bytes) or Parquet.
* :func:`doi_name`, :func:`doi_url`, :func:`doi_uri`, :func:`doi_key`,
  :func:`doi_findings`: column functions that read each text as the CLI reads it;
  :func:`register` makes them SQL functions.
* ``python -m doiname.spark --master local[2] --out DIR INPUT...`` (also under
  ``spark-submit``).
"""

from __future__ import annotations

from .columns import doi_findings, doi_key, doi_name, doi_uri, doi_url, register
from .corpus import batch, write
from .session import session

__all__ = ["batch", "doi_findings", "doi_key", "doi_name", "doi_uri", "doi_url", "register",
           "session", "write"]
