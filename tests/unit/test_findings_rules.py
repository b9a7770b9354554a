"""Every finding code of check() has one entry in RULES, and check() gives it with that
severity and source (one table read by the docs, the CLI help and this test)."""

from __future__ import annotations

import pytest

import doiname as d
from doiname.findings import RULES
from doiname.limits import MAX_FINDINGS

#: 104 different lookalike letters (fullwidth and mathematical bold Latin): as many
#: findings, since a finding is said once for each character, wherever it comes.
FULLWIDTH = "".join(chr(c) for base in (0xFF21, 0xFF41, 0x1D400, 0x1D41A)
                    for c in range(base, base + 26))

EXAMPLES = {
    "empty": "   ",
    "no-slash": "10.1000",
    "empty-suffix": "10.1000/",
    "bad-prefix": "11.1000/x",
    "short-doi": "10/abcde",
    "not-a-doi-link": "https://www.nature.com/articles/nature14539",
    "bad-percent": "10.1000/a%zz",
    "bad-utf8": "10.1000/a%C3",
    "not-graphic": "10.1000/a\u200bb",
    "uri-query": "doi:10.1000/a?b",
    "uri-fragment": "doi:10.1000/a#b",
    "reserved-suffix-start": "10.1000/a/b",
    "long-name": "10.1000/" + "a" * 120,
    "very-long-link": "10.1000/" + "a" * 2100,
    "lookalike-dash": "10.1000/a\u2010b",
    "lookalike-quote": "10.1000/a\u2019b",
    "lookalike-slash": "10.1000/a\u2215b",
    "lookalike-space": "10.1000/a\u00a0b",
    "lookalike-letter": "10.1000/p\u0430per",
    "lookalike-character": "10.1000/a\u2024b",
    "mixed-scripts": "10.1000/p\u0430per",
    "combining-mark": "10.1000/e\u0301",
    "right-to-left": "10.1000/\u05d0\u05d1",
    "space-in-name": "10.1000/a b",
    "percent-escape-in-name": "10.1000/a%2541",
    "outside-crossref-set": "10.1000/a#b",
    "more-findings": "10.1000/" + FULLWIDTH,
}


def test_every_rule_has_an_example() -> None:
    assert set(EXAMPLES) == set(RULES)


@pytest.mark.parametrize("code", sorted(RULES))
def test_check_gives_each_code_as_its_rule_says(code: str) -> None:
    rule = RULES[code]
    found = [f for f in d.check(EXAMPLES[code]) if f.code == code]
    assert found, f"{code} not given for {EXAMPLES[code][:40]!r}"
    for f in found:
        assert f.severity == rule.severity and f.source == rule.source and rule.summary


@pytest.mark.parametrize("n", [MAX_FINDINGS - 1, MAX_FINDINGS, MAX_FINDINGS + 1,
                               len(FULLWIDTH)])
def test_findings_are_bounded_and_the_rest_counted(n: int) -> None:
    found = d.check("10.1000/" + FULLWIDTH[:n])  # n lookalikes, each a finding of its own
    assert len(found) <= MAX_FINDINGS
    listed = sum(1 for f in found if f.code == "lookalike-letter")
    more = [f for f in found if f.code == "more-findings"]
    total = listed + sum(int(f.message.split(" more")[0].split()[-1].replace(",", ""))
                         for f in more)
    assert total == n  # every lookalike is listed or counted
    assert (len(more) == 1) == (total > listed)
    assert found[-1].code == "more-findings" if more else True


@pytest.mark.parametrize("n", [2, MAX_FINDINGS + 1, 100_000])
def test_a_repeated_lookalike_is_one_finding_with_its_count_and_places(n: int) -> None:
    found = d.check("10.1000/x" + "\u0430" * n + "y\u0430")  # Cyrillic "a", n + 1 times
    (one,) = [f for f in found if f.code == "lookalike-letter"]
    assert f"({n + 1:,} times, at characters 10–{9 + n} and {11 + n})" in one.message
    assert one.repair == "10.1000/x" + "a" * n + "ya"  # every one repaired, once


def test_spaces_and_double_escapes_are_one_finding_each_repaired_at_once() -> None:
    found = d.check("https://doi.org/10.1000/a%20b%20%20c%20d")
    (spaces,) = [f for f in found if f.code == "space-in-name"]
    assert "(3 times, at characters 10, 12–13 and 15)" in spaces.message
    assert spaces.repair == "https://doi.org/10.1000/abcd"  # the link stays a link
    found = d.check("10.1000/" + "%2541x" * 1000 + "%2542")
    escapes = [f for f in found if f.code == "percent-escape-in-name"]
    assert len(escapes) == 2
    assert escapes[0].message.startswith("The name holds “%41” (1,000 times, at characters 9–11, ")
    assert escapes[1].message.startswith("The name holds “%42” (characters 4009–4011)")
    # one repaired name for the list: both escapes decoded, given by the first finding
    assert [f.repair for f in escapes] == ["10.1000/" + "Ax" * 1000 + "B", None]


def test_one_repaired_name_a_list_whatever_the_kinds() -> None:
    """A lookalike, a space, a double escape and a combining mark: one repaired name (the
    lookalike, the space and the escape repaired together), given by the first finding it
    repairs, and the precomposed spelling once; every other finding has none."""
    text = "10.1000/\u0430 b%2541e\u0301x" + "e\u0301" * 30
    found = d.check(text)
    repairs = [f.repair for f in found if f.repair is not None]
    assert repairs == ["10.1000/abAe\u0301x" + "e\u0301" * 30,
                       "10.1000/\u0430 b%2541\u00e9x" + "\u00e9" * 30]
    (first,) = [f for f in found if f.code == "lookalike-letter"]  # the first it repairs
    assert first.repair == repairs[0]
    marks = [f for f in found if f.code == "combining-mark"]
    assert len(marks) == 31 and marks[0].repair == repairs[1]
    assert all(f.repair is None for f in marks[1:])


def test_lookalike_repairs_fix_every_lookalike_at_once() -> None:
    found = d.check("https://doi.org/10.1000/\u0430b\u0441")
    repairs = [f.repair for f in found if f.code.startswith("lookalike-")]
    assert repairs == ["https://doi.org/10.1000/abc", None]  # the link stays a link; the
    # repair of them all is given once, by the first
    # (an escape of a control character is not decoded by the repair)
    (only,) = [f for f in d.check(d.Doi("10.1000", "a\u2010%0A")) if f.code == "lookalike-dash"]
    assert only.repair is not None and d.inspect(only.repair).candidates[0].doi == d.Doi(
        "10.1000", "a-%0A")  # a repaired Doi reads back exactly (the % is not decoded)


def test_the_quiet_latin_letters_are_what_the_unicode_tables_say() -> None:
    """The lookalike rules' precondition leaves out the letters the tables say none of
    them names (written as ranges, so that the tables are decoded only when needed)."""
    import re

    from doiname.findings.lookalikes import QUIET_LATIN, quiet_latin

    listed = re.compile(f"[{QUIET_LATIN}]")
    quiet = set(quiet_latin())
    for cp in (*range(0x80, 0x250), *range(0x1E00, 0x1F00)):
        assert (listed.fullmatch(chr(cp)) is not None) == (chr(cp) in quiet), hex(cp)
