"""Slow Exact 3-Nim on 4 stacks, SN(4, {3}) (docs/definitions.md §2.3), as rules: a move takes
one token from each of 3 distinct nonempty stacks. A position is the multiset of the heights,
written as the nonzero ones, non-increasing (a partition of the total into at most 4 parts).
Two choices of stacks that reach the same multiset are one move."""
import numba
import numpy as np

GAME_ID = "slow_4_3"
STACKS, SIZES = 4, (3,)
MULTI_EDGES = False  # a move is the multiset it reaches


def starts(n):
    """Every partition of n into at most STACKS parts."""
    def parts(rest, cap, room):
        if rest == 0:
            yield ()
        elif room > 0:
            for first in range(min(rest, cap), 0, -1):
                for tail in parts(rest - first, first, room - 1):
                    yield (first, *tail)
    return parts(n, n, STACKS)


@numba.njit
def options(p):
    r = len(p)
    for mask in range(1, 1 << r):
        chosen = 0
        for i in range(r):
            chosen += (mask >> i) & 1
        if chosen in SIZES:
            q = p.copy()
            for i in range(r):
                q[i] -= (mask >> i) & 1
            q = -np.sort(-q)
            yield q[q > 0]
