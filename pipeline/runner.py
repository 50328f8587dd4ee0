"""`partgames run`: schedule every (game, n) shard over solver threads and write the store.

Python moves whole shards only. ``--jobs`` solver threads take shards from one queue; each solves
a shard with its game's numba kernel (``nogil``, so the threads run on all cores at once) and
hands it to its own writer thread, which writes it to staging while the next shard is solved
(:func:`_solve_and_write_iter`). The main thread counts, shows progress and moves finished
(game, n) directories into the store. A task is one shard of every board game of the run (they
have the same shards): one thread solves it game after game, and the games after the first borrow
its partition columns (:class:`_SharedShard`); LCTR and Downright are solved in one walk.

Threads rather than processes: a worker process costs its imports and interpreter shutdown,
plus its own copy of the interpreter, libraries and compiled kernels; threads share one
process, so a run of a few seconds keeps its cores solving (docs/performance.md, "Measurements
behind the code").
"""

from __future__ import annotations

import ctypes
import functools
import os
import queue
import shutil
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from pipeline import __version__, source_digest
from pipeline.errors import PartgamesError
from pipeline.games import MAX_N, Game, GameError, get_game
from pipeline.games.columns import partition_columns
from pipeline.games.selection import Selection, SelectionGame
from pipeline.games.single_partition import MAX_N as SINGLE_MAX_N
from pipeline.games.single_partition import SolveError
from pipeline.keep import KEEP_ALL, KeepError, KeepFilter
from pipeline.parquet import ChunkReuse
from pipeline.schema import BOARD_SCHEMA, PARTITION_COLUMNS, schema_digest
from pipeline.storage import JOURNAL, MARKER, SHARD_FORMAT, STAGING, Store, read_commit
from pipeline.summaries import merge, summarize_table

if TYPE_CHECKING:
    from pipeline.cluster import ClusterOptions

#: Records per shard, at most. A shard in memory takes about 150 bytes per record at n = 72.
MAX_SHARD_RECORDS = 1 << 18
#: Records of the shards in memory at once (being solved, or solved and being written), over all
#: solver threads: at most 2^20, about 150 MiB, whatever ``--jobs`` is (:class:`RecordBudget`).
#: Without it a run's memory grows with the cores (docs/performance.md, "Measurements behind the
#: code"). Two jobs (each holding at most two shards of 2^18 records) never wait.
RECORDS_IN_MEMORY = 1 << 20
#: Smaller shards cost more than they save: writing a shard costs about 2 ms whatever its size
#: (most of it Python building each column's pages and the footer, holding the GIL), against
#: 40 ms of kernel for 2^16 records (docs/performance.md, "Measurements behind the code").
MIN_SHARD_RECORDS = 1 << 16


def default_shard_records(jobs: int) -> int:
    """Records per shard for a run with ``jobs`` solver threads: ``RECORDS_IN_MEMORY / jobs``
    within [2^16, 2^18], so that every thread can hold a shard within the memory budget.

    >>> [default_shard_records(j) for j in (1, 2, 4, 8, 16, 64)]
    [262144, 262144, 262144, 131072, 65536, 65536]
    """
    size = MAX_SHARD_RECORDS
    while size > MIN_SHARD_RECORDS and jobs * size > RECORDS_IN_MEMORY:
        size //= 2
    return size


def shard_memory_pool() -> pa.MemoryPool:
    """The memory pool for the shards' columns: Arrow's jemalloc pool, keeping freed pages
    (the system allocator where pyarrow has no jemalloc).

    pyarrow's default, mimalloc, keeps memory for every thread that allocated from it, and the
    system allocator's per-thread arenas keep freed memory too; jemalloc keeps least. Arrow has
    jemalloc return freed pages to the OS at once (decay 0), and faulting them in again costs
    system time, so the pages are kept (decay -1, set in ``pipeline/__init__.py``: the record
    budget bounds what is live). Its arenas: see ``pipeline/__init__.py`` and
    :data:`MALLOC_ARENAS`. Figures: docs/performance.md, "Measurements behind the code".
    """
    try:
        return pa.jemalloc_memory_pool()
    except NotImplementedError:
        return pa.system_memory_pool()


def use_run_allocators() -> None:
    """A run's allocators: :func:`shard_memory_pool` as Arrow's default, unless
    ``ARROW_DEFAULT_MEMORY_POOL`` (an explicit choice) is set, and the C library's malloc kept to
    :data:`MALLOC_ARENAS` arenas (:func:`limit_malloc_arenas`)."""
    if "ARROW_DEFAULT_MEMORY_POOL" not in os.environ:
        pa.set_memory_pool(shard_memory_pool())
    limit_malloc_arenas()


#: glibc malloc arenas a run may use (glibc's default: 8 per core). Memory from numpy and from the
#: kernels' own arrays (numba's allocator) goes there, and every arena keeps freed memory for the
#: threads it serves, so with more arenas what is kept grows with --jobs (docs/performance.md,
#: "Measurements behind the code"). The arrays are few and large (a few dozen per shard), so
#: threads sharing one arena hardly meet on its lock.
MALLOC_ARENAS = 1
_M_ARENA_MAX = -8  # mallopt's parameter number, from glibc's malloc.h


