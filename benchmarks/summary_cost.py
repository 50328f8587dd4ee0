"""What a shard's summary costs beside solving it: the time of
:func:`pipeline.summaries.summarize_table` on a solved shard against the kernel's time for the
same shard, alternating, in one process.

    python benchmarks/summary_cost.py --game lctr --n 100 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time

from pipeline.games import get_game
from pipeline.runner import MAX_SHARD_RECORDS
from pipeline.summaries import summarize_table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="lctr")
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--shard", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    game = get_game(args.game)
    table = game.solve_shard(args.n, args.shard, MAX_SHARD_RECORDS)  # compiles
    summarize_table(table)
    solve, summarise = [], []
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        table = game.solve_shard(args.n, args.shard, MAX_SHARD_RECORDS)
        t1 = time.perf_counter()
        summarize_table(table)
        t2 = time.perf_counter()
        solve.append(t1 - t0)
        summarise.append(t2 - t1)
    records = table.num_rows
    s, m = statistics.median(solve), statistics.median(summarise)
    print(f"{args.game} n={args.n} shard {args.shard}: {records:,} records; solve {s * 1e9 / records:.0f} "
          f"ns/record, summary {m * 1e9 / records:.0f} ns/record (medians of {args.rounds}); "
          f"summary / solve = {m / s:.2f}")


if __name__ == "__main__":
    main()
