"""Writing a record shard as Parquet: the project's writer (pipeline/parquet/) beside pyarrow's
writer tuned for speed (zstd level 1, dictionaries off, statistics off, one row group), on the
same table, alternating rounds in one process, one thread each (as a run's writer thread
writes beside its kernels). Prints each round's time per record for both, their ratio, and the
median ratio; the files' bytes per record; and checks that pyarrow reads the project's file back
to the same table.

    nice -n 10 .venv/bin/python benchmarks/parquet_writers.py             # LCTR n = 72, shard 0
    nice -n 10 .venv/bin/python benchmarks/parquet_writers.py --game king --n 60 --rounds 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.games import get_game  # noqa: E402
from pipeline.parquet import write_table  # noqa: E402
from pipeline.runner import use_run_allocators  # noqa: E402


def pyarrow_tuned(table: pa.Table, path: Path) -> None:
    """pyarrow.parquet with every option that buys speed: what a project using it would write."""
    pq.write_table(table, path, compression="zstd", compression_level=1, use_dictionary=False,
                   write_statistics=False, row_group_size=table.num_rows)


def timed(write, table: pa.Table, path: Path) -> float:
    start = time.perf_counter()
    write(table, path)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="lctr")
    ap.add_argument("--n", type=int, default=72)
    ap.add_argument("--shard-records", type=int, default=1 << 18, help="records of the shard (at most)")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    use_run_allocators()  # the allocators of a run, like for like
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    table = get_game(args.game).solve_shard(args.n, 0, args.shard_records)
    rows = table.num_rows
    print(f"machine: {os.cpu_count()} cores; pyarrow {pa.__version__}; {args.game} n={args.n} shard 0: "
          f"{rows:,} records")
    with tempfile.TemporaryDirectory(prefix="pgwriters-") as tmp:
        ours_path, theirs_path = Path(tmp) / "partgames.parquet", Path(tmp) / "pyarrow.parquet"
        write_table(table, ours_path)  # first calls: numba's cached encoders loaded, pages warmed
        pyarrow_tuned(table, theirs_path)
        ratios = []
        for r in range(args.rounds):
            ours = timed(write_table, table, ours_path)
            theirs = timed(pyarrow_tuned, table, theirs_path)
            ratios.append(theirs / ours)
            print(f"round {r + 1}: partgames {ours / rows * 1e9:.0f} ns/record, pyarrow tuned "
                  f"{theirs / rows * 1e9:.0f} ns/record: {theirs / ours:.2f}x", flush=True)
        if not pq.read_table(ours_path).equals(table):
            raise SystemExit("the project's file does not read back to the table")
        print(f"median ratio {statistics.median(ratios):.2f}x (pyarrow tuned / partgames); bytes per "
              f"record: partgames {ours_path.stat().st_size / rows:.2f}, pyarrow tuned "
              f"{theirs_path.stat().st_size / rows:.2f}")


if __name__ == "__main__":
    main()
