"""`partgames run --scheduler ADDRESS`: the run's shards as tasks on a Dask cluster.

The plan, the shards and the store are those of a local run (:mod:`pipeline.runner`); only who
solves a shard changes. Each task is one shard of every board game of the run (or the whole
chain of totals of one Slow SetNim game) and runs :func:`pipeline.runner.solve_task` on a worker,
which solves it and writes its files into the store's staging area itself: the store is on a
filesystem shared by the client and every worker, at the same path. A task returns only its
shards' metadata; the client alone commits a (game, n), and holds the store's lock.

Before any task: every worker must see the store (a token the client writes into the staging
area is read back by each worker, which also writes a file of its own there) and run the
client's code (:func:`pipeline.source_digest`); a worker failing either is named in one line and
nothing is solved. A worker that joins later checks the code again in each task, before writing.

A worker killed in a task: Dask runs the task again elsewhere; the killed one's temporary file
is never a shard (a shard is renamed into place only once whole), and the commit removes it. The
client killed: its tasks die with it or finish into staging, and a rerun (with the cluster or
without) reuses the shards there. Every worker lost for ``lost_workers_timeout`` seconds ends
the run with one line.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import re
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from pipeline import source_digest
from pipeline.errors import PartgamesError

if TYPE_CHECKING:
    import distributed


def load_distributed() -> ModuleType:
    """Dask's ``distributed``, imported when a run first talks to a cluster (checking
    ``--scheduler`` and its options costs nothing), with asyncio's reports of the exceptions
    Dask's coroutines leave behind filtered (:class:`_DaskLeftovers`): what every use of Dask
    here goes through; a :class:`PartgamesError` without the ``[cluster]`` extra."""
    try:
        import distributed
    except ImportError as exc:  # the [cluster] extra
        raise PartgamesError("--scheduler needs Dask's distributed package: "
                             "pip install 'partgames[cluster]'") from exc
    asyncio_log = logging.getLogger("asyncio")
    if not any(isinstance(f, _DaskLeftovers) for f in asyncio_log.filters):
        asyncio_log.addFilter(_DaskLeftovers())
    return distributed


class _DaskLeftovers(logging.Filter):
    """Drops asyncio's report of an exception that a coroutine of Dask's left unretrieved (a
    bounded ``Future.result`` leaves its waiting coroutine behind; when every worker dies it ends
    in ``AllExit``, reported when the task is collected, after the run has said what happened in
    its one line, often at interpreter exit)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return exc is None or not type(exc).__module__.startswith("distributed")


#: The schemes of a scheduler address that reach another machine (Dask's ``inproc`` does not).
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
_HOST = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?")


def check_address(address: str) -> str:
    """``address`` if it is a scheduler's address, ``[SCHEME://]HOST:PORT`` (scheme one of
    :data:`SCHEMES`, ``tcp`` when left out; an IPv6 host in brackets), else
    :class:`ClusterError` saying what is wrong, before anything connects.

    >>> check_address("tls://10.0.0.5:8786")
    'tls://10.0.0.5:8786'
    >>> check_address("localhost")
    Traceback (most recent call last):
    ...
    pipeline.cluster.ClusterError: --scheduler 'localhost': no port (the form is tcp://HOST:PORT or tls://HOST:PORT)
    """
    form = "the form is tcp://HOST:PORT or tls://HOST:PORT"
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in SCHEMES:
        raise ClusterError(f"--scheduler {address!r}: unknown scheme {scheme!r} ({form})")
    host, colon, port = rest.rpartition(":")
    if not colon or not port:
        raise ClusterError(f"--scheduler {address!r}: no port ({form})")
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        raise ClusterError(f"--scheduler {address!r}: the port {port!r} is not a number 1..65535 ({form})")
    try:
        if host.startswith("[") and host.endswith("]"):
            ipaddress.IPv6Address(host[1:-1])
        elif not (host.isascii() and _HOST.fullmatch(host)):
            raise ValueError(host)
    except ValueError:
        raise ClusterError(f"--scheduler {address!r}: {host!r} is not a host name or address "
                           f"({form})") from None
    return address


