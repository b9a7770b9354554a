"""A rule added in one place reaches every surface.

A rule of :func:`doiname.check` is registered once (:func:`doiname.findings.register`, with
its precondition); Inspect, a Batch row of a plain ASCII name (the batch's fast path,
which skips check() only when no rule applies), the rows a job sends to the page, the
CLI's batch CSV and the names :func:`doiname.extract` finds (judged as every surface
judges them) all report it, and none does once it is taken out again.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest

from doiname import inspect
from doiname.batch import BatchJob, BatchSession, iter_batch_rows, write_csv
from doiname.extract import extract
from doiname.findings import RULES, NameCheck, Rule, check, register, unregister
from doiname.findings.subject import Subject
from doiname.inspection import judge

CODE = "digit-nine-in-suffix"
LINES = ["10.1234/abc9", "Smith, J. (2019). A study. J, 1(2), 3-4. https://doi.org/10.5555/x9y",
         "doi:10.1000/plain9", "10.1000/abc"]


def _nine(s: Subject) -> None:
    """The throwaway rule: the first ``9`` of the suffix."""
    at = s.name.find("9", s.suffix_start)
    s.add(CODE, "The suffix holds a 9.", at, at + 1)


@pytest.fixture
def nine_rule() -> Iterator[None]:
    register(NameCheck(CODE, _nine, re.compile("/.*9", re.DOTALL)),
             Rule(CODE, "warning", "doiname policy", "a 9 in the suffix"))
    try:
        yield
    finally:
        unregister(CODE)


def _codes_per_surface(line: str) -> dict[str, list[str]]:
    found = inspect(line)
    assert found.selected is not None
    batch = list(iter_batch_rows([line], BatchSession()))
    job = BatchJob(line + "\n")
    job.step()
    out = io.StringIO(newline="")
    write_csv(iter_batch_rows([line], BatchSession()), out)
    return {
        "inspect": [f.code for f in found.candidates[found.selected].findings],
        "batch": [f.code for r in batch for f in r.findings],
        "job": [f.code for r in job.rows for f in r.findings],
        "csv": [CODE] if CODE in out.getvalue() else [],
        "extract": [f.code for m in extract(line) for f in judge(m)[1]],
        "check": [f.code for m in extract(line) for f in check(m.doi)],
    }


def test_a_registered_rule_reaches_every_surface(nine_rule: None) -> None:
    assert CODE in RULES
    for line in LINES[:3]:
        for surface, codes in _codes_per_surface(line).items():
            assert CODE in codes, (surface, line)
        row = next(iter_batch_rows([line], BatchSession()))
        assert row.status == "warning", line
    for surface, codes in _codes_per_surface(LINES[3]).items():
        assert CODE not in codes, (surface, LINES[3])  # its precondition fails


def test_a_rule_taken_out_is_reported_nowhere() -> None:
    # (registered and taken out: nothing remembered while it was there is served after)
    register(NameCheck(CODE, _nine, re.compile("/.*9", re.DOTALL)),
             Rule(CODE, "warning", "doiname policy", "a 9 in the suffix"))
    assert CODE in _codes_per_surface(LINES[0])["batch"]
    unregister(CODE)
    assert CODE not in RULES
    for line in LINES:
        for surface, codes in _codes_per_surface(line).items():
            assert CODE not in codes, (surface, line)
