"""The LCTR statement catalogue (queries/lctr/) on a small store, and on stores with planted errors.

Each planted test changes one column of one record and checks that exactly the expected statement
ids (among the lctr1.* / lctr2.* statements) fail. A planted value usually breaks several
statements at once: the family formula it belongs to, the recursions that compute it from its
followers or its parents from it (Theorem 1, Corollary 1, Equations 3-4, Theorem 22), the
diagonal propagation lemmas, and conjugation invariance (lctr2.lemma6) when the partition is not
self-conjugate. Every set below follows from the statement domains and was confirmed by running them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SELECT = ["lctr1.*", "lctr2.*"]  # the two LCTR papers (lctrd.* is d-dimensional LCTR)


@pytest.fixture(scope="module")
def baseline(small_store: Path) -> dict[str, dict]:
    from pipeline.verify import verify

    return {r.id: r.as_dict() for r in verify(small_store, SELECT)}


def failing(results: dict[str, dict]) -> set[str]:
    return {i for i, r in results.items() if r["status"] != "holds"}


def test_catalogue_holds_on_small_store(baseline: dict[str, dict]) -> None:
    assert len(baseline) >= 40
    assert failing(baseline) == set()
    assert all(r["rows"] > 0 for r in baseline.values())
    # Errata: the printed forms of Equation 4 and Proposition 28 already fail for n <= 14; the
    # thick-gamma misprint (docs/definitions.md §8.1) needs n >= 27, so its printed form holds here.
    assert baseline["lctr2.equation4"]["printed_counterexamples"] > 0
    assert baseline["lctr2.proposition28"]["printed_counterexamples"] > 0
    assert baseline["lctr1.lemma16"]["printed_counterexamples"] == 0
    assert baseline["lctr1.theorem17"]["printed_counterexamples"] == 0


SG_FAMILY = {"lctr1.theorem1", "lctr2.corollary1", "lctr2.equation3", "lctr2.theorem22"}
DOWNRIGHT_SG = {"lctr1.theorem1", "lctr2.corollary1", "lctr2.equation4", "lctr2.lemma10", "lctr2.lemma7",
                "lctr2.theorem11", "lctr2.theorem22", "lctr2.theorem9_lctr"}
LEAVES = {"lctr2.corollary23", "lctr2.lemma25", "lctr2.lemma26", "lctr2.lemma6", "lctr2.table1"}

# (game, parts, planted columns, statement ids that must fail, id whose examples show the record).
# lctr2.theorem19 (every record domestic) also reads the pair its domestic flag summarises: a planted
# (k,0) or (0,k) pair with k >= 2 breaks it.
PLANTS = [
    # sg of the rectangle (3^3), true value 0
    ("lctr", [3, 3, 3], {"sg": 1},
     SG_FAMILY | {"lctr1.lemma7", "lctr1.lemma8", "lctr2.lemma14", "lctr2.lemma15", "lctr2.lemma17"},
     "lctr1.lemma8"),
    # one row (5): true value 1; (2,0) pair
    ("lctr", [5], {"sg": 2},
     SG_FAMILY - {"lctr1.theorem1"}  # (5) stays an N-position
     | {"lctr2.theorem19"}
     | {"lctr1.lemma4", "lctr1.lemma5", "lctr2.lemma12", "lctr2.lemma17", "lctr2.lemma18", "lctr2.lemma4",
        "lctr2.lemma6"},
     "lctr2.lemma12"),
    # (2,2): two-row rectangle and quadrated, true value 0
    ("lctr", [2, 2], {"sg": 2},
     SG_FAMILY | {"lctr2.theorem19"}
     | {"lctr1.lemma6", "lctr1.lemma9", "lctr2.lemma13", "lctr2.lemma17", "lctr2.lemma18"},
     "lctr1.lemma9"),
    # T((4,4,2,2)) = (4,2,2) has value 1 by Lemma 10 (paper 1)
    ("lctr", [4, 2, 2], {"sg": 0},
     SG_FAMILY | {"lctr1.lemma10", "lctr1.lemma4", "lctr2.lemma14", "lctr2.lemma6"},
     "lctr2.lemma14"),
    # thick gamma (5^2, 1) with n > r + 2 (Lemma 16 / Theorem 17), true value 1
    ("lctr", [5, 5, 1], {"sg": 0},
     SG_FAMILY | {"lctr2.theorem19"}
     | {"lctr1.lemma16", "lctr1.lemma4", "lctr1.theorem17", "lctr2.lemma14", "lctr2.lemma18",
                  "lctr2.lemma6"},
     "lctr1.lemma16"),
    # thick gamma ((r+2)^m, r^s) = (3^2, 1), Lemma 15 (paper 1), true value 1
    ("lctr", [3, 3, 1], {"sg": 0},
     SG_FAMILY | {"lctr2.theorem19"}
     | {"lctr1.lemma15", "lctr1.lemma4", "lctr1.theorem17", "lctr2.lemma14", "lctr2.lemma15",
                  "lctr2.lemma18", "lctr2.lemma6"},
     "lctr1.lemma15"),
    # thick gamma ((r+1)^m, r^s) = (2^2, 1), Lemma 14 (paper 1), true value 1
    ("lctr", [2, 2, 1], {"sg": 0},
     SG_FAMILY | {"lctr1.lemma14", "lctr1.lemma4", "lctr1.theorem17", "lctr2.lemma14", "lctr2.lemma15",
                  "lctr2.lemma6"},
     "lctr1.lemma14"),
    # gamma (3,1,1): a P-position (Lemma 12), also λ[1,1] of the quadrated (4,4,2,2) (Lemma 9)
    ("lctr", [3, 1, 1], {"sg": 1},
     SG_FAMILY | {"lctr1.lemma12", "lctr1.lemma13", "lctr1.lemma9", "lctr2.lemma14", "lctr2.lemma4"},
     "lctr1.lemma12"),
    # (n^r, r^s) = (5^2, 2^1), Lemma 13 (paper 1)
    ("lctr", [5, 5, 2], {"sg": 1},
     SG_FAMILY | {"lctr1.lemma13", "lctr1.lemma4", "lctr2.lemma14", "lctr2.lemma15", "lctr2.lemma6"},
     "lctr1.lemma13"),
    # staircase S_3, true value 1 in LCTR
    ("lctr", [3, 2, 1], {"sg": 0},
     SG_FAMILY | {"lctr1.lemma11", "lctr2.lemma14", "lctr2.lemma15", "lctr2.lemma3"},
     "lctr1.lemma11"),
    # an SG value above the number of moves
    ("lctr", [3, 1], {"sg": 3},
     {"lctr1.lemma12", "lctr1.lemma13", "lctr1.lemma2", "lctr1.lemma4", "lctr1.theorem1", "lctr2.equation3",
      "lctr2.lemma13", "lctr2.lemma4", "lctr2.lemma6", "lctr2.observation5", "lctr2.theorem22"},
     "lctr1.lemma2"),
    # Downright staircase S_3, true value 0
    # (3,2,1) is λ⁻ of (4,2,2): Theorem 9's Equation 7 part too
    ("downright", [3, 2, 1], {"sg": 1}, DOWNRIGHT_SG | {"lctr2.lemma3", "lctr2.theorem9"}, "lctr2.lemma3"),
    # Downright diagonal propagation: SG(D(3,3)) = SG(D((3,3)[1,1])) = SG(D(2)) = 1
    ("downright", [3, 3], {"sg": 0}, DOWNRIGHT_SG | {"lctr2.lemma6"}, "lctr2.lemma10"),
    # (4,2) is λ⁻ of (5,3)
    ("downright", [4, 2], {"sg": 2}, DOWNRIGHT_SG | {"lctr2.lemma6", "lctr2.theorem9"}, "lctr2.theorem11"),
    # a (0,2) pair in LCTR
    ("lctr", [4, 3], {"sg_misere": 2}, {"lctr2.lemma18", "lctr2.lemma6", "lctr2.theorem19"}, "lctr2.lemma18"),
    # misère Downright vs Downright on λ with its corners removed (Theorem 9, Equation 7)
    ("downright", [4, 3], {"sg_misere": 2}, {"lctr1.theorem1", "lctr2.lemma6", "lctr2.theorem9"},
     "lctr2.theorem9"),
    # a wrong conjugate column
    ("lctr", [4, 2, 1], {"conjugate": [3, 3, 1]}, {"lctr1.lemma3", "lctr2.lemma6"}, "lctr1.lemma3"),
    # node and leaf counts
    ("downright", [4, 4], {"nodes": 1},
     {"lctr2.corollary23", "lctr2.lemma24", "lctr2.lemma6", "lctr2.table1"}, "lctr2.lemma24"),
    ("lctr", [5, 5], {"leaves": 1}, LEAVES, "lctr2.lemma26"),
    ("lctr", [6], {"leaves": 1}, LEAVES, "lctr2.lemma25"),
    ("downright", [4, 2, 1], {"nodes": 999}, {"lctr2.corollary23", "lctr2.lemma6"}, "lctr2.corollary23"),
    # more nodes than the square (3^3) among the partitions of 9: a conjecture discovery
    ("lctr", [5, 4], {"nodes": 1_000_000}, {"lctr2.conjecture27", "lctr2.corollary23", "lctr2.lemma6"},
     "lctr2.conjecture27"),
    # state counts
    ("lctr", [4, 2, 1], {"states": 99},
     {"lctr1.corollary18", "lctr1.lemma19", "lctr2.lemma6", "lctr2.proposition28"}, "lctr1.corollary18"),
    ("lctr", [4, 4], {"states": 8}, {"lctr1.lemma19", "lctr2.lemma6", "lctr2.table1"}, "lctr1.lemma19"),
    ("lctr", [3, 2, 1], {"states": 2}, {"lctr2.proposition28", "lctr2.table1"}, "lctr2.proposition28"),
    # flags
    ("lctr", [6, 1, 1], {"domestic": False}, {"lctr2.lemma6", "lctr2.theorem19"}, "lctr2.theorem19"),
    ("downright", [5, 4, 2, 1, 1], {"tame": True},
     {"lctr2.lemma6", "lctr2.theorem19_not_tame_not_forced"}, "lctr2.theorem19_not_tame_not_forced"),
    ("downright", [5, 3, 2, 2, 1], {"forced": True},
     {"lctr2.lemma6", "lctr2.theorem19_not_tame_not_forced"}, "lctr2.theorem19_not_tame_not_forced"),
    # only conjugation invariance looks at the height
    ("lctr", [4, 1], {"height": 0}, {"lctr2.lemma6"}, "lctr2.lemma6"),
]


@pytest.mark.parametrize(
    ("game", "parts", "columns", "expected", "shows"), PLANTS,
    ids=[f"{p[0]}-{'.'.join(map(str, p[1]))}-{'-'.join(p[2])}" for p in PLANTS],
)
def test_planted_error_is_reported(small_store: Path, plant, verify_ids, game: str, parts: list[int],
                                   columns: dict, expected: set[str], shows: str) -> None:
    planted = plant(small_store, game, parts, **columns)
    results = verify_ids(planted, SELECT)
    assert failing(results) == expected
    assert shows in expected
    assert any(ex.get("parts") == parts for ex in results[shows]["examples"]), results[shows]["examples"]


def test_plants_cover_a_third_of_the_catalogue(baseline: dict[str, dict]) -> None:
    covered = set().union(*(p[3] for p in PLANTS))
    assert covered <= set(baseline)
    assert 3 * len(covered) >= len(baseline)
