"""A run's memory: shard sizes, the record budget over solver threads, malloc arenas."""

from __future__ import annotations

import time
from pathlib import Path

import pyarrow as pa
from harness import assert_store_consistent, same_records

import pipeline.runner as runner


def settled(count, at_most: int, timeout: float = 5.0) -> int:
    """``count()`` once it is at most ``at_most``, or its value after ``timeout`` seconds of
    polling: what another thread drops just after it gives something back is not counted, a
    count that stays above ``at_most`` is."""
    deadline = time.monotonic() + timeout
    value = count()
    while value > at_most and time.monotonic() < deadline:
        time.sleep(0.001)
        value = count()
    return value


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
    overlapped = threading.Event()
    real_solve, real_write = MovesetGame.solve_shard, runner.stage_shard

    def in_memory() -> int:
        with lock:
            return 1 + sum(ref() is not None for ref in tables)

    def solve(self, n: int, shard: int, max_records: int, **shared):
        with lock:
            held[0] += 1
            peak[0] = max(peak[0], held[0])
            if held[0] == 2:
                overlapped.set()
        # The first shards wait for a second one to start (the budget allows two): the threads
        # overlap whatever the machine's load; past the bound, the peak assertion fails.
        if not overlapped.wait(timeout=30):
            overlapped.set()  # once: the peak assertion fails
        # This shard's records are taken, so at most one other shard may be in memory. The writer's
        # work item drops its table just after giving the records back, microseconds later.
        alive_peak[0] = max(alive_peak[0], settled(in_memory, 2))
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
    monkeypatch.setattr(runner, "stage_shard", write)
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
    overlapped = threading.Event()
    real_solve, real_lend = MovesetGame.solve_shard, runner.partition_columns

    def address(parts: pa.Array) -> int:
        return parts.buffers()[-1].address

    def shards_in_memory(new: bool) -> int:
        with lock:
            held = {a for ref, a in tables + lent if ref() is not None}
        return len(held) + new

    def solve(self, n: int, shard: int, max_records: int, **shared):
        # The writer drops a table just after its write, microseconds later.
        count = settled(lambda: shards_in_memory(new=not shared), 2)
        peak[0] = max(peak[0], count)
        if count == 2:
            overlapped.set()
        table = real_solve(self, n, shard, max_records, **shared)
        with lock:
            tables.append((weakref.ref(table), address(table["parts"].chunk(0))))
        # The first shard solved waits, its columns held, for a second one to start (the budget
        # allows two): the threads overlap whatever the machine's load; past the bound, the peak
        # assertion fails.
        if not overlapped.wait(timeout=30):
            overlapped.set()  # once: the peak assertion fails
        return table

    def lend(table: pa.Table) -> dict:
        columns = real_lend(table)
        with lock:
            lent.append((weakref.ref(columns["parts"]), address(columns["parts"])))
        return columns

    class Budget(runner.RecordBudget):
        def __init__(self, limit: int):
            super().__init__(limit)
            budgets.append(self)

    monkeypatch.setattr(MovesetGame, "solve_shard", solve)
    monkeypatch.setattr(runner, "partition_columns", lend)
    monkeypatch.setattr(runner, "RecordBudget", Budget)
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
