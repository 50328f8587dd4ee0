"""The Parquet writer (pipeline/parquet/) against three independent readers.

Every file is read back by pyarrow, DuckDB and polars (each has its own Parquet decoder) and
compared value by value with the table written; the statistics in the footer are compared with
values computed here by numpy. The tables are drawn by hypothesis so that the encoders' edge
cases come up: runs of exactly 8 equal values, bit-packed runs of 63 groups, padding, empty
lists, nulls, int64 extremes, sliced and multi-chunk columns.
"""

from __future__ import annotations

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.games import get_game
from pipeline.parquet import write_table
from pipeline.schema import BOARD_SCHEMA

INT_TYPES = {pa.int8(): 8, pa.int16(): 16, pa.int32(): 32, pa.int64(): 64}


def read_back(table: pa.Table, path) -> None:
    """Assert that pyarrow, DuckDB and polars all read ``path`` as ``table``."""
    back = pq.read_table(path)
    assert back.schema == table.schema
    assert back.equals(table.combine_chunks())
    con = duckdb.connect()
    rows = con.execute(f"SELECT * FROM read_parquet('{path}')").fetchall()
    assert rows == [tuple(r.values()) for r in table.to_pylist()]
    assert pl.read_parquet(path).to_arrow().to_pylist() == table.to_pylist()


def runs(values: st.SearchStrategy[int | None], max_runs: int = 40) -> st.SearchStrategy[list]:
    """Lists made of runs (1–20 repeats) of values: RLE runs and bit-packed runs both occur."""
    run = st.tuples(values, st.sampled_from([1, 1, 2, 3, 7, 8, 9, 15, 16, 17, 20]))
    return st.lists(run, max_size=max_runs).map(lambda rs: [v for v, k in rs for _ in range(k)])


@st.composite
def tables(draw) -> pa.Table:
    size = draw(st.integers(0, 600))
    columns, fields = [], []
    for c in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["int", "bool", "list"]))
        if kind == "int":
            typ = draw(st.sampled_from(list(INT_TYPES)))
            bits = INT_TYPES[typ]
            lo = draw(st.sampled_from([-(1 << (bits - 1)), -5, 0]))
            hi = draw(st.sampled_from([(1 << (bits - 1)) - 1, 3, 100]))
            nullable = draw(st.booleans())
            value = st.integers(lo, hi)
            if nullable:
                value = st.one_of(st.none(), value)
            data = draw(runs(value, max_runs=size))[:size]
            data += [lo] * (size - len(data))
            columns.append(pa.array(data, typ))
            fields.append(pa.field(f"c{c}", typ, nullable=nullable))
        elif kind == "bool":
            data = draw(runs(st.booleans(), max_runs=size))[:size]
            data += [True] * (size - len(data))
            columns.append(pa.array(data, pa.bool_()))
            fields.append(pa.field(f"c{c}", pa.bool_(), nullable=False))
        else:
            typ = draw(st.sampled_from([pa.int16(), pa.int32(), pa.int64()]))
            low = draw(st.sampled_from([-3, 0, 1, 1000]))
            width = draw(st.sampled_from([1, 5, 255, 256, 70000]))
            item = st.integers(low, min(low + width - 1, (1 << 15) - 1))
            data = [draw(st.lists(item, max_size=draw(st.sampled_from([0, 3, 30])))) for _ in range(size)]
            typ_list = pa.list_(pa.field("item", typ, nullable=draw(st.booleans())))
            columns.append(pa.array(data, typ_list))
            fields.append(pa.field(f"c{c}", typ_list, nullable=draw(st.booleans())))
    return pa.Table.from_arrays(columns, schema=pa.schema(fields))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), cut=st.integers(0, 20))
def test_every_reader_reads_what_was_written(tmp_path_factory, table, cut):
    path = tmp_path_factory.mktemp("pq") / "t.parquet"
    write_table(table, path)
    read_back(table, path)
    # a slice: Arrow offsets into every buffer (booleans not on a byte boundary)
    sliced = table.slice(min(cut, table.num_rows))
    write_table(sliced, path)
    read_back(sliced, path)
    # several chunks per column
    if table.num_rows > 3:
        chunked = pa.concat_tables([table.slice(0, 3), table.slice(3)])
        write_table(chunked, path)
        read_back(chunked, path)


