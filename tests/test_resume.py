"""Interrupted, failed, killed and concurrent runs: the store keeps only complete (game, n), and a
rerun resumes to the records of an uninterrupted run (staged shards reused only by the same code
and plan)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from harness import assert_store_consistent, cli, interrupt_at_write, same_records

import pipeline.runner as runner
from pipeline.partitions import partition_numbers
from pipeline.query import connect
from pipeline.storage import COMPLETE


def test_one_run_writes_a_store_at_a_time(capsys, tmp_path: Path) -> None:
    """A second run on a store that another process is writing is refused with one line (two
    runs shared the staging area, and one crashed when the other finalised a (game, n)); the
    store is untouched, and the lock goes with the process that held it, even when killed."""
    out = tmp_path / "results"
    code, _, _ = cli(capsys, "run", "--games", "lctr", "--max-n", "4", "--out", str(out), "--quiet")
    assert code == 0
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time\n"
         "from pipeline.storage import Store\n"
         f"with Store.open({str(out)!r}).writer():\n"
         "    print('locked', flush=True)\n"
         "    time.sleep(600)\n"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        before = sorted(p.relative_to(out) for p in out.rglob("*"))
        code, _, err = cli(capsys, "run", "--games", "lctr,king", "--max-n", "6", "--out", str(out),
                           "--quiet")
        assert code == 2 and err.count("\n") == 1, err
        assert f"is being written by another partgames run (pid {holder.pid} on " in err
        assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    code, _, _ = cli(capsys, "run", "--games", "lctr,king", "--max-n", "6", "--out", str(out), "--quiet")
    assert code == 0
    assert_store_consistent(out)


def test_an_os_error_in_a_run_is_one_line_and_a_rerun_resumes(capsys, tmp_path: Path,
                                                               monkeypatch) -> None:
    """A full disk while writing a shard ends the run with one line saying to rerun, not a
    traceback; the store holds only complete (game, n), and the rerun completes it."""
    import errno

    from pipeline.storage import Store

    real = Store.write_shard
    calls = {"n": 0}

    def disk_full(self, game_id, n, shard, table, reuse=None, **kwargs):
        calls["n"] += 1
        if calls["n"] == 5:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self.staging_dir(game_id, n)))
        return real(self, game_id, n, shard, table, reuse, **kwargs)

    out = tmp_path / "results"
    monkeypatch.setattr(Store, "write_shard", disk_full)
    code, _, err = cli(capsys, "run", "--games", "lctr", "--min-n", "16", "--max-n", "20",
                       "--out", str(out), "--quiet", "--jobs", "1", "--shard-records", "50")
    assert code == 2 and err.count("\n") == 1, err
    assert "No space left on device" in err and "rerun to resume" in err
    monkeypatch.setattr(Store, "write_shard", real)
    assert_store_consistent(out)
    code, _, _ = cli(capsys, "run", "--games", "lctr", "--min-n", "16", "--max-n", "20",
                     "--out", str(out), "--quiet", "--jobs", "1", "--shard-records", "50")
    assert code == 0 and len(list(out.glob("game=lctr/n=*"))) == 5
    assert_store_consistent(out)


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupted_run_resumes_to_identical_records(tmp_path: Path, monkeypatch, jobs: int) -> None:
    fresh = tmp_path / "fresh" / "results"
    runner.run(["lctr", "knight"], max_n=24, out=str(fresh), jobs=1, progress=False, max_records=60)

    interrupted = tmp_path / "interrupted" / "results"
    # the 70th of 2 × 33 + 2 × 26 shards of n = 24 and 23 (largest n first, the two games' shards
    # in turn): n = 24 is complete, n = 23 is not
    interrupt_at_write(monkeypatch, 70, ["lctr", "knight"], jobs, max_n=24, out=str(interrupted),
                        max_records=60)
    assert_store_consistent(interrupted)
    staged = list((interrupted / ".staging").rglob("part-*.staged"))
    assert staged, "finished shards of the unfinished job wait in staging"

    summary = runner.run(["lctr", "knight"], max_n=24, out=str(interrupted), jobs=1, progress=False,
                         max_records=60)
    assert summary.jobs_skipped > 0 and summary.records < 2 * sum(partition_numbers(24)[1:])
    assert_store_consistent(interrupted)
    for game in ("lctr", "knight"):
        assert same_records(fresh, interrupted, game)
    # a rerun has nothing to do; --force recomputes and still gives the same records
    assert runner.run(["lctr"], max_n=24, out=str(interrupted), jobs=1, progress=False).records == 0
    runner.run(["lctr"], max_n=24, min_n=20, out=str(interrupted), jobs=1, progress=False, force=True)
    assert same_records(fresh, interrupted, "lctr")


def test_a_run_resumed_with_other_jobs_keeps_the_staged_shards(tmp_path: Path, monkeypatch) -> None:
    """The default shard size depends on --jobs; a (game, n) resumed with other --jobs keeps the
    size of its staged plan, so its finished shards are not computed again."""
    import pyarrow.parquet as pq

    from pipeline.games import get_game

    fresh = tmp_path / "fresh" / "results"
    runner.run(["lctr"], min_n=18, max_n=22, out=str(fresh), jobs=1, progress=False, max_records=50)
    # shard sizes for a small test: 64 records with 1 job, 32 with 2
    monkeypatch.setattr(runner, "MAX_SHARD_RECORDS", 64)
    monkeypatch.setattr(runner, "RECORDS_IN_MEMORY", 64)
    monkeypatch.setattr(runner, "MIN_SHARD_RECORDS", 8)
    out = tmp_path / "resumed" / "results"
    interrupt_at_write(monkeypatch, 12, ["lctr"], jobs=1, min_n=18, max_n=22, out=str(out))
    staging = out / ".staging" / "game=lctr"
    staged = sum(pq.read_metadata(f).num_rows for f in staging.rglob("part-*.staged"))
    unfinished = [int(d.name[2:]) for d in staging.glob("n=*")]
    assert staged > 0 and unfinished
    done = [n for n in range(18, 23) if (out / "game=lctr" / f"n={n}" / COMPLETE).is_file()]

    summary = runner.run(["lctr"], min_n=18, max_n=22, out=str(out), jobs=2, progress=False)
    todo = [n for n in range(18, 23) if n not in done]
    assert summary.records == sum(partition_numbers(22)[n] for n in todo) - staged
    for n in unfinished:  # finished with the staged plan's shards of 64 records, not 32
        meta = json.loads((out / "game=lctr" / f"n={n}" / COMPLETE).read_text())
        assert meta["shards"] == get_game("lctr").shard_count(n, 64) != get_game("lctr").shard_count(n, 32)
    assert_store_consistent(out)
    assert same_records(fresh, out, "lctr")


def test_killed_process_leaves_only_complete_jobs(tmp_path: Path) -> None:
    """SIGKILL a real multi-process run at an arbitrary moment; the store stays consistent."""
    out = tmp_path / "results"
    cmd = [sys.executable, "-m", "pipeline.cli", "run", "--games", "lctr,queen", "--max-n", "42",
           "--out", str(out), "--jobs", "2", "--shard-records", "3000", "--quiet"]
    proc = subprocess.Popen(cmd, start_new_session=True)
    # Killed once shards are being written (not while numba loads or compiles the kernels),
    # wherever the writing is then.
    deadline = time.monotonic() + 120
    while len(list(out.rglob("*.staged")) + list(out.glob("game=*/n=*/*.parquet"))) < 3:
        assert proc.poll() is None, "the run ended before it was killed"
        assert time.monotonic() < deadline, "the run wrote no shard within 120 s"
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert_store_consistent(out, killed=True)
    subprocess.run(cmd, check=True)
    assert_store_consistent(out)  # the rerun left no temporary file, in staging either
    con = connect(out)
    assert con.execute("SELECT count(*) FROM lctr").fetchall()[0][0] == sum(partition_numbers(42)[1:])


def test_an_error_in_one_solver_thread_stops_the_run_and_a_rerun_resumes(tmp_path: Path,
                                                                        monkeypatch) -> None:
    """A shard that fails in one of two solver threads ends the run with that error: the other
    thread takes no new shard, what was written stays consistent, and a rerun completes the store
    with the records of an uninterrupted run."""
    from pipeline.games import get_game
    from pipeline.games.moveset import MovesetGame

    fresh = tmp_path / "fresh" / "results"
    runner.run(["lctr"], min_n=18, max_n=26, out=str(fresh), jobs=1, progress=False, max_records=50)

    real = MovesetGame.solve_shard
    solved: list[tuple[int, int]] = []

    def failing(self, n: int, shard: int, max_records: int):
        if (n, shard) == (22, 3):
            raise RuntimeError("planted failure")
        solved.append((n, shard))
        return real(self, n, shard, max_records)

    out = tmp_path / "interrupted" / "results"
    monkeypatch.setattr(MovesetGame, "solve_shard", failing)
    with pytest.raises(RuntimeError, match="planted failure"):
        runner.run(["lctr"], min_n=18, max_n=26, out=str(out), jobs=2, progress=False, max_records=50)
    monkeypatch.setattr(MovesetGame, "solve_shard", real)
    total = sum(get_game("lctr").shard_count(n, 50) for n in range(18, 27))
    assert 0 < len(solved) < total - 1, "the run stopped early, after some shards"
    assert_store_consistent(out)
    again = runner.run(["lctr"], min_n=18, max_n=26, out=str(out), jobs=2, progress=False, max_records=50)
    assert again.jobs_done + again.jobs_skipped == 9 and again.records < sum(partition_numbers(26)[18:])
    assert_store_consistent(out)
    assert same_records(fresh, out, "lctr")


@pytest.mark.parametrize("key, other", [("version", "0.0.0"), ("shard_format", 1)])
def test_staged_shards_of_other_code_or_force_are_not_reused(tmp_path: Path, monkeypatch, key, other) -> None:
    """Finished shards wait in staging, but only the same code, writer and plan may reuse them."""
    out = tmp_path / "results"
    interrupt_at_write(monkeypatch, 3, ["king"], min_n=22, max_n=22, out=str(out), max_records=100)
    plan_file = out / ".staging" / "game=king" / "n=22" / "plan.json"
    plan = json.loads(plan_file.read_text())
    plan[key] = other  # as if written by another release, or by a writer of another shard format
    plan_file.write_text(json.dumps(plan))
    summary = runner.run(["king"], min_n=22, max_n=22, out=str(out), jobs=1, progress=False, max_records=100)
    assert summary.records == partition_numbers(22)[22]  # everything recomputed
    assert_store_consistent(out)


def test_a_run_resumed_by_other_code_recomputes_the_staged_shards(tmp_path: Path, monkeypatch) -> None:
    """Staged shards are the code's that computed them: after a fix (the sources' digest
    changes, the release number does not) a resumed (game, n) is computed afresh, never mixed;
    the same code resumes them. Each (game, n) records its code, which the jobs view and
    verify show, and verify warns when the store mixes versions."""
    out = tmp_path / "results"
    p = partition_numbers(22)[22]
    monkeypatch.setattr(runner, "source_digest", lambda: "a" * 64)
    interrupt_at_write(monkeypatch, 3, ["king"], min_n=22, max_n=22, out=str(out), max_records=100)
    monkeypatch.setattr(runner, "source_digest", lambda: "b" * 64)  # a fix, same __version__
    assert runner.run(["king"], min_n=22, max_n=22, out=str(out), jobs=1, progress=False,
                      max_records=100).records == p  # everything recomputed
    assert_store_consistent(out)
    done = json.loads((out / "game=king" / "n=22" / COMPLETE).read_text())
    assert done["code"] == "b" * 64
    interrupt_at_write(monkeypatch, 3, ["king"], min_n=21, max_n=21, out=str(out), max_records=100)
    summary = runner.run(["king"], min_n=21, max_n=21, out=str(out), jobs=1, progress=False, max_records=100)
    assert 0 < summary.records < partition_numbers(21)[21]  # same code: the staged shards reused
    monkeypatch.setattr(runner, "source_digest", lambda: "c" * 64)
    runner.run(["king"], min_n=20, max_n=20, out=str(out), jobs=1, progress=False)
    rows = connect(out).execute("SELECT n, code FROM jobs ORDER BY n").fetchall()
    assert rows == [(20, "c" * 64), (21, "b" * 64), (22, "b" * 64)]
    import pipeline

    assert runner.source_digest is not pipeline.source_digest and len(pipeline.source_digest()) == 64
