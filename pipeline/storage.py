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
import re
import secrets
import shutil
import signal
import socket
import sys
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
_OWN_NAMES = {MARKER, LOCK, STAGING, "VERIFY.md", "_journal.jsonl"}
#: The store's journal of commits: one JSON line per (game, n) committed, appended after its
#: directory is in place (see :class:`Journal`).
JOURNAL = "_journal.jsonl"
#: A committed file's name: its shard and the commit's own token, so that no two commits of a
#: (game, n) share a file name and a reader listing an older commit's files never opens a newer
#: commit's file under the same name (it finds the name gone instead).
_FILE_NAME = re.compile(r"part-\d{5}(?:-[0-9a-f]{1,32})?\.parquet")
_GAME_DIR = re.compile(r"game=([^/\\]+)")
_N_DIR = re.compile(r"n=(0|[1-9]\d{0,8})")


class StoreError(PartgamesError):
    """A results directory that cannot be used (one line, for the command line)."""


def shard_name(shard: int, token: str = "") -> str:
    """The committed name of shard ``shard`` in the commit ``token`` (none: an older partgames's
    name, which a store may still hold).

    >>> shard_name(7), shard_name(7, "3fa2")
    ('part-00007.parquet', 'part-00007-3fa2.parquet')
    """
    return f"part-{shard:05d}{'-' + token if token else ''}.parquet"


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


def commit_step() -> None:
    """Mark the end of one step of a commit (a rename or a record written): the point between two
    steps where a crash can land. It kills the process at the step :data:`KILL_AT_STEP` names;
    a test may replace it (``monkeypatch``) to stop a commit there in its own process."""
    global _steps_done
    _steps_done += 1
    target = os.environ.get(KILL_AT_STEP)
    if target and int(target) == _steps_done:
        os.kill(os.getpid(), signal.SIGKILL)


# ---- atomic directory swap ---------------------------------------------------------------------

_RENAME_EXCHANGE = 2  # linux/fs.h
_AT_FDCWD = -100


def exchange_directories(a: Path, b: Path) -> bool:
    """Swap two directories in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where the
    C library or the filesystem cannot (a commit then falls back to two renames). A test may
    replace it with one returning False to take the fallback on any filesystem."""
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

_GLOB = re.compile(r"([\[*?])")


def literal_path(path: Path | str) -> str:
    """``path``, absolute, as a DuckDB file name that reads that one file: DuckDB expands
    ``[ ] * ?`` in every file name it is given, a list's elements too (``read_parquet(['r[12]/x'])``
    reads ``r1/x`` and ``r2/x``), so each is put in a bracket class of its own (``[[]``, ``[*]``,
    ``[?]``), which matches it alone. DuckDB's glob splits at a backslash too, so a path with a
    backslash and one of those characters cannot be named: :class:`StoreError`.

    >>> literal_path("/data/r[12]/a*.parquet"), literal_path("/data/r1/a.parquet")
    ('/data/r[[]12]/a[*].parquet', '/data/r1/a.parquet')
    """
    text = Path(path).absolute().as_posix()
    if not _GLOB.search(text):
        return text
    if "\\" in text:
        raise StoreError(f"{path}: a path with both a backslash and one of [ ] * ? cannot be "
                         "read by DuckDB as it is; rename it")
    return _GLOB.sub(r"[\1]", text)


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
    # The record is the directory's own: a (game, n) directory renamed or copied to another
    # game or n (``mv game=king game=queen``, ``cp -r n=20 n=21``) holds another (game, n)'s
    # records, which no view may serve under this name.
    game_match, n_match = _GAME_DIR.fullmatch(job_dir.parent.name), _N_DIR.fullmatch(job_dir.name)
    if game_match and n_match and (record.get("game"), record.get("n")) != (
            game_match.group(1), int(n_match.group(1))):
        raise DamageError(f"its commit record is of game={record.get('game')} n={record.get('n')}, "
                          f"not of this directory (moved or copied from there?)")
    names = [f.get("name") if isinstance(f, dict) else None for f in record["files"]]
    if any(not isinstance(name, str) or not _FILE_NAME.fullmatch(name) for name in names) or (
            len(set(names)) != len(names)):
        raise DamageError("commit record lists a file name that is not a shard's")
    return record


