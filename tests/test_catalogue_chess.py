"""The impartial-chess statement catalogue (queries/chess/) on real records.

Every statement must hold on the small store (n <= 14). Then, for a wrong value planted into one
record, exactly the statements that examine that value must report a counterexample: the planted
record itself, or a record joined to it (its conjugate, a mirror or truncation, a cell of a family
member, a reduction target). The expected sets were derived by hand from the statement texts and
the queries; each comment says why a statement sees the planted value.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.verify import load_catalogue

CHESS = ["chess.*"]


def _reporting(results: dict[str, dict]) -> set[str]:
    return {i for i, r in results.items() if r["counterexamples"] or r["status"] == "error"}


def test_catalogue_parses() -> None:
    statements = load_catalogue(select=CHESS)
    assert len(statements) >= 50
    for st in statements:
        assert st.id.startswith("chess.")
        assert st.path.parent.name == "chess"
        assert st.path.stem == st.id.removeprefix("chess.")
        assert "impartial-chess.txt" in st.header["source"]
        if st.kind == "erratum":
            assert st.printed_query and st.header.get("correction")


def test_every_statement_holds_on_the_small_store(small_store: Path, verify_ids) -> None:
    results = verify_ids(small_store, CHESS)
    assert not [r for r in results.values() if r["status"] == "error"]
    assert _reporting(results) == set()
    # Families and games present for n <= 14 report rows, not "no data".
    for sid in (
        "chess.thm3_8",
        "chess.thm3_16",
        "chess.obs3_4",
        "chess.thm4_4",
        "chess.table1_pawn",
        "chess.cor3_12",
        "chess.prop3_19",
        "chess.lemma3_21",
    ):
        assert results[sid]["status"] == "holds", sid
        assert results[sid]["rows"] > 0, sid
    # An existence claim holds only with all its witnesses: Theorem 4.9's knight witness R(6,5)
    # has n = 30, beyond the store, so the statement is partial and names it.
    w = results["chess.thm4_9_witnesses"]
    assert (w["status"], w["missing_witnesses"]) == ("partial", ["knight [5, 5, 5, 5, 5, 5]"])
    assert w["rows"] > 0
    # Witnesses beyond n = 14 (Theorem 4.15's smallest is (5,4^3), n = 17) give "no data".
    assert results["chess.thm4_15"]["status"] == "no data"
    assert results["chess.fig3"]["status"] == "no data"  # (5,5,3,2,1) has n = 16


@pytest.mark.parametrize(
    "sid",
    [
        "chess.prop3_7",
        "chess.sec4_1_terminal",
        "chess.sec4_1_trunc",
        "chess.lemma3_14_cells",
        "chess.thm4_9_witnesses",
        "chess.sec5_golden",
        "chess.thm4_10_pairs",
        "chess.def3_1_queen",
    ],
)
def test_errata_are_confirmed(small_store: Path, verify_ids, sid: str) -> None:
    """The corrected statement holds and the printed one fails on the small store."""
    r = verify_ids(small_store, [sid])[sid]
    assert r["kind"] == "erratum"
    assert r["counterexamples"] == 0
    assert r["printed_counterexamples"] > 0


# A planted sg or sg_misere also reaches the flag statements of the record's families (Table 1,
# Theorems 4.8-4.12, the hooks of Section 4.2): a flag claim is checked against the pair it
# summarises (pet needs a swap or (k,k) with k >= 2, miserable and tame a swap or (k,k), domestic
# no (k,0), (0,k) with k >= 2), and the planted pair breaks it; these are added with `|` below.
PLANTS = [
    # King R(3,3) is a 0-position. Theorem 3.8; (3,3,3) = R(4,3)[1,0] is a cell of Corollary 3.12;
    # its columns are all odd (Corollary 3.10); Theorem 4.10's witness pair (0,0) (also in Table 1's
    # witnesses); G(1;3,3) with r odd (Conjecture 5.1).
    pytest.param(
        "king",
        [3, 3, 3],
        {"sg": 2},
        {"thm3_8", "cor3_12", "cor3_10", "thm4_10_witnesses", "table1_witnesses", "conj5_1"}
        | {"table1_king", "thm4_10"},
        id="king-R33-sg",
    ),
    # Rook S(3): Lemma 3.23 (k = 3), Corollary 3.20 with l = 0, and it stops being symmetric.
    pytest.param(
        "rook",
        [3, 2, 1],
        {"sg": 1},
        {"lemma3_23", "cor3_20", "thm4_10_pairs"} | {"table1_rook", "thm4_10", "thm4_8"},
        id="rook-S3-sg",
    ),
    # Queen (2,2,2) = Wythoff (1,2), a P-position; its conjugate (3,3) now differs.
    pytest.param("queen", [2, 2, 2], {"sg": 1}, {"sec3_6_wythoff", "obs3_4"}, id="queen-222-sg"),
    # Rook (2,2) = Nim (1,1): Observation 3.15, Theorem 3.16, Lemma 3.17 ((2,2) and (3,3,3) via
    # ampleness of (1) and (2,2)), Lemma 3.18 (row 0 of (2,2) loses its P), G(1;2,2) and cells of
    # G(2;2,2) (Proposition 3.19, Corollary 3.20), the swap (2,2) of Theorem 4.10's proof, and sg 3
    # exceeds the height 2 (Proposition 3.6).
    pytest.param(
        "rook",
        [2, 2],
        {"sg": 3},
        {"obs3_15", "thm3_16", "lemma3_17", "lemma3_18", "prop3_19", "cor3_20", "thm4_10_pairs", "prop3_6"}
        | {"table1_rook", "thm4_12", "thm4_10"},
        id="rook-22-sg",
    ),
    # Downright (2,2) becomes a misère P-position while its truncation (2,1) is an N-position
    # (Theorem 4.4, Corollary 4.5), and (0,0) is not a pair of Theorem 4.9's proof.
    pytest.param(
        "downright",
        [2, 2],
        {"sg_misere": 0},
        {"thm4_4", "cor4_5", "thm4_9_pairs"} | {"table1_downright", "thm4_9"},
        id="downright-22-misere",
    ),
    # Downright (2,2) must equal its mirror (1) (Proposition 3.7); (1,1) is not a pair of Theorem 4.9.
    pytest.param(
        "downright",
        [2, 2],
        {"sg": 1},
        {"prop3_7_downright", "thm4_9_pairs"} | {"table1_downright", "thm4_9"},
        id="downright-22-sg",
    ),
    # nodes is compared only by the conjugation and reduction statements: pawn (3,2) against
    # pawn_t (2,2,1) and against Downright on φ((3,2)) = (3,1).
    pytest.param("pawn", [3, 2], {"nodes": 999}, {"obs3_4", "pawn_reduction"}, id="pawn-32-nodes"),
    # Knight (3,3,2): φ_N gives Downright (2,1); it represents the class of Section 3.2 (its
    # conjugate is itself, so Observation 3.4 compares it with itself).
    pytest.param(
        "knight",
        [3, 3, 2],
        {"leaves": 99},
        {"knight_reduction", "sec3_2_knight_class"},
        id="knight-332-leaves",
    ),
    # Knight (2,2,1) is terminal: the terminal criterion, monotone height ((2,2,1,1) has height 0),
    # its conjugate (3,2), Downright on φ_N = (1), and Theorem 4.4 now sees a non-terminal record
    # whose truncation is empty.
    pytest.param(
        "knight",
        [2, 2, 1],
        {"height": 1},
        {"sec4_1_terminal", "obs3_5", "obs3_4", "knight_reduction", "thm4_4_knight"},
        id="knight-221-height",
    ),
    pytest.param("bishop", [2, 2], {"pet": False}, {"thm4_8", "table1_bishop"}, id="bishop-22-pet"),
    # A column: hooks, rook rectangles (Table 1, Theorem 4.10, S1 of Theorem 4.12), conjugate (4).
    pytest.param(
        "rook",
        [1, 1, 1, 1],
        {"forced": False},
        {"sec4_2_hooks", "table1_rook", "thm4_10", "thm4_12", "obs3_4"},
        id="rook-column-forced",
    ),
    # Queen S(3) = S_(1)^3: Lemmas 3.21, 3.23, the staircase pairs of Theorem 4.8, and it is the
    # truncation λ⁻ of (4,3,2) and (4,3,2,1), which are misère N-positions.
    pytest.param(
        "queen",
        [3, 2, 1],
        {"sg": 0},
        {"lemma3_21", "lemma3_23", "thm4_8_pairs", "thm4_4", "cor4_5"}
        | {"table1_queen", "thm4_11", "thm4_8"},
        id="queen-S3-sg",
    ),
    # King S(4) is a 0-position (Lemma 3.13, Conjecture 5.1 with r = 1); it is λ⁻ of (5,4,3,2).
    pytest.param(
        "king",
        [4, 3, 2, 1],
        {"sg": 1},
        {"lemma3_13", "conj5_1", "thm4_4", "cor4_5"} | {"table1_king", "thm4_9"},
        id="king-S4-sg",
    ),
    # King G(2;2,2): Lemma 3.14 and cell (0,0) of equation (2).
    pytest.param("king", [4, 4, 2, 2], {"sg": 2}, {"lemma3_14", "lemma3_14_cells"}, id="king-G222-sg"),
    # Theorem 4.9's witness (for pawn_t); compared with pawn (4,3) and with Downright φ((4,3)) = (4,2).
    pytest.param(
        "pawn_t",
        [2, 2, 2, 1],
        {"forced": True},
        {"thm4_9_witnesses", "table1_witnesses", "obs3_4", "pawn_reduction"},
        id="pawn_t-2221-forced",
    ),
    pytest.param(
        "queen", [3, 3, 3], {"forced": True}, {"thm4_13_witnesses", "table1_witnesses"}, id="queen-333-forced"
    ),
    # Downright G(2;1,2) = (4,2): witness; conjugate (2,2,1,1); it is φ((4,3)) for pawn and
    # φ((2,2,2,1)') for pawn_t.
    pytest.param(
        "downright",
        [4, 2],
        {"forced": True},
        {"thm4_9_witnesses", "table1_witnesses", "obs3_4", "pawn_reduction"},
        id="downright-42-forced",
    ),
    # Downright S(2): staircase, generalized staircase and hook; φ((2,2)) for both pawns; φ_N of
    # the whole Knight class of (3,3,2).
    pytest.param(
        "downright",
        [2, 1],
        {"pet": False},
        {"table1_downright", "thm4_9", "sec4_2_hooks", "pawn_reduction", "knight_reduction"},
        id="downright-21-pet",
    ),
    # Queen (5): Lemma 3.22, Wythoff (0,4), the golden-ratio bound, Lemma 3.23 (k = 5), a row is a Nim
    # heap (the Queen's moveset), conjugate (1^5), and it is the truncation of (6) and (6,1).
    pytest.param(
        "queen",
        [5],
        {"sg": 0},
        {
            "lemma3_22",
            "sec3_6_wythoff",
            "sec5_golden",
            "lemma3_23",
            "def3_1_queen",
            "obs3_4",
            "thm4_4",
            "cor4_5",
        }
        | {"table1_queen", "sec4_2_hooks", "thm4_11"},
        id="queen-row5-sg",
    ),
    pytest.param("queen", [3, 3], {"sg": 1}, {"sec5_ratio2", "sec3_6_wythoff", "obs3_4"}, id="queen-33-sg"),
    # King R(4,2): even multiplicities (Proposition 3.9), Theorem 3.8, Corollaries 3.10-3.12 (also as
    # the cell (0,1) of R(4,3)), conjugate (4,4), Conjecture 5.2 (G(1;4,2)).
    pytest.param(
        "king",
        [2, 2, 2, 2],
        {"sg": 0},
        {"prop3_9", "thm3_8", "cor3_10", "cor3_11", "cor3_12", "obs3_4", "conj5_2"}
        | {"table1_king", "thm4_10"},
        id="king-R42-sg",
    ),
    # The catalogue's own Table 1 witness (Downright Y+ is not tame); conjugate (5,3,2,2).
    pytest.param(
        "downright",
        [4, 4, 2, 1, 1],
        {"tame": True},
        {"table1_witnesses", "obs3_4"},
        id="downright-44211-tame",
    ),
    # Knight (2,2) is terminal: all Knight records are domestic (Table 1, Theorem 4.14); φ_N = (1).
    pytest.param(
        "knight",
        [2, 2],
        {"domestic": False},
        {"table1_knight", "thm4_14", "knight_reduction"},
        id="knight-22-domestic",
    ),
    pytest.param("queen", [2, 2], {"miserable": False}, {"thm4_11", "table1_queen"}, id="queen-22-miserable"),
    # Queen (4,4) is in S2 (at most 4 columns) and a rectangle; conjugate (2,2,2,2).
    pytest.param(
        "queen",
        [4, 4],
        {"returnable": False},
        {"thm4_13", "thm4_11", "table1_queen", "obs3_4"},
        id="queen-44-returnable",
    ),
    pytest.param(
        "king", [3, 3], {"miserable": False}, {"table1_king", "thm4_10", "obs3_4"}, id="king-33-miserable"
    ),
    # Pawn (3): all partitions (Table 1, Theorem 4.9), pawn_t (1,1,1), Downright φ((3)) = (3).
    pytest.param(
        "pawn",
        [3],
        {"returnable": False},
        {"table1_pawn", "thm4_9", "obs3_4", "pawn_reduction"},
        id="pawn-row3-returnable",
    ),
]


@pytest.mark.parametrize(("game", "parts", "columns", "expected"), PLANTS)
def test_planted_value_is_reported_by_exactly(
    small_store: Path, plant, verify_ids, game: str, parts: list[int], columns: dict, expected: set[str]
) -> None:
    store = plant(small_store, game, parts, **columns)
    results = verify_ids(store, CHESS)
    assert _reporting(results) == {f"chess.{s}" for s in expected}


def test_plants_cover_a_third_of_the_catalogue() -> None:
    covered = set().union(*(p.values[3] for p in PLANTS))
    assert 3 * len(covered) >= len(load_catalogue(select=CHESS))
