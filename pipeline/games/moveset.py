"""Moveset games on Young diagrams: LCTR, Downright, the impartial chess pieces, user movesets.

Rules (docs/definitions.md §2.1–2.2). A moveset is a set of *steps* (offsets (a, b), a rows down and b columns
right) and *rays* (an offset repeated any number k ≥ 1 of times, like the rook). A piece on cell
(i, j) of λ is the position λ[i, j]; a move is legal iff its target cell exists. LCTR is
Downright where a step may also leave the diagram, into the terminal position () ("exits").

Solving machinery: cell dynamic programming over the enumeration tree of
:mod:`pipeline.partitions`. The partitions are built bottom row first, so the value of a cell,
which depends only on the cells weakly below and right of it, is computed once when its row is
added and reused by every partition above. Ray moves are aggregated along the ray
(``agg(cell) = own(cell) ⊕ agg(next cell on the ray)``), so rook and queen cost O(1) per cell and
ray, not O(r + c). Distinct positions (``states``) are counted exactly by hash-consing
sub-partitions: λ[i, j] is the pair (its top row length, λ[i+1, j]), interned in a table whose
entries are undone when the walk pops a row.

Examples (`Moveset.parse` accepts a game id or a readable moveset):

>>> Moveset.parse("king").steps
((0, 1), (1, 0), (1, 1))
>>> Moveset.parse("{(1,3),(3,1)}").game_id
'moves_1.3_3.1'
>>> Moveset.parse("moves_1.2+").rays
((1, 2),)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numba
import numpy as np
import pyarrow as pa
from numba.cpython.unsafe.numbers import trailing_zeros

from pipeline.games.cgh import (
    ALL_AND,
    EMPTY_AND,
    EMPTY_OR,
    sadd,
    summarize,
)
from pipeline.games.columns import board_table
from pipeline.games.lctr_downright import solve_lctr_downright
from pipeline.games.lctr_downright_pair import solve_pair_shard
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
from pipeline.partitions import DONE, POP, PUSH, walk_next
from pipeline.schema import BOARD_SCHEMA

#: Built-in movesets (docs/definitions.md §2.2): name -> (steps, rays, exits).
BUILTIN: dict[str, tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], bool]] = {
    "lctr": (((0, 1), (1, 0)), (), True),
    "downright": (((0, 1), (1, 0)), (), False),
    "pawn": (((0, 1), (1, 1)), (), False),
    "pawn_t": (((1, 0), (1, 1)), (), False),
    "knight": (((1, 2), (2, 1)), (), False),
    "bishop": ((), ((1, 1),), False),
    "king": (((0, 1), (1, 0), (1, 1)), (), False),
    "rook": ((), ((0, 1), (1, 0)), False),
    "queen": ((), ((0, 1), (1, 0), (1, 1)), False),
}

# Digits are ASCII ([0-9]): Python's \d also matches other scripts' digits (Arabic-Indic ٣), which
# int() reads, so a game id could be spelled in ways no other tool (SQL, a directory listing) sees.
_USER_ID = re.compile(r"moves((?:_[0-9]+\.[0-9]+\+?)+)")
_PRETTY_MOVES = (r"\(\s*[0-9]+\s*,\s*[0-9]+\s*\)\s*\+?\s*"
                 r"(?:,\s*\(\s*[0-9]+\s*,\s*[0-9]+\s*\)\s*\+?\s*)*")
#: ``{(1,3),(3,1)}`` or ``(1,2)+``: braces around the moves both or neither (``{(1,2)`` is refused).
_PRETTY = re.compile(rf"\{{\s*{_PRETTY_MOVES}\}}|{_PRETTY_MOVES}")


#: The n from which a piece's steps go to the kernel as a tuple of pairs: numba compiles one
#: kernel per number of steps, its loop over them unrolled, about 5 % faster at n = 72
#: (docs/performance.md). Below it they go as an array, the form of the steps-free pieces, so
#: that every piece shares one kernel: a first run of small n (the README's, n ≤ 30) compiles
#: one moveset kernel instead of three, and the 5 % is a few milliseconds there.
TUPLE_STEPS_MIN_N = 41

#: Largest coordinate of an offset: a move (a, b) from a cell of λ lands in λ only when
#: a < len(λ) and b < λ_1, both at most n, and n and the parts are int16 columns (at most 32,767,
#: ``pipeline.games.single_partition.MAX_N``). Larger offsets are never moves; they are refused, not
#: dropped, as the kernels type offsets as machine integers (an offset beyond int64 fails there).
MAX_OFFSET = 32767


class MovesetError(ValueError):
    """A moveset that is not a valid game (docs/definitions.md §2.2)."""


@dataclass(frozen=True)
class Moveset:
    """A moveset game: its id, steps, rays and whether steps may exit into () (LCTR)."""

    game_id: str
    steps: tuple[tuple[int, int], ...]
    rays: tuple[tuple[int, int], ...]
    exits: bool = False

    @staticmethod
    def user(steps: list[tuple[int, int]], rays: list[tuple[int, int]]) -> Moveset:
        """A user-defined moveset; its id is canonical (offsets sorted, rays marked ``+``)."""
        offsets = set(steps) | set(rays)
        if not offsets:
            raise MovesetError("a moveset needs at least one offset")
        for a, b in offsets:
            if a < 0 or b < 0:
                raise MovesetError(f"offset ({a},{b}) is not down/right: both coordinates must be ≥ 0")
            if (a, b) == (0, 0):
                raise MovesetError("offset (0,0) is not a move")
            if max(a, b) > MAX_OFFSET:
                raise MovesetError(f"offset ({a},{b}) is beyond {MAX_OFFSET}: no diagram of the "
                                   "int16 n and parts has such a move")
        # M is a set of offsets (docs/definitions.md §2.2): drop a step or ray that a ray already covers,
        # e.g. the step (2,2) or the ray (2,2)+ beside the ray (1,1)+.
        def covered(a: int, b: int, by: set[tuple[int, int]]) -> bool:
            return any((c, d) != (a, b) and _is_multiple(a, b, c, d) for c, d in by)

        ray_all = set(rays)
        ray_set = sorted(r for r in ray_all if not covered(*r, ray_all))
        step_set = sorted(s for s in set(steps) if s not in ray_all and not covered(*s, ray_all))
        parts = [f"{a}.{b}" for a, b in step_set] + [f"{a}.{b}+" for a, b in ray_set]
        parts.sort(key=lambda s: (tuple(int(x) for x in s.rstrip("+").split(".")), s.endswith("+")))
        return Moveset("moves_" + "_".join(parts), tuple(step_set), tuple(ray_set))

    @staticmethod
    def parse(text: str) -> Moveset:
        """A built-in name, a canonical user id ``moves_1.3_3.1`` / ``moves_1.2+``, or the readable
        form ``{(1,3),(3,1)}`` / ``(1,2)+``."""
        text = text.strip()
        if text in BUILTIN:
            steps, rays, exits = BUILTIN[text]
            return Moveset(text, steps, rays, exits)
        m = _USER_ID.fullmatch(text)
        if m:
            items = m.group(1).strip("_").split("_")
        elif _PRETTY.fullmatch(text):
            items = [
                f"{a}.{b}{plus}"
                for a, b, plus in re.findall(r"\(\s*([0-9]+)\s*,\s*([0-9]+)\s*\)\s*(\+?)", text)
            ]
        elif re.search(r"\(\s*-", text) or re.search(r",\s*-", text):
            raise MovesetError(f"moveset {text!r}: offsets must be down/right (no negative coordinates)")
        else:
            raise MovesetError(f"unknown game {text!r}")
        steps, rays = [], []
        for item in items:
            ray = item.endswith("+")
            a, b = (int(x) for x in item.rstrip("+").split("."))
            (rays if ray else steps).append((a, b))
        return Moveset.user(steps, rays)

    def reach_table(self, n: int) -> np.ndarray:
        """reach[i, j]: cell (i, j) is reachable from (0, 0) (offset is a sum of moves)."""
        reach = np.zeros((n + 1, n + 1), dtype=np.bool_)
        reach[0, 0] = True
        gens = list(self.steps) + list(self.rays)
        for i in range(n + 1):
            for j in range(n + 1):
                if not reach[i, j]:
                    reach[i, j] = any(a <= i and b <= j and reach[i - a, j - b] for a, b in gens)
        return reach

    def bitset_words(self, n: int) -> int:
        """64-bit words of the kernel's option bitsets for partitions of n: sg and sg_misere are
        at most the number of options, which is at most the diagram's other n - 1 cells plus a
        move off it per step (LCTR), whatever the rays (counting n cells per ray would give rook
        3 words and queen 4 at n = 66 instead of 2, each zeroed and combined per ray per cell)."""
        return (n - 1 + len(self.steps)) // 64 + 1

    def same_row_reach(self) -> int:
        """The largest b of a step or ray (0, b): how far a move can go within a row."""
        return max((b for a, b in self.steps + self.rays if a == 0), default=0)

    def all_cells_reachable(self) -> bool:
        """True iff every cell is reachable: the moveset generates (0,1) and (1,0)."""
        gens = set(self.steps) | set(self.rays)
        return (0, 1) in gens and (1, 0) in gens


def _is_multiple(a: int, b: int, c: int, d: int) -> bool:
    """(a, b) = k·(c, d) for some integer k ≥ 1."""
    k = a // c if c else b // d
    return k >= 1 and (a, b) == (k * c, k * d)


# Fields of a cell in the cell table (one cache line per cell).
SG, SGM, NODES, LEAVES, HEIGHT, AND, OR, ID = 0, 1, 2, 3, 4, 5, 6, 7
# Fields of a ray aggregate; the sg / sg_misere bitsets live in ``ray_bits``.
R_NODES, R_LEAVES, R_HEIGHT, R_AND, R_OR = 0, 1, 2, 3, 4
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@numba.njit(cache=True, inline="always")
def _mex(low, high, w_count):  # pragma: no cover
    """mex of a bitset: word 0 in ``low``, words 1.. in ``high[1:]`` (values ≥ 64 are rare)."""
    inv = ~low
    w = 0
    while inv == _ZERO:
        w += 1
        if w == w_count:
            return w_count * 64
        inv = ~high[w]
    return w * 64 + trailing_zeros(inv)  # one instruction, no data-dependent loop


@numba.njit(cache=True, inline="always")
def _solve_row(
    kr, rows, steps, rays, exits, w_count, cell, ray, ray_bits,
    index, entries, hi, tail_from, top, same_row_reach,
):  # pragma: no cover
    """Compute every cell of the new top row ``kr``, right to left (docs/definitions.md §3–§5).

    Cells at columns ≥ ``tail_from`` (the length of the row below) have nothing below them:
    every move from them stays in the row or leaves it, so λ[i,j] there is the one-row partition
    (rows[kr] - j) and its values are copied from the last row of ``cell`` (and ``ray``,
    ``ray_bits``), solved once for a single row of length n. That is about 45 % of all cells.
    ``hi[0]`` and ``hi[1]`` hold the words ≥ 1 of the sg and sg_misere option bitsets.
    Returns how many of its sub-partitions with two or more rows are new (not a sub-partition
    of a lower row); one-row sub-partitions are counted by the caller.

    ``top``: the row completes a partition of n, so it is popped right after its record is
    written and no row is ever solved above it (about 58 % of the cells solved at n = 72).
    Its sub-partitions are then only looked up, not interned: they are distinct from each other
    (each has its own number of columns), so no later lookup in the row could find them, and
    there is nothing to undo. A new one gets the id that interning would have given it. And of
    its tail only the cells that a move inside the row reaches from a cell before the tail are
    copied, those at columns < ``tail_from + same_row_reach``, and the start cell (0 in a
    one-row partition); the others only get their id. Its rays that go down keep no aggregates
    (only the row above would read them), and without moves inside a row only its start cell
    is solved.
    Arrays are passed one by one, never in tuples: unpacking a tuple of arrays in a hot
    function costs a reference-count round trip per array per call. A target cell's indices
    are unsigned once its bounds are checked: numba adds a negative-index fix-up to every signed
    index, and nothing tells LLVM that a column j + b is not negative (docs/definitions.md §2.2: b ≥ 0).
    Kept whole: split into inlined helpers, each helper's arrays add reference counts to the
    cell loop and the kernels ran 0.68–0.97× as fast (docs/performance.md, "Tried and not kept").
    """
    u = np.uint64
    n_steps = len(steps)  # a compile-time constant when steps is a tuple (see MovesetGame)
    n_rays = rays.shape[0]
    length = rows[kr]
    new_ids = 0
    tail_row = cell.shape[0] - 1
    tail_len = cell.shape[1] - 2
    tail_used = min(length, max(tail_from + same_row_reach, 1)) if top else length
    # Without moves inside a row (every offset goes down: knight, bishop, pawn_t), nothing reads
    # a completing row's cells but its start cell: no cell of it is an option of another, and
    # none is reachable from the start, so none counts in ``states``. Only that cell is solved.
    last = 0 if top and same_row_reach == 0 else length - 1
    for j in range(last, -1, -1):
        if j >= tail_used:
            cell[kr, j, ID] = length - j
            continue
        if j >= tail_from:
            src = tail_len - (length - j)
            for f in range(ID):
                cell[kr, j, f] = cell[tail_row, src, f]
            for r in range(n_rays):
                if top and rays[r, 0] != 0:
                    continue  # read from the row above only, and a completing row has none
                for f in range(5):
                    ray[r, kr, j, f] = ray[r, tail_row, src, f]
                for w in range(2 * w_count):
                    ray_bits[r, kr, j, w] = ray_bits[r, tail_row, src, w]
            # The one-row partition (L) has the reserved id L; it is not interned, and
            # solve_moveset counts the one-row sub-partitions of a diagram in O(1) per row.
            cell[kr, j, ID] = length - j
            continue
        # ---- gather the options of cell (kr, j) ----
        sgb = _ZERO
        sgmb = _ZERO
        for w in range(1, w_count):
            hi[0, w] = _ZERO
            hi[1, w] = _ZERO
        nsum = np.int64(0)
        lsum = np.int64(0)
        hmax = -1
        agg_or = 0
        agg_and = ALL_AND
        cnt = 0
        for s in range(n_steps):
            tk = kr - steps[s][0]
            tj = j + steps[s][1]
            if tk >= 0 and tj < rows[tk]:
                uk, uj = u(tk), u(tj)  # unsigned: see the docstring
                v = cell[uk, uj, SG]
                if v < 64:
                    sgb |= _ONE << np.uint64(v)
                else:
                    hi[0, v >> 6] |= _ONE << np.uint64(v & 63)
                v = cell[uk, uj, SGM]
                if v < 64:
                    sgmb |= _ONE << np.uint64(v)
                else:
                    hi[1, v >> 6] |= _ONE << np.uint64(v & 63)
                nsum = sadd(nsum, cell[uk, uj, NODES])
                lsum = sadd(lsum, cell[uk, uj, LEAVES])
                hmax = max(hmax, cell[uk, uj, HEIGHT])
                agg_and &= cell[uk, uj, AND]
                agg_or |= cell[uk, uj, OR]
                cnt += 1
            elif exits:  # LCTR: the move leaves the diagram, into ()
                sgb |= _ONE
                sgmb |= _ONE << _ONE
                nsum = sadd(nsum, 1)
                lsum = sadd(lsum, 1)
                hmax = max(hmax, 0)
                agg_or |= EMPTY_OR
                agg_and &= EMPTY_AND
                cnt += 1
        for r in range(n_rays):
            tk = kr - rays[r, 0]
            tj = j + rays[r, 1]
            if tk >= 0 and tj < rows[tk]:
                uk, uj = u(tk), u(tj)
                sgb |= ray_bits[r, uk, uj, 0]
                sgmb |= ray_bits[r, uk, uj, w_count]
                for w in range(1, w_count):
                    hi[0, w] |= ray_bits[r, uk, uj, w]
                    hi[1, w] |= ray_bits[r, uk, uj, w_count + w]
                nsum = sadd(nsum, ray[r, uk, uj, R_NODES])
                lsum = sadd(lsum, ray[r, uk, uj, R_LEAVES])
                hmax = max(hmax, ray[r, uk, uj, R_HEIGHT])
                agg_and &= ray[r, uk, uj, R_AND]
                agg_or |= ray[r, uk, uj, R_OR]
                cnt += 1
        # ---- values of the cell (docs/definitions.md §3–§5) ----
        terminal = cnt == 0
        if terminal:
            g, m, nodes, leaves, h = 0, 1, np.int64(1), np.int64(1), 0
        else:
            g = _mex(sgb, hi[0], w_count)
            m = _mex(sgmb, hi[1], w_count)
            nodes = sadd(np.int64(1), nsum)
            leaves = lsum
            h = hmax + 1
        own_and, own_or = summarize(g, m, terminal, agg_and, agg_or)
        cell[kr, j, SG] = g
        cell[kr, j, SGM] = m
        cell[kr, j, NODES] = nodes
        cell[kr, j, LEAVES] = leaves
        cell[kr, j, HEIGHT] = h
        cell[kr, j, AND] = own_and
        cell[kr, j, OR] = own_or
        # ---- ray aggregates through this cell: own values ⊕ aggregate of the next cell ----
        for r in range(n_rays):
            if top and rays[r, 0] != 0:
                # A ray going down from this cell's row is read from the row above it only, and
                # nothing is solved above a completing row: only its same-row rays are read.
                continue
            for w in range(2 * w_count):
                ray_bits[r, kr, j, w] = _ZERO
            ray_bits[r, kr, j, u(g >> 6)] = _ONE << np.uint64(g & 63)
            ray_bits[r, kr, j, u(w_count + (m >> 6))] = _ONE << np.uint64(m & 63)
            tk = kr - rays[r, 0]
            tj = j + rays[r, 1]
            if tk >= 0 and tj < rows[tk]:
                uk, uj = u(tk), u(tj)
                for w in range(2 * w_count):
                    ray_bits[r, kr, j, w] |= ray_bits[r, uk, uj, w]
                ray[r, kr, j, R_NODES] = sadd(nodes, ray[r, uk, uj, R_NODES])
                ray[r, kr, j, R_LEAVES] = sadd(leaves, ray[r, uk, uj, R_LEAVES])
                ray[r, kr, j, R_HEIGHT] = max(h, ray[r, uk, uj, R_HEIGHT])
                ray[r, kr, j, R_AND] = own_and & ray[r, uk, uj, R_AND]
                ray[r, kr, j, R_OR] = own_or | ray[r, uk, uj, R_OR]
            else:
                ray[r, kr, j, R_NODES] = nodes
                ray[r, kr, j, R_LEAVES] = leaves
                ray[r, kr, j, R_HEIGHT] = h
                ray[r, kr, j, R_AND] = own_and
                ray[r, kr, j, R_OR] = own_or
        # ---- identity of the sub-partition, for states ----
        child = cell[kr - 1, j, ID] if kr >= 1 and j < rows[kr - 1] else 0
        if top:
            ident = np.int64(index[child, length - j])  # looked up, not interned (see above)
            if ident == 0:
                ident = index[-1, 0] + new_ids + 1  # what intern would have given it
                new_ids += 1
        else:
            ident, is_new = intern(length - j, child, index, entries)
            if is_new:
                new_ids += 1
        cell[kr, j, ID] = ident + tail_len  # ids 1..n are the one-row partitions
    return new_ids


@numba.njit(cache=True, nogil=True)
def _solve_row_apart(
    kr, rows, steps, rays, exits, w_count, cell, ray, ray_bits,
    index, entries, hi, tail_from, top, same_row_reach,
):  # pragma: no cover
    """:func:`_solve_row` as a call, for the rows solved outside the walk's loop (the one-row
    partitions, a prefix's rows): each inlined copy of the row is compiled again, and the walk's
    own copy is the only one on the hot path (docs/performance.md, "The first run")."""
    return _solve_row(kr, rows, steps, rays, exits, w_count, cell, ray, ray_bits,
                      index, entries, hi, tail_from, top, same_row_reach)


@numba.njit(cache=True, inline="always")
def _solve_one_rows(n, steps, rays, exits, w_count, cell, ray, ray_bits, hi):  # pragma: no cover
    """The one-row partitions (L), L = 1..n, into cell (n + 1, n - L): the last row of the
    tables (the walk never gets there) holds a single row of length n, solved once with a
    scratch interning table (ids there are not used)."""
    size = n + 2
    one_row = np.zeros(size, dtype=np.int64)
    one_row[size - 1] = n
    scratch_index = np.zeros((2 * size + 2, size), dtype=np.int32)
    _solve_row_apart(
        size - 1, one_row, steps, rays, exits, w_count, cell, ray, ray_bits,
        scratch_index, np.zeros((2, size), dtype=np.int64), hi, n, False, 0,
    )


@numba.njit(cache=True, inline="always")
def _emit_values(rec, kt, cell, out):  # pragma: no cover
    """The values of record ``rec`` but its ``states``, from its start cell (kt, 0)."""
    out.sg[rec] = cell[kt, 0, SG]
    out.sg_misere[rec] = cell[kt, 0, SGM]
    out.nodes[rec] = cell[kt, 0, NODES]
    out.leaves[rec] = cell[kt, 0, LEAVES]
    out.height[rec] = cell[kt, 0, HEIGHT]
    fl = cell[kt, 0, AND]
    for f in range(6):
        out.flags[f, rec] = (fl >> f) & 1


@numba.njit(cache=True, inline="always")
def _reach_columns(reach):  # pragma: no cover
    """(reach_cols, reach_count): ``reach_cols[i, :reach_count[i]]`` are the columns j with
    ``reach[i, j]`` set (row i reachable at column j), increasing."""
    reach_cols = np.zeros(reach.shape, dtype=np.int64)
    reach_count = np.zeros(reach.shape[0], dtype=np.int64)
    for i in range(reach.shape[0]):
        for jj in range(reach.shape[1]):
            if reach[i, jj]:
                reach_cols[i, reach_count[i]] = jj
                reach_count[i] += 1
    return reach_cols, reach_count


@numba.njit(cache=True, inline="always")
def _reachable_states(rec, depth, rows, cell, reach_cols, reach_count, stamp):  # pragma: no cover
    """``states`` of record ``rec`` (the partition rows[:depth]) in a game whose moves reach only
    some cells: the distinct sub-partitions at its reachable cells (:func:`_reach_columns`),
    counted by stamping their ids with the record's number (no clearing)."""
    states = 0
    token = rec + 1
    for kk in range(depth):
        i = depth - 1 - kk
        for t in range(reach_count[i]):  # the reachable columns of row i only
            jj = reach_cols[i, t]
            if jj >= rows[kk]:
                break
            ident = cell[kk, jj, ID]
            if stamp[ident] != token:
                stamp[ident] = token
                states += 1
    return states


