"""A run on a Dask cluster against the same run on local threads, side by side.

Starts a scheduler and W one-thread workers (``dask worker --nthreads 1 --no-nanny``) on
127.0.0.1, then alternates rounds of

* ``local``: ``partgames run --jobs W`` (solver threads in one process);
* ``cluster``: ``partgames run --scheduler tcp://127.0.0.1:PORT`` (every shard a Dask task);

each a fresh process writing a fresh store, and prints records/s (the run's own clock: planning,
solving, writing and committing; the process's start is apart) and their ratio. Then Dask's own
overhead per task: the round trip of a task that does nothing, submitted in a batch.

    .venv/bin/python benchmarks/cluster.py                        # LCTR and Downright, n = 70
    .venv/bin/python benchmarks/cluster.py --n 64 --rounds 5 --workers 2
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DASK = str(Path(sys.executable).parent / "dask")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one_run(out: Path, args: argparse.Namespace, extra: list[str]) -> tuple[float, int]:
    """(records/s, records) of one run, from its summary line."""
    done = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "run", "--games", args.games, "--min-n", str(args.n),
         "--max-n", str(args.n), "--out", str(out), "--quiet", *extra],
        capture_output=True, text=True, cwd=ROOT, check=True)
    m = re.search(r"([\d,]+) records in .* \(([\d,]+) records/s\)", done.stdout)
    assert m, done.stdout
    return float(m.group(2).replace(",", "")), int(m.group(1).replace(",", ""))


def task_overhead(address: str, count: int = 400) -> float:
    """Seconds per no-op task, submitted together and gathered (Dask's scheduling round trip)."""
    import distributed

    with distributed.Client(address, set_as_default=False) as client:
        client.gather(client.map(lambda k: k, range(50), pure=False))  # warm
        start = time.perf_counter()
        client.gather(client.map(lambda k: k, range(count), pure=False))
        return (time.perf_counter() - start) / count


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", default="lctr,downright")
    p.add_argument("--n", type=int, default=70)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()

    work = Path(tempfile.mkdtemp(prefix="partgames-cluster-bench-"))
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen(
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]
    try:
        time.sleep(2)
        for _ in range(args.workers):
            procs.append(subprocess.Popen(
                [DASK, "worker", address, "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
                 "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True))
        import distributed

        with distributed.Client(address, set_as_default=False) as client:
            client.wait_for_workers(args.workers, timeout=120)
        variants = {"local": ["--jobs", str(args.workers)], "cluster": ["--scheduler", address]}
        rates: dict[str, list[float]] = {name: [] for name in variants}
        for name, extra in variants.items():  # compile and load the kernels everywhere once
            one_run(work / f"warm-{name}", args, extra)
        records = 0
        for k in range(args.rounds):
            for name, extra in variants.items():
                rate, records = one_run(work / f"{name}-{k}", args, extra)
                rates[name].append(rate)
                shutil.rmtree(work / f"{name}-{k}")
        local, cluster = statistics.median(rates["local"]), statistics.median(rates["cluster"])
        print(f"run --games {args.games} --min-n {args.n} --max-n {args.n} ({records:,} records), "
              f"{args.workers} one-thread workers against --jobs {args.workers}, {args.rounds} "
              f"alternating rounds (records/s, median):")
        for name, values in rates.items():
            print(f"  {name:<8} {statistics.median(values):12,.0f}   rounds: "
                  f"{', '.join(f'{v:,.0f}' for v in values)}")
        print(f"  cluster / local: {cluster / local:.3f}")
        print(f"Dask's round trip per no-op task (400 in a batch): {task_overhead(address) * 1e3:.2f} ms")
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
