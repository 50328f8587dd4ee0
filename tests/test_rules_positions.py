"""Rules whose positions are not partitions (``POSITIONS = "arrays"``, docs/rules.md):
examples/lctr_d3_rules.py, 3-dimensional LCTR on plane partitions given by their rows, gives the
built-in lctr_d3's records, every value column, on every plane partition of n <= MAX_N, matched
by the plane partition; a planted error in a copy of the rules is caught by that comparison; the
records have no partition column, the view exists empty before a record, the commands that take
a partition refuse the game in one line, and a bad start is one line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pyarrow as pa
import pytest
from harness import cli

from pipeline.games import get_game
from pipeline.games.generic import GenericGame
from pipeline.rules import RulesError, load_rules_file, unregister

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "lctr_d3_rules.py"
#: Every plane partition of n <= MAX_N (3,461 starts, under a second once compiled).
MAX_N = 12
#: The plane partitions of n = 1..12 (OEIS A000219), typed from the sequence.
PLANE_PARTITIONS = (1, 3, 6, 13, 24, 48, 86, 160, 282, 500, 859, 1479)
SHARD = 97
VALUES = ("sg", "sg_misere", "nodes", "leaves", "states", "height", "domestic", "tame", "pet",
          "miserable", "forced", "returnable")
#: The columns of a record of rules on arrays: n, the start's integers, the values.
COLUMNS = ("n", "parts", *VALUES)

Rows = tuple[tuple[int, ...], ...]


def rows_of_encoding(p: list[int]) -> Rows:
    """The plane partition (its rows) of the example's encoding: r, the r row lengths, the
    entries row by row."""
    r = p[0]
    lengths, entries = p[1:1 + r], p[1 + r:]
    assert sum(lengths) == len(entries), p
    rows, at = [], 0
    for length in lengths:
        rows.append(tuple(entries[at:at + length]))
        at += length
    return tuple(rows)


def rows_of_kernel(parts: list[int], row_lengths: list[int]) -> Rows:
    """The plane partition of a lctr_d3 record: its heights row by row, its rows' lengths
    (docs/records.md, "d-dimensional LCTR")."""
    rows, at = [], 0
    for length in row_lengths:
        rows.append(tuple(parts[at:at + length]))
        at += length
    assert at == len(parts)
    return tuple(rows)


def records_by_rows(table: pa.Table, decode) -> dict[Rows, dict]:
    found: dict[Rows, dict] = {}
    for r in table.to_pylist():
        key = decode(r)
        assert key not in found, key  # one record a plane partition
        found[key] = {c: r[c] for c in VALUES}
    return found


def solve_all(game, n: int) -> pa.Table:
    return pa.concat_tables(game.solve_shard(n, s, SHARD) for s in range(game.shard_count(n, SHARD)))


def differences(path: Path, max_n: int) -> list[tuple[int, Rows, str]]:
    """(n, plane partition, column) where the rules of ``path`` and lctr_d3 differ, n <= max_n."""
    game, kernel = GenericGame(load_rules_file(path)[0]), get_game("lctr_d3")
    out = []
    for n in range(1, max_n + 1):
        got = solve_all(game, n)
        assert got.column_names == list(COLUMNS)
        assert set(got.column("n").to_pylist()) == {n}
        want = records_by_rows(solve_all(kernel, n), lambda r: rows_of_kernel(r["parts"], r["row_lengths"]))
        mine = records_by_rows(got, lambda r: rows_of_encoding(r["parts"]))
        assert len(want) == PLANE_PARTITIONS[n - 1]
        if set(mine) != set(want):
            out.append((n, next(iter(set(mine) ^ set(want))), "starts"))
            continue
        out += [(n, rows, c) for rows in want for c in VALUES if mine[rows][c] != want[rows][c]]
    return out


def test_records_equal_the_lctr_d3_kernel():
    """Every value column, every plane partition of n <= MAX_N, matched by the plane partition
    (the example's encoding and the kernel's columns each read back to rows here)."""
    try:
        assert differences(EXAMPLE, MAX_N) == []
    finally:
        unregister("lctr_d3_rules")


@pytest.mark.parametrize(("old", "new"), [
    # two rows removed where there are three or more
    ("yield encode(m[1:])", "yield encode(m[2:]) if r > 2 else encode(m[1:])"),
    # the layer at height 1 removed twice from entries of 3 or more
    ("yield encode(np.maximum(m - 1, 0))", "yield encode(np.maximum(m - 1 - (m > 2), 0))"),
])
def test_a_planted_error_is_caught(tmp_path, old, new):
    text = EXAMPLE.read_text()
    assert text.count(old) == 1
    planted = tmp_path / "planted.py"
    planted.write_text(text.replace(old, new))
    try:
        assert differences(planted, 6) != []
    finally:
        unregister("lctr_d3_rules")


@pytest.fixture
def example():
    yield str(EXAMPLE)
    unregister("lctr_d3_rules")


def test_commands_on_rules_whose_positions_are_arrays(example, tmp_path, capsys):
    empty = tmp_path / "empty"
    code, _, err = cli(capsys, "run", "--games", "lctr", "--max-n", "2", "--out", str(empty), "--quiet")
    assert code == 0, err
    # the view exists, empty, before the game's first record, with the records' columns
    code, out, err = cli(capsys, "sql", "--results", str(empty), "--rules", example, "--format", "csv",
                         "SELECT count(*) AS k FROM lctr_d3_rules")
    assert code == 0 and out.split() == ["k", "0"], err
    code, out, err = cli(capsys, "sql", "--results", str(empty), "--rules", example, "--format", "csv",
                         "SELECT column_name FROM (DESCRIBE lctr_d3_rules)")
    assert code == 0, err
    assert sorted(out.split()[1:]) == sorted([*COLUMNS, "game"])
    # nothing that takes a partition takes it: one line, status 2, nothing written
    for args in (["solve", "lctr_d3_rules", "2,1"],
                 ["draw", "lctr_d3_rules", "2,1", "--out", str(tmp_path / "x.svg"), "--results", str(empty)],
                 ["run", "--games", "lctr_d3_rules", "--family", "staircase", "--max-n", "6",
                  "--out", str(tmp_path / "fam")]):
        code, _, err = cli(capsys, args[0], "--rules", example, *args[1:])
        assert code == 2 and len(err.strip().splitlines()) == 1, (args, err)
        assert 'POSITIONS = "arrays"' in err, err
    assert not (tmp_path / "x.svg").exists() and not list((tmp_path / "fam").glob("game=*"))
    # a run: the records, --keep, the summaries (of every record) and the `records` view
    store = tmp_path / "st"
    code, _, err = cli(capsys, "run", "--rules", example, "--games", "lctr_d3_rules", "--max-n", "5",
                       "--keep", "sg = 0", "--out", str(store), "--quiet")
    assert code == 0, err
    code, out, err = cli(capsys, "sql", "--results", str(store), "--rules", example, "--format", "csv",
                         "SELECT n, records, kept_records, p_positions, "
                         "(SELECT count(*) FROM lctr_d3_rules r WHERE r.n = s.n) AS rows, "
                         "(SELECT count(*) FROM records r WHERE r.n = s.n AND r.conjugate IS NULL) "
                         "AS in_records FROM summaries s ORDER BY n")
    assert code == 0, err
    rows = [tuple(int(v) for v in line.split(",")) for line in out.split()[1:]]
    assert [r[:2] for r in rows] == list(enumerate(PLANE_PARTITIONS[:5], 1))
    assert all(kept == p == count == seen for _, _, kept, p, count, seen in rows)


def test_the_consistency_statement_from_the_rules(example, tmp_path, capsys):
    """consistency.rules.GAME finds each follower's record by its array: it holds on every
    record of the example's store, and fails on it with a planted error in a copy of the rules
    (the layer at height 1 removed twice from entries of 3 or more)."""
    store = tmp_path / "st"
    code, _, err = cli(capsys, "run", "--rules", example, "--games", "lctr_d3_rules", "--max-n", "6",
                       "--out", str(store), "--quiet")
    assert code == 0, err
    only = ["--only", "consistency.rules.lctr_d3_rules", "--report", "-"]
    code, out, err = cli(capsys, "verify", "--results", str(store), "--rules", example, *only)
    assert code == 0, (out, err)
    assert "1 hold, 0 fail" in out and f"{sum(PLANE_PARTITIONS[:6])} rows" in out, out
    assert "skipped" not in out  # every follower is a start of a smaller n, or [0], terminal
    planted = tmp_path / "planted.py"
    planted.write_text(EXAMPLE.read_text().replace("yield encode(np.maximum(m - 1, 0))",
                                                   "yield encode(np.maximum(m - 1 - (m > 2), 0))"))
    unregister("lctr_d3_rules")
    code, out, err = cli(capsys, "verify", "--results", str(store), "--rules", str(planted), *only)
    assert "0 hold, 1 fail" in out, (out, err)
    assert "'parts': [1, 1, 3]" in out  # the column of three cells: its layer move is wrong


def test_a_follower_that_is_no_start_leaves_its_record_unchecked(tmp_path, capsys):
    """Starts of one row, or of two with a second row of two entries or more: the first column
    removed from [[a, b], [c, d]] is two rows of one entry, no start, so its record is skipped
    (not checked, not a counterexample); the rows' records are checked."""
    two = tmp_path / "two_rows.py"
    two.write_text(EXAMPLE.read_text().replace(
        "for rows in _plane(n, (n,) * n):",
        "for rows in (x for x in _plane(n, (n,) * n) if len(x) == 1 or len(x) == 2 and len(x[1]) > 1):"))
    store = tmp_path / "st"
    try:
        code, _, err = cli(capsys, "run", "--rules", str(two), "--games", "lctr_d3_rules", "--max-n", "5",
                           "--out", str(store), "--quiet")
        assert code == 0, err
        code, out, err = cli(capsys, "verify", "--results", str(store), "--rules", str(two),
                             "--only", "consistency.rules.lctr_d3_rules", "--report", "-")
    finally:
        unregister("lctr_d3_rules")
    assert code == 0 and "1 hold, 0 fail" in out and "skipped" in out, (out, err)
    # the rows of n <= 5 (the partitions: 1 + 2 + 3 + 5 + 7) are checked; the starts of two rows,
    # [[1,1],[1,1]], [[2,1],[1,1]] and [[1,1,1],[1,1]], have a move to two rows of one entry
    assert "18 rows" in out and "3 skipped" in out, out


