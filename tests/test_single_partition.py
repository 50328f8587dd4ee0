"""The single-partition solver (pipeline/games/single_partition.py) gives the exhaustive run's records.

Held to the exhaustive kernels (every partition of small n, and a seeded sample of partitions of
n ≤ 60 taken from small shards), to the plain-Python reference at larger n (tests/reference.py),
and to the closed forms the papers prove on rectangles.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest
import reference

from pipeline.games import BOARD_GAMES, get_game
from pipeline.games.single_partition import MAX_N, SolveError, parse_partition, solve_record, solve_table

USER_MOVESETS = ("{(1,3),(3,1)}", "{(0,2),(1,2)+}")
GAMES = BOARD_GAMES + USER_MOVESETS
#: Every partition of every n up to this is compared with the exhaustive kernel.
FULL_N = 16


def exhaustive(game: str, n: int, max_records: int = 1 << 30, shard: int = 0):
    return get_game(game).solve_shard(n, shard, max_records)


def differences(want, got) -> list[tuple]:
    """(parts, column, exhaustive, single) for every cell where two tables differ."""
    bad = []
    names = want.column_names
    assert got.column_names == names and want.num_rows == got.num_rows
    parts = want.column("parts").to_pylist()
    for name in names:
        for k, (a, b) in enumerate(zip(want.column(name).to_pylist(), got.column(name).to_pylist(),
                                       strict=True)):
            if a != b:
                bad.append((tuple(parts[k]), name, a, b))
    return bad


@pytest.mark.parametrize("game", GAMES)
def test_every_partition_equals_the_exhaustive_run(game: str) -> None:
    for n in range(1, FULL_N + 1):
        want = exhaustive(game, n)
        got = solve_table(game, want.column("parts").to_pylist())
        assert differences(want, got) == [], (game, n)


@pytest.mark.parametrize("game", GAMES)
def test_sampled_partitions_of_n_up_to_60_equal_the_exhaustive_run(game: str) -> None:
    """300 partitions: 30 from each of 10 n ≤ 60, taken from shards of at most 400 records
    chosen at random (a seeded sample), so the exhaustive side solves only those shards."""
    rng = random.Random(f"single {game}")
    for n in rng.sample(range(FULL_N + 1, 61), 10):
        shards = get_game(game).shard_count(n, 400)
        want = exhaustive(game, n, 400, rng.randrange(shards))
        rows = sorted(rng.sample(range(want.num_rows), min(30, want.num_rows)))
        want = want.take(rows)
        got = solve_table(game, want.column("parts").to_pylist())
        assert differences(want, got) == [], (game, n)


def families(max_n: int) -> list[tuple[int, ...]]:
    """Staircases, rectangles, hooks and generalized staircases of n ≤ max_n (a few of each)."""
    shapes = [tuple(range(k, 0, -1)) for k in range(1, 30) if k * (k + 1) // 2 <= max_n]
    shapes += [(c,) * r for r in (1, 2, 3, 7, 13) for c in (1, 5, 12, 21) if r * c <= max_n]
    shapes += [(c,) + (1,) * (r - 1) for r, c in ((40, 30), (2, 90), (60, 3))]
    shapes += [tuple(s * c for s in range(k, 0, -1) for _ in range(r))
               for k, r, c in ((3, 2, 4), (4, 3, 2), (2, 5, 6))]
    return [s for s in shapes if sum(s) <= max_n]


@pytest.mark.parametrize("game", reference.GAMES)
def test_large_families_equal_the_reference(game: str) -> None:
    """Staircases to S(24) (n = 300), rectangles to n = 273, hooks, G(k;r,c): the reference."""
    for parts in families(300):
        want = reference.board_record(game, parts)
        got = solve_record(game, parts)
        for column in reference.RECORD_KEYS:
            value = tuple(got[column]) if column == "conjugate" else got[column]
            expected = tuple(want[column]) if column == "conjugate" else want[column]
            assert value == expected, (game, parts, column)


def test_rook_rectangles_are_nim_and_queen_rectangles_wythoff() -> None:
    """docs/definitions.md §7: sg_Rook(R(r,c)) = (r−1) xor (c−1); Queen on R(r,c) is Wythoff
    W(r−1, c−1), a P-position iff a = ⌊(b − a)·φ⌋ for a ≤ b (queries/chess/sec3_6_wythoff.sql)."""
    phi = (1 + math.sqrt(5)) / 2
    # All r, c ≤ 32, and wide ones whose values need more than one 64-bit word of options.
    shapes = [(r, c) for r in range(1, 33) for c in range(1, 33)]
    shapes += [(r, c) for r in (1, 2, 5, 70) for c in (65, 100, 130)]
    for r, c in shapes:
        parts = (c,) * r
        assert solve_record("rook", parts)["sg"] == (r - 1) ^ (c - 1), (r, c)
        a, b = sorted((r - 1, c - 1))
        assert (solve_record("queen", parts)["sg"] == 0) == (a == math.floor((b - a) * phi)), (r, c)


def test_lctr_rectangles_follow_lemmas_5_to_8() -> None:
    """lctr-some-results.txt: Lemma 5 (rows, columns: 1 odd, 2 even), Lemma 6 ((n^2): 2 odd,
    0 even), Lemma 7 ((n^3): 0 odd, 1 even), Lemma 8 (m, n ≥ 3: (m + n) mod 2); all symmetric."""
    def expected(r: int, c: int) -> int:
        small, large = sorted((r, c))
        if small == 1:
            return 1 if large % 2 else 2
        if small == 2:
            return 2 if large % 2 else 0
        return (r + c) % 2

    for r in range(1, 45):
        for c in range(1, 45):
            assert solve_record("lctr", (c,) * r)["sg"] == expected(r, c), (r, c)


def test_counts_past_int64_are_null_and_states_exact() -> None:
    """Downright on R(40,40): nodes and leaves (C(78,39) plays) beyond 2^63 − 1 are NULL; LCTR
    on a rectangle reaches its rc sub-rectangles and () (docs/definitions.md §4)."""
    record = solve_record("downright", (40,) * 40)
    assert record["nodes"] is None and record["leaves"] is None
    assert solve_record("downright", (20,) * 20)["leaves"] == math.comb(38, 19)
    assert solve_record("lctr", (50,) * 60)["states"] == 50 * 60 + 1


def test_bad_input_is_one_line() -> None:
    for text, message in [("3,4", "non-increasing"), ("3,0", "positive"), ("3,x", "positive integers"),
                          ("", "positive integers"), (f"{MAX_N},1", f"beyond n={MAX_N}")]:
        with pytest.raises(SolveError, match=message):
            parse_partition(text)
    with pytest.raises(SolveError, match="not Slow SetNim"):
        solve_record("sn5_4", (2, 1))
    with pytest.raises(SolveError, match="one n"):
        solve_table("lctr", [(2,), (1,)])


def test_solve_command_and_sql_function(tmp_path) -> None:
    """`partgames solve` prints the solver's record; `sql` solves through `solve(game, parts)`."""
    import json

    def partgames(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True,
                              text=True, check=False)

    done = partgames("solve", "queen,{(1,3),(3,1)}", "9", "8", "8,8,8", "--format", "json")
    rows = json.loads(done.stdout)
    assert [r.pop("game") for r in rows] == ["queen", "moves_1.3_3.1"]
    assert rows == [solve_record("queen", (9, 8, 8, 8, 8)), solve_record("{(1,3),(3,1)}", (9, 8, 8, 8, 8))]
    assert (rows[0]["sg"], rows[0]["sg_misere"]) == (10, 0)  # docs/definitions.md §8.6
    bad = partgames("solve", "rook", "3,4")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "non-increasing" in bad.stderr
    store = tmp_path / "results"
    assert partgames("run", "--games", "lctr", "--max-n", "2", "--out", str(store), "--quiet").returncode == 0
    done = partgames("sql", "--results", str(store), "--format", "json",
                     "SELECT unnest(solve('king', [5, 5, 3, 2, 1]))")
    assert json.loads(done.stdout) == [solve_record("king", (5, 5, 3, 2, 1))]


_PEAK = """
import sys
from pipeline.games.single_partition import solve_record

def status(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024

solve_record(sys.argv[1], [3, 2, 1])  # the kernel loaded
with open("/proc/self/clear_refs", "w") as fh:  # the peak resident size restarts here
    fh.write("5")
before = status("VmRSS")
solve_record(sys.argv[1], [int(v) for v in sys.argv[2].split(",")])
print(status("VmHWM") - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self")
@pytest.mark.parametrize(("game", "parts", "cells"), [
    ("rook", f"{MAX_N}", MAX_N),                             # one long row: long lines, big values
    ("queen", ",".join(["8000"] + ["1"] * 7999), 15999),     # a hook: many one-cell lines
])
def test_memory_grows_with_the_cells(game: str, parts: str, cells: int) -> None:
    """Memory O(cells): the peak resident size grows by at most 1 kB a cell (the option bitsets
    kept one per cell and ray, each as wide as the largest value, would take 33 kB a cell on
    the row, 18 kB on the hook)."""
    grown = int(subprocess.run([sys.executable, "-c", _PEAK, game, parts], capture_output=True,
                               text=True, check=True).stdout)
    assert grown < 1024 * cells, (grown, cells)
