"""d-dimensional LCTR (lctr-sg-complexity.txt §8, docs/definitions.md §2.6): ids ``lctr_d2``,
``lctr_d3``, ``lctr_d4``.

A position is a d-dimensional Young diagram; a move picks a direction i and removes the layer at
coordinate 1 in that direction. A start of total n is a d-dimensional partition of n, held as its
heights: an array ``h`` over the (d−1)-dimensional base, non-increasing along every base
coordinate, ``h[p]`` the number of cells above base point p (d = 2: the parts of a partition;
d = 3: the entries of a plane partition; d = 4: of a solid partition).

The starts are enumerated depth first, one height at a time in the lexicographic order of the
base, each at most its predecessors along every base coordinate (:func:`_next_start`).

The game reached from a start after a_i moves in direction i is the start's cells x with
x ≥ a, shifted by −a: it is nonempty iff the cell a (0-based) is a cell of the start, so the
positions reachable from a start are its cells and the empty diagram. The sub-diagram D(x) at a
cell x is {x} ∪ ⋃_i (e_i + D(x + e_i)) and determines its d options D(x + e_i) (empty when
x + e_i is no cell); so D(x) is identified by the identifiers of its options (hash-consing),
every value (sg, sg_misere, nodes, leaves, height, the flags: all of them recursions over the
options, docs/definitions.md §3–§5) is computed once per identifier from the options', and
``states`` is the number of identifiers plus the empty diagram.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numba
import numpy as np
import pyarrow as pa

from pipeline.games.base import Game, GameError
from pipeline.games.cgh import ALL_AND, EMPTY_AND, EMPTY_OR, sadd, summarize
from pipeline.games.columns import list_array, value_columns
from pipeline.partitions import partition_numbers
from pipeline.schema import LCTR_D_GAMES, LCTR_D_SCHEMA

#: The dimensions offered (d = 2 is LCTR itself): pipeline.schema.LCTR_D_GAMES names their games.
DIMENSIONS = (2, 3, 4)
if LCTR_D_GAMES != tuple(f"lctr_d{d}" for d in DIMENSIONS):  # one list, checked where both are seen
    raise ImportError(f"schema.LCTR_D_GAMES {LCTR_D_GAMES} is not lctr_d<d> for d in {DIMENSIONS}")
_ID = re.compile(r"lctr_d([0-9]+)")


#: The most starts of one n a run accepts (docs/definitions.md §2.6): one solver thread solves
#: about 200,000 starts a second, so an n at this bound takes about an hour and a half; beyond it
#: a run is refused up front, before the walk counts or solves any start. The largest n within
#: it: lctr_d2 114, lctr_d3 43, lctr_d4 29 (:func:`largest_n`).
MAX_STARTS = 1_000_000_000

#: The solid partitions of n = 0..50 (OEIS A000293; no formula is known), the starts of
#: ``lctr_d4``: typed from the sequence's entries, and checked against the walk for n <= 16
#: (tests/test_lctr_d.py; docs/open-problems.md's runs reach n = 24 with these counts).
SOLID_PARTITIONS = (
    1, 1, 4, 10, 26, 59, 140, 307, 684, 1464, 3122, 6500, 13426, 27248, 54804, 108802, 214071,
    416849, 805124, 1541637, 2930329, 5528733, 10362312, 19295226, 35713454, 65715094, 120256653,
    218893580, 396418699, 714399381, 1281403841, 2287986987, 4067428375, 7200210523, 12693890803,
    22290727268, 38993410516, 67959010130, 118016656268, 204233654229, 352245710866,
    605538866862, 1037668522922, 1772700955975, 3019333854177, 5127694484375, 8683676638832,
    14665233966068, 24700752691832, 41495176877972, 69531305679518,
)
_NAMES = {2: "partitions of n", 3: "plane partitions of n, OEIS A000219",
          4: "solid partitions of n, OEIS A000293"}


def start_count(n: int, d: int) -> int | None:
    """The number of d-dimensional partitions of n without walking them, exact: for d = 2 the
    partition numbers, for d = 3 MacMahon's plane partitions (n·PP(n) = Σ_k σ₂(k)·PP(n − k), from
    the product Π_k (1 − x^k)^(−k)), for d = 4 :data:`SOLID_PARTITIONS`; None beyond that table
    (more than its last entry: the counts grow with n, a start with one more cell at the origin).

    >>> [start_count(n, 3) for n in range(8)], start_count(30, 3), start_count(51, 4)
    ([1, 1, 3, 6, 13, 24, 48, 86], 5668963, None)
    """
    if n < 0:
        return 0
    if d == 4:
        return SOLID_PARTITIONS[n] if n < len(SOLID_PARTITIONS) else None
    if d == 2:
        return partition_numbers(n)[n]
    sigma2 = [0] + [sum(k * k for k in range(1, m + 1) if m % k == 0) for m in range(1, n + 1)]
    pp = [1]
    for m in range(1, n + 1):
        pp.append(sum(sigma2[k] * pp[m - k] for k in range(1, m + 1)) // m)
    return pp[n]


def largest_n(d: int) -> int:
    """The largest n whose starts a run of ``lctr_d<d>`` accepts (:data:`MAX_STARTS`)."""
    n = 1
    while (count := start_count(n + 1, d)) is not None and count <= MAX_STARTS:
        n += 1
    return n


class LctrDOutput(NamedTuple):
    """One shard's output arrays (one entry per record; the offsets one more)."""

    sg: np.ndarray
    sg_misere: np.ndarray
    nodes: np.ndarray  # negative: beyond 2**63 - 1 (stored as NULL)
    leaves: np.ndarray
    states: np.ndarray
    height: np.ndarray
    flags: np.ndarray  # (6, records)
    parts: np.ndarray  # the heights, lexicographic order of the base
    parts_offsets: np.ndarray
    row_lengths: np.ndarray
    row_offsets: np.ndarray
    corners: np.ndarray  # d coordinates (1-based) per corner
    corner_offsets: np.ndarray
    num_parts: np.ndarray
    largest: np.ndarray


