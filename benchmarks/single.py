"""Throughput of the single-partition solver (family runs) beside the exhaustive kernel's.

For each game: the single-partition solver's cells per second on the members of a family of n
(the kernel alone, one thread, nothing written; a cell is one cell of a start partition's
diagram, so a partition of n is n cells), and the exhaustive kernel's records per second on one
shard of every partition of n (``solve_shard``, one thread, nothing written), with that rate
in cells per second (records × n) for comparison.

    .venv/bin/python benchmarks/single.py                         # hooks and rectangles, n = 2016
    .venv/bin/python benchmarks/single.py --family staircase --n 2016 --games rook,queen
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.games import BOARD_GAMES, get_game  # noqa: E402
from pipeline.games.selection import SelectionGame, family_selection  # noqa: E402


def best_of(fn, rounds: int) -> float:
    """The shortest of ``rounds`` timings of ``fn()`` (the least disturbed by other work)."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def single_rate(game_id: str, family: str, n: int, rounds: int) -> tuple[int, float]:
    """(members, cells per second) of the single-partition solver on a family's members of n."""
    game = SelectionGame(game_id, family_selection([family]))
    shards = game.shard_count(n, 1 << 30)
    game.solve_shard(n, 0, 1 << 30)  # compile or load the kernel

    def solve() -> None:
        for k in range(shards):
            game.solve_shard(n, k, 1 << 30)

    return game.positions(n), game.positions(n) * n / best_of(solve, rounds)


def exhaustive_rate(game_id: str, n: int, rounds: int) -> float:
    """Records per second of the exhaustive kernel on the first shard of n (2^16 records)."""
    game = get_game(game_id)
    game.solve_shard(n, 0, 1 << 16)
    records = game.shard_records(n, 0, 1 << 16)
    return records / best_of(lambda: game.solve_shard(n, 0, 1 << 16), rounds)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default=",".join(BOARD_GAMES))
    p.add_argument("--family", default="hook,rectangle", help="families, each measured apart")
    p.add_argument("--n", type=int, default=2016, help="n of the family members (default 2016)")
    p.add_argument("--exhaustive-n", type=int, default=60, help="n of the exhaustive shard (default 60)")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    print(f"{'game':<10} {'family':<14} {'n':>5} {'members':>8} {'single Mcells/s':>16} "
          f"{'exhaustive n':>12} {'Mrecords/s':>10} {'Mcells/s':>9}")
    for game in args.games.split(","):
        ex = exhaustive_rate(game, args.exhaustive_n, args.rounds)
        for family in args.family.split(","):
            members, rate = single_rate(game, family, args.n, args.rounds)
            print(f"{game:<10} {family:<14} {args.n:>5} {members:>8} {rate / 1e6:>16.1f} "
                  f"{args.exhaustive_n:>12} {ex / 1e6:>10.2f} {ex * args.exhaustive_n / 1e6:>9.1f}",
                  flush=True)


if __name__ == "__main__":
    main()
