"""The non-repetitive variants of LCTR and Downright, ``lctr_nr`` and ``downright_nr``
(docs/definitions.md §2.5; lctr-sg-complexity.txt §8).

The moves are LCTR's (T: drop the top row, L: drop the left column, both legal from every
nonempty partition) or Downright's (down, right: legal when the target cell exists); a move is
forbidden when it would complete a window of four consecutive moves with two of each kind. A
position is the partition with the last (up to three) moves; a start is a partition with none.

Solving machinery: the walk of :mod:`pipeline.partitions` (rows pushed bottom first), as in
:mod:`pipeline.games.lctr_downright`. A position's value depends on its sub-partition λ[i, j]
and its history only, so when row k is pushed every cell (k, j) gets its values for each of the
eight three-move histories, from the cell below (a T / down move) and the cell to the right (an
L / right move) with the history shifted. The positions with fewer than three moves played are
the start and its first two moves' targets: solved per record from the table (seven positions).

``states`` counts distinct (sub-partition, history) positions. Which histories reach cell
(i, j) from the start does not depend on λ (every cell weakly above-left of a cell exists, so a
path to a cell of the diagram stays in it): :func:`reach_table` gives them once per n, and a
record marks the (sub-partition id, history) pairs of its reachable cells in a table stamped
with the record's number (no clearing), plus, in LCTR, the histories with which a move off the
diagram reaches ().

A history is a state index ``s``: ``(1 << len) - 1 + bits`` for the ``len`` ≤ 3 last moves,
``bits`` holding them oldest first from the high bit, 1 for L / right, 0 for T / down.

>>> from pipeline.games import get_game
>>> get_game("lctr_nr").solve_shard(3, 0, 16).to_pydict()["sg"]   # (1,1,1), (2,1), (3)
[1, 0, 1]
"""

from __future__ import annotations

import numba
import numpy as np
import pyarrow as pa

