"""Checks of the reference implementation against facts NOT derived from it: docs/definitions.md worked
examples and corrected theorems, published paper facts, and closed forms computed independently here.

Each test cites where its expected values come from. Helpers in this file (sub-partition, Wythoff
pairs, Algorithm 1, …) are re-implemented locally on purpose so a bug in ``reference`` cannot
confirm itself.
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import isqrt

import pytest
import reference as ref

BOARD_GAMES = ("lctr", "downright", "pawn", "pawn_t", "knight", "bishop", "king", "rook", "queen")
VALUE_KEYS = ("sg", "sg_misere", "nodes", "leaves", "states", "height", *ref.FLAGS)


def cell_sub(lam: tuple[int, ...], i: int, j: int) -> tuple[int, ...]:
    """λ[i,j] via the Young diagram: rows below i, cells right of column j (docs/definitions.md §1), written
    afresh."""
    out = []
    for row in range(i, len(lam)):
        width = lam[row] - j
        if width <= 0:
            break
        out.append(width)
    return tuple(out)


def nonempty_partitions(max_n: int, min_n: int = 1):
    for n in range(min_n, max_n + 1):
        for lam in ref.partitions(n):
            yield n, lam


def transpose(lam: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(1 for p in lam if p > j) for j in range(lam[0])) if lam else ()


# ------------------------------------------------------------------------------------------------
# Partitions and record shape
# ------------------------------------------------------------------------------------------------
def test_partition_counts_match_p_of_n():
    """p(n) for n = 0..10 (OEIS A000041)."""
    expected = [1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42]
    for n, count in enumerate(expected):
        parts = ref.partitions(n)
        assert len(parts) == count
        assert len(set(parts)) == count
        for lam in parts:
            assert sum(lam) == n
            assert all(p > 0 for p in lam)
            assert list(lam) == sorted(lam, reverse=True)
    assert ref.partitions(0) == [()]


def test_record_keys_and_features():
    rec = ref.board_record("lctr", (5, 3, 3, 2, 1, 1))
    assert set(rec) == set(ref.RECORD_KEYS)
    assert rec["num_parts"] == 6 and rec["largest"] == 5 and rec["rank"] == -1
    assert rec["durfee"] == 3  # λ3 = 3 ≥ 3, λ4 = 2 < 4
    assert rec["distinct_sizes"] == 4
    assert rec["conjugate"] == (6, 4, 3, 1, 1)
    sn = ref.slownim_record(5, (4,), (3, 1))
    extra = {"stacks", "moves", "reduced", "reduced_parts", "odd_stacks", "sum_mod"}
    assert set(sn) == set(ref.RECORD_KEYS) | extra


def test_bad_inputs_rejected():
    with pytest.raises(ValueError):
        ref.board_record("lctr", (1, 2))
    with pytest.raises(ValueError):
        ref.board_record("king", ())
    with pytest.raises(ValueError):
        ref.board_record("castle", (1,))
    with pytest.raises(ValueError):
        ref.slownim_record(3, (4,), (1,))
    with pytest.raises(ValueError):
        ref.slownim_record(2, (1,), (1, 1, 1))
    with pytest.raises(ValueError):
        ref.moveset_record([(0, 0)], [], (1,))


# ------------------------------------------------------------------------------------------------
# LCTR / Downright (docs/definitions.md §2.1, §4, §7, §8.1, §8.2; papers lctr-*.txt)
# ------------------------------------------------------------------------------------------------
def test_spec4_example():
    rec = ref.board_record("lctr", (5, 3, 3, 2, 1, 1))
    assert (rec["states"], rec["leaves"], rec["nodes"]) == (12, 29, 57)


def test_lctr_terminal_and_single_cell():
    """docs/definitions.md §2.1: () is the only terminal; from (1) both moves reach ()."""
    empty = ref.board_record("lctr", ())
    assert (empty["sg"], empty["sg_misere"], empty["nodes"], empty["leaves"]) == (0, 1, 1, 1)
    assert empty["states"] == 1
    one = ref.board_record("lctr", (1,))
    assert (one["sg"], one["sg_misere"], one["nodes"], one["leaves"], one["states"], one["height"]) == (
        1, 0, 3, 2, 2, 1,
    )  # fmt: skip


@pytest.mark.parametrize("r", range(1, 7))
@pytest.mark.parametrize("c", range(1, 7))
def test_lctr_rectangle_states(r, c):
    """docs/definitions.md §4: LCTR on R(r,c) has rc+1 states."""
    assert ref.board_record("lctr", (c,) * r)["states"] == r * c + 1


def test_lctr_rectangle_sg_formula():
    """lctr-sg-complexity.txt Lemma 17: SG(R(r,c)) = 0 if r,c > 1 and r+c even; 2 if (r ≤ 2 or c ≤ 2)
    and r+c odd; 1 otherwise."""
    for r in range(1, 9):
        for c in range(1, 9):
            if r > 1 and c > 1 and (r + c) % 2 == 0:
                want = 0
            elif (r <= 2 or c <= 2) and (r + c) % 2 == 1:
                want = 2
            else:
                want = 1
            assert ref.board_record("lctr", (c,) * r)["sg"] == want, (r, c)


def test_spec7_lctr_grid():
    lam = (8, 7, 6, 5, 5, 2, 1)
    expected = "01010101 / 2010101 / 120101 / 01202 / 10121 / 01 / 1".split(" / ")
    for i, row in enumerate(expected):
        assert len(row) == lam[i]
        got = "".join(str(ref.board_record("lctr", cell_sub(lam, i, j))["sg"]) for j in range(lam[i]))
        assert got == row, i


def test_spec7_king_grid():
    lam = (5, 5, 3, 2, 1)
    expected = "21021 / 03210 / 210 / 10 / 0".split(" / ")
    for i, row in enumerate(expected):
        got = "".join(str(ref.board_record("king", cell_sub(lam, i, j))["sg"]) for j in range(lam[i]))
        assert got == row, i


def test_lctr_and_downright_sg_at_most_2():
    """LCTR paper 1 (abstract, Lemma 3): every LCTR value is ≤ 2; Downright also has ≤ 2 moves."""
    for _, lam in nonempty_partitions(12):
        for game in ("lctr", "downright"):
            rec = ref.board_record(game, lam)
            assert rec["sg"] <= 2 and rec["sg_misere"] <= 2


def test_states_bounds_and_rectangles():
    """docs/definitions.md §8.2 / paper 1 Lemma 19: LCTR states ≤ n+1 (λ counted), equality exactly for
    rectangles; paper 2 Prop. 28: Downright states ≤ n."""
    for n, lam in nonempty_partitions(10):
        states = ref.board_record("lctr", lam)["states"]
        assert states <= n + 1
        assert (states == n + 1) == (len(set(lam)) == 1), lam
        assert ref.board_record("downright", lam)["states"] <= n


def test_gamma_states_spec8_2():
    """docs/definitions.md §8.2: a proper gamma (c, 1^{r-1}), r, c ≥ 2, has r+c-1 LCTR states; rows and
    columns attain n+1."""
    for r in range(1, 8):
        for c in range(1, 8):
            lam = (c,) + (1,) * (r - 1)
            n = r + c - 1
            states = ref.board_record("lctr", lam)["states"]
            if r >= 2 and c >= 2:
                assert states == r + c - 1
            else:
                assert states == n + 1


@pytest.mark.parametrize("k", range(1, 9))
def test_staircase_plays(k):
    """Paper 1 §4: S(6) can be played in 64 ways and reaches only 6 other positions. In general both
    LCTR moves from S(k) reach S(k-1): leaves 2^k, nodes 2^{k+1}-1, states k+1."""
    rec = ref.board_record("lctr", tuple(range(k, 0, -1)))
    assert (rec["leaves"], rec["nodes"], rec["states"], rec["height"]) == (2**k, 2 ** (k + 1) - 1, k + 1, k)


def test_int64_overflow_maps_to_none():
    """docs/definitions.md §4: values beyond 2^63-1 are NULL. S(62): nodes = 2^63-1 exactly (kept); S(63):
    None."""
    rec = ref.board_record("lctr", tuple(range(62, 0, -1)))
    assert rec["nodes"] == 2**63 - 1 and rec["leaves"] == 2**62
    rec = ref.board_record("lctr", tuple(range(63, 0, -1)))
    assert rec["nodes"] is None and rec["leaves"] is None


def test_thick_gamma_spec8_1():
    """docs/definitions.md §8.1 (corrected Lemma 16/Thm 17 of paper 1): (n^m, r^s), m > r, n > r+2.
    n-r odd, k = m-r: k=1 → 1, k=2 → 2, odd k ≥ 3 → 0, even k ≥ 4 → 1 (independent of s).
    n-r even (as printed): 0 if r+m even, 1 if odd."""
    for r in (1, 2):
        for n in range(r + 3, r + 6):
            for m in range(r + 1, r + 7):
                for s in (1, 2, 3):
                    lam = (n,) * m + (r,) * s
                    sg = ref.board_record("lctr", lam)["sg"]
                    if (n - r) % 2 == 1:
                        k = m - r
                        want = 1 if k == 1 else 2 if k == 2 else 0 if k % 2 == 1 else 1
                    else:
                        want = 0 if (r + m) % 2 == 0 else 1
                    assert sg == want, lam


def test_misere_lctr_vs_normal_downright():
    """docs/definitions.md §2.2: misère LCTR and normal Downright have the same P-positions on nonempty
    partitions."""
    for _, lam in nonempty_partitions(11):
        lctr = ref.board_record("lctr", lam)
        down = ref.board_record("downright", lam)
        assert (lctr["sg_misere"] == 0) == (down["sg"] == 0), lam


# ------------------------------------------------------------------------------------------------
# Moveset games (docs/definitions.md §2.2, §7, §8.4-8.6; impartial-chess.txt)
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("r", range(1, 9))
@pytest.mark.parametrize("c", range(1, 9))
def test_rook_rectangle_is_nim(r, c):
    """docs/definitions.md §7: sg(R(r,c)) = (r-1) xor (c-1)."""
    assert ref.board_record("rook", (c,) * r)["sg"] == (r - 1) ^ (c - 1)


def wythoff_p_positions(limit: int) -> set[tuple[int, int]]:
    """Wythoff P-positions (⌊kφ⌋, ⌊kφ²⌋) and mirror, exact: ⌊kφ⌋ = (k + ⌊k√5⌋) // 2, ⌊kφ²⌋ = ⌊kφ⌋ + k."""
    out = set()
    for k in range(limit + 1):
        a = (k + isqrt(5 * k * k)) // 2
        out |= {(a, a + k), (a + k, a)}
    return out


