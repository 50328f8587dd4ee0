"""LCTR and Downright solved together: one walk of the partitions for both games.

The two games have the same moves, {(0,1), (1,0)}: the piece on cell (i, j) moves down or right.
They differ only off the diagram: an LCTR move may leave it, into the terminal position (), a
Downright move may not (docs/definitions.md §2.1). Solving a run of both (every n ≤ 100)
shard by shard with :func:`pipeline.games.lctr_downright.solve_lctr_downright` would do every shard twice, and
the two solves repeat each other's walk, interning of sub-partitions (the games have the same ones: LCTR's
``states`` is Downright's + 1, for ()), record features and row bookkeeping. This kernel does
that work once and keeps the games' values side by side:

* **A cell's class is a pair class**, standing for (its LCTR class, its Downright class) in the
  sense of :mod:`pipeline.games.lctr_downright`. A pair class is a function of the pair classes of the
  cell's two options (table ``pcombine``, filled on first use from the two games' own class
  tables), so the chain of lookups along a row, the latency that bounds a row's cost, is one
  chain, not two. A move off the diagram is the pair class (TERMINAL, ABSENT).
* **Counts are kept per game**: nodes, leaves and longest play differ (an LCTR cell also counts
  the moves off the diagram), each in its own plane of the cell table, the one-row table and the
  row aggregates, with the same recurrences as ``solve_lctr_downright``.

``tests/test_lctr_downright.py`` holds every output array equal to the two games solved apart.

>>> from pipeline.games import get_game
>>> lctr, downright = solve_pair_shard(get_game("lctr"), get_game("downright"), 3, 0, 16)
>>> lctr.to_pydict()["sg"], downright.to_pydict()["sg"]   # (1,1,1), (2,1), (3)
([1, 0, 1], [0, 1, 0])
"""

from __future__ import annotations

import numba
import numpy as np
import pyarrow as pa

