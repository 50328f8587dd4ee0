"""verify's engine: the shared scan of the statements in the predicate form, follower statements
chunk by chunk of subject n, bounded memory, progress, and damaged stores (queries/FORMAT.md)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from harness import cli

from pipeline.query import connect
from pipeline.storage import COMPLETE, record_checksum
from pipeline.verify import (
    Statement,
    StatementError,
    fused_counts,
    load_catalogue,
    parse_statement,
    run_statement,
    verify,
)

KEYS = ("status", "rows", "min_n", "max_n", "counterexamples", "printed_counterexamples")


def _fusable() -> list[Statement]:
    return [st for st in load_catalogue() if st.fusable]


def _same(con: duckdb.DuckDBPyConnection, statements: list[Statement], chunk_records: int) -> set[str]:
    """The ids of the statements whose shared-scan result differs from the one they get alone;
    and which of them have counterexamples."""
    fused = fused_counts(con, statements, chunk_records=chunk_records)
    assert set(fused) == {st.id for st in statements}
    failing = set()
    for st in statements:
        alone = run_statement(con, st).as_dict()
        shared = run_statement(con, st, fused[st.id]).as_dict()
        assert {k: shared.get(k) for k in KEYS} == {k: alone.get(k) for k in KEYS}, st.id
        assert shared["examples"] == alone["examples"], st.id
        if alone["counterexamples"]:
            failing.add(st.id)
    return failing


def test_catalogue_has_statements_in_the_predicate_form() -> None:
    ids = {st.id for st in _fusable()}
    assert {"chess.table1_downright", "chess.thm4_9", "lctr1.lemma2", "lctr1.lemma11"} <= ids


def test_shared_scan_equals_each_statement_alone(small_store: Path) -> None:
    """Every statement in the predicate form counts the same rows, n range, counterexamples and
    printed-form counterexamples in the shared scan (in chunks of n of 2,000 records, so that
    the sums over chunks are exercised) as when it runs alone."""
    con = connect(small_store)
    assert _same(con, _fusable(), chunk_records=2_000) == set()


def test_shared_scan_equals_alone_with_counterexamples(small_store: Path, plant) -> None:
    """On planted records (a downright sub-partition of a generalized staircase not pet, an LCTR
    staircase with the wrong value) the statements that fail fail alike, with the same counts
    and examples."""
    store = plant(small_store, "downright", [4, 4, 2, 2], pet=False, sg=3)
    store = plant(store, "lctr", [3, 2, 1], sg=0)
    failing = _same(connect(store), _fusable(), chunk_records=5_000)
    assert {"chess.table1_downright", "chess.thm4_9", "lctr1.lemma2", "lctr1.lemma11"} <= failing


def test_shared_scan_reads_each_game_once_per_chunk(small_store: Path) -> None:
    """ONE query per game and chunk of n, whatever the number of statements about the game."""
    con = connect(small_store)
    seen: list[str] = []

    class Spy:
        def execute(self, sql: str, *args):
            if "GROUP BY ALL" in sql and "WHERE false" not in sql:  # a scan's count (scan_counts)
                seen.append(sql)
            return con.execute(sql, *args)

        def sql(self, *args):  # the gathered passes' reads of records (no scan's count)
            return con.sql(*args)

        def register(self, *args):
            return con.register(*args)

        def unregister(self, *args):
            return con.unregister(*args)

    statements = _fusable()
    fused_counts(Spy(), statements, chunk_records=10**9)
    # a scan of the records of each game with record statements (two where some read a list
    # column, parts or conjugate, and others not: record_scans), and a join pass of the
    # gathered neighbourhoods of each game with follower statements (n <= 14: one chunk); a game without
    # records in the store (d-dimensional LCTR here) is not scanned
    present = {g for (g,) in con.execute("SELECT DISTINCT game FROM jobs").fetchall()}
    passes = {(g, st.needs) for st in statements for g in st.games if g in present}
    lists_read = r"\b(parts|conjugate|corners|row_lengths)\b"  # the list columns of a record
    lists = {g for st in statements if st.needs == "record" for g in st.games
             if any(re.search(lists_read, f"{c.where} {c.check}") for c in st.clauses)}
    plain = {g for st in statements if st.needs == "record" for g in st.games
             if not any(re.search(lists_read, f"{c.where} {c.check}") for c in st.clauses)}
    assert len(seen) == len(passes) + len(lists & plain & present)
    followers = {g for g, needs in passes if needs == "followers"}
    assert sum("_neighbourhood_rows" in q for q in seen) == len(followers)  # the gathered passes


def test_predicate_form_is_checked(tmp_path: Path) -> None:
    head = ("-- id: x.y\n-- source: s\n-- kind: lemma\n-- statement: s\n-- covers: lctr\n"
            "-- games: lctr\n-- assert: sg <= 2\n")
    (tmp_path / "a.sql").write_text(head)
    st = parse_statement(tmp_path / "a.sql")
    assert st.fusable and st.header["domain"] == 'SELECT n FROM "lctr" WHERE ((true))'
    (tmp_path / "b.sql").write_text(head + "SELECT 1\n")
    with pytest.raises(StatementError, match="has no query"):
        parse_statement(tmp_path / "b.sql")
    (tmp_path / "c.sql").write_text(head.replace("lemma", "erratum"))
    with pytest.raises(StatementError, match="needs a 'printed' predicate"):
        parse_statement(tmp_path / "c.sql")
    (tmp_path / "d.sql").write_text(head + "-- needs: same n\n")
    with pytest.raises(StatementError, match="needs: record"):
        parse_statement(tmp_path / "d.sql")
    (tmp_path / "e.sql").write_text(head + "-- needs: followers\n")
    st = parse_statement(tmp_path / "e.sql")
    assert st.fusable and st.header["domain"] == (
        "SELECT n FROM neighbourhood('lctr') WHERE verify_subject(n) AND ((true))")


def test_missing_witnesses_are_reported_sorted(small_store: Path, tmp_path: Path) -> None:
    """The witnesses a statement lacks are named in one order whatever order its query returns
    them in (a `SELECT DISTINCT`'s, a cluster worker's), alone and in the shared scan."""
    witnesses = ("SELECT * FROM (VALUES ('rook [9, 9]', false), ('king [1]', true), "
                 "('bishop [8]', false), ('lctr [99]', false)) AS w(witness, present)")
    (tmp_path / "w.sql").write_text(
        "-- id: x.w\n-- source: s\n-- kind: theorem\n-- statement: s\n-- covers: lctr\n"
        f"-- games: lctr\n-- assert: sg <= 2\n-- witnesses: {witnesses}\n")
    st = parse_statement(tmp_path / "w.sql")
    con = connect(small_store)
    fused = fused_counts(con, [st])[st.id]
    for result in (run_statement(con, st), run_statement(con, st, fused)):
        assert result.status == "partial"
        assert result.missing_witnesses == ["bishop [8]", "lctr [99]", "rook [9, 9]"]


# A follower statement of the form the catalogue's use: subjects restricted by verify_subject(n),
# each joined to a record at smaller n (its first row removed); many counterexamples, so that the
# sums over chunks are exercised.
SUBJECT = """-- id: test.subject
-- source: test
-- kind: conjecture
-- statement: removing the first row keeps the SG value
-- covers: lctr
-- needs: followers
-- domain: SELECT n FROM lctr WHERE verify_subject(n) AND num_parts >= 2
SELECT a.n, a.parts, a.sg, b.sg AS rest_sg
FROM lctr AS a LEFT JOIN lctr AS b ON b.parts = a.parts[2:]
WHERE verify_subject(a.n) AND a.num_parts >= 2 AND b.sg IS DISTINCT FROM a.sg
"""


def _whole_and_chunked(con: duckdb.DuckDBPyConnection, st: Statement, chunk_records: int,
                       monkeypatch) -> tuple[dict, dict, list[tuple[int, int]]]:
    """``st``'s result in one chunk, its result in chunks of ``chunk_records``, and those chunks."""
    import pipeline.verify as verify_module

    whole = verify_module.run_statement(con, st, chunk_records=10**12).as_dict()
    chunks: list[tuple[int, int]] = []
    original = verify_module.subject_chunks

    def spy(*args):
        chunks.extend(original(*args) or [])
        return original(*args)

    monkeypatch.setattr(verify_module, "subject_chunks", spy)
    chunked = verify_module.run_statement(con, st, chunk_records=chunk_records).as_dict()
    return whole, chunked, chunks


