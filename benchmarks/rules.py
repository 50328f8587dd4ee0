"""Generic / bespoke solving time per record: the rules files of examples/ solved by the generic
solver (pipeline/games/generic.py) against the built-in kernels, on every partition of n.

    python benchmarks/rules.py --n 60 --games lctr,king

Each game is solved once before timing (numba compiles); the times are the solving's only, in
one shard of up to 2^18 records as a run cuts them, on one thread.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pipeline.games import get_game
from pipeline.games.generic import GenericGame
from pipeline.rules import load_rules_file

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SHARD = 1 << 18


def solve_all(game, n: int) -> tuple[int, float]:
    start = time.perf_counter()
    records = 0
    for s in range(game.shard_count(n, SHARD)):
        records += game.solve_shard(n, s, SHARD).num_rows
    return records, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--games", default="lctr,king")
    args = ap.parse_args()
    print(f"{'game':<10} {'n':>3} {'records':>9} {'bespoke µs/rec':>15} {'generic µs/rec':>15} {'ratio':>6}")
    for name in args.games.split(","):
        bespoke = get_game(name)
        generic = GenericGame(load_rules_file(EXAMPLES / f"{name}_rules.py")[0])
        solve_all(bespoke, 3)
        solve_all(generic, 3)
        records, t_b = solve_all(bespoke, args.n)
        _, t_g = solve_all(generic, args.n)
        print(f"{name:<10} {args.n:>3} {records:>9,} {1e6 * t_b / records:>15.2f} "
              f"{1e6 * t_g / records:>15.2f} {t_g / t_b:>6.1f}")


if __name__ == "__main__":
    main()
