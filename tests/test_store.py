"""The store never lies: damage is found and repaired, commits are atomic, kills are survived.

Every damage of the tests (a file deleted, truncated, extended, or with a bit flipped, for each
kind of file) is reported by ``check --deep``, is never read by a view as data (the views leave
the damaged (game, n) out and say so), and ``run`` repairs it to records identical to a clean
run. Commits are killed (SIGKILL) at each of their steps and at random moments of whole runs.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import recommit

import pipeline.runner as runner
import pipeline.storage as storage
from pipeline.cli import main
from pipeline.partitions import partition_numbers
from pipeline.query import connect
from pipeline.runner import run
from pipeline.storage import COMPLETE, KILL_AT_STEP, Store, check_job

GAMES = ["lctr", "downright", "king", "sn3_2"]
MAX_N = 16
SHARD = 40  # records per shard: several files in the larger (game, n)


def partgames(*args: str, env: dict | None = None, **kwargs) -> subprocess.Popen:
    """The command in a process of its own (as a user starts it)."""
    return subprocess.Popen([sys.executable, "-m", "pipeline.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})},
                            **kwargs)


def shard_file(job: Path, shard: int) -> Path:
    """The committed file of shard ``shard`` of a (game, n) directory (named after its commit)."""
    [path] = job.glob(f"part-{shard:05d}*.parquet")
    return path


def rows(root: Path, on_damage=None) -> list[tuple]:
    """Every record the views show, in order (``game`` included)."""
    con = connect(root, on_damage=on_damage or (lambda line: None))
    return con.execute("SELECT * FROM records ORDER BY game, n, parts").fetchall()


def rows_by_job(all_rows: list[tuple], root: Path) -> dict[tuple[str, int], list[tuple]]:
    con = connect(root)
    names = [d[0] for d in con.execute("SELECT * FROM records LIMIT 0").description]
    g, n = names.index("game"), names.index("n")
    out: dict[tuple[str, int], list[tuple]] = {}
    for r in all_rows:
        out.setdefault((r[g], r[n]), []).append(r)
    return out


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("clean") / "results"
    run(GAMES, max_n=MAX_N, out=str(root), jobs=2, progress=False, max_records=SHARD)
    return root


@pytest.fixture(scope="module")
def clean_rows(clean: Path) -> list[tuple]:
    return rows(clean)


def copy(store: Path, dest: Path) -> Path:
    """A copy of a store, re-stamped by ``check`` (its files hashed once, their new inodes and
    ctimes recorded), as a user copying a store does."""
    shutil.copytree(store, dest, copy_function=shutil.copy2)
    assert main(["check", "--results", str(dest)]) == 0
    return dest


def test_a_clean_store_checks_clean(clean: Path, capsys) -> None:
    for deep in ([], ["--deep"]):
        assert main(["check", "--results", str(clean), *deep]) == 0
        out = capsys.readouterr().out
        assert f"{len(GAMES) * MAX_N} (game, n) sound" in out and "0 damaged" in out, out
    sound, damaged = Store(clean).committed(deep=True, rows=True)
    assert not damaged and sum(r["records"] for _, _, r in sound) == (
        3 * sum(partition_numbers(MAX_N)[1:]) + sum(
            1 for n in range(1, MAX_N + 1) for _ in _parts_at_most(n, 3)))


def _parts_at_most(n: int, s: int, top: int | None = None):
    """Partitions of n into at most s parts (Slow SetNim's start positions, docs/definitions.md §6)."""
    top = n if top is None else top
    if n == 0:
        yield ()
        return
    if s == 0:
        return
    for first in range(min(n, top), 0, -1):
        for rest in _parts_at_most(n - first, s - 1, first):
            yield (first, *rest)


def _damage(path: Path, how: str, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    if how == "delete":
        path.unlink()
    elif how == "truncate":
        path.write_bytes(bytes(data[: rng.randrange(len(data))]))
    elif how == "extend":
        path.write_bytes(bytes(data) + b"\0")
    elif how == "bitflip":
        bit = rng.randrange(8 * len(data))
        data[bit // 8] ^= 1 << (bit % 8)
        path.write_bytes(bytes(data))
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["delete", "truncate", "extend", "bitflip"])
@pytest.mark.parametrize("kind", ["shard", "commit record"])
def test_damage_is_reported_left_out_of_the_views_and_repaired(
        clean: Path, clean_rows: list[tuple], tmp_path: Path, capsys, how: str, kind: str) -> None:
    rng = random.Random(f"{how}-{kind}")
    store = copy(clean, tmp_path / "results")
    job = store / "game=king" / f"n={MAX_N}"  # several shards
    target = sorted(job.glob("*.parquet"))[1] if kind == "shard" else job / COMPLETE
    _damage(target, how, rng)

    assert main(["check", "--results", str(store), "--deep"]) == 1
    out = capsys.readouterr().out
    assert f"damaged: game=king n={MAX_N}:" in out and "1 damaged" in out, out

    warnings: list[str] = []
    seen = rows(store, on_damage=warnings.append)
    expected = {k: v for k, v in rows_by_job(clean_rows, clean).items() if k != ("king", MAX_N)}
    assert seen == [r for k in sorted(expected) for r in expected[k]]  # the rest, unchanged
    assert len(warnings) == 1 and f"game=king n={MAX_N}" in warnings[0]

    summary = run(GAMES, max_n=MAX_N, out=str(store), jobs=1, progress=False, max_records=SHARD)
    assert summary.jobs_repaired == 1 and summary.jobs_done == 1
    assert rows(store) == clean_rows
    assert main(["check", "--results", str(store), "--deep"]) == 0
    capsys.readouterr()


def test_every_single_bit_flip_is_found_and_never_read(clean: Path, clean_rows: list[tuple],
                                                       tmp_path: Path) -> None:
    """Many random single-bit flips, in a shard and in a commit record, one at a time: each is
    damage to the check the views make (a stat of each file, the files that moved hashed) and to
    ``check --deep``, and the views (built every tenth flip) show no record of that (game, n)."""
    store = copy(clean, tmp_path / "results")
    job = store / "game=lctr" / f"n={MAX_N}"
    by_job = rows_by_job(clean_rows, clean)
    expected = [r for k in sorted(by_job) if k != ("lctr", MAX_N) for r in by_job[k]]
    rng = random.Random(7)
    flips = 0
    for target, count in ((sorted(job.glob("*.parquet"))[0], 150), (job / COMPLETE, 50)):
        original = target.read_bytes()
        for _ in range(count):
            _damage(target, "bitflip", rng)
            for deep in (False, True):
                with pytest.raises(storage.DamageError):
                    check_job(job, deep=deep)
            if flips % 10 == 0:
                assert rows(store) == expected  # left out: no record of it is read
            target.write_bytes(original)
            flips += 1
    check_job(job, deep=True)  # the original bytes again: sound (its ctime moved, its hash did not)
    assert rows(store) == clean_rows and flips == 200


def test_an_extra_or_uncommitted_file_is_damage(clean: Path, tmp_path: Path, capsys) -> None:
    store = copy(clean, tmp_path / "results")
    shutil.copy(shard_file(store / "game=lctr" / "n=5", 0), store / "game=lctr" / "n=5" / "x.parquet")
    uncommitted = store / "game=lctr" / "n=40"  # a directory no commit made
    uncommitted.mkdir()
    shutil.copy(shard_file(store / "game=lctr" / "n=6", 0), uncommitted / "part-00000.parquet")
    assert main(["check", "--results", str(store)]) == 1
    out = capsys.readouterr().out
    assert "game=lctr n=5: file not in the commit record: x.parquet" in out
    assert "game=lctr n=40: no commit record" in out
    assert connect(store, on_damage=lambda line: None).execute(
        "SELECT count(*) FROM lctr WHERE n IN (5, 40)").fetchall() == [(0,)]


def test_rows_in_a_footer_are_checked(clean: Path, tmp_path: Path, capsys) -> None:
    """A shard replaced by another shard's file of the same size would pass the sizes; its rows
    (and its hash) do not."""
    store = copy(clean, tmp_path / "results")
    job = store / "game=downright" / f"n={MAX_N}"
    record = json.loads((job / COMPLETE).read_text())
    record["files"][0]["rows"] += 1
    record["files"][1]["rows"] -= 1
    record["checksum"] = storage.record_checksum(record)
    (job / COMPLETE).write_text(json.dumps(record))
    with pytest.raises(storage.DamageError, match="holds .* rows, committed"):
        check_job(job, rows=True)
    assert main(["check", "--results", str(store)]) == 1
    assert "rows, committed" in capsys.readouterr().out


def test_run_repair_hashes_every_byte(clean: Path, clean_rows: list[tuple], tmp_path: Path) -> None:
    """Damage that leaves size, inode and ctime as committed (bit rot under the filesystem) is
    found by ``run --repair`` and ``check --deep``, not by the stat of a plain run."""
    store = copy(clean, tmp_path / "results")
    job = store / "game=lctr" / "n=12"
    target = shard_file(job, 0)
    record = json.loads((job / COMPLETE).read_text())
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x10
    target.write_bytes(bytes(data))
    st = target.stat()
    record["files"][0].update(ino=st.st_ino, ctime_ns=st.st_ctime_ns)  # as if never written
    record["checksum"] = storage.record_checksum(record)
    (job / COMPLETE).write_text(json.dumps(record))
    assert run(["lctr"], max_n=MAX_N, out=str(store), jobs=1, progress=False).jobs_repaired == 0
    said: list[str] = []
    summary = run(["lctr"], max_n=MAX_N, out=str(store), jobs=1, progress=False, repair=True,
                  say=said.append, max_records=SHARD)
    assert summary.jobs_repaired == 1 and any("game=lctr n=12 is damaged" in s for s in said)
    assert rows(store) == clean_rows


def test_a_planted_record_is_recommitted_not_damage(small_store: Path, plant) -> None:
    """The tests' planting helper rewrites a file and its commit record together."""
    store = plant(small_store, "lctr", [3, 1, 1], sg=2)
    check_job(store / "game=lctr" / "n=5", deep=True, rows=True)
    assert connect(store).execute("SELECT sg FROM lctr WHERE parts = [3, 1, 1]").fetchall() == [(2,)]


# ---- atomic commits ----------------------------------------------------------------------------

def _force_steps(store: Path, env: dict) -> subprocess.CompletedProcess:
    p = partgames("run", "--games", "king", "--min-n", str(MAX_N), "--max-n", str(MAX_N), "--out",
                  str(store), "--force", "--quiet", "--jobs", "1", "--shard-records", str(SHARD), env=env)
    out, err = p.communicate(timeout=120)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def test_force_is_atomic_at_every_step_of_its_commit(clean: Path, clean_rows: list[tuple],
                                                     tmp_path: Path) -> None:
    """SIGKILL at each step of a ``--force`` commit (each rename, the commit record): at every
    instant the old complete (game, n) or the new one is in place and sound, and the next run
    removes what the kill left. A commit's steps: a rename per shard, the record, the swap of
    the directories and the removal of the old one."""
    shards = json.loads((clean / "game=king" / f"n={MAX_N}" / COMPLETE).read_text())["shards"]
    assert shards > 2
    steps = 0
    while True:
        steps += 1
        store = copy(clean, tmp_path / f"k{steps}" / "results")
        done = _force_steps(store, {KILL_AT_STEP: str(steps)})
        if done.returncode == 0:
            break
        assert done.returncode == -signal.SIGKILL, done.stderr
        sound, damaged = Store(store).committed(deep=True, rows=True)
        assert not damaged and ("king", MAX_N) in {(g, n) for g, n, _ in sound}, steps
        assert rows(store) == clean_rows, steps  # old or new, whole: the same records
        assert run(GAMES, max_n=MAX_N, out=str(store), jobs=1, progress=False).jobs_done == 0
        assert not (store / ".staging").exists(), list((store / ".staging").rglob("*"))
        assert rows(store) == clean_rows
    assert steps == shards + 1 + 2 + 1  # the steps, then a run that is not killed


def test_force_without_an_atomic_swap_is_recovered(clean: Path, clean_rows: list[tuple],
                                                   tmp_path: Path, monkeypatch) -> None:
    """Where the filesystem cannot swap two directories, the old (game, n) is moved aside and the
    new one moved in; a crash between the two leaves neither in place, and the next run (its
    lock taken) puts one back before anything reads or writes."""
    monkeypatch.setattr(storage, "exchange_directories", lambda a, b: False)
    shards = json.loads((clean / "game=king" / f"n={MAX_N}" / COMPLETE).read_text())["shards"]
    for crash_at in range(1, shards + 6):
        store = copy(clean, tmp_path / f"c{crash_at}" / "results")
        count = {"steps": 0}

        def crash(count=count, crash_at=crash_at):
            count["steps"] += 1
            if count["steps"] == crash_at:
                raise SystemExit("crash")

        monkeypatch.setattr(storage, "commit_step", crash)
        try:
            run(["king"], min_n=MAX_N, max_n=MAX_N, out=str(store), jobs=1, progress=False,
                force=True, max_records=SHARD)
            finished = True
        except SystemExit:
            finished = False
        monkeypatch.setattr(storage, "commit_step", lambda: None)
        if not finished:
            run(GAMES, max_n=MAX_N, out=str(store), jobs=1, progress=False)
        assert rows(store) == clean_rows, crash_at
        assert not (store / ".staging").exists()
        assert not Store(store).committed(deep=True)[1]
        if finished:
            assert crash_at == shards + 5  # a rename per shard, the record, aside, in, removal
            break
    assert finished


def test_killed_runs_resume_to_a_clean_store(clean: Path, clean_rows: list[tuple], tmp_path: Path) -> None:
    """The crash test: a run killed with SIGKILL at random moments and resumed each time ends
    identical to a clean run, with ``check --deep`` clean. Many small shards, so that kills
    land while shards are written, while commits rename, and between them."""
    store = tmp_path / "results"
    rng = random.Random(2024)
    kills = 0
    args = ["run", "--games", ",".join(GAMES), "--max-n", str(MAX_N), "--out", str(store), "--quiet",
            "--jobs", "2", "--shard-records", "7"]
    deadline = time.monotonic() + 60
    while True:
        p = partgames(*args)
        if kills < 25 and time.monotonic() < deadline:
            try:
                p.wait(timeout=rng.uniform(0.2, 1.5))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                kills += 1
                assert not Store(store).committed(deep=True, rows=True)[1]  # never a half (game, n)
                continue
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        break
    assert kills >= 5, "the kills landed after the run ended: make the shards smaller"
    assert rows(store) == clean_rows
    assert main(["check", "--results", str(store), "--deep"]) == 0
    assert not (store / ".staging").exists()
    print(f"crash test: {kills} kills")


# ---- where the store lives ---------------------------------------------------------------------

def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


def test_a_store_on_its_own_mount_with_a_read_only_parent(clean_rows: list[tuple], tmp_path: Path) -> None:
    """The store is a mount point (a filesystem of its own) and its parent is read-only: every
    rename of a run stays inside the store, so the run writes it whole."""
    parent, store = tmp_path / "ro", tmp_path / "ro" / "results"
    store.mkdir(parents=True)
    if not _mount("--bind", str(parent), str(parent)):
        pytest.skip("mount is not permitted here")
    mounted = [parent]
    try:
        assert _mount("-o", "remount,bind,ro", str(parent))
        assert _mount("-t", "tmpfs", "-o", "size=64m", "tmpfs", str(store))
        mounted.append(store)
        with pytest.raises(OSError):
            (parent / "probe").write_text("x")  # the parent is read-only indeed
        run(GAMES, max_n=MAX_N, out=str(store), jobs=2, progress=False, max_records=SHARD)
        assert rows(store) == clean_rows
        assert not Store(store).committed(deep=True, rows=True)[1]
    finally:
        for point in reversed(mounted):
            subprocess.run(["umount", str(point)], check=True)


def test_the_glob_of_the_record_contract_never_reads_staging(tmp_path: Path) -> None:
    """Shards waiting in staging (an interrupted run) are invisible to the record contract's
    ``read_parquet('RESULTS/**/*.parquet')``: only committed (game, n) are read."""
    import duckdb

    store = tmp_path / "results"
    run(["lctr"], max_n=20, out=str(store), jobs=1, progress=False)
    p = partgames("run", "--games", "lctr", "--max-n", "26", "--out", str(store), "--quiet",
                  "--jobs", "1", "--shard-records", "50")
    deadline = time.monotonic() + 60
    while not list((store / ".staging").rglob("*.staged")) and time.monotonic() < deadline:
        time.sleep(0.01)
    p.kill()
    p.wait()
    assert list((store / ".staging").rglob("*.staged")), "no shard was staged"
    got = duckdb.sql(f"SELECT n, count(*) FROM read_parquet('{store}/**/*.parquet', "
                     "hive_partitioning = true) GROUP BY n ORDER BY n").fetchall()
    p_n = partition_numbers(26)
    assert all(count == p_n[n] for n, count in got)
    assert {n for n, _ in got} == set(Store(store).complete_ns("lctr")) >= set(range(1, 21))


# ---- estimates and the smaller defects ---------------------------------------------------------

def test_a_run_past_the_free_space_is_refused_before_solving(tmp_path: Path, capsys) -> None:
    out = tmp_path / "results"
    code = main(["run", "--max-n", "150", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "the run would write about" in err and "--no-space-check" in err
    assert not list(out.glob("game=*")) and not (out / ".staging").exists()


def test_the_estimate_is_said_before_solving(tmp_path: Path, capsys) -> None:
    out = tmp_path / "results"
    assert main(["run", "--games", "lctr", "--max-n", "12", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    records = sum(partition_numbers(12)[1:])
    assert f"12 (game, n) to compute: about {records:,} records" in err
    # the second estimate uses the bytes per record of the store's own records
    per_record = Store(out).bytes_per_record("lctr")
    record_bytes = max(runner.COMMIT_RECORD_BYTES, Store(out).commit_record_bytes())  # a commit record each
    assert main(["run", "--games", "lctr", "--max-n", "14", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    expected = (int(partition_numbers(14)[13] * per_record) + int(partition_numbers(14)[14] * per_record)
                + 2 * record_bytes)
    assert f"about {partition_numbers(14)[13] + partition_numbers(14)[14]:,} records" in err
    assert f"{expected / 1000:.1f} kB" in err


def test_a_fresh_store_estimate_is_close_above_what_a_run_writes(tmp_path: Path) -> None:
    """On a store with nothing committed, a board-schema game's estimate is above the bytes its
    records take and not far above (24 bytes a record, right for tiny n only, put the overnight
    run of n <= 100 at 79 GB against 31 GB written, and refused it)."""
    from pipeline.games import get_game

    out = tmp_path / "results"
    jobs = [(get_game("lctr"), n) for n in (40, 41, 42)]
    _, estimated = runner.estimate(Store.open(tmp_path / "fresh"), jobs)
    assert main(["run", "--games", "lctr", "--min-n", "40", "--max-n", "42", "--out", str(out),
                 "--quiet"]) == 0
    written = sum(f.stat().st_size for f in out.glob("game=lctr/n=*/*.parquet"))
    commits = 3 * max(runner.COMMIT_RECORD_BYTES, Store(out).commit_record_bytes())
    assert written > 0 and written + commits <= estimated <= 1.4 * written + commits


def test_two_runs_started_together_on_a_new_store(tmp_path: Path) -> None:
    """One writes, the other is refused with the one line about the lock (never a missing file,
    a stranger's directory or an unknown pid), or finds the work done."""
    for attempt in range(6):
        out = tmp_path / f"new{attempt}" / "results"
        args = ["run", "--games", "lctr", "--max-n", "14", "--out", str(out), "--quiet", "--jobs", "1"]
        procs = [partgames(*args) for _ in range(2)]
        results = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
        assert any(code == 0 for _, _, code in results)
        for _, err, code in results:
            if code:
                assert code == 2 and err.count("\n") == 1, err
                assert "is being written by another partgames run" in err, err
                assert "pid ?" not in err
        assert rows(out)


def test_ctrl_c_while_the_command_starts_is_one_line(small_store: Path) -> None:
    """SIGINT at moments through the start of a command (its imports, then DuckDB's): one line
    and exit status 130, never a traceback."""
    for delay in (0.1, 0.15, 0.2, 0.3, 0.45, 0.6):
        p = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.argv[0] = 'partgames'; "
             "from pipeline.cli import main; sys.exit(main())",
             "sql", "--results", str(small_store), "SELECT count(*) FROM records"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
        assert "Traceback" not in err, (delay, err)
        # stopped (one line, 130); or done before the signal (0), or done and stopped by it while
        # the interpreter shut down (Python puts the default handler back then: -SIGINT), its
        # answer printed in full
        assert (p.returncode, err) in ((130, "partgames: interrupted\n"), (0, ""), (-signal.SIGINT, "")), \
            (delay, p.returncode, err)
        if p.returncode != 130:
            assert "count_star()" in out and "(1 row)" in out, out


#: A `partgames` process that sends itself SIGINT from the first enum DuckDB's extension module
#: creates while it loads: the moment a Ctrl-C at start-up once landed by chance. nanobind then
#: aborts the process ("Critical nanobind error") if the signal's exception is raised there.
_SIGINT_INSIDE_DUCKDB_LOADING = """
import enum, os, signal, sys
sys.argv[0] = 'partgames'
real_call = enum.EnumType.__call__

def call(*args, **kwargs):
    enum.EnumType.__call__ = real_call
    os.kill(os.getpid(), signal.SIGINT)
    return real_call(*args, **kwargs)

class Loader:
    def __init__(self, real):
        self.real = real
    def create_module(self, spec):
        return self.real.create_module(spec)
    def exec_module(self, module):
        enum.EnumType.__call__ = call
        return self.real.exec_module(module)

class Finder:
    def find_spec(self, name, path=None, target=None):
        if name != '_duckdb':
            return None
        for finder in sys.meta_path[1:]:
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                spec.loader = Loader(spec.loader)
                return spec

sys.meta_path.insert(0, Finder())
from pipeline.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("command", [["sql", "SELECT count(*) FROM records"], ["check"],
                                     ["run", "--games", "lctr", "--max-n", "3", "--keep", "sg = 0"]])
def test_ctrl_c_while_duckdb_loads_is_one_line(small_store: Path, tmp_path: Path, command: list[str]) -> None:
    """SIGINT inside DuckDB's loading (sql and check load it first, a filtering run as it starts):
    noted there and raised once it is loaded, so one line and 130, not nanobind's abort."""
    store = tmp_path / "fresh" if command[0] == "run" else small_store
    p = subprocess.run([sys.executable, "-c", _SIGINT_INSIDE_DUCKDB_LOADING, command[0],
                        "--results", str(store), *command[1:]],
                       capture_output=True, text=True, timeout=120)
    hint = "; finished shards are kept, rerun to resume" if command[0] == "run" else ""
    assert (p.returncode, p.stderr, p.stdout) == (130, f"partgames: interrupted{hint}\n", ""), \
        p.stderr[-2000:]


def test_verify_on_a_full_disk_leaves_no_temporary_file(small_store: Path, tmp_path: Path, monkeypatch,
                                                        capsys) -> None:
    import errno

    real = Path.write_text

    def full(self, text, *args, **kwargs):
        if self.name.endswith(".tmp"):
            real(self, text[: len(text) // 3], *args, **kwargs)  # part of it, then the disk is full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real(self, text, *args, **kwargs)

    report = tmp_path / "VERIFY.md"
    monkeypatch.setattr(Path, "write_text", full)
    code = main(["verify", "--results", str(small_store), "--only", "lctr1.lemma2", "--report", str(report)])
    err = capsys.readouterr().err
    assert code == 2 and "No space left on device" in err
    assert list(tmp_path.iterdir()) == []


def test_an_unreadable_file_is_named_and_the_rest_still_answers(small_store: Path, tmp_path: Path) -> None:
    """A file DuckDB cannot decode whose size, inode and ctime are as committed (damage below the
    filesystem): the warning names the file, its (game, n) is left out, every other query runs."""
    store = copy(small_store, tmp_path / "results")
    job = store / "game=queen" / "n=14"
    target = shard_file(job, 0)
    data = bytearray(target.read_bytes())
    data[100:len(data) - 400] = bytes(len(data) - 500)  # zeros over the column chunks
    target.write_bytes(bytes(data))
    record = json.loads((job / COMPLETE).read_text())
    st = target.stat()
    record["files"][0].update(ino=st.st_ino, ctime_ns=st.st_ctime_ns)
    record["checksum"] = storage.record_checksum(record)
    (job / COMPLETE).write_text(json.dumps(record))
    warnings: list[str] = []
    con = connect(store, on_damage=warnings.append)
    assert any(str(target) in w and "unreadable" in w for w in warnings), warnings
    assert con.execute("SELECT count(*) FROM queen WHERE n = 14").fetchall() == [(0,)]
    assert con.execute("SELECT count(*) FROM queen WHERE n = 13").fetchall() == [(partition_numbers(13)[13],)]
    assert con.execute("SELECT count(*) FROM king").fetchall()[0][0] > 0


def test_sql_prints_every_statement_and_hints_quotes(small_store: Path, capsys) -> None:
    assert main(["sql", "--results", str(small_store), "SELECT 1 AS one; SELECT 2 AS two"]) == 0
    out = capsys.readouterr().out
    assert "one" in out and "two" in out and out.index("one") < out.index("two")
    assert main(["sql", "--results", str(small_store), "SELECT count(*) FROM sn5_4-5"]) == 2
    assert 'quote game ids in SQL: "sn5_4-5"' in capsys.readouterr().err


def test_recommit_is_what_makes_a_planted_file_sound(small_store: Path, tmp_path: Path) -> None:
    """Without the re-commit a rewritten file is damage (so the planting helper cannot hide one)."""
    store = copy(small_store, tmp_path / "results")
    job = store / "game=rook" / "n=9"
    target = shard_file(job, 0)
    target.write_bytes(target.read_bytes())  # same bytes, new ctime: sound after hashing
    check_job(job)
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 1
    target.write_bytes(bytes(data))
    with pytest.raises(storage.DamageError):
        check_job(job)
    recommit(job)
    check_job(job)


def test_a_store_of_an_older_partgames_is_adopted(clean: Path, clean_rows: list[tuple], tmp_path: Path,
                                                  capsys) -> None:
    """Commit records without a list of files (an older partgames) are damage until ``check
    --adopt`` takes the files in; one whose files do not add up to its records is not adopted."""
    store = copy(clean, tmp_path / "results")
    for record_file in store.glob(f"game=*/n=*/{COMPLETE}"):
        record = json.loads(record_file.read_text())
        record_file.write_text(json.dumps({k: record[k] for k in ("game", "n", "records", "shards",
                                                                   "version", "code")}))
    shard_file(store / "game=king" / f"n={MAX_N}", 1).unlink()
    assert rows(store) == []
    assert main(["check", "--results", str(store)]) == 1
    assert "commit record without a list of files" in capsys.readouterr().out
    assert main(["check", "--results", str(store), "--adopt"]) == 1
    out = capsys.readouterr().out
    assert f"adopted {len(GAMES) * MAX_N - 1} (game, n)" in out and f"damaged: game=king n={MAX_N}" in out
    run(GAMES, max_n=MAX_N, out=str(store), jobs=1, progress=False, max_records=SHARD)
    assert rows(store) == clean_rows
    assert main(["check", "--results", str(store), "--deep"]) == 0


@pytest.mark.parametrize("how", ["delete", "truncate", "bitflip"])
def test_a_damaged_marker_loses_nothing(clean: Path, clean_rows: list[tuple], tmp_path: Path,
                                        how: str) -> None:
    """The store's marker holds no record: damaged or lost, the store still reads and runs (the
    commit records say what it is), and a run writes the marker back."""
    store = copy(clean, tmp_path / "results")
    _damage(store / storage.MARKER, how, random.Random(how))
    assert rows(store) == clean_rows
    assert run(GAMES, max_n=MAX_N, out=str(store), jobs=1, progress=False).jobs_done == 0
    assert (store / storage.MARKER).is_file() and rows(store) == clean_rows


def test_a_run_re_stamps_a_copied_store(clean: Path, tmp_path: Path) -> None:
    """A copy's files have new inodes and ctimes: the run that checks them (hashing each once)
    records the new ones, so that the views need not hash them again."""
    store = tmp_path / "results"
    shutil.copytree(clean, store)
    job = store / "game=lctr" / f"n={MAX_N}"

    def stamps_current() -> bool:
        record = json.loads((job / COMPLETE).read_text())
        return all((job / f["name"]).stat().st_ino == f["ino"] for f in record["files"])

    assert not stamps_current()
    assert run(GAMES, max_n=MAX_N, out=str(store), jobs=1, progress=False).jobs_done == 0
    assert stamps_current()
    check_job(job, deep=True)
