"""The README's main command (``partgames run``: the nine board games, n <= 30) on a fresh
numba cache ("cold": the first run after installing, compiling its kernels) and on the cache the
cold run left ("cached"), alternating rounds, each in a fresh store. Prints the wall time of
each, the compiling the run reports, and the rate of its final line.

    python benchmarks/first_run.py --rounds 2
    python benchmarks/first_run.py --rounds 2 --baseline /tmp/partgames-main

``--baseline`` (a checkout of other code, e.g. ``git archive main | tar -x -C DIR``) runs that
code's command the same way, alternating with this checkout's in each round.
The cache is a temporary ``$XDG_CACHE_HOME`` (pipeline/__init__.py keeps numba's cache there),
so the user's own cache is neither used nor touched.
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
import time
from pathlib import Path

COMMAND = [sys.executable, "-c", "import sys; from pipeline.cli import main; sys.exit(main())",
           "run"]


def one(cache: Path, scratch: Path, code: Path | None) -> tuple[float, float, str]:
    """(wall seconds, seconds of compiling said, final line) of the main command, run by this
    checkout's code or by ``code``'s."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "PYTHONPATH")}
    env["XDG_CACHE_HOME"] = str(cache)
    if code is not None:
        env["PYTHONPATH"] = str(code)  # ahead of the editable install's finder
    out = scratch / "results"
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    done = subprocess.run(COMMAND + ["--out", str(out), "--quiet"], env=env, capture_output=True,
                          text=True, check=True, cwd=scratch)
    wall = time.perf_counter() - start
    compiled = re.search(r"kernels compiled in ([\d.]+) s", done.stderr)
    return wall, float(compiled.group(1)) if compiled else 0.0, done.stdout.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--baseline", type=Path, help="a checkout of other code to compare with")
    args = ap.parse_args()
    codes = {"": None} if args.baseline is None else {"": None, "baseline ": args.baseline.resolve()}
    rows: dict[str, list[tuple[float, float, str]]] = {}
    with tempfile.TemporaryDirectory(prefix="partgames-first-run-") as tmp:
        scratch = Path(tmp)
        for round_ in range(args.rounds):
            order = list(codes.items())
            for label, code in order[::-1] if round_ % 2 else order:  # alternating who goes first
                cache = scratch / f"cache-{round_}-{label.strip() or 'this'}"
                # a fresh cache (compiles), then the cache the cold run left
                rows.setdefault(f"{label}cold", []).append(one(cache, scratch, code))
                rows.setdefault(f"{label}cached", []).append(one(cache, scratch, code))
    print(f"{'':16}{'wall s (median)':>16}{'compiling s':>13}  final line's rate (last round)")
    for name, runs in rows.items():
        rate = re.search(r"\(([\d,]+ records/s)\)", runs[-1][2])
        print(f"{name:16}{statistics.median(r[0] for r in runs):>16.1f}"
              f"{statistics.median(r[1] for r in runs):>13.1f}  {rate.group(1) if rate else '?'}"
              f"   walls: {', '.join(f'{r[0]:.1f}' for r in runs)}")
    print(f"machine: {os.cpu_count()} cores; command: partgames run (README)")


if __name__ == "__main__":
    main()
