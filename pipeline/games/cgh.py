"""Solving machinery shared by every game family: values and flags of one position (docs/definitions.md
§3–§5).

A kernel gathers, over the options of a position x, the bitsets of their sg / sg_misere values,
their node/leaf sums, their longest play, and two bit summaries: ``agg_or`` (OR of the options'
:data:`O_*` bits) and ``agg_and`` (AND of their :data:`F_ALL` flags and ``B_*`` facts). From
those, :func:`summarize` gives x's own summaries, which the positions moving to x aggregate in
turn. Every flag is the AND of a local condition over the reachable positions (docs/definitions.md §5), so the
AND of the options' flags with the local condition at x is the flag of the game started at x.

>>> own_and, own_or = summarize(0, 1, True, ALL_AND, 0)   # a terminal position: pair (0,1)
>>> own_and & F_ALL == F_ALL and own_or == O_IS01
True
"""

from __future__ import annotations

import numba
import numpy as np

F_ALL = 0x3F  # domestic tame pet miserable forced returnable (pipeline.schema.FLAG_NAMES order)
B_IS10 = 1 << 6  # the position's pair is (1,0)
B_IS01 = 1 << 7  # the position's pair is (0,1)
B_TERM_OR_HAS01 = 1 << 8  # terminal, or has a move to a (0,1) position
B_TERM_OR_HAS10 = 1 << 9
ALL_AND = 0x3FF  # identity of the AND aggregate (no option yet)
O_IS01 = 1
O_IS10 = 2

OVER = np.int64(-1)  # a node/leaf count beyond 2**63 - 1 (stored as NULL, docs/definitions.md §4)
_MAX = np.int64(9223372036854775807)


@numba.njit(cache=True, inline="always")
def sadd(a, b):  # pragma: no cover
    """Exact addition of game-tree counts; OVER once beyond 2**63 - 1."""
    if a < 0 or b < 0 or a > _MAX - b:
        return OVER
    return a + b


@numba.njit(cache=True, inline="always")
def mex(bits):  # pragma: no cover
    """The least value not in the set ``bits`` (bit v set: v is in it), the minimum excludant
    of the options' sg or sg_misere values (docs/definitions.md §3)."""
    v = 0
    while (bits >> v) & 1:
        v += 1
    return v


@numba.njit(cache=True, inline="always")
def summarize(g, m, terminal, agg_and, agg_or):  # pragma: no cover
    """(own_and, own_or) of a position with pair (g, m), from its options' aggregates.

    Local conditions, literally as docs/definitions.md §5 states them:
    domestic: p(x) is not (0,k) nor (k,0), k ≥ 2; tame: (0,1), (1,0) or (k,k); pet: (0,1),
    (1,0) or (k,k) with k ≥ 2; miserable: x is swap, or has no move to a swap position, or has
    moves to both a (0,1) and a (1,0) position; forced: a (0,1) position moves only to (1,0)
    positions and vice versa; returnable: from a (0,1) (resp. (1,0)) position every non-terminal
    option has a move to a (0,1) (resp. (1,0)) position.
    """
    is01 = g == 0 and m == 1
    is10 = g == 1 and m == 0
    swap = is01 or is10
    has01 = (agg_or & O_IS01) != 0
    has10 = (agg_or & O_IS10) != 0
    domestic = not ((g == 0 and m >= 2) or (m == 0 and g >= 2))
    tame = swap or g == m
    pet = swap or (g == m and g >= 2)
    miserable = swap or not (has01 or has10) or (has01 and has10)
    forced = (not is01 or (agg_and & B_IS10) != 0) and (not is10 or (agg_and & B_IS01) != 0)
    returnable = (not is01 or (agg_and & B_TERM_OR_HAS01) != 0) and (
        not is10 or (agg_and & B_TERM_OR_HAS10) != 0
    )
    own_and = (
        (1 if domestic else 0)
        | (2 if tame else 0)
        | (4 if pet else 0)
        | (8 if miserable else 0)
        | (16 if forced else 0)
        | (32 if returnable else 0)
    ) & agg_and & F_ALL
    if is10:
        own_and |= B_IS10
    if is01:
        own_and |= B_IS01
    if terminal or has01:
        own_and |= B_TERM_OR_HAS01
    if terminal or has10:
        own_and |= B_TERM_OR_HAS10
    own_or = (O_IS01 if is01 else 0) | (O_IS10 if is10 else 0)
    return own_and, own_or


#: The summaries of the terminal position () (LCTR's moves off the diagram): pair (0,1),
#: every flag true.
EMPTY_AND = F_ALL | B_IS01 | B_TERM_OR_HAS01 | B_TERM_OR_HAS10
EMPTY_OR = O_IS01
