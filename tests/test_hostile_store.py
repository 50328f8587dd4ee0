"""The store never lies to a hostile user: paths that look like patterns, (game, n) directories
moved, copied, doubled or deleted, a store replaced under a long-lived reader, the lock file
deleted, refused runs, a read-only store.

Each test fails on a store that trusts its paths: DuckDB reads other stores, a view serves one
(game, n)'s records under another's name, n = 20 is counted twice, a reader counts part of a
replaced (game, n), or ``check`` says sound over a (game, n) that was committed and is gone.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

import pipeline.query as query
import pipeline.runner as runner
from pipeline.cli import main
from pipeline.keep import KeepFilter
from pipeline.notebook import Store as NotebookStore
from pipeline.partitions import partition_numbers
from pipeline.query import StoreChanged, connect
from pipeline.runner import run
from pipeline.storage import COMPLETE, JOURNAL, LOCK, Store, StoreError, literal_path

P = partition_numbers(40)


def _run(out: Path, games: str = "lctr", max_n: int = 10, **kw) -> runner.RunSummary:
    return run(games.split(","), max_n=max_n, out=str(out), jobs=1, progress=False, **kw)


def _count(root: Path, sql: str) -> list[tuple]:
    return connect(root, on_damage=lambda _line: None).execute(sql).fetchall()


def _tree(root: Path) -> list[tuple[str, int, int]]:
    """Every path below ``root`` with its size and mtime: what a refused command must not change."""
    return sorted((str(p.relative_to(root)), p.stat().st_size, p.stat().st_mtime_ns)
                  for p in root.rglob("*"))


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """LCTR and King for n ≤ 10, shards of 15 records (several files per (game, n))."""
    root = tmp_path_factory.mktemp("hostile") / "results"
    _run(root, "lctr,king", 10, max_records=15)
    return root


@pytest.fixture()
def store(base: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "results"
    shutil.copytree(base, dest)
    return dest


# ---- paths that look like patterns --------------------------------------------------------------

@pytest.mark.parametrize("in_place", [False, True])
def test_a_store_path_with_glob_characters_reads_that_store_only(tmp_path: Path, monkeypatch,
                                                                 in_place: bool) -> None:
    """``r[12]`` is a glob of ``r1`` and ``r2`` to DuckDB, a list's elements too; ``k=1`` in the
    path was a hive partition column. The views read the listed files as they are named."""
    if in_place:
        monkeypatch.setattr(query, "MATERIALIZE_BELOW", 0)
    _run(tmp_path / "r[12]", max_n=6)
    # r1: the same file names (a copy), other records under the name of n = 6's file
    shutil.copytree(tmp_path / "r[12]", tmp_path / "r1")
    [six] = (tmp_path / "r1" / "game=lctr" / "n=6").glob("*.parquet")
    [five] = (tmp_path / "r1" / "game=lctr" / "n=5").glob("*.parquet")
    six.write_bytes(five.read_bytes())
    shutil.copytree(tmp_path / "r[12]", tmp_path / "s*")
    shutil.copytree(tmp_path / "r[12]", tmp_path / "sx")
    shutil.copytree(tmp_path / "r[12]", tmp_path / "k=1" / "res?")
    counts = "SELECT n, count(*) FROM lctr WHERE n = 6 GROUP BY n"
    assert _count(tmp_path / "r[12]", counts) == [(6, P[6])]
    assert _count(tmp_path / "s*", counts) == [(6, P[6])]
    con = connect(tmp_path / "k=1" / "res?")
    assert "k" not in [d[0] for d in con.execute("SELECT * FROM records LIMIT 0").description]
    assert con.execute(counts).fetchall() == [(6, P[6])]
    assert con.execute("SELECT DISTINCT game FROM records").fetchall() == [("lctr",)]


def test_a_path_duckdb_cannot_name_is_refused_and_nothing_created(tmp_path: Path) -> None:
    """A backslash splits DuckDB's glob: with a pattern character too, no escape reads it."""
    out = tmp_path / "a\\b[1]"
    with pytest.raises(StoreError, match="cannot be read by DuckDB"):
        _run(out, max_n=3)
    assert not out.exists()
    assert literal_path("/x/r[1]/p*?.parquet") == "/x/r[[]1]/p[*][?].parquet"