@contextlib.contextmanager
def _dask_quiet() -> Iterator[None]:
    """Dask's own log lines (a worker's comm closed, a client failing to reconnect, keys being
    rescheduled, an event loop slow on a busy machine) and asyncio's reports of Dask's abandoned
    coroutines kept off standard error while the run talks to the cluster: partgames says what
    happened to the run in one line of its own. Dask's configuration sets levels on some of its
    loggers (``distributed.client``, ...), so each one (those made when ``distributed`` is
    imported, which is before this) is silenced, and put back afterwards."""
    names = ["distributed", "asyncio", "tornado.application", *(
        name for name in list(logging.root.manager.loggerDict) if name.startswith("distributed."))]
    loggers = [logging.getLogger(name) for name in names]
    before = [(logger, logger.level, logger.disabled) for logger in loggers]
    for logger in loggers:
        logger.disabled = True
    try:
        yield
    finally:
        for logger, level, disabled in before:
            logger.setLevel(level)
            logger.disabled = disabled


class ClusterError(PartgamesError):
    """The cluster cannot run the job (one line, for the command line)."""


@dataclass(frozen=True)
class ClusterOptions:
    """Where the scheduler is and how to reach it (``--scheduler`` and its TLS files)."""
    address: str
    tls_ca_file: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    #: Seconds to wait for a scheduler that does not answer.
    connect_timeout: float = 10.0
    #: Seconds without any worker after which the run ends (the finished shards are kept).
    lost_workers_timeout: float = 60.0

    def __post_init__(self) -> None:
        check_address(self.address)
        for name in ("connect_timeout", "lost_workers_timeout"):
            value = getattr(self, name)
            if not 0 < value < float("inf"):
                raise ClusterError(f"--{name.replace('_', '-')} {value:g}: not a positive number of seconds")

    def security(self) -> distributed.Security | None:
        """TLS settings from the options; None leaves Dask's own configuration in charge
        (``distributed.comm.tls.*``, which a ``tls://`` address then uses)."""
        distributed = load_distributed()
        given = (self.tls_ca_file, self.tls_cert, self.tls_key)
        if not any(given):
            return None
        if not all(given):
            raise ClusterError("TLS needs all of --tls-ca-file, --tls-cert and --tls-key")
        for path in given:
            if not Path(path).is_file():
                raise ClusterError(f"TLS file {path} does not exist")
        return distributed.Security(tls_ca_file=self.tls_ca_file, tls_client_cert=self.tls_cert,
                                    tls_client_key=self.tls_key, require_encryption=True)


def connect(options: ClusterOptions) -> distributed.Client:
    """A client of the scheduler, or :class:`ClusterError` within ``connect_timeout``.

    The address is checked before (:func:`check_address`): Dask's own ``ValueError`` for a bad
    one leaves a half-made client whose finalizer waits 20 s and prints a traceback."""
    distributed = load_distributed()
    check_address(options.address)
    try:
        return distributed.Client(options.address, security=options.security(),
                                  timeout=f"{options.connect_timeout}s", set_as_default=False)
    except ClusterError:
        raise
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {options.address} within "
                           f"{options.connect_timeout:g} s ({type(exc).__name__}: "
                           f"{str(exc).splitlines()[0] if str(exc) else ''})") from None


def worker_facts(probe: str, token: str) -> dict:
    """Run on each worker before the first task: its code's digest, and whether it sees the
    client's probe file (the same store at the same path) and can write beside it."""
    facts = {"code": source_digest(), "store": None}
    path = Path(probe)
    try:
        if path.read_text() != token:
            facts["store"] = f"{path} holds another token (not the client's store at that path)"
            return facts
        mine = path.with_name(f"{path.name}.{os.getpid()}.{uuid.uuid4().hex}")
        mine.write_text(token)
        mine.unlink()
    except OSError as exc:
        facts["store"] = f"{exc.strerror or exc} ({path.parent})"
    return facts


def check_workers(client: distributed.Client, staging: Path) -> int:
    """Every worker sees the store and runs the client's code, or :class:`ClusterError` naming
    the first one that does not. Returns the number of workers."""
    deadline = time.monotonic() + 30
    while not client.scheduler_info().get("workers"):
        if time.monotonic() > deadline:
            raise ClusterError("the Dask cluster has no worker (waited 30 s)")
        time.sleep(0.2)
    staging.mkdir(parents=True, exist_ok=True)
    token = uuid.uuid4().hex
    probe = staging / f".cluster-probe-{token}"
    probe.write_text(token)
    try:
        facts = client.run(worker_facts, str(probe), token)
    finally:
        probe.unlink(missing_ok=True)
    mine = source_digest()
    for worker, fact in sorted(facts.items()):
        if fact["store"] is not None:
            raise ClusterError(f"worker {worker} cannot use the store: {fact['store']}; the store must "
                               f"be on a filesystem every worker mounts at the same path")
        if fact["code"] != mine:
            raise ClusterError(f"worker {worker} runs other partgames code (code {fact['code'][:16]}, "
                               f"this client's {mine[:16]}); install the same version everywhere")
    return len(facts)


