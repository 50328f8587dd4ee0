"""The ``partgames`` command (docs/definitions.md §6): run, check, sql, verify, search, draw, report."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from pipeline import signals
from pipeline.errors import PartgamesError, UsageError
from pipeline.schema import BOARD_GAMES

DEFAULT_GAMES = ",".join(BOARD_GAMES)


def _resume_hint(command: str) -> str:
    """What an interrupted or failed command leaves: only ``run`` has shards to resume."""
    return "; finished shards are kept, rerun to resume" if command == "run" else ""


class _BadArguments(Exception):
    """What argparse found wrong with the command line (reported by :func:`main` in one line)."""


class _Parser(argparse.ArgumentParser):
    """argparse with its complaint in one line, ``partgames: error: …`` and exit status 2, as
    every other bad input (argparse prints the usage above it; ``--help`` still shows it)."""

    def error(self, message: str) -> NoReturn:
        # "argument --threads: must be at least 1 (got 0)" reads as "--threads must be …"
        m = re.fullmatch(r"argument (-[\w-]+): ((?:must |').*)", message, re.DOTALL)
        if m:
            message = f"{m.group(1)} {m.group(2)}"
        raise _BadArguments(f"{message} (`{self.prog} --help` lists the options)")


def whole(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number written in ASCII digits (not ``٣``, which ``int()`` would
    read, nor ``1_000``), at least ``minimum``: every count and n bound of the commands is
    meaningless below its minimum.

    >>> whole(1)("30"), whole(0)("0")
    (30, 0)
    >>> whole(1)("-5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at least 1 (got -5)
    """

    def parse(text: str) -> int:
        if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", text):
            raise argparse.ArgumentTypeError(f"{text!r}: not a whole number (digits 0-9)")
        value = int(text)
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum} (got {value})")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its messages
    return parse


def seconds(text: str) -> float:
    """An argparse type: a time in seconds, a positive finite decimal in ASCII digits.

    >>> seconds("2.5")
    2.5
    """
    if not re.fullmatch(r"\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*", text):
        raise argparse.ArgumentTypeError(f"{text!r}: not a number of seconds (digits 0-9)")
    value = float(text)
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds (got {text.strip()})")
    return value


def memory_size(text: str) -> str:
    """An argparse type: DuckDB's memory limit, a positive amount in ASCII digits and its unit
    (``8GB``, ``8 GiB``, ``40%``); DuckDB checks the unit. DuckDB itself takes ``-5GB`` as no
    limit at all and ``0GB`` as a limit no query fits in.

    >>> memory_size("40%")
    '40%'
    """
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(%|[A-Za-z]+)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r}: not a size such as 8GB or 40% (digits 0-9)")
    if float(m.group(1)) <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive size (got {text.strip()})")
    return text.strip()


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="partgames",
        description="Exhaustive combinatorial game theory on integer partitions (see README.md).",
    )
    sub = p.add_subparsers(dest="command", required=True)
    _run_parser(sub)
    _check_parser(sub)
    _sql_parser(sub)
    _verify_parser(sub)
    _solve_parser(sub)
    _search_parser(sub)
    _draw_parser(sub)
    _report_parser(sub)
    return p


