"""`partgames verify --scheduler ADDRESS`: the statement catalogue as tasks on a Dask cluster.

The store is on a filesystem every worker mounts at the client's path (as for ``run
--scheduler``, :mod:`pipeline.cluster`); each task opens it with its own DuckDB connection
(:func:`pipeline.query.connect`, files hashed first as a local verify does) and returns results,
never records. The catalogue is split into

- the statements in the predicate form without witnesses (``Statement.fusable``), which read a
  record (or its neighbourhood, ``needs: followers``) and nothing else: one task per range of n
  (and kind), each counting all of them in one scan of its records or neighbourhoods
  (:func:`pipeline.verify.fused_counts`); the client adds the counts up and keeps the first
  examples by n;
- every other statement: one task each, over the whole range of n (it may read any n up to
  its own).

The client merges the results into the list a local verify returns, in id order, so that the
report is the same.

``verify --rules FILE --scheduler``: each task brings the rules files' text (as ``run --rules
--scheduler`` does, docs/rules.md) and the statements they add (``consistency.rules.GAME`` and
those of the ``queries/`` folder beside a file, :mod:`pipeline.rules_verify`); the worker
registers the rules, gives the games those statements read their views, and runs the statements
as a local verify does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.verify import (
    EXAMPLES,
    Counts,
    Result,
    Statement,
    Verification,
    _status,
    first_examples,
    fused_counts,
    load_catalogue,
    run_statement,
    verify_settings,
)

if TYPE_CHECKING:
    from pipeline.rules import Rules

#: Ranges of n per worker for the shared scan (a few, so that a slow worker is not the tail).
RANGES_PER_WORKER = 2


@dataclass(frozen=True)
class RulesPart:
    """What ``verify --rules`` adds, shipped with each task: the rules files (name, text), the
    statements they add, and the games those statements read (views, empty before a record)."""

    sources: tuple[tuple[str, str], ...] = ()
    statements: tuple[Statement, ...] = ()
    views: tuple[str, ...] = ()


def _take_rules(part: RulesPart | None) -> list[Statement] | None:
    """On a worker: the rules of ``part`` registered (replacing those of the same id an earlier
    verify or run brought: a worker serves one after another), its views declared; its
    statements."""
    if part is None:
        return None
    from pipeline.rules import declare_views, load_rules_source, register

    for name, text in part.sources:
        for rules in load_rules_source(name, text):
            register(rules, replace=True)
    declare_views(part.views)
    return list(part.statements)


def _connect(results: str, min_n: int | None, max_n: int | None, settings: dict[str, str] | None):
    from pipeline.query import connect

    damaged: list[str] = []
    con = connect(results, min_n=min_n, max_n=max_n, settings=verify_settings(settings), whole_only=True,
                  on_damage=damaged.append, deep=True)
    return con, [d for d in damaged if " have no summary " not in d]


def range_task(results: str, ids: list[str], min_n: int, max_n: int,
               settings: dict[str, str] | None, rules: RulesPart | None = None
               ) -> tuple[dict[str, tuple], list[str]]:
    """On a worker: the shared-scan counts of the statements ``ids`` over the records with
    min_n ≤ n ≤ max_n, with their first examples (of the corrected and the printed form) where
    they have some. The views hold every n up to max_n when a statement reads neighbourhoods
    (``needs: followers``: the followers of n lie at smaller n)."""
    statements = load_catalogue(select=ids, extra=_take_rules(rules))
    followers = any(st.needs == "followers" for st in statements)
    con, damaged = _connect(results, None if followers else min_n, max_n, settings)
    counts = fused_counts(con, statements, subjects=(min_n, max_n))
    out = {}
    for st in statements:
        c = counts.get(st.id)
        if c is None:  # DuckDB refused its predicates: the client runs it as a whole task
            continue
        # a follower statement's examples: its subjects in this range, of held n only
        examples = first_examples(con, st, st.query, (min_n, max_n)) if c.counterexamples else []
        printed = first_examples(con, st, st.printed_query, (min_n, max_n)) if c.printed else []
        out[st.id] = (c, examples, printed)
    return out, damaged


def whole_task(results: str, statement_id: str, min_n: int | None, max_n: int | None,
               settings: dict[str, str] | None, rules: RulesPart | None = None
               ) -> tuple[Result, list[str]]:
    """On a worker: one statement over the whole range, as a local verify runs it."""
    extra = _take_rules(rules)  # before the views: a rules game's view is made from its rules
    con, damaged = _connect(results, min_n, max_n, settings)
    (st,) = load_catalogue(select=[statement_id], extra=extra)
    return run_statement(con, st), damaged


def _ranges(results: str, min_n: int | None, max_n: int | None, parts: int) -> list[tuple[int, int]]:
    """``parts`` consecutive ranges of the stored n, of about equal records."""
    from pipeline.storage import Store

    records: dict[int, int] = {}
    sound, _ = Store.open(results, create=False).committed()
    for _, n, record in sound:
        if (min_n is None or n >= min_n) and (max_n is None or n <= max_n):
            records[n] = records.get(n, 0) + record.get("kept_records", record["records"])
    if not records:
        return []
    total = sum(records.values())
    out, lo, acc = [], None, 0
    for n in sorted(records):
        lo = n if lo is None else lo
        acc += records[n]
        if acc >= total / parts and len(out) < parts - 1:
            out.append((lo, n))
            lo, acc = None, 0
    if lo is not None:
        out.append((lo, max(records)))
    return out


def _merged_ranges(range_futures: list, damaged: set[str]) -> dict[str, tuple[Counts, list, list]]:
    """The counts, examples and printed examples of each statement over every range, from the
    range tasks' futures in increasing n (so the first examples come first); the damaged
    (game, n) they report added to ``damaged``."""
    merged: dict[str, tuple[Counts, list, list]] = {}
    for future in range_futures:
        part, bad = future.result()
        damaged.update(bad)
        for sid, (c, examples, printed) in part.items():
            m = merged.setdefault(sid, (Counts(printed=0 if c.printed is not None else None), [], []))
            m[0].add(c.rows, c.min_n, c.max_n, c.counterexamples, c.printed)
            m[0].skipped += c.skipped
            m[0].error = m[0].error or c.error
            m[1].extend(examples)
            m[2].extend(printed)
    return merged


def _shared_result(st: Statement, merged: dict[str, tuple[Counts, list, list]], seconds: float) -> Result:
    """The result of statement ``st`` of the shared scan from its ``merged`` counts
    (:func:`_merged_ranges`; none: no rows), ``seconds`` its share of the scan's time; an error
    when a range's pass failed (not the counts it lacks)."""
    empty = Counts(printed=0 if st.printed_clauses else None)
    c, examples, printed = merged.get(st.id, (empty, [], []))
    h = st.header
    if c.error is not None:
        return Result(st.id, h["source"], st.kind, "error", 0, None, None, 0, error=c.error)
    return Result(st.id, h["source"], st.kind, _status(c.counterexamples, c.rows, h, 0, []),
                  c.rows, c.min_n, c.max_n, c.counterexamples, examples[:EXAMPLES], c.printed,
                  printed_examples=printed[:EXAMPLES], seconds=seconds, skipped=c.skipped)


