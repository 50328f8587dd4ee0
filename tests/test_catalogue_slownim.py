"""The Slow SetNim statement catalogue (queries/slownim/, paper slow-exact-k-nim.txt).

Every statement must hold (or, for errata, its corrected form must hold) on the small store, and a
value planted into one record must be reported by exactly the statements that examine it. Each
planted case lists those statements with the reason each one sees the wrong value.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pipeline.games.slownim", reason="Slow SetNim is not in the pipeline yet")

from pipeline.query import connect  # noqa: E402
from pipeline.verify import load_catalogue  # noqa: E402

SELECT = ["slownim.*"]

IDS = {
    "slownim.algorithm1", "slownim.algorithm2", "slownim.conjecture1", "slownim.corollary2-5",
    "slownim.example1-all-stacks", "slownim.example1-any-stacks", "slownim.example1-one-stack",
    "slownim.example3", "slownim.example4", "slownim.example8", "slownim.lemma2-6", "slownim.lemma2-7",
    "slownim.lemma2-8", "slownim.lemma3-1", "slownim.lemma3-2", "slownim.m-rule", "slownim.remark4-2",
    "slownim.remark6-2-1", "slownim.remark6-2-2", "slownim.section2-3-game-trees",
    "slownim.section5-difference", "slownim.theorem2-3", "slownim.theorem3-3", "slownim.theorem4-1",
    "slownim.theorem5-1", "slownim.theorem6-1", "slownim.open-problem4-k-n-1", "slownim.open-problem4-k-n-2",
    "slownim.open-problem2-k-n-2", "slownim.open-problem1-k-n-2",
}  # fmt: skip

ERRATA = {"slownim.algorithm2", "slownim.m-rule", "slownim.section2-3-game-trees", "slownim.theorem5-1"}

# The small store has no SN(n,1), SN(n,n) and SN(n,{1,n}) for the same even n, and no
# SN(n, {1..k}) with 2 <= k <= n − 1, no SN(n, {n − 2}) and no SN(n, {n − 2, n})
# (docs/open-problems.md).
NO_DATA = {"slownim.remark6-2-1", "slownim.open-problem4-k-n-1", "slownim.open-problem4-k-n-2",
           "slownim.open-problem2-k-n-2", "slownim.open-problem1-k-n-2"}


def failing(results: dict[str, dict]) -> set[str]:
    return {i for i, r in results.items() if r["status"] == "fails"}


def test_catalogue_holds_on_small_store(small_store: Path, verify_ids) -> None:
    results = verify_ids(small_store, SELECT)
    assert set(results) == IDS
    for i, r in results.items():
        assert r["status"] == ("no data" if i in NO_DATA else "holds"), r
        if i not in NO_DATA:
            assert r["rows"] > 0, r
    for i in ERRATA:  # confirmed: the corrected query is empty, the printed one is not
        assert results[i]["printed_counterexamples"] > 0, results[i]


def _printed_rows(store: Path, statement_id: str) -> list[dict]:
    (st,) = load_catalogue(select=[statement_id])
    con = connect(store)
    return con.sql(st.printed_query).to_arrow_table().to_pylist()


@pytest.mark.parametrize(
    ("statement_id", "game", "parts", "column", "value"),
    [
        # docs/definitions.md §8.3: (2,2,2,2) in SN(4,{3,4}) is P although the printed S2 demands o >= 1.
        ("slownim.theorem5-1", "sn4_3-4", [2, 2, 2, 2], None, None),
        # docs/definitions.md §8.3: the M-rule move from the misère N-position (1,1,2) of SN(3,2) is
        # to (0,0,2).
        ("slownim.m-rule", "sn3_2", [2, 1, 1], "m_move", [2]),
        # Reduction does not preserve the multiset game-tree counts: (2,1,1,1) has two moves in
        # SN(4,3), its reduction (1,1,1,1) one. Example 4's (1,2,5,6) too.
        ("slownim.section2-3-game-trees", "sn4_3", [2, 1, 1, 1], "r_nodes", 2),
        ("slownim.section2-3-game-trees", "sn4_3", [6, 5, 2, 1], "r_nodes", 10),
        # Algorithm 2's loop falls through on (1,1,1,2) in SN(4,3) and returns it unreduced.
        ("slownim.algorithm2", "sn4_3", [2, 1, 1, 1], "failure", "loop as printed"),
        # ... and its first test returns every unreduced position as it is.
        ("slownim.algorithm2", "sn3_2", [3, 1, 1], "failure", "first test always true"),
    ],
)
def test_errata_witnesses(small_store: Path, statement_id, game, parts, column, value) -> None:
    rows = [r for r in _printed_rows(small_store, statement_id) if r["game"] == game and r["parts"] == parts]
    assert rows, f"{statement_id}: printed form does not list {game} {parts}"
    if column is not None:
        assert any(r[column] == value for r in rows), rows


CASES = [
    pytest.param(
        "sn4_3",
        [2, 2, 2, 2],
        {"sg": 1},
        {
            "slownim.theorem4-1",  # no odd stack: must be P
            "slownim.theorem3-3",  # (s, o) = (2, 0) is in S3
            "slownim.remark6-2-2",  # P in SN(4,{3,4}) but no longer in SN(4,3)
            "slownim.section5-difference",  # outcomes in the two games differ at (s, o) = (2, 0)
            "slownim.m-rule",  # its own M-rule move (to (2,1,1,1), an N-position) no longer wins
        },
        id="sn4_3-sg-no-odd-stack",
    ),
    pytest.param(
        "sn4_3-4",
        [2, 2, 2, 2],
        {"sg": 1},
        {
            "slownim.theorem4-1",  # no odd stack
            "slownim.theorem5-1",  # corrected form: o = 0 <= min(2, 2)
            "slownim.conjecture1",  # A = {3, 4} = {k..n}: reported as a discovery
            "slownim.section5-difference",  # outcomes in SN(4,3), SN(4,{3,4}) differ at (2, 0)
        },
        id="sn4_3-4-sg-the-erratum-position",
    ),
    pytest.param(
        "sn3_2",
        [5, 1, 1],
        {"sg": 0},
        {
            "slownim.example3",  # (1,1,m) is N
            "slownim.theorem3-3",  # its reduction (1,1,2) has (s, o) = (0, 2): N
            "slownim.corollary2-5",  # same reduction as (2,1,1), (3,1,1), … which are N
            "slownim.section2-3-game-trees",  # sg differs from that of its reduction (2,1,1)
        },
        id="sn3_2-sg-non-reduced",
    ),
    pytest.param(
        "sn2_1",
        [5],
        {"sg_misere": 1},
        {"slownim.example1-one-stack"},  # misère: sg_misere = 1 − N mod 2
        id="sn2_1-sg-misere",
    ),
    pytest.param(
        "sn3_1-2-3",
        [2, 2],
        {"sg": 3},
        {
            "slownim.example1-any-stacks",  # SN(n,[n]): all even is P
            "slownim.theorem4-1",
            "slownim.conjecture1",  # A = {1..3}
        },
        id="sn3_1-2-3-sg",
    ),
    pytest.param(
        "sn1_1",
        [4],
        {"sg": 1},
        {
            "slownim.example1-one-stack",  # SN(1,{1}) is SN(n,1), SN(n,n) and SN(n,[n]) at once
            "slownim.example1-all-stacks",
            "slownim.example1-any-stacks",
            "slownim.theorem4-1",
            "slownim.theorem6-1",  # A = {1} = {1, n}, n odd: Σ even is P
            "slownim.conjecture1",
        },
        id="sn1_1-sg",
    ),
    pytest.param(
        "sn5_4",
        [3, 3, 2, 2, 2],
        {"height": 99},
        {"slownim.section2-3-game-trees"},  # the reduction of (4,3,2,2,2): same longest play
        id="sn5_4-height",
    ),
    pytest.param(
        "sn4_3",
        [6, 5, 2, 1],
        {"states": 10},
        {"slownim.example4"},  # nine distinct positions
        id="sn4_3-example4-states",
    ),
    pytest.param(
        "sn4_3",
        [6, 5, 2, 1],
        {"reduced_parts": [3, 3, 2]},
        {
            "slownim.lemma2-7",  # not ctt(p, 3)
            "slownim.algorithm1",
            "slownim.algorithm2",  # the corrected algorithm gives (3,3,2,1)
            "slownim.example4",  # r(p) = (1,2,3,3)
            "slownim.remark4-2",  # (5,5,2,1) and (6,5,2,1) no longer share their reduction
            "slownim.section2-3-game-trees",  # compared with the record of (3,3,2), another game
        },
        id="sn4_3-reduced-parts",
    ),
    pytest.param(
        "sn5_4",
        [3, 3, 3, 3],
        {"reduced": False},
        {"slownim.theorem2-3"},  # 4·3 <= 12: NIRB holds
        id="sn5_4-reduced-flag-false",
    ),
    pytest.param(
        "sn4_3",
        [4, 2, 2],
        {"reduced": True},
        {
            "slownim.theorem2-3",  # 3·4 > 8
            "slownim.lemma2-6",  # "reduced", yet ctt(p, 4) = p is not
            "slownim.lemma2-8",  # a move from this "reduced" position needs reduction outside R1, R2
            "slownim.lemma3-2",  # … and does not reduce as Lemma 3.2 says
            "slownim.remark4-2",  # (3,2,2) is not reduced, one more token on top gives a "reduced" one
            "slownim.example8",  # "reduced", yet (5,2,2) is not reduced and does not reduce to it
        },
        id="sn4_3-reduced-flag-true",
    ),
    pytest.param(
        "sn4_3",
        [2, 2, 2, 1],
        {"sum_mod": 3},
        {
            "slownim.lemma2-7",  # Σ(r(p)) mod 6 = 1
            "slownim.lemma3-1",  # s' of the moves from (3,3,3,1) and (3,3,2,2)
            "slownim.lemma3-2",  # its own moves that need reduction, from s = 3 = k
        },
        id="sn4_3-sum-mod",
    ),
]


@pytest.mark.parametrize(("game", "parts", "columns", "expected"), CASES)
def test_planted_value_is_reported(small_store: Path, plant, verify_ids, game, parts, columns, expected):
    store = plant(small_store, game, parts, **columns)
    results = verify_ids(store, SELECT)
    assert not [r for r in results.values() if r["status"] == "error"]
    assert failing(results) == expected
    # The planted record itself (or, for statements about a reduction, the reduced form) is shown.
    shown = [
        ex
        for i in expected
        for ex in results[i]["examples"]
        if parts in (ex.get("parts"), ex.get("reduced_parts"))
    ]
    assert shown, {i: results[i]["examples"] for i in expected}


# The games of the open problems' conjectures (docs/open-problems.md), none of them in the small
# store: SN(n, {n−2}) (Open Problem 1), SN(n, {n−2, n}) (Open Problem 2), SN(n, {1..n−1}) and
# SN(n, {1..n−2}) (Open Problem 4).
OPEN_PROBLEM_GAMES = {
    "slownim.open-problem1-k-n-2": ("sn5_3", "sn6_4"),
    "slownim.open-problem2-k-n-2": ("sn4_2-4", "sn5_3-5"),
    "slownim.open-problem4-k-n-1": ("sn3_1-2", "sn4_1-2-3"),
    "slownim.open-problem4-k-n-2": ("sn4_1-2", "sn5_1-2-3"),
}


@pytest.fixture(scope="module")
def open_problem_store(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Path:
    """The open problems' games for every N <= 14."""
    from pipeline.runner import run

    root = tmp_path_factory.mktemp("open") / "results"
    games = sorted({g for gs in OPEN_PROBLEM_GAMES.values() for g in gs})
    run(games, max_n=14, out=str(root), jobs=1, progress=False)
    return root