def test_queen_rectangle_is_wythoff():
    """docs/definitions.md §7: Queen on R(r,c) is Wythoff's game on heaps (r-1, c-1)."""
    p_pos = wythoff_p_positions(12)
    assert {(0, 0), (1, 2), (3, 5), (4, 7), (6, 10), (8, 13)} <= p_pos
    for r in range(1, 12):
        for c in range(1, 12):
            assert (ref.board_record("queen", (c,) * r)["sg"] == 0) == ((r - 1, c - 1) in p_pos), (r, c)


def test_mirror_identities_spec8_4():
    """impartial-chess.txt Prop. 3.7 with docs/definitions.md §8.4's orientation fix: when the sub-partition
    is nonempty, Downright sg(λ) = sg(λ[1,1]); pawn sg(λ) = sg(λ[1,2]); pawn_t sg(λ) = sg(λ[2,1]);
    knight sg(λ) = sg(λ[3,3])."""
    shifts = {"downright": (1, 1), "pawn": (1, 2), "pawn_t": (2, 1), "knight": (3, 3)}
    for _, lam in nonempty_partitions(10):
        for game, (i, j) in shifts.items():
            mu = cell_sub(lam, i, j)
            if mu:
                assert ref.board_record(game, lam)["sg"] == ref.board_record(game, mu)["sg"], (game, lam)


