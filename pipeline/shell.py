"""``partgames sql`` without a query: SQL statements from standard input, over one connection.

A morning of exploring a store is many queries that build on each other (a temporary table of
candidates, then questions about it). One ``partgames sql "…"`` per query pays the start and
the views every time and forgets what the last one made; here one connection serves them all.

* On a terminal: a prompt. A statement runs when a line ends with ``;``; its result is printed;
  a SQL error is reported in one line and the prompt goes on; Ctrl-C drops the statement being
  typed (or stops the running one, whatever DuckDB's threads); SIGTERM ends the prompt as it
  ends any command; Ctrl-D, ``.quit`` or ``.exit`` ends. Line editing and a history
  (``~/.partgames_sql_history``) come from ``readline`` where Python has it.
* Otherwise (a pipe, a file): a script. It is parsed whole (a syntax error anywhere runs
  nothing), then every statement runs in order and every query's rows are printed; the first
  error ends it with exit status 2, as a one-line error does, and so does an empty script.

    $ partgames sql <<'EOF'
    CREATE TEMP TABLE p AS SELECT * FROM lctr WHERE sg = 0;
    SELECT n, count(*) FROM p GROUP BY n ORDER BY n;
    EOF
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import duckdb

from pipeline.errors import UsageError
from pipeline.query import explain, format_result, interrupted
from pipeline.signals import Terminated, go_on, status, stoppable

PROMPT, MORE = "partgames> ", "      ...> "
HISTORY = Path.home() / ".partgames_sql_history"
HELP = ("SQL statements end with ';'. Views: one per game (lctr, downright, …; quote ids such as "
        "\"sn5_4-5\"), slownim, records. SHOW TABLES; DESCRIBE lctr; .quit or Ctrl-D ends.")


#: Statements whose result is rows to show (SHOW, DESCRIBE, SUMMARIZE and FROM … are SELECTs);
#: the others (CREATE, INSERT, COPY, SET, …) run and show nothing, as in DuckDB's own shell.
SHOWN = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN, duckdb.StatementType.PRAGMA,
         duckdb.StatementType.CALL}


def run_statements(con: duckdb.DuckDBPyConnection, text: str, fmt: str, out: TextIO) -> None:
    """Run every statement of ``text`` in order, printing the rows of each query (DuckDB's own
    parser splits them, so a ';' inside a string ends nothing). Raises on the first error."""
    for statement in con.extract_statements(text):
        # Ctrl-C and SIGTERM interrupt the connection, whatever DuckDB's threads (pipeline/signals.py)
        with stoppable(con):
            result = con.sql(statement.query)  # runs it; a query's rows are read below
            if statement.type in SHOWN:
                print(format_result(result, fmt), file=out, flush=True)


def script(con: duckdb.DuckDBPyConnection, source: TextIO, fmt: str, out: TextIO) -> int:
    """Standard input that is not a terminal: one script (errors propagate to the caller). An
    empty one is an error, as an empty query is: a forgotten query must not pass silently."""
    text = source.read()
    if not text.strip():
        raise UsageError("no SQL statement on standard input (give a query, or pipe a script)")
    run_statements(con, text, fmt, out)
    return 0


def interactive(con: duckdb.DuckDBPyConnection, fmt: str, out: TextIO, err: TextIO,
                read_line: Callable[[str], str] | None = None) -> int:
    """The prompt: read statements (``read_line``, default :func:`input`, which ``readline``
    gives line editing) until end of input; errors are reported and survived."""
    read_line = read_line or input
    if out.isatty():  # DuckDB's progress bar for long statements, where a person watches
        con.execute("SET enable_progress_bar = true")
    _load_history()
    print(HELP, file=err)
    buffer: list[str] = []
    while True:
        try:
            line = read_line(MORE if buffer else PROMPT)
        except EOFError:
            print(file=err)
            break
        except Terminated:
            raise
        except KeyboardInterrupt:  # drop what was typed, as a shell does
            print(file=err)
            buffer.clear()
            go_on()
            continue
        if not buffer and line.strip() in (".quit", ".exit"):
            break
        if not buffer and line.strip() == ".help":
            print(HELP, file=err)
            continue
        buffer.append(line)
        text = "\n".join(buffer)
        if not text.strip():
            buffer.clear()
            continue
        if not text.rstrip().endswith(";"):
            continue
        buffer.clear()
        try:
            run_statements(con, text, fmt, out)
        except (Exception, KeyboardInterrupt) as exc:
            if isinstance(exc, Terminated) or (interrupted(exc) and status(exc)[0] != 130):
                raise  # SIGTERM ends the session
            if interrupted(exc):  # Ctrl-C stopped the running statement: the prompt goes on
                print("partgames: interrupted", file=err, flush=True)
                go_on()
            elif isinstance(exc, duckdb.Error):
                print(f"partgames: SQL error: {explain(exc)}", file=err, flush=True)
            else:
                raise
    _save_history()
    return 0


def _load_history() -> None:
    try:
        import readline
    except ImportError:  # no line editing on this Python: plain input() still works
        return
    try:
        readline.read_history_file(HISTORY)
    except OSError:
        pass


def _save_history() -> None:
    readline = sys.modules.get("readline")
    if readline is None:
        return
    try:
        readline.set_history_length(10_000)
        readline.write_history_file(HISTORY)
    except OSError:  # a read-only home must not turn a finished session into an error
        pass
