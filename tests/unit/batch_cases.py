"""What the batch tests share: a small list with every status (LIST, its lines commented)
and the reference lists of tests/fixtures/references."""

from __future__ import annotations

from pathlib import Path

from doiname.batch import BatchRow, iter_batch_rows

__all__ = ["FIXTURES", "LIST", "rows_of"]

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "references"

LIST = [
    "Reading list, week 3",                                    # 1 no DOI
    "LeCun et al. 2015 https://doi.org/10.1038/nature14539",   # 2
    "",                                                        # 3 empty
    "doi:10.1038/NATURE14539",                                 # 4 duplicate of 2 (Basic Latin case)
    "10.1000/182, 10.1000/183",                                # 5 two DOIs
    "https://doi.org/10.1000/%31%38%32",                       # 6 duplicate of 5 (percent-decoded)
    "bad: 10.1234/50%zz",                                      # 7 error
    "bad again: 10.1234/50%zz",                                # 8 error, never a duplicate
    "Kelvin: 10.1000/\u212a and 10.1000/k",                    # 9 two names, not equivalent (003)
    "10.1000/K",                                               # 10 duplicate of the second in 9
]


def rows_of(lines: list[str]) -> list[BatchRow]:
    return list(iter_batch_rows(lines))
