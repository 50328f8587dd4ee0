"""Shared fixtures: the kernels compiled once, a small results store built by the real pipeline,
and planting helpers.

``plant`` copies a store, sharing the record files it leaves alone, and overwrites one record's
columns, so a test can check that a statement (or the reference comparison) reports exactly the
planted error.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import threading
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

sys.path.insert(0, str(Path(__file__).parent))  # `import reference`

from compile_kernels import compile_suite_kernels, slownim_available  # noqa: E402, F401

from pipeline import memory  # noqa: E402
from pipeline.games import BOARD_GAMES  # noqa: E402
from pipeline.runner import run  # noqa: E402
from pipeline.storage import COMPLETE, file_sha256, record_checksum  # noqa: E402

# Kernel outputs and writer scratch start as garbage, not as an earlier shard's values
# (pipeline/memory.py).
memory.POISON_BYTE = 0xA5

#: reference.py's examples run in test_reference.py; ``--doctest-modules`` (pyproject.toml) would
#: otherwise collect them a second time.
collect_ignore = ["reference.py"]

SMALL_N = 14
SLOWNIM_GAMES = ("sn1_1", "sn2_1", "sn2_1-2", "sn3_2", "sn3_1-2-3", "sn4_3", "sn4_3-4", "sn5_4",
                 "sn5_4-5", "sn6_2")


def pytest_configure(config: pytest.Config) -> None:
    """The Ctrl-C tests model a command in a terminal, where SIGINT reaches it. pytest started in
    the background (``nohup``, ``&`` in a script) inherits SIGINT ignored, an ignored signal stays
    ignored across ``exec``, and every command the tests start would ignore their SIGINT: put
    Python's own handler back, in the main process and in each xdist worker."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.SIG_IGN):
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every kernel of a run compiled (or loaded from numba's on-disk cache) before the first
    test, so that no test's time includes it: ``pytest --durations`` shows it as the setup of
    the session's first test (compile_kernels.py says which runs, and why .ci/run calls it
    before pytest)."""
    compile_suite_kernels(tmp_path_factory.mktemp("compiled"))


@pytest.fixture(scope="session")
def small_store(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Path:
    """All board games for n ≤ 14 and the Slow SetNim games above for N ≤ 14."""
    root = tmp_path_factory.mktemp("small") / "results"
    games = list(BOARD_GAMES) + (list(SLOWNIM_GAMES) if slownim_available() else [])
    run(games, max_n=SMALL_N, out=str(root), jobs=1, progress=False)
    return root


def _plant(store: Path, dest: Path, game: str, parts: list[int], **columns: object) -> Path:
    n = sum(parts)
    _copy_sharing_records(store, dest, Path(f"game={game}") / f"n={n}")
    hits = 0
    for f in sorted((dest / f"game={game}" / f"n={n}").glob("*.parquet")):
        con = duckdb.connect()
        original = pq.read_table(f)
        hits += con.execute(
            f"SELECT count(*) FROM read_parquet('{f}') WHERE parts = {list(parts)}::SMALLINT[]"
        ).fetchall()[0][0]
        exprs = ", ".join(
            f"CASE WHEN parts = {list(parts)}::SMALLINT[] THEN {_sql(columns[c])} ELSE {c} END AS {c}"
            if c in columns else c
            for c in original.column_names
        )
        new = con.sql(f"SELECT {exprs} FROM read_parquet('{f}')").to_arrow_table()
        pq.write_table(new.cast(original.schema), f)
    if hits != 1:
        raise ValueError(f"{game}: no single record for {parts} in the store")
    recommit(dest / f"game={game}" / f"n={n}")
    return dest


def _copy_sharing_records(store: Path, dest: Path, planted: Path) -> None:
    """A copy of ``store`` at ``dest`` whose record files outside the (game, n) directory
    ``planted`` are symbolic links to the store's: only the planted (game, n) and the small
    files (commit records, journal) are copied, which a test may rewrite. Links, not hard
    links: a hard link moves its file's ctime, and every later check of the original store
    would hash its files again."""
    def copy(src: str, dst: str) -> None:
        if src.endswith(".parquet") and Path(src).parent != store / planted:
            os.symlink(os.path.realpath(src), dst)
        else:
            shutil.copy2(src, dst)

    shutil.copytree(store, dest, copy_function=copy)


def recommit(job_dir: Path) -> None:
    """Make a (game, n)'s commit record describe its files as they are now, as if they had been
    committed so: a planted record is the store's own, not damage that the views leave out."""
    record = json.loads((job_dir / COMPLETE).read_text())
    for f in record["files"]:
        path = job_dir / f["name"]
        st = path.stat()
        f.update(bytes=st.st_size, rows=pq.read_metadata(path).num_rows, sha256=file_sha256(path),
                 ino=st.st_ino, ctime_ns=st.st_ctime_ns)
    record["checksum"] = record_checksum(record)
    (job_dir / COMPLETE).write_text(json.dumps(record, sort_keys=True))


def _sql(v: object) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list | tuple):
        return f"{list(v)}::SMALLINT[]"
    return repr(v)


@pytest.fixture
def plant(tmp_path: Path):
    """plant(store, game, parts, **columns) -> a copy of the store with that record changed
    (the store is the test's own: planting builds none)."""
    counter = iter(range(10**6))

    def _do(store: Path, game: str, parts: list[int], **columns: object) -> Path:
        return _plant(store, tmp_path / f"planted{next(counter)}" / "results", game, parts, **columns)

    return _do


@pytest.fixture
def verify_ids():
    """verify_ids(store, ids=None) -> {id: result dict} (runs the catalogue)."""
    from pipeline.verify import verify

    def _do(store: Path, ids: list[str] | None = None) -> dict[str, dict]:
        return {r.id: r.as_dict() for r in verify(store, ids)}

    return _do