def limit_malloc_arenas() -> None:
    """Cap glibc's malloc arenas at :data:`MALLOC_ARENAS` for the threads started from now on.

    Nothing happens where the C library has no ``mallopt`` (not glibc), or when
    ``MALLOC_ARENA_MAX`` is set (glibc read it at start-up: an explicit choice).
    """
    if "MALLOC_ARENA_MAX" in os.environ:
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt(ctypes.c_int(_M_ARENA_MAX), ctypes.c_int(MALLOC_ARENAS))


class RecordBudget:
    """Records of the shards in memory, over all solver threads, kept under a limit.

    A solver thread takes a shard's records before solving it and its writer gives them back once
    the shard is on disk. With shards of ``limit / jobs`` records every thread can hold one,
    solving or writing, so every core stays busy; what waits is a thread's next shard overlapping
    its last write. A shard larger than the limit still runs, alone.

    A shard of several board games (:class:`_SharedShard`) counts as one shard from its first
    game's solve to its last game's write: its partition columns are 64–85 % of a table's bytes
    (LCTR n = 30, 72 and 100, king n = 60), a game's own columns the rest. Its games after the
    first take nothing, so a thread never waits in the middle of a group (waiting there, it would
    hold the columns outside the budget), and a thread holds at most two shards' worth, as
    without groups.
    """

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self._cond = threading.Condition()

    def take(self, records: int, stop: threading.Event) -> bool:
        """Wait until ``records`` fit; False (nothing taken) if the run stops meanwhile."""
        with self._cond:
            while self.used and self.used + records > self.limit:
                if stop.is_set():
                    return False
                self._cond.wait(0.05)
            self.used += records
            return True

    def give(self, records: int) -> None:
        with self._cond:
            self.used -= records
            self._cond.notify_all()


class RunError(PartgamesError, ValueError):
    """Bad arguments to a run (one line, for the command line)."""