BAD = """\
    import numba
    GAME_ID = "bad_arrays"
    POSITIONS = {positions}
    {state}

    @numba.njit
    def options(p):
        if p[0] > 0:
            yield p[1:]

    {starts}
    """


@pytest.mark.parametrize(("positions", "state", "starts", "says"), [
    ('"rows"', "", "def starts(n):\n        return [[n]]",
     'POSITIONS must be "partitions" or "arrays" (got \'rows\')'),
    ('"arrays"', "", "", 'POSITIONS = "arrays" needs starts(n)'),
    ('"arrays"', "STATE = 1", "def starts(n):\n        return [[n]]", "STATE is the integers after"),
    ('"arrays"', "", "def starts(n):\n        return ['ab']", "starts(3) gave 'ab', not a nonempty 1-D "
                                                            "array of integers in -32768..32767"),
    ('"arrays"', "", "def starts(n):\n        return [[1.5, n]]", "gave [1.5, 3], not a nonempty 1-D"),
    ('"arrays"', "", "def starts(n):\n        return [[[n]]]", "gave [[3]], not"),
    ('"arrays"', "", "def starts(n):\n        return [[]]", "gave [], not a nonempty"),
    ('"arrays"', "", "def starts(n):\n        return [[True, n]]", "gave [True, 3], not"),
    ('"arrays"', "", "def starts(n):\n        return [[n, 40000]]", "gave [3, 40000], not"),
    ('"arrays"', "", "def starts(n):\n        return 3", "starts(3) failed: TypeError"),
])
def test_bad_positions_or_starts_are_one_line(tmp_path, capsys, positions, state, starts, says):
    path = tmp_path / "bad.py"
    path.write_text(textwrap.dedent(BAD.format(positions=positions, state=state, starts=starts)))
    out = tmp_path / "out"
    try:
        code, _, err = cli(capsys, "run", "--rules", str(path), "--games", "bad_arrays", "--min-n", "3",
                           "--max-n", "3", "--out", str(out), "--quiet")
    finally:
        unregister("bad_arrays")
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert not list(out.glob("game=*"))


def test_starts_of_numpy_arrays(tmp_path):
    """A start may be a numpy array of any integer type (a float array is not a start)."""
    path = tmp_path / "np.py"
    path.write_text(textwrap.dedent(BAD.format(positions='"arrays"', state="", starts=(
        "import numpy as np\n    def starts(n):\n        return [np.array([n, 1], np.int8)] if n < 4 "
        "else [np.array([1.0])]"))))
    try:
        rules = load_rules_file(path)[0]
        values, offsets = rules.start_arrays(3)
        assert values.tolist() == [3, 1] and offsets.tolist() == [0, 2]
        with pytest.raises(RulesError, match=r"starts\(4\) gave array\(\[1.\]\), not"):
            rules.start_arrays(4)
    finally:
        unregister("bad_arrays")


def test_the_game_offers_nothing_that_takes_a_partition(example):
    game = GenericGame(load_rules_file(example)[0])
    assert not game.solves_chosen and not game.diagram_positions and game.record_order is None
    assert game.record_kind == "arrays"
    with pytest.raises(RulesError, match="not partitions"):
        game.solve_table([(2, 1)])
