"""The neighbourhood of a record (pipeline/neighbourhood.py): the keys verify generates from n
alone (:func:`pipeline.games.features.neighbour_keys`) against a plain-Python reference written
from the definitions, the rows of verify's passes (gathered, and joined) against those of the
table macro ``neighbourhood(game)`` (keys from the record's lists), and the predicate form of a follower
statement counting a missing neighbour as a counterexample.

The reference: the partitions of n in the walk's order (docs/records.md: sorted by their
ascending parts), T(λ) drops the first row, L(λ) one cell of every row, λ[1,1] both, λ⁻ one
cell of every row longer than the next (a corner), λ'_j = #{i : λ_i ≥ j}.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from harness import partitions

from pipeline.games.features import KEY_SHIFT, neighbour_key_table, neighbour_keys
from pipeline.neighbourhood import COLUMNS, NEIGHBOURS, neighbourhood_sql, neighbours_read
from pipeline.neighbourhood_table import ColumnCache, RecordArrays, column_cache_directory
from pipeline.query import connect, view_files
from pipeline.verify import (
    NEIGHBOUR_KEYS,
    NeighbourhoodGather,
    fused_counts,
    key_pieces,
    load_catalogue,
    parse_statement,
    record_files,
    registered_keys,
)


def walk_order(n: int) -> list[tuple[int, ...]]:
    return sorted(partitions(n), key=lambda p: tuple(reversed(p)))


def key(p: tuple[int, ...]) -> int:
    p = tuple(x for x in p if x > 0)
    m = sum(p)
    return 0 if m == 0 else (m << KEY_SHIFT) | walk_order(m).index(p)


def conjugate(p: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(1 for x in p if x >= j) for j in range(1, (p[0] if p else 0) + 1))


def corners_removed(p: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x - 1 if i == len(p) - 1 or p[i + 1] < x else x for i, x in enumerate(p))


@pytest.mark.parametrize("n", range(1, 15))
def test_neighbour_keys_match_the_definitions(n: int) -> None:
    conj, top, left, diagonal, minus, top2, left2 = (k.tolist() for k in neighbour_keys(n))
    order = walk_order(n)
    assert len(conj) == len(order)
    for ordinal, p in enumerate(order):
        assert conj[ordinal] == key(conjugate(p)), p
        assert top[ordinal] == key(p[1:]), p
        assert left[ordinal] == key(tuple(x - 1 for x in p)), p
        assert diagonal[ordinal] == key(tuple(x - 1 for x in p[1:])), p
        assert minus[ordinal] == key(corners_removed(p)), p
        assert top2[ordinal] == key(p[2:]), p
        assert left2[ordinal] == key(tuple(x - 2 for x in p)), p


def test_neighbours_read_names_the_joins() -> None:
    assert neighbours_read("sg = conj_sg") == {"conj": ("sg",)}
    assert neighbours_read("t_sg_misere = 0 AND l_conjugate = conjugate[2:]") == {
        "t": ("sg_misere",), "l": ("conjugate",)}
    assert neighbours_read("sg_misere = 0") == {}
    assert neighbours_read("tt_sg = t_sg AND ll_key > 0") == {"t": ("sg",), "tt": ("sg",), "ll": ()}


@pytest.mark.parametrize("game", ["lctr", "downright", "king", "pawn"])
def test_join_pass_rows_equal_the_macro(small_store: Path, game: str) -> None:
    """Every row and column of verify's pass equals the macro's, for every n of the store."""
    con = connect(small_store)
    pieces = [(n, 0, len(list(partitions(n)))) for n in range(1, 15)]
    con.register(NEIGHBOUR_KEYS, neighbour_key_table(pieces))
    fast = neighbourhood_sql(f'"{game}"', NEIGHBOUR_KEYS, 1, 14)
    rows = con.execute(f"SELECT count(*) FROM ({fast})").fetchall()[0][0]
    assert rows == con.execute(f'SELECT count(*) FROM "{game}"').fetchall()[0][0]
    macro = f"SELECT * FROM neighbourhood('{game}')"
    for one, other in ((fast, macro), (macro, fast)):
        differ = con.execute(f"SELECT count(*) FROM (SELECT * FROM ({one}) EXCEPT ALL "
                             f"SELECT * FROM ({other}))").fetchall()[0][0]
        assert differ == 0


@pytest.mark.parametrize("game", ["lctr", "king"])
@pytest.mark.parametrize(("in_place", "cache_budget"), [(False, None), (True, None), (True, 10**9),
                                                        (True, 3_000)])
def test_gathered_pass_rows_equal_the_macro(small_store: Path, game: str, in_place: bool,
                                            cache_budget: int | None, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Every row and value column of a gathered pass (pipeline/neighbourhood_table.py) equals the
    macro's (keys from the record's lists, joins), in passes of at most 40 records, with the
    records in memory and read in place from the files, from the store each pass or through the
    column cache (every n cached, or the n ≤ 10 or so a budget of 3,000 bytes holds; written
    seven ordinals at a time)."""
    import pipeline.query

    if in_place:
        monkeypatch.setattr(pipeline.query, "MATERIALIZE_BELOW", 0)
    monkeypatch.setattr(ColumnCache, "CHUNK", 7)
    con = connect(small_store)
    everything = {p: COLUMNS for p, _ in NEIGHBOURS}
    cache = None if cache_budget is None else (tmp_path, cache_budget)
    gather = NeighbourhoodGather(con, game, record_files(con, [game]).get(game), [], everything, cache)
    assert (gather.cache is not None) == (cache is not None)
    assert (gather.files is not None) == in_place
    columns = [*gather.columns, *(f"{p}_key" for p in everything),
               *(f"{p}_{c}" for p, cols in everything.items() for c in cols)]
    select = ", ".join(columns)
    rows = 0
    for _, _, pieces in key_pieces({n: len(list(partitions(n))) for n in range(1, 15)}, 40):
        with registered_keys(con, pieces) as keys, gather.rows(keys, [n for n, _, _ in pieces]) as name:
            lo, hi = min(n for n, _, _ in pieces), max(n for n, _, _ in pieces)
            ordinals = " OR ".join(f"(n = {n} AND ordinal BETWEEN {s} AND {s + c - 1})" for n, s, c in pieces)
            macro = (f"SELECT {select} FROM neighbourhood('{game}') "
                     f"WHERE n BETWEEN {lo} AND {hi} AND ({ordinals})")
            mine = f"SELECT {select} FROM {name}"
            for one, other in ((mine, macro), (macro, mine)):
                differ = con.execute(f"SELECT count(*) FROM ({one} EXCEPT ALL {other})").fetchall()[0][0]
                assert differ == 0, (pieces, one)
            rows += con.execute(f"SELECT count(*) FROM {name}").fetchall()[0][0]
    assert rows == con.execute(f'SELECT count(*) FROM "{game}" WHERE n <= 14').fetchall()[0][0]
    if gather.cache is not None:  # the cache was read, and the small budget left some n out
        held = {m for m, c in gather.cache.written.items() if c is not None}
        assert held and (len(held) < 14) == (cache_budget < 10**6)


