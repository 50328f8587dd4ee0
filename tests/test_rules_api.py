"""Rules whose positions are not partitions (docs/rules.md, "Positions that carry state"):
``STATE = k`` makes a position a partition's parts followed by k integers, ``starts(n)`` may
give such positions, and a record holds the start's partition in the partition columns and its
k integers in ``state``. examples/lctr_nr_after_rules.py (non-repetitive LCTR after any last
moves) is held to a plain-Python game written from the paper's sentence, and its records
after no move to the bespoke lctr_nr kernel's, every column."""

from __future__ import annotations

import json
import textwrap
from functools import cache
from pathlib import Path

import pyarrow as pa
import pytest
from harness import cli, partitions
from reference import mex

from pipeline.games import get_game
from pipeline.games.generic import GenericGame
from pipeline.query import connect
from pipeline.rules import load_rules_file, unregister
from pipeline.schema import BOARD_SCHEMA, PARTITION_COLUMNS

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
AFTER = str(EXAMPLES / "lctr_nr_after_rules.py")
KERNEL_N = 14
STORE_N = 8

Part = tuple[int, ...]
History = tuple[str, ...]
CODES = {1: "L", 2: "T"}


def moves(p: Part, played: History) -> list[tuple[Part, History]]:
    """The options of p after the moves ``played`` (the last three at most, oldest first):
    LCTR's T and L, "within every four consecutive moves, the number of L moves is distinct
    from the number of T moves" (lctr-sg-complexity.txt §8). A position keeps the last three."""
    out = []
    if not p:
        return out
    for m, q in (("T", p[1:]), ("L", tuple(x - 1 for x in p if x > 1))):
        window = played + (m,)
        if len(window) == 4 and window.count("L") == window.count("T"):
            continue
        out.append((q, window[-3:]))
    return out


@cache
def values(p: Part, played: History) -> tuple[int, int, int, int, int]:
    """(sg, sg_misere, nodes, leaves, height) of the game tree from (p, played)."""
    opts = [values(q, h) for q, h in moves(p, played)]
    if not opts:
        return 0, 1, 1, 1, 0
    return (mex({o[0] for o in opts}), mex({o[1] for o in opts}), 1 + sum(o[2] for o in opts),
            sum(o[3] for o in opts), 1 + max(o[4] for o in opts))


def states(p: Part, played: History) -> int:
    seen = {(p, played)}
    todo = [(p, played)]
    while todo:
        for x in moves(*todo.pop()):
            if x not in seen:
                seen.add(x)
                todo.append(x)
    return len(seen)


@pytest.fixture
def after():
    yield AFTER
    unregister("lctr_nr_after")


def test_records_after_no_move_equal_the_lctr_nr_kernel():
    """Every column of the kernel's records, every partition of n <= 14 (the rules game's own
    `state` column aside: (0, 0, 0), no move played; examples/lctr_nr_rules.py likewise,
    tests/test_nr_games.py)."""
    rules = load_rules_file(AFTER)[0]
    game, kernel = GenericGame(rules), get_game("lctr_nr")
    for n in range(1, KERNEL_N + 1):
        want = kernel.solve_shard(n, 0, 1 << 18)
        got = game.solve_table(list(partitions(n)))
        assert got.column("state").to_pylist() == [[0, 0, 0]] * got.num_rows
        got = got.drop_columns(["state"])
        assert got.schema == want.schema == BOARD_SCHEMA
        got = got.sort_by("ordinal")
        assert got.num_rows == want.num_rows == len(list(partitions(n)))
        for column in want.column_names:
            assert got.column(column).equals(want.column(column)), (n, column)


def test_starts_that_carry_state(after, tmp_path, capsys):
    """A run of lctr_nr_after: 15 records per partition, each start's partition in the
    partition columns (those of lctr_nr's record of the partition), its moves in `state`, its
    values those of the plain game; the records after no move are lctr_nr's."""
    store = tmp_path / "st"
    code, _, err = cli(capsys, "run", "--rules", after, "--games", "lctr_nr_after,lctr_nr",
                       "--max-n", str(STORE_N), "--out", str(store), "--quiet", "--shard-records", "40")
    assert code == 0, err
    con = connect(store)
    rows = con.sql("SELECT * EXCLUDE (game) FROM lctr_nr_after ORDER BY n, ordinal, state").to_arrow_table()
    kernel = {(r["n"], tuple(r["parts"])): r for r in
              con.sql("SELECT * EXCLUDE (game) FROM lctr_nr").to_arrow_table().to_pylist()}
    assert rows.num_rows == 15 * len(kernel) == 15 * sum(len(list(partitions(n)))
                                                          for n in range(1, STORE_N + 1))
    assert rows.schema.field("state").type == pa.list_(pa.int64())
    seen = set()
    for r in rows.to_pylist():
        lam, state = tuple(r["parts"]), tuple(r["state"])
        seen.add((lam, state))
        twin = kernel[r["n"], lam]
        assert {c: r[c] for c in PARTITION_COLUMNS} == {c: twin[c] for c in PARTITION_COLUMNS}
        played = tuple(CODES[m] for m in state if m)
        sg, sgm, nodes, leaves, height = values(lam, played)
        assert (r["sg"], r["sg_misere"], r["nodes"], r["leaves"], r["height"], r["states"]) == \
            (sg, sgm, nodes, leaves, height, states(lam, played)), (lam, state)
        if state == (0, 0, 0):
            assert {c: r[c] for c in twin} == twin, lam
    assert len(seen) == rows.num_rows  # one record per (partition, moves)
    # some histories change the value (the rule matters after them)
    assert any(r["sg"] != kernel[r["n"], tuple(r["parts"])]["sg"] for r in rows.to_pylist())


