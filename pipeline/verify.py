"""`partgames verify`: run the statement catalogue in ``queries/`` (format: queries/FORMAT.md).

Like dbt's data tests, a statement is a SQL query returning the rows that contradict it; an empty
result means it holds on every record examined. The ``domain`` query says which records those
are, so a statement about games or families with no records reports ``no data``, never
``holds``.

No statement fails for want of data. A statement that reads records beyond the one it checks (a
follower, a sub-partition, a conjugate, another game's record) declares so in its ``needs``
header, and runs on views cut down to the records whose neighbours the store holds
(:func:`restricted_views`); the domain rows cut away are reported as skipped. A statement that
rests on named witnesses lists them in its ``witnesses`` header and is ``partial``, not
``holds``, while some are absent.
"""

from __future__ import annotations

import fnmatch
import json
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pyarrow as pa

from pipeline.errors import PartgamesError
from pipeline.neighbourhood import COLUMNS, neighbourhood_sql, neighbours_read
from pipeline.neighbourhood_table import (
    LIST_COLUMNS,
    ColumnCache,
    RecordArrays,
    column_cache_directory,
    neighbourhood_table,
    own_columns,
)
from pipeline.query import (
    connect,
    explain,
    files_list_sql,
    held_prefix,
    queries_dir,
    quote_name,
    quote_string,
    read_files_sql,
    slownim_games,
    stored_n,
    view_file_schemas,
    view_files,
)
from pipeline.schema import BOARD_GAMES
from pipeline.storage import Store

MUST_HOLD = {"theorem", "lemma", "proposition", "corollary", "observation", "erratum", "model", "claim",
             "consistency"}
KINDS = MUST_HOLD | {"conjecture"}
REQUIRED = ("id", "source", "kind", "statement", "covers", "domain")
#: The keys of a statement in the predicate form (queries/FORMAT.md): the games whose records it
#: checks, and per clause (``where``/``assert``, ``where_2``/``assert_2``, ...) the records it
#: examines and the predicate each of them must satisfy. verify evaluates every such statement
#: of a game in one scan of its records (:func:`fused_counts`).
PREDICATE_KEYS = ("games", "where", "assert", "show", "printed", "printed_where")
#: What a statement reads beyond the record it checks (queries/FORMAT.md, ``needs``):
#:   record     nothing (at most records of its own game at the same n: a (game, n) is stored whole)
#:   same n     records of the other games it reads at the same n
#:   followers  records of its own game at smaller n (each game's records joined to its own only)
#:   smaller n  records of every game it reads at every n up to its own (the default)
#:   checked    the statement itself restricts its counterexamples to records whose neighbours are
#:              stored (macro ``stored``) and says which domain rows it examined (column ``examined``)
NEEDS = ("record", "same n", "followers", "smaller n", "checked")
DEFAULT_NEEDS = "smaller n"
PRINTED_MARK = "-- printed form:"
EXAMPLES = 5


class StatementError(PartgamesError, ValueError):
    """A statement file that does not follow queries/FORMAT.md."""


@dataclass(frozen=True)
class Clause:
    """One ``where``/``assert`` pair of a statement in the predicate form: the records with
    ``where`` are examined, those without ``assert`` are counterexamples."""
    where: str
    check: str
    label: str | None = None
    #: The games the clause is about (``on``/``on_2``, ...; None: every game of ``games``).
    on: tuple[str, ...] | None = None

    def about(self, game: str) -> bool:
        return self.on is None or game in self.on


@dataclass
class Statement:
    path: Path
    header: dict[str, str]
    query: str
    printed_query: str | None = None
    #: The predicate form (queries/FORMAT.md): games, clauses, printed clauses, columns shown.
    games: tuple[str, ...] = ()
    clauses: tuple[Clause, ...] = ()
    printed_clauses: tuple[Clause, ...] = ()
    show: str = ""

    @property
    def fusable(self) -> bool:
        """Whether verify may evaluate it in the shared scan of its games' records (``needs:
        record``) or of their neighbourhoods (``needs: followers``): a statement in the predicate
        form."""
        return bool(self.clauses) and self.needs in ("record", "followers")

    @property
    def id(self) -> str:
        return self.header["id"]

    @property
    def kind(self) -> str:
        return self.header["kind"]

    @property
    def needs(self) -> str:
        return self.header["needs"]


def parse_statement(path: Path, text: str | None = None) -> Statement:
    """Read one statement file: ``-- key: value`` header lines, then the query (``text``: the
    file's content, for a statement written by partgames, :mod:`pipeline.rules_verify`)."""
    header: dict[str, str] = {}
    body: list[str] = []
    last = None
    in_header = True
    for line in (path.read_text() if text is None else text).splitlines():
        if in_header:
            m = re.match(r"--\s?([a-z][a-z_0-9]*):\s?(.*)$", line)
            if m and line.strip() != PRINTED_MARK:
                last = m.group(1)
                header[last] = m.group(2).strip()
                continue
            if last and re.match(r"--\s{2,}\S", line):
                header[last] += " " + line[2:].strip()
                continue
            if not line.strip() or (line.startswith("--") and line.strip() != PRINTED_MARK):
                continue
            in_header = False
        body.append(line)
    if "assert" in header:
        return _predicate_statement(path, header, body)
    missing = [k for k in REQUIRED if not header.get(k)]
    if missing:
        raise StatementError(f"{path}: header lacks {', '.join(missing)}")
    if header["kind"] not in KINDS:
        raise StatementError(f"{path}: kind {header['kind']!r} is not one of {sorted(KINDS)}")
    header.setdefault("needs", DEFAULT_NEEDS)
    if header["needs"] not in NEEDS:
        raise StatementError(f"{path}: needs {header['needs']!r} is not one of {list(NEEDS)}")
    text = "\n".join(body)
    printed = None
    if PRINTED_MARK in text:
        text, printed = text.split(PRINTED_MARK, 1)
        printed = _strip_query(printed)
    elif header["kind"] in ("erratum", "model"):
        raise StatementError(f"{path}: kind {header['kind']} needs a '{PRINTED_MARK}' query")
    query = _strip_query(text)
    if not query:
        raise StatementError(f"{path}: no query")
    return Statement(path, header, query, printed)


def _clauses(header: dict[str, str], check_key: str, where_key: str) -> tuple[Clause, ...]:
    out = []
    for i in range(1, 100):
        suffix = "" if i == 1 else f"_{i}"
        if check_key + suffix not in header:
            break
        where = header.get(where_key + suffix) or header.get("where" + suffix) or "true"
        on = header.get("on" + suffix)
        out.append(Clause(where, header[check_key + suffix], header.get("label" + suffix),
                          tuple(g.strip() for g in on.split(",")) if on else None))
    return tuple(out)


def _predicate_statement(path: Path, header: dict[str, str], body: list[str]) -> Statement:
    """A statement in the predicate form (queries/FORMAT.md): its domain, query and printed form
    written out from ``games``, ``where``, ``assert`` and ``printed``, so that it also runs alone
    (and on ad-hoc connections) exactly as the shared scan counts it."""
    if any(line.strip() and not line.strip().startswith("--") for line in body):
        raise StatementError(f"{path}: a statement with 'assert' has no query (its rows are the records "
                             "with 'where' and not 'assert')")
    missing = [k for k in REQUIRED if k != "domain" and not header.get(k)] + [k for k in ("games",) if
                                                                              not header.get(k)]
    if missing:
        raise StatementError(f"{path}: header lacks {', '.join(missing)}")
    if "domain" in header:
        raise StatementError(f"{path}: a statement with 'assert' has no 'domain' (it is the records "
                             "with 'where')")
    if header["kind"] not in KINDS:
        raise StatementError(f"{path}: kind {header['kind']!r} is not one of {sorted(KINDS)}")
    header.setdefault("needs", "record")
    if header["needs"] not in ("record", "followers"):
        raise StatementError(f"{path}: a statement with 'assert' reads the record (needs: record) or its "
                             "neighbourhood (needs: followers)")
    games = tuple(g.strip() for g in header["games"].split(",") if g.strip())
    clauses = _clauses(header, "assert", "where")
    printed = _clauses(header, "printed", "printed_where")
    if header["kind"] in ("erratum", "model") and not printed:
        raise StatementError(f"{path}: kind {header['kind']} needs a 'printed' predicate")
    show = header.get("show", "")
    followers = header["needs"] == "followers"
    header["domain"] = " UNION ALL ".join(
        f"SELECT n FROM {_source(g, followers)} WHERE {_subjects(followers)}({_any_where(clauses, g)})"
        for g in games)
    return Statement(path, header, _predicate_query(games, clauses, show, followers),
                     _predicate_query(games, printed, show, followers) if printed else None,
                     games, clauses, printed, show)


def _source(game: str, followers: bool) -> str:
    """What the predicate form reads: the game's records, or their neighbourhoods
    (:mod:`pipeline.neighbourhood`) for ``needs: followers``."""
    return f"neighbourhood('{game}')" if followers else quote_name(game)


def _subjects(followers: bool) -> str:
    """A follower statement checks the records of the pass's chunk of n (macro verify_subject)."""
    return f"{SUBJECT_MACRO}n) AND " if followers else ""


def _any_where(clauses: tuple[Clause, ...], game: str) -> str:
    """The records of ``game`` a statement examines: those of any clause about it."""
    return " OR ".join(f"({c.where})" for c in clauses if c.about(game)) or "false"


def _predicate_query(games: tuple[str, ...], clauses: tuple[Clause, ...], show: str,
                     followers: bool = False) -> str:
    """The counterexamples of the predicate form: per game and clause, the records with
    ``where`` and not ``assert`` (NULL is no counterexample, as in a WHERE clause)."""
    labelled = any(c.label for c in clauses)
    cols = "n, parts" + (f", {show}" if show else "")
    return "\nUNION ALL\n".join(
        f"SELECT '{g}' AS game, " + (f"{quote_string(c.label or '')} AS family, " if labelled else "")
        + f"{cols} FROM {_source(g, followers)} "
        + f"WHERE {_subjects(followers)}({c.where}) AND {_fails(c, followers)}"
        for g in games for c in clauses if c.about(g))


