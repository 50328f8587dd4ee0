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
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pipeline.verify import (
    EXAMPLES,
    Counts,
    Result,
    Verification,
    _status,
    first_examples,
    fused_counts,
    load_catalogue,
    run_statement,
    verify_settings,
)

#: Ranges of n per worker for the shared scan (a few, so that a slow worker is not the tail).
RANGES_PER_WORKER = 2


def _connect(results: str, min_n: int | None, max_n: int | None, settings: dict[str, str] | None):
    from pipeline.query import connect

    damaged: list[str] = []
    con = connect(results, min_n=min_n, max_n=max_n, settings=verify_settings(settings), whole_only=True,
                  on_damage=damaged.append, deep=True)
    return con, [d for d in damaged if " have no summary " not in d]


def range_task(results: str, ids: list[str], min_n: int, max_n: int,
               settings: dict[str, str] | None) -> tuple[dict[str, tuple], list[str]]:
    """On a worker: the shared-scan counts of the statements ``ids`` over the records with
    min_n ≤ n ≤ max_n, with their first examples (of the corrected and the printed form) where
    they have some. The views hold every n up to max_n when a statement reads neighbourhoods
    (``needs: followers``: the followers of n lie at smaller n)."""
    statements = load_catalogue(select=ids)
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
               settings: dict[str, str] | None) -> tuple[Result, list[str]]:
    """On a worker: one statement over the whole range, as a local verify runs it."""
    con, damaged = _connect(results, min_n, max_n, settings)
    (st,) = load_catalogue(select=[statement_id])
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


def verify_on_cluster(results: str | Path, client, select: list[str] | None = None,  # noqa: ANN001
                      on_result: Callable[[Result], None] | None = None, min_n: int | None = None,
                      max_n: int | None = None, settings: dict[str, str] | None = None) -> Verification:
    """The results of :func:`pipeline.verify.verify` computed by the cluster's workers."""
    import time

    results = str(Path(results).resolve())
    statements = load_catalogue(select=select)
    shared = [st for st in statements if st.fusable and not st.header.get("witnesses")]
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    ranges = _ranges(results, min_n, max_n, RANGES_PER_WORKER * workers) if shared else []
    start = time.perf_counter()
    ids = [st.id for st in shared]
    # the record statements and the neighbourhood ones apart: the first read only their range
    groups = [[st.id for st in shared if st.needs != "followers"],
              [st.id for st in shared if st.needs == "followers"]]
    range_futures = [client.submit(range_task, results, group, lo, hi, settings, pure=False)
                     for lo, hi in ranges for group in groups if group]
    shared_ids = set(ids)
    whole_futures = {st.id: client.submit(whole_task, results, st.id, min_n, max_n, settings, pure=False)
                     for st in statements if st.id not in shared_ids}
    damaged: set[str] = set()
    merged: dict[str, tuple[Counts, list, list]] = {}
    for future in range_futures:  # in increasing n: the first examples come first
        part, bad = future.result()
        damaged.update(bad)
        for sid, (c, examples, printed) in part.items():
            m = merged.setdefault(sid, (Counts(printed=0 if c.printed is not None else None), [], []))
            m[0].add(c.rows, c.min_n, c.max_n, c.counterexamples, c.printed)
            m[0].skipped += c.skipped
            m[0].error = m[0].error or c.error
            m[1].extend(examples)
            m[2].extend(printed)
    scan = time.perf_counter() - start
    missing = [sid for sid in ids if sid not in merged and ranges]
    for sid in missing:  # refused by DuckDB in the shared scan: alone, where its error is its own
        whole_futures[sid] = client.submit(whole_task, results, sid, min_n, max_n, settings, pure=False)
    out = Verification()
    for st in statements:
        if st.id in whole_futures:
            result, bad = whole_futures[st.id].result()
            damaged.update(bad)
        else:
            empty = Counts(printed=0 if st.printed_clauses else None)
            c, examples, printed = merged.get(st.id, (empty, [], []))
            h = st.header
            if c.error is not None:  # a range's pass failed: an error, not the counts it lacks
                result = Result(st.id, h["source"], st.kind, "error", 0, None, None, 0, error=c.error)
                out.append(result)
                if on_result is not None:
                    on_result(result)
                continue
            result = Result(st.id, h["source"], st.kind, _status(c.counterexamples, c.rows, h, 0, []),
                            c.rows, c.min_n, c.max_n, c.counterexamples, examples[:EXAMPLES], c.printed,
                            printed_examples=printed[:EXAMPLES], seconds=scan / max(1, len(shared)),
                            skipped=c.skipped)
        out.append(result)
        if on_result is not None:
            on_result(result)
    out.damaged = sorted(damaged)
    return out
