"""`partgames sql` and the DuckDB connection behind every query: output formats, settings,
the n range, spilling."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from harness import cli

import pipeline.runner as runner
from pipeline.partitions import partition_numbers
from pipeline.query import connect


def test_sql_errors_and_formats(capsys, small_store: Path) -> None:
    code, _, err = cli(capsys, "sql", "--results", str(small_store), "SELEC nonsense")
    assert code == 2 and err.startswith("partgames: SQL error:") and err.count("\n") == 1
    code, _, err = cli(capsys, "sql", "--results", str(small_store.parent / "missing"), "SELECT 1")
    assert code == 2 and "does not exist" in err
    q = "SELECT parts, sg, sg_misere FROM lctr WHERE n = 3 ORDER BY parts"
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "json", q)
    assert code == 0
    rows = json.loads(out)
    assert [r["parts"] for r in rows] == [[1, 1, 1], [2, 1], [3]]
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "csv", q)
    assert out.splitlines()[0] == "parts,sg,sg_misere" and len(out.splitlines()) == 4
    code, out, _ = cli(capsys, "sql", "--results", str(small_store),
                       "SELECT game, count(*) c FROM records GROUP BY game ORDER BY game")
    assert code == 0 and "lctr" in out and "queen" in out
    # the helper macros are loaded for every query
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "csv",
                       "SELECT conjugate([3,1]) = [2,1,1]::SMALLINT[] AS ok")
    assert out.splitlines()[1] == "true"


def test_duckdb_memory_limit_and_threads(capsys, small_store: Path, monkeypatch) -> None:
    """--memory-limit and --threads reach DuckDB in sql, verify and search; a value DuckDB
    refuses is a one-line error naming the option, before any statement runs."""
    import pipeline.search as search_module
    import pipeline.verify as verify_module

    q = "SELECT current_setting('memory_limit') AS m, current_setting('threads') AS t"
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "csv",
                       "--memory-limit", "2GiB", "--threads", "1", q)
    assert code == 0 and out.splitlines()[1] == "2.0 GiB,1"
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--format", "csv",
                       "--memory-limit", "25%", q)
    assert code == 0 and out.splitlines()[1].split(",")[0] != "2.0 GiB"
    for args, text in [(["--memory-limit", "lots"], "--memory-limit 'lots'"),
                       (["--threads", "0"], "--threads must be at least 1")]:
        code, _, err = cli(capsys, "sql", "--results", str(small_store), *args, "SELECT 1")
        assert code == 2 and err.startswith("partgames: error:") and err.count("\n") == 1, err
        assert text in err, err
    seen = []
    for module in (verify_module, search_module):
        real = module.connect

        def spy(*a, real=real, **kw):
            con = real(*a, **kw)
            seen.append(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
            return con

        monkeypatch.setattr(module, "connect", spy)
    cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2", "--report", "-",
        "--memory-limit", "3GiB")
    cli(capsys, "search", "--results", str(small_store), "min_states", "--memory-limit", "3GiB")
    assert seen == ["3.0 GiB", "3.0 GiB"]


@pytest.mark.parametrize("in_place", [False, True])
def test_n_range_of_sql_verify(capsys, small_store: Path, plant, monkeypatch, in_place) -> None:
    """--min-n / --max-n keep every view to those n, read in place (large stores) or loaded."""
    import doctest

    import pipeline.query as query

    doctests = doctest.testmod(query)
    assert doctests.attempted > 0 and doctests.failed == 0
    if in_place:
        monkeypatch.setattr(query, "MATERIALIZE_BELOW", 0)
    p = partition_numbers(14)
    code, out, _ = cli(capsys, "sql", "--results", str(small_store), "--min-n", "5", "--max-n", "9",
                       "--format", "json", "SELECT game, min(n) AS lo, max(n) AS hi, count(*) AS c "
                       "FROM records WHERE game IN ('lctr', 'king') GROUP BY game ORDER BY game")
    assert code == 0 and json.loads(out) == [{"game": g, "lo": 5, "hi": 9, "c": sum(p[5:10])}
                                             for g in ("king", "lctr")]
    planted = plant(small_store, "lctr", [3, 3, 1], sg=3)  # n = 7
    for bounds, code_expected, rows in [(("--max-n", "7"), 1, 2 * sum(p[1:8])),
                                        (("--min-n", "8"), 0, 2 * sum(p[8:15]))]:
        code, out, _ = cli(capsys, "verify", "--results", str(planted), "--format", "json",
                           "--only", "lctr1.lemma2", "--report", "-", *bounds)
        (result,) = json.loads(out)
        assert code == code_expected and result["rows"] == rows
        assert (result["min_n"], result["max_n"]) == ((1, 7) if bounds[0] == "--max-n" else (8, 14))
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--min-n", "9", "--max-n", "8")
    assert code == 2 and err.strip() == "partgames: error: --min-n (9) is above --max-n (8)"


def test_the_spill_of_a_killed_process_is_removed_by_the_next_connection(tmp_path: Path) -> None:
    """A spill directory whose process is gone (DuckDB removes its own only on close, and the
    OOM killer left 28 GiB) goes at the next connection to the store; a live process's stays."""
    out = tmp_path / "results"
    runner.run(["lctr"], max_n=4, out=str(out), jobs=1, progress=False)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        stale = tmp_path / f".results.duckdb-spill-{dead.pid}-0"
        live = tmp_path / f".results.duckdb-spill-{alive.pid}-3"
        other = tmp_path / ".results.duckdb-spill-notapid-0"
        for d in (stale, live, other):
            d.mkdir()
            (d / "duckdb_temp_block-1.block").write_bytes(b"x" * 1000)
        connect(out).close()
        assert not stale.exists()
        assert live.exists() and other.exists()
    finally:
        alive.kill()
        alive.wait()


