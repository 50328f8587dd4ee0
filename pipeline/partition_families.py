"""The families of partitions the papers' theorems speak of, generated member by member.

A family run (``partgames run --family``) solves a family's members of each n with the
single-partition solver (:mod:`pipeline.games.single_partition`) instead of every partition of n. The
members are generated from their parameters (numba loops over the parameters, never a filter over
all partitions of n). Definitions (docs/families.md, docs/definitions.md §1, the papers):

==================  =======================================================  ==================
name                members of n                                              members per n
==================  =======================================================  ==================
``row``             (n)                                                       1
``column``          (1^n)                                                     1
``rectangle``       R(r,c) = (c^r), rc = n (rows and columns included)        divisors of n
``staircase``       S(k) = (k, k−1, …, 1), n = k(k+1)/2                       0 or 1
``hook``            H(r,c) = (c, 1^{r−1}), r + c − 1 = n (rows, columns too)  n
``two_row``         (a, b), a ≥ b ≥ 1                                         ⌊n/2⌋
``three_row``       (a, b, c), a ≥ b ≥ c ≥ 1                                  about n²/12
``thick_gamma``     (a^m, b^s), a > b ≥ 1, m, s ≥ 1 (two distinct part sizes)  about n log² n
``gen_staircase``   G(k;r,c) = ((kc)^r, ((k−1)c)^r, …, c^r) (k = 1: rectangles,
                    r = c = 1: staircases)                                   few
==================  =======================================================  ==================

Members come in a fixed order (largest first part first, then the next part, …: decreasing
lexicographic order), as flat part values and offsets (:func:`members`).

>>> [members_list("hook", 4)[k] for k in (0, 3)]
[(4,), (1, 1, 1, 1)]
>>> members_list("gen_staircase", 12)[:6]
[(12,), (8, 4), (6, 6), (6, 4, 2), (4, 4, 4), (4, 4, 2, 2)]
"""

from __future__ import annotations

import numba
import numpy as np

from pipeline.errors import PartgamesError

FAMILIES: tuple[str, ...] = ("row", "column", "rectangle", "staircase", "hook", "two_row",
                             "three_row", "thick_gamma", "gen_staircase")


class FamilyError(PartgamesError, ValueError):
    """An unknown family name."""


#: Each family's number, its index in :data:`FAMILIES` (what the compiled generator branches on).
ROW, COLUMN, RECTANGLE, STAIRCASE, HOOK, TWO_ROW, THREE_ROW, THICK_GAMMA, GEN_STAIRCASE = (
    FAMILIES.index(name) for name in ("row", "column", "rectangle", "staircase", "hook", "two_row",
                                      "three_row", "thick_gamma", "gen_staircase"))

# Every generator below writes the members of n into ``out_values`` / ``out_offsets``, or, with
# ``fill`` False, only counts them, and returns (members, part values). Each enumerates the
# parameters of its members in the order that lists the partitions in decreasing lexicographic
# order; a member's parts go to out_values[pos:] and its end to out_offsets[count + 1].


@numba.njit(cache=True)
def _row(n, fill, out_values, out_offsets):  # pragma: no cover - compiled
    """(n)."""
    if fill:
        out_values[0] = n
        out_offsets[1] = 1
    return 1, 1


@numba.njit(cache=True)
def _column(n, fill, out_values, out_offsets):  # pragma: no cover - compiled
    """(1^n)."""
    if fill:
        for i in range(n):
            out_values[i] = 1
        out_offsets[1] = n
    return 1, n


@numba.njit(cache=True)
def _stacked_blocks(n, rectangles_only, fill, out_values, out_offsets):  # pragma: no cover - compiled
    """G(k;r,c) = ((kc)^r, …, c^r), or only its rectangles (k = 1)."""
    # G(k;r,c) has first part kc: decreasing kc, then decreasing c (the second block).
    count = 0
    pos = 0
    for first in range(n, 0, -1):
        for c in range(first, 0, -1):
            if first % c != 0:
                continue
            k = first // c
            if rectangles_only and k != 1:
                continue
            tri = k * (k + 1) // 2
            if n % (tri * c) != 0:
                continue
            r = n // (tri * c)
            if fill:
                for step in range(k, 0, -1):
                    for _ in range(r):
                        out_values[pos] = step * c
                        pos += 1
                out_offsets[count + 1] = pos
            else:
                pos += k * r
            count += 1
    return count, pos


@numba.njit(cache=True)
def _staircase(n, fill, out_values, out_offsets):  # pragma: no cover - compiled
    """(k, k−1, …, 1) if n = k(k+1)/2."""
    k = 0
    while k * (k + 1) // 2 < n:
        k += 1
    if k * (k + 1) // 2 != n:
        return 0, 0
    if fill:
        for i in range(k):
            out_values[i] = k - i
        out_offsets[1] = k
    return 1, k


