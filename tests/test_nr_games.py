"""lctr_nr and downright_nr, the non-repetitive variants (docs/definitions.md §2.5): the kernel
(pipeline/games/nonrepetitive.py) equals the plain-Python reference (tests/reference.py, written
from the definition) column by column on every partition of n ≤ 12, through the real run; equals
itself cut into shards of a few records; and lctr_nr equals the rules file
examples/lctr_nr_rules.py, solved by the generic solver."""

from __future__ import annotations

import csv
import dataclasses
import shutil
from pathlib import Path

import pytest
import reference
from harness import partitions
from test_records import mismatches

from pipeline.games import get_game
from pipeline.games.generic import GenericGame
from pipeline.query import connect
from pipeline.rules import RulesError, load_rules_file, register
from pipeline.runner import run
from pipeline.search import run_search

MAX_N = 12
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
VALUES = ("sg", "sg_misere", "nodes", "leaves", "states", "height",
          "domestic", "tame", "pet", "miserable", "forced", "returnable")


@pytest.fixture(scope="module")
def nr_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # With lctr in the same run: the nr games take its partition columns (record_order).
    root = tmp_path_factory.mktemp("nr") / "results"
    run(["lctr", "downright", "lctr_nr", "downright_nr"], max_n=MAX_N, out=str(root), jobs=1, progress=False)
    return root


@pytest.mark.parametrize("game", ["lctr_nr", "downright_nr"])
def test_every_record_equals_the_reference(nr_store: Path, game: str) -> None:
    bad = mismatches(nr_store, game, MAX_N, lambda p: reference.board_record(game, p))
    assert bad == []


def test_the_rule_changes_values(nr_store: Path) -> None:
    """The comparison above is not vacuous: the variants' values differ from the plain games'
    on some partitions (first at n = 8 for LCTR), and the rule cuts plays (fewer nodes)."""
    con = connect(nr_store)
    changed = con.execute(
        "SELECT min(a.n), count(*) FILTER (WHERE a.nodes < b.nodes) FROM lctr_nr a JOIN lctr b "
        "USING (n, parts) WHERE a.sg <> b.sg").fetchall()[0]
    assert changed[0] == 8 and changed[1] > 0


@pytest.mark.parametrize("game", ["lctr_nr", "downright_nr"])
def test_small_shards_equal_one_shard(game: str) -> None:
    """Shards of a few records (the walk rebuilding its prefixes and undoing its interning)
    give the records of one shard, every column."""
    g = get_game(game)
    n = 16
    whole = g.solve_shard(n, 0, 1 << 18).to_pylist()
    cut = [r for s in range(g.shard_count(n, 5)) for r in g.solve_shard(n, s, 5).to_pylist()]
    assert g.shard_count(n, 5) > 20
    assert cut == whole


def test_lctr_nr_equals_the_rules_file() -> None:
    """The kernel's lctr_nr and the rules file's (the generic solver), every column, every
    partition of n <= 14."""
    rules_game = GenericGame(load_rules_file(EXAMPLES / "lctr_nr_rules.py")[0])
    kernel = get_game("lctr_nr")
    for n in range(1, 15):
        expected = {tuple(r["parts"]): r for r in rules_game.solve_table(list(partitions(n))).to_pylist()}
        got = kernel.solve_shard(n, 0, 1 << 18).to_pylist()
        assert len(got) == len(expected) == len(list(partitions(n)))
        for r in got:
            assert r == expected[tuple(r["parts"])], (n, r["parts"])


def test_the_ids_are_partgames_own() -> None:
    """get_game gives the kernel's games; a rules file may not take their ids."""
    assert type(get_game("lctr_nr")).__name__ == "NonRepetitiveGame"
    assert get_game("downright_nr").exits is False
    rules = load_rules_file(EXAMPLES / "lctr_nr_rules.py")[0]
    for gid in ("lctr_nr", "downright_nr"):
        with pytest.raises(RulesError, match="partgames has a game of that id"):
            register(dataclasses.replace(rules, game_id=gid))


def test_comparison_search_counts(nr_store: Path, small_store: Path, tmp_path: Path) -> None:
    """queries/search/nr_comparison.sql: per n, the changed values and P-positions counted
    from the reference's records; n where a variant is not stored compare nothing."""
    store = tmp_path / "results"
    shutil.copytree(nr_store, store)
    run_search(store, "nr_comparison", "csv")
    with (store / "search" / "nr_comparison.csv").open(newline="") as f:
        rows = {(r["variant"], int(r["n"])): r for r in csv.DictReader(f)}
    for variant, plain in (("lctr_nr", "lctr"), ("downright_nr", "downright")):
        for n in (8, 11):
            recs = [(reference.board_record(variant, p), reference.board_record(plain, p))
                    for p in partitions(n)]
            r = rows[(variant, n)]
            assert int(r["compared"]) == len(recs)
            assert int(r["sg_changed"]) == sum(a["sg"] != b["sg"] for a, b in recs)
            assert int(r["misere_changed"]) == sum(a["sg_misere"] != b["sg_misere"] for a, b in recs)
            assert int(r["p_variant"]) == sum(a["sg"] == 0 for a, _ in recs)
            assert int(r["p_plain"]) == sum(b["sg"] == 0 for _, b in recs)
    # a store without the variants: the plain games' n are listed, compared 0, counts empty
    bare = tmp_path / "bare"
    shutil.copytree(small_store, bare)
    run_search(bare, "nr_comparison", "csv")
    with (bare / "search" / "nr_comparison.csv").open(newline="") as f:
        rows = {(r["variant"], int(r["n"])): r for r in csv.DictReader(f)}
    assert len(rows) == 28 and all(r["compared"] == "0" and r["sg_changed"] == "" for r in rows.values())

def test_misere_lctr_nr_statement(nr_store: Path, small_store: Path, plant, verify_ids) -> None:
    """nr.misere_lctr_p_is_downright_p holds on every record, fails on a planted value, and has
    no data on a store without the variants."""
    sid = "nr.misere_lctr_p_is_downright_p"
    result = verify_ids(nr_store, [sid])[sid]
    assert result["status"] == "holds" and result["rows"] == sum(
        len(list(partitions(n))) for n in range(1, MAX_N + 1))
    planted = plant(nr_store, "downright_nr", [4, 2, 1], sg=7)  # (4,2,1): a P-position
    assert verify_ids(planted, [sid])[sid]["status"] == "fails"
    assert verify_ids(small_store, [sid])[sid]["status"] == "no data"