def test_follower_statement_runs_n_by_n(small_store: Path, tmp_path: Path, monkeypatch) -> None:
    """Chunk by chunk of subject n (variables subject_min_n/subject_max_n, views cut to
    n <= subject_max_n) the result is the one of a single pass; the chunks really are several."""
    (tmp_path / "s.sql").write_text(SUBJECT)
    st = parse_statement(tmp_path / "s.sql")
    con = connect(small_store)
    whole, chunked, chunks = _whole_and_chunked(con, st, 100, monkeypatch)
    assert len(chunks) == 5 and chunks[-1] == (14, 14)
    assert {k: chunked.get(k) for k in KEYS} == {k: whole.get(k) for k in KEYS}
    assert chunked["examples"] == whole["examples"] and whole["counterexamples"] > 100
    # the variables are gone afterwards: ad-hoc SQL sees every record
    assert con.execute("SELECT count(*) FROM lctr WHERE verify_subject(n)").fetchone()[0] == \
        con.execute("SELECT count(*) FROM lctr").fetchone()[0]


def test_same_n_statement_runs_n_by_n(small_store: Path, plant, tmp_path: Path,
                                      monkeypatch) -> None:
    """A same-n statement restricted by verify_subject(n) (chess.obs3_4: each piece's record
    against its conjugate's) runs chunk by chunk of n with the views cut to the chunk's n only:
    the result is the one of a single pass, a planted value is still found, and a chunk's views
    hold no record outside its n."""
    import pipeline.verify as verify_module

    store = plant(small_store, "queen", [2, 2, 2], sg=1)  # its conjugate (3, 3) keeps sg 0
    con = connect(store)
    st = load_catalogue(select=["chess.obs3_4"])[0]
    whole, chunked, chunks = _whole_and_chunked(con, st, 500, monkeypatch)
    assert len(chunks) > 3 and chunks[-1] == (14, 14)
    assert {k: chunked.get(k) for k in KEYS} == {k: whole.get(k) for k in KEYS}
    assert chunked["examples"] == whole["examples"] and whole["counterexamples"] == 1
    assert (whole["examples"][0]["parts"], whole["examples"][0]["conjugate"]) == ([3, 3], [2, 2, 2])
    # a chunk's views hold its n only: no record of a smaller n is seen beside a subject
    (tmp_path / "o.sql").write_text(
        "-- id: test.outside\n-- source: test\n-- kind: lemma\n-- statement: s\n-- covers: lctr\n"
        "-- needs: same n\n-- domain: SELECT n FROM lctr WHERE verify_subject(n)\n"
        "SELECT n FROM downright WHERE NOT verify_subject(n)\n")
    outside = parse_statement(tmp_path / "o.sql")
    assert verify_module.run_statement(con, outside, chunk_records=500).counterexamples == 0
    assert verify_module.run_statement(con, outside, chunk_records=10**12).counterexamples == 0