@dataclass
class RunSummary:
    records: int = 0
    jobs_done: int = 0
    jobs_skipped: int = 0
    jobs_repaired: int = 0  # complete (game, n) found damaged and computed again
    bytes: int = 0
    overflow_records: int = 0  # records whose nodes or leaves exceed 2**63 - 1 (stored NULL)
    tasks_per_worker: dict[str, int] = field(default_factory=dict)  # a cluster run's
    seconds: float = 0.0
    per_game: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        rate = self.records / self.seconds if self.seconds > 0 else 0.0
        text = (
            f"{self.records:,} records in {self.jobs_done} (game, n) jobs "
            f"({self.jobs_skipped} already complete"
            + (f", {self.jobs_repaired} repaired" if self.jobs_repaired else "")
            + f") in {self.seconds:.1f} s "
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


#: One solver thread's work item: games and the (n, shard, records per shard) it solves, in this
#: order, each for every game in turn. Several games only for one shard of games with the same
#: start positions (``Game.record_order``), a single game otherwise.
Task = tuple[list[Game], list[tuple[int, int, int]]]
#: (game id, n, shard, records, bytes, records with nodes or leaves NULL)
ShardResult = tuple[str, int, int, int, int, int]


@dataclass
class _SharedShard:
    """One shard of several games with the same start positions in the same order
    (``Game.record_order``, the board games), solved by one thread game after game: the first
    game computes the columns that depend on the position only (:data:`PARTITION_COLUMNS`), the
    others borrow its arrays, and their writes take those columns' chunks from ``reuse`` (encoded
    and compressed once). Of an LCTR record at n = 72, the kernel spends about 20 ns and writing
    about 160 of 200 ns on these columns. Games with a partner solve both in one kernel call
    (:meth:`solve`): LCTR and Downright together cost about 430 ns per pair of records at
    n = 72, against about 570 one after the other (kernel and tables, one thread)."""

    games: list[Game]  # in the order they are solved
    games_left: int  # not solved yet; columns is dropped after the last one
    columns: dict[str, pa.Array] | None = None
    reuse: ChunkReuse = field(default_factory=lambda: ChunkReuse(PARTITION_COLUMNS))
    #: Tables of games after the current one, solved with it (``Game.partner_in``), by game id.
    solved: dict[str, pa.Table] = field(default_factory=dict)
    #: Games with a partner solve both in one kernel call (False: each its own; see :func:`run`).
    partners: bool = True

    def solve(self, game: Game, n: int, shard: int, size: int) -> pa.Table:
        """``game``'s table of this shard (the next game's, in order): taken from
        :attr:`solved`, or solved with the shard's partition columns if they exist, and with a
        partner among the later games if ``game`` has one (whose table is kept for its turn)."""
        table = self.solved.pop(game.game_id, None)
        if table is not None:
            return table
        later = self.games[len(self.games) - self.games_left + 1:]
        partner = game.partner_in(later) if self.partners else None
        if partner is None:
            if self.columns is None:
                return game.solve_shard(n, shard, size)
            return game.solve_shard(n, shard, size, partition_columns=self.columns)
        table, self.solved[partner.game_id] = game.solve_shard_with(
            partner, n, shard, size, partition_columns=self.columns)
        return table


def _shards_of(tasks: deque[Task], stop: threading.Event, serial_lock: threading.Lock,
               partners: bool = True) -> Iterator[tuple[Game, int, int, int, _SharedShard | None]]:
    """The shards of the tasks this thread takes from the shared queue, in order, until the queue
    is empty or the run stops; each with the :class:`_SharedShard` of its task's games, if they
    are several.

    A task of a serial game (``parallel = False``, Slow SetNim) is its whole chain of totals,
    solved in increasing n by the thread that takes it, and one serial chain runs at a time
    (``serial_lock``): such a game keeps every smaller total in memory, bounded per game
    (docs/performance.md), so two at once could pass the bound. A thread that finds the lock taken leaves the
    chain in the queue and takes other work first. The lock is released when the chain ends or
    the generator is closed. ``partners``: as in :func:`run`.
    """
    while not stop.is_set():
        try:
            games, items = tasks.popleft()  # atomic: each task goes to exactly one thread
        except IndexError:
            return
        serial = not games[0].parallel  # a serial game's task holds that game only
        if serial and not serial_lock.acquire(blocking=False):
            tasks.append((games, items))  # back in the queue, behind any other work
            # list(): a copy taken at once, since other threads pop from the deque meanwhile
            if not any(gs[0].parallel for gs, _ in list(tasks)):
                time.sleep(0.05)  # only serial chains left: wait for the running one
            continue
        try:
            for game in games:
                game.reserve(max(n for n, _, _ in items))  # allocate once for the chain's largest n
            for n, shard, size in items:
                group = _SharedShard(games, len(games), partners=partners) if len(games) > 1 else None
                for game in games:
                    if stop.is_set():
                        return
                    yield game, n, shard, size, group
        finally:
            if serial:
                serial_lock.release()


def _solve_and_write_iter(
    store: Store, shards: Iterator[tuple[Game, int, int, int, _SharedShard | None]],
    budget: RecordBudget, stop: threading.Event, keep: KeepFilter = KEEP_ALL,
) -> Iterator[ShardResult]:
    """Solve shards in order and write each one in a thread while the next one is solved.

    The kernels release the GIL (``nogil=True``) and so does the Parquet writer (its numba
    encoders are ``nogil`` and Arrow's zstd releases it: a spinning Python thread kept its full
    speed during writes), so compression and writing run beside the kernel, not after it.
    At most one solved shard waits for the writer, and every shard's records are taken
    from ``budget`` until it is on disk: memory stays bounded whatever the number of threads.
    Yields each shard once it is on disk. ``keep``: the records written (the summary staged
    with each shard covers all of them).
    """
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="partgames-writer") as writer:
        pending: Future | None = None
        for game, n, shard, size, group in shards:
            borrowing = group is not None and group.columns is not None
            taken = 0 if borrowing else size  # a group's shard is taken by its first game
            if taken and not budget.take(taken, stop):
                break
            given = 0  # given back once this table is on disk
            submitted = False
            try:
                if group is None:
                    table = game.solve_shard(n, shard, size)
                    given = size
                else:
                    table = group.solve(game, n, shard, size)
                    if not borrowing:  # the group's first game: its columns stay for the others
                        group.columns = partition_columns(table)
                    group.games_left -= 1
                    if not group.games_left:
                        # The last table: the shard is given back with its write, which ends
                        # after the group's earlier writes (each ends before the next is submitted).
                        group.columns = None
                        given = size
                if pending is not None:
                    yield pending.result()
                pending = writer.submit(stage_shard, store, game.game_id, n, shard, table,
                                        group.reuse if group is not None else None, keep)
                submitted = True
            finally:
                # The writer holds the shard now and gives its records back once it is on disk;
                # a reference kept here would hold it on past that, while this thread waits in
                # take() or solves the next shard, one shard per thread outside the budget.
                table = None
                if not submitted:  # an error, or the run ends here: the shard is dropped
                    budget.give(taken)
            # given back by the writer thread as the write ends (or fails), since this thread
            # may be waiting in take() for it
            pending.add_done_callback(lambda _done, given=given: budget.give(given))
        if pending is not None:
            yield pending.result()


def stage_shard(store: Store, game_id: str, n: int, shard: int, table: pa.Table,
                reuse: ChunkReuse | None = None, keep: KeepFilter = KEEP_ALL) -> ShardResult:
    """Summarise a solved shard and stage it with the records ``keep`` selects. Filtered
    records are not the arrays the shard's other games share, so they are written without
    ``reuse``.

    A local run's writer threads call it once per shard, looking it up in this module at each
    call: replacing ``pipeline.runner.stage_shard`` by a wrapper observes or interrupts a run's
    writes (what it was given, when it ends) without touching the solvers."""
    summary = summarize_table(table)
    kept = keep.select(table)
    if kept is not table:
        reuse = None
    size = store.write_shard(game_id, n, shard, kept, reuse, summary=summary).bytes
    return game_id, n, shard, table.num_rows, size, summary["overflow"]


