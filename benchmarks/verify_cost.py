"""What `partgames verify` costs beside the run that wrote the store: the run's time, then verify's
time per statement and in total, its peak resident memory, and the ratios verify / run and
record statements (``needs: record`` / ``same n``) / run.

    python benchmarks/verify_cost.py --max-n 60                 # builds a store in a temp dir
    python benchmarks/verify_cost.py --store results --run-seconds 480   # an existing store
    python benchmarks/verify_cost.py --store results --baseline ../old --only chess.thm4_4 --only …

``--baseline DIR`` (a checkout of an earlier partgames, e.g. ``git worktree add ../old <commit>``)
times each ``--only`` statement alone with that checkout's code and with this one, alternating
(``python -m pipeline.cli`` with ``PYTHONPATH``: the store must be readable by both), and prints
before / after per statement.

Each command runs as a child process; its peak RSS is the children's ``ru_maxrss`` (one child at a
time, so the figure is that child's). Run it on a quiet machine: the figures are wall times.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: What --json keeps of each statement's result.
KEPT = ("id", "status", "rows", "min_n", "max_n", "counterexamples", "skipped", "seconds", "error")
PARTGAMES = [str(Path(sys.executable).parent / "partgames")]  # the environment's command


#: Runs its arguments as a child and prints the child's peak RSS (KiB) last on standard error: a
#: fresh process per measured command, so that ``RUSAGE_CHILDREN`` is that command's alone.
_WRAP = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:]); "
         "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
         "sys.exit(p.returncode)")


def _child(cmd: list[str], env: dict | None = None,
           cwd: Path | None = None) -> tuple[float, int, subprocess.CompletedProcess]:
    """Wall seconds and peak RSS (bytes) of one child process."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _WRAP, *cmd], capture_output=True, text=True, env=env,
                          cwd=cwd)
    seconds = time.perf_counter() - t0
    lines = proc.stderr.strip().splitlines()
    peak = int(lines[-1]) * 1024 if lines and lines[-1].isdigit() else 0
    return seconds, peak, proc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", default=None, help="an existing store (default: build one)")
    ap.add_argument("--games", default="lctr,downright")
    ap.add_argument("--max-n", type=int, default=40)
    ap.add_argument("--run-seconds", type=float, default=None,
                    help="the run's time, for a store given with --store")
    ap.add_argument("--only", action="append", default=None, help="statement ids or globs")
    ap.add_argument("--memory-limit", default=None)
    ap.add_argument("--json", default=None, help="write the figures here as JSON")
    ap.add_argument("--baseline", default=None, help="an earlier checkout: before/after per --only statement")
    ap.add_argument("--rounds", type=int, default=1, help="with --baseline: alternating rounds")
    ap.add_argument("--record-only", action="store_true",
                    help="only the record statements (needs: record / same n) of the papers on LCTR and "
                         "on the chess pieces (with --baseline: all of them in one verify, before and after)")
    args = ap.parse_args()
    if args.record_only:
        from pipeline.verify import load_catalogue

        args.only = [st.id for st in load_catalogue() if st.needs in ("record", "same n")
                     and st.id.startswith(("lctr1.", "lctr2.", "chess."))]
    if args.baseline:
        if not (args.store and args.only):
            sys.exit("--baseline needs --store and --only")
        groups = [args.only] if args.record_only else [[sid] for sid in args.only]
        before_after(Path(args.store), Path(args.baseline), groups, args.rounds, args.max_n)
        return

    tmp = None
    if args.store:
        store = Path(args.store)
        run_seconds, run_rss = args.run_seconds, None
    else:
        tmp = Path(tempfile.mkdtemp(prefix="verify-cost-"))
        store = tmp / "results"
        run_seconds, run_rss, proc = _child([*PARTGAMES, "run", "--games", args.games, "--max-n",
                                             str(args.max_n), "--out", str(store), "--quiet"])
        if proc.returncode:
            sys.exit(f"run failed: {proc.stderr.strip()}")
        print(f"run: {run_seconds:.1f} s, peak RSS {run_rss / 2**20:.0f} MiB", flush=True)
    try:
        cmd = [*PARTGAMES, "verify", "--results", str(store), "--format", "json", "--report", "-", "--quiet",
               "--max-n", str(args.max_n)]
        for pat in args.only or []:
            cmd += ["--only", pat]
        if args.memory_limit:
            cmd += ["--memory-limit", args.memory_limit]
        seconds, rss, proc = _child(cmd)
        if proc.returncode not in (0, 1):
            sys.exit(f"verify failed ({proc.returncode}): {proc.stderr.strip()}")
        results = json.loads(proc.stdout)
        from pipeline.verify import load_catalogue

        needs = {st.id: st.needs for st in load_catalogue()}
        record = sum(r["seconds"] for r in results if needs.get(r["id"]) in ("record", "same n"))
        for r in sorted(results, key=lambda r: -r["seconds"])[:15]:
            print(f"  {r['id']:<40} {needs.get(r['id'], '?'):<10} {r['status']:<8} {r['seconds']:8.1f} s")
        for r in results:
            if r.get("error"):
                print(f"  {r['id']}: error: {r['error']}")
        print(f"verify: {seconds:.1f} s wall ({len(results)} statements), record statements {record:.1f} s, "
              f"peak RSS {rss / 2**20:.0f} MiB")
        if run_seconds:
            print(f"verify / run = {seconds / run_seconds:.2f}; record statements / run = "
                  f"{record / run_seconds:.2f}")
        if args.json:
            Path(args.json).write_text(json.dumps({
                "run_seconds": run_seconds, "run_rss": run_rss, "verify_seconds": seconds,
                "verify_rss": rss, "record_seconds": record,
                "statements": {r["id"]: r["seconds"] for r in results},
                "results": [{k: r.get(k) for k in KEPT} for r in results]}, indent=1))
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def before_after(store: Path, baseline: Path, groups: list[list[str]], rounds: int, max_n: int) -> None:
    """Each group of statements (one statement, or all the record statements) in one verify with
    the baseline's code and with this checkout's, alternating; the baseline reads the statements
    of its own queries/ (those it lacks are left out of its verify)."""
    import os

    here = Path(__file__).resolve().parents[1]
    print(f"{'statement':<28} {'before s':>9} {'after s':>9} {'ratio':>7} {'before MiB':>11} "
          f"{'after MiB':>10}  (store {store}, n <= {max_n}; peak RSS, the most of the rounds)")
    for ids in groups:
        sid = ids[0] if len(ids) == 1 else f"{len(ids)} record statements"
        times: dict[str, list[float]] = {"before": [], "after": []}
        peaks = {"before": 0, "after": 0}
        for _ in range(rounds):
            for name, src in (("before", baseline), ("after", here)):
                env = dict(os.environ, PYTHONPATH=str(src.resolve()))
                cmd = [sys.executable, "-m", "pipeline.cli", "verify", "--results", str(store), "--quiet",
                       "--report", "-", "--format", "json", "--max-n", str(max_n)]
                for one in ids:
                    cmd += ["--only", one]
                seconds, rss, proc = _child(cmd, env, src)
                times[name].append(seconds)
                peaks[name] = max(peaks[name], rss)
                if proc.returncode not in (0, 1):
                    sys.exit(f"{name} {sid} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
        b, a = min(times["before"]), min(times["after"])
        print(f"{sid:<28} {b:9.1f} {a:9.1f} {b / a:7.1f} {peaks['before'] / 2**20:11.0f} "
              f"{peaks['after'] / 2**20:10.0f}", flush=True)


if __name__ == "__main__":
    main()