def test_verify_memory_limit_defaults_to_3gb(small_store: Path, monkeypatch, capsys) -> None:
    import pipeline.verify as verify_module

    seen: list[dict] = []
    original = verify_module.connect

    def spy(*args, **kwargs):
        seen.append(kwargs["settings"])
        con = original(*args, **kwargs)
        seen.append(con.execute("SELECT current_setting('memory_limit'), "
                                "current_setting('preserve_insertion_order')").fetchone())
        return con

    monkeypatch.setattr(verify_module, "connect", spy)
    code, _, _ = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                     "--report", "-")
    assert code == 0 and seen[0]["memory_limit"] == "3GB" and seen[1][0].startswith("2.7 GiB")
    assert seen[1][1] is False
    code, _, _ = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                     "--report", "-", "--memory-limit", "8GB")
    assert code == 0 and seen[2]["memory_limit"] == "8GB"
    with pytest.raises(SystemExit):
        cli(capsys, "verify", "--help")
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps the help
    assert "default 3GB" in out and "stays under 4 GB" in out


def test_progress_bars_on_standard_error(small_store: Path, capsys) -> None:
    verify(small_store, ["lctr1.lemma2", "lctr1.lemma11", "lctr1.lemma3", "lctr2.theorem22"], progress=True)
    err = capsys.readouterr().err
    assert "lctr records: 2 statements" in err and "downright records: 1 statements" in err
    assert "neighbourhoods: 1 statements" in err  # lctr1.lemma3 reads T(λ) and L(λ)
    assert "lctr2.theorem22" in err and "rec" in err  # a statement alone: its own bar


def _rot(store: Path, game: str, n: int) -> None:
    """Bit rot that keeps the size, inode and ctime of a file: its bytes change (one record's sg)
    but its commit record still has the old SHA-256 and the new ctime."""
    job = store / f"game={game}" / f"n={n}"
    f = sorted(job.glob("*.parquet"))[0]
    table = pq.read_table(f)
    con = duckdb.connect()
    con.register("t", table)
    new = con.sql("SELECT * REPLACE (CASE WHEN parts = [n]::SMALLINT[] THEN 2 ELSE sg END AS sg) "
                  "FROM t").to_arrow_table().cast(table.schema)
    pq.write_table(new, f)
    record = json.loads((job / COMPLETE).read_text())
    st = f.stat()
    for entry in record["files"]:
        if entry["name"] == f.name:
            entry.update(bytes=st.st_size, ino=st.st_ino, ctime_ns=st.st_ctime_ns)
    record["checksum"] = record_checksum(record)
    (job / COMPLETE).write_text(json.dumps(record, sort_keys=True))