def verify_on_cluster(results: str | Path, client, select: list[str] | None = None,  # noqa: ANN001
                      on_result: Callable[[Result], None] | None = None, min_n: int | None = None,
                      max_n: int | None = None, settings: dict[str, str] | None = None,
                      rules: RulesPart | None = None) -> Verification:
    """The results of :func:`pipeline.verify.verify` computed by the cluster's workers
    (``rules``: those of ``verify --rules``, :func:`rules_part`)."""
    import time

    results = str(Path(results).resolve())
    statements = load_catalogue(select=select, extra=list(rules.statements) if rules else None)
    shared = [st for st in statements if st.fusable and not st.header.get("witnesses")]
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    ranges = _ranges(results, min_n, max_n, RANGES_PER_WORKER * workers) if shared else []
    start = time.perf_counter()
    ids = [st.id for st in shared]
    # the record statements and the neighbourhood ones apart: the first read only their range
    groups = [[st.id for st in shared if st.needs != "followers"],
              [st.id for st in shared if st.needs == "followers"]]
    range_futures = [client.submit(range_task, results, group, lo, hi, settings, rules, pure=False)
                     for lo, hi in ranges for group in groups if group]
    shared_ids = set(ids)
    whole_futures = {st.id: client.submit(whole_task, results, st.id, min_n, max_n, settings, rules,
                                               pure=False)
                     for st in statements if st.id not in shared_ids}
    damaged: set[str] = set()
    merged = _merged_ranges(range_futures, damaged)
    scan = time.perf_counter() - start
    missing = [sid for sid in ids if sid not in merged and ranges]
    for sid in missing:  # refused by DuckDB in the shared scan: alone, where its error is its own
        whole_futures[sid] = client.submit(whole_task, results, sid, min_n, max_n, settings, rules,
                                             pure=False)
    out = Verification()
    for st in statements:
        if st.id in whole_futures:
            result, bad = whole_futures[st.id].result()
            damaged.update(bad)
        else:
            result = _shared_result(st, merged, scan / max(1, len(shared)))
        out.append(result)
        if on_result is not None:
            on_result(result)
    out.damaged = sorted(damaged)
    return out


def rules_part(loaded: list[Rules], statements: list[Statement]) -> RulesPart:
    """The :class:`RulesPart` of ``verify --rules``: the text of each rules file the rules
    ``loaded`` were read from (a worker need not see the client's files), the ``statements``
    :func:`pipeline.rules_verify.rules_statements` made of them, and the games those read."""
    from pipeline.errors import UsageError
    from pipeline.rules_verify import games_named

    sources: list[tuple[str, str]] = []
    for rules in loaded:
        if rules.source is None:  # pragma: no cover - load_rules_file always names its file
            raise UsageError(f"verify --rules --scheduler: the rules of {rules.game_id} have no file")
        if rules.source not in sources:
            sources.append(rules.source)
    views = sorted({g for st in statements for g in games_named(st)})
    return RulesPart(tuple(sources), tuple(statements), tuple(views))
