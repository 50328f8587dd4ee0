"""Slow SetNim SN(s, A) (docs/definitions.md §2.3): every record of the pipeline equals the plain-Python
reference.

The store is built by the real `run` (numba kernel, Arrow, Parquet, DuckDB views) and the expected
records by tests/reference.py (`slownim_record`), which shares no code with pipeline/. Also: the
comparison catches a planted error, bad ids are rejected, node counts beyond 2^63 − 1 are NULL
(checked against an exact big-integer count), and the two exact ``states`` methods of the kernel
agree with each other.
"""

from __future__ import annotations

import re
import shutil
import threading
import time
from functools import cache
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import reference
from conftest import recommit

from pipeline.games import GameError, get_game
from pipeline.games.slownim import SlowNimError, SlowNimGame
from pipeline.query import connect
from pipeline.runner import run

#: Every column of SLOWNIM_SCHEMA but the key (n, parts).
COLUMNS = (
    "sg", "sg_misere", "nodes", "leaves", "states", "height",
    "domestic", "tame", "pet", "miserable", "forced", "returnable",
    "num_parts", "largest", "durfee", "rank", "distinct_sizes", "conjugate",
    "stacks", "moves", "reduced", "reduced_parts", "odd_stacks", "sum_mod",
)  # fmt: skip
#: (s, A) compared record by record for N ≤ MAX_N.
GAMES = [(1, (1,)), (3, (3,)), (4, (1, 2, 3, 4)), (4, (2, 3)), (5, (4,)), (3, (2,)), (6, (2,)),
         (2, (1, 2)), (4, (3, 4))]
MAX_N = 12
INT64_MAX = 2**63 - 1


def game_id(s: int, moves: tuple[int, ...]) -> str:
    return f"sn{s}_{'-'.join(map(str, moves))}"


def starts(s: int, n: int) -> list[tuple[int, ...]]:
    """The starts of total n (docs/definitions.md §6): partitions of n into at most s parts."""
    return [p for p in reference.partitions(n) if len(p) <= s]


def mismatches(store: Path, s: int, moves: tuple[int, ...], max_n: int) -> list[tuple]:
    """(parts, column, stored, expected) for every difference; missing and extra records too."""
    con = connect(store)
    gid = game_id(s, moves)
    got: dict[tuple[int, ...], tuple] = {}
    query = f'SELECT n, parts, {", ".join(COLUMNS)} FROM "{gid}" WHERE n <= {max_n}'
    for row in con.execute(query).fetchall():
        key = tuple(row[1])
        if key in got or row[0] != sum(key):
            return [(key, "<duplicate or wrong n>", row[0], None)]
        got[key] = row[2:]
    bad = []
    for n in range(1, max_n + 1):
        for parts in starts(s, n):
            row = got.pop(parts, None)
            if row is None:
                bad.append((parts, "<missing>", None, None))
                continue
            exp = reference.slownim_record(s, moves, parts)
            for col, value in zip(COLUMNS, row, strict=True):
                want = exp[col]
                if isinstance(value, list):
                    value, want = tuple(value), tuple(want)
                if value != want:
                    bad.append((parts, col, value, want))
    bad += [(parts, "<extra>", None, None) for parts in got]
    return bad


@pytest.fixture(scope="module")
def sn_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sn") / "results"
    # two solver threads, with one Slow SetNim chain at a time (runner._shards_of)
    run([game_id(s, a) for s, a in GAMES], max_n=MAX_N, out=str(root), jobs=2, progress=False)
    return root


@pytest.mark.parametrize(("s", "moves"), GAMES, ids=[game_id(s, a) for s, a in GAMES])
def test_every_record_equals_reference(sn_store: Path, s: int, moves: tuple[int, ...]) -> None:
    assert mismatches(sn_store, s, moves, MAX_N) == []


def test_small_shards_give_the_same_records(sn_store: Path, tmp_path: Path) -> None:
    """Cutting N's starts into shards of 5 records changes nothing but the files."""
    root = tmp_path / "results"
    games = ["sn6_2", "sn4_1-2-3-4"]
    run(games, max_n=MAX_N, out=str(root), jobs=1, progress=False, max_records=5)
    assert len(list((root / "game=sn6_2" / f"n={MAX_N}").glob("*.parquet"))) > 1
    for gid in games:
        q = f'SELECT * FROM "{gid}" ORDER BY n, parts'
        assert connect(root).sql(q).to_arrow_table() == connect(sn_store).sql(q).to_arrow_table()