def test_bit_rot_is_damage_not_a_failure(small_store: Path, tmp_path: Path, capsys) -> None:
    """A file whose bytes changed while its ctime did not: verify hashes what it reads, leaves
    that (game, n) out, checks the rest, names it in the summary and exits 3 (not 1: no
    statement fails)."""
    store = tmp_path / "results"
    shutil.copytree(small_store, store)
    _rot(store, "lctr", 9)
    code, out, err = cli(capsys, "verify", "--results", str(store), "--only", "lctr1.lemma5",
                         "--only", "lctr1.lemma2", "--report", "-")
    assert code == 3, out
    assert "2 statements: 2 hold" in out
    assert "DAMAGED: 1 (game, n) of the store are damaged and were not checked (lctr n=9)" in out
    assert "game=lctr n=9" in err and "SHA-256" in err


def test_damaged_store_checks_the_rest(small_store: Path, tmp_path: Path, capsys) -> None:
    store = tmp_path / "results"
    shutil.copytree(small_store, store)
    for f in (store / "game=downright" / "n=12").glob("*.parquet"):
        f.unlink()
    code, out, _ = cli(capsys, "verify", "--results", str(store), "--only", "lctr1.lemma2", "--report", "-")
    assert code == 3 and "lctr1.lemma2" in out and " holds " in out
    assert "DAMAGED: 1 (game, n)" in out and "(downright n=12)" in out


def test_verify_on_a_cluster_equals_a_local_verify(small_store: Path, tmp_path: Path, capsys) -> None:
    """A real scheduler and two workers (processes): `verify --scheduler` reports what a local
    verify reports, statement by statement (the shared scan split into ranges of n, the other
    statements one task each)."""
    pytest.importorskip("distributed")
    from test_cluster import Cluster

    store = small_store
    only = ["lctr1.*", "chess.table1_*", "chess.thm3_8", "lctr2.theorem19", "lctr2.lemma6"]
    args = [a for pat in only for a in ("--only", pat)]
    code, _, _ = cli(capsys, "verify", "--results", str(store), *args, "--format", "json", "--report",
                     str(tmp_path / "local.md"))
    local = json.loads((tmp_path / "local.json").read_text())["results"]
    cluster = Cluster(tmp_path)
    try:
        cluster.add_worker()
        cluster.add_worker()
        cluster.wait_for_workers(2)
        code2, _, _ = cli(capsys, "verify", "--results", str(store), *args, "--format", "json",
                          "--report", str(tmp_path / "cluster.md"), "--scheduler", cluster.address)
    finally:
        cluster.stop()
    remote = json.loads((tmp_path / "cluster.json").read_text())["results"]
    assert code == code2 == 0

    def key(r: dict) -> dict:
        return {k: r.get(k) for k in (*KEYS, "id", "kind", "examples", "skipped", "missing_witnesses")}

    assert [key(r) for r in remote] == [key(r) for r in local]
    assert len(local) > 20


def _in_place_pairs(store: Path, monkeypatch) -> duckdb.DuckDBPyConnection:
    import pipeline.query
    monkeypatch.setattr(pipeline.query, "MATERIALIZE_BELOW", 0)  # read in place, as a large store is
    return connect(store)


def test_pairs_read_in_place_equal_the_join_on_keys(small_store: Path, monkeypatch) -> None:
    """lctr_downright pairs the records of each n position by position (a positional scan of the
    two games' files) and holds exactly what the join on (n, ordinal) gives."""
    con = _in_place_pairs(small_store, monkeypatch)
    plan = "\n".join(r[1] for r in con.execute("EXPLAIN SELECT * FROM lctr_downright").fetchall())
    assert "Positional" in plan
    cols = ", ".join(f"{g[0]}.{c} AS {g}_{c}" for g in ("lctr", "downright")
                     for c in ("sg", "sg_misere", "nodes", "leaves", "states", "height", "domestic",
                               "tame", "pet", "miserable", "forced", "returnable"))
    joined = (f"SELECT l.n, l.ordinal, l.parts, {cols}, true AS aligned "
              "FROM lctr l JOIN downright d ON d.n = l.n AND d.ordinal = l.ordinal")
    (pairs,), = con.execute("SELECT count(*) FROM lctr_downright").fetchall()
    (records,), = con.execute("SELECT count(*) FROM lctr").fetchall()
    assert pairs == records > 0
    for a, b in (("SELECT * FROM lctr_downright", joined), (joined, "SELECT * FROM lctr_downright")):
        (extra,), = con.execute(f"SELECT count(*) FROM ({a} EXCEPT ALL {b})").fetchall()
        assert extra == 0


