"""The family generators (pipeline/partition_families.py) give exactly the members of each family.

Held to brute-force filters of every partition of n ≤ 30 written from the definitions
(docs/families.md), and to the family macros of queries/macros.sql that statements select
families with.
"""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import reference

from pipeline.partition_families import FAMILIES, FamilyError, member_count, members, members_list

MACROS = Path(__file__).resolve().parents[1] / "queries" / "macros.sql"
MAX_N = 30


def is_member(name: str, lam: tuple[int, ...]) -> bool:
    """Membership, straight from the definitions (docs/families.md)."""
    sizes = sorted(set(lam), reverse=True)
    if name == "row":
        return len(lam) == 1
    if name == "column":
        return set(lam) == {1}
    if name == "rectangle":
        return len(sizes) == 1
    if name == "staircase":
        return lam == tuple(range(len(lam), 0, -1))
    if name == "hook":
        return all(p == 1 for p in lam[1:])
    if name == "two_row":
        return len(lam) == 2
    if name == "three_row":
        return len(lam) == 3
    if name == "thick_gamma":
        return len(sizes) == 2
    if name == "gen_staircase":  # sizes kc, (k−1)c, …, c, each r times
        c = sizes[-1]
        return sizes == [c * t for t in range(len(sizes), 0, -1)] and \
            len({lam.count(s) for s in sizes}) == 1
    raise AssertionError(name)


@pytest.mark.parametrize("name", FAMILIES)
def test_members_are_exactly_the_family(name: str) -> None:
    for n in range(1, MAX_N + 1):
        want = sorted((p for p in reference.partitions(n) if is_member(name, p)), reverse=True)
        assert members_list(name, n) == want, (name, n)  # every member once, in decreasing order
        assert member_count(name, n) == len(want)


#: The SQL that selects each family in queries/ (macros.sql, or the row count).
SQL = {
    "row": "is_row(parts)", "column": "is_column(parts)", "rectangle": "is_rectangle(parts)",
    "staircase": "is_staircase(parts)", "hook": "is_hook(parts)", "two_row": "len(parts) = 2",
    "three_row": "len(parts) = 3", "thick_gamma": "is_thick_gamma(parts)",
    "gen_staircase": "is_gen_staircase(parts)",
}


def test_members_are_what_the_macros_select() -> None:
    con = duckdb.connect()
    con.execute(MACROS.read_text())
    every = [(n, list(p)) for n in range(1, 19) for p in reference.partitions(n)]
    con.execute("CREATE TABLE parts AS SELECT * FROM (VALUES (0, [0]::SMALLINT[])) t(n, parts) LIMIT 0")
    con.executemany("INSERT INTO parts VALUES (?, ?)", every)
    for name in FAMILIES:
        selected = {(n, tuple(p)) for n, p in
                    con.execute(f"SELECT n, parts FROM parts WHERE {SQL[name]}").fetchall()}
        generated = {(n, m) for n in range(1, 19) for m in members_list(name, n)}
        assert generated == selected, name


def test_large_n_members() -> None:
    """At n = 2,016 = 63·64/2 (a triangular number with many divisors): counts by formula."""
    n = 2016
    assert member_count("staircase", n) == 1 and member_count("hook", n) == n
    assert member_count("rectangle", n) == sum(1 for d in range(1, n + 1) if n % d == 0)
    assert member_count("two_row", n) == n // 2
    values, offsets = members("three_row", 60)
    assert len(offsets) - 1 == round(60 ** 2 / 12)  # partitions of n into 3 parts: round(n²/12)
    assert (values[offsets[1:] - 1] >= 1).all()
    with pytest.raises(FamilyError, match="unknown family 'stair'"):
        members("stair", 5)
