"""``partgames run --keep``: which solved records a run writes to the store.

``all`` (the default) keeps every record, ``none`` keeps none (the run writes the summaries of
:mod:`pipeline.summaries` only), and anything else is a SQL boolean expression over a record's
columns (docs/records.md), with the macros of ``queries/macros.sql``, e.g.
``sg = 0 OR NOT domestic``: each solved shard keeps the records for which it is true (NULL counts
as false). The summaries cover every record solved, whatever is kept.

A condition is SQL that the run evaluates as the user, inside ``run`` and on every cluster worker,
so it is held to what it is for: one expression, with a value per record, over the record's
columns and the macros (:func:`check_condition`). DuckDB's own parser reads it; a subquery (and
with it any table function: ``read_csv``, ``read_text``, ``glob``, ``read_parquet``, …), a
comment, a second statement, a parenthesis that closes the expression early, an aggregate or a
window are refused. The connection that evaluates it reads no file and no network
(``enable_external_access = false``) and its configuration is locked, so that nothing a
condition names reaches beyond the shard in its hands.

>>> from pipeline.schema import BOARD_SCHEMA
>>> KeepFilter.parse("sg = 0 AND is_staircase(parts)", [BOARD_SCHEMA]).text
'sg = 0 AND is_staircase(parts)'
>>> KeepFilter.parse("sg +", [BOARD_SCHEMA])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pipeline.keep.KeepError: --keep 'sg +': not a SQL expression over the records' columns (syntax error...)
>>> KeepFilter.parse("sg", [BOARD_SCHEMA])
Traceback (most recent call last):
...
pipeline.keep.KeepError: --keep 'sg': not a boolean expression (its values are int16)
>>> KeepFilter.parse("sg = 0) AS keep FROM shard --", [BOARD_SCHEMA])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pipeline.keep.KeepError: --keep 'sg = 0) AS keep FROM shard --': a ')' closes the condition early...
"""

from __future__ import annotations

import functools
import json
import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from pipeline.errors import PartgamesError

if TYPE_CHECKING:
    import duckdb

ALL = "all"
NONE = "none"


class KeepError(PartgamesError, ValueError):
    """A ``--keep`` that is neither ``all``, ``none`` nor a boolean expression over the records."""


_local = threading.local()

#: What a condition's connection may not do: read or write any file, URL or database other than
#: the shard registered in it (external access), load an extension (which could bring file
#: readers back), or undo these (the configuration is locked last).
_LOCKDOWN = ("SET enable_external_access = false", "SET autoinstall_known_extensions = false",
             "SET autoload_known_extensions = false", "SET lock_configuration = true")


def condition_connection() -> duckdb.DuckDBPyConnection:
    """This thread's DuckDB connection for evaluating predicates (one thread each: the solver
    threads already use every core), with the macros of ``queries/macros.sql``, then locked
    down (:data:`_LOCKDOWN`)."""
    con = getattr(_local, "con", None)
    if con is None:
        import duckdb  # only for a run that filters: `run` starts without DuckDB otherwise

        from pipeline.query import queries_dir

        con = duckdb.connect()
        con.execute("SET threads = 1")
        macros = queries_dir() / "macros.sql"
        if macros.is_file():
            con.execute(macros.read_text())
        for statement in _LOCKDOWN:
            con.execute(statement)
        _local.con = con
    return con


def _explain(exc: Exception) -> str:
    """DuckDB's message, first line, without its error-class prefix and the query it echoes."""
    line = str(exc).strip().splitlines()[0]
    return re.sub(r"^[A-Za-z ]+Error: ", "", line)


def _wrapped(text: str) -> str:
    """The query that evaluates the condition ``text`` on the registered shard."""
    return f"SELECT ({text}) AS keep FROM shard"


#: Parse-tree classes a per-record condition never needs: a subquery (the only place a table
#: function such as read_csv can stand), a window (its value depends on the shard's other
#: records), ``*`` / ``COLUMNS(…)`` (several values), a prepared-statement parameter.
_REFUSED_CLASSES = {"SUBQUERY": "a subquery", "WINDOW": "a window function",
                    "STAR": "a * or COLUMNS(...)", "PARAMETER": "a parameter"}


def _refused_part(node: Any) -> str | None:
    """What in the parse tree ``node`` (DuckDB's ``json_serialize_sql``) of the condition is not
    part of one expression over a record's values; None if nothing is."""
    if isinstance(node, list):
        return next(filter(None, map(_refused_part, node)), None)
    if not isinstance(node, dict):
        return None
    kind = node.get("class")
    if kind in _REFUSED_CLASSES:
        return _REFUSED_CLASSES[kind]
    if "from_table" in node or "subquery" in node or node.get("type") == "SELECT_NODE":
        return "a subquery"
    return next(filter(None, map(_refused_part, node.values())), None)