def _run_parser(sub: argparse._SubParsersAction) -> None:
    """The ``run`` command's options."""
    r = sub.add_parser("run", help="compute and store the records of games for a range of n")
    r.add_argument("--games", default=DEFAULT_GAMES,
                   help=f"comma-separated game ids (default: the nine board games: {DEFAULT_GAMES})")
    r.add_argument("--max-n", type=whole(1), default=None,
                   help="largest n (default 30; with --partitions, the file's largest)")
    r.add_argument("--min-n", type=whole(1), default=1, help="smallest n (default 1)")
    r.add_argument("--out", "--results", dest="out", default="results",
                   help="results directory (default results/; --results as the other commands name it)")
    chosen = r.add_mutually_exclusive_group()
    chosen.add_argument("--family", default=None, metavar="NAMES",
                        help="only the members of these families (comma-separated: row, column, "
                             "rectangle, staircase, hook, two_row, three_row, thick_gamma, "
                             "gen_staircase; docs/families.md), into a store of their own")
    chosen.add_argument("--partitions", default=None, metavar="FILE",
                        help="only the partitions listed in FILE, one a line (5,3,3,1 or 5 3 3 1), "
                             "into a store of their own")
    r.add_argument("--jobs", type=whole(1), default=None,
                   help="solver threads (default: all cores; means nothing with --scheduler, where the "
                        "workers' threads solve)")
    r.add_argument("--force", action="store_true", help="recompute (game, n) jobs already complete")
    r.add_argument("--keep", default="all", metavar="all|none|CONDITION",
                   help="records to write: all (default), none (summaries only) or a SQL condition "
                        "over a record's columns, e.g. \"sg = 0 OR NOT domestic\"; the summaries "
                        "cover every record")
    r.add_argument("--repair", action="store_true",
                   help="hash every byte of the complete (game, n) in range and recompute the damaged "
                        "ones (without it, a stat of each file finds missing, resized or rewritten files)")
    r.add_argument("--no-space-check", action="store_true",
                   help="run even when the estimated bytes exceed the free disk space")
    r.add_argument("--shard-records", type=whole(1), default=None, help=argparse.SUPPRESS)
    _rules_option(r)
    r.add_argument("--table-limit", type=whole(1), default=None, metavar="POSITIONS",
                   help="a rules game's table of solved positions is flushed past this many "
                        "(default 2097152; docs/rules.md)")
    r.add_argument("--quiet", action="store_true", help="no progress bars")
    r.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="solve the shards on a Dask cluster (tcp://host:8786 or tls://...); the store "
                        "must be on a filesystem every worker mounts at the same path (docs/cluster.md; "
                        "pip install 'partgames[cluster]')")
    r.add_argument("--tls-ca-file", default=None, help="CA certificate for a tls:// scheduler")
    r.add_argument("--tls-cert", default=None, help="this client's TLS certificate")
    r.add_argument("--tls-key", default=None, help="this client's TLS private key")
    r.add_argument("--lost-workers-timeout", type=seconds, default=60.0, metavar="SECONDS",
                   help="with --scheduler: end the run after this long without any worker (default 60)")
    r.add_argument("--connect-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="with --scheduler: give up on a scheduler that does not answer after this long "
                        "(default 10)")


def _check_parser(sub: argparse._SubParsersAction) -> None:
    """The ``check`` command's options."""
    c = sub.add_parser("check", help="check a store's files against the commit records of its (game, n)")
    c.add_argument("--results", default="results", help="results directory (default results/)")
    c.add_argument("--deep", action="store_true", help="hash every byte (default: sizes, changed files "
                   "and the row counts in the files' footers). A copied store's files are hashed once "
                   "and their new inodes recorded, so the views need not hash them again")
    c.add_argument("--adopt", action="store_true",
                   help="give the (game, n) of a store written by an older partgames (commit records "
                        "without a list of files) commit records of their files as they are, once "
                        "their row counts match, every (game, n) committed without a summary "
                        "the summary of its records, and every one without a schema digest its "
                        "files' (read from their footers)")


def _sql_parser(sub: argparse._SubParsersAction) -> None:
    """The ``sql`` command's options."""
    s = sub.add_parser("sql", help="run DuckDB SQL over the records (views: one per game, records)")
    s.add_argument("query", nargs="?", default=None,
                   help="SQL text, or @file.sql; none (or -): statements from standard input, "
                        "a prompt on a terminal")
    s.add_argument("--results", default="results", help="results directory (default results/)")
    _n_range(s)
    s.add_argument("--format", choices=("table", "csv", "json"), default="table")
    _rules_option(s)


