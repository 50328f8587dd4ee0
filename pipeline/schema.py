"""The record contract (docs/definitions.md §6): one Parquet row per (game, start position).

Every column is listed here once; the kernels fill numpy arrays with these names and
:func:`pipeline.storage` turns them into Arrow tables with exactly this schema.

``nodes`` and ``leaves`` are exact; a value beyond 2**63 - 1 is NULL (docs/definitions.md §4).
"""

from __future__ import annotations

import pyarrow as pa

#: The board games of the papers (docs/definitions.md §2.1–2.2), whose records have :data:`BOARD_SCHEMA`, in
#: the order runs and reports list them: the ids of ``pipeline.games.moveset.BUILTIN``. Here, not
#: there, so that reading a store (``sql``, ``verify``) needs no game module and no numba.
BOARD_GAMES: tuple[str, ...] = ("lctr", "downright", "pawn", "pawn_t", "knight", "bishop", "king",
                                "rook", "queen")

#: Columns shared by every game.
COMMON_FIELDS: list[pa.Field] = [
    pa.field("n", pa.int16(), nullable=False),
    pa.field("parts", pa.list_(pa.int16()), nullable=False),
    pa.field("sg", pa.int16(), nullable=False),
    pa.field("sg_misere", pa.int16(), nullable=False),
    pa.field("nodes", pa.int64(), nullable=True),
    pa.field("leaves", pa.int64(), nullable=True),
    pa.field("states", pa.int64(), nullable=False),
    pa.field("height", pa.int32(), nullable=False),
    pa.field("domestic", pa.bool_(), nullable=False),
    pa.field("tame", pa.bool_(), nullable=False),
    pa.field("pet", pa.bool_(), nullable=False),
    pa.field("miserable", pa.bool_(), nullable=False),
    pa.field("forced", pa.bool_(), nullable=False),
    pa.field("returnable", pa.bool_(), nullable=False),
    # Features for SQL mining (docs/definitions.md §1).
    pa.field("num_parts", pa.int16(), nullable=False),  # r
    pa.field("largest", pa.int16(), nullable=False),  # λ1
    pa.field("durfee", pa.int16(), nullable=False),  # max{ℓ : λℓ ≥ ℓ}
    pa.field("rank", pa.int16(), nullable=False),  # λ1 − r (signed)
    pa.field("distinct_sizes", pa.int16(), nullable=False),  # = number of corners
    pa.field("conjugate", pa.list_(pa.int16()), nullable=False),
]

#: Extra columns of Slow SetNim records (docs/definitions.md §2.3, §6).
SLOWNIM_FIELDS: list[pa.Field] = [
    pa.field("stacks", pa.int16(), nullable=False),  # s
    pa.field("moves", pa.list_(pa.int16()), nullable=False),  # A, increasing
    pa.field("reduced", pa.bool_(), nullable=False),  # min(A) * max <= total
    pa.field("reduced_parts", pa.list_(pa.int16()), nullable=False),  # NIRB reduced form
    pa.field("odd_stacks", pa.int16(), nullable=False),  # odd stacks of the reduced form
    pa.field("sum_mod", pa.int16(), nullable=False),  # Σ(reduced) mod 2·min(A)
]

#: The columns that depend on the start position only, not on the game (n, parts and the docs/definitions.md
#: §1 features). Games that solve the same positions in the same order (``Game.record_order``)
#: share them in a run: the shard's first game computes them, the others borrow its arrays, and
#: the writer compresses them once (:class:`pipeline.parquet.ChunkReuse`).
PARTITION_COLUMNS = ("n", "parts", "num_parts", "largest", "durfee", "rank", "distinct_sizes",
                     "conjugate")

BOARD_SCHEMA = pa.schema(COMMON_FIELDS)
SLOWNIM_SCHEMA = pa.schema(COMMON_FIELDS + SLOWNIM_FIELDS)

FLAG_NAMES = ("domestic", "tame", "pet", "miserable", "forced", "returnable")
