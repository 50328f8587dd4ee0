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
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from pipeline.errors import PartgamesError
from pipeline.query import connect, explain, queries_dir
from pipeline.schema import BOARD_GAMES
from pipeline.storage import Store

MUST_HOLD = {"theorem", "lemma", "proposition", "corollary", "observation", "erratum", "model", "claim",
             "consistency"}
KINDS = MUST_HOLD | {"conjecture"}
REQUIRED = ("id", "source", "kind", "statement", "covers", "domain")
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


@dataclass
class Statement:
    path: Path
    header: dict[str, str]
    query: str
    printed_query: str | None = None

    @property
    def id(self) -> str:
        return self.header["id"]

    @property
    def kind(self) -> str:
        return self.header["kind"]

    @property
    def needs(self) -> str:
        return self.header["needs"]


def parse_statement(path: Path) -> Statement:
    """Read one statement file: ``-- key: value`` header lines, then the query."""
    header: dict[str, str] = {}
    body: list[str] = []
    last = None
    in_header = True
    for line in path.read_text().splitlines():
        if in_header:
            m = re.match(r"--\s?([a-z_]+):\s?(.*)$", line)
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


def _strip_query(text: str) -> str:
    return text.strip().rstrip(";").strip()


def load_catalogue(root: Path | None = None, select: list[str] | None = None) -> list[Statement]:
    """Every statement file under ``queries/`` (not macros, not searches), sorted by id."""
    root = root or queries_dir()
    files = [
        p for p in sorted(root.rglob("*.sql"))
        if p.name != "macros.sql" and "search" not in p.relative_to(root).parts
    ]
    statements = [parse_statement(p) for p in files]
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
    order = "ORDER BY n, len(parts), parts" if {"n", "parts"} <= set(cols) else ""
    rows = con.sql(f"SELECT * FROM _cx {order} LIMIT {EXAMPLES}").to_arrow_table().to_pylist()
    return count, rows


def run_statement(con: duckdb.DuckDBPyConnection, st: Statement) -> Result:
    """Run one statement: its domain, its counterexamples and (an erratum) its printed form."""
    start = time.perf_counter()
    result = _run_statement(con, st)
    result.seconds = time.perf_counter() - start
    return result


def _run_statement(con: duckdb.DuckDBPyConnection, st: Statement) -> Result:
    h = st.header
    try:
        cut = restricted_views(con, st)
        rows, unexamined, lo, hi = _domain_counts(con, h["domain"], cut)
        total = sum(_domain_counts(con, h["domain"], {})[:2]) if cut else rows + unexamined
        count, examples = _examples(con, restrict(st.query, cut, con))
        printed, printed_examples = (_examples(con, restrict(st.printed_query, cut, con)) if st.printed_query
                                     else (None, []))
        missing, present = [], 0
        if h.get("witnesses"):
            for name, ok in con.execute(restrict(_strip_query(h["witnesses"]), cut, con)).fetchall():
                present += bool(ok)
                if not ok:
                    missing.append(name)
    except duckdb.Error as exc:
        msg = explain(exc)
        return Result(st.id, h["source"], st.kind, "error", 0, None, None, 0, error=msg)
    skipped = total - rows  # cut away by ``needs``, or marked unexamined by the domain itself
    if count:
        status = "fails"
    elif rows == 0 or (h.get("witnesses") and present == 0):
        status = "no data"
    elif missing:
        status = "partial"
    else:
        status = "holds"
    return Result(st.id, h["source"], st.kind, status, rows, lo, hi, count, examples, printed,
                  skipped=skipped, missing_witnesses=missing, printed_examples=printed_examples)


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


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _stored(con: duckdb.DuckDBPyConnection) -> dict[str, set[int]]:
    """The n of every (game, n) the views hold, by game (the ``jobs`` view)."""
    return {g: set(ns) for g, ns in con.execute("SELECT game, list(n) FROM jobs GROUP BY game").fetchall()}


def selection_store(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the views hold a family run's or a partitions file's records (``jobs.selection``)."""
    return bool(con.execute("SELECT count(*) FROM jobs WHERE selection IS NOT NULL").fetchall()[0][0])


def _prefix(ns: set[int]) -> int:
    """The largest K with 1, 2, …, K all in ``ns`` (0 when 1 is not)."""
    k = 0
    while k + 1 in ns:
        k += 1
    return k


def games_read(con: duckdb.DuckDBPyConnection, st: Statement, games: set[str]) -> set[str]:
    """The games whose records a statement reads: the game views its queries name (read off
    DuckDB's parse tree, ``json_serialize_sql``, which binds nothing: a view's name, not the
    tables behind it, and a table macro's arguments need not exist yet), every game for
    ``records`` and every Slow SetNim game for ``slownim``. Every game when a query does not
    parse."""
    names: set[str] = set()
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
        out |= {g for g in games if g.startswith("sn")}
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
    stored = _stored(con)
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
        keep = {g: _prefix(stored.get(g, set())) for g in read}
    elif st.needs == "smaller n":
        k = min(_prefix(stored.get(g, set())) for g in read)
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
    for view, members in (("records", games), ("slownim", {g for g in games if g.startswith("sn")}),
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
        ((name, f"{_quote(db)}.{_quote(schema)}.{_quote(name)}")
         for db, schema, name in con.execute(
             "SELECT database_name, schema_name, view_name FROM duckdb_views() WHERE NOT internal "
             "ORDER BY temporary").fetchall()))
    ctes = ", ".join(f"{_quote(v)} AS NOT MATERIALIZED (SELECT * FROM {qualified[v]}{w})"
                     for v, w in cut.items() if v in qualified)
    return f"WITH {ctes} SELECT * FROM ({query})" if ctes else query


def verify(results: str | Path, select: list[str] | None = None,
           on_result: Callable[[Result], None] | None = None, min_n: int | None = None,
           max_n: int | None = None, settings: dict[str, str] | None = None) -> list[Result]:
    """Run the selected statements on the records of the store at ``results`` with
    ``min_n ≤ n ≤ max_n`` (all by default), in id order. ``on_result`` is called with each
    result as soon as it is known: over a store of billions of records (the overnight run of
    LCTR and Downright for n ≤ 100) a statement takes seconds to many minutes, and a report only
    at the end would leave the user without a line for an hour. ``settings``: DuckDB settings
    (:func:`pipeline.query.connect`)."""
    statements = load_catalogue(select=select)
    # Only (game, n) whose records were all kept: a statement never holds on records a --keep
    # filtered (kept_lines says which were left out).
    con = connect(results, min_n=min_n, max_n=max_n, settings=settings, whole_only=True)
    out = []
    for st in statements:
        out.append(run_statement(con, st))
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


def summary_lines(results: list[Result]) -> list[str]:
    """The text report's closing lines: counts by status, discoveries, errata, total time."""
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
    return lines


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
