"""Helpers of the tests of commands and runs: a command run in-process, stores compared, a run
interrupted at a chosen shard."""

from __future__ import annotations

from pathlib import Path

import pytest

import pipeline.runner as runner
from pipeline.cli import main
from pipeline.partitions import partition_numbers
from pipeline.query import connect
from pipeline.storage import COMPLETE


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def same_records(a: Path, b: Path, game: str) -> bool:
    con = connect(a)
    rows_a = con.execute(f'SELECT * EXCLUDE (game) FROM "{game}" ORDER BY n, parts').fetchall()
    rows_b = connect(b).execute(f'SELECT * EXCLUDE (game) FROM "{game}" ORDER BY n, parts').fetchall()
    return rows_a == rows_b and len(rows_a) > 0


def assert_store_consistent(root: Path, killed: bool = False) -> None:
    """Only complete (game, n) directories are in the store, each with exactly p(n) records, and
    no temporary file. ``killed``: the writer was killed (SIGKILL), so the temporary file of a
    shard it was writing may be left in staging (the next run's commit or tidying removes it);
    anywhere else, none."""
    p = partition_numbers(60)
    con = connect(root)
    for d in root.glob("game=*/n=*"):
        assert (d / COMPLETE).is_file(), d
        game, n = d.parent.name[5:], int(d.name[2:])
        count = con.execute(f'SELECT count(*) FROM "{game}" WHERE n = {n}').fetchall()[0][0]
        assert count == p[n], (game, n, count)
    left = list(root.rglob("*.tmp"))
    if killed:
        left = [f for f in left if f.relative_to(root).parts[0] != ".staging"]
    assert not left, left


def interrupt_at_write(monkeypatch, nth: int, games: list[str], jobs: int = 1, **run_args) -> None:
    """Run in-process and interrupt it (KeyboardInterrupt) as the writer thread starts its
    ``nth`` shard; the real writer is back in place afterwards."""
    real = runner.stage_shard  # runs in the writer thread, beside the kernel
    calls = {"n": 0}

    def dying(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == nth:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner, "stage_shard", dying)
    with pytest.raises(KeyboardInterrupt):
        runner.run(games, jobs=jobs, progress=False, **run_args)
    monkeypatch.setattr(runner, "stage_shard", real)


def partitions(n: int, largest: int | None = None):
    """All partitions of n as non-increasing tuples, largest part at most ``largest``: the
    plain-Python enumeration the tests' references are written over."""
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest or n), 0, -1):
        for rest in partitions(n - first, first):
            yield (first, *rest)
