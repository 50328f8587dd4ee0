"""The neighbourhood rows of a pass of ``partgames verify``, gathered by position, not joined.

:func:`pipeline.neighbourhood.neighbourhood_sql` gives a record the values of its neighbours'
records (T(λ), L(λ), λ[1,1], λ⁻, λ', λ[2,0], λ[0,2]) by hash joins on their keys. The keys say
more than a join uses: a key is ``n << 40 | ordinal``, and the records of one n are the
partitions of n at the ordinals 0 … p(n) − 1, each once. So the values of the records of n',
read into arrays indexed by ordinal, give every neighbour in n' by one array lookup, with no
hash table: a pass buckets its keys by the n' they name (:func:`pipeline.games.features.keys_by_n`,
numba), reads the records of each n' once (the columns its statements read of those
neighbours, from the files of n' alone) and gathers from them. A pass then costs a read of the
n' its neighbours reach and a few array operations per record and column, where the joins'
hash tables cost several times that (docs/performance.md, "The neighbourhood pass").

The rows are those of the joins, column for column: the record's columns, each neighbour's key
``p_key`` and its columns ``p_c`` with the terminal position's values where the key is 0
(:data:`pipeline.neighbourhood.EMPTY`), NULL where the neighbour's record is not in the store
or its value is NULL. A neighbour's ``parts`` and ``conjugate`` are taken by Arrow (lists of any
length), its values by numba (:func:`pipeline.games.features.gather`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
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
            if c in LIST_COLUMNS:  # gathered by Arrow's take (lists of any length)
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
            last = np.zeros(size, np.int64)
            last[at] = np.arange(len(at))  # the row of each ordinal's last record
            for c, (v, present) in values.items():
                values[c] = ((v.take(pa.array(last)), present[last]) if c in LIST_COLUMNS
                             else (_at_ordinals(v, at, size), _at_ordinals(present, at, size)))
            run_first, run_row, run_length = (np.zeros(1, np.int64), np.zeros(1, np.int64),
                                              np.array([size], np.int64))
        return Columns(values, run_first, run_row, run_length)


def _at_ordinals(values: np.ndarray, at: np.ndarray, size: int) -> np.ndarray:
    """``values`` of the records at ordinals ``at``, placed at their ordinals (0, absent,
    elsewhere)."""
    out = np.zeros(size, values.dtype)
    out[at] = values
    return out


def neighbourhood_table(own: pa.Table, keys: pa.Table, neighbours: dict[str, tuple[str, ...]],
                        arrays: RecordArrays, types: dict[str, pa.DataType]) -> pa.Table:
    """The neighbourhood rows of the records ``own`` (a pass's records, with ``n`` and
    ``ordinal``, in any order): ``own`` with, per neighbour of ``neighbours``, its key column
    and its columns gathered from ``arrays`` (``types``: each value column's Arrow type).

    ``keys`` is the pass's key table (:func:`pipeline.games.features.neighbour_key_table`: n,
    ordinal and each neighbour's key, n non-decreasing, one run of consecutive ordinals per n),
    and holds a row for every record of ``own``.
    """
    gathering = _Gathering(keys, _positions(keys, own), neighbours, types)
    for m in gathering.reached():  # each n' read once, for every neighbour that reaches it
        gathering.gather_from(m, arrays)
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

    def gather_from(self, m: int, arrays: RecordArrays) -> None:
        """The columns of the neighbours in ``m``, read once from ``arrays`` for all of them
        (left NULL where the store holds no record of ``m``)."""
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
        read = arrays.read(m, wanted, [ordinal for _, ordinal in here.values()])
        if read is None:
            return
        for p, (at, ordinal) in here.items():
            rows = rows_at(ordinal, read.run_first, read.run_row, read.run_length)
            for c in self.neighbours[p]:
                if c in LIST_COLUMNS:
                    self.lists[f"{p}_{c}"].take(at, rows, read.values[c][0])
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
    records read, each with the rows of the pass it fills, put in the pass's order at the end;
    a row no piece fills is NULL (its neighbour's record not read)."""

    def __init__(self, kind: pa.DataType) -> None:
        self.kind, self.pieces, self.targets = kind, [], []

    def empty(self, at: np.ndarray) -> None:
        """The rows ``at`` hold the terminal position's empty list."""
        self.pieces.append(pa.array([[]] * len(at), self.kind))
        self.targets.append(at)

    def take(self, at: np.ndarray, rows: np.ndarray, source: pa.Array) -> None:
        """The rows ``at`` hold the lists of ``source`` at ``rows`` (−1: absent, left NULL)."""
        found = rows >= 0
        self.pieces.append(source.take(pa.array(rows[found])))
        self.targets.append(at[found])

    def column(self, size: int) -> pa.Array:
        where = np.full(size, -1, np.int64)
        targets = np.concatenate(self.targets) if self.targets else np.zeros(0, np.int64)
        where[targets] = np.arange(len(targets))
        pieces = pa.concat_arrays(self.pieces) if self.pieces else pa.array([], self.kind)
        return pieces.take(pa.array(where, mask=where < 0))


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