def test_comparison_catches_a_planted_error(sn_store: Path, tmp_path: Path) -> None:
    """The comparison can fail: one wrong value in one Parquet record is reported, and only it."""
    planted = tmp_path / "results"
    shutil.copytree(sn_store, planted)
    target, column = (3, 2, 2), "states"
    hits = 0
    for f in (planted / "game=sn4_2-3" / "n=7").glob("*.parquet"):
        table = pq.read_table(f)
        rows = table.to_pylist()
        for row in rows:
            if tuple(row["parts"]) == target:
                row[column] += 1
                hits += 1
        pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), f)
    recommit(planted / "game=sn4_2-3" / "n=7")
    assert hits == 1
    bad = mismatches(planted, 4, (2, 3), 8)
    assert [(b[0], b[1]) for b in bad] == [(target, column)]
    assert bad[0][2] == bad[0][3] + 1


@pytest.mark.parametrize(
    "text",
    ["sn5_", "sn5", "sn_4", "sn0_1", "sn3_4", "sn3_0", "sn3_2-2", "sn3_1--2", "sn3_a", "sn31_1", "sn3_-1"],
)
def test_bad_ids_rejected(text: str) -> None:
    with pytest.raises(SlowNimError):
        SlowNimGame.parse(text)
    with pytest.raises(GameError) as err:
        get_game(text)
    assert "\n" not in str(err.value) and text in str(err.value)


def test_ids_are_canonical() -> None:
    assert SlowNimGame.parse("sn9_9-8").game_id == "sn9_8-9"
    assert get_game(" sn3_3-1-2 ").game_id == "sn3_1-2-3"
    game = SlowNimGame.parse("sn30_30")
    assert (game.stacks, game.moves, game.parallel) == (30, (30,), False)


@pytest.mark.parametrize("s", [1, 2, 3, 5, 9])
def test_positions_are_partitions_into_at_most_s_parts(s: int) -> None:
    game = SlowNimGame.parse(f"sn{s}_1")
    assert [game.positions(n) for n in range(16)] == [len(starts(s, n)) for n in range(16)]


def test_shard_count_bounds_records() -> None:
    game = SlowNimGame.parse("sn9_8-9")
    assert game.positions(60) == 132751
    assert game.shard_count(60, 1 << 18) == 1
    assert game.shard_count(60, 10_000) == 14
    sizes = [game.solve_shard(30, k, 100).num_rows for k in range(game.shard_count(30, 100))]
    assert max(sizes) <= 100 and sum(sizes) == game.positions(30)


# ------------------------------------------------------------------------------------------------
# Counts beyond 2^63 − 1 (docs/definitions.md §4)
# ------------------------------------------------------------------------------------------------
@cache
def big_counts(moves: tuple[int, ...], x: tuple[int, ...]) -> tuple[int, int]:
    """(nodes, leaves) of the game tree of x, exact Python integers: one edge per distinct multiset
    (reference.slownim_moves), nodes = 1 + Σ nodes(options), leaves = Σ leaves(options) or 1."""
    opts = reference.slownim_moves(x, moves)
    if not opts:
        return 1, 1
    counts = [big_counts(moves, y) for y in opts]
    return 1 + sum(c[0] for c in counts), sum(c[1] for c in counts)


def test_counts_beyond_int64_are_null(tmp_path: Path) -> None:
    """SN(3,{1,2,3}) first exceeds 2^63 − 1 at N = 38: those nodes are NULL, the others exact."""
    s, moves, n = 3, (1, 2, 3), 38
    root = tmp_path / "results"
    run([game_id(s, moves)], min_n=n - 1, max_n=n, out=str(root), jobs=1, progress=False)
    con = connect(root)
    rows = con.execute(f'SELECT n, parts, nodes, leaves FROM "{game_id(s, moves)}"').fetchall()
    assert len(rows) == len(starts(s, n - 1)) + len(starts(s, n))
    beyond = 0
    for _, parts, nodes, leaves in rows:
        x = tuple(parts) + (0,) * (s - len(parts))
        want_nodes, want_leaves = big_counts(moves, x)
        assert nodes == (want_nodes if want_nodes <= INT64_MAX else None), parts
        assert leaves == (want_leaves if want_leaves <= INT64_MAX else None), parts
        beyond += want_nodes > INT64_MAX
    assert beyond > 0 and all(r[2] is not None for r in rows if r[0] == n - 1)


