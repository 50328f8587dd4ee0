"""The results store: ``RESULTS/game=<id>/n=<n>/part-*.parquet`` (docs/definitions.md §6),
committed atomically and checked end to end.

**Staging.** Shards are written inside the store, in ``RESULTS/.staging/game=<id>/n=<n>/``, under
names that the reading glob of the record contract (``RESULTS/**/*.parquet``) never matches
(``part-00000.staged``, each with a ``part-00000.json`` holding its size, rows and SHA-256).
Staging inside the store keeps every rename on one filesystem, so a store may be a mount point
or have a read-only parent (on clusters it often is both). A killed run leaves finished shards
in staging; the next run computes only the missing ones.

**Commit.** A (game, n) becomes complete in one step that readers see at once: its shards are
renamed to ``part-*.parquet`` inside its staging directory, its commit record
``_complete.json`` is written there, and the directory is renamed into place. A ``--force``
replacement swaps the new directory with the old one in one ``renameat2(RENAME_EXCHANGE)``, so
at every instant either the old complete (game, n) or the new one is in place; where the
filesystem cannot swap (EINVAL), the old one is moved aside first, and a run killed between the
two renames has it put back by the next run (:meth:`Store.recover`). The contract's glob may see
a committing directory's shards under ``.staging/`` for the instant between its file renames and
its directory rename; partgames' own views never do (they read the commit records).

**Commit records.** ``_complete.json`` names every file of the (game, n) with its size, rows,
SHA-256 and the inode and ctime it had when committed, and carries a SHA-256 of its own
content. :func:`check_job` compares the files with it: a missing, resized, extra or changed file
(any write to a file moves its ctime) is found by a ``stat`` of each file; ``deep`` hashes every
byte. The views (:mod:`pipeline.query`) are built from the commit records, not from a glob, and
leave out every damaged (game, n); ``run`` recomputes them.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import hashlib
import json
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from pipeline import __version__, source_digest
from pipeline.errors import PartgamesError

if TYPE_CHECKING:
    from pipeline.parquet import ChunkReuse

MARKER = "_partgames.json"
#: Held (``flock``) by the run writing the store: one writer per store (see :meth:`Store.writer`).
LOCK = ".partgames.lock"
COMPLETE = "_complete.json"
#: Staging area, inside the store (see the module docstring).
STAGING = ".staging"
#: Where a ``--force`` commit moves the old (game, n) on a filesystem that cannot swap two
#: directories; same ``game=/n=`` layout below it, so a hive-partitioned glob still parses it.
REPLACED = "replaced"
STAGED_SUFFIX = ".staged"
#: Store format: 2 has the staging area inside the store and commit records listing the files.
STORE_FORMAT = 2
#: How a shard file is written (3: pipeline.parquet; 2: polars, large_list in the embedded Arrow
#: schema; 1: pyarrow). Part of a job's plan, so that a rerun never mixes shards of two writers in
#: one (game, n).
SHARD_FORMAT = 3
#: Names a store's root may hold besides (game, n) directories: its own files, and those of a
#: run creating it (so that two runs starting on a new store at once see a store, not a stranger).
_OWN_NAMES = {MARKER, LOCK, STAGING, "VERIFY.md"}


class StoreError(PartgamesError):
    """A results directory that cannot be used (one line, for the command line)."""


def shard_name(shard: int) -> str:
    """The committed name of shard ``shard``.

    >>> shard_name(7)
    'part-00007.parquet'
    """
    return f"part-{shard:05d}.parquet"


def staged_name(shard: int) -> str:
    """The name of shard ``shard`` in staging, which no ``*.parquet`` glob matches.

    >>> staged_name(7)
    'part-00007.staged'
    """
    return f"part-{shard:05d}{STAGED_SUFFIX}"


# ---- fault injection for the crash tests -------------------------------------------------------

#: Environment variable naming the commit step at which the process kills itself with SIGKILL
#: (1 = the first step of the process's first commit). Read by the crash tests only: it makes a
#: kill land exactly between two renames of a commit, which sleeps and random timing cannot.
KILL_AT_STEP = "PARTGAMES_KILL_AT_COMMIT_STEP"
_steps_done = 0


def _commit_step() -> None:
    """Mark the end of one step of a commit (a rename or a record written)."""
    global _steps_done
    _steps_done += 1
    target = os.environ.get(KILL_AT_STEP)
    if target and int(target) == _steps_done:
        os.kill(os.getpid(), signal.SIGKILL)


# ---- atomic directory swap ---------------------------------------------------------------------

_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where the
    C library or the filesystem cannot (the caller then falls back to two renames)."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(a))


# ---- commit records ----------------------------------------------------------------------------

def record_checksum(record: dict) -> str:
    """SHA-256 of a commit record without its ``checksum`` key (keys sorted): a damaged record
    that still parses as JSON is told from a good one."""
    body = {k: v for k, v in record.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def read_commit(job_dir: Path) -> dict:
    """The commit record of a (game, n) directory; :class:`DamageError` if it is missing,
    unreadable, damaged (its checksum) or written without a list of files."""
    path = job_dir / COMPLETE
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        raise DamageError("no commit record (_complete.json)") from None
    except (OSError, ValueError) as exc:
        raise DamageError(f"commit record unreadable ({exc})") from None
    if not isinstance(record, dict) or "files" not in record:
        raise DamageError("commit record without a list of files (an older partgames wrote it)")
    if record.get("checksum") != record_checksum(record):
        raise DamageError("commit record damaged (its checksum does not match)")
    return record


class DamageError(Exception):
    """What is wrong with one (game, n) of a store (the message names it)."""


@dataclass(frozen=True)
class Damage:
    game: str
    n: int
    reason: str

    def line(self) -> str:
        return f"game={self.game} n={self.n}: {self.reason}"


def check_job(job_dir: Path, deep: bool = False, rows: bool = False, restamp: bool = False,
              record: dict | None = None) -> dict:
    """Check one (game, n) directory against its commit record and return the record; raise
    :class:`DamageError` naming the first problem. ``record``: the commit record as
    :func:`read_commit` just returned it, if the caller has it (not read again).

    Always: the record itself, every listed file present with its size, no other ``*.parquet``
    file, and every file whose inode or ctime moved since the commit (a write, a truncation, a
    copy) hashed and compared. ``rows``: the row count in each file's footer as well. ``deep``:
    every file hashed. ``restamp``: files whose inode or ctime moved but whose bytes are the
    committed ones (a copied store) get their new inode and ctime written into the record, so
    that later checks need not hash them again (the caller holds the store's lock).
    """
    moved_files = []
    if record is None:
        record = read_commit(job_dir)
    listed = {f["name"] for f in record["files"]}
    extra = sorted(p.name for p in job_dir.glob("*.parquet") if p.name not in listed)
    if extra:
        raise DamageError(f"file not in the commit record: {extra[0]}")
    if sum(f["rows"] for f in record["files"]) != record.get("kept_records", record.get("records")):
        raise DamageError("commit record's rows do not add up to its records")
    for f in record["files"]:
        path = job_dir / f["name"]
        try:
            st = path.stat()
        except FileNotFoundError:
            raise DamageError(f"missing file {f['name']}") from None
        if st.st_size != f["bytes"]:
            raise DamageError(f"{f['name']} has {st.st_size:,} bytes, committed {f['bytes']:,}")
        moved = (st.st_ino, st.st_ctime_ns) != (f.get("ino"), f.get("ctime_ns"))
        if (deep or moved) and file_sha256(path) != f["sha256"]:
            raise DamageError(f"{f['name']}: contents differ from the committed file (SHA-256)")
        if moved:
            moved_files.append((f, st))
        if rows:
            import pyarrow.parquet as pq

            try:
                count = pq.read_metadata(path).num_rows
            except Exception as exc:  # noqa: BLE001 (any unreadable footer is damage)
                raise DamageError(f"{f['name']}: footer unreadable ({exc})") from None
            if count != f["rows"]:
                raise DamageError(f"{f['name']} holds {count:,} rows, committed {f['rows']:,}")
    if restamp and moved_files:
        for f, st in moved_files:
            f.update(ino=st.st_ino, ctime_ns=st.st_ctime_ns)
        record["checksum"] = record_checksum(record)
        _write_json_atomic(job_dir / COMPLETE, record)
    return record


# ---- the store ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ShardFile:
    """A shard solved into staging: what its (game, n)'s commit record lists of it (its file,
    when it kept records). Its records' summary is read on its own (:meth:`Store.staged_summaries`)."""
    shard: int
    bytes: int
    rows: int
    sha256: str
    written: bool = True  # False: no record of the shard kept, no file (``run --keep``)


