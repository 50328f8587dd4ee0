"""The users' run by this checkout against another (``--baseline``: the release before
summaries, 0.2.0), alternating fresh processes, beside the naive sg-only kernel.

    git worktree add --detach /tmp/partgames-0.2.0 cff19cd     # the 0.2.0 release
    python benchmarks/release_ab.py --baseline /tmp/partgames-0.2.0 --n 76 --rounds 3

Each round runs ``partgames run --games G --min-n N --max-n N --jobs J`` once with each code
(the order alternating between rounds), each as its own process on a store of its own, and
times the run from its final line (records and records/s: solving, without start-up); before
the rounds each code runs n = 12 once, so that both solve from a warm kernel cache. Between
rounds the naive sg-only kernel (:func:`bench.naive_rate`, one thread) is timed over the same
n. Prints each round's records/s and the medians: this / baseline, and each code's e2e / naive
(records of all the games per second against the naive kernel's partitions per second, as
docs/performance.md's target 1 counts them).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import naive_rate

ROOT = Path(__file__).resolve().parent.parent
_CACHE_SETTINGS = ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES")


def run_rate(code: Path, games: str, n: int, jobs: int) -> float:
    """Records per second of one ``partgames run`` of ``code`` (a checkout) at ``n``."""
    tmp = Path(tempfile.mkdtemp(prefix="pg-release-ab-"))
    try:
        # each code sets up numba's cache itself (this process's pipeline set these for its own)
        env = {k: v for k, v in os.environ.items() if k not in _CACHE_SETTINGS}
        env["PYTHONPATH"] = str(code)
        cmd = [sys.executable, "-m", "pipeline.cli", "run", "--games", games, "--min-n", str(n),
               "--max-n", str(n), "--out", str(tmp / "results"), "--jobs", str(jobs), "--quiet"]
        done = subprocess.run(cmd, cwd=code, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{code}: the run failed: {done.stderr.strip()}")
        found = re.findall(r"([0-9,]+) records in .* \(([0-9,]+) records/s\)", done.stdout)
        if not found:
            raise SystemExit(f"{code}: no final line in {done.stdout!r}")
        return float(found[-1][1].replace(",", ""))
    finally:
        shutil.rmtree(tmp)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", type=Path, required=True, help="a checkout of the other code")
    ap.add_argument("--games", default="lctr,downright")
    ap.add_argument("--n", type=int, default=76)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    codes = {"baseline": args.baseline.resolve(), "this": ROOT}
    for code in codes.values():  # compiles where needed, untimed
        run_rate(code, args.games, 12, args.jobs)
    rates: dict[str, list[float]] = {"baseline": [], "this": [], "naive": []}
    for round_ in range(args.rounds):
        order = list(codes) if round_ % 2 == 0 else list(codes)[::-1]
        for name in order:
            rates[name].append(run_rate(codes[name], args.games, args.n, args.jobs))
        rates["naive"].append(naive_rate(args.n))
        print(f"round {round_ + 1}: " + ", ".join(f"{k} {v[-1] / 1e6:.2f} M/s" for k, v in rates.items()),
              flush=True)
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"{args.games} n={args.n} jobs={args.jobs}, medians of {args.rounds} rounds: baseline "
          f"{med['baseline'] / 1e6:.2f} M records/s, this {med['this'] / 1e6:.2f} M records/s "
          f"(this / baseline {med['this'] / med['baseline']:.2f}); naive sg-only kernel "
          f"{med['naive'] / 1e6:.2f} M partitions/s: e2e / naive {med['baseline'] / med['naive']:.2f} "
          f"(baseline), {med['this'] / med['naive']:.2f} (this)")


if __name__ == "__main__":
    main()
