"""Generic / bespoke solving time per record: the rules files of examples/ solved by the generic
solver (pipeline/games/generic.py) against the built-in kernels, side by side in one process.

    nice -n 10 .venv/bin/python benchmarks/rules.py --cases lctr:60,king:60,rook:60,sn4_3:60 --rounds 5

A case is ``GAME:N``, GAME a built-in id whose rules file is in examples/ (:data:`RULES_FILES`):
every start of n (every partition of n; SN(4,{3}): every partition into at most 4 parts) solved
in the shards a run cuts (up to 2^18 records), the Arrow table included, nothing written. Each
solver solves a small n first (numba compiles or loads its cache). Then ``--rounds`` rounds,
each timing every case's two solvers, the bespoke first in even rounds and the generic first
in odd ones, so that a change of the machine's load falls on both. The time is the solving
thread's CPU time (``time.thread_time``), which other processes on a loaded machine move less
than wall time; the report gives each solver's median and best µs per record over the rounds,
and the ratio of the medians (the issue's aim: within 5× at n = 60 for LCTR and King).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from pipeline.games import get_game
from pipeline.games.generic import GenericGame
from pipeline.rules import load_rules_file

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SHARD = 1 << 18
#: The built-in game each rules file of examples/ equals (tests/test_rules.py).
RULES_FILES = {"lctr": "lctr_rules.py", "downright": "downright_rules.py", "king": "king_rules.py",
               "rook": "rook_rules.py", "sn4_3": "slownim_4_3_rules.py"}
WARM_N = 8


def solve_all(game, n: int) -> tuple[int, float]:
    """(records, CPU seconds of this thread) of every shard of n."""
    start = time.thread_time()
    records = 0
    for s in range(game.shard_count(n, SHARD)):
        records += game.solve_shard(n, s, SHARD).num_rows
    return records, time.thread_time() - start


def parse_cases(text: str) -> list[tuple[str, int]]:
    """``lctr:60,king:60`` as [("lctr", 60), ("king", 60)].

    >>> parse_cases("lctr:60, sn4_3:40")
    [('lctr', 60), ('sn4_3', 40)]
    """
    cases = []
    for item in text.split(","):
        game, _, n = item.strip().partition(":")
        if game not in RULES_FILES or not n.isdigit() or int(n) < 1:
            raise SystemExit(f"rules.py: bad case {item.strip()!r}: GAME:N with GAME one of "
                             f"{', '.join(RULES_FILES)} and N >= 1")
        cases.append((game, int(n)))
    return cases


def measure(cases: list[tuple[str, int]], rounds: int) -> list[dict]:
    """Per case: the records and each solver's µs per record in every round."""
    solvers = {}
    for game, _ in cases:
        if game not in solvers:
            bespoke = get_game(game)
            generic = GenericGame(load_rules_file(EXAMPLES / RULES_FILES[game])[0])
            solve_all(bespoke, WARM_N)
            solve_all(generic, WARM_N)
            solvers[game] = {"bespoke": bespoke, "generic": generic}
    out = [{"game": g, "n": n, "records": None, "bespoke": [], "generic": []} for g, n in cases]
    for r in range(rounds):
        for case in out:
            order = ("bespoke", "generic") if r % 2 == 0 else ("generic", "bespoke")
            for kind in order:
                records, seconds = solve_all(solvers[case["game"]][kind], case["n"])
                if case["records"] not in (None, records):
                    raise SystemExit(f"{case['game']} n={case['n']}: {records} records by the "
                                     f"{kind} solver, {case['records']} by the other")
                case["records"] = records
                case[kind].append(1e6 * seconds / records)
    for case in out:
        case["ratio"] = statistics.median(case["generic"]) / statistics.median(case["bespoke"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default="lctr:60,king:60,rook:60,sn4_3:60",
                    help="GAME:N,... (default lctr:60,king:60,rook:60,sn4_3:60)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--json", default=None, metavar="FILE", help="also write the times as JSON")
    args = ap.parse_args()
    results = measure(parse_cases(args.cases), max(1, args.rounds))
    print(f"{'game':<10} {'n':>3} {'records':>9} {'bespoke µs/rec':>20} {'generic µs/rec':>20} "
          f"{'ratio':>6}   (CPU, median (best) of {max(1, args.rounds)} alternating rounds)")
    for c in results:
        b = f"{statistics.median(c['bespoke']):.3f} ({min(c['bespoke']):.3f})"
        g = f"{statistics.median(c['generic']):.3f} ({min(c['generic']):.3f})"
        print(f"{c['game']:<10} {c['n']:>3} {c['records']:>9,} {b:>20} {g:>20} {c['ratio']:>6.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