# ---- a commit record is its directory's ---------------------------------------------------------

def _check(capsys, root: Path, *extra: str) -> tuple[int, str]:
    code = main(["check", "--results", str(root), *extra])
    return code, capsys.readouterr().out


def test_swapped_n_directories_are_damage_and_repaired(store: Path, base: Path, capsys) -> None:
    lctr = store / "game=lctr"
    (lctr / "n=9").rename(lctr / "tmp")
    (lctr / "n=10").rename(lctr / "n=9")
    (lctr / "tmp").rename(lctr / "n=10")
    for deep in ([], ["--deep"]):
        code, out = _check(capsys, store, *deep)
        assert code == 1, out
        assert "game=lctr n=9: its commit record is of game=lctr n=10" in out
        assert "game=lctr n=10: its commit record is of game=lctr n=9" in out
    assert _count(store, "SELECT count(*) FROM lctr WHERE n IN (9, 10)") == [(0,)]
    summary = _run(store, "lctr,king", 10, repair=True)
    assert summary.jobs_repaired == 2
    assert _check(capsys, store, "--deep")[0] == 0
    sql = "SELECT * FROM records ORDER BY game, n, parts"
    assert _count(store, sql) == _count(base, sql)


def test_a_renamed_game_directory_is_neither_served_nor_skipped(store: Path, capsys) -> None:
    (store / "game=king").rename(store / "game=queen")
    code, out = _check(capsys, store)
    assert code == 1
    assert "game=queen n=10: its commit record is of game=king n=10" in out
    assert "game=king n=10: committed on" in out and "and gone" in out  # the journal's
    assert _count(store, "SELECT count(*) FROM queen") == [(0,)]
    summary = _run(store, "queen", 10)
    assert summary.jobs_skipped == 0 and summary.jobs_repaired == 10
    assert _count(store, "SELECT count(*) FROM queen") == [(sum(P[1:11]),)]


def test_a_copied_n_directory_is_damage_and_recomputed(store: Path, capsys) -> None:
    shutil.copytree(store / "game=lctr" / "n=10", store / "game=lctr" / "n=11")
    code, out = _check(capsys, store)
    assert code == 1 and "game=lctr n=11: its commit record is of game=lctr n=10" in out
    assert _count(store, "SELECT count(*) FROM lctr WHERE n = 11") == [(0,)]
    summary = _run(store, "lctr", 11)
    assert summary.jobs_repaired == 1 and summary.jobs_done == 1
    assert _count(store, "SELECT count(*) FROM lctr WHERE n = 11") == [(P[11],)]


def test_a_file_of_another_n_under_a_forged_record_is_damage(store: Path, capsys) -> None:
    """The footer's statistics of column n say which n a file's records are of (check reads
    every footer)."""
    job9, job10 = store / "game=king" / "n=9", store / "game=king" / "n=10"
    for f in job9.glob("*.parquet"):
        f.unlink()
    for f in job10.glob("*.parquet"):
        shutil.copy(f, job9 / f.name)
    record = json.loads((job10 / COMPLETE).read_text())
    record["n"] = 9
    from pipeline.storage import record_checksum
    record["checksum"] = record_checksum(record)
    (job9 / COMPLETE).write_text(json.dumps(record))
    code, out = _check(capsys, store)
    assert code == 1 and "game=king n=9:" in out and "holds records of n = 10..10" in out


# ---- stray directories --------------------------------------------------------------------------

@pytest.mark.parametrize("filled", [False, True])
def test_a_stray_n_directory_doubles_nothing(store: Path, capsys, filled: bool) -> None:
    stray = store / "game=lctr" / "n=010"
    if filled:
        shutil.copytree(store / "game=lctr" / "n=10", stray)
    else:
        stray.mkdir()
    assert _count(store, "SELECT count(*) FROM lctr WHERE n = 10") == [(P[10],)]
    assert _count(store, "SELECT count(*) FROM jobs WHERE game = 'lctr' AND n = 10") == [(1,)]
    code, out = _check(capsys, store)
    assert code == 1 and "game=lctr: stray directory n=010" in out and "n is written n=10" in out
    assert Store(store).jobs().count(("lctr", 10)) == 1


