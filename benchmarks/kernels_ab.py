"""Kernel rates of this checkout against another (a change before and after), alternating.

Each measurement is a fresh process of one checkout solving every shard of n for a game (the
solver alone, Arrow table included, nothing written), best of ``--inner``; the rate is records per
second of the solving thread's CPU time, which other processes on a loaded machine move less than
wall time. Rounds alternate which checkout goes first. ``pair`` is LCTR and Downright solved in
one walk (records of both games). Any game id is a case: the default cases are every kernel of
the board games (the lean LCTR / Downright kernel, the pair, the general moveset kernel with
steps and with rays), the non-repetitive kernel (``lctr_nr``, ``downright_nr``) and
d-dimensional LCTR (``lctr_d3``).

    git worktree add --detach /tmp/before <commit>
    nice -n 10 .venv/bin/python benchmarks/kernels_ab.py --before /tmp/before --rounds 6
    nice -n 10 .venv/bin/python benchmarks/kernels_ab.py --before /tmp/before \\
        --cases lctr:66,downright:66,pair:66,king:60,knight:60,queen:56,sn5_4:40 --rounds 6
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Every kernel of the walk over partitions, and d-dimensional LCTR's.
DEFAULT_CASES = ("lctr:66,downright:66,pair:66,king:60,knight:60,queen:56,"
                 "lctr_nr:50,downright_nr:50,lctr_d3:20")

_MEASURE = r'''
import sys, time, json
sys.path.insert(0, "benchmarks")
import bench  # the checkout's own: its allocators, as a run's
from pipeline.games import get_game
what, n, inner = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def rate():
    if what == "pair":
        lctr, downright = get_game("lctr"), get_game("downright")
        lctr.solve_shard_with(downright, 12, 0, 1 << 18)  # compile or load the cache
        shards = lctr.shard_count(n, 1 << 18)
        t = time.thread_time()
        records = 2 * sum(lctr.solve_shard_with(downright, n, k, 1 << 18)[0].num_rows
                          for k in range(shards))
    else:
        game = get_game(what)
        game.solve_shard(n, 0, 64)  # compile or load the kernel (the form of n's steps)
        shards = game.shard_count(n, 1 << 18)
        t = time.thread_time()
        records = sum(game.solve_shard(n, k, 1 << 18).num_rows for k in range(shards))
    return records / (time.thread_time() - t)
print(json.dumps(max(rate() for _ in range(inner))))
'''


def measure(tree: Path, what: str, n: int, inner: int) -> float:
    done = subprocess.run([sys.executable, "-c", _MEASURE, what, str(n), str(inner)], cwd=tree,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="the other checkout")
    ap.add_argument("--cases", default=DEFAULT_CASES,
                    help="game:n, comma separated (game 'pair': LCTR and Downright in one walk)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--inner", type=int, default=3)
    args = ap.parse_args()
    trees = {"before": args.before.resolve(), "after": ROOT}
    cases = [(w, int(n)) for w, n in (c.split(":") for c in args.cases.split(","))]
    for tree in trees.values():  # compile or load each checkout's kernels first
        for what, _ in cases:
            measure(tree, what, 12, 1)
    rates: dict[tuple[str, int], dict[str, list[float]]] = {c: {"before": [], "after": []} for c in cases}
    for r in range(args.rounds):
        for what, n in cases:
            for name in (("before", "after") if r % 2 == 0 else ("after", "before")):
                rates[(what, n)][name].append(measure(trees[name], what, n, args.inner))
            b, a = rates[(what, n)]["before"][-1], rates[(what, n)]["after"][-1]
            print(f"round {r + 1} {what} n={n}: before {b / 1e6:.3f} M/s, after {a / 1e6:.3f} M/s, "
                  f"after/before {a / b:.3f}", flush=True)
    for (what, n), got in rates.items():
        ratios = [a / b for a, b in zip(got["after"], got["before"], strict=True)]
        print(f"{what} n={n}: after/before per round {', '.join(f'{x:.3f}' for x in ratios)}; "
              f"median {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
