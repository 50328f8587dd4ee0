"""The self-consistency statements (queries/consistency/): every record against its followers'.

They need no reference: a record's sg and sg_misere are the mex of its followers', its counts and
height follow from theirs, its flags are its local condition AND theirs (docs/definitions.md §3-5). On correct
stores they hold; a wrong value in any column of one record is reported for that record. The
plants are made in the views a statement reads (a CTE of the view's name wrapping the store's
view), so that a record of n > 40 can be changed without rewriting the store.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from pipeline.query import connect
from pipeline.schema import BOARD_GAMES, FLAG_NAMES
from pipeline.verify import load_catalogue, verify

USER_MOVESETS = ("moves_1.3_3.1", "moves_1.2+")
STORE_N = 41


@pytest.fixture(scope="module")
def store41(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The nine board games and two user movesets, every n <= 41 (2.9 million records)."""
    from pipeline.runner import run

    root = tmp_path_factory.mktemp("consistency") / "results"
    run([*BOARD_GAMES, *USER_MOVESETS], max_n=STORE_N, out=str(root), jobs=2, progress=False)
    return root


def _holds(store: Path) -> dict[str, tuple[str, int]]:
    return {r.id: (r.status, r.rows) for r in verify(store, ["consistency.*"])}


def test_holds_on_the_small_store(small_store: Path) -> None:
    results = _holds(small_store)
    assert results.pop("consistency.movesets")[0] == "no data"  # no user moveset in it
    assert all(status == "holds" and rows > 0 for status, rows in results.values()), results


def _sql(v: object) -> str:
    return "NULL" if v is None else str(v)


def planted_rows(con: duckdb.DuckDBPyConnection, statement_id: str, view: str, game: str,
                 plants: list[tuple[list[int], str, str]]) -> list[dict]:
    """The counterexamples of a statement on the records of ``view`` with each plant
    (parts, column, SQL expression of the new value) applied to ``game``'s record of parts."""
    (st,) = load_catalogue(select=[statement_id])
    db, schema = con.execute("SELECT database_name, schema_name FROM duckdb_views() "
                             f"WHERE view_name = '{view}' ORDER BY temporary DESC").fetchall()[0]
    columns: dict[str, list[str]] = {}
    for parts, column, expr in plants:
        columns.setdefault(column, []).append(
            f"WHEN game = '{game}' AND parts = {parts}::SMALLINT[] THEN {expr}")
    replace = ", ".join(f"CASE {' '.join(whens)} ELSE {c} END AS {c}" for c, whens in columns.items())
    query = (f'WITH "{view}" AS (SELECT * REPLACE ({replace}) FROM "{db}"."{schema}"."{view}") '
             f"SELECT * FROM ({st.query})")
    return con.sql(query).to_arrow_table().to_pylist()


# One wrong value per column, each in its own record: (column, SQL of the wrong value).
WRONG = [("sg", "sg + 1"), ("sg_misere", "sg_misere + 1"), ("nodes", "nodes + 1"), ("nodes", "NULL"),
         ("leaves", "leaves + 1"), ("height", "height + 1"), ("states", "0"),
         ("states", "states + 1000000000000"),
         *((flag, f"NOT {flag}") for flag in FLAG_NAMES)]


def _plant_each_column(con: duckdb.DuckDBPyConnection, statement_id: str, view: str, game: str,
                       n: int) -> None:
    records = [r[0] for r in con.execute(
        f"SELECT parts FROM {view} WHERE game = '{game}' AND n = {n} AND height > 0 "
        f"ORDER BY len(parts), parts LIMIT {len(WRONG)}").fetchall()]
    assert len(records) == len(WRONG)
    plants = [(parts, column, expr) for parts, (column, expr) in zip(records, WRONG, strict=True)]
    rows = planted_rows(con, statement_id, view, game, plants)
    # n is the largest n of the store: no record has a planted record as a follower, so the
    # planted records are the counterexamples, each with its column and no other.
    # The other records of the store hold: the statement holds on the correct records of every
    # n <= 41 of the game (of both user movesets for consistency.movesets).
    got = sorted((r["parts"], wrong_columns(r)) for r in rows if r["game"] == game)
    assert got == sorted((parts, [column]) for parts, column, _ in plants), (game, got)
    assert len(rows) == len(plants)


def wrong_columns(row: dict) -> list[str]:
    """The columns a counterexample row names: its ``wrong`` list (the follower_check statements)
    or the label of its clause (the statements over the neighbourhood: one row per column)."""
    return row["wrong"] if "wrong" in row else [row["family"]]


@pytest.mark.parametrize("game", [*BOARD_GAMES, USER_MOVESETS[0]])
def test_a_wrong_value_in_any_column_at_n_41_is_reported(store41: Path, game: str) -> None:
    con = connect(store41)
    if game in BOARD_GAMES:
        _plant_each_column(con, f"consistency.{game}", game, game, STORE_N)
    else:
        _plant_each_column(con, "consistency.movesets", "records", game, STORE_N)


@pytest.mark.parametrize("game", ["sn3_2", "sn4_3", "sn5_4-5", "sn6_2"])
def test_a_wrong_value_in_any_slownim_column_is_reported(small_store: Path, game: str) -> None:
    _plant_each_column(connect(small_store), "consistency.slownim", "slownim", game, 14)


def test_a_wrong_value_is_seen_by_the_records_above_it(small_store: Path) -> None:
    """A planted record of n = 9 is reported, and so are the records of which it is a follower
    whose values depend on it: the parents' nodes count it, and a NULL or a count near 2^63
    makes theirs NULL (docs/definitions.md §4)."""
    con = connect(small_store)
    # LCTR (5,4) is T of (k,5,4), k >= 5, and L of (6,5,1^j): (5,5,4), (6,5), (6,5,1), … in the store.
    rows = planted_rows(con, "consistency.lctr", "lctr", "lctr", [([5, 4], "nodes", "nodes + 1")])
    parents = {tuple(r["parts"]) for r in rows if wrong_columns(r) == ["nodes"]}
    assert {(5, 4), (5, 5, 4), (6, 5), (6, 5, 1)} <= parents
    for value in ("NULL", "9223372036854775807"):
        # (6,5) = L⁻¹(5,4): its stored count is a number, the one its followers give NULL
        rows = planted_rows(con, "consistency.lctr", "lctr", "lctr", [([5, 4], "nodes", value)])
        above = [r for r in rows if r["parts"] == [6, 5]]
        assert [wrong_columns(r) for r in above] == [["nodes"]] and above[0]["nodes"] is not None, rows
    # A record whose stored count is NULL because a follower's is: no counterexample above.
    rows = planted_rows(con, "consistency.lctr", "lctr", "lctr",
                        [([5, 4], "nodes", "NULL"), ([6, 5], "nodes", "NULL"), ([5, 5], "nodes", "NULL")])
    assert (6, 5) not in {tuple(r["parts"]) for r in rows}