class DamageError(Exception):
    """What is wrong with one (game, n) of a store (the message names it)."""


@dataclass(frozen=True)
class Damage:
    game: str
    n: int | None  # None: a stray directory, not a (game, n) of the store
    reason: str

    def line(self) -> str:
        return f"game={self.game}{'' if self.n is None else f' n={self.n}'}: {self.reason}"


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
                meta = pq.read_metadata(path)
                count = meta.num_rows
                n_values = _column_range(meta, "n")
            except Exception as exc:  # noqa: BLE001 (any unreadable footer is damage)
                raise DamageError(f"{f['name']}: footer unreadable ({exc})") from None
            if count != f["rows"]:
                raise DamageError(f"{f['name']} holds {count:,} rows, committed {f['rows']:,}")
            # the records are of this directory's n (the footer's statistics of column n)
            n_match = _N_DIR.fullmatch(job_dir.name)
            if n_match and n_values is not None and n_values != (int(n_match.group(1)),) * 2:
                raise DamageError(f"{f['name']} holds records of n = {n_values[0]}..{n_values[1]}, "
                                  f"not of this directory's n")
    if restamp and moved_files:
        for f, st in moved_files:
            f.update(ino=st.st_ino, ctime_ns=st.st_ctime_ns)
        record = _write_commit(job_dir, record)
    return record