def run(
    game_ids: list[str],
    max_n: int,
    min_n: int = 1,
    out: str = "results",
    jobs: int | None = None,
    force: bool = False,
    max_records: int | None = None,
    progress: bool = True,
    repair: bool = False,
    space_check: bool = True,
    say: Callable[[str], None] | None = None,
    cluster: ClusterOptions | None = None,
    keep: str = "all",
    share_partition_columns: bool = True,
    solve_partners_together: bool = True,
    selection: Selection | None = None,
) -> RunSummary:
    """Compute and store the records of every game for every n in [min_n, max_n].

    ``selection``: only these start partitions of each n (a family run's or a partitions file's,
    :mod:`pipeline.games.selection`), solved by the single-partition solver into a store of its
    own: a store holds the records of one selection or of exhaustive runs, never both
    (:func:`check_store_selection`).

    Complete (game, n) are skipped once checked against their commit records: a ``stat`` of
    each file (``repair``: every byte hashed, :func:`pipeline.storage.check_job`); damaged ones
    are recomputed, and ``say`` (a line for the user) names each. Before solving, the records
    and bytes to write are estimated (:func:`estimate`) and said; a run whose bytes exceed the
    free space of the store's filesystem is refused unless ``space_check`` is False.

    ``keep``: the records written, ``all``, ``none`` or a SQL condition over a record's columns
    (:mod:`pipeline.keep`); the summary of every (game, n) (:mod:`pipeline.summaries`) covers
    every record whatever is kept. A complete (game, n) kept otherwise is refused without
    ``force``.

    ``cluster``: solve the shards as tasks on a Dask cluster (:mod:`pipeline.cluster`) instead
    of ``jobs`` local threads; everything else is the same.

    ``max_records`` (records per shard) is by default :func:`default_shard_records` of ``jobs``
    for a (game, n) started afresh, and the staged plan's for one being resumed, so that a run
    resumed with other ``--jobs`` keeps its finished shards. Given, it applies to every (game, n)
    (staged shards of another size are then dropped).

    Two levers for ``benchmarks/bench.py``, which measures what they save: games with the same
    ``record_order`` (the board games) solve each shard in turn and share its partition columns
    (:class:`_SharedShard`) unless ``share_partition_columns`` is False (every game's shard a task
    of its own); in such a shard a game with a partner among the games after it
    (``Game.partner_in``: LCTR and Downright) solves both in one kernel call unless
    ``solve_partners_together`` is False (local runs only).
    """
    jobs = _checked_jobs(min_n, max_n, jobs, max_records, selection)
    games = _run_games(game_ids, selection, cluster)
    keep_filter = _keep_filter(keep, games)
    if cluster is not None:
        jobs = 1  # shards of the largest size: a task's overhead on a cluster is milliseconds
    use_run_allocators()
    with _store_for_run(out, selection) as store:
        return _run_store(store, games, min_n, max_n, jobs, force, max_records, progress,
                          repair, space_check, say or (lambda _line: None), cluster, keep_filter,
                          share_partition_columns=share_partition_columns,
                          solve_partners_together=solve_partners_together)


def _keep_filter(keep: str, games: list[Game]) -> KeepFilter:
    """The run's ``--keep`` (``all``, ``none`` or a condition) checked against the schemas of
    its games; a :class:`RunError` naming what is wrong otherwise."""
    try:
        return KeepFilter.parse(keep, list({g.schema.to_string(): g.schema for g in games}.values()))
    except KeepError as exc:
        raise RunError(str(exc)) from None


@contextmanager
def _store_for_run(out: str, selection: Selection | None) -> Iterator[Store]:
    """The store at ``out``, held by this run alone (a :class:`StoreError` if another run holds
    it) and checked to hold records of this run's ``selection`` only. A run refused or failed
    before writing a record (a :class:`PartgamesError`: its selection, ``--keep``, the space)
    leaves no store it created behind (:func:`_undo_creation`)."""
    existed, marked = Path(out).is_dir(), (Path(out) / MARKER).is_file()
    store = Store.open(out)
    locked = False
    try:
        with store.writer():
            locked = True
            check_store_selection(store, selection)
            yield store
    except PartgamesError:
        if locked:
            _undo_creation(store, existed, marked)
        raise


def _checked_jobs(min_n: int, max_n: int, jobs: int | None, max_records: int | None,
                  selection: Selection | None) -> int:
    """The solver threads of a run (``jobs``, by default every core), once its range of n, its
    threads and its records per shard are valid; a :class:`RunError` naming the option otherwise."""
    if min_n < 1:
        raise RunError(f"--min-n must be at least 1 (got {min_n})")
    if max_n < min_n:
        raise RunError(f"--max-n ({max_n}) is below --min-n ({min_n})")
    if selection is None and max_n > MAX_N:
        raise RunError(f"--max-n {max_n} is beyond the supported bound {MAX_N}")
    if selection is not None and max_n > SINGLE_MAX_N:
        raise RunError(f"--max-n {max_n} is beyond n={SINGLE_MAX_N}, the largest the int16 columns "
                       "n and parts hold")
    if jobs is None:
        jobs = os.cpu_count() or 1
    if jobs < 1:
        raise RunError(f"--jobs must be at least 1 (got {jobs})")
    if max_records is not None and max_records < 1:
        raise RunError("--shard-records must be at least 1")
    return jobs


