"""The command line: bad input, interrupted runs, sql and verify."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pytest

import pipeline.runner as runner
from pipeline.cli import main
from pipeline.partitions import partition_numbers
from pipeline.query import connect
from pipeline.storage import COMPLETE, record_checksum


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def same_records(a: Path, b: Path, game: str) -> bool:
    con = connect(a)
    rows_a = con.execute(f'SELECT * EXCLUDE (game) FROM "{game}" ORDER BY n, parts').fetchall()
    rows_b = connect(b).execute(f'SELECT * EXCLUDE (game) FROM "{game}" ORDER BY n, parts').fetchall()
    return rows_a == rows_b and len(rows_a) > 0


def assert_store_consistent(root: Path) -> None:
    """Only complete (game, n) directories are in the store, each with exactly p(n) records."""
    p = partition_numbers(60)
    con = connect(root)
    for d in root.glob("game=*/n=*"):
        assert (d / COMPLETE).is_file(), d
        game, n = d.parent.name[5:], int(d.name[2:])
        count = con.execute(f'SELECT count(*) FROM "{game}" WHERE n = {n}').fetchall()[0][0]
        assert count == p[n], (game, n, count)
    assert not list(root.rglob("*.tmp"))


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--games", "lctr,nosuchgame", "--max-n", "5"], "unknown game 'nosuchgame'"),
        (["run", "--games", "lctr", "--max-n", "0"], "--max-n (0) is below --min-n"),
        (["run", "--games", "lctr", "--min-n", "0", "--max-n", "3"], "--min-n must be at least 1"),
        (["run", "--games", "lctr", "--max-n", "999"], "beyond the supported bound"),
        (["run", "--games", "{(0,0)}", "--max-n", "3"], "offset (0,0) is not a move"),
        (["run", "--games", "{(-1,2)}", "--max-n", "3"], "down/right"),
        (["run", "--games", "moves_", "--max-n", "3"], "unknown game"),
        (["run", "--games", "{(1,2)", "--max-n", "3"], "unknown game '{(1,2)'"),
        (["run", "--games", "lctr", "--max-n", "3", "--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_run_arguments(capsys, tmp_path: Path, args: list[str], message: str) -> None:
    code, out, err = cli(capsys, *args, "--out", str(tmp_path / "results"))
    assert code == 2
    assert message in err and err.count("\n") == 1 and err.startswith("partgames: error:")
    assert not (tmp_path / "results" / "game=lctr").exists()


def test_foreign_and_unwritable_out(capsys, tmp_path: Path) -> None:
    foreign = tmp_path / "thesis"
    foreign.mkdir()
    (foreign / "chapter1.tex").write_text("precious")
    code, _, err = cli(capsys, "run", "--games", "lctr", "--max-n", "3", "--out", str(foreign))
    assert code == 2 and "not a partgames results directory" in err
    assert (foreign / "chapter1.tex").read_text() == "precious" and len(list(foreign.iterdir())) == 1
    afile = tmp_path / "afile"
    afile.write_text("x")
    code, _, err = cli(capsys, "run", "--games", "lctr", "--max-n", "3", "--out", str(afile))
    assert code == 2 and "not a directory" in err
    if os.geteuid() != 0:  # root can write anywhere
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        code, _, err = cli(capsys, "run", "--games", "lctr", "--max-n", "3", "--out", str(ro / "r"))
        assert code == 2 and "cannot write" in err


def test_sql_errors_and_formats(capsys, small_store: Path) -> None:
    code, _, err = cli(capsys, "sql", "--results", str(small_store), "SELEC nonsense")
    assert code == 2 and err.startswith("partgames: SQL error:") and err.count("\n") == 1
    code, _, err = cli(capsys, "sql", "--results", str(small_store.parent / "missing"), "SELECT 1")
    assert code == 2 and "does not exist" in err
    q = "SELECT parts, sg, sg_misere FROM lctr WHERE n = 3 ORDER BY parts"
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "json", q)
    assert code == 0
    rows = json.loads(out)
    assert [r["parts"] for r in rows] == [[1, 1, 1], [2, 1], [3]]
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "csv", q)
    assert out.splitlines()[0] == "parts,sg,sg_misere" and len(out.splitlines()) == 4
    code, out, _ = cli(capsys, "sql", "--results", str(small_store),
                       "SELECT game, count(*) c FROM records GROUP BY game ORDER BY game")
    assert code == 0 and "lctr" in out and "queen" in out
    # the helper macros are loaded for every query
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "csv",
                       "SELECT conjugate([3,1]) = [2,1,1]::SMALLINT[] AS ok")
    assert out.splitlines()[1] == "true"


def test_each_command_loads_only_what_it_uses(small_store: Path, tmp_path: Path) -> None:
    """sql, verify and search read a store without numba (0.3 s of every query's start), and a
    run writes one without DuckDB; a SQL error is still one line when nothing imported DuckDB
    before the command did."""
    probe = (
        "import sys\n"
        "from pipeline.cli import main\n"
        "code = main(sys.argv[2:])\n"
        "print(code, *sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'duckdb'}))\n"
    )

    def loaded(*args: str) -> tuple[str, str]:
        r = subprocess.run([sys.executable, "-c", probe, "-", *args], capture_output=True, text=True,
                           cwd=Path(__file__).resolve().parent.parent)
        return r.stdout.splitlines()[-1], r.stderr

    store = str(small_store)
    assert loaded("sql", "--results", store, "SELECT count(*) FROM lctr")[0] == "0 duckdb"
    assert loaded("verify", "--results", store, "--only", "lctr1.lemma2", "--report", "-")[0] == "0 duckdb"
    assert loaded("search", "--results", store, "min_states", "--max-n", "4")[0] == "0 duckdb"
    line, err = loaded("sql", "--results", store, "SELEC nonsense")
    assert line == "2 duckdb" and err.startswith("partgames: SQL error:") and err.count("\n") == 1
    out = str(tmp_path / "results")
    assert loaded("run", "--games", "lctr", "--max-n", "4", "--out", out, "--quiet")[0] == "0 numba"


def test_duckdb_memory_limit_and_threads(capsys, small_store: Path, monkeypatch) -> None:
    """--memory-limit and --threads reach DuckDB in sql, verify and search; a value DuckDB
    refuses is a one-line error naming the option, before any statement runs."""
    import pipeline.search as search_module
    import pipeline.verify as verify_module

    q = "SELECT current_setting('memory_limit') AS m, current_setting('threads') AS t"
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "csv",
                       "--memory-limit", "2GiB", "--threads", "1", q)
    assert code == 0 and out.splitlines()[1] == "2.0 GiB,1"
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "csv",
                       "--memory-limit", "25%", q)
    assert code == 0 and out.splitlines()[1].split(",")[0] != "2.0 GiB"
    for args, text in [(["--memory-limit", "lots"], "--memory-limit 'lots'"),
                       (["--threads", "0"], "--threads must be at least 1")]:
        code, _, err = cli(capsys, "sql", "--results", str(small_store), *args, "SELECT 1")
        assert code == 2 and err.startswith("partgames: error:") and err.count("\n") == 1, err
        assert text in err, err
    seen = []
    for module in (verify_module, search_module):
        real = module.connect

        def spy(*a, real=real, **kw):
            con = real(*a, **kw)
            seen.append(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
            return con

        monkeypatch.setattr(module, "connect", spy)
    cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2", "--report", "-",
        "--memory-limit", "3GiB")
    cli(capsys, "search", "--results", str(small_store), "min_states", "--memory-limit", "3GiB")
    assert seen == ["3.0 GiB", "3.0 GiB"]


def test_sql_and_verify_input_errors_are_one_line(capsys, small_store: Path, tmp_path: Path,
                                                  monkeypatch) -> None:
    """An empty query, a missing @file, an --only that matches nothing (a typo must not read
    as "0 fail") and an unwritable --report (refused before any statement runs) are one-line
    errors with exit status 2."""
    import pipeline.verify as verify_module

    def one_line(code: int, err: str, text: str) -> None:
        assert code == 2 and err.startswith("partgames: error:") and err.count("\n") == 1, err
        assert text in err, err

    code, _, err = cli(capsys, "sql", "--results", str(small_store), "  ")
    one_line(code, err, "the SQL query is empty")
    code, _, err = cli(capsys, "sql", "--results", str(small_store), f"@{tmp_path / 'no.sql'}")
    one_line(code, err, f"No such file or directory: {tmp_path / 'no.sql'}")
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                       "--only", "lctr1.lema3", "--report", "-")
    one_line(code, err, "--only 'lctr1.lema3' matches no statement")
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--only", "chess.thm4.10",
                       "--report", "-")  # a glob: its dots are dots (as a regex it was chess.thm4_10)
    one_line(code, err, "--only 'chess.thm4.10' matches no statement")

    def no_statement_may_run(*args, **kwargs):
        raise AssertionError("a statement ran before the report path was checked")

    monkeypatch.setattr(verify_module, "run_statement", no_statement_may_run)
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                       "--report", str(tmp_path / "missing" / "VERIFY.md"))
    one_line(code, err, f"directory {tmp_path / 'missing'} does not exist")
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                       "--report", str(tmp_path))
    one_line(code, err, "is a directory")


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
        assert f"is being written by another partgames run (pid {holder.pid})" in err
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


def _interrupt_at_write(monkeypatch, nth: int, games: list[str], jobs: int = 1, **run_args) -> None:
    """Run in-process and interrupt it (KeyboardInterrupt) as the writer thread starts its
    ``nth`` shard; the real writer is back in place afterwards."""
    real = runner._write_shard  # runs in the writer thread, beside the kernel
    calls = {"n": 0}

    def dying(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == nth:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "_write_shard", dying)
    with pytest.raises(KeyboardInterrupt):
        runner.run(games, jobs=jobs, progress=False, **run_args)
    monkeypatch.setattr(runner, "_write_shard", real)


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupted_run_resumes_to_identical_records(tmp_path: Path, monkeypatch, jobs: int) -> None:
    fresh = tmp_path / "fresh" / "results"
    runner.run(["lctr", "knight"], max_n=24, out=str(fresh), jobs=1, progress=False, max_records=60)

    interrupted = tmp_path / "interrupted" / "results"
    # the 70th of 2 × 33 + 2 × 26 shards of n = 24 and 23 (largest n first, the two games' shards
    # in turn): n = 24 is complete, n = 23 is not
    _interrupt_at_write(monkeypatch, 70, ["lctr", "knight"], jobs, max_n=24, out=str(interrupted),
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


def test_shard_size_halves_with_jobs_and_never_passes_its_bounds() -> None:
    import doctest

    assert doctest.testmod(runner).failed == 0
    for jobs in range(1, 200):
        size = runner.default_shard_records(jobs)
        assert runner.MIN_SHARD_RECORDS <= size <= runner.MAX_SHARD_RECORDS
        assert jobs * size <= runner.RECORDS_IN_MEMORY or size == runner.MIN_SHARD_RECORDS
        assert size >= runner.default_shard_records(jobs + 1)


def test_shards_in_memory_stay_within_the_record_budget_whatever_the_jobs(tmp_path: Path,
                                                                          monkeypatch) -> None:
    """With 4 solver threads and a budget of two 50-record shards, at most two shards are ever
    solved or waiting to be written at once, no solved shard stays in memory (referenced from
    anywhere) once its records are given back, and the records are those of a 1-job run."""
    games = ["lctr"]
    import threading
    import weakref

    from pipeline.games.moveset import MovesetGame

    fresh = tmp_path / "fresh" / "results"
    runner.run(games, min_n=16, max_n=20, out=str(fresh), jobs=1, progress=False, max_records=50)
    lock, held, peak = threading.Lock(), [0], [0]
    tables: list[weakref.ref] = []  # every solved shard's table, alive while referenced
    alive_peak = [0]
    real_solve, real_write = MovesetGame.solve_shard, runner._write_shard

    def solve(self, n: int, shard: int, max_records: int, **shared):
        with lock:
            held[0] += 1
            peak[0] = max(peak[0], held[0])
        time.sleep(0.01)  # the threads overlap
        with lock:
            # This shard's records are taken, so at most one other shard may be in memory. (The
            # sleep first: the writer's work item drops its table just after giving the records
            # back, microseconds later.)
            alive_peak[0] = max(alive_peak[0], 1 + sum(ref() is not None for ref in tables))
        table = real_solve(self, n, shard, max_records, **shared)
        with lock:
            tables.append(weakref.ref(table))
        return table

    def write(*args):
        result = real_write(*args)
        with lock:
            held[0] -= 1
        return result

    monkeypatch.setattr(MovesetGame, "solve_shard", solve)
    monkeypatch.setattr(runner, "_write_shard", write)
    monkeypatch.setattr(runner, "RECORDS_IN_MEMORY", 100)
    out = tmp_path / "budget" / "results"
    runner.run(games, min_n=16, max_n=20, out=str(out), jobs=4, progress=False, max_records=50)
    assert peak[0] == 2 and held[0] == 0
    assert alive_peak[0] <= 2
    assert_store_consistent(out)
    assert all(same_records(fresh, out, game) for game in games)


def test_shared_partition_columns_stay_within_the_record_budget(tmp_path: Path, monkeypatch) -> None:
    """Board games solving each shard in turn (their partition columns shared) with 4 threads
    and a budget of two 50-record shards: the shards whose partition columns are in memory
    (held by a table or by a group for its next game) are never more than two, nothing of the
    budget is left taken at the end, and the records are those of a 1-job run. (A group counts as
    one shard until its last write; counted only while its first table was, threads waiting for
    budget in the middle of a group held its columns: up to four here.)"""
    import threading
    import weakref

    from pipeline.games.moveset import MovesetGame

    games = ["lctr", "downright", "king"]
    fresh = tmp_path / "fresh" / "results"
    runner.run(games, min_n=16, max_n=20, out=str(fresh), jobs=1, progress=False, max_records=50)
    lock = threading.Lock()
    tables: list[tuple[weakref.ref, int]] = []  # (table, address of its parts)
    lent: list[tuple[weakref.ref, int]] = []  # (parts a group lends, its address)
    peak, budgets = [0], []
    real_solve, real_lend = MovesetGame.solve_shard, runner.partition_columns

    def address(parts: pa.Array) -> int:
        return parts.buffers()[-1].address

    def shards_in_memory(new: bool) -> int:
        with lock:
            held = {a for ref, a in tables + lent if ref() is not None}
        return len(held) + new

    def solve(self, n: int, shard: int, max_records: int, **shared):
        time.sleep(0.01)  # the threads overlap; the writer drops a table just after its write
        peak[0] = max(peak[0], shards_in_memory(new=not shared))
        table = real_solve(self, n, shard, max_records, **shared)
        with lock:
            tables.append((weakref.ref(table), address(table["parts"].chunk(0))))
        return table

    def lend(table: pa.Table) -> dict:
        columns = real_lend(table)
        with lock:
            lent.append((weakref.ref(columns["parts"]), address(columns["parts"])))
        return columns

    class Budget(runner._RecordBudget):
        def __init__(self, limit: int):
            super().__init__(limit)
            budgets.append(self)

    monkeypatch.setattr(MovesetGame, "solve_shard", solve)
    monkeypatch.setattr(runner, "partition_columns", lend)
    monkeypatch.setattr(runner, "_RecordBudget", Budget)
    monkeypatch.setattr(runner, "RECORDS_IN_MEMORY", 100)
    out = tmp_path / "budget" / "results"
    runner.run(games, min_n=16, max_n=20, out=str(out), jobs=4, progress=False, max_records=50)
    assert peak[0] == 2
    assert [b.used for b in budgets] == [0]
    assert_store_consistent(out)
    assert all(same_records(fresh, out, game) for game in games)


def test_malloc_arenas_are_capped_unless_the_user_chose(monkeypatch) -> None:
    """A run caps glibc's malloc arenas (runner.MALLOC_ARENAS) through mallopt, but leaves an
    explicit MALLOC_ARENA_MAX alone, and does nothing where the C library has no mallopt."""
    import ctypes

    calls: list[tuple[int, int]] = []

    class FakeLibc:
        def mallopt(self, param, value) -> int:
            calls.append((param.value, value.value))
            return 1

    monkeypatch.setattr(ctypes, "CDLL", lambda name: FakeLibc())
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    runner.limit_malloc_arenas()
    assert calls == [(-8, runner.MALLOC_ARENAS)]  # M_ARENA_MAX in glibc's malloc.h
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    runner.limit_malloc_arenas()
    assert len(calls) == 1
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    monkeypatch.setattr(ctypes, "CDLL", lambda name: object())  # no mallopt: not glibc
    runner.limit_malloc_arenas()
    assert len(calls) == 1


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
    _interrupt_at_write(monkeypatch, 12, ["lctr"], jobs=1, min_n=18, max_n=22, out=str(out))
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
    time.sleep(6)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert_store_consistent(out)
    subprocess.run(cmd, check=True)
    assert_store_consistent(out)
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


def test_verify_reports_planted_counterexample(capsys, small_store: Path, plant) -> None:
    code, out, _ = cli(capsys, "verify", "--results", str(small_store), "--format", "json",
                       "--only", "lctr1.lemma2")
    results = json.loads(out)
    assert code == 0 and [r["status"] for r in results] == ["holds"]
    assert set(results[0]) >= {"id", "source", "kind", "status", "rows", "max_n", "counterexamples",
                               "examples"}
    assert results[0]["max_n"] == 14 and results[0]["rows"] > 0
    planted = plant(small_store, "lctr", [3, 3, 1], sg=3)
    code, out, _ = cli(capsys, "verify", "--results", str(planted), "--format", "json",
                       "--only", "lctr1.lemma2")
    results = json.loads(out)
    assert code == 1 and results[0]["status"] == "fails" and results[0]["counterexamples"] == 1
    assert results[0]["examples"][0]["parts"] == [3, 3, 1]
    assert (planted / "VERIFY.md").is_file()


def test_verify_prints_each_statement_as_it_ends(capsys, small_store: Path, monkeypatch) -> None:
    """Over an overnight store a statement takes minutes: its line (with its time) is printed
    when it ends, before the next one runs, and the summary adds up the times."""
    import pipeline.verify as verify_module

    printed_before: list[str] = []
    run_statement = verify_module.run_statement

    def spy(con, st):
        printed_before.append(capsys.readouterr().out)  # what was out when this statement began
        return run_statement(con, st)

    monkeypatch.setattr(verify_module, "run_statement", spy)
    code, out, _ = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                       "--only", "lctr1.lemma3", "--report", "-")
    assert code == 0 and printed_before[0] == ""
    assert re.match(r"lctr1\.lemma2 .* holds .*\(\d+\.\d s\)\n$", printed_before[1])
    assert re.match(r"lctr1\.lemma3 .*\(\d+\.\d s\)\n2 statements: 2 hold.*; \d+\.\d s\n"
                    r"records of \d+ \(game, n\) computed by code [0-9a-f]{16} \(partgames .*\)\n$", out)
    code, out, _ = cli(capsys, "verify", "--results", str(small_store), "--format", "json",
                       "--only", "lctr1.lemma2", "--report", "-")
    (result,) = json.loads(out)
    assert result["seconds"] > 0


@pytest.mark.parametrize("in_place", [False, True])
def test_n_range_of_sql_verify(capsys, small_store: Path, plant, monkeypatch, in_place) -> None:
    """--min-n / --max-n keep every view to those n, read in place (large stores) or loaded."""
    import doctest

    import pipeline.query as query

    doctests = doctest.testmod(query)
    assert doctests.attempted > 0 and doctests.failed == 0
    if in_place:
        monkeypatch.setattr(query, "MATERIALIZE_BELOW", 0)
    p = partition_numbers(14)
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--min-n", "5", "--max-n", "9",
                       "--format", "json", "SELECT game, min(n) AS lo, max(n) AS hi, count(*) AS c "
                       "FROM records WHERE game IN ('lctr', 'king') GROUP BY game ORDER BY game")
    assert code == 0 and json.loads(out) == [{"game": g, "lo": 5, "hi": 9, "c": sum(p[5:10])}
                                             for g in ("king", "lctr")]
    planted = plant(small_store, "lctr", [3, 3, 1], sg=3)  # n = 7
    for bounds, code_expected, rows in [(("--max-n", "7"), 1, 2 * sum(p[1:8])),
                                        (("--min-n", "8"), 0, 2 * sum(p[8:15]))]:
        code, out, _ = cli(capsys, "verify", "--results", str(planted), "--format", "json",
                           "--only", "lctr1.lemma2", "--report", "-", *bounds)
        (result,) = json.loads(out)
        assert code == code_expected and result["rows"] == rows
        assert (result["min_n"], result["max_n"]) == ((1, 7) if bounds[0] == "--max-n" else (8, 14))
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--min-n", "9", "--max-n", "8")
    assert code == 2 and err.strip() == "partgames: error: --min-n (9) is above --max-n (8)"


def test_the_spill_of_a_killed_process_is_removed_by_the_next_connection(tmp_path: Path) -> None:
    """A spill directory whose process is gone (DuckDB removes its own only on close, and the
    OOM killer left 28 GiB) goes at the next connection to the store; a live process's stays."""
    out = tmp_path / "results"
    runner.run(["lctr"], max_n=4, out=str(out), jobs=1, progress=False)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        stale = tmp_path / f".results.duckdb-spill-{dead.pid}-0"
        live = tmp_path / f".results.duckdb-spill-{alive.pid}-3"
        other = tmp_path / ".results.duckdb-spill-notapid-0"
        for d in (stale, live, other):
            d.mkdir()
            (d / "duckdb_temp_block-1.block").write_bytes(b"x" * 1000)
        connect(out).close()
        assert not stale.exists()
        assert live.exists() and other.exists()
    finally:
        alive.kill()
        alive.wait()


def test_queries_spill_beside_the_store_within_a_limit(capsys, small_store: Path, tmp_path: Path,
                                                       monkeypatch) -> None:
    """DuckDB spills a join that outgrows memory into a directory of the connection's own beside
    the store (not `.tmp/` of the working directory), removed on close, and up to a share of
    the free disk: past it, a one-line error that says to verify fewer n."""
    import duckdb

    import pipeline.query as query

    monkeypatch.chdir(tmp_path)
    con = query.connect(small_store)
    spill = Path(con.execute("SELECT current_setting('temp_directory')").fetchall()[0][0])
    assert spill.parent == small_store.resolve().parent and spill.name.startswith(".results.duckdb-spill-")
    settings = "SET memory_limit = '100MB'; SET threads = 1; SET enable_progress_bar = false"
    con.execute(settings)
    join = "SELECT count(*) FROM range(4000000) a(i) JOIN range(4000000) b(i) ON a.i = b.i"
    assert con.execute(join).fetchall() == [(4000000,)]
    con.close()
    assert not spill.exists() and not (tmp_path / ".tmp").exists()
    monkeypatch.setattr(query, "SPILL_SHARE", 1e-15)  # the 1 MiB floor
    con = query.connect(small_store)
    con.execute(settings)
    with pytest.raises(duckdb.Error) as err:
        con.execute(join).fetchall()
    message = query.explain(err.value)
    assert "\n" not in message and "--max-n" in message


def test_verify_no_data(capsys, tmp_path: Path) -> None:
    out = tmp_path / "results"
    runner.run(["rook"], max_n=5, out=str(out), jobs=1, progress=False)
    code, text, _ = cli(capsys, "verify", "--results", str(out), "--format", "json", "--only", "lctr1.*")
    results = json.loads(text)
    assert code == 0 and results and all(r["status"] == "no data" for r in results)


def test_conjecture_counterexample_is_a_discovery_not_a_failure(capsys, small_store: Path, plant) -> None:
    """A conjecture that fails is reported loudly, and verify still exits 0."""
    planted = plant(small_store, "lctr", [3, 3, 3], nodes=1)
    code, out, _ = cli(capsys, "verify", "--results", str(planted), "--only", "lctr2.conjecture27")
    assert code == 0
    assert "DISCOVERY" in out
    code, out, _ = cli(capsys, "verify", "--results", str(planted), "--format", "json",
                       "--only", "lctr2.conjecture27")
    (result,) = json.loads(out)
    assert result["kind"] == "conjecture" and result["status"] == "fails"
    assert result["counterexamples"] > 0 and all(e["n"] == 9 for e in result["examples"])


def test_erratum_reports_printed_form(capsys, small_store: Path) -> None:
    code, out, _ = cli(capsys, "verify", "--results", str(small_store), "--format", "json",
                       "--only", "lctr2.proposition28")
    (result,) = json.loads(out)
    assert code == 0 and result["kind"] == "erratum" and result["status"] == "holds"
    assert result["printed_counterexamples"] > 0 and result["erratum_confirmed"] is True


@pytest.mark.parametrize("key, other", [("version", "0.0.0"), ("shard_format", 1)])
def test_staged_shards_of_other_code_or_force_are_not_reused(tmp_path: Path, monkeypatch, key, other) -> None:
    """Finished shards wait in staging, but only the same code, writer and plan may reuse them."""
    out = tmp_path / "results"
    _interrupt_at_write(monkeypatch, 3, ["king"], min_n=22, max_n=22, out=str(out), max_records=100)
    plan_file = out / ".staging" / "game=king" / "n=22" / "plan.json"
    plan = json.loads(plan_file.read_text())
    plan[key] = other  # as if written by another release, or by the earlier (pyarrow) writer
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
    _interrupt_at_write(monkeypatch, 3, ["king"], min_n=22, max_n=22, out=str(out), max_records=100)
    monkeypatch.setattr(runner, "source_digest", lambda: "b" * 64)  # a fix, same __version__
    assert runner.run(["king"], min_n=22, max_n=22, out=str(out), jobs=1, progress=False,
                      max_records=100).records == p  # everything recomputed
    assert_store_consistent(out)
    done = json.loads((out / "game=king" / "n=22" / COMPLETE).read_text())
    assert done["code"] == "b" * 64
    _interrupt_at_write(monkeypatch, 3, ["king"], min_n=21, max_n=21, out=str(out), max_records=100)
    summary = runner.run(["king"], min_n=21, max_n=21, out=str(out), jobs=1, progress=False, max_records=100)
    assert 0 < summary.records < partition_numbers(21)[21]  # same code: the staged shards reused
    monkeypatch.setattr(runner, "source_digest", lambda: "c" * 64)
    runner.run(["king"], min_n=20, max_n=20, out=str(out), jobs=1, progress=False)
    rows = connect(out).execute("SELECT n, code FROM jobs ORDER BY n").fetchall()
    assert rows == [(20, "c" * 64), (21, "b" * 64), (22, "b" * 64)]
    import pipeline

    assert runner.source_digest is not pipeline.source_digest and len(pipeline.source_digest()) == 64


def test_verify_names_the_code_of_the_records(capsys, tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "results"
    runner.run(["lctr"], max_n=6, out=str(out), jobs=1, progress=False)
    code, text, _ = cli(capsys, "verify", "--results", str(out), "--only", "lctr1.lemma2")
    import pipeline

    line = f"records of 6 (game, n) computed by code {pipeline.source_digest()[:16]} (partgames "
    assert code == 0 and line in text and "mixes" not in text
    assert line in (out / "VERIFY.md").read_text()
    old = out / "game=lctr" / "n=2" / COMPLETE
    record = json.loads(old.read_text())
    del record["code"]  # a commit record that does not name its code
    record["checksum"] = record_checksum(record)
    old.write_text(json.dumps(record))
    code, text, _ = cli(capsys, "verify", "--results", str(out), "--only", "lctr1.lemma2", "--report", "-")
    assert "records of 5 (game, n) computed by code" in text
    assert "records of 1 (game, n) computed by code not recorded" in text
    assert "the store mixes records of 2 versions of the code" in text
    code, text, _ = cli(capsys, "verify", "--results", str(out), "--only", "lctr1.lemma2", "--report", "-",
                        "--min-n", "3")
    assert "records of 4 (game, n)" in text and "mixes" not in text


@pytest.mark.parametrize("command, message", [
    (["run", "--games", "lctr", "--max-n", "6", "--quiet"],
     "partgames: interrupted; finished shards are kept, rerun to resume\n"),
    (["verify", "--only", "lctr1.lemma2", "--report", "-"], "partgames: interrupted\n"),
])
def test_ctrl_c_says_what_it_left(capsys, small_store: Path, tmp_path: Path, monkeypatch,
                                  command: list[str], message: str) -> None:
    """Ctrl-C ends with exit status 130 and one line; only a run has shards to resume."""
    import pipeline.verify as verify_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "_solve_all", interrupted)
    monkeypatch.setattr(verify_module, "run_statement", interrupted)
    where = ["--out", str(tmp_path / "r")] if command[0] == "run" else ["--results", str(small_store)]
    code, _, err = cli(capsys, *command, *where)
    assert code == 130 and err == message