def _column_range(meta: Any, name: str) -> tuple[int, int] | None:
    """(min, max) of column ``name`` over a Parquet file's row groups, from its footer's
    statistics; None where the footer has no such column or statistics."""
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    if name not in names or not meta.num_row_groups:
        return None
    lo = hi = None
    for g in range(meta.num_row_groups):
        stats = meta.row_group(g).column(names.index(name)).statistics
        if stats is None or not stats.has_min_max:
            return None
        lo = stats.min if lo is None else min(lo, stats.min)
        hi = stats.max if hi is None else max(hi, stats.max)
    return lo, hi


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
        literal_path(root)
        if not create and root.is_dir() and not (root / MARKER).is_file() and not any(root.glob("game=*")):
            raise StoreError(f"{root} is not a partgames results directory (no {MARKER}, no "
                             f"game=<id> directories)")
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
        r"""Be the store's only writer while the block runs, or raise :class:`StoreError` naming
        the holder (its pid, host and start).

        Two runs writing one store share its staging area: one committing a (game, n) moves the
        directory the other is writing shards into. Held as two advisory ``flock``\s, which the
        kernel releases when the process ends however it ends (SIGKILL included), so a killed run
        never leaves the store locked: one on :data:`LOCK` (which also says who holds it, and is
        removed when the block ends) and one on the store's directory itself, which no one can
        delete from under a run (a lock file can be: a second run would create another and get
        in). A filesystem without locks on directories (NFS) has the file's alone. Commits
        interrupted by a kill are finished or undone first (:meth:`recover`). Readers (``sql``,
        ``verify``) need no lock: they read committed files only.
        """
        path = self.root / LOCK
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 4096, 0).decode(errors="replace")
                os.close(fd)
                raise StoreError(self._held_by(holder)) from None
            except BaseException:
                os.close(fd)
                raise
            # The file locked is still the one at the path (the run before may have removed it
            # between this open and the lock): else lock the new one.
            try:
                same = os.stat(path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        dir_fd = None
        try:
            try:
                dir_fd = os.open(self.root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
                fcntl.flock(dir_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StoreError(self._held_by("", removed=True)) from None
            except OSError:
                pass  # no lock on a directory here (NFS): the lock file's alone
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                      "since": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
                                     ).encode(), 0)
            self.recover()
            yield
        finally:
            try:
                os.unlink(path)  # under the lock: a run waiting for it re-opens the path
            except OSError:
                pass
            if dir_fd is not None:
                os.close(dir_fd)
            os.close(fd)  # releases the lock

    def _held_by(self, holder: str, removed: bool = False) -> str:
        try:
            info = json.loads(holder)
            who = f"pid {info['pid']} on {info['host']} since {info['since']}"
        except (ValueError, KeyError, TypeError):
            who = ("its lock file was removed" if removed else f"pid {holder.strip()}"
                   if holder.strip().isdigit() else "starting now")
        return (f"{self.root} is being written by another partgames run ({who}); run one at a time "
                f"per store (one run takes several --games) or use another --out")

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
            _rmtree(sdir)
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
        return ShardFile(shard, info["bytes"], info["rows"], info["sha256"]) if (
            Store._staged_file(sdir, shard, info.get("bytes")) is not None) else None

    @staticmethod
    def _staged_file(sdir: Path, shard: int, size: object) -> Path | None:
        """The file of a staged shard of ``size`` bytes: ``part-k.staged``, or its committed name
        if a commit cut short renamed it already."""
        for path in [sdir / staged_name(shard), *sorted(sdir.glob(f"part-{shard:05d}*.parquet"))]:
            try:
                if path.stat().st_size == size:
                    return path
            except FileNotFoundError:
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
        token = secrets.token_hex(6)  # this commit's file names (see _FILE_NAME)
        for s in shards:
            if not s.written:
                continue
            final = self._staged_file(sdir, s.shard, s.bytes)
            if final is None:
                raise StoreError(f"game={game_id} n={n}: shard {s.shard} is missing from staging")
            if final.suffix == STAGED_SUFFIX:
                final = final.rename(sdir / shard_name(s.shard, token))
                commit_step()
            st = final.stat()  # after the rename, which moves the file's ctime
            files.append({"name": final.name, "bytes": s.bytes, "rows": s.rows, "sha256": s.sha256,
                          "ino": st.st_ino, "ctime_ns": st.st_ctime_ns})
        done = dict(record, files=files, kept_records=sum(f["rows"] for f in files),
                    committed_ns=time.time_ns())
        _write_commit(sdir, done)
        commit_step()
        for k in range(len(shards)):
            (sdir / f"part-{k:05d}.json").unlink(missing_ok=True)
        (sdir / "plan.json").unlink(missing_ok=True)
        self._publish(game_id, n)

    def _publish(self, game_id: str, n: int) -> None:
        """Move a committed (game, n) from staging into place, replacing any old one, and
        journal it (:class:`Journal`: after the move, so that the journal never holds a commit
        that is not in place)."""
        record = _read_json(self.staging_dir(game_id, n) / COMPLETE) or {}
        self._move_in(game_id, n)
        self.journal.append([_journal_entry(game_id, n, record)])

    def _move_in(self, game_id: str, n: int) -> None:
        sdir, target = self.staging_dir(game_id, n), self.job_dir(game_id, n)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            os.rename(sdir, target)
            commit_step()
            return
        if exchange_directories(sdir, target):  # the old directory is in staging now
            commit_step()
            _rmtree(sdir)
            commit_step()
            return
        # No swap on this filesystem: the old one aside, the new one in (recover() puts the old
        # one back if a kill lands between the two).
        replaced = self.replaced_dir(game_id, n)
        if replaced.exists():
            _rmtree(replaced)
        replaced.parent.mkdir(parents=True, exist_ok=True)
        os.rename(target, replaced)
        commit_step()
        os.rename(sdir, target)
        commit_step()
        _rmtree(replaced)
        commit_step()

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
                _rmtree(sdir)
        for sdir in sorted(self.staging.glob(f"game=*/n=*/{COMPLETE}")):
            sdir = sdir.parent
            game_id, n = sdir.parent.name[5:], int(sdir.name[2:])
            try:
                staged = check_job(sdir)
            except DamageError:
                _rmtree(sdir)  # cut short before its record was whole: recomputed
                continue
            try:
                live = read_commit(self.job_dir(game_id, n))
            except DamageError:
                live = None
            if live is not None and live.get("committed_ns", 0) >= staged.get("committed_ns", 0):
                _rmtree(sdir)
            else:
                self._publish(game_id, n)
        for old in sorted(self.staging.glob(f"{REPLACED}/game=*/n=*")):
            game_id, n = old.parent.name[5:], int(old.name[2:])
            if self.job_dir(game_id, n).exists():
                _rmtree(old)
            else:
                os.rename(old, self.job_dir(game_id, n))

    def tidy_staging(self) -> None:
        """Remove staging folders left empty, or holding a plan and no shard (a run that ended
        before its first shard of the (game, n): nothing to resume). Finished shards of
        unfinished jobs stay."""
        if not self.staging.is_dir():
            return
        for d in self.staging.glob("game=*/n=*"):
            try:
                if [p.name for p in d.iterdir()] == ["plan.json"]:
                    (d / "plan.json").unlink()
            except OSError:
                continue
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
        return [n for g, n in self.jobs() if g == game_id and (self.job_dir(g, n) / COMPLETE).exists()]

    def jobs(self) -> list[tuple[str, int]]:
        """Every (game, n) directory of the store, committed or not, in order: ``game=<id>/n=<n>``
        with n written as :meth:`job_dir` writes it (:meth:`strays` lists the others)."""
        return self.list_directories()[0]

    def strays(self) -> list[Damage]:
        """What a ``game=`` directory holds besides (game, n) directories: ``n=020`` beside
        ``n=20`` (the same n spelled otherwise), a file, any other name. None is read; each is
        reported by ``check``."""
        return self.list_directories()[1]

    def list_directories(self) -> tuple[list[tuple[str, int]], list[Damage]]:
        """One listing of the store's ``game=`` directories: the (game, n) directories in order
        (:meth:`jobs`) and what else they hold (:meth:`strays`). :meth:`committed` lists once,
        after reading the journal, so a commit made during the listing is not read as a (game,
        n) gone; a test replaces this method to commit at that moment."""
        jobs, strays = [], []
        for gdir in sorted(self.root.glob("game=*")):
            game_id = gdir.name[5:]
            if not gdir.is_dir():
                strays.append(Damage(game_id, None, f"stray file {gdir.name} in the store; remove it"))
                continue
            for d in sorted(gdir.iterdir()):
                match = _N_DIR.fullmatch(d.name)
                if match and d.is_dir():
                    jobs.append((game_id, int(match.group(1))))
                    continue
                spelled = d.name[2:] if d.name.startswith("n=") else ""
                hint = f": n is written n={int(spelled)}" if spelled.isdigit() and spelled.isascii() else ""
                kind = "directory" if d.is_dir() else "file"
                strays.append(Damage(game_id, None, f"stray {kind} {d.name} (not a (game, n) of the "
                                                    f"store{hint}); never read, remove it"))
        return sorted(jobs), strays

    @property
    def journal(self) -> Journal:
        return Journal(self.root / JOURNAL)

    def committed(self, deep: bool = False, rows: bool = False, restamp: bool = False
                  ) -> tuple[list[tuple[str, int, dict]], list[Damage]]:
        """Every (game, n) directory checked (:func:`check_job`): the sound ones with their
        commit records, and the damaged ones with the reason, which include the stray
        directories (:meth:`strays`) and every (game, n) the journal holds and the store no
        longer does (:class:`Journal`)."""
        sound, damaged = [], []
        # the journal before the directories: a commit is journaled after its directory is in
        # place, so one journaled now is seen by the scan; one made during the scan is not read
        # by this reader, and is no damage
        entries = self.journal.entries()
        jobs, strays = self.list_directories()
        for game_id, n in jobs:
            job = self.job_dir(game_id, n)
            for attempt in range(3):
                before = _identity(job / COMPLETE)
                try:
                    sound.append((game_id, n, check_job(job, deep=deep, rows=rows, restamp=restamp)))
                    break
                except DamageError as exc:
                    # A run replacing the (game, n) between its record read and its files
                    # checked (``--force``) is no damage: checked again, as now committed.
                    if attempt < 2 and _identity(job / COMPLETE) != before:
                        continue
                    damaged.append(Damage(game_id, n, str(exc)))
                    break
        present = set(jobs)
        for (game_id, n), entry in sorted(entries.items()):
            # gone unless a replace without an atomic swap has it aside for a moment
            if (game_id, n) not in present and not self.job_dir(game_id, n).is_dir() \
                    and not self.replaced_dir(game_id, n).is_dir():
                when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(entry.get("committed_ns", 0) / 1e9))
                damaged.append(Damage(game_id, n, f"committed on {when} ({JOURNAL}) and gone: "
                                                  "its directory is missing"))
        return sound, damaged + strays

    def restart_journal(self) -> int:
        """Journal every (game, n) directory of the store as it is now, dropping what the
        journal held (``check --adopt``: (game, n) removed on purpose are forgotten); how many."""
        entries = []
        for game_id, n in self.jobs():
            record = _read_json(self.job_dir(game_id, n) / COMPLETE)
            entries.append(_journal_entry(game_id, n, record if isinstance(record, dict) else {}))
        self.journal.rewrite(entries)
        return len(entries)

    def journal_missing(self, sound: list[tuple[str, int, dict]]) -> None:
        """Journal the sound (game, n) it lacks (all of them when the store has no journal yet:
        a store of an older partgames starts one); the caller holds the lock."""
        have = self.journal.entries()
        self.journal.append([_journal_entry(g, n, r) for g, n, r in sound if (g, n) not in have])

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
            _write_commit(job, dict(old, files=files, committed_ns=time.time_ns(), adopted=True))
            adopted.append((game_id, n))
        return adopted

    def add_schemas(self) -> list[tuple[str, int]]:
        """Give every sound (game, n) whose commit record names no schema (an older partgames
        wrote it) the digest of its files' schema (:func:`pipeline.schema.schema_digest`, from
        their footers), when they all have one, so that the views read them as one schema
        (:func:`pipeline.query.read_files_sql`). Returns the (game, n) named (the caller holds
        the lock)."""
        import pyarrow.parquet as pq

        from pipeline.schema import schema_digest

        done = []
        for game_id, n in self.jobs():
            job = self.job_dir(game_id, n)
            try:
                record = check_job(job)
            except DamageError:
                continue
            if "schema" in record or not record["files"]:
                continue
            try:
                digests = {schema_digest(pq.read_schema(job / f["name"])) for f in record["files"]}
            except Exception:  # noqa: BLE001 (an unreadable footer: read by name, as before)
                continue
            if len(digests) != 1:
                continue
            _write_commit(job, dict(record, schema=digests.pop()))
            done.append((game_id, n))
        return done

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
            _write_commit(job, dict(record, summary=summary))
            done.append((game_id, n))
        return done

    def provenance(self, min_n: int | None = None, max_n: int | None = None) -> list[tuple[str, str, int]]:
        """(code, release, number of complete (game, n)) of the complete jobs with min_n ≤ n ≤
        max_n, most jobs first: which versions of the code computed the records
        (``_complete.json``; "?" where a record does not say)."""
        counts: dict[tuple[str, str], int] = {}
        for game_id, n in self.jobs():
            path = self.job_dir(game_id, n) / COMPLETE
            if (min_n is not None and n < min_n) or (max_n is not None and n > max_n):
                continue
            done = _read_json(path) or {}
            key = (str(done.get("code", "?")), str(done.get("version", "?")))
            counts[key] = counts.get(key, 0) + 1
        return sorted(((code, version, k) for (code, version), k in counts.items()), key=lambda t: -t[2])

    def commit_record_bytes(self) -> int:
        """Disk taken by the largest commit record of the store's largest n (whole 4 kB
        blocks; 0 without one)."""
        jobs = self.jobs()
        if not jobs:
            return 0
        top = max(n for _, n in jobs)
        sizes = [0]
        for game_id, n in jobs:
            if n == top:
                try:
                    sizes.append((self.job_dir(game_id, n) / COMPLETE).stat().st_size)
                except OSError:
                    continue
        return -(-max(sizes) // 4096) * 4096

    def bytes_per_record(self, game_id: str) -> float | None:
        """Bytes per record of the largest committed n of ``game_id`` (None: none committed)."""
        for n in reversed(self.complete_ns(game_id)):
            record = _read_json(self.job_dir(game_id, n) / COMPLETE) or {}
            files, records = record.get("files"), record.get("records")
            if files and records:
                return sum(f["bytes"] for f in files) / records
        return None


def _journal_entry(game_id: str, n: int, record: dict) -> dict:
    return {"game": game_id, "n": n, "committed_ns": record.get("committed_ns"),
            "records": record.get("records")}


@dataclass(frozen=True)
class Journal:
    """The store's journal of commits (:data:`JOURNAL`): a line of JSON per (game, n) committed
    (its game, n, commit time and records), appended by the writer once the (game, n) is in
    place, so that ``check`` can tell a (game, n) that was committed and is gone (its directory
    deleted, commit record and all) from one never computed.

    Appended with one ``write`` in append mode and synced to disk (``fsync``: about 0.2 ms a
    commit here, 13 to 21 ms for 80 appends); a line cut short by a kill (the last one, without
    its newline) is ignored when read and dropped before the next append."""

    path: Path

    def exists(self) -> bool:
        return self.path.is_file()

    def entries(self) -> dict[tuple[str, int], dict]:
        """The last entry of each (game, n) journaled; {} without a journal."""
        try:
            text = self.path.read_text()
        except (OSError, UnicodeDecodeError):
            return {}
        out: dict[tuple[str, int], dict] = {}
        for line in text.split("\n"):
            try:
                entry = json.loads(line)
                key = (entry["game"], entry["n"])
            except (ValueError, KeyError, TypeError):
                continue  # the last line cut short by a kill (or an empty one)
            if isinstance(key[0], str) and isinstance(key[1], int):
                out[key] = entry
        return out

    def append(self, entries: list[dict], create: bool = True) -> None:
        """Append ``entries`` (the caller holds the store's lock)."""
        if not entries and (self.path.exists() or not create):
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            size = os.fstat(fd).st_size
            if size:
                tail = os.pread(fd, min(size, 1 << 16), size - min(size, 1 << 16))
                if not tail.endswith(b"\n"):  # a line cut short: dropped
                    os.ftruncate(fd, size - len(tail) + tail.rfind(b"\n") + 1)
            if entries:
                os.write(fd, "".join(json.dumps(e, sort_keys=True) + "\n" for e in entries).encode())
            os.fsync(fd)
        finally:
            os.close(fd)

    def rewrite(self, entries: list[dict]) -> None:
        """Replace the journal by ``entries`` at once (``check --adopt``)."""
        write_text_atomic(self.path, "".join(json.dumps(e, sort_keys=True) + "\n" for e in entries))


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


def _rmtree(path: Path) -> None:
    """``shutil.rmtree``, with an error naming the whole path of what could not be removed
    (``rmtree`` removes by directory handle, and its error names a file without its folder)."""
    def named(_function: Any, where: str, exc: Any) -> None:
        exc = exc[1] if isinstance(exc, tuple) else exc  # onerror's exc_info, onexc's exception
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, where) from None
        raise exc

    if sys.version_info >= (3, 12):
        shutil.rmtree(path, onexc=named)
    else:
        shutil.rmtree(path, onerror=named)


def _identity(path: Path) -> tuple[int, int] | None:
    """(inode, mtime) of a file, None if it is missing: a commit record replaced has another."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _write_commit(job_dir: Path, record: dict) -> dict:
    """Write ``record`` as ``job_dir``'s commit record, atomically, with the checksum of what it
    says now (:func:`record_checksum`); returns the record written. Every writer of a commit
    record goes through here, so none can leave a stale checksum behind."""
    record = dict(record, checksum=record_checksum(record))
    _write_json_atomic(job_dir / COMPLETE, record)
    return record


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
