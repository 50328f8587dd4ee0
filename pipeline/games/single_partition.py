"""The single-partition solver: one start partition of a board game, far past the exhaustive bound.

The exhaustive kernels (:mod:`pipeline.games.moveset`) solve every partition of n by walking the
enumeration tree; this one solves the partitions it is given, each on its own, in memory
O(cells), with the same record (docs/definitions.md §3–§6): the same ``sg``, ``sg_misere``,
``nodes``/``leaves`` (NULL past 2^63 − 1), ``states`` (exact), ``height``, the six flags over the
reachable positions and the §1 features. It is what family runs and ``partgames solve`` use.

Cell (i, j) of λ is the position λ[i, j] (docs/definitions.md §2.2); it depends only on the
cells weakly below and right of it, so the cells are solved bottom row first, right to left.
A step's target is one cell. A ray's targets from (i, j) are the cells after (i, j) on the line
through it in the ray's direction, and in that order they are exactly the cells of the line
solved so far, so one aggregate per line (the options' nodes and leaves summed, heights maxed,
flags and-ed/or-ed, values as a bitset) serves every cell of it: each cell costs O(steps + rays)
aggregate reads, plus the nonzero words of its lines' option bitsets. The values on a line are
distinct (a later cell is an option of an earlier one), so a line of L cells holds at most 2L
nonzero words (sg and sg_misere); only those are stored, each line's in a block of 2L entries.
``states`` counts the distinct λ[i, j] over the reachable cells (offsets that are sums of moves;
inside a Young diagram every intermediate cell of such a sum exists), by hash-consing
λ[i, j] = (λ_{i+1} − j, λ[i+1, j]).

Limits: n ≤ :data:`MAX_N` = 32,767 (the ``n`` and ``parts`` columns are int16); ``sg`` and
``sg_misere`` are at most a position's number of options, which is below n, so they fit their
int16 columns whenever n does; ``height`` ≤ n fits int32 and ``states`` ≤ n + 1 int64. Memory:
O(cells · (1 + rays)): about 180 bytes a cell, plus about 250 a cell per ray (peak resident
sizes measured by ``benchmarks/single.py --memory``, docs/performance.md).

>>> record = solve_record("rook", (3, 3))           # R(2,3) is Nim with heaps 1 and 2
>>> record["sg"], record["states"], record["conjugate"]
(3, 6, [2, 2, 2])
>>> solve_record("lctr", (5, 3, 3, 2, 1, 1))["states"], solve_record("lctr", (5, 3, 3, 2, 1, 1))["nodes"]
(12, 57)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numba
import numpy as np
import pyarrow as pa
from numba.cpython.unsafe.numbers import trailing_zeros

from pipeline.errors import PartgamesError
from pipeline.games.cgh import (
    ALL_AND,
    B_IS01,
    B_TERM_OR_HAS01,
    B_TERM_OR_HAS10,
    F_ALL,
    O_IS01,
    sadd,
    summarize,
)
from pipeline.games.columns import common_columns
from pipeline.games.walk import KernelOutput, write_features
from pipeline.schema import BOARD_SCHEMA

if TYPE_CHECKING:  # for annotations only: the moveset module compiles kernels of its own
    from pipeline.games.base import Game
    from pipeline.games.moveset import Moveset

#: Largest n: the ``n`` and ``parts`` columns are int16 (docs/definitions.md §6).
MAX_N = 32767

# The terminal position () that LCTR's moves off the diagram reach: pair (0,1), every flag true.
_EMPTY_AND = F_ALL | B_IS01 | B_TERM_OR_HAS01 | B_TERM_OR_HAS10
_EMPTY_OR = O_IS01

# Fields of a cell; of a line aggregate (COUNT: the cells of the line solved so far).
SG, SGM, NODES, LEAVES, HEIGHT, AND, OR, ID = 0, 1, 2, 3, 4, 5, 6, 7
# FIRST, WORDS: where the line's option-word entries start, and how many it has.
L_NODES, L_LEAVES, L_HEIGHT, L_AND, L_OR, L_COUNT, L_FIRST, L_WORDS = 0, 1, 2, 3, 4, 5, 6, 7
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_FULL = ~np.uint64(0)


class SolveError(PartgamesError, ValueError):
    """A partition or game the single-partition solver does not take (one line)."""


@numba.njit(cache=True, inline="always")
def _mex(bits, used):  # pragma: no cover - compiled
    """mex of the bitset ``bits[:used]`` (the words past ``used`` are zero)."""
    for w in range(used):
        if bits[w] != _FULL:
            return w * 64 + trailing_zeros(~bits[w])
    return used * 64


@numba.njit(cache=True, inline="always")
def _set_bit(bits, v):  # pragma: no cover - compiled
    bits[v >> 6] |= _ONE << np.uint64(v & 63)


@numba.njit(cache=True, inline="always")
def _intern(key, keys, vals, mask, count):  # pragma: no cover - compiled
    """Id (≥ 1) of ``key`` in the open-addressing table ``keys[:mask + 1]``/``vals`` (``mask + 1``
    a power of two, empty slots -1); ``count[0]`` is the number of ids given so far."""
    h = (key * np.int64(0x9E3779B97F4A7C15)) & mask
    while True:
        k = keys[h]
        if k == key:
            return vals[h]
        if k == -1:
            count[0] += 1
            keys[h] = key
            vals[h] = count[0]
            return count[0]
        h = (h + 1) & mask


@numba.njit(cache=True, inline="always")
def _line_of(i, j, a, b, start):  # pragma: no cover - compiled
    """Flat index of the first cell (up-left end) of the line through (i, j) in direction (a, b)."""
    k = i // a if a > 0 else j // b
    if a > 0 and b > 0:
        k = min(k, j // b)
    return start[i - k * a] + j - k * b


@numba.njit(cache=True, inline="always")
def _add_bit(v, shift, first, used, e_word, e_bits):  # pragma: no cover - compiled
    """Set bit ``v`` of the sg (``shift`` 0) or sg_misere (``shift`` 1) option set of a line whose
    nonzero words are the entries ``first .. first + used − 1`` (word index ``e_word``, bits
    ``e_bits``); return its new number of entries (one more when the word is new)."""
    word = v >> 6
    e = first + used - 1
    while e >= first and e_word[e] != word:  # the newest entries first: values near recent ones
        e -= 1
    if e < first:
        e = first + used
        used += 1
        e_word[e] = word
        e_bits[e, 0] = _ZERO
        e_bits[e, 1] = _ZERO
    e_bits[e, shift] |= _ONE << np.uint64(v & 63)
    return used


@numba.njit(cache=True, inline="always")
def _largest_sizes(values, offsets):  # pragma: no cover - compiled
    """(cells, rows): the largest n and the most parts of the partitions
    ``values[offsets[p]:offsets[p+1]]`` (at least 1 each), the sizes of the solver's arrays."""
    max_cells = 1
    max_rows = 1
    for p in range(offsets.shape[0] - 1):
        a0, b0 = offsets[p], offsets[p + 1]
        cells = 0
        for i in range(a0, b0):
            cells += values[i]
        max_cells = max(max_cells, cells)
        max_rows = max(max_rows, b0 - a0)
    return max_cells, max_rows


