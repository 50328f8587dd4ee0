"""The neighbourhood rows of a pass of ``partgames verify``, gathered by position, not joined.

:func:`pipeline.neighbourhood.neighbourhood_sql` gives a record the values of its neighbours'
records (T(λ), L(λ), λ[1,1], λ⁻, λ', λ[2,0], λ[0,2]) by hash joins on their keys. The keys say
more than a join uses: a key is ``n << 40 | ordinal``, and the records of one n are the
partitions of n at the ordinals 0 … p(n) − 1, each once. So the values of the records of n',
read into arrays indexed by ordinal, give every neighbour in n' by one array lookup, with no
hash table: a pass buckets its keys by the n' they name (:func:`pipeline.games.features.keys_by_n`,
numba), reads the records of each n' once (the columns its statements read of those
neighbours, from the files of n' alone, or from the flat files of :class:`ColumnCache`
that the first pass to reach n' writes) and gathers from them. A pass then costs a read of the
n' its neighbours reach and a few array operations per record and column, where the joins'
hash tables cost several times that (docs/performance.md, "The neighbourhood pass").

The rows are those of the joins, column for column: the record's columns, each neighbour's key
``p_key`` and its columns ``p_c`` with the terminal position's values where the key is 0
(:data:`pipeline.neighbourhood.EMPTY`), NULL where the neighbour's record is not in the store
or its value is NULL. A neighbour's lists (``parts``, ``conjugate``) and its values are gathered by
numba (:func:`pipeline.games.features.take_lists`, :func:`pipeline.games.features.gather`).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.neighbourhood import COLUMNS, EMPTY

#: The bits of a key below the n (``pipeline.games.features.KEY_SHIFT``).
ORDINAL_MASK = (1 << 40) - 1

#: A record's list columns (a board game's parts and conjugate, a d-dimensional diagram's corners
#: and row lengths): a pass reads them only when a statement names them (a list costs DuckDB
#: about 400 ns a record to decode).
LIST_COLUMNS = ("parts", "conjugate", "corners", "row_lengths")


def own_columns(view_columns: list[str], text: str) -> list[str]:
    """The columns of a pass's own records that its statements may read: every column of the
    view but a list column or ``game`` not named in ``text`` (the statements' predicates).

    >>> own_columns(["n", "parts", "sg", "conjugate", "ordinal", "game"], "sg = 0 AND parts[1] = 2")
    ['n', 'parts', 'sg', 'ordinal']
    """
    return [c for c in view_columns
            if c not in (*LIST_COLUMNS, "game") or re.search(rf"(?<![\w.]){c}\b", text)]


def _empty_value(column: str) -> bool | int:
    text = EMPTY[column]
    return text == "true" if text in ("true", "false") else int(text)


class Columns(NamedTuple):
    """Some records of one n, as read: per column its values and whether each is present (not
    NULL), row by row, and where each ordinal's row is: the rows are runs of consecutive
    ordinals (run r: ``run_length[r]`` ordinals from ``run_first[r]``, at rows from
    ``run_row[r]``), in increasing order."""
    values: dict[str, tuple[np.ndarray, np.ndarray]]
    run_first: np.ndarray
    run_row: np.ndarray
    run_length: np.ndarray


class RecordArrays:
    """A game's records of one n at a time (:class:`Columns`).

    ``source(m, ordinals)``: a query over the game's records that holds every record of n = m
    at ``ordinals`` (a list of integer arrays; the files they fall in, or the view), or None
    where the store holds none. ``sizes[m]`` is p(m), the number of ordinals of m."""

    def __init__(self, con: duckdb.DuckDBPyConnection,
                 source: Callable[[int, list[np.ndarray]], str | None], sizes: list[int]) -> None:
        self.con, self.source, self.sizes = con, source, sizes

    def read(self, m: int, columns: list[str], ordinals: list[np.ndarray]) -> Columns | None:
        """The columns of the records of ``m`` at ``ordinals`` at least, or None where the store
        holds no record of ``m``. A record at an ordinal outside 0 … p(m) − 1 is damage, not
        data, and raises."""
        query = self.source(m, ordinals)
        if query is None:
            return None
        table = self.con.sql(f"SELECT ordinal, {', '.join(columns)} FROM ({query}) "
                             f"WHERE n = {m}").to_arrow_table()
        size = int(self.sizes[m])
        ordinal = table.column("ordinal")
        if ordinal.null_count:
            raise ValueError(f"records of n = {m} without an ordinal")
        at = ordinal.to_numpy()
        if len(at) and (at.min() < 0 or at.max() >= size):
            raise ValueError(f"a record of n = {m} at ordinal {int(at.max())}, past p({m}) = {size}")
        values: dict[str, tuple] = {}
        everywhere = np.ones(len(at), bool)
        for c in columns:
            col = table.column(c)
            if c in LIST_COLUMNS:  # kept as Arrow lists (list_layout: their offsets and items)
                values[c] = col.combine_chunks(), pc.is_valid(col).to_numpy(zero_copy_only=False)
            elif col.null_count:
                values[c] = (pc.fill_null(col, _empty_value(c)).to_numpy(zero_copy_only=False),
                             pc.is_valid(col).to_numpy(zero_copy_only=False))
            else:
                values[c] = col.to_numpy(zero_copy_only=False), everywhere
        # A file of m holds consecutive ordinals, and DuckDB returns a file's row groups whole,
        # in some order: the rows are runs of consecutive ordinals, found by run once sorted.
        # Runs that overlap (records twice, which the store's checks report) are placed at their
        # ordinals first: one run.
        breaks = np.flatnonzero(np.diff(at) != 1) + 1
        run_row = np.concatenate(([0], breaks)).astype(np.int64) if len(at) else np.zeros(0, np.int64)
        run_first = at[run_row].astype(np.int64)
        run_length = np.diff(np.concatenate((run_row, [len(at)]))).astype(np.int64)
        by_first = np.argsort(run_first, kind="stable")
        run_first, run_row, run_length = run_first[by_first], run_row[by_first], run_length[by_first]
        if len(run_first) > 1 and not np.all(run_first[1:] >= run_first[:-1] + run_length[:-1]):
            last = np.full(size, -1, np.int64)
            last[at] = np.arange(len(at))  # the row of each ordinal's last record
            unread = last < 0  # an ordinal no record holds: NULL
            for c, (v, present) in values.items():
                values[c] = ((v.take(pa.array(last, mask=unread)), ~unread & present[np.maximum(last, 0)])
                             if c in LIST_COLUMNS
                             else (_at_ordinals(v, at, size), _at_ordinals(present, at, size)))
            run_first, run_row, run_length = (np.zeros(1, np.int64), np.zeros(1, np.int64),
                                              np.array([size], np.int64))
        return Columns(values, run_first, run_row, run_length)


class ColumnCache:
    """A game's columns of each n, read once from the store and written to flat files beside it
    (per n and column, each record's value at its ordinal, a list column as Arrow lays it out:
    its items and each record's offset; and per n which ordinals a record holds), so that every
    later pass that reaches an n gathers its neighbours' values by position from a file read
    whole (from the page cache, in practice) instead of reading and decoding the Parquet files
    again.

    The passes of a large store read each smaller n once per pass, and the neighbours of a
    range of ordinals fall in most files of each n, so the Parquet reads grow with the passes
    (docs/performance.md, "The neighbourhood pass"); a list column costs DuckDB about 400 ns a
    record to decode each time. The files take the columns' width per record (38 bytes for the
    twelve value columns a consistency statement reads, and a list's items) and at most
    ``budget`` bytes in all; an n past the budget, or a column of an n whose file would pass
    :data:`MAX_FILE` bytes, is read from the store as before. The directory is the verify's own
    and is removed with it (:func:`column_cache_directory`): a cache is never read by another
    verify.

    ``arrays`` reads the records (:class:`RecordArrays`), ``columns`` are those cached, ``types``
    their Arrow types.
    """

    #: Ordinals read from the store at a time while an n is written (about 160 MB of twelve
    #: columns).
    CHUNK = 1 << 22

    #: The largest file of one column of one n that a pass reads whole (an 8-byte column of
    #: n = 84, 33 M records), so that the reads add at most this much to a pass's memory.
    MAX_FILE = 1 << 28

    def __init__(self, directory: Path, arrays: RecordArrays, columns: list[str],
                 types: dict[str, pa.DataType], budget: int) -> None:
        self.directory, self.arrays, self.budget = directory, arrays, budget
        self.columns = list(columns)
        self.types = {c: types[c] for c in columns}
        self.used = 0
        self.written: dict[int, CachedColumns | None] = {}

    def columns_of(self, m: int) -> CachedColumns | None:
        """The cached columns of ``m`` (written now if they are not yet), or None where ``m`` is
        past the budget."""
        if m not in self.written:
            self.written[m] = self._write(m)
        return self.written[m]

    def _write(self, m: int) -> CachedColumns | None:
        cached = self._write_columns(m, self.columns)
        lists = [c for c in self.columns if pa.types.is_list(self.types[c])]
        if cached is None and lists:  # a list's items past the limits: the other columns alone
            cached = self._write_columns(m, [c for c in self.columns if c not in lists])
        return cached

    def _write_columns(self, m: int, columns: list[str]) -> CachedColumns | None:
        size = int(self.arrays.sizes[m])
        if not columns or self.used + size > self.budget:
            return None
        out = CachedColumns(self.directory, m, size, {c: self.types[c] for c in columns}, set())
        # Written by pwrite, not through a mapping: a written mapping's pages count as the
        # process's memory until it is unmapped.
        try:
            files = _ColumnFiles(out, columns)
        except OSError:
            return None
        try:
            for start in range(0, size, self.CHUNK):
                end = min(size, start + self.CHUNK)
                read = self.arrays.read(m, columns, [np.arange(start, end)])
                if read is not None:
                    for first, row, length in zip(read.run_first.tolist(), read.run_row.tolist(),
                                                  read.run_length.tolist(), strict=True):
                        # each chunk writes its own ordinals only (a file read by two chunks is
                        # written once; a run placed over all of m writes each part once)
                        lo, hi = max(first, start), min(first + length, end)
                        if lo < hi:
                            files.put(read, lo, row + lo - first, hi - lo)
                if max(files.sizes.values()) > self.MAX_FILE or self.used + files.bytes > self.budget:
                    files.remove()
                    return None
            files.finish()
        except OSError:  # the disk full, say: this n is read from the store, as past the budget
            files.remove()
            return None
        finally:
            files.close()
        self.used += files.bytes
        return out


class _ColumnFiles:
    """The files of one n of a :class:`ColumnCache` as they are written, run by run of
    ordinals in increasing order."""

    def __init__(self, out: CachedColumns, columns: list[str]) -> None:
        self.out, self.columns = out, columns
        self.fd: dict[str, int] = {}
        self.sizes = dict.fromkeys(columns, 0)
        self.bytes = 0
        self.items = dict.fromkeys(columns, 0)  # a list column's items written
        self.next = 0  # the first ordinal not yet written
        try:
            for name in ("held", *columns, *(f"{c}.offsets" for c in columns if self._list(c))):
                self.fd[name] = os.open(out.path(name), os.O_CREAT | os.O_WRONLY)
        except OSError:
            self.remove()
            raise

    def _list(self, c: str) -> bool:
        return pa.types.is_list(self.out.types[c])

    def _pwrite(self, name: str, data: np.ndarray | bytes, at: int) -> None:
        raw = data if isinstance(data, bytes) else np.ascontiguousarray(data).tobytes()
        done = 0
        while done < len(raw):  # a write may take part of its bytes
            done += os.pwrite(self.fd[name], raw[done:], at + done)
        self.bytes += len(raw)
        column = name.split(".")[0]
        if column in self.sizes:
            self.sizes[column] += len(raw)

    def put(self, read: Columns, first: int, row: int, length: int) -> None:
        """The records read at rows ``row`` … of ``read``, written at ordinals ``first`` …"""
        out = self.out
        self._pwrite("held", b"\x01" * length, first)
        self._fill_offsets(first)
        for c in self.columns:
            v, ok = read.values[c]
            if self._list(c):
                lists = v.slice(row, length)
                offsets = lists.offsets.to_numpy().astype(np.int64)
                items = lists.values.slice(offsets[0], offsets[-1] - offsets[0])
                items = items.to_numpy(zero_copy_only=False)
                item = out.types[c].value_type.to_pandas_dtype()
                self._pwrite(c, np.asarray(items, item), self.items[c] * np.dtype(item).itemsize)
                self._pwrite(f"{c}.offsets", self.items[c] + offsets[1:] - offsets[0], (first + 1) * 8)
                self.items[c] += int(offsets[-1] - offsets[0])
            else:
                dtype = np.dtype(out.types[c].to_pandas_dtype())
                self._pwrite(c, np.asarray(v[row:row + length], dtype), first * dtype.itemsize)
            if c not in out.nullable and not ok[row:row + length].all():
                # a NULL: the column's own presence from here on, as held before it
                out.nullable.add(c)
                os.fsync(self.fd["held"])
                shutil.copyfile(out.path("held"), out.path(f"{c}.present"))
                self.fd[f"{c}.present"] = os.open(out.path(f"{c}.present"), os.O_WRONLY)
            if c in out.nullable:
                self._pwrite(f"{c}.present", np.asarray(ok[row:row + length], bool).tobytes(), first)
        self.next = first + length

    def _fill_offsets(self, upto: int) -> None:
        """The offsets of the ordinals ``next`` … ``upto`` − 1 that no record holds: empty
        lists."""
        if upto > self.next:
            for c in self.columns:
                if self._list(c):
                    self._pwrite(f"{c}.offsets", np.full(upto - self.next, self.items[c], np.int64),
                                 (self.next + 1) * 8)

    def finish(self) -> None:
        """The files at their full length: an ordinal past the last record is absent (zero)."""
        self._fill_offsets(self.out.size)
        for name, fd in self.fd.items():
            column, _, suffix = name.partition(".")
            if suffix == "offsets":
                os.ftruncate(fd, (self.out.size + 1) * 8)
            elif name == "held" or suffix == "present":
                os.ftruncate(fd, self.out.size)
            elif not self._list(column):
                os.ftruncate(fd, self.out.size * np.dtype(self.out.types[column].to_pandas_dtype()).itemsize)

    def close(self) -> None:
        for fd in self.fd.values():
            os.close(fd)
        self.fd = {}

    def remove(self) -> None:
        self.close()
        for path in self.out.directory.glob(f"{self.out.m}.*"):
            path.unlink(missing_ok=True)


class CachedColumns(NamedTuple):
    """The files of :class:`ColumnCache` of one n: per column (``types``) its values at the
    ordinals 0 … ``size`` − 1 (a list column: its items, and ``offsets``), and which ordinals a
    record holds (``held``; a column in ``nullable`` has its own presence, its NULLs not
    present)."""
    directory: Path
    m: int
    size: int
    types: dict[str, pa.DataType]
    nullable: set[str]

    def path(self, name: str) -> Path:
        return self.directory / f"{self.m}.{name}"

    def arrays(self, column: str) -> tuple[np.ndarray | pa.Array, np.ndarray]:
        """The column's values (a list column: an Arrow list array) and whether each is present,
        read whole into memory (a file mapped pass after pass costs a page fault per page
        touched, several times the read)."""
        if pa.types.is_list(self.types[column]):
            offsets, items, present = self.layout(column)
            values = pa.LargeListArray.from_arrays(pa.array(offsets), pa.array(items))
            return values.cast(self.types[column]), present
        present = self.presence(column)
        return np.fromfile(self.path(column), self.types[column].to_pandas_dtype(), count=self.size), present

    def presence(self, column: str) -> np.ndarray:
        """Whether each ordinal's value of ``column`` is present."""
        name = f"{column}.present" if column in self.nullable else "held"
        return np.fromfile(self.path(name), np.bool_, count=self.size)

    def layout(self, column: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A list column as its offsets, items and presence (:func:`list_layout`), read whole."""
        offsets = np.fromfile(self.path(f"{column}.offsets"), np.int64, count=self.size + 1)
        item = self.types[column].value_type.to_pandas_dtype()
        items = np.fromfile(self.path(column), item, count=int(offsets[-1]))
        return offsets, items, self.presence(column)


@contextmanager
def column_cache_directory(con: duckdb.DuckDBPyConnection) -> Iterator[tuple[Path, int]]:
    """A directory of the verify's own for its :class:`ColumnCache` files, beside DuckDB's spill
    directory (on the store's disk), and the bytes they may take: a quarter of the free space
    (the spill files have half). Removed when the block ends; one left by a killed process is
    removed by the next verify beside the same store."""
    from pipeline.query import remove_stale_spills

    (spill,), = con.execute("SELECT current_setting('temp_directory')").fetchall()
    spill = Path(str(spill))
    if ".duckdb-spill-" in spill.name:
        parent, prefix = spill.parent, spill.name.split(".duckdb-spill-")[0] + ".verify-columns-"
    else:
        parent, prefix = Path(tempfile.gettempdir()), ".partgames.verify-columns-"
    remove_stale_spills(parent, prefix)
    path = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))
    try:
        yield path, int(shutil.disk_usage(parent).free // 4)
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _at_ordinals(values: np.ndarray, at: np.ndarray, size: int) -> np.ndarray:
    """``values`` of the records at ordinals ``at``, placed at their ordinals (0, absent,
    elsewhere)."""
    out = np.zeros(size, values.dtype)
    out[at] = values
    return out


def neighbourhood_table(own: pa.Table, keys: pa.Table, neighbours: dict[str, tuple[str, ...]],
                        arrays: RecordArrays, types: dict[str, pa.DataType],
                        cache: ColumnCache | None = None) -> pa.Table:
    """The neighbourhood rows of the records ``own`` (a pass's records, with ``n`` and
    ``ordinal``, in any order): ``own`` with, per neighbour of ``neighbours``, its key column
    and its columns gathered from ``arrays`` (``types``: each value column's Arrow type), or
    from ``cache`` for the columns it holds of an n it holds.

    ``keys`` is the pass's key table (:func:`pipeline.games.features.neighbour_key_table`: n,
    ordinal and each neighbour's key, n non-decreasing, one run of consecutive ordinals per n),
    and holds a row for every record of ``own``.
    """
    gathering = _Gathering(keys, _positions(keys, own), neighbours, types)
    for m in gathering.reached():  # each n' read once, for every neighbour that reaches it
        gathering.gather_from(m, arrays, cache)
    return gathering.table(own)


class _Gathering:
    """The neighbours' columns of a pass's records as they are gathered: per neighbour its keys
    bucketed by the n they name (:func:`pipeline.games.features.keys_by_n`), and per column its
    values and whether each is present, the terminal position's filled in at the start."""

    def __init__(self, keys: pa.Table, pos: np.ndarray, neighbours: dict[str, tuple[str, ...]],
                 types: dict[str, pa.DataType]) -> None:
        from pipeline.games.features import keys_by_n  # numba: only here

        self.neighbours, self.types, self.size = neighbours, types, len(pos)
        self.gathered: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.lists: dict[str, _Lists] = {}
        self.buckets = {}
        for p, cols in neighbours.items():
            k = keys.column(f"{p}_key").to_numpy()[pos]
            self.buckets[p] = k, *keys_by_n(k)
            self.gathered[f"{p}_key"] = k, np.ones(self.size, bool)
            for c in cols:
                if c in LIST_COLUMNS:
                    self.lists[f"{p}_{c}"] = _Lists(types[c])
                else:
                    self.gathered[f"{p}_{c}"] = (np.zeros(self.size, types[c].to_pandas_dtype()),
                                                 np.zeros(self.size, bool))
        for p, (_, order, starts) in self.buckets.items():
            empty = order[starts[0]:starts[1]]  # the key of () names the terminal position
            for c in neighbours[p]:
                if c in LIST_COLUMNS:
                    self.lists[f"{p}_{c}"].empty(empty)
                    continue
                values, present = self.gathered[f"{p}_{c}"]
                values[empty] = _empty_value(c)
                present[empty] = True

    def reached(self) -> list[int]:
        """The n' > 0 some neighbour's key names, increasing."""
        found: set[int] = set()
        for _, _, starts in self.buckets.values():
            found.update(int(m) for m in np.flatnonzero(np.diff(starts)[1:]) + 1)
        return sorted(found)

    def gather_from(self, m: int, arrays: RecordArrays, cache: ColumnCache | None = None) -> None:
        """The columns of the neighbours in ``m``, read once from ``arrays`` for all of them,
        or from ``cache`` for those it holds (left NULL where the store holds no record of
        ``m``)."""
        from pipeline.games.features import gather, rows_at  # numba: only here

        # per neighbour with columns and keys in m: the rows of the pass and the ordinals in m
        here = {}
        for p, (k, order, starts) in self.buckets.items():
            if self.neighbours[p] and m + 1 < len(starts) and starts[m + 1] > starts[m]:
                at = order[starts[m]:starts[m + 1]]
                here[p] = at, k[at] & ORDINAL_MASK
        if not here:
            return
        wanted = sorted({c for p in here for c in self.neighbours[p]}, key=COLUMNS.index)
        cached = cache.columns_of(m) if cache is not None else None
        if cached is not None:
            for _, ordinal in here.values():
                if len(ordinal) and ordinal.max() >= cached.size:  # never read past p(m)
                    raise ValueError(f"a neighbour key of n = {m} at ordinal {int(ordinal.max())}, "
                                     f"past p({m}) = {cached.size}")
            for c in [c for c in wanted if c in cached.types]:
                # one column in memory at a time; the cache's rows are the ordinals themselves
                source = cached.layout(c) if c in LIST_COLUMNS else cached.arrays(c)
                for p, (at, ordinal) in here.items():
                    if c not in self.neighbours[p]:
                        continue
                    if c in LIST_COLUMNS:  # an absent record's row left NULL
                        self.lists[f"{p}_{c}"].take(at, ordinal, source)
                    else:
                        gather(*self.gathered[f"{p}_{c}"], at, ordinal, *source)
                del source
            wanted = [c for c in wanted if c not in cached.types]
        if not wanted:
            return
        here = {p: v for p, v in here.items() if set(self.neighbours[p]) & set(wanted)}
        read = arrays.read(m, wanted, [ordinal for _, ordinal in here.values()])
        if read is None:
            return
        layouts = {c: list_layout(*read.values[c]) for c in wanted if c in LIST_COLUMNS}
        for p, (at, ordinal) in here.items():
            rows = rows_at(ordinal, read.run_first, read.run_row, read.run_length)
            for c in self.neighbours[p]:
                if cached is not None and c in cached.types:
                    continue
                if c in LIST_COLUMNS:
                    self.lists[f"{p}_{c}"].take(at, rows, layouts[c])
                else:
                    gather(*self.gathered[f"{p}_{c}"], at, rows, *read.values[c])

    def table(self, own: pa.Table) -> pa.Table:
        """``own`` with each neighbour's key and gathered columns appended."""
        out = own
        for p, cols in self.neighbours.items():
            for name in (f"{p}_key", *(f"{p}_{c}" for c in cols)):
                if name in self.lists:
                    out = out.append_column(name, self.lists[name].column(self.size))
                    continue
                values, present = self.gathered[name]
                kind = pa.int64() if name.endswith("_key") else self.types[name.split("_", 1)[1]]
                mask = None if present.all() else ~present
                out = out.append_column(name, pa.array(values, type=kind, mask=mask))
        return out


class _Lists:
    """A neighbour's list column (parts, conjugate) as it is gathered: pieces taken from the
    records read (:func:`pipeline.games.features.take_lists`), each with the rows of the pass it
    fills, placed in the pass's order at the end; a row no piece fills is NULL (its neighbour's
    record not read)."""

    def __init__(self, kind: pa.DataType) -> None:
        self.kind = kind
        self.pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def empty(self, at: np.ndarray) -> None:
        """The rows ``at`` hold the terminal position's empty list."""
        self.pieces.append((at, np.zeros(len(at), np.int64), np.zeros(0, np.int16)))

    def take(self, at: np.ndarray, rows: np.ndarray,
             source: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        """The rows ``at`` hold the lists at ``rows`` (−1: absent, left NULL) of ``source``
        (offsets, items and presence, as :func:`list_layout` gives them)."""
        from pipeline.games.features import take_lists  # numba: only here

        self.pieces.append((at, *take_lists(rows, *source)))

    def column(self, size: int) -> pa.Array:
        from pipeline.games.features import place_lists  # numba: only here

        return place_lists(size, self.pieces, self.kind)


def list_layout(lists: pa.Array, present: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An Arrow list array as (offsets, items, presence) numpy arrays: list r is
    ``items[offsets[r]:offsets[r + 1]]``, NULL where ``present[r]`` is False.

    >>> layout = list_layout(pa.array([[3, 1], None, []], pa.list_(pa.int16())), np.array([1, 0, 1], bool))
    >>> [a.tolist() for a in layout]
    [[0, 2, 2, 2], [3, 1], [True, False, True]]
    """
    offsets = lists.offsets.to_numpy()
    items = lists.values.to_numpy(zero_copy_only=False)
    return offsets, items, np.asarray(present, bool)


def _positions(keys: pa.Table, own: pa.Table) -> np.ndarray:
    """The row of ``keys`` of each record of ``own`` (matched on n and ordinal)."""
    kn = keys.column("n").to_numpy()
    ko = keys.column("ordinal").to_numpy()
    n = own.column("n").to_numpy()
    o = own.column("ordinal").to_numpy()
    first = np.searchsorted(kn, n)  # each n's run of ordinals starts here
    pos = first + (o - ko[np.minimum(first, len(ko) - 1)]) if len(ko) else first
    if len(n) and (pos.min() < 0 or pos.max() >= len(kn)
                   or not (np.array_equal(kn[pos], n) and np.array_equal(ko[pos], o))):
        raise ValueError("a record of the pass has no row in its key table")
    return pos
