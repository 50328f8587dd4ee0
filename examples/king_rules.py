"""King (docs/definitions.md §2.2, the moveset (0,1), (1,0), (1,1)) as rules: from λ the piece
moves to λ[0,1], λ[1,0] or λ[1,1] when that cell is in the diagram (the sub-partition nonempty).

Each option is read before the next is asked for, so views are options too: λ[1,0] is a view
of ``p`` and λ[1,1] one of λ[0,1], the one array a position allocates.
"""
import numba

GAME_ID = "king_rules"


@numba.njit
def options(p):
    k = len(p)
    while k > 0 and p[k - 1] == 1:  # the parts of 1 leave with the left column
        k -= 1
    right = p[:k] - 1
    if k > 0:
        yield right  # λ[0,1]
    if len(p) > 1:
        yield p[1:]  # λ[1,0]
        if k > 1:
            yield right[1:]  # λ[1,1]
