"""The command line: bad input is one line on stderr and exit status 2, each command loads
only what it uses, Ctrl-C says what it left."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from harness import cli

import pipeline.runner as runner


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--games", "lctr,nosuchgame", "--max-n", "5"], "unknown game 'nosuchgame'"),
        (["run", "--games", "lctr", "--min-n", "5", "--max-n", "3"], "--max-n (3) is below --min-n"),
        (["run", "--games", "lctr", "--max-n", "0"], "--max-n must be at least 1 (got 0)"),
        (["run", "--games", "lctr", "--min-n", "0", "--max-n", "3"], "--min-n must be at least 1"),
        (["run", "--games", "lctr", "--max-n", "999"], "beyond the supported bound"),
        (["run", "--games", "{(0,0)}", "--max-n", "3"], "offset (0,0) is not a move"),
        (["run", "--games", "{(-1,2)}", "--max-n", "3"], "down/right"),
        (["run", "--games", "moves_", "--max-n", "3"], "unknown game"),
        (["run", "--games", "{(1,2)", "--max-n", "3"], "unknown game '{(1,2)'"),
        (["run", "--games", "lctr", "--max-n", "3", "--jobs", "0"], "--jobs must be at least 1"),
    ],
)
def test_bad_run_arguments(capsys, tmp_path: Path, args: list[str], message: str) -> None:
    code, out, err = cli(capsys, *args, "--out", str(tmp_path / "results"))
    assert code == 2
    assert message in err and err.count("\n") == 1 and err.startswith("partgames: error:")
    assert not (tmp_path / "results" / "game=lctr").exists()


def test_foreign_and_unwritable_out(capsys, tmp_path: Path) -> None:
    foreign = tmp_path / "thesis"
    foreign.mkdir()
    (foreign / "chapter1.tex").write_text("precious")
    code, _, err = cli(capsys, "run", "--games", "lctr", "--max-n", "3", "--out", str(foreign))
    assert code == 2 and "not a partgames results directory" in err
    assert (foreign / "chapter1.tex").read_text() == "precious" and len(list(foreign.iterdir())) == 1
    afile = tmp_path / "afile"
    afile.write_text("x")
    code, _, err = cli(capsys, "run", "--games", "lctr", "--max-n", "3", "--out", str(afile))
    assert code == 2 and "not a directory" in err
    if os.geteuid() != 0:  # root can write anywhere
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        code, _, err = cli(capsys, "run", "--games", "lctr", "--max-n", "3", "--out", str(ro / "r"))
        assert code == 2 and "cannot write" in err


def test_run_takes_results_as_the_other_commands_do(capsys, tmp_path: Path) -> None:
    """`run --results DIR` writes where `verify --results DIR` reads (and `--out` stays)."""
    code, _, _ = cli(capsys, "run", "--games", "lctr", "--max-n", "3", "--quiet", "--results",
                     str(tmp_path / "r"))
    assert code == 0 and (tmp_path / "r" / "game=lctr" / "n=3").is_dir()
    code, out, _ = cli(capsys, "sql", "--results", str(tmp_path / "r"), "SELECT count(*) AS k FROM lctr")
    assert code == 0 and "6" in out  # p(1) + p(2) + p(3)


def test_each_command_loads_only_what_it_uses(small_store: Path, tmp_path: Path) -> None:
    """sql, verify and search read a store without numba (0.3 s of every query's start), and a
    run writes one without DuckDB; a SQL error is still one line when nothing imported DuckDB
    before the command did."""
    probe = (
        "import sys\n"
        "from pipeline.cli import main\n"
        "code = main(sys.argv[2:])\n"
        "print(code, *sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'duckdb'}))\n"
    )

    def loaded(*args: str) -> tuple[str, str]:
        r = subprocess.run([sys.executable, "-c", probe, "-", *args], capture_output=True, text=True,
                           cwd=Path(__file__).resolve().parent.parent)
        return r.stdout.splitlines()[-1], r.stderr

    store = str(small_store)
    assert loaded("sql", "--results", store, "SELECT count(*) FROM lctr")[0] == "0 duckdb"
    assert loaded("verify", "--results", store, "--only", "lctr1.lemma2", "--report", "-")[0] == "0 duckdb"
    assert loaded("search", "--results", store, "min_states", "--max-n", "4")[0] == "0 duckdb"
    line, err = loaded("sql", "--results", store, "SELEC nonsense")
    assert line == "2 duckdb" and err.startswith("partgames: SQL error:") and err.count("\n") == 1
    out = str(tmp_path / "results")
    assert loaded("run", "--games", "lctr", "--max-n", "4", "--out", out, "--quiet")[0] == "0 numba"


def test_sql_and_verify_input_errors_are_one_line(capsys, small_store: Path, tmp_path: Path,
                                                  monkeypatch) -> None:
    """An empty query, a missing @file, an --only that matches nothing (a typo must not read
    as "0 fail") and an unwritable --report (refused before any statement runs) are one-line
    errors with exit status 2."""
    import pipeline.verify as verify_module

    def one_line(code: int, err: str, text: str) -> None:
        assert code == 2 and err.startswith("partgames: error:") and err.count("\n") == 1, err
        assert text in err, err

    code, _, err = cli(capsys, "sql", "--results", str(small_store), "  ")
    one_line(code, err, "the SQL query is empty")
    code, _, err = cli(capsys, "sql", "--results", str(small_store), f"@{tmp_path / 'no.sql'}")
    one_line(code, err, f"No such file or directory: {tmp_path / 'no.sql'}")
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                       "--only", "lctr1.lema3", "--report", "-")
    one_line(code, err, "--only 'lctr1.lema3' matches no statement")
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--only", "chess.thm4.10",
                       "--report", "-")  # a glob: its dots are dots (as a regex it was chess.thm4_10)
    one_line(code, err, "--only 'chess.thm4.10' matches no statement")

    def no_statement_may_run(*args, **kwargs):
        raise AssertionError("a statement ran before the report path was checked")

    monkeypatch.setattr(verify_module, "run_statement", no_statement_may_run)
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                       "--report", str(tmp_path / "missing" / "VERIFY.md"))
    one_line(code, err, f"directory {tmp_path / 'missing'} does not exist")
    code, _, err = cli(capsys, "verify", "--results", str(small_store), "--only", "lctr1.lemma2",
                       "--report", str(tmp_path))
    one_line(code, err, "is a directory")


@pytest.mark.parametrize("command, message", [
    (["run", "--games", "lctr", "--max-n", "6", "--quiet"],
     "partgames: interrupted; finished shards are kept, rerun to resume\n"),
    (["verify", "--only", "lctr1.lemma2", "--report", "-"], "partgames: interrupted\n"),
])
def test_ctrl_c_says_what_it_left(capsys, small_store: Path, tmp_path: Path, monkeypatch,
                                  command: list[str], message: str) -> None:
    """Ctrl-C ends with exit status 130 and one line; only a run has shards to resume."""
    import pipeline.verify as verify_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "solve_all", interrupted)
    monkeypatch.setattr(verify_module, "run_statement", interrupted)
    where = ["--out", str(tmp_path / "r")] if command[0] == "run" else ["--results", str(small_store)]
    code, _, err = cli(capsys, *command, *where)
    assert code == 130 and err == message
