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

from pipeline.games.base import Game
from pipeline.games.cgh import ALL_AND, EMPTY_AND, EMPTY_OR, F_ALL, sadd, summarize
from pipeline.games.columns import board_table
from pipeline.games.walk import (
    clear_feature_slack,
    emit_features,
    intern,
    push_row,
    undo_entries,
    walk_arrays,
)
from pipeline.partitions import (
    DONE,
    EMIT,
    POP,
    PUSH,
    Shard,
    flatten_prefixes,
    partition_numbers,
    plan_shards,
    shared_depth,
    walk_next,
)
from pipeline.schema import BOARD_SCHEMA, NR_GAMES

#: The two kinds of move: T / down (to the cell below) and L / right (to the cell on the right).
MOVE_T, MOVE_L = 0, 1
#: History states: 15 (none, 2 of one move, 4 of two, 8 of three); the long ones are 7..14.
STATES = 15
LONG = 7

# The planes of a cell's values, ``tab[f, k, j, h]`` for the three-move history h = s - LONG.
V_SG, V_SGM, V_AND, V_OR, V_NODES, V_LEAVES, V_HEIGHT, V_COUNT = 0, 1, 2, 3, 4, 5, 6, 7


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
def _node(has_b, b, has_r, r):  # pragma: no cover
    """Values of a position from its options' (each a tuple sg, sgm, and, or, nodes, leaves,
    height; ``has_*`` False when the move is forbidden or leaves the board in Downright):
    docs/definitions.md §3–§5."""
    sgb = 0
    sgmb = 0
    agg_and = ALL_AND
    agg_or = 0
    nodes = np.int64(1)
    leaves = np.int64(0)
    height = np.int64(-1)
    if has_b:
        sgb |= 1 << b[0]
        sgmb |= 1 << b[1]
        agg_and &= b[2]
        agg_or |= b[3]
        nodes = sadd(nodes, b[4])
        leaves = sadd(leaves, b[5])
        height = max(height, b[6])
    if has_r:
        sgb |= 1 << r[0]
        sgmb |= 1 << r[1]
        agg_and &= r[2]
        agg_or |= r[3]
        nodes = sadd(nodes, r[4])
        leaves = sadd(leaves, r[5])
        height = max(height, r[6])
    terminal = not has_b and not has_r
    g = 0
    while (sgb >> g) & 1:
        g += 1
    m = 0
    while (sgmb >> m) & 1:
        m += 1
    if terminal:
        g, m = 0, 1
        leaves = np.int64(1)
    own_and, own_or = summarize(g, m, terminal, agg_and, agg_or)
    return (np.int64(g), np.int64(m), np.int64(own_and), np.int64(own_or), nodes, leaves,
            height + 1)


@numba.njit(cache=True, inline="always")
def _read(tab, k, j, h):  # pragma: no cover
    return (tab[V_SG, k, j, h], tab[V_SGM, k, j, h], tab[V_AND, k, j, h], tab[V_OR, k, j, h],
            tab[V_NODES, k, j, h], tab[V_LEAVES, k, j, h], tab[V_HEIGHT, k, j, h])


@numba.njit(cache=True, inline="always")
def _terminal():  # pragma: no cover
    """The values of (): pair (0, 1), every flag true, one node and leaf, no move."""
    return (np.int64(0), np.int64(1), np.int64(EMPTY_AND), np.int64(EMPTY_OR), np.int64(1),
            np.int64(1), np.int64(0))


@numba.njit(cache=True, inline="always")
def _option(tab, exists, k, j, s, exits):  # pragma: no cover
    """(present, values) of a move to history ``s`` at cell (k, j) (bottom-up row k) if
    ``exists``, else off the board: () in LCTR (``exits``), no move in Downright."""
    if exists:
        return True, _read(tab, k, j, s - LONG)
    return exits, _terminal()