def test_pawn_t_terminal_iff_one_row():
    """docs/definitions.md §8.4: for the transposed pawn, λ is terminal iff r = 1."""
    for _, lam in nonempty_partitions(9):
        assert (ref.board_record("pawn_t", lam)["height"] == 0) == (len(lam) == 1), lam


def test_transpose_symmetry():
    """Transposing the diagram swaps rows and columns: LCTR, Downright, King, Rook, Queen, Bishop,
    Knight are symmetric, and pawn on λ is pawn_t on λ'."""
    symmetric = ("lctr", "downright", "king", "rook", "queen", "bishop", "knight")
    for _, lam in nonempty_partitions(8):
        lt = transpose(lam)
        for game in symmetric:
            a, b = ref.board_record(game, lam), ref.board_record(game, lt)
            assert [a[k] for k in VALUE_KEYS] == [b[k] for k in VALUE_KEYS], (game, lam)
        a, b = ref.board_record("pawn", lam), ref.board_record("pawn_t", lt)
        assert [a[k] for k in VALUE_KEYS] == [b[k] for k in VALUE_KEYS], lam


def test_theorem_4_9_witnesses_spec8_4():
    """impartial-chess.txt Thm 4.9 (pawn families are pet and returnable but not forced); witnesses per
    docs/definitions.md §8.4: (2,2,2,1) for pawn_t, (4,3) for pawn."""
    for game, lam in (("pawn_t", (2, 2, 2, 1)), ("pawn", (4, 3))):
        rec = ref.board_record(game, lam)
        assert rec["forced"] is False
        assert rec["pet"] is True and rec["returnable"] is True