def _outputs(records: int, n: int, d: int) -> LctrDOutput:
    """The output arrays of ``records`` records of total n, zeroed. Allocated by numpy: the same
    arrays allocated in a kernel and returned make the kernel that fills them measurably slower
    (benchmarks/kernels_ab.py)."""
    i64 = np.int64
    return LctrDOutput(
        np.zeros(records, i64), np.zeros(records, i64), np.zeros(records, i64),
        np.zeros(records, i64), np.zeros(records, i64), np.zeros(records, i64),
        np.zeros((6, records), np.bool_),
        np.zeros(records * n, np.int16), np.zeros(records + 1, i64),
        np.zeros(records * n, np.int16), np.zeros(records + 1, i64),
        np.zeros(records * n * d, np.int16), np.zeros(records + 1, i64),
        np.zeros(records, np.int16), np.zeros(records, np.int16),
    )


class Walk(NamedTuple):
    """The enumeration's state, kept between the shards of one n so that consecutive shards
    resume where the last one stopped."""

    h: np.ndarray  # heights over the base, flattened with stride n + 1 per base coordinate
    pos: np.ndarray  # pos[k, :]: the base point of stack frame k
    val: np.ndarray  # the value frame k tries (counting down to 0)
    rem: np.ndarray  # what is left to place at frame k
    top: np.ndarray  # [0]: the frame on top (-1: the walk is over); [1]: records made so far


@numba.njit(cache=True, nogil=True)
def new_walk(n: int, d: int) -> Walk:  # pragma: no cover - compiled
    """The enumeration of the d-dimensional partitions of n, before its first start."""
    b = d - 1
    frames = 3 * n + 4  # a frame places a height ≥ 1 (≤ n) or closes a row (≤ n), a layer (≤ n), the start
    w = Walk(np.zeros((n + 1) ** b, np.int64), np.zeros((frames, b), np.int64),
             np.zeros(frames, np.int64), np.zeros(frames, np.int64), np.zeros(2, np.int64))
    _push(w.h, w.pos, w.val, w.rem, 0, np.zeros(b, np.int64), n, n)
    return w


