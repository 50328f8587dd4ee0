"""A shard's summary by this checkout's :func:`pipeline.summaries.summarize_table` against
another checkout's (``--baseline``: e.g. ``git archive main | tar -x -C DIR``), alternating in
one process on the same solved shard, after checking that both give the same summary.

    python benchmarks/summary_ab.py --baseline /tmp/partgames-main --rounds 15

Prints ns per record (median and minimum of the rounds) for each game and n.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

from numba.core.caching import NullCache
from numba.core.dispatcher import Dispatcher

from pipeline import summaries
from pipeline.games import get_game
from pipeline.runner import MAX_SHARD_RECORDS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", type=Path, required=True, help="a checkout of other code")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--cases", default="lctr:100,queen:60", help="game:n,...")
    args = ap.parse_args()
    spec = importlib.util.spec_from_file_location(
        "baseline_summaries", args.baseline / "pipeline" / "summaries.py")
    assert spec is not None and spec.loader is not None
    baseline = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = baseline
    spec.loader.exec_module(baseline)
    for value in vars(baseline).values():  # compiled afresh: numba's cache is by file, not module
        if isinstance(value, Dispatcher):
            value._cache = NullCache()
    print(f"{'game':8}{'n':>5}{'records':>10}{'baseline ns':>14}{'this ns':>10}{'this/baseline':>15}")
    for case in args.cases.split(","):
        game, n = case.split(":")
        table = get_game(game).solve_shard(int(n), 0, MAX_SHARD_RECORDS)
        records = table.num_rows
        if summaries.summarize_table(table) != baseline.summarize_table(table):
            raise SystemExit(f"{game} n={n}: the two summaries differ")
        times: dict[str, list[float]] = {"baseline": [], "this": []}
        for round_ in range(args.rounds):
            order = [("baseline", baseline.summarize_table), ("this", summaries.summarize_table)]
            for name, summarize in order[::-1] if round_ % 2 else order:
                start = time.perf_counter()
                summarize(table)
                times[name].append((time.perf_counter() - start) / records * 1e9)
        old, new = statistics.median(times["baseline"]), statistics.median(times["this"])
        print(f"{game:8}{n:>5}{records:>10,}{old:>14.1f}{new:>10.1f}{new / old:>15.2f}"
              f"   (minima {min(times['baseline']):.1f} / {min(times['this']):.1f})")


if __name__ == "__main__":
    main()
