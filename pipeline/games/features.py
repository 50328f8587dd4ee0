"""The shape columns of a record, and the integer keys of partitions (docs/records.md, "Shape
and keys"), compiled by numba.

``shape`` is a bitmask with one bit per family of partitions the statements recognise
(:data:`SHAPE_BITS`, each exactly as its list macro in ``queries/macros.sql`` defines it), so a
statement filters on an integer instead of evaluating a list macro on every record.

``ordinal`` is a partition's position among the partitions of its n in the order the solvers
walk them (:mod:`pipeline.partitions`: bottom row first, so the ascending sequence of parts
λr ≤ … ≤ λ1 in lexicographic order): ``(1^n)`` is 0 and ``(n)`` is p(n) − 1. The records of a
whole (game, n) come in this order, so within a shard the column counts up by one. A partition's
key is ``n << 40 | ordinal`` (:data:`KEY_SHIFT`); the key of ``()`` is 0. A follower of a board
game's position is a sub-partition λ[i,j] (docs/definitions.md §2), and its key is computed here
from λ's parts without building the sub-partition (:func:`board_follower_keys`), so that the
follower statements join integers instead of lists.

>>> import numpy as np
>>> values, offsets = np.array([1, 1, 1, 2, 1, 3], np.int16), np.array([0, 3, 5, 6])
>>> shape, ordinal = shape_columns(3, values, offsets)
>>> ordinal.tolist()                           # (1,1,1), (2,1), (3): the walk's order
[0, 1, 2]
>>> [shape_names(int(s)) for s in shape][2]
['row', 'rectangle', 'hook', 'gen_staircase', 'distinct_parts', 'gen_staircase_sub']
"""

from __future__ import annotations

import numba
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

#: The families of the ``shape`` bitmask, bit k for the k-th name. The first nine are
#: :data:`pipeline.partition_families.FAMILIES`, in its order; each is defined exactly as its macro of
#: ``queries/macros.sql`` (two_row, three_row: ``num_parts = 2``, ``num_parts = 3``).
SHAPE_BITS: tuple[str, ...] = ("row", "column", "rectangle", "staircase", "hook", "two_row",
                               "three_row", "thick_gamma", "gen_staircase", "proper_hook",
                               "distinct_parts", "gen_staircase_sub", "quadrated")

#: A key is ``n << KEY_SHIFT | ordinal``: ordinals below 2**40 (p(n) < 2**40: n <= 177).
KEY_SHIFT = 40


def shape_names(shape: int) -> list[str]:
    """The families whose bit ``shape`` sets, in :data:`SHAPE_BITS` order."""
    return [name for k, name in enumerate(SHAPE_BITS) if shape >> k & 1]


def _limit_n(limit: int) -> int:
    """The largest n with p(n) <= ``limit``."""
    p = [1]
    n = 0
    while True:
        m = n + 1
        # p(m) by Euler's pentagonal recurrence, exact in Python integers.
        total, k = 0, 1
        while True:
            g1, g2 = k * (3 * k - 1) // 2, k * (3 * k + 1) // 2
            if g1 > m:
                break
            sign = 1 if k % 2 else -1
            total += sign * p[m - g1]
            if g2 <= m:
                total += sign * p[m - g2]
            k += 1
        if total > limit:
            return n
        p.append(total)
        n = m


#: The largest n whose ordinals fit an int64 (p(n) <= 2**63 - 1); beyond it ``ordinal`` is NULL.
ORDINAL_MAX_N = _limit_n(2**63 - 1)
#: The largest n whose keys fit (p(n) <= 2**40); beyond it a key is NULL.
KEY_MAX_N = _limit_n(2**KEY_SHIFT)

_TABLE: list[np.ndarray] = []


def completion_counts(n: int) -> np.ndarray:
    """``D[m, t]`` = Σ C[m − u, u] over 1 <= u < t, where ``C[m, u]`` is the number of partitions
    of m whose parts are all >= u (``C[0, u]`` = 1, ``C[m, u]`` = 0 for m < 0): the partitions of m
    whose smallest part is below t. For m <= n <= :data:`ORDINAL_MAX_N` and 1 <= t <= n + 1."""
    if n > ORDINAL_MAX_N:
        raise ValueError(f"n = {n} beyond the ordinals (n <= {ORDINAL_MAX_N})")
    if _TABLE and _TABLE[0].shape[0] > n:
        return _TABLE[0]
    size = min(max(n, 128), ORDINAL_MAX_N)
    c = [[0] * (size + 2) for _ in range(size + 1)]
    for t in range(size + 1, 0, -1):
        c[0][t] = 1
        for m in range(1, size + 1):
            # Either every part exceeds t, or the smallest part is t.
            c[m][t] = (c[m][t + 1] if t + 1 <= size + 1 else 0) + (c[m - t][t] if m >= t else 0)
    table = np.zeros((size + 1, size + 2), np.int64)
    for m in range(size + 1):
        running = 0
        for t in range(1, size + 2):
            table[m, t] = running  # at most p(m) <= 2**63 - 1
            if m - t >= 0:
                running += c[m - t][t]
    _TABLE[:] = [table]
    return table


