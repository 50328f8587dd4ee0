"""Partitions of n, enumerated as a tree and split into shards.

A partition is built **bottom-up**: its rows are added from the shortest (bottom) to the longest
(top), each new top row at least as long as the one below it. So the parent of λ = (λ1, …, λr)
in the enumeration tree is (λ2, …, λr), a partition of n − λ1, and a cell below the top row has
the same sub-partition λ[i,j] in λ as in its parent. Solvers walk this tree depth first and keep
one table row per diagram row, so a partition costs O(λ1) cells instead of O(n).

A *prefix* is the list of bottom rows ``(b0 ≤ b1 ≤ … ≤ bk)`` fixed so far; its subtree holds the
partitions of n that end with those rows. Subtree sizes come from :func:`completion_tables`, so a
(game, n) job is cut into shards of bounded size without enumerating anything.

>>> [p for p in partition_numbers(7)]
[1, 1, 2, 3, 5, 7, 11, 15]
>>> plan = plan_shards(6, max_records=4)
>>> sum(s.records for s in plan)
11
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np


def partition_numbers(nmax: int) -> list[int]:
    """p(0), …, p(nmax), exact (Python integers)."""
    p = [1] + [0] * nmax
    for part in range(1, nmax + 1):
        for m in range(part, nmax + 1):
            p[m] += p[m - part]
    return p


@dataclass(frozen=True)
class CompletionTables:
    """For m ≤ n and t ≥ 1, over the partitions μ of m whose parts are all ≥ t:

    ``count[m, t]`` how many, ``parts[m, t]`` their total number of parts, ``largest[m, t]`` the
    sum of their largest parts (0 for μ = ()). Row ``t = n + 1`` is the boundary (only μ = ()).
    """

    count: np.ndarray
    parts: np.ndarray
    largest: np.ndarray


def completion_tables(n: int) -> CompletionTables:
    count = np.zeros((n + 1, n + 2), dtype=object)
    parts = np.zeros((n + 1, n + 2), dtype=object)
    largest = np.zeros((n + 1, n + 2), dtype=object)
    count[0, :] = 1
    for t in range(n, 0, -1):
        for m in range(1, n + 1):
            # Either every part exceeds t, or remove one part equal to t.
            c, s, g = count[m, t + 1], parts[m, t + 1], largest[m, t + 1]
            if m >= t:
                c += count[m - t, t]
                s += parts[m - t, t] + count[m - t, t]
                g += largest[m - t, t] if m > t else t
            count[m, t], parts[m, t], largest[m, t] = c, s, g
    return CompletionTables(count, parts, largest)


@dataclass(frozen=True)
class Shard:
    """Consecutive prefixes of the enumeration tree, solved by one kernel call."""

    index: int
    prefixes: tuple[tuple[int, ...], ...]
    records: int  # partitions of n below these prefixes
    part_values: int  # Σ number of parts over those partitions
    largest_values: int  # Σ largest part (= length of the conjugate)


def plan_shards(n: int, max_records: int = 1 << 18) -> list[Shard]:
    """Cut the partitions of ``n`` ≥ 1 into shards of at most ``max_records`` partitions.

    Deterministic in (n, max_records): a resumed run finds the same shards. Prefixes whose
    subtree is too large are expanded into their children (one more bottom row).
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    return _pack_subtrees(_subtrees(n, max_records), max_records)


#: A subtree of the enumeration: (its prefix, records, Σ number of parts, Σ largest part).
_Subtree = tuple[tuple[int, ...], int, int, int]