from pipeline.games.cgh import sadd
from pipeline.games.columns import board_table
from pipeline.games.lctr_downright import (
    ABSENT,
    C_AND,
    C_SG,
    C_SGM,
    class_tables,
    new_class,
    off_diagram,
)
from pipeline.games.walk import (
    PartitionWalkGame,
    check_shard,
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
from pipeline.partitions import DONE, EMIT, POP, PUSH, walk_next
from pipeline.schema import BOARD_SCHEMA, NR_GAMES

#: The two kinds of move: T / down (to the cell below) and L / right (to the cell on the right).
MOVE_T, MOVE_L = 0, 1
#: History states: 15 (none, 2 of one move, 4 of two, 8 of three); the long ones are 7..14.
STATES = 15
LONG = 7

# The planes of a cell's values, ``tab[f, k, j, h]`` for the three-move history h = s - LONG:
# its class (pipeline.games.lctr_downright: the pair and CGH summaries), nodes, leaves, longest play.
T_CLS, T_NODES, T_LEAVES, T_HEIGHT = 0, 1, 2, 3


#: Classes, those of :mod:`pipeline.games.lctr_downright` (its ``new_class``, ABSENT, TERMINAL and
#: ``cls`` planes): a position's pair (sg, sg_misere) and CGH summaries
#: (:func:`pipeline.games.cgh.summarize`), one ``combine`` lookup per pair of option classes.
#: Class 0: no move; class 1: a terminal position. The histories make more classes than LCTR's
#: (more than 64 at n = 60), so the table has room for 256; a kernel that would need more
#: returns -1 and the game raises.
MAX_CLASSES = 256
CLASS_BITS = np.uint64(8)  # MAX_CLASSES = 2 ** CLASS_BITS


@numba.njit(cache=True, inline="always")
def class_index(cb, cr):  # pragma: no cover
    """Index of the class pair (cb, cr) in the flat ``combine`` table."""
    return (np.uint64(cb) << CLASS_BITS) | np.uint64(cr)


@numba.njit(cache=True, inline="always")
def next_state(s, m):  # pragma: no cover
    """The history after move ``m`` from history state ``s``: the last (up to three) moves."""
    length = 0 if s == 0 else (1 if s < 3 else (2 if s < 7 else 3))
    bits = s - ((1 << length) - 1)
    bits = ((bits << 1) | m) & 7
    length = min(length + 1, 3)
    return (1 << length) - 1 + (bits & ((1 << length) - 1))


@numba.njit(cache=True, inline="always")
def allowed(s, m):  # pragma: no cover
    """Whether move ``m`` is legal after history ``s`` by the non-repetition rule: it is not, when
    it and the three moves before it are two of each kind."""
    if s < LONG:
        return True
    bits = s - LONG
    ls = (bits & 1) + ((bits >> 1) & 1) + ((bits >> 2) & 1) + m
    return ls != 2


@numba.njit(cache=True)
def reach_table(n):  # pragma: no cover
    """``reach[i, j]``: bit s set iff some legal sequence of moves from the start (history 0)
    reaches cell (i, j) (i moves T, j moves L) with history s, for i, j ≤ n + 1."""
    size = n + 2
    reach = np.zeros((size, size), dtype=np.int64)
    reach[0, 0] = 1
    for d in range(2 * size - 1):
        for i in range(max(0, d - size + 1), min(d, size - 1) + 1):
            j = d - i
            mask = reach[i, j]
            if mask == 0:
                continue
            for s in range(STATES):
                if (mask >> s) & 1:
                    if i + 1 < size and allowed(s, MOVE_T):
                        reach[i + 1, j] |= np.int64(1) << next_state(s, MOVE_T)
                    if j + 1 < size and allowed(s, MOVE_L):
                        reach[i, j + 1] |= np.int64(1) << next_state(s, MOVE_L)
    return reach


@numba.njit(cache=True, inline="always")
def _option(tab, exists, k, j, s, ok, off):  # pragma: no cover
    """(class, nodes, leaves, height) of a move to history ``s`` at cell (k, j) (bottom-up row
    k): the cell's if it ``exists``, else ``off`` (a move off the board: () in LCTR, none in
    Downright); no move (class ABSENT) if the rule forbids it (not ``ok``)."""
    if not ok:
        return np.int64(ABSENT), np.int64(0), np.int64(0), np.int64(-1)
    if exists:
        h = s - LONG
        return tab[T_CLS, k, j, h], tab[T_NODES, k, j, h], tab[T_LEAVES, k, j, h], tab[T_HEIGHT, k, j, h]
    return off[0], off[1], off[2], off[3]


@numba.njit(cache=True, inline="always")
def _combine(b, r, cls, combine, count):  # pragma: no cover
    """(class, nodes, leaves, height) of a position whose moves lead to ``b`` and ``r`` (each
    as :func:`_option` gives it): docs/definitions.md §3–§5. Class -1: the class table is full."""
    c = np.int64(combine[class_index(b[0], r[0])])
    if c < 0:
        c = new_class(b[0], r[0], cls, combine, count, CLASS_BITS)
    nodes = sadd(np.int64(1), sadd(b[1], r[1]))
    leaves = sadd(b[2], r[2])
    if leaves == 0:  # no move: the position is itself the one play
        leaves = np.int64(1)
    return c, nodes, leaves, max(b[3], r[3]) + 1


@numba.njit(cache=True, _nrt=False)
def _solve_row(k, rows, tab, ids, index, entries, off, cls, combine, count, top):  # pragma: no cover
    """Solve row k (bottom-up) right to left: every cell's values for the eight three-move
    histories, and its sub-partition's id. Returns False if the class table is full.

    A row that completes a partition (``top``: no row is pushed above it) is the record's row
    0, whose cells (0, j) a play reaches with j L moves and nothing else: only the history LLL
    is solved there (the cells j < 3 are the record's short histories, :func:`_emit`).
    """
    length = rows[k]
    below = rows[k - 1] if k > 0 else 0
    first = 7 if top else 0
    for j in range(length - 1, -1, -1):
        child = ids[k - 1, j] if j < below else 0
        ident, _ = intern(length - j, child, index, entries)
        ids[k, j] = ident
        has_below = j < below
        has_right = j + 1 < length
        for h in range(first, 8):
            s = LONG + h
            vb = _option(tab, has_below, k - 1, j, next_state(s, MOVE_T), allowed(s, MOVE_T), off)
            vr = _option(tab, has_right, k, j + 1, next_state(s, MOVE_L), allowed(s, MOVE_L), off)
            c, nodes, leaves, height = _combine(vb, vr, cls, combine, count)
            if c < 0:
                return False
            tab[T_CLS, k, j, h] = c
            tab[T_NODES, k, j, h] = nodes
            tab[T_LEAVES, k, j, h] = leaves
            tab[T_HEIGHT, k, j, h] = height
    return True


@numba.njit(cache=True, inline="always")
def _solve_short_histories(depth, rows, tab, short, off, cls, combine, count):  # pragma: no cover
    """The positions of the partition rows[:depth] (bottom-up) with fewer than three moves
    played, into ``short[f, s]`` for each of the seven short histories s, deepest first (their
    options are the longer histories of ``tab`` or shorter ones solved before). The history
    fixes the cell (i T moves, j L moves); those of a cell outside the diagram are solved too,
    from nothing, and never read: a cell's options are read only where they exist. Returns
    False if the class table is full."""
    for s in range(LONG - 1, -1, -1):
        length = 0 if s == 0 else (1 if s < 3 else 2)
        bits = s - ((1 << length) - 1)
        j = (bits & 1) + ((bits >> 1) & 1)
        i = length - j
        # the move down (T) reaches (i + 1, j), the move right (L) reaches (i, j + 1)
        sb = next_state(s, MOVE_T)
        sr = next_state(s, MOVE_L)
        kb = depth - 2 - i
        if i + 1 < depth and j < rows[kb]:
            if sb < LONG:
                vb = (short[T_CLS, sb], short[T_NODES, sb], short[T_LEAVES, sb], short[T_HEIGHT, sb])
            else:
                vb = _option(tab, True, kb, j, sb, True, off)
        else:
            vb = _option(tab, False, 0, 0, sb, True, off)
        kr = depth - 1 - i
        if j + 1 < rows[kr]:
            if sr < LONG:
                vr = (short[T_CLS, sr], short[T_NODES, sr], short[T_LEAVES, sr], short[T_HEIGHT, sr])
            else:
                vr = _option(tab, True, kr, j + 1, sr, True, off)
        else:
            vr = _option(tab, False, 0, 0, sr, True, off)
        c, nodes, leaves, height = _combine(vb, vr, cls, combine, count)
        if c < 0:
            return False
        short[T_CLS, s] = c
        short[T_NODES, s] = nodes
        short[T_LEAVES, s] = leaves
        short[T_HEIGHT, s] = height
    return True


@numba.njit(cache=True, inline="always")
def _write_values(rec, short, cls, out):  # pragma: no cover
    """Record ``rec``'s values: those of its start, history 0 of ``short`` (sg, sg_misere and
    the six flags, the bits of its class's and summary, from the class table ``cls``; nodes,
    leaves, height; docs/definitions.md §3–§5)."""
    c = short[T_CLS, 0]
    out.sg[rec] = cls[C_SG, c]
    out.sg_misere[rec] = cls[C_SGM, c]
    out.nodes[rec] = short[T_NODES, 0]
    out.leaves[rec] = short[T_LEAVES, 0]
    out.height[rec] = short[T_HEIGHT, 0]
    fl = cls[C_AND, c]
    for f in range(6):
        out.flags[f, rec] = (fl >> f) & 1


@numba.njit(cache=True, inline="always")
def _count_states(rec, depth, rows, ids, reach, seen, exits):  # pragma: no cover
    """``states`` of record ``rec``, the partition rows[:depth] (bottom-up): the distinct
    (sub-partition, history) pairs over its cells, a cell's sub-partition ``ids[k, j]`` and the
    histories that reach it ``reach[i, j]`` (:func:`reach_table`), marked in ``seen`` with the
    stamp rec + 1 (no clearing); with ``exits`` (LCTR) plus the histories with which a move
    leaves the diagram into () (docs/definitions.md §4)."""
    stamp = rec + 1
    states = 0
    ends = 0
    for i in range(depth):
        k = depth - 1 - i
        for j in range(rows[k]):
            mask = reach[i, j]
            if mask == 0:
                continue
            ident = ids[k, j]
            right = j + 1 < rows[k]
            down = k > 0 and j < rows[k - 1]
            for s in range(STATES):
                if (mask >> s) & 1:
                    if seen[ident, s] != stamp:
                        seen[ident, s] = stamp
                        states += 1
                    if exits:
                        if not down and allowed(s, MOVE_T):
                            ends |= 1 << next_state(s, MOVE_T)
                        if not right and allowed(s, MOVE_L):
                            ends |= 1 << next_state(s, MOVE_L)
    while ends:
        states += ends & 1
        ends >>= 1
    return states


@numba.njit(cache=True, _nrt=False)
def _emit(rec, depth, rows, tab, ids, reach, seen, short, off, cls, combine, count, exits,
          out):  # pragma: no cover
    """Record ``rec``: the partition rows[:depth] (bottom-up) started with no move played.
    Returns False if the class table is full."""
    if not _solve_short_histories(depth, rows, tab, short, off, cls, combine, count):
        return False
    _write_values(rec, short, cls, out)
    # states: distinct (sub-partition, history) over the reachable cells, plus () in LCTR
    out.states[rec] = _count_states(rec, depth, rows, ids, reach, seen, exits)
    return True


@numba.njit(cache=True, nogil=True)
def solve_nonrepetitive(n, prefix_values, prefix_offsets, exits, reach, features, out):  # pragma: no cover
    """Solve ``lctr_nr`` (``exits``) or ``downright_nr`` for every partition of n below the
    prefixes: one record per partition into ``out`` (its features only if ``features``), in the
    walk's order (the board games' shards). ``reach``: :func:`reach_table` of n. Returns the
    number of records, or -1 if the class table overflowed."""
    size = n + 2
    tab = np.zeros((4, size, size, 8), dtype=np.int64)
    ids = np.zeros((size, size), dtype=np.int64)
    walk = walk_arrays(size)
    seen = np.zeros((walk.index.shape[0], STATES), dtype=np.int64)
    short = np.zeros((4, LONG), dtype=np.int64)
    cls, combine, count = class_tables(MAX_CLASSES)
    off = off_diagram(exits)
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
            if not _solve_row(k, rows, tab, ids, index, entries, off, cls, combine, count, False):
                return -1
            push_row(k, 0, rows, distinct_below, gap_below, features, conj_rows, sizes_below,
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
                if not _solve_row(kr, rows, tab, ids, index, entries, off, cls, combine, count,
                                  sums[kr + 1] == n):
                    return -1
                push_row(kr, 0, rows, distinct_below, gap_below, features, conj_rows, sizes_below,
                         parts_rev, sums[kr + 1] == n)
                continue
            if code == EMIT:
                depth = st[0]
                if not _emit(rec, depth, rows, tab, ids, reach, seen, short, off, cls, combine, count,
                             exits, out):
                    return -1
                if features:
                    ppos, cpos = emit_features(rec, depth, rows, conj_rows, sizes_below, parts_rev,
                                               ppos, cpos, out)
                rec += 1
    if features:
        clear_feature_slack(out, rec)
    return rec


class NonRepetitiveGame(PartitionWalkGame):
    """``lctr_nr`` or ``downright_nr`` as the runner sees it (see :class:`pipeline.games.base.Game`;
    its shards are the board games', :class:`pipeline.games.walk.PartitionWalkGame`). Its
    positions are partitions, a box's the sub-partition below and right of it (the values of a
    diagram, :attr:`diagram_positions`), with no moveset the single-partition solver takes."""

    diagram_positions = True
    positions_are = "partitions"
    family = "the non-repetitive games"

    def __init__(self, game_id: str):
        if game_id not in NR_GAMES:
            raise ValueError(f"unknown game {game_id!r} (known: {', '.join(NR_GAMES)})")
        super().__init__()
        self.game_id = game_id
        self.schema = BOARD_SCHEMA
        #: LCTR's moves may leave the diagram, into the terminal position (); Downright's may not.
        self.exits = game_id == "lctr_nr"
        self._reach: dict[int, np.ndarray] = {}

    def solve_shard(self, n: int, shard: int, max_records: int,
                    partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
        """The records of one shard (``partition_columns``: another board game's of the same
        shard, see :func:`pipeline.games.columns.common_columns`)."""
        features = partition_columns is None
        spec, values, offsets, out = self.shard_inputs(n, shard, max_records, features)
        if n not in self._reach:
            self._reach[n] = reach_table(n)
        got = solve_nonrepetitive(n, values, offsets, self.exits, self._reach[n], features, out)
        check_shard(self.game_id, n, shard, got, spec.records,
                    "the kernel's table holds (nonrepetitive.MAX_CLASSES)")
        return board_table(n, out, partition_columns)