class SubDiagrams(NamedTuple):
    """The hash-consing of sub-diagrams (:func:`_solve_start`): a table of ids by their options'
    ids, open addressing, a slot in use when its ``stamp`` is the current generation (a new
    generation empties it, with no clearing), and the values of each id."""

    stamp: np.ndarray  # the generation that filled a slot
    slot: np.ndarray  # a slot's id
    ch: np.ndarray  # ch[id, k]: the id's options' ids
    vals: np.ndarray  # vals[id]: its values (see _solve_start)
    cid: np.ndarray  # the id of the sub-diagram at each cell of the start


# inline: the tables are then fresh allocations of the kernel that uses them, which LLVM knows
# alias nothing; allocated by a call, the kernel is measurably slower (benchmarks/kernels_ab.py).
@numba.njit(cache=True, inline="always")
def _sub_diagrams(cells, n, d, base_points):  # pragma: no cover - compiled
    """Empty tables for up to ``cells`` ids of sub-diagrams (and the empty diagram, id 0), over
    starts of total n on a base of ``base_points`` points (a :class:`Walk`'s ``h``)."""
    size = 1
    while size < 4 * cells:  # at most a quarter full: short probe chains
        size *= 2
    return SubDiagrams(np.zeros(size, np.int64), np.zeros(size, np.int64),
                       np.zeros((cells + 1, d), np.int64), np.zeros((cells + 1, 7), np.int64),
                       np.zeros(base_points * (n + 1), np.int64))


@numba.njit(cache=True, nogil=True)
def _flat(p, n):  # pragma: no cover - compiled
    f = 0
    for k in range(p.shape[0]):
        f = f * (n + 1) + p[k]
    return f


@numba.njit(cache=True, nogil=True)
def _bound(h, p, rem, n):  # pragma: no cover - compiled
    """The largest height base point p may take: what is left, and at most the height before it
    along every base coordinate."""
    m = rem
    stride = 1
    for k in range(p.shape[0] - 1, -1, -1):
        if p[k] > 0:
            v = h[_flat(p, n) - stride]
            if v < m:
                m = v
        stride *= n + 1
    return m


@numba.njit(cache=True, nogil=True)
def _push(h, pos, val, rem, k, p, r, n):  # pragma: no cover - compiled
    for c in range(p.shape[0]):
        pos[k, c] = p[c]
    rem[k] = r
    val[k] = _bound(h, p, r, n) + 1  # the first try decrements it


@numba.njit(cache=True, nogil=True)
def _next_start(h, pos, val, rem, top, n):  # pragma: no cover - compiled
    """Advance the walk to its next start (True), or end it (False). At the start found, frames
    0..top hold the base points of the nonzero heights in lexicographic order (val ≥ 1) and the
    closing frames (val = 0) between them.

    A frame at base point p tries heights from its bound down to 0; a height v ≥ 1 moves on to
    the next point of the row, 0 closes: with k the last nonzero coordinate of p, coordinate
    k − 1 grows by one and the later ones restart at 0 (a new row, a new layer); with no such
    k − 1 the start is complete, a start of n when nothing is left to place.
    """
    b = pos.shape[1]
    q = np.zeros(b, np.int64)
    t = top[0]
    while t >= 0:
        val[t] -= 1
        f = _flat(pos[t], n)
        if val[t] < 0:
            h[f] = 0
            t -= 1
            continue
        h[f] = val[t]
        for c in range(b):
            q[c] = pos[t, c]
        if val[t] > 0:
            q[b - 1] += 1
            _push(h, pos, val, rem, t + 1, q, rem[t] - val[t], n)
            t += 1
            continue
        k = b - 1
        while k >= 0 and q[k] == 0:
            k -= 1
        if k <= 0:  # the start is complete
            if rem[t] == 0 and t > 0:
                top[0] = t
                return True
            continue
        q[k - 1] += 1
        for c in range(k, b):
            q[c] = 0
        _push(h, pos, val, rem, t + 1, q, rem[t], n)
        t += 1
    top[0] = -1
    return False


