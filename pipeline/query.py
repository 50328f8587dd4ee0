"""DuckDB over the results store: one view per game, ``slownim``, ``records``, and the macros.

DuckDB is embedded: every command opens an in-memory database whose views read the Parquet
files in place. The board games of the papers always have a view (empty when not computed), so
that statement files run on any store and report ``no data`` rather than fail.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pyarrow as pa

from pipeline import queries_dir  # re-exported: pipeline.query.queries_dir
from pipeline.errors import UsageError
from pipeline.neighbourhood import neighbourhood_macro
from pipeline.schema import (
    ARRAY_SCHEMA,
    BOARD_GAMES,
    BOARD_SCHEMA,
    FLAG_NAMES,
    LCTR_D_GAMES,
    LCTR_D_SCHEMA,
    NR_GAMES,
    SLOWNIM_SCHEMA,
    STATE_SCHEMA,
    SUMMARY_SCHEMA,
    record_kind,
    summary_row,
)
from pipeline.storage import Store, StoreError, literal_path


def _sql_type(t: pa.DataType) -> str:
    if pa.types.is_list(t):
        return _sql_type(t.value_type) + "[]"
    return {
        pa.int16(): "SMALLINT", pa.int32(): "INTEGER", pa.int64(): "BIGINT", pa.bool_(): "BOOLEAN",
    }[t]


def _empty_select(schema: pa.Schema, game: str) -> str:
    cols = [
        f"CAST(NULL AS {'BIGINT' if f.name == 'n' else _sql_type(f.type)}) AS {f.name}"
        for f in schema if f.name != "n"
    ]
    return f"SELECT {', '.join(cols)}, CAST(NULL AS BIGINT) AS n, '{game}' AS game WHERE false"


def quote_name(name: str) -> str:
    """``name`` as a quoted SQL identifier (a view named by a game id such as ``moves_1.2+``)."""
    return '"' + name.replace('"', '""') + '"'


def stored_n(con: duckdb.DuckDBPyConnection) -> dict[str, set[int]]:
    """The n of every (game, n) the views of ``con`` hold, by game (the ``jobs`` view)."""
    return {g: set(ns) for g, ns in con.execute("SELECT game, list(n) FROM jobs GROUP BY game").fetchall()}


def held_prefix(ns: set[int]) -> int:
    """The largest K with 1, 2, …, K all in ``ns`` (0 when 1 is not): the n up to which every
    sub-partition of a stored partition is stored too.

    >>> held_prefix({1, 2, 3, 5}), held_prefix({2, 3})
    (3, 0)
    """
    k = 0
    while k + 1 in ns:
        k += 1
    return k


def _escape(text: str) -> str:
    """``text`` for inside a single-quoted SQL string (a path, say): quotes doubled."""
    return text.replace("'", "''")


def quote_string(text: str) -> str:
    """``text`` as an SQL string literal.

    >>> quote_string("it's")
    "'it''s'"
    """
    return f"'{_escape(text)}'"


_JOB_COLUMNS = {"game": "VARCHAR", "n": "BIGINT", "records": "BIGINT", "shards": "BIGINT",
                "kept": "VARCHAR", "kept_records": "BIGINT", "version": "VARCHAR", "code": "VARCHAR",
                "bytes": "BIGINT", "selection": "VARCHAR"}


def files_list_sql(paths: list[str]) -> str:
    """A DuckDB list of these files, each read as the one file it names (:func:`literal_path`)."""
    return "[" + ", ".join(f"'{_escape(literal_path(p))}'" for p in paths) + "]"


def read_files_sql(paths: list[str], game: str, schemas: Mapping[str, str | None] | None = None) -> str:
    """A query over exactly these Parquet files (the committed files of some (game, n) of
    ``game``), with the view's columns: ``n`` as BIGINT and ``game`` last.

    DuckDB's hive partitioning gives those two from the path (``game=<id>/n=<n>``), which lets
    a query on some n skip the other files unopened, but it takes every ``key=value`` folder of
    the path for a column (a store in ``/data/k=1/results`` would grow a column ``k``), and it is on
    by default for such paths. So where the store's path holds no ``=`` the views use it, and
    elsewhere they take ``n`` from the records (it is in every one) and add ``game``.

    ``schemas``: each file's schema digest, from its (game, n)'s commit record (``schema``, what
    the run wrote it with; None, or absent, where the record does not say). Files of one digest
    are read as one schema; the others by column name (``union_by_name``), which reads every
    file's footer when a query binds and holds them while it runs: about 50 kB a file, 0.4 GB for
    the 8,192 files of one game's view, and DuckDB's memory limit does not cover it. Read with
    their digests, the record statements on LCTR and Downright n ≤ 60 in 16,384 files peak at
    333 MiB, against 2,026 MiB by name (docs/performance.md, "What a store's number of files
    costs")."""
    groups: dict[str | None, list[str]] = {}
    for path in paths:
        groups.setdefault((schemas or {}).get(path), []).append(path)
    if len(groups) > 1:
        return " UNION ALL BY NAME ".join(f"({read_files_sql(group, game, {p: key for p in group})})"
                                          for key, group in groups.items())
    by_name = ", union_by_name = true" if None in groups else ""
    if not any("=" in part for p in paths[:1] for part in Path(p).parent.parent.parent.parts):
        return f"SELECT * FROM read_parquet({files_list_sql(paths)}, hive_partitioning = true{by_name})"
    return (f"SELECT * REPLACE (CAST(n AS BIGINT) AS n), '{_escape(game)}' AS game "
            f"FROM read_parquet({files_list_sql(paths)}, hive_partitioning = false{by_name})")


#: The relation of the files each record view reads in place (game, path), registered on every
#: connection of :func:`connect`; empty when the records were copied into memory.
VIEW_FILES = "_view_files"


def view_files(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """The Parquet files each record view of ``con`` reads in place, by game ({} when its records
    were copied into memory, or ``con`` is not :func:`connect`'s)."""
    out: dict[str, list[str]] = {}
    try:
        rows = con.execute(f"SELECT game, path FROM {VIEW_FILES}").fetchall()
    except duckdb.CatalogException:
        return out
    for game, path in rows:
        out.setdefault(game, []).append(path)
    return out


def view_file_schemas(con: duckdb.DuckDBPyConnection) -> dict[str, str | None]:
    """The schema digest of each file of :func:`view_files` (its commit record's ``schema``, or
    None), for :func:`read_files_sql`."""
    try:
        return dict(con.execute(f"SELECT path, schema FROM {VIEW_FILES}").fetchall())
    except duckdb.CatalogException:
        return {}


class StoreChanged(StoreError):
    """The store changed under a reader: a (game, n) whose files its views list was replaced
    (``run --force``, a repair) or removed since they were built."""

    def __init__(self, gone: list[str]):
        super().__init__(f"the store changed under this reader ({gone[0]} and {len(gone) - 1} more "
                         "files it reads are gone: a run replaced or removed their (game, n)); "
                         "reopen it" if len(gone) > 1 else
                         f"the store changed under this reader ({gone[0]} is gone: a run replaced "
                         "or removed its (game, n)); reopen it")
        self.gone = gone


def gone_files(paths: list[str]) -> list[str]:
    """The files of ``paths`` no longer there. A commit names its files after itself
    (:func:`pipeline.storage.shard_name`), so a (game, n) replaced since a view listed its
    files has none of them left at their paths: a view never reads a newer commit's file as
    an older one's."""
    return [p for p in paths if not os.path.exists(p)]


def _in_range(n: int, min_n: int | None, max_n: int | None) -> bool:
    return (min_n is None or n >= min_n) and (max_n is None or n <= max_n)


def _warn(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


#: Stores with fewer records than this are loaded into memory (many small files scan slowly).
MATERIALIZE_BELOW = 2_000_000


def _check_n_bounds(min_n: int | None, max_n: int | None) -> None:
    """TypeError for an n bound that is not an integer (None: no bound); the views keep the
    commit records' files of min_n ≤ n ≤ max_n only (:func:`_in_range`).

    >>> _check_n_bounds(None, 60)
    >>> _check_n_bounds(1.5, None)
    Traceback (most recent call last):
    TypeError: an n bound must be an integer, not 1.5
    """
    for bound in (min_n, max_n):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)):
            raise TypeError(f"an n bound must be an integer, not {bound!r}")


#: Share of the free disk space that DuckDB may fill with spill files. Joins over a large store
#: spill far more than the store holds (``lctr1.theorem1``, every record joined to its two
#: followers, fills a disk at n ≤ 80: docs/performance.md, "Measurements behind the code").
#: DuckDB's own limit is 90 % of the free space, in ``.tmp/`` of the working directory: a run
#: writing beside it (or anything else on that disk) would then fail for want of space.
SPILL_SHARE = 0.5
_spill_ids = itertools.count()


def _spill_settings(store: Store) -> tuple[str, int]:
    """A spill directory of the connection's own beside the store (on the disk that holds the
    records; the system's temporary directory if the store's parent is not writable), which
    DuckDB creates when it first spills and removes when the connection closes, and its size
    limit in bytes: :data:`SPILL_SHARE` of the free space there."""
    parent = store.root.resolve().parent
    if not os.access(parent, os.W_OK):
        parent = Path(tempfile.gettempdir())
    prefix = f".{store.root.name}.duckdb-spill-"
    remove_stale_spills(parent, prefix)
    path = parent / f"{prefix}{os.getpid()}-{next(_spill_ids)}"
    return path.as_posix(), int(shutil.disk_usage(parent).free * SPILL_SHARE)


def remove_stale_spills(parent: Path, prefix: str) -> None:
    """Remove the spill directories ``<prefix><pid>-<k>`` in ``parent`` whose process is gone.

    DuckDB removes its spill directory when the connection closes, but not when the process is
    killed: a verify that is killed leaves its spill files, which would take from the next
    query's limit (a share of the free space), so they are removed at the next start. A
    directory whose pid is alive (or belongs to another user's process) is left alone.
    """
    for d in parent.glob(f"{prefix}*-*"):
        pid = d.name[len(prefix):].split("-")[0]
        if not pid.isdigit() or not d.is_dir():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # the process is alive
        except ProcessLookupError:
            pass
        except PermissionError:
            continue  # alive, another user's
        shutil.rmtree(d, ignore_errors=True)


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C stopping a query. DuckDB 2.0 turns the SIGINT that arrives while
    a query runs into ``RuntimeError('Query interrupted')`` (neither a KeyboardInterrupt nor a
    ``duckdb.Error``), and the connection stays usable."""
    return isinstance(exc, KeyboardInterrupt | duckdb.InterruptException) or (
        type(exc) is RuntimeError and str(exc).startswith("Query interrupted"))


#: A game id that SQL reads as something else unless double-quoted (docs/definitions.md §6: ``"sn5_4-5"``).
_QUOTED_IDS = re.compile(r'(?<!["\w])((?:sn\d+_[\d-]+)|(?:moves(?:_\d+\.\d+\+?)+))(?!["\w.+-])')


#: What to do about records without the columns ``shape`` and ``ordinal`` (queries/macros.sql's
#: old_store_message says the same when some files of a store have them and others not).
OLD_STORE_HINT = ("records without the shape and ordinal columns (a store written by an older "
                  "partgames): recompute them with `partgames run --force` (same --games and --max-n)")


def explain(exc: Exception, query: str | None = None) -> str:
    """The first line of a DuckDB error, and what to do about it: a query that outgrew the
    spill limit, a game id left unquoted in ``query``, a file that cannot be decoded.

    >>> explain(duckdb.ParserException('Parser Error: syntax error at or near "."'),
    ...         'SELECT * FROM moves_1.2')
    'Parser Error: syntax error at or near "." (quote game ids in SQL: "moves_1.2")'
    """
    text = str(exc)
    first = text.splitlines()[0] if text else type(exc).__name__
    if text.startswith("Out of Memory"):
        first += " (raise DuckDB's limit with --memory-limit, or restrict the query to fewer n with --max-n)"
    if "max_temp_directory_size" in text or "No space left on device" in text:
        first += (f" (the query outgrew the spill space, {SPILL_SHARE:.0%} of the free disk beside "
                  "the store: restrict it to fewer n with --max-n)")
    elif isinstance(exc, duckdb.ParserException) and query:
        unquoted = _QUOTED_IDS.findall(query)
        if unquoted:
            first += f' (quote game ids in SQL: "{unquoted[0]}")'
    elif isinstance(exc, duckdb.IOException) and ("No files found" in text or "No such file" in text) \
            and "/game=" in text:
        first += (" (the store changed under this reader: a run replaced or removed a (game, n) "
                  "it reads; reopen it: run the command again)")
    elif re.search(r'column "(shape|ordinal)" not found', text):
        first += f" ({OLD_STORE_HINT})"
    elif "parquet" in text.lower() or "decompress" in text.lower():
        first += " (a damaged file? `partgames check --deep` names it, `partgames run --repair` redoes it)"
    return first


@dataclass
class Views:
    """A connection with the store's views (:func:`open_views`), the files they read, and
    whether the records were copied into memory (then the views hold those files' records
    as they were when built, whatever happens to the store since)."""

    con: duckdb.DuckDBPyConnection
    files: list[str]
    materialized: bool

    def check_unchanged(self) -> None:
        """:class:`StoreChanged` if a file the views read in place is gone (its (game, n)
        replaced or removed since they were built)."""
        if not self.materialized:
            gone = gone_files(self.files)
            if gone:
                raise StoreChanged(gone)


def register_key_functions(con: duckdb.DuckDBPyConnection) -> None:
    """The SQL functions of partition keys (docs/records.md, "Shape and keys"), vectorized over
    Arrow and computed by numba (:mod:`pipeline.games.features`, imported at the first call):
    ``part_key(parts)`` the key ``n << 40 | ordinal`` of a partition, any integer list (NULL if
    it is not one), ``part_keys(lists)`` that of each entry, ``follower_keys(game, parts)`` the keys of
    the positions a board game's moves reach from ``parts``, one per move, ``partition_at(n,
    ordinal)`` the partition a record's ``parts`` holds (a query that shows the parts of a few
    rows reads them so, not the list column of every record), and ``rules_options(game,
    position)`` the options of a position by a rules game's rules, one per move
    (:mod:`pipeline.rules`; the games this process knows)."""

    def part_key(parts: pa.ChunkedArray) -> pa.Array:
        from pipeline.games.features import partition_key_arrow
        return partition_key_arrow(parts)

    def part_keys(lists: pa.ChunkedArray) -> pa.Array:
        from pipeline.games.features import partition_keys_arrow
        return partition_keys_arrow(lists)

    def follower_keys(games: pa.ChunkedArray, parts: pa.ChunkedArray) -> pa.Array:
        from pipeline.games.features import follower_keys_arrow
        return follower_keys_arrow(games, parts)

    def partition_at(ns: pa.ChunkedArray, ordinals: pa.ChunkedArray) -> pa.Array:
        from pipeline.games.features import partition_at as at
        return at(ns, ordinals)

    def rules_options(games: pa.ChunkedArray, positions: pa.ChunkedArray) -> pa.Array:
        from pipeline.games.generic import rules_options_arrow
        return rules_options_arrow(games, positions)

    # BIGINT lists: DuckDB casts any integer list to them (a SMALLINT[] parameter takes no INTEGER[])
    con.create_function("part_key", part_key, ["BIGINT[]"], "BIGINT", type="arrow",
                        null_handling="special")
    con.create_function("part_keys", part_keys, ["BIGINT[][]"], "BIGINT[]", type="arrow",
                        null_handling="special")
    con.create_function("follower_keys", follower_keys, ["VARCHAR", "SMALLINT[]"], "BIGINT[]",
                        type="arrow")
    con.create_function("partition_at", partition_at, ["BIGINT", "BIGINT"], "SMALLINT[]", type="arrow",
                        null_handling="special")
    con.create_function("rules_options", rules_options, ["VARCHAR", "BIGINT[]"], "BIGINT[][]",
                        type="arrow", null_handling="special")


def connect(results: str | Path, macros: bool = True, min_n: int | None = None,
            max_n: int | None = None, settings: dict[str, str] | None = None,
            on_damage: Callable[[str], None] = _warn, whole_only: bool = False,
            deep: bool = False) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with the views of the store at ``results``, holding the
    records with ``min_n ≤ n ≤ max_n`` (every record by default). ``settings``: DuckDB settings
    by name (``memory_limit``, ``threads``), set before anything is read; a value DuckDB refuses
    is a :class:`pipeline.errors.UsageError` naming the option.

    Small stores are copied into temporary tables, which makes catalogue runs on them an order
    of magnitude faster; large ones are read in place. ``on_damage`` receives one line per
    damaged (game, n) left out of the views (standard error by default).

    The ``summaries`` view has one row per sound (game, n) with a summary, whatever its run kept
    (:mod:`pipeline.summaries`). ``whole_only``: the record views and ``jobs`` hold only the
    (game, n) whose records were all kept (``run --keep all``), as ``verify`` needs.
    """
    return open_views(results, macros, min_n, max_n, settings, on_damage, whole_only, deep).con


