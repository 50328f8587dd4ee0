"""Every record of the pipeline equals the plain-Python reference, column by column.

The store is built by the real `run` (kernel, Arrow conversion, Parquet, DuckDB views), and the
expected values by tests/reference.py, which shares no code with pipeline/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import reference

from pipeline.games import BOARD_GAMES, get_game
from pipeline.query import connect
from pipeline.runner import run

COLUMNS = (
    "sg", "sg_misere", "nodes", "leaves", "states", "height",
    "domestic", "tame", "pet", "miserable", "forced", "returnable",
    "num_parts", "largest", "durfee", "rank", "distinct_sizes", "conjugate",
)
#: n bound of the full comparison per game: n ≤ 14 for LCTR and Downright, n ≤ 12 for the others.
BOUND = {g: (14 if g in ("lctr", "downright") else 12) for g in BOARD_GAMES}


def mismatches(store: Path, game: str, max_n: int, record_fn) -> list[tuple]:
    """(parts, column, stored, expected) for every difference; also missing/extra records."""
    con = connect(store)
    got = {
        tuple(r[0]): r
        for r in con.execute(
            f"SELECT parts, {', '.join(COLUMNS)} FROM \"{game}\" WHERE n <= {max_n}"
        ).fetchall()
    }
    bad = []
    for n in range(1, max_n + 1):
        for parts in reference.partitions(n):
            row = got.pop(tuple(parts), None)
            if row is None:
                bad.append((parts, "<missing>", None, None))
                continue
            exp = record_fn(parts)
            for col, value in zip(COLUMNS, row[1:], strict=True):
                want = exp[col]
                if col == "conjugate":
                    value, want = tuple(value), tuple(want)
                if value != want:
                    bad.append((parts, col, value, want))
    bad += [(parts, "<extra>", None, None) for parts in got]
    return bad


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_every_record_equals_reference(small_store: Path, game: str) -> None:
    bad = mismatches(small_store, game, BOUND[game], lambda p: reference.board_record(game, p))
    assert bad == []


@pytest.mark.parametrize("game", ["pawn", "knight", "king"])
def test_steps_as_tuple_equal_steps_as_array(game: str, monkeypatch) -> None:
    """A piece's kernel takes its steps as an array below TUPLE_STEPS_MIN_N (the form the
    records above are compared with the reference in) and as a tuple of pairs from it on (one
    kernel per number of steps): both forms give the same table, column by column, for every
    n ≤ 12."""
    from pipeline.games import moveset

    piece = get_game(game)
    for n in range(1, 13):
        as_array = piece.solve_shard(n, 0, 1 << 20)
        monkeypatch.setattr(moveset, "TUPLE_STEPS_MIN_N", 1)
        assert isinstance(piece.kernel_steps(n), tuple)
        as_tuple = piece.solve_shard(n, 0, 1 << 20)
        monkeypatch.undo()
        assert not isinstance(piece.kernel_steps(n), tuple)
        assert as_tuple.column_names == as_array.column_names
        for name in as_array.column_names:
            assert as_tuple.column(name).equals(as_array.column(name)), (game, n, name)


def test_user_moveset_equals_reference(tmp_path: Path) -> None:
    # a camel-like piece with a step and a ray, and a moveset whose cells are sparse
    for text, steps, rays in [("{(1,3),(3,1)}", [(1, 3), (3, 1)], []),
                              ("{(0,2),(1,2)+}", [(0, 2)], [(1, 2)])]:
        game = get_game(text).game_id
        run([text], max_n=11, out=str(tmp_path / "results"), jobs=1, progress=False)
        bad = mismatches(tmp_path / "results", game, 11,
                         lambda p, s=steps, r=rays: reference.moveset_record(s, r, p))
        assert bad == [], game


def test_comparison_catches_a_planted_error(small_store: Path, plant) -> None:
    """The comparison above can fail: a wrong value in one record is reported, and only it."""
    planted = plant(small_store, "lctr", [4, 2, 1], states=99, tame=False)
    bad = mismatches(planted, "lctr", 7, lambda p: reference.board_record("lctr", p))
    assert {(b[0], b[1]) for b in bad} == {((4, 2, 1), "states"), ((4, 2, 1), "tame")} or \
        {(b[0], b[1]) for b in bad} == {((4, 2, 1), "states")}  # tame may already be False
    assert all(b[0] == (4, 2, 1) for b in bad) and bad


@pytest.fixture(scope="module")
def examples_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("examples") / "results"
    run(["lctr", "king", "rook", "queen"], max_n=34, out=str(root), jobs=2, progress=False)
    return root


def _sg(con, game: str, parts: tuple[int, ...]) -> int:
    return con.execute(f"SELECT sg FROM {game} WHERE parts = ?::SMALLINT[]", [list(parts)]).fetchall()[0][0]


def test_spec_section4_example(examples_store: Path) -> None:
    con = connect(examples_store)
    row = con.execute(
        "SELECT states, leaves, nodes FROM lctr WHERE parts = [5,3,3,2,1,1]::SMALLINT[]"
    ).fetchall()[0]
    assert row == (12, 29, 57)
    rects = con.execute(
        "SELECT parts, states FROM lctr WHERE len(list_distinct(parts)) = 1"
    ).fetchall()
    assert rects and all(states == len(p) * p[0] + 1 for p, states in rects)


def _grid(con, game: str, lam: tuple[int, ...]) -> list[str]:
    """The box grid of sg(λ[i,j]), computed from the records of the sub-partitions."""
    rows = []
    for i, length in enumerate(lam):
        cells = []
        for j in range(length):
            sub = tuple(x - j for x in lam[i:] if x - j > 0)
            cells.append(str(_sg(con, game, sub)))
        rows.append("".join(cells))
    return rows


def test_spec_section7_grids(examples_store: Path) -> None:
    con = connect(examples_store)
    assert _grid(con, "lctr", (8, 7, 6, 5, 5, 2, 1)) == \
        "01010101 / 2010101 / 120101 / 01202 / 10121 / 01 / 1".split(" / ")
    assert _grid(con, "king", (5, 5, 3, 2, 1)) == "21021 / 03210 / 210 / 10 / 0".split(" / ")


def test_spec_section7_grids_by_the_cell_grid_macro(examples_store: Path) -> None:
    """queries/macros.sql's cell_grid draws the same grids from the store, sg and misère."""
    con = connect(examples_store)

    def grid(game: str, lam: list[int], column: str) -> list[str]:
        rows = con.execute(f"SELECT {column} FROM cell_grid('{game}', {lam}::SMALLINT[])").fetchall()
        return [r[0].replace(" ", "") for r in rows]

    assert grid("lctr", [8, 7, 6, 5, 5, 2, 1], "sg") == \
        "01010101 / 2010101 / 120101 / 01202 / 10121 / 01 / 1".split(" / ")
    assert grid("king", [5, 5, 3, 2, 1], "sg") == "21021 / 03210 / 210 / 10 / 0".split(" / ")
    # misère, against the plain-Python reference on every cell's sub-partition
    lam = (6, 6, 4, 3, 3, 1)
    want = ["".join(str(reference.board_record("queen", [x - j for x in lam[i:] if x - j > 0])["sg_misere"])
                    for j in range(lam[i])) for i in range(len(lam))]
    assert grid("queen", list(lam), "sg_misere") == want
    # beyond the store (n ≤ 34): '?' exactly where λ[0,j] = (30 − j, 10 − j) has n = 40 − 2j > 34
    top = con.execute("SELECT sg FROM cell_grid('rook', [30, 10]) WHERE row = 0").fetchall()[0][0]
    assert [v == "?" for v in top.split(" ")] == [j < 3 for j in range(30)]