@numba.njit(cache=True, nogil=True)
def _solve_start(h, pos, val, top, n, d, cid, stamp, slot, gen, ch, vals, rec, out, ppos, rpos,
                 cpos):  # pragma: no cover - compiled
    """Solve the start held by the walk and write it as record ``rec``; returns the new list
    positions. ``vals[id]``: sg, sg_misere, nodes, leaves, height, and the two summaries of
    :mod:`pipeline.games.cgh` (own_and: the flags and facts, own_or); id 0 is the empty diagram.
    Kept whole: split into named helpers it ran 0.87–0.97× as fast (docs/performance.md, "Tried
    and not kept")."""
    b = d - 1
    vals[0, 0] = 0
    vals[0, 1] = 1
    vals[0, 2] = 1
    vals[0, 3] = 1
    vals[0, 4] = 0
    vals[0, 5] = EMPTY_AND  # () is (0,1), has no move: every local condition holds
    vals[0, 6] = EMPTY_OR
    ids = 1
    mask = stamp.shape[0] - 1
    c = np.zeros(d, np.int64)
    p = np.zeros(b, np.int64)
    strides = np.zeros(b, np.int64)
    s = 1
    for k in range(b - 1, -1, -1):
        strides[k] = s
        s *= n + 1
    nparts = 0
    largest = 0
    for t in range(top[0], -1, -1):
        if val[t] == 0:
            continue
        for k in range(b):
            p[k] = pos[t, k]
        f = _flat(p, n)
        hp = h[f]
        nparts += 1
        if hp > largest:
            largest = hp
        for z in range(hp - 1, -1, -1):
            # the options' ids: along base coordinate k, then up (the last coordinate)
            for k in range(b):
                if p[k] + 1 <= n - 1 and h[f + strides[k]] > z:
                    c[k] = cid[(f + strides[k]) * (n + 1) + z]
                else:
                    c[k] = 0
            c[b] = cid[f * (n + 1) + z + 1] if z + 1 < hp else 0
            hsh = np.int64(0)
            for k in range(d):
                hsh = (hsh * 1000003 + c[k] + 1) & 0x7FFFFFFFFFFF
            i = hsh & mask
            found = -1
            while stamp[i] == gen:
                e = slot[i]
                same = True
                for k in range(d):
                    if ch[e, k] != c[k]:
                        same = False
                        break
                if same:
                    found = e
                    break
                i = (i + 1) & mask
            if found < 0:
                found = ids
                ids += 1
                stamp[i] = gen
                slot[i] = found
                for k in range(d):
                    ch[found, k] = c[k]
                _values(found, c, d, vals)
            cid[f * (n + 1) + z] = found
    root = cid[_flat(pos[0], n) * (n + 1)]  # the cell (1, …, 1)
    out.sg[rec] = vals[root, 0]
    out.sg_misere[rec] = vals[root, 1]
    out.nodes[rec] = vals[root, 2]
    out.leaves[rec] = vals[root, 3]
    out.height[rec] = vals[root, 4]
    out.states[rec] = ids  # the cells' distinct sub-diagrams and ()
    for k in range(6):
        out.flags[k, rec] = (vals[root, 5] >> k) & 1  # F_ALL's bits, FLAG_NAMES order
    out.num_parts[rec] = nparts
    out.largest[rec] = largest
    # parts: the heights in lexicographic order; rows: runs along the last base coordinate;
    # corners: the top cell of a column no neighbouring column along the base reaches
    row = 0
    for t in range(top[0] + 1):
        if val[t] == 0:
            if row > 0:
                out.row_lengths[rpos] = row
                rpos += 1
            row = 0
            continue
        row += 1
        for k in range(b):
            p[k] = pos[t, k]
        f = _flat(p, n)
        hp = h[f]
        out.parts[ppos] = hp
        ppos += 1
        corner = True
        for k in range(b):
            if p[k] + 1 <= n - 1 and h[f + strides[k]] >= hp:
                corner = False
        if corner:
            for k in range(b):
                out.corners[cpos + k] = p[k] + 1
            out.corners[cpos + b] = hp
            cpos += d
    out.parts_offsets[rec + 1] = ppos
    out.row_offsets[rec + 1] = rpos
    out.corner_offsets[rec + 1] = cpos
    return ppos, rpos, cpos