@dataclass(frozen=True)
class Store:
    root: Path

    @property
    def staging(self) -> Path:
        return self.root / STAGING

    @staticmethod
    def open(root: str | Path, create: bool = True) -> Store:
        """Open (and with ``create``, make) a store, refusing a directory that is not one."""
        root = Path(root)
        if root.exists() and not root.is_dir():
            raise StoreError(f"{root} is not a directory")
        if root.is_dir():
            # A store whose marker is lost still has its commit records: it is one (and gets its
            # marker back below), where a stranger's directory is refused.
            if not (root / MARKER).is_file() and not any(root.glob(f"game=*/n=*/{COMPLETE}")) and any(
                    p.name not in _OWN_NAMES and not p.name.startswith((f".{MARKER}.", ".write-probe-"))
                    for p in root.iterdir()):
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
                probe = root / f".write-probe-{os.getpid()}"
                probe.write_bytes(b"")
                probe.unlink()
            except OSError as exc:
                raise StoreError(f"cannot write to {root}: {exc.strerror or exc}") from exc
        return Store(root)

    @contextmanager
    def writer(self) -> Iterator[None]:
        """Be the store's only writer while the block runs, or raise :class:`StoreError`.

        Two runs writing one store share its staging area: one committing a (game, n) moves the
        directory the other is writing shards into. An advisory ``flock`` on :data:`LOCK` in the
        store, released by the kernel when the process ends however it ends (SIGKILL included),
        so a killed run never leaves the store locked. Commits interrupted by a kill are finished
        or undone first (:meth:`recover`). Readers (``sql``, ``verify``) need no lock: they read
        committed files only.
        """
        fd = os.open(self.root / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
                who = f"pid {holder}" if holder.isdigit() else "starting now"
                raise StoreError(
                    f"{self.root} is being written by another partgames run ({who}); "
                    f"run one at a time per store (one run takes several --games) or use another --out"
                ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
            self.recover()
            yield
        finally:
            os.close(fd)  # releases the lock

    def job_dir(self, game_id: str, n: int) -> Path:
        return self.root / f"game={game_id}" / f"n={n}"

    def staging_dir(self, game_id: str, n: int) -> Path:
        return self.staging / f"game={game_id}" / f"n={n}"

    def replaced_dir(self, game_id: str, n: int) -> Path:
        return self.staging / REPLACED / f"game={game_id}" / f"n={n}"

    def damage(self, game_id: str, n: int, deep: bool = False, restamp: bool = False,
               record: dict | None = None) -> str | None:
        """What is wrong with a committed (game, n), or None (:func:`check_job`; ``record``: its
        commit record, if already read)."""
        try:
            check_job(self.job_dir(game_id, n), deep=deep, restamp=restamp, record=record)
        except DamageError as exc:
            return str(exc)
        return None

    def staged_plan(self, game_id: str, n: int) -> dict | None:
        """The plan of a (game, n) with shards waiting in staging (an interrupted run), if any."""
        plan_file = self.staging_dir(game_id, n) / "plan.json"
        try:
            return json.loads(plan_file.read_text())
        except (OSError, ValueError):
            return None

    def completed_shards(self, game_id: str, n: int, plan: dict, discard: bool = False) -> set[int]:
        """Shards already in staging for this plan; a different plan (or ``discard``) drops them.

        A shard counts when its file and its description are both there and agree on the size
        (the description is written first, so a shard cut short by a kill is written again)."""
        sdir = self.staging_dir(game_id, n)
        plan_file = sdir / "plan.json"
        if not discard and plan_file.is_file() and _read_json(plan_file) == plan:
            return {k for k in range(plan["shards"]) if self._staged_shard(sdir, k) is not None}
        if sdir.exists():
            shutil.rmtree(sdir)
        sdir.mkdir(parents=True)
        _write_json_atomic(plan_file, plan)
        return set()

    @staticmethod
    def _staged_shard(sdir: Path, shard: int) -> ShardFile | None:
        info = _read_json(sdir / f"part-{shard:05d}.json")
        if info is None:
            return None
        if info.get("written") is False:
            return ShardFile(shard, 0, 0, "", written=False)
        for name in (staged_name(shard), shard_name(shard)):  # renamed by a commit cut short
            try:
                if (sdir / name).stat().st_size == info.get("bytes"):
                    return ShardFile(shard, info["bytes"], info["rows"], info["sha256"])
            except (FileNotFoundError, KeyError):
                continue
        return None

    def write_shard(self, game_id: str, n: int, shard: int, table: pa.Table | None,
                    reuse: ChunkReuse | None = None, summary: dict | None = None) -> ShardFile:
        """Write one shard into staging: a temporary file, fsync, its description
        (``part-k.json``, with the ``summary`` of every record the shard solved), then the rename
        to ``part-k.staged``. ``reuse``: column chunks shared with the same shard of other games
        (see :class:`pipeline.parquet.ChunkReuse`). ``table`` None: the shard keeps no record
        (``run --keep``), and only its description is written."""
        sdir = self.staging_dir(game_id, n)
        if table is None:
            _write_json_atomic(sdir / f"part-{shard:05d}.json",
                               {"written": False, "rows": 0, "summary": summary})
            return ShardFile(shard, 0, 0, "", written=False)
        # Unique per writer: on a cluster a task run again (its worker lost, or the client
        # killed and its run resumed) may write the same shard at once in another thread.
        tmp = sdir / f".part-{shard:05d}.{os.getpid()}-{threading.get_ident()}.tmp"
        try:
            sha256 = write_parquet(table, tmp, reuse)
            with open(tmp, "rb") as fh:
                os.fsync(fh.fileno())
            info = ShardFile(shard, tmp.stat().st_size, table.num_rows, sha256)
            _write_json_atomic(sdir / f"part-{shard:05d}.json",
                               {"bytes": info.bytes, "rows": info.rows, "sha256": info.sha256,
                                "summary": summary})
            os.replace(tmp, sdir / staged_name(shard))
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        return info

    def staged_shards(self, game_id: str, n: int, shards: int) -> list[ShardFile]:
        """The shards 0 … ``shards`` − 1 of a (game, n) in staging, in order; :class:`StoreError`
        if one is missing."""
        sdir = self.staging_dir(game_id, n)
        found = [self._staged_shard(sdir, k) for k in range(shards)]
        if any(s is None for s in found):
            raise StoreError(f"game={game_id} n={n}: a shard is missing from staging")
        return found  # type: ignore[return-value]

    def staged_summaries(self, game_id: str, n: int, shards: int) -> Iterator[dict | None]:
        """The summary staged with each shard 0 … ``shards`` − 1 of a (game, n), in order, read
        one at a time (a (game, n) of billions of records has thousands); None where missing."""
        sdir = self.staging_dir(game_id, n)
        for k in range(shards):
            info = _read_json(sdir / f"part-{k:05d}.json")
            yield info.get("summary") if isinstance(info, dict) else None

    def commit(self, game_id: str, n: int, record: dict) -> None:
        """Make a (game, n) whose shards are all in staging complete, in one step for readers
        (see the module docstring). ``record``: what the commit record says besides its files
        and ``kept_records``, the rows they hold."""
        sdir = self.staging_dir(game_id, n)
        shards = self.staged_shards(game_id, n, record["shards"])
        for tmp in sdir.glob(".*.tmp"):
            tmp.unlink()
        files = []
        for s in shards:
            if not s.written:
                continue
            final = sdir / shard_name(s.shard)
            if (sdir / staged_name(s.shard)).exists():
                os.rename(sdir / staged_name(s.shard), final)
                _commit_step()
            st = final.stat()  # after the rename, which moves the file's ctime
            files.append({"name": final.name, "bytes": s.bytes, "rows": s.rows, "sha256": s.sha256,
                          "ino": st.st_ino, "ctime_ns": st.st_ctime_ns})
        done = dict(record, files=files, kept_records=sum(f["rows"] for f in files),
                    committed_ns=time.time_ns())
        done["checksum"] = record_checksum(done)
        _write_json_atomic(sdir / COMPLETE, done)
        _commit_step()
        for k in range(len(shards)):
            (sdir / f"part-{k:05d}.json").unlink(missing_ok=True)
        (sdir / "plan.json").unlink(missing_ok=True)
        self._publish(game_id, n)

    def _publish(self, game_id: str, n: int) -> None:
        """Move a committed (game, n) from staging into place, replacing any old one."""
        sdir, target = self.staging_dir(game_id, n), self.job_dir(game_id, n)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            os.rename(sdir, target)
            _commit_step()
            return
        if _exchange(sdir, target):  # the old directory is in staging now
            _commit_step()
            shutil.rmtree(sdir)
            _commit_step()
            return
        # No swap on this filesystem: the old one aside, the new one in (recover() puts the old
        # one back if a kill lands between the two).
        replaced = self.replaced_dir(game_id, n)
        if replaced.exists():
            shutil.rmtree(replaced)
        replaced.parent.mkdir(parents=True, exist_ok=True)
        os.rename(target, replaced)
        _commit_step()
        os.rename(sdir, target)
        _commit_step()
        shutil.rmtree(replaced)
        _commit_step()

    def recover(self) -> None:
        """Finish or undo what a killed commit left (called by the writer, holding the lock).

        A staging directory with a valid commit record is either a commit cut short (published
        now) or an old (game, n) swapped out by a ``--force`` (removed): the newer of it and the
        one in place stays. A replaced (game, n) goes back if nothing took its place. Staged
        shards of a (game, n) that is complete and sound are what a killed ``--force`` left
        (only ``--force`` computes a complete (game, n), and it starts its shards afresh):
        removed."""
        if not self.staging.is_dir():
            return
        for sdir in sorted(self.staging.glob("game=*/n=*")):
            game_id, n = sdir.parent.name[5:], int(sdir.name[2:])
            if not (sdir / COMPLETE).exists() and self.damage(game_id, n) is None:
                shutil.rmtree(sdir)
        for sdir in sorted(self.staging.glob(f"game=*/n=*/{COMPLETE}")):
            sdir = sdir.parent
            game_id, n = sdir.parent.name[5:], int(sdir.name[2:])
            try:
                staged = check_job(sdir)
            except DamageError:
                shutil.rmtree(sdir)  # cut short before its record was whole: recomputed
                continue
            try:
                live = read_commit(self.job_dir(game_id, n))
            except DamageError:
                live = None
            if live is not None and live.get("committed_ns", 0) >= staged.get("committed_ns", 0):
                shutil.rmtree(sdir)
            else:
                self._publish(game_id, n)
        for old in sorted(self.staging.glob(f"{REPLACED}/game=*/n=*")):
            game_id, n = old.parent.name[5:], int(old.name[2:])
            if self.job_dir(game_id, n).exists():
                shutil.rmtree(old)
            else:
                os.rename(old, self.job_dir(game_id, n))

    def tidy_staging(self) -> None:
        """Remove staging folders left empty (finished shards of unfinished jobs stay)."""
        if not self.staging.is_dir():
            return
        dirs = (sorted(self.staging.glob("**/n=*")) + sorted(self.staging.glob("**/game=*"))
                + [self.staging / REPLACED])
        for d in [*dirs, self.staging]:
            try:
                d.rmdir()
            except OSError:
                pass  # not empty: a job to resume

    def games(self) -> list[str]:
        return sorted(p.name[5:] for p in self.root.glob("game=*") if p.is_dir())

    def complete_ns(self, game_id: str) -> list[int]:
        """The n of ``game_id`` with a commit record in place (not checked)."""
        base = self.root / f"game={game_id}"
        return sorted(int(p.parent.name[2:]) for p in base.glob(f"n=*/{COMPLETE}"))

    def jobs(self) -> list[tuple[str, int]]:
        """Every (game, n) directory of the store, committed or not, in order."""
        return sorted((d.parent.name[5:], int(d.name[2:])) for d in self.root.glob("game=*/n=*")
                      if d.is_dir() and d.name[2:].isdigit())

    def committed(self, deep: bool = False, rows: bool = False, restamp: bool = False
                  ) -> tuple[list[tuple[str, int, dict]], list[Damage]]:
        """Every (game, n) directory checked (:func:`check_job`): the sound ones with their
        commit records, and the damaged ones with the reason."""
        sound, damaged = [], []
        for game_id, n in self.jobs():
            try:
                sound.append((game_id, n, check_job(self.job_dir(game_id, n), deep=deep, rows=rows,
                                                    restamp=restamp)))
            except DamageError as exc:
                damaged.append(Damage(game_id, n, str(exc)))
        return sound, damaged

    def adopt(self) -> list[tuple[str, int]]:
        """Give every (game, n) committed by an older partgames (a ``_complete.json`` without a
        list of files) a commit record of its files as they are now, once their footers' rows
        add up to the records it promised in as many ``part-*.parquet`` files as its shards.
        What the bytes were before this moment cannot be known: adopting trusts them, and from
        then on every change is found. Returns the (game, n) adopted (the caller holds the lock)."""
        import pyarrow.parquet as pq

        adopted = []
        for game_id, n in self.jobs():
            job = self.job_dir(game_id, n)
            old = _read_json(job / COMPLETE)
            if not isinstance(old, dict) or "files" in old or not isinstance(old.get("records"), int):
                continue
            paths = sorted(job.glob("part-*.parquet"))
            try:
                counts = [pq.read_metadata(p).num_rows for p in paths]
            except Exception:  # noqa: BLE001 (an unreadable footer: not adopted, stays damaged)
                continue
            if len(paths) != old.get("shards") or sum(counts) != old["records"]:
                continue
            files = []
            for path, count in zip(paths, counts, strict=True):
                st = path.stat()
                files.append({"name": path.name, "bytes": st.st_size, "rows": count,
                              "sha256": file_sha256(path), "ino": st.st_ino, "ctime_ns": st.st_ctime_ns})
            record = dict(old, files=files, committed_ns=time.time_ns(), adopted=True)
            record["checksum"] = record_checksum(record)
            _write_json_atomic(job / COMPLETE, record)
            adopted.append((game_id, n))
        return adopted

    def add_summaries(self) -> list[tuple[str, int]]:
        """Give every sound (game, n) whose commit record has no summary (an older partgames
        wrote it) the summary of its records (:mod:`pipeline.summaries`), read from its files
        in order after a hash of each. Returns the (game, n) summarised (the caller holds the
        lock)."""
        import pyarrow.parquet as pq

        from pipeline.summaries import merge, summarize_table

        done = []
        for game_id, n in self.jobs():
            job = self.job_dir(game_id, n)
            try:
                record = check_job(job, deep=True)
            except DamageError:
                continue
            if "summary" in record or record.get("kept", "all") != "all":
                continue
            parts = [summarize_table(pq.read_table(job / f["name"])) for f in record["files"]]
            summary = merge(parts)
            if summary["records"] != record["records"]:
                continue  # not every record of n in its files: no summary rather than a wrong one
            record = dict(record, summary=summary)
            record["checksum"] = record_checksum(record)
            _write_json_atomic(job / COMPLETE, record)
            done.append((game_id, n))
        return done

    def provenance(self, min_n: int | None = None, max_n: int | None = None) -> list[tuple[str, str, int]]:
        """(code, release, number of complete (game, n)) of the complete jobs with min_n ≤ n ≤
        max_n, most jobs first: which versions of the code computed the records
        (``_complete.json``; "?" where a record does not say)."""
        counts: dict[tuple[str, str], int] = {}
        for path in self.root.glob(f"game=*/n=*/{COMPLETE}"):
            n = int(path.parent.name[2:])
            if (min_n is not None and n < min_n) or (max_n is not None and n > max_n):
                continue
            done = _read_json(path) or {}
            key = (str(done.get("code", "?")), str(done.get("version", "?")))
            counts[key] = counts.get(key, 0) + 1
        return sorted(((code, version, k) for (code, version), k in counts.items()), key=lambda t: -t[2])

    def bytes_on_disk(self, game_id: str, n: int) -> int:
        return sum(f.stat().st_size for f in self.job_dir(game_id, n).glob("*.parquet"))

    def bytes_per_record(self, game_id: str) -> float | None:
        """Bytes per record of the largest committed n of ``game_id`` (None: none committed)."""
        for n in reversed(self.complete_ns(game_id)):
            record = _read_json(self.job_dir(game_id, n) / COMPLETE) or {}
            files, records = record.get("files"), record.get("records")
            if files and records:
                return sum(f["bytes"] for f in files) / records
        return None


def write_parquet(table: pa.Table, path: Path, reuse: ChunkReuse | None = None) -> str:
    """Write a shard (one row group, zstd level 1, min/max statistics on every column) and
    return its SHA-256.

    Written by :mod:`pipeline.parquet`, our own encoder for the record schema: on an LCTR shard at
    n = 72 it takes about 100 ns per record against 237 for polars and 630 for pyarrow (one
    thread each), in 0.82× polars' bytes, and writing takes CPU from the kernels, so it bounds
    end-to-end throughput (benchmarks/bench.py). DuckDB, pyarrow and polars read every file back
    to the same values (tests/test_parquet.py).
    """
    from pipeline.parquet import write_table  # numba: only a run writes, sql and verify read

    return write_table(table, path, created_by=f"partgames version {__version__} "
                       f"(code {source_digest()[:16]})", reuse=reuse)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _write_json_atomic(path: Path, data: dict) -> None:
    write_text_atomic(path, json.dumps(data, sort_keys=True))


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: a reader, or an
    interrupted write, sees the old file or the new one, never a part of it; a failed write
    (a full disk) leaves no temporary file behind."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