@numba.njit(cache=True, inline="always")
def _row_starts(lam, r, start):  # pragma: no cover - compiled
    """The flat index ``start[i]`` of cell (i, 0) of the partition ``lam`` (``r`` parts, its
    cells row by row, top row first), for i = 0 … r; returns n, its number of cells."""
    start[0] = 0
    for i in range(r):
        start[i + 1] = start[i] + lam[i]
    return start[r]


@numba.njit(cache=True, inline="always")
def _store_cell(cell, c0, g, m, nodes, leaves, h, own_and, own_or):  # pragma: no cover - compiled
    """Cell ``c0``'s fields in ``cell``: sg ``g``, sg_misere ``m``, ``nodes``, ``leaves``,
    height ``h`` and the flag summaries ``own_and``/``own_or`` (:func:`_cell_value`)."""
    cell[c0, SG] = g
    cell[c0, SGM] = m
    cell[c0, NODES] = nodes
    cell[c0, LEAVES] = leaves
    cell[c0, HEIGHT] = h
    cell[c0, AND] = own_and
    cell[c0, OR] = own_or


@numba.njit(cache=True, inline="always")
def _lay_out_lines(lam, r, n, rays, max_cells, start, line, line_ids):  # pragma: no cover - compiled
    """Clear the line aggregates of the partition ``lam`` (``r`` parts, ``n`` cells, cell (i, j)
    at flat index ``start[i] + j``) and place them: ``line_ids[q, c]`` is the line of cell c in
    the direction of ray q (``rays[q]`` = (a rows down, b columns right)), the aggregate
    ``q · max_cells`` + the flat index of the line's first cell (:func:`_line_of`), and
    ``line[·, L_FIRST]`` where its option-word entries start: the lines' blocks of twice their
    length (each cell adds at most two words, an sg and an sg_misere one) one after another."""
    first = 0
    for q in range(rays.shape[0]):
        for c in range(n):
            for f in range(8):
                line[q * max_cells + c, f] = 0
        for i in range(r):
            for j in range(lam[i]):
                ln = q * max_cells + _line_of(i, j, rays[q, 0], rays[q, 1], start)
                line_ids[q, start[i] + j] = ln
                line[ln, L_FIRST] += 2  # the line's length, twice, for now
        for c in range(n):
            ln = q * max_cells + c
            length2 = line[ln, L_FIRST]
            line[ln, L_FIRST] = first
            first += length2