def test_theorem_4_15_pairs_spec8_6():
    """docs/definitions.md §8.6: Rook (6,5^4) is (1,0), Queen (9,8^4) is (10,0), Queen (11^13,10^4) is (1,0);
    Rook, Queen and King on G(2;3,4) = (8^3,4^3) are not returnable there."""
    rook = ref.board_record("rook", (6, 5, 5, 5, 5))
    assert (rook["sg"], rook["sg_misere"]) == (1, 0) and rook["returnable"] is False
    q1 = ref.board_record("queen", (9, 8, 8, 8, 8))
    assert (q1["sg"], q1["sg_misere"]) == (10, 0) and q1["domestic"] is False
    q2 = ref.board_record("queen", (11,) * 13 + (10,) * 4)
    assert (q2["sg"], q2["sg_misere"]) == (1, 0) and q2["returnable"] is False
    assert ref.board_record("king", (8, 8, 8, 4, 4, 4))["returnable"] is False


def test_moveset_rays_equal_explicit_steps():
    """A ray is the set of its multiples: rook/queen via rays equal the same games via finite steps."""
    rook_steps = [(k, 0) for k in range(1, 9)] + [(0, k) for k in range(1, 9)]
    queen_steps = rook_steps + [(k, k) for k in range(1, 9)]
    for _, lam in nonempty_partitions(8):
        for game, steps in (("rook", rook_steps), ("queen", queen_steps)):
            a = ref.board_record(game, lam)
            b = ref.moveset_record(steps, [], lam)
            assert [a[k] for k in VALUE_KEYS] == [b[k] for k in VALUE_KEYS], (game, lam)


def test_moveset_counts_one_edge_per_offset():
    """docs/definitions.md §4: moveset games have one edge per legal offset. King on (2,2): 3 moves to
    (2),(1,1),(1); each of (2),(1,1) has one move to (1); (1) is terminal."""
    rec = ref.board_record("king", (2, 2))
    assert (rec["nodes"], rec["leaves"], rec["states"], rec["height"]) == (6, 3, 4, 2)
    # (1): terminal, pair (0,1); (2) and (1,1): one move to (1), pair (1,0); (2,2): mex{1,1,0} = 2 and
    # misère mex{0,0,1} = 2.
    assert (rec["sg"], rec["sg_misere"]) == (2, 2)