# ---- a long-lived reader ------------------------------------------------------------------------

def test_a_long_lived_reader_is_told_the_store_changed(store: Path, monkeypatch) -> None:
    """Views read in place list a commit's files; ``--force`` swaps in a commit of more, smaller
    files. The files are named after their commit, so a reader never finds another commit's
    file under a name it listed: the reader is told, and a relation made before fails rather
    than count part of it."""
    monkeypatch.setattr(query, "MATERIALIZE_BELOW", 0)  # read in place, as a large store is
    _run(store, "lctr", 10, force=True, max_records=1000)  # one file per (game, n)
    reader = NotebookStore(store)
    made = reader.sql("SELECT count(*) FROM lctr WHERE n = 10")
    _run(store, "lctr", 10, min_n=10, force=True, max_records=15)
    with pytest.raises(StoreChanged, match="the store changed under this reader.*reopen it"):
        reader.sql("SELECT count(*) FROM lctr WHERE n = 10")
    with pytest.raises(duckdb.IOException) as caught:
        made.fetchall()
    assert "the store changed under this reader" in query.explain(caught.value)
    assert NotebookStore(store).sql("SELECT count(*) FROM lctr WHERE n = 10").fetchall() == [(P[10],)]


def test_a_small_store_reader_keeps_the_commit_it_copied(store: Path) -> None:
    reader = NotebookStore(store)
    _run(store, "lctr", 10, min_n=10, force=True, max_records=1000)
    assert reader.sql("SELECT count(*) FROM lctr WHERE n = 10").fetchall() == [(P[10],)]


def test_readers_during_force_runs_see_a_whole_commit_or_are_told(store: Path, monkeypatch) -> None:
    """A reader querying in place while ``run --force`` replaces the (game, n) again and again,
    with shards of alternating sizes: every answer is the whole count, or an error."""
    monkeypatch.setattr(query, "MATERIALIZE_BELOW", 0)
    stop = threading.Event()
    errors: list[BaseException] = []
    # three seconds of reading, and on a machine too busy for one answer in them, on until one
    deadline, limit = time.monotonic() + 3, time.monotonic() + 60

    def force() -> None:
        sizes = [7, 40, 11, 1000]
        k = late = 0
        try:
            while not stop.is_set():
                _run(store, "lctr", 10, min_n=10, force=True, max_records=sizes[k % 4])
                k += 1
                if time.monotonic() > deadline:
                    # No answer in the three seconds: on a loaded machine a reader can take longer
                    # to open the views and count than a run takes to replace the (game, n), and
                    # is told every time. Leave it longer gaps between the commits, still writing.
                    late += 1
                    stop.wait(min(5.0, 0.25 * late))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    writer = threading.Thread(target=force)
    writer.start()
    answers, told = [], 0
    try:
        while time.monotonic() < deadline or (not answers and time.monotonic() < limit):
            try:
                reader = NotebookStore(store, min_n=10)
                for _ in range(5):
                    answers.append(reader.sql("SELECT count(*) FROM lctr").fetchall()[0][0])
            except (StoreChanged, duckdb.IOException):
                told += 1
    finally:
        stop.set()
        writer.join()
    assert not errors, errors
    assert answers and set(answers) == {P[10]}, (told, sorted(set(answers)))


# ---- the journal --------------------------------------------------------------------------------

def test_a_deleted_job_directory_is_reported_until_recomputed(store: Path, capsys) -> None:
    shutil.rmtree(store / "game=king" / "n=7")
    code, out = _check(capsys, store)
    assert code == 1 and "game=king n=7: committed on" in out and "its directory is missing" in out
    shutil.rmtree(store / "game=king")
    code, out = _check(capsys, store, "--deep")
    assert code == 1 and out.count("and gone") == 10
    _run(store, "lctr,king", 10)
    assert _check(capsys, store)[0] == 0


