"""LCTR and Downright: a lean kernel for the moveset {(0,1), (1,0)} (SPEC §2.1).

A move removes the top row or the left column of λ[i, j]: the piece on cell (i, j) moves to the
cell below, (i+1, j), or to the right, (i, j+1). In LCTR a move may leave the diagram, into the
terminal position (); in Downright it may not. These are the games of the two LCTR papers and
of the overnight runs (every n ≤ 100), so they get their own kernel; the general moveset kernel
(:func:`pipeline.games.moveset.solve_moveset`) solves them too, and the tests hold the two
equal record for record.

The walk, the interning of sub-partitions for ``states`` and the record features are those of
the general kernel. What makes this one lean (issue 6, target 1):

* **A cell is five numbers** in five row-major tables, not a 64-byte struct: its *class*, node
  and leaf counts, longest play, and the id of its sub-partition.
* **The class** stands for everything a position passes to the positions that move to it:
  its pair (sg, sg_misere) and its CGH summaries (:func:`pipeline.games.cgh.summarize`). A
  cell's class is a function of the classes of its two options (class ABSENT where a Downright
  move does not exist), kept in a
  table ``combine`` (indexed by the pair (below, right)) that is filled on first use, so a cell costs one table lookup
  instead of two mex and the flag logic.
* **The right neighbour is in registers**: the row is solved right to left, and the option to
  the right is the cell just computed.
* **One-row sub-partitions are never stored**: a cell with no cell below it (column ≥ the
  length of the row below) is the one-row partition (length − j), read from a table solved once
  (about 45 % of the cells at n = 72).
* **The row that completes a partition is not stored** (no row is ever solved above it): its
  counts follow from sums over the row below (see :func:`_solve_top_row`), and per cell only its
  class and whether its sub-partition is new are computed.

Measured at n = 72 on one thread (kernel alone, alternating runs): 350–390 ns per record against
525–610 for the general kernel; the naive sg-only baseline of ``benchmarks/`` takes 150–160.

>>> from pipeline.games import get_game
>>> get_game("lctr").solve_shard(3, 0, 16).to_pydict()["sg"]   # (1,1,1), (2,1), (3)
[1, 0, 1]
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.games.cgh import ALL_AND, sadd, summarize
from pipeline.games.moveset import (
    EMPTY_AND,
    EMPTY_OR,
    _intern,
    _push_features,
    _undo_entries,
    emit_features,
)
from pipeline.partitions import DONE, POP, PUSH, shared_depth, walk_next

#: Class 0: no option (Downright, a move off the diagram). Class 1: a terminal position, pair
#: (0, 1) — Downright's single cell, or LCTR's () that a move off the diagram reaches.
ABSENT, TERMINAL = 0, 1
#: Room for classes, ABSENT and TERMINAL included. A class is a (sg, sg_misere, summaries)
#: tuple with sg, sg_misere ≤ 2 (two options), so thousands could exist in principle; in a
#: shard of n = 20, 40, 60, 72 or 90 at most 17 occur for LCTR and 12 for Downright. A kernel
#: that would need more returns -1 and the game raises, instead of writing wrong records.
MAX_CLASSES = 64
_CLASS_BITS = np.uint64(6)  # MAX_CLASSES = 2 ** _CLASS_BITS


@numba.njit(cache=True, inline="always")
def _pair(cb, cr):  # pragma: no cover
    """Index of (cb, cr) in the flat ``combine`` table. Unsigned, so that numba adds no
    negative-index fix-up: this lookup is the chain along a row (each cell's class needs the
    previous one), and the fix-up was a third of its latency (profiled)."""
    return (np.uint64(cb) << _CLASS_BITS) | np.uint64(cr)


@numba.njit(cache=True, _nrt=False)
def _new_class(cb, cr, cls_g, cls_m, cls_and, cls_or, combine, count):  # pragma: no cover
    """The class of a position whose options have classes ``cb`` and ``cr`` (SPEC §3–§5).

    Found among the known classes or added; entered into ``combine``. Returns -1 if there is no
    room (the caller raises). Called once per (cb, cr) pair per kernel call.
    """
    sgb = 0
    sgmb = 0
    agg_and = ALL_AND
    agg_or = 0
    cnt = 0
    for k in range(2):
        c = np.int64(cb) if k == 0 else np.int64(cr)
        if c != ABSENT:
            sgb |= 1 << cls_g[c]
            sgmb |= 1 << cls_m[c]
            agg_and &= cls_and[c]
            agg_or |= cls_or[c]
            cnt += 1
    g = 0
    while (sgb >> g) & 1:
        g += 1
    m = 0
    while (sgmb >> m) & 1:
        m += 1
    terminal = cnt == 0
    if terminal:
        g, m = 0, 1
    own_and, own_or = summarize(g, m, terminal, agg_and, agg_or)
    found = -1
    for c in range(1, count[0]):
        if cls_g[c] == g and cls_m[c] == m and cls_and[c] == own_and and cls_or[c] == own_or:
            found = c
            break
    if found < 0:
        if count[0] == cls_g.shape[0]:
            return -1
        found = count[0]
        cls_g[found] = g
        cls_m[found] = m
        cls_and[found] = own_and
        cls_or[found] = own_or
        count[0] += 1
    combine[_pair(cb, cr)] = found
    return found


@numba.njit(cache=True, inline="always")
def _below(
    kb, j, tail_from, width, n, c_tab, n_tab, l_tab, h_tab, id_tab, one_c, one_n, one_l, one_h,
):  # pragma: no cover
    """Class, nodes, leaves, height and id of cell (kb, j) of a row of ``width`` cells whose
    columns ≥ ``tail_from`` have no cell below: those are one-row partitions (width − j), read
    from the one-row table instead of being copied into every row."""
    if j >= tail_from:
        i = n - width + j
        return one_c[i], one_n[i], one_l[i], one_h[i], width - j
    return c_tab[kb, j], n_tab[kb, j], l_tab[kb, j], h_tab[kb, j], id_tab[kb, j]


@numba.njit(cache=True, _nrt=False)
def _solve_inner_row(
    kr, length, below_len, below_tail, c_tab, n_tab, l_tab, h_tab, id_tab, row_agg,
    one_c, one_n, one_l, one_h, one_nsum, one_hmax, out_c, out_n, out_l, out_h,
    combine, cls_g, cls_m, cls_and, cls_or, count, index, entries, n,
):  # pragma: no cover
    """Solve and store row ``kr`` (``length`` cells above a row of ``below_len`` cells, itself
    above a row of ``below_tail``), right to left: a row that does not complete a partition, so
    that rows will be solved above it.

    Only columns < ``below_len`` are stored: cells at columns ≥ ``below_len`` have no cell
    below, and λ[i, j] there is the one-row partition (length − j), which the row above reads
    from the one-row table (:func:`_below`). ``out_*`` is the value of a move off the diagram
    (() in LCTR, nothing in Downright). Also stores the row's aggregates ``row_agg[kr]`` for a
    row that completes a partition above it (see :func:`_solve_top_row`). Returns how many of
    the row's sub-partitions with two or more rows are new (not a sub-partition of a lower
    row), or -1 if the class table is full.
    """
    start = n - length
    # The tail's aggregates, from the one-row table's running sums (see solve_topleft).
    nsum = one_nsum[n] - one_nsum[start + below_len]
    lsum = np.int64(0)
    for j in range(below_len, length):  # leaves are not summed ahead: they are rarely needed
        lsum += one_l[start + j]
    hmax = one_hmax[start + below_len] - start
    # The right neighbour of column below_len - 1: the first tail cell, or off the diagram.
    if below_len < length:
        rc = one_c[start + below_len]
        rn = one_n[start + below_len]
        rl = one_l[start + below_len]
        rh = one_h[start + below_len]
    else:
        rc, rn, rl, rh = out_c, out_n, out_l, out_h
    if below_len == 0:  # the bottom row: only its start cell is stored, for a record
        c_tab[kr, 0] = rc
        n_tab[kr, 0] = rn
        l_tab[kr, 0] = rl
        h_tab[kr, 0] = rh
    new_ids = 0
    kb = kr - 1
    for j in range(below_len - 1, -1, -1):
        bc, bn, bl, bh, bid = _below(
            kb, j, below_tail, below_len, n, c_tab, n_tab, l_tab, h_tab, id_tab,
            one_c, one_n, one_l, one_h,
        )
        c = np.int64(combine[_pair(bc, rc)])
        if c < 0:
            c = _new_class(bc, rc, cls_g, cls_m, cls_and, cls_or, combine, count)
            if c < 0:
                return -1
        nodes = sadd(np.int64(1), sadd(bn, rn))
        leaves = sadd(bl, rl)  # never terminal: the cell below is an option
        height = max(bh, rh) + 1
        ident, is_new = _intern(length - j, bid, index, entries)
        new_ids += is_new
        c_tab[kr, j] = c
        n_tab[kr, j] = nodes
        l_tab[kr, j] = leaves
        h_tab[kr, j] = height
        id_tab[kr, j] = ident + n  # ids 1..n are the one-row partitions
        nsum = sadd(nsum, sadd(np.int64(1), nodes))
        lsum = sadd(lsum, leaves)
        hmax = max(hmax, j + 1 + height)
        rc, rn, rl, rh = c, nodes, leaves, height
    row_agg[kr, 0] = nsum
    row_agg[kr, 1] = lsum
    row_agg[kr, 2] = hmax
    return new_ids


@numba.njit(cache=True, _nrt=False)
def _solve_top_row(
    kr, length, below_len, below_tail, c_tab, n_tab, l_tab, h_tab, id_tab, row_agg,
    one_c, one_n, one_l, one_h, out_c, out_n, out_l, out_h,
    combine, cls_g, cls_m, cls_and, cls_or, count, index, n,
):  # pragma: no cover
    """The start cell (kr, 0) of a row that completes a partition; stores only that cell.

    Its counts need no walk along the row: unrolling ``nodes(kr, j) = 1 + nodes(kr-1, j) +
    nodes(kr, j+1)`` over j < below_len gives the row below's Σ (1 + nodes) plus the first tail
    cell's nodes; likewise leaves (Σ), and the longest play, max_j (j + 1 + height(kr-1, j)) or
    below_len + the first tail cell's. The row below stored those (``row_agg``). What remains
    per cell is its class (a chain of table lookups) and whether its sub-partition is new.
    Arguments and result as :func:`_solve_inner_row`.
    """
    start = n - length
    if below_len < length:
        rc = one_c[start + below_len]
        rn = one_n[start + below_len]
        rl = one_l[start + below_len]
        rh = one_h[start + below_len]
    else:
        rc, rn, rl, rh = out_c, out_n, out_l, out_h
    if below_len == 0:  # the one-row partition (length): its start cell is a tail cell
        c_tab[kr, 0] = rc
        n_tab[kr, 0] = rn
        l_tab[kr, 0] = rl
        h_tab[kr, 0] = rh
        return 0
    kb = kr - 1
    new_ids = 0
    first = n - below_len
    for j in range(below_len - 1, -1, -1):
        # Columns ≥ below_tail: the cell below is the one-row partition (below_len − j).
        tail = j >= below_tail
        bc = one_c[first + j] if tail else c_tab[kb, j]
        child = below_len - j if tail else id_tab[kb, j]
        c = np.int64(combine[_pair(bc, rc)])
        if c < 0:
            c = _new_class(bc, rc, cls_g, cls_m, cls_and, cls_or, combine, count)
            if c < 0:
                return -1
        rc = c
        # Looked up, not interned: the row's sub-partitions differ from each other (each has
        # its own number of columns), and nothing is solved above this row.
        new_ids += index[np.uint64(child), np.uint64(length - j)] == 0  # unsigned: see _pair
    c_tab[kr, 0] = rc
    n_tab[kr, 0] = sadd(row_agg[kb, 0], rn)
    l_tab[kr, 0] = sadd(row_agg[kb, 1], rl)
    h_tab[kr, 0] = max(row_agg[kb, 2], below_len + rh)
    return new_ids


# nogil: the runner writes the previous shard in a thread while this solves the next one.
@numba.njit(cache=True, nogil=True)
def solve_topleft(n, prefix_values, prefix_offsets, exits, out):  # pragma: no cover
    """Solve LCTR (``exits``) or Downright for every partition of n below the prefixes.

    Same contract as :func:`pipeline.games.moveset.solve_moveset`: one record per partition
    into ``out``; returns the number of records, or -1 if the class table overflowed.
    """
    (out_sg, out_sgm, out_nodes, out_leaves, out_states, out_height, out_flags,
     out_parts, out_parts_off, out_conj, out_conj_off,
     out_num_parts, out_largest, out_durfee, out_rank, out_distinct) = out
    size = n + 2
    c_tab = np.zeros((size, size), dtype=np.int32)
    n_tab = np.zeros((size, size), dtype=np.int64)
    l_tab = np.zeros((size, size), dtype=np.int64)
    h_tab = np.zeros((size, size), dtype=np.int32)
    id_tab = np.zeros((size, size), dtype=np.int32)
    row_agg = np.zeros((size, 3), dtype=np.int64)  # see _solve_inner_row
    combine = np.full(MAX_CLASSES * MAX_CLASSES, -1, dtype=np.int16)
    cls_g = np.zeros(MAX_CLASSES, dtype=np.int64)
    cls_m = np.zeros(MAX_CLASSES, dtype=np.int64)
    cls_and = np.zeros(MAX_CLASSES, dtype=np.int64)
    cls_or = np.zeros(MAX_CLASSES, dtype=np.int64)
    cls_g[TERMINAL], cls_m[TERMINAL] = 0, 1
    cls_and[TERMINAL], cls_or[TERMINAL] = EMPTY_AND, EMPTY_OR
    count = np.full(1, 2, dtype=np.int64)
    # A move off the diagram: into () in LCTR (1 node, 1 leaf, no further move), none otherwise.
    if exits:
        out_c, out_n, out_l, out_h = TERMINAL, np.int64(1), np.int64(1), np.int64(0)
    else:
        out_c, out_n, out_l, out_h = ABSENT, np.int64(0), np.int64(0), np.int64(-1)
    # One-row partitions (d), d = 1..n, at index n - d: options (d - 1) to the right (or off
    # the diagram when d = 1) and off the diagram below.
    one_c = np.zeros(n + 1, dtype=np.int64)
    one_n = np.zeros(n + 1, dtype=np.int64)
    one_l = np.zeros(n + 1, dtype=np.int64)
    one_h = np.zeros(n + 1, dtype=np.int64)
    rc, rn, rl, rh = out_c, out_n, out_l, out_h
    for d in range(1, n + 1):
        c = np.int64(combine[_pair(out_c, rc)])
        if c < 0:
            c = _new_class(out_c, rc, cls_g, cls_m, cls_and, cls_or, combine, count)
        nodes = sadd(np.int64(1), sadd(out_n, rn))
        leaves = sadd(out_l, rl)
        if leaves == 0:  # Downright's (1): no option, so it is itself the one leaf
            leaves = np.int64(1)
        height = max(out_h, rh) + 1
        rc, rn, rl, rh = c, nodes, leaves, height
        one_c[n - d], one_n[n - d], one_l[n - d], one_h[n - d] = rc, rn, rl, rh
    # For a row's tail (columns ≥ the row below's length, i.e. indices ≥ some i of the table):
    # one_nsum[i] = Σ_{i' < i} (1 + one_n[i']), so the tail's Σ (1 + nodes) is a difference
    # (one-row counts are at most 2n + 1: no overflow), and one_hmax[i] = max_{i' ≥ i}
    # (i' + 1 + one_h[i']), the tail's max (j + 1 + height) up to the shift by n - length.
    one_nsum = np.zeros(n + 1, dtype=np.int64)
    for i in range(n):
        one_nsum[i + 1] = one_nsum[i] + 1 + one_n[i]
    one_hmax = np.zeros(n + 1, dtype=np.int64)
    for i in range(n - 1, -1, -1):
        one_hmax[i] = max(one_hmax[i + 1], i + 1 + one_h[i])
    # Interning of sub-partitions, as in solve_moveset.
    ids = 2 * size + 1
    index = np.zeros((ids + 1, size), dtype=np.int32)
    entries = np.zeros((2, size), dtype=np.int64)
    rows = np.zeros(size, dtype=np.int64)
    sums = np.zeros(size, dtype=np.int64)
    nxt = np.zeros(size, dtype=np.int64)
    st = np.zeros(3, dtype=np.int64)
    distinct_below = np.zeros(size, dtype=np.int64)
    gap_below = np.zeros(size, dtype=np.int64)
    entries_below = np.zeros(size, dtype=np.int64)
    conj_rows = np.zeros((size, size), dtype=np.int16)
    sizes_below = np.zeros(size, dtype=np.int64)
    parts_rev = np.zeros(size, dtype=np.int16)

    rec = 0
    ppos = 0
    cpos = 0
    out_parts_off[0] = 0
    out_conj_off[0] = 0
    for q in range(prefix_offsets.shape[0] - 1):
        a0, b0 = prefix_offsets[q], prefix_offsets[q + 1]
        base = b0 - a0
        common = shared_depth(rows, st[0], prefix_values, a0, b0)
        if common < st[0]:
            _undo_entries(entries_below[common], index, entries)
        for k in range(common, base):  # rebuild the prefix's rows, then walk its subtree
            rows[k] = prefix_values[a0 + k]
            sums[k + 1] = sums[k] + rows[k]
            entries_below[k] = index[-1, 0]
            below = rows[k - 1] if k > 0 else 0
            new_ids = _solve_inner_row(
                k, rows[k], below, rows[k - 2] if k > 1 else 0, c_tab, n_tab, l_tab, h_tab,
                id_tab, row_agg, one_c, one_n, one_l, one_h, one_nsum, one_hmax,
                out_c, out_n, out_l, out_h,
                combine, cls_g, cls_m, cls_and, cls_or, count, index, entries, n,
            )
            if new_ids < 0:
                return -1
            distinct_below[k + 1] = distinct_below[k] + new_ids
            gap_below[k + 1] = max(gap_below[k], rows[k] - below)
            _push_features(k, rows, conj_rows, sizes_below, parts_rev)
        st[0] = base
        st[1] = base
        st[2] = 0
        nxt[base] = rows[base - 1] if base > 0 else 1
        while True:
            code = walk_next(n, rows, sums, nxt, st)
            if code == DONE:
                break
            if code == POP:
                if index[-1, 0] > entries_below[st[0]]:  # a completing row interned nothing
                    _undo_entries(entries_below[st[0]], index, entries)
                continue
            if code == PUSH:
                kr = st[0] - 1
                entries_below[kr] = index[-1, 0]
                below = rows[kr - 1] if kr > 0 else 0
                below_tail = rows[kr - 2] if kr > 1 else 0
                if sums[kr + 1] == n:
                    new_ids = _solve_top_row(
                        kr, rows[kr], below, below_tail, c_tab, n_tab, l_tab, h_tab, id_tab, row_agg,
                        one_c, one_n, one_l, one_h, out_c, out_n, out_l, out_h,
                        combine, cls_g, cls_m, cls_and, cls_or, count, index, n,
                    )
                else:
                    new_ids = _solve_inner_row(
                        kr, rows[kr], below, below_tail, c_tab, n_tab, l_tab, h_tab, id_tab,
                        row_agg, one_c, one_n, one_l, one_h, one_nsum, one_hmax,
                        out_c, out_n, out_l, out_h,
                        combine, cls_g, cls_m, cls_and, cls_or, count, index, entries, n,
                    )
                if new_ids < 0:
                    return -1
                distinct_below[kr + 1] = distinct_below[kr] + new_ids
                gap_below[kr + 1] = max(gap_below[kr], rows[kr] - below)
                _push_features(kr, rows, conj_rows, sizes_below, parts_rev)
                continue
            # ---- EMIT: rows[:depth] is a partition of n; its start cell is (depth-1, 0) ----
            depth = st[0]
            kt = np.uint64(depth - 1)  # unsigned indices: see _pair
            r = np.uint64(rec)
            c = np.uint64(c_tab[kt, 0])
            out_sg[r] = cls_g[c]
            out_sgm[r] = cls_m[c]
            out_nodes[r] = n_tab[kt, 0]
            out_leaves[r] = l_tab[kt, 0]
            out_height[r] = h_tab[kt, 0]
            fl = cls_and[c]
            for f in range(6):
                out_flags[f, r] = (fl >> f) & 1
            # distinct sub-partitions: ≥ 2 rows (interned), one-row ones (1)…(largest gap),
            # and () in LCTR
            out_states[r] = distinct_below[depth] + gap_below[depth] + (1 if exits else 0)
            ppos, cpos = emit_features(
                rec, depth, rows, conj_rows, sizes_below, parts_rev, ppos, cpos,
                out_parts, out_parts_off, out_conj, out_conj_off,
                out_num_parts, out_largest, out_durfee, out_rank, out_distinct,
            )
            rec += 1
    return rec
