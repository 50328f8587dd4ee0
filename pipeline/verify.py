"""`partgames verify`: run the statement catalogue in ``queries/`` (format: queries/FORMAT.md).

Like dbt's data tests, a statement is a SQL query returning the rows that contradict it; an empty
result means it holds on every record examined. The ``domain`` query says which records those
are, so a statement about games or families with no records reports ``no data``, never
``holds``.
"""

from __future__ import annotations

import fnmatch
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from pipeline.errors import PartgamesError
from pipeline.query import connect, explain, queries_dir
from pipeline.storage import Store

MUST_HOLD = {"theorem", "lemma", "proposition", "corollary", "observation", "erratum", "claim"}
KINDS = MUST_HOLD | {"conjecture"}
REQUIRED = ("id", "source", "kind", "statement", "covers", "domain")
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
    text = "\n".join(body)
    printed = None
    if PRINTED_MARK in text:
        text, printed = text.split(PRINTED_MARK, 1)
        printed = _strip_query(printed)
    elif header["kind"] == "erratum":
        raise StatementError(f"{path}: an erratum needs a '{PRINTED_MARK}' query")
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
    status: str  # holds / fails / no data / error
    rows: int
    min_n: int | None
    max_n: int | None
    counterexamples: int
    examples: list[dict] = field(default_factory=list)
    printed_counterexamples: int | None = None
    error: str | None = None
    #: Wall time of the statement's queries (domain, counterexamples, printed form).
    seconds: float = 0.0

    @property
    def discovery(self) -> bool:
        return self.kind == "conjecture" and self.status == "fails"

    @property
    def erratum_confirmed(self) -> bool | None:
        """For an erratum: the printed form fails and the corrected one holds, on the records."""
        if self.printed_counterexamples is None:
            return None
        return self.status == "holds" and self.printed_counterexamples > 0

    @property
    def breaks(self) -> bool:
        """A statement that must hold but does not: verify exits non-zero."""
        return self.status == "error" or (self.kind in MUST_HOLD and self.status == "fails")

    def as_dict(self) -> dict:
        d = {
            "id": self.id, "source": self.source, "kind": self.kind, "status": self.status,
            "rows": self.rows, "min_n": self.min_n, "max_n": self.max_n,
            "counterexamples": self.counterexamples, "examples": self.examples,
            "seconds": round(self.seconds, 3),
        }
        if self.printed_counterexamples is not None:
            d["printed_counterexamples"] = self.printed_counterexamples
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
        rows, lo, hi = con.execute(
            f"SELECT count(*), min(n), max(n) FROM ({_strip_query(h['domain'])})"
        ).fetchall()[0]
        count, examples = _examples(con, st.query)
        printed = _examples(con, st.printed_query)[0] if st.printed_query else None
    except duckdb.Error as exc:
        msg = explain(exc)
        return Result(st.id, h["source"], st.kind, "error", 0, None, None, 0, error=msg)
    status = "no data" if rows == 0 else ("fails" if count else "holds")
    return Result(st.id, h["source"], st.kind, status, rows, lo, hi, count, examples, printed)


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
    con = connect(results, min_n=min_n, max_n=max_n, settings=settings)
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
        extra = f", printed form fails on {r.printed_counterexamples}" + (
            " (erratum confirmed)" if r.erratum_confirmed else " (erratum not yet seen: extend n)"
        )
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
    counts = {s: sum(1 for r in results if r.status == s) for s in ("holds", "fails", "no data", "error")}
    disc = sum(r.discovery for r in results)
    errata = [r for r in results if r.erratum_confirmed is not None]
    lines.append(
        f"{len(results)} statements: {counts['holds']} hold, {counts['fails']} fail "
        f"({disc} conjecture discoveries), {counts['no data']} no data, {counts['error']} errors; "
        f"{sum(bool(r.erratum_confirmed) for r in errata)} of {len(errata)} errata confirmed; "
        f"{sum(r.seconds for r in results):.1f} s"
    )
    if disc:
        lines.append(f"DISCOVERY: {disc} conjecture(s) have counterexamples in these records (see above)")
    return lines


def provenance_lines(results: str | Path, min_n: int | None = None, max_n: int | None = None) -> list[str]:
    """Which code computed the records read (each (game, n) records it): one line per version,
    and a warning when the store mixes versions, since a fix between them would make the older
    records the wrong ones."""
    versions = Store.open(results, create=False).provenance(min_n, max_n)
    lines = [f"records of {k} (game, n) computed by code {code[:16]} (partgames {version})"
             if code != "?" else f"records of {k} (game, n) computed by code not recorded (before session 17)"
             for code, version, k in versions]
    if len(versions) > 1:
        lines.append(f"the store mixes records of {len(versions)} versions of the code: "
                     "`partgames run --force` recomputes the older ones")
    return lines


def markdown_report(results: list[Result], provenance: list[str] | None = None) -> str:
    out = ["# partgames verify", "", *[f"- {line}" for line in provenance or []], "",
           "| id | source | kind | status | n range | rows | counterexamples | seconds |",
           "|---|---|---|---|---|---|---|---|"]
    for r in results:
        rng = f"{r.min_n}–{r.max_n}" if r.rows else "–"
        status = "DISCOVERY" if r.discovery else r.status
        if r.erratum_confirmed is not None:
            status += f"; printed form fails on {r.printed_counterexamples}"
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
