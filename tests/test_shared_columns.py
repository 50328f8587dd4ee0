"""Board games share the columns that depend on the partition only.

Every board game has the same shards in the same order, so a run solves a shard for all of them
in turn: the first game computes ``PARTITION_COLUMNS`` (n, parts, the features, the conjugate),
the others borrow its arrays (their kernels skip the features), and the writer encodes and
compresses those columns once (:class:`pipeline.parquet.ChunkReuse`). These tests hold the result
to what each game computes and writes alone: the same tables, and byte for byte the same files.
"""

from __future__ import annotations

import filecmp
import os
import re
from pathlib import Path

import pyarrow as pa
import pytest

from pipeline import parquet, runner
from pipeline.games import BUILTIN, get_game
from pipeline.games.columns import partition_columns
from pipeline.games.moveset import MovesetGame
from pipeline.schema import PARTITION_COLUMNS

BOARD = sorted(BUILTIN)


@pytest.mark.parametrize("game_id", BOARD)
def test_a_game_borrowing_the_partition_columns_solves_the_same_table(game_id: str) -> None:
    """For every n ≤ 30 (shards of 97 records, so a shard often starts inside a subtree), a board
    game given another board game's partition columns of the same shard returns exactly the table
    it computes alone: the lean kernel (LCTR, Downright) and the general one both skip only the
    features."""
    game = get_game(game_id)
    lender = get_game("king" if game_id != "king" else "lctr")
    for n in range(1, 31):
        for shard in range(game.shard_count(n, 97)):
            alone = game.solve_shard(n, shard, 97)
            lent = partition_columns(lender.solve_shard(n, shard, 97))
            borrowing = game.solve_shard(n, shard, 97, partition_columns=lent)
            assert borrowing.equals(alone), (game_id, n, shard)
            for name in PARTITION_COLUMNS:  # borrowed, not copied
                assert borrowing.column(name).chunk(0).buffers()[-1].address == \
                    lent[name].buffers()[-1].address


def test_partition_columns_of_another_shard_are_refused() -> None:
    lctr = get_game("lctr")
    other = partition_columns(lctr.solve_shard(20, 1, 97))
    with pytest.raises(RuntimeError, match="partition columns"):
        get_game("downright").solve_shard(20, 0, 50, partition_columns=other)


def test_chunk_reuse_takes_only_the_very_same_array(tmp_path: Path) -> None:
    """A kept chunk is reused for the same array only: equal values in another array, or another
    array under the same column name, are encoded afresh, and every file equals the one written
    without reuse."""
    parts = pa.array([[3, 1], [2, 2], [4]], pa.list_(pa.int16()))
    other = pa.array([[3, 1], [2, 1, 1], [4]], pa.list_(pa.int16()))
    copy = pa.array(parts.to_pylist(), pa.list_(pa.int16()))
    tables = [pa.table({"parts": p, "sg": pa.array([1, 0, 2], pa.int16())})
              for p in (parts, parts, other, copy, parts)]
    reuse = parquet.ChunkReuse(["parts"])
    for k, table in enumerate(tables):
        parquet.write_table(table, tmp_path / f"reused-{k}", reuse=reuse)
        parquet.write_table(table, tmp_path / f"alone-{k}")
        assert filecmp.cmp(tmp_path / f"reused-{k}", tmp_path / f"alone-{k}", shallow=False), k
    assert reuse.reused == 1  # the second table only: `other` replaced the kept chunk


def test_chunk_reuse_tells_lists_apart_that_share_buffers(tmp_path: Path) -> None:
    """Two list arrays over the same buffers whose elements start at different offsets of the
    child are different data, and are encoded apart."""
    values = pa.array([5, 4, 3, 2, 1, 1], pa.int16())
    offsets = pa.array([0, 2, 4], pa.int32())
    first = pa.ListArray.from_arrays(offsets, values)  # [[5, 4], [3, 2]]
    shifted = pa.ListArray.from_arrays(offsets, values.slice(2))  # [[3, 2], [1, 1]]
    assert first.to_pylist() != shifted.to_pylist()
    reuse = parquet.ChunkReuse(["parts"])
    for k, parts in enumerate((first, shifted)):
        table = pa.table({"parts": parts})
        parquet.write_table(table, tmp_path / f"reused-{k}", reuse=reuse)
        parquet.write_table(table, tmp_path / f"alone-{k}")
        assert filecmp.cmp(tmp_path / f"reused-{k}", tmp_path / f"alone-{k}", shallow=False), k
    assert reuse.reused == 0