@settings(max_examples=60, deadline=None)
@given(table=tables())
def test_statistics_are_each_columns_min_max_and_nulls(tmp_path_factory, table):
    path = tmp_path_factory.mktemp("pq") / "t.parquet"
    write_table(table, path)
    meta = pq.ParquetFile(path).metadata
    assert meta.num_rows == table.num_rows
    # DuckDB skips row groups by these statistics (e.g. `WHERE nodes IS NULL`), so a wrong one
    # would silently drop records from query results: compare DuckDB's own reading too.
    duck = duckdb.connect().execute(
        f"SELECT stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata('{path}') "
        "ORDER BY column_id").fetchall()
    for i, field in enumerate(table.schema):
        stats = meta.row_group(0).column(i).statistics
        column = table.column(i)
        values = column.combine_chunks()
        if pa.types.is_list(field.type):
            values = values.flatten()
        present = [v for v in values.to_pylist() if v is not None]
        assert stats.null_count == column.null_count
        assert stats.has_min_max == bool(present)
        assert duck[i][2] == column.null_count
        if present:
            assert (stats.min, stats.max) == (min(present), max(present))
            text = [str(v).lower() for v in (min(present), max(present))]  # DuckDB: 'true', '-3'
            assert list(duck[i][:2]) == text
        else:
            assert duck[i][:2] == (None, None)