@numba.njit(cache=True, inline="always")
def _step_options(i, j, r, lam, start, steps, exits, cell, sgb, sgmb):  # pragma: no cover - compiled
    """The options of cell (i, j) of ``lam`` that its steps (``steps[s]``) reach, aggregated as
    :func:`_gather_options` returns them: each a solved cell (``cell``), or with ``exits`` (LCTR)
    the empty position () when the step leaves the diagram."""
    used = 0
    nsum = np.int64(0)
    lsum = np.int64(0)
    hmax = -1
    agg_or = 0
    agg_and = ALL_AND
    cnt = 0
    for s in range(steps.shape[0]):
        ti = i + steps[s, 0]
        tj = j + steps[s, 1]
        if ti < r and tj < lam[ti]:
            c = start[ti] + tj
            v = cell[c, SG]
            used = max(used, (v >> 6) + 1)
            _set_bit(sgb, v)
            v = cell[c, SGM]
            used = max(used, (v >> 6) + 1)
            _set_bit(sgmb, v)
            nsum = sadd(nsum, cell[c, NODES])
            lsum = sadd(lsum, cell[c, LEAVES])
            hmax = max(hmax, cell[c, HEIGHT])
            agg_and &= cell[c, AND]
            agg_or |= cell[c, OR]
            cnt += 1
        elif exits:  # LCTR: the move leaves the diagram, into ()
            used = max(used, 1)
            sgb[0] |= _ONE
            sgmb[0] |= _ONE << _ONE
            nsum = sadd(nsum, 1)
            lsum = sadd(lsum, 1)
            hmax = max(hmax, 0)
            agg_and &= _EMPTY_AND
            agg_or |= _EMPTY_OR
            cnt += 1
    return used, nsum, lsum, hmax, agg_and, agg_or, cnt


@numba.njit(cache=True, inline="always")
def _ray_options(c0, rays, line, line_ids, e_word, e_bits, sgb, sgmb, used, nsum, lsum, hmax,
                 agg_and, agg_or, cnt):  # pragma: no cover - compiled
    """The aggregate (used … cnt) of :func:`_step_options` with the options of cell ``c0`` that
    its rays (``rays[q]``) reach added: the solved cells of its line of each ray, read from the
    line's aggregate (``line``, ``line_ids``, option words ``e_word``/``e_bits``)."""
    for q in range(rays.shape[0]):
        ln = line_ids[q, c0]
        if line[ln, L_COUNT] > 0:  # the ray's targets: the line's solved cells
            for e in range(line[ln, L_FIRST], line[ln, L_FIRST] + line[ln, L_WORDS]):
                w = e_word[e]
                sgb[w] |= e_bits[e, 0]
                sgmb[w] |= e_bits[e, 1]
                used = max(used, w + 1)
            nsum = sadd(nsum, line[ln, L_NODES])
            lsum = sadd(lsum, line[ln, L_LEAVES])
            hmax = max(hmax, line[ln, L_HEIGHT])
            agg_and &= line[ln, L_AND]
            agg_or |= line[ln, L_OR]
            cnt += 1
    return used, nsum, lsum, hmax, agg_and, agg_or, cnt