def _subtrees(n: int, max_records: int) -> list[_Subtree]:
    """The prefixes whose subtrees of partitions of n hold at most ``max_records`` records (or
    are whole partitions), in the kernel's order: depth first, children in increasing order."""
    tab = completion_tables(n)

    def size(prefix: tuple[int, ...]) -> tuple[int, int, int]:
        m = sum(prefix)
        t = prefix[-1] if prefix else 1
        c = tab.count[n - m, t]
        parts = c * len(prefix) + tab.parts[n - m, t]
        largest = tab.largest[n - m, t] + (t if m == n else 0)
        return int(c), int(parts), int(largest)

    def children(prefix: tuple[int, ...]) -> list[tuple[int, ...]]:
        m = sum(prefix)
        rem = n - m
        lo = prefix[-1] if prefix else 1
        # A new row t leaves rem - t to be filled by rows ≥ t: rem == t or rem - t ≥ t.
        ts = list(range(lo, rem // 2 + 1))
        if rem >= lo:
            ts.append(rem)
        return [prefix + (t,) for t in ts]

    leaves: list[_Subtree] = []
    stack = [()]
    while stack:  # depth first, children in increasing order: the kernel's own order
        prefix = stack.pop()
        c, parts, largest = size(prefix)
        if c == 0:
            continue
        if c <= max_records or sum(prefix) == n:
            leaves.append((prefix, c, parts, largest))
        else:
            stack.extend(reversed(children(prefix)))
    return leaves


def _pack_subtrees(leaves: list[_Subtree], max_records: int) -> list[Shard]:
    """Consecutive subtrees packed into shards of at most ``max_records`` records (a larger
    subtree, a whole partition's, alone)."""
    shards: list[Shard] = []
    cur: list[_Subtree] = []

    def flush() -> None:
        if cur:
            shards.append(
                Shard(
                    len(shards),
                    tuple(p for p, *_ in cur),
                    sum(c for _, c, _, _ in cur),
                    sum(s for _, _, s, _ in cur),
                    sum(g for *_, g in cur),
                )
            )
            cur.clear()

    total = 0
    for leaf in leaves:
        if total + leaf[1] > max_records:
            flush()
            total = 0
        cur.append(leaf)
        total += leaf[1]
    flush()
    return shards


def flatten_prefixes(prefixes: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Prefixes as (values, offsets) arrays for the kernels."""
    offsets = np.zeros(len(prefixes) + 1, dtype=np.int64)
    for k, p in enumerate(prefixes):
        offsets[k + 1] = offsets[k] + len(p)
    values = np.zeros(max(1, int(offsets[-1])), dtype=np.int64)
    pos = 0
    for p in prefixes:
        for v in p:
            values[pos] = v
            pos += 1
    return values, offsets


# Codes returned by walk_next.
PUSH, EMIT, POP, DONE = 0, 1, 2, 3


@numba.njit(cache=True, _nrt=False)
def walk_next(n, rows, sums, nxt, st):  # pragma: no cover
    """Advance the depth-first walk over the enumeration tree by one step.

    State: ``rows[:depth]`` bottom-up, ``sums[k]`` = rows[0] + … + rows[k-1], ``nxt[k]`` the next
    top-row length to try below level k, ``st = [depth, base, pending_pop]``; the walk never
    pops below ``base`` (the current prefix). Returns PUSH (a row was added at depth - 1), EMIT
    (rows[:depth] is a partition of n; the next call pops it), POP (the top row was removed) or
    DONE (the prefix's subtree is exhausted).
    """
    depth = st[0]
    if st[2] == 1:
        st[2] = 0
        if depth == st[1]:
            return DONE
        st[0] = depth - 1
        return POP
    s = sums[depth]
    if s == n:
        st[2] = 1
        return EMIT
    rem = n - s
    t = nxt[depth]
    # A new top row t must leave rem - t for rows ≥ t: either rem - t == 0 or rem - t ≥ t.
    if t <= rem // 2:
        nxt[depth] = t + 1
    elif t <= rem:
        t = rem
        nxt[depth] = rem + 1
    else:
        if depth == st[1]:
            return DONE
        st[0] = depth - 1
        return POP
    rows[depth] = t
    sums[depth + 1] = s + t
    nxt[depth + 1] = t
    st[0] = depth + 1
    return PUSH


@numba.njit(cache=True, inline="always")
def shared_depth(rows, depth, prefix_values, a, b):  # pragma: no cover
    """How many bottom rows the walk at ``rows[:depth]`` shares with prefix ``values[a:b]``."""
    common = 0
    while common < depth and common < b - a and rows[common] == prefix_values[a + common]:
        common += 1
    return common


@numba.njit(cache=True, inline="always")
def place_walk_row(k, value, rows, sums):  # pragma: no cover
    """Row k of a prefix, of length ``value``, placed in the walk's ``rows`` and ``sums``
    (:func:`walk_next`), the rows below it placed already."""
    rows[k] = value
    sums[k + 1] = sums[k] + value


@numba.njit(cache=True, inline="always")
def start_walk(base, rows, nxt, st):  # pragma: no cover
    """The walk's state (:func:`walk_next`) at the prefix ``rows[:base]``: it walks the prefix's
    subtree and never pops below it."""
    st[0] = base
    st[1] = base
    st[2] = 0
    nxt[base] = rows[base - 1] if base > 0 else 1


@numba.njit(cache=True)
def enumerate_partitions(n, prefix_values, prefix_offsets, out_parts, out_offsets):  # pragma: no cover
    """Write every partition of n below the given prefixes, top row first, in the solvers' order,
    into ``out_parts`` (values) and ``out_offsets`` (one more than the partitions); returns the
    number of partitions written.

    The enumerator of a solver that takes its positions as a list (the generic solver of a
    rules game, :mod:`pipeline.games.generic`): the same depth-first walk as the walk kernels
    (:func:`walk_next`), so its shards hold the same partitions in the same order. Doing nothing
    else, it is also the enumeration cost ``benchmarks/bench.py`` compares the kernels against.
    """
    rows = np.zeros(n + 2, dtype=np.int64)
    sums = np.zeros(n + 2, dtype=np.int64)
    nxt = np.zeros(n + 2, dtype=np.int64)
    st = np.zeros(3, dtype=np.int64)
    rec = 0
    vpos = 0
    out_offsets[0] = 0
    for q in range(prefix_offsets.shape[0] - 1):
        a, b = prefix_offsets[q], prefix_offsets[q + 1]
        for k in range(shared_depth(rows, st[0], prefix_values, a, b), b - a):
            place_walk_row(k, prefix_values[a + k], rows, sums)
        start_walk(b - a, rows, nxt, st)
        while True:
            code = walk_next(n, rows, sums, nxt, st)
            if code == DONE:
                break
            if code == EMIT:
                for k in range(st[0] - 1, -1, -1):
                    out_parts[vpos] = rows[k]
                    vpos += 1
                rec += 1
                out_offsets[rec] = vpos
    return rec
