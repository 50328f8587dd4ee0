"""The statements ``partgames verify --rules FILE`` adds to the catalogue (docs/rules.md): the
statement files of a ``queries/`` folder beside the rules file (queries/FORMAT.md), and for
each game the file gives a consistency statement, ``consistency.rules.GAME``, written from its
rules: every record agrees with its followers' records (docs/definitions.md §3–§5), the
followers being the options its rules give (the SQL function ``rules_options``), as
``consistency.king`` checks the King's records against its moves.

>>> print(consistency_text(Rules("demo", None, None, False, "demo.py sha256:0")).splitlines()[0])
-- id: consistency.rules.demo
"""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.query import quote_name
from pipeline.rules import Rules, declare_views
from pipeline.verify import Statement, StatementError, _base_tables, parse_statement, statement_files

#: The folder beside a rules file whose statement files ``verify --rules FILE`` runs.
QUERIES = "queries"


def _parts(rules: Rules) -> tuple[str, str, str, str]:
    """What both forms of the consistency statement say of the rules: the game id, whether two
    moves to one position are two edges (SQL), the view it reads, and that rule in words."""
    gid = rules.game_id
    multi = "true" if rules.multi_edges else "false"
    view = f"WITH v_ AS NOT MATERIALIZED (SELECT * FROM {quote_name(gid)})"
    edges = ("two moves to one position are two edges" if rules.multi_edges
             else "two moves to one position are one edge")
    return gid, multi, view, edges


def _head(rules: Rules) -> str:
    """The consistency statement's id, source and kind lines."""
    gid = rules.game_id
    return (f"-- id: consistency.rules.{gid}\n"
            f"-- source: docs/definitions.md §3, §4, §5 and the rules of {gid} "
            f"({rules.label or 'no file'}):\n"
            "--   the store checked against itself\n"
            "-- kind: consistency")


def consistency_text(rules: Rules) -> str:
    """The statement file (queries/FORMAT.md) of a rules game's consistency statement."""
    if rules.arrays:
        return _arrays_consistency_text(rules)
    gid, multi, view, edges = _parts(rules)
    every = "true" if rules.starts is None else "false"
    starts = ("every partition is a start, so a follower's record missing is a defect of the store"
              if rules.starts is None else
              "a record with a follower that is not one of the rules' starts is not checked")
    return f"""\
{_head(rules)}
-- statement: Every {gid} record agrees with the records of its followers, the options its
--   rules give (rules_options; {edges}): sg and sg_misere are the mex of the followers' (a
--   terminal position has sg 0 and sg_misere 1), nodes = 1 + Σ nodes, leaves = Σ leaves (1 at a
--   terminal), height = 1 + max height (0 at a terminal), a count NULL exactly when a follower's
--   is NULL or the sum passes 2^63 − 1, states between 1 + max and 1 + Σ of the followers'
--   states, and each CGH flag is its local condition at the record AND the followers' flags.
-- covers: {gid}; every record whose options are partitions of at most its n (or (), terminal
--   under the rules) held in the store ({starts})
-- needs: followers
-- domain: {view} SELECT n, examined FROM rules_examined('v_', {multi}, {every}) WHERE verify_subject(n)
{view}
SELECT * FROM rules_consistency('v_', {multi}, {every})
"""


def _arrays_consistency_text(rules: Rules) -> str:
    """The consistency statement of rules whose positions are arrays (``POSITIONS = "arrays"``):
    a follower's record is the record of its array (the records have no partition key), so a
    follower that is not a start of an n the store holds leaves its record unchecked."""
    gid, multi, view, edges = _parts(rules)
    return f"""\
{_head(rules)}
-- statement: Every {gid} record agrees with the records of its followers, the options its
--   rules give (rules_options; {edges}), each found by its array among the records: sg and
--   sg_misere are the mex of the followers' (a terminal position has sg 0 and sg_misere 1),
--   nodes = 1 + Σ nodes, leaves = Σ leaves (1 at a terminal), height = 1 + max height (0 at a
--   terminal), a count NULL exactly when a follower's is NULL or the sum passes 2^63 − 1, states
--   between 1 + max and 1 + Σ of the followers' states, and each CGH flag is its local condition
--   at the record AND the followers' flags.
-- covers: {gid}; every record whose options are records of at most its n or terminal under the
--   rules (its positions are arrays: a record with another option is not checked)
-- needs: followers
-- domain: {view} SELECT n, examined FROM rules_array_examined('v_', {multi}) WHERE verify_subject(n)
{view}
SELECT * FROM rules_array_consistency('v_', {multi})
"""