@numba.njit(cache=True, inline="always")
def _gather_options(i, j, r, lam, start, steps, rays, exits, cell, line, line_ids, e_word, e_bits,
                    sgb, sgmb):  # pragma: no cover - compiled
    """The options of cell (i, j) of ``lam`` (``r`` parts, flat indices ``start``), aggregated
    (docs/definitions.md §3–§5): their sg and sg_misere values set in the zeroed bitsets ``sgb``
    and ``sgmb``, and (used, nodes, leaves, height, and, or, count): the words of the bitsets
    that may be nonzero, the options' nodes and leaves summed (saturating, :func:`sadd`), their
    largest height (−1 if none), their flags and-ed and or-ed, and how many there are.

    A step (``steps[s]``) reaches one cell, or with ``exits`` (LCTR) the empty position () when
    it leaves the diagram; a ray's (``rays[q]``) targets are the cells of its line solved so far,
    read from the line's aggregate (``line``, ``line_ids``, option words ``e_word``/``e_bits``,
    :func:`_lay_out_lines`); ``cell`` holds the solved cells' fields (SG … OR)."""
    used, nsum, lsum, hmax, agg_and, agg_or, cnt = _step_options(i, j, r, lam, start, steps, exits,
                                                                  cell, sgb, sgmb)
    return _ray_options(start[i] + j, rays, line, line_ids, e_word, e_bits, sgb, sgmb, used, nsum,
                        lsum, hmax, agg_and, agg_or, cnt)


@numba.njit(cache=True, inline="always")
def _cell_value(cnt, used, nsum, lsum, hmax, agg_and, agg_or, sgb, sgmb):  # pragma: no cover - compiled
    """(sg, sg_misere, nodes, leaves, height, and, or) of a position from its ``cnt`` options'
    aggregate (:func:`_gather_options`: their values in the bitsets ``sgb``/``sgmb``, of which
    the first ``used`` words may be nonzero; ``nsum``, ``lsum`` their nodes and leaves summed,
    ``hmax`` their largest height, ``agg_and``/``agg_or`` their flags and-ed and or-ed).
    docs/definitions.md §3–§5: sg and sg_misere are mexes of the options' values (a terminal
    position: 0 and 1), nodes = 1 + the options' nodes, leaves the options' (a terminal position
    is one leaf), height = 1 + the options' largest (0 terminal); the flags by :func:`summarize`."""
    terminal = cnt == 0
    if terminal:
        g, m, nodes, leaves, h = 0, 1, np.int64(1), np.int64(1), 0
    else:
        g = _mex(sgb, used)
        m = _mex(sgmb, used)
        nodes = sadd(np.int64(1), nsum)
        leaves = lsum
        h = hmax + 1
    own_and, own_or = summarize(g, m, terminal, agg_and, agg_or)
    return g, m, nodes, leaves, h, own_and, own_or


@numba.njit(cache=True, inline="always")
def _join_lines(c0, g, m, nodes, leaves, h, own_and, own_or, n_rays, line, line_ids, e_word,
                e_bits):  # pragma: no cover - compiled
    """Cell ``c0``, solved (sg ``g``, sg_misere ``m``, ``nodes``, ``leaves``, height ``h``, flags
    ``own_and``/``own_or``), joins its line of each of the ``n_rays`` rays (``line_ids``): a
    target of every cell before it on the line, so its values are set among the line's option
    words (``e_word``/``e_bits``, :func:`_add_bit`) and its fields added to the line's aggregate
    (``line``: sums, max, and, or, as :func:`_gather_options` reads them)."""
    for q in range(n_rays):
        ln = line_ids[q, c0]
        line[ln, L_WORDS] = _add_bit(g, 0, line[ln, L_FIRST], line[ln, L_WORDS], e_word, e_bits)
        line[ln, L_WORDS] = _add_bit(m, 1, line[ln, L_FIRST], line[ln, L_WORDS], e_word, e_bits)
        if line[ln, L_COUNT] == 0:
            line[ln, L_NODES] = nodes
            line[ln, L_LEAVES] = leaves
            line[ln, L_HEIGHT] = h
            line[ln, L_AND] = own_and
            line[ln, L_OR] = own_or
        else:
            line[ln, L_NODES] = sadd(nodes, line[ln, L_NODES])
            line[ln, L_LEAVES] = sadd(leaves, line[ln, L_LEAVES])
            line[ln, L_HEIGHT] = max(h, line[ln, L_HEIGHT])
            line[ln, L_AND] &= own_and
            line[ln, L_OR] |= own_or
        line[ln, L_COUNT] += 1


