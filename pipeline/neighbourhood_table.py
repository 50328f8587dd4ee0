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
or its value is NULL. Only value columns are gathered (:func:`gatherable`); a pass whose
statements read a neighbour's ``parts`` or ``conjugate`` is joined as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.neighbourhood import EMPTY, VALUE_COLUMNS

#: The bits of a key below the n (``pipeline.games.features.KEY_SHIFT``).
ORDINAL_MASK = (1 << 40) - 1

#: A record's list columns: a pass reads them only when a statement names them (a list costs
#: DuckDB about 400 ns a record to decode).
LIST_COLUMNS = ("parts", "conjugate", "corners", "row_lengths")


def gatherable(neighbours: dict[str, tuple[str, ...]]) -> bool:
    """Whether a pass reading ``neighbours`` (prefix → columns, as
    :func:`pipeline.neighbourhood.neighbours_read` gives them) reads value columns only.

    >>> gatherable({"t": ("sg", "nodes"), "conj": ()}), gatherable({"t": ("parts",)})
    (True, False)
    """
    return all(c in VALUE_COLUMNS for cols in neighbours.values() for c in cols)


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


class RecordArrays:
    """A game's records of one n at a time, as arrays indexed by ordinal: per column its values
    and whether each is present (its record read and its value not NULL).

    ``source(m)``: a query over the game's records that holds every record of n = m (the files
    of m, or the view), or None where the store holds none. ``sizes[m]`` is p(m), the number of
    ordinals of m."""

    def __init__(self, con: duckdb.DuckDBPyConnection, source: Callable[[int], str | None],
                 sizes: np.ndarray) -> None:
        self.con, self.source, self.sizes = con, source, sizes

    def read(self, m: int, columns: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray]] | None:
        """The columns of the records of ``m``: per column (values, present), or None where
        the store holds no record of ``m``. A record at an ordinal outside 0 … p(m) − 1 is
        damage, not data, and raises."""
        query = self.source(m)
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
        # the files of m in order hold its ordinals in order: then the columns are the arrays
        in_order = len(at) == size and (size == 0 or (at[0] == 0 and bool(np.all(np.diff(at) == 1))))
        out = {}
        for c in columns:
            col = table.column(c)
            values = pc.fill_null(col, _empty_value(c)).to_numpy(zero_copy_only=False) if col.null_count \
                else col.to_numpy(zero_copy_only=False)
            present = pc.is_valid(col).to_numpy(zero_copy_only=False) if col.null_count \
                else np.ones(len(at), bool)
            if not in_order:
                values, present = _at_ordinals(values, at, size), _at_ordinals(present, at, size)
            out[c] = values, present
        return out


def _at_ordinals(values: np.ndarray, at: np.ndarray, size: int) -> np.ndarray:
    """``values`` of the records at ordinals ``at``, placed at their ordinals (0 elsewhere)."""
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
    from pipeline.games.features import keys_by_n  # numba: only here

    pos = _positions(keys, own)
    size = len(own)
    gathered: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    buckets = {}
    for p, cols in neighbours.items():
        k = keys.column(f"{p}_key").to_numpy()[pos]
        buckets[p] = k, *keys_by_n(k)
        gathered[f"{p}_key"] = k, np.ones(size, bool)
        for c in cols:
            gathered[f"{p}_{c}"] = np.zeros(size, types[c].to_pandas_dtype()), np.zeros(size, bool)
    reached: set[int] = set()
    for p, (_, order, starts) in buckets.items():
        empty = order[starts[0]:starts[1]]  # the key of () names the terminal position
        for c in neighbours[p]:
            values, present = gathered[f"{p}_{c}"]
            values[empty] = _empty_value(c)
            present[empty] = True
        reached.update(int(m) for m in np.flatnonzero(np.diff(starts)[1:]) + 1)
    for m in sorted(reached):  # each n' read once, for every neighbour that reaches it
        wanted = sorted({c for p, (_, _, starts) in buckets.items()
                         if m + 1 < len(starts) and starts[m + 1] > starts[m] for c in neighbours[p]},
                        key=VALUE_COLUMNS.index)
        read = arrays.read(m, wanted) if wanted else None
        if read is None:
            continue  # no record of m: its neighbours' columns stay NULL
        for p, (k, order, starts) in buckets.items():
            if m + 1 >= len(starts) or starts[m + 1] == starts[m]:
                continue
            at = order[starts[m]:starts[m + 1]]
            ordinal = k[at] & ORDINAL_MASK
            for c in neighbours[p]:
                values, present = gathered[f"{p}_{c}"]
                src_values, src_present = read[c]
                values[at] = src_values[ordinal]
                present[at] = src_present[ordinal]
    out = own
    for name, (values, present) in gathered.items():
        column = name.partition("_")[2] if not name.endswith("_key") else None
        kind = pa.int64() if column is None else types[column]
        out = out.append_column(name, pa.array(values, type=kind, mask=None if present.all() else ~present))
    return out


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