def test_queries_spill_beside_the_store_within_a_limit(capsys, small_store: Path, tmp_path: Path,
                                                       monkeypatch) -> None:
    """DuckDB spills a join that outgrows memory into a directory of the connection's own beside
    the store (not `.tmp/` of the working directory), removed on close, and up to a share of
    the free disk: past it, a one-line error that says to verify fewer n."""
    import duckdb

    import pipeline.query as query

    monkeypatch.chdir(tmp_path)
    con = query.connect(small_store)
    spill = Path(con.execute("SELECT current_setting('temp_directory')").fetchall()[0][0])
    assert spill.parent == small_store.resolve().parent and spill.name.startswith(".results.duckdb-spill-")
    settings = "SET memory_limit = '100MB'; SET threads = 1; SET enable_progress_bar = false"
    con.execute(settings)
    join = "SELECT count(*) FROM range(4000000) a(i) JOIN range(4000000) b(i) ON a.i = b.i"
    assert con.execute(join).fetchall() == [(4000000,)]
    con.close()
    assert not spill.exists() and not (tmp_path / ".tmp").exists()
    monkeypatch.setattr(query, "SPILL_SHARE", 1e-15)  # the 1 MiB floor
    con = query.connect(small_store)
    con.execute(settings)
    with pytest.raises(duckdb.Error) as err:
        con.execute(join).fetchall()
    message = query.explain(err.value)
    assert "\n" not in message and "--max-n" in message


def _views_sql(con, game: str | None = None) -> str:
    rows = con.execute("SELECT sql FROM duckdb_views() WHERE NOT internal "
                       "AND view_name = coalesce(?, view_name)", [game]).fetchall()
    return " ".join(sql for (sql,) in rows)


def test_files_of_one_schema_are_read_as_one(capsys, small_store: Path, tmp_path: Path, monkeypatch) -> None:
    """A run's commit records name their files' schema, and the views read the files of one
    schema without ``union_by_name`` (whose footers of every file DuckDB holds while a query
    runs); a (game, n) of another schema, or of none (an older partgames), is read by name
    beside them, each column where its files have it and NULL elsewhere. ``check --adopt``
    names the schema of those committed without one, from their files' footers."""
    import shutil

    import pyarrow.parquet as pq
    from conftest import recommit

    import pipeline.query as query
    from pipeline.games import get_game
    from pipeline.schema import schema_digest
    from pipeline.storage import COMPLETE

    monkeypatch.setattr(query, "MATERIALIZE_BELOW", 0)
    for commit in small_store.glob(f"game=*/n=*/{COMPLETE}"):
        record = json.loads(commit.read_text())
        assert record["schema"] == schema_digest(get_game(record["game"]).schema), commit
        for f in record["files"]:
            assert pq.read_schema(commit.parent / f["name"]).equals(get_game(record["game"]).schema)
    assert "union_by_name" not in _views_sql(connect(small_store))
    others = sum(partition_numbers(14)[1:]) - partition_numbers(14)[5]
    for stamp in ("another", None):  # a run of another schema; an older partgames's (no digest)
        store = tmp_path / str(stamp) / "results"
        shutil.copytree(small_store, store)
        job = store / "game=king" / "n=5"
        for f in job.glob("*.parquet"):
            pq.write_table(pq.read_table(f).drop_columns(["shape"]), f)
        record = json.loads((job / COMPLETE).read_text())
        record.pop("schema")
        if stamp:
            record["schema"] = stamp
        (job / COMPLETE).write_text(json.dumps(record))
        recommit(job)
        con = connect(store, on_damage=lambda line: None)
        king = _views_sql(con, "king")
        assert ("union_by_name" in king) == (stamp is None) and king.count("read_parquet") == 2
        # the other n's files first in the view: their schema is read as one, then n = 5's by name
        rows = con.execute("SELECT n = 5, count(*), count(shape), count(ordinal) FROM king "
                           "GROUP BY ALL ORDER BY ALL").fetchall()
        assert rows == [(False, others, others, others), (True, 7, 0, 7)]  # p(5) = 7
    # the older store adopted: n = 5 of king gets its own digest, and the views read no file by name
    lctr3 = store / "game=lctr" / "n=3" / COMPLETE
    record = json.loads(lctr3.read_text())
    run_digest = record.pop("schema")
    lctr3.write_text(json.dumps(record))
    recommit(lctr3.parent)
    code, out, _ = cli(capsys, "check", "--adopt", "--results", str(store))
    assert code == 0 and "named the schema of 2 (game, n)" in out
    assert json.loads(lctr3.read_text())["schema"] == run_digest
    con = connect(store, on_damage=lambda line: None)
    assert "union_by_name" not in _views_sql(con) and _views_sql(con, "lctr").count("read_parquet") == 1
    assert con.execute("SELECT n = 5, count(*), count(shape), count(ordinal) FROM king "
                       "GROUP BY ALL ORDER BY ALL").fetchall() == rows