def _verify_parser(sub: argparse._SubParsersAction) -> None:
    """The ``verify`` command's options."""
    v = sub.add_parser(
        "verify", help="check the statement catalogue in queries/ on the records",
        description="Check the statement catalogue in queries/ on the records. Memory: DuckDB's "
                    "memory limit is 3GB unless --memory-limit says otherwise (joins spill to a "
                    "directory beside the store), so that verify's peak memory stays under 4 GB. "
                    "Exit status: 0 every statement that must hold "
                    "holds, 1 one fails (or errs), 3 the store has damaged (game, n), left out "
                    "(the rest is checked; `partgames check` names them).")
    v.add_argument("--results", default="results", help="results directory (default results/)")
    _n_range(v)
    for action in v._actions:  # verify's own default (pipeline.verify.DEFAULT_MEMORY_LIMIT)
        if action.dest == "memory_limit":
            action.help = ("DuckDB's memory limit, e.g. 8GB or 40%% (default 3GB: verify's peak "
                           "memory stays under 4 GB whatever the store's size)")
    v.add_argument("--quiet", action="store_true", help="no progress bars (none when standard "
                                                        "error is not a terminal)")
    v.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="check on a Dask cluster (tcp://host:8786): each worker reads the store, which "
                        "must be at the same path on every worker, with its own DuckDB")
    v.add_argument("--format", choices=("text", "json"), default="text")
    v.add_argument("--only", action="append", default=None, metavar="ID",
                   help="statement id or glob (repeatable)")
    v.add_argument("--report", default=None,
                   help="Markdown report path (default RESULTS/VERIFY.md; '-' for none); the results "
                        "as JSON go beside it (VERIFY.json)")
    v.add_argument("--rules", action="append", default=None, metavar="FILE",
                   help="a rules game's file (docs/rules.md; repeatable): its game's consistency "
                        "statement (consistency.rules.GAME) and the statements of the queries/ "
                        "folder beside the file join the catalogue")


def _solve_parser(sub: argparse._SubParsersAction) -> None:
    """The ``solve`` command's options."""
    o = sub.add_parser("solve", help="solve one start partition of board games now and print the records")
    o.add_argument("games", help="comma-separated game ids (board games, user movesets, rules games)")
    o.add_argument("parts", nargs="+", help="the partition: 5,3,3,1 or 5 3 3 1")
    o.add_argument("--format", choices=("table", "csv", "json"), default="table")
    _rules_option(o)


def _search_parser(sub: argparse._SubParsersAction) -> None:
    """The ``search`` command's options."""
    q = sub.add_parser("search", help="run a search of queries/search/ and save its table")
    q.add_argument("name", nargs="?", help="search name (omit to list them)")
    q.add_argument("--results", default="results", help="results directory (default results/)")
    _n_range(q)
    q.add_argument("--format", choices=("table", "csv", "json"), default="table")


def _draw_parser(sub: argparse._SubParsersAction) -> None:
    """The ``draw`` command's options."""
    d = sub.add_parser("draw", help="draw a board game's values on the boxes of a Young diagram")
    d.add_argument("game", help="board game id (lctr, king, a moveset such as '{(1,3),(3,1)}')")
    d.add_argument("parts", help="the partition, e.g. 8,7,6,5,5,2,1")
    which = d.add_mutually_exclusive_group()
    which.add_argument("--misere", action="store_true", help="misère values instead of normal play")
    which.add_argument("--both", action="store_true", help="normal and misère values side by side")
    d.add_argument("--results", default="results",
                   help="store to read the values from (default results/); values it lacks are solved")
    d.add_argument("--out", default=None,
                   help="picture file, .svg, .png or .pdf (default: GAME-PARTS.svg here)")
    _rules_option(d)


def _report_parser(sub: argparse._SubParsersAction) -> None:
    """The ``report`` command's options."""
    o = sub.add_parser("report", help="one self-contained HTML file on a store: tables, charts, diagrams")
    o.add_argument("--results", default="results", help="results directory (default results/)")
    o.add_argument("--out", default=None, help="HTML file (default RESULTS/report.html)")
    _rules_option(o)  # a rules game's grids are drawn when its rules say its positions are partitions
    _n_range(o)


def _rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", action="append", default=None, metavar="FILE",
                   help="a Python file giving a game's rules (docs/rules.md); its GAME_ID is then "
                        "a game id (repeatable)")


def _load_rules(args: argparse.Namespace) -> None:
    """Register the games of ``--rules`` files (pipeline.rules), before any game id is read."""
    if getattr(args, "table_limit", None) is not None:
        from pipeline.games import generic

        generic.set_table_limit(args.table_limit)
    if getattr(args, "rules", None):
        from pipeline.rules import load_rules_file, register

        for path in args.rules:
            for rules in load_rules_file(path):
                register(rules)