def test_column_cache_holds_each_ordinal_value_and_null(tmp_path: Path) -> None:
    """The column cache places each record's values and lists at its ordinal, a NULL and an
    ordinal no record holds as not present, the last of a record held twice, in chunks of three
    ordinals: against the records as written."""
    con = duckdb.connect()
    # n = 5, p(5) = 7: ordinal 4 absent, 2 held twice (the later row wins), a NULL sg at 5, a
    # NULL list at 3
    rows = [(5, 0, 1, 10, [5]), (5, 1, 0, 11, [4, 1]), (5, 2, 3, 12, [3, 2]), (5, 3, 2, 13, None),
            (5, 5, None, 15, [2, 2, 1]), (5, 6, 1, 16, [1, 1, 1, 1, 1]), (5, 2, 4, 22, [3, 1, 1])]
    con.execute("CREATE TABLE t (n BIGINT, ordinal BIGINT, sg SMALLINT, nodes BIGINT, conjugate SMALLINT[])")
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)", rows)
    types = {"sg": pa.int16(), "nodes": pa.int64(), "conjugate": pa.list_(pa.int16())}
    arrays = RecordArrays(con, lambda m, ordinals: "SELECT * FROM t ORDER BY rowid", [1, 1, 2, 3, 5, 7])
    cache = ColumnCache(tmp_path, arrays, ["sg", "nodes", "conjugate"], types, 10**6)
    cache.CHUNK = 3
    written = cache.columns_of(5)
    assert written is not None and set(written.types) == {"sg", "nodes", "conjugate"}
    last = {o: row for _, o, *row in rows}
    for i, c in enumerate(("sg", "nodes", "conjugate")):
        values, present = written.arrays(c)
        values = values.to_pylist() if c == "conjugate" else values.tolist()
        expected = [last[o][i] if o in last else None for o in range(7)]
        assert [v if ok else None for v, ok in zip(values, present.tolist(), strict=True)] == expected, c
    past_budget = ColumnCache(tmp_path / "none", arrays, ["sg"], types, 6)  # p(5) = 7 bytes held
    assert past_budget.columns_of(5) is None


