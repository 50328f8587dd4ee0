"""Records far beyond the exhaustive comparisons, sampled: every column equals the reference.

``test_records.py`` and ``test_slownim.py`` compare every record for n ≤ 12–14 (Slow SetNim:
N ≤ 12). The users run n up to 100, where a (game, n) is cut into shards whose prefixes the
kernels rebuild, the interning tables and class tables fill up, the pair kernel solves LCTR and
Downright in one walk, and the Parquet pages hold hundreds of thousands of records. Here the
real run writes larger n in several shards each, and a sample of the records — the first and
last of every shard file, the families that the papers' theorems are about, and a
pseudo-random sample — is compared column by column with ``tests/reference.py`` (which shares
no code with ``pipeline/``). Every (game, n) is also checked whole: p(n) records, each
partition of n once, and every record against its transpose's: the rules of a piece whose
moveset is symmetric are symmetric, so λ and its conjugate λ' have the same values (Pawn and
the transposed Pawn swap), while the kernels, which build a diagram row by row, reach the two
through different walks, shards and prefixes. A sample can miss a wrong record; this cannot.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import reference

from pipeline.partitions import partition_numbers
from pipeline.query import connect
from pipeline.runner import run

BOARD_COLUMNS = (
    "sg", "sg_misere", "nodes", "leaves", "states", "height",
    "domestic", "tame", "pet", "miserable", "forced", "returnable",
    "num_parts", "largest", "durfee", "rank", "distinct_sizes", "conjugate",
)  # fmt: skip
SLOWNIM_COLUMNS = BOARD_COLUMNS + ("stacks", "moves", "reduced", "reduced_parts", "odd_stacks", "sum_mod")

#: Every board game and two user movesets (a knight-like step pair and a ray) at n = 45 —
#: the staircase S(9), the rectangles R(5,9) and R(9,5), hooks — in shards of at most
#: BOARD_SHARD records (p(45) = 89,134: 11 shards).
BOARD_GAMES_N45 = ("lctr", "downright", "pawn", "pawn_t", "knight", "bishop", "king", "rook", "queen",
                   "moves_1.3_3.1", "moves_1.2+")
BOARD_N, BOARD_SHARD = 45, 8192
#: The overnight run's games at n = 64 (the square R(8,8)), in the run's own shard size
#: (p(64) = 1,741,630: 7 shards), solved together by the pair kernel as in the users' runs.
OVERNIGHT_GAMES, OVERNIGHT_N = ("lctr", "downright"), 64
#: Slow SetNim: every total up to SLOWNIM_N (a chain that reuses the smaller totals); the
#: largest totals are sampled.
SLOWNIM_GAMES, SLOWNIM_N = ("sn5_4", "sn3_2", "sn4_3-4", "sn6_2", "sn9_8-9", "sn4_1-2-3-4"), 30
#: Pseudo-random records per (game, n): hash(parts) mod SAMPLE_MOD below SAMPLE_HITS.
SAMPLE_MOD = 4099


@pytest.fixture(scope="module")
def large_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("large") / "results"
    run(list(BOARD_GAMES_N45), min_n=BOARD_N, max_n=BOARD_N, out=str(root), jobs=2,
        max_records=BOARD_SHARD, progress=False)
    run(list(OVERNIGHT_GAMES), min_n=OVERNIGHT_N, max_n=OVERNIGHT_N, out=str(root), jobs=2,
        progress=False)
    run(list(SLOWNIM_GAMES), max_n=SLOWNIM_N, out=str(root), jobs=2, progress=False)
    return root


def sampled_rows(store: Path, game: str, n: int, columns: tuple[str, ...], hits: int) -> list[tuple]:
    """(parts, *columns) of the sampled records of (game, n), read from its shard files."""
    con = connect(store)
    files = (store / f"game={game}" / f"n={n}").as_posix() + "/*.parquet"
    families = ("is_row(parts) OR is_column(parts) OR is_rectangle(parts) OR is_staircase(parts) "
                "OR is_hook(parts) OR is_gen_staircase(parts)")
    query = f"""
        WITH t AS (
            SELECT *, count(*) OVER (PARTITION BY filename) AS file_rows
            FROM read_parquet('{files}', filename = true, file_row_number = true)
        )
        SELECT parts, {", ".join(columns)} FROM t
        WHERE file_row_number = 0 OR file_row_number = file_rows - 1
           OR hash(parts) % {SAMPLE_MOD} < {hits} OR {families}
    """
    return con.execute(query).fetchall()


def whole_job(store: Path, game: str, n: int) -> tuple[int, int, int]:
    """(records, distinct partitions, records whose parts do not sum to n) of (game, n)."""
    con = connect(store)
    return con.execute(
        f"""SELECT count(*), count(DISTINCT parts), count(*) FILTER (list_sum(parts) <> n)
            FROM "{game}" WHERE n = {n}""").fetchall()[0]


def differences(rows: list[tuple], columns: tuple[str, ...], expected) -> list[tuple]:
    bad = []
    for row in rows:
        parts = tuple(row[0])
        want = expected(parts)
        for col, value in zip(columns, row[1:], strict=True):
            w = want[col]
            if isinstance(value, list):
                value, w = tuple(value), tuple(w)
            if value != w:
                bad.append((parts, col, value, w))
    return bad


@pytest.mark.parametrize("game", BOARD_GAMES_N45)
def test_board_games_at_n45_in_many_shards(large_store: Path, game: str) -> None:
    p = partition_numbers(BOARD_N)[BOARD_N]
    assert whole_job(large_store, game, BOARD_N) == (p, p, 0)
    rows = sampled_rows(large_store, game, BOARD_N, BOARD_COLUMNS, hits=12)
    shards = -(-p // BOARD_SHARD)
    assert len(rows) >= 2 * shards + 20  # the shard ends, the families, the random sample
    expected = (lambda parts: reference.board_record(game, parts)) if not game.startswith("moves") \
        else (lambda parts: reference.moveset_record(*USER_MOVESETS[game], parts))
    assert differences(rows, BOARD_COLUMNS, expected) == []


#: The user movesets above as (steps, rays) for the reference.
USER_MOVESETS = {"moves_1.3_3.1": ([(1, 3), (3, 1)], []), "moves_1.2+": ([], [(1, 2)])}


@pytest.mark.parametrize("game", OVERNIGHT_GAMES)
def test_overnight_games_at_n64(large_store: Path, game: str) -> None:
    p = partition_numbers(OVERNIGHT_N)[OVERNIGHT_N]
    assert whole_job(large_store, game, OVERNIGHT_N) == (p, p, 0)
    rows = sampled_rows(large_store, game, OVERNIGHT_N, BOARD_COLUMNS, hits=1)
    assert any(tuple(r[0]) == (8,) * 8 for r in rows)  # Conjecture 27's square is among them
    assert differences(rows, BOARD_COLUMNS, lambda parts: reference.board_record(game, parts)) == []


#: Games whose transpose is itself, or the other game of a pair (docs/definitions.md §2.2; ``moves_1.3_3.1``
#: is symmetric, ``moves_1.2+`` is not), with the n they are stored at.
TRANSPOSES = [(g, g, BOARD_N) for g in BOARD_GAMES_N45 if g not in ("pawn", "pawn_t", "moves_1.2+")]
TRANSPOSES += [("pawn", "pawn_t", BOARD_N)] + [(g, g, OVERNIGHT_N) for g in OVERNIGHT_GAMES]
GAME_COLUMNS = BOARD_COLUMNS[:12]  # the values of the game; the rest are features of λ


@pytest.mark.parametrize(("game", "transpose", "n"), TRANSPOSES)
def test_every_record_equals_its_transposes(large_store: Path, game: str, transpose: str, n: int) -> None:
    con = connect(large_store)
    differs = " OR ".join(f"a.{c} IS DISTINCT FROM b.{c}" for c in GAME_COLUMNS)
    matched, bad = con.execute(f"""
        SELECT count(b.parts), count(*) FILTER ({differs})
        FROM "{game}" a LEFT JOIN "{transpose}" b ON b.n = {n} AND b.parts = a.conjugate
        WHERE a.n = {n}""").fetchall()[0]
    assert (matched, bad) == (partition_numbers(n)[n], 0)


@pytest.mark.parametrize("game", SLOWNIM_GAMES)
def test_slow_setnim_up_to_n30(large_store: Path, game: str) -> None:
    s = int(game[2:].split("_")[0])
    for n in (SLOWNIM_N - 1, SLOWNIM_N):
        p = sum(1 for parts in reference.partitions(n) if len(parts) <= s)
        assert whole_job(large_store, game, n) == (p, p, 0)
        rows = sampled_rows(large_store, game, n, SLOWNIM_COLUMNS, hits=300)
        assert len(rows) >= 10
        assert differences(rows, SLOWNIM_COLUMNS, lambda parts: reference.board_record(game, parts)) == []