@numba.njit(cache=True, _nrt=False)
def _solve_row(k, rows, tab, ids, index, entries, exits, top):  # pragma: no cover
    """Solve row k (bottom-up) right to left: every cell's values for the eight three-move
    histories, and its sub-partition's id.

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
            sb = next_state(s, MOVE_T)
            sr = next_state(s, MOVE_L)
            pb, vb = _option(tab, has_below, k - 1, j, sb, exits)
            pr, vr = _option(tab, has_right, k, j + 1, sr, exits)
            v = _node(pb and allowed(s, MOVE_T), vb, pr and allowed(s, MOVE_L), vr)
            for f in range(V_COUNT):
                tab[f, k, j, h] = v[f]


@numba.njit(cache=True, _nrt=False)
def _emit(rec, depth, rows, tab, ids, reach, seen, short, exits, out):  # pragma: no cover
    """Record ``rec``: the partition rows[:depth] (bottom-up) started with no move played."""
    # The seven positions with fewer than three moves played, deepest first: the history fixes
    # the cell (i T moves, j L moves).
    for s in range(LONG - 1, -1, -1):
        length = 0 if s == 0 else (1 if s < 3 else 2)
        bits = s - ((1 << length) - 1)
        j = (bits & 1) + ((bits >> 1) & 1)
        i = length - j
        has_b = False
        has_r = False
        vb = _terminal()
        vr = _terminal()
        for m in range(2):
            ti = i + 1 - m
            tj = j + m
            tk = depth - 1 - ti
            exists = ti < depth and tj < rows[tk]
            s2 = next_state(s, m)
            if exists and s2 < LONG:
                present = True
                v = (short[0, s2], short[1, s2], short[2, s2], short[3, s2], short[4, s2],
                     short[5, s2], short[6, s2])
            elif exists:
                present = True
                v = _read(tab, tk, tj, s2 - LONG)
            else:
                present = exits
                v = _terminal()
            if m == 0:
                has_b, vb = present, v
            else:
                has_r, vr = present, v
        v = _node(has_b, vb, has_r, vr)
        for f in range(V_COUNT):
            short[f, s] = v[f]
    out.sg[rec] = short[V_SG, 0]
    out.sg_misere[rec] = short[V_SGM, 0]
    out.nodes[rec] = short[V_NODES, 0]
    out.leaves[rec] = short[V_LEAVES, 0]
    out.height[rec] = short[V_HEIGHT, 0]
    fl = short[V_AND, 0] & F_ALL
    for f in range(6):
        out.flags[f, rec] = (fl >> f) & 1
    # states: distinct (sub-partition, history) over the reachable cells, plus () in LCTR
    stamp = rec + 1
    count = 0
    off = 0
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
                        count += 1
                    if exits:
                        if not down and allowed(s, MOVE_T):
                            off |= 1 << next_state(s, MOVE_T)
                        if not right and allowed(s, MOVE_L):
                            off |= 1 << next_state(s, MOVE_L)
    while off:
        count += off & 1
        off >>= 1
    out.states[rec] = count


# nogil: the runner writes the previous shard in a thread while this solves the next one.
@numba.njit(cache=True, nogil=True)
def solve_nonrepetitive(n, prefix_values, prefix_offsets, exits, reach, features, out):  # pragma: no cover
    """Solve ``lctr_nr`` (``exits``) or ``downright_nr`` for every partition of n below the
    prefixes: one record per partition into ``out`` (its features only if ``features``), in the
    walk's order (the board games' shards). ``reach``: :func:`reach_table` of n. Returns the
    number of records."""
    size = n + 2
    tab = np.zeros((V_COUNT, size, size, 8), dtype=np.int64)
    ids = np.zeros((size, size), dtype=np.int64)
    walk = walk_arrays(size)
    seen = np.zeros((walk.index.shape[0], STATES), dtype=np.int64)
    short = np.zeros((V_COUNT, LONG), dtype=np.int64)
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
        a0, b0 = prefix_offsets[q], prefix_offsets[q + 1]
        base = b0 - a0
        common = shared_depth(rows, st[0], prefix_values, a0, b0)
        if common < st[0]:
            undo_entries(entries_below[common], index, entries)
        for k in range(common, base):  # rebuild the prefix's rows, then walk its subtree
            rows[k] = prefix_values[a0 + k]
            sums[k + 1] = sums[k] + rows[k]
            entries_below[k] = index[-1, 0]
            _solve_row(k, rows, tab, ids, index, entries, exits, False)
            push_row(k, 0, rows, distinct_below, gap_below, features, conj_rows, sizes_below,
                     parts_rev, False)
        st[0] = base
        st[1] = base
        st[2] = 0
        nxt[base] = rows[base - 1] if base > 0 else 1
        while True:
            code = walk_next(n, rows, sums, nxt, st)
            if code == DONE:
                break
            if code == POP:
                undo_entries(entries_below[st[0]], index, entries)
                continue
            if code == PUSH:
                kr = st[0] - 1
                entries_below[kr] = index[-1, 0]
                _solve_row(kr, rows, tab, ids, index, entries, exits, sums[kr + 1] == n)
                push_row(kr, 0, rows, distinct_below, gap_below, features, conj_rows, sizes_below,
                         parts_rev, sums[kr + 1] == n)
                continue
            if code == EMIT:
                depth = st[0]
                _emit(rec, depth, rows, tab, ids, reach, seen, short, exits, out)
                if features:
                    ppos, cpos = emit_features(rec, depth, rows, conj_rows, sizes_below, parts_rev,
                                               ppos, cpos, out)
                rec += 1
    if features:
        clear_feature_slack(out, rec)
    return rec


class NonRepetitiveGame(Game):
    """``lctr_nr`` or ``downright_nr`` as the runner sees it (see :class:`pipeline.games.base.Game`)."""

    parallel = True
    #: The board games' shards of every n, in the same order: a run shares their partition columns.
    record_order = "partitions"

    def __init__(self, game_id: str):
        if game_id not in NR_GAMES:
            raise ValueError(f"unknown game {game_id!r} (known: {', '.join(NR_GAMES)})")
        self.game_id = game_id
        self.schema = BOARD_SCHEMA
        #: LCTR's moves may leave the diagram, into the terminal position (); Downright's may not.
        self.exits = game_id == "lctr_nr"
        self._plans: dict[tuple[int, int], list[Shard]] = {}
        self._reach: dict[int, np.ndarray] = {}

    def positions(self, n: int) -> int:
        return partition_numbers(n)[n] if n >= 1 else 0

    def plan(self, n: int, max_records: int) -> list[Shard]:
        key = (n, max_records)
        if key not in self._plans:
            self._plans[key] = plan_shards(n, max_records)
        return self._plans[key]

    def shard_count(self, n: int, max_records: int) -> int:
        return len(self.plan(n, max_records))

    def shard_records(self, n: int, shard: int, max_records: int) -> int:
        return self.plan(n, max_records)[shard].records

    def solve_shard(self, n: int, shard: int, max_records: int,
                    partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
        """The records of one shard (``partition_columns``: another board game's of the same
        shard, see :func:`pipeline.games.columns.common_columns`)."""
        from pipeline.games.walk import empty_outputs

        spec = self.plan(n, max_records)[shard]
        values, offsets = flatten_prefixes(spec.prefixes)
        features = partition_columns is None
        out = empty_outputs(spec.records, spec.part_values, spec.largest_values, features)
        if n not in self._reach:
            self._reach[n] = reach_table(n)
        got = solve_nonrepetitive(n, values, offsets, self.exits, self._reach[n], features, out)
        if got != spec.records:
            raise RuntimeError(f"{self.game_id} n={n} shard {shard}: {got} records, expected {spec.records}")
        return board_table(n, out, partition_columns)
