"""What a game offers is asked of the game (pipeline/games/base.py: ``diagram_positions``,
``positions_are``, ``family``, ``moveset``, ``solves_chosen``, ``rules_source``,
``record_kind``), never read off its id or its class: a rules game of examples/ and the bespoke
games answer as their definitions say (docs/definitions.md §2); a new game family whose ids do
not start with ``sn`` but whose records are Slow SetNim's is treated by what it declares, by
every command that asks (draw, solve, the report's drawings, the ``slownim`` view, verify's
reading of it, the ids a rules game may take); a game that is neither a moveset game nor a
rules game but says it solves chosen partitions is solved by ``solve`` and ``run --family``,
and one that does not say so is refused as before; a cluster run ships the rules file a game
says it was read from."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow as pa
import pytest

import pipeline.games as registry
from pipeline.errors import UsageError
from pipeline.games import GameFamily, get_game, reserved_id
from pipeline.games.base import Game
from pipeline.games.generic import GenericGame
from pipeline.games.single_partition import (
    SolveError,
    canonical_id,
    moveset_of,
    solve_record,
    solve_table,
)
from pipeline.rules import Rules, RulesError, load_rules_file, register
from pipeline.schema import BOARD_SCHEMA, SLOWNIM_SCHEMA

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def offers(game: Game) -> tuple[bool, bool, str]:
    """(diagram positions, has a moveset, record kind)."""
    return game.diagram_positions, game.moveset is not None, game.record_kind


@pytest.mark.parametrize("game_id, expected", [
    ("king", (True, True, "partition")),
    ("lctr", (True, True, "partition")),
    ("{(1,3),(3,1)}", (True, True, "partition")),
    ("lctr_nr", (True, False, "partition")),  # partitions, solved by no moveset
    ("sn5_4", (False, False, "slownim")),
    ("lctr_d3", (False, False, "lctr_d")),
])
def test_bespoke_games_say_what_they_offer(game_id: str, expected: tuple[bool, bool, str]) -> None:
    assert offers(get_game(game_id)) == expected


@pytest.mark.parametrize("name, expected", [
    ("king", (True, False, "partition")),
    ("welter", (True, False, "partition")),
    # positions carry two integers after the parts: a box's sub-partition is not a position
    ("lctr_nr_after", (False, False, "state")),
])
def test_rules_games_say_what_they_offer(name: str, expected: tuple[bool, bool, str]) -> None:
    game = GenericGame(load_rules_file(EXAMPLES / f"{name}_rules.py")[0])
    assert offers(game) == expected
    assert ("STATE" in game.positions_are) == (game.record_kind == "state")


# ---- a new family with Slow SetNim's records and ids of its own ------------------------------


class HeapsGame(Game):
    """One record per n with Slow SetNim's columns (the values do not matter here): a game of a
    family the registry did not have, whose ids are ``heaps<k>``."""

    parallel = False
    schema = SLOWNIM_SCHEMA
    positions_are = "heaps"
    family = "the heaps games"

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id

    def positions(self, n: int) -> int:
        return 1

    def shard_count(self, n: int, max_records: int) -> int:
        return 1

    def solve_shard(self, n: int, shard: int, max_records: int, **shared: object) -> pa.Table:
        row = {f.name: ([] if pa.types.is_list(f.type) else False if pa.types.is_boolean(f.type) else 0)
               for f in SLOWNIM_SCHEMA}
        row.update(n=n, parts=[n], conjugate=[1] * n, num_parts=1, largest=n, durfee=1, rank=n - 1,
                   distinct_sizes=1, stacks=1, moves=[1], reduced_parts=[n], sg=n % 2, nodes=1,
                   leaves=1, states=1, ordinal=0)
        return pa.Table.from_pylist([row], schema=SLOWNIM_SCHEMA)


@pytest.fixture
def heaps_family(monkeypatch) -> None:
    family = GameFamily("heaps", re.compile(r"heaps[0-9]+"), HeapsGame)
    monkeypatch.setattr(registry, "GAME_FAMILIES", [family, *registry.GAME_FAMILIES])


def test_a_new_family_is_treated_by_what_it_declares(heaps_family, tmp_path: Path) -> None:
    from pipeline.query import connect, queries_dir, slownim_games
    from pipeline.report import diagram_games
    from pipeline.runner import run
    from pipeline.verify import games_read, parse_statement

    game = get_game("heaps3")
    assert isinstance(game, HeapsGame) and offers(game) == (False, False, "slownim")
    # draw and solve refuse it with what it says it is, not "Slow SetNim" read off an id
    with pytest.raises(UsageError, match="heaps3 is not a board game: its positions are heaps"):
        from pipeline.pictures import board_game_id

        board_game_id("heaps3")
    with pytest.raises(SolveError, match="not the heaps games"):
        moveset_of("heaps3")
    assert diagram_games(["heaps3", "king", "sn5_4", "lctr_nr"]) == {"king", "lctr_nr"}
    # its ids are the family's: no rules game may take one
    assert reserved_id("heaps3") and not reserved_id("heapsx")
    with pytest.raises(RulesError, match="partgames has a game of that id"):
        register(Rules("heaps7", options=load_rules_file(EXAMPLES / "king_rules.py")[0].options))
    # its records join the slownim view, as Slow SetNim's do, and verify reads it through that view
    store = tmp_path / "results"
    run(["heaps3", "king"], max_n=3, out=str(store), jobs=1, progress=False)
    con = connect(store)
    assert slownim_games(con, ["heaps3", "king"]) == ["heaps3"]
    rows = con.execute("SELECT game, count(*) FROM slownim GROUP BY game").fetchall()
    assert rows == [("heaps3", 3)]
    st = parse_statement(queries_dir() / "consistency" / "slownim.sql")  # reads the view slownim
    assert games_read(con, st, {"heaps3", "king"}) == {"heaps3"}


# ---- a new family that solves chosen partitions, with neither a moveset nor rules ------------


def conjugate(parts: tuple[int, ...]) -> list[int]:
    return [sum(1 for p in parts if p > j) for j in range(parts[0])]


class RowsGame(Game):
    """Rows(λ): a move removes the last row of λ, so a start of k rows is a path of k moves:
    sg = k mod 2, and in misère play the player who makes the last move loses, so sg_misere =
    1 − k mod 2 (docs/definitions.md §3). Solved in plain Python here, by no moveset and no
    rules: a game the single-partition commands take because it says it solves chosen
    partitions (:attr:`Game.solves_chosen`)."""

    schema = BOARD_SCHEMA
    diagram_positions = True
    positions_are = "partitions"
    family = "the rows games"
    solves_chosen = True

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id

    def solve_chosen(self, n: int, values, offsets, partition_columns=None) -> pa.Table:
        rows = []
        for p in range(len(offsets) - 1):
            parts = tuple(int(v) for v in values[offsets[p]:offsets[p + 1]])
            k = len(parts)
            rows.append({
                "n": n, "parts": list(parts), "sg": k % 2, "sg_misere": 1 - k % 2,
                "nodes": k + 1, "leaves": 1, "states": k + 1, "height": k,
                "domestic": True, "tame": True, "pet": False, "miserable": False, "forced": True,
                "returnable": False, "num_parts": k, "largest": parts[0],
                "durfee": sum(1 for i, v in enumerate(parts) if v > i), "rank": parts[0] - k,
                "distinct_sizes": len(set(parts)), "conjugate": conjugate(parts), "shape": 0,
                "ordinal": None})
        return pa.Table.from_pylist(rows, schema=BOARD_SCHEMA)


class UnsolvedRowsGame(RowsGame):
    """Rows(λ) with its solver but without the declaration: the commands must refuse it."""

    family = "the unsolved rows games"
    solves_chosen = False


@pytest.fixture
def rows_family(monkeypatch) -> None:
    families = [GameFamily("rows", re.compile(r"rows[0-9]+"), RowsGame),
                GameFamily("unsolved rows", re.compile(r"unsolved[0-9]+"), UnsolvedRowsGame)]
    monkeypatch.setattr(registry, "GAME_FAMILIES", [*families, *registry.GAME_FAMILIES])


def test_a_game_that_solves_chosen_partitions_is_taken_by_what_it_declares(
        rows_family, tmp_path: Path, capsys) -> None:
    from pipeline.cli import main
    from pipeline.games.selection import SelectionGame, family_selection
    from pipeline.query import connect
    from pipeline.runner import run

    assert not isinstance(get_game("rows3"), GenericGame) and get_game("rows3").moveset is None
    assert canonical_id("rows3") == "rows3"
    assert solve_table("rows3", [(4, 1), (2, 2, 1)]).column("sg").to_pylist() == [0, 1]
    assert solve_record("rows3", (1, 1, 1))["sg_misere"] == 0
    assert solve_table("rows3", []).num_rows == 0
    assert main(["solve", "rows3", "3,1", "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("rows3,4,")
    # run --family: the hooks (n − j, 1^j) of n, j < n, with sg = (j + 1) mod 2
    assert SelectionGame("rows3", family_selection(["hook"])).solves_chosen
    store = tmp_path / "results"
    run(["rows3"], max_n=5, out=str(store), jobs=1, progress=False,
        selection=family_selection(["hook"]))
    got = connect(store).execute("SELECT n, parts, sg FROM rows3").fetchall()
    assert sorted((n, tuple(parts), sg) for n, parts, sg in got) == sorted(
        (n, (n - j,) + (1,) * j, (j + 1) % 2) for n in range(1, 6) for j in range(n))


def test_a_game_that_does_not_declare_it_is_refused_as_before(rows_family, tmp_path: Path,
                                                              capsys) -> None:
    from pipeline.cli import main
    from pipeline.games.selection import SelectionGame, family_selection
    from pipeline.runner import RunError, run

    refusal = ("unsolved3: the single-partition solver takes the board games and user movesets, "
               "not the unsolved rows games")
    for attempt in (lambda: canonical_id("unsolved3"), lambda: solve_table("unsolved3", [(2, 1)]),
                    lambda: SelectionGame("unsolved3", family_selection(["hook"]))):
        with pytest.raises(SolveError) as caught:
            attempt()
        assert str(caught.value) == refusal
    store = tmp_path / "results"
    with pytest.raises(RunError, match=f"^{re.escape(refusal)}$"):
        run(["unsolved3"], max_n=3, out=str(store), progress=False,
            selection=family_selection(["hook"]))
    assert not store.exists()
    assert main(["solve", "unsolved3", "2,1"]) == 2
    assert capsys.readouterr().err == f"partgames: error: {refusal}\n"


def test_a_cluster_run_ships_the_rules_file_a_game_says_it_was_read_from() -> None:
    from pipeline.runner import rules_sources

    king = GenericGame(load_rules_file(EXAMPLES / "king_rules.py")[0])
    assert king.rules_source == ("king_rules.py", (EXAMPLES / "king_rules.py").read_text())
    shipped = RowsGame("rows3")
    shipped.rules_source = ("rows_rules.py", "# rows")
    assert rules_sources([get_game("king"), king, shipped, king]) == [king.rules_source,
                                                                       shipped.rules_source]