@numba.njit(cache=True, inline="always")
def _rank(values, a, b, shift, total, table):  # pragma: no cover - compiled
    """Ordinal among the partitions of ``total`` of the partition whose parts are
    ``values[a:b] - shift`` (the positive ones; non-increasing): the number of partitions of
    ``total`` whose ascending parts come lexicographically first. For each part x, bottom first,
    the partitions that agree below it and have a smaller part t there (prev <= t < x, prev the
    part below) number C[rest - t, t]; ``table`` holds their running sums over t
    (:func:`completion_counts`), so a part costs two loads."""
    rank = np.int64(0)
    prev = 1
    rest = total
    for k in range(b - 1, a - 1, -1):
        x = values[k] - shift
        if x <= 0:
            continue
        rank += table[rest, x] - table[rest, prev]
        rest -= x
        prev = x
    return rank


@numba.njit(cache=True, inline="always")
def _is_quadrated(values, a, b):  # pragma: no cover - compiled
    """Every part even and every multiplicity even: the parts ``values[a:b]`` pair up as
    (λ1 = λ2), (λ3 = λ4), …, each pair even (so the number of parts is even)."""
    if (b - a) & 1:
        return False
    for k in range(a, b, 2):
        if values[k] != values[k + 1] or (values[k] & 1) != 0:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _is_gen_staircase(values, a, r, distinct, last):  # pragma: no cover - compiled
    """A generalized staircase G(k; r, c) (docs/definitions.md §1): k = ``distinct`` part
    sizes c·k, c·(k − 1), …, c (c = ``last``, the smallest part), each on the same number of
    rows (``r`` parts in all)."""
    if r % distinct != 0:
        return False
    per = r // distinct
    for t in range(r):
        if values[a + t] != (distinct - t // per) * last:
            return False
    return True


@numba.njit(cache=True, inline="always")
def _is_gen_staircase_sub(values, a, r, distinct, top, last, m1):  # pragma: no cover - compiled
    """A sub-partition of a generalized staircase, as the macro ``is_gen_staircase_sub`` states
    it: below the first block of ``m1`` rows of the largest part ``top``, the parts drop by one
    step every ``(r − m1) / (distinct − 1)`` rows, by ``(top − last) / (distinct − 1)`` each."""
    if distinct == 1:
        return True
    g = distinct - 1
    if (top - last) % g != 0 or (r - m1) % g != 0:
        return False
    diff = (top - last) // g
    per = (r - m1) // g
    if last > diff or m1 > per:
        return False
    step = max(per, 1)
    for p in range(m1 + 1, r + 1):  # 1-based rows below the first block
        if values[a + p - 1] != top - diff * (1 + (p - m1 - 1) // step):
            return False
    return True


#: ``_shape_columns``'s ``ordinals``: none (n beyond :data:`ORDINAL_MAX_N`), each record's
#: ranked on its own, or the first record's ranked and then one more each (consecutive records).
NO_ORDINALS = 0
EACH_ORDINAL = 1
CONSECUTIVE_ORDINALS = 2


@numba.njit(cache=True, nogil=True)
def _shape_columns(n, values, offsets, distinct_sizes, table, ordinals,  # pragma: no cover
                   out_shape, out_ordinal):
    """``distinct_sizes``: each record's number of distinct parts, from the kernel that made the
    parts (empty: counted here); ``ordinals``: :data:`NO_ORDINALS`, :data:`EACH_ORDINAL` or
    :data:`CONSECUTIVE_ORDINALS` (the records are consecutive partitions of n in the walk's
    order, so each is the first record's ordinal plus its index).

    Every test but the distinct sizes' count stops at the first part that fails it, so a record
    costs a few of its parts, not all of them (docs/performance.md, "Shape and key columns").

    A record's shape bits stay written out in the loop: as an inlined helper
    (``_shape_bits(values, a, b, distinct)``) they ran at 0.83× the speed (LCTR n = 58's parts,
    ``shape_columns(..., consecutive=True)``, 13 alternating rounds each in fresh processes,
    CPU time, loaded machine: medians 49.3 against 59.2 ns a record)."""
    base = np.int64(0)
    if ordinals == CONSECUTIVE_ORDINALS and offsets.shape[0] > 1:
        base = _rank(values, offsets[0], offsets[1], 0, n, table)
    given = distinct_sizes.shape[0] > 0
    for rec in range(offsets.shape[0] - 1):
        a, b = offsets[rec], offsets[rec + 1]
        r = b - a
        if ordinals == EACH_ORDINAL:
            out_ordinal[rec] = _rank(values, a, b, 0, n, table)
        elif ordinals == CONSECUTIVE_ORDINALS:
            out_ordinal[rec] = base + rec
        if r == 0:  # () is no record; it is a partition with distinct parts
            out_shape[rec] = 1 << 10
            continue
        top = np.int64(values[a])
        last = np.int64(values[b - 1])
        if given:
            distinct = np.int64(distinct_sizes[rec])
        else:
            distinct = np.int64(1)
            for k in range(a + 1, b):
                distinct += np.int64(values[k] != values[k - 1])
        strict = distinct == r
        # r distinct parts, the largest r: exactly r, r − 1, …, 1
        stair = strict and top == r
        quadrated = _is_quadrated(values, a, b)
        m1 = 1  # multiplicity of the largest part (the conjugate's last entry)
        while m1 < r and values[a + m1] == top:
            m1 += 1
        second = np.int64(values[a + 1]) if r >= 2 else np.int64(1)
        s = 0
        if r == 1:
            s |= 1 << 0
        if top == 1:
            s |= 1 << 1
        if top == last:
            s |= 1 << 2
        if stair:
            s |= 1 << 3
        if second == 1:
            s |= 1 << 4
        if r == 2:
            s |= 1 << 5
        if r == 3:
            s |= 1 << 6
        if distinct == 2:
            s |= 1 << 7
        if _is_gen_staircase(values, a, r, distinct, last):
            s |= 1 << 8
        if r >= 2 and top >= 2 and second == 1:
            s |= 1 << 9
        if strict:
            s |= 1 << 10
        if _is_gen_staircase_sub(values, a, r, distinct, top, last, m1):
            s |= 1 << 11
        if quadrated:
            s |= 1 << 12
        out_shape[rec] = s


def shape_columns(n: int, values: np.ndarray, offsets: np.ndarray, consecutive: bool = False,
                  distinct: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """The ``shape`` and ``ordinal`` of the partitions of ``n`` given as parts ``values``
    (non-increasing within a record) and ``offsets``; ``ordinal`` None beyond
    :data:`ORDINAL_MAX_N`. ``consecutive``: the records are consecutive partitions of n in the
    walk's order (a walk kernel's shard), so their ordinals are the first one's plus 0, 1, 2, …
    (ranking each record costs as much again: docs/performance.md, "Shape and key columns").
    ``distinct``: each record's number of distinct parts, where the caller has them."""
    records = offsets.shape[0] - 1
    out_shape = np.zeros(records, np.int32)
    out_ordinal = np.zeros(records, np.int64)
    with_ordinal = n <= ORDINAL_MAX_N
    table = completion_counts(n) if with_ordinal else np.zeros((1, 2), np.int64)
    _shape_columns(n, values, offsets.astype(np.int64, copy=False),
                   np.zeros(0, np.int16) if distinct is None else distinct, table,
                   (CONSECUTIVE_ORDINALS if consecutive else EACH_ORDINAL) if with_ordinal else NO_ORDINALS,
                   out_shape, out_ordinal)
    return out_shape, (out_ordinal if with_ordinal else None)


@numba.njit(cache=True, nogil=True)
def _partition_keys(values, offsets, valid, table, max_n, out, out_valid):  # pragma: no cover
    """Key of each list ``values[offsets[i]:offsets[i+1]]``; invalid (NULL) unless it is a
    partition (parts positive, non-increasing) of n <= max_n."""
    for i in range(offsets.shape[0] - 1):
        a, b = offsets[i], offsets[i + 1]
        ok = valid[i]
        total = 0
        for k in range(a, b):
            if values[k] <= 0 or (k > a and values[k] > values[k - 1]):
                ok = False
            total += values[k]
        if not ok or total > max_n:
            out_valid[i] = False
            out[i] = 0
            continue
        out_valid[i] = True
        out[i] = (np.int64(total) << 40) | _rank(values, a, b, 0, total, table)


def partition_keys(values: np.ndarray, offsets: np.ndarray,
                   valid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keys of lists of parts (values, offsets; ``valid`` False for a NULL list): (keys,
    validity), NULL for a list that is not a partition of n <= :data:`KEY_MAX_N`."""
    records = offsets.shape[0] - 1
    out = np.zeros(records, np.int64)
    out_valid = np.zeros(records, np.bool_)
    _partition_keys(values.astype(np.int64), offsets.astype(np.int64), valid,
                    completion_counts(KEY_MAX_N), KEY_MAX_N, out, out_valid)
    return out, out_valid


@numba.njit(cache=True, inline="always")
def _sub_key(values, a, b, i, j, table, max_n):  # pragma: no cover - compiled
    """Key of λ[i,j] for λ = values[a:b], a cell (i, j) of λ: rows i.. less j columns; -1
    when its n is beyond ``max_n``."""
    total = np.int64(0)
    for k in range(a + i, b):
        x = values[k] - j
        if x <= 0:
            break
        total += x
    end = a + i
    while end < b and values[end] - j > 0:
        end += 1
    if total > max_n:
        return np.int64(-1)
    return (total << 40) | _rank(values, a + i, end, j, total, table)


@numba.njit(cache=True, nogil=True)
def _board_follower_keys(values, offsets, steps, rays, exits, table, max_n, out_offsets,
                         out):  # pragma: no cover
    """The keys of the followers of each partition, one per move in the order of the macro
    ``board_followers`` (steps, then each ray's multiples); with ``out`` of length 0, only
    count them into ``out_offsets``. A follower beyond max_n gets key -1."""
    fill = out.shape[0] > 0
    pos = 0
    for rec in range(offsets.shape[0] - 1):
        a, b = offsets[rec], offsets[rec + 1]
        r = b - a
        out_offsets[rec] = pos
        if r == 0:
            continue
        top = values[a]
        for s in range(steps.shape[0]):
            i, j = steps[s, 0], steps[s, 1]
            inside = i < r and j < values[a + i]
            if inside:
                if fill:
                    out[pos] = _sub_key(values, a, b, i, j, table, max_n)
                pos += 1
            elif exits:
                if fill:
                    out[pos] = 0
                pos += 1
        for d in range(rays.shape[0]):
            di, dj = rays[d, 0], rays[d, 1]
            k = 1
            while True:
                i, j = k * di, k * dj
                if i >= r or j >= top or j >= values[a + i]:
                    break
                if fill:
                    out[pos] = _sub_key(values, a, b, i, j, table, max_n)
                pos += 1
                k += 1
    out_offsets[offsets.shape[0] - 1] = pos


def board_follower_keys(values: np.ndarray, offsets: np.ndarray, steps: np.ndarray, rays: np.ndarray,
                        exits: bool) -> tuple[np.ndarray, np.ndarray]:
    """The follower keys of partitions (parts ``values``, ``offsets``) under a moveset: (keys,
    their offsets), one list per partition, in the order of the macro ``board_followers``
    (docs/definitions.md §2: a step (a, b) when cell (a, b) exists, else, with ``exits``, the
    terminal () of key 0; a ray once per multiple k with cell (ka, kb) in λ)."""
    values = values.astype(np.int64, copy=False)
    offsets = offsets.astype(np.int64, copy=False)
    table = completion_counts(KEY_MAX_N)
    steps = np.asarray(steps, np.int64).reshape(-1, 2)
    rays = np.asarray(rays, np.int64).reshape(-1, 2)
    out_offsets = np.zeros(len(offsets), np.int64)
    _board_follower_keys(values, offsets, steps, rays, exits, table, KEY_MAX_N, out_offsets,
                         np.zeros(0, np.int64))
    out = np.zeros(int(out_offsets[-1]), np.int64)
    _board_follower_keys(values, offsets, steps, rays, exits, table, KEY_MAX_N, out_offsets, out)
    return out, out_offsets


def _flat_lists(lists: pa.Array) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A list array's values (int64), offsets (from 0) and validity, without Python objects."""
    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks() if lists.num_chunks != 1 else lists.chunk(0)
    offsets = lists.offsets.to_numpy(zero_copy_only=False).astype(np.int64)
    values = lists.values.to_numpy(zero_copy_only=False).astype(np.int64)
    values, offsets = values[offsets[0]:offsets[-1]], offsets - offsets[0]
    valid = lists.is_valid().to_numpy(zero_copy_only=False)
    return values, offsets, np.ascontiguousarray(valid, np.bool_)


def partition_key_arrow(lists: pa.Array) -> pa.Array:
    """The SQL function ``part_key(parts)``: the key of each list (NULL: not a partition, or n
    beyond :data:`KEY_MAX_N`)."""
    values, offsets, valid = _flat_lists(lists)
    keys, ok = partition_keys(values, offsets, valid)
    return pa.array(keys, pa.int64(), mask=~ok)


def partition_keys_arrow(lists: pa.Array) -> pa.Array:
    """The SQL function ``part_keys(list of partitions)``: the key of each entry."""
    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks() if lists.num_chunks != 1 else lists.chunk(0)
    outer = lists.offsets.to_numpy(zero_copy_only=False).astype(np.int64)
    inner = partition_key_arrow(lists.flatten())
    return pa.ListArray.from_arrays(pa.array(outer - outer[0], pa.int32()), inner,
                                    mask=lists.is_null())


def _moveset(game: str) -> tuple[np.ndarray, np.ndarray, bool]:
    from pipeline.games.moveset import Moveset  # the game modules only when the function runs

    ms = Moveset.parse(game)
    return (np.array(ms.steps, np.int64).reshape(-1, 2), np.array(ms.rays, np.int64).reshape(-1, 2),
            bool(ms.exits))


def follower_keys_arrow(games: pa.Array, lists: pa.Array) -> pa.Array:
    """The SQL function ``follower_keys(game, parts)``: the keys of the positions reached from
    each partition by the board game's moves, one per move (:func:`board_follower_keys`)."""
    if isinstance(games, pa.ChunkedArray):
        games = games.combine_chunks() if games.num_chunks != 1 else games.chunk(0)
    names = pc.unique(games).to_pylist()
    if len(names) == 1 and names[0] is not None:
        values, offsets, _ = _flat_lists(lists)
        keys, key_offsets = board_follower_keys(values, offsets, *_moveset(names[0]))
        return pa.ListArray.from_arrays(pa.array(key_offsets, pa.int32()), pa.array(keys, pa.int64()))
    pieces, order = [], []
    for name in names:
        where = np.flatnonzero(pc.equal(games, name).to_numpy(zero_copy_only=False)) if name else \
            np.flatnonzero(games.is_null().to_numpy(zero_copy_only=False))
        part = pc.take(lists, pa.array(where))
        if name is None:
            pieces.append(pa.nulls(len(where), pa.list_(pa.int64())))
        else:
            pieces.append(follower_keys_arrow(pa.array([name] * len(where)), part))
        order.append(where)
    inverse = np.empty(len(games), np.int64)
    inverse[np.concatenate(order)] = np.arange(len(games))
    return pa.concat_arrays(pieces).take(pa.array(inverse))


@numba.njit(cache=True, nogil=True)
def _unrank(n, ordinal, table, asc):  # pragma: no cover - compiled
    """The parts, ascending, of the partition of ``n`` at ``ordinal`` into ``asc``; their number.
    The inverse of :func:`_rank`: the partitions of the rest whose smallest part is below t
    number ``table[rest, t]``, so the next part is the largest x whose predecessors in that
    order number at most what is left of the ordinal."""
    rest = n
    prev = 1
    r = ordinal
    k = 0
    while rest > 0:
        x = prev
        while x < rest and table[rest, x + 1] - table[rest, prev] <= r:
            x += 1
        r -= table[rest, x] - table[rest, prev]
        asc[k] = x
        k += 1
        rest -= x
        prev = x
    return k


@numba.njit(cache=True, nogil=True)
def _neighbour_keys(n, start, table, out_conj, out_t, out_l, out_d, out_minus, out_tt,
                    out_ll):  # pragma: no cover - compiled
    """For the partitions of ``n`` at ordinals ``start``, ``start + 1``, … (as many as the
    outputs hold), each at its place: the keys of its conjugate λ', of λ[1,0] = T(λ) (the top row
    removed), of λ[0,1] = L(λ) (the left column removed), of λ[1,1] (both), of λ⁻ (every
    corner removed: the last part of each run of equal parts less one), of λ[2,0] (two top rows
    removed) and of λ[0,2] (two left columns removed); the key of () is 0.

    The partitions come as ascending sequences in lexicographic order, which is the walk's order
    (Kelleher's rule_asc, from the partition at ``start``), so the ordinal is a counter."""
    asc = np.zeros(n + 2, np.int64)
    desc = np.zeros(n + 1, np.int64)
    conj = np.zeros(n + 1, np.int64)
    minus = np.zeros(n + 1, np.int64)
    k = _unrank(n, start, table, asc) - 1
    count = out_conj.shape[0]
    i_out = 0
    while i_out < count:
        r = k + 1  # the parts asc[0] <= … <= asc[k]
        for i in range(r):
            desc[i] = asc[k - i]
        top = desc[0]
        # λ'_j = #{i : λ_i > j}, from the bottom row up
        i = r
        for j in range(top):
            while i > 0 and desc[i - 1] <= j:
                i -= 1
            conj[j] = i
        out_conj[i_out] = (np.int64(n) << 40) | _rank(conj, 0, top, 0, n, table)
        rest = n - top
        out_t[i_out] = (np.int64(rest) << 40) | _rank(desc, 1, r, 0, rest, table) if rest else 0
        rest = n - r
        out_l[i_out] = (np.int64(rest) << 40) | _rank(desc, 0, r, 1, rest, table) if rest else 0
        rest = n - top - (r - 1)
        out_d[i_out] = (np.int64(rest) << 40) | _rank(desc, 1, r, 1, rest, table) if rest else 0
        rest = n
        for i in range(r):
            corner = i == r - 1 or desc[i + 1] < desc[i]
            minus[i] = desc[i] - 1 if corner else desc[i]
            rest -= corner
        out_minus[i_out] = (np.int64(rest) << 40) | _rank(minus, 0, r, 0, rest, table) if rest else 0
        rest = n - top - (desc[1] if r > 1 else 0)
        out_tt[i_out] = (np.int64(rest) << 40) | _rank(desc, 2, r, 0, rest, table) if rest else 0
        rest = n
        for i in range(r):
            rest -= min(desc[i], 2)
        out_ll[i_out] = (np.int64(rest) << 40) | _rank(desc, 0, r, 2, rest, table) if rest else 0
        i_out += 1
        if k == 0:  # (n), the last partition
            break
        x = asc[k - 1] + 1
        y = asc[k] - 1
        k -= 1
        while x <= y:
            asc[k] = x
            y -= x
            k += 1
        asc[k] = x + y


#: The key columns of :func:`neighbour_keys` (λ', λ[1,0], λ[0,1], λ[1,1], λ⁻, λ[2,0], λ[0,2]).
NEIGHBOUR_KEY_NAMES = ("conj_key", "t_key", "l_key", "d_key", "minus_key", "tt_key", "ll_key")


def neighbour_keys(n: int, start: int = 0, count: int | None = None) -> tuple[np.ndarray, ...]:
    """The keys of the conjugate λ', of T(λ) = λ[1,0], of L(λ) = λ[0,1], of λ[1,1], of λ⁻ (every
    corner removed), of λ[2,0] and of λ[0,2] of the partitions λ of ``n`` (1 <= n <=
    :data:`KEY_MAX_N`) at ordinals ``start`` … ``start + count - 1`` (default: every one), in
    that order (:data:`NEIGHBOUR_KEY_NAMES`); the key of () is 0.

    >>> conj, t, l, d, minus, tt, ll = neighbour_keys(3)    # (1,1,1), (2,1), (3)
    >>> [int(k & (2**40 - 1)) for k in conj]        # (3), (2,1), (1,1,1)
    [2, 1, 0]
    >>> [int(k >> 40) for k in t], [int(k >> 40) for k in l], [int(k >> 40) for k in d]
    ([2, 1, 0], [0, 1, 2], [0, 0, 0])
    >>> [int(k >> 40) for k in minus]               # (1,1), (1), (2)
    [2, 1, 2]
    >>> [int(k >> 40) for k in tt], [int(k >> 40) for k in ll]   # (1), (), () and (), (), (1)
    ([1, 0, 0], [0, 0, 1])
    >>> [int(k & (2**40 - 1)) for k in neighbour_keys(3, 1, 2)[0]]
    [1, 0]
    """
    if not 1 <= n <= KEY_MAX_N:
        raise ValueError(f"n = {n}: neighbour keys are for 1 <= n <= {KEY_MAX_N}")
    table = completion_counts(KEY_MAX_N)
    size = int(table[n, n + 1])  # p(n): every partition of n has parts below n + 1
    count = size - start if count is None else count
    if not (0 <= start and 0 <= count and start + count <= size):
        raise ValueError(f"ordinals {start}..{start + count - 1} of the {size} partitions of {n}")
    out = tuple(np.zeros(count, np.int64) for _ in NEIGHBOUR_KEY_NAMES)
    if count:
        _neighbour_keys(n, start, table, *out)
    return out


@numba.njit(cache=True, nogil=True)
def _keys_by_n(keys, out_order, out_starts):  # pragma: no cover - compiled
    """A counting sort of ``keys`` by the n they name (``key >> KEY_SHIFT``): ``out_order`` (one
    slot per key) receives the positions of the keys of n = 0, then 1, …, each in its order, and
    ``out_starts[m]`` … ``out_starts[m + 1]`` bounds those of n = m (``out_starts`` has one slot
    per n up to the largest, plus one)."""
    for i in range(keys.shape[0]):
        out_starts[(keys[i] >> 40) + 1] += 1
    for m in range(1, out_starts.shape[0]):
        out_starts[m] += out_starts[m - 1]
    fill = out_starts[:-1].copy()
    for i in range(keys.shape[0]):
        m = keys[i] >> 40
        out_order[fill[m]] = i
        fill[m] += 1


def keys_by_n(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The positions of ``keys`` (record keys ``n << 40 | ordinal``, 0 for ()) grouped by the n
    they name: ``order[starts[m]:starts[m + 1]]`` are the positions of the keys of partitions of
    m, in their order (a stable counting sort, one pass over the keys and one over the n).

    >>> order, starts = keys_by_n(np.array([(2 << 40) | 1, 0, 1 << 40, 2 << 40], np.int64))
    >>> order.tolist(), starts.tolist()
    ([1, 2, 0, 3], [0, 1, 2, 4])
    """
    keys = np.ascontiguousarray(keys, np.int64)
    top = int(keys.max() >> KEY_SHIFT) if len(keys) else 0
    order = np.empty(len(keys), np.int64)
    starts = np.zeros(top + 2, np.int64)
    _keys_by_n(keys, order, starts)
    return order, starts


@numba.njit(cache=True, nogil=True)
def _rows_at(ordinals, run_first, run_row, run_length, out):  # pragma: no cover - compiled
    """``out[i]``: the row holding ordinal ``ordinals[i]`` in a table of runs of consecutive
    ordinals (run r: ``run_length[r]`` ordinals from ``run_first[r]`` at rows from
    ``run_row[r]``; the runs in increasing order), −1 where no run holds it."""
    runs = run_first.shape[0]
    for i in range(ordinals.shape[0]):
        o = ordinals[i]
        lo, hi = 0, runs
        while hi - lo > 1:  # the last run starting at or before o
            mid = (lo + hi) // 2
            if run_first[mid] <= o:
                lo = mid
            else:
                hi = mid
        if runs and run_first[lo] <= o < run_first[lo] + run_length[lo]:
            out[i] = run_row[lo] + o - run_first[lo]
        else:
            out[i] = -1


def rows_at(ordinals: np.ndarray, run_first: np.ndarray, run_row: np.ndarray,
            run_length: np.ndarray) -> np.ndarray:
    """The row of each of ``ordinals`` in a table whose rows are runs of consecutive ordinals
    (run r: ``run_length[r]`` ordinals from ``run_first[r]``, at rows from ``run_row[r]``, the
    runs in increasing order of ordinal and not overlapping), −1 for an ordinal in no run.

    >>> rows_at(np.array([5, 0, 7, 3]), np.array([0, 5]), np.array([0, 2]), np.array([2, 2])).tolist()
    [2, 0, -1, -1]
    """
    out = np.empty(len(ordinals), np.int64)
    _rows_at(np.ascontiguousarray(ordinals, np.int64), run_first, run_row, run_length, out)
    return out


@numba.njit(cache=True, nogil=True)
def _gather(out, out_present, at, rows, src, src_present):  # pragma: no cover - compiled
    """``out[at[i]] = src[rows[i]]`` and its presence, absent where ``rows[i]`` is −1."""
    for i in range(at.shape[0]):
        r = rows[i]
        if r >= 0:
            out[at[i]] = src[r]
            out_present[at[i]] = src_present[r]
        else:
            out_present[at[i]] = False


def gather(out: np.ndarray, out_present: np.ndarray, at: np.ndarray, rows: np.ndarray,
           src: np.ndarray, src_present: np.ndarray) -> None:
    """Set ``out[at[i]]`` to ``src[rows[i]]`` and ``out_present[at[i]]`` to
    ``src_present[rows[i]]``, or to False where ``rows[i]`` is −1 (a neighbour's record not
    read): one pass, where numpy's ``out[at] = src[rows]`` makes two and a temporary.

    >>> out, present, src = np.zeros(3, np.int16), np.zeros(3, bool), np.array([7, 9], np.int16)
    >>> gather(out, present, np.array([2, 0]), np.array([1, -1]), src, np.ones(2, bool))
    >>> out.tolist(), present.tolist()
    ([0, 0, 9], [False, False, True])
    """
    _gather(out, out_present, at, rows, src, src_present)


def partition_at(ns: pa.Array, ordinals: pa.Array) -> pa.Array:
    """The partition (parts non-increasing) of each ``n`` at each ``ordinal`` in the walk's order:
    what a record's ``parts`` holds, from its integer columns, so that a query reads a list only
    for the rows it shows (NULL where either is NULL or out of range).

    >>> partition_at(pa.array([3, 3, 3, 4]), pa.array([0, 1, 2, 9])).to_pylist()
    [[1, 1, 1], [2, 1], [3], None]
    """
    n_list = ns.to_pylist()
    o_list = ordinals.to_pylist()
    top = max((n for n in n_list if n is not None), default=0)
    table = completion_counts(min(max(top, 1), ORDINAL_MAX_N))
    asc = np.zeros(max(top, 1), np.int64)
    out: list[list[int] | None] = []
    for n, o in zip(n_list, o_list, strict=True):
        if n is None or o is None or not 1 <= n <= ORDINAL_MAX_N or not 0 <= o < table[n, n + 1]:
            out.append(None)
            continue
        k = _unrank(n, o, table, asc)
        out.append(asc[:k][::-1].tolist())
    return pa.array(out, pa.list_(pa.int16()))


def neighbour_key_table(pieces: list[tuple[int, int, int]], threads: int | None = None) -> pa.Table:
    """:func:`neighbour_keys` of each piece (n, first ordinal, count) as an Arrow table (n,
    ordinal and the :data:`NEIGHBOUR_KEY_NAMES`): what the neighbourhood of a record joins
    on (pipeline/neighbourhood.py). The pieces are cut into ``threads`` (default: every core)
    ranges of about equal size, computed side by side (the kernel releases the GIL)."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    threads = threads or os.cpu_count() or 1
    total = sum(c for _, _, c in pieces)
    step = max(1, -(-total // threads))
    work = [(n, s, min(step, start + count - s)) for n, start, count in pieces
            for s in range(start, start + count, step)]
    with ThreadPoolExecutor(max_workers=threads) as pool:
        keys = list(pool.map(lambda w: neighbour_keys(*w), work))
    cols = {"n": [np.full(c, n, np.int64) for n, _, c in work],
            "ordinal": [np.arange(s, s + c, dtype=np.int64) for _, s, c in work]}
    for i, name in enumerate(NEIGHBOUR_KEY_NAMES):
        cols[name] = [k[i] for k in keys]
    return pa.table({k: pa.array(np.concatenate(v) if v else np.zeros(0, np.int64)) for k, v in cols.items()})


@numba.njit(cache=True, nogil=True)
def _take_lists(rows, offsets, items, present, out_lengths, out_items):  # pragma: no cover
    """``out_lengths[i]``: the length of list ``rows[i]`` of (``offsets``, ``items``), −1 where
    ``rows[i]`` is −1 or that list is not ``present``; ``out_items`` receives the lists taken,
    one after another; returns how many items it received."""
    k = 0
    for i in range(rows.shape[0]):
        r = rows[i]
        if r < 0 or not present[r]:
            out_lengths[i] = -1
            continue
        a, b = offsets[r], offsets[r + 1]
        out_lengths[i] = b - a
        for j in range(a, b):
            out_items[k] = items[j]
            k += 1
    return k


@numba.njit(cache=True, nogil=True)
def _list_sizes(rows, offsets, present):  # pragma: no cover - compiled
    """The items of the lists at ``rows`` that are present (−1: none)."""
    total = 0
    for i in range(rows.shape[0]):
        r = rows[i]
        if r >= 0 and present[r]:
            total += offsets[r + 1] - offsets[r]
    return total


def take_lists(rows: np.ndarray, offsets: np.ndarray, items: np.ndarray,
               present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lists at ``rows`` of the lists laid out as Arrow does (list r: ``items[offsets[r]:
    offsets[r + 1]]``), ``present`` saying which are not NULL: each one's length (−1 for NULL,
    where ``rows[i]`` is −1 or the list is absent) and their items one after another. One pass,
    where Arrow's take builds a list array to be taken again.

    >>> lengths, items = take_lists(np.array([2, -1, 0, 1]), np.array([0, 2, 2, 5]),
    ...                             np.array([4, 1, 3, 2, 1], np.int16), np.ones(3, bool))
    >>> lengths.tolist(), items.tolist()
    ([3, -1, 2, 0], [3, 2, 1, 4, 1])
    """
    rows = np.ascontiguousarray(rows, np.int64)
    out_lengths = np.empty(len(rows), np.int64)
    out_items = np.empty(_list_sizes(rows, offsets, present), items.dtype)
    _take_lists(rows, offsets, items, present, out_lengths, out_items)
    return out_lengths, out_items


@numba.njit(cache=True, nogil=True)
def _place_lists(at, lengths, items, out_offsets, out_items):  # pragma: no cover - compiled
    """The lists of (``lengths``, ``items``: one after another) copied to the rows ``at`` of a
    list column whose offsets are ``out_offsets``; a length −1 (NULL) has no items."""
    k = 0
    for i in range(at.shape[0]):
        n = lengths[i]
        if n > 0:
            start = out_offsets[at[i]]
            for j in range(n):
                out_items[start + j] = items[k + j]
            k += n


def place_lists(size: int, pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                kind: pa.DataType) -> pa.Array:
    """A list column of ``size`` rows (Arrow type ``kind``) from ``pieces`` (the rows ``at``
    each fills, their lengths, −1 for NULL, and their items, as :func:`take_lists` gives them);
    a row no piece fills is NULL.

    >>> place_lists(3, [(np.array([2, 0]), np.array([2, -1]), np.array([5, 1], np.int16))],
    ...             pa.list_(pa.int16())).to_pylist()
    [None, None, [5, 1]]
    """
    lengths = np.full(size, -1, np.int64)
    for at, piece, _ in pieces:
        lengths[at] = piece
    offsets = np.zeros(size + 1, np.int64)
    np.cumsum(np.maximum(lengths, 0), out=offsets[1:])
    item = np.dtype(kind.value_type.to_pandas_dtype())
    items = np.empty(int(offsets[-1]), item)
    for at, piece, values in pieces:
        _place_lists(np.ascontiguousarray(at, np.int64), piece, values.astype(item, copy=False),
                     offsets, items)
    null = lengths < 0
    mask = pa.array(null) if null.any() else None
    if pa.types.is_large_list(kind):
        return pa.LargeListArray.from_arrays(pa.array(offsets), pa.array(items), type=kind, mask=mask)
    if offsets[-1] >= 1 << 31:  # past a list's 32-bit offsets
        raise ValueError(f"{int(offsets[-1])} list items in one pass")
    return pa.ListArray.from_arrays(pa.array(offsets.astype(np.int32)), pa.array(items), type=kind, mask=mask)
