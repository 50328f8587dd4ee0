"""Chomp on a Young diagram (docs/definitions.md §2.4): a move picks a box (i, j) other than the
top-left one and removes it with every box (i', j'), i' >= i and j' >= j; the player left with
only the top-left box, (1), has no move and loses."""
import numba

GAME_ID = "chomp"


@numba.njit
def options(p):
    for i in range(len(p)):
        for j in range(p[i]):
            if i > 0 or j > 0:
                q = p.copy()
                for k in range(i, len(p)):
                    q[k] = min(q[k], j)
                yield q[q > 0]