def test_bit_widths_up_to_18_and_wide_int64_dictionaries(tmp_path):
    """300,000 distinct values (18-bit dictionary indices, the hash table path) in one column,
    every 8th one the same, and a column that is constant but for its last value."""
    rng = np.random.default_rng(7)
    wide = rng.integers(-(1 << 62), 1 << 62, 300_000)
    wide[::8] = 5
    table = pa.table({
        "wide": pa.array(wide),
        "dense": pa.array(np.arange(300_000, dtype=np.int32)),
        "almost_constant": pa.array(np.r_[np.zeros(299_999, np.int16), [1]].astype(np.int16)),
    })
    write_table(table, tmp_path / "w.parquet")
    assert pq.read_table(tmp_path / "w.parquet").equals(table)
    con = duckdb.connect()
    got = con.execute(f"SELECT sum(wide::HUGEINT), sum(dense), sum(almost_constant) "
                      f"FROM '{tmp_path / 'w.parquet'}'").fetchone()
    assert got == (int(wide.astype(object).sum()), 299_999 * 300_000 // 2, 1)


@pytest.mark.parametrize("span", [1, 2, 3, 17, 255, 256, 257, 300, 511, 1025, 3001, 4096, 4097])
@pytest.mark.parametrize("nullable", [False, True])
def test_range_dictionaries_of_every_index_width(tmp_path, span, nullable):
    """Small ranges get the whole range as dictionary and bit-packed indices of 1–12 bits
    (two 64-bit words per group of 8 beyond 8 bits, joined inside a byte for odd widths); a
    span beyond RANGE_DICTIONARY_SPAN (4097) takes the dictionary of distinct values. Record
    counts that end inside a group and inside a 63-group run; every value of the range occurs."""
    from pipeline.parquet import RANGE_DICTIONARY_SPAN

    assert RANGE_DICTIONARY_SPAN == 4096
    rng = np.random.default_rng(span)
    for count in (span, 8 * 63 + 5, 3 * span + 7):
        values = np.r_[np.arange(span), rng.integers(0, span, max(count - span, 0))] - span // 3
        rng.shuffle(values)
        for typ, dtype in ((pa.int16(), np.int16), (pa.int32(), np.int32), (pa.int64(), np.int64)):
            table = pa.Table.from_arrays([pa.array(values.astype(dtype), typ)],
                                         schema=pa.schema([pa.field("x", typ, nullable=nullable)]))
            write_table(table, tmp_path / "r.parquet")
            read_back(table, tmp_path / "r.parquet")


@pytest.mark.parametrize("elements", [0, 1, 7, 8, 9, 503, 504, 505, 511, 512, 513, 5000,
                                      65527, 65528, 65529, 65535, 65536, 65537])
def test_list_pages_around_the_run_headers_widths(tmp_path, elements):
    """A list page's levels and elements are one bit-packed run each, whose header (the number
    of groups of 8, a ULEB128 varint after a shift) takes a second byte from 64 groups (505+
    entries) and a third from 8,192 (65,529+): lists totalling around those sizes."""
    table = pa.table({"l": pa.array([[k % 97 for k in range(elements)], [], [1]], pa.list_(pa.int16()))})
    write_table(table, tmp_path / "l.parquet")
    read_back(table, tmp_path / "l.parquet")


def test_a_shard_of_records_reads_back_unchanged(tmp_path):
    """A real LCTR shard (the schema the store writes), nodes and leaves with NULLs planted."""
    table = get_game("lctr").solve_shard(20, 0, 1 << 18)
    assert table.schema == BOARD_SCHEMA
    mask = np.zeros(table.num_rows, bool)
    mask[::7] = True
    nodes = pa.array(table["nodes"].to_numpy(), mask=mask)
    table = table.set_column(table.schema.get_field_index("nodes"), BOARD_SCHEMA.field("nodes"), nodes)
    write_table(table, tmp_path / "s.parquet")
    read_back(table, tmp_path / "s.parquet")
    con = duckdb.connect()
    nulls = con.execute(f"SELECT count(*) FROM '{tmp_path / 's.parquet'}' WHERE nodes IS NULL").fetchone()
    assert nulls == (int(mask.sum()),)


@pytest.mark.parametrize("column", [
    pa.array(["a"]),
    pa.array([1.5]),
    pa.array([[True]], pa.list_(pa.bool_())),
    pa.array([None], pa.bool_()),
    pa.array([[1], None], pa.list_(pa.int16())),
    pa.array([[0, 1 << 20]], pa.list_(pa.int64())),
])
def test_what_the_writer_does_not_support_is_a_type_error(tmp_path, column):
    with pytest.raises(TypeError):
        write_table(pa.table({"x": column}), tmp_path / "x.parquet")
    assert not (tmp_path / "x.parquet").exists()


def test_a_non_null_column_holding_nulls_is_refused(tmp_path):
    table = pa.Table.from_arrays([pa.array([1, None], pa.int16())],
                                 schema=pa.schema([pa.field("x", pa.int16(), nullable=False)]))
    with pytest.raises(TypeError, match="not null"):
        write_table(table, tmp_path / "x.parquet")


@pytest.mark.parametrize("module", ["pipeline.parquet", "pipeline.parquet.thrift",
                                    "pipeline.parquet.writer"])
def test_the_docstring_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


@settings(max_examples=300)
@given(kind=st.sampled_from([0, 2]), sizes=st.lists(st.integers(0, 2**31 - 1), min_size=3, max_size=3),
       encoding=st.sampled_from([0, 3, 8]))
def test_the_written_out_page_header_is_the_generic_thrift_encoding(kind, sizes, encoding):
    """thrift.page_header spells out the bytes of a PageHeader for speed; they must be what
    the generic Thrift encoder gives for the same fields."""
    from pipeline.parquet import thrift

    fields = thrift.page_header_fields(kind, sizes[0], sizes[1], sizes[2], encoding)
    assert thrift.page_header(kind, sizes[0], sizes[1], sizes[2], encoding) == thrift.encode_struct(fields)


def test_schemas_differing_only_in_metadata_keep_their_own_footer(tmp_path):
    """The footer's schema part is encoded once per schema, metadata included: a table whose
    schema has other metadata is not written with the first one's."""
    base = pa.table({"sg": pa.array([1, 0], pa.int16())})
    for tag in (b"one", b"two", b"one"):
        table = base.replace_schema_metadata({b"tag": tag})
        write_table(table, tmp_path / "x.parquet")
        assert pq.read_table(tmp_path / "x.parquet").schema.metadata[b"tag"] == tag


@pytest.mark.parametrize("values", [[2**63 - 1], [-(2**63)], [2**63 - 2, 2**63 - 1, 2**63 - 1]])
def test_int64_extremes_read_back(tmp_path, values: list[int]) -> None:
    """A dictionary of low..high in int64 reaches 2^63 − 1 without wrapping to −2^63."""
    table = pa.table({"c0": pa.array(values, pa.int64())},
                     schema=pa.schema([pa.field("c0", pa.int64(), nullable=False)]))
    write_table(table, tmp_path / "x.parquet")
    assert pq.read_table(tmp_path / "x.parquet").column(0).to_pylist() == values
