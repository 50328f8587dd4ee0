"""The walk helpers every board-game kernel uses (:mod:`pipeline.games.moveset`,
:mod:`pipeline.games.lctr_downright`, :mod:`pipeline.games.lctr_downright_pair`,
:mod:`pipeline.games.nonrepetitive`): the interning of sub-partitions that counts ``states``
(docs/definitions.md §4), the walk's steps over a shard's prefixes and the per-row bookkeeping of
the walk of :mod:`pipeline.partitions`, the record features (docs/definitions.md §1), the walk's
working arrays and the kernels' output arrays, and their games' shards
(:class:`PartitionWalkGame`); and the record features of a partition given whole
(:func:`write_features`), for the kernels that do not walk (Slow SetNim, the single-partition
solver).

The kernels walk the partitions of n bottom row first (:func:`pipeline.partitions.walk_next`):
for each prefix of the shard (:func:`enter_prefix`), the rows it does not share with the rows
kept are placed (:func:`place_row`) and solved, then its subtree is walked
(:func:`start_subtree`): a PUSH solves a new row above the ones kept (:func:`pushed_row`), a POP
drops the top row and undoes what it interned (:func:`pop_row`), an EMIT writes the record of
the partition the rows form.

>>> out = empty_outputs(3, 6, 3)
>>> out.sg.shape, out.parts.shape, out.parts_offsets.shape   # parts with FEATURE_BLOCK to spare
((3,), (22,), (4,))
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from pipeline.games.base import Game
from pipeline.memory import pool_array
from pipeline.partitions import (
    Shard,
    flatten_prefixes,
    partition_numbers,
    place_walk_row,
    plan_shards,
    shared_depth,
    start_walk,
)


@numba.njit(cache=True, inline="always")
def intern(length, child, index, entries):  # pragma: no cover
    """Id (≥ 1) of the sub-partition with top row ``length`` above sub-partition ``child``.

    Returns (id, is_new). ``index[child, length]`` is the id, or 0 if absent: a direct table,
    since ids stay small (entries live on a stack that holds at most one entry per cell of the
    current diagram, so at most n) and a lookup is then one load, with no hashing or chain walk
    (docs/performance.md, "Tried and not kept"). ``index[-1, 0]`` is the stack height,
    ``entries[:, e]`` = (top row length, child id); the walk undoes entries in LIFO order (see
    undo_entries).
    """
    # Unsigned indices: numba adds no negative-index fix-up (ids and lengths are ≥ 0).
    ident = index[np.uint64(child), np.uint64(length)]
    if ident != 0:
        return np.int64(ident), False
    e = np.int64(index[-1, 0])
    entries[0, e] = length
    entries[1, e] = child
    index[np.uint64(child), np.uint64(length)] = e + 1
    index[-1, 0] = e + 1
    return e + 1, True


@numba.njit(cache=True, _nrt=False)
def undo_entries(down_to, index, entries):  # pragma: no cover
    """Remove the entries above ``down_to`` (the rows the walk popped)."""
    e = np.int64(index[-1, 0])
    while e > down_to:
        e -= 1
        index[entries[1, e], entries[0, e]] = 0
    index[-1, 0] = e


@numba.njit(cache=True, inline="always")
def enter_prefix(q, prefix_values, prefix_offsets, walk):  # pragma: no cover
    """Start prefix q of a shard (``prefix_values[prefix_offsets[q]:prefix_offsets[q + 1]]``,
    rows bottom first) from the rows the walk holds (``walk``: a :class:`WalkArrays`): the rows
    it shares with them stay, the ones above are dropped and what they interned is undone.
    Returns (first, common, base): the kernel solves rows common … base − 1, row k of value
    ``prefix_values[first + k]`` placed by :func:`place_row`, then walks the subtree from
    ``rows[:base]`` (:func:`start_subtree`)."""
    first, end = prefix_offsets[q], prefix_offsets[q + 1]
    common = shared_depth(walk.rows, walk.st[0], prefix_values, first, end)
    if common < walk.st[0]:
        undo_entries(walk.entries_below[common], walk.index, walk.entries)
    return first, common, end - first


@numba.njit(cache=True, inline="always")
def place_row(k, value, walk):  # pragma: no cover
    """Row k of a prefix (:func:`enter_prefix`) placed in the walk's rows, before it is solved."""
    place_walk_row(k, value, walk.rows, walk.sums)
    walk.entries_below[k] = walk.index[-1, 0]