# ------------------------------------------------------------------------------------------------
# Flags (docs/definitions.md §5)
# ------------------------------------------------------------------------------------------------
def check_nesting(rec: dict, where) -> None:
    """docs/definitions.md §5: pet ⇒ miserable ⇒ tame ⇒ domestic; forced ⇒ returnable."""
    assert not rec["pet"] or rec["miserable"], where
    assert not rec["miserable"] or rec["tame"], where
    assert not rec["tame"] or rec["domestic"], where
    assert not rec["forced"] or rec["returnable"], where


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_flag_nesting_board_games(game):
    seen = Counter()
    for _, lam in nonempty_partitions(8):
        rec = ref.board_record(game, lam)
        check_nesting(rec, (game, lam))
        seen.update(f for f in ref.FLAGS if rec[f])
    assert sum(seen.values()) > 0


@pytest.mark.parametrize(("s", "moves"), [(3, (2,)), (4, (3,)), (4, (3, 4)), (5, (4,)), (4, (2, 3, 4))])
def test_flag_nesting_slownim(s, moves):
    for total in range(0, 11):
        for lam in ref.partitions(total):
            if len(lam) <= s:
                check_nesting(ref.slownim_record(s, moves, lam), (s, moves, lam))


def test_terminal_position_flags():
    """A terminal position has pair (0,1) (docs/definitions.md §3), which satisfies every local condition."""
    rec = ref.board_record("king", (1,))
    assert (rec["sg"], rec["sg_misere"]) == (0, 1)
    assert all(rec[f] for f in ref.FLAGS)


def test_lctr_small_flags_by_hand():
    """LCTR (1): pair (1,0), both moves to () = (0,1), so forced. LCTR (2): options () = (0,1) and
    (1) = (1,0), so p(2) = (mex{0,1}, mex{1,0}) = (2,2): pet, and miserable (moves to both swap kinds).
    Every flag holds on {(2), (1), ()}."""
    one = ref.board_record("lctr", (1,))
    assert (one["sg"], one["sg_misere"]) == (1, 0) and all(one[f] for f in ref.FLAGS)
    two = ref.board_record("lctr", (2,))
    assert (two["sg"], two["sg_misere"]) == (2, 2) and all(two[f] for f in ref.FLAGS)


