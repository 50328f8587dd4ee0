"""The Sato–Welter game (docs/definitions.md §2.4): a move removes a rim hook (border strip) of
the diagram so that what remains is a partition; the empty diagram is terminal.

With r = len(λ) beads at β_i = λ_i + r − i (i = 1..r), the rim hooks of length h are the moves
of one bead from β to the empty position β − h ≥ 0 (James and Kerber, 2.7), and the parts of
what remains are the beads, decreasing, less r − i."""
import numba
import numpy as np

GAME_ID = "welter"


@numba.njit
def options(p):
    r = len(p)
    beads = np.empty(r, np.int64)
    for i in range(r):
        beads[i] = p[i] + r - 1 - i
    for i in range(r):
        for t in range(beads[i] - 1, -1, -1):
            if np.any(beads == t):
                continue
            moved = beads.copy()
            moved[i] = t
            moved.sort()  # increasing: the largest bead gives the first part
            q = np.empty(r, np.int64)
            for k in range(r):
                q[k] = moved[r - 1 - k] - (r - 1 - k)
            yield q[q > 0]
