"""The generic solver's memory (pipeline/games/generic.py, docs/rules.md "The solver"): solving a
rules game frees every option the rules yield. numba's generators never free what they yield
nor their arguments, so the solver runs the rules' source with each ``yield q`` writing q at
once; these tests count numba's allocations, compare that rewrite with the rules' own
generator, and keep the generator for the sources the rewrite does not take."""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest
from harness import partitions
from numba.core.runtime import _nrt_python, rtsys

from pipeline.games import generic
from pipeline.games.generic import GenericGame, options_arrow
from pipeline.partitions import partition_numbers
from pipeline.rules import Rules, load_rules_file

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _unfreed(solve) -> int:
    """numba's allocations that ``solve()`` leaves unfreed."""
    _nrt_python.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats()
        solve()
        after = rtsys.get_allocation_stats()
    finally:
        _nrt_python.memsys_disable_stats()
    return (after.mi_alloc - before.mi_alloc) - (after.mi_free - before.mi_free)


@pytest.mark.parametrize("name", ["chomp", "welter"])
def test_solving_frees_every_option_the_rules_yield(name):
    # One shard of the 231 partitions of 16 yields some 10^4 options: with the generator
    # each stays allocated (plus one argument a position), about a MB here and gigabytes at n = 80.
    game = GenericGame(load_rules_file(EXAMPLES / f"{name}_rules.py")[0])
    game.solve_shard(3, 0, 1 << 20)  # compiled before counting
    records = []
    unfreed = _unfreed(lambda: records.append(game.solve_shard(16, 0, 1 << 20)))
    assert records[0].num_rows == partition_numbers(16)[16]
    assert unfreed == 0


@pytest.mark.parametrize("name", ["chomp", "welter"])
def test_the_rewritten_rules_give_the_generators_options(name):
    # The options the solver sees are those the rules' generator yields, run by Python here,
    # one list per move, in order.
    rules = load_rules_file(EXAMPLES / f"{name}_rules.py")[0]
    import pyarrow as pa

    lambdas = [lam for n in range(1, 11) for lam in partitions(n)]
    got = options_arrow(rules, pa.array([list(lam) for lam in lambdas], pa.list_(pa.int64())))
    want = [[list(map(int, q)) for q in rules.options(np.array(lam, np.int64))] for lam in lambdas]
    assert got.to_pylist() == want


RULES = """\
import numba
import numpy as np
GAME_ID = "{game}"


@numba.njit
def options(p):
    # take one box off a part: the parts after it lose nothing (the lctr-like moves of
    # a column), with an early return and yields inside loops and branches
    if len(p) == 0:
        return
    for i in range(len(p)):
        q = p.copy()
        q[i] -= 1
        if i + 1 < len(p) and q[i] < p[i + 1]:
            continue
        yield q[q > 0]
"""


def test_rules_the_rewrite_does_not_take_are_solved_by_their_generator(tmp_path):
    path = tmp_path / "plain_rules.py"
    path.write_text(RULES.format(game="plainrm"))
    plain = load_rules_file(path)[0]
    assert generic.rewrite_refusal(plain.options) == ""

    # the same rules as a closure: no rewrite
    zero = 0

    @numba.njit
    def options(p):
        if len(p) == zero:
            return
        for i in range(len(p)):
            q = p.copy()
            q[i] -= 1
            if i + 1 < len(p) and q[i] < p[i + 1]:
                continue
            yield q[q > 0]

    kept = Rules("keptrm", options)
    assert generic.rewrite_refusal(kept.options).startswith("a closure")  # the generator, as written
    for n in range(1, 11):
        a = GenericGame(plain).solve_shard(n, 0, 1 << 20)
        b = GenericGame(kept).solve_shard(n, 0, 1 << 20)
        for column in ("sg", "sg_misere", "nodes", "leaves", "states", "height"):
            assert a.column(column).equals(b.column(column)), (n, column)


@pytest.mark.parametrize("body", [
    "    x = yield p\n",  # a yield's value
    "    def inner():\n        yield p\n    yield p\n",  # a nested function
])
def test_other_uses_of_yield_keep_the_generator(tmp_path, body):
    path = tmp_path / "odd_rules.py"
    path.write_text("import numba\nGAME_ID = 'odd'\n\n@numba.njit\ndef options(p):\n" + body)
    rules = load_rules_file(path)[0]
    # refused for its yield, so the file is the function's source
    assert generic.rewrite_refusal(rules.options).startswith("it uses yield other than")


def test_a_file_changed_since_it_was_loaded_keeps_the_loaded_rules(tmp_path):
    # The rewrite reads the file again: a file edited since it was loaded (here, a move empties
    # the last part instead of taking a box) must not give its new rules under the loaded label.
    path = tmp_path / "edited_rules.py"
    path.write_text(RULES.format(game="editedrm"))
    rules = load_rules_file(path)[0]
    want = [GenericGame(rules).solve_shard(n, 0, 1 << 20).column("sg") for n in range(1, 9)]
    path.write_text(RULES.format(game="editedrm").replace("q[i] -= 1", "q[i] = 0"))
    edited = load_rules_file(path)[0]
    assert [GenericGame(edited).solve_shard(n, 0, 1 << 20).column("sg") for n in range(1, 9)] != want
    generic.forget_expansion(rules.options)  # as in a new process
    assert generic.rewrite_refusal(rules.options).startswith("its file no longer defines it")
    got = [GenericGame(rules).solve_shard(n, 0, 1 << 20).column("sg") for n in range(1, 9)]
    assert got == want
