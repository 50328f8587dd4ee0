"""A kernel's output arrays as Arrow columns: narrowed to the schema's types (a value beyond
one raises), lists from values and offsets, flags packed into bitmaps, counts beyond 2**63 - 1
as NULL (docs/definitions.md §4), and the partition columns one game's table lends the next
(:data:`pipeline.schema.PARTITION_COLUMNS`).

>>> import numpy as np
>>> narrow_array(np.array([3, 1, 4]), np.int16, "a value").type
DataType(int16)
"""

from __future__ import annotations

import numba
import numpy as np
import pyarrow as pa

from pipeline.games.features import shape_columns
from pipeline.games.walk import KernelOutput
from pipeline.memory import pool_array
from pipeline.schema import BOARD_SCHEMA, PARTITION_COLUMNS


@numba.njit(cache=True, nogil=True)
def _narrow(values, out, limit):  # pragma: no cover - compiled
    """Copy ``values`` into the narrower ``out``; False (``out`` unfinished) if one is beyond
    ``limit``. One pass, where Arrow's checked cast and numpy's ``max()`` take two."""
    for i in range(values.shape[0]):
        v = values[i]
        if v > limit:
            return False
        out[i] = v
    return True


def narrow_array(values: np.ndarray, dtype: type, what: str) -> pa.Array:
    """``values`` (non-negative) as an Arrow array of the narrower ``dtype``; a value beyond it
    raises (``what`` names it), instead of wrapping around."""
    out = pool_array(values.shape[0], dtype)
    if not _narrow(values, out, np.iinfo(dtype).max):
        raise RuntimeError(f"{what} beyond the {np.dtype(dtype).name} column")
    return pa.array(out)


def list_array(values: np.ndarray, offsets: np.ndarray, value_type: pa.DataType) -> pa.Array:
    """An Arrow list column from flat values and offsets (no copy of the per-record structure)."""
    return pa.ListArray.from_arrays(narrow_array(offsets, np.int32, "a list offset"),
                                    pa.array(values, type=value_type))


@numba.njit(cache=True, nogil=True)
def _any_negative(values):  # pragma: no cover - compiled
    for i in range(values.shape[0]):
        if values[i] < 0:
            return True
    return False


def nullable_count(values: np.ndarray) -> pa.Array:
    """Game-tree counts: negative marks a value beyond 2**63 - 1, stored as NULL (docs/definitions.md §4).
    Without one (nearly every shard) the array is the kernel's memory, with no null mask made."""
    if not _any_negative(values):
        return pa.array(values, type=pa.int64())
    return pa.array(values, type=pa.int64(), mask=values < 0)


@numba.njit(cache=True, nogil=True)
def _pack_bits(flags, out):  # pragma: no cover - compiled
    """Each row of ``flags`` (0 or 1 per record) as a little-endian bitmap, a row of ``out``."""
    records = flags.shape[1]
    for f in range(flags.shape[0]):
        for b in range(out.shape[1]):
            byte = 0
            for k in range(min(8, records - 8 * b)):
                byte |= np.int64(flags[f, 8 * b + k] != 0) << k
            out[f, b] = byte