def _fails(clause: Clause, followers: bool) -> str:
    """A record's failure of a clause: ``assert`` false (a NULL is no counterexample, as in a WHERE
    clause), or, over a neighbourhood, not true: there a NULL is a neighbour's record missing,
    and a statement never holds on a record it could not check."""
    return f"({clause.check}) IS NOT TRUE" if followers else f"NOT ({clause.check})"


def _strip_query(text: str) -> str:
    return text.strip().rstrip(";").strip()


def statement_files(root: Path) -> list[Path]:
    """The statement files under a ``queries/`` folder (not macros, not searches)."""
    return [p for p in sorted(root.rglob("*.sql"))
            if p.name != "macros.sql" and "search" not in p.relative_to(root).parts]


def load_catalogue(root: Path | None = None, select: list[str] | None = None,
                   extra: list[Statement] | None = None) -> list[Statement]:
    """Every statement file under ``queries/`` (not macros, not searches) and the ``extra``
    statements (a rules game's, :mod:`pipeline.rules_verify`), sorted by id."""
    root = root or queries_dir()
    statements = [parse_statement(p) for p in statement_files(root)] + list(extra or [])
    ids = [s.id for s in statements]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise StatementError(f"duplicate statement ids: {', '.join(sorted(dup))}")
    if select:
        def matches(pat: str, st: Statement) -> bool:  # a shell glob: the dots of ids are dots
            return fnmatch.fnmatchcase(st.id, pat)

        # A mistyped id must not pass as "0 statements, 0 fail": that reads as a success.
        unmatched = [pat for pat in select if not any(matches(pat, st) for st in statements)]
        if unmatched:
            raise StatementError(f"--only {', '.join(map(repr, unmatched))} matches no statement "
                                 f"(ids such as lctr1.lemma2 or chess.*: see queries/)")
        statements = [st for st in statements if any(matches(pat, st) for pat in select)]
    return sorted(statements, key=lambda s: s.id)


@dataclass
class Result:
    id: str
    source: str
    kind: str
    status: str  # holds / fails / partial / no data / error
    rows: int
    min_n: int | None
    max_n: int | None
    counterexamples: int
    examples: list[dict] = field(default_factory=list)
    printed_counterexamples: int | None = None
    error: str | None = None
    #: Wall time of the statement's queries (domain, counterexamples, printed form).
    seconds: float = 0.0
    #: Domain rows left out because the store lacks records they need (``needs``).
    skipped: int = 0
    #: Witnesses (``witnesses`` header) absent from the store: the status is then ``partial``
    #: or ``no data``, never ``holds``.
    missing_witnesses: list[str] = field(default_factory=list)
    #: The first records on which the printed form fails (an erratum's witnesses of the misprint).
    printed_examples: list[dict] = field(default_factory=list)

    @property
    def discovery(self) -> bool:
        return self.kind == "conjecture" and self.status == "fails"

    @property
    def erratum_confirmed(self) -> bool | None:
        """For an erratum: the printed form fails and the corrected one holds, on the records (on
        the witnesses present, for a ``partial`` statement)."""
        if self.printed_counterexamples is None:
            return None
        return self.status in ("holds", "partial") and self.printed_counterexamples > 0

    @property
    def breaks(self) -> bool:
        """A statement that must hold but does not: verify exits non-zero."""
        return self.status == "error" or (self.kind in MUST_HOLD and self.status == "fails")

    def as_dict(self) -> dict:
        d = {
            "id": self.id, "source": self.source, "kind": self.kind, "status": self.status,
            "rows": self.rows, "min_n": self.min_n, "max_n": self.max_n,
            "counterexamples": self.counterexamples, "examples": self.examples,
            "seconds": round(self.seconds, 3), "skipped": self.skipped,
        }
        if self.missing_witnesses:
            d["missing_witnesses"] = self.missing_witnesses
        if self.printed_counterexamples is not None:
            d["printed_counterexamples"] = self.printed_counterexamples
            d["printed_examples"] = self.printed_examples
            d["erratum_confirmed"] = self.erratum_confirmed
        if self.error:
            d["error"] = self.error
        return d


def _examples(con: duckdb.DuckDBPyConnection, query: str) -> tuple[int, list[dict]]:
    con.execute(f"CREATE OR REPLACE TEMP TABLE _cx AS {query}")
    count = con.execute("SELECT count(*) FROM _cx").fetchall()[0][0]
    cols = [r[0] for r in con.execute("DESCRIBE _cx").fetchall()]
    # the clause's label breaks a tie: a record failing two clauses is two rows
    order = ("ORDER BY n, len(parts), parts" + (", family" if "family" in cols else "")
             if {"n", "parts"} <= set(cols) else "")
    rows = con.sql(f"SELECT * FROM _cx {order} LIMIT {EXAMPLES}").to_arrow_table().to_pylist()
    return count, rows


#: Records per query of the shared scan and per chunk of subject n of a follower statement: the
#: progress bar moves at each chunk, and a chunk's join holds the records of its n and below.
CHUNK_RECORDS = 20_000_000


def run_statement(con: duckdb.DuckDBPyConnection, st: Statement, fused: Counts | None = None,
                  progress: Progress | None = None, chunk_records: int = CHUNK_RECORDS) -> Result:
    """Run one statement: its domain, its counterexamples and (an erratum) its printed form.
    ``fused``: its counts from the shared scan of its games (:func:`fused_counts`), so that only
    its examples (if it has counterexamples) and witnesses are read here. ``chunk_records``: a
    follower statement restricted by ``verify_subject(n)`` runs in chunks of subject n of at
    most this many records (:func:`subject_chunks`)."""
    start = time.perf_counter()
    if fused is not None:
        result = _fused_result(con, st, fused)
        result.seconds = time.perf_counter() - start + fused.seconds
        return result
    if progress is not None and progress.enabled:
        with progress.polling(con, st.id, _records_read(con, st)):
            result = _run_statement(con, st, chunk_records)
    else:
        result = _run_statement(con, st, chunk_records)
    result.seconds = time.perf_counter() - start
    return result


@dataclass
class Counts:
    """What the shared scan counted for one statement in the predicate form: its domain rows and
    their n range, its counterexamples and its printed form's, its share of the scan's time, and
    (``needs: followers``) the records of its domain left out because a neighbour's n is not held;
    ``error``: why its pass failed (DuckDB's memory, say), when it did: then it is an error, never
    a count of what was not read."""
    rows: int = 0
    min_n: int | None = None
    max_n: int | None = None
    counterexamples: int = 0
    printed: int | None = None
    seconds: float = 0.0
    skipped: int = 0
    error: str | None = None

    def add(self, rows: int, lo: int | None, hi: int | None, count: int, printed: int | None) -> None:
        self.rows += rows
        if lo is not None:
            self.min_n = lo if self.min_n is None else min(self.min_n, lo)
            self.max_n = hi if self.max_n is None else max(self.max_n, hi)
        self.counterexamples += count
        if printed is not None:
            self.printed = (self.printed or 0) + printed



def _job_records(con: duckdb.DuckDBPyConnection) -> dict[str, dict[int, int]]:
    out: dict[str, dict[int, int]] = {}
    for game, n, records in con.execute("SELECT game, n, kept_records FROM jobs").fetchall():
        out.setdefault(game, {})[n] = records
    return out


def n_chunks(records: dict[int, int], limit: int = CHUNK_RECORDS) -> list[tuple[int, int, int]]:
    """Consecutive ranges (lo, hi, records) of the n in ``records`` (records by n), each of at
    most ``limit`` records unless a single n holds more.

    >>> n_chunks({1: 1, 2: 2, 3: 3, 4: 5, 5: 7}, limit=6)
    [(1, 3, 6), (4, 4, 5), (5, 5, 7)]
    """
    chunks: list[tuple[int, int, int]] = []
    lo = hi = None
    total = 0
    for n in sorted(records):
        if lo is not None and total + records[n] > limit:
            chunks.append((lo, hi, total))
            lo, total = None, 0
        if lo is None:
            lo = n
        hi = n
        total += records[n]
    if lo is not None:
        chunks.append((lo, hi, total))
    return chunks


def fused_counts(con: duckdb.DuckDBPyConnection, statements: list[Statement],
                 progress: Progress | None = None, chunk_records: int = CHUNK_RECORDS,
                 subjects: tuple[int, int] | None = None, gather: bool = True) -> dict[str, Counts]:
    """The counts of every statement in the predicate form (``fusable``), read in ONE scan of
    each game's records per chunk of n (``needs: record``), and in ONE pass of each game's
    neighbourhoods per chunk of n (``needs: followers``; :mod:`pipeline.neighbourhood`, keys
    from n alone, the neighbours at n up to the chunk's): for each statement ``count(*) FILTER
    (WHERE where)`` and, per clause, ``count(*) FILTER (WHERE where AND NOT assert)``, and the
    same for its printed form. A statement whose predicates DuckDB refuses is left out (it then
    runs alone, where its error is reported as its own). ``subjects``: only the records with n in
    this range (the views may hold smaller n, which the neighbourhoods read). ``gather`` False:
    the neighbourhoods are joined, not gathered (the rows are the same)."""
    fusable = [st for st in statements if st.fusable]
    if not fusable:
        return {}
    counting = _FusedCounting(con, progress)
    plans = counting.plans(fusable, subjects)
    counting.record_scans({game: plan for (game, followers), plan in plans.items() if not followers},
                          chunk_records)
    counting.neighbourhood_passes({game: plan for (game, followers), plan in plans.items() if followers},
                                  chunk_records, gather)
    return counting.out