def test_open_problem_conjectures_hold_on_their_games(open_problem_store: Path, verify_ids) -> None:
    """Each conjecture found by `search pset_classes` holds on every record of its domain in its
    games' records of N <= 14, and reads records of each of them."""
    results = verify_ids(open_problem_store, list(OPEN_PROBLEM_GAMES))
    con = connect(open_problem_store)
    for statement_id, games in OPEN_PROBLEM_GAMES.items():
        r = results[statement_id]
        assert r["status"] == "holds" and r["rows"] > 0, r
        for game in games:  # every game of the statement has records in its domain
            (k,), = con.execute(f"SELECT count(*) FROM ({_domain_records(statement_id)}) "
                                f"WHERE game = '{game}'").fetchall()
            assert k > 0, (statement_id, game)


def _domain_records(statement_id: str) -> str:
    """The records of a statement's domain (its header's ``domain``, one row per record, with
    the game, parts and sg of each)."""
    (st,) = load_catalogue(select=[statement_id])
    domain = st.header["domain"]
    assert domain.startswith("SELECT n FROM slownim WHERE "), domain
    return domain.replace("SELECT n FROM", "SELECT game, n, parts, sg FROM", 1)


@pytest.mark.parametrize("statement_id", sorted(OPEN_PROBLEM_GAMES))
def test_a_flipped_p_position_fails_its_conjecture(open_problem_store: Path, plant, verify_ids,
                                                   statement_id: str) -> None:
    """A record of the conjecture's domain whose P-ness is flipped (sg 0 made 1, or the other way)
    is a counterexample of that conjecture and of none of the other three."""
    game = OPEN_PROBLEM_GAMES[statement_id][-1]
    con = connect(open_problem_store)
    parts, sg = con.execute(f"SELECT parts, sg FROM ({_domain_records(statement_id)}) "
                            f"WHERE game = '{game}' ORDER BY n DESC, parts LIMIT 1").fetchall()[0]
    planted = plant(open_problem_store, game, list(parts), sg=1 if sg == 0 else 0)
    results = verify_ids(planted, list(OPEN_PROBLEM_GAMES))
    failing_now = {i for i, r in results.items() if r["status"] == "fails"}
    assert statement_id in failing_now, results[statement_id]
    assert failing_now <= {statement_id}, failing_now
