"""What the run machinery needs from a game family (CGSuite-style: rules apart from solving).

A game cuts the start positions of total n into shards and solves one shard into an Arrow table
with its schema. The runner (:mod:`pipeline.runner`) schedules shards over processes and the
store (:mod:`pipeline.storage`) writes them; neither knows any rule of any game.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import pyarrow as pa


class Game(Protocol):
    game_id: str
    schema: pa.Schema
    #: Shards of one n may run in different processes at once.
    parallel: bool

    def positions(self, n: int) -> int:
        """Number of start positions (records) of total n."""
        ...

    def shard_count(self, n: int, max_records: int) -> int: ...

    def solve_shard(self, n: int, shard: int, max_records: int) -> pa.Table:
        """The records of shard ``shard`` of total n, in a fixed order."""
        ...


def list_array(values: np.ndarray, offsets: np.ndarray, value_type: pa.DataType) -> pa.Array:
    """An Arrow list column from flat values and offsets (no copy of the per-record structure)."""
    return pa.ListArray.from_arrays(
        pa.array(offsets.astype(np.int32, copy=False)), pa.array(values, type=value_type)
    )


def nullable_count(values: np.ndarray) -> pa.Array:
    """Game-tree counts: negative marks a value beyond 2**63 - 1, stored as NULL (SPEC §4)."""
    return pa.array(values, type=pa.int64(), mask=values < 0)