def test_column_cache_leaves_an_n_it_cannot_write_to_the_store(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails (a full disk) leaves that n to the store's files: no cached columns,
    no file left behind."""
    import errno
    import os

    con = duckdb.connect()
    con.execute("CREATE TABLE t AS SELECT 3 AS n, range AS ordinal, 1::SMALLINT AS sg FROM range(3)")
    arrays = RecordArrays(con, lambda m, ordinals: "SELECT * FROM t", [1, 1, 2, 3])

    def full(*args: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "pwrite", full)
    cache = ColumnCache(tmp_path, arrays, ["sg"], {"sg": pa.int16()}, 10**6)
    assert cache.columns_of(3) is None
    assert list(tmp_path.iterdir()) == []


def test_column_cache_directory_is_removed(tmp_path: Path) -> None:
    """The cache's directory lives beside DuckDB's spill directory while the block runs."""
    con = duckdb.connect()
    con.execute(f"SET temp_directory = '{tmp_path / '.results.duckdb-spill-1-0'}'")
    with column_cache_directory(con) as (path, budget):
        assert path.parent == tmp_path and path.name.startswith(".results.verify-columns-")
        assert budget > 0
        (path / "x").write_text("")
    assert not path.exists()


def test_gathered_and_joined_passes_count_alike(small_store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every follower statement of the catalogue counts the same gathered as joined, in passes of
    at most 40 records reading the files in place."""
    import pipeline.query

    monkeypatch.setattr(pipeline.query, "MATERIALIZE_BELOW", 0)
    sts = [st for st in load_catalogue() if st.fusable and st.needs == "followers"]
    joined = fused_counts(connect(small_store), sts, chunk_records=40, gather=False)
    gathered = fused_counts(connect(small_store), sts, chunk_records=40)
    for st in sts:
        a, b = joined[st.id], gathered[st.id]
        assert (a.rows, a.min_n, a.max_n, a.counterexamples, a.printed, a.error) == \
            (b.rows, b.min_n, b.max_n, b.counterexamples, b.printed, b.error), st.id
        assert a.rows > 0, st.id


def test_a_missing_neighbour_is_a_counterexample(small_store: Path, tmp_path: Path) -> None:
    """A follower statement never holds on a record whose neighbour it could not read: with the
    record of (2,1) gone from the LCTR view, the records whose T or L is (2,1) fail."""
    path = tmp_path / "t.sql"
    path.write_text("-- id: t.any\n-- source: test\n-- kind: observation\n-- statement: s\n"
                    "-- covers: lctr\n-- needs: followers\n-- games: lctr\n"
                    "-- assert: t_sg >= 0 AND l_sg >= 0\n")
    st = parse_statement(path)
    con = connect(small_store)
    whole = fused_counts(con, [st])[st.id]
    assert whole.rows > 0 and whole.counterexamples == 0
    gone = key((2, 1)) & ((1 << KEY_SHIFT) - 1)
    (db, schema), = con.execute("SELECT database_name, schema_name FROM duckdb_views() "
                                "WHERE view_name = 'lctr' AND NOT internal").fetchall()
    con.execute(f'CREATE OR REPLACE TEMP VIEW lctr AS SELECT * FROM "{db}"."{schema}".lctr '
                f"WHERE NOT (n = 3 AND ordinal = {gone})")
    cut = fused_counts(con, [st])[st.id]
    # λ with T(λ) = (2,1): (k,2,1) for k >= 2; with L(λ) = (2,1): (3,2), (3,2,1,…): at least one each
    parents = sum(1 for n in range(4, 15) for p in partitions(n)
                  if tuple(p[1:]) == (2, 1) or tuple(x - 1 for x in p if x > 1) == (2, 1))
    assert cut.counterexamples == parents


def test_rewritten_statements_are_in_the_join_pass() -> None:
    """The follower statements of the predicate form are counted in the neighbourhood pass."""
    ids = {st.id for st in load_catalogue() if st.fusable and st.needs == "followers"}
    assert {"lctr1.theorem1", "lctr2.lemma6", "chess.cor4_5", "chess.thm4_4"} <= ids


def test_passes_split_within_an_n_count_alike(small_store: Path) -> None:
    """Passes of at most 40 records (n = 14's 135 partitions in four ranges of ordinals) count
    what one pass counts, for every follower statement of the catalogue."""
    con = connect(small_store)
    sts = [st for st in load_catalogue() if st.fusable and st.needs == "followers"]
    whole = fused_counts(con, sts, chunk_records=10**9)
    split = fused_counts(con, sts, chunk_records=40)
    for st in sts:
        a, b = whole[st.id], split[st.id]
        assert (a.rows, a.min_n, a.max_n, a.counterexamples, a.printed) == \
            (b.rows, b.min_n, b.max_n, b.counterexamples, b.printed), st.id
        assert a.rows > 0, st.id


def test_passes_read_in_place_from_the_files_their_keys_name(small_store: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With the views reading the store's files in place, a pass reads each neighbour from the
    files its keys fall in (fewer than the view's), and every follower statement counts what it
    counts on the records copied into memory, in passes of at most 40 records."""
    import pipeline.query

    sts = [st for st in load_catalogue() if st.fusable and st.needs == "followers"]
    whole = fused_counts(connect(small_store), sts, chunk_records=10**9)
    monkeypatch.setattr(pipeline.query, "MATERIALIZE_BELOW", 0)
    con = connect(small_store)
    files = record_files(con, ["lctr"])["lctr"]
    assert len(files.paths) == len(view_files(con)["lctr"]) and not files.always
    keys = neighbour_key_table([(14, 0, 40)])
    named = files.source(keys.column("d_key").to_numpy())
    assert 0 < named.count(".parquet") < len(files.paths)
    split = fused_counts(con, sts, chunk_records=40)
    for st in sts:
        a, b = whole[st.id], split[st.id]
        assert (a.rows, a.min_n, a.max_n, a.counterexamples, a.printed) == \
            (b.rows, b.min_n, b.max_n, b.counterexamples, b.printed), st.id


class _SmallMemory:
    """A connection whose joins over more than ``most`` subjects run out of DuckDB's memory."""

    def __init__(self, con, most: int) -> None:
        self.con, self.most, self.refused = con, most, 0

    def __getattr__(self, name: str):  # noqa: ANN204 - the connection's own methods
        return getattr(self.con, name)

    def execute(self, sql: str, *args):  # noqa: ANN201
        if NEIGHBOUR_KEYS in sql and "GROUP BY ALL" in sql:  # a pass's count (scan_counts)
            (keys,), = self.con.execute(f"SELECT count(*) FROM {NEIGHBOUR_KEYS}").fetchall()
            if keys > self.most:
                self.refused += 1
                raise duckdb.OutOfMemoryException("Out of Memory Error: failed to pin block (a small memory)")
        return self.con.execute(sql, *args)


def test_a_pass_that_outgrows_memory_is_counted_in_halves(small_store: Path) -> None:
    """A joined pass whose joins run out of memory is split into halves until they fit, and
    counts what one pass counts; one that does not fit at a single record makes its statements
    errors (verify goes on with the others)."""
    sts = [st for st in load_catalogue() if st.fusable and st.needs == "followers"]
    whole = fused_counts(connect(small_store), sts, chunk_records=10**9)
    small = _SmallMemory(connect(small_store), 150)  # each pass splits twice: 507 keys, 253, 127
    halves = fused_counts(small, sts, chunk_records=10**9, gather=False)
    assert small.refused > 0
    for st in sts:
        a, b = whole[st.id], halves[st.id]
        assert (a.rows, a.counterexamples, a.printed) == (b.rows, b.counterexamples, b.printed), st.id
    never = fused_counts(_SmallMemory(connect(small_store), 0), sts[:1], chunk_records=10**9, gather=False)
    assert "Out of Memory" in never[sts[0].id].error and never[sts[0].id].counterexamples == 0