from pipeline.games.cgh import sadd
from pipeline.games.columns import board_table
from pipeline.games.columns import partition_columns as columns_of
from pipeline.games.lctr_downright import (
    ABSENT,
    C_AND,
    C_SG,
    C_SGM,
    CLASS_BITS,
    MAX_CLASSES,
    TERMINAL,
    class_index,
    class_tables,
    new_class,
)
from pipeline.games.walk import (
    check_shard,
    clear_feature_slack,
    emit_features,
    empty_outputs,
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

#: Room for pair classes. Each game has at most MAX_CLASSES classes; in the shards of n = 20 to
#: 100 that the tests and the benchmark solve, far fewer pairs occur (see ``tests/test_lctr_downright``).
#: A kernel that would need more returns -1 and the caller raises.
MAX_PAIRS = 256
_PAIR_BITS = np.uint64(8)  # MAX_PAIRS = 2 ** _PAIR_BITS

#: ``tab[f, k, j]``: the pair class and sub-partition id of cell (k, j), then each game's
#: nodes, leaves, longest play (LCTR at +0, Downright at +3).
T_CLS, T_ID, T_NODES, T_LEAVES, T_HEIGHT = 0, 1, 2, 3, 4
#: ``one[f, n − d]``: the one-row partition (d): its pair class, then per game (LCTR at +0,
#: Downright at +5) nodes, leaves, longest play and the running sums of solve_lctr_downright.
O_CLS, O_NODES, O_LEAVES, O_HEIGHT, O_NSUM, O_HMAX = 0, 1, 2, 3, 4, 5
#: ``row_agg[k, f]``: aggregates of row k for a completing row above it (Downright at +3).
A_NODES, A_LEAVES, A_HEIGHT = 0, 1, 2
#: ``off[f]``: a move off the diagram: its pair class, then per game nodes, leaves, longest play.
F_CLS = 0


@numba.njit(cache=True, inline="always")
def _pidx(pb, pr):  # pragma: no cover
    """Index of the pair classes (pb, pr) in the flat ``pcombine`` table; unsigned (see
    :func:`pipeline.games.lctr_downright.class_index`)."""
    return (np.uint64(pb) << _PAIR_BITS) | np.uint64(pr)


@numba.njit(cache=True, inline="always")
def _class_of(cb, cr, cls, combine, count):  # pragma: no cover
    """One game's class of a position whose options have that game's classes ``cb`` and ``cr``
    (from its ``combine`` table, or :func:`pipeline.games.lctr_downright.new_class`); -1 if full."""
    c = np.int64(combine[class_index(cb, cr)])
    return c if c >= 0 else new_class(cb, cr, cls, combine, count, CLASS_BITS)


@numba.njit(cache=True, _nrt=False)
def _new_pair(
    pb, pr, members, pcombine, pcount, cls_l, comb_l, cnt_l, cls_d, comb_d, cnt_d,
):  # pragma: no cover
    """The pair class of a position whose options have pair classes ``pb`` and ``pr``: each
    game's class from its own table (:func:`pipeline.games.lctr_downright.new_class`), then the pair
    found among the known ones or added, and entered into ``pcombine``. -1 if a table is full."""
    cl = _class_of(members[0, pb], members[0, pr], cls_l, comb_l, cnt_l)
    cd = _class_of(members[1, pb], members[1, pr], cls_d, comb_d, cnt_d)
    if cl < 0 or cd < 0:
        return -1
    found = -1
    for p in range(pcount[0]):
        if members[0, p] == cl and members[1, p] == cd:
            found = p
            break
    if found < 0:
        if pcount[0] == members.shape[1]:
            return -1
        found = pcount[0]
        members[0, found] = cl
        members[1, found] = cd
        pcount[0] += 1
    pcombine[_pidx(pb, pr)] = found
    return found


@numba.njit(cache=True, inline="always")
def _first_tail_cell(one, length, below_len, off):  # pragma: no cover
    """Pair class and both games' nodes, leaves, longest play of cell (·, below_len) of a row
    of ``length`` cells: the one-row partition (length − below_len), or a move off the diagram
    if the row has no such cell (see :func:`pipeline.games.lctr_downright._first_tail_cell`)."""
    if below_len < length:
        i = np.uint64(one.shape[1] - 1 - length + below_len)
        return (one[O_CLS, i], one[O_NODES, i], one[O_LEAVES, i], one[O_HEIGHT, i],
                one[5 + O_NODES, i], one[5 + O_LEAVES, i], one[5 + O_HEIGHT, i])
    return off[0], off[1], off[2], off[3], off[4], off[5], off[6]


@numba.njit(cache=True, inline="always")
def _store_counts(tab, uk, uj, nodes, leaves, height, nodes2, leaves2, height2):  # pragma: no cover
    """Cell (uk, uj)'s nodes, leaves and longest play: LCTR's, then Downright's."""
    tab[T_NODES, uk, uj] = nodes
    tab[T_LEAVES, uk, uj] = leaves
    tab[T_HEIGHT, uk, uj] = height
    tab[3 + T_NODES, uk, uj] = nodes2
    tab[3 + T_LEAVES, uk, uj] = leaves2
    tab[3 + T_HEIGHT, uk, uj] = height2


@numba.njit(cache=True, inline="always")
def _tail_aggregates(one, length, below_len, n):  # pragma: no cover
    """Both games' (Σ (1 + nodes), Σ leaves, max (j + 1 + height)) over the tail of a row of
    ``length`` cells above a row of ``below_len``, LCTR's then Downright's (see
    :func:`pipeline.games.lctr_downright._tail_aggregates`): from the one-row table ``one``."""
    u = np.uint64
    start = n - length
    nsum_l = one[O_NSUM, n] - one[O_NSUM, start + below_len]
    nsum_d = one[5 + O_NSUM, n] - one[5 + O_NSUM, start + below_len]
    lsum_l = np.int64(0)
    lsum_d = np.int64(0)
    for j in range(below_len, length):
        lsum_l += one[O_LEAVES, u(start + j)]
        lsum_d += one[5 + O_LEAVES, u(start + j)]
    hmax_l = one[O_HMAX, start + below_len] - start
    hmax_d = one[5 + O_HMAX, start + below_len] - start
    return nsum_l, lsum_l, hmax_l, nsum_d, lsum_d, hmax_d


@numba.njit(cache=True, inline="always")
def _cell_below(j, below_len, below_tail, first, kb, tab, one):  # pragma: no cover
    """(pair class, nodes, leaves, height, Downright's nodes, leaves, height, id) of cell
    (kb, j) of the row below (see :func:`pipeline.games.lctr_downright._cell_below`): from the
    one-row table ``one`` at ``first + j`` when j ≥ ``below_tail``, else from ``tab``."""
    uj = np.uint64(j)
    if j >= below_tail:
        i = np.uint64(first + j)
        return (one[O_CLS, i], one[O_NODES, i], one[O_LEAVES, i], one[O_HEIGHT, i],
                one[5 + O_NODES, i], one[5 + O_LEAVES, i], one[5 + O_HEIGHT, i], np.int64(below_len - j))
    return (tab[T_CLS, kb, uj], tab[T_NODES, kb, uj], tab[T_LEAVES, kb, uj], tab[T_HEIGHT, kb, uj],
            tab[3 + T_NODES, kb, uj], tab[3 + T_LEAVES, kb, uj], tab[3 + T_HEIGHT, kb, uj],
            tab[T_ID, kb, uj])


@numba.njit(cache=True, _nrt=False)
def _solve_inner_row(
    kr, length, below_len, below_tail, tab, row_agg, one, off, members, pcombine, pcount,
    cls_l, comb_l, cnt_l, cls_d, comb_d, cnt_d, index, entries, n,
):  # pragma: no cover
    """Row ``kr`` for both games: :func:`pipeline.games.lctr_downright._solve_inner_row` with a pair
    class per cell and each game's counts. Returns the row's new sub-partitions, -1 if a class
    table is full."""
    u = np.uint64
    nsum_l, lsum_l, hmax_l, nsum_d, lsum_d, hmax_d = _tail_aggregates(one, length, below_len, n)
    rc, rn, rl, rh, rn2, rl2, rh2 = _first_tail_cell(one, length, below_len, off)
    uk = u(kr)
    if below_len == 0:
        tab[T_CLS, uk, 0] = rc
        _store_counts(tab, uk, 0, rn, rl, rh, rn2, rl2, rh2)
    new_ids = 0
    kb = u(kr - 1) if kr > 0 else u(0)
    first = n - below_len
    for j in range(below_len - 1, -1, -1):
        uj = u(j)
        bc, bn, bl, bh, bn2, bl2, bh2, bid = _cell_below(j, below_len, below_tail, first, kb, tab, one)
        c = np.int64(pcombine[_pidx(bc, rc)])
        if c < 0:
            c = _new_pair(bc, rc, members, pcombine, pcount, cls_l, comb_l, cnt_l, cls_d, comb_d, cnt_d)
            if c < 0:
                return -1
        nodes = sadd(np.int64(1), sadd(bn, rn))
        leaves = sadd(bl, rl)  # never terminal: the cell below is an option
        height = max(bh, rh) + 1
        nodes2 = sadd(np.int64(1), sadd(bn2, rn2))
        leaves2 = sadd(bl2, rl2)
        height2 = max(bh2, rh2) + 1
        ident, is_new = intern(length - j, bid, index, entries)
        new_ids += is_new
        tab[T_CLS, uk, uj] = c
        tab[T_ID, uk, uj] = ident + n  # ids 1..n are the one-row partitions
        _store_counts(tab, uk, uj, nodes, leaves, height, nodes2, leaves2, height2)
        nsum_l = sadd(nsum_l, sadd(np.int64(1), nodes))
        lsum_l = sadd(lsum_l, leaves)
        hmax_l = max(hmax_l, j + 1 + height)
        nsum_d = sadd(nsum_d, sadd(np.int64(1), nodes2))
        lsum_d = sadd(lsum_d, leaves2)
        hmax_d = max(hmax_d, j + 1 + height2)
        rc, rn, rl, rh, rn2, rl2, rh2 = c, nodes, leaves, height, nodes2, leaves2, height2
    row_agg[uk, A_NODES] = nsum_l
    row_agg[uk, A_LEAVES] = lsum_l
    row_agg[uk, A_HEIGHT] = hmax_l
    row_agg[uk, 3 + A_NODES] = nsum_d
    row_agg[uk, 3 + A_LEAVES] = lsum_d
    row_agg[uk, 3 + A_HEIGHT] = hmax_d
    return new_ids


@numba.njit(cache=True, inline="always")
def _solve_top_row(
    kr, length, below_len, below_tail, tab, row_agg, one, off, members, pcombine, pcount,
    cls_l, comb_l, cnt_l, cls_d, comb_d, cnt_d, index, n,
):  # pragma: no cover
    """The start cell of a row that completes a partition, for both games: one chain of pair
    class lookups, then each game's counts from the row below's aggregates (see
    :func:`pipeline.games.lctr_downright._solve_top_row`)."""
    u = np.uint64
    rc, rn, rl, rh, rn2, rl2, rh2 = _first_tail_cell(one, length, below_len, off)
    uk = u(kr)
    if below_len == 0:
        tab[T_CLS, uk, 0] = rc
        _store_counts(tab, uk, 0, rn, rl, rh, rn2, rl2, rh2)
        return 0
    kb = u(kr - 1)
    new_ids = 0
    first = n - below_len
    for j in range(below_len - 1, -1, -1):
        uj = u(j)
        tail = j >= below_tail
        bc = one[O_CLS, u(first + j)] if tail else tab[T_CLS, kb, uj]
        child = below_len - j if tail else tab[T_ID, kb, uj]
        c = np.int64(pcombine[_pidx(bc, rc)])
        if c < 0:
            c = _new_pair(bc, rc, members, pcombine, pcount, cls_l, comb_l, cnt_l, cls_d, comb_d, cnt_d)
            if c < 0:
                return -1
        rc = c
        new_ids += index[u(child), u(length - j)] == 0
    tab[T_CLS, uk, 0] = rc
    _store_counts(tab, uk, 0, sadd(row_agg[kb, A_NODES], rn), sadd(row_agg[kb, A_LEAVES], rl),
                  max(row_agg[kb, A_HEIGHT], below_len + rh), sadd(row_agg[kb, 3 + A_NODES], rn2),
                  sadd(row_agg[kb, 3 + A_LEAVES], rl2), max(row_agg[kb, 3 + A_HEIGHT], below_len + rh2))
    return new_ids


@numba.njit(cache=True, inline="always")
def _emit_values(r, kt, game, tab, members, cls, states, out):  # pragma: no cover
    """One game's values of the record whose start cell is (kt, 0) into its outputs ``out``."""
    c = np.uint64(members[game, np.uint64(tab[T_CLS, kt, 0])])
    out.sg[r] = cls[C_SG, c]
    out.sg_misere[r] = cls[C_SGM, c]
    out.nodes[r] = tab[3 * game + T_NODES, kt, 0]
    out.leaves[r] = tab[3 * game + T_LEAVES, kt, 0]
    out.states[r] = states
    out.height[r] = tab[3 * game + T_HEIGHT, kt, 0]
    fl = cls[C_AND, c]
    for f in range(6):
        out.flags[f, r] = (fl >> f) & 1


# nogil: the runner writes the previous shard in a thread while this solves the next one.
@numba.njit(cache=True, nogil=True)
def solve_lctr_downright_pair(n, prefix_values, prefix_offsets, features, out_l, out_d):  # pragma: no cover
    """LCTR (records into ``out_l``, with its features if ``features``) and Downright (into
    ``out_d``, values only) for every partition of n below the prefixes, in one walk.

    ``out_l`` and ``out_d`` as for :func:`pipeline.games.lctr_downright.solve_lctr_downright`. Returns the
    number of records (of each game), or -1 if a class table overflowed.
    """
    size = n + 2
    tab = np.zeros((8, size, size), dtype=np.int64)
    row_agg = np.zeros((size, 6), dtype=np.int64)
    cls_l, comb_l, cnt_l = class_tables(MAX_CLASSES)
    cls_d, comb_d, cnt_d = class_tables(MAX_CLASSES)
    members = np.zeros((2, MAX_PAIRS), dtype=np.int64)
    pcombine = np.full(MAX_PAIRS * MAX_PAIRS, -1, dtype=np.int16)
    pcount = np.ones(1, dtype=np.int64)
    # Pair class 0: a move off the diagram, into () in LCTR (1 node, 1 leaf, no further move),
    # none in Downright.
    members[0, 0], members[1, 0] = TERMINAL, ABSENT
    off = np.zeros(7, dtype=np.int64)
    off[1], off[2], off[3] = 1, 1, 0
    off[4], off[5], off[6] = 0, 0, -1
    # One-row partitions (d) at index n - d, as in solve_lctr_downright, both games.
    one = np.zeros((11, n + 1), dtype=np.int64)
    rc, rn, rl, rh, rn2, rl2, rh2 = off[0], off[1], off[2], off[3], off[4], off[5], off[6]
    for d in range(1, n + 1):
        c = np.int64(pcombine[_pidx(F_CLS, rc)])
        if c < 0:
            c = _new_pair(F_CLS, rc, members, pcombine, pcount, cls_l, comb_l, cnt_l, cls_d,
                          comb_d, cnt_d)
        rn, rl, rh = sadd(np.int64(1), sadd(off[1], rn)), sadd(off[2], rl), max(off[3], rh) + 1
        rn2, rl2 = sadd(np.int64(1), sadd(off[4], rn2)), sadd(off[5], rl2)
        if rl2 == 0:  # Downright's (1): no option, so it is itself the one leaf
            rl2 = np.int64(1)
        rh2 = max(off[6], rh2) + 1
        rc = c
        i = n - d
        one[O_CLS, i] = rc
        one[O_NODES, i], one[O_LEAVES, i], one[O_HEIGHT, i] = rn, rl, rh
        one[5 + O_NODES, i], one[5 + O_LEAVES, i], one[5 + O_HEIGHT, i] = rn2, rl2, rh2
    for g in range(2):
        b = 5 * g
        for i in range(n):
            one[b + O_NSUM, i + 1] = one[b + O_NSUM, i] + 1 + one[b + O_NODES, i]
        for i in range(n - 1, -1, -1):
            one[b + O_HMAX, i] = max(one[b + O_HMAX, i + 1], i + 1 + one[b + O_HEIGHT, i])
    tables = (tab, row_agg, one, off, members, pcombine, pcount, cls_l, comb_l, cnt_l, cls_d,
              comb_d, cnt_d)
    rec = _walk(n, prefix_values, prefix_offsets, features, out_l, out_d, tables, walk_arrays(size))
    if features and rec >= 0:
        clear_feature_slack(out_l, rec)
    return rec


@numba.njit(cache=True, inline="always")
def _solve_pushed_row(
    kr, rows, top, tab, row_agg, one, off, members, pcombine, pcount, cls_l, comb_l, cnt_l, cls_d,
    comb_d, cnt_d, index, entries, n,
):  # pragma: no cover
    """Solve row ``kr`` of ``rows``, just pushed by the walk, for both games: its start cell
    only when it completes a partition (``top``, :func:`_solve_top_row`), else the whole row
    (:func:`_solve_inner_row`). Returns as they do."""
    below = rows[kr - 1] if kr > 0 else 0
    below_tail = rows[kr - 2] if kr > 1 else 0
    if top:
        return _solve_top_row(
            kr, rows[kr], below, below_tail, tab, row_agg, one, off, members,
            pcombine, pcount, cls_l, comb_l, cnt_l, cls_d, comb_d, cnt_d, index, n,
        )
    return _solve_inner_row(
        kr, rows[kr], below, below_tail, tab, row_agg, one, off, members,
        pcombine, pcount, cls_l, comb_l, cnt_l, cls_d, comb_d, cnt_d, index, entries, n,
    )


# _nrt=False: as lctr_downright._walk (docs/performance.md).
@numba.njit(cache=True, nogil=True, _nrt=False)
def _walk(n, prefix_values, prefix_offsets, features, out_l, out_d, tables, walk):  # pragma: no cover
    """The walk of :func:`solve_lctr_downright_pair` over its allocated tables; same result."""
    (tab, row_agg, one, off, members, pcombine, pcount, cls_l, comb_l, cnt_l, cls_d, comb_d,
     cnt_d) = tables
    index, entries, rows, sums, nxt, st = (walk.index, walk.entries, walk.rows, walk.sums, walk.nxt,
                                           walk.st)
    distinct_below, gap_below, entries_below = walk.distinct_below, walk.gap_below, walk.entries_below
    conj_rows, sizes_below, parts_rev = walk.conj_rows, walk.sizes_below, walk.parts_rev

    rec = 0
    ppos = 0
    cpos = 0
    if features:
        out_l.parts_offsets[0] = 0
        out_l.conjugate_offsets[0] = 0
    for q in range(prefix_offsets.shape[0] - 1):
        first, common, base = enter_prefix(q, prefix_values, prefix_offsets, walk)
        for k in range(common, base):  # rebuild the prefix's rows, then walk its subtree
            place_row(k, prefix_values[first + k], walk)
            new_ids = _solve_inner_row(
                k, rows[k], rows[k - 1] if k > 0 else 0, rows[k - 2] if k > 1 else 0, tab,
                row_agg, one, off, members, pcombine, pcount, cls_l, comb_l, cnt_l, cls_d,
                comb_d, cnt_d, index, entries, n,
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
                new_ids = _solve_pushed_row(
                    kr, rows, sums[kr + 1] == n, tab, row_agg, one, off, members, pcombine, pcount,
                    cls_l, comb_l, cnt_l, cls_d, comb_d, cnt_d, index, entries, n,
                )
                if new_ids < 0:
                    return -1
                push_row(kr, new_ids, rows, distinct_below, gap_below, features, conj_rows, sizes_below,
                         parts_rev, sums[kr + 1] == n)
                continue
            # ---- EMIT: rows[:depth] is a partition of n; its start cell is (depth-1, 0) ----
            depth = st[0]
            kt = np.uint64(depth - 1)
            r = np.uint64(rec)
            # distinct sub-partitions (see solve_lctr_downright); LCTR also reaches ()
            states = distinct_below[depth] + gap_below[depth]
            _emit_values(r, kt, 0, tab, members, cls_l, states + 1, out_l)
            _emit_values(r, kt, 1, tab, members, cls_d, states, out_d)
            if features:
                ppos, cpos = emit_features(rec, depth, rows, conj_rows, sizes_below, parts_rev,
                                           ppos, cpos, out_l)
            rec += 1
    return rec


def solve_pair_shard(lctr, downright, n: int, shard: int, max_records: int,
                     partition_columns: dict[str, pa.Array] | None = None,
                     ) -> tuple[pa.Table, pa.Table]:
    """The tables of one shard of ``lctr`` and ``downright`` (two
    :class:`~pipeline.games.moveset.MovesetGame` of the moveset {(0,1),(1,0)}, with and without
    moves off the diagram), exactly those of their ``solve_shard``; ``partition_columns`` as
    there. The Downright table borrows the LCTR table's partition columns."""
    features = partition_columns is None
    spec, values, offsets, out_l = lctr.shard_inputs(n, shard, max_records, features)
    out_d = empty_outputs(spec.records, spec.part_values, spec.largest_values, False)
    got = solve_lctr_downright_pair(n, values, offsets, features, out_l, out_d)
    check_shard(f"{lctr.game_id} + {downright.game_id}", n, shard, got, spec.records,
                "the kernel's tables hold (lctr_downright_pair.MAX_PAIRS)")
    lctr_table = board_table(n, out_l, partition_columns)
    columns = partition_columns if partition_columns is not None else columns_of(lctr_table)
    return lctr_table, board_table(n, out_d, columns)