@numba.njit(cache=True, inline="always")
def _intern_cells(lam, r, n, start, cell, keys, vals, count):  # pragma: no cover - compiled
    """``cell[c, ID]``: an id of the sub-partition λ[i, j] at each cell (i, j) of ``lam`` (``r``
    parts, ``n`` cells, flat indices ``start``), equal ids for equal sub-partitions
    (docs/definitions.md §4). λ[i, j] is (its top row λ_{i+1} − j, λ[i+1, j]), hash-consed
    bottom row first in the table ``keys``/``vals`` (:func:`_intern`, cleared here; ``count``:
    the ids given)."""
    table = 4
    while table < 2 * n + 2:
        table *= 2
    for t in range(table):
        keys[t] = -1
    count[0] = 0
    for i in range(r - 1, -1, -1):
        for j in range(lam[i]):
            child = cell[start[i + 1] + j, ID] if i + 1 < r and j < lam[i + 1] else 0
            cell[start[i] + j, ID] = _intern((lam[i] - j) * (n + 2) + child, keys, vals,
                                              table - 1, count)


@numba.njit(cache=True, inline="always")
def _reachable_states(lam, r, start, steps, rays, cell, reach, stamp, token):  # pragma: no cover - compiled
    """The number of distinct sub-partitions (ids ``cell[·, ID]``, :func:`_intern_cells`) at
    the cells of ``lam`` (``r`` parts, flat indices ``start``) reachable from (0, 0): a cell is
    reachable iff its offset is a sum of moves (``steps``, ``rays``), i.e. some move leads to it
    from a reachable cell, which lies weakly above-left of it, so inside the diagram
    (docs/definitions.md §4). ``reach`` records the cells reached; ``stamp[id] == token`` marks
    an id counted (``token``: one per partition, so ``stamp`` needs no clearing)."""
    states = 0
    for i in range(r):
        for j in range(lam[i]):
            ok = i == 0 and j == 0
            for s in range(steps.shape[0]):
                if ok:
                    break
                si = i - steps[s, 0]
                sj = j - steps[s, 1]
                if si >= 0 and sj >= 0:
                    ok = reach[start[si] + sj]
            for q in range(rays.shape[0]):
                if ok:
                    break
                si = i - rays[q, 0]
                sj = j - rays[q, 1]
                if si >= 0 and sj >= 0:
                    ok = reach[start[si] + sj]
            reach[start[i] + j] = ok
            if ok:
                ident = cell[start[i] + j, ID]
                if stamp[ident] != token:
                    stamp[ident] = token
                    states += 1
    return states


@numba.njit(cache=True, inline="always")
def _write_values(p, cell, states, out):  # pragma: no cover - compiled
    """Record p's values in ``out`` (:class:`KernelOutput`): those of the start position, cell
    (0, 0) of ``cell`` (sg, sg_misere, nodes, leaves, height, and the six flags, the bits of its
    AND field: docs/definitions.md §3–§5), and its ``states``."""
    out.sg[p] = cell[0, SG]
    out.sg_misere[p] = cell[0, SGM]
    out.nodes[p] = cell[0, NODES]
    out.leaves[p] = cell[0, LEAVES]
    out.height[p] = cell[0, HEIGHT]
    for f in range(6):
        out.flags[f, p] = (cell[0, AND] >> f) & 1
    out.states[p] = states


