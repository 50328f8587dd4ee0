"""`partgames search pset_classes` (queries/search/pset_classes.sql, pipeline/search.py) finds,
from the records alone, the P-sets that slow-exact-k-nim.txt proves (Theorem 5.1, Theorem 6.1)
and conjectures (Conjecture 1).

The paper's sets are written here from the paper, on positions and reduced forms computed here
(Algorithm 1), and compared with the set that the search's printed description (its features and
P-classes) defines, on every position of total N <= N_MAX.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import slownim_available

from pipeline.search import run_search

pytestmark = pytest.mark.skipif(not slownim_available(), reason="Slow SetNim kernels unavailable")

N_MAX = 28
#: game id → (n stacks, A), each a game whose P-set the paper states.
GAMES = {
    "sn3_1-3": (3, (1, 3)),  # Theorem 6.1, n odd
    "sn4_1-4": (4, (1, 4)),  # Theorem 6.1, n even
    "sn4_3-4": (4, (3, 4)),  # Theorem 5.1, n even
    "sn5_4-5": (5, (4, 5)),  # Theorem 5.1, n odd
    "sn5_3-4-5": (5, (3, 4, 5)),  # Conjecture 1, k = 3
    "sn5_2-3-4-5": (5, (2, 3, 4, 5)),  # Conjecture 1, k = 2
}

Pos = tuple[int, ...]  # the n stack heights, non-increasing, zeros included


def positions(n: int, total: int, cap: int | None = None) -> list[Pos]:
    """The partitions of ``total`` into at most n parts (each at most ``cap``), padded with zeros."""
    cap = total if cap is None else cap
    if n == 0:
        return [()] if total == 0 else []
    return [(k, *rest) for k in range(min(total, cap), -1, -1) for rest in positions(n - 1, total - k, k)]


def reduced(p: Pos, a: int) -> Pos:
    """Algorithm 1 of the paper: while the largest stack exceeds ⌊Σ/a⌋, cut every stack to ⌊Σ/a⌋."""
    while max(p) > sum(p) // a:
        cap = sum(p) // a
        p = tuple(min(x, cap) for x in p)
    return p


def odd(p: Pos) -> int:
    return sum(x % 2 for x in p)


def theorem_6_1(n: int, p: Pos) -> bool:
    """A = {1, n}: n odd → Σ(p) even; n even → Σ(p) even and p_1 (the smallest stack) even."""
    if n % 2:
        return sum(p) % 2 == 0
    return sum(p) % 2 == 0 and min(p) % 2 == 0


def s1_s2_s3(k: int, n: int, s: int, o: int, s2_from_zero: bool) -> bool:
    """Theorem 5.1 (k = n − 1) and Conjecture 1: S1 ∪ S2 ∪ S3 with S2 = {(k−1, o) : o, n same
    parity, 1 <= o <= k−1}. ``s2_from_zero``: docs/definitions.md §8.3's correction, 0 <= o and o
    of the parity of k−1 (= the parity of s, which the paper says every position has)."""
    same = s % 2 == o % 2
    if same and 0 <= s < k - 1 and o <= s:
        return True
    if s == k - 1:
        if s2_from_zero:
            return o % 2 == (k - 1) % 2 and 0 <= o <= k - 1
        return o % 2 == n % 2 and 1 <= o <= k - 1
    return same and k - 1 < s < 2 * k - 1 and o <= 2 * (k - 1) - s


def paper_p(game: str, p: Pos) -> bool:
    n, moves = GAMES[game]
    if moves == (1, n):
        return theorem_6_1(n, p)
    k = moves[0]
    r = reduced(p, k)
    s, o = sum(r) % (2 * k), odd(r)
    # Theorem 5.1 as printed for odd n; for even n its S2 needs the correction (o = 0 occurs).
    return s1_s2_s3(k, n, s, o, s2_from_zero=not (k == n - 1 and n % 2))


def features(p: Pos, a: int) -> dict[str, int]:
    """The search's features, from its description: of the reduced position."""
    r = reduced(p, a)
    return {"sigma": sum(r), "odd": odd(r), "empty": sum(1 for x in r if x == 0),
            "smallest_parity": min(r) % 2}


def described_p(row: dict[str, str], p: Pos, a: int) -> bool:
    f = features(p, a)
    values = []
    for name in row["features"].split(", "):
        base, _, m = name.partition("%")
        values.append(f[base] % int(m) if m else f[base])
    return values in json.loads(row["pset_json"])


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, compiled_kernels: None) -> Path:
    from pipeline.runner import run

    root = tmp_path_factory.mktemp("pset") / "results"
    run(list(GAMES), max_n=N_MAX, out=str(root), jobs=1, progress=False)
    return root


def search_rows(store: Path) -> dict[str, dict[str, str]]:
    run_search(store, "pset_classes", "csv")
    with open(store / "search" / "pset_classes.csv") as fh:
        return {row["game"]: row for row in csv.DictReader(fh)}


def test_pset_classes_finds_the_papers_sets(store: Path) -> None:
    rows = search_rows(store)
    assert set(rows) == set(GAMES)
    for game, (n, moves) in GAMES.items():
        row = rows[game]
        assert row["impurity"] == "0", (game, row)
        assert row["max_n"] == str(N_MAX)
        # Conjecture 1's form is at most two features; the search's description is no larger.
        assert len(row["features"].split(", ")) <= 2, (game, row["features"])
        a = moves[0]
        for total in range(N_MAX + 1):
            for p in positions(n, total):
                assert described_p(row, p, a) == paper_p(game, p), (game, p, row["features"], row["pset"])


def test_pset_classes_names_the_form(store: Path) -> None:
    """The description and the Conjecture 1 form column, for Theorem 5.1's SN(5, {4, 5}):
    s = Σ mod 8 and o are needed (no smaller modulus fits), and the P-classes are the paper's
    classes that occur up to N_MAX ((6, 0) first occurs at N = 30, as (6, 6, 6, 6, 6))."""
    row = search_rows(store)["sn5_4-5"]
    assert row["features"] == "sigma%8, odd"
    assert row["sigma_odd"] == "M=8: impurity 0"
    occurring = {(sum(r) % 8, odd(r))
                 for t in range(N_MAX + 1) for r in (reduced(p, 4) for p in positions(5, t))}
    expected = sorted([s, o] for s, o in occurring if s1_s2_s3(4, 5, s, o, False))
    assert sorted(json.loads(row["pset_json"])) == expected


def test_pset_classes_reports_a_planted_record(store: Path, plant, tmp_path: Path) -> None:
    """One P-position of SN(4, {3, 4}) planted as an N-position: Conjecture 1's form (Σ mod M, o)
    no longer describes the records (its best misclassifies exactly that record), and the
    description the search prints needs a third feature to set that record apart."""
    planted = plant(store, "sn4_3-4", [4, 4, 4, 3], sg=1)  # s = 15 mod 6 = 3, o = 1: in S3
    assert paper_p("sn4_3-4", (4, 4, 4, 3))
    row = search_rows(planted)["sn4_3-4"]
    assert row["sigma_odd"].endswith(": impurity 1"), row["sigma_odd"]
    assert row["impurity"] != "0" or len(row["features"].split(", ")) > 2, row["features"]
    assert search_rows(store)["sn4_3-4"]["sigma_odd"].endswith(": impurity 0")
