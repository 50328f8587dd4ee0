"""LCTR (docs/definitions.md §2.1) as rules: remove the top row or the left column; () is terminal.

Both moves are legal from every nonempty partition, and from (1) both reach (): two moves.
"""
import numba

GAME_ID = "lctr_rules"


@numba.njit
def options(p):
    if len(p) > 0:
        yield p[1:].copy()  # T: the top row removed
        q = p - 1
        yield q[q > 0]  # L: the left column removed