#: Times :func:`open_views` builds the views again when a run replaces a (game, n) meanwhile.
BUILD_ATTEMPTS = 3


def open_views(results: str | Path, macros: bool = True, min_n: int | None = None,
               max_n: int | None = None, settings: dict[str, str] | None = None,
               on_damage: Callable[[str], None] = _warn, whole_only: bool = False,
               deep: bool = False) -> Views:
    """:func:`connect`'s connection with the files its views read. A (game, n) replaced while
    the views are built (a file listed by its commit record gone before DuckDB opened it) has
    them built again from the commit records now in place."""
    if min_n is not None and max_n is not None and min_n > max_n:
        raise StoreError(f"--min-n ({min_n}) is above --max-n ({max_n})")
    _check_n_bounds(min_n, max_n)
    store = Store.open(results, create=False)
    for attempt in range(BUILD_ATTEMPTS):
        try:
            return _build_views(store, macros, min_n, max_n, settings, on_damage, whole_only, deep)
        except StoreChanged:
            if attempt == BUILD_ATTEMPTS - 1:
                raise
    raise AssertionError


def _connect(store: Store, macros: bool, settings: dict[str, str] | None) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB with ``settings`` (``SET name = value``; a refused one is a
    :class:`UsageError` naming its option), the store's spill folder and limit, and with
    ``macros`` the key functions and the macros (``queries/macros.sql``, the neighbourhood's)."""
    spill_dir, spill_bytes = _spill_settings(store)
    con = duckdb.connect()
    # DuckDB draws a progress bar on standard output for a query that runs over two seconds,
    # terminal or not: it would land inside `sql --format csv > file` and between verify's
    # lines. Off here; the prompt turns it on for a terminal (pipeline/shell.py).
    con.execute("SET enable_progress_bar = false")
    for name, value in (settings or {}).items():
        try:
            con.execute(f"SET {name} = '{_escape(value)}'")
        except duckdb.Error as exc:
            option = "--" + name.replace("_", "-")
            raise UsageError(f"{option} {value!r}: {explain(exc)}") from None
    # SET, not duckdb.connect(config=…): given there, DuckDB 2.0 reports the size limit but does
    # not enforce it, and a join spills past it (tests/test_query.py holds a join to the limit)
    con.execute(f"SET temp_directory = '{_escape(spill_dir)}'")
    con.execute(f"SET max_temp_directory_size = '{max(spill_bytes, 1 << 20)}B'")
    if macros:
        register_key_functions(con)
        macro_file = queries_dir() / "macros.sql"
        if macro_file.is_file():
            con.execute(macro_file.read_text())
        con.execute(neighbourhood_macro())
    return con


@dataclass
class _Committed:
    """What the views read of the store's sound (game, n) in range, from their commit records."""

    #: The record files of each game (absolute paths), in the commit records' order.
    files: dict[str, list[str]]
    #: Per (game, n): its files, their rows (None when the record lacks them), and ``kept``.
    shards: dict[tuple[str, int], tuple[list[str], list[int | None], str]]
    #: Each file's schema digest (the commit record's ``schema``; None where it has none).
    schemas: dict[str, str | None]
    #: One row of the ``jobs`` view (:data:`_JOB_COLUMNS`) per (game, n).
    jobs: list[dict]
    #: One row of the ``summaries`` view per (game, n) whose record has a summary.
    summaries: list[dict]
    #: How many (game, n) in range have no summary.
    unsummarised: int


def _committed(store: Store, min_n: int | None, max_n: int | None, on_damage: Callable[[str], None],
               whole_only: bool, deep: bool) -> _Committed:
    """The sound (game, n) of ``store`` with ``min_n`` ≤ n ≤ ``max_n`` (``whole_only``: their
    files only when every record is kept; ``deep``: soundness checked by hashing every byte),
    a warning through ``on_damage`` for each damaged one."""
    root = store.root.resolve()
    # The views read the files named by the commit records of the sound (game, n), and only
    # those: a damaged (game, n) (a file missing, resized or rewritten since its commit) is left
    # out with a warning, so that no query reads it as data.
    sound, damaged = store.committed()
    if deep:
        sound, damaged = _hashed(store, sound, damaged, min_n, max_n)
    for damage in damaged:
        on_damage(f"partgames: warning: {damage.line()}; left out of the views "
                  f"(`partgames run` recomputes it, `partgames check` lists the damage)")
    found = _Committed({}, {}, {}, [], [], 0)
    for game, n, record in sound:
        if not _in_range(n, min_n, max_n):
            continue
        if "summary" in record:
            found.summaries.append(summary_row(game, n, record))
        else:
            found.unsummarised += 1
        kept = record.get("kept", "all")
        if whole_only and kept != "all":
            continue
        job = (root / f"game={game}" / f"n={n}").as_posix()
        paths = [f"{job}/{f['name']}" for f in record["files"]]
        found.files.setdefault(game, []).extend(paths)
        found.shards[game, n] = (paths, [f.get("rows") for f in record["files"]], kept)
        found.schemas.update(dict.fromkeys(paths, record.get("schema")))
        found.jobs.append({"game": game, "n": n, "records": record["records"], "shards": record["shards"],
                           "kept": kept, "kept_records": record.get("kept_records", record["records"]),
                           "version": record.get("version"), "code": record.get("code"),
                           "bytes": sum(f["bytes"] for f in record["files"]),
                           # a family run's or partitions file's (game, n): which one (NULL: every
                           # partition of n, an exhaustive run's)
                           "selection": record.get("selection")})
    return found


def _game_views(con: duckdb.DuckDBPyConnection, files: dict[str, list[str]],
                schemas: dict[str, str | None], small: bool, on_damage: Callable[[str], None]) -> None:
    """One view per game of ``files`` over its files (copied into memory when ``small``); a
    :class:`StoreChanged` when files were replaced meanwhile."""
    try:
        for game in sorted(files):
            source = read_files_sql(files[game], game, schemas)
            if small:
                source = _materialize(con, game, files[game], on_damage)
            con.execute(f"CREATE VIEW {quote_name(game)} AS {source}")
    except duckdb.Error:
        gone = gone_files([f for g in sorted(files) for f in files[g]])
        if gone:  # replaced meanwhile: built again by open_views
            con.close()
            raise StoreChanged(gone) from None
        raise


def _uncomputed_views(con: duckdb.DuckDBPyConnection, games: list[str],
                      shards: dict[tuple[str, int], tuple[list[str], list[int | None], str]],
                      schemas: dict[str, str | None], small: bool) -> None:
    """The views a statement may name whatever the store holds: an empty one for each board,
    non-repetitive, rules and d-dimensional LCTR game not in ``games``, the pair views
    (:data:`PAIRED_GAMES`) and ``slownim`` (every Slow SetNim game's records)."""
    from pipeline.rules import known_game_ids, positions_of, state_of  # no numba

    for game in (*BOARD_GAMES, *NR_GAMES, *known_game_ids()):
        if game not in games:
            # a rules game whose positions carry state has its `state` column, one whose
            # positions are its own arrays no partition column (docs/rules.md)
            schema = (ARRAY_SCHEMA if positions_of(game) == "arrays"
                      else STATE_SCHEMA if state_of(game) else BOARD_SCHEMA)
            con.execute(f"CREATE VIEW {quote_name(game)} AS {_empty_select(schema, game)}")
    for game in LCTR_D_GAMES:  # empty when not computed, as the board games: a statement names them
        if game not in games:
            con.execute(f"CREATE VIEW {quote_name(game)} AS {_empty_select(LCTR_D_SCHEMA, game)}")
    for a, b in PAIRED_GAMES:
        con.execute(f"CREATE VIEW {a}_{b} AS {pair_sql(a, b, shards, in_place=not small, schemas=schemas)}")
    sn = slownim_games(con, games)
    if sn:
        union = " UNION ALL BY NAME ".join(f"SELECT * FROM {quote_name(g)}" for g in sn)
        con.execute(f"CREATE VIEW slownim AS {union}")
    else:
        con.execute(f"CREATE VIEW slownim AS {_empty_select(SLOWNIM_SCHEMA, 'sn')}")


def record_kinds(con: duckdb.DuckDBPyConnection, games: list[str]) -> dict[str, str]:
    """The kind of records (:func:`pipeline.schema.record_kind`) each of these games' views
    holds, told by the view's columns, which are those of the records the game wrote (its
    ``Game.schema``): the store says what each game is, with no game module loaded."""
    if not games:
        return {}
    rows = con.execute("SELECT table_name, list(column_name) FROM duckdb_columns() "
                       "WHERE schema_name = 'main' AND table_name IN (SELECT unnest(?)) GROUP BY table_name",
                       [list(games)]).fetchall()
    return {name: record_kind(columns) for name, columns in rows}


def slownim_games(con: duckdb.DuckDBPyConnection, games: list[str]) -> list[str]:
    """Those of ``games`` whose records are Slow SetNim's (the members of the ``slownim`` view)."""
    kinds = record_kinds(con, games)
    return [g for g in games if kinds.get(g) == "slownim"]


def _records_view(con: duckdb.DuckDBPyConnection, games: list[str]) -> None:
    """The view ``records``: every game's records (by column name), or an empty view."""
    if games:
        union = " UNION ALL BY NAME ".join(f"SELECT * FROM {quote_name(g)}" for g in games)
        if set(record_kinds(con, games).values()) <= {"lctr_d", "arrays"}:
            # d-dimensional LCTR's records and those of rules on arrays lack the partition
            # features (pipeline.schema LCTR_D_FIELDS, ARRAY_SCHEMA): NULL columns of the board
            # schema keep `records` readable by the statements that name them
            union += f" UNION ALL BY NAME {_empty_select(BOARD_SCHEMA, 'none')}"
        con.execute(f"CREATE VIEW records AS {union}")
    else:
        con.execute(f"CREATE VIEW records AS {_empty_select(SLOWNIM_SCHEMA, 'none')}")


def _build_views(store: Store, macros: bool, min_n: int | None, max_n: int | None,
                 settings: dict[str, str] | None, on_damage: Callable[[str], None],
                 whole_only: bool, deep: bool = False) -> Views:
    con = _connect(store, macros, settings)
    committed = _committed(store, min_n, max_n, on_damage, whole_only, deep)
    files = committed.files
    games = sorted(files)
    every_file = [f for g in games for f in files[g]]
    small = sum(j["kept_records"] for j in committed.jobs) < MATERIALIZE_BELOW
    _game_views(con, files, committed.schemas, small, on_damage)
    _uncomputed_views(con, games, committed.shards, committed.schemas, small)
    # Provenance: one row per sound (game, n) from its commit record, with the release and the
    # code (pipeline.source_digest) that computed it, and its bytes on disk.
    jobs_table = pa.Table.from_pylist(committed.jobs, schema=pa.schema(
        [(c, {"VARCHAR": pa.string(), "BIGINT": pa.int64()}[t]) for c, t in _JOB_COLUMNS.items()]))
    con.register("_jobs_table", jobs_table)
    con.execute("CREATE VIEW jobs AS SELECT * FROM _jobs_table ORDER BY game, n")
    if committed.unsummarised:
        on_damage(f"partgames: warning: {committed.unsummarised} (game, n) have no summary (an older "
                  "partgames committed them); `partgames check --adopt` adds them")
    # the files each record view reads in place (none when copied into memory): verify's join
    # pass reads a neighbour's records from the files that hold them (view_files)
    in_place = [(g, f) for g in games if not small for f in files[g]]
    con.register(VIEW_FILES, pa.table({"game": pa.array([g for g, _ in in_place], pa.string()),
                                       "path": pa.array([f for _, f in in_place], pa.string()),
                                       "schema": pa.array([committed.schemas.get(f) for _, f in in_place],
                                                          pa.string())}))
    con.register("_summaries_table", pa.Table.from_pylist(committed.summaries, schema=SUMMARY_SCHEMA))
    con.execute("CREATE VIEW summaries AS SELECT * FROM _summaries_table ORDER BY game, n")
    _records_view(con, games)
    return Views(con, every_file, small)


#: Games that solve the same partitions of n in the same order (the walk's; ``ordinal`` counts up
#: through a (game, n)'s files): the view ``<a>_<b>`` pairs their records of each n.
PAIRED_GAMES = (("lctr", "downright"),)
#: The columns of each game in a pair view, as ``<game>_<column>``.
PAIRED_COLUMNS = ("sg", "sg_misere", "nodes", "leaves", "states", "height", *FLAG_NAMES)


def pair_sql(a: str, b: str, shards: dict[tuple[str, int], tuple[list[str], list[int | None], str]],
             in_place: bool, schemas: Mapping[str, str | None] | None = None) -> str:
    """The records of games ``a`` and ``b`` of each n both hold, side by side: ``n``,
    ``ordinal``, ``parts``, each game's :data:`PAIRED_COLUMNS` as ``<game>_<column>``, and
    ``aligned``, whether the two records are of the same partition (NULL or false: the store
    contradicts itself, and a statement over the pairs counts the row as a counterexample).

    ``shards``: per (game, n), the committed files, their row counts and what the run kept.
    Where both (game, n) are whole, read in place and their files hold the same numbers of
    rows, the records are paired by position (DuckDB's POSITIONAL JOIN of the two file lists,
    a scan of both in step: LCTR and Downright n = 70, 4.1 M pairs, 0.22 s against 2.92 s for
    the hash join on (n, ordinal)); elsewhere by a join on (n, ordinal). ``schemas``: the
    files' schema digests, as :func:`read_files_sql` reads them."""
    cols = ", ".join(f"{x}.{c} AS {g}_{c}" for x, g in (("x", a), ("y", b)) for c in PAIRED_COLUMNS)
    select = f"SELECT x.n, x.ordinal, x.parts, {cols}"
    common = sorted({n for g, n in shards if g == a} & {n for g, n in shards if g == b})
    positional = [n for n in common if in_place and shards[a, n][2] == shards[b, n][2] == "all"
                  and None not in shards[a, n][1] and shards[a, n][1] == shards[b, n][1]]
    hashed = [n for n in common if n not in positional]
    branches = [f"{select}, x.ordinal = y.ordinal AND x.n = y.n AS aligned "
                f"FROM ({read_files_sql(shards[a, n][0], a, schemas)}) x "
                f"POSITIONAL JOIN ({read_files_sql(shards[b, n][0], b, schemas)}) y" for n in positional]
    if hashed or not branches:
        ns = ", ".join(map(str, hashed)) or "NULL"
        branches.append(f"{select}, true AS aligned FROM {quote_name(a)} x JOIN {quote_name(b)} y "
                        f"ON y.n = x.n AND y.ordinal = x.ordinal WHERE x.n IN ({ns})")
    return " UNION ALL ".join(f"({q})" for q in branches)


def _hashed(store: Store, sound: list, damaged: list, min_n: int | None, max_n: int | None
            ) -> tuple[list, list]:
    """``sound`` with every (game, n) of min_n ≤ n ≤ max_n whose files' SHA-256 differ from their
    commit record's moved to ``damaged`` (hashed on threads: hashlib releases the GIL)."""
    from concurrent.futures import ThreadPoolExecutor

    from pipeline.storage import Damage, DamageError, check_job

    def check(item: tuple[str, int, dict]) -> Damage | None:
        game, n, record = item
        if not _in_range(n, min_n, max_n):
            return None
        try:
            check_job(store.job_dir(game, n), deep=True, record=record)
        except DamageError as exc:
            return Damage(game, n, str(exc))
        return None

    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        found = list(pool.map(check, sound))
    bad = {(d.game, d.n) for d in found if d is not None}
    return ([s for s in sound if (s[0], s[1]) not in bad],
            sorted(damaged + [d for d in found if d is not None], key=lambda d: (d.game, d.n)))


def _materialize(con: duckdb.DuckDBPyConnection, game: str, paths: list[str],
                 on_damage: Callable[[str], None]) -> str:
    """Copy a game's files into a temporary table and return a query over it. A file DuckDB
    cannot read (damage that left its size, inode and ctime alone) is left out with a warning
    naming it, instead of failing every query of the store."""
    table = quote_name("_t_" + game)
    try:
        con.execute(f"CREATE TEMP TABLE {table} AS {read_files_sql(paths, game)}")
    except duckdb.Error:
        gone = gone_files(paths)
        if gone:
            raise StoreChanged(gone) from None
        readable = []
        for path in paths:
            try:
                con.execute(f"SELECT count(*) FROM read_parquet('{_escape(literal_path(path))}')").fetchall()
                readable.append(path)
            except duckdb.Error as exc:
                on_damage(f"partgames: warning: {path} is unreadable ({explain(exc)}); left out of "
                          f"the views (`partgames check --deep` and `partgames run --repair`)")
        bad_jobs = {p.rsplit("/", 1)[0] for p in paths if p not in readable}
        keep = [p for p in paths if p.rsplit("/", 1)[0] not in bad_jobs]  # whole (game, n) only
        if not keep:  # no file tells the records' columns: the game does, if this process knows it
            from pipeline.games import known_game

            known = known_game(game)
            return _empty_select(known.schema if known is not None else BOARD_SCHEMA, game)
        con.execute(f"CREATE TEMP TABLE {table} AS {read_files_sql(keep, game)}")
    return f"SELECT * FROM {table}"


def format_result(rel: duckdb.DuckDBPyRelation | pa.Table | None, fmt: str, max_rows: int = 10_000) -> str:
    """A query result as an aligned table, CSV or JSON (an array of objects)."""
    if rel is None:
        return ""
    table = rel if isinstance(rel, pa.Table) else rel.to_arrow_table()
    if fmt == "csv":
        import csv
        import io

        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(table.column_names)
        for row in table.to_pylist():
            writer.writerow([_csv_value(v) for v in row.values()])
        return buf.getvalue().rstrip("\n")
    if fmt == "json":
        import json

        return json.dumps(table.to_pylist(), default=str)
    return _text_table(table, max_rows)


def _csv_value(v: object) -> object:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ",".join(str(x) for x in v) + "]"
    return "" if v is None else v


def _text_table(table: pa.Table, max_rows: int) -> str:
    rows = table.slice(0, max_rows).to_pylist()
    names = table.column_names
    cells = [[_show(r[c]) for c in names] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(names)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(names, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    more = table.num_rows - len(rows)
    lines.append(f"({table.num_rows} row{'s' if table.num_rows != 1 else ''}"
                 + (f", first {len(rows)} shown)" if more > 0 else ")"))
    return "\n".join(lines)


def _show(v: object) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, list):
        return "(" + ",".join(_show(x) for x in v) + ")"
    return str(v)