def solve_all(store_root: Path, tasks: list[tuple[list[str], list[tuple[int, int, int]]]],
              options: ClusterOptions, solve_task: Callable, record_done: Callable) -> dict[str, int]:
    """Run every task on the cluster; ``record_done`` gets each shard's result in this thread as
    its task ends. Returns the tasks run per worker address.

    ``solve_task(store_root, game_ids, items, code)`` is :func:`pipeline.runner.solve_task`,
    passed in (this module does not import the runner, which imports it). The store's path goes
    to the workers absolute: a relative one would be relative to each worker's own directory."""
    store_root = Path(os.path.abspath(store_root))
    load_distributed()  # its loggers exist once it is imported: silenced next
    with _dask_quiet():
        client = connect(options)
        try:
            return _solve_all(client, store_root, tasks, options, solve_task, record_done)
        finally:
            client.close(timeout=5)


#: Seconds to wait for a finished task's result; where its worker died since, the task runs again
#: and the fetch is tried in a later sweep.
FETCH_TIMEOUT = 2.0


def _solve_all(client: distributed.Client, store_root: Path,
               tasks: list[tuple[list[str], list[tuple[int, int, int]]]], options: ClusterOptions,
               solve_task: Callable, record_done: Callable) -> dict[str, int]:
    distributed = load_distributed()
    check_workers(client, store_root / ".staging")
    run_id = uuid.uuid4().hex[:12]
    futures = [
        client.submit(solve_task, str(store_root), game_ids, items, source_digest(), pure=False,
                      key=f"partgames-{run_id}-{k}-{game_ids[0]}-n{items[0][0]}-s{items[0][1]}")
        for k, (game_ids, items) in enumerate(tasks)
    ]
    by_worker: dict[str, int] = {}
    pending = futures
    workerless_since = None
    gone = "the finished shards are kept: rerun to resume"
    while pending:
        # The worker list is read first and the client's status after it: a call made as the
        # scheduler dies blocks while the client tries to reconnect and then returns an empty
        # list, which is the scheduler's loss, not the workers'.
        workers = client.scheduler_info().get("workers")
        if client.status in ("closing", "closed"):
            raise ClusterError(f"lost the Dask scheduler at {options.address}; {gone}")
        if client.status == "connecting":
            # Reconnecting: until the scheduler is back or the client closes (after
            # --connect-timeout), the worker list is not the cluster's.
            workerless_since = None
            time.sleep(0.1)
            continue
        # Without a worker no result can be fetched (it lived on a worker now gone, and each
        # fetch would wait out its timeout): wait for workers, up to lost_workers_timeout.
        if not workers:
            workerless_since = workerless_since or time.monotonic()
            if time.monotonic() - workerless_since > options.lost_workers_timeout:
                raise ClusterError(f"no worker left on the cluster at {options.address} for "
                                   f"{options.lost_workers_timeout:g} s; {gone}")
            time.sleep(0.1)
            continue
        workerless_since = None
        waiting, progressed = [], False
        for future in pending:
            if future.status == "pending" or (waiting and not client.scheduler_info().get("workers")):
                waiting.append(future)
                continue
            try:
                # A finished task's result lives on its worker: if that worker dies before the
                # result is fetched, Dask computes the task again (on a worker yet to come), so
                # the fetch is bounded and the task waits on.
                worker, results = future.result(timeout=FETCH_TIMEOUT)
            except (TimeoutError, distributed.comm.CommClosedError):
                # A connection closed under the fetch (the scheduler's or a worker's): the task
                # waits on, and the next sweep finds the scheduler lost or the workers gone.
                waiting.append(future)
                continue
            except distributed.client.FutureCancelledError as exc:
                if "scheduler-connection-lost" in str(exc) or client.status in ("closing", "closed"):
                    raise ClusterError(f"lost the Dask scheduler at {options.address}; {gone}") from None
                raise ClusterError(f"a task was cancelled on the cluster "
                                   f"({str(exc).splitlines()[0]})") from None
            except distributed.scheduler.KilledWorker as exc:
                raise ClusterError(f"the workers running a task died again and again "
                                   f"({str(exc).splitlines()[0]}); {gone}") from None
            progressed = True
            by_worker[worker] = by_worker.get(worker, 0) + 1
            for result in results:
                record_done(result)
        pending = waiting
        if pending and not progressed:
            time.sleep(0.1)
    return by_worker
