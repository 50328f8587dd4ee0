"""The results store: ``RESULTS/game=<id>/n=<n>/part-*.parquet`` (SPEC §6), written atomically.

A (game, n) directory appears in the store only when it is complete: its shards are written in
a staging area beside the store (``.<store name>.staging/``, outside the store so that no glob
over the store ever sees half a job), each shard file renamed into place when written, and the
finished directory is moved into the store with one ``rename``. A killed run leaves finished
shards in staging; the next run computes only the missing ones.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from pipeline import __version__, source_digest
from pipeline.errors import PartgamesError

if TYPE_CHECKING:
    from pipeline.parquet import ChunkReuse

MARKER = "_partgames.json"
#: Held (``flock``) by the run writing the store: one writer per store (see :meth:`Store.writer`).
LOCK = ".partgames.lock"
COMPLETE = "_complete.json"
STORE_FORMAT = 1
#: How a shard file is written (3: pipeline.parquet; 2: polars, large_list in the embedded Arrow
#: schema; 1: pyarrow). Part of a job's plan, so that a rerun never mixes shards of two writers in
#: one (game, n).
SHARD_FORMAT = 3


class StoreError(PartgamesError):
    """A results directory that cannot be used (one line, for the command line)."""


def shard_name(shard: int) -> str:
    return f"part-{shard:05d}.parquet"


@dataclass(frozen=True)
class Store:
    root: Path

    @property
    def staging(self) -> Path:
        return self.root.parent / f".{self.root.name}.staging"

    @staticmethod
    def open(root: str | Path, create: bool = True) -> Store:
        """Open (and with ``create``, make) a store, refusing a directory that is not one."""
        root = Path(root)
        if root.exists() and not root.is_dir():
            raise StoreError(f"{root} is not a directory")
        if root.is_dir():
            if not (root / MARKER).is_file() and any(root.iterdir()):
                raise StoreError(
                    f"{root} is not empty and is not a partgames results directory "
                    f"(no {MARKER}); choose another --out"
                )
        elif not create:
            raise StoreError(f"results directory {root} does not exist (run `partgames run` first)")
        if create:
            try:
                root.mkdir(parents=True, exist_ok=True)
                if not (root / MARKER).is_file():
                    _write_json_atomic(root / MARKER, {"format": STORE_FORMAT})
                probe = root / ".write-probe"
                probe.write_bytes(b"")
                probe.unlink()
            except OSError as exc:
                raise StoreError(f"cannot write to {root}: {exc.strerror or exc}") from exc
        return Store(root)

    @contextmanager
    def writer(self) -> Iterator[None]:
        """Be the store's only writer while the block runs, or raise :class:`StoreError`.

        Two runs writing one store share its staging area: one finalising a (game, n) moves the
        directory the other is writing shards into, and the other stops with a traceback
        (seen with two runs of LCTR and Downright started half a second apart). An advisory
        ``flock`` on :data:`LOCK` in the store, released by the kernel when the process ends
        however it ends (SIGKILL included), so a killed run never leaves the store locked.
        Readers (``sql``, ``verify``) need no lock: they see only complete (game, n) directories.
        """
        fd = os.open(self.root / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
                raise StoreError(
                    f"{self.root} is being written by another partgames run (pid {holder}); "
                    f"run one at a time per store (one run takes several --games) or use another --out"
                ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            yield
        finally:
            os.close(fd)  # releases the lock

    def job_dir(self, game_id: str, n: int) -> Path:
        return self.root / f"game={game_id}" / f"n={n}"

    def staging_dir(self, game_id: str, n: int) -> Path:
        return self.staging / f"game={game_id}" / f"n={n}"

    def is_complete(self, game_id: str, n: int) -> bool:
        return (self.job_dir(game_id, n) / COMPLETE).is_file()

    def staged_plan(self, game_id: str, n: int) -> dict | None:
        """The plan of a (game, n) with shards waiting in staging (an interrupted run), if any."""
        plan_file = self.staging_dir(game_id, n) / "plan.json"
        try:
            return json.loads(plan_file.read_text())
        except (OSError, ValueError):
            return None

    def completed_shards(self, game_id: str, n: int, plan: dict, discard: bool = False) -> set[int]:
        """Shards already in staging for this plan; a different plan (or ``discard``) drops them."""
        sdir = self.staging_dir(game_id, n)
        plan_file = sdir / "plan.json"
        if not discard and plan_file.is_file() and json.loads(plan_file.read_text()) == plan:
            return {k for k in range(plan["shards"]) if (sdir / shard_name(k)).is_file()}
        if sdir.exists():
            shutil.rmtree(sdir)
        sdir.mkdir(parents=True)
        _write_json_atomic(plan_file, plan)
        return set()

    def write_shard(self, game_id: str, n: int, shard: int, table: pa.Table,
                    reuse: ChunkReuse | None = None) -> int:
        """Write one shard into staging (temp file, fsync, rename). Returns bytes written.
        ``reuse``: column chunks shared with the same shard of other games (see
        :class:`pipeline.parquet.ChunkReuse`)."""
        sdir = self.staging_dir(game_id, n)
        final = sdir / shard_name(shard)
        tmp = sdir / f".{shard_name(shard)}.{os.getpid()}.tmp"
        write_parquet(table, tmp, reuse)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, final)
        return final.stat().st_size

    def finalize(self, game_id: str, n: int, summary: dict) -> None:
        """Move a finished (game, n) from staging into the store in one rename."""
        sdir = self.staging_dir(game_id, n)
        for tmp in sdir.glob(".*.tmp"):
            tmp.unlink()
        (sdir / "plan.json").unlink()
        _write_json_atomic(sdir / COMPLETE, summary)
        target = self.job_dir(game_id, n)
        target.parent.mkdir(parents=True, exist_ok=True)
        old = None
        if target.exists():  # --force: the old records stay valid until the new ones are in place
            old = self.staging / f"old-{game_id}-{n}-{os.getpid()}"
            os.rename(target, old)
        os.rename(sdir, target)
        if old is not None:
            shutil.rmtree(old)

    def tidy_staging(self) -> None:
        """Remove staging folders left empty (finished shards of unfinished jobs stay)."""
        if not self.staging.is_dir():
            return
        dirs = sorted(self.staging.glob("game=*/n=*")) + sorted(self.staging.glob("game=*"))
        for d in [*dirs, self.staging]:
            try:
                d.rmdir()
            except OSError:
                pass  # not empty: a job to resume

    def games(self) -> list[str]:
        return sorted(p.name[5:] for p in self.root.glob("game=*") if p.is_dir())

    def complete_ns(self, game_id: str) -> list[int]:
        base = self.root / f"game={game_id}"
        return sorted(int(p.parent.name[2:]) for p in base.glob(f"n=*/{COMPLETE}"))

    def provenance(self, min_n: int | None = None, max_n: int | None = None) -> list[tuple[str, str, int]]:
        """(code, release, number of complete (game, n)) of the complete jobs with min_n ≤ n ≤
        max_n, most jobs first: which versions of the code computed the records (``_complete.json``;
        "?" where a store written before session 17 did not record it)."""
        counts: dict[tuple[str, str], int] = {}
        for path in self.root.glob(f"game=*/n=*/{COMPLETE}"):
            n = int(path.parent.name[2:])
            if (min_n is not None and n < min_n) or (max_n is not None and n > max_n):
                continue
            try:
                done = json.loads(path.read_text())
            except (OSError, ValueError):
                done = {}
            key = (str(done.get("code", "?")), str(done.get("version", "?")))
            counts[key] = counts.get(key, 0) + 1
        return sorted(((code, version, k) for (code, version), k in counts.items()), key=lambda t: -t[2])

    def bytes_on_disk(self, game_id: str, n: int) -> int:
        return sum(f.stat().st_size for f in self.job_dir(game_id, n).glob("*.parquet"))


def write_parquet(table: pa.Table, path: Path, reuse: ChunkReuse | None = None) -> None:
    """One row group per shard, zstd level 1, min/max statistics on every column.

    Written by :mod:`pipeline.parquet`, our own encoder for the record schema: on an LCTR shard at
    n = 72 it takes about 100 ns per record against 237 for polars and 630 for pyarrow (one
    thread each, session 14), in 0.82× polars' bytes, and writing takes CPU from the kernels, so it bounds
    end-to-end throughput (issue 6; benchmarks/bench.py). DuckDB, pyarrow and polars read every
    file back to the same values (tests/test_parquet.py).
    """
    from pipeline.parquet import write_table  # numba: only a run writes, sql and verify read

    write_table(table, path, created_by=f"partgames version {__version__} (code {source_digest()[:16]})",
                reuse=reuse)


def _write_json_atomic(path: Path, data: dict) -> None:
    write_text_atomic(path, json.dumps(data, sort_keys=True))


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: a reader, or an
    interrupted write, sees the old file or the new one, never a part of it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