@numba.njit(cache=True, inline="always")
def start_subtree(base, walk):  # pragma: no cover
    """The walk's state at the prefix ``rows[:base]`` (:func:`pipeline.partitions.start_walk`)."""
    start_walk(base, walk.rows, walk.nxt, walk.st)


# pop_row and pushed_row run at every step of the walk: they take the walk's arrays, not the
# WalkArrays, whose fields read at every step make the kernels compiled with reference counting
# (the general moveset kernel) measurably slower (benchmarks/kernels_ab.py).
@numba.njit(cache=True, inline="always")
def pop_row(st, index, entries, entries_below):  # pragma: no cover
    """After a POP: undo what the popped row interned (a row that completes a partition interns
    nothing, so the call is skipped then). The arrays are the :class:`WalkArrays`' of those names."""
    if index[-1, 0] > entries_below[st[0]]:
        undo_entries(entries_below[st[0]], index, entries)


@numba.njit(cache=True, inline="always")
def pushed_row(st, index, entries_below):  # pragma: no cover
    """After a PUSH: the index k of the row pushed (``rows[k]``), the interning stack's height
    before it recorded (what a POP of it undoes down to)."""
    k = st[0] - 1
    entries_below[k] = index[-1, 0]
    return k


#: The record features are written in blocks of this many entries: a loop whose trip count is a
#: multiple of the vector width has no scalar remainder, and its exit is mispredicted less often
#: (docs/performance.md, "Measurements behind the code"). A row or a record may so
#: write up to FEATURE_BLOCK - 1 entries past its end: ``conj_rows``, ``parts_rev`` and the parts
#: and conjugate outputs (:func:`empty_outputs`) have that much room to spare, what lands past
#: a record is overwritten by the next one, and :func:`clear_feature_slack` clears it after the last.
FEATURE_BLOCK = 16


@numba.njit(cache=True, inline="always")
def _blocks(count):  # pragma: no cover
    """``count`` rounded up to whole feature blocks (unsigned: see emit_features)."""
    return (np.uint64(count) + np.uint64(FEATURE_BLOCK - 1)) & ~np.uint64(FEATURE_BLOCK - 1)


@numba.njit(cache=True, inline="always")
def clear_feature_slack(out, records):  # pragma: no cover
    """Zero what the last record's blocks left past the parts and conjugate values of ``out``
    (a :class:`KernelOutput`), so that a shard's output arrays are a function of
    the shard alone."""
    for i in range(out.parts_offsets[records], out.parts.shape[0]):
        out.parts[i] = 0
    for i in range(out.conjugate_offsets[records], out.conjugate.shape[0]):
        out.conjugate[i] = 0


@numba.njit(cache=True, inline="always")
def push_features(k, rows, conj_rows, sizes_below, parts_rev, completes):  # pragma: no cover
    """Per-row bookkeeping of the record features when row k is pushed, O(rows[k]).

    ``conj_rows[k, :rows[k]]`` is the conjugate of rows[:k+1]: the new row is the longest, so
    it adds one to every column c < rows[k] (columns ≥ rows[k-1] were empty below it). A row
    that ``completes`` a partition skips it: nothing is pushed above that row, and its record's
    conjugate is written straight from the row below (:func:`emit_features`), which saves
    storing a row and reading it back.
    ``sizes_below[k+1]`` counts the distinct part sizes of rows[:k+1]. ``parts_rev`` holds row
    k at ``end - 1 - k`` (``end``: its length less FEATURE_BLOCK), so the parts of rows[:k+1],
    largest first, are the k + 1 entries before ``end``. Loops run in whole FEATURE_BLOCKs.
    An emitted record then copies its parts and conjugate (contiguous runs) and reads its number
    of sizes instead of looping over its rows with a data-dependent branch per column.
    """
    u = np.uint64  # unsigned indices: no negative-index fix-ups, vector loops (see emit_features)
    uk = u(k)
    below = rows[k - 1] if k > 0 else 0
    if not completes:
        if k > 0:
            prev = u(k - 1)
            for c in range(_blocks(below)):
                conj_rows[uk, c] = conj_rows[prev, c] + 1
        for c in range(u(below), u(below) + _blocks(rows[k] - below)):  # over the junk past below
            conj_rows[uk, c] = 1
    sizes_below[k + 1] = sizes_below[k] + (1 if rows[k] != below else 0)
    parts_rev[parts_rev.shape[0] - FEATURE_BLOCK - 1 - k] = rows[k]


