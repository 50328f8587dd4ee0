"""LCTR (docs/definitions.md §2.1) as rules: remove the top row or the left column; () is terminal.

Both moves are legal from every nonempty partition, and from (1) both reach (): two moves.
Each option is read before the next is asked for, so a view of ``p`` is an option too; one
array (the left column removed) is all a position allocates.
"""
import numba

GAME_ID = "lctr_rules"


@numba.njit
def options(p):
    if len(p) > 0:
        yield p[1:]  # T: the top row removed
        k = len(p)
        while k > 0 and p[k - 1] == 1:  # the parts of 1 leave with the left column
            k -= 1
        yield p[:k] - 1  # L: the left column removed
