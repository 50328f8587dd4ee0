"""Checks queries/macros.sql against tiny Python implementations written from the definitions.

Every partition-valued macro is checked on all partitions of n <= 12 (young_le on all pairs),
nim_reduce against the paper's iterative Algorithm 1 and against a brute-force search of the
game (the definition of the reduction), wythoff_p against the greedy construction of the
Wythoff P-positions, plus the examples written in the macro comments.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import random
import re
from collections import Counter
from decimal import Decimal, getcontext
from pathlib import Path

import duckdb
import pytest
from harness import partitions

MACROS = Path(__file__).resolve().parents[1] / "queries" / "macros.sql"
MAX_N = 12


# ---------------------------------------------------------------- reference implementations



ALL = [p for n in range(MAX_N + 1) for p in partitions(n)]


def cells(p):
    return {(i, j) for i, row in enumerate(p) for j in range(row)}


def from_cells(cs):
    rows = Counter(i for i, _ in cs)
    return tuple(rows[i] for i in sorted(rows))


def py_sub(p, i, j):
    """λ[i,j]: the cells weakly below and right of (i, j), shifted to the origin."""
    if (i, j) not in cells(p):
        return ()
    return from_cells({(a - i, b - j) for a, b in cells(p) if a >= i and b >= j})


def py_conjugate(p):
    return from_cells({(j, i) for i, j in cells(p)})


def py_corner_cells(p):
    return [c for c in cells(p) if py_sub(p, *c) == (1,)]


def py_blocks(p):
    return [(size, len(list(g))) for size, g in itertools.groupby(p)]


def family(gen, n_max=MAX_N):
    """The set of all partitions of n <= n_max produced by gen(a, b, c) for small parameters."""
    out = set()
    for a, b, c in itertools.product(range(1, n_max + 1), repeat=3):
        p = gen(a, b, c)
        if p is not None and sum(p) <= n_max:
            out.add(tuple(p))
    return out


RECTANGLES = family(lambda r, c, _: (c,) * r)
STAIRCASES = {tuple(range(k, 0, -1)) for k in range(1, 6)}
HOOKS = family(lambda r, c, _: (c,) + (1,) * (r - 1))
GEN_STAIRCASES = {}
for _k, _r, _c in itertools.product(range(1, MAX_N + 1), repeat=3):
    _g = tuple(q * _c for q in range(_k, 0, -1) for _ in range(_r))
    if sum(_g) <= MAX_N:
        assert _g not in GEN_STAIRCASES
        GEN_STAIRCASES[_g] = (_k, _r, _c)
THICK_GAMMAS = {
    (n,) * m + (r,) * s
    for n, m, r, s in itertools.product(range(1, MAX_N + 1), repeat=4)
    if n > r and n * m + r * s <= MAX_N
}


def ctt(x, m):
    return [min(v, m) for v in x]


def algorithm1(p, a):
    """slow-exact-k-nim.txt, Pseudo Code Algorithm 1, literally (p in any order)."""
    x = list(p)
    xstar = sum(x) // a
    while x and max(x) > xstar:
        x = ctt(x, xstar)
        xstar = sum(x) // a
    return tuple(sorted((v for v in x if v > 0), reverse=True))


def brute_reduce(p, a):
    """Definition of r(p): keep, per stack, the tokens some play sequence can take from it.

    Moves of SN(s, {a}) on labelled stacks: take one token from each of a distinct nonempty stacks.
    """
    start = tuple(p)
    seen = {start}
    stack = [start]
    low = list(start)
    while stack:
        x = stack.pop()
        low = [min(u, v) for u, v in zip(low, x, strict=True)]
        nonempty = [i for i, v in enumerate(x) if v > 0]
        for pick in itertools.combinations(nonempty, a):
            y = list(x)
            for i in pick:
                y[i] -= 1
            y = tuple(y)
            if y not in seen:
                seen.add(y)
                stack.append(y)
    reduced = [v - lo for v, lo in zip(start, low, strict=True)]
    return tuple(sorted((v for v in reduced if v > 0), reverse=True))


def wythoff_pairs(limit):
    """Greedy construction: a_k = mex of the numbers used so far, b_k = a_k + k."""
    used, pairs, k = set(), set(), 0
    while True:
        a = 0
        while a in used:
            a += 1
        if a > limit:
            return pairs
        b = a + k
        used.update((a, b))
        pairs.update({(a, b), (b, a)})
        k += 1


# ---------------------------------------------------------------- fixtures and helpers


@pytest.fixture(scope="module")
def con():
    c = duckdb.connect()
    c.execute("SET lambda_syntax = 'DISABLE_SINGLE_ARROW'")  # fails on any old-style `x -> ...`
    text = MACROS.read_text()
    c.execute(text)
    c.execute(text)  # idempotent
    c.execute("CREATE TABLE p AS SELECT unnest($1::SMALLINT[][]) AS parts", [[list(p) for p in ALL]])
    return c


def rows(con, sql, params=None):
    return con.execute(sql, params or []).fetchall()


def tup(v):
    return None if v is None else tuple(v)


# ---------------------------------------------------------------- tests


def test_file_is_splittable_and_only_macros():
    text = MACROS.read_text()
    for line in text.splitlines():
        if line.lstrip().startswith("--"):
            assert ";" not in line, line
    body = re.sub(r"--[^\n]*", "", text)
    statements = [s.strip() for s in body.split(";") if s.strip()]
    assert all(s.startswith("CREATE OR REPLACE MACRO") for s in statements)
    assert "->" not in body


def test_subpartition(con):
    got = rows(
        con,
        """SELECT parts, i, j, subpartition(parts, i, j) FROM p,
           range(-1, 14) ti(i), range(-1, 14) tj(j)
           WHERE i <= len(parts) + 1 AND j <= coalesce(parts[1], 0) + 1""",
    )
    assert len(got) > 5000
    for parts, i, j, sub in got:
        assert tuple(sub) == py_sub(tuple(parts), i, j), (parts, i, j)


def test_conjugate_and_shape_columns(con):
    got = rows(
        con,
        """SELECT parts, conjugate(parts), is_row(parts), is_column(parts), is_rectangle(parts),
                  rect_rows(parts), rect_cols(parts), is_staircase(parts), is_hook(parts),
                  is_proper_hook(parts), is_distinct_parts(parts), is_thick_gamma(parts),
                  is_quadrated(parts), odd_stacks(parts) FROM p""",
    )
    assert len(got) == len(ALL)
    for parts, conj, row, col, rect, rr, rc, stair, hook, phook, dist, thick, quad, odd in got:
        p = tuple(parts)
        assert tuple(conj) == py_conjugate(p)
        assert row == (len(p) == 1)
        assert col == (len(p) >= 1 and set(p) == {1})
        assert rect == (p in RECTANGLES)
        assert (rr, rc) == ((len(p), p[0]) if p in RECTANGLES else (None, None))
        assert stair == (p in STAIRCASES)
        assert hook == (p in HOOKS)
        assert phook == (p in HOOKS and len(p) >= 2 and p[0] >= 2)
        assert dist == (len(set(p)) == len(p))
        assert thick == (p in THICK_GAMMAS)
        assert quad == all(v % 2 == 0 and m % 2 == 0 for v, m in Counter(p).items())
        assert odd == sum(v % 2 for v in p)


def test_corners_blocks_gen_staircase(con):
    got = rows(
        con,
        "SELECT parts, corners(parts), remove_corners(parts), blocks(parts), gen_staircase(parts), "
        "is_gen_staircase(parts) FROM p",
    )
    for parts, ncorners, removed, blocks, gs, is_gs in got:
        p = tuple(parts)
        corner_cells = py_corner_cells(p)
        assert ncorners == len(corner_cells)
        assert tuple(removed) == from_cells(cells(p) - set(corner_cells))
        assert [(b["size"], b["mult"]) for b in blocks] == py_blocks(p)
        want = GEN_STAIRCASES.get(p)
        assert (None if gs is None else (gs["k"], gs["r"], gs["c"])) == want
        assert is_gs == (want is not None)


def test_young_le_all_pairs(con):
    got = rows(con, "SELECT a.parts, b.parts, young_le(a.parts, b.parts) FROM p a, p b")
    assert len(got) == len(ALL) ** 2
    for a, b, le in got:
        assert le == (cells(tuple(a)) <= cells(tuple(b)))


def test_nim_reduce_against_algorithm1_and_brute_force(con):
    got = rows(
        con,
        """SELECT parts, a, nim_reduce(parts, a), is_nim_reduced(parts, a)
           FROM p, range(1, 14) t(a)""",
    )
    brute_checked = 0
    for parts, a, red, is_red in got:
        p = tuple(parts)
        want = algorithm1(p, a)
        assert tuple(red) == want, (p, a)
        assert is_red == (want == p), (p, a)
        if sum(p) <= 9 and a <= len(p) + 1:
            assert want == brute_reduce(p + (0,), a), (p, a)
            brute_checked += 1
    assert brute_checked > 300


def test_nim_reduce_random_large(con):
    rng = random.Random(20240601)
    cases = []
    for _ in range(3000):
        stacks = [
            rng.choice([rng.randint(0, 12), rng.randint(0, 400), rng.randint(0, 20000)])
            for _ in range(rng.randint(0, 10))
        ]
        cases.append((stacks, rng.randint(1, 11)))
    got = rows(
        con,
        """SELECT nim_reduce(c.s, c.a) FROM (SELECT unnest($1::STRUCT(s SMALLINT[], a SMALLINT)[]) AS c)""",
        [[{"s": s, "a": a} for s, a in cases]],
    )
    for (stacks, a), (red,) in zip(cases, got, strict=True):
        assert tuple(red) == algorithm1(stacks, a), (stacks, a)


def test_wythoff_p(con):
    limit = 300
    pairs = wythoff_pairs(limit)
    got = rows(con, f"SELECT a, b, wythoff_p(a, b) FROM range({limit + 1}) ta(a), range({limit + 1}) tb(b)")
    for a, b, is_p in got:
        assert is_p == ((a, b) in pairs), (a, b)
    getcontext().prec = 60
    phi = (1 + Decimal(5).sqrt()) / 2
    rng = random.Random(7)
    big = [rng.randint(1, 10**9) for _ in range(300)] + [10**9, 10**6 + 7, 2**30]
    cases = []
    for d in big:
        lo = int(d * phi)  # floor, exact with 60 digits
        cases += [
            (lo, lo + d, True),
            (lo + d, lo, True),
            (lo + 1, lo + d + 1, False),
            (lo - 1, lo + d, False),
        ]
    got = rows(
        con,
        "SELECT wythoff_p(c[1], c[2]) FROM (SELECT unnest($1::BIGINT[][]) AS c)",
        [[[a, b] for a, b, _ in cases]],
    )
    assert [g for (g,) in got] == [want for *_, want in cases]


def test_int_sqrt_and_nim_sum(con):
    xs = list(range(2000)) + [k * k + d for k in (10**6, 2**31 - 1, 3037000499) for d in (-1, 0, 1)]
    got = rows(con, "SELECT int_sqrt(x) FROM (SELECT unnest($1::BIGINT[]) AS x)", [xs])
    assert [g for (g,) in got] == [math.isqrt(x) for x in xs]
    rng = random.Random(3)
    lists = [[rng.randint(0, 1000) for _ in range(rng.randint(0, 8))] for _ in range(200)]
    got = rows(con, "SELECT nim_sum(l) FROM (SELECT unnest($1::INTEGER[][]) AS l)", [lists])
    assert [g for (g,) in got] == [functools.reduce(operator.xor, lst, 0) for lst in lists]


EXAMPLES = [
    ("subpartition([5,3,3,2,1,1], 1, 1)", (2, 2, 1)),
    ("subpartition([2,1], 1, 1)", ()),
    ("conjugate([4,2,1])", (3, 2, 1, 1)),
    ("conjugate([])", ()),
    ("is_row([4])", True),
    ("is_row([])", False),
    ("is_column([1,1,1])", True),
    ("is_rectangle([3,3])", True),
    ("is_rectangle([3,2])", False),
    ("is_rectangle([])", False),
    ("rect_rows([3,3])", 2),
    ("rect_cols([3,3])", 3),
    ("is_staircase([3,2,1])", True),
    ("is_staircase([1])", True),
    ("is_staircase([3,2])", False),
    ("is_hook([4,1,1])", True),
    ("is_hook([4])", True),
    ("is_hook([2,2])", False),
    ("is_proper_hook([2,1])", True),
    ("is_proper_hook([1,1])", False),
    ("corners([5,3,3,2,1,1])", 4),
    ("corners([])", 0),
    ("remove_corners([5,3,3,2,1,1])", (4, 3, 2, 1, 1)),
    ("remove_corners([3,3])", (3, 2)),
    ("remove_corners([1])", ()),
    ("is_distinct_parts([4,2,1])", True),
    ("is_distinct_parts([2,2])", False),
    ("blocks([5,3,3,1])", [{"size": 5, "mult": 1}, {"size": 3, "mult": 2}, {"size": 1, "mult": 1}]),
    ("blocks([])", []),
    ("gen_staircase([4,4,2,2])", {"k": 2, "r": 2, "c": 2}),
    ("gen_staircase([3,3])", {"k": 1, "r": 2, "c": 3}),
    ("gen_staircase([3,2,1])", {"k": 3, "r": 1, "c": 1}),
    ("gen_staircase([3,1])", None),
    ("gen_staircase([])", None),
    ("is_gen_staircase([6,6,3,3])", True),
    ("is_gen_staircase([4,2,1])", False),
    ("is_quadrated([12,12,10,10,6,6,6,6])", True),
    ("is_quadrated([2,2,2])", False),
    ("is_quadrated([3,3])", False),
    ("is_quadrated([])", True),
    ("is_thick_gamma([5,5,2])", True),
    ("is_thick_gamma([3,3])", False),
    ("is_thick_gamma([3,2,1])", False),
    ("young_le([2,1], [3,1,1])", True),
    ("young_le([2,2], [3,1,1])", False),
    ("young_le([], [2])", True),
    ("is_nim_reduced([3,1,1], 2)", False),
    ("is_nim_reduced([2,1,1], 2)", True),
    ("nim_reduce([170,155,112,79,52,33,20,12], 5)", (98, 98, 98, 79, 52, 33, 20, 12)),
    ("nim_reduce([12,20,33,52,79,112,155,17000], 5)", (98, 98, 98, 79, 52, 33, 20, 12)),
    ("nim_reduce([5,1,1], 2)", (2, 1, 1)),
    ("nim_reduce([3,1], 3)", ()),
    ("odd_stacks([5,4,3,3])", 3),
    ("nim_sum([1,2,3])", 0),
    ("nim_sum([5,3])", 6),
    ("nim_sum([])", 0),
    ("wythoff_p(0, 0)", True),
    ("wythoff_p(1, 2)", True),
    ("wythoff_p(5, 3)", True),
    ("wythoff_p(4, 7)", True),
    ("wythoff_p(2, 2)", False),
    ("wythoff_p(1, 3)", False),
    ("int_sqrt(24)", 4),
    ("int_sqrt(25)", 5),
]


@pytest.mark.parametrize(("expr", "want"), EXAMPLES)
def test_examples(con, expr, want):
    (got,) = con.execute(f"SELECT {expr}").fetchall()[0]
    if isinstance(want, tuple):
        got = tup(got)
    assert got == want


def test_types_match_record_columns(con):
    got = con.execute(
        """SELECT typeof(subpartition(parts, 0, 0)), typeof(conjugate(parts)), typeof(remove_corners(parts)),
                  typeof(nim_reduce(parts, 2::SMALLINT)), typeof(gen_staircase(parts))
           FROM p LIMIT 1"""
    ).fetchall()[0]
    assert got[:4] == ("SMALLINT[]",) * 4
    assert got[4] == "STRUCT(k INTEGER, r INTEGER, c INTEGER)"


def test_lambda_names_do_not_capture_columns(con):
    # Columns named like the macros' lambda parameters must not leak into the macros.
    got = con.execute(
        """SELECT conjugate(parts), nim_reduce(parts, 2), blocks(parts)
           FROM (SELECT [3,1]::SMALLINT[] AS parts, 100 AS x_, 100 AS k_, 100 AS q_, 100 AS h_, 100 AS y_)"""
    ).fetchall()[0]
    assert tup(got[0]) == (2, 1, 1)
    assert tup(got[1]) == (1, 1)
    assert got[2] == [{"size": 3, "mult": 1}, {"size": 1, "mult": 1}]


def test_gen_staircase_sub_against_enumeration(con):
    """is_gen_staircase_sub is exactly the set of cells' sub-partitions G(k,r,c)[i,j], n <= 12.

    Dropping a whole block of rows or c columns gives a smaller G, so i < r, j < c and
    k, r, c <= 13 reach every such sub-partition of size <= 12.
    """
    subs = set()
    for k, r, c in itertools.product(range(1, 14), repeat=3):
        g = [q * c for q in range(k, 0, -1) for _ in range(r)]
        for i in range(r):
            for j in range(c):
                sub = tuple(x - j for x in g[i:] if x > j)
                if sum(sub) <= MAX_N:
                    subs.add(sub)
    got = rows(con, "SELECT parts, is_gen_staircase_sub(parts, conjugate(parts)) FROM p WHERE len(parts) > 0")
    assert got and all(flag == (tuple(parts) in subs) for parts, flag in got)
    assert {tuple(p) for p, flag in got if flag} == subs


# ---------------------------------------------------------------- followers (queries/consistency/)

BUILTIN_MOVESETS = {  # docs/definitions.md §2.2's table, written out here: (steps, rays)
    "downright": ({(0, 1), (1, 0)}, set()), "pawn": ({(0, 1), (1, 1)}, set()),
    "pawn_t": ({(1, 0), (1, 1)}, set()), "knight": ({(1, 2), (2, 1)}, set()),
    "bishop": (set(), {(1, 1)}), "king": ({(0, 1), (1, 0), (1, 1)}, set()),
    "rook": (set(), {(0, 1), (1, 0)}), "queen": (set(), {(0, 1), (1, 0), (1, 1)}),
    "moves_1.3_3.1": ({(1, 3), (3, 1)}, set()), "moves_1.2+": (set(), {(1, 2)}),
    "moves_0.2_1.1+": ({(0, 2)}, {(1, 1)}),
}


def py_followers(game, p):
    """One entry per move (docs/definitions.md §2.1-2.2, §4): every legal offset of the moveset,
    rays repeated."""
    if game == "lctr":
        return [py_sub(p, 1, 0), py_sub(p, 0, 1)] if p else []
    steps, rays = BUILTIN_MOVESETS[game]
    offsets = {(a, b) for a, b in steps if py_sub(p, a, b)}
    for a, b in rays:
        k = 1
        while py_sub(p, k * a, k * b):
            offsets.add((k * a, k * b))
            k += 1
    return [py_sub(p, a, b) for a, b in offsets]


def py_key(p):
    return sum(1 << (x + len(p) - i) for i, x in enumerate(p, 1))


@pytest.mark.parametrize("game", ["lctr", *BUILTIN_MOVESETS])
def test_board_followers_and_their_keys(con, game):
    got = rows(con, "SELECT parts, board_followers(parts, moveset($1)), "
                    "board_follower_keys(partition_key(parts), parts, conjugate(parts), moveset($1)) FROM p",
               [game])
    for parts, followers, keys in got:
        want = sorted(py_followers(game, tuple(parts)))
        assert sorted(tuple(f) for f in followers) == want, (game, parts)
        assert keys == [py_key(tuple(f)) for f in followers], (game, parts)


def test_partition_key_is_one_to_one(con):
    keys = rows(con, "SELECT parts, partition_key(parts) FROM p")
    assert all(k == py_key(tuple(p)) for p, k in keys)
    assert len({k for _, k in keys}) == len(keys)
    assert rows(con, "SELECT partition_key([]::SMALLINT[])") == [(0,)]


@pytest.mark.parametrize(("s", "moves"),
                         [(3, (2,)), (4, (3,)), (4, (1, 3)), (5, (4, 5)), (6, (2,)), (3, (1, 2, 3))])
def test_sn_followers_against_every_choice_of_stacks(con, s, moves):
    import reference

    for n in range(1, 11):
        for p in (q for q in partitions(n) if len(q) <= s):
            padded = tuple(p) + (0,) * (s - len(p))
            want = sorted(tuple(h for h in y if h) for y in reference.slownim_moves(padded, moves))
            got = rows(con, "SELECT sn_followers($1::SMALLINT[], $2::INTEGER[])",
                       [list(p), list(moves)])[0][0]
            assert sorted(tuple(f) for f in got) == want, (s, moves, p)
            assert len(got) == len(want)  # each multiset once


def test_mex_and_pair_conditions(con):
    rng = random.Random(7)
    for _ in range(300):
        values = [rng.randrange(0, 20) for _ in range(rng.randrange(0, 12))]
        want = min(set(range(len(values) + 1)) - set(values))
        bits = rows(con, "SELECT mex_of_bits(coalesce(bit_or(value_bit(v)), 0)), mex(coalesce(list(v), [])) "
                         "FROM unnest($1::INTEGER[]) t(v)", [values])[0]
        assert bits == (want, want), values
    assert rows(con, f"SELECT mex_of_bits({(1 << 127) - 1}::HUGEINT)") == [(None,)]  # bits 0-126 all set
    for sg in range(5):
        for mis in range(5):
            swap = (sg, mis) in ((0, 1), (1, 0))
            want = (not ((sg == 0 and mis >= 2) or (mis == 0 and sg >= 2)),
                    swap or sg == mis, swap or (sg == mis and sg >= 2))
            got = rows(con, "SELECT pair_domestic($1, $2), pair_tame($1, $2), pair_pet($1, $2)", [sg, mis])[0]
            assert got == want, (sg, mis)