@numba.njit(cache=True)
def _hook(n, fill, out_values, out_offsets):  # pragma: no cover - compiled
    """(c, 1^{r−1}), decreasing c."""
    count = 0
    pos = 0
    for c in range(n, 0, -1):
        r = n - c + 1
        if fill:
            out_values[pos] = c
            for i in range(1, r):
                out_values[pos + i] = 1
            out_offsets[count + 1] = pos + r
        pos += r
        count += 1
    return count, pos


@numba.njit(cache=True)
def _two_row(n, fill, out_values, out_offsets):  # pragma: no cover - compiled
    """(a, n − a), decreasing a."""
    count = 0
    pos = 0
    for a in range(n - 1, (n + 1) // 2 - 1, -1):
        if fill:
            out_values[pos] = a
            out_values[pos + 1] = n - a
            out_offsets[count + 1] = pos + 2
        pos += 2
        count += 1
    return count, pos


@numba.njit(cache=True)
def _three_row(n, fill, out_values, out_offsets):  # pragma: no cover - compiled
    """(a, b, c), decreasing a then b."""
    count = 0
    pos = 0
    for a in range(n - 2, 0, -1):
        for b in range(min(a, n - a - 1), 0, -1):
            c = n - a - b
            if c > b:
                break
            if fill:
                out_values[pos] = a
                out_values[pos + 1] = b
                out_values[pos + 2] = c
                out_offsets[count + 1] = pos + 3
            pos += 3
            count += 1
    return count, pos


@numba.njit(cache=True)
def _thick_gamma(n, fill, out_values, out_offsets):  # pragma: no cover - compiled
    """(a^m, b^s), a > b: decreasing a, then m, then b."""
    count = 0
    pos = 0
    for a in range(n - 1, 1, -1):
        for m in range((n - 1) // a, 0, -1):
            rest = n - a * m
            for b in range(min(a - 1, rest), 0, -1):
                if rest % b != 0:
                    continue
                s = rest // b
                if fill:
                    for _ in range(m):
                        out_values[pos] = a
                        pos += 1
                    for _ in range(s):
                        out_values[pos] = b
                        pos += 1
                    out_offsets[count + 1] = pos
                else:
                    pos += m + s
                count += 1
    return count, pos


@numba.njit(cache=True)
def _generate(kind, n, out_values, out_offsets):  # pragma: no cover - compiled
    """Write the members of family number ``kind`` (index in FAMILIES) of n into the outputs,
    or, with outputs of length 0, only count them. Returns (members, part values)."""
    fill = out_offsets.shape[0] > 0
    if fill:
        out_offsets[0] = 0
    if kind == ROW:
        return _row(n, fill, out_values, out_offsets)
    if kind == COLUMN:
        return _column(n, fill, out_values, out_offsets)
    if kind == RECTANGLE or kind == GEN_STAIRCASE:  # a rectangle is G(1;r,c)
        return _stacked_blocks(n, kind == RECTANGLE, fill, out_values, out_offsets)
    if kind == STAIRCASE:
        return _staircase(n, fill, out_values, out_offsets)
    if kind == HOOK:
        return _hook(n, fill, out_values, out_offsets)
    if kind == TWO_ROW:
        return _two_row(n, fill, out_values, out_offsets)
    if kind == THREE_ROW:
        return _three_row(n, fill, out_values, out_offsets)
    if kind == THICK_GAMMA:
        return _thick_gamma(n, fill, out_values, out_offsets)
    return -1, -1


def family_index(name: str) -> int:
    """The index of a family name in :data:`FAMILIES`; unknown names: one line."""
    if name not in FAMILIES:
        raise FamilyError(f"unknown family {name!r} (known: {', '.join(FAMILIES)})")
    return FAMILIES.index(name)


def members(name: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(values, offsets): member k of family ``name`` of n is ``values[offsets[k]:offsets[k+1]]``."""
    kind = family_index(name)
    empty = np.zeros(0, dtype=np.int64)
    count, size = _generate(kind, n, empty, empty)
    values = np.zeros(size, dtype=np.int64)
    offsets = np.zeros(count + 1, dtype=np.int64)
    _generate(kind, n, values, offsets)
    return values, offsets


def member_count(name: str, n: int) -> int:
    """How many members family ``name`` has of n (without generating them)."""
    empty = np.zeros(0, dtype=np.int64)
    return int(_generate(family_index(name), n, empty, empty)[0])


def members_list(name: str, n: int) -> list[tuple[int, ...]]:
    """The members of family ``name`` of n as tuples (for tests and small n)."""
    return partitions_as_tuples(*members(name, n))


def partitions_as_tuples(values: np.ndarray, offsets: np.ndarray) -> list[tuple[int, ...]]:
    """The partitions given as parts ``values`` and ``offsets`` (record k:
    ``values[offsets[k]:offsets[k + 1]]``) as tuples of Python ints."""
    return [tuple(int(v) for v in values[offsets[k]:offsets[k + 1]]) for k in range(len(offsets) - 1)]
