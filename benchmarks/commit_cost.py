"""What the store's integrity costs a run: records/s with and without checksums, side by side.

Three variants of ``partgames run`` over the same games and n, each a fresh process writing a
fresh store, in alternating rounds (this VM's speed drifts, so only ratios within one run mean
anything):

* ``now``: the current code (a SHA-256 of every shard as it is written, a description per
  shard, commit records listing every file);
* ``no-hash``: the current code with the shard hashing replaced by a no-op (what the hashing
  alone costs);
* ``before`` (with ``--before REV``): the code of git revision REV, checked out into a temporary
  worktree (the store as it was before commit records, for "before and after").

Then ``partgames check`` and ``check --deep`` on the last store written, and on ``--store`` if
given (a large store built beforehand).

    .venv/bin/python benchmarks/commit_cost.py --before 107c098 --rounds 3
    .venv/bin/python benchmarks/commit_cost.py --store /data/results   # check times only
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_RUN = """
import sys, time
sys.path.insert(0, {root!r})
if {no_hash}:
    import pipeline.parquet.writer as parquet

    class _NoHash:
        def update(self, data):
            pass

        def hexdigest(self):
            return "0" * 64

    parquet.hashlib = type("hashlib", (), {{"sha256": staticmethod(lambda: _NoHash())}})
from pipeline.runner import run
start = time.perf_counter()
summary = run({games!r}, min_n={min_n}, max_n={max_n}, out={out!r}, jobs={jobs}, progress=False)
print(summary.records / (time.perf_counter() - start))
"""


def one_run(root: Path, out: Path, args: argparse.Namespace, no_hash: bool = False) -> float:
    """Records per second of one run in a fresh process (solving, writing and committing)."""
    code = _RUN.format(root=str(root), no_hash=no_hash, games=args.games.split(","),
                       min_n=args.min_n, max_n=args.max_n, out=str(out), jobs=args.jobs)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=root)
    return float(done.stdout.split()[-1])


def check_times(store: Path) -> tuple[float, float]:
    times = []
    for deep in ([], ["--deep"]):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pipeline.cli", "check", "--results", str(store), *deep],
                              capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
        print(f"  check {' '.join(deep) or '(stat, footers)':<16} {times[-1]:7.1f} s   "
              f"{done.stdout.strip().splitlines()[-1]}")
    return times[0], times[1]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", default="lctr,downright")
    p.add_argument("--min-n", type=int, default=56)
    p.add_argument("--max-n", type=int, default=60)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--before", default=None, metavar="REV", help="also run the code of this git revision")
    p.add_argument("--store", default=None, help="a store to time check and check --deep on")
    args = p.parse_args()

    work = Path(tempfile.mkdtemp(prefix="partgames-commit-cost-"))
    variants: dict[str, tuple[Path, bool]] = {"now": (ROOT, False), "no-hash": (ROOT, True)}
    try:
        if args.before:
            subprocess.run(["git", "worktree", "add", "--detach", str(work / "before"), args.before],
                           cwd=ROOT, check=True, capture_output=True)
            variants["before"] = (work / "before", False)
        if args.rounds:
            rates: dict[str, list[float]] = {name: [] for name in variants}
            for name, (root, no_hash) in variants.items():  # compile each variant's kernels once
                one_run(root, work / f"warm-{name}", args, no_hash)
            for k in range(args.rounds):
                for name, (root, no_hash) in variants.items():
                    out = work / f"{name}-{k}"
                    rates[name].append(one_run(root, out, args, no_hash))
                    if name != "now" or k < args.rounds - 1:
                        shutil.rmtree(out)
            print(f"run --games {args.games} --min-n {args.min_n} --max-n {args.max_n} --jobs {args.jobs}, "
                  f"{args.rounds} alternating rounds (records/s, median):")
            base = statistics.median(rates["now"])
            for name, values in rates.items():
                med = statistics.median(values)
                print(f"  {name:<8} {med:12,.0f}   now / {name}: {base / med:5.3f}   "
                      f"rounds: {', '.join(f'{v:,.0f}' for v in values)}")
            print(f"store written by `now` ({args.min_n} ≤ n ≤ {args.max_n}):")
            check_times(work / f"now-{args.rounds - 1}")
        if args.store:
            print(f"store {args.store}:")
            check_times(Path(args.store))
    finally:
        if args.before:
            subprocess.run(["git", "worktree", "remove", "--force", str(work / "before")], cwd=ROOT,
                           capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
