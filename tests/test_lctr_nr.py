"""examples/lctr_nr_rules.py, non-repetitive LCTR (lctr-sg-complexity.txt §8): its records equal
a plain-Python game written from the paper's sentence ("within every four consecutive moves,
the number of L moves is distinct from the number of T moves"), every partition of n <= 9."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from harness import partitions
from reference import mex

from pipeline.games.generic import GenericGame
from pipeline.rules import load_rules_file

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MAX_N = 9

Part = tuple[int, ...]


def moves(p: Part, played: tuple[str, ...]) -> list[tuple[Part, tuple[str, ...]]]:
    """The options of p after the moves ``played`` (all of them, oldest first)."""
    out = []
    if not p:
        return out
    for m, q in (("T", p[1:]), ("L", tuple(x - 1 for x in p if x > 1))):
        window = (played + (m,))[-4:]
        if len(window) == 4 and window.count("L") == window.count("T"):
            continue
        out.append((q, played + (m,)))
    return out


@cache
def sg(p: Part, played: tuple[str, ...], misere: bool) -> int:
    opts = moves(p, played)
    if not opts:
        return 1 if misere else 0
    return mex({sg(q, h, misere) for q, h in opts})


@cache
def height(p: Part, played: tuple[str, ...]) -> int:
    return max((1 + height(q, h) for q, h in moves(p, played)), default=0)


def test_lctr_nr_equals_the_plain_game() -> None:
    game = GenericGame(load_rules_file(EXAMPLES / "lctr_nr_rules.py")[0])
    assert game.game_id == "lctr_nr_rules"
    changed = 0
    for n in range(1, MAX_N + 1):
        starts = list(partitions(n))
        table = game.solve_table(starts)
        rows = {tuple(r["parts"]): r for r in table.to_pylist()}
        assert set(rows) == set(starts)
        for p in starts:
            r = rows[p]
            expected = (sg(p, (), False), sg(p, (), True), height(p, ()))
            assert (r["sg"], r["sg_misere"], r["height"]) == expected, p
            changed += r["sg"] != lctr_sg(p)
    assert changed > 0  # the rule matters: some values differ from LCTR's


@cache
def lctr_sg(p: Part) -> int:
    return mex({lctr_sg(p[1:]), lctr_sg(tuple(x - 1 for x in p if x > 1))}) if p else 0
