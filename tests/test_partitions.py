"""The enumeration tree visits exactly the partitions of n, each once, whatever the sharding."""

from __future__ import annotations

import numpy as np
import pytest
import reference
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.partitions import (
    completion_tables,
    enumerate_partitions,
    flatten_prefixes,
    partition_numbers,
    plan_shards,
)

# p(n) from the OEIS (A000041), not from the code under test.
A000041 = [1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42, 56, 77, 101, 135, 176, 231, 297, 385, 490, 627]


def walk(n: int, max_records: int) -> list[tuple[int, ...]]:
    out = []
    for shard in plan_shards(n, max_records):
        values, offsets = flatten_prefixes(shard.prefixes)
        parts = np.zeros(shard.part_values, np.int16)
        offs = np.zeros(shard.records + 1, np.int64)
        got = enumerate_partitions(n, values, offsets, parts, offs)
        assert got == shard.records and offs[-1] == shard.part_values
        out += [tuple(int(x) for x in parts[offs[i]:offs[i + 1]]) for i in range(got)]
    return out


def test_partition_numbers() -> None:
    assert partition_numbers(20) == A000041
    assert partition_numbers(100)[100] == 190569292


@pytest.mark.parametrize("n", range(1, 21))
def test_every_partition_once(n: int) -> None:
    for max_records in (1, 3, 50, 1 << 18):
        seen = walk(n, max_records)
        assert len(seen) == len(set(seen)) == A000041[n]
        assert set(seen) == set(reference.partitions(n))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(21, 45), max_records=st.integers(1, 5000))
def test_shards_cover_exactly(n: int, max_records: int) -> None:
    plan = plan_shards(n, max_records)
    assert all(s.records <= max_records or len(s.prefixes) == 1 for s in plan)
    seen = walk(n, max_records)
    assert len(seen) == len(set(seen)) == partition_numbers(n)[n]
    assert all(sum(p) == n and list(p) == sorted(p, reverse=True) for p in seen)


def test_completion_tables_count_parts_and_largest() -> None:
    n = 12
    tab = completion_tables(n)
    for m in range(n + 1):
        for t in range(1, n + 1):
            parts = [p for p in reference.partitions(m) if all(x >= t for x in p)]
            assert tab.count[m, t] == len(parts)
            assert tab.parts[m, t] == sum(len(p) for p in parts)
            assert tab.largest[m, t] == sum(p[0] for p in parts if p)
