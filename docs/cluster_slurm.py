"""Run partgames on a SLURM cluster through dask-jobqueue (docs/cluster.md).

Starts a Dask scheduler here (on the login node, or in a small job of its own), asks SLURM for
worker jobs, waits for the first workers, and runs `partgames run --scheduler` against it. The
store must be on a filesystem every node mounts at the same path (the cluster's shared /home,
/scratch, Lustre or GPFS). Edit the settings to your site; `--dry-run` prints the job script
SLURM would get and starts nothing.

    pip install 'partgames[cluster]' dask-jobqueue
    python docs/cluster_slurm.py --out /scratch/$USER/results --max-n 110 --nodes 4
"""

from __future__ import annotations

import argparse
import subprocess
import sys


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", required=True, help="the store, on the shared filesystem")
    p.add_argument("--games", default="lctr,downright")
    p.add_argument("--max-n", type=int, required=True)
    p.add_argument("--min-n", type=int, default=1)
    p.add_argument("--nodes", type=int, default=2, help="worker jobs (one node each)")
    p.add_argument("--cores", type=int, default=32, help="cores per node: one one-thread worker each")
    p.add_argument("--memory", default="128GB", help="memory per node")
    p.add_argument("--queue", default=None, help="SLURM partition")
    p.add_argument("--walltime", default="12:00:00")
    p.add_argument("--dry-run", action="store_true", help="print the worker job script and stop")
    args = p.parse_args()

    from dask_jobqueue import SLURMCluster

    # One process per core, one thread each: the kernels release the GIL, but a process per core
    # keeps a task's Python (planning, writing a shard's footer) off the other cores' way, and a
    # killed process loses one shard only. The workers' scratch stays on the node.
    cluster = SLURMCluster(cores=args.cores, processes=args.cores, memory=args.memory,
                           walltime=args.walltime, queue=args.queue, local_directory="$TMPDIR",
                           job_extra_directives=["--exclusive"], python=sys.executable,
                           scheduler_options={"dashboard_address": ":0"})
    try:
        if args.dry_run:
            print(cluster.job_script())
            print(f"scheduler: {cluster.scheduler_address}")
            return 0
        cluster.scale(jobs=args.nodes)
        print(f"scheduler: {cluster.scheduler_address}; waiting for the first worker", flush=True)
        from distributed import Client

        with Client(cluster) as client:
            client.wait_for_workers(1, timeout=3600)
        return subprocess.call([sys.executable, "-m", "pipeline.cli", "run", "--games", args.games,
                                "--min-n", str(args.min_n), "--max-n", str(args.max_n), "--out", args.out,
                                "--scheduler", cluster.scheduler_address])
    finally:
        cluster.close()


if __name__ == "__main__":
    sys.exit(main())