@numba.njit(cache=True, nogil=True)
def _values(e, c, d, vals):  # pragma: no cover - compiled
    """The values of the position with options ``c`` (ids), as id ``e``: the mex of the options'
    values, the sums and the longest play over the options with multiplicity, and the flags by
    :func:`pipeline.games.cgh.summarize` (docs/definitions.md §3–§5)."""
    seen = 0
    seenm = 0
    nodes = np.int64(1)
    leaves = np.int64(0)
    height = 0
    agg_and = ALL_AND
    agg_or = 0
    for k in range(d):
        y = c[k]
        seen |= 1 << vals[y, 0]
        seenm |= 1 << vals[y, 1]
        nodes = sadd(nodes, vals[y, 2])
        leaves = sadd(leaves, vals[y, 3])
        if vals[y, 4] + 1 > height:
            height = vals[y, 4] + 1
        agg_and &= vals[y, 5]
        agg_or |= vals[y, 6]
    sg = 0
    while (seen >> sg) & 1:
        sg += 1
    sgm = 0
    while (seenm >> sgm) & 1:
        sgm += 1
    own_and, own_or = summarize(sg, sgm, False, agg_and, agg_or)
    vals[e, 0] = sg
    vals[e, 1] = sgm
    vals[e, 2] = nodes
    vals[e, 3] = leaves
    vals[e, 4] = height
    vals[e, 5] = own_and
    vals[e, 6] = own_or


@numba.njit(cache=True, nogil=True)
def _shard(h, pos, val, rem, top, n, d, skip, records, out):  # pragma: no cover - compiled
    """Skip ``skip`` starts of the walk, then solve the next ``records``; returns how many were
    solved (fewer: the walk ended)."""
    for _ in range(skip):
        if not _next_start(h, pos, val, rem, top, n):
            return 0
        top[1] += 1
    stamp, slot, ch, vals, cid = _sub_diagrams(n + 1, n, d, h.shape[0])
    ppos = 0
    rpos = 0
    cpos = 0
    for rec in range(records):
        if not _next_start(h, pos, val, rem, top, n):
            return rec
        top[1] += 1
        ppos, rpos, cpos = _solve_start(h, pos, val, top, n, d, cid, stamp, slot, rec + 1, ch,
                                        vals, rec, out, ppos, rpos, cpos)
    return records


@numba.njit(cache=True, nogil=True)
def count_starts(n, d):  # pragma: no cover - compiled
    """The number of d-dimensional partitions of n, by the walk itself."""
    w = new_walk(n, d)
    count = 0
    while _next_start(w.h, w.pos, w.val, w.rem, w.top, n):
        count += 1
    return count


@numba.njit(cache=True, nogil=True)
def diagonal_counts(n, d):  # pragma: no cover - compiled
    """How the values of the d-dimensional partitions π of n relate to those of their diagonal
    shift π⁺ (one layer removed in every direction: the cell (2, …, 2) on), the d-dimensional
    form of LCTR's propagation along diagonals (lctr-sg-complexity.txt Lemma 15: for d = 2,
    sg(π⁺) = 0 with π⁺ nonempty gives sg(π) = 0). Returns [starts, starts with π⁺ nonempty,
    of those sg(π⁺) = 0, of those sg(π) ≠ 0, starts with π⁺ nonempty and sg(π) = sg(π⁺)]."""
    b = d - 1
    h, pos, val, rem, top = new_walk(n, d)
    stamp, slot, ch, vals, cid = _sub_diagrams(n + 1, n, d, h.shape[0])
    out = LctrDOutput(np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
                      np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64),
                      np.zeros((6, 1), np.bool_), np.zeros(n, np.int16), np.zeros(2, np.int64),
                      np.zeros(n, np.int16), np.zeros(2, np.int64), np.zeros(n * d, np.int16),
                      np.zeros(2, np.int64), np.zeros(1, np.int16), np.zeros(1, np.int16))
    ones = np.ones(b, np.int64)
    diag = _flat(ones, n)
    counts = np.zeros(5, np.int64)
    gen = 0
    while _next_start(h, pos, val, rem, top, n):
        gen += 1
        _solve_start(h, pos, val, top, n, d, cid, stamp, slot, gen, ch, vals, 0, out, 0, 0, 0)
        counts[0] += 1
        if n >= 2 and h[diag] >= 2:
            counts[1] += 1
            sgd = vals[cid[diag * (n + 1) + 1], 0]
            if sgd == 0:
                counts[2] += 1
                if out.sg[0] != 0:
                    counts[3] += 1
            if out.sg[0] == sgd:
                counts[4] += 1
    return counts


