"""Coverage-guided fuzzing of the core with atheris.

    python3 tests/fuzz/run.py [--seconds 60] [--jobs N] [TARGET ...]

Runs each target (see targets.py) for the given time in its own process, seeded with the
regression corpus and spec examples, with a 5 s per-input timeout (a hang is a failure)
and inputs up to 1 MB. A crash writes its input to tests/fuzz/regressions/<target>-*.bin:
commit it, and tests/unit/test_fuzz_regressions.py replays it forever after.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SEEDS = [
    b"10.1000/182", b"doi:10.1000/456%23789", b"urn:doi:10.123:456ABC%2Fzyz",
    b"https://doi-org.lama.univ-amu.fr/10.1000/456%23789",
    b"https://x.edu/login?qurl=https%3A%2F%2Fdoi.org%2F10.1000%2F182",
    b"10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-O",
    b"DOI:dk/P%C3%A6dagogi%2037(2),%20562",
    b'\xc8{"responseCode":1,"handle":"10.1000/182","values":[{"index":1,"type":"URL",'
    b'"data":{"format":"string","value":"http://www.doi.org/hb.html"}}]}',
    b'\xc8[{"DOI":"10.7554","RA":"Crossref"}]',
]

CHILD = """
import sys
import atheris
with atheris.instrument_imports():
    import doiname, doiname.cli, doiname.resolver, doiname.extract
    from tests.fuzz.targets import TARGETS
atheris.Setup(sys.argv[1:], TARGETS[sys.argv[1]])
atheris.Fuzz()
"""


_PRINT = threading.Lock()


def fuzz(name: str, seconds: int) -> bool:
    """Fuzz one target for ``seconds`` in a child process; print the tail of its report."""
    with tempfile.TemporaryDirectory() as corpus:
        for i, seed in enumerate(SEEDS):
            Path(corpus, f"seed{i}").write_bytes(seed)
        for reg in sorted((HERE / "regressions").glob("*")):
            Path(corpus, reg.name).write_bytes(reg.read_bytes())
        prefix = HERE / "regressions" / f"{name}-"
        cmd = [sys.executable, "-c", CHILD, name, corpus,
               f"-max_total_time={seconds}", "-timeout=5", "-max_len=1048576",
               "-rss_limit_mb=4096", f"-artifact_prefix={prefix}", "-print_final_stats=1"]
        env = {**os.environ, "PYTHONPATH": f"{ROOT / 'pycore'}{os.pathsep}{ROOT}"}
        proc = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True,
                              check=False)
    with _PRINT:
        print(f"fuzzed {name} for {seconds} s", flush=True)
        print("\n".join(proc.stderr.splitlines()[-6:]), flush=True)
    return proc.returncode == 0


def main() -> int:
    from targets import TARGETS  # type: ignore[import-not-found]  # beside this file, on sys.path

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=int, default=60, help="per target")
    ap.add_argument("--jobs", type=int, default=1,
                    help="targets fuzzed at a time (each in its own process, on its own core)")
    ap.add_argument("targets", nargs="*", default=sorted(TARGETS))
    args = ap.parse_args()
    try:
        import atheris  # noqa: F401  (the children use it)
    except ImportError:
        print("fuzz: atheris is not installed (it has wheels for x86_64 CPython <= 3.12); skipped")
        return 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(lambda name: (name, fuzz(name, args.seconds)), args.targets))
    failed = [name for name, ok in outcomes if not ok]
    if failed:
        print(f"FAILED: {', '.join(failed)} (inputs saved in {HERE / 'regressions'})")
        return 1
    print(f"fuzz: {len(args.targets)} targets clean")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    sys.path.insert(0, str(ROOT / "pycore"))
    raise SystemExit(main())
