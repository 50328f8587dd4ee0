"""The summary of a (game, n): exact aggregates of every record, whatever a run keeps.

A run summarises each solved shard in numba (:func:`summarize_table`, no Python per record),
stages the shard's summary beside it, and merges the shards' summaries in the (game, n)'s commit
record (:func:`merge`), so a run with ``--keep none`` writes summaries and no records at all
(docs/store.md). The ``summaries`` view (:func:`pipeline.query.open_views`, one
:func:`pipeline.schema.summary_row` per (game, n), docs/records.md) reads them.

A summary holds, over the records of its (game, n):

- ``records``, and ``overflow``: the records whose ``nodes`` or ``leaves`` exceed 2^63 − 1
  (stored NULL, docs/definitions.md §4);
- ``pairs``: the number of records of each ``(sg, sg_misere)`` pair, as ``[sg, sg_misere,
  count]`` in increasing order;
- ``regions``: for each combination of the six CGH flags held by some record (a *mask*, bit k
  for :data:`pipeline.schema.FLAG_NAMES` [k]), its count and its first record in the order of
  the ``cgh_regions`` search (the smallest ``parts``, lexicographically), with that record's
  ``sg`` and ``sg_misere``;
- ``extremes``: for ``nodes``, ``leaves``, ``states`` and ``height``, the minimum and the
  maximum (over the non-NULL values), how many records attain each, up to
  :data:`WITNESSES` of those records' partitions in reverse lexicographic order (the order the
  searches list them in), and the next value inward (the smallest value above the minimum, the
  largest below the maximum; None when every value is the extreme).

Partitions compare as lists of parts (largest first), as DuckDB compares ``parts``.

>>> import pyarrow as pa
>>> from pipeline.schema import BOARD_SCHEMA
>>> rows = [dict(n=3, parts=p, sg=s, sg_misere=m, nodes=k, leaves=k, states=k, height=h,
...              domestic=True, tame=True, pet=False, miserable=False, forced=False,
...              returnable=True, num_parts=len(p), largest=p[0], durfee=1, rank=p[0] - len(p),
...              distinct_sizes=len(set(p)), conjugate=p)
...         for p, s, m, k, h in [([3], 1, 0, 4, 3), ([2, 1], 0, 1, 5, 2), ([1, 1, 1], 1, 0, 5, 3)]]
>>> s = summarize_table(pa.Table.from_pylist(rows, schema=BOARD_SCHEMA))
>>> s["records"], s["pairs"]
(3, [[0, 1, 1], [1, 0, 2]])
>>> s["extremes"]["nodes"]["max"], s["extremes"]["nodes"]["max_count"], s["extremes"]["nodes"]["max_at"]
(5, 2, [[2, 1], [1, 1, 1]])
>>> s["extremes"]["nodes"]["max_next"], s["extremes"]["height"]["min_next"]
(4, 3)
>>> s["regions"]
[[35, 3, [1, 1, 1], 1, 0]]
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.schema import FLAG_NAMES
from pipeline.schema import SUMMARY_MEASURES as MEASURES

#: Partitions kept per extreme (the searches show at most this many).
WITNESSES = 20


@numba.njit(cache=True, nogil=True)
def _lex_cmp(values, offsets, a, b):  # pragma: no cover - compiled
    """Compare the partitions of records ``a`` and ``b`` (lists of parts): -1, 0 or 1."""
    sa, ea, sb, eb = offsets[a], offsets[a + 1], offsets[b], offsets[b + 1]
    la, lb = ea - sa, eb - sb
    for k in range(min(la, lb)):
        x, y = values[sa + k], values[sb + k]
        if x != y:
            return -1 if x < y else 1
    if la == lb:
        return 0
    return -1 if la < lb else 1


@numba.njit(cache=True, nogil=True, inline="always")
def _witness(values, offsets, i, witnesses, kept):  # pragma: no cover - compiled
    """Record ``i`` among the ``kept`` witnesses (the ``witnesses.shape[0]`` lexicographically
    largest partitions, largest first); their new number."""
    size = witnesses.shape[0]
    if kept == size and _lex_cmp(values, offsets, i, witnesses[kept - 1]) <= 0:
        return kept
    pos = kept if kept < size else size - 1
    while pos > 0 and _lex_cmp(values, offsets, i, witnesses[pos - 1]) > 0:
        witnesses[pos] = witnesses[pos - 1]
        pos -= 1
    witnesses[pos] = i
    return kept + 1 if kept < size else kept


def _spread_table() -> np.ndarray:
    """Byte x → the 64-bit word whose byte i is bit i of x (eight records' flag bits, one byte
    each)."""
    table = np.zeros(256, np.uint64)
    for x in range(256):
        table[x] = sum(((x >> i) & 1) << (8 * i) for i in range(8))
    return table


_SPREAD = _spread_table()


@numba.njit(cache=True, nogil=True)
def _flag_masks(bits, bit_offsets, records, spread):  # pragma: no cover - compiled
    """Each record's flag mask (bit f: flag f), eight records at a time.

    ``bits``: the six flag columns' Arrow bitmaps, one row each (least significant bit first)
    with a spare byte at the end; record i of flag f is bit ``bit_offsets[f] + i`` of row f;
    ``spread``: :data:`_SPREAD`. The masks array has room for a last partial byte's records."""
    masks = np.empty(records + 8, np.uint8)
    for j in range((records + 7) // 8):
        word = np.uint64(0)
        for f in range(6):
            shift = bit_offsets[f]
            byte = ((np.int64(bits[f, j]) >> shift) | (np.int64(bits[f, j + 1]) << (8 - shift))) & 0xFF
            word |= spread[byte] << np.uint64(f)
        for r in range(8):
            masks[8 * j + r] = np.uint8((word >> np.uint64(8 * r)) & np.uint64(0xFF))
    return masks


@numba.njit(cache=True, nogil=True)
def _pairs_and_regions(sg, sgm, masks, largest, values, offsets):  # pragma: no cover - compiled
    """Counts of every (sg, sg_misere) pair (a dense matrix) and of every flag mask (64), with
    each mask's lexicographically smallest record (-1: none).

    ``masks``: each record's flag mask (:func:`_flag_masks`); ``largest``: each record's
    largest part (its ``parts``' first value, read from the column of that name, not through
    the offsets: a load from the parts of every record costs several times this whole pass);
    ``values``/``offsets``: the ``parts`` column's flattened values and offsets."""
    top_sg = 0
    top_sgm = 0
    for i in range(sg.shape[0]):
        top_sg = max(top_sg, sg[i])
        top_sgm = max(top_sgm, sgm[i])
    pairs = np.zeros((top_sg + 1, top_sgm + 1), np.int64)
    regions = np.zeros(64, np.int64)
    first = np.full(64, -1, np.int64)
    # the largest part of each mask's first record: most records differ from it there, so the
    # whole partitions are compared on ties only
    first_largest = np.full(64, np.int64(1) << 62, np.int64)
    for i in range(sg.shape[0]):
        pairs[sg[i], sgm[i]] += 1
        mask = masks[i]
        regions[mask] += 1
        a = np.int64(largest[i])
        if a <= first_largest[mask]:
            if a < first_largest[mask] or _lex_cmp(values, offsets, i, first[mask]) < 0:
                first[mask] = i
                first_largest[mask] = a
    return pairs, regions, first


@numba.njit(cache=True, nogil=True)
def _extremes(column, values, offsets, low_at, high_at):  # pragma: no cover - compiled
    """The minimum and the maximum of ``column`` over its values ≥ 0 (negative marks NULL): for
    each, (found, extreme, count, the number of witnesses: the records of up to
    ``witnesses.shape[0]`` partitions attaining it in reverse lexicographic order, into
    ``low_at`` / ``high_at``, has_next, next value inward).

    ``column``: int values, one per record; ``values``/``offsets``: the ``parts`` column's
    flattened values and offsets (record i's parts are values[offsets[i]:offsets[i + 1]]).
    The extremes and the next values are found in two passes without a branch (numba
    vectorises them), the counts and witnesses in a third whose branch is rarely taken.
    """
    big = np.int64(1) << 62
    low, high = big, np.int64(-1)
    for i in range(column.shape[0]):
        v = np.int64(column[i])
        high = max(high, v)
        low = min(low, v if v >= 0 else big)
    if high < 0:
        return (False, np.int64(0), np.int64(0), 0, False, np.int64(0),
                np.int64(0), np.int64(0), 0, False, np.int64(0))
    low_next, high_next = big, np.int64(-1)
    for i in range(column.shape[0]):
        v = np.int64(column[i])
        high_next = max(high_next, v if v < high else np.int64(-1))
        low_next = min(low_next, v if v > low else big)
    low_count = high_count = np.int64(0)
    low_kept = high_kept = 0
    for i in range(column.shape[0]):
        v = np.int64(column[i])
        if v == high:
            high_count += 1
            high_kept = _witness(values, offsets, i, high_at, high_kept)
        if v == low:
            low_count += 1
            low_kept = _witness(values, offsets, i, low_at, low_kept)
    return (True, low, low_count, low_kept, low_next != big, low_next,
            high, high_count, high_kept, high_next >= 0, high_next)


def _numpy(column: pa.ChunkedArray | pa.Array, null: int | None = None) -> np.ndarray:
    """A column's values in its own type (the kernels compile for each: an int64 copy costs time
    a record, docs/performance.md, "Measurements behind the code"), NULLs replaced by ``null``."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    if null is not None and column.null_count:
        column = pc.fill_null(column, null)
    return column.to_numpy()


def _largest_parts(table: pa.Table, values: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Each record's first part: the ``largest`` column where the schema has one (a partition's
    λ1, a d-dimensional diagram's height at the origin: ``parts``' first value either way,
    docs/records.md), else read through the offsets."""
    if "largest" in table.column_names:
        return _numpy(table.column("largest"))
    return values[offsets[:-1]]


def summarize_table(table: pa.Table) -> dict[str, Any]:
    """The summary (see the module docstring) of one table of records: a JSON-ready dict."""
    parts = table.column("parts")
    parts = parts.combine_chunks() if parts.num_chunks != 1 else parts.chunk(0)
    # the column's own buffers (int32 offsets, int16 parts), not int64 copies: copying the parts
    # costs more than all the summary's passes together (docs/performance.md)
    offsets = parts.offsets.to_numpy()
    values = parts.values.to_numpy()

    def partition(i: int) -> list[int]:
        return values[offsets[i]:offsets[i + 1]].tolist()

    records = table.num_rows
    sg = _numpy(table.column("sg"))
    sgm = _numpy(table.column("sg_misere"))
    columns = {m: _numpy(table.column(m), null=-1) for m in MEASURES}
    # NULL marks an overflowing count (docs/definitions.md §4): absent from most tables, so
    # counted only where Arrow's null counts say there is one
    overflow = 0
    if table.column("nodes").null_count or table.column("leaves").null_count:
        overflow = int(np.count_nonzero((columns["nodes"] < 0) | (columns["leaves"] < 0)))
    # the flags' bitmaps as they are: unpacking six bool columns into bytes costs time a record
    # (docs/performance.md, "Measurements behind the code")
    bits = np.zeros((6, (records + 7) // 8 + 1), np.uint8)
    bit_offsets = np.zeros(6, np.int64)
    for k, name in enumerate(FLAG_NAMES):
        column = table.column(name)
        array = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
        if array.null_count:
            raise ValueError(f"{name}: a NULL flag")
        start = array.offset // 8  # the bitmap's bytes from the array's first record on
        bitmap = np.frombuffer(array.buffers()[1], np.uint8)[start:start + bits.shape[1]]
        bits[k, :bitmap.shape[0]] = bitmap
        bit_offsets[k] = array.offset % 8
    summary: dict[str, Any] = {"records": records, "overflow": overflow}
    if records:
        masks = _flag_masks(bits, bit_offsets, records, _SPREAD)
        pairs, regions, first = _pairs_and_regions(sg, sgm, masks, _largest_parts(table, values, offsets),
                                                   values, offsets)
    else:
        pairs, regions, first = np.zeros((0, 0), np.int64), np.zeros(64, np.int64), None
    summary["pairs"] = [[int(s), int(m), int(pairs[s, m])] for s, m in zip(*np.nonzero(pairs), strict=True)]
    summary["regions"] = [[mask, int(regions[mask]), partition(first[mask]), int(sg[first[mask]]),
                           int(sgm[first[mask]])] for mask in np.nonzero(regions)[0].tolist()]
    extremes: dict[str, dict[str, Any]] = {}
    low_at, high_at = np.zeros(WITNESSES, np.int64), np.zeros(WITNESSES, np.int64)
    for m in MEASURES:
        found, *sides = _extremes(columns[m], values, offsets, low_at, high_at)
        entry: dict[str, Any] = {}
        for side, at, (best, count, kept, has_next, nxt) in (("min", low_at, sides[:5]),
                                                              ("max", high_at, sides[5:])):
            entry[side] = int(best) if found else None
            entry[f"{side}_count"] = int(count)
            entry[f"{side}_at"] = [partition(i) for i in at[:kept].tolist()]
            entry[f"{side}_next"] = int(nxt) if has_next else None
        extremes[m] = entry
    summary["extremes"] = extremes
    return summary


def merge(summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """The summary of the union of disjoint sets of records, from their summaries.

    >>> a = {"records": 2, "overflow": 0, "pairs": [[0, 1, 2]], "regions": [[3, 2, [2, 1], 0, 1]],
    ...      "extremes": {m: {"min": 1, "min_count": 1, "min_at": [[2, 1]], "min_next": 4,
    ...                       "max": 4, "max_count": 1, "max_at": [[3]], "max_next": 1}
    ...                   for m in MEASURES}}
    >>> b = {"records": 1, "overflow": 1, "pairs": [[0, 1, 1]], "regions": [[3, 1, [1, 1, 1], 0, 1]],
    ...      "extremes": {m: {"min": 1, "min_count": 1, "min_at": [[1, 1, 1]], "min_next": None,
    ...                       "max": 1, "max_count": 1, "max_at": [[1, 1, 1]], "max_next": None}
    ...                   for m in MEASURES}}
    >>> s = merge([a, b])
    >>> s["records"], s["overflow"], s["pairs"], s["regions"]
    (3, 1, [[0, 1, 3]], [[3, 3, [1, 1, 1], 0, 1]])
    >>> e = s["extremes"]["nodes"]; e["min"], e["min_count"], e["min_at"], e["min_next"], e["max_next"]
    (1, 2, [[2, 1], [1, 1, 1]], 4, 1)
    """
    pairs: dict[tuple[int, int], int] = {}
    regions: dict[int, list] = {}
    out: dict[str, Any] = {"records": 0, "overflow": 0}
    for s in summaries:
        out["records"] += s["records"]
        out["overflow"] += s["overflow"]
        for sg, sgm, count in s["pairs"]:
            pairs[(sg, sgm)] = pairs.get((sg, sgm), 0) + count
        for mask, count, first, sg, sgm in s["regions"]:
            have = regions.get(mask)
            if have is None:
                regions[mask] = [mask, count, first, sg, sgm]
            else:
                have[1] += count
                if first < have[2]:
                    have[2:] = [first, sg, sgm]
    out["pairs"] = [[sg, sgm, c] for (sg, sgm), c in sorted(pairs.items())]
    out["regions"] = [regions[mask] for mask in sorted(regions)]
    out["extremes"] = {m: _merge_extreme([s["extremes"][m] for s in summaries]) for m in MEASURES}
    return out


def _merge_extreme(entries: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for side, pick in (("min", min), ("max", max)):
        found = [e for e in entries if e[side] is not None]
        if not found:
            out.update({side: None, f"{side}_count": 0, f"{side}_at": [], f"{side}_next": None})
            continue
        best = pick(e[side] for e in found)
        at = [e for e in found if e[side] == best]
        # the next value inward: the nearest to ``best`` of the other entries' extremes and of
        # every entry's next value (all of them lie on the inner side of ``best``)
        candidates = [e[side] for e in found if e[side] != best]
        candidates += [e[f"{side}_next"] for e in found if e[f"{side}_next"] is not None]
        out[side] = best
        out[f"{side}_count"] = sum(e[f"{side}_count"] for e in at)
        out[f"{side}_at"] = sorted((p for e in at for p in e[f"{side}_at"]), reverse=True)[:WITNESSES]
        out[f"{side}_next"] = pick(candidates) if candidates else None
    return out

