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
# to the OS at once by default, and faulting them in again triples a run's system time
# (docs/performance.md); the runner's record budget bounds what is live, so keep them. One
# arena, not one per thread: each arena keeps the pages of its own thread's peak, so the kept
# pages would grow with --jobs whatever the budget. Allocations here are whole columns, a few
# dozen per shard, so one arena's lock is not contended. Read when pyarrow is first imported,
# which is after this in a `partgames` process.
os.environ.setdefault("JE_ARROW_MALLOC_CONF", "narenas:1,dirty_decay_ms:-1,muzzy_decay_ms:-1")


#: The distributions whose code computes or selects records: numba and llvmlite compile the
#: kernels, numpy holds their arrays, pyarrow the shards' tables, DuckDB evaluates ``--keep``.
#: A different version of any of them is other code as much as a changed source file.
RECORD_DEPENDENCIES = ("numba", "llvmlite", "numpy", "pyarrow", "duckdb")


def queries_dir() -> Path:
    """The statement catalogue's folder (statements, ``macros.sql``, searches).

    ``$PARTGAMES_QUERIES`` when set; else the copy an installed package carries as
    ``pipeline/queries`` (a wheel, ``pip install .``); else ``queries/`` at the top of the
    checkout the package runs from (an editable install). Here, not in :mod:`pipeline.query`
    (which re-exports it), because the code digest needs it and that module imports pyarrow,
    which every command's start must not.
    """
    env = os.environ.get("PARTGAMES_QUERIES")
    if env:
        return Path(env)
    package = Path(__file__).resolve().parent
    shipped = package / "queries"
    return shipped if shipped.is_dir() else package.parent / "queries"


def record_sources(package: Path) -> list[tuple[str, Path]]:
    """Every file of the package that can change a record, by the name it is hashed under:
    each ``.py`` under the package, at any depth (the kernels, the Parquet encoder, the
    runner...), and ``macros.sql``, whose macros a ``--keep`` condition may call. The rest of the
    statement catalogue (``queries/``) reads records and never writes one, so editing a
    statement leaves the code of the records as it is."""
    files = [(path.relative_to(package).as_posix(), path) for path in package.rglob("*.py")
             if path.relative_to(package).parts[0] != "queries"]
    macros = queries_dir() / "macros.sql"
    if macros.is_file():
        files.append(("queries/macros.sql", macros))
    return sorted(files)


def distribution_version(name: str) -> str:
    """The version of the distribution that ``import name`` loads, read off its ``.dist-info``
    folder's name beside the package (a directory listing; ``importlib.metadata`` costs every
    command 60 ms to import, and importing the package itself more). Where no such folder is
    found, ``importlib.metadata``'s answer, else "absent"."""
    import importlib.util

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return "absent"
    for where in spec.submodule_search_locations or [spec.origin or ""]:
        parent = Path(where).parent  # site-packages, beside the package's folder or module
        try:
            listing = os.listdir(parent)
        except OSError:
            continue
        prefix = f"{name.lower()}-"
        for item in sorted(listing):
            if item.lower().startswith(prefix) and item.endswith(".dist-info"):
                return item[len(prefix):-len(".dist-info")]
    try:
        from importlib.metadata import PackageNotFoundError, version

        return version(name)
    except PackageNotFoundError:
        return "absent"


def code_digest(package: Path, versions: dict[str, str]) -> str:
    """SHA-256 (hex) of the files :func:`record_sources` names (each name, length and bytes)
    and of the ``versions`` of :data:`RECORD_DEPENDENCIES`."""
    digest = hashlib.sha256()
    for name, path in record_sources(package):
        data = path.read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    for name in sorted(versions):
        digest.update(f"{name}=={versions[name]}\0".encode())
    return digest.hexdigest()


@functools.cache
def source_digest() -> str:
    """The version of the code that computes records: SHA-256 (hex) of every file of the package
    that can change a record and of the versions of the libraries that compute them
    (:func:`code_digest`). ``__version__`` is the release and stays put between fixes; this
    changes with any of them. It keys the plan that staged shards of an
    interrupted run must match to be reused (so a resumed (game, n) never mixes records of two
    versions of the code), each finished (game, n)'s ``_complete.json`` (which code computed
    it), and a cluster run's check that every worker runs the client's code.
    """
    return code_digest(Path(__file__).resolve().parent,
                       {name: distribution_version(name) for name in RECORD_DEPENDENCIES})


def _kernel_cache_dir() -> Path:
    """Numba's on-disk cache of the kernels. One folder for every version of the sources: each
    kernel's entry is keyed on the sources it depends on (:mod:`pipeline.kernel_cache`), not on
    all of them, so an edit recompiles only the kernels it can change."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "partgames" / "numba"


#: Numba's cache locators, tried in order for each cached function: the package's kernels are
#: keyed on the sources each depends on (:class:`pipeline.kernel_cache.KernelCacheLocator`);
#: numba's own locators (by their names in ``numba.core.caching``) keep any other function.
KERNEL_CACHE_LOCATORS = ("pipeline.kernel_cache.KernelCacheLocator,UserProvidedCacheLocator,"
                         "InTreeCacheLocator,UserWideCacheLocator,IPythonCacheLocator,ZipCacheLocator")

# Through the environment, which numba reads when it is imported: importing numba here would
# cost every command 0.3 s, and sql, verify and search never compile. Where numba is loaded
# already (a benchmark, a notebook), its config is set as well. An explicit setting wins.
if not os.environ.get("NUMBA_CACHE_DIR"):
    os.environ["NUMBA_CACHE_DIR"] = str(_kernel_cache_dir())
    if "numba" in sys.modules:
        sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
if not os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES"):
    os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = KERNEL_CACHE_LOCATORS
    if "numba" in sys.modules:
        sys.modules["numba"].config.CACHE_LOCATOR_CLASSES = KERNEL_CACHE_LOCATORS


def __getattr__(name: str) -> object:
    """``pipeline.Store``, the notebook's view of a store (:mod:`pipeline.notebook`), loaded on
    first use: ``import pipeline`` (every command's start) loads no DuckDB and no matplotlib."""
    if name == "Store":
        from pipeline.notebook import Store

        return Store
    raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
