"""What a game offers is asked of the game (pipeline/games/base.py: ``diagram_positions``,
``positions_are``, ``family``, ``moveset``, ``record_kind``), never read off its id: a rules game
of examples/ and the bespoke games answer as their definitions say (docs/definitions.md §2), and
a new game family whose ids do not start with ``sn`` but whose records are Slow SetNim's is
treated by what it declares, by every command that asks (draw, solve, the report's drawings,
the ``slownim`` view, verify's reading of it, the ids a rules game may take)."""

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
from pipeline.games.single_partition import SolveError, moveset_of
from pipeline.rules import Rules, RulesError, load_rules_file, register
from pipeline.schema import SLOWNIM_SCHEMA

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