@numba.njit(cache=True, inline="always")
def push_row(
    k, new_ids, rows, distinct_below, gap_below, features, conj_rows, sizes_below, parts_rev,
    completes,
):  # pragma: no cover
    """Bookkeeping of the board-game kernels once row k is solved: ``distinct_below[k+1]`` counts
    the distinct sub-partitions with two or more rows of rows[:k+1] (``new_ids`` of them in row
    k), ``gap_below[k+1]`` is the largest gap rows[i] - rows[i-1] (the one-row ones are exactly
    (1), …, (gap)), and, if the kernel writes them, the record features (:func:`push_features`;
    ``completes``: row k completes a partition, no row will be pushed above it)."""
    below = rows[k - 1] if k > 0 else 0
    distinct_below[k + 1] = distinct_below[k] + new_ids
    gap_below[k + 1] = max(gap_below[k], rows[k] - below)
    if features:
        push_features(k, rows, conj_rows, sizes_below, parts_rev, completes)


@numba.njit(cache=True, inline="always")
def emit_features(rec, depth, rows, conj_rows, sizes_below, parts_rev, ppos, cpos, out):  # pragma: no cover
    """Write the features (docs/definitions.md §1) of the partition rows[:depth] as record ``rec``
    of ``out`` (a :class:`KernelOutput`).

    Returns the new write positions in the parts and conjugate values.
    """
    # Unsigned indices throughout: numba adds no negative-index fix-up, so the two copies below
    # are plain vector copies (docs/performance.md, "Measurements behind the code").
    u = np.uint64
    kt = u(depth - 1)
    first = u(parts_rev.shape[0] - FEATURE_BLOCK - depth)
    dst = u(ppos)
    for i in range(_blocks(depth)):  # loops, not slices: a slice is a reference-counted view
        out.parts[dst + i] = parts_rev[first + i]
    ppos += depth
    r = u(rec)
    out.parts_offsets[r + u(1)] = ppos
    largest = rows[kt]
    # The conjugate, from the row below's as push_features builds a row's (whether or not it
    # built row kt's, see its ``completes``): one more in each column below, then 1s.
    dst = u(cpos)
    below = rows[kt - u(1)] if depth > 1 else 0
    if depth > 1:
        kb = kt - u(1)
        for c in range(_blocks(below)):
            out.conjugate[dst + c] = conj_rows[kb, c] + 1
    for c in range(u(below), u(below) + _blocks(largest - below)):  # over the junk past below
        out.conjugate[dst + c] = 1
    cpos += largest
    out.conjugate_offsets[r + u(1)] = cpos
    # The parts, largest first, are parts_rev's ``depth`` entries before its slack (see push_features).
    durfee = durfee_size(parts_rev, parts_rev.shape[0] - FEATURE_BLOCK - depth, depth)
    write_shape(out, r, depth, largest, durfee, sizes_below[u(depth)])
    return ppos, cpos


@numba.njit(cache=True, inline="always")
def durfee_size(parts, first, depth):  # pragma: no cover
    """The side of the Durfee square of the partition ``parts[first:first + depth]`` (largest
    part first): the largest d with d parts ≥ d (docs/definitions.md §1)."""
    durfee = 0
    while durfee < depth and parts[first + durfee] >= durfee + 1:
        durfee += 1
    return durfee


@numba.njit(cache=True, inline="always")
def write_shape(out, r, depth, largest, durfee, distinct):  # pragma: no cover
    """The scalar features of record ``r`` of ``out`` (a :class:`KernelOutput`): ``num_parts``,
    ``largest``, ``durfee``, ``rank`` (largest − num_parts) and ``distinct_sizes``
    (docs/definitions.md §1)."""
    out.num_parts[r] = depth
    out.largest[r] = largest
    out.durfee[r] = durfee
    out.rank[r] = largest - depth
    out.distinct_sizes[r] = distinct