# nogil: the runner writes the previous shard in a thread while this solves the next one.
# Not split: the walk loop stays written out, a shared one compiled and ran slower (docs/architecture.md).
@numba.njit(cache=True, nogil=True)
def solve_moveset(
    n, prefix_values, prefix_offsets, steps, rays, exits, all_reachable, reach, w_count,
    same_row_reach, features, out,
):  # pragma: no cover
    """Solve every partition of n below the prefixes; write one record per partition into ``out``.

    ``out`` is a :class:`~pipeline.games.walk.KernelOutput`; without ``features`` the
    record features (parts … distinct_sizes, conjugate: they depend on the partition only) are
    not written, since the shard's first game wrote them already (see ``solve_shard``). Returns
    the number of records.
    """
    size = n + 2
    # Cell table, row k counted from the bottom of the diagram; fields SG … ID.
    cell = np.zeros((size, size, 8), dtype=np.int64)
    # Aggregates along each ray, from a cell to the end of the ray (that cell included).
    nr = max(rays.shape[0], 1)
    ray = np.zeros((nr, size, size, 5), dtype=np.int64)
    ray_bits = np.zeros((nr, size, size, 2 * w_count), dtype=np.uint64)
    # Interning table of sub-partitions (see intern): ids 1..n are the one-row partitions, then
    # at most n interned ones on the stack, and a top row's new ones (at most n cells in all).
    ids = 2 * size + 1
    walk = walk_arrays(size)
    index, entries = walk.index, walk.entries  # index[child, length]; [-1, 0] stack height
    stamp = np.zeros(ids, dtype=np.int64)  # by id
    # The reachable columns of each row of the diagram, increasing: a record's ``states`` visits
    # only them, not every cell (bishop: the diagonal, knight about a third, the pawns half).
    reach_cols, reach_count = _reach_columns(reach)
    hi = np.zeros((2, w_count), dtype=np.uint64)
    _solve_one_rows(n, steps, rays, exits, w_count, cell, ray, ray_bits, hi)
    # Walk state and the per-row bookkeeping for states (see push_row).
    rows, sums, nxt, st = walk.rows, walk.sums, walk.nxt, walk.st
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
            new_ids = _solve_row_apart(
                k, rows, steps, rays, exits, w_count, cell, ray, ray_bits,
                index, entries, hi, rows[k - 1] if k > 0 else 0, False, 0,
            )
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
                new_ids = _solve_row(
                    kr, rows, steps, rays, exits, w_count, cell, ray, ray_bits,
                    index, entries, hi, rows[kr - 1] if kr > 0 else 0,
                    sums[kr + 1] == n, same_row_reach,
                )
                push_row(kr, new_ids, rows, distinct_below, gap_below, features, conj_rows, sizes_below,
                         parts_rev, sums[kr + 1] == n)
                continue
            # ---- EMIT: rows[:depth] is a partition of n; its start cell is (depth-1, 0) ----
            depth = st[0]
            _emit_values(rec, depth - 1, cell, out)
            if all_reachable:
                states = distinct_below[depth] + gap_below[depth]
            else:  # only cells at offsets generated by the moveset are positions of this game
                states = _reachable_states(rec, depth, rows, cell, reach_cols, reach_count, stamp)
            out.states[rec] = states + (1 if exits else 0)  # LCTR also reaches ()
            if features:
                ppos, cpos = emit_features(rec, depth, rows, conj_rows, sizes_below, parts_rev,
                                           ppos, cpos, out)
            rec += 1
    if features:
        clear_feature_slack(out, rec)
    return rec