# Not split: its cell loop as an inlined helper adds 22 reference-count calls to its machine code
# (docs/performance.md, "Tried and not kept").
@numba.njit(cache=True, nogil=True)
def solve_partitions(values, offsets, steps, rays, exits, words, out):  # pragma: no cover - compiled
    """Solve each partition ``values[offsets[p]:offsets[p+1]]`` (non-increasing, positive parts);
    write record p into ``out`` (the 16 arrays of :func:`zeroed_outputs`).

    ``steps`` and ``rays`` are (k, 2) arrays of offsets (a rows down, b columns right); ``exits``:
    a step off the diagram goes to () (LCTR); ``words``: 64-bit words of an option bitset (more
    than any position's number of options).

    A ray's targets from (i, j) are the cells after (i, j) on its line, and the cells are solved
    bottom row first, right to left, so when (i, j) is solved the cells of its line solved so far
    are exactly those targets: one aggregate per line (per ray) holds their nodes and leaves
    (sums), height (max), flags (and/or) and option values. The values of a line are distinct
    (each cell of it is an option of every cell before it), so its option bits are kept as the
    nonzero 64-bit words only, as entries (word index, bits) in a block of twice the line's
    length: memory O(cells · rays).
    """
    records = offsets.shape[0] - 1
    max_cells, max_rows = _largest_sizes(values, offsets)
    n_rays = rays.shape[0]
    nr = max(n_rays, 1)
    cell = np.zeros((max_cells, 8), dtype=np.int64)
    start = np.zeros(max_rows + 1, dtype=np.int64)  # flat index of cell (i, 0)
    reach = np.zeros(max_cells, dtype=np.bool_)
    # Line aggregates, by ray q and first cell c of the line: q · max_cells + c. A line of L
    # cells gets 2L option-word entries, contiguous: each cell adds at most two words to it.
    line = np.zeros((nr * max_cells, 8), dtype=np.int64)
    e_word = np.zeros(2 * max_cells * nr, dtype=np.int64)
    e_bits = np.zeros((2 * max_cells * nr, 2), dtype=np.uint64)
    line_ids = np.zeros((nr, max_cells), dtype=np.int64)  # line of each cell, per ray (as above)
    sgb = np.zeros(words, dtype=np.uint64)
    sgmb = np.zeros(words, dtype=np.uint64)
    size = 4
    while size < 2 * max_cells + 2:
        size *= 2
    keys = np.empty(size, dtype=np.int64)
    vals = np.empty(size, dtype=np.int64)
    count = np.zeros(1, dtype=np.int64)
    stamp = np.zeros(max_cells + 1, dtype=np.int64)
    ppos = 0
    cpos = 0
    out.parts_offsets[0] = 0
    out.conjugate_offsets[0] = 0
    for p in range(records):
        a0 = offsets[p]
        r = offsets[p + 1] - a0
        lam = values[a0:a0 + r]
        n = _row_starts(lam, r, start)
        if n_rays > 0:
            _lay_out_lines(lam, r, n, rays, max_cells, start, line, line_ids)
        # ---- values and flags of every cell, bottom row first (docs/definitions.md §3–§5) ----
        used = 0  # words of sgb / sgmb that may be nonzero
        for i in range(r - 1, -1, -1):
            for j in range(lam[i] - 1, -1, -1):
                c0 = start[i] + j
                for w in range(used):
                    sgb[w] = _ZERO
                    sgmb[w] = _ZERO
                used, nsum, lsum, hmax, agg_and, agg_or, cnt = _gather_options(
                    i, j, r, lam, start, steps, rays, exits, cell, line, line_ids, e_word, e_bits,
                    sgb, sgmb)
                g, m, nodes, leaves, h, own_and, own_or = _cell_value(
                    cnt, used, nsum, lsum, hmax, agg_and, agg_or, sgb, sgmb)
                _store_cell(cell, c0, g, m, nodes, leaves, h, own_and, own_or)
                # ---- this cell joins its lines: a target of every cell before it on them ----
                _join_lines(c0, g, m, nodes, leaves, h, own_and, own_or, n_rays, line, line_ids,
                            e_word, e_bits)
        for w in range(used):
            sgb[w] = _ZERO
            sgmb[w] = _ZERO
        # ---- states: distinct λ[i, j] over the reachable cells (docs/definitions.md §4) ----
        _intern_cells(lam, r, n, start, cell, keys, vals, count)
        states = _reachable_states(lam, r, start, steps, rays, cell, reach, stamp, p + 1)
        _write_values(p, cell, states + (1 if exits else 0), out)  # LCTR also reaches ()
        ppos, cpos = write_features(p, lam, r, ppos, cpos, out)  # docs/definitions.md §1
    return records