def flag_arrays(flags: np.ndarray) -> list[pa.Array]:
    """The rows of a kernel's flags (one per CGH flag, a bool per record) as Arrow boolean
    arrays, packed into bitmaps here (Arrow's conversion of numpy booleans costs about 1 % of a
    run's CPU, perf)."""
    records = flags.shape[1]
    bitmaps = pool_array((records + 7) // 8, np.uint8, rows=flags.shape[0])
    _pack_bits(flags, bitmaps)
    return [pa.Array.from_buffers(pa.bool_(), records, [None, pa.py_buffer(row)]) for row in bitmaps]


def value_columns(n: int, out: KernelOutput) -> list[pa.Array]:
    """The solved values of a kernel's outputs as Arrow arrays, in the order of the schemas
    (:data:`pipeline.schema.COMMON_FIELDS` after ``parts``): sg, sg_misere, nodes, leaves,
    states, height and the six CGH flags. ``out``: any outputs with those fields (a board game's
    :class:`~pipeline.games.walk.KernelOutput`, d-dimensional LCTR's, the generic solver's)."""
    return [
        narrow_array(out.sg, np.int16, f"n={n}: a Sprague-Grundy value"),
        narrow_array(out.sg_misere, np.int16, f"n={n}: a misère Sprague-Grundy value"),
        nullable_count(out.nodes),
        nullable_count(out.leaves),
        pa.array(out.states),
        narrow_array(out.height, np.int32, f"n={n}: a longest play"),
        *flag_arrays(out.flags),
    ]


def shape_arrays(n: int, parts: np.ndarray, parts_offsets: np.ndarray,
                 consecutive: bool = False, distinct: np.ndarray | None = None) -> dict[str, pa.Array]:
    """The ``shape`` and ``ordinal`` columns of the partitions of ``n`` whose parts are
    ``parts`` (values) and ``parts_offsets`` (:func:`pipeline.games.features.shape_columns`;
    ``consecutive``: a walk kernel's shard, every partition between its first and last;
    ``distinct``: the records' numbers of distinct parts, where the kernel gave them)."""
    shape, ordinal = shape_columns(n, parts, parts_offsets, consecutive, distinct)
    records = len(parts_offsets) - 1
    return {"shape": pa.array(shape),
            "ordinal": pa.array(ordinal) if ordinal is not None else pa.nulls(records, pa.int64())}


def common_columns(n: int, out: KernelOutput,
                   partition_columns: dict[str, pa.Array] | None = None,
                   walk_order: bool = False) -> list[pa.Array]:
    """The columns of :data:`pipeline.schema.COMMON_FIELDS` from a kernel's outputs (the fields
    of :class:`~pipeline.games.walk.KernelOutput`, which a family's own outputs may extend).

    With ``partition_columns`` (the :data:`~pipeline.schema.PARTITION_COLUMNS` of another game's
    table of the same positions), those columns are taken from it and the kernel's feature
    outputs are not read. ``walk_order``: the records are a walk kernel's shard, consecutive
    partitions of n in the walk's order (their ordinals count up by one).
    """
    parts, parts_off, conj, conj_off, distinct = (out.parts, out.parts_offsets, out.conjugate,
                                                  out.conjugate_offsets, out.distinct_sizes)
    records = out.sg.shape[0]
    values = value_columns(n, out)
    if partition_columns is None:
        partition_columns = {
            "n": pa.array(np.full(records, n, np.int16)),
            "parts": list_array(parts[: parts_off[-1]], parts_off, pa.int16()),
            "num_parts": pa.array(out.num_parts),
            "largest": pa.array(out.largest),
            "durfee": pa.array(out.durfee),
            "rank": pa.array(out.rank),
            "distinct_sizes": pa.array(distinct),
            "conjugate": list_array(conj[: conj_off[-1]], conj_off, pa.int16()),
            **shape_arrays(n, parts, parts_off, walk_order, distinct),
        }
    elif len(partition_columns["n"]) != records:
        raise RuntimeError(f"n={n}: {records} records, but {len(partition_columns['n'])} "
                           "in the partition columns passed in")
    p = partition_columns
    return [
        p["n"],
        p["parts"],
        *values,
        p["num_parts"],
        p["largest"],
        p["durfee"],
        p["rank"],
        p["distinct_sizes"],
        p["conjugate"],
        p["shape"],
        p["ordinal"],
    ]


def partition_columns(table: pa.Table) -> dict[str, pa.Array]:
    """The :data:`~pipeline.schema.PARTITION_COLUMNS` of a solved table, as its own arrays (no
    copy), for another game's table of the same positions (see :func:`common_columns`)."""
    columns = {}
    for name in PARTITION_COLUMNS:
        column = table.column(name)
        columns[name] = column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
    return columns


def board_table(n: int, out: KernelOutput,
                partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
    """A walk kernel's output arrays (:mod:`pipeline.games.moveset`,
    :mod:`pipeline.games.lctr_downright_pair`: consecutive partitions of n in the walk's order) as a
    table with :data:`BOARD_SCHEMA` (see :func:`common_columns` for ``partition_columns``)."""
    return pa.Table.from_arrays(common_columns(n, out, partition_columns, walk_order=True),
                                schema=BOARD_SCHEMA)
