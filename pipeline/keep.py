"""``partgames run --keep``: which solved records a run writes to the store.

``all`` (the default) keeps every record, ``none`` keeps none (the run writes the summaries of
:mod:`pipeline.summaries` only), and anything else is a SQL boolean expression over a record's
columns (docs/records.md), with the macros of ``queries/macros.sql``, e.g.
``sg = 0 OR NOT domestic``: each solved shard keeps the records for which it is true (NULL counts
as false). The summaries cover every record solved, whatever is kept.

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
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyarrow as pa

from pipeline.errors import PartgamesError

if TYPE_CHECKING:
    import duckdb

ALL = "all"
NONE = "none"


class KeepError(PartgamesError, ValueError):
    """A ``--keep`` that is neither ``all``, ``none`` nor a boolean expression over the records."""


_local = threading.local()


def _connection() -> duckdb.DuckDBPyConnection:
    """This thread's DuckDB connection for evaluating predicates (one thread each: the solver
    threads already use every core), with the macros of ``queries/macros.sql``."""
    con = getattr(_local, "con", None)
    if con is None:
        import duckdb  # only for a run that filters: `run` starts without DuckDB otherwise

        from pipeline.query import queries_dir

        con = duckdb.connect()
        con.execute("SET threads = 1")
        macros = queries_dir() / "macros.sql"
        if macros.is_file():
            con.execute(macros.read_text())
        _local.con = con
    return con


def _explain(exc: Exception) -> str:
    """DuckDB's message, first line, without its error-class prefix and the query it echoes."""
    line = str(exc).strip().splitlines()[0]
    return re.sub(r"^[A-Za-z ]+Error: ", "", line)


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
        import duckdb

        keep = KeepFilter(text)
        for schema in schemas:
            con = _connection()
            empty = schema.empty_table()
            try:
                if len(duckdb.extract_statements(f"SELECT ({text})")) != 1:
                    raise KeepError(f"--keep {text!r}: one expression, not several statements")
                con.register("shard", empty)
                result = con.sql(f"SELECT ({text}) AS keep FROM shard").to_arrow_table()
            except duckdb.Error as exc:
                raise KeepError(f"--keep {text!r}: not a SQL expression over the records' columns "
                                f"({_explain(exc)})") from None
            finally:
                con.unregister("shard")
            kind = result.schema.field("keep").type
            if kind != pa.bool_():
                raise KeepError(f"--keep {text!r}: not a boolean expression (its values are {kind})")
        return keep

    def select(self, table: pa.Table) -> pa.Table | None:
        """The records of ``table`` to keep, in their order; None when there are none."""
        if self.keeps_all:
            return table
        if self.keeps_none or not table.num_rows:
            return None
        con = _connection()
        con.register("shard", table)
        try:
            mask = con.sql(f"SELECT ({self.text}) AS keep FROM shard").to_arrow_table()
        finally:
            con.unregister("shard")
        kept = table.filter(mask.column("keep"), null_selection_behavior="drop")
        return kept if kept.num_rows else None


#: The default: every record kept.
KEEP_ALL = KeepFilter(ALL)