def zeroed_outputs(records: int, part_values: int, largest_values: int) -> KernelOutput:
    """The output arrays of :func:`solve_partitions` (those of every board-game kernel,
    :class:`pipeline.games.walk.KernelOutput`), zeroed."""
    i64 = np.int64
    return KernelOutput(
        sg=np.zeros(records, i64), sg_misere=np.zeros(records, i64), nodes=np.zeros(records, i64),
        leaves=np.zeros(records, i64), states=np.zeros(records, i64), height=np.zeros(records, i64),
        flags=np.zeros((6, records), np.bool_),
        parts=np.zeros(part_values, np.int16), parts_offsets=np.zeros(records + 1, i64),
        conjugate=np.zeros(largest_values, np.int16), conjugate_offsets=np.zeros(records + 1, i64),
        num_parts=np.zeros(records, np.int16), largest=np.zeros(records, np.int16),
        durfee=np.zeros(records, np.int16), rank=np.zeros(records, np.int16),
        distinct_sizes=np.zeros(records, np.int16),
    )


def partition_fault(lam: tuple[int, ...]) -> str | None:
    """Why ``lam`` is not a nonempty partition (parts positive, non-increasing), or None if it is.

    >>> partition_fault((3, 1, 1)) is None, partition_fault((1, 2))
    (True, 'parts must be non-increasing')
    """
    if not lam:
        return "empty"
    if any(v <= 0 for v in lam):
        return "parts must be positive"
    if any(a < b for a, b in zip(lam, lam[1:], strict=False)):
        return "parts must be non-increasing"
    return None


def check_partition(parts: Sequence[int], what: str = "partition") -> tuple[int, ...]:
    """``parts`` as a tuple once it is a nonempty partition with n ≤ :data:`MAX_N`; a one-line
    :class:`SolveError` otherwise.

    >>> check_partition([3, 1, 1])
    (3, 1, 1)
    >>> check_partition([1, 2])
    Traceback (most recent call last):
    ...
    pipeline.games.single_partition.SolveError: partition 1,2: parts must be non-increasing
    """
    lam = tuple(int(v) for v in parts)
    if not lam:
        raise SolveError(f"{what}: empty (the board games start on a nonempty partition)")
    fault = partition_fault(lam)
    if fault is not None:
        raise SolveError(f"{what} {','.join(str(v) for v in lam)}: {fault}")
    if sum(lam) > MAX_N:
        raise SolveError(f"{what} of n={sum(lam)}: beyond n={MAX_N}, the largest the int16 columns "
                         "n and parts hold")
    return lam


def parse_partition(text: str, what: str = "partition") -> tuple[int, ...]:
    """A partition written ``5,3,3,1`` or ``5 3 3 1`` (brackets allowed), checked.

    >>> parse_partition("[5, 3 3,1]")
    (5, 3, 3, 1)
    """
    body = text.strip().strip("[]()").strip()
    if not re.fullmatch(r"[0-9]+(?:\s*[,\s]\s*[0-9]+)*", body):  # ASCII: int() reads ٣ too
        raise SolveError(f"{what} {text.strip()!r}: not a list of positive integers such as 5,3,3,1")
    return check_partition([int(v) for v in re.split(r"[,\s]+", body)], what)


def _refusal(game: Game) -> SolveError:
    return SolveError(f"{game.game_id}: the single-partition solver takes the board games and "
                      f"user movesets, not {game.family}")


def _kernel_moves(moveset: Moveset) -> tuple[np.ndarray, np.ndarray, bool]:
    """(steps, rays, exits) of a moveset as :func:`solve_partitions` takes them."""
    steps = np.array(moveset.steps, dtype=np.int64).reshape(-1, 2)
    rays = np.array(moveset.rays, dtype=np.int64).reshape(-1, 2)
    return steps, rays, bool(moveset.exits)


def moveset_of(game_id: str) -> tuple[np.ndarray, np.ndarray, bool, str]:
    """(steps, rays, exits, canonical id) of a game with a moveset
    (:attr:`pipeline.games.base.Game.moveset`: a board game, a user moveset); a game without
    one (Slow SetNim, d-dimensional LCTR) and unknown ids are refused with one line."""
    from pipeline.games import get_game  # the registry imports the game modules

    game = get_game(game_id)
    if game.moveset is None:
        raise _refusal(game)
    return (*_kernel_moves(game.moveset), game.game_id)


def chosen_solver(game_id: str) -> Game:
    """The game of ``game_id`` if it solves chosen start partitions
    (:attr:`pipeline.games.base.Game.solves_chosen`: a board game, a user moveset, a game given
    by its rules); any other game (Slow SetNim, d-dimensional LCTR) and unknown ids are refused
    with one line."""
    from pipeline.games import get_game  # the registry imports the game modules

    game = get_game(game_id)
    if not game.solves_chosen:
        raise _refusal(game)
    return game