class LctrDGame(Game):
    """``lctr_d<d>``: d-dimensional LCTR on every d-dimensional partition of n (its positions
    are d-dimensional diagrams, not cells of a Young diagram; :attr:`record_kind` ``lctr_d``)."""

    parallel = False  # consecutive shards of an n resume one walk
    positions_are = "d-dimensional diagrams"
    family = "d-dimensional LCTR"

    def __init__(self, d: int) -> None:
        self.d = d
        self.game_id = f"lctr_d{d}"
        self.schema = LCTR_D_SCHEMA
        self._counts: dict[int, int] = {}
        self._walk: tuple[int, Walk] | None = None

    @staticmethod
    def parse(game_id: str) -> LctrDGame:
        m = _ID.fullmatch(game_id.strip())
        if not m or int(m.group(1)) not in DIMENSIONS:
            raise GameError(f"game id {game_id!r}: d-dimensional LCTR is lctr_d2, lctr_d3 or lctr_d4")
        return LctrDGame(int(m.group(1)))

    def positions(self, n: int) -> int:
        """The starts of n, counted without walking them (:func:`start_count`; the run checks
        every (game, n)'s records against it before committing). An n of more than
        :data:`MAX_STARTS` starts is refused (a :class:`GameError`), so that a run beyond the
        bound stops while it plans, before it solves any start, and leaves nothing behind."""
        if n < 1:
            return 0
        if n not in self._counts:
            count = start_count(n, self.d)
            if count is None or count > MAX_STARTS:
                many = f"{count:,}" if count is not None else f"more than {SOLID_PARTITIONS[-1]:,}"
                raise GameError(f"{self.game_id} has {many} starts at n={n} ({_NAMES[self.d]}), "
                                f"beyond the {MAX_STARTS:,} a run solves per n; lower --max-n to "
                                f"{largest_n(self.d)} or below")
            self._counts[n] = count
        return self._counts[n]

    def shard_count(self, n: int, max_records: int) -> int:
        return max(1, -(-self.positions(n) // max_records))

    def shard_records(self, n: int, shard: int, max_records: int) -> int | None:
        return max(0, min(max_records, self.positions(n) - shard * max_records))

    def solve_shard(self, n: int, shard: int, max_records: int, **shared: object) -> pa.Table:
        count = self.positions(n)
        lo = shard * max_records
        records = min(max_records, count - lo)
        if records <= 0:
            raise ValueError(f"{self.game_id} n={n}: no shard {shard}")
        if self._walk is None or self._walk[0] != n or self._walk[1].top[1] > lo:
            self._walk = (n, new_walk(n, self.d))
        w = self._walk[1]
        out = _outputs(records, n, self.d)
        got = _shard(w.h, w.pos, w.val, w.rem, w.top, n, self.d, lo - int(w.top[1]), records, out)
        if got != records:
            raise RuntimeError(f"{self.game_id} n={n} shard {shard}: {got} records, expected {records}")
        return lctr_d_table(n, self.d, out)


def lctr_d_table(n: int, d: int, out: LctrDOutput) -> pa.Table:
    """The output arrays as a table with :data:`pipeline.schema.LCTR_D_SCHEMA`."""
    records = out.sg.shape[0]
    columns = [
        pa.array(np.full(records, n, np.int16)),
        list_array(out.parts[: out.parts_offsets[-1]], out.parts_offsets, pa.int16()),
        *value_columns(n, out),
        pa.array(np.full(records, d, np.int16)),
        pa.array(out.num_parts),
        pa.array(out.largest),
        list_array(out.row_lengths[: out.row_offsets[-1]], out.row_offsets, pa.int16()),
        list_array(out.corners[: out.corner_offsets[-1]], out.corner_offsets, pa.int16()),
    ]
    return pa.Table.from_arrays(columns, schema=LCTR_D_SCHEMA)


__all__ = ["DIMENSIONS", "MAX_STARTS", "LctrDGame", "count_starts", "diagonal_counts", "largest_n",
           "lctr_d_table", "start_count"]