def consistency_statement(rules: Rules) -> Statement:
    """The consistency statement of a rules game (:func:`consistency_text`)."""
    return parse_statement(Path(f"<consistency of the rules of {rules.game_id}>"),
                           consistency_text(rules))


def rules_statements(files: list[str | Path], rules: list[Rules]) -> list[Statement]:
    """The statements of ``verify --rules``: those in the ``queries/`` folder beside each file
    (each folder once), and the consistency statement of each of the ``rules``. A statement file
    that does not follow queries/FORMAT.md is one :class:`StatementError`."""
    # rules whose positions carry state (STATE) have several records per partition, and the
    # statement finds a follower's record by its partition's key: none is written for them
    out = [consistency_statement(r) for r in rules if not r.state]
    folders: list[Path] = []
    for file in files:
        folder = Path(file).resolve().parent / QUERIES
        if folder.is_dir() and folder not in folders:
            folders.append(folder)
    beside: list[Statement] = []
    for folder in folders:
        for path in statement_files(folder):
            try:
                beside.append(parse_statement(path))
            except UnicodeDecodeError as exc:
                raise StatementError(f"{path}: not UTF-8 text ({exc.reason})") from exc
    declare_views(g for st in beside for g in games_named(st))
    return out + beside


def rules_lines(results: str | Path, given: list[Rules], min_n: int | None = None,
                max_n: int | None = None) -> list[str]:
    """verify's lines on the store's rules games (their commit records name the rules file,
    docs/rules.md): one per game whose rules were not given (no statement checks its records
    against them), and one per game given with other rules than those that computed its records
    (the file since edited: consistency.rules.GAME then reads them with the new rules)."""
    from pipeline.storage import Store

    sound, _ = Store.open(results, create=False).committed()
    labels: dict[str, set[str]] = {}
    stateful: set[str] = set()
    for game, n, record in sound:
        if "rules" in record and (min_n is None or n >= min_n) and (max_n is None or n <= max_n):
            labels.setdefault(game, set()).add(record["rules"])
            if "rules_state" in record:
                stateful.add(game)
    mine = {r.game_id: r.label for r in given}
    lines = [f"records of the rules game {r.game_id} are checked against no consistency statement: "
             f"its positions carry state (STATE = {r.state}), and consistency.rules finds a "
             "follower's record by its partition alone" for r in given if r.state]
    for game, found in sorted(labels.items()):
        if game not in mine:
            adds = ("(its positions carry state: no consistency statement is written for it)"
                    if game in stateful else f"adds consistency.rules.{game}")
            lines.append(f"records of the rules game {game} ({', '.join(sorted(found))}) are checked "
                         f"against no rules: `verify --rules FILE` {adds}")
        elif found != {mine[game]}:
            lines.append(f"records of the rules game {game} were computed by {', '.join(sorted(found))} "
                         f"and are checked against {mine[game]}")
    return lines


def games_named(st: Statement) -> set[str]:
    """The names a statement reads as tables (its predicate form's ``games``, the tables its
    queries name, read off DuckDB's parse tree, CTEs left out): with :func:`declare_views`, a
    statement beside a rules file about a game with no records is ``no data``, not an error."""
    import duckdb

    names = set(st.games)
    con = duckdb.connect()
    try:
        for q in filter(None, [st.query, st.printed_query, st.header.get("domain"),
                               st.header.get("witnesses")]):
            tree = json.loads(con.execute("SELECT json_serialize_sql(?)", [q]).fetchall()[0][0])
            if not tree.get("error"):
                names |= _base_tables(tree) - _ctes(tree)
    finally:
        con.close()
    return names


def _ctes(tree: object) -> set[str]:
    """The names a parse tree's WITH clauses give (its ``cte_map`` keys)."""
    if isinstance(tree, dict):
        found = {e["key"] for e in tree.get("cte_map", {}).get("map", [])} if "cte_map" in tree else set()
        return found.union(*(_ctes(v) for v in tree.values()))
    if isinstance(tree, list):
        return set().union(*(_ctes(v) for v in tree))
    return set()


__all__ = ["QUERIES", "consistency_statement", "consistency_text", "games_named", "rules_lines",
           "rules_statements"]
