"""Non-repetitive LCTR (lctr-sg-complexity.txt §8; examples/lctr_nr_rules.py) started after
any last moves: a start is a partition of n with the (at most three) moves played before it.

A position is the parts followed by three integers, the last three moves, oldest first: 1 for
L, 2 for T, 0 where fewer than three were played (STATE = 3). A move is illegal when it and the
three moves before it are two L and two T. The starts of n: every partition of n after each of
the 15 histories (0,0,0), (0,0,a), (0,a,b), (a,b,c) with a, b, c in {1, 2}; those after (0,0,0)
are lctr_nr's records.
"""
import numba
import numpy as np

GAME_ID = "lctr_nr_after"
STATE = 3
L_MOVE, T_MOVE = 1, 2


@numba.njit
def options(p):
    k = len(p) - 3
    if k == 0:
        return  # () after any moves: terminal
    for move in (T_MOVE, L_MOVE):
        if p[k] != 0:  # three moves played: the window of four is theirs and this one
            ls = (p[k] == L_MOVE) + (p[k + 1] == L_MOVE) + (p[k + 2] == L_MOVE) + (move == L_MOVE)
            if ls == 2:
                continue
        if move == T_MOVE:
            rest = p[1:k]
        else:
            q = p[:k] - 1
            rest = q[q > 0]
        out = np.empty(len(rest) + 3, dtype=p.dtype)
        out[:len(rest)] = rest
        out[len(rest)] = p[k + 1]
        out[len(rest) + 1] = p[k + 2]
        out[len(rest) + 2] = move
        yield out


def _partitions(n, cap):
    if n == 0:
        yield ()
    for first in range(min(n, cap), 0, -1):
        for rest in _partitions(n - first, first):
            yield (first, *rest)


HISTORIES = [(0, 0, 0)] + [(0, 0, a) for a in (1, 2)] + [(0, a, b) for a in (1, 2) for b in (1, 2)] \
    + [(a, b, c) for a in (1, 2) for b in (1, 2) for c in (1, 2)]


def starts(n):
    return [lam + h for lam in _partitions(n, n) for h in HISTORIES]
