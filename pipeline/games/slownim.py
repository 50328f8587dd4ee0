"""Slow SetNim SN(s, A) (docs/definitions.md §2.3; paper ``slow-exact-k-nim.txt``): ``s`` stacks, a move takes
one token from each of ℓ distinct nonempty stacks, ℓ ∈ A ⊆ {1..s}. Slow Exact k-Nim is SN(s, {k}).

Positions are multisets of ``s`` heights, i.e. partitions of the total N into at most ``s`` parts
(padded with zeros). A move is determined by how many stacks it takes from in each group of equal
height (docs/definitions.md §2.3: different counts reach different multisets, equal counts the same one), and
each such choice is one edge of the game tree (docs/definitions.md §4).

Solving machinery. Every option of a position of total N has a smaller total, so increasing N is a
topological order of the game graph. Positions are indexed by a perfect ranking: position x of
total N has index ``offset[N] + rank(x)``, where ``rank`` is its place in the lexicographic order of
the partitions of N into at most ``s`` parts, computed in O(s) from the table ``c[n, k, m]`` of
partitions of n into at most k parts each at most m. A game is solved level by level into a
module-level cache (values, AND/OR summaries for the flags, and the option lists in CSR form), so a
run in increasing N (the runner's ``parallel = False`` chain) solves each position once per game.
``states`` (a set union, docs/definitions.md §4) is computed exactly over the cached option lists for blocks
of up to 1024 starts at once (bit masks pushed down level by level, :func:`_count_states`); when
1 ∈ A the reachable positions are exactly those dominated by the start, counted in closed form
(:func:`_count_dominated`). Counts are exact int64, and NULL beyond 2^63 − 1 (docs/definitions.md §4). Every
column, reduced forms included, is computed on the actual position: the reduced form has the same
sg, sg_misere and height (paper, Lemma 2.1) but not the same nodes, leaves or states (docs/definitions.md §4
counts distinct multisets; SN(4,{3}): (2,1,1,1) has 2 moves, its reduced form (1,1,1,1) one).
All per-position work is numba; Python only moves whole arrays.

>>> SlowNimGame.parse("sn9_9-8").game_id
'sn9_8-9'
>>> SlowNimGame.parse("sn5_4").positions(6)
10
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

import numba
import numpy as np
import pyarrow as pa

from pipeline.games.base import Game, GameError
from pipeline.games.cgh import sadd, summarize
from pipeline.games.columns import common_columns, list_array
from pipeline.games.walk import KernelOutput, write_features
from pipeline.schema import SLOWNIM_SCHEMA

#: Largest number of stacks accepted: enough for every table of the paper, and it keeps the
#: position counts (partitions into at most s parts) within what one process can hold.
MAX_STACKS = 30
#: Memory bound of one Slow SetNim game (a process stays under 1.5 GiB, docs/performance.md): at
#: most this many positions (all totals up to N; 39 bytes each cached, 8 more while states are
#: counted) ...
MAX_POSITIONS = 12_000_000
#: ... and this many options in the cached option lists (4 bytes each), kept only when 1 ∉ A
#: (otherwise states has a closed form). SN(9,{8,9}) has ≈ 3.6 options per position, SN(9,A) with
#: A = {2..9} ≈ 108: there the lists reach the bound at N ≈ 57.
MAX_EDGES = 100_000_000

#: Starts per block of the states union (:func:`_count_states`), in 64-bit words.
STATE_WORDS = 16
#: Bytes the masks of :func:`_count_states` may take (fewer words per block beyond).
STATE_BYTES = 64 << 20

_ID = re.compile(r"sn(\d+)_(\d+(?:-\d+)*)")


class SlowNimError(GameError):
    """A Slow SetNim id that is not a valid game (docs/definitions.md §2.3), or a game too large to solve.

    A :class:`ValueError` (through :class:`pipeline.games.base.GameError`), so the command line reports
    it in one line wherever it is raised.
    """


# --------------------------------------------------------------------------------------------------
# Ranking partitions into at most s parts
# --------------------------------------------------------------------------------------------------
@numba.njit(cache=True, nogil=True)  # solver threads run beside each other (pipeline.runner)
def _count_table(nmax, s):  # pragma: no cover
    """``c[n, k, m]``: partitions of n into at most k parts, each at most m (n, m ≤ nmax, k ≤ s).

    ``c(n,k,m) = c(n,k,m-1) + c(n-m,k-1,m)``: either no part equals m, or remove one part m.
    """
    c = np.zeros((nmax + 1, s + 1, nmax + 1), dtype=np.int64)
    for k in range(s + 1):
        for m in range(nmax + 1):
            c[0, k, m] = 1
    for n in range(1, nmax + 1):
        for k in range(1, s + 1):
            for m in range(1, nmax + 1):
                v = c[n, k, m - 1]
                if m <= n:
                    v += c[n - m, k - 1, m]
                c[n, k, m] = v
    return c


@numba.njit(cache=True, inline="always")
def _rank(x, s, total, ctab):  # pragma: no cover
    """Place of the non-increasing ``x`` (length s, sum ``total``) in the lexicographic order of
    the partitions of ``total`` into at most s parts: Σ_i c(r_i, s−i, x_i − 1), r_i = Σ_{j≥i} x_j."""
    r = total
    rank = 0
    for i in range(s):
        if r == 0:
            break
        rank += ctab[r, s - i, x[i] - 1]
        r -= x[i]
    return rank


@numba.njit(cache=True, nogil=True)  # solver threads run beside each other (pipeline.runner)
def _unrank(rank, s, total, ctab, x):  # pragma: no cover
    """Inverse of :func:`_rank`: write the partition of place ``rank`` into ``x``."""
    r = total
    for i in range(s):
        if r == 0:
            x[i] = 0
            continue
        k = s - i
        v = 1
        while ctab[r, k, v] <= rank:
            v += 1
        rank -= ctab[r, k, v - 1]
        x[i] = v
        r -= v


@numba.njit(cache=True, inline="always")
def _next_partition(x, s):  # pragma: no cover
    """Advance ``x`` to the next partition (same total, at most s parts) in lexicographic order.

    The rightmost part that can grow by one grows; the tokens left behind it are spread as evenly
    as possible (the lexicographically smallest completion). Returns False after the last one.
    """
    tail = 0
    for i in range(s - 2, -1, -1):
        tail += x[i + 1]
        if tail == 0:
            continue
        nv = x[i] + 1
        if i > 0 and nv > x[i - 1]:
            continue
        rest = tail - 1
        k = s - 1 - i
        x[i] = nv
        q = rest // k
        extra = rest % k
        for j in range(k):
            x[i + 1 + j] = q + 1 if j < extra else q
        return True
    return False


# --------------------------------------------------------------------------------------------------
# Solving one level (all positions of total N)
# --------------------------------------------------------------------------------------------------
# inline: once per position of the level, in the loop of :func:`_solve_level`.
@numba.njit(cache=True, inline="always")
def _groups(x, s, gst, gm, cap):  # pragma: no cover
    """The number of groups of equal nonzero stacks of the position ``x`` (non-increasing,
    length ``s``); group g starts at stack ``gst[g]`` and has ``gm[g]`` stacks, and ``cap[g]`` is
    the number of stacks in groups g, g+1, … (``cap[ng] = 0``). ``gst``, ``gm``, ``cap``: written.
    """
    ng = 0
    i = 0
    while i < s and x[i] > 0:
        j = i
        while j < s and x[j] == x[i]:
            j += 1
        gst[ng] = i
        gm[ng] = j - i
        ng += 1
        i = j
    cap[ng] = 0
    for g in range(ng - 1, -1, -1):
        cap[g] = cap[g + 1] + gm[g]
    return ng


# inline: once per option, in the loop of :func:`_solve_level`.
@numba.njit(cache=True, inline="always")
def _take_tokens(x, y, s, ng, gst, gm, cv):  # pragma: no cover
    """Write into ``y`` the option of ``x`` (``s`` stacks) that takes a token from the last
    ``cv[g]`` stacks of each group g of equal stacks (``ng`` groups, group g the ``gm[g]`` stacks
    from ``gst[g]``, :func:`_groups`): taking them from the last stacks keeps it sorted."""
    for t in range(s):
        y[t] = x[t]
    for h in range(ng):
        end = gst[h] + gm[h]
        for t in range(cv[h]):
            y[end - 1 - t] -= 1


# inline: once per position of the level, in the loop of :func:`_solve_level`.
@numba.njit(cache=True, inline="always")
def _position_values(p, a0, ne, edges, marks, sg, sgm, nodes, leaves, height, andb, orb):  # pragma: no cover
    """Solve position ``p`` from its options ``edges[a0:ne]`` (solved already), docs/definitions.md
    §3 (sg, sg_misere: the mex of the options'; a terminal position is (0, 1)), §4 (nodes = 1 +
    Σ nodes(options), exact or OVER; leaves; height = 1 + the longest option's) and §5 (flag(x) =
    local(x) ∧ ⋀ flag(options)).

    ``marks``: the values seen among the options, row 0 sg and row 1 sg_misere, a value seen when
    its entry is ``p + 1`` (no clearing), at least ``ne - a0 + 2`` columns; ``sg`` … ``orb``: the
    values by position (written at p).
    """
    cnt = ne - a0
    stamp = p + 1
    if cnt == 0:
        g_val, m_val, nd, lv, h = 0, 1, np.int64(1), np.int64(1), 0
        agg_and = 0x3FF
        agg_or = 0
    else:
        nsum = np.int64(0)
        lsum = np.int64(0)
        hmax = 0
        agg_and = 0x3FF
        agg_or = 0
        for e in range(a0, ne):
            t = edges[e]
            if sg[t] <= cnt:
                marks[0, sg[t]] = stamp
            if sgm[t] <= cnt:
                marks[1, sgm[t]] = stamp
            nsum = sadd(nsum, nodes[t])
            lsum = sadd(lsum, leaves[t])
            hmax = max(hmax, height[t])
            agg_and &= andb[t]
            agg_or |= orb[t]
        g_val = 0
        while marks[0, g_val] == stamp:
            g_val += 1
        m_val = 0
        while marks[1, m_val] == stamp:
            m_val += 1
        nd = sadd(np.int64(1), nsum)
        lv = lsum
        h = hmax + 1
    terminal = cnt == 0
    own, own_or = summarize(g_val, m_val, terminal, agg_and, agg_or)
    sg[p] = g_val
    sgm[p] = m_val
    nodes[p] = nd
    leaves[p] = lv
    height[p] = h
    andb[p] = own
    orb[p] = own_or


@numba.njit(cache=True, nogil=True)  # solver threads run beside each other (pipeline.runner)
def _solve_level(n, s, amask, amin, amax, ctab, off, values, estart, edges, ne, marks,
                 keep_edges, max_edges):  # pragma: no cover
    """Solve every position of total ``n``; options (smaller totals) are already solved.

    ``values = (sg, sg_misere, nodes, leaves, height, and_summary, or_summary)`` indexed by position.
    With ``keep_edges`` options are appended to the CSR lists ``estart``/``edges`` (grown here when
    full, never beyond ``max_edges``) for :func:`_count_states`; without (1 ∈ A: states in closed
    form) each position's options overwrite the previous one's. Returns ``(edges, ne, marks)``,
    ``ne = -1`` if the option lists would pass ``max_edges`` (the memory bound). The positions are
    visited in rank order (:func:`_next_partition`), each one's options listed (c_g stacks from
    each group g of equal stacks, Σ c_g ∈ A, depth first over the groups, :func:`_take_tokens`)
    and its values computed from theirs (:func:`_position_values`). The growing arrays
    (``edges``, ``marks``) are grown here, not in a helper: an inlined helper that returns an
    array adds a reference-count round trip per position.
    """
    sg, sgm, nodes, leaves, height, andb, orb = values
    x = np.zeros(s, dtype=np.int64)
    y = np.zeros(s, dtype=np.int64)
    gst = np.zeros(s + 1, dtype=np.int64)  # first index of each group of equal nonzero height
    gm = np.zeros(s + 1, dtype=np.int64)  # its multiplicity
    cap = np.zeros(s + 2, dtype=np.int64)  # stacks in groups g, g+1, ...
    cv = np.zeros(s + 1, dtype=np.int64)  # stacks taken from each group
    ps = np.zeros(s + 2, dtype=np.int64)  # tokens taken from groups before g
    count = off[n + 1] - off[n]
    _unrank(0, s, n, ctab, x)
    for q in range(count):
        p = off[n] + q
        ng = _groups(x, s, gst, gm, cap)
        if not keep_edges:
            ne = 0
        estart[p] = ne
        # ---- moves: c_g stacks from group g, Σ c_g ∈ A (definitions §2.3), depth first over groups ----
        if ng > 0 and cap[0] >= amin:
            g = 0
            ps[0] = 0
            cv[0] = max(0, amin - cap[1]) - 1
            while g >= 0:
                cv[g] += 1
                if cv[g] > gm[g] or ps[g] + cv[g] > amax:
                    g -= 1
                    continue
                if g < ng - 1:
                    ps[g + 1] = ps[g] + cv[g]
                    g += 1
                    cv[g] = max(0, amin - ps[g] - cap[g + 1]) - 1
                    continue
                taken = ps[g] + cv[g]
                if (amask >> taken) & 1 == 0:
                    continue
                _take_tokens(x, y, s, ng, gst, gm, cv)
                rest = n - taken
                if ne == edges.shape[0]:
                    if ne >= max_edges:
                        return edges, -1, marks
                    bigger = np.empty(min(2 * edges.shape[0], max_edges), dtype=edges.dtype)
                    bigger[:ne] = edges[:ne]
                    edges = bigger
                edges[ne] = off[rest] + _rank(y, s, rest, ctab)
                ne += 1
        if ne - estart[p] + 2 > marks.shape[1]:
            marks = np.zeros((2, 2 * (ne - estart[p] + 2)), dtype=np.int64)
        _position_values(p, estart[p], ne, edges, marks, sg, sgm, nodes, leaves, height, andb, orb)
        _next_partition(x, s)
    estart[off[n + 1]] = ne
    return edges, ne, marks


# --------------------------------------------------------------------------------------------------
# Records of one shard
# --------------------------------------------------------------------------------------------------
@numba.njit(cache=True, nogil=True)  # solver threads run beside each other (pipeline.runner)
def _count_dominated(x, s, ways):  # pragma: no cover
    """Positions y (non-increasing, length s) with y_i ≤ x_i for every i: ``states`` of x when
    1 ∈ A. Moves only lower stacks, so every reachable y is dominated by x (sorted); with ℓ = 1
    allowed, every dominated y is reached one token at a time. After step i, ``ways[u]`` counts the
    tails (y_i, y_{i+1}, …) with y_i ≤ u, built from the last stack up; O(s · max x).
    """
    top = x[0]
    for u in range(top + 1):
        ways[u] = 1 if u <= x[s - 1] else 0
    for u in range(1, top + 1):
        ways[u] += ways[u - 1]
    for i in range(s - 2, -1, -1):
        # tails from i with y_i ≤ u: Σ over v ≤ min(u, x_i) of the tails from i+1 with y_{i+1} ≤ v
        acc = np.int64(0)
        for u in range(top + 1):
            if u <= x[i]:
                acc += ways[u]
            ways[u] = acc
    return ways[top]


# inline: once per visited position, in the loop of :func:`_count_states`.
@numba.njit(cache=True, inline="always")
def _add_to_counters(planes, mask, y, words):  # pragma: no cover
    """Add the bits of ``mask[y]`` (one per start of the block) to the bit-sliced counters
    ``planes`` (``planes[w, c]``: bit c of the 64 counters of word w), a ripple-carry addition of
    one to the counters of the starts that reach y. ``words``: 64-bit words per mask."""
    for w in range(words):
        carry = mask[y, w]
        c = 0
        while carry != np.uint64(0):
            both = planes[w, c] & carry
            planes[w, c] ^= carry
            carry = both
            c += 1


# inline: once per visited position, in the loop of :func:`_count_states`.
@numba.njit(cache=True, inline="always")
def _push_down(y, off, estart, edges, mask, seen, tok, lst, fill, words):  # pragma: no cover
    """Push the mask of position ``y`` down to its options, ``mask(t) |= mask(y)``, listing an
    option t in its level's list when the block reaches it first; then clear ``mask[y]``.

    ``off``: the first index of each total; ``estart``, ``edges``: the option lists (CSR);
    ``mask``: the starts reaching each position, by 64-bit word (``words`` of them); ``seen``:
    ``tok`` where the block reached a position; ``lst``, ``fill``: the reached positions of total
    T in ``lst[off[T]:off[T] + fill[T]]``.
    """
    for e in range(estart[y], estart[y + 1]):
        t = edges[e]
        if seen[t] != tok:
            seen[t] = tok
            lt = np.searchsorted(off, t, side="right") - 1
            lst[off[lt] + fill[lt]] = t
            fill[lt] += 1
        for w in range(words):
            mask[t, w] |= mask[y, w]
    for w in range(words):
        mask[y, w] = np.uint64(0)


# inline: once per block, in :func:`_count_states`.
@numba.njit(cache=True, inline="always")
def _read_counters(planes, starts, o_states, at):  # pragma: no cover
    """Write the counts of the block's ``starts`` starts, read from the bit-sliced counters
    ``planes`` (``planes[w, c]``: bit c of the 64 counters of word w), into
    ``o_states[at:at + starts]``."""
    for k in range(starts):
        w = k >> 6
        bit = np.uint64(k & 63)
        v = np.int64(0)
        for c in range(48):
            v |= np.int64((planes[w, c] >> bit) & np.uint64(1)) << c
        o_states[at + k] = v


@numba.njit(cache=True, nogil=True)  # solver threads run beside each other (pipeline.runner)
def _count_states(n, lo, hi, off, estart, edges, words, o_states):  # pragma: no cover
    """``states`` (docs/definitions.md §4: distinct positions reachable, the start included) of the positions
    of total ``n`` with ranks ``lo ≤ rank < hi``, exactly.

    A set union, done for a block of ``64 · words`` starts at once: each position y gets the bit
    mask of the starts that reach it, ``mask(y) = ⋁ mask(z)`` over the z with a move z → y, pushed
    down level by level (totals decrease along every move, so level T is final once the levels
    above are done; only positions some start reaches are visited, :func:`_push_down`). Each
    start's count is the number of visited y whose mask holds its bit, summed in bit-sliced
    counters (:func:`_add_to_counters`, :func:`_read_counters`). Cost: the edges of the union of
    the block's reachable sets, times ``words``, instead of the edges of every reachable set,
    start by start.
    """
    npos = off[n + 1]
    mask = np.zeros((npos, words), dtype=np.uint64)
    seen = np.zeros(npos, dtype=np.int32)
    lst = np.zeros(npos, dtype=np.int32)  # visited positions, level T in lst[off[T]:off[T]+fill[T]]
    fill = np.zeros(n + 1, dtype=np.int64)
    planes = np.zeros((words, 48), dtype=np.uint64)
    block = 64 * words
    tok = 0
    for b0 in range(lo, hi, block):
        b1 = min(hi, b0 + block)
        tok += 1
        fill[:] = 0
        planes[:, :] = 0
        for k in range(b1 - b0):  # each start of the block reaches itself
            p = off[n] + b0 + k
            mask[p, k >> 6] |= np.uint64(1) << np.uint64(k & 63)
            seen[p] = tok
            lst[off[n] + fill[n]] = p
            fill[n] += 1
        for level in range(n, -1, -1):
            base = off[level]
            for i in range(fill[level]):  # moves lower the total: this list is complete now
                y = lst[base + i]
                _add_to_counters(planes, mask, y, words)
                _push_down(y, off, estart, edges, mask, seen, tok, lst, fill, words)
        _read_counters(planes, b1 - b0, o_states, b0 - lo)


@numba.njit(cache=True, nogil=True)  # solver threads run beside each other (pipeline.runner)
def _write_values(k, p, sg, sgm, nodes, leaves, height, andb, out):  # pragma: no cover
    """Record ``k``'s values but ``states``: those of position ``p``, the flags unpacked from its
    and-summary. ``sg`` … ``andb``: the values by position (see :func:`_solve_level`); ``out``:
    the records."""
    out.sg[k] = sg[p]
    out.sg_misere[k] = sgm[p]
    out.nodes[k] = nodes[p]
    out.leaves[k] = leaves[p]
    out.height[k] = height[p]
    fl = andb[p]
    for f in range(6):
        out.flags[f, k] = (fl >> f) & 1


@numba.njit(cache=True, nogil=True)  # solver threads run beside each other (pipeline.runner)
def _reduce(x, r, s, n, a):  # pragma: no cover
    """The reduction of the position ``x`` (``s`` stacks, total ``n``) into ``r`` (NIRB,
    Algorithm 1 of the paper: while max > ⌊Σ/a⌋, chop every stack to ⌊Σ/a⌋); returns its total."""
    for t in range(s):
        r[t] = x[t]
    total = n
    while r[0] > total // a:
        cut = total // a
        total = 0
        for t in range(s):
            if r[t] > cut:
                r[t] = cut
            total += r[t]
    return total


@numba.njit(cache=True, nogil=True)  # solver threads run beside each other (pipeline.runner)
def _write_reduced(k, r, s, total, a, rpos, out):  # pragma: no cover
    """Record ``k``'s ``reduced_parts`` (the nonzero stacks of the reduction ``r``, ``s`` of them,
    appended from ``rpos``), ``odd_stacks`` (its odd stacks) and ``sum_mod`` (its ``total`` mod
    2a), docs/definitions.md §2.3 / §8.3; returns the new end of ``reduced_parts``."""
    odd = 0
    for t in range(s):
        if r[t] > 0:
            out.reduced_parts[rpos] = r[t]
            rpos += 1
        if r[t] % 2 == 1:
            odd += 1
    out.reduced_offsets[k + 1] = rpos
    out.odd_stacks[k] = odd
    out.sum_mod[k] = total % (2 * a)
    return rpos


@numba.njit(cache=True, nogil=True)  # runs beside the writer thread (pipeline.runner)
def _records(n, lo, hi, s, a, ctab, off, values, estart, edges, words, out):  # pragma: no cover
    """Write the records of the positions of total ``n`` with ranks ``lo ≤ rank < hi`` into ``out``.

    ``states`` by :func:`_count_states`. Features as for board games (docs/definitions.md §1, on the nonzero
    parts); ``reduced``, ``reduced_parts`` (:func:`_reduce`), ``odd_stacks`` and ``sum_mod`` per
    docs/definitions.md §2.3 / §8.3.
    """
    sg, sgm, nodes, leaves, height, andb, orb = values
    x = np.zeros(s, dtype=np.int64)
    r = np.zeros(s, dtype=np.int64)
    if a == 1:
        box = np.zeros(n + 2, dtype=np.int64)
    else:
        _count_states(n, lo, hi, off, estart, edges, words, out.states)
    _unrank(lo, s, n, ctab, x)
    ppos = 0
    cpos = 0
    rpos = 0
    out.parts_offsets[0] = 0
    out.conjugate_offsets[0] = 0
    out.reduced_offsets[0] = 0
    for k in range(hi - lo):
        _write_values(k, off[n] + lo + k, sg, sgm, nodes, leaves, height, andb, out)
        if a == 1:
            out.states[k] = _count_dominated(x, s, box)
        # ---- features of the nonzero parts (docs/definitions.md §1) ----
        depth = 0
        while depth < s and x[depth] > 0:
            depth += 1
        ppos, cpos = write_features(k, x, depth, ppos, cpos, out)
        out.reduced[k] = a * x[0] <= n
        total = _reduce(x, r, s, n, a)
        rpos = _write_reduced(k, r, s, total, a, rpos, out)
        _next_partition(x, s)
    return hi - lo


# --------------------------------------------------------------------------------------------------
# The game and its cache
# --------------------------------------------------------------------------------------------------
@dataclass
class _Solved:
    """Every position of total ≤ ``level`` of one game, solved: values and options (CSR), by index."""

    s: int
    amask: int
    amin: int
    amax: int
    name: str = "SN"
    #: Keep every position's options (for :func:`_count_states`); not needed when 1 ∈ A.
    keep_edges: bool | None = None
    level: int = -1
    nmax: int = -1
    ctab: np.ndarray = field(default_factory=lambda: np.zeros((1, 1, 1), np.int64))
    off: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    values: tuple[np.ndarray, ...] = ()
    estart: np.ndarray = field(default_factory=lambda: np.zeros(1, np.int64))
    edges: np.ndarray = field(default_factory=lambda: np.zeros(1024, np.int32))
    ne: int = 0
    marks: np.ndarray = field(default_factory=lambda: np.zeros((2, 64), np.int64))

    def __post_init__(self) -> None:
        if self.keep_edges is None:
            self.keep_edges = self.amin != 1

    def tables(self, n: int) -> None:
        """Counting table and level offsets for totals ≤ n (rebuilt, doubling, when n grows)."""
        if n <= self.nmax:
            return
        nmax = max(n, 2 * self.nmax, 16)
        self.ctab = _count_table(nmax, self.s)
        counts = self.ctab[np.arange(nmax + 1), self.s, np.arange(nmax + 1)]
        self.off = np.zeros(nmax + 2, np.int64)
        np.cumsum(counts, out=self.off[1:])
        self.nmax = nmax

    def reserve(self, n: int) -> None:
        """Allocate the per-position arrays for every total up to n at once.

        Growing them by doubling as the levels come in holds the old and the new arrays while
        one is copied into the other (39 bytes per position of the old ones), and the last
        doubling can come near the memory bound (docs/performance.md, "Measurements behind the
        code"). The arrays' unused zeroed pages are never resident, so allocating up front
        costs no memory of its own.
        """
        self.tables(n)
        self._grow(int(self.off[n + 1]) + 1, exact=True)

    def _grow(self, size: int, exact: bool) -> None:
        have = self.values[0].shape[0] if self.values else 0
        if size > have:
            size = size if exact else max(size, 2 * have)
            dtypes = (np.int32, np.int32, np.int64, np.int64, np.int32, np.int16, np.int8)
            grown = tuple(np.zeros(size, dt) for dt in dtypes)
            for new, old in zip(grown, self.values, strict=False):
                new[: old.shape[0]] = old
            self.values = grown
            estart = np.zeros(size + 1, np.int64)
            estart[: self.estart.shape[0]] = self.estart
            self.estart = estart

    def solve_to(self, n: int) -> None:
        """Solve the levels ``level+1 … n`` (increasing totals: a topological order)."""
        if n <= self.level:
            return
        self.tables(n)
        need = int(self.off[n + 1])
        if need > MAX_POSITIONS:
            raise SlowNimError(f"{self.name} up to N={n} has {need:,} positions, beyond the "
                               f"supported {MAX_POSITIONS:,}; lower --max-n")  # as in shard_count
        self._grow(need + 1, exact=False)
        for level in range(self.level + 1, n + 1):
            edges, ne, self.marks = _solve_level(
                level, self.s, self.amask, self.amin, self.amax, self.ctab, self.off, self.values,
                self.estart, self.edges, self.ne, self.marks, self.keep_edges, MAX_EDGES,
            )
            if ne < 0:
                raise SlowNimError(
                    f"{self.name} up to N={level} has more than {MAX_EDGES:,} options in its option "
                    f"lists, beyond the memory bound; totals below N={level} are written: rerun "
                    f"with --max-n {level - 1}")
            self.edges, self.ne = edges, ne
            self.level = level


#: Solved positions per game id; a run solves each Slow SetNim game's totals in increasing N (the
#: runner's serial chain, one at a time), which reuses the smaller totals. Only the most recent
#: game is kept, so memory stays that of one game.
_CACHE: dict[str, _Solved] = {}


def forget_solved() -> None:
    """Drop the solved positions kept between totals: the next shard of any game solves its
    smaller totals again, under the bounds (:data:`MAX_EDGES`) in force then, as a new process
    would."""
    _CACHE.clear()


class SlowNimGame(Game):
    """SN(s, A) as the runner sees it (see :class:`pipeline.games.base.Game`). Its positions
    are stacks (a multiset of heights, written as a partition), not cells of a diagram; its
    records have Slow SetNim's columns (:attr:`record_kind` ``slownim``)."""

    parallel = False
    schema = SLOWNIM_SCHEMA
    positions_are = "stacks"
    family = "Slow SetNim"

    def __init__(self, stacks: int, moves: tuple[int, ...]):
        self.stacks = stacks
        self.moves = tuple(sorted(moves))
        self.game_id = f"sn{stacks}_{'-'.join(str(m) for m in self.moves)}"
        self._counts: list[int] = [1]

    @staticmethod
    def parse(game_id: str) -> SlowNimGame:
        """``sn<s>_<A joined by '-'>`` (docs/definitions.md §2.3), e.g. ``sn5_4``, ``sn9_8-9``; A in any
        order."""
        text = game_id.strip()
        m = _ID.fullmatch(text)
        if not m:
            raise SlowNimError(f"Slow SetNim id {text!r} is malformed: expected sn<s>_<A joined by '-'>, "
                               f"e.g. sn5_4 or sn9_8-9")
        s = int(m.group(1))
        sizes = [int(v) for v in m.group(2).split("-")]
        if not 1 <= s <= MAX_STACKS:
            raise SlowNimError(f"Slow SetNim id {text!r}: the number of stacks s={s} must be in "
                               f"1..{MAX_STACKS}")
        if len(set(sizes)) != len(sizes):
            raise SlowNimError(f"Slow SetNim id {text!r}: A lists a selection size twice")
        bad = [v for v in sizes if not 1 <= v <= s]
        if bad:
            raise SlowNimError(f"Slow SetNim id {text!r}: selection size {bad[0]} is outside 1..{s} "
                               f"(A ⊆ {{1..s}})")
        return SlowNimGame(s, tuple(sizes))

    def positions(self, n: int) -> int:
        """Partitions of n into at most s parts (docs/definitions.md §6: the starts of total n)."""
        if n < 0:
            return 0
        while len(self._counts) <= n:  # partitions into parts ≤ s (the conjugates), exact
            self._counts = _at_most_parts(len(self._counts) * 2, self.stacks)
        return self._counts[n]

    def shard_count(self, n: int, max_records: int) -> int:
        """Shards of at most ``max_records`` consecutive starts (in rank order) of total n.

        Refuses, at planning time, a total whose positions (all totals up to n, which the cache
        holds) exceed MAX_POSITIONS.
        """
        self.positions(n)
        held = sum(self._counts[: n + 1])
        if held > MAX_POSITIONS:
            raise SlowNimError(f"{self.game_id} up to N={n} has {held:,} positions, beyond the supported "
                               f"{MAX_POSITIONS:,}; lower --max-n")
        return max(1, -(-self.positions(n) // max_records))

    @staticmethod
    def _words(records: int, npos: int) -> int:
        """Words (64 starts each) per block of the states union: no more than the records need,
        at most STATE_WORDS, and masks within STATE_BYTES."""
        return max(1, min(STATE_WORDS, -(-records // 64), STATE_BYTES // (8 * max(npos, 1))))

    def reserve(self, n: int) -> None:
        """Called by the runner before a chain of totals up to n (see :meth:`_Solved.reserve`)."""
        self.shard_count(n, 1)  # refuses a total beyond MAX_POSITIONS before allocating for it
        self._solved().reserve(n)

    def _new_solved(self, keep_edges: bool | None = None) -> _Solved:
        amask = sum(1 << v for v in self.moves)
        return _Solved(self.stacks, amask, self.moves[0], self.moves[-1], self.game_id, keep_edges)

    def _solved(self) -> _Solved:
        solved = _CACHE.get(self.game_id)
        if solved is None:
            _CACHE.clear()
            solved = self._new_solved()
            _CACHE[self.game_id] = solved
        return solved

    def states_by_union(self, n: int, words: int) -> np.ndarray:
        """The ``states`` of every start of total n (in rank order) by the general method, the
        union of the reachable sets of ``64 · words`` starts at a time (:func:`_count_states`),
        whatever A is. A game with 1 ∈ A counts its states in closed form instead; this is what
        that count is checked against (tests/test_slownim.py)."""
        solved = self._new_solved(keep_edges=True)
        solved.solve_to(n)
        states = np.zeros(self.positions(n), np.int64)
        _count_states(n, 0, self.positions(n), solved.off, solved.estart, solved.edges, words, states)
        return states

    def solve_shard(self, n: int, shard: int, max_records: int) -> pa.Table:
        solved = self._solved()
        solved.solve_to(n)
        count = self.positions(n)
        lo = shard * max_records
        hi = min(count, lo + max_records)
        if not 0 <= lo < hi:
            raise ValueError(f"{self.game_id} n={n}: no shard {shard}")
        records = hi - lo
        out = _zeroed_outputs(records, self.stacks, n)
        got = _records(n, lo, hi, self.stacks, self.moves[0], solved.ctab, solved.off, solved.values,
                       solved.estart, solved.edges, self._words(records, int(solved.off[n + 1])), out)
        if got != records:
            raise RuntimeError(f"{self.game_id} n={n} shard {shard}: {got} records, expected {records}")
        return slownim_table(n, self.stacks, self.moves, out)


def _at_most_parts(nmax: int, s: int) -> list[int]:
    """Partitions of 0..nmax into at most s parts (= into parts of size at most s)."""
    p = [1] + [0] * nmax
    for part in range(1, s + 1):
        for m in range(part, nmax + 1):
            p[m] += p[m - part]
    return p


#: A Slow SetNim kernel's outputs: a board game's, then the columns of Slow SetNim's own.
SlowNimOutput = NamedTuple("SlowNimOutput", [*KernelOutput.__annotations__.items(), *{
    "reduced": np.ndarray, "reduced_parts": np.ndarray, "reduced_offsets": np.ndarray,
    "odd_stacks": np.ndarray, "sum_mod": np.ndarray}.items()])


def _zeroed_outputs(records: int, s: int, n: int) -> SlowNimOutput:
    i64 = np.int64
    parts = records * min(s, n)
    return SlowNimOutput(
        sg=np.zeros(records, i64), sg_misere=np.zeros(records, i64), nodes=np.zeros(records, i64),
        leaves=np.zeros(records, i64), states=np.zeros(records, i64), height=np.zeros(records, i64),
        flags=np.zeros((6, records), np.bool_),  # one row per flag
        parts=np.zeros(parts, np.int16), parts_offsets=np.zeros(records + 1, i64),
        conjugate=np.zeros(records * n, np.int16),  # largest part <= n
        conjugate_offsets=np.zeros(records + 1, i64),
        num_parts=np.zeros(records, np.int16), largest=np.zeros(records, np.int16),
        durfee=np.zeros(records, np.int16), rank=np.zeros(records, np.int16),
        distinct_sizes=np.zeros(records, np.int16),
        reduced=np.zeros(records, np.bool_), reduced_parts=np.zeros(parts, np.int16),
        reduced_offsets=np.zeros(records + 1, i64),
        odd_stacks=np.zeros(records, np.int16), sum_mod=np.zeros(records, np.int16),
    )


def slownim_table(n: int, stacks: int, moves: tuple[int, ...], out: SlowNimOutput) -> pa.Table:
    """The kernel's output arrays as a table with :data:`SLOWNIM_SCHEMA`."""
    reduced, red, red_off, odd, summod = (out.reduced, out.reduced_parts, out.reduced_offsets,
                                          out.odd_stacks, out.sum_mod)
    records = reduced.shape[0]
    a = np.array(moves, np.int16)
    columns = [
        *common_columns(n, out),
        pa.array(np.full(records, stacks, np.int16)),
        list_array(np.tile(a, records), np.arange(records + 1, dtype=np.int64) * len(a), pa.int16()),
        pa.array(reduced),
        list_array(red[: red_off[-1]], red_off, pa.int16()),
        pa.array(odd),
        pa.array(summod),
    ]
    return pa.Table.from_arrays(columns, schema=SLOWNIM_SCHEMA)


__all__ = ["MAX_STACKS", "SlowNimError", "SlowNimGame", "forget_solved", "slownim_table"]