def test_the_journal_survives_force_a_torn_line_and_adopt(store: Path, capsys) -> None:
    _run(store, "lctr", 10, min_n=9, force=True)
    assert _check(capsys, store)[0] == 0  # replaced, not gone
    journal = store / JOURNAL
    with open(journal, "a") as fh:
        fh.write('{"game": "lctr", "n": 3, "committ')  # a kill in the middle of a line
    assert _check(capsys, store)[0] == 0
    _run(store, "lctr", 10, min_n=10, force=True)
    assert all(json.loads(line) for line in journal.read_text().splitlines())
    shutil.rmtree(store / "game=lctr" / "n=2")
    assert _check(capsys, store)[0] == 1
    code, out = _check(capsys, store, "--adopt")  # removed on purpose: the store as it is
    assert code == 0 and "journaled 19 (game, n)" in out, out


def test_an_old_store_without_a_journal_starts_one(store: Path, capsys) -> None:
    (store / JOURNAL).unlink()
    shutil.rmtree(store / "game=lctr" / "n=3")
    assert _check(capsys, store)[0] == 0  # nothing says n = 3 was there: the journal starts now
    assert (store / JOURNAL).is_file()
    shutil.rmtree(store / "game=lctr" / "n=4")
    code, out = _check(capsys, store)
    assert code == 1 and "game=lctr n=4: committed on" in out and "n=3" not in out


# ---- the lock -----------------------------------------------------------------------------------

def _holder(out: Path) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import time\n"
         "from pipeline.storage import Store\n"
         f"with Store.open({str(out)!r}).writer():\n"
         "    print('locked', flush=True)\n"
         "    time.sleep(600)\n"],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    return holder


def test_the_lock_names_its_holder_and_survives_its_file_deleted(store: Path) -> None:
    assert not (store / LOCK).exists()  # a run leaves no lock file behind
    holder = _holder(store)
    try:
        before = _tree(store)
        with pytest.raises(StoreError, match=rf"pid {holder.pid} on \S+ since 20"):
            _run(store, "lctr", 11)
        assert _tree(store) == before
        (store / LOCK).unlink()
        with pytest.raises(StoreError, match="its lock file was removed"):
            _run(store, "lctr", 11)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    _run(store, "lctr", 11)
    assert not (store / LOCK).exists()