def test_commands_on_a_game_whose_positions_carry_state(after, tmp_path, capsys):
    empty = tmp_path / "empty"
    code, _, err = cli(capsys, "run", "--games", "lctr", "--max-n", "2", "--out", str(empty), "--quiet")
    assert code == 0, err
    # the view, empty before the first record, has the state column
    code, out, err = cli(capsys, "sql", "--results", str(empty), "--rules", after, "--format", "csv",
                         "SELECT count(*) AS k, count(state) AS s FROM lctr_nr_after")
    assert code == 0 and out.split() == ["k,s", "0,0"], err
    # solve: the start of the partition, after no move
    code, out, err = cli(capsys, "solve", "--rules", after, "lctr_nr_after,lctr", "2,1", "--format", "json")
    assert code == 0, err
    got = {r["game"]: r for r in json.loads(out)}
    assert got["lctr_nr_after"]["state"] == [0, 0, 0] and got["lctr"]["state"] is None
    assert got["lctr_nr_after"]["sg"] == values((2, 1), ())[0]
    # draw: a box's position would be a sub-partition with some state: refused in one line
    code, _, err = cli(capsys, "draw", "--rules", after, "lctr_nr_after", "3,1",
                       "--out", str(tmp_path / "x.svg"), "--results", str(empty))
    assert code == 2 and "STATE" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x.svg").exists()
    # verify --rules: no consistency statement for it, and a line that says why
    store = tmp_path / "st"
    code, _, err = cli(capsys, "run", "--rules", after, "--games", "lctr_nr_after", "--max-n", "3",
                       "--out", str(store), "--quiet")
    assert code == 0, err
    code, out, err = cli(capsys, "verify", "--results", str(store), "--rules", after,
                         "--only", "lctr1.lemma2", "--report", "-")
    assert code == 0, err
    assert "rules game lctr_nr_after are checked against no consistency statement" in out
    assert "consistency.rules.lctr_nr_after" not in out
    code, out, err = cli(capsys, "verify", "--results", str(store), "--only", "lctr1.lemma2", "--report", "-")
    assert code == 0, err
    assert "are checked against no rules: `verify --rules FILE` (its positions carry state" in out


BAD_STATE = """\
    import numba
    GAME_ID = "bad_state"
    STATE = {state}

    @numba.njit
    def options(p):
        if len(p) > 0:
            yield p[1:]

    {starts}
    """


@pytest.mark.parametrize(("state", "starts", "says"), [
    ("-1", "", "STATE must be a whole number 0..64"),
    ("'2'", "", "STATE must be a whole number 0..64"),
    ("True", "", "STATE must be a whole number 0..64"),
    ("2", "def starts(n):\n        return [(n, 0)]", "starts(3) gave (3, 0), not a nonempty partition "
                                                      "of 3 (positive parts, non-increasing) followed "
                                                      "by 2 integers (STATE = 2)"),
    ("2", "def starts(n):\n        return [(1, n - 1, 0, 0)]", "gave (1, 2, 0, 0)"),
    ("1", "def starts(n):\n        return [(n,)]", "gave (3,), not a nonempty partition"),
])
def test_bad_state_or_starts_are_one_line(tmp_path, capsys, state, starts, says):
    path = tmp_path / "bad.py"
    path.write_text(textwrap.dedent(BAD_STATE.format(state=state, starts=starts)))
    out = tmp_path / "out"
    try:
        code, _, err = cli(capsys, "run", "--rules", str(path), "--games", "bad_state", "--min-n", "3",
                           "--max-n", "3", "--out", str(out), "--quiet")
    finally:
        unregister("bad_state")
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert not list(out.glob("game=*"))


#: LCTR's T move alone on positions that carry two integers (STATE = 2), default starts.
TOP_ROW = """\
    import numba
    GAME_ID = "top_row"
    STATE = 2

    @numba.njit
    def options(p):
        if len(p) > 2:
            yield p[1:]
    """


def test_default_starts_with_state(tmp_path, capsys):
    """Without starts, every partition of n followed by k zeros, in the board games' order (a
    run beside lctr shares its partition columns); SQL's solve() and rules_options take it."""
    path = tmp_path / "top.py"
    path.write_text(textwrap.dedent(TOP_ROW))
    store = tmp_path / "st"
    try:
        code, _, err = cli(capsys, "run", "--rules", str(path), "--games", "top_row,lctr",
                           "--max-n", "6", "--out", str(store), "--quiet")
        assert code == 0, err
        query = ("SELECT count(*) AS k, count(*) FILTER (t.state = [0, 0] AND t.conjugate = l.conjugate "
                 "AND t.shape = l.shape AND t.height = len(t.parts)) AS good, "
                 "min(rules_options('top_row', list_concat(t.parts, t.state))[1] = "
                 "list_concat(t.parts[2:], [0, 0])) AS opt, "
                 "max((SELECT states FROM (SELECT unnest(solve('top_row', [3, 2, 1]))))) AS s "
                 "FROM top_row t JOIN lctr l USING (n, ordinal, parts)")
        code, out, err = cli(capsys, "sql", "--results", str(store), "--rules", str(path),
                             "--format", "csv", query)
    finally:
        unregister("top_row")
    total = sum(len(list(partitions(n))) for n in range(1, 7))
    assert code == 0 and out.split() == ["k,good,opt,s", f"{total},{total},true,4"], (out, err)
