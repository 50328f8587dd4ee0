"""The ``shape`` and ``ordinal`` columns (docs/records.md, "Shape and keys").

Checked three ways: against plain-Python predicates written from docs/definitions.md §1 and the
macros' comments (no code shared with the kernel) on every partition of n <= 30, against the list
macros of queries/macros.sql on every partition of n <= 40 (the column a statement filters on
equals the macro an ad-hoc query uses), and on the records of a real run (every board game and
Slow SetNim game of the small store).
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pytest
from harness import partitions

from pipeline.games.features import (
    ORDINAL_MAX_N,
    SHAPE_BITS,
    shape_columns,
    shape_names,
)
from pipeline.partitions import enumerate_partitions, flatten_prefixes, partition_numbers
from pipeline.query import connect
from pipeline.schema import BOARD_SCHEMA, PARTITION_COLUMNS

MACROS = Path(__file__).resolve().parents[1] / "queries" / "macros.sql"



def conjugate(p: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(1 for x in p if x >= k) for k in range(1, (p[0] if p else 0) + 1))


def gen_staircases(n: int) -> set[tuple[int, ...]]:
    """G(k;r,c) = ((kc)^r, ((k−1)c)^r, …, c^r) of size n, from the parameters."""
    out = set()
    for k in range(1, n + 1):
        for r in range(1, n + 1):
            for c in range(1, n + 1):
                if r * c * k * (k + 1) // 2 == n:
                    out.add(tuple(x * c for x in range(k, 0, -1) for _ in range(r)))
    return out


def gen_staircase_subs(n: int) -> set[tuple[int, ...]]:
    """Every G(k;r,c)[i,j] of size n: the cells of G weakly below and right of (i, j). Only
    i < r and j < c: dropping a whole block of rows or columns of G(k;r,c) leaves G(k−1;r,c)."""
    out = set()
    for k in range(1, n + 1):
        for r in range(1, n + 1):
            if r * (k - 1) > n:  # the k − 1 lower blocks keep r rows of at least one cell
                break
            for c in range(1, n + 1):
                g = tuple(x * c for x in range(k, 0, -1) for _ in range(r))
                for i in range(r):
                    for j in range(c):
                        sub = tuple(x - j for x in g[i:] if x > j)
                        if sum(sub) == n:
                            out.add(sub)
    return out


def expected_shape(p: tuple[int, ...], gs: set, gss: set) -> set[str]:
    """The families of p, from their definitions (docs/definitions.md §1, docs/families.md)."""
    r, sizes = len(p), sorted(set(p), reverse=True)
    fam = set()
    if r == 1:
        fam.add("row")
    if all(x == 1 for x in p):
        fam.add("column")
    if len(sizes) == 1:
        fam.add("rectangle")
    if p == tuple(range(r, 0, -1)):
        fam.add("staircase")
    if all(x == 1 for x in p[1:]):
        fam.add("hook")
    if r == 2:
        fam.add("two_row")
    if r == 3:
        fam.add("three_row")
    if len(sizes) == 2:
        fam.add("thick_gamma")
    if p in gs:
        fam.add("gen_staircase")
    if r >= 2 and p[0] >= 2 and all(x == 1 for x in p[1:]):
        fam.add("proper_hook")
    if len(sizes) == r:
        fam.add("distinct_parts")
    if p in gss:
        fam.add("gen_staircase_sub")
    if all(x % 2 == 0 and p.count(x) % 2 == 0 for x in p):
        fam.add("quadrated")
    return fam


def flat(parts: list[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.zeros(len(parts) + 1, np.int64)
    for k, p in enumerate(parts):
        offsets[k + 1] = offsets[k] + len(p)
    return np.array([x for p in parts for x in p], np.int16), offsets


def test_shape_and_ordinal_from_the_definitions() -> None:
    for n in range(1, 31):
        ps = list(partitions(n))
        # The solvers' order: bottom row first, so the ascending parts in lexicographic order.
        ps.sort(key=lambda p: tuple(reversed(p)))
        values, offsets = flat(ps)
        shape, ordinal = shape_columns(n, values, offsets)
        assert ordinal.tolist() == list(range(len(ps))), n
        # as a walk kernel's shard gives them: the distinct sizes counted by the kernel
        given, _ = shape_columns(n, values, offsets, distinct=np.array([len(set(p)) for p in ps], np.int16))
        gs, gss = gen_staircases(n), gen_staircase_subs(n) if n <= 16 else None
        for p, s, t in zip(ps, shape.tolist(), given.tolist(), strict=True):
            want = expected_shape(p, gs, gss or set())
            for bits in (s, t):
                got = {name for k, name in enumerate(SHAPE_BITS) if bits >> k & 1}
                if gss is None:  # the brute force of G[i,j] is slow past 16: compared with the macro below
                    got.discard("gen_staircase_sub")
                assert got == want, (n, p)


def test_ordinal_is_null_past_int64() -> None:
    shape, ordinal = shape_columns(ORDINAL_MAX_N + 1, np.array([ORDINAL_MAX_N + 1], np.int16),
                                   np.array([0, 1]))
    assert ordinal is None
    assert shape_names(int(shape[0])) == ["row", "rectangle", "hook", "gen_staircase", "distinct_parts",
                                          "gen_staircase_sub"]
    # the last partition of the last n with ordinals: (n) is p(n) - 1
    _, ordinal = shape_columns(ORDINAL_MAX_N, np.array([ORDINAL_MAX_N], np.int16), np.array([0, 1]))
    assert int(ordinal[0]) == partition_numbers(ORDINAL_MAX_N)[-1] - 1


#: Each family of the shape column and the list macro (or integer test) that defines it.
MACRO_OF = {
    "row": "is_row(parts)", "column": "is_column(parts)", "rectangle": "is_rectangle(parts)",
    "staircase": "is_staircase(parts)", "hook": "is_hook(parts)", "two_row": "len(parts) = 2",
    "three_row": "len(parts) = 3", "thick_gamma": "is_thick_gamma(parts)",
    "gen_staircase": "is_gen_staircase(parts)", "proper_hook": "is_proper_hook(parts)",
    "distinct_parts": "is_distinct_parts(parts)",
    "gen_staircase_sub": "is_gen_staircase_sub(parts, conjugate)", "quadrated": "is_quadrated(parts)",
}


def _mismatches(con: duckdb.DuckDBPyConnection, view: str) -> dict[str, int]:
    sums = ", ".join(f"count(*) FILTER (is_shape(shape, '{f}') IS DISTINCT FROM ({m}))"
                     for f, m in MACRO_OF.items())
    row = con.execute(f"SELECT count(*), {sums} FROM {view}").fetchone()
    assert row[0] > 0
    return {f: c for f, c in zip(MACRO_OF, row[1:], strict=True) if c}


def test_every_bit_has_its_macro() -> None:
    assert set(MACRO_OF) == set(SHAPE_BITS)


def test_columns_equal_the_macros_for_every_partition_up_to_40() -> None:
    values, offsets, ns = [], [0], []
    for n in range(1, 41):
        pv, po = flatten_prefixes(((),))
        out_v = np.zeros(n * partition_numbers(n)[-1], np.int64)
        out_o = np.zeros(partition_numbers(n)[-1] + 1, np.int64)
        count = enumerate_partitions(n, pv, po, out_v, out_o)
        values.append(out_v[: out_o[count]])
        offsets.extend((out_o[1: count + 1] + offsets[-1]).tolist())
        ns.append(np.full(count, n))
    v = np.concatenate(values).astype(np.int16)
    o = np.array(offsets, np.int64)
    shapes = []
    for n in range(1, 41):  # the ordinal needs each record's n: one call per n
        mask = np.concatenate(ns) == n
        first = int(np.flatnonzero(mask)[0])
        last = int(np.flatnonzero(mask)[-1]) + 1
        shapes.append(shape_columns(n, v, o[first: last + 1])[0])
    parts = pa.ListArray.from_arrays(pa.array(o.astype(np.int32)), pa.array(v))
    table = pa.table({"parts": parts, "shape": pa.array(np.concatenate(shapes))})
    con = duckdb.connect()
    con.execute(MACROS.read_text())
    con.register("t", table)
    con.execute("CREATE TEMP TABLE p AS SELECT parts, conjugate(parts) AS conjugate, shape FROM t")
    assert con.execute("SELECT count(*) FROM p").fetchone()[0] == sum(partition_numbers(40)[1:])
    assert _mismatches(con, "p") == {}


def test_columns_equal_the_macros_on_a_real_run(small_store: Path) -> None:
    con = connect(small_store, on_damage=lambda line: None)
    assert _mismatches(con, "records") == {}
    # the ordinal counts the partitions of n in the solvers' order, records in file order
    row = con.execute("""SELECT count(*), count(DISTINCT (game, n, ordinal)),
                                count(*) FILTER (ordinal < 0 OR ordinal IS NULL),
                                count(*) FILTER (record_key(n, ordinal) IS DISTINCT FROM part_key(parts))
                         FROM records""").fetchone()
    assert row[0] == row[1] and row[2] == 0 and row[3] == 0
    ordinals = con.execute("SELECT list(ordinal) FROM (SELECT ordinal FROM lctr WHERE n = 14)").fetchone()[0]
    assert ordinals == list(range(partition_numbers(14)[-1]))


def test_the_columns_are_partition_columns() -> None:
    assert {"shape", "ordinal"} <= set(PARTITION_COLUMNS)
    assert BOARD_SCHEMA.field("shape").type == pa.int32()
    assert BOARD_SCHEMA.field("ordinal").type == pa.int64()


@pytest.mark.parametrize("name", ["nope", "Staircase"])
def test_unknown_family_name_is_an_error(name: str) -> None:
    con = duckdb.connect()
    con.execute(MACROS.read_text())
    with pytest.raises(duckdb.Error, match="no family"):
        con.execute(f"SELECT is_shape(8, '{name}')").fetchall()


def _strip_new_columns(store: Path, game: str, n: int) -> None:
    """Rewrite (game, n)'s files as an older partgames wrote them: without shape and ordinal."""
    import pyarrow.parquet as pq
    from conftest import recommit

    job = store / f"game={game}" / f"n={n}"
    for f in job.glob("*.parquet"):
        t = pq.read_table(f)
        pq.write_table(t.drop_columns(["shape", "ordinal"]), f)
    recommit(job)


