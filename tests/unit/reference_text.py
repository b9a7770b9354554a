"""Hypothesis strategies for pasted reference text: the lines the fast paths of extract
and Batch must read exactly as the general path does.

Lines mix what real lists hold (author and title words, years, pages, non-ASCII names)
with every way a DOI is written (bare, ``doi:`` URIs, ``DOI:``/``doi`` labels, doi.org and
dx.doi.org links, links through library proxies, ``urn:doi:``, shortDOIs) and the hard
cases (SICI names with ``< > ; #``, ``%``-escapes good and bad, lookalike dashes and
letters, invisible characters, HTML and LaTeX escapes, trailing punctuation, brackets,
viewer tails, names cut by a PDF line break, several names on a line, long lines).
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"

WORDS = ["Smith, J.", "(2019).", "A study of things.", "J Med.", "2018;5:1-9.", "Epub",
         "pp. 45-67", "Müller", "Ørsted", "Łódź", "東京", "vol. 12(3)", "ISBN 978-3-16-148410-0",
         "10.5 percent", "v2.10.1", "$10.99", "1.", "[12]", "(see", "see", "and", "Available at:",
         "accessed 2020", "“quoted”", "«Title»", "—", "…", "PMID: 123", "PMCID: PMC1", "x",
         "次の文。", "【図】", "東京大学，"]

PREFIXES = ["10.1000", "10.1038", "10.1101", "10.1002", "10.12345", "10.5555", "10.25",
            "10.978.8898392", "10.1", "10.1234.5", "10.123456789", "10.0000"]

SUFFIXES = ["182", "nature14539", "abc.123", "JS.55555", "j.2018.01.001",
            "(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O", "x%23123", "50%zz",
            "a/b/c", "A-B_C.D", "abc-", "abc.", "abc..", "abc/full", "abc/pdf", "ab#c",
            "a b", "a\u2010b", "\u0430bc", "a\u200bb", "xyz)", "(xyz)", "ab%2Fcd", "q?x=1",
            "ÁGUTIÉRREZ.1", "a&amp;b", "a\\_b", "x/.y", "1.2.3", "ab;cd", "ab;12", "é%C3%A9",
            "a\ufffdb", "abc…", "ABC", "abc", "x" * 120, "a'b", "ab,cd", "DUP.7",
            "S0140-6736(20)30183-5", "(a)b.1", "a(b)(c)d", "a((b))c", "a(b", "a(b.)c.", "a()b",
            "a(%23)b", "a(b)/full", "a(b;2)c", "x.1.", "x.1...", "ab/.", "ab./cd.",
            "étude.5", "Straße_2", "ab²c", "x٣y", "东京.1", "ǅa", "ſt-ı", "a\u0301b", "née-", "",
            "2020.01.01.123456v2.full.pdf", "123456v1", "2020.03.22.20040287v3/full"]

FORMS = ["{n}", "doi:{n}", "DOI:{n}", "doi: {n}", "DOI {n}", "DOI: {n}", "doi：{n}",
         "https://doi.org/{n}", "http://dx.doi.org/{n}", "https://www.doi.org/{n}",
         "doi.org/{n}", "https://doi-org.ezproxy.example.edu/{n}",
         "https://ezproxy.example.edu/login?url=https://doi.org/{n}", "urn:doi:{n}",
         "info:doi/{n}", "hdl:{n}", "<a href=\"https://doi.org/{n}\">{n}</a>",
         "[{n}](https://doi.org/{n})", "({n})", "'{n}'", "\"{n}\"", "{n}.", "{n},", "{n};",
         "{n}/full", "https://doi.org/{n}?x=1", "doi10.1000/x{n}", "x{n}", "https://example.org/{n}",
         "https://www.biorxiv.org/content/{n}", "https://doi.org/https://doi.org/{n}",
         "https://link.springer.com/content/pdf/{n}.pdf", "onlinelibrary.wiley.com/doi/{n}?af=R",
         "link.springer.com/content/pdf/{n}.pdf",
         "（{n}）", "「{n}」", "{n}。", "doi：{n}、", "{n}，", "詳細は{n}を参照", "DOI为{n}的文章",
         "참고 {n}를", "{n}.を参照", "14: 564-{n}.",
         "https://urldefense.com/v3/__https://doi.org/{n}__;!!Fjc1LPEtn8I!x-y$",
         "https://urldefense.com/v3/__https://doi.org/{n}*3B__;JQ!!Fjc1LPEtn8I!x$",
         "https://urldefense.proofpoint.com/v2/url?u=https-3A__doi.org_{n}&d=DwMFaQ&e=",
         "(doi:10. \n{rest})", "https://doi.org/10.\n{rest}",
         "https://doi.org/10/abcde", "doi:10/abcde",
         "10/abcde", "doi: 10.abc/1"]


def _name(prefix: str, suffix: str) -> str:
    return prefix + "/" + suffix


@st.composite
def names(draw: st.DrawFn) -> str:
    """One DOI name written in one of many forms."""
    form = draw(st.sampled_from(FORMS))
    prefix = draw(st.sampled_from(PREFIXES))
    suffix = draw(st.one_of(st.sampled_from(SUFFIXES),
                            st.from_regex(r"[A-Za-z0-9._/\-]{1,12}", fullmatch=True)))
    return written(form, _name(prefix, suffix))


def written(form: str, name: str) -> str:
    """``name`` written in ``form`` (one of :data:`FORMS`): ``{n}`` is the name, ``{rest}``
    what follows its ``10.`` (a form that cuts the prefix)."""
    return form.format(n=name, rest=name[3:])


@st.composite
def reference_lines(draw: st.DrawFn) -> str:
    """A line of a reference list: words and names, in any order."""
    pieces = draw(st.lists(st.one_of(st.sampled_from(WORDS), names()), min_size=0, max_size=6))
    seps = draw(st.lists(st.sampled_from([" ", " ", ", ", "; ", "\t", "", " \u00a0", "-\n", "\n"]),
                         min_size=len(pieces), max_size=len(pieces)))
    line = "".join(p + s for p, s in zip(pieces, seps, strict=True))
    return line.strip(" ") if draw(st.booleans()) else line


def reference_lists() -> st.SearchStrategy[list[str]]:
    """Lists of lines, with repeats (caches, duplicates) and structured records."""
    record = st.sampled_from([
        ["@article{k1,", "  doi = {10.1000/182},", "  url = {https://doi.org/10.1000/182}", "}"],
        ["TY  - JOUR", "ID  - r1", "DO  - 10.1038/nature14539", "ER  - "],
        ["{", '  "id": "x", "DOI": "10.1000/abc"', "}"], ["[", "]"], [""],
    ])
    line_lists = st.lists(reference_lines(), min_size=0, max_size=12)
    return st.lists(st.one_of(line_lists, record), min_size=0, max_size=6).map(
        lambda groups: [x for g in groups for x in g]).flatmap(
        lambda lines: st.just(lines + lines[: len(lines) // 2]))


def fixture_lines() -> list[str]:
    """Every line of every fixture file (reference lists, pastes, handle answers)."""
    out: list[str] = []
    for path in sorted(FIXTURES.rglob("*")):
        if path.is_file():
            try:
                out.extend(path.read_text(encoding="utf-8").splitlines())
            except UnicodeDecodeError:
                continue
    return out


def bench_lines(n: int = 3000, seed: int = 5) -> list[str]:
    """Lines made from every template of bench/batch.py: the benchmark's mix, and the
    lines it prints apart (``MORE``: brackets, a final period, distinct SICI lines) and the line
    shapes it times alone (``SHAPES``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_batch", ROOT / "bench" / "batch.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    templates: list[str] = module.TEMPLATES + module.MORE + [t for _, t in module.SHAPES]
    rng = random.Random(seed)
    return [t.format(r=rng.randrange(1000, 9999), n=rng.randrange(10**6), m=rng.randrange(100),
                     y=rng.randrange(10, 100), k=rng.randrange(1000, 10000),
                     d=rng.randrange(10))
            for t in templates for _ in range(n // len(templates))]
