"""`partgames run`: schedule every (game, n) shard over worker processes and write the store.

Python moves whole shards only: a worker solves one shard with its game's numba kernel and
writes it to staging; the main process counts, shows progress and moves finished (game, n)
directories into the store. Each process writes a shard in a thread while its kernel solves the
next one (:func:`_solve_and_write_iter`), so I/O overlaps the kernels.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from pipeline import __version__
from pipeline.games import MAX_N, Game, GameError, get_game
from pipeline.storage import SHARD_FORMAT, Store

#: Records per shard: bounds a worker's memory (≈ 100 bytes per record in flight) whatever n is.
DEFAULT_SHARD_RECORDS = 1 << 18
#: Runs with fewer records than this are computed in the calling process.
SMALL_RUN = 200_000


class RunError(ValueError):
    """Bad arguments to a run (one line, for the command line)."""


@dataclass
class RunSummary:
    records: int = 0
    jobs_done: int = 0
    jobs_skipped: int = 0
    bytes: int = 0
    overflow_records: int = 0  # records whose nodes or leaves exceed 2**63 - 1 (stored NULL)
    seconds: float = 0.0
    per_game: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        rate = self.records / self.seconds if self.seconds > 0 else 0.0
        text = (
            f"{self.records:,} records in {self.jobs_done} (game, n) jobs "
            f"({self.jobs_skipped} already complete) in {self.seconds:.1f} s "
            f"({rate:,.0f} records/s), {self.bytes / 2**20:.1f} MiB written"
        )
        if self.overflow_records:
            text += f"; {self.overflow_records:,} records with nodes/leaves beyond 2^63-1 (NULL)"
        return text


def resolve_games(ids: list[str]) -> list[Game]:
    games, seen = [], set()
    for gid in ids:
        if not gid.strip():
            continue
        try:
            game = get_game(gid)
        except GameError as exc:
            raise RunError(str(exc)) from exc
        if game.game_id not in seen:
            seen.add(game.game_id)
            games.append(game)
    if not games:
        raise RunError("no game given (--games lctr,downright,...)")
    return games


@functools.cache
def _worker_game(game_id: str) -> Game:
    """One game object per worker process, so its shard plans and tables are built once."""
    return get_game(game_id)


def _solve_and_write(
    root: str, game_id: str, work: list[tuple[int, int]], max_records: int
) -> list[tuple[int, int, int, int, int]]:
    """Worker task: solve and write shards in order. Returns (n, shard, records, bytes, overflow)."""
    return list(_solve_and_write_iter(root, game_id, work, max_records))


def _solve_and_write_iter(
    root: str, game_id: str, work: list[tuple[int, int]], max_records: int
) -> Iterator[tuple[int, int, int, int, int]]:
    """Solve shards in order and write each one in a thread while the next one is solved.

    The kernels release the GIL (``nogil=True``) and so does the Parquet writer (its numba
    encoders are ``nogil`` and Arrow's zstd releases it: a spinning Python thread kept its full
    speed during writes), so compression and writing run beside the kernel, not after it
    (issue 6). At most one solved shard waits for the writer: memory stays bounded. Yields each
    shard once it is on disk.
    """
    store = Store(Path(root))
    game = _worker_game(game_id)
    reserve = getattr(game, "reserve", None)  # serial games: allocate once for the chain's largest n
    if reserve is not None and work:
        reserve(max(n for n, _ in work))
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="partgames-writer") as writer:
        pending: Future | None = None
        for n, shard in work:
            table = game.solve_shard(n, shard, max_records)
            if pending is not None:
                yield pending.result()
            pending = writer.submit(_write_shard, store, game_id, n, shard, table)
        if pending is not None:
            yield pending.result()


ShardResult = tuple[int, int, int, int, int]  # (n, shard, records, bytes, overflow records)


def _write_shard(store: Store, game_id: str, n: int, shard: int, table: pa.Table) -> ShardResult:
    size = store.write_shard(game_id, n, shard, table)
    overflow = table.num_rows - pc.sum(
        pc.and_(pc.is_valid(table["nodes"]), pc.is_valid(table["leaves"]))
    ).as_py() if table.num_rows else 0
    return n, shard, table.num_rows, size, int(overflow)


def run(
    game_ids: list[str],
    max_n: int,
    min_n: int = 1,
    out: str = "results",
    jobs: int | None = None,
    force: bool = False,
    max_records: int = DEFAULT_SHARD_RECORDS,
    progress: bool = True,
) -> RunSummary:
    """Compute and store the records of every game for every n in [min_n, max_n]."""
    if min_n < 1:
        raise RunError(f"--min-n must be at least 1 (got {min_n})")
    if max_n < min_n:
        raise RunError(f"--max-n ({max_n}) is below --min-n ({min_n})")
    if max_n > MAX_N:
        raise RunError(f"--max-n {max_n} is beyond the supported bound {MAX_N}")
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise RunError("--jobs must be at least 1")
    games = resolve_games(game_ids)
    store = Store.open(out)
    summary = RunSummary()
    start = time.perf_counter()

    # Plan: what is missing, per game and n.
    pending: dict[tuple[str, int], set[int]] = {}
    work: list[tuple[Game, list[tuple[int, int]], int]] = []  # (game, [(n, shard)], records)
    totals: dict[str, int] = {}
    for game in games:
        serial: list[tuple[int, int]] = []
        serial_records = 0
        for n in range(min_n, max_n + 1):
            if not force and store.is_complete(game.game_id, n):
                summary.jobs_skipped += 1
                continue
            count = game.shard_count(n, max_records)
            # Shards in staging are reused only by the same code and schema, and never by --force
            # (which is how a user recomputes after an upgrade or a fix).
            plan = {"game": game.game_id, "n": n, "max_records": max_records, "shards": count,
                    "shard_format": SHARD_FORMAT,
                    "version": __version__, "schema": game.schema.to_string()}
            have = store.completed_shards(game.game_id, n, plan, discard=force)
            missing = [k for k in range(count) if k not in have]
            pending[(game.game_id, n)] = set(missing)
            records = game.positions(n)
            totals[game.game_id] = totals.get(game.game_id, 0) + records
            if game.parallel:
                per_shard = -(-records // count)
                for k in missing:  # pack small shards together: one task ≈ max_records records
                    if work and work[-1][0] is game and work[-1][2] + per_shard <= max_records:
                        work[-1][1].append((n, k))
                        work[-1] = (game, work[-1][1], work[-1][2] + per_shard)
                    else:
                        work.append((game, [(n, k)], per_shard))
            else:  # solved in increasing n by one process, which reuses smaller totals
                serial.extend((n, k) for k in missing)
                serial_records += records
        if serial:
            work.append((game, serial, serial_records))

    bars = _progress_bars(games, totals, progress)
    by_id = {g.game_id: g for g in games}

    def record_done(game_id: str, results: list[tuple[int, int, int, int, int]]) -> None:
        for n, shard, records, size, overflow in results:
            summary.records += records
            summary.bytes += size
            summary.overflow_records += overflow
            summary.per_game[game_id] = summary.per_game.get(game_id, 0) + records
            if bars:
                bars[game_id].update(records)
            left = pending[(game_id, n)]
            left.discard(shard)
            if not left:
                _finish(store, by_id[game_id], n, max_records)
                summary.jobs_done += 1
                del pending[(game_id, n)]

    # (game, n) jobs with nothing left to compute (all shards found in staging).
    for key in [k for k, left in pending.items() if not left]:
        _finish(store, by_id[key[0]], key[1], max_records)
        summary.jobs_done += 1
        del pending[key]

    try:
        # Starting worker processes costs seconds; small runs are faster in this process.
        if jobs == 1 or len(work) <= 1 or sum(w[2] for w in work) < SMALL_RUN:
            for game_id, items in _in_order(work):
                for result in _solve_and_write_iter(str(store.root), game_id, items, max_records):
                    record_done(game_id, [result])
        else:
            _run_pool(store, work, jobs, max_records, record_done)
    finally:
        for bar in (bars or {}).values():
            bar.close()
        store.tidy_staging()
    summary.seconds = time.perf_counter() - start
    return summary


def _in_order(work: list[tuple[Game, list[tuple[int, int]], int]]) -> list[tuple[str, list[tuple[int, int]]]]:
    """The in-process schedule: one shard list per game (consecutive tasks merged), so the
    writer thread always has the previous shard to write while the kernel solves the next."""
    merged: list[tuple[str, list[tuple[int, int]]]] = []
    for game, items, _ in work:
        if merged and merged[-1][0] == game.game_id:
            merged[-1][1].extend(items)
        else:
            merged.append((game.game_id, list(items)))
    return merged


def _exit_with_parent(parent: int) -> None:
    """Worker initializer: end the worker when the run's main process is gone.

    A main process killed by a signal it cannot handle (SIGKILL, or SIGTERM from a batch
    system) leaves its pool workers behind, each holding a few hundred MiB; they would idle on
    their task queue forever, or solve their queued shards and then idle. A daemon thread
    checks the parent once a second and ends the worker; a staged shard is either fully
    renamed into place or not there at all, so the next run simply resumes.
    """
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="partgames-parent-watch", daemon=True).start()


def _run_pool(store, work, jobs, max_records, record_done) -> None:
    ctx = multiprocessing.get_context("spawn")  # no inherited threads or locks from the parent
    # Serial chains first (they are long), then shards, largest n first for a short tail.
    order = sorted(work, key=lambda w: (w[0].parallel, -max(n for n, _ in w[1])))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_exit_with_parent,
                             initargs=(os.getpid(),)) as pool:
        queue = list(reversed(order))
        running: dict[Future, str] = {}
        try:
            while queue or running:
                while queue and len(running) < 2 * jobs:  # bounded: memory stays flat
                    game, items, _ = queue.pop()
                    fut = pool.submit(_solve_and_write, str(store.root), game.game_id, items, max_records)
                    running[fut] = game.game_id
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in done:
                    game_id = running.pop(fut)
                    record_done(game_id, fut.result())
        except BrokenProcessPool as exc:  # a worker was killed (the OOM killer, a batch system)
            raise RunError("a worker process ended abruptly (killed, or out of memory); the shards "
                           "written so far are kept: rerun the same command to resume") from exc
        except BaseException:
            for fut in running:
                fut.cancel()
            raise


def _finish(store: Store, game: Game, n: int, max_records: int) -> None:
    store.finalize(game.game_id, n, {"game": game.game_id, "n": n, "records": game.positions(n),
                                     "shards": game.shard_count(n, max_records)})


def _progress_bars(games: list[Game], totals: dict[str, int], enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm

    tqdm.monitor_interval = 0
    return {
        g.game_id: tqdm(total=totals.get(g.game_id, 0), desc=f"{g.game_id:>10}", unit="part",
                        unit_scale=True, smoothing=0.1, leave=True)
        for g in games
    }
