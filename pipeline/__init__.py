"""partgames: exhaustive combinatorial game theory on integer partitions."""

from __future__ import annotations

import os
import signal
import sys


def interrupted_early(_signum: int, _frame: object) -> None:
    """Ctrl-C while the ``partgames`` command loads its modules, before its ``main`` handles it:
    the same one line and exit status as later, not a KeyboardInterrupt traceback from inside
    an import. Installed only in the command's own process, and not where SIGINT is ignored."""
    sys.stderr.write("partgames: interrupted\n")
    os._exit(130)


if os.path.basename(sys.argv[0] if sys.argv else "") == "partgames" and (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler):
    signal.signal(signal.SIGINT, interrupted_early)  # pipeline.cli.main puts Python's back

import functools  # noqa: E402 (after the handler: these imports are part of a command's start)
import hashlib  # noqa: E402
from pathlib import Path  # noqa: E402

__version__ = "0.2.0"  # the release (CHANGELOG.md); pyproject.toml reads it from here

# The kernels never call BLAS; numpy's OpenBLAS would otherwise start a thread per core in every
# process, which competes with the kernels for the cores (seen in `perf` profiles).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
# Arrow's jemalloc (the run's memory pool, pipeline.runner.shard_memory_pool) returns freed pages
# to the OS at once by default, and faulting them in again tripled a run's system time (LCTR
# n = 88, 2 jobs: 2.38 s against 0.72 s when kept); the runner's record budget bounds what is
# live, so keep them. One arena, not one per thread: each arena keeps the pages of its own
# thread's peak, so the kept pages grew with --jobs whatever the budget (LCTR n = 74 with 8 jobs:
# 624-642 MiB, one arena 554-564). Allocations here are whole columns, a few dozen per shard, so
# one arena's lock is not contended. Read when pyarrow is first imported, which is after this in a
# `partgames` process.
os.environ.setdefault("JE_ARROW_MALLOC_CONF", "narenas:1,dirty_decay_ms:-1,muzzy_decay_ms:-1")


@functools.cache
def source_digest() -> str:
    """SHA-256 (hex) of every source file of the package: the version of the code that computes
    records. ``__version__`` is the release and stays put between fixes; this changes with any
    of them. It keys numba's cache (below), the plan that staged shards of an interrupted run
    must match to be reused (so a resumed (game, n) never mixes records of two versions of the
    code), and each finished (game, n)'s ``_complete.json`` (which code computed it).
    """
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted([*package.glob("*.py"), *package.glob("games/*.py")]):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _kernel_cache_dir() -> Path:
    """Numba's on-disk cache, one folder per version of the sources (:func:`source_digest`).

    Numba invalidates a cached function when *its own* file changes, not when a function it
    inlines from another file does (e.g. ``cgh.summarize`` inside the moveset kernel), so a fix
    there could silently keep old machine code. Keying the folder on a hash of every source file
    of the package rules that out: changed sources compile afresh.
    """
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "partgames" / f"numba-{source_digest()[:16]}"


if not os.environ.get("NUMBA_CACHE_DIR"):  # an explicit setting wins
    # Through the environment, which numba reads when it is imported: importing numba here would
    # cost every command 0.3 s, and sql, verify and search never compile. Where numba is loaded
    # already (a benchmark, a notebook), its config is set as well.
    os.environ["NUMBA_CACHE_DIR"] = str(_kernel_cache_dir())
    if "numba" in sys.modules:
        sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]


def __getattr__(name: str) -> object:
    """``pipeline.Store``, the notebook's view of a store (:mod:`pipeline.notebook`), loaded on
    first use: ``import pipeline`` (every command's start) loads no DuckDB and no matplotlib."""
    if name == "Store":
        from pipeline.notebook import Store

        return Store
    raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