def _n_range(p: argparse.ArgumentParser) -> None:
    """The options of the commands that read the store: --min-n / --max-n (the views hold those
    n only) and DuckDB's memory and threads (beside a run, or on a shared machine)."""
    p.add_argument("--min-n", type=whole(1), default=None, help="only records with n at least this")
    p.add_argument("--max-n", type=whole(1), default=None, help="only records with n at most this")
    p.add_argument("--memory-limit", type=memory_size, default=None, metavar="SIZE",
                   help="DuckDB's memory limit, e.g. 8GB or 40%% (default: DuckDB's, 80%% of RAM)")
    p.add_argument("--threads", type=whole(1), default=None, help="DuckDB's threads (default: all cores)")


def _duckdb_settings(args: argparse.Namespace) -> dict[str, str]:
    if args.threads is not None and args.threads < 1:
        raise UsageError("--threads must be at least 1")
    options = {"memory_limit": args.memory_limit, "threads": args.threads}
    return {k: str(v) for k, v in options.items() if v is not None}


def split_games(text: str) -> list[str]:
    """Split ``--games`` at commas outside brackets: ``lctr,{(1,3),(3,1)}`` is two games."""
    games, depth, cur = [], 0, ""
    for ch in text:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == "," and depth == 0:
            games.append(cur)
            cur = ""
        else:
            cur += ch
    return games + [cur]


def _register_solve(con) -> None:
    """The SQL function ``solve(game, parts)``: the record of ``game`` started at ``parts``,
    solved now by the single-partition solver, as a STRUCT of the record's columns
    (``SELECT unnest(solve('queen', [3, 3, 1]))`` spreads it into columns)."""
    import duckdb
    import pyarrow as pa

    from pipeline.games.single_partition import check_partition, solve_record
    from pipeline.schema import BOARD_SCHEMA

    def sql_type(t: pa.DataType):
        if pa.types.is_list(t):
            return duckdb.list_type(sql_type(t.value_type))
        return {pa.int16(): "SMALLINT", pa.int32(): "INTEGER", pa.int64(): "BIGINT",
                pa.bool_(): "BOOLEAN"}[t]

    record_type = duckdb.struct_type({f.name: sql_type(f.type) for f in BOARD_SCHEMA})

    def solve(game: str, parts: list[int]) -> dict:
        record = solve_record(game, check_partition(parts))
        # a rules game with STATE starts at the partition followed by k zeros: its `state`
        # (those zeros) is not among the board columns of the struct (docs/rules.md)
        record.pop("state", None)
        return record

    con.create_function("solve", solve, ["VARCHAR", duckdb.list_type("BIGINT")], record_type,
                        side_effects=False)


def main(argv: list[str] | None = None) -> int:
    command = None
    try:
        with signals.handled():  # SIGINT and SIGTERM: one line, 130 or 143 (pipeline/signals.py)
            try:
                command = next((a for a in (sys.argv[1:] if argv is None else argv)
                                if not a.startswith("-")), None)
                return _main(argv)
            except KeyboardInterrupt as exc:  # a second signal while the first one was reported
                return _stopped(command, exc)
    except KeyboardInterrupt as exc:  # a signal as the command's handlers are put back
        return _stopped(command, exc)


def _stopped(command: str | None, exc: BaseException | None = None) -> int:
    """Report a command stopped by Ctrl-C or SIGTERM in one line; its exit status."""
    code, word = signals.status(exc)
    signals.report_once(f"partgames: {word}{_resume_hint(command or '')}")
    return code