def test_a_store_without_the_columns_names_the_command(small_store: Path, tmp_path: Path) -> None:
    import shutil

    from pipeline.query import explain

    old = tmp_path / "old" / "results"
    shutil.copytree(small_store, old)
    # some (game, n) without the columns: the views read them as NULL, the macros stop
    _strip_new_columns(old, "king", 5)
    con = connect(old, on_damage=lambda line: None)
    for query in ("SELECT count(*) FROM king WHERE is_shape(shape, 'hook')",
                  "SELECT count(*) FROM king WHERE record_key(n, ordinal) > 0"):
        with pytest.raises(duckdb.Error,
                           match=r"without the shape and ordinal columns.*partgames run --force"):
            con.execute(query).fetchall()
    assert con.execute("SELECT count(*) FROM king WHERE n <> 5 AND is_shape(shape, 'hook')").fetchone()[0] > 0
    # every file of a game without them: the column is unknown, and the error says why
    for f in (old / "game=queen").iterdir():
        _strip_new_columns(old, "queen", int(f.name[2:]))
    con = connect(old, on_damage=lambda line: None)
    with pytest.raises(duckdb.Error) as err:
        con.execute("SELECT count(*) FROM queen WHERE is_shape(shape, 'hook')").fetchall()
    assert "partgames run --force" in explain(err.value)


