"""What the run machinery needs from a game family (CGSuite-style: rules apart from solving).

A game cuts the start positions of total n into shards and solves one shard into an Arrow table
with its schema. The runner (:mod:`pipeline.runner`) schedules shards over solver threads and the
store (:mod:`pipeline.storage`) writes them; neither knows any rule of any game.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import pyarrow as pa

from pipeline.schema import PARTITION_COLUMNS


class Game(Protocol):
    game_id: str
    schema: pa.Schema
    #: Shards of one n may be solved by different threads at once (False: one thread solves the
    #: chain of totals in increasing n, one such chain at a time).
    parallel: bool

    def positions(self, n: int) -> int:
        """Number of start positions (records) of total n."""
        ...

    def shard_count(self, n: int, max_records: int) -> int: ...

    def solve_shard(self, n: int, shard: int, max_records: int) -> pa.Table:
        """The records of shard ``shard`` of total n, in a fixed order."""
        ...

    # Optional: ``record_order``, a name shared by the games whose shards of (n, max_records)
    # hold the same start positions in the same order (the board games: "partitions"). The
    # runner solves such a shard for all of them in turn and passes the first one's
    # :data:`pipeline.schema.PARTITION_COLUMNS` to the others as
    # ``solve_shard(..., partition_columns=...)``, which then skip computing them.

    # Optional, with ``record_order``: ``partner_in(games)``, a game among ``games`` that this one
    # solves in the same kernel call, and ``solve_shard_with(partner, n, shard, max_records,
    # partition_columns=None)`` returning (this game's table, the partner's), each exactly its
    # ``solve_shard``. The runner asks a shard's first unsolved game for a partner among the
    # games after it (LCTR and Downright: pipeline/games/topleft_pair.py).

    # Optional: ``reserve(n)``, called before a thread solves a chain of shards whose largest
    # total is n, so that a game that keeps state across totals (Slow SetNim) allocates it once.


def pool_array(count: int, dtype: type | np.dtype, rows: int = 0) -> np.ndarray:
    """An uninitialised array (``count`` values, or ``rows`` × ``count``) in Arrow's memory pool,
    for a kernel's output columns, which the kernel writes in full.

    A large numpy array is fresh pages from the OS every time (mmap), and touching them first
    cost about 50 ns per record at n = 72, 8–10 % of the moveset kernel (page faults; measured with
    `benchmarks/`). Arrow's pool keeps freed memory for the next shard, and the Arrow columns
    made from these arrays are views of the same memory.
    """
    dt = np.dtype(dtype)
    total = count * max(rows, 1)
    values = np.frombuffer(pa.allocate_buffer(max(total, 1) * dt.itemsize), dtype=dt, count=total)
    return values.reshape(rows, count) if rows else values


def list_array(values: np.ndarray, offsets: np.ndarray, value_type: pa.DataType) -> pa.Array:
    """An Arrow list column from flat values and offsets (no copy of the per-record structure)."""
    return pa.ListArray.from_arrays(pa.array(offsets).cast(pa.int32()), pa.array(values, type=value_type))


def nullable_count(values: np.ndarray) -> pa.Array:
    """Game-tree counts: negative marks a value beyond 2**63 - 1, stored as NULL (SPEC §4)."""
    return pa.array(values, type=pa.int64(), mask=values < 0)


def common_columns(n: int, out: tuple[np.ndarray, ...],
                   partition_columns: dict[str, pa.Array] | None = None) -> list[pa.Array]:
    """The columns of :data:`pipeline.schema.COMMON_FIELDS` from a kernel's first 16 outputs:
    sg, sg_misere, nodes, leaves, states, height, flags (6 × records), parts values and offsets,
    conjugate values and offsets, num_parts, largest, durfee, rank, distinct_sizes.

    With ``partition_columns`` (the :data:`~pipeline.schema.PARTITION_COLUMNS` of another game's
    table of the same positions), those columns are taken from it and the kernel's feature
    outputs are not read.
    """
    (sg, sgm, nodes, leaves, states, height, flags, parts, parts_off, conj, conj_off,
     num_parts, largest, durfee, rank, distinct) = out[:16]
    records = sg.shape[0]
    if records and (sg.max() > 32767 or sgm.max() > 32767):
        raise RuntimeError(f"n={n}: a Sprague-Grundy value beyond the int16 column")
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
        }
    elif len(partition_columns["n"]) != records:
        raise RuntimeError(f"n={n}: {records} records, but {len(partition_columns['n'])} "
                           "in the partition columns passed in")
    p = partition_columns
    return [
        p["n"],
        p["parts"],
        pa.array(sg).cast(pa.int16()),  # Arrow's casts allocate from its pool, and check the range
        pa.array(sgm).cast(pa.int16()),
        nullable_count(nodes),
        nullable_count(leaves),
        pa.array(states),
        pa.array(height).cast(pa.int32()),
        *(pa.array(flags[f]) for f in range(6)),
        p["num_parts"],
        p["largest"],
        p["durfee"],
        p["rank"],
        p["distinct_sizes"],
        p["conjugate"],
    ]


def partition_columns(table: pa.Table) -> dict[str, pa.Array]:
    """The :data:`~pipeline.schema.PARTITION_COLUMNS` of a solved table, as its own arrays (no
    copy), for another game's table of the same positions (see :func:`common_columns`)."""
    columns = {}
    for name in PARTITION_COLUMNS:
        column = table.column(name)
        columns[name] = column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()
    return columns
