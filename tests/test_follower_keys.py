"""Integer keys of partitions and of a board game's followers (docs/records.md, "Shape and
keys"): ``part_key``, ``follower_keys`` and ``record_key``, and the follower statements that join
on them restricted to a chunk of subjects (``verify_subject``).

The reference is plain Python from docs/definitions.md §2: the moves of each board game, the
sub-partition λ[i,j] a move to cell (i, j) leaves, and the ordinal as the index of a partition
among those of its n sorted by their ascending parts.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from harness import partitions

from pipeline.games.features import KEY_SHIFT, follower_keys_arrow, partition_key_arrow
from pipeline.query import connect

#: docs/definitions.md §2.1-2.2: (steps, rays, exits) of each board game, written out here.
MOVES = {
    "lctr": ([(0, 1), (1, 0)], [], True),
    "downright": ([(0, 1), (1, 0)], [], False),
    "pawn": ([(0, 1), (1, 1)], [], False),
    "pawn_t": ([(1, 0), (1, 1)], [], False),
    "knight": ([(1, 2), (2, 1)], [], False),
    "bishop": ([], [(1, 1)], False),
    "king": ([(0, 1), (1, 0), (1, 1)], [], False),
    "rook": ([], [(0, 1), (1, 0)], False),
    "queen": ([], [(0, 1), (1, 0), (1, 1)], False),
    "moves_1.3_3.1": ([(1, 3), (3, 1)], [], False),
    "moves_1.2+": ([], [(1, 2)], False),
}
MAX_N = 15



ORDINAL = {p: k for n in range(MAX_N + 1)
           for k, p in enumerate(sorted(partitions(n), key=lambda q: tuple(reversed(q))))}


def key(p: tuple[int, ...]) -> int:
    return sum(p) << KEY_SHIFT | ORDINAL[p]


def cell(p: tuple[int, ...], i: int, j: int) -> bool:
    return i < len(p) and j < p[i]


def sub(p: tuple[int, ...], i: int, j: int) -> tuple[int, ...]:
    return tuple(x - j for x in p[i:] if x > j)


def followers(game: str, p: tuple[int, ...]) -> list[tuple[int, ...]]:
    """One entry per move: a step to an existing cell, or off the diagram into () for LCTR; a
    ray once per multiple k >= 1 whose cell exists."""
    steps, rays, exits = MOVES[game]
    out = []
    for a, b in steps:
        if cell(p, a, b):
            out.append(sub(p, a, b))
        elif exits:
            out.append(())
    for a, b in rays:
        k = 1
        while cell(p, k * a, k * b):
            out.append(sub(p, k * a, k * b))
            k += 1
    return out


def as_lists(ps: list[tuple[int, ...]]) -> pa.Array:
    return pa.array([list(p) for p in ps], pa.list_(pa.int16()))


@pytest.mark.parametrize("game", sorted(MOVES))
def test_follower_keys_are_the_followers_keys(game: str) -> None:
    ps = [p for n in range(1, MAX_N + 1) for p in partitions(n)]
    got = follower_keys_arrow(pa.array([game] * len(ps)), as_lists(ps)).to_pylist()
    for p, keys in zip(ps, got, strict=True):
        assert sorted(keys) == sorted(key(f) for f in followers(game, p)), (game, p)


def test_follower_keys_of_several_games_at_once() -> None:
    ps = [p for n in range(1, 9) for p in partitions(n)]
    games = [sorted(MOVES)[k % len(MOVES)] for k in range(len(ps))]
    got = follower_keys_arrow(pa.chunked_array([pa.array(games)]), pa.chunked_array([as_lists(ps)]))
    for g, p, keys in zip(games, ps, got.to_pylist(), strict=True):
        assert sorted(keys) == sorted(key(f) for f in followers(g, p)), (g, p)


def test_part_key() -> None:
    ps = [p for n in range(0, MAX_N + 1) for p in partitions(n)]
    assert partition_key_arrow(as_lists(ps)).to_pylist() == [key(p) for p in ps]
    # not partitions: increasing, a zero, a negative part, NULL
    bad = pa.array([[1, 2], [2, 0], [-1], None], pa.list_(pa.int16()))
    assert partition_key_arrow(bad).to_pylist() == [None] * 4


def test_sql_functions_on_a_real_run(small_store: Path) -> None:
    con = connect(small_store, on_damage=lambda line: None)
    # follower_keys agrees with the macro board_followers (through part_keys) on every record
    row = con.execute("""
        SELECT count(*), count(*) FILTER (
            list_sort(follower_keys(game, parts))
            IS DISTINCT FROM list_sort(part_keys(board_followers(parts, moveset(game)))))
        FROM records WHERE moveset(game) IS NOT NULL""").fetchone()
    assert row[0] > 4_000 and row[1] == 0
    assert con.execute("SELECT part_key([2, 1]::SMALLINT[]) = record_key(3, 1)").fetchone()[0]


def _consistency(con: duckdb.DuckDBPyConnection, game: str, lo: int | None, hi: int | None) -> list:
    for name, value in (("subject_min_n", lo), ("subject_max_n", hi)):
        if value is None:
            con.execute(f"RESET VARIABLE {name}")
        else:
            con.execute(f"SET VARIABLE {name} = {value}")
    return con.execute(f"SELECT n, parts, wrong FROM board_consistency('{game}')").fetchall()


@pytest.mark.parametrize("game", ["king", "rook", "lctr"])
def test_consistency_by_chunks_of_subjects(small_store: Path, plant, game: str) -> None:
    con = connect(small_store, on_damage=lambda line: None)
    # every chunk of subjects holds on a sound store: the followers' records and, for
    # returnable, their own moves are read below the chunk
    for lo, hi in ((None, None), (1, 5), (6, 10), (11, 14), (14, 14)):
        assert _consistency(con, game, lo, hi) == [], (lo, hi)
    store = plant(small_store, game, [4, 3, 2, 1], sg=9)
    con = connect(store, on_damage=lambda line: None)
    assert [r[1] for r in _consistency(con, game, None, None)] == [[4, 3, 2, 1]]
    assert [r[1] for r in _consistency(con, game, 10, 10)] == [[4, 3, 2, 1]]
    assert _consistency(con, game, 1, 9) == []
    assert [r[1] for r in _consistency(con, game, 9, 11)] == [[4, 3, 2, 1]]