def canonical_id(game_id: str) -> str:
    """The id of a game that solves chosen start partitions (:func:`chosen_solver`)."""
    return chosen_solver(game_id).game_id


def option_bound(rows: int, largest: int, steps: np.ndarray, rays: np.ndarray) -> int:
    """More than the number of options of any position of a partition with ``rows`` parts and
    largest part ``largest`` (so more than any sg and sg_misere): one per step, and per ray
    (a, b) at most ``min((rows−1)//a, (largest−1)//b)`` cells.

    >>> option_bound(3, 4, np.zeros((0, 2), np.int64), np.array([[0, 1], [1, 0]]))
    6
    """
    bound = len(steps) + 1
    for a, b in rays:
        bound += min((rows - 1) // a if a else largest, (largest - 1) // b if b else rows)
    return int(bound)


def packed_partitions(lams: list[tuple[int, ...]]) -> tuple[int, np.ndarray, np.ndarray]:
    """Partitions of one n as (n, parts, offsets): the parts of the k-th are
    ``values[offsets[k]:offsets[k + 1]]``, as the solvers take them.

    >>> n, values, offsets = packed_partitions([(2, 1), (3,)])
    >>> n, values.tolist(), offsets.tolist()
    (3, [2, 1, 3], [0, 2, 3])
    """
    n = sum(lams[0])
    if any(sum(lam) != n for lam in lams):
        raise SolveError("a table of records holds partitions of one n")
    values = np.fromiter((v for lam in lams for v in lam), dtype=np.int64)
    offsets = np.zeros(len(lams) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(lam) for lam in lams])
    return n, values, offsets


def solve_moveset_partitions(moveset: Moveset, n: int, values: np.ndarray, offsets: np.ndarray,
                             partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
    """The records (schema :data:`pipeline.schema.BOARD_SCHEMA`) of the game of ``moveset``
    started at each partition ``values[offsets[p]:offsets[p+1]]`` of n, in that order: a moveset
    game's :meth:`~pipeline.games.base.Game.solve_chosen`."""
    steps, rays, exits = _kernel_moves(moveset)
    values = np.ascontiguousarray(values, dtype=np.int64)
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    records = len(offsets) - 1
    firsts = values[offsets[:-1]]
    rows = int(np.diff(offsets).max()) if records else 1
    words = option_bound(rows, int(firsts.max()) if records else 1, steps, rays) // 64 + 1
    out = zeroed_outputs(records, int(offsets[-1]), int(firsts.sum()))
    solve_partitions(values, offsets, steps, rays, exits, words, out)
    return pa.Table.from_arrays(common_columns(n, out, partition_columns), schema=BOARD_SCHEMA)


def solve_table(game_id: str, partitions: Sequence[Sequence[int]]) -> pa.Table:
    """The records (the game's :attr:`~pipeline.games.base.Game.schema`) of ``game_id`` started
    at each of ``partitions``, all of the same n, in the given order, solved by the game
    (:func:`chosen_solver`).

    >>> solve_table("queen", [(2, 2), (3, 1)]).column("sg").to_pylist()
    [2, 2]
    """
    game = chosen_solver(game_id)
    return solve_chosen_table(game, [check_partition(p) for p in partitions])


def solve_chosen_table(game: Game, partitions: list[tuple[int, ...]]) -> pa.Table:
    """The records (the game's :attr:`~pipeline.games.base.Game.schema`) of ``game`` started at
    each of ``partitions``, all of the same n, in the given order, by its
    :meth:`~pipeline.games.base.Game.solve_chosen` (none: an empty table). The partitions are
    taken as they are: :func:`solve_table` checks them first."""
    if not partitions:
        return game.schema.empty_table()
    return game.solve_chosen(*packed_partitions(partitions))


def solve_record(game_id: str, parts: Sequence[int]) -> dict:
    """The record of ``game_id`` started at ``parts``, as a dict of its columns."""
    return solve_table(game_id, [parts]).to_pylist()[0]


__all__ = ["MAX_N", "SolveError", "canonical_id", "check_partition", "chosen_solver", "moveset_of",
           "option_bound", "parse_partition", "partition_fault",
           "solve_chosen_table", "solve_moveset_partitions",
           "solve_partitions", "solve_record", "solve_table"]
