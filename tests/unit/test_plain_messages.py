"""Messages for people are plain words; the spec citation is the ``source``, apart.

Every finding code of the registry (with the example of test_findings_rules), then a broad
set of inputs (every form and hard suffix of the reference-text strategies, every line of
the fixtures, the pastes table, the benchmark's lines, batches of the reference lists),
every reader error, every equivalence verdict and every resolver answer of the fixtures:
no message, note or explanation may cite a spec (``003 ch. 2``, ``002 §4.3``, ``RFC
3651``, ``UTS #39``, ``responseCode 100``), and every finding, error and explanation has
a non-empty ``source`` that the page draws as a small "Source:" line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator

import pytest

import doiname as d
from doiname.batch import iter_batch_rows
from doiname.findings import RULES
from doiname.model import Finding
from doiname.resolver import read_handle_response, read_which_ra_response, transport_outcome
from doiname.resolver.outcome import HANDLE_API, WHICH_RA

from .batch_cases import FIXTURES as REFERENCES
from .handles import FIX, INDEX
from .reference_text import FORMS, PREFIXES, SUFFIXES, bench_lines, fixture_lines, written
from .test_findings_rules import EXAMPLES

#: A spec citation inside a sentence: ``003 ch. 2``, ``002 §4.3``, ``002 section 4``,
#: ``002 appendix A``, ``(001)``, ``RFC 3651``, ``UTS #39``, ``TR36``, ``Z39.84``, and the
#: handle protocol's ``responseCode``.
CITATION = re.compile(
    r"\b00[0-4]\b ?(ch\.|§|section|appendix|note)|\(00[0-4][),:;/ ]|\b00[0-4]\)|RFC ?\d"
    r"|UTS ?#|\bTR ?36\b|Z39|responseCode")
#: Text quoted from the input (“…”) is the person's own and may hold anything.
_QUOTED = re.compile(r"“[^”]*”")


def cites(message: str) -> str | None:
    """The citation in ``message`` outside quoted input, or None."""
    m = CITATION.search(_QUOTED.sub("“…”", message))
    return m[0] if m else None


def assert_plain(findings: Iterable[Finding], about: str) -> int:
    n = 0
    for f in findings:
        assert cites(f.message) is None, (about, f.code, f.message)
        assert f.source.strip(), (about, f.code, "has no source")
        n += 1
    return n


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_finding_code_is_plain_with_its_source_apart(code: str) -> None:
    rule = RULES[code]
    found = [f for f in d.check(EXAMPLES[code]) if f.code == code]
    assert found
    assert_plain(found, EXAMPLES[code][:40])
    for f in found:  # the registry's source, or a more precise one that starts with it
        assert f.source == rule.source or f.source.startswith(rule.source + "; ")


def _texts() -> Iterator[str]:
    yield from EXAMPLES.values()
    for form in FORMS:
        for prefix in PREFIXES[:2]:
            for suffix in SUFFIXES:
                yield written(form, f"{prefix}/{suffix}")
    yield from fixture_lines()
    pastes = json.loads((FIX.parent / "pastes.json").read_text(encoding="utf-8"))
    yield from (row["text"] for row in pastes["rows"])
    yield from bench_lines(300)
    yield from ["", "   ", "10.1000", "10.1000/", "11.1000/x", "10/abcde", "10/2021",
                "10.1000/a%zz", "10.1000/a%C3", "10.1000/a%FF%FE", "doi:10.1000/a?b",
                "doi:10.1000/a#b", "/x", "10./x", "10.a/x", "10.1000./x", "10.1000/\u0301x",
                "10.1000/a\u202eb", "10.1000/a\ud800b", "https://doi.org/10.1000/a b#c",
                "https://doi.org/10.1000/abc?x=1", "10.1000/é", "10.1000/e\u0301",
                "10.1000/a%2541", "10.1000/" + "\u0430" * 300, "10.1000/a b",
                "https://dx.doi.org.evil.example/10.1000/182", "https://handle.test.datacite.org/10.1/x"]


def test_a_broad_set_of_inputs_gives_plain_messages() -> None:
    seen: set[str] = set()
    count = 0
    for text in dict.fromkeys(_texts()):
        found = d.inspect(text, forms=False)
        assert cites(found.message) is None, (text, found.message)
        count += assert_plain(found.notes, text)
        for c in found.candidates:
            count += assert_plain(c.findings, text)
            seen.update(f.code for f in c.findings)
        findings = d.check(text)
        count += assert_plain(findings, text)
        seen.update(f.code for f in (*findings, *found.notes))
    assert count > 1000
    assert set(RULES) <= seen  # every code, with the many others of reading


def test_batch_rows_give_plain_messages() -> None:
    count = 0
    for path in sorted(REFERENCES.iterdir()):
        if path.name.endswith(".expected.txt"):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for row in iter_batch_rows(lines):
            count += assert_plain(row.findings, f"{path.name} line {row.line}")
    assert count > 0


@pytest.mark.parametrize("text", [
    "", "10.1000", "10.1000/", "11.1000/x", "10/abcde", "10/2021", "10.1000/a%zz",
    "10.1000/a%C3", "doi:10.1000/a?b", "doi:10.1000/a#b", "/x", "10.a/x", "10.1000./x",
    "10.1000/a\u200bb", "10.1000/a\ud800b", "10./x",
])
def test_reader_errors_are_plain_with_their_source(text: str) -> None:
    with pytest.raises(d.DoiError) as info:
        d.parse(text)
    err = info.value
    assert cites(err.message) is None, err.message
    assert err.source == RULES[err.code].source  # the registry's source of the code


@pytest.mark.parametrize(("call", "source"), [
    (lambda: d.canonical_uri_2003("doi:10.1000"), "004"),
    (lambda: d.to_url(d.Doi("10.1000", "a\ud800")), "003 ch. 2"),
])
def test_errors_with_a_more_precise_source(call: Callable[[], object], source: str) -> None:
    with pytest.raises(d.DoiError) as info:
        call()
    assert cites(info.value.message) is None and info.value.source == source


@pytest.mark.parametrize(("a", "b", "verdict", "source"), [
    ("10.1000/abc", "10.1000/abc", "identical", "003 ch. 3"),
    ("10.1000/ABC", "10.1000/abc", "basic-latin-case", "003 ch. 3"),
    ("10.1000/\u00e9", "10.1000/e\u0301", "normalization", "003 ch. 2 note 1"),
    ("10.1000/\u212a", "10.1000/K", "normalization", "003 ch. 2 note 1"),
    ("10.1000/\u00c9", "10.1000/\u00e9", "non-basic-latin-case", "003 ch. 3"),
    ("10.1000/abc", "10.1000/abd", "different", "003 ch. 3"),
    ("10.1000/abc", "10.1000/abcd", "different", "003 ch. 3"),
])
def test_equivalence_explanations_are_plain_with_their_source(
        a: str, b: str, verdict: str, source: str) -> None:
    ex = d.explain_equivalence(a, b)
    assert ex.verdict == verdict and ex.source == source
    assert cites(ex.message) is None, ex.message
    got = d.compare(a, b)
    assert got.message == ex.message and got.source == source


def test_a_comparison_that_cannot_be_made_has_the_error_source() -> None:
    got = d.compare("10.1000/abc", "10.1000")
    assert got.verdict == "unreadable" and got.source == RULES["no-slash"].source
    assert cites(got.message) is None, got.message


def _answers() -> Iterator[tuple[int | None, str]]:
    for entry in INDEX.values():
        yield entry["status"], (FIX / entry["file"]).read_text(encoding="utf-8")
    for code in (1, 2, 3, 7, 100, 102, 200, None):
        for status in (200, 400, 404, 500):
            doc: dict[str, object] = {"handle": "10.1/x", "values": [], "message": "said"}
            if code is not None:
                doc["responseCode"] = code
            yield status, json.dumps(doc)
    yield from [(429, ""), (403, "{}"), (503, "<html>"), (200, "[1]"), (200, "not json"),
                (200, "cb(" + json.dumps({"responseCode": 1, "values": [{"index": 100, "type":
                 "HS_ADMIN", "data": {"format": "admin", "value": {"handle": "0.NA/10",
                 "index": 200, "permissions": "1111"}}}]}) + ")")]


def test_resolver_answers_are_plain_with_the_codes_in_their_source() -> None:
    for status, body in _answers():
        rec = read_handle_response(status, body)
        texts = [rec.message, *rec.notes, *(v.note or "" for v in rec.values)]
        for text in texts:
            assert cites(text) is None, (status, body[:60], text)
        assert rec.source.startswith(HANDLE_API + "; ") and "responseCode" in rec.source
        ra = read_which_ra_response(status, body)
        assert cites(ra.message) is None, (status, body[:60], ra.message)
        assert ra.source.startswith(WHICH_RA + "; HTTP ")
        for answer in ra.answers:
            assert cites(answer.message) is None, answer.message
    for kind in ("network", "offline", "timeout", "cancelled", "too-large"):
        rec = transport_outcome(kind)
        assert cites(rec.message) is None and rec.source == ""  # nothing was received
