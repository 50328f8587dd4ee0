"""The whole catalogue on stores that lack records (queries/FORMAT.md, "Records the store lacks").

A store has gaps during a run (largest n first), after an interruption, after `run --min-n`, or
when one game of a pair was not run. No statement may fail there for want of a neighbour: the
records whose neighbours are absent are skipped and counted as such, never examined. The gap
stores are copies of the small store (every board game and Slow SetNim game, n ≤ 14, all correct
records) with whole (game, n) removed, so every counterexample on them is a false one.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import pipeline.verify as verify_module
from pipeline.verify import verify

GAPS: dict[str, Callable[[str, int], bool]] = {
    # a run's first (game, n) written: its largest n (the small store's n = 14), alone
    "only-largest-n": lambda game, n: n == 14,
    # `run --min-n 9 --max-n 9`
    "only-one-n": lambda game, n: n == 9,
    "every-other-n": lambda game, n: n % 2 == 0,
    # one game of each pair that statements compare: LCTR / Downright, pawn / pawn_t,
    # SN(4,{3}) / SN(4,{3,4})
    "one-game-of-a-pair": lambda game, n: game not in ("downright", "pawn_t", "sn4_3-4"),
    # an interrupted run: one n missing in the middle, for some games only
    "a-hole-at-13": lambda game, n: not (n == 13 and game in ("lctr", "downright", "king", "queen",
                                                             "knight", "sn4_3", "sn5_4")),
}


def _gap_store(small_store: Path, dest: Path, keep: Callable[[str, int], bool]) -> Path:
    shutil.copytree(small_store, dest)
    for job in dest.glob("game=*/n=*"):
        if not keep(job.parent.name.removeprefix("game="), int(job.name.removeprefix("n="))):
            shutil.rmtree(job)
    return dest


@pytest.fixture(scope="module")
def gap_stores(small_store: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("gaps")
    return {name: _gap_store(small_store, root / name, keep) for name, keep in GAPS.items()}


@pytest.fixture(scope="module")
def gap_results(gap_stores: dict[str, Path]) -> dict[str, dict[str, dict]]:
    return {name: {r.id: r.as_dict() for r in verify(store)} for name, store in gap_stores.items()}


def _broken(results: dict[str, dict]) -> dict[str, tuple]:
    return {i: (r["status"], r["counterexamples"], r["examples"][:1], r.get("error"))
            for i, r in results.items() if r["status"] in ("fails", "error")}


@pytest.mark.parametrize("gap", list(GAPS))
def test_no_statement_fails_for_want_of_data(gap_results: dict[str, dict[str, dict]], gap: str) -> None:
    results = gap_results[gap]
    assert len(results) >= 130
    assert _broken(results) == {}
    # skipped rows are reported, and never also counted as examined
    assert all(r["skipped"] >= 0 and r["rows"] >= 0 for r in results.values())


def test_gaps_are_reported_as_skipped_records(gap_results: dict[str, dict[str, dict]]) -> None:
    only14 = gap_results["only-largest-n"]
    # Theorem 4.4 reads each record's truncation, of smaller n: none is stored, every non-terminal
    # record of n = 14 of the eight pieces is skipped (the repro), nothing is examined.
    r = only14["chess.thm4_4"]
    assert (r["status"], r["rows"]) == ("no data", 0)
    assert r["skipped"] > 8 * 100  # p(14) = 135 partitions, most non-terminal, in 8 games
    # A statement about each record alone examines every record of n = 14.
    r = only14["lctr1.lemma2"]
    assert (r["status"], r["skipped"], r["rows"]) == ("holds", 0, 2 * 135)
    # A hole at n = 13 (LCTR and Downright): their records of n = 14 read smaller n and are skipped,
    # those below the hole examined.
    hole = gap_results["a-hole-at-13"]["lctr1.theorem1"]
    assert hole["status"] == "holds" and hole["max_n"] == 12 and hole["skipped"] == 2 * 135
    # Without Downright, the LCTR half of Theorem 1 (LCTR records against LCTR followers) is checked.
    pair = gap_results["one-game-of-a-pair"]["lctr1.theorem1"]
    assert pair["status"] == "holds" and pair["rows"] > 0
    # Corollary 23 compares LCTR and Downright records of one partition: nothing to compare.
    assert gap_results["one-game-of-a-pair"]["lctr2.corollary23"]["status"] == "no data"


def test_without_the_cut_the_gaps_give_false_failures(gap_stores: dict[str, Path], monkeypatch) -> None:
    """The test above can fail: with the views left whole (every statement read as if the store
    had every n) the statements that read followers report absent records as counterexamples."""
    monkeypatch.setattr(verify_module, "restricted_views", lambda con, st: {})
    # and the neighbourhood pass as if every n were held
    monkeypatch.setattr(verify_module, "held_prefix", lambda ns: max(ns, default=0))
    ids = ["chess.thm4_4", "chess.cor4_5", "chess.prop3_7", "chess.knight_reduction", "slownim.lemma2-8"]
    results = {r.id: r for r in verify(gap_stores["every-other-n"], ids)}
    assert {i for i, r in results.items() if r.status == "fails"} == set(ids)


def test_repro_downright_only_n20(tmp_path: Path) -> None:
    """`run --games downright --min-n 20 --max-n 20` then `verify --only chess.thm4_4`: 627
    records, none examined, none a counterexample."""
    from pipeline.runner import run

    run(["downright"], min_n=20, max_n=20, out=str(tmp_path / "g"), jobs=1, progress=False)
    (r,) = verify(tmp_path / "g", ["chess.thm4_4"])
    assert (r.status, r.rows, r.counterexamples) == ("no data", 0, 0)
    assert r.skipped == 627  # p(20) = 627 partitions, none terminal: (1) is Downright's only one


# Planted errors on a store with a hole at n = 13 are still caught by the statements that examine
# them: the planted records and the records that see them are all of n <= 12.
HOLE_PLANTS = [
    # (game, parts, columns, statements that must report it)
    ("downright", [2, 2], {"sg_misere": 0}, {"chess.thm4_4", "chess.cor4_5", "chess.thm4_9_pairs"}),
    ("king", [3, 3, 3], {"sg": 2}, {"chess.thm3_8", "chess.cor3_12", "chess.cor3_10"}),
    ("lctr", [3, 3, 3], {"sg": 1}, {"lctr1.theorem1", "lctr2.corollary1", "lctr1.lemma8"}),
    ("rook", [2, 2], {"sg": 3}, {"chess.lemma3_17", "chess.prop3_19", "chess.obs3_15"}),
]


@pytest.mark.parametrize(("game", "parts", "columns", "expected"), HOLE_PLANTS,
                         ids=[f"{p[0]}-{'.'.join(map(str, p[1]))}" for p in HOLE_PLANTS])
def test_planted_errors_below_a_hole_are_caught(gap_stores: dict[str, Path], plant, game: str,
                                                parts: list[int], columns: dict, expected: set[str]) -> None:
    store = plant(gap_stores["a-hole-at-13"], game, parts, **columns)
    results = {r.id: r for r in verify(store, sorted(expected))}
    assert {i for i, r in results.items() if r.status == "fails"} == expected