def _main(argv: list[str] | None) -> int:
    try:
        args = _parser().parse_args(argv)
    except KeyboardInterrupt as exc:
        return _stopped(None, exc)
    except _BadArguments as exc:
        print(f"partgames: error: {exc}", file=sys.stderr)
        return 2
    # Each command imports only what it uses: sql, verify and search start without numba and
    # the kernels (docs/performance.md), run without DuckDB.
    try:
        if args.command in DUCKDB_COMMANDS:
            signals.load("duckdb")  # a signal inside DuckDB's loading would abort the process
        return COMMANDS[args.command](args)
    except PartgamesError as exc:
        print(f"partgames: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        # A file the command reads or writes: a missing @file.sql, a full disk, a report path
        # that cannot be written. One line, not a traceback; a run's written shards are safe
        # (each is renamed into place only when complete).
        where = f": {exc.filename}" if exc.filename else ""
        print(f"partgames: error: {exc.strerror or exc}{where}{_resume_hint(args.command)}",
              file=sys.stderr)
        return 2
    except Exception as exc:
        if isinstance(exc, ImportError) and signals.stopped_by(exc):  # Ctrl-C while DuckDB loads
            return _stopped(args.command, exc)
        duckdb = sys.modules.get("duckdb")  # a DuckDB error comes only from a command that loaded it
        if duckdb is None:
            raise
        from pipeline.query import explain, interrupted

        if interrupted(exc):  # Ctrl-C or SIGTERM while DuckDB ran a query (sql, verify, search)
            return _stopped(args.command, exc)
        if not isinstance(exc, duckdb.Error):
            raise
        print(f"partgames: SQL error: {explain(exc, getattr(args, 'query', None))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (signals.Terminated)
        return _stopped(args.command, exc)


def _run(args: argparse.Namespace) -> int:
    """``partgames run``: solve games into a store (locally, or on Dask with ``--scheduler``)."""
    cluster = None
    if args.scheduler:
        from pipeline.cluster import ClusterOptions

        cluster = ClusterOptions(args.scheduler, args.tls_ca_file, args.tls_cert, args.tls_key,
                                 connect_timeout=args.connect_timeout,
                                 lost_workers_timeout=args.lost_workers_timeout)
    elif args.tls_ca_file or args.tls_cert or args.tls_key:
        raise UsageError("--tls-ca-file, --tls-cert and --tls-key go with --scheduler")
    from pipeline.runner import run  # after the cluster options: a bad one is refused at once

    _load_rules(args)

    selection, max_n = None, args.max_n
    if args.family is not None or args.partitions is not None:
        from pipeline.games.selection import family_selection, file_selection

        if args.family is not None:
            selection = family_selection(args.family.split(","))
        else:
            selection = file_selection(args.partitions)
            if max_n is None:
                max_n = max(selection.ns())
    summary = run(
        split_games(args.games), max_n=30 if max_n is None else max_n, min_n=args.min_n,
        out=args.out, jobs=args.jobs,
        force=args.force, max_records=args.shard_records,
        progress=not args.quiet, repair=args.repair, space_check=not args.no_space_check,
        say=lambda line: print(line, file=sys.stderr, flush=True), cluster=cluster,
        keep=args.keep,
        selection=selection,
    )
    print(summary.line())
    return 0


def _check(args: argparse.Namespace) -> int:
    """``partgames check``: the store's commits checked (``--deep``: every byte), old ones adopted
    (``--adopt``); 1 if one is damaged."""
    from pipeline.storage import Store, StoreError

    store = Store.open(args.results, create=False)
    start = time.perf_counter()
    try:  # the writer's lock: finish a killed commit, and re-stamp the files of a copied store
        with store.writer():
            if args.adopt:
                print(f"adopted {len(store.adopt()):,} (game, n) written by an older partgames")
                print(f"summarised {len(store.add_summaries()):,} (game, n) committed without "
                      "a summary")
                print(f"named the schema of {len(store.add_schemas()):,} (game, n) committed "
                      "without it")
                print(f"journaled {store.restart_journal():,} (game, n): the store as it is now")
            sound, damaged = store.committed(deep=args.deep, rows=True, restamp=True)
            store.journal_missing(sound)
    except (StoreError, OSError):  # a run holds the store, or it is read-only to this user
        if args.adopt:
            raise
        sound, damaged = store.committed(deep=args.deep, rows=True)
    for damage in damaged:
        print(f"damaged: {damage.line()}")
    records = sum(record.get("kept_records", record["records"]) for _, _, record in sound)
    files = sum(len(record["files"]) for _, _, record in sound)
    print(f"{len(sound)} (game, n) sound ({records:,} records in {files:,} files"
          f"{', every byte hashed' if args.deep else ''}), {len(damaged)} damaged, "
          f"in {time.perf_counter() - start:.1f} s"
          + ("; `partgames run` with the same --games and n range recomputes the damaged ones"
             + ("" if args.adopt else " (`check --adopt` takes in a store of an older partgames)")
             if damaged else ""))
    return 1 if damaged else 0


def _sql(args: argparse.Namespace) -> int:
    """``partgames sql``: a query, a file of them (``@FILE``), or statements from standard input."""
    from pipeline.query import connect

    text = args.query
    _load_rules(args)  # a rules game's view exists, empty, before its first record
    from_stdin = text in (None, "-")  # statements from standard input, over one connection
    if not from_stdin:
        if text.startswith("@"):
            text = Path(text[1:]).read_text()
        if not text.strip():
            raise UsageError("the SQL query is empty")
    con = connect(args.results, min_n=args.min_n, max_n=args.max_n, settings=_duckdb_settings(args))
    if not from_stdin and "solve(" in text.lower():  # numba and the solver only when used
        _register_solve(con)
    if from_stdin:
        from pipeline.shell import interactive, script

        if sys.stdin.isatty():
            return interactive(con, args.format, sys.stdout, sys.stderr)
        return script(con, sys.stdin, args.format, sys.stdout)
    from pipeline.shell import run_statements

    run_statements(con, text, args.format, sys.stdout)  # every statement's rows, in order
    return 0


def _verify(args: argparse.Namespace) -> int:
    """``partgames verify``: the statement catalogue on a store, its report written; 1 if a
    statement that must hold fails, 3 if a (game, n) is damaged."""
    from pipeline.storage import write_text_atomic
    from pipeline.verify import kept_lines, markdown_report, provenance_lines, summary_lines

    report = _verify_report_path(args)
    results = _verify_results(args)
    provenance = (kept_lines(args.results, args.min_n, args.max_n)
                  + provenance_lines(args.results, args.min_n, args.max_n))
    from pipeline.rules_verify import rules_lines  # the store's rules games: checked or not

    provenance += rules_lines(args.results, getattr(args, "loaded_rules", []), args.min_n, args.max_n)
    if args.format == "json":
        print(json.dumps([r.as_dict() for r in results], default=str))
    else:
        print("\n".join(summary_lines(results, results.damaged) + provenance))
    if report is not None:
        write_text_atomic(report, markdown_report(results, provenance))
        # the same results for programs (`partgames report` draws their counterexamples)
        write_text_atomic(report.with_suffix(".json"), json.dumps(
            {"results": [r.as_dict() for r in results], "provenance": provenance}, default=str) + "\n")
    if results.damaged:  # the records of those (game, n) were not checked (EXIT_DAMAGED)
        return 3
    return 1 if any(r.breaks for r in results) else 0


def _verify_report_path(args: argparse.Namespace) -> Path | None:
    """Where ``verify`` writes its report (None: ``--report -``), checked writable before any
    statement runs."""
    if args.report == "-":
        return None
    if args.report is None:
        report = Path(args.results) / "VERIFY.md"  # in the store, which verify checks
        if Path(args.results).is_dir() and not _writable(report):  # a read-only store
            raise UsageError(f"cannot write the report {report} (the store is read-only to this "
                             "user): pass --report PATH, or --report - for none")
        return report
    report = Path(args.report)  # the user's path, checked now, not after an hour of statements
    if report.is_dir():
        raise UsageError(f"--report {report} is a directory")
    if not report.parent.is_dir():
        raise UsageError(f"--report {report}: directory {report.parent} does not exist")
    if not _writable(report):
        raise UsageError(f"--report {report}: not writable by this user")
    return report


def _verify_results(args: argparse.Namespace):
    """The statements' results, here or on the Dask cluster of ``--scheduler``; in the text
    format each statement's lines are printed as it ends."""
    from pipeline.verify import result_lines, verify

    def show(result) -> None:
        print("\n".join(result_lines(result)), flush=True)

    on_result = show if args.format == "text" else None
    extra = None
    if args.rules:
        from pipeline.rules import load_rules_file, register
        from pipeline.rules_verify import rules_statements

        loaded = []
        for path in args.rules:
            for rules in load_rules_file(path):
                register(rules)
                loaded.append(rules)
        extra = rules_statements(args.rules, loaded)
        args.loaded_rules = loaded
    if not args.scheduler:
        return verify(args.results, args.only, on_result=on_result,
                      min_n=args.min_n, max_n=args.max_n, settings=_duckdb_settings(args),
                      progress=not args.quiet and sys.stderr.isatty(), extra=extra)
    from pipeline.cluster import ClusterOptions
    from pipeline.cluster import connect as cluster_client
    from pipeline.storage import Store
    from pipeline.verify_cluster import verify_on_cluster

    Store.open(args.results, create=False)  # a missing store is one line, before the cluster
    rules = None
    if extra is not None:  # the rules files' text and their statements go with each task
        from pipeline.verify_cluster import rules_part

        rules = rules_part(args.loaded_rules, extra)
    client = cluster_client(ClusterOptions(args.scheduler))
    try:
        return verify_on_cluster(args.results, client, args.only, on_result=on_result,
                                 min_n=args.min_n, max_n=args.max_n, settings=_duckdb_settings(args),
                                 rules=rules)
    finally:
        client.close()


def _solve(args: argparse.Namespace) -> int:
    """``partgames solve``: the records of one partition, solved now."""
    import pyarrow as pa

    from pipeline.games.single_partition import canonical_id, parse_partition, solve_table
    from pipeline.query import format_result

    _load_rules(args)
    parts = parse_partition(" ".join(args.parts))
    games = [canonical_id(game) for game in split_games(args.games)]
    # a rules game with STATE has a `state` column the others lack (NULL there)
    table = pa.concat_tables([solve_table(game, [parts]) for game in games], promote_options="default")
    table = table.add_column(0, "game", pa.array(games))
    print(format_result(table, args.format))
    return 0


def _search(args: argparse.Namespace) -> int:
    """``partgames search``: the searches, or one run on a store."""
    from pipeline.search import list_searches, run_search

    if not args.name:
        for name, doc in list_searches():
            print(f"{name:<28} {doc}")
        return 0
    print(run_search(args.results, args.name, args.format, min_n=args.min_n, max_n=args.max_n,
                     settings=_duckdb_settings(args)))
    return 0


def _draw(args: argparse.Namespace) -> int:
    """``partgames draw``: a game's values on the boxes of a Young diagram."""
    from pipeline.pictures import (
        board_game_id,
        draw_grid,
        parse_parts,
        picture_format,
        save_figure,
        value_grid,
    )

    _load_rules(args)
    parts = parse_parts(args.parts)
    game = board_game_id(args.game)
    values = ("sg", "sg_misere") if args.both else ("sg_misere",) if args.misere else ("sg",)
    suffix = "-misere" if args.misere else "-both" if args.both else ""
    out = Path(args.out) if args.out else Path(f"{game}-{'-'.join(map(str, parts))}{suffix}.svg")
    writable_file(out, "--out")
    picture_format(out)
    grid = value_grid(game, parts, args.results)
    save_figure(draw_grid(grid, values), out)
    solved = f" (values of n = {', '.join(map(str, grid.solved))} solved: not in {args.results})" \
        if grid.solved else ""
    print(f"wrote {out}{solved}")
    return 0


def _report(args: argparse.Namespace) -> int:
    """``partgames report``: the HTML report of a store."""
    from pipeline.report import write_report

    _load_rules(args)
    out = Path(args.out) if args.out else Path(args.results) / "report.html"
    writable_file(out, "--out")
    seconds, size = write_report(args.results, out, min_n=args.min_n, max_n=args.max_n,
                                 settings=_duckdb_settings(args))
    print(f"wrote {out} ({size / 1e6:.1f} MB) in {seconds:.1f} s")
    return 0


#: Each command's function: its arguments (parsed by :func:`_parser`) to its exit status.
#: The commands that query with DuckDB; they load it first, where a signal cannot abort it.
DUCKDB_COMMANDS = frozenset({"check", "sql", "verify", "search", "draw", "report"})

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": _run,
    "check": _check,
    "sql": _sql,
    "verify": _verify,
    "solve": _solve,
    "search": _search,
    "draw": _draw,
    "report": _report,
}


def _writable(path: Path) -> bool:
    """Whether this user may write ``path`` and its JSON twin (``verify``'s report): written
    through a temporary file beside them, so their folder must be writable."""
    import os

    folder = path.parent
    return os.access(folder, os.W_OK | os.X_OK) and all(
        not p.exists() or os.access(p, os.W_OK) for p in (path, path.with_suffix(".json")))


def writable_file(path: Path, option: str) -> None:
    """A :class:`UsageError` now, before any work, for an output file that cannot be written:
    a directory, a missing folder, a folder or file this user may not write."""
    import os

    if path.is_dir():
        raise UsageError(f"{option} {path} is a directory")
    folder = path.parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: directory {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"{option} {path}: not writable by this user")


if __name__ == "__main__":
    sys.exit(main())
