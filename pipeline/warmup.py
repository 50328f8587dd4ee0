"""The first run's compiling: the kernels a run needs, compiled before it solves, in parallel.

Numba compiles a kernel on its first call, holding the GIL, so a run's solver threads would
compile its kernels one after another on one core (the nine board games: over a minute). Before
solving, :func:`compile_kernels` finds the kernels the run's games need that numba's cache
(:mod:`pipeline.kernel_cache`) does not hold yet, and compiles them in worker processes, one task
per distinct kernel (its compiled type signature), on every core: each worker solves one tiny
shard of a game that calls that kernel, and one of them also writes a tiny store (the Parquet
encoder, the summaries), so numba caches exactly the specialisations the run calls. The run then
loads them from the cache. Its final line's rate counts solving, not this compiling.

A task is known done by a marker in numba's cache folder of this checkout's sources, named by
the task and the source stamps of every kernel of the package
(:func:`pipeline.kernel_cache.kernel_key`): an edit of a kernel's sources makes its tasks run
again (the workers load from the cache whatever is still fresh), an edit elsewhere changes
nothing.
"""

from __future__ import annotations

import functools
import hashlib
import multiprocessing
import os
import signal
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, wait
from pathlib import Path

import numpy as np

from pipeline.games.base import Game

#: Set in a worker process: its own tiny run compiles in place (no workers of its own).
_IN_WORKER = False

#: The total a task solves: every kernel is compiled on its first call whatever n is (a piece's
#: kernel of tuple steps is solved at TUPLE_STEPS_MIN_N, the n of that form).
TASK_N = 4
#: The records a task solves (a shard of them): a few, whatever its n.
TASK_RECORDS = 64

# A task: (game ids, ``with_partner``: the two games solved in one kernel call, ``writes``: a
# tiny run into a temporary store, which compiles the writer's kernels as well, ``n``: the total
# its tiny solve takes, TASK_N, or a piece's TUPLE_STEPS_MIN_N for its kernel of tuple steps).
Task = tuple[tuple[str, ...], bool, bool, int]

#: The totals a run solves when :func:`plan_tasks` is not told (the README's main command's).
DEFAULT_NS = range(1, 31)


def _kernel_signatures(game: Game, ns: Iterable[int]) -> list[tuple[tuple, int]]:
    """(What tells a game's solving kernel and its compiled specialisation apart, the total
    whose solve compiles it) for each kernel its solves of the totals ``ns`` call; none for a
    game left to compile in the run (a selection's solver)."""
    from pipeline.games.moveset import TUPLE_STEPS_MIN_N, MovesetGame

    if isinstance(game, MovesetGame):
        if game.lean_kernel:
            return [(("lctr_downright",), TASK_N)]
        import numba

        # moveset.MovesetGame: one specialisation per type of the steps (an array below
        # TUPLE_STEPS_MIN_N, shared by every piece; a tuple of pairs from it on, one kernel per
        # number of steps) and of the rays.
        lo, hi = min(ns, default=TASK_N), max(ns, default=TASK_N)
        found = {}
        for n in (lo, max(lo, min(hi, TUPLE_STEPS_MIN_N))):  # the smallest n of each form
            key = ("moveset", str(numba.typeof(game.kernel_steps(n))),
                   str(numba.typeof(game.kernel_rays)))
            found.setdefault(key, TASK_N if isinstance(game.kernel_steps(n), np.ndarray) else n)
        return list(found.items())
    if type(game).__name__ == "NonRepetitiveGame":
        return [(("nonrepetitive",), TASK_N)]
    if type(game).__name__ == "SlowNimGame":
        return [(("slownim",), TASK_N)]
    if type(game).__name__ == "LctrDGame":
        return [(("lctr_d",), TASK_N)]  # one kernel for every d
    if type(game).__name__ == "GenericGame":
        # one solver for every rules file (generic.solve_starts takes the rules as a compiled
        # function of one type); the records' schema says which writer it needs
        return [(("generic", game.schema.to_string()), TASK_N)]
    return []


def plan_tasks(games: list[Game], with_partners: bool = True,
               ns: Iterable[int] = DEFAULT_NS) -> list[tuple[tuple, Task]]:
    """(key, task) for each distinct kernel the ``games`` need to solve the totals ``ns``, the
    longest to compile first (a moveset's kernel, then the others)."""
    ns = list(ns)
    found: dict[tuple, Task] = {}
    taken: set[str] = set()
    for index, game in enumerate(games):
        if game.game_id in taken:
            continue
        partner = game.partner_in(games[index + 1:]) if with_partners else None
        if partner is not None and partner.game_id not in taken:
            mine, theirs = _kernel_signatures(game, ns), _kernel_signatures(partner, ns)
            if mine and theirs:
                taken.update((game.game_id, partner.game_id))
                found.setdefault(("pair", mine[0][0], theirs[0][0]),
                                 ((game.game_id, partner.game_id), True, False, TASK_N))
                continue
        for signature, n in _kernel_signatures(game, ns):
            # a schema of its own: a tiny run compiles the writer's encoders for it as well
            found.setdefault(signature, ((game.game_id,), False,
                                         signature[0] in ("slownim", "lctr_d", "generic"), n))
    tasks = sorted(found.items(), key=lambda item: item[0][0] != "moveset")
    return tasks


