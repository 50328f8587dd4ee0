"""Rook (docs/definitions.md §2.2, the rays (k,0) and (0,k), k ≥ 1) as rules: from λ the piece
moves to λ[k,0] (k rows down) or λ[0,k] (k columns right) for every k that stays in the diagram."""
import numba

GAME_ID = "rook_rules"


@numba.njit
def options(p):
    for k in range(1, len(p)):
        yield p[k:].copy()
    for k in range(1, p[0] if len(p) > 0 else 0):
        q = p - k
        yield q[q > 0]