# ------------------------------------------------------------------------------------------------
# The two exact states methods of the kernel agree
# ------------------------------------------------------------------------------------------------
def test_states_union_agrees_with_dominated_count() -> None:
    """With 1 ∈ A the kernel counts states as the positions dominated by x (a closed count); the
    general method (a union of reachable sets, 64 starts per word, several blocks) must agree."""
    game = SlowNimGame.parse("sn4_1-2-3-4")
    n = 30
    shards = range(game.shard_count(n, 50))
    direct = np.concatenate([game.solve_shard(n, k, 50)["states"].to_numpy() for k in shards])
    for words in (1, 2):
        union = game.states_by_union(n, words)
        assert game.positions(n) > 2 * 64 * words  # several blocks
        assert (union == direct).all()


def test_option_lists_beyond_the_memory_bound_stop_the_run_cleanly(tmp_path: Path, monkeypatch) -> None:
    """Bounded memory (docs/performance.md): a game whose option lists would pass MAX_EDGES stops
    with a one-line error naming the total to rerun with, and a rerun with that --max-n completes
    the store."""
    from pipeline.games import slownim

    # a game solved earlier in this process keeps its longer option lists: solved afresh here,
    # and none kept for the tests after this one
    slownim.forget_solved()
    monkeypatch.setattr(slownim, "MAX_EDGES", 600)
    root = tmp_path / "results"
    try:
        with pytest.raises(SlowNimError, match=r"rerun with --max-n (\d+)") as info:
            run(["sn4_2-3"], max_n=20, out=str(root), jobs=1, progress=False)
        assert "\n" not in str(info.value)
        top = int(re.search(r"--max-n (\d+)", str(info.value)).group(1))
        assert 5 < top < 20
        summary = run(["sn4_2-3"], max_n=top, out=str(root), jobs=1, progress=False)
    finally:
        slownim.forget_solved()
    assert connect(root).execute('SELECT max(n), count(*) FROM "sn4_2-3"').fetchone() == (
        top, sum(SlowNimGame.parse("sn4_2-3").positions(n) for n in range(1, top + 1)))
    assert summary.jobs_done + summary.jobs_skipped == top


def test_one_slow_setnim_game_at_a_time_beside_board_games(tmp_path: Path, monkeypatch) -> None:
    """Bounded memory (docs/performance.md): a Slow SetNim game's memory is bounded per game, so a
    run solves one such game at a time, and a thread that finds one running takes board-game shards instead of
    waiting (each Slow SetNim shard here waits until a board-game shard is done)."""
    from pipeline.games.moveset import MovesetGame

    guard = threading.Lock()
    active: set[str] = set()
    most = [0]
    board_done = threading.Event()
    real_sn, real_board = SlowNimGame.solve_shard, MovesetGame.solve_shard

    def sn(self, n: int, shard: int, max_records: int):
        if not board_done.wait(30):
            raise AssertionError("no board-game shard was solved while a Slow SetNim game ran")
        with guard:
            active.add(self.game_id)
            most[0] = max(most[0], len(active))
        time.sleep(0.005)  # widen the window in which a second game could start
        try:
            return real_sn(self, n, shard, max_records)
        finally:
            with guard:
                active.discard(self.game_id)

    def board(self, n: int, shard: int, max_records: int):
        table = real_board(self, n, shard, max_records)
        board_done.set()
        return table

    monkeypatch.setattr(SlowNimGame, "solve_shard", sn)
    monkeypatch.setattr(MovesetGame, "solve_shard", board)
    summary = run(["sn4_2-3", "sn6_2", "sn5_4", "king"], max_n=22, out=str(tmp_path / "results"),
                  jobs=2, progress=False, max_records=20)
    assert summary.jobs_done == 4 * 22
    assert most[0] == 1, "two Slow SetNim games were solved at the same time"
