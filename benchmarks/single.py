"""Throughput of the single-partition solver (family runs) beside the exhaustive kernel's.

For each game: the single-partition solver's cells per second on the members of a family of n
(the kernel alone, one thread, nothing written; a cell is one cell of a start partition's
diagram, so a partition of n is n cells), and the exhaustive kernel's records per second on one
shard of every partition of n (``solve_shard``, one thread, nothing written), with that rate
in cells per second (records × n) for comparison.

With ``--memory``: the solver's peak resident size on single large partitions (rows, hooks,
squares, staircases with the rook, queen and LCTR), each solved in a fresh process after a small
warm-up solve (which compiles or loads the kernel), as the peak resident size (``VmHWM``, reset
after the warm-up) less the resident size before the solve. Linux only.

With ``--before TREE`` (another checkout of the project): the same measurement of that checkout's
solver beside this one's, in the same run, each in a fresh process, alternating, and the ratio.

    .venv/bin/python benchmarks/single.py                         # hooks and rectangles, n = 2016
    .venv/bin/python benchmarks/single.py --family staircase --n 2016 --games rook,queen
    .venv/bin/python benchmarks/single.py --memory --before ../old-checkout
    .venv/bin/python benchmarks/single.py --before ../old-checkout --games rook,queen,king
"""

from __future__ import annotations

import argparse
import json
import subprocess
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


#: (game, partition description, partition) of the --memory measurement.
MEMORY_CASES = [
    ("rook", "row of 32,767", [32767]),
    ("queen", "hook (8000, 1^7999)", [8000] + [1] * 7999),
    ("queen", "square 120 x 120", [120] * 120),
    ("rook", "square 120 x 120", [120] * 120),
    ("lctr", "staircase S(180)", list(range(180, 0, -1))),
]

_MEASURE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
try:
    from pipeline.games.single_partition import solve_record
except ImportError:  # --before may name an older checkout, whose module is pipeline.games.single
    from pipeline.games.single import solve_record

def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024

game, parts = sys.argv[2], json.loads(sys.argv[3])
solve_record(game, [3, 2, 1])
with open("/proc/self/clear_refs", "w") as fh:  # the peak (VmHWM) restarts from here
    fh.write("5")
before = status("VmRSS")
t = time.perf_counter()
solve_record(game, parts)
seconds = time.perf_counter() - t
print(json.dumps([status("VmHWM") - before, seconds]))
"""


def peak_growth(root: Path, game: str, parts: list[int]) -> tuple[int, float]:
    """(bytes the peak resident size grows by, seconds) solving ``parts`` with the solver of the
    checkout ``root``, in a fresh process."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, str(root), game, json.dumps(parts)],
                         check=True, capture_output=True, text=True).stdout
    grown, seconds = json.loads(out.splitlines()[-1])
    return int(grown), float(seconds)


_RATE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pipeline.games.selection import SelectionGame, family_selection
game = SelectionGame(sys.argv[2], family_selection([sys.argv[3]]))
n, rounds = int(sys.argv[4]), int(sys.argv[5])
shards = game.shard_count(n, 1 << 30)
game.solve_shard(n, 0, 1 << 30)
best = float("inf")
for _ in range(rounds):
    t = time.perf_counter()
    for k in range(shards):
        game.solve_shard(n, k, 1 << 30)
    best = min(best, time.perf_counter() - t)
print(json.dumps(game.positions(n) * n / best))
"""


def compare_rates(games: list[str], families: list[str], n: int, rounds: int, before: Path) -> None:
    """Cells per second of this checkout's solver and ``before``'s, alternating, fresh processes."""
    print(f"{'game':<10} {'family':<12} {'n':>5} {'this Mcells/s':>14} {'before Mcells/s':>16} "
          f"{'this/before':>12}")
    for game in games:
        for family in families:
            rates = []
            for root in (ROOT, before.resolve()):
                out = subprocess.run([sys.executable, "-c", _RATE, str(root), game, family, str(n),
                                      str(rounds)], check=True, capture_output=True, text=True).stdout
                rates.append(float(out.splitlines()[-1]))
            print(f"{game:<10} {family:<12} {n:>5} {rates[0] / 1e6:>14.1f} {rates[1] / 1e6:>16.1f} "
                  f"{rates[0] / rates[1]:>12.2f}", flush=True)


def memory(before: Path | None) -> None:
    trees = [("this", ROOT)] + ([("before", before.resolve())] if before else [])
    print(f"{'game':<7} {'partition':<22} {'cells':>6} "
          + " ".join(f"{name + ' MB':>10} {name + ' B/cell':>12} {name + ' s':>9}" for name, _ in trees))
    for game, shown, parts in MEMORY_CASES:
        cols = []
        for _, root in trees:
            grown, seconds = peak_growth(root, game, parts)
            cols.append(f"{grown / 2**20:>10.1f} {grown / sum(parts):>12.0f} {seconds:>9.2f}")
        print(f"{game:<7} {shown:<22} {sum(parts):>6} " + " ".join(cols), flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default=",".join(BOARD_GAMES))
    p.add_argument("--family", default="hook,rectangle", help="families, each measured apart")
    p.add_argument("--n", type=int, default=2016, help="n of the family members (default 2016)")
    p.add_argument("--exhaustive-n", type=int, default=60, help="n of the exhaustive shard (default 60)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--memory", action="store_true", help="peak memory on large single partitions")
    p.add_argument("--before", type=Path, help="another checkout whose solver to measure beside this one's")
    args = p.parse_args()
    if args.memory:
        memory(args.before)
        return
    if args.before:
        compare_rates(args.games.split(","), args.family.split(","), args.n, args.rounds, args.before)
        return
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
