"""``partgames sql`` without a query: a script on standard input, or a prompt on a terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import pipeline.shell as shell
from pipeline.cli import main
from pipeline.partitions import partition_numbers


class Stdin(io.StringIO):
    def __init__(self, text: str, tty: bool):
        super().__init__(text)
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def sql_stdin(capsys, monkeypatch, store: Path, text: str, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", Stdin(text, tty=False))
    code = main(["sql", "--results", str(store), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_script_runs_every_statement_on_one_connection(capsys, monkeypatch, small_store: Path) -> None:
    p = partition_numbers(5)
    text = ("CREATE TEMP TABLE small AS SELECT n, parts FROM lctr WHERE n <= 5;\n"
            "SELECT n, count(*) AS c FROM small GROUP BY n ORDER BY n;\n"
            "SELECT ';' AS semicolon, 'a;b' AS inside;\n")
    code, out, err = sql_stdin(capsys, monkeypatch, small_store, text, "--format", "json")
    assert code == 0 and err == ""
    first, second = (json.loads(line) for line in out.splitlines())  # CREATE shows nothing
    assert first == [{"n": n, "c": p[n]} for n in range(1, 6)]  # the temporary table survived
    assert second == [{"semicolon": ";", "inside": "a;b"}]
    code, out, _ = sql_stdin(capsys, monkeypatch, small_store, "SELECT 1 AS x", "-", "--format", "csv")
    assert code == 0 and out.splitlines() == ["x", "1"]
    code, out, err = sql_stdin(capsys, monkeypatch, small_store, " \n")  # a forgotten query
    assert code == 2 and out == "" and err == "partgames: error: no SQL statement on standard input " \
        "(give a query, or pipe a script)\n"


def test_a_script_stops_at_its_first_error_in_one_line(capsys, monkeypatch, small_store: Path) -> None:
    """A syntax error anywhere stops the script before any statement runs (it is parsed
    whole); an error in running a statement stops it there, after the ones before it."""
    text = "SELECT 1 AS before;\nSELEC nonsense;\nSELECT 2 AS after;\n"
    code, out, err = sql_stdin(capsys, monkeypatch, small_store, text, "--format", "csv")
    assert code == 2 and err.startswith("partgames: SQL error:") and err.count("\n") == 1
    assert out == ""
    text = "SELECT 1 AS before;\nSELECT * FROM no_such_table;\nSELECT 2 AS after;\n"
    code, out, err = sql_stdin(capsys, monkeypatch, small_store, text, "--format", "csv")
    assert code == 2 and err.startswith("partgames: SQL error:") and err.count("\n") == 1
    assert "no_such_table" in err and out.splitlines() == ["before", "1"]


def test_the_prompt_survives_errors_and_interrupts(capsys, monkeypatch, small_store: Path) -> None:
    """A statement runs when a line ends with ';' (it may span lines); an error is one line and
    the prompt goes on; Ctrl-C drops the statement being typed; .quit ends with status 0."""
    monkeypatch.setattr("sys.stdin", Stdin("", tty=True))
    monkeypatch.setattr(shell, "HISTORY", small_store.parent / "no-history")
    lines = iter([
        "SELECT count(*) AS c",
        "FROM lctr WHERE n = 4;",
        "SELEC nonsense;",
        "SELECT 'never run'",
        KeyboardInterrupt,
        "",
        "SELECT 7 AS seven;",
        ".quit",
        "SELECT 'after quit';",
    ])
    prompts = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        line = next(lines)
        if line is KeyboardInterrupt:
            raise KeyboardInterrupt
        return line

    monkeypatch.setattr("builtins.input", read_line)
    code = main(["sql", "--results", str(small_store), "--format", "csv"])
    out = capsys.readouterr()
    assert code == 0
    assert out.out.splitlines() == ["c", str(partition_numbers(4)[4]), "seven", "7"]
    errors = [line for line in out.err.splitlines() if line.startswith("partgames:")]
    assert len(errors) == 1 and errors[0].startswith("partgames: SQL error:")
    assert prompts[:2] == [shell.PROMPT, shell.MORE] and prompts[4] == shell.MORE
    assert prompts[5:8] == [shell.PROMPT] * 3


@pytest.mark.parametrize("ending", [EOFError, ".exit"])
def test_the_prompt_ends_at_end_of_input(capsys, monkeypatch, small_store: Path, ending) -> None:
    monkeypatch.setattr("sys.stdin", Stdin("", tty=True))
    monkeypatch.setattr(shell, "HISTORY", small_store.parent / "no-history")
    lines = iter(["SELECT 1 AS one;", ending])

    def read_line(prompt: str) -> str:
        line = next(lines)
        if line is EOFError:
            raise EOFError
        return line

    monkeypatch.setattr("builtins.input", read_line)
    assert main(["sql", "--results", str(small_store), "--format", "csv"]) == 0
    assert capsys.readouterr().out.splitlines() == ["one", "1"]


#: What DuckDB 2.0 raises when Ctrl-C (SIGINT) arrives while a query runs: neither a
#: KeyboardInterrupt nor a duckdb.Error (seen at the prompt under tmux, where it ended the
#: session with a traceback, and from `sql` in a child process sent SIGINT). A real signal in a
#: test is timing-bound (DuckDB may hold the GIL when it arrives), so the tests raise this.
QUERY_INTERRUPTED = RuntimeError("Query interrupted")


def _interrupt_the_query(monkeypatch, text: str) -> None:
    """Make DuckDB's relation for ``text`` raise as Ctrl-C does when it is read."""
    import pipeline.query as query_module

    real = query_module.format_result

    def format_result(rel, fmt, *args, **kwargs):
        if rel is not None and hasattr(rel, "sql_query") and text in rel.sql_query():
            raise QUERY_INTERRUPTED
        return real(rel, fmt, *args, **kwargs)

    monkeypatch.setattr(query_module, "format_result", format_result)
    monkeypatch.setattr(shell, "format_result", format_result)


def test_ctrl_c_stops_a_running_query_in_one_line(capsys, monkeypatch, small_store: Path) -> None:
    _interrupt_the_query(monkeypatch, "range(7)")
    code = main(["sql", "--results", str(small_store), "SELECT count(*) FROM range(7)"])
    out = capsys.readouterr()
    assert (code, out.out, out.err) == (130, "", "partgames: interrupted\n")


def test_ctrl_c_stops_the_running_statement_and_the_prompt_goes_on(capsys, monkeypatch,
                                                                 small_store: Path) -> None:
    monkeypatch.setattr("sys.stdin", Stdin("", tty=True))
    monkeypatch.setattr(shell, "HISTORY", small_store.parent / "no-history")
    _interrupt_the_query(monkeypatch, "range(7)")
    lines = iter(["SELECT count(*) FROM range(7);", "SELECT 7 AS seven;", ".quit"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(lines))
    assert main(["sql", "--results", str(small_store), "--format", "csv"]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines() == ["seven", "7"]
    assert "partgames: interrupted" in out.err.splitlines()