#: The modules that define the kernels a task compiles (every board game's, the non-repetitive
#: games', Slow SetNim's, d-dimensional LCTR's, the rules games' solver, the writer's); their
#: kernels' stamps cover the files they depend on. (A rules file's own expansion is compiled by
#: each process that runs it, about a second: numba cannot cache it.)
KERNEL_MODULES = ("pipeline.partitions", "pipeline.games.cgh", "pipeline.games.walk",
                  "pipeline.games.lctr_downright", "pipeline.games.lctr_downright_pair",
                  "pipeline.games.moveset",
                  "pipeline.games.columns", "pipeline.games.features", "pipeline.games.slownim",
                  "pipeline.games.lctr_d", "pipeline.games.nonrepetitive", "pipeline.games.generic",
                  "pipeline.summaries", "pipeline.parquet.encodings")


@functools.cache
def _stamps() -> str:
    """The source stamps of every kernel of :data:`KERNEL_MODULES`, in one string (the same
    whatever else the process has imported); once a process, as numba reads its stamps once."""
    import importlib

    from numba.core.dispatcher import Dispatcher

    from pipeline.kernel_cache import kernel_key

    keys = []
    for name in KERNEL_MODULES:
        module = importlib.import_module(name)
        for attr, value in sorted(vars(module).items()):
            if isinstance(value, Dispatcher) and value.__module__ == name:
                keys.append(f"{name}.{attr}={kernel_key(value.py_func)}")
    return "\n".join(keys)


def task_marker(key: tuple, stamps: str) -> Path:
    """The marker of a task done (``key`` a task's key of :func:`plan_tasks`, ``stamps`` the
    kernels' source stamps), beside the cache it stands for. Numba keeps a kernel's
    machine code in a subfolder of its cache named by the kernel's source folder, so one cache
    shared by two checkouts of the same sources holds two sets of kernels: the marker lives in
    the subfolder of this checkout's package (a second checkout finds none, and compiles up
    front rather than inside its solve)."""
    from numba.core import config

    from pipeline.kernel_cache import KernelCacheLocator

    here = KernelCacheLocator.get_suitable_cache_subpath(str(Path(__file__).resolve()))
    digest = hashlib.sha256(f"{key!r}\n{stamps}".encode()).hexdigest()[:32]
    return Path(config.CACHE_DIR) / here / "partgames-compiled" / digest


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the run's process, which stops it (one line, not a traceback
    from every worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def compile_task(task: Task, sources: tuple[tuple[str, str], ...] = ()) -> None:
    """A worker's task: the kernels of one tiny solve (and, if ``writes``, of a tiny run).
    ``sources``: the run's rules files (name, text), registered first, since a spawned worker
    knows only the games of the package and of its entry points."""
    global _IN_WORKER
    _IN_WORKER = True
    ids, with_partner, writes, n = task
    if sources:
        from pipeline.rules import load_rules_source, register

        for name, text in sources:
            for rules in load_rules_source(name, text):
                register(rules, replace=True)
    if writes:
        from pipeline.runner import run

        with tempfile.TemporaryDirectory(prefix="partgames-compile-") as scratch:
            run(list(ids), max_n=TASK_N, out=str(Path(scratch) / "results"), jobs=1,
                progress=False, space_check=False)
        if n == TASK_N:
            return
    from pipeline.games import get_game

    games = [get_game(game_id) for game_id in ids]
    # a shard of a few records: the kernel of n's form compiles whatever the records solved
    if with_partner:
        games[0].solve_shard_with(games[1], n, 0, TASK_RECORDS)
    else:
        games[0].solve_shard(n, 0, TASK_RECORDS)


def compile_kernels(games: list[Game], cores: int, say: Callable[[str], None],
                    with_partners: bool = True, ns: Iterable[int] = DEFAULT_NS) -> float:
    """Compile the kernels ``games`` need for the totals ``ns`` and numba's cache lacks, in up
    to ``cores`` worker processes; say so in one line. The seconds it took (0 when everything
    is cached)."""
    if _IN_WORKER or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return 0.0
    start = time.perf_counter()
    tasks = plan_tasks(games, with_partners, ns)
    if not tasks:
        return 0.0
    stamps = _stamps()
    by_id = {game.game_id: game for game in games}

    def writer(task: Task) -> Path:  # the encoders and summaries of a task's schema
        return task_marker(("writer", by_id[task[0][0]].schema.to_string()), stamps)

    todo = {key: task for key, task in tasks if not task_marker(key, stamps).exists()}
    for key, task in reversed(tasks):  # a schema's writer: with a short task, one per schema
        if writer(task).exists() or any(t[2] and writer(t) == writer(task) for t in todo.values()):
            continue
        ids, with_partner, _, n = todo.get(key, task)
        todo[key] = (ids, with_partner, True, n)
    if not todo:
        return 0.0
    workers = max(1, min(cores, len(todo)))
    say(f"partgames: compiling kernels (first run only): {len(todo)} group"
        f"{'s' if len(todo) > 1 else ''} on {workers} core{'s' if workers > 1 else ''}")
    # Processes, since compiling holds the GIL; spawned, since this process may hold threads.
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_ignore_interrupts)
    try:
        sources = tuple(dict.fromkeys(g.rules_source for g in games if g.rules_source is not None))
        futures = [(key, task, pool.submit(compile_task, task, sources)) for key, task in todo.items()]
        # In short waits: a signal the OS hands to another thread of this process (the pool's)
        # runs its handler only when the main thread next runs Python code.
        while wait([future for _, _, future in futures], timeout=0.2).not_done:
            pass
    except BaseException:  # Ctrl-C, SIGTERM: the workers stop with this process, at once
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    for key, task, future in futures:
        if future.exception() is not None:
            continue  # compiled (and its error raised) by the run itself, where it says which
        for marker in [task_marker(key, stamps)] + ([writer(task)] if task[2] else []):
            try:
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.touch()
            except OSError:  # a cache numba cannot write either: the next run compiles again
                break
    seconds = time.perf_counter() - start
    say(f"partgames: kernels compiled in {seconds:.1f} s")
    return seconds