def _run_games(game_ids: list[str], selection: Selection | None,
               cluster: ClusterOptions | None) -> list[Game]:
    """The games of a run: each game id's, or with a ``selection`` each one's
    :class:`SelectionGame` (solved locally only)."""
    games = resolve_games(game_ids)
    if selection is not None:
        if cluster is not None:
            raise RunError("--family and --partitions runs are solved locally (no --scheduler)")
        try:
            games = [SelectionGame(g.game_id, selection) for g in games]
        except SolveError as exc:
            raise RunError(str(exc)) from exc
    return games


def _undo_creation(store: Store, existed: bool, marked: bool) -> None:
    """Remove what a run refused before writing anything created: the store's marker (and its
    empty journal and staging area) if the run wrote it, and the directory if the run made it.
    Nothing is removed from a store that holds anything else."""
    root = store.root
    if marked:
        return
    try:
        names = {p.name for p in root.iterdir()}
    except OSError:
        return
    if names - {MARKER, JOURNAL, STAGING}:
        return
    if store.journal.exists() and store.journal.entries():
        return
    store.tidy_staging()
    if store.staging.exists():
        return
    for name in (JOURNAL, MARKER):
        (root / name).unlink(missing_ok=True)
    if not existed:
        try:
            root.rmdir()
        except OSError:
            pass


def check_store_selection(store: Store, selection: Selection | None) -> None:
    """Refuse a run whose records would sit beside another kind in one store: an exhaustive
    (game, n) holds every partition of n and a selection's (game, n) only some, and the views
    and ``verify`` read a store as one or the other (queries/FORMAT.md)."""
    want = selection.label if selection is not None else None
    for game_id, n, record in store.committed()[0]:
        have = record.get("selection")
        if have == want:
            continue
        held = f"the records of a run on {have}" if have else "exhaustive records"
        wanted = f"a run on {want}" if want else "an exhaustive run"
        raise RunError(f"{store.root} holds {held} (game={game_id} n={n}); {wanted} needs a store "
                       "of its own: choose another --out")


#: Bytes per record assumed for a game with nothing committed yet in the store whose records
#: are not :data:`~pipeline.schema.BOARD_SCHEMA`'s (the largest measured: board games at small
#: n, where the footer weighs most; see docs/performance.md).
DEFAULT_BYTES_PER_RECORD = 24.0

#: A record of :data:`~pipeline.schema.BOARD_SCHEMA` in a game with nothing committed yet: its
#: bytes, and each shard file's own (footer and headers). LCTR and Downright at n = 40-100 take
#: 8.7-10.3 bytes a record beside about 5.5 kB a file, the nine board games at n = 20 alike; the
#: 24 bytes above, right for tiny n only, would overstate a large run about 2.5 times.
BOARD_RECORD_BYTES = 12.0
SHARD_FILE_BYTES = 8192


#: Bytes of disk a commit record takes (a file of 1 to 10 kB, its summary growing with n: one
#: filesystem block of 4 kB or more); the store's own largest, rounded up to blocks, when it has one.
COMMIT_RECORD_BYTES = 8192


