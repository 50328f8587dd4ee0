"""King (docs/definitions.md §2.2, the moveset (0,1), (1,0), (1,1)) as rules: from λ the piece
moves to λ[0,1], λ[1,0] or λ[1,1] when that cell is in the diagram (the sub-partition nonempty)."""
import numba

GAME_ID = "king_rules"


@numba.njit
def options(p):
    q = p - 1
    right = q[q > 0]
    if len(right) > 0:
        yield right
    if len(p) > 1:
        yield p[1:].copy()
        d = p[1:] - 1
        diagonal = d[d > 0]
        if len(diagonal) > 0:
            yield diagonal
