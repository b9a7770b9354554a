"""Core throughput on host Python: parse + to_url + to_uri + equivalence_key per name.

Prints names/s over 1,000,000 mixed names (bare names, doi: URIs, doi.org and EZproxy
URLs with escapes, SICI names, non-ASCII names) and the ratio against
``urllib.parse.quote`` and ``idutils.normalize_doi`` measured in the same run, in
alternating rounds (processor time of this process). Target: the full rules at no less
than half the speed of the bare ``quote`` call (ratio >= 0.5). Never asserts: it reports.

    python3 bench/core.py [--names N] [--rounds R]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (also when loaded by its path)

from common import Figure, as_ratio, table, timed

import doiname


def mixed_names(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    shapes: list[Callable[[], str]] = [
        lambda: f"10.{rng.randrange(1000, 99999)}/j.{rng.randrange(1, 10**6)}.{rng.randrange(99)}",
        lambda: f"10.{rng.randrange(1000, 9999)}/nphys{rng.randrange(1000, 9999)}",
        lambda: f"doi:10.{rng.randrange(1000, 9999)}/abc.{rng.randrange(10**5)}",
        lambda: f"https://doi.org/10.{rng.randrange(1000, 9999)}/x%23{rng.randrange(10**4)}",
        lambda: "10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O",
        lambda: f"10.26321/\u00c1.GUTI\u00c9RREZ.{rng.randrange(10**4)}",
        lambda: f"https://doi-org.ezproxy.example.edu/10.1000/{rng.randrange(10**6)}",
    ]
    weights = [40, 25, 10, 10, 5, 5, 5]
    return [rng.choices(shapes, weights)[0]() for _ in range(n)]


def full_rules(names: list[str]) -> None:
    parse, to_url, to_uri, key = (doiname.parse, doiname.to_url, doiname.to_uri,
                                  doiname.equivalence_key)
    for text in names:
        doi = parse(text)
        to_url(doi)
        to_uri(doi)
        key(doi)


def bare_quote(names: list[str]) -> None:
    for text in names:
        quote(text)


IDUTILS_FAILED: list[int] = []


def idutils_normalize(names: list[str]) -> None:
    from idutils import normalize_doi  # type: ignore[import-untyped]  # dev dependency only

    failed = 0
    for text in names:
        try:
            normalize_doi(text)
        except Exception:  # it raises AttributeError on forms it does not know
            failed += 1
    IDUTILS_FAILED.append(failed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--names", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    names = mixed_names(args.names)
    contenders: dict[str, Callable[[list[str]], None]] = {
        "doiname full rules": full_rules,
        "urllib.parse.quote": bare_quote,
    }
    try:
        import idutils  # noqa: F401

        contenders["idutils.normalize_doi"] = idutils_normalize
    except ImportError:
        print("idutils not installed: pip install idutils (dev dependency)")
    times: dict[str, list[float]] = {k: [] for k in contenders}
    for _ in range(args.rounds):
        for label, fn in contenders.items():
            times[label].append(timed(fn, names))
    print(f"core throughput, {args.names:,} mixed names, {args.rounds} alternating rounds "
          f"(Python {sys.version.split()[0]})")
    med = {k: statistics.median(v) for k, v in times.items()}
    for label, ts in times.items():
        print(f"  {label:<24} {args.names / med[label]:>12,.0f} names/s   "
              f"median {med[label]:.3f} s  range {min(ts):.3f}-{max(ts):.3f} s")
    ours = med["doiname full rules"]
    for label in contenders:
        if label != "doiname full rules":
            print(f"  speed ratio doiname / {label}: {med[label] / ours:.2f}x"
                  + ("  (target >= 0.5)" if label == "urllib.parse.quote" else ""))
    if IDUTILS_FAILED:
        print(f"  idutils.normalize_doi raised on {IDUTILS_FAILED[0]:,} of {args.names:,} names "
              "(EZproxy links); it also does no encoding, validation or equivalence")
    to_quote = med["urllib.parse.quote"] / ours
    figures = [Figure("speed of doiname's full rules (parse, to_url, to_uri, equivalence_key)"
                      " / urllib.parse.quote", as_ratio(to_quote), ">= 0.5x",
                      f"{args.names / ours:,.0f} against "
                      f"{args.names / med['urllib.parse.quote']:,.0f} names/s", to_quote >= 0.5)]
    if "idutils.normalize_doi" in med:
        figures.append(Figure("speed of doiname's full rules / idutils.normalize_doi",
                              as_ratio(med["idutils.normalize_doi"] / ours), "",
                              f"idutils raised on {IDUTILS_FAILED[0] if IDUTILS_FAILED else 0:,}"
                              " names"))
    table("Core throughput", figures,
          f"{args.names:,} mixed names (bare, doi: URIs, doi.org and EZproxy links with escapes, "
          "SICI, non-ASCII), processor time, alternating rounds.")


if __name__ == "__main__":
    main()