def estimate(store: Store, jobs: list[tuple[Game, int]], keep: KeepFilter = KEEP_ALL) -> tuple[int, int]:
    """(records, bytes) a run of these (game, n) jobs solves and writes: p(n) records each (the
    game's ``positions``), at the bytes per record of the game's largest committed n in this
    store (without one: :data:`BOARD_RECORD_BYTES` a record and :data:`SHARD_FILE_BYTES` a shard
    of the largest size for a board-schema game, else :data:`DEFAULT_BYTES_PER_RECORD`), and a
    commit record each (:data:`COMMIT_RECORD_BYTES`, or the size of the store's largest). With
    ``keep`` none no record is written, only the commit records; with a condition, the bytes are
    a bound."""
    records = total = 0
    per_record: dict[str, float | None] = {}
    for game, n in jobs:
        if game.game_id not in per_record:
            per_record[game.game_id] = store.bytes_per_record(game.game_id)
        count = game.positions(n)
        records += count
        if keep.keeps_none:
            continue
        measured = per_record[game.game_id]
        if measured is not None:
            total += int(count * measured)
        elif game.schema.equals(BOARD_SCHEMA):
            shards = max(1, -(-count // MAX_SHARD_RECORDS))
            total += int(count * BOARD_RECORD_BYTES) + SHARD_FILE_BYTES * shards
        else:
            total += int(count * DEFAULT_BYTES_PER_RECORD)
    return records, total + len(jobs) * max(COMMIT_RECORD_BYTES, store.commit_record_bytes())


def _size(count: float) -> str:
    """
    >>> _size(3.2e9), _size(512), _size(7.5e12)
    ('3.2 GB', '512 B', '7.5 TB')
    """
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if count < 1000 or unit == "TB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1000
    raise AssertionError


def _complete_journal(store: Store, skipped: list[tuple[str, int, dict]]) -> None:
    """The journal of commits (:class:`pipeline.storage.Journal`) made complete: started on a
    store that has none with every sound (game, n) it holds, and given the ``skipped`` (sound)
    (game, n) of the run's range it lacks (a run killed between a commit and its journal line)."""
    if not store.journal.exists():
        store.journal_missing(store.committed()[0])
    else:
        store.journal_missing(skipped)


def _solve_plan(store: Store, plan: _Plan, jobs: int, record_done: Callable[[ShardResult], None],
                cluster: ClusterOptions | None, keep: KeepFilter, solve_partners_together: bool,
                summary: RunSummary) -> None:
    """Solve and stage the shards of ``plan``'s tasks, each reported to ``record_done``: in
    ``jobs`` local threads (:func:`solve_all`), or as tasks on the Dask cluster ``cluster``
    (:func:`pipeline.cluster.solve_all`, which gives ``summary`` its tasks per worker)."""
    if cluster is None:
        solve_all(store, deque(plan.tasks), jobs, record_done, solve_partners_together, keep)
    elif plan.tasks:
        from pipeline import cluster as dask_cluster  # Dask only for a cluster run

        rules = rules_sources([g for gs, _ in plan.tasks for g in gs])  # to the workers
        summary.tasks_per_worker = dask_cluster.solve_all(
            store.root, [([g.game_id for g in gs], items) for gs, items in plan.tasks],
            cluster, functools.partial(solve_task, keep=keep.text, rules=rules), record_done)


def _run_store(store: Store, games: list[Game], min_n: int, max_n: int, jobs: int, force: bool,
               max_records: int | None, progress: bool, repair: bool, space_check: bool,
               say: Callable[[str], None], cluster: ClusterOptions | None = None,
               keep: KeepFilter = KEEP_ALL, share_partition_columns: bool = True,
               solve_partners_together: bool = True) -> RunSummary:
    """:func:`run`'s work, once its arguments are checked and the store is locked."""
    summary = RunSummary()
    start = time.perf_counter()
    commits = {} if force else _read_commits(store, games, min_n, max_n, keep)
    todo, skipped = _jobs_to_compute(store, games, min_n, max_n, force, repair, commits, summary, say)
    _check_space(store, todo, keep, space_check, progress, say)
    _complete_journal(store, skipped)
    plan = _plan(store, games, todo, jobs, force, max_records, keep, share_partition_columns)
    if cluster is None and plan.tasks:  # the first run's compiling, not solving
        from pipeline.warmup import compile_kernels

        needed = {id(g) for gs, _ in plan.tasks for g in gs}
        start += compile_kernels([g for g in games if id(g) in needed], os.cpu_count() or 1,
                                 say, solve_partners_together, {n for _, n in todo})
    bars = _progress_bars(games, plan.totals, progress)
    by_id = {g.game_id: g for g in games}

    def finish(key: tuple[str, int]) -> None:
        _finish(store, by_id[key[0]], key[1], plan.shard_size[key], keep)
        summary.jobs_done += 1
        del plan.pending[key]

    def record_done(result: ShardResult) -> None:
        game_id, n, shard, records, size, overflow = result
        summary.records += records
        summary.bytes += size
        summary.overflow_records += overflow
        summary.per_game[game_id] = summary.per_game.get(game_id, 0) + records
        if bars:
            bars[game_id].update(records)
        left = plan.pending[(game_id, n)]
        left.discard(shard)
        if not left:
            finish((game_id, n))

    # (game, n) jobs with nothing left to compute (all shards found in staging).
    for key in [k for k, left in plan.pending.items() if not left]:
        finish(key)

    try:
        _solve_plan(store, plan, jobs, record_done, cluster, keep, solve_partners_together, summary)
    finally:
        for bar in (bars or {}).values():
            bar.close()
        store.tidy_staging()
    summary.seconds = time.perf_counter() - start
    return summary


def _read_commits(store: Store, games: list[Game], min_n: int, max_n: int,
                  keep: KeepFilter) -> dict[tuple[str, int], dict | None]:
    """The commit records of the run's committed (game, n) (None: unreadable, recomputed),
    read once and checked against ``keep`` before anything changes (a refusal changes no byte);
    they are checked with their files next (:func:`_jobs_to_compute`)."""
    commits: dict[tuple[str, int], dict | None] = {}
    for game in games:
        for n in range(min_n, max_n + 1):
            if not store.job_dir(game.game_id, n).exists():
                continue
            try:
                commits[game.game_id, n] = read_commit(store.job_dir(game.game_id, n))
            except Exception:  # noqa: BLE001 (a damaged commit record: recomputed)
                commits[game.game_id, n] = None
                continue
            # Records kept by another --keep are not what this run would keep: a (game, n)
            # is kept one way, so that `jobs` and verify can say what each holds.
            kept = commits[game.game_id, n].get("kept", "all")
            if kept != keep.text:
                raise RunError(f"game={game.game_id} n={n} is complete with --keep {kept!r}, "
                               f"not {keep.text!r}: pass --force to recompute it with this --keep")
            # A game given by its rules: records of other rules (the file since edited) are not
            # this game's (docs/rules.md).
            rules = game.commit_fields.get("rules")
            had = commits[game.game_id, n].get("rules")
            if rules is not None and had != rules:
                raise RunError(f"game={game.game_id} n={n} is complete with the rules of {had}, not "
                               f"{rules}: pass --force to recompute it with these rules")
    return commits


def _jobs_to_compute(store: Store, games: list[Game], min_n: int, max_n: int, force: bool,
                     repair: bool, commits: dict[tuple[str, int], dict | None], summary: RunSummary,
                     say: Callable[[str], None],
                     ) -> tuple[list[tuple[Game, int]], list[tuple[str, int, dict]]]:
    """(The (game, n) to compute, the complete and sound ones skipped): every (game, n) not
    complete, every one with ``force``, and every complete one found damaged (counted in
    ``summary`` and reported through ``say``). A committed (game, n) is replaced by its commit."""
    todo: list[tuple[Game, int]] = []
    skipped: list[tuple[str, int, dict]] = []
    for game in games:
        for n in range(min_n, max_n + 1):
            if not game.positions(n):  # a selection without members of n (staircases: most n)
                continue
            if force:
                todo.append((game, n))
                continue
            if store.job_dir(game.game_id, n).exists():
                # under the lock: a copied store's files, hashed once here, are re-stamped
                damage = store.damage(game.game_id, n, deep=repair, restamp=True,
                                      record=commits.get((game.game_id, n)))
                if damage is None:
                    summary.jobs_skipped += 1
                    skipped.append((game.game_id, n, commits.get((game.game_id, n)) or {}))
                    continue
                summary.jobs_repaired += 1
                say(f"partgames: game={game.game_id} n={n} is damaged ({damage}); recomputing it")
                todo.append((game, n))
            else:
                todo.append((game, n))
    return todo, skipped


def _check_space(store: Store, todo: list[tuple[Game, int]], keep: KeepFilter, space_check: bool,
                 progress: bool, say: Callable[[str], None]) -> None:
    """Refuse a run that would write more than the store's disk has free (unless not
    ``space_check``); with ``progress``, say what it will compute."""
    records, size = estimate(store, todo, keep)
    free = shutil.disk_usage(store.root).free
    about = "about" if keep.keeps_all or keep.keeps_none else "at most"  # a condition keeps some
    if space_check and size > free:
        raise RunError(f"the run would write {about} {_size(size)} and {store.root} has {_size(free)} "
                       f"free: lower --max-n, free space, keep fewer records (--keep), or pass "
                       f"--no-space-check")
    if todo and progress:  # beside the progress bars
        say(f"partgames: {len(todo)} (game, n) to compute: about {records:,} records, "
            f"{about} {_size(size)} written ({_size(free)} free in {store.root})")


@dataclass
class _Plan:
    """What a run solves: the tasks in the order they are taken, the shards each (game, n)
    still misses, its records per shard, and each game's records (for the progress bars)."""

    tasks: list[Task]
    pending: dict[tuple[str, int], set[int]]
    shard_size: dict[tuple[str, int], int]
    totals: dict[str, int]


def _plan(store: Store, games: list[Game], todo: list[tuple[Game, int]], jobs: int, force: bool,
          max_records: int | None, keep: KeepFilter, share_partition_columns: bool) -> _Plan:
    """Stage the plan of every (game, n) of ``todo`` (keeping the shards staged under the same
    plan) and cut what is missing into tasks: one chain per serial game, solved in increasing n
    by one thread, and one task per shard of a parallel game, or of the games with its record
    order."""
    pending: dict[tuple[str, int], set[int]] = {}
    shard_size: dict[tuple[str, int], int] = {}
    serial: list[Task] = []
    groups: dict[tuple, list[Game]] = {}
    totals: dict[str, int] = {}
    for game in games:
        chain: list[tuple[int, int, int]] = []
        for n in [n for g, n in todo if g is game]:
            size = max_records or default_shard_records(jobs)
            staged = store.staged_plan(game.game_id, n) if max_records is None and not force else None
            if staged and isinstance(staged.get("max_records"), int) and staged["max_records"] >= 1:
                size = staged["max_records"]  # resume with the shards already staged
            count = game.shard_count(n, size)
            # Shards in staging are reused only by the same code (its sources' digest: a fix
            # changes it, the release number does not) and schema, and never by --force (which
            # is how a user recomputes complete (game, n) after an upgrade or a fix).
            plan = {"game": game.game_id, "n": n, "max_records": size, "shards": count,
                    "shard_format": SHARD_FORMAT, "version": __version__, "code": source_digest(),
                    "schema": game.schema.to_string(), "keep": keep.text,
                    **game.commit_fields}
            have = store.completed_shards(game.game_id, n, plan, discard=force)
            missing = [k for k in range(count) if k not in have]
            pending[(game.game_id, n)] = set(missing)
            shard_size[(game.game_id, n)] = size
            totals[game.game_id] = totals.get(game.game_id, 0) + game.positions(n)
            if game.parallel:
                order = (game.record_order if share_partition_columns else None) or ("game", game.game_id)
                for k in missing:
                    groups.setdefault((order, n, k, size), []).append(game)
            else:
                chain.extend((n, k, size) for k in missing)
        if chain:
            serial.append(([game], chain))
    shards: list[Task] = [(games_of, [(n, k, size)]) for (_, n, k, size), games_of in groups.items()]
    # Serial chains first (they are long), then shards, largest n first, for a short tail.
    shards.sort(key=shard_order)
    return _Plan(serial + shards, pending, shard_size, totals)


def shard_order(task: Task) -> tuple[int, int]:
    """Sort key of a shard task: largest n first (a (game, n) finishes early and the last
    shards are small), and within an n the largest shards first, so that the threads end
    together (the longest-processing-time rule): a shard's records where its game tells them
    (``shard_records``), else its position."""
    games, [(n, shard, size)] = task
    records = games[0].shard_records(n, shard, size)
    return -n, -records if records is not None else shard


class CodeMismatch(PartgamesError):
    """A cluster worker runs other code than the client (one line, naming the worker)."""


def rules_sources(games: list[Game]) -> list[tuple[str, str]]:
    """The files (name, text) of the run's rules games read from ``--rules`` files
    (:attr:`pipeline.games.base.Game.rules_source`), for the workers of a cluster run (an entry
    point's rules are installed there as here)."""
    out: list[tuple[str, str]] = []
    for game in games:
        source = game.rules_source
        if source is not None and source not in out:
            out.append(source)
    return out


def solve_task(store_root: str, game_ids: list[str], items: list[tuple[int, int, int]],
               code: str, keep: str = "all", rules: list[tuple[str, str]] | None = None
               ) -> tuple[str, list[ShardResult]]:
    """One task of a cluster run, on a worker: the shards ``items`` of the games ``game_ids``
    solved and written into the store's staging area as a local run's thread does, after the
    worker's code is found to be the client's (``code``, :func:`pipeline.source_digest`).
    ``keep``: the run's ``--keep`` (checked by the client). ``rules``: the ``--rules`` files
    (name, text) of the run, loaded here (docs/rules.md). Returns the worker's address and
    the shards' results (no records)."""
    import distributed

    worker = distributed.get_worker().address
    if source_digest() != code:
        raise CodeMismatch(f"worker {worker} runs other partgames code (code {source_digest()[:16]}, "
                           f"the client's {code[:16]}); install the same version everywhere")
    use_run_allocators()
    if rules:
        from pipeline.rules import load_rules_source, register

        for name, text in rules:
            for loaded in load_rules_source(name, text):
                register(loaded, replace=True)  # the client's file now, whatever ran before
    store = Store(Path(store_root))
    games = [get_game(g) for g in game_ids]
    stop = threading.Event()
    shards = _shards_of(deque([(games, items)]), stop, threading.Lock())
    try:
        return worker, list(_solve_and_write_iter(store, shards, RecordBudget(RECORDS_IN_MEMORY), stop,
                                                  KeepFilter(keep)))
    finally:
        shards.close()


_THREAD_DONE = object()  # a solver thread's last message


def solve_all(store: Store, tasks: deque[Task], jobs: int,
               record_done: Callable[[ShardResult], None], partners: bool = True,
               keep: KeepFilter = KEEP_ALL) -> None:
    """Solve and write every task in ``jobs`` solver threads; ``record_done`` runs in this (the
    calling) thread for each shard once it is on disk.

    The first error in any thread (or an interrupt here) stops the run: every thread finishes the
    shard in its hands and takes no other, and the error is raised here. A shard is on disk whole
    or not at all (:meth:`Store.write_shard`), so a rerun resumes. ``partners``: as in :func:`run`.
    """
    stop = threading.Event()
    serial_lock = threading.Lock()
    budget = RecordBudget(RECORDS_IN_MEMORY)
    results: queue.SimpleQueue = queue.SimpleQueue()

    def solver() -> None:
        shards = _shards_of(tasks, stop, serial_lock, partners)
        try:
            for result in _solve_and_write_iter(store, shards, budget, stop, keep):
                results.put(result)
        except BaseException as exc:  # noqa: BLE001 (raised again in the calling thread)
            stop.set()
            results.put(exc)
        finally:
            shards.close()  # releases the serial lock if this thread holds it
            results.put(_THREAD_DONE)

    threads = [threading.Thread(target=solver, name=f"partgames-solver-{k}", daemon=True)
               for k in range(min(jobs, len(tasks)))]
    for thread in threads:
        thread.start()
    running, error = len(threads), None
    try:
        while running:
            item = results.get()
            if item is _THREAD_DONE:
                running -= 1
            elif isinstance(item, BaseException):
                error = error or item
            else:
                record_done(item)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    if error is not None:
        raise error


def _finish(store: Store, game: Game, n: int, max_records: int, keep: KeepFilter) -> None:
    """Commit a (game, n) whose shards are all staged, with the summary of all its records
    merged from its shards' (:func:`pipeline.summaries.merge`) and what it kept."""
    shards = game.shard_count(n, max_records)
    summary = None
    for part in store.staged_summaries(game.game_id, n, shards):  # one at a time: memory stays flat
        if part is None:
            raise RunError(f"game={game.game_id} n={n}: a staged shard has no summary")
        summary = part if summary is None else merge([summary, part])
    assert summary is not None
    if summary["records"] != game.positions(n):
        raise RunError(f"game={game.game_id} n={n}: the shards hold {summary['records']:,} records, "
                       f"not the {game.positions(n):,} start positions")
    store.commit(game.game_id, n, {"game": game.game_id, "n": n, "records": game.positions(n),
                                   "shards": shards, "version": __version__, "code": source_digest(),
                                   "kept": keep.text, "summary": summary,
                                   # the files' schema, one for all of them: staged shards are
                                   # reused only with the run's (_plan); the views read them as one
                                   "schema": schema_digest(game.schema),
                                   **game.commit_fields})


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
