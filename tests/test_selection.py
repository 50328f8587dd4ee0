"""Family runs and partitions files (pipeline/games/selection.py, ``run --family`` /
``--partitions``): their stores hold the exhaustive run's records of the chosen partitions.

The stores are written by the real run (and the real command, in a process of its own); the
expected records come from the exhaustive kernels, solving every partition of n.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.games import BOARD_GAMES, get_game
from pipeline.games.selection import family_selection, file_selection
from pipeline.partition_families import FAMILIES, members_list
from pipeline.query import connect
from pipeline.runner import RunError, run

USER_MOVESETS = ("{(1,3),(3,1)}", "{(0,2),(1,2)+}")
FAMILY_N = 40


def stored(store: Path, game: str) -> dict[tuple[int, ...], dict]:
    con = connect(store)
    table = con.sql(f'SELECT * EXCLUDE (game) FROM "{game}"').to_arrow_table()
    return {tuple(r["parts"]): r for r in table.to_pylist()}


def exhaustive_records(game: str, n: int, wanted: set[tuple[int, ...]]) -> dict:
    """The exhaustive run's records of the ``wanted`` partitions of n (all of n solved)."""
    table = get_game(game).solve_shard(n, 0, 1 << 30)
    rows = [k for k, p in enumerate(table.column("parts").to_pylist()) if tuple(p) in wanted]
    return {tuple(r["parts"]): r for r in table.take(rows).to_pylist()}


@pytest.fixture(scope="module")
def family_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("families") / "results"
    run(list(BOARD_GAMES + USER_MOVESETS), max_n=FAMILY_N, out=str(root), jobs=2, progress=False,
        selection=family_selection(list(FAMILIES)))
    return root


@pytest.mark.parametrize("game", BOARD_GAMES + USER_MOVESETS)
def test_family_members_equal_the_exhaustive_run(family_store: Path, game: str) -> None:
    """Every member of every family with n ≤ 40: the exhaustive run's record, every column."""
    got = stored(family_store, get_game(game).game_id)
    want_parts = {m for name in FAMILIES for n in range(1, FAMILY_N + 1) for m in members_list(name, n)}
    assert set(got) == want_parts
    for n in range(1, FAMILY_N + 1):
        want = exhaustive_records(game, n, want_parts)
        for parts, record in got.items():
            if sum(parts) == n:
                assert record == want[parts], (game, parts)


def test_jobs_say_the_selection_and_verify_reads_only_records(family_store: Path) -> None:
    con = connect(family_store)
    assert con.execute("SELECT DISTINCT selection FROM jobs").fetchall() == \
        [("family " + ",".join(FAMILIES),)]
    out = subprocess.run([sys.executable, "-m", "pipeline.cli", "verify", "--results", str(family_store),
                          "--report", "-", "--only", "lctr1.lemma8", "--only", "consistency.*",
                          "--only", "lctr2.theorem11", "--only", "chess.obs3_4"],
                         capture_output=True, text=True, check=False)
    status = {line.split()[0]: line.split()[2] for line in out.stdout.splitlines()
              if line.startswith(("lctr", "consistency.", "chess"))}
    assert status.pop("lctr1.lemma8") == "holds"  # needs: record
    # needs: smaller n (the default), same n, followers (every consistency statement)
    assert set(status.values()) == {"NO"} and len(status) == 13, status


def sampled_partitions(count: int, max_n: int, seed: str) -> list[tuple[int, ...]]:
    """``count`` partitions of n ≤ max_n: records of small exhaustive shards chosen at random."""
    rng = random.Random(seed)
    picked: list[tuple[int, ...]] = []
    game = get_game("downright")
    for n in rng.sample(range(2, max_n + 1), 10):
        table = game.solve_shard(n, rng.randrange(game.shard_count(n, 400)), 400)
        parts = table.column("parts").to_pylist()
        picked += [tuple(p) for p in rng.sample(parts, min(count // 10, len(parts)))]
    return picked


def test_partitions_file_run_equals_the_exhaustive_run(tmp_path: Path) -> None:
    """300 partitions of n ≤ 60 from a file, through the command: the exhaustive records."""
    parts = sampled_partitions(300, 60, "partitions file")
    path = tmp_path / "shapes.txt"
    path.write_text("# chosen shapes\n" + "\n".join(
        (" " if k % 2 else ",").join(map(str, p)) for k, p in enumerate(parts)) + "\n\n")
    out = tmp_path / "results"
    games = ["rook", "pawn_t", USER_MOVESETS[1]]
    done = subprocess.run([sys.executable, "-m", "pipeline.cli", "run", "--games", ",".join(games),
                           "--partitions", str(path), "--out", str(out), "--quiet", "--jobs", "1"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    for game in games:
        got = stored(out, get_game(game).game_id)
        assert set(got) == set(parts)
        by_n: dict[int, dict] = {}
        for p in parts:
            n = sum(p)
            if n not in by_n:
                by_n[n] = exhaustive_records(game, n, set(parts))
            assert got[p] == by_n[n][p], (game, p)


def partgames(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True,
                          text=True, check=False)


def test_bad_input_is_one_line_before_any_solving(tmp_path: Path) -> None:
    path = tmp_path / "shapes.txt"
    path.write_text("3,2,1\n4 4\n2,3\n")
    out = tmp_path / "results"
    for args, message in [
        (["--family", "hook,stair"], "unknown family 'stair'"),
        (["--partitions", str(path)], "shapes.txt, line 3: 2,3: parts must be non-increasing"),
        (["--family", "row", "--max-n", "40000"], "beyond n=32767"),
        (["--partitions", str(tmp_path / "none.txt")], "none.txt"),
        (["--family", "row", "--games", "sn5_4"], "not Slow SetNim"),
    ]:
        done = partgames("run", "--out", str(out), "--quiet", *args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (args, done.stderr)
        assert message in done.stderr, (args, done.stderr)
        assert not any(out.glob("game=*")), args  # nothing solved


def test_a_store_holds_one_kind_of_run(tmp_path: Path) -> None:
    out = tmp_path / "results"
    run(["lctr"], max_n=5, out=str(out), progress=False)
    with pytest.raises(RunError, match="holds exhaustive records"):
        run(["lctr"], max_n=5, out=str(out), progress=False, selection=family_selection(["hook"]))
    other = tmp_path / "families"
    run(["lctr"], max_n=5, out=str(other), progress=False, selection=family_selection(["hook"]))
    with pytest.raises(RunError, match="family hook"):
        run(["lctr"], max_n=5, out=str(other), progress=False)
    with pytest.raises(RunError, match="family hook"):
        run(["lctr"], max_n=5, out=str(other), progress=False, selection=family_selection(["row"]))
    path = tmp_path / "one.txt"
    path.write_text("2 1\n")
    assert file_selection(path).label.startswith("partitions one.txt sha256:")