class _FusedCounting:
    """The counts of :func:`fused_counts` as its scans and passes add them (``out``: per
    statement id), each statement charged its share of each scan's and pass's seconds."""

    def __init__(self, con: duckdb.DuckDBPyConnection, progress: Progress | None) -> None:
        self.con, self.progress = con, progress
        self.out: dict[str, Counts] = {}

    def plans(self, fusable: list[Statement], subjects: tuple[int, int] | None
              ) -> dict[tuple[str, bool], tuple[list[Statement], dict[int, int]]]:
        """Per (game, whether its statements read neighbours): those statements DuckDB can bind
        (one it cannot goes alone, where its error then names it) and the game's records by n
        that they count: those of ``subjects`` and, for neighbours, those whose every neighbour
        is held (restricted_views; the records left out are counted as skipped)."""
        con, out = self.con, self.out
        records = _job_records(con)
        groups: dict[tuple[str, bool], list[Statement]] = {}
        for st in fusable:
            for g in st.games:
                groups.setdefault((g, st.needs == "followers"), []).append(st)
        ok: set[str] = set()
        with empty_sources(con, {(g, st.needs == "followers") for st in fusable for g in st.games}) as empty:
            for st in fusable:
                try:
                    for g in st.games:
                        scan_counts(con, [st], g, f"{empty[g, st.needs == 'followers']} WHERE false")
                    ok.add(st.id)
                except duckdb.Error:
                    continue
        plans: dict[tuple[str, bool], tuple[list[Statement], dict[int, int]]] = {}
        for (game, followers), group in sorted(groups.items()):
            sts = [st for st in group if st.id in ok]
            if not sts:
                continue
            for st in sts:
                out.setdefault(st.id, Counts(printed=0 if st.printed_clauses else None))
            by_n = records.get(game, {})
            if followers:
                held = held_n(con, (game,))
                by_n = {n: k for n, k in by_n.items() if n <= held}
            if subjects is not None:
                by_n = {n: k for n, k in by_n.items() if subjects[0] <= n <= subjects[1]}
            plans[game, followers] = sts, by_n
            if followers:
                _count_skipped(con, game, sts, set(records.get(game, {})) - set(by_n), subjects, out)
        return plans

    def count(self, game: str, sts: list[Statement], source: str) -> None:
        """The statements ``sts`` counted on the rows of ``source`` (one scan)."""
        start = time.perf_counter()
        for st, counted in zip(sts, scan_counts(self.con, sts, game, source), strict=True):
            self.out[st.id].add(*counted)
            self.out[st.id].seconds += (time.perf_counter() - start) / len(sts)

    def record_scans(self, plans: dict[str, tuple[list[Statement], dict[int, int]]],
                     chunk_records: int) -> None:
        """Each game's record statements counted in shared scans, chunk by chunk of n; a chunk
        DuckDB fails makes its scan's statements errors (the other games go on)."""
        for game, (game_sts, by_n) in plans.items():
            chunks = n_chunks(by_n, chunk_records)
            for sts in record_scans(game_sts, game):
                bar = (self.progress.bar(f"{game} records: {len(sts)} statements",
                                         sum(c[2] for c in chunks)) if self.progress else None)
                pushed = scan_filter(sts, game)
                for lo, hi, size in chunks:
                    try:
                        self.count(game, sts, f"{quote_name(game)} WHERE n BETWEEN {lo} AND {hi}"
                                              + (f" AND ({pushed})" if pushed else ""))
                    except duckdb.Error as exc:
                        for st in sts:
                            self.out[st.id].error = f"the scan of {game} n {lo}..{hi}: {explain(exc)}"
                        break
                    if bar is not None:
                        bar.update(size)
                if bar is not None:
                    bar.close()

    def neighbourhood_passes(self, nb: dict[str, tuple[list[Statement], dict[int, int]]],
                             chunk_records: int, gather: bool) -> None:
        """Each game's follower statements counted in passes over its neighbourhoods, chunk by
        chunk of n, every game's in turn: the keys of a chunk depend on n alone and are computed
        once (a game's neighbours are its own records)."""
        con = self.con
        used = {game: neighbours_read(" ".join(f"{c.where} {c.check}" for st in sts
                                               for c in (*st.clauses, *st.printed_clauses) if c.about(game)))
                for game, (sts, _) in nb.items()}
        per_n: dict[int, int] = {}
        for _, by_n in nb.values():
            for n, k in by_n.items():
                per_n[n] = max(per_n.get(n, 0), k)
        total = sum(k for _, by_n in nb.values() for k in by_n.values())
        bar = self.progress.bar(f"neighbourhoods: {len({st.id for sts, _ in nb.values() for st in sts})} "
                                "statements", total) if self.progress and nb else None
        files = record_files(con, list(nb))
        size = min(chunk_records, NEIGHBOURHOOD_RECORDS, pass_records(con, used.values()))
        # Each pass's neighbourhood rows are gathered by position (pipeline/neighbourhood_table.py);
        # ``gather`` False joins them (neighbourhood_sql), the reference the tests hold them to.
        cache_dir = column_cache_directory(con) if gather and nb else nullcontext(None)
        with cache_dir as cache:
            if cache is not None:  # the budget shared by the games
                cache = cache[0], cache[1] // len(nb)
            gathers = {game: NeighbourhoodGather(con, game, files.get(game), sts, used[game], cache)
                       for game, (sts, _) in nb.items()} if gather else {}
            self._passes(nb, used, files, gathers, per_n, size, bar)
        if bar is not None:
            bar.close()

    def _passes(self, nb: dict, used: dict, files: dict, gathers: dict, per_n: dict[int, int],
                size: int, bar: object) -> None:
        con = self.con

        def count_pass(game: str, sts: list[Statement], ns: list[int], keys: object) -> None:
            """The game's records of ``ns`` with the keys registered: gathered and counted, or
            joined and counted, or, when their joins outgrow DuckDB's memory, counted in two
            halves of the keys' pieces."""
            if game in gathers:
                start = time.perf_counter()
                with gathers[game].rows(keys, ns) as rows:
                    for st in sts:  # the gathering is the statements' too, shared as the count is
                        self.out[st.id].seconds += (time.perf_counter() - start) / len(sts)
                    self.count(game, sts, rows)
                return
            rows = neighbourhood_sql(quote_name(game), NEIGHBOUR_KEYS, min(ns), max(ns), used[game],
                                     _sources(files.get(game), keys, used[game]))
            try:
                self.count(game, sts, f"({rows})")
            except duckdb.OutOfMemoryException:
                halves = split_pieces(_pieces_of(keys))
                if len(halves) < 2:
                    raise
                try:
                    for half in halves:
                        with registered_keys(con, half) as sub:
                            count_pass(game, sts, sorted({n for n, _, _ in half} & set(ns)), sub)
                finally:  # the pass's own keys again, for the games after this one
                    con.register(NEIGHBOUR_KEYS, keys)

        _count_passes(con, nb, key_pieces(per_n, size), count_pass, self.out, bar)


def _count_passes(con: duckdb.DuckDBPyConnection, nb: dict, passes: list, count_pass: Callable,
                  out: dict[str, Counts], bar: object) -> None:
    """Every pass over the neighbourhoods (``passes``: (lo, hi, pieces) of :func:`key_pieces`),
    each game's statements of ``nb`` counted in it by ``count_pass``; a game whose pass fails
    has its statements' error set and is left out of the later passes."""
    failed: set[str] = set()
    for lo, hi, pieces in passes:
        start = time.perf_counter()
        with registered_keys(con, pieces) as keys:
            share = (time.perf_counter() - start) / max(1, len(nb))
            for game, (sts, by_n) in nb.items():
                ns = [n for n in by_n if lo <= n <= hi]
                if not ns or game in failed:
                    continue
                for st in sts:
                    out[st.id].seconds += share / len(sts)
                try:
                    count_pass(game, sts, ns, keys)
                except (duckdb.Error, ValueError) as exc:  # (ValueError: damage a gather met)
                    # its statements are errors; the other games go on
                    failed.add(game)
                    for st in sts:
                        out[st.id].error = (f"the neighbourhood pass over {game} n {min(ns)}..{max(ns)}: "
                                            f"{explain(exc) if isinstance(exc, duckdb.Error) else exc}")
                if bar is not None:
                    bar.update(sum(min(c, by_n.get(n, 0)) for n, _, c in pieces))


@contextmanager
def empty_sources(con: duckdb.DuckDBPyConnection, wanted: set[tuple[str, bool]]) -> Iterator[dict]:
    """Per (game, whether the statements read neighbours) of ``wanted``, a relation with the
    columns of what those statements read (:func:`_source`) and no row, for binding them, while
    the block runs: an empty temporary table with the game view's columns, bound once, and the
    neighbourhood macro over it. Binding a record view binds every file it reads
    (``union_by_name``: a footer a file), and the macro over the view binds it eight times: on a
    store of 18,724 files, 18 s and up to 3.4 GB for each statement bound so. A game whose view
    does not bind is given as its source (its statements then fail to bind, each alone, and say
    why)."""
    names: dict[tuple[str, bool], str] = {}
    made: list[str] = []
    try:
        for k, game in enumerate(sorted({g for g, _ in wanted})):
            try:
                con.execute(f"CREATE OR REPLACE TEMP TABLE _bind_view_{k} AS "
                            f"SELECT * FROM {quote_name(game)} LIMIT 0")
            except duckdb.Error:
                names.update({(game, f): _source(game, f) for f in (False, True)})
                continue
            made.append(f"_bind_view_{k}")
            names[game, False] = made[-1]
            if (game, True) in wanted:
                con.execute(f"CREATE OR REPLACE TEMP TABLE _bind_neighbourhood_{k} AS "
                            f"SELECT * FROM neighbourhood('_bind_view_{k}') LIMIT 0")
                made.append(f"_bind_neighbourhood_{k}")
                names[game, True] = made[-1]
        yield names
    finally:
        for name in made:
            con.execute(f"DROP TABLE IF EXISTS {name}")