@numba.njit(cache=True, inline="always")
def write_features(rec, parts, depth, ppos, cpos, out):  # pragma: no cover
    """Write the features (docs/definitions.md §1) of the partition ``parts[:depth]`` (largest
    part first, every part positive) as record ``rec`` of ``out`` (a :class:`KernelOutput`),
    its parts at ``ppos`` and its conjugate at ``cpos``; returns the new ``ppos``, ``cpos``.

    The features for a kernel that reaches its positions one by one (Slow SetNim, the
    single-partition solver); the walk kernels build them row by row (:func:`emit_features`).
    """
    for i in range(depth):
        out.parts[ppos + i] = parts[i]
    ppos += depth
    out.parts_offsets[rec + 1] = ppos
    largest = parts[0]
    # The conjugate's part c counts the parts > c: as c grows, the count only drops.
    count = depth
    for c in range(largest):
        while count > 0 and parts[count - 1] <= c:
            count -= 1
        out.conjugate[cpos + c] = count
    cpos += largest
    out.conjugate_offsets[rec + 1] = cpos
    distinct = 0
    for i in range(depth):
        if i == 0 or parts[i] != parts[i - 1]:
            distinct += 1
    write_shape(out, rec, depth, largest, durfee_size(parts, 0, depth), distinct)
    return ppos, cpos


class WalkArrays(NamedTuple):
    """The walk's working arrays (:func:`walk_arrays`), read by name."""

    index: np.ndarray  # index[child, length]: the interned id (see intern); [-1, 0] stack height
    entries: np.ndarray  # the interning stack (see intern)
    rows: np.ndarray  # the diagram's rows, bottom first
    sums: np.ndarray  # sums[k] = rows[0] + … + rows[k-1]
    nxt: np.ndarray  # the walk's state (pipeline.partitions.walk_next)
    st: np.ndarray
    distinct_below: np.ndarray  # see push_row
    gap_below: np.ndarray
    entries_below: np.ndarray  # the interning stack's height before row k
    conj_rows: np.ndarray  # see push_features
    sizes_below: np.ndarray
    parts_rev: np.ndarray


# inline: a kernel that allocates the arrays in its own body (the general moveset kernel) lets
# LLVM know them for fresh allocations that alias nothing; from a call, the general kernel is
# measurably slower (benchmarks/kernels_ab.py).
@numba.njit(cache=True, inline="always")
def walk_arrays(size):  # pragma: no cover
    """The walk's working arrays for diagrams of up to ``size`` - 2 rows and columns, as a
    :class:`WalkArrays`: the interning table of sub-partitions and its entry stack (see
    :func:`intern`), the rows and their sums, the walk's state
    (:func:`pipeline.partitions.walk_next`), and the per-row bookkeeping of ``push_row``.
    Every board-game kernel's."""
    ids = 2 * size + 1
    return WalkArrays(
        np.zeros((ids + 1, size), dtype=np.int32),  # index
        np.zeros((2, size), dtype=np.int64),  # entries
        np.zeros(size, dtype=np.int64),  # rows
        np.zeros(size, dtype=np.int64),  # sums
        np.zeros(size, dtype=np.int64),  # nxt
        np.zeros(3, dtype=np.int64),  # st
        np.zeros(size, dtype=np.int64),  # distinct_below
        np.zeros(size, dtype=np.int64),  # gap_below
        np.zeros(size, dtype=np.int64),  # entries_below
        np.zeros((size, size + FEATURE_BLOCK), dtype=np.int16),  # conj_rows
        np.zeros(size, dtype=np.int64),  # sizes_below
        np.zeros(size + FEATURE_BLOCK, dtype=np.int16),  # parts_rev
    )


class KernelOutput(NamedTuple):
    """A board-game kernel's output arrays, one entry per record (the offsets: one more). The
    columns of :data:`pipeline.schema.COMMON_FIELDS` before they are Arrow arrays
    (:func:`pipeline.games.columns.common_columns`)."""

    sg: np.ndarray
    sg_misere: np.ndarray
    nodes: np.ndarray  # negative: beyond 2**63 - 1 (stored as NULL)
    leaves: np.ndarray
    states: np.ndarray
    height: np.ndarray
    flags: np.ndarray  # one row per CGH flag, pipeline.schema.FLAG_NAMES order
    parts: np.ndarray  # the parts of every record, one after the other
    parts_offsets: np.ndarray
    conjugate: np.ndarray
    conjugate_offsets: np.ndarray
    num_parts: np.ndarray
    largest: np.ndarray
    durfee: np.ndarray
    rank: np.ndarray
    distinct_sizes: np.ndarray


