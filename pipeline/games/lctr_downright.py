"""LCTR and Downright: a lean kernel for the moveset {(0,1), (1,0)} (docs/definitions.md §2.1).

A move removes the top row or the left column of λ[i, j]: the piece on cell (i, j) moves to the
cell below, (i+1, j), or to the right, (i, j+1). In LCTR a move may leave the diagram, into the
terminal position (); in Downright it may not. These are the games of the two LCTR papers,
run to every n ≤ 100, so they get their own kernel; the general moveset kernel
(:func:`pipeline.games.moveset.solve_moveset`) solves them too, and the tests hold the two
equal record for record.

The walk, the interning of sub-partitions for ``states`` and the record features are those of
the general kernel. What makes this one lean:

* **A cell is five numbers**, each in its own plane of one table ``tab``: its *class*, node
  and leaf counts, longest play, and the id of its sub-partition.
* **The class** stands for everything a position passes to the positions that move to it:
  its pair (sg, sg_misere) and its CGH summaries (:func:`pipeline.games.cgh.summarize`). A
  cell's class is a function of the classes of its two options (class ABSENT where a Downright
  move does not exist), kept in a table ``combine`` indexed by the pair (below, right) and
  filled on first use, so a cell costs one table lookup instead of two mex and the flag logic.
* **The right neighbour is in registers**: the row is solved right to left, and the option to
  the right is the cell just computed.
* **One-row sub-partitions are never stored**: a cell with no cell below it (column ≥ the
  length of the row below) is the one-row partition (length − j), read from a table solved once
  (about 45 % of the cells at n = 72).
* **The row that completes a partition is not stored** (no row is ever solved above it): its
  counts follow from sums over the row below (see :func:`_solve_top_row`), and per cell only its
  class and whether its sub-partition is new are computed.

And every hot array index is unsigned: numba adds a negative-index fix-up to a signed one,
which would lie on the chain of class lookups along a row (see :func:`class_index`). The walk itself
(``_walk``) allocates nothing and runs without numba's reference counting.

Its cost per record against the general kernel's: docs/performance.md, "Current figures" and
"Measurements behind the code" (``benchmarks/bench.py``).

>>> from pipeline.games import get_game
>>> get_game("lctr").solve_shard(3, 0, 16).to_pydict()["sg"]   # (1,1,1), (2,1), (3)
[1, 0, 1]
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.games.cgh import ALL_AND, EMPTY_AND, EMPTY_OR, mex, sadd, summarize
from pipeline.games.walk import (
    clear_feature_slack,
    emit_features,
    enter_prefix,
    intern,
    place_row,
    pop_row,
    push_row,
    pushed_row,
    start_subtree,
    walk_arrays,
)
from pipeline.partitions import DONE, POP, PUSH, walk_next

#: Class 0: no option (Downright, a move off the diagram). Class 1: a terminal position, pair
#: (0, 1) — Downright's single cell, or LCTR's () that a move off the diagram reaches.
ABSENT, TERMINAL = 0, 1
#: Room for classes, ABSENT and TERMINAL included. A class is a (sg, sg_misere, summaries)
#: tuple with sg, sg_misere ≤ 2 (two options), so thousands could exist in principle; in the
#: shards of n = 20, 40, 60, 72 and 90, LCTR uses at most 19 slots (ABSENT, TERMINAL and 17
#: more) and Downright 14. A kernel that would need more than MAX_CLASSES returns -1 and the
#: game raises, instead of writing wrong records.
MAX_CLASSES = 64
CLASS_BITS = np.uint64(6)  # MAX_CLASSES = 2 ** CLASS_BITS

# Each kind of table is one array, its planes named below: fewer arrays mean fewer base
# pointers and strides held in registers (with more, the row solvers spill them to the stack).
#: ``cls[f, c]``: what class c stands for.
C_SG, C_SGM, C_AND, C_OR = 0, 1, 2, 3
#: ``tab[f, k, j]``: cell (k, j) of the walk's rows (k counted from the bottom row).
T_CLS, T_NODES, T_LEAVES, T_HEIGHT, T_ID = 0, 1, 2, 3, 4
#: ``one[f, n − d]``: the one-row partition (d), and running sums over it (see solve_lctr_downright).
O_CLS, O_NODES, O_LEAVES, O_HEIGHT, O_NSUM, O_HMAX = 0, 1, 2, 3, 4, 5
#: ``row_agg[k, f]``: aggregates of row k for the row that completes a partition above it.
A_NODES, A_LEAVES, A_HEIGHT = 0, 1, 2


@numba.njit(cache=True, inline="always")
def class_index(cb, cr):  # pragma: no cover
    """Index of (cb, cr) in the flat ``combine`` table. Unsigned, so that numba adds no
    negative-index fix-up: this lookup is the chain along a row (each cell's class needs the
    previous one), and the fix-up would be a third of its latency."""
    return (np.uint64(cb) << CLASS_BITS) | np.uint64(cr)


@numba.njit(cache=True, _nrt=False)
def new_class(cb, cr, cls, combine, count, class_bits):  # pragma: no cover
    """The class of a position whose options have classes ``cb`` and ``cr`` (ABSENT: no such
    move; docs/definitions.md §3–§5).

    Found among the known classes or added; entered into ``combine`` at ``(cb << class_bits) |
    cr``, the caller's :func:`class_index` (each kernel has its own table size, MAX_CLASSES =
    2 ** class_bits: this module's, and :mod:`pipeline.games.nonrepetitive`'s). Returns -1 if
    there is no room (the caller raises). Called once per (cb, cr) pair per kernel call.
    """
    sgb = 0
    sgmb = 0
    agg_and = ALL_AND
    agg_or = 0
    cnt = 0
    for k in range(2):
        c = np.int64(cb) if k == 0 else np.int64(cr)
        if c != ABSENT:
            sgb |= 1 << cls[C_SG, c]
            sgmb |= 1 << cls[C_SGM, c]
            agg_and &= cls[C_AND, c]
            agg_or |= cls[C_OR, c]
            cnt += 1
    g = mex(sgb)
    m = mex(sgmb)
    terminal = cnt == 0
    if terminal:
        g, m = 0, 1
    own_and, own_or = summarize(g, m, terminal, agg_and, agg_or)
    found = -1
    for c in range(1, count[0]):
        if (cls[C_SG, c] == g and cls[C_SGM, c] == m and cls[C_AND, c] == own_and
                and cls[C_OR, c] == own_or):
            found = c
            break
    if found < 0:
        if count[0] == cls.shape[1]:
            return -1
        found = count[0]
        cls[C_SG, found] = g
        cls[C_SGM, found] = m
        cls[C_AND, found] = own_and
        cls[C_OR, found] = own_or
        count[0] += 1
    combine[(np.uint64(cb) << class_bits) | np.uint64(cr)] = found
    return found


@numba.njit(cache=True)
def class_tables(max_classes):  # pragma: no cover
    """A kernel's class tables before its first class: ``cls`` (what class c stands for, TERMINAL
    filled in), ``combine`` (the class of each pair of option classes, -1 while unknown: see
    :func:`new_class`) and ``count`` (``[classes in use]``, ABSENT and TERMINAL), for up to
    ``max_classes`` classes."""
    cls = np.zeros((4, max_classes), dtype=np.int64)
    cls[C_SG, TERMINAL], cls[C_SGM, TERMINAL] = 0, 1
    cls[C_AND, TERMINAL], cls[C_OR, TERMINAL] = EMPTY_AND, EMPTY_OR
    combine = np.full(max_classes * max_classes, -1, dtype=np.int16)
    count = np.full(1, 2, dtype=np.int64)
    return cls, combine, count


@numba.njit(cache=True)
def off_diagram(exits):  # pragma: no cover
    """(class, nodes, leaves, height) of a move off the diagram: into () in LCTR (``exits``: 1
    node, 1 leaf, no further move), none in Downright (class ABSENT)."""
    off = np.zeros(4, dtype=np.int64)
    if exits:
        off[0], off[1], off[2], off[3] = TERMINAL, 1, 1, 0
    else:
        off[0], off[1], off[2], off[3] = ABSENT, 0, 0, -1
    return off


@numba.njit(cache=True, inline="always")
def _first_tail_cell(one, length, below_len, off):  # pragma: no cover
    """Class, nodes, leaves, height of cell (·, below_len) of a row of ``length`` cells: the
    first cell with no cell below (the one-row partition (length − below_len)), or a move off
    the diagram (``off``) if there is none."""
    if below_len < length:
        i = np.uint64(one.shape[1] - 1 - length + below_len)
        return one[O_CLS, i], one[O_NODES, i], one[O_LEAVES, i], one[O_HEIGHT, i]
    return off[0], off[1], off[2], off[3]


@numba.njit(cache=True, inline="always")
def _tail_aggregates(one, length, below_len, n):  # pragma: no cover
    """(Σ (1 + nodes), Σ leaves, max (j + 1 + height)) over the tail of a row of ``length``
    cells above a row of ``below_len``: its cells j ≥ ``below_len``, the one-row partitions
    (length − j), read from the one-row table's running sums ``one[O_NSUM]`` and maxima
    ``one[O_HMAX]`` (see :func:`solve_lctr_downright`); the leaves are summed here, not ahead:
    they are rarely needed."""
    u = np.uint64  # unsigned indices: see class_index
    start = n - length
    nsum = one[O_NSUM, n] - one[O_NSUM, start + below_len]
    lsum = np.int64(0)
    for j in range(below_len, length):
        lsum += one[O_LEAVES, u(start + j)]
    hmax = one[O_HMAX, start + below_len] - start
    return nsum, lsum, hmax


@numba.njit(cache=True, inline="always")
def _cell_below(j, below_len, below_tail, first, kb, tab, one):  # pragma: no cover
    """(class, nodes, leaves, height, id) of cell (kb, j) of the row below (``below_len``
    cells, above a row of ``below_tail``): from the one-row table ``one`` at ``first + j``
    (``first`` = n − below_len) when j ≥ ``below_tail`` (nothing below it: the one-row
    partition (below_len − j), whose id is its length), else from ``tab``."""
    uj = np.uint64(j)  # unsigned indices: see class_index
    if j >= below_tail:
        i = np.uint64(first + j)
        return one[O_CLS, i], one[O_NODES, i], one[O_LEAVES, i], one[O_HEIGHT, i], np.int64(below_len - j)
    return (tab[T_CLS, kb, uj], tab[T_NODES, kb, uj], tab[T_LEAVES, kb, uj], tab[T_HEIGHT, kb, uj],
            tab[T_ID, kb, uj])


@numba.njit(cache=True, _nrt=False)
def _solve_inner_row(
    kr, length, below_len, below_tail, tab, row_agg, one, off, combine, cls, count, index,
    entries, n,
):  # pragma: no cover
    """Solve and store row ``kr`` (``length`` cells above a row of ``below_len`` cells, itself
    above a row of ``below_tail``), right to left: a row that does not complete a partition, so
    that rows will be solved above it.

    Only columns < ``below_len`` are stored: cells at columns ≥ ``below_len`` have no cell
    below, and λ[i, j] there is the one-row partition (length − j), which the row above reads
    from the one-row table ``one``. ``off`` is the value of a move off the diagram (() in LCTR,
    nothing in Downright). Also stores the row's aggregates ``row_agg[kr]`` for a row that
    completes a partition above it (see :func:`_solve_top_row`). Returns how many of the row's
    sub-partitions with two or more rows are new (not a sub-partition of a lower row), or -1 if
    the class table is full.
    """
    u = np.uint64  # unsigned indices: see class_index
    nsum, lsum, hmax = _tail_aggregates(one, length, below_len, n)
    rc, rn, rl, rh = _first_tail_cell(one, length, below_len, off)
    uk = u(kr)
    if below_len == 0:  # the bottom row: only its start cell is stored, for a record
        tab[T_CLS, uk, 0] = rc
        tab[T_NODES, uk, 0] = rn
        tab[T_LEAVES, uk, 0] = rl
        tab[T_HEIGHT, uk, 0] = rh
    new_ids = 0
    kb = u(kr - 1) if kr > 0 else u(0)
    first = n - below_len  # cell (kb, j) is the one-row partition (below_len − j) for j ≥ below_tail
    for j in range(below_len - 1, -1, -1):
        uj = u(j)
        bc, bn, bl, bh, bid = _cell_below(j, below_len, below_tail, first, kb, tab, one)
        c = np.int64(combine[class_index(bc, rc)])
        if c < 0:
            c = new_class(bc, rc, cls, combine, count, CLASS_BITS)
            if c < 0:
                return -1
        nodes = sadd(np.int64(1), sadd(bn, rn))
        leaves = sadd(bl, rl)  # never terminal: the cell below is an option
        height = max(bh, rh) + 1
        ident, is_new = intern(length - j, bid, index, entries)
        new_ids += is_new
        tab[T_CLS, uk, uj] = c
        tab[T_NODES, uk, uj] = nodes
        tab[T_LEAVES, uk, uj] = leaves
        tab[T_HEIGHT, uk, uj] = height
        tab[T_ID, uk, uj] = ident + n  # ids 1..n are the one-row partitions
        nsum = sadd(nsum, sadd(np.int64(1), nodes))
        lsum = sadd(lsum, leaves)
        hmax = max(hmax, j + 1 + height)
        rc, rn, rl, rh = c, nodes, leaves, height
    row_agg[uk, A_NODES] = nsum
    row_agg[uk, A_LEAVES] = lsum
    row_agg[uk, A_HEIGHT] = hmax
    return new_ids


@numba.njit(cache=True, inline="always")
def _solve_top_row(
    kr, length, below_len, below_tail, tab, row_agg, one, off, combine, cls, count, index, n,
):  # pragma: no cover
    """The start cell (kr, 0) of a row that completes a partition; stores only that cell.

    Its counts need no walk along the row: unrolling ``nodes(kr, j) = 1 + nodes(kr-1, j) +
    nodes(kr, j+1)`` over j < below_len gives the row below's Σ (1 + nodes) plus the first tail
    cell's nodes; likewise leaves (Σ), and the longest play, max_j (j + 1 + height(kr-1, j)) or
    below_len + the first tail cell's. The row below stored those (``row_agg``). What remains
    per cell is its class (a chain of table lookups) and whether its sub-partition is new.
    Arguments and result as :func:`_solve_inner_row`.
    """
    u = np.uint64  # unsigned indices: see class_index
    rc, rn, rl, rh = _first_tail_cell(one, length, below_len, off)
    uk = u(kr)
    if below_len == 0:  # the one-row partition (length): its start cell is a tail cell
        tab[T_CLS, uk, 0] = rc
        tab[T_NODES, uk, 0] = rn
        tab[T_LEAVES, uk, 0] = rl
        tab[T_HEIGHT, uk, 0] = rh
        return 0
    kb = u(kr - 1)
    new_ids = 0
    first = n - below_len
    for j in range(below_len - 1, -1, -1):
        # Columns ≥ below_tail: the cell below is the one-row partition (below_len − j).
        uj = u(j)
        tail = j >= below_tail
        bc = one[O_CLS, u(first + j)] if tail else tab[T_CLS, kb, uj]
        child = below_len - j if tail else tab[T_ID, kb, uj]
        c = np.int64(combine[class_index(bc, rc)])
        if c < 0:
            c = new_class(bc, rc, cls, combine, count, CLASS_BITS)
            if c < 0:
                return -1
        rc = c
        # Looked up, not interned: the row's sub-partitions differ from each other (each has
        # its own number of columns), and nothing is solved above this row.
        new_ids += index[u(child), u(length - j)] == 0
    tab[T_CLS, uk, 0] = rc
    tab[T_NODES, uk, 0] = sadd(row_agg[kb, A_NODES], rn)
    tab[T_LEAVES, uk, 0] = sadd(row_agg[kb, A_LEAVES], rl)
    tab[T_HEIGHT, uk, 0] = max(row_agg[kb, A_HEIGHT], below_len + rh)
    return new_ids


# nogil: the runner writes the previous shard in a thread while this solves the next one.
@numba.njit(cache=True, nogil=True)
def solve_lctr_downright(n, prefix_values, prefix_offsets, exits, features, out):  # pragma: no cover
    """Solve LCTR (``exits``) or Downright for every partition of n below the prefixes.

    Same contract as :func:`pipeline.games.moveset.solve_moveset`: one record per partition
    into ``out`` (its features only if ``features``); returns the number of records, or -1 if
    the class table overflowed.
    """
    size = n + 2
    tab = np.zeros((5, size, size), dtype=np.int64)
    row_agg = np.zeros((size, 3), dtype=np.int64)  # see _solve_inner_row
    cls, combine, count = class_tables(MAX_CLASSES)
    off = off_diagram(exits)
    # One-row partitions (d), d = 1..n, at index n - d: options (d - 1) to the right (or off
    # the diagram when d = 1) and off the diagram below.
    one = np.zeros((6, n + 1), dtype=np.int64)
    rc, rn, rl, rh = off[0], off[1], off[2], off[3]
    for d in range(1, n + 1):
        c = np.int64(combine[class_index(off[0], rc)])
        if c < 0:
            c = new_class(off[0], rc, cls, combine, count, CLASS_BITS)
        nodes = sadd(np.int64(1), sadd(off[1], rn))
        leaves = sadd(off[2], rl)
        if leaves == 0:  # Downright's (1): no option, so it is itself the one leaf
            leaves = np.int64(1)
        height = max(off[3], rh) + 1
        rc, rn, rl, rh = c, nodes, leaves, height
        one[O_CLS, n - d], one[O_NODES, n - d], one[O_LEAVES, n - d] = rc, rn, rl
        one[O_HEIGHT, n - d] = rh
    # For a row's tail (columns ≥ the row below's length, i.e. indices ≥ some i of the table):
    # one[O_NSUM, i] = Σ_{i' < i} (1 + nodes of i'), so the tail's Σ (1 + nodes) is a
    # difference (one-row counts are at most 2n + 1: no overflow), and one[O_HMAX, i] =
    # max_{i' ≥ i} (i' + 1 + height of i'), the tail's max (j + 1 + height) up to the shift by
    # n - length.
    for i in range(n):
        one[O_NSUM, i + 1] = one[O_NSUM, i] + 1 + one[O_NODES, i]
    for i in range(n - 1, -1, -1):
        one[O_HMAX, i] = max(one[O_HMAX, i + 1], i + 1 + one[O_HEIGHT, i])
    rec = _walk(n, prefix_values, prefix_offsets, exits, features, out, tab, row_agg, one, off,
                combine, cls, count, walk_arrays(size))
    if features and rec >= 0:
        clear_feature_slack(out, rec)
    return rec


@numba.njit(cache=True, inline="always")
def _emit_values(rec, depth, tab, cls, states, out):  # pragma: no cover
    """The values of record ``rec``, the partition rows[:depth], from its start cell (depth-1,
    0), and its ``states``."""
    kt = np.uint64(depth - 1)  # unsigned indices: see class_index
    r = np.uint64(rec)
    c = np.uint64(tab[T_CLS, kt, 0])
    out.sg[r] = cls[C_SG, c]
    out.sg_misere[r] = cls[C_SGM, c]
    out.nodes[r] = tab[T_NODES, kt, 0]
    out.leaves[r] = tab[T_LEAVES, kt, 0]
    out.height[r] = tab[T_HEIGHT, kt, 0]
    fl = cls[C_AND, c]
    for f in range(6):
        out.flags[f, r] = (fl >> f) & 1
    out.states[r] = states


@numba.njit(cache=True, inline="always")
def _solve_pushed_row(kr, rows, top, tab, row_agg, one, off, combine, cls, count, index, entries,
                      n):  # pragma: no cover
    """Solve row ``kr`` of ``rows``, just pushed by the walk: its start cell only when it
    completes a partition (``top``, :func:`_solve_top_row`), else the whole row
    (:func:`_solve_inner_row`). Returns as they do."""
    below = rows[kr - 1] if kr > 0 else 0
    below_tail = rows[kr - 2] if kr > 1 else 0
    if top:
        return _solve_top_row(
            kr, rows[kr], below, below_tail, tab, row_agg, one, off, combine, cls, count, index, n,
        )
    return _solve_inner_row(
        kr, rows[kr], below, below_tail, tab, row_agg, one, off, combine, cls, count, index,
        entries, n,
    )


# _nrt=False: the walk allocates nothing (an allocation here fails to compile), and without it
# numba's reference counting puts atomic increments and decrements around the inlined row
# solvers (the arguments they bind) on every record (docs/performance.md).
@numba.njit(cache=True, nogil=True, _nrt=False)
def _walk(n, prefix_values, prefix_offsets, exits, features, out, tab, row_agg, one, off, combine,
          cls, count, walk):  # pragma: no cover
    """The walk of :func:`solve_lctr_downright` over its allocated tables (``walk``: the arrays of
    :func:`pipeline.games.walk.walk_arrays`); same result."""
    index, entries, rows, sums, nxt, st = (walk.index, walk.entries, walk.rows, walk.sums, walk.nxt,
                                           walk.st)
    distinct_below, gap_below, entries_below = walk.distinct_below, walk.gap_below, walk.entries_below
    conj_rows, sizes_below, parts_rev = walk.conj_rows, walk.sizes_below, walk.parts_rev
    rec = 0
    ppos = 0
    cpos = 0
    if features:
        out.parts_offsets[0] = 0
        out.conjugate_offsets[0] = 0
    for q in range(prefix_offsets.shape[0] - 1):
        first, common, base = enter_prefix(q, prefix_values, prefix_offsets, walk)
        for k in range(common, base):  # rebuild the prefix's rows, then walk its subtree
            place_row(k, prefix_values[first + k], walk)
            below = rows[k - 1] if k > 0 else 0
            new_ids = _solve_inner_row(
                k, rows[k], below, rows[k - 2] if k > 1 else 0, tab, row_agg, one, off,
                combine, cls, count, index, entries, n,
            )
            if new_ids < 0:
                return -1
            push_row(k, new_ids, rows, distinct_below, gap_below, features, conj_rows, sizes_below,
                     parts_rev, False)
        start_subtree(base, walk)
        while True:
            code = walk_next(n, rows, sums, nxt, st)
            if code == DONE:
                break
            if code == POP:
                pop_row(st, index, entries, entries_below)
                continue
            if code == PUSH:
                kr = pushed_row(st, index, entries_below)
                new_ids = _solve_pushed_row(kr, rows, sums[kr + 1] == n, tab, row_agg, one, off,
                                            combine, cls, count, index, entries, n)
                if new_ids < 0:
                    return -1
                push_row(kr, new_ids, rows, distinct_below, gap_below, features, conj_rows, sizes_below,
                         parts_rev, sums[kr + 1] == n)
                continue
            # ---- EMIT: rows[:depth] is a partition of n; its start cell is (depth-1, 0) ----
            depth = st[0]
            # distinct sub-partitions: ≥ 2 rows (interned), one-row ones (1)…(largest gap),
            # and () in LCTR
            _emit_values(rec, depth, tab, cls, distinct_below[depth] + gap_below[depth]
                         + (1 if exits else 0), out)
            if features:
                ppos, cpos = emit_features(rec, depth, rows, conj_rows, sizes_below, parts_rev,
                                           ppos, cpos, out)
            rec += 1
    return rec