def test_check_on_a_directory_that_is_no_store(tmp_path: Path, capsys) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["check", "--results", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a partgames results directory" in err
    assert list(empty.iterdir()) == []


def test_a_refused_run_leaves_nothing_behind(store: Path, tmp_path: Path, monkeypatch) -> None:
    # no space: a new store is not created
    real = shutil.disk_usage
    monkeypatch.setattr(runner.shutil, "disk_usage", lambda p: real(p)._replace(free=10))
    new = tmp_path / "new"
    with pytest.raises(runner.RunError, match="free"):
        _run(new, max_n=12)
    assert not new.exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(runner.RunError, match="free"):
        _run(empty, max_n=12)
    assert list(empty.iterdir()) == []
    monkeypatch.undo()
    # a family run on an exhaustive store: refused, not a byte changed (the lock not rewritten)
    from pipeline.games.selection import family_selection

    before = _tree(store)
    with pytest.raises(runner.RunError, match="needs a store of its own"):
        _run(store, "lctr", 12, selection=family_selection(["hook"]))
    assert _tree(store) == before


def test_a_run_failing_before_its_first_shard_leaves_no_plan_or_store(tmp_path: Path, monkeypatch) -> None:
    def fail(*_args, **_kw):
        raise runner.RunError("no shard solved")

    monkeypatch.setattr(runner, "solve_all", fail)
    new = tmp_path / "new"
    with pytest.raises(runner.RunError, match="no shard solved"):
        _run(new, max_n=8)
    assert not new.exists()


def test_keep_none_estimates_the_commit_records(tmp_path: Path) -> None:
    """``--keep none`` writes no record but a commit record per (game, n)."""
    out = tmp_path / "results"
    lines: list[str] = []
    jobs = [(g, n) for g in runner.resolve_games(["lctr", "king"]) for n in range(1, 11)]
    _, estimated = runner.estimate(Store.open(out), jobs, KeepFilter.parse("none", []))
    run(["lctr", "king"], max_n=10, out=str(out), jobs=1, progress=True, keep="none", say=lines.append)
    written = sum(-(-p.stat().st_size // 4096) * 4096 for p in out.rglob(COMPLETE))
    assert estimated >= written > 0
    assert any("0 B written" not in line and "written" in line for line in lines), lines


def test_an_undeletable_old_file_during_force_is_named_with_its_folder(store: Path, monkeypatch) -> None:
    real = os.unlink

    def unlink(path, *args, dir_fd=None, **kw):
        if str(path).endswith(".parquet") and dir_fd is not None:
            raise PermissionError(errno.EPERM, "Operation not permitted", path)
        return real(path, *args, dir_fd=dir_fd, **kw)

    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(OSError) as caught:
        _run(store, "lctr", 5, min_n=5, force=True)
    assert "/.staging/game=lctr/n=5/part-" in caught.value.filename


def test_verify_on_a_read_only_store_fails_before_the_statements(store: Path, capsys, monkeypatch) -> None:
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if Path(p) == store and mode & os.W_OK
                        else real(p, mode, **kw))
    import pipeline.verify as verify

    monkeypatch.setattr(verify, "verify", lambda *a, **kw: pytest.fail("statements ran"))
    assert main(["verify", "--results", str(store)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "read-only" in err and "--report" in err


def _committed_while_listing(root: Path, monkeypatch: pytest.MonkeyPatch,
                             before: Callable[[], object] = lambda: None,
                             after: Callable[[], object] = lambda: None
                             ) -> tuple[list[tuple[str, int, dict]], list]:
    """``Store.committed()`` of ``root`` with ``before`` done on the store just before its scan
    of the directories and ``after`` just after it: both after it read the journal, before it
    checks what it found."""
    scan = Store.list_directories

    def listing(self):  # noqa: ANN001, ANN202
        monkeypatch.setattr(Store, "list_directories", scan)  # the runs inside list as usual
        before()
        out = scan(self)
        after()
        return out

    monkeypatch.setattr(Store, "list_directories", listing)
    return Store.open(root, create=False).committed()


def test_a_commit_during_a_readers_scan_is_no_damage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run committing a (game, n) while a reader lists the store (after it read the journal
    and scanned the directories, before it checks them) is not reported as a (game, n) gone: the reader
    reads what was there when it looked, and reports no damage."""
    root = tmp_path / "r"
    _run(root, max_n=5)
    sound, damaged = _committed_while_listing(
        root, monkeypatch, after=lambda: _run(root, max_n=6))  # commits n = 6 meanwhile
    assert damaged == [] and sorted(n for _, n, _ in sound) == [1, 2, 3, 4, 5]


def test_a_commit_made_and_removed_during_a_readers_scan_is_not_its_to_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A (game, n) committed and removed again while a reader lists the store was never in the
    store the reader read: the journal it read before its scan does not hold it, so it is no
    (game, n) gone. Fails when the journal is read after the scan (it then holds n = 6, whose
    directory is missing by the time it is checked)."""
    root = tmp_path / "r"
    _run(root, max_n=5)

    def commit_and_remove() -> None:
        _run(root, max_n=6)
        shutil.rmtree(root / "game=lctr" / "n=6")

    sound, damaged = _committed_while_listing(root, monkeypatch, after=commit_and_remove)
    assert damaged == [] and sorted(n for _, n, _ in sound) == [1, 2, 3, 4, 5]


def test_a_directory_aside_during_a_readers_scan_is_not_gone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A (game, n) that is away from its place while a reader scans (a replace without an atomic
    swap moves the old directory aside and then the new one in) and back before the reader
    checks it is no (game, n) gone: the journal holds it and its directory is in place. Fails
    when a journaled (game, n) missing from the scan is not looked for again."""
    root = tmp_path / "r"
    _run(root, max_n=5)
    job, aside = root / "game=lctr" / "n=4", tmp_path / "aside"
    _, damaged = _committed_while_listing(root, monkeypatch, before=lambda: job.rename(aside),
                                          after=lambda: aside.rename(job))
    assert damaged == [] and job.is_dir()
