"""Gathered neighbourhood rows (pipeline/neighbourhood_table.py): the records of one n read as
runs of ordinals in whatever order DuckDB returns them, a NULL value, a record read twice, a
record past p(n) and an n with no record; the rows of whole passes are compared with the
macro's in tests/test_neighbourhood.py."""

from __future__ import annotations

import duckdb
import numpy as np
import pytest

from pipeline.games.features import gather, rows_at
from pipeline.neighbourhood_table import RecordArrays

SIZES = [1, 1, 2, 3, 5, 7, 11]  # p(0) … p(6)


def arrays_of(rows: list[tuple[int, int, int | None]]) -> RecordArrays:
    """RecordArrays over a table of (n, ordinal, sg) rows, in the order given."""
    con = duckdb.connect()
    con.execute("CREATE TABLE r (n BIGINT, ordinal BIGINT, sg SMALLINT)")
    if rows:
        con.executemany("INSERT INTO r VALUES (?, ?, ?)", rows)
    con.execute("SET threads = 1")  # the rows come back in the table's order

    def source(m: int, _ordinals: list[np.ndarray]) -> str | None:
        (k,), = con.execute(f"SELECT count(*) FROM r WHERE n = {m}").fetchall()
        return "SELECT * FROM r" if k else None

    return RecordArrays(con, source, SIZES)


def values_at(arrays: RecordArrays, m: int, ordinals: list[int]) -> list[int | None]:
    """sg of the records of m at ``ordinals`` as a gather finds them (None: absent)."""
    read = arrays.read(m, ["sg"], [np.array(ordinals)])
    assert read is not None
    rows = rows_at(np.array(ordinals), read.run_first, read.run_row, read.run_length)
    out, present = np.zeros(len(ordinals), np.int16), np.zeros(len(ordinals), bool)
    gather(out, present, np.arange(len(ordinals)), rows, *read.values["sg"])
    return [int(v) if ok else None for v, ok in zip(out, present, strict=True)]


def test_runs_in_any_order() -> None:
    """Two runs of ordinals returned in reverse order: each ordinal finds its own row."""
    rows = [(6, o, 100 + o) for o in range(6, 11)] + [(6, o, 100 + o) for o in range(6)]
    read = arrays_of(rows).read(6, ["sg"], [np.arange(11)])
    assert read.run_first.tolist() == [0, 6] and read.run_row.tolist() == [5, 0]
    assert values_at(arrays_of(rows), 6, [10, 0, 5, 6]) == [110, 100, 105, 106]


def test_a_null_value_and_a_missing_record_are_absent() -> None:
    rows = [(5, 0, 3), (5, 1, None), (5, 3, 4), (5, 4, 1)]  # no record at ordinal 2
    assert values_at(arrays_of(rows), 5, [0, 1, 2, 3, 4]) == [3, None, None, 4, 1]


def test_a_record_read_twice_is_placed_at_its_ordinal() -> None:
    """Overlapping runs (ordinals 0-2 then 1-2 again) are placed by ordinal: one run."""
    rows = [(4, 0, 7), (4, 1, 8), (4, 2, 9), (4, 1, 8), (4, 2, 9), (4, 3, 6), (4, 4, 5)]
    read = arrays_of(rows).read(4, ["sg"], [np.arange(5)])
    assert read.run_first.tolist() == [0] and read.run_length.tolist() == [5]
    assert values_at(arrays_of(rows), 4, [4, 3, 2, 1, 0]) == [5, 6, 9, 8, 7]


def test_a_record_past_p_n_is_damage() -> None:
    with pytest.raises(ValueError, match=r"past p\(3\) = 3"):
        arrays_of([(3, 0, 1), (3, 3, 0)]).read(3, ["sg"], [np.arange(3)])


def test_an_n_without_records_reads_nothing() -> None:
    assert arrays_of([(3, 0, 1)]).read(5, ["sg"], [np.arange(7)]) is None
