"""A store opened in a notebook: SQL, value grids, the statement catalogue (docs/pictures.md).

``from pipeline import Store`` gives :class:`Store`, the read side of a results folder for
exploring in Jupyter: one DuckDB connection with the views of ``partgames sql``
(docs/records.md), :meth:`Store.sql` returning DuckDB relations (``.df()``, ``.pl()``,
``.arrow()``), :meth:`Store.draw` returning matplotlib figures (which a notebook shows inline),
:meth:`Store.verify` the catalogue's results as a relation. It writes nothing to the store;
:class:`pipeline.storage.Store` is the on-disk machinery below it (staging, commits, checks),
which ``partgames run`` and ``check`` use.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
import pyarrow as pa

from pipeline.pictures import draw_grid, value_grid
from pipeline.query import open_views
from pipeline.verify import verify

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Columns of :meth:`Store.verify`, one row per statement.
VERIFY_COLUMNS = pa.schema([
    ("id", pa.string()), ("source", pa.string()), ("kind", pa.string()), ("status", pa.string()),
    ("rows", pa.int64()), ("min_n", pa.int64()), ("max_n", pa.int64()), ("counterexamples", pa.int64()),
    ("printed_counterexamples", pa.int64()), ("skipped", pa.int64()), ("seconds", pa.float64()),
    ("examples", pa.string()),
])


class Store:
    """The records of the store at ``results`` (those with ``min_n ≤ n ≤ max_n``), read-only.

    ``memory_limit`` and ``threads`` are DuckDB's (as ``partgames sql --memory-limit``)."""

    def __init__(self, results: str | Path = "results", min_n: int | None = None, max_n: int | None = None,
                 memory_limit: str | None = None, threads: int | None = None):
        self.results = Path(results)
        self.min_n, self.max_n = min_n, max_n
        self.settings = {k: str(v) for k, v in (("memory_limit", memory_limit), ("threads", threads))
                         if v is not None}
        self._views = open_views(self.results, min_n=min_n, max_n=max_n, settings=self.settings)
        self.con = self._views.con

    def __repr__(self) -> str:
        games, records = self.con.execute(
            "SELECT count(DISTINCT game), coalesce(sum(records), 0) FROM jobs").fetchall()[0]
        return f"Store({str(self.results)!r}: {games} games, {records:,} records)"

    def sql(self, query: str) -> duckdb.DuckDBPyRelation:
        """A DuckDB relation over the views (one per game, ``records``, ``slownim``, ``jobs``)
        and the macros of ``queries/macros.sql``: ``.df()``, ``.pl()``, ``.arrow()`` or shown
        as it is.

        Small stores are copied into memory when the Store is made, and the relations read that
        copy, whatever runs do to the store since. Larger ones are read in place, and a run
        replacing or removing a (game, n) they read (``run --force``, a repair) makes this
        raise :class:`pipeline.query.StoreChanged` ("the store changed under this reader;
        reopen it"), and a relation already made fail when run (DuckDB finds the files gone: a
        commit's files are named after it, so no newer commit's file is read in their place)."""
        self._views.check_unchanged()
        return self.con.sql(query)

    def draw(self, game: str, parts: Sequence[int], misere: bool = False, both: bool = False) -> Figure:
        """The Young diagram of ``parts`` with the value of ``game`` on each box (sg of λ[i,j];
        misère with ``misere``, both side by side with ``both``), as ``partgames draw`` draws
        it. Values the store lacks are solved."""
        values = ("sg", "sg_misere") if both else ("sg_misere",) if misere else ("sg",)
        return draw_grid(value_grid(game, parts, con=self.con), values)

    def verify(self, only: str | Sequence[str] | None = None) -> duckdb.DuckDBPyRelation:
        """Run the statements of the catalogue (all, or the ids or globs of ``only``, such as
        ``"lctr*"``) on these records: one row per statement, its first counterexamples as
        JSON text in ``examples``."""
        select = [only] if isinstance(only, str) else list(only) if only is not None else None
        rows = []
        for r in verify(self.results, select, min_n=self.min_n, max_n=self.max_n, settings=self.settings):
            d = r.as_dict()
            d["printed_counterexamples"] = r.printed_counterexamples
            d["examples"] = json.dumps(d["examples"], default=str)
            rows.append({c: d.get(c) for c in VERIFY_COLUMNS.names})
        return self.con.from_arrow(pa.Table.from_pylist(rows, schema=VERIFY_COLUMNS))

    def report(self, out: str | Path | None = None) -> Path:
        """Write ``partgames report``'s HTML file (default ``RESULTS/report.html``); its path."""
        from pipeline.report import write_report

        path = Path(out) if out is not None else self.results / "report.html"
        write_report(self.results, path, min_n=self.min_n, max_n=self.max_n, settings=self.settings)
        return path