@pytest.mark.parametrize("count", [2, 33, 128, 129, 1000, 5001])
def test_ascending_columns_are_delta_encoded_and_read_back(tmp_path: Path, count: int) -> None:
    import pyarrow.parquet as pq

    from pipeline.parquet import write_table

    rng = np.random.default_rng(count)
    columns = {
        "ordinal": np.arange(10**9, 10**9 + count, dtype=np.int64),  # what a shard holds
        "gaps": np.cumsum(rng.integers(0, 1 << 40, count)).astype(np.int64) - (1 << 62),
        "small": np.cumsum(rng.integers(0, 3, count)).astype(np.int32) * 1000,
    }
    columns["gaps"][0] = -(1 << 63)  # deltas up to 2**63 + 2**40 - 1: 64 bits wide
    table = pa.table(columns, schema=pa.schema([pa.field("ordinal", pa.int64(), nullable=True),
                                                pa.field("gaps", pa.int64(), nullable=False),
                                                pa.field("small", pa.int32(), nullable=False)]))
    path = tmp_path / "t.parquet"
    write_table(table, path)
    meta = pq.read_metadata(path).row_group(0)
    assert "DELTA_BINARY_PACKED" in meta.column(0).encodings
    assert pq.read_table(path).equals(table)
    back = duckdb.execute(f"SELECT list(ordinal), list(gaps), list(small) FROM '{path}'").fetchone()
    assert list(back) == [c.tolist() for c in columns.values()]
    if count >= 1000:  # up by one: next to nothing
        assert meta.column(0).total_compressed_size < 120


def test_ordinals_of_a_run_in_many_shards(tmp_path: Path, compiled_kernels: None) -> None:
    """A walk kernel's shard takes its ordinals as the first record's plus 0, 1, …: checked
    against each record's own (part_key) over shards of 37 records, LCTR and Downright in one
    walk and the king alone."""
    from pipeline.runner import run

    out = tmp_path / "results"
    run(["lctr", "downright", "king"], max_n=16, out=str(out), jobs=1, progress=False, max_records=37)
    con = connect(out, on_damage=lambda line: None)
    assert con.execute("SELECT max(shards) FROM jobs").fetchone()[0] >= 8
    row = con.execute("""SELECT count(*), count(*) FILTER (record_key(n, ordinal) <> part_key(parts))
                         FROM records""").fetchone()
    assert row[0] == 3 * sum(partition_numbers(16)[1:]) and row[1] == 0