def empty_outputs(records: int, part_values: int, largest_values: int,
                  features: bool = True) -> KernelOutput:
    """The kernels' output arrays, uninitialised (from :func:`pipeline.memory.pool_array`: a
    kernel writes every entry it is read at); the features' (parts … distinct_sizes) empty unless
    ``features``, and the parts and conjugate values with FEATURE_BLOCK entries to spare (the
    kernels write them in blocks; the values end at the last offset)."""
    i64 = np.int64
    if not features:
        records_f = part_values = largest_values = 0
        offsets = 0
    else:
        records_f, offsets = records, records + 1
        part_values += FEATURE_BLOCK
        largest_values += FEATURE_BLOCK
    return KernelOutput(
        sg=pool_array(records, i64), sg_misere=pool_array(records, i64),
        nodes=pool_array(records, i64), leaves=pool_array(records, i64),
        states=pool_array(records, i64), height=pool_array(records, i64),
        flags=pool_array(records, np.bool_, rows=6),  # one row per flag
        parts=pool_array(part_values, np.int16), parts_offsets=pool_array(offsets, i64),
        conjugate=pool_array(largest_values, np.int16), conjugate_offsets=pool_array(offsets, i64),
        num_parts=pool_array(records_f, np.int16), largest=pool_array(records_f, np.int16),
        durfee=pool_array(records_f, np.int16), rank=pool_array(records_f, np.int16),
        distinct_sizes=pool_array(records_f, np.int16),
    )


class PartitionWalkGame(Game):
    """A game whose kernel walks the partitions of n (:mod:`pipeline.partitions`): the moveset
    games and the non-repetitive ones. Each n is cut into the shards of
    :func:`pipeline.partitions.plan_shards`, the same shards in the same order for every such
    game, so that a run shares their partition columns (:attr:`record_order`)."""

    parallel = True
    #: Every such game has the same shards of every n, in the same order (plan_shards).
    record_order = "partitions"

    def __init__(self) -> None:
        self._plans: dict[tuple[int, int], list[Shard]] = {}

    def positions(self, n: int) -> int:
        return partition_numbers(n)[n] if n >= 1 else 0

    def plan(self, n: int, max_records: int) -> list[Shard]:
        """The shards of n (:func:`pipeline.partitions.plan_shards`), planned once."""
        key = (n, max_records)
        if key not in self._plans:
            self._plans[key] = plan_shards(n, max_records)
        return self._plans[key]

    def shard_records(self, n: int, shard: int, max_records: int) -> int:
        """Records of one shard (the runner solves the largest shards of an n first)."""
        return self.plan(n, max_records)[shard].records

    def shard_inputs(self, n: int, shard: int, max_records: int, features: bool,
                     ) -> tuple[Shard, np.ndarray, np.ndarray, KernelOutput]:
        """A shard as a kernel takes it: its plan, its prefixes' values and offsets
        (:func:`pipeline.partitions.flatten_prefixes`) and its output arrays
        (:func:`empty_outputs`, the record features in them if ``features``)."""
        spec = self.plan(n, max_records)[shard]
        values, offsets = flatten_prefixes(spec.prefixes)
        out = empty_outputs(spec.records, spec.part_values, spec.largest_values, features)
        return spec, values, offsets, out


def check_shard(label: str, n: int, shard: int, got: int, expected: int, full: str) -> None:
    """Raise a RuntimeError unless a kernel solved the ``expected`` records of a shard: it
    returns -1 when its class table is full (``full`` says which table holds too few) and the
    number of records it wrote otherwise."""
    if got < 0:
        raise RuntimeError(f"{label} n={n} shard {shard}: more position classes than {full}")
    if got != expected:
        raise RuntimeError(f"{label} n={n} shard {shard}: {got} records, expected {expected}")
