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
    (sg, sgm, nodes, leaves, states, height, flags, parts, parts_off, conj, conj_off,
     num_parts, largest, durfee, rank, distinct) = (
        out.sg, out.sg_misere, out.nodes, out.leaves, out.states, out.height, out.flags, out.parts,
        out.parts_offsets, out.conjugate, out.conjugate_offsets, out.num_parts, out.largest,
        out.durfee, out.rank, out.distinct_sizes)
    records = sg.shape[0]
    sg_column = narrow_array(sg, np.int16, f"n={n}: a Sprague-Grundy value")
    sgm_column = narrow_array(sgm, np.int16, f"n={n}: a misère Sprague-Grundy value")
    if partition_columns is None:
        partition_columns = {
            "n": pa.array(np.full(records, n, np.int16)),
            "parts": list_array(parts[: parts_off[-1]], parts_off, pa.int16()),
            "num_parts": pa.array(num_parts),
            "largest": pa.array(largest),
            "durfee": pa.array(durfee),
            "rank": pa.array(rank),
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
        sg_column,
        sgm_column,
        nullable_count(nodes),
        nullable_count(leaves),
        pa.array(states),
        narrow_array(height, np.int32, f"n={n}: a longest play"),
        *flag_arrays(flags),
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