@functools.cache
def check_condition(text: str) -> None:
    """Refuse (:class:`KeepError`) a condition that is not one expression over a record's
    values. Two readings by DuckDB's parser agree on that: its tokens (no comment, no ``;``, and
    every parenthesis the condition closes it opened first, so that the wrapper of
    :func:`_wrapped` keeps the whole condition inside its own parentheses), and the parse tree of
    the wrapped query (one SELECT of one expression from the shard, the expression free of
    :data:`_REFUSED_CLASSES`). Cached: a cluster worker checks each condition once."""
    import duckdb

    def refuse(why: str) -> KeepError:
        return KeepError(f"--keep {text!r}: {why} (one expression over a record's columns)")

    try:
        tokens = duckdb.tokenize(text)
    except duckdb.Error as exc:
        raise KeepError(f"--keep {text!r}: not a SQL expression over the records' columns "
                        f"({_explain(exc)})") from None
    depth = 0
    ends = [start for start, _ in tokens[1:]] + [len(text)]
    for (start, kind), end in zip(tokens, ends, strict=True):
        if kind == duckdb.token_type.comment:
            raise refuse("a comment")
        if kind != duckdb.token_type.operator:
            continue
        for ch in text[start:end]:
            if ch == ";":
                raise refuse("a ';' ends the statement")
            depth += (ch == "(") - (ch == ")")
            if depth < 0:
                raise refuse("a ')' closes the condition early")
    if depth:
        raise KeepError(f"--keep {text!r}: not a SQL expression over the records' columns "
                        "(unbalanced parentheses)")
    con = condition_connection()
    tree = json.loads(con.execute("SELECT json_serialize_sql(?)", [_wrapped(text)]).fetchall()[0][0])
    if tree.get("error"):
        raise KeepError(f"--keep {text!r}: not a SQL expression over the records' columns "
                        f"({_explain(Exception(tree.get('error_message', 'syntax error')))})")
    statements = tree["statements"]
    node = statements[0]["node"] if len(statements) == 1 else {}
    table = node.get("from_table") or {}
    if (node.get("type") != "SELECT_NODE" or len(node.get("select_list", ())) != 1
            or node.get("modifiers") or (node.get("cte_map") or {}).get("map")
            or any(node.get(k) for k in ("where_clause", "group_expressions", "group_sets",
                                         "having", "sample", "qualify"))
            or table.get("type") != "BASE_TABLE" or table.get("table_name") != "shard"
            or table.get("alias") or table.get("sample") or table.get("schema_name")
            or table.get("catalog_name")):
        raise refuse("not a single expression")
    part = _refused_part(node["select_list"][0])
    if part is not None:
        raise refuse(part)


@dataclass(frozen=True)
class KeepFilter:
    """What a run keeps: :data:`ALL`, :data:`NONE` or a predicate (``text``)."""

    text: str

    @property
    def keeps_all(self) -> bool:
        return self.text == ALL

    @property
    def keeps_none(self) -> bool:
        return self.text == NONE

    @staticmethod
    def parse(text: str, schemas: list[pa.Schema]) -> KeepFilter:
        """The filter of ``--keep text``, checked against each schema of the run's games: a
        predicate that is not one boolean expression over their columns is a :class:`KeepError`
        (before any solving)."""
        text = text.strip()
        if text.lower() in (ALL, NONE):
            return KeepFilter(text.lower())
        if not text:
            raise KeepError("--keep is empty (all, none, or a SQL condition such as 'sg = 0')")
        from pipeline import signals

        duckdb = signals.load("duckdb")  # the run's start: a signal inside would abort (signals.py)

        keep = KeepFilter(text)
        check_condition(text)
        for schema in schemas:
            con = condition_connection()
            empty = schema.empty_table()
            try:
                con.register("shard", empty)
                result = con.sql(_wrapped(text)).to_arrow_table()
            except duckdb.Error as exc:
                raise KeepError(f"--keep {text!r}: not a SQL expression over the records' columns "
                                f"({_explain(exc)})") from None
            finally:
                con.unregister("shard")
            if result.num_rows:  # rows from no records: an aggregate such as count(*) > 0
                raise KeepError(f"--keep {text!r}: an aggregate, not a value per record (one "
                                "expression over a record's columns)")
            kind = result.schema.field("keep").type
            if kind != pa.bool_():
                raise KeepError(f"--keep {text!r}: not a boolean expression (its values are {kind})")
        return keep

    def select(self, table: pa.Table) -> pa.Table | None:
        """The records of ``table`` to keep, in their order; None when there are none. The
        condition is checked again here (:func:`check_condition`, once per process): a cluster
        worker evaluates only what the client would have accepted."""
        if self.keeps_all:
            return table
        if self.keeps_none or not table.num_rows:
            return None
        check_condition(self.text)
        con = condition_connection()
        con.register("shard", table)
        try:
            mask = con.sql(_wrapped(self.text)).to_arrow_table()
        finally:
            con.unregister("shard")
        if mask.num_rows != table.num_rows:  # check_condition and parse() rule this out
            raise KeepError(f"--keep {self.text!r}: {mask.num_rows} values for {table.num_rows} records")
        kept = table.filter(mask.column("keep"), null_selection_behavior="drop")
        return kept if kept.num_rows else None


#: The default: every record kept.
KEEP_ALL = KeepFilter(ALL)