def test_rook_nim_queen_wythoff_on_rectangles(examples_store: Path) -> None:
    con = connect(examples_store)
    # Wythoff P-positions (⌊kφ⌋, ⌊kφ²⌋) built greedily (mex construction), not from the code.
    p_pairs, used, k = set(), set(), 0
    while len(p_pairs) < 40:
        a = next(x for x in range(1000) if x not in used)
        b = a + k
        used |= {a, b}
        p_pairs |= {(a, b), (b, a)}
        k += 1
    for parts, sg in con.execute("SELECT parts, sg FROM rook WHERE len(list_distinct(parts)) = 1").fetchall():
        assert sg == (len(parts) - 1) ^ (parts[0] - 1)
    queen = con.execute("SELECT parts, sg FROM queen WHERE len(list_distinct(parts)) = 1").fetchall()
    for parts, sg in queen:
        assert (sg == 0) == ((len(parts) - 1, parts[0] - 1) in p_pairs)


def _one_record(game_id: str, parts: tuple[int, ...]) -> dict:
    """Solve a single start position: the kernel walks just the prefix made of its rows."""
    import numpy as np

    from pipeline.games.columns import board_table
    from pipeline.games.moveset import solve_moveset
    from pipeline.games.walk import empty_outputs

    game = get_game(game_id)
    n = sum(parts)
    values = np.array(parts[::-1], dtype=np.int64)  # bottom row first
    offsets = np.array([0, len(parts)], dtype=np.int64)
    out = empty_outputs(1, len(parts), parts[0])
    w = (len(game.moveset.steps) + n * len(game.moveset.rays)) // 64 + 1
    got = solve_moveset(n, values, offsets, game.kernel_steps(n), game.kernel_rays, game.moveset.exits,
                        game.moveset.all_cells_reachable(), game.moveset.reach_table(n), w,
                        game.moveset.same_row_reach(), True, out)
    assert got == 1
    return board_table(n, out).to_pylist()[0]


def test_counts_beyond_int64_are_null() -> None:
    """Rook on the row (L): nodes = 2^(L-1), leaves = 2^(L-2) (every composition of L-1 is a
    play), so nodes overflow int64 first at L = 64 and leaves at L = 65 (docs/definitions.md §4: NULL)."""
    r63, r64, r65 = (_one_record("rook", (length,)) for length in (63, 64, 65))
    assert (r63["nodes"], r63["leaves"]) == (2**62, 2**61)
    assert (r64["nodes"], r64["leaves"]) == (None, 2**62)
    assert (r65["nodes"], r65["leaves"]) == (None, None)
    assert r65["height"] == 64 and r65["states"] == 65 and r65["sg"] == 64
