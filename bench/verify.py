"""The reference check (``doiname.verify``) on real references: how often it is right.

Data: ``shared/data/references/references-doi-matching.json.gz`` (17,015 references that
GROBID extracted from PubMed Central PDFs, with line breaks, hyphenation and truncation as
they come, each with its cited work's fields from the citing article's NLM XML: title,
first author, abbreviated journal, volume, first page; see that directory's README).

Each reference is checked against three works made from those fields:

* the right work (its own fields): target ``mismatch`` in at most 1 in 100;
* another work of the same journal (another reference's fields with the same journal and
  another DOI): target ``matches`` in at most 1 in 100;
* another work of the same first author (the same, by first author's family name);
* another work of the same journal and volume (the hardest: only title, pages and
  authors tell them apart).

and over all cases, ``cannot-tell`` in at most 5 in 100. The other work is drawn with
``random.Random(SEED)``. Prints a table of verdicts per case; never asserts. The time per
check (processor time) is printed for scale.

Then the same on references written in three styles (APA, Vancouver, BibTeX fields) from
the Crossref works of ``records.jsonl`` that have a title, an author, a year and a journal,
each against its own work and against another drawn at random: registry records with
their full journal titles, subtitles, markup and scripts, where the first part has only
the fields of an NLM citation.

    python3 bench/verify.py [--data PATH] [--limit N] [--show N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pycore"))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # (also when loaded by its path)

from common import Figure, table  # noqa: E402

from doiname import Author, Work, verify  # noqa: E402
from doiname.verify.normalise import fold  # noqa: E402

DATA = Path("/work/shared/data/references/references-doi-matching.json.gz")
RECORDS = DATA.with_name("records.jsonl")
SEED = 20240601
CASES = ("right work", "same journal", "same first author", "same journal and volume")
TARGETS = {"right work": ("mismatch", 1.0), "same journal": ("matches", 1.0),
           "same first author": ("matches", 1.0), "same journal and volume": ("matches", 1.0)}


def work_of(item: dict[str, Any]) -> Work:
    """The cited work as its fields describe it (no year: the NLM fields give none)."""
    author = (Author(family=item["firstAuthor"]),) if item.get("firstAuthor") else ()
    return Work(doi=None, title=item.get("atitle") or "", authors=author,
                container_short=item.get("jtitle") or "", volume=item.get("volume") or "",
                first_page=item.get("firstPage") or "")


def pairs(items: list[dict[str, Any]]) -> dict[str, list[tuple[int, int]]]:
    """(reference, work) index pairs of each case."""
    rng = random.Random(SEED)
    by: dict[str, defaultdict[str, list[int]]] = {case: defaultdict(list) for case in CASES[1:]}
    keys = [{"same journal": fold(item.get("jtitle") or ""),
             "same first author": fold(item.get("firstAuthor") or ""),
             "same journal and volume": (fold(item.get("jtitle") or "") + " / "
                                         + (item.get("volume") or "")
                                         if item.get("jtitle") and item.get("volume") else "")}
            for item in items]
    for i, named in enumerate(keys):
        for case, value in named.items():
            if value:
                by[case][value].append(i)
    out: dict[str, list[tuple[int, int]]] = {"right work": [(i, i) for i in range(len(items))]}
    for case, groups in by.items():
        chosen = []
        for i, item in enumerate(items):
            key = keys[i][case]
            others = [j for j in groups.get(key, ()) if items[j]["doi"].lower()
                      != item["doi"].lower() and fold(items[j].get("atitle") or "")
                      != fold(item.get("atitle") or "")]
            if others and key:
                chosen.append((i, rng.choice(others)))
        out[case] = chosen
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=0, help="first N references only")
    parser.add_argument("--show", type=int, default=0,
                        help="print N failing examples per case (for reading, not tuning)")
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"verify: {args.data} not found; nothing measured.")
        return 0
    with gzip.open(args.data, "rt", encoding="utf-8") as f:
        items: list[dict[str, Any]] = json.load(f)
    if args.limit:
        items = items[:args.limit]
    works = [work_of(item) for item in items]
    counts: dict[str, Counter[str]] = {}
    failures: dict[str, list[str]] = defaultdict(list)
    started = time.process_time()
    checks = 0
    for case, chosen in pairs(items).items():
        tally: Counter[str] = Counter()
        bad = TARGETS[case][0]
        for i, j in chosen:
            got = verify(items[i]["reference"], works[j])
            tally[got.verdict] += 1
            checks += 1
            if (got.verdict == bad or got.verdict == "cannot-tell") and len(
                    failures[case]) < args.show:
                failures[case].append(f"  [{got.verdict}] {items[i]['reference']!r}\n"
                                      f"      work: {works[j].title!r} {works[j].authors[:1]} "
                                      f"{works[j].container_short} {works[j].volume} "
                                      f"{works[j].first_page}\n      {got.summary}")
        counts[case] = tally
    spent = time.process_time() - started
    print(f"doiname.verify on {len(items):,} references of {args.data.name} "
          f"(seed {SEED}), {datetime_now()}")
    print()
    print("| case | checks | matches | mismatch | cannot-tell | target |")
    print("|---|---:|---:|---:|---:|---|")
    cannot = total = 0
    for case in CASES:
        tally = counts[case]
        n = sum(tally.values()) or 1
        bad, limit = TARGETS[case]
        share = 100 * tally[bad] / n
        cannot += tally["cannot-tell"]
        total += n
        cells = " | ".join(f"{tally[v]:,} ({100 * tally[v] / n:.2f}%)"
                           for v in ("matches", "mismatch", "cannot-tell"))
        met = "met" if share <= limit else "NOT met"
        print(f"| {case} | {n:,} | {cells} | {bad} <= {limit:g}%: {met} |")
    share = 100 * cannot / (total or 1)
    print(f"| all | {total:,} | | | {cannot:,} ({share:.2f}%) | cannot-tell <= 5%: "
          f"{'met' if share <= 5 else 'NOT met'} |")
    print()
    print(f"{checks:,} checks in {spent:.1f} s of processor time "
          f"({1e6 * spent / max(checks, 1):.0f} us each).")
    figures = []
    for case in CASES:
        tally = counts[case]
        n = sum(tally.values()) or 1
        bad, limit = TARGETS[case]
        share = 100 * tally[bad] / n
        figures.append(Figure(f"{case}: {bad}", f"{share:.2f}% ({tally[bad]:,} of {n:,})",
                              f"<= {limit:g}%", "", share <= limit))
    figures.append(Figure("all cases: cannot-tell", f"{100 * cannot / (total or 1):.2f}% "
                          f"({cannot:,} of {total:,})", "<= 5%", "",
                          100 * cannot / (total or 1) <= 5))
    figures.append(Figure("processor time a check", f"{1e6 * spent / max(checks, 1):.0f} us"))
    table("Reference check on PDF references", figures,
          f"{len(items):,} references GROBID extracted from PubMed Central PDFs, each against "
          "its own work's NLM fields and another work drawn with a fixed seed.")
    if RECORDS.is_file() and not args.limit:
        records_part(RECORDS)
    for case, lines in failures.items():
        if not lines:
            continue
        print(f"\n{case}: examples")
        print("\n".join(lines))
    return 0


def styles(work: Work) -> dict[str, str | dict[str, str]]:
    """A reference to ``work`` in APA, Vancouver and BibTeX fields."""
    first = work.authors[0]
    initials = "".join(p[0] for p in first.given.split() if p)
    full = work.title + (f": {work.subtitle}" if work.subtitle else "")
    issue = f"({work.issue})" if work.issue else ""
    return {
        "APA": f"{first.family}, {initials[:1]}. ({work.year}). {full}. "
               f"{work.container_title}, {work.volume}{issue}, {work.pages}.",
        "Vancouver": f"{first.family} {initials}. {work.title}. "
                     f"{work.container_short or work.container_title}. "
                     f"{work.year};{work.volume}:{work.pages}.",
        "BibTeX fields": {"title": full, "author": f"{first.family}, {first.given}",
                          "year": str(work.year), "journal": work.container_title,
                          "volume": work.volume, "pages": work.pages},
    }


def records_part(path: Path) -> None:
    """Print the verdicts on references written from the registry's own works."""
    works = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            item = json.loads(line)
            if item["kind"] == "crossref-work":
                work = Work.from_crossref(item["record"])
                if work.title and work.authors and work.year and work.container_title:
                    works.append(work)
    rng = random.Random(SEED)
    tally: Counter[tuple[str, str, str]] = Counter()
    for work in works:
        other = rng.choice([w for w in rng.sample(works, 2) if w is not work])
        for style, ref in styles(work).items():
            tally[(style, "right work", verify(ref, work).verdict)] += 1
            tally[(style, "another work", verify(ref, other).verdict)] += 1
    figures = []
    for style in ("APA", "Vancouver", "BibTeX fields"):
        for case, good in (("right work", "matches"), ("another work", "mismatch")):
            n = sum(tally[(style, case, v)] for v in ("matches", "mismatch", "cannot-tell"))
            others = ", ".join(f"{tally[(style, case, v)]:,} {v}"
                               for v in ("matches", "mismatch", "cannot-tell") if v != good)
            figures.append(Figure(f"{style}, {case}: {good}",
                                  f"{tally[(style, case, good)]:,} of {n:,} ({others})"))
    table("References written from registry records", figures,
          f"The {len(works):,} Crossref works of {path.name} with a title, an author, a year "
          "and a journal, each written in three styles, against itself and another work.")


def datetime_now() -> str:
    import datetime
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")


if __name__ == "__main__":
    raise SystemExit(main())
