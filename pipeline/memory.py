"""Uninitialised arrays from Arrow's memory pool, for the kernels' outputs and the writer's pages.

A large numpy array is fresh pages from the OS every time (mmap), and touching them first costs
page faults on every record (docs/performance.md). Arrow's pool (the run's:
:func:`pipeline.runner.use_run_allocators`) keeps freed memory for the next shard, and Arrow
columns made from these arrays are views of the same memory.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

#: A byte that every new :func:`pool_array` is filled with, or None (a run: no fill). The tests set
#: it (tests/conftest.py): the pool hands back memory that held an earlier shard's values, so a
#: kernel that left an output slot unwritten could pass a comparison by luck, and did (a planted
#: unwritten conjugate entry got through the reference comparison).
POISON_BYTE: int | None = None


def pool_array(count: int, dtype: type | np.dtype, rows: int = 0) -> np.ndarray:
    """An uninitialised array (``count`` values, or ``rows`` × ``count``) in Arrow's memory pool;
    whoever asks for it writes every slot it reads back.

    >>> a = pool_array(3, np.int16)
    >>> a[:] = 7
    >>> a.tolist(), pool_array(2, np.uint8, rows=3).shape
    ([7, 7, 7], (3, 2))
    """
    dt = np.dtype(dtype)
    total = count * max(rows, 1)
    values = np.frombuffer(pa.allocate_buffer(max(total, 1) * dt.itemsize), dtype=dt, count=total)
    if POISON_BYTE is not None:
        values.view(np.uint8)[:] = POISON_BYTE
    return values.reshape(rows, count) if rows else values
