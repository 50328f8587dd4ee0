"""Input a hostile or careless user gives the command line: a --keep condition that reaches
beyond the record, game ids and numbers that the kernels or argparse read in ways nobody meant,
and signals at awkward moments. Bad input is one line on stderr, exit status 2, and nothing
created; Ctrl-C is 130 and SIGTERM 143, one line each, whatever the command was doing."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pytest
from harness import assert_store_consistent, cli

from pipeline.keep import KeepError, KeepFilter, condition_connection
from pipeline.schema import BOARD_SCHEMA
from pipeline.storage import COMPLETE

PASSWD = "/etc/passwd"


def one_error_line(err: str) -> bool:
    return err.count("\n") == 1 and err.startswith("partgames: error:") and "Traceback" not in err


# --- --keep: one expression over a record's columns, evaluated locked down -----------------------

HOSTILE_KEEPS = [
    f"(SELECT count(*) FROM read_csv('{PASSWD}')) > 0",
    "(SELECT count(*) FROM glob('/root/*')) >= 0",
    "glob('/root/*') IS NULL",
    "(SELECT count(*) FROM read_parquet('{other}/**/*.parquet')) > 0",
    f"CAST((SELECT string_agg(content) FROM read_text('{PASSWD}')) AS INTEGER) = 1",
    "sg IN (SELECT sg FROM read_parquet('{other}/**/*.parquet'))",
    "EXISTS (SELECT 1)",
    "true) AS keep FROM shard --",
    f"true) AS keep FROM shard UNION ALL SELECT true FROM read_csv('{PASSWD}') --",
    "sg = 0) OR (true",
    "sg = 0; SELECT true",
    "sg = 0 /* a comment */",
    "count(*) > 0",  # an aggregate: one value for a whole shard
    "row_number() OVER () <= 3",  # a window: depends on the shard's other records
]


@pytest.mark.parametrize("condition", HOSTILE_KEEPS)
def test_keep_refuses_all_but_one_expression_and_creates_nothing(capsys, tmp_path: Path, small_store: Path,
                                                                condition: str) -> None:
    out = tmp_path / "results"
    code, stdout, err = cli(capsys, "run", "--games", "lctr", "--max-n", "3", "--out", str(out),
                            "--keep", condition.format(other=small_store), "--quiet")
    assert code == 2 and one_error_line(err), err
    assert "root:" not in err + stdout  # the password file is not printed
    assert not out.exists()


def test_keep_accepts_expressions_over_the_columns_and_macros(capsys, tmp_path: Path) -> None:
    # Parentheses and comment marks inside strings are not structure.
    condition = "(sg = 0 OR is_staircase(parts)) AND ')' <> '(' AND '--' = '--'"
    code, _, err = cli(capsys, "run", "--games", "lctr", "--max-n", "6", "--out", str(tmp_path / "r"),
                       "--keep", condition, "--quiet")
    assert code == 0, err
    code, out, _ = cli(capsys, "sql", "--results", str(tmp_path / "r"), "--format", "csv",
                       "SELECT count(*) FILTER (NOT (sg = 0 OR is_staircase(parts))) AS other, "
                       "count(*) FILTER (is_staircase(parts)) AS staircases FROM lctr")
    assert out.splitlines() == ["other,staircases", "0,3"]  # (1), (2,1), (3,2,1)


def test_the_keep_connection_reads_no_file_and_cannot_be_unlocked() -> None:
    import duckdb

    con = condition_connection()
    with pytest.raises(duckdb.Error, match="disabled"):
        con.execute(f"SELECT count(*) FROM read_csv('{PASSWD}')").fetchall()
    with pytest.raises(duckdb.Error, match="locked"):
        con.execute("SET enable_external_access = true")
    assert con.execute("SELECT is_staircase([3, 2, 1])").fetchall() == [(True,)]  # the macros are there


def test_a_worker_checks_the_condition_it_is_sent() -> None:
    """A cluster worker gets the condition as text (``solve_task``) and evaluates it: it is
    checked there too, not only by the client."""
    table = pa.table({"sg": pa.array([0, 1], pa.int16())})
    with pytest.raises(KeepError, match="subquery"):
        KeepFilter(f"(SELECT count(*) FROM read_csv('{PASSWD}')) > 0").select(table)
    assert KeepFilter("sg = 0").select(table).num_rows == 1


def test_keep_parse_refuses_an_aggregate_before_it_reaches_a_shard() -> None:
    with pytest.raises(KeepError, match="aggregate"):
        KeepFilter.parse("max(sg) > 0", [BOARD_SCHEMA])


# --- game ids: offsets the int16 boards can hold, ASCII digits ----------------------------------

HUGE = "moves_99999999999999999999.1"


@pytest.mark.parametrize("args", [
    ["run", "--games", HUGE, "--max-n", "3"],
    ["run", "--games", "{(1,32768)}", "--max-n", "3"],
    ["run", "--games", "moves_١.٢", "--max-n", "3"],
    ["run", "--games", "sn٥_٤", "--max-n", "3"],
    ["solve", HUGE, "3,1"],
    ["solve", "(40000,1)+", "3,1"],
    ["draw", HUGE, "3,1"],
])
def test_a_game_id_beyond_the_boards_is_one_line(capsys, tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "results"
    extra = ["--out", str(out)] if args[0] in ("run",) else ["--out", str(tmp_path / "x.svg")] \
        if args[0] == "draw" else []
    code, stdout, err = cli(capsys, *args, *extra)
    assert code == 2 and one_error_line(err), err
    assert not out.exists() and not (tmp_path / "x.svg").exists()


def test_the_largest_offset_is_a_move_that_never_applies(capsys, tmp_path: Path, small_store: Path) -> None:
    """(32767, 1) is accepted and, on diagrams of n <= 8, is never a move: the piece is Downright."""
    out = tmp_path / "r"
    code, _, err = cli(capsys, "run", "--games", "moves_0.1_1.0_32767.1", "--max-n", "8", "--out", str(out),
                       "--quiet")
    assert code == 0, err
    from pipeline.query import connect

    mine = connect(out).execute('SELECT parts, sg, sg_misere, nodes, states FROM "moves_0.1_1.0_32767.1" '
                                "ORDER BY n, parts").fetchall()
    theirs = connect(small_store, max_n=8).execute("SELECT parts, sg, sg_misere, nodes, states FROM "
                                                   "downright ORDER BY n, parts").fetchall()
    assert mine == theirs and len(mine) > 50
    code, solved, _ = cli(capsys, "solve", "moves_0.1_1.0_32767.32767+,downright", "5,3,3,1",
                          "--format", "csv")
    assert code == 0
    rows = [line.split(",", 1)[1] for line in solved.splitlines()[1:]]
    assert len(rows) == 2 and rows[0] == rows[1]


# --- numbers: ASCII digits, and no count or bound below its meaning ------------------------------

@pytest.mark.parametrize("args", [
    ["sql", "--max-n", "-5", "SELECT 1"],
    ["sql", "--min-n", "0", "SELECT 1"],
    ["sql", "--threads", "0", "SELECT 1"],
    ["sql", "--max-n", "٣٠", "SELECT 1"],
    ["sql", "--memory-limit", "-5GB", "SELECT 1"],
    ["sql", "--memory-limit", "0GB", "SELECT 1"],
    ["verify", "--max-n", "-1"],
    ["search", "p_positions_per_n", "--min-n", "-3"],
    ["report", "--max-n", "0"],
    ["run", "--games", "lctr", "--lost-workers-timeout", "-1"],
    ["run", "--games", "lctr", "--lost-workers-timeout", "0"],
    ["run", "--games", "lctr", "--lost-workers-timeout", "nan"],
    ["run", "--games", "lctr", "--max-n", "٣"],
    ["run", "--games", "lctr", "--max-n", "3", "--jobs", "٢"],
    ["run", "--games", "lctr", "--max-n", "3", "--shard-records", "0"],
    ["run", "--games", "lctr", "--max-n", "3", "--min-n", "-2"],
    ["solve", "king", "٥,٣"],
    ["draw", "king", "٥,٣"],
    ["run", "--nosuchoption"],
])
def test_a_meaningless_number_is_one_line(capsys, tmp_path: Path, small_store: Path, args: list[str]) -> None:
    where = {"run": ["--out", str(tmp_path / "results")], "draw": ["--out", str(tmp_path / "x.svg")],
             "solve": []}.get(args[0], ["--results", str(small_store)])
    code, stdout, err = cli(capsys, *args, *where)
    assert code == 2 and one_error_line(err), err
    assert stdout == "" and list(tmp_path.iterdir()) == []


def test_a_partitions_file_in_other_digits_is_refused(capsys, tmp_path: Path) -> None:
    listed = tmp_path / "shapes.txt"
    listed.write_text("3,1\n٥,٣\n", encoding="utf-8")
    code, _, err = cli(capsys, "run", "--games", "lctr", "--partitions", str(listed),
                       "--out", str(tmp_path / "chosen"))
    assert code == 2 and one_error_line(err) and "line 2" in err, err
    assert not (tmp_path / "chosen").exists()


# --- signals: Ctrl-C and SIGTERM in one line, at once ----------------------------------------------

#: About ten seconds of two DuckDB threads on this kind of machine: long enough that an ignored
#: signal shows, not so long that a test of a working build waits for it.
LONG_QUERY = "SELECT count(*) FROM range(3000000000) t(x) WHERE hash(x) % 7 = 3"


def _partgames(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.argv[0] = 'partgames'; "
         "from pipeline.cli import main; sys.exit(main())", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("signum, code, word, times", [(signal.SIGINT, 130, "interrupted", 1),
                                                       (signal.SIGTERM, 143, "terminated", 1),
                                                       (signal.SIGINT, 130, "interrupted", 3)])
def test_a_signal_stops_a_multithreaded_sql_query_at_once(small_store: Path, signum: int, code: int,
                                                          word: str, times: int) -> None:
    """Ctrl-C (pressed once, or three times in a row) or SIGTERM: one line at once."""
    p = _partgames("sql", "--results", str(small_store), "--threads", "2", "--format", "csv",
                   f"SELECT 'started' AS s; {LONG_QUERY}")
    try:
        assert p.stdout.readline() == "s\n" and p.stdout.readline() == "started\n"
        time.sleep(1)  # well inside the long query
        sent = time.monotonic()
        for _ in range(times):
            p.send_signal(signum)
            time.sleep(0.01)
        out, err = p.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        p.kill()
    assert (p.returncode, err, out) == (code, f"partgames: {word}\n", ""), (p.returncode, err)
    assert waited < 3, waited


def test_sigterm_stops_a_run_in_one_line_and_it_resumes(capsys, tmp_path: Path) -> None:
    """SIGTERM once the first (game, n) is committed (the run takes the largest n first): the
    run ends as Ctrl-C ends it, and the store holds whole (game, n) only."""
    out = tmp_path / "results"
    p = _partgames("run", "--games", "lctr", "--max-n", "60", "--jobs", "1", "--out", str(out), "--quiet")
    try:
        deadline = time.monotonic() + 60
        while not list(out.glob(f"game=lctr/n=*/{COMPLETE}")) and time.monotonic() < deadline:
            time.sleep(0.02)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 143, err
    assert err.splitlines()[-1] == "partgames: terminated; finished shards are kept, rerun to resume"
    assert "Traceback" not in err
    assert_store_consistent(out)
    done = sorted(int(d.parent.name[2:]) for d in out.glob(f"game=lctr/n=*/{COMPLETE}"))
    assert 60 in done and len(done) < 60
    code, summary, _ = cli(capsys, "run", "--games", "lctr", "--min-n", "60", "--max-n", "60",
                           "--out", str(out), "--quiet")
    assert code == 0 and "(1 already complete)" in summary


def test_sigterm_at_the_prompt_ends_it(capsys, monkeypatch, small_store: Path) -> None:
    import pipeline.shell as shell
    from pipeline.signals import Terminated

    class Terminal:
        def isatty(self) -> bool:
            return True

    def read_line(prompt: str) -> str:
        raise Terminated

    monkeypatch.setattr("sys.stdin", Terminal())
    monkeypatch.setattr(shell, "HISTORY", small_store.parent / "no-history")
    monkeypatch.setattr("builtins.input", read_line)
    code, _, err = cli(capsys, "sql", "--results", str(small_store))
    assert code == 143 and err.splitlines()[-1] == "partgames: terminated"


def test_the_command_leaves_the_signal_handlers_as_it_found_them(capsys, small_store: Path) -> None:
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    cli(capsys, "sql", "--results", str(small_store), "SELECT 1")
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