class MovesetGame(PartitionWalkGame):
    """A moveset game as the runner sees it (see :class:`pipeline.games.base.Game`; its shards
    are every board game's, :class:`pipeline.games.walk.PartitionWalkGame`). A piece's position
    is a cell's sub-partition: its values fill a diagram box by box (:attr:`diagram_positions`),
    and the single-partition solver takes its :attr:`moveset` (:meth:`solve_chosen`)."""

    diagram_positions = True
    solves_chosen = True
    positions_are = "partitions"
    family = "the moveset games"

    def __init__(self, moveset: Moveset):
        super().__init__()
        self.moveset: Moveset = moveset
        self.game_id = moveset.game_id
        self.schema = BOARD_SCHEMA
        # Steps go to the kernel as a tuple of pairs from TUPLE_STEPS_MIN_N on (one kernel per
        # number of steps, the loop over them unrolled), as an array below it (one kernel for
        # every piece). A game without steps (bishop, rook, queen) always passes an empty
        # array, since an empty tuple has no items to type the loop body with.
        self._step_array = np.array(moveset.steps, dtype=np.int64).reshape(-1, 2)
        self._step_tuple = tuple(moveset.steps) or self._step_array
        self._rays = np.array(moveset.rays, dtype=np.int64).reshape(-1, 2)
        # LCTR and Downright (and the user moveset {(0,1),(1,0)}) have a leaner kernel
        # (pipeline.games.lctr_downright); the warm-up and the tests read which one a game uses.
        self.lean_kernel = moveset.steps == ((0, 1), (1, 0)) and not moveset.rays
        self._reach: dict[int, np.ndarray] = {}

    def kernel_steps(self, n: int) -> tuple[tuple[int, int], ...] | np.ndarray:
        """The steps as :func:`solve_moveset` takes them for the partitions of ``n``: a tuple of
        pairs from :data:`TUPLE_STEPS_MIN_N` on, an int64 array of shape (steps, 2) below it and
        for a game without steps.

        >>> from pipeline.games import get_game
        >>> get_game("knight").kernel_steps(30).shape, get_game("knight").kernel_steps(41)
        ((2, 2), ((1, 2), (2, 1)))
        """
        return self._step_tuple if n >= TUPLE_STEPS_MIN_N else self._step_array

    @property
    def kernel_rays(self) -> np.ndarray:
        """The rays as :func:`solve_moveset` takes them (an int64 array of shape (rays, 2))."""
        return self._rays

    def solve_shard(self, n: int, shard: int, max_records: int,
                    partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
        """The records of one shard. ``partition_columns``: those of another board game's table
        of the same shard (every board game has the same shards, :attr:`record_order`), used
        instead of computing them again (see :func:`pipeline.games.columns.common_columns`)."""
        features = partition_columns is None
        spec, values, offsets, out = self.shard_inputs(n, shard, max_records, features)
        if self.lean_kernel:
            got = solve_lctr_downright(n, values, offsets, self.moveset.exits, features, out)
        else:  # never -1: the general kernel has no class table
            if n not in self._reach:
                self._reach[n] = self.moveset.reach_table(n)
            got = solve_moveset(
                n, values, offsets, self.kernel_steps(n), self._rays, self.moveset.exits,
                self.moveset.all_cells_reachable(), self._reach[n], self.moveset.bitset_words(n),
                self.moveset.same_row_reach(), features, out,
            )
        check_shard(self.game_id, n, shard, got, spec.records,
                    "the kernel's table holds (lctr_downright.MAX_CLASSES)")
        return board_table(n, out, partition_columns)

    def solve_chosen(self, n: int, values: np.ndarray, offsets: np.ndarray,
                     partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
        """The records of the chosen partitions ``values[offsets[p]:offsets[p+1]]`` of n, each
        solved on its own by the single-partition solver
        (:func:`pipeline.games.single_partition.solve_moveset_partitions`)."""
        from pipeline.games.single_partition import solve_moveset_partitions  # its own kernels

        return solve_moveset_partitions(self.moveset, n, values, offsets, partition_columns)

    def partner_in(self, games: list) -> MovesetGame | None:
        """The game among ``games`` solved in one walk with this one
        (:func:`pipeline.games.lctr_downright_pair.solve_lctr_downright_pair`): for a game of the moveset
        {(0,1),(1,0)} (LCTR, Downright), the first of that moveset with the other rule off the
        diagram; None for every other game."""
        if not self.lean_kernel:
            return None
        for game in games:
            if (isinstance(game, MovesetGame) and game.lean_kernel
                    and game.moveset.exits != self.moveset.exits):
                return game
        return None

    def solve_shard_with(self, partner: MovesetGame, n: int, shard: int, max_records: int,
                         partition_columns: dict[str, pa.Array] | None = None,
                         ) -> tuple[pa.Table, pa.Table]:
        """(This game's table, ``partner``'s) of one shard, solved in one walk; each is exactly
        its ``solve_shard`` (``partner`` from :meth:`partner_in`)."""
        if self.moveset.exits:
            return solve_pair_shard(self, partner, n, shard, max_records, partition_columns)
        lctr_table, table = solve_pair_shard(partner, self, n, shard, max_records, partition_columns)
        return table, lctr_table