def test_pairs_out_of_step_are_counterexamples(small_store: Path, tmp_path: Path, monkeypatch) -> None:
    """Files whose rows do not pair up (the same row counts, another order) never pass a pair
    statement: the rows are counterexamples with ``aligned`` false."""
    from conftest import recommit
    store = tmp_path / "results"
    shutil.copytree(small_store, store)
    job = store / "game=downright" / "n=12"
    f = sorted(job.glob("*.parquet"))[0]
    table = pq.read_table(f)
    pq.write_table(table.take(list(reversed(range(table.num_rows)))), f)
    recommit(job)
    con = _in_place_pairs(store, monkeypatch)
    (out_of_step,), = con.execute("SELECT count(*) FROM lctr_downright WHERE NOT aligned").fetchall()
    assert out_of_step == table.num_rows - table.num_rows % 2
    for sid in ("lctr2.lemma7", "lctr2.theorem9_lctr", "lctr2.corollary23"):
        st, = load_catalogue(select=[sid])
        r = run_statement(con, st).as_dict()
        assert r["status"] == "fails" and r["counterexamples"] >= out_of_step, sid
        assert all(ex["n"] == 12 and ex["aligned"] is False for ex in r["examples"]), sid


def test_a_scan_of_many_predicates_counts_each(small_store: Path) -> None:
    """More predicates than one packed 64-bit word holds (scan_counts): each statement's counts
    equal its own count(*) queries, written here from its where and assert."""
    from pipeline.verify import scan_counts

    con = connect(small_store)
    sts = []
    for k in range(1, 31):  # 30 statements of two clauses: 90 bits, two words
        text = (f"-- id: test.many{k}\n-- source: none\n-- kind: observation\n-- statement: x\n"
                f"-- covers: lctr\n-- needs: record\n-- games: lctr\n-- where: n % {k} = 0\n"
                f"-- assert: sg < {k % 3}\n-- where_2: num_parts >= {k % 5}\n-- assert_2: height > {k}\n")
        sts.append(parse_statement(Path(f"many{k}.sql"), text))
    counted = scan_counts(con, sts, "lctr", "lctr")
    for k, (rows, lo, hi, count, printed) in enumerate(counted, start=1):
        w1, w2 = f"n % {k} = 0", f"num_parts >= {k % 5}"
        expected = con.execute(
            f"SELECT count(*) FILTER (WHERE ({w1}) OR ({w2})), min(n) FILTER (WHERE ({w1}) OR ({w2})), "
            f"max(n) FILTER (WHERE ({w1}) OR ({w2})), "
            f"count(*) FILTER (WHERE ({w1}) AND NOT (sg < {k % 3})) "
            f"+ count(*) FILTER (WHERE ({w2}) AND NOT (height > {k})) FROM lctr").fetchall()[0]
        assert (rows, lo, hi, count) == expected, k
        assert printed is None


def test_a_predicate_shared_by_statements_counts_for_each(tmp_path: Path) -> None:
    """Two statements with the same clause (one bit of the shared scan) and a third with its
    own each count their own failures: those of the records written here."""
    from pipeline.verify import scan_counts

    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT range % 5 + 1 AS n, range % 7 AS sg FROM range(70)")
    head = "-- id: x.{}\n-- source: s\n-- kind: lemma\n-- statement: s\n-- covers: lctr\n-- games: lctr\n"
    texts = {"a": "-- assert: sg <= 4\n", "b": "-- assert: sg <= 4\n-- label_2: two\n-- assert_2: sg <= 5\n",
             "c": "-- where: n > 2\n-- assert: sg <= 4\n"}
    sts = []
    for name, body in texts.items():
        (tmp_path / f"{name}.sql").write_text(head.format(name) + body)
        sts.append(parse_statement(tmp_path / f"{name}.sql"))
    counted = scan_counts(con, sts, "lctr", "t")
    # sg 5 and 6 fail sg <= 4 (20 records), sg 6 fails sg <= 5 (10); n > 2 holds 42 records,
    # 12 of them with sg 5 or 6
    assert [(rows, count) for rows, _, _, count, _ in counted] == [(70, 20), (70, 30), (42, 12)]