def options_by_cells(game: str, lam: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Options of λ computed here from cells (docs/definitions.md §2.1/2.2), independently of the
    reference."""
    if game == "lctr":
        return [cell_sub(lam, 1, 0), cell_sub(lam, 0, 1)] if lam else []
    big = len(lam) + (lam[0] if lam else 0)
    offsets = {
        "king": [(0, 1), (1, 0), (1, 1)],
        "knight": [(1, 2), (2, 1)],
        "queen": [(k, 0) for k in range(1, big)]
        + [(0, k) for k in range(1, big)]
        + [(k, k) for k in range(1, big)],
    }[game]
    return [mu for mu in (cell_sub(lam, a, b) for a, b in offsets) if mu]


@pytest.mark.parametrize("game", ["lctr", "king", "knight", "queen"])
def test_flags_recursive_characterisation(game):
    """docs/definitions.md §5 restated recursively: a flag holds for λ iff its local condition holds at λ and
    the flag holds for every option of λ. Local conditions re-implemented here from the options' pairs."""

    def pair(mu):
        rec = ref.board_record(game, mu)
        return (rec["sg"], rec["sg_misere"])

    swaps = {(0, 1), (1, 0)}
    for _, lam in nonempty_partitions(8):
        rec = ref.board_record(game, lam)
        opts = options_by_cells(game, lam)
        p, opt_pairs = pair(lam), [pair(mu) for mu in opts]
        assert rec["sg"] == min(set(range(len(opts) + 1)) - {q[0] for q in opt_pairs})
        local = {
            "domestic": not (p[0] == 0 and p[1] >= 2 or p[1] == 0 and p[0] >= 2),
            "tame": p in swaps or p[0] == p[1],
            "pet": p in swaps or p[0] == p[1] >= 2,
            "miserable": p in swaps or not swaps & set(opt_pairs) or {(0, 1), (1, 0)} <= set(opt_pairs),
            "forced": p not in swaps or all(q == (p[1], p[0]) for q in opt_pairs),
            "returnable": p not in swaps
            or all(
                not options_by_cells(game, mu) or any(pair(nu) == p for nu in options_by_cells(game, mu))
                for mu in opts
            ),
        }
        for flag in ref.FLAGS:
            want = local[flag] and all(ref.board_record(game, mu)[flag] for mu in opts)
            assert rec[flag] == want, (game, lam, flag)


# ------------------------------------------------------------------------------------------------
# Slow SetNim (docs/definitions.md §2.3, §8.3; slow-exact-k-nim.txt)
# ------------------------------------------------------------------------------------------------
def sn_positions(s: int, max_total: int):
    for total in range(0, max_total + 1):
        for lam in ref.partitions(total):
            if len(lam) <= s:
                yield lam


def algorithm1(p: tuple[int, ...], a: int) -> tuple[int, ...]:
    """Paper Algorithm 1 (iterative reduction), re-implemented here: chop to ⌊Σ/a⌋ until max ≤ it."""
    x = list(p)
    star = sum(x) // a
    while max(x, default=0) > star:
        x = [min(h, star) for h in x]
        star = sum(x) // a
    return tuple(x)


def test_reduction_paper_examples():
    """Example 4 (SN(4,3)): (1,2,5,6) → (1,2,3,3), 9 distinct positions in its game tree.
    Example 5 (a=5): → (12,20,33,52,79,98,98,98). Example 7: SN(6,5) (9,10,11,13,13,15) → (…,14);
    SN(7,6) (4,4,6,8,12,12,18) → (4,4,6,7,7,7,7) with Σ mod 12 = 6 and 4 odd stacks."""
    assert ref.sn_reduced((1, 2, 5, 6), 3) == (1, 2, 3, 3)
    rec = ref.slownim_record(4, (3,), (6, 5, 2, 1))
    assert rec["states"] == 9 and rec["reduced"] is False and rec["reduced_parts"] == (3, 3, 2, 1)
    p5 = (12, 20, 33, 52, 79, 112, 155, 170)
    assert ref.sn_reduced(p5, 5) == (12, 20, 33, 52, 79, 98, 98, 98) == algorithm1(p5, 5)
    assert ref.sn_reduced((9, 10, 11, 13, 13, 15), 5) == (9, 10, 11, 13, 13, 14)
    r7 = ref.sn_reduced((4, 4, 6, 8, 12, 12, 18), 6)
    assert r7 == (4, 4, 6, 7, 7, 7, 7) and sum(r7) % 12 == 6 and sum(h % 2 for h in r7) == 4


def test_reduction_matches_algorithm1_and_keeps_game_tree():
    """Lemma 2.7 reduction == Algorithm 1, and p and r(p) allow the same move sequences (Lemma 2.1),
    so sg, misère sg and height agree.

    nodes/leaves are NOT compared: docs/definitions.md §4 counts SN moves as distinct multisets, and the
    reduction can merge them. SN(4,{3}): (2,1,1,1) has 2 moves ((1,1,0,0), (2,0,0,0)), its reduced form
    (1,1,1,1) only 1."""
    for s, moves in ((3, (2,)), (4, (3,)), (4, (2, 4))):
        a = min(moves)
        for lam in sn_positions(s, 10):
            x = lam + (0,) * (s - len(lam))
            red = ref.sn_reduced(x, a)
            assert red == algorithm1(x, a)
            rec = ref.slownim_record(s, moves, lam)
            assert rec["reduced"] == (red == x)
            rrec = ref.slownim_record(s, moves, tuple(h for h in red if h))
            for key in ("sg", "sg_misere", "height"):
                assert rec[key] == rrec[key], (s, moves, lam, key)


def test_reduction_can_change_multiset_tree():
    """Documented consequence of docs/definitions.md §4's multiset edge count (see the test above)."""
    rec = ref.slownim_record(4, (3,), (2, 1, 1, 1))
    assert (rec["nodes"], rec["leaves"], rec["reduced"], rec["reduced_parts"]) == (3, 2, False, (1, 1, 1, 1))
    red = ref.slownim_record(4, (3,), (1, 1, 1, 1))
    assert (red["nodes"], red["leaves"]) == (2, 1)


def test_slownim_terminal_and_move_count():
    """docs/definitions.md §2.3: terminal iff fewer than min A nonempty stacks; one move per choice of how
    many stacks of each height to take from (Σ t_h = ℓ, 0 ≤ t_h ≤ multiplicity), all giving distinct
    multisets."""
    for s, moves in ((3, (2,)), (4, (3,)), (5, (2, 4)), (4, (1, 3))):
        for lam in sn_positions(s, 9):
            x = lam + (0,) * (s - len(lam))
            rec = ref.slownim_record(s, moves, lam)
            assert (rec["height"] == 0) == (len(lam) < min(moves)), (s, moves, lam)
            mult = Counter(lam)
            expected = 0
            for ell in moves:
                ranges = [range(m + 1) for m in mult.values()]
                expected += sum(1 for t in itertools.product(*ranges) if sum(t) == ell)
            assert len(ref.slownim_moves(x, moves)) == expected


@pytest.mark.parametrize(
    ("s", "moves"), [(3, (2,)), (4, (3,)), (4, (2, 3)), (5, (4,)), (5, (2, 5)), (4, (3, 4))]
)
def test_theorem_4_1(s, moves):
    """Paper Thm 4.1 (any position): no odd stack ⇒ P; number of odd stacks in A ⇒ N."""
    for lam in sn_positions(s, 10):
        odd = sum(h % 2 for h in lam)
        sg = ref.slownim_record(s, moves, lam)["sg"]
        if odd == 0:
            assert sg == 0, lam
        if odd in moves:
            assert sg != 0, lam


def p_rule(rec: dict, a: int) -> bool:
    """docs/definitions.md §8.3 compact rule on the reduced form: P ⇔ o ≤ min(s, 2a-2-s) (s = Σ mod 2a)."""
    s, o = rec["sum_mod"], rec["odd_stacks"]
    return o <= min(s, 2 * a - 2 - s)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_theorem_3_3(n):
    """docs/definitions.md §8.3, Thm 3.3 for SN(n, n-1): P ⇔ s = a-1 or o ≤ min(s, 2a-2-s), on the reduced
    form."""
    a = n - 1
    for lam in sn_positions(n, 14 if n < 5 else 12):
        rec = ref.slownim_record(n, (a,), lam)
        assert (rec["sg"] == 0) == (rec["sum_mod"] == a - 1 or p_rule(rec, a)), lam


@pytest.mark.parametrize("n", [3, 4, 5])
def test_theorem_5_1(n):
    """docs/definitions.md §8.3, Thm 5.1 for SN(n, {n-1, n}): P ⇔ o ≤ min(s, 2a-2-s), on the reduced form."""
    a = n - 1
    for lam in sn_positions(n, 14 if n < 5 else 12):
        rec = ref.slownim_record(n, (a, n), lam)
        assert (rec["sg"] == 0) == p_rule(rec, a), lam
    if n == 4:
        assert ref.slownim_record(4, (3, 4), (2, 2, 2, 2))["sg"] == 0


@pytest.mark.parametrize(("n", "k"), [(n, k) for n in (3, 4, 5) for k in range(1, n + 1)])
def test_conjecture_1_small(n, k):
    """docs/definitions.md §8.3: Conjecture 1 (A = {k..n}) in its consistent form holds in small ranges."""
    moves = tuple(range(k, n + 1))
    for lam in sn_positions(n, 11):
        rec = ref.slownim_record(n, moves, lam)
        assert (rec["sg"] == 0) == p_rule(rec, k), lam


def test_reference_doctests():
    """The small examples in reference.py's docstrings."""
    import doctest

    result = doctest.testmod(ref)
    assert result.attempted > 10 and result.failed == 0
