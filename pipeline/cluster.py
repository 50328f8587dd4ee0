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

import logging
import os
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline import source_digest
from pipeline.errors import PartgamesError

try:
    import distributed
except ImportError as exc:  # the [cluster] extra
    raise PartgamesError("--scheduler needs Dask's distributed package: "
                         "pip install 'partgames[cluster]'") from exc


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

    def security(self) -> distributed.Security | None:
        """TLS settings from the options; None leaves Dask's own configuration in charge
        (``distributed.comm.tls.*``, which a ``tls://`` address then uses)."""
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

    Dask's own log lines (an event loop slow to answer on a busy machine, a worker's comm
    closed) are kept off the command's standard error below ERROR: partgames says what happened
    to the run in its own one-line messages."""
    logging.getLogger("distributed").setLevel(logging.ERROR)
    try:
        return distributed.Client(options.address, security=options.security(),
                                  timeout=f"{options.connect_timeout}s", set_as_default=False)
    except ClusterError:
        raise
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {options.address} within "
                           f"{options.connect_timeout:.0f} s ({type(exc).__name__}: "
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
    passed in (this module does not import the runner, which imports it)."""
    client = connect(options)
    try:
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
        while pending:
            waiting, progressed = [], False
            for future in pending:
                if future.status == "pending":
                    waiting.append(future)
                    continue
                try:
                    # A finished task's result lives on its worker: if that worker dies before
                    # the result is fetched, Dask computes the task again (on a worker yet to
                    # come), so the fetch is bounded and the task waits on.
                    worker, results = future.result(timeout=5)
                except TimeoutError:
                    waiting.append(future)
                    continue
                except distributed.client.FutureCancelledError as exc:
                    raise ClusterError(f"a task was cancelled on the cluster ({exc})") from None
                except distributed.scheduler.KilledWorker as exc:
                    raise ClusterError(f"the workers running a task died again and again ({exc}); "
                                       f"the finished shards are kept: rerun to resume") from None
                progressed = True
                by_worker[worker] = by_worker.get(worker, 0) + 1
                for result in results:
                    record_done(result)
            pending = waiting
            if progressed or not pending:
                workerless_since = None
                continue
            time.sleep(0.1)
            if client.scheduler_info().get("workers"):
                workerless_since = None
                continue
            workerless_since = workerless_since or time.monotonic()
            if time.monotonic() - workerless_since > options.lost_workers_timeout:
                raise ClusterError(
                    f"no worker left on the cluster at {options.address} for "
                    f"{options.lost_workers_timeout:.0f} s; the finished shards are kept: rerun "
                    f"to resume")
        return by_worker
    finally:
        client.close(timeout=5)
