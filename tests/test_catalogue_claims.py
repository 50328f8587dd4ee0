"""Statements check all they claim: each test shows a record that a weaker form would let pass.

- slownim.theorem2-3 checks NIRB against the paper's play definition (every stack emptied by some
  play), not the stored `reduced` column against the NIRB formula that computes it.
- Flag statements hold each record's flag to the pair (sg, sg_misere) it summarises, not only
  the stored flags.
- lctr2.corollary23 does not count records with NULL counts (which it does not check) as examined.
- Existence claims held with witnesses absent: they are `partial` or `no data`.
- Kinds: a difference of counting model is no erratum; every erratum is listed in ERRATA.md.

Wrong values are planted in the views a statement reads (a CTE of the view's name around the
store's view), and the weaker form of a statement is its query without the condition that checks the claim.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import duckdb

from pipeline.query import connect, queries_dir
from pipeline.verify import Statement, load_catalogue, run_statement


def _one(statement_id: str) -> Statement:
    (st,) = load_catalogue(select=[statement_id])
    return st


def _shadow(con: duckdb.DuckDBPyConnection, st: Statement, view: str, replace: str) -> Statement:
    """``st`` reading ``view`` with ``SELECT * REPLACE (replace)`` applied to it."""
    db, schema = con.execute("SELECT database_name, schema_name FROM duckdb_views() "
                             f"WHERE view_name = '{view}' ORDER BY temporary DESC").fetchall()[0]

    def wrap(q: str | None) -> str | None:
        if q is None:
            return None
        return (f'WITH "{view}" AS (SELECT * REPLACE ({replace}) FROM "{db}"."{schema}"."{view}") '
                f"SELECT * FROM ({q})")

    header = dict(st.header, domain=wrap(st.header["domain"]), needs="record")
    if "witnesses" in header:
        header["witnesses"] = wrap(header["witnesses"])
    return dataclasses.replace(st, header=header, query=wrap(st.query), printed_query=wrap(st.printed_query))


def _at(parts: list[int], column: str, value: str) -> str:
    return f"CASE WHEN parts = {parts}::SMALLINT[] THEN {value} ELSE {column} END AS {column}"


def test_theorem2_3_checks_nirb_against_play(small_store: Path) -> None:
    """A store and a macro agreeing on a wrong NIRB (a·max < Σ instead of <=): the weaker statement,
    which compared the one with the other, holds; the play definition does not."""
    con = connect(small_store)
    con.execute("CREATE OR REPLACE MACRO is_nim_reduced(parts, a) AS "
                "a::BIGINT * coalesce(list_max(parts), 0) < coalesce(list_sum(parts), 0)")
    wrong = "is_nim_reduced(parts, moves[1]) AS reduced"
    new = run_statement(con, _shadow(con, _one("slownim.theorem2-3"), "slownim", wrong))
    old_query = ("SELECT game, n, parts FROM slownim WHERE stacks >= 3 AND (reduced IS DISTINCT FROM "
                 "is_nim_reduced(parts, moves[1]))")
    old = con.sql(f"WITH slownim AS (SELECT * REPLACE ({wrong}) FROM main.slownim) {old_query}").fetchall()
    assert old == []
    # The strict form errs exactly where a·max = Σ (e.g. (2,2) in SN(3,{2}), whose stacks a play empties)
    boundary = con.execute("SELECT count(*) FROM slownim WHERE stacks >= 3 "
                           "AND moves[1] * list_max(parts) = list_sum(parts)").fetchall()[0][0]
    assert boundary > 0 and (new.status, new.counterexamples) == ("fails", boundary)
    # on the correct store it holds, over every position of at least 3 stacks
    r = run_statement(connect(small_store), _one("slownim.theorem2-3"))
    assert r.status == "holds" and r.rows == connect(small_store).execute(
        "SELECT count(*) FROM slownim WHERE stacks >= 3").fetchall()[0][0]


def _without_pairs(query: str) -> str:
    """The flag statement as it was: the flags alone (in a query, or in the predicate form's
    written-out query)."""
    return re.sub(r" (OR NOT|AND) pair_(domestic|tame|pet)\(sg, sg_misere\)", "", query)


def test_flag_statements_are_backed_by_the_pairs(small_store: Path) -> None:
    con = connect(small_store)
    def pair(parts: list[int], sg: int, sg_misere: int) -> str:
        return f"{_at(parts, 'sg', str(sg))}, {_at(parts, 'sg_misere', str(sg_misere))}"

    cases = [
        # LCTR (3,1,1) as (0,2): not domestic, while its domestic flag stays true
        ("lctr2.theorem19", "lctr", [3, 1, 1], pair([3, 1, 1], 0, 2)),
        # Rook S(3) as (2,1): not tame, so neither pet nor miserable, while those flags stay true
        ("chess.thm4_8", "rook", [3, 2, 1], pair([3, 2, 1], 2, 1)),
        ("chess.table1_rook", "rook", [3, 2, 1], pair([3, 2, 1], 2, 1)),
    ]
    for sid, view, parts, replace in cases:
        st = _shadow(con, _one(sid), view, replace)
        new = run_statement(con, st)
        assert new.counterexamples >= 1, sid
        assert all(ex["parts"] == parts for ex in new.examples), (sid, new.examples)
        old = run_statement(con, dataclasses.replace(st, query=_without_pairs(st.query)))
        assert (old.status, old.counterexamples) == ("holds", 0), sid
    # every statement named in the catalogue's flag claims reads the pairs
    for sid in ("lctr2.theorem19", "chess.thm4_8", "chess.thm4_9", "chess.thm4_10", "chess.thm4_14",
                "chess.table1_bishop", "chess.table1_downright", "chess.table1_king", "chess.table1_knight",
                "chess.table1_pawn", "chess.table1_queen", "chess.table1_rook"):
        assert "pair_" in _one(sid).query, sid


def test_corollary23_counts_only_records_it_checks(small_store: Path) -> None:
    con = connect(small_store)
    st = _shadow(con, _one("lctr2.corollary23"), "lctr_downright", _at([4, 4], "lctr_nodes", "NULL"))
    planted = run_statement(con, st)
    whole = run_statement(con, _one("lctr2.corollary23"))
    assert planted.status == "holds"
    assert (planted.rows, planted.skipped) == (whole.rows - 1, 1)
    assert whole.skipped == 0


def test_witness_claims_are_partial_while_witnesses_are_absent(tmp_path: Path) -> None:
    """Theorem 4.15 at n <= 17: one witness, Rook (5,4,4,4), of six is in the store."""
    from pipeline.runner import run

    run(["rook"], max_n=17, out=str(tmp_path / "r"), jobs=1, progress=False)
    con = connect(tmp_path / "r")
    st = _one("chess.thm4_15")
    r = run_statement(con, st)
    assert (r.status, r.rows, r.counterexamples) == ("partial", 1, 0)
    assert len(r.missing_witnesses) == 5 and "rook [5, 4, 4, 4]" not in r.missing_witnesses
    # without its witness list the statement held on that one record
    header = {k: v for k, v in st.header.items() if k != "witnesses"}
    assert run_statement(con, dataclasses.replace(st, header=header)).status == "holds"


def test_kinds_and_the_errata_list() -> None:
    statements = load_catalogue()
    errata = {st.id for st in statements if st.kind == "erratum"}
    listed = set(re.findall(r"^\| `([a-z0-9_.\-]+)` \|", (queries_dir() / "ERRATA.md").read_text(), re.M))
    assert listed == errata
    assert "lctr2.equation4" in errata
    assert _one("slownim.section2-3-game-trees").kind == "model"
