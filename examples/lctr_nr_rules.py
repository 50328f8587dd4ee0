"""LCTR, non-repetitive (lctr-sg-complexity.txt §8, "Non-repetitive variant"): LCTR's moves
(docs/definitions.md §2.1: remove the top row T or the left column L) where, within every four
consecutive moves, the number of L moves differs from the number of T moves: a move is illegal
when it and the three moves before it are two L and two T. Fewer than four moves played
constrain nothing.

A position is the partition and the last (at most three) moves: the moves first, as negative
codes (-1 for L, -2 for T, oldest first), then the parts. A start is a partition alone (no move
played), so the records are those of every partition as for LCTR.
"""
import numba
import numpy as np

GAME_ID = "lctr_nr_rules"
L_MOVE = -1
T_MOVE = -2


@numba.njit
def options(p):
    h = 0  # the moves carried: the leading negative codes
    while h < len(p) and p[h] < 0:
        h += 1
    parts = p[h:]
    if len(parts) == 0:
        return
    for move in (T_MOVE, L_MOVE):
        if h == 3:
            ls = (p[0] == L_MOVE) + (p[1] == L_MOVE) + (p[2] == L_MOVE) + (move == L_MOVE)
            if ls == 2:
                continue  # two L and two T within four consecutive moves
        if move == T_MOVE:
            rest = parts[1:]
        else:
            q = parts - 1
            rest = q[q > 0]
        keep = min(h, 2)  # the last three moves, this one included
        out = np.empty(keep + 1 + len(rest), dtype=p.dtype)
        out[:keep] = p[h - keep:h]
        out[keep] = move
        out[keep + 1:] = rest
        yield out