def test_a_run_of_all_board_games_writes_the_files_of_separate_runs(tmp_path: Path,
                                                                   monkeypatch) -> None:
    """A run of the nine board games (shards solved game after game, columns shared, Downright
    and LCTR in one walk) writes byte for byte the files that nine one-game runs write, and it
    did share: every game but the first of each shard took its partition columns' chunks from
    the first, and Downright solved every shard with LCTR."""
    reused: list[int] = []
    real_write = runner.stage_shard
    paired: list[tuple[str, str]] = []
    real_with = MovesetGame.solve_shard_with

    def solve_with(self, partner, *args, **kwargs):
        paired.append((self.game_id, partner.game_id))
        return real_with(self, partner, *args, **kwargs)

    monkeypatch.setattr(MovesetGame, "solve_shard_with", solve_with)

    def write(store, game_id, n, shard, table, reuse=None, *rest):
        before = reuse.reused if reuse is not None else 0
        result = real_write(store, game_id, n, shard, table, reuse, *rest)
        reused.append((reuse.reused if reuse is not None else 0) - before)
        return result

    monkeypatch.setattr(runner, "stage_shard", write)
    together = tmp_path / "together"
    runner.run(BOARD, max_n=22, out=str(together), jobs=2, progress=False, max_records=150)
    shards = sum(get_game("lctr").shard_count(n, 150) for n in range(1, 23))
    assert len(reused) == len(BOARD) * shards
    assert sum(r == len(PARTITION_COLUMNS) for r in reused) == (len(BOARD) - 1) * shards
    assert paired == [("downright", "lctr")] * shards  # Downright comes first in BOARD
    unshared = tmp_path / "unshared"  # the lever that turns sharing off (benchmarks/bench.py)
    reused.clear()
    runner.run(BOARD, max_n=22, out=str(unshared), jobs=2, progress=False, max_records=150,
               share_partition_columns=False)
    assert len(reused) == len(BOARD) * shards and not any(reused)
    assert len(paired) == shards  # no groups, no partners
    monkeypatch.setattr(runner, "stage_shard", real_write)
    apart = tmp_path / "apart"
    for game_id in BOARD:
        runner.run([game_id], max_n=22, out=str(apart), jobs=1, progress=False, max_records=150)
    files, apart_files, unshared_files = _shards(together), _shards(apart), _shards(unshared)
    assert sorted(files) == sorted(apart_files) == sorted(unshared_files)
    assert len(files) == len(BOARD) * shards
    for rel in files:
        assert filecmp.cmp(files[rel], apart_files[rel], shallow=False), rel
        assert filecmp.cmp(unshared_files[rel], apart_files[rel], shallow=False), rel
        assert os.path.getsize(files[rel]) > 0


def _shards(root: Path) -> dict[str, Path]:
    """The store's shard files by game, n and shard number: a commit names its files
    ``part-<shard>-<token>.parquet`` with a token of its own (docs/store.md)."""
    return {re.sub(r"(part-[0-9]+)-[0-9a-f]+\.parquet$", r"\1", str(p.relative_to(root))): p
            for p in root.rglob("*.parquet")}


@pytest.mark.parametrize("order", [["lctr", "downright"], ["downright", "king", "lctr"]])
def test_lctr_and_downright_solved_together_write_the_files_of_separate_runs(
        tmp_path: Path, order: list[str], monkeypatch) -> None:
    """LCTR and Downright solved in one walk, the first of them computing the partition columns
    (first in the run) or borrowing them (after King), write byte for byte the files of one-game
    runs; with ``solve_partners_together`` off, so do they, solved one after the other."""
    together, apart, alone = tmp_path / "together", tmp_path / "apart", tmp_path / "alone"
    runner.run(order, max_n=24, out=str(together), jobs=2, progress=False, max_records=200)
    runner.run(order, max_n=24, out=str(apart), jobs=2, progress=False, max_records=200,
               solve_partners_together=False)
    for game_id in order:
        runner.run([game_id], max_n=24, out=str(alone), jobs=1, progress=False, max_records=200)
    files, together_files, apart_files = _shards(alone), _shards(together), _shards(apart)
    assert sorted(files) == sorted(together_files) == sorted(apart_files)
    assert len(files) == len(order) * sum(get_game("lctr").shard_count(n, 200) for n in range(1, 25))
    for rel in files:
        assert filecmp.cmp(together_files[rel], files[rel], shallow=False), rel
        assert filecmp.cmp(apart_files[rel], files[rel], shallow=False), rel