def scan_counts(con: duckdb.DuckDBPyConnection, sts: list[Statement], game: str,
                source: str) -> list[tuple[int, int | None, int | None, int, int | None]]:
    """Per statement, what one scan of ``source`` counts (:meth:`Counts.add`'s arguments): its
    domain rows and their n range, its counterexamples (a record failing two clauses is two)
    and its printed form's.

    Each predicate is evaluated once per record: the domain's and every clause's failure as one
    bit of a packed integer, the records grouped by n and those integers (a few groups: the
    predicates seldom differ), the counts summed here from the groups; a predicate two
    statements share is one bit. One ``count(*) FILTER`` per predicate evaluated each predicate
    in an aggregate of its own, several times over."""
    bits: dict[str, int] = {}  # each predicate's bit, in the order of the bits
    layout = []  # per statement: its domain's bit, its clauses' bits, its printed clauses' bits

    def bit(expr: str) -> int:
        # a predicate two statements share is one bit (lctr1.lemma3's list comparisons are
        # lctr2.lemma6's items 2 and 3): DuckDB evaluates each CASE of its own
        return bits.setdefault(f"coalesce({expr}, false)", len(bits))

    for st in sts:
        def fails(clauses: tuple[Clause, ...], st: Statement = st) -> list[int]:
            # CASE, not AND: DuckDB evaluates a THEN for the rows of its WHEN only, an AND's
            # operands for every row (a family's assert on every record)
            return [bit(f"CASE WHEN ({c.where}) THEN {_fails(c, st.needs == 'followers')} ELSE false END")
                    for c in clauses if c.about(game)]
        layout.append((bit(f"({_any_where(st.clauses, game)})"), fails(st.clauses),
                       fails(st.printed_clauses) if st.printed_clauses else None))
    # each shift in parentheses: SQL gives << and | one precedence, left to right
    words = [" | ".join(f"(({b})::UBIGINT << {k % 64})" for k, b in enumerate(bits) if k // 64 == w)
             for w in range((len(bits) + 63) // 64)]
    cols = ", ".join(f"{w} AS w{i}" for i, w in enumerate(words))
    groups = con.execute(f"SELECT n, {', '.join(f'w{i}' for i in range(len(words)))}, count(*) "
                         f"FROM (SELECT n, {cols} FROM {source}) GROUP BY ALL").fetchall()

    def set_in(row: tuple, k: int) -> bool:
        return bool(row[1 + k // 64] >> (k % 64) & 1)

    out = []
    for domain, clause_bits, printed_bits in layout:
        rows, lo, hi, count, printed = 0, None, None, 0, (0 if printed_bits is not None else None)
        for row in groups:
            n, k = row[0], row[-1]
            if set_in(row, domain):
                rows += k
                lo = n if lo is None else min(lo, n)
                hi = n if hi is None else max(hi, n)
            count += k * sum(set_in(row, b) for b in clause_bits)
            if printed_bits is not None:
                printed += k * sum(set_in(row, b) for b in printed_bits)
        out.append((rows, lo, hi, count, printed))
    return out


#: A predicate that names a record's list column (:data:`LIST_COLUMNS`): a scan that reads one
#: decodes it for every record it reads.
READS_A_LIST = re.compile(rf"\b({'|'.join(LIST_COLUMNS)})\b")


def record_scans(sts: list[Statement], game: str) -> list[list[Statement]]:
    """A game's record statements in the scans that count them: those whose predicates read a
    list column (``parts``, ``conjugate``) in one scan, the others in one scan of the integer
    columns, which that decoding would slow for every statement (LCTR and Downright n <= 60: the
    46 record statements of the predicate form took 11.0 s in one scan, 7.3 s as a scan of the 42
    that read integers and one of the 4 that read lists).

    >>> sts = load_catalogue(select=["lctr1.lemma14", "lctr1.lemma11", "lctr2.lemma3"])
    >>> [[st.id for st in scan] for scan in record_scans(sts, "lctr")]
    [['lctr1.lemma11', 'lctr2.lemma3'], ['lctr1.lemma14']]
    """
    lists = [st for st in sts if any(READS_A_LIST.search(f"{c.where} {c.check}")
                                     for c in (*st.clauses, *st.printed_clauses) if c.about(game))]
    rest = [st for st in sts if st not in lists]
    return [scan for scan in (rest, lists) if scan]


def _top_level_conjuncts(expr: str) -> list[str]:
    """The operands of ``expr``'s top-level AND, or ``[expr]`` when its top level holds an OR
    (AND binds tighter: ``a OR b AND c`` is no conjunction) or it does not split cleanly.
    Parentheses, CASE … END and string literals are read through; ``x BETWEEN a AND b`` stays
    whole.

    >>> _top_level_conjuncts("distinct_sizes = 2 AND (a OR b) AND n BETWEEN 1 AND 5")
    ['distinct_sizes = 2', '(a OR b)', 'n BETWEEN 1 AND 5']
    >>> _top_level_conjuncts("a = 1 OR b = 2 AND c = 3")
    ['a = 1 OR b = 2 AND c = 3']
    >>> _top_level_conjuncts("CASE WHEN a AND b THEN 1 END = 1 AND c")
    ['CASE WHEN a AND b THEN 1 END = 1', 'c']
    """
    tokens = re.findall(r"'(?:[^']|'')*'|\w+|[()]|[^\w()'\s]+|\s+", expr)
    depth = 0
    parts: list[list[str]] = [[]]
    between = False
    for tok in tokens:
        word = tok.upper()
        if tok == "(" or word == "CASE":
            depth += 1
        elif tok == ")" or word == "END":
            depth -= 1
        elif depth == 0 and word == "OR":
            return [expr.strip()]
        elif depth == 0 and word == "BETWEEN":
            between = True
        elif depth == 0 and word == "AND":
            if between:
                between = False
            else:
                parts.append([])
                continue
        if depth < 0:
            return [expr.strip()]
        parts[-1].append(tok)
    out = ["".join(p).strip() for p in parts]
    return out if depth == 0 and all(out) else [expr.strip()]


def scan_filter(sts: list[Statement], game: str) -> str | None:
    """A filter every record a scan's statements count satisfies (None: none found): the OR over
    their clauses about ``game`` of each clause's top-level conjuncts that read no list column.
    Pushed into the scan, it lets DuckDB's Parquet reader skip the list columns of the other
    records (LCTR n <= 70, ``sum(parts[1])`` over 30 M records: 1.2 s with ``WHERE num_parts =
    3``, against a decoding of every list without it).

    >>> sts = load_catalogue(select=["lctr1.lemma13", "lctr1.lemma14", "lctr2.lemma13"])
    >>> for st in sts:
    ...     print(st.header["where"])
    distinct_sizes = 2 AND conjugate[largest] = parts[num_parts]
    distinct_sizes = 2 AND largest = parts[num_parts] + 1 AND conjugate[largest] > parts[num_parts]
    num_parts = 2
    >>> scan_filter(sts, "lctr")
    '(distinct_sizes = 2) OR (num_parts = 2)'
    """
    ors = []
    for st in sts:
        for c in (*st.clauses, *st.printed_clauses):
            if not c.about(game):
                continue
            kept = [x for x in _top_level_conjuncts(c.where) if not READS_A_LIST.search(x)]
            if not kept or kept == ["true"]:
                return None
            ors.append(" AND ".join(kept))
    return " OR ".join(f"({x})" for x in dict.fromkeys(ors)) or None


def _count_skipped(con: duckdb.DuckDBPyConnection, game: str, sts: list[Statement], ns: set[int],
                   subjects: tuple[int, int] | None, out: dict[str, Counts]) -> None:
    """The records of n in ``ns`` (a neighbour's n not held) that each follower statement would
    examine, counted as skipped: with its ``where`` when that reads the record alone, else all."""
    if subjects is not None:
        ns = {n for n in ns if subjects[0] <= n <= subjects[1]}
    if not ns:
        return
    held = f"n IN ({', '.join(map(str, sorted(ns)))})"
    for st in sts:
        where = _any_where(st.clauses, game)
        try:
            (k,), = con.execute(f"SELECT count(*) FILTER (WHERE {where}) FROM {quote_name(game)} "
                                f"WHERE {held}").fetchall()
        except duckdb.Error:  # the where reads a neighbour: every record of those n
            (k,), = con.execute(f"SELECT count(*) FROM {quote_name(game)} WHERE {held}").fetchall()
        out[st.id].skipped += k


def _sources(files: RecordFiles | None, keys: object,
             used: dict[str, tuple[str, ...]]) -> dict[str, str] | None:
    """Per neighbour a pass joins, the files of its records that its keys (a column of ``keys``,
    the pass's :data:`NEIGHBOUR_KEYS` table) name; None: read the view."""
    if files is None:
        return None
    return {p: files.source(keys.column(f"{p}_key").to_numpy()) for p in used}


@contextmanager
def registered_keys(con: duckdb.DuckDBPyConnection, pieces: list[tuple[int, int, int]]) -> Iterator[object]:
    """The neighbour keys of ``pieces`` (n, first ordinal, count) registered as
    :data:`NEIGHBOUR_KEYS` while the block runs; the Arrow table is yielded."""
    from pipeline.games.features import neighbour_key_table  # numba: only here

    keys = neighbour_key_table(pieces)
    con.register(NEIGHBOUR_KEYS, keys)
    try:
        yield keys
    finally:
        con.unregister(NEIGHBOUR_KEYS)


def _pieces_of(keys: object) -> list[tuple[int, int, int]]:
    """The pieces (n, first ordinal, count) whose keys the table ``keys`` holds, in its order."""
    import numpy as np

    n = keys.column("n").to_numpy()
    ordinal = keys.column("ordinal").to_numpy()
    if not len(n):
        return []
    cut = np.flatnonzero((np.diff(n) != 0) | (np.diff(ordinal) != 1)) + 1
    starts = np.concatenate(([0], cut))
    counts = np.diff(np.concatenate((starts, [len(n)])))
    return [(int(n[a]), int(ordinal[a]), int(c)) for a, c in zip(starts, counts, strict=True)]


def split_pieces(pieces: list[tuple[int, int, int]]) -> list[list[tuple[int, int, int]]]:
    """``pieces`` (n, first ordinal, count) in two halves of about equal records (one, if a
    single record).

    >>> split_pieces([(5, 0, 7), (6, 0, 11)])
    [[(5, 0, 7), (6, 0, 2)], [(6, 2, 9)]]
    >>> split_pieces([(9, 4, 1)])
    [[(9, 4, 1)]]
    """
    total = sum(c for _, _, c in pieces)
    if total < 2:
        return [pieces]
    half, first, second = total // 2, [], []
    for n, s, c in pieces:
        room = half - sum(x for _, _, x in first)
        if room >= c:
            first.append((n, s, c))
        elif room > 0:
            first.append((n, s, room))
            second.append((n, s + room, c - room))
        else:
            second.append((n, s, c))
    return [first, second]


#: The share of DuckDB's memory limit a pass's join hash tables may take (:func:`pass_records`).
PASS_MEMORY_SHARE = 0.4


def pass_records(con: duckdb.DuckDBPyConnection, used: object) -> int:
    """The records a pass of the neighbourhoods may hold: its joins' hash tables hold, per
    record, each neighbour's key and columns (``used``: per game, neighbour → columns), and
    together they take at most :data:`PASS_MEMORY_SHARE` of DuckDB's memory limit (the joins
    of one pass probe at once, so their tables cannot spill while it runs)."""
    width = 9 * 8  # the pass's key table: n, ordinal and seven keys
    joined: dict[str, set[str]] = {}
    for neighbours in used:
        for prefix, columns in neighbours.items():
            joined.setdefault(prefix, set()).update(columns)
    for columns in joined.values():  # a hash table's row: key, columns, pointer and hash
        width += 24 + sum(64 if c in ("parts", "conjugate") else 8 if c in ("nodes", "leaves", "states")
                          else 2 for c in columns)
    limit = _memory_limit(con)
    return max(100_000, int(PASS_MEMORY_SHARE * limit / width)) if limit else NEIGHBOURHOOD_RECORDS


def _memory_limit(con: duckdb.DuckDBPyConnection) -> int | None:
    """DuckDB's memory limit in bytes (None if it is not a size)."""
    (text,), = con.execute("SELECT current_setting('memory_limit')").fetchall()
    m = re.fullmatch(r"([\d.]+)\s*([KMGT]i?B|bytes)", str(text).strip())
    if not m:
        return None
    unit = m.group(2)
    scale = 1 if unit == "bytes" else (1024 if "i" in unit else 1000) ** ("KMGT".index(unit[0]) + 1)
    return int(float(m.group(1)) * scale)


def key_pieces(per_n: dict[int, int], limit: int) -> list[tuple[int, int, list[tuple[int, int, int]]]]:
    """The passes over the neighbourhoods of the records of ``per_n`` (records by n): each
    (lo, hi, pieces), the pieces (n, first ordinal, count) whose keys it joins, at most ``limit``
    records a pass: consecutive n together, and an n of more records in ranges of ordinals (the
    keys of the partitions of n = 100 alone would take 7.6 GB).

    >>> key_pieces({1: 1, 2: 2, 3: 3, 4: 5}, limit=4)
    [(1, 2, [(1, 0, 1), (2, 0, 2)]), (3, 3, [(3, 0, 3)]), (4, 4, [(4, 0, 4)]), (4, 4, [(4, 4, 1)])]
    """
    out = []
    for lo, hi, size in n_chunks(per_n, limit):
        if lo == hi and size > limit:
            out += [(lo, lo, [(lo, s, min(limit, per_n[lo] - s))]) for s in range(0, per_n[lo], limit)]
        else:
            out.append((lo, hi, [(n, 0, per_n[n]) for n in range(lo, hi + 1) if n in per_n]))
    return out


class RecordFiles:
    """The files a game's view reads in place, each with the keys of its first and last record
    (the Parquet statistics of ``n`` and ``ordinal``: a shard holds consecutive ordinals of one
    n), so that a pass reads a neighbour's records from the files its keys fall in rather than
    from every file below its n: at n <= 80, where a game's records take 16 passes, the keys of
    T(λ) of one pass fall in files holding 41 % of the records below, those of λ[1,1] in 3-6 %.
    A file without those statistics is read by every pass."""

    def __init__(self, con: duckdb.DuckDBPyConnection, game: str, paths: list[str],
                 schemas: dict[str, str | None] | None = None) -> None:
        import numpy as np

        self.game = game
        #: each file's schema digest (:func:`pipeline.query.read_files_sql`)
        self.schemas = schemas or {}
        rows = con.execute(
            f"SELECT file_name, min(TRY_CAST(stats_min AS BIGINT)) FILTER (WHERE path_in_schema = 'n'), "
            f"max(TRY_CAST(stats_max AS BIGINT)) FILTER (WHERE path_in_schema = 'n'), "
            f"min(TRY_CAST(stats_min AS BIGINT)) FILTER (WHERE path_in_schema = 'ordinal'), "
            f"max(TRY_CAST(stats_max AS BIGINT)) FILTER (WHERE path_in_schema = 'ordinal') "
            f"FROM parquet_metadata({files_list_sql(paths)}) GROUP BY file_name").fetchall()
        known = set(paths)
        spans = []
        self.always: list[str] = []
        for name, n_lo, n_hi, o_lo, o_hi in rows:
            if name not in known:
                raise ValueError(f"parquet_metadata names {name!r}, not a file of the view")
            if None in (n_lo, n_hi, o_lo, o_hi) or n_lo != n_hi:
                self.always.append(name)
            else:
                spans.append(((n_lo << 40) | o_lo, (n_lo << 40) | o_hi, name))
        spans.sort()
        self.first = np.array([a for a, _, _ in spans], np.int64)
        self.last = np.array([b for _, b, _ in spans], np.int64)
        self.paths = [p for _, _, p in spans]

    def files_of(self, keys: object) -> list[str]:
        """The files that hold the records ``keys`` (an integer array; 0, the key of (), names
        none) name, in the view's order, and those without statistics."""
        import numpy as np

        k = np.asarray(keys, np.int64)
        k = k[k > 0]
        idx = np.searchsorted(self.first, k, side="right") - 1
        inside = idx >= 0
        inside[inside] = k[inside] <= self.last[idx[inside]]
        hit = np.zeros(len(self.paths), bool)
        hit[idx[inside]] = True
        return [self.paths[i] for i in np.flatnonzero(hit)] + self.always

    def of_n(self, m: int, ordinals: list[object]) -> list[str]:
        """The files that hold the records of n = ``m`` at ``ordinals`` (integer arrays)."""
        import numpy as np

        return self.files_of(np.concatenate([(np.int64(m) << 40) | np.asarray(at, np.int64)
                                             for at in ordinals] or [np.zeros(0, np.int64)]))

    def of_pieces(self, pieces: list[tuple[int, int, int]]) -> list[str]:
        """The files that hold records of the pieces (n, first ordinal, count), in the view's
        order, and those without statistics."""
        import numpy as np

        hit = np.zeros(len(self.paths), bool)
        for n, first, count in pieces:
            lo, hi = (n << 40) | first, (n << 40) | (first + count - 1)
            hit |= (self.first <= hi) & (self.last >= lo)
        return [self.paths[i] for i in np.flatnonzero(hit)] + self.always

    def source(self, keys: object) -> str:
        """A query over the game's records that holds every record ``keys`` (an integer array;
        0, the key of (), names none) name: those of the files they fall in."""
        return self._read(self.files_of(keys))

    def pieces_source(self, pieces: list[tuple[int, int, int]]) -> str:
        """A query over the game's records that holds every record of the pieces (n, first
        ordinal, count): those of the files they fall in (:meth:`of_pieces`)."""
        return self._read(self.of_pieces(pieces))

    def _read(self, files: list[str]) -> str:
        if not files:
            return f"SELECT * FROM {quote_name(self.game)} WHERE false"
        return read_files_sql(files, self.game, self.schemas)


#: The relation of a gathered pass's rows, registered while its statements are counted.
PASS_ROWS = "_neighbourhood_rows"

#: The rows of a record batch of a gathered pass: DuckDB counts its batches side by side.
PASS_BATCH = 1 << 17


class NeighbourhoodGather:
    """A game's neighbourhood passes gathered by position (:mod:`pipeline.neighbourhood_table`):
    what every pass of the game reads, fixed once: its own columns, the neighbours' columns and
    their types, the source of the records of each n."""

    def __init__(self, con: duckdb.DuckDBPyConnection, game: str, files: RecordFiles | None,
                 sts: list[Statement], neighbours: dict[str, tuple[str, ...]],
                 cache: tuple[Path, int] | None = None) -> None:
        from pipeline.games.features import KEY_MAX_N, completion_counts  # numba: only here

        self.con, self.game, self.files, self.neighbours = con, game, files, neighbours
        text = " ".join(f"{c.where} {c.check}" for st in sts
                        for c in (*st.clauses, *st.printed_clauses) if c.about(game))
        schema = con.sql(f"SELECT * FROM {quote_name(game)} LIMIT 0").to_arrow_table().schema
        self.columns = own_columns(schema.names, text)
        self.types = {c: schema.field(c).type for c in schema.names}
        table = completion_counts(KEY_MAX_N)
        sizes = [int(table[m, m + 1]) for m in range(KEY_MAX_N + 1)]
        self.arrays = RecordArrays(con, self.source, sizes)
        # ``cache``: a directory and a budget of bytes for the neighbours' columns of each n,
        # written once (ColumnCache), where the store's files are read in place
        self.cache = None
        if cache is not None and files is not None:
            directory = cache[0] / game
            directory.mkdir()
            read = sorted({c for cols in neighbours.values() for c in cols}, key=COLUMNS.index)
            self.cache = ColumnCache(directory, self.arrays, read, self.types, cache[1])

    def source(self, m: int, ordinals: list[object]) -> str | None:
        """A query that holds the records of n = ``m`` at ``ordinals`` (integer arrays): those
        of the files they fall in when the view reads files in place (a pass over part of an n
        reads a fraction of each smaller n, docs/performance.md), else the view."""
        if self.files is None:
            return f"SELECT * FROM {quote_name(self.game)}"
        paths = self.files.of_n(m, ordinals)
        return read_files_sql(paths, self.game, self.files.schemas) if paths else None

    @contextmanager
    def rows(self, keys: object, ns: list[int]) -> Iterator[str]:
        """The pass's rows (the game's records of the pieces ``keys`` holds with n in ``ns``,
        those whose every neighbour's n is held, with their neighbours' columns) registered as
        :data:`PASS_ROWS` while the block runs; its name is yielded."""
        mine = [(n, s, c) for n, s, c in _pieces_of(keys) if n in ns]
        pieces = " OR ".join(f"(n = {n} AND ordinal BETWEEN {s} AND {s + c - 1})" for n, s, c in mine)
        # From the files of the pieces alone: the view binds every file of the game, a pass after
        # pass (2.5 s a bind on a store of 9,362 files of the game)
        source = (quote_name(self.game) if self.files is None
                  else f"({self.files.pieces_source(mine)})")
        own = self.con.sql(f"SELECT {', '.join(quote_name(c) for c in self.columns)} "
                           f"FROM {source} WHERE {pieces or 'false'}").to_arrow_table()
        table = neighbourhood_table(own, keys, self.neighbours, self.arrays, self.types, self.cache)
        # DuckDB scans a registered table a record batch per thread, and the gathered columns
        # are one chunk each, which it would count on one core: so batches of PASS_BATCH rows.
        # A batch holds one chunk of each column, so combine_chunks copies each column of
        # several chunks (the own columns, as DuckDB returned them) into one; a column of one
        # chunk is not copied, and the batches are slices of the combined columns
        table = pa.Table.from_batches(table.combine_chunks().to_batches(max_chunksize=PASS_BATCH),
                                      table.schema)
        self.con.register(PASS_ROWS, table)
        try:
            yield PASS_ROWS
        finally:
            self.con.unregister(PASS_ROWS)


def record_files(con: duckdb.DuckDBPyConnection, games: list[str]) -> dict[str, RecordFiles]:
    """:class:`RecordFiles` of each of ``games`` whose view reads its files in place (none for a
    store copied into memory, where every read is from memory)."""
    files, schemas = view_files(con), view_file_schemas(con)
    out = {}
    for game in games:
        if files.get(game):
            try:
                out[game] = RecordFiles(con, game, files[game], schemas)
            except (duckdb.Error, ValueError):  # read every file, as the view does
                continue
    return out


#: A pass over the neighbourhoods holds at most this many records of a game (an n of more is cut
#: into ranges of ordinals): its key table (56 bytes a record) and the hash tables of its joins,
#: which hold only the neighbours its keys name, stay well inside verify's memory.
NEIGHBOURHOOD_RECORDS = 8_000_000
#: The relation of the neighbour keys of a chunk of n, registered while its pass runs.
NEIGHBOUR_KEYS = "_neighbour_keys"


def _witnesses(con: duckdb.DuckDBPyConnection, query: str) -> tuple[int, list[str]]:
    """The witnesses a statement's ``witnesses:`` query (rows: name, whether the store holds
    it) finds present, and the names of those it lacks, sorted: the query's row order is not
    fixed (``SELECT DISTINCT``, a cluster's worker), and a report must not change with it."""
    rows = con.execute(query).fetchall()
    return sum(bool(ok) for _, ok in rows), sorted(name for name, ok in rows if not ok)


def _fused_result(con: duckdb.DuckDBPyConnection, st: Statement, c: Counts) -> Result:
    """A statement's result from its shared-scan counts: examples are read only for a statement
    with counterexamples, witnesses as when it runs alone."""
    h = st.header
    if c.error is not None:
        return Result(st.id, h["source"], st.kind, "error", 0, None, None, 0, error=c.error)
    try:
        examples: list[dict] = []
        printed_examples: list[dict] = []
        if c.counterexamples:
            examples = first_examples(con, st, st.query)
        if c.printed:
            printed_examples = first_examples(con, st, st.printed_query)
        present, missing = (_witnesses(con, _strip_query(h["witnesses"]))
                            if h.get("witnesses") else (0, []))
    except duckdb.Error as exc:
        return Result(st.id, h["source"], st.kind, "error", 0, None, None, 0, error=explain(exc))
    return Result(st.id, h["source"], st.kind, _status(c.counterexamples, c.rows, h, present, missing),
                  c.rows, c.min_n, c.max_n, c.counterexamples, examples, c.printed, skipped=c.skipped,
                  missing_witnesses=missing, printed_examples=printed_examples)


#: The records a record statement's examples are first looked for in (its smallest n), then as
#: many again, and so on.
EXAMPLE_CHUNK_RECORDS = 1_000_000


def first_examples(con: duckdb.DuckDBPyConnection, st: Statement, query: str,
                   subjects: tuple[int, int] | None = None) -> list[dict]:
    """The first counterexamples by n of a statement's ``query`` (or printed query). A record
    statement's are read chunk by chunk of n from the smallest until there are enough. A follower
    statement's are read from the join pass (:func:`fused_counts`' neighbourhoods), chunk by chunk
    of n up to :func:`held_n` (within ``subjects``), until there are enough: the table macro
    ``neighbourhood(game)`` would compute every record's keys from its lists."""
    if st.needs == "record" and st.games:
        # n by n from the smallest, until there are enough: a query that shows ``parts`` decodes
        # that list for every record it scans (an erratum's printed form fails on every n)
        per_n: dict[int, int] = {}
        records = _job_records(con)
        for g in st.games:
            for n, k in records.get(g, {}).items():
                if subjects is None or subjects[0] <= n <= subjects[1]:
                    per_n[n] = per_n.get(n, 0) + k
        out: list[dict] = []
        for a, b, _ in n_chunks(per_n, EXAMPLE_CHUNK_RECORDS):
            out += _examples(con, f"SELECT * FROM ({query}) WHERE n BETWEEN {a} AND {b}")[1]
            if len(out) >= EXAMPLES:
                break
        return out[:EXAMPLES]
    if st.needs != "followers" or not st.games:
        return _examples(con, query)[1]

    top = held_n(con, st.games)
    lo, hi = subjects if subjects is not None else (0, top)
    per_n: dict[int, int] = {}
    records = _job_records(con)
    for g in st.games:
        for n, k in records.get(g, {}).items():
            if lo <= n <= min(hi, top):
                per_n[n] = max(per_n.get(n, 0), k)
    clauses = (*st.clauses, *st.printed_clauses)
    used = neighbours_read(" ".join([st.show, *(f"{c.where} {c.check}" for c in clauses)]))
    out: list[dict] = []
    files = record_files(con, list(st.games))
    # the smallest n first, in passes of EXAMPLE_CHUNK_RECORDS: an erratum's printed form fails
    # on most records, and a pass's join materialises every failure it finds
    small, total = {}, 0
    for n in sorted(per_n):
        total += per_n[n]
        if total > EXAMPLE_CHUNK_RECORDS:
            break
        small[n] = per_n[n]
    rest = {n: k for n, k in per_n.items() if n not in small}
    passes = [*key_pieces(small, EXAMPLE_CHUNK_RECORDS),
              *key_pieces(rest, min(NEIGHBOURHOOD_RECORDS, pass_records(con, [used])))]
    for a, b, pieces in passes:
        with registered_keys(con, pieces) as keys:
            fast = query
            for g in st.games:
                rows = neighbourhood_sql(quote_name(g), NEIGHBOUR_KEYS, a, b, used,
                                         _sources(files.get(g), keys, used))
                fast = fast.replace(f"neighbourhood('{g}')", f"({rows})")
            out += _examples(con, fast)[1]
        if len(out) >= EXAMPLES:
            break
    return out[:EXAMPLES]


def held_n(con: duckdb.DuckDBPyConnection, games: tuple[str, ...]) -> int:
    """The largest n up to which every n of each of ``games`` is held (0 in a family run's or
    partitions file's store, whose (game, n) hold some partitions of n only): the subjects of a
    follower statement whose neighbours are all there."""
    if selection_store(con):
        return 0
    stored = stored_n(con)
    return min((held_prefix(stored.get(g, set())) for g in games), default=0)


def _status(count: int, rows: int, h: dict[str, str], present: int, missing: list[str]) -> str:
    if count:
        return "fails"
    if rows == 0 or (h.get("witnesses") and present == 0):
        return "no data"
    if missing:
        return "partial"
    return "holds"


def _run_statement(con: duckdb.DuckDBPyConnection, st: Statement,
                   chunk_records: int = CHUNK_RECORDS) -> Result:
    h = st.header
    try:
        cut = restricted_views(con, st)
        chunks = subject_chunks(con, st, cut, chunk_records)
        if chunks is None:
            rows, unexamined, lo, hi = _domain_counts(con, h["domain"], cut)
            total = sum(_domain_counts(con, h["domain"], {})[:2]) if cut else rows + unexamined
            count, examples = _examples(con, restrict(st.query, cut, con))
            printed, printed_examples = (_examples(con, restrict(st.printed_query, cut, con))
                                         if st.printed_query else (None, []))
        else:
            total = sum(_domain_counts(con, h["domain"], {})[:2])
            rows, unexamined, lo, hi, count, examples, printed, printed_examples = _by_subject_n(
                con, st, cut, chunks)
        present, missing = (_witnesses(con, restrict(_strip_query(h["witnesses"]), cut, con))
                            if h.get("witnesses") else (0, []))
    except duckdb.Error as exc:
        msg = explain(exc)
        return Result(st.id, h["source"], st.kind, "error", 0, None, None, 0, error=msg)
    skipped = total - rows  # cut away by ``needs``, or marked unexamined by the domain itself
    status = _status(count, rows, h, present, missing)
    return Result(st.id, h["source"], st.kind, status, rows, lo, hi, count, examples, printed,
                  skipped=skipped, missing_witnesses=missing, printed_examples=printed_examples)


SUBJECT_MACRO = "verify_subject("


def subject_chunks(con: duckdb.DuckDBPyConnection, st: Statement, cut: dict[str, str],
                    chunk_records: int) -> list[tuple[int, int]] | None:
    """The chunks of subject n of a follower or same-n statement that restricts its subjects
    with the macro ``verify_subject(n)`` (queries/FORMAT.md): consecutive ranges of n of at most
    ``chunk_records`` records of the games it reads (one n when it holds more). None for any other
    statement, which runs in one pass."""
    if st.needs not in ("followers", "same n") or not any(
            SUBJECT_MACRO in (q or "") for q in (st.query, st.printed_query, st.header["domain"])):
        return None
    read = games_read(con, st, set(BOARD_GAMES) | set(stored_n(con)))
    records: dict[int, int] = {}
    for game, by_n in _job_records(con).items():
        if game not in read:
            continue
        keep = _kept_n(cut.get(game))
        for n, k in by_n.items():
            if keep is None or n <= keep:
                records[n] = records.get(n, 0) + k
    return [(lo, hi) for lo, hi, _ in n_chunks(records, chunk_records)] or [(0, 0)]


def _kept_n(where: str | None) -> int | None:
    """The K of a followers cut ``WHERE n <= K`` (:func:`restricted_views`); None: uncut."""
    if where is None:
        return None
    m = re.fullmatch(r" WHERE n <= (\d+)", where)
    return int(m.group(1)) if m else -1


def _by_subject_n(con: duckdb.DuckDBPyConnection, st: Statement, cut: dict[str, str],
                  chunks: list[tuple[int, int]]) -> tuple:
    """A follower or same-n statement run chunk by chunk of subject n: the variables
    ``subject_min_n`` and ``subject_max_n`` select the subjects (macro ``verify_subject``) and
    the views hold n up to ``subject_max_n`` only (the followers of a subject lie at smaller n),
    or, for ``needs: same n``, the chunk's n only, so a chunk's joins hold the records of its n
    (and below), never the whole store. Counts are summed over the chunks; the examples are the
    first by n (the chunks run in increasing n)."""
    rows = unexamined = count = 0
    printed: int | None = 0 if st.printed_query else None
    lo = hi = None
    examples: list[dict] = []
    printed_examples: list[dict] = []
    try:
        for a, b in chunks:
            con.execute(f"SET VARIABLE subject_min_n = {a}")
            con.execute(f"SET VARIABLE subject_max_n = {b}")
            ccut = dict(cut)
            held = f"n <= {b}" if st.needs == "followers" else f"n BETWEEN {a} AND {b}"
            for view in set(cut) | set(BOARD_GAMES) | set(stored_n(con)) | {"records", "slownim"}:
                if view == "jobs":
                    continue
                ccut[view] = (cut[view] + f" AND {held}") if view in cut else f" WHERE {held}"
            r, u, clo, chi = _domain_counts(con, st.header["domain"], ccut)
            rows, unexamined = rows + r, unexamined + u
            if clo is not None:
                lo = clo if lo is None else min(lo, clo)
                hi = chi if hi is None else max(hi, chi)
            c, ex = _examples(con, restrict(st.query, ccut, con))
            count += c
            examples = (examples + ex)[:EXAMPLES]
            if st.printed_query:
                c, ex = _examples(con, restrict(st.printed_query, ccut, con))
                printed += c
                printed_examples = (printed_examples + ex)[:EXAMPLES]
    finally:
        con.execute("RESET VARIABLE subject_min_n")
        con.execute("RESET VARIABLE subject_max_n")
    return rows, unexamined, lo, hi, count, examples, printed, printed_examples


def _domain_counts(con: duckdb.DuckDBPyConnection, domain: str,
                   cut: dict[str, str]) -> tuple[int, int, int | None, int | None]:
    """(rows examined, rows the domain itself marks unexamined, min n, max n) of a domain query
    over the views cut down to ``cut``. A domain with a boolean column ``examined`` (``needs:
    checked``) counts only its true rows as examined."""
    query = restrict(_strip_query(domain), cut, con)
    cols = [r[0] for r in con.execute(f"DESCRIBE ({query})").fetchall()]
    if "examined" in cols:
        return tuple(con.execute(
            f"SELECT count(*) FILTER (WHERE examined), count(*) FILTER (WHERE NOT examined), "
            f"min(n) FILTER (WHERE examined), max(n) FILTER (WHERE examined) FROM ({query})"
        ).fetchall()[0])
    rows, lo, hi = con.execute(f"SELECT count(*), min(n), max(n) FROM ({query})").fetchall()[0]
    return rows, 0, lo, hi


def selection_store(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the views hold a family run's or a partitions file's records (``jobs.selection``)."""
    return bool(con.execute("SELECT count(*) FROM jobs WHERE selection IS NOT NULL").fetchall()[0][0])


def games_read(con: duckdb.DuckDBPyConnection, st: Statement, games: set[str]) -> set[str]:
    """The games whose records a statement reads: the game views its queries name (read off
    DuckDB's parse tree, ``json_serialize_sql``, which binds nothing: a view's name, not the
    tables behind it, and a table macro's arguments need not exist yet), every game for
    ``records`` and every Slow SetNim game for ``slownim``. Every game when a query does not
    parse."""
    names: set[str] = set(st.games)  # the predicate form's, also read through neighbourhood(game)
    for q in filter(None, [st.query, st.printed_query, st.header["domain"], st.header.get("witnesses")]):
        # fetchall, not fetchone: a result left unfinished on the shared connection makes its
        # next register() fail ("connection has an unfinished result"), e.g. the report's grids
        tree = json.loads(con.execute("SELECT json_serialize_sql(?)", [_strip_query(q)]).fetchall()[0][0])
        if tree.get("error"):
            return set(games)
        names |= _base_tables(tree)
    out = names & games
    if "records" in names:
        out |= games
    if "slownim" in names:
        out |= set(slownim_games(con, sorted(games)))  # the games whose records are Slow SetNim's
    return out


def _base_tables(tree: object) -> set[str]:
    """The table names of a parse tree's BASE_TABLE nodes (views, tables and CTE references)."""
    if isinstance(tree, dict):
        found = {tree["table_name"]} if tree.get("type") == "BASE_TABLE" else set()
        return found.union(*(_base_tables(v) for v in tree.values()))
    if isinstance(tree, list):
        return set().union(*(_base_tables(v) for v in tree))
    return set()


def restricted_views(con: duckdb.DuckDBPyConnection, st: Statement) -> dict[str, str]:
    """The views a statement must read cut down, each with the ``WHERE`` clause that keeps the
    records whose neighbours (``needs``) the store holds: ``{}`` when nothing is cut (a store
    holding every n from 1 up, every statement of ``needs: record`` or ``checked``).

    A (game, n) is held whole or not at all (``jobs``), so the records of n whose every smaller n
    is held have all their followers and sub-partitions; with gaps, the records above the first
    gap are left out, which is sound for any statement of that ``needs`` and leaves out more than
    a record-by-record test would (``needs: checked`` is that test).
    """
    if st.needs == "record":
        return {}
    selected = selection_store(con)
    if st.needs == "checked" and not selected:
        return {}
    stored = stored_n(con)
    games = set(BOARD_GAMES) | set(stored)
    read = games_read(con, st, games)
    if not read:
        return {}
    keep: dict[str, set[int] | int] = {}  # game -> the n kept: a set, or an int K for n <= K
    if selected:
        # A family run's or partitions file's (game, n) holds some partitions of n, not all: a
        # follower, a sub-partition or a count over n may be missing though its n is stored,
        # so only statements of ``needs: record`` run there (queries/FORMAT.md).
        keep = {g: set() for g in read}
    elif st.needs == "followers":
        keep = {g: held_prefix(stored.get(g, set())) for g in read}
    elif st.needs == "smaller n":
        k = min(held_prefix(stored.get(g, set())) for g in read)
        keep = {g: k for g in read}
    else:  # same n
        common = set.intersection(*(stored.get(g, set()) for g in read))
        keep = {g: common for g in read}
    cut_games = {g for g in read
                 if any((n > keep[g]) if isinstance(keep[g], int) else (n not in keep[g])
                        for n in stored.get(g, set()))}
    if not cut_games:
        return {}

    def cond(g: str) -> str:
        k = keep[g]
        if isinstance(k, int):
            return f"n <= {k}"
        return f"n IN ({', '.join(map(str, sorted(k)))})" if k else "false"

    where = {g: f" WHERE {cond(g)}" for g in cut_games}
    # jobs too, so that the macro stored(game, n) (which reads it) agrees with the views cut
    for view, members in (("records", games), ("slownim", set(slownim_games(con, sorted(games)))),
                          ("jobs", games)):
        cut = sorted(g for g in members & cut_games)
        if cut:
            cases = " ".join(f"WHEN '{g}' THEN {cond(g)}" for g in cut)
            where[view] = f" WHERE CASE game {cases} ELSE true END"
    return where


def restrict(query: str | None, cut: dict[str, str], con: duckdb.DuckDBPyConnection) -> str | None:
    """``query`` reading the views of ``cut`` through CTEs of the same names, each the view with
    its ``WHERE`` clause (NOT MATERIALIZED: filters pushed into the scan, nothing copied)."""
    if not query or not cut:
        return query
    qualified = dict(
        ((name, f"{quote_name(db)}.{quote_name(schema)}.{quote_name(name)}")
         for db, schema, name in con.execute(
             "SELECT database_name, schema_name, view_name FROM duckdb_views() WHERE NOT internal "
             "ORDER BY temporary").fetchall()))
    ctes = ", ".join(f"{quote_name(v)} AS NOT MATERIALIZED (SELECT * FROM {qualified[v]}{w})"
                     for v, w in cut.items() if v in qualified)
    return f"WITH {ctes} SELECT * FROM ({query})" if ctes else query


#: verify's default DuckDB memory limit (``--memory-limit`` raises it), the joins spilling to a
#: directory beside the store: with the process around it (Python, a pass's gathered table,
#: DuckDB's memory outside its buffer pool) verify's peak resident memory stays under 4 GB
#: whatever the store's size (docs/performance.md, "verify on a large store").
DEFAULT_MEMORY_LIMIT = "3GB"
#: Exit status of ``partgames verify`` when the store has damaged (game, n) (docs/statements.md):
#: the rest is checked, but ``partgames verify && ...`` must not go on.
EXIT_DAMAGED = 3


class Progress:
    """Progress bars on standard error (tqdm, as ``run`` draws them): one per shared scan of a
    game (records done, by chunk of n) and one per statement run alone (records of the games it
    reads, from DuckDB's ``query_progress`` of its running query, polled from a thread)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def bar(self, desc: str, total: int):  # noqa: ANN201 - a tqdm bar, or None
        if not self.enabled:
            return None
        from tqdm import tqdm

        tqdm.monitor_interval = 0
        return tqdm(total=total, desc=desc, unit="rec", unit_scale=True, smoothing=0.1, leave=False)

    @contextmanager
    def polling(self, con: duckdb.DuckDBPyConnection, desc: str, total: int) -> Iterator[None]:
        bar = self.bar(desc, total)
        if bar is None:
            yield
            return
        stop = threading.Event()

        def poll() -> None:
            while not stop.wait(0.5):
                try:
                    pct = con.query_progress()
                except duckdb.Error:
                    continue
                if pct >= 0:
                    bar.n = int(total * pct / 100)
                    bar.refresh()

        thread = threading.Thread(target=poll, daemon=True)
        con.execute("SET enable_progress_bar = true")  # progress tracking; DuckDB prints nothing:
        con.execute("SET enable_progress_bar_print = false")
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()
            con.execute("SET enable_progress_bar = false")
            bar.close()


def _records_read(con: duckdb.DuckDBPyConnection, st: Statement) -> int:
    read = games_read(con, st, set(BOARD_GAMES) | set(stored_n(con)))
    return sum(k for g, by_n in _job_records(con).items() if g in read for k in by_n.values())


def verify_settings(settings: dict[str, str] | None = None) -> dict[str, str]:
    """DuckDB settings of verify: :data:`DEFAULT_MEMORY_LIMIT` unless ``settings`` says otherwise,
    and no insertion order kept (no statement depends on it; examples are ordered explicitly),
    which lets DuckDB stream and spill more."""
    return {"memory_limit": DEFAULT_MEMORY_LIMIT, "preserve_insertion_order": "false", **(settings or {})}


class Verification(list):
    """verify's results (a list of :class:`Result`, in id order) and the damaged (game, n) of the
    store (the warning lines naming them), which no statement read."""

    def __init__(self, results: list[Result] | None = None, damaged: list[str] | None = None) -> None:
        super().__init__(results or [])
        self.damaged = damaged or []


def verify(results: str | Path, select: list[str] | None = None,
           on_result: Callable[[Result], None] | None = None, min_n: int | None = None,
           max_n: int | None = None, settings: dict[str, str] | None = None,
           progress: bool = False, fuse: bool = True, deep: bool = True,
           extra: list[Statement] | None = None) -> Verification:
    """Run the selected statements on the records of the store at ``results`` with
    ``min_n ≤ n ≤ max_n`` (all by default), in id order. ``on_result`` is called with each
    result as soon as it is known: over a store of billions of records (the overnight run of
    LCTR and Downright for n ≤ 100) a statement takes seconds to many minutes, and a report only
    at the end would leave the user without a line for an hour. ``settings``: DuckDB settings
    (:func:`pipeline.query.connect`; :func:`verify_settings` adds the defaults).

    The statements in the predicate form of a game are counted in one scan of its records
    (``fuse``; :func:`fused_counts`). ``deep``: every file is hashed against its commit record
    before it is read, so that bit rot (which keeps a file's size and ctime) is reported as
    damage, not as a failing statement. The damaged (game, n) are left out of the views and
    listed in the result's ``damaged``. ``extra``: statements beside the catalogue's (those of
    the rules games given, :func:`pipeline.rules_verify.rules_statements`)."""
    statements = load_catalogue(select=select, extra=extra)
    damaged: list[str] = []

    def on_damage(line: str) -> None:  # on standard error as for any reader, and in the summary
        damaged.append(line)
        print(line, file=sys.stderr, flush=True)

    # Only (game, n) whose records were all kept: a statement never holds on records a --keep
    # filtered (kept_lines says which were left out).
    con = connect(results, min_n=min_n, max_n=max_n, settings=verify_settings(settings), whole_only=True,
                  on_damage=on_damage, deep=deep)
    out = Verification(damaged=[d for d in damaged if " have no summary " not in d])
    bars = Progress(progress)
    fused: dict[str, Counts] | None = None
    for st in statements:
        if st.fusable and fuse and fused is None:
            fused = fused_counts(con, statements, bars)
        c = fused.get(st.id) if (fused is not None and st.fusable) else None
        out.append(run_statement(con, st, c, progress=bars))
        if on_result is not None:
            on_result(out[-1])
    return out


def result_lines(r: Result) -> list[str]:
    """The text report's lines for one statement: its status line (with the time it took),
    then its error or up to three counterexamples."""
    rng = f"n {r.min_n}..{r.max_n}" if r.rows else "n -"
    tag = r.status.upper() if r.status != "holds" else "holds"
    if r.discovery:
        tag = "DISCOVERY (conjecture fails)"
    extra = ""
    if r.printed_counterexamples is not None:
        what = "model difference" if r.kind == "model" else "erratum"
        extra = f", printed form fails on {r.printed_counterexamples}" + (
            f" ({what} confirmed)" if r.erratum_confirmed else f" ({what} not yet seen: extend n)"
        )
    if r.skipped:
        extra += f", {r.skipped:,} skipped: neighbours or exact values not in the store"
    if r.missing_witnesses:
        extra += f", witnesses not in the store: {', '.join(r.missing_witnesses)}"
    lines = [f"{r.id:<40} {r.kind:<11} {tag:<10} {r.rows:>10,} rows  {rng:<11} "
             f"{r.counterexamples} counterexamples{extra}  ({r.seconds:.1f} s)"]
    if r.error:
        lines.append(f"    error: {r.error}")
    for ex in r.examples[:3] if r.counterexamples else []:
        lines.append(f"    {ex}")
    return lines


def summary_lines(results: list[Result], damaged: list[str] | None = None) -> list[str]:
    """The text report's closing lines: counts by status, discoveries, errata, total time, and
    the damaged (game, n) no statement read (``damaged``: their warning lines)."""
    lines = []
    skipped = sum(r.skipped for r in results)
    counts = {s: sum(1 for r in results if r.status == s)
              for s in ("holds", "fails", "partial", "no data", "error")}
    disc = sum(r.discovery for r in results)
    errata = [r for r in results if r.erratum_confirmed is not None and r.kind == "erratum"]
    lines.append(
        f"{len(results)} statements: {counts['holds']} hold, {counts['fails']} fail "
        f"({disc} conjecture discoveries), {counts['partial']} partial, {counts['no data']} no data, "
        f"{counts['error']} errors; "
        f"{sum(bool(r.erratum_confirmed) for r in errata)} of {len(errata)} errata confirmed; "
        f"{sum(r.seconds for r in results):.1f} s"
    )
    if skipped:
        lines.append(f"{skipped:,} domain rows skipped in all: records whose neighbours (or exact values) "
                     "are not in the store")
    if disc:
        lines.append(f"DISCOVERY: {disc} conjecture(s) have counterexamples in these records (see above)")
    if damaged:
        names = [_damage_name(d) for d in damaged]
        lines.append(f"DAMAGED: {len(damaged)} (game, n) of the store are damaged and were not checked "
                     f"({', '.join(names[:5])}{', ...' if len(names) > 5 else ''}); "
                     f"`partgames run --repair` recomputes them (exit status {EXIT_DAMAGED})")
    return lines


def _damage_name(line: str) -> str:
    """``game=lctr n=20`` of a damage warning line (the file, for an unreadable one)."""
    m = re.search(r"game=(\S+) n=(\d+)", line)
    return f"{m.group(1)} n={m.group(2)}" if m else line.split(": ", 2)[-1].split(" is unreadable")[0]


def provenance_lines(results: str | Path, min_n: int | None = None, max_n: int | None = None) -> list[str]:
    """Which code computed the records read (each (game, n) records it): one line per version,
    and a warning when the store mixes versions, since a fix between them would make the older
    records the wrong ones."""
    versions = Store.open(results, create=False).provenance(min_n, max_n)
    lines = [f"records of {k} (game, n) computed by code {code[:16]} (partgames {version})"
             if code != "?"
             else f"records of {k} (game, n) computed by code not recorded (an older partgames wrote them)"
             for code, version, k in versions]
    if len(versions) > 1:
        lines.append(f"the store mixes records of {len(versions)} versions of the code: "
                     "`partgames run --force` recomputes the older ones")
    return lines


def kept_lines(results: str | Path, min_n: int | None = None, max_n: int | None = None) -> list[str]:
    """One line per game with (game, n) whose run kept only some records (``run --keep``): verify
    reads none of them (their records are not every partition of n)."""
    sound, _ = Store.open(results, create=False).committed()
    partial: dict[tuple[str, str], list[int]] = {}
    for game, n, record in sound:
        kept = record.get("kept", "all")
        if kept != "all" and (min_n is None or n >= min_n) and (max_n is None or n <= max_n):
            partial.setdefault((game, kept), []).append(n)
    return [f"skipped {len(ns)} (game, n) of {game} (n {min(ns)}..{max(ns)}): only the records of "
            f"--keep {kept!r} were kept, so no statement reads them"
            for (game, kept), ns in sorted(partial.items())]


def markdown_report(results: list[Result], provenance: list[str] | None = None) -> str:
    out = ["# partgames verify", "", *[f"- {line}" for line in provenance or []], "",
           "| id | source | kind | status | n range | rows | counterexamples | seconds |",
           "|---|---|---|---|---|---|---|---|"]
    for r in results:
        rng = f"{r.min_n}–{r.max_n}" if r.rows else "–"
        status = "DISCOVERY" if r.discovery else r.status
        if r.erratum_confirmed is not None:
            status += f"; printed form fails on {r.printed_counterexamples}"
        if r.skipped:
            status += f"; {r.skipped} skipped: neighbours or exact values not in the store"
        if r.missing_witnesses:
            status += f"; witnesses not in the store: {', '.join(r.missing_witnesses)}"
        out.append(f"| {r.id} | {r.source} | {r.kind} | {status} | {rng} | {r.rows} | {r.counterexamples} "
                   f"| {r.seconds:.1f} |")
    bad = [r for r in results if r.counterexamples or r.error]
    if bad:
        out += ["", "## Counterexamples", ""]
        for r in bad:
            out.append(f"### {r.id} ({r.kind}, {'discovery' if r.discovery else r.status})")
            if r.error:
                out.append(f"error: `{r.error}`")
            for ex in r.examples:
                out.append(f"- `{ex}`")
            out.append("")
    return "\n".join(out) + "\n"
