"""Downright (docs/definitions.md §2.2, the moveset (0,1), (1,0)) as rules: the position is
λ[i,j], a piece on a cell; it moves one cell right (λ[0,1]) or down (λ[1,0]) inside the diagram."""
import numba

GAME_ID = "downright_rules"


@numba.njit
def options(p):
    q = p - 1
    right = q[q > 0]
    if len(right) > 0:
        yield right
    if len(p) > 1:
        yield p[1:].copy()
