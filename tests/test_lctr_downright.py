"""The lean LCTR / Downright kernel equals the general moveset kernel, array for array.

tests/test_records.py holds both games' records (made by the lean kernel, which the runner
uses for them) equal to the plain-Python reference for every n ≤ 14. This file holds the lean
kernel equal to the general one (:func:`pipeline.games.moveset.solve_moveset`, itself compared
with the reference for every moveset) far beyond that: every partition of every n ≤ 36 in shards
of a few records (so that the kernel often starts from a prefix that is already a whole
partition), and whole n up to 60. And the pair kernel, which solves LCTR and Downright in one
walk (:func:`pipeline.games.lctr_downright_pair.solve_lctr_downright_pair`), equal to the lean kernel run for
each game apart, on the same shards.
"""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.games import get_game
from pipeline.games.lctr_downright import solve_lctr_downright
from pipeline.games.lctr_downright_pair import solve_lctr_downright_pair
from pipeline.games.moveset import solve_moveset
from pipeline.games.walk import empty_outputs
from pipeline.partitions import flatten_prefixes

OUTPUTS = (
    "sg", "sg_misere", "nodes", "leaves", "states", "height", "flags", "parts", "parts_offsets",
    "conjugate", "conjugate_offsets", "num_parts", "largest", "durfee", "rank", "distinct_sizes",
)


def differences(game_id: str, n: int, max_records: int) -> list[tuple[int, str, int]]:
    """(shard, output, first differing index) for every output array where the kernels differ."""
    game = get_game(game_id)
    ms = game.moveset
    bad = []
    for spec in game.plan(n, max_records):
        values, offsets = flatten_prefixes(spec.prefixes)
        general = empty_outputs(spec.records, spec.part_values, spec.largest_values)
        lean = empty_outputs(spec.records, spec.part_values, spec.largest_values)
        assert solve_moveset(n, values, offsets, game.kernel_steps(n), game.kernel_rays, ms.exits, True,
                             ms.reach_table(n), 1, ms.same_row_reach(), True, general) == spec.records
        assert solve_lctr_downright(n, values, offsets, ms.exits, True, lean) == spec.records
        for name, a, b in zip(OUTPUTS, general, lean, strict=True):
            if not np.array_equal(a, b):
                bad.append((spec.index, name, int(np.argwhere(a != b)[0][-1])))
    return bad


@pytest.mark.parametrize("game_id", ["lctr", "downright"])
def test_lean_kernel_equals_general_kernel(game_id: str) -> None:
    for n in range(1, 37):
        assert differences(game_id, n, 1 if n <= 12 else 97) == [], n
    for n in (48, 60):
        assert differences(game_id, n, 1 << 18) == [], n


def test_lean_kernel_serves_exactly_its_movesets() -> None:
    assert get_game("lctr").lean_kernel and get_game("downright").lean_kernel
    assert get_game("{(0,1),(1,0)}").lean_kernel  # Downright written as a user moveset
    for other in ("king", "pawn", "pawn_t", "knight", "rook", "queen", "bishop", "(0,1)+,(1,0)"):
        assert not get_game(other).lean_kernel, other


def test_lctr_downright_doctests() -> None:
    import doctest

    import pipeline.games.lctr_downright

    assert doctest.testmod(pipeline.games.lctr_downright).failed == 0


def pair_differences(n: int, max_records: int, features: bool) -> list[tuple[int, str, str, int]]:
    """(shard, game, output, first differing index) wherever the pair kernel differs from the
    lean kernel run for LCTR and for Downright apart (Downright's features are never written by
    the pair kernel; LCTR's only with ``features``)."""
    bad = []
    for spec in get_game("lctr").plan(n, max_records):
        values, offsets = flatten_prefixes(spec.prefixes)
        shape = (spec.records, spec.part_values, spec.largest_values)
        alone_l, alone_d = empty_outputs(*shape, features), empty_outputs(*shape, False)
        pair_l, pair_d = empty_outputs(*shape, features), empty_outputs(*shape, False)
        assert solve_lctr_downright(n, values, offsets, True, features, alone_l) == spec.records
        assert solve_lctr_downright(n, values, offsets, False, False, alone_d) == spec.records
        assert solve_lctr_downright_pair(n, values, offsets, features, pair_l, pair_d) == spec.records
        for game, alone, pair in (("lctr", alone_l, pair_l), ("downright", alone_d, pair_d)):
            for name, a, b in zip(OUTPUTS, alone, pair, strict=True):
                if not np.array_equal(a, b):
                    bad.append((spec.index, game, name, int(np.argwhere(a != b)[0][-1])))
    return bad


@pytest.mark.parametrize("features", [True, False])
def test_pair_kernel_equals_the_lean_kernel_for_each_game(features: bool) -> None:
    for n in range(1, 37):
        assert pair_differences(n, 1 if n <= 12 else 97, features) == [], n
    for n in (48, 60):
        assert pair_differences(n, 1 << 18, features) == [], n


def test_pair_kernel_partners() -> None:
    """LCTR and Downright (or Downright written as a user moveset) are partners; nothing else."""
    lctr, downright, user = get_game("lctr"), get_game("downright"), get_game("{(0,1),(1,0)}")
    king = get_game("king")
    assert lctr.partner_in([king, downright]) is downright
    assert downright.partner_in([king, lctr]) is lctr
    assert lctr.partner_in([user]) is user
    assert downright.partner_in([user, king]) is None  # same rule off the diagram
    assert king.partner_in([lctr, downright]) is None


def test_lctr_downright_pair_doctests() -> None:
    import doctest

    import pipeline.games.lctr_downright_pair

    assert doctest.testmod(pipeline.games.lctr_downright_pair).failed == 0
