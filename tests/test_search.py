"""The searches of queries/search/: each one runs on the small store and saves its CSV, and a few of
their findings are recomputed here from scratch (tiny mex solvers, independent of the pipeline).
"""

from __future__ import annotations

import csv
import shutil
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from harness import partitions as harness_partitions
from reference import mex

from pipeline.games import get_game
from pipeline.search import list_searches, run_search

SEARCHES = {
    "p_positions_per_n", "cgh_regions", "max_nodes_leaves", "conjecture27", "min_states", "queen_ratio2",
    "king_gen_staircase", "slownim_inclusion", "formula_finder", "pset_classes",
}  # fmt: skip

N = 14  # the small store's bound (conftest.SMALL_N)


# ---------------------------------------------------------------- independent games --------------

Part = tuple[int, ...]


def partitions(n: int) -> list[Part]:
    """The partitions of n (tests/harness.py's enumeration), as a list."""
    return list(harness_partitions(n))


def sub(p: Part, i: int, j: int) -> Part:
    return tuple(x - j for x in p[i:] if x > j)


def conjugate(p: Part) -> Part:
    return tuple(sum(1 for x in p if x > j) for j in range(p[0])) if p else ()


STEPS = {
    "downright": lambda r, c: [(0, 1), (1, 0)],
    "king": lambda r, c: [(0, 1), (1, 0), (1, 1)],
    "rook": lambda r, c: [(a, 0) for a in range(1, r)] + [(0, b) for b in range(1, c)],
    "queen": lambda r, c: (
        [(a, 0) for a in range(1, r)] + [(0, b) for b in range(1, c)] + [(d, d) for d in range(1, min(r, c))]
    ),
}


@cache
def options(game: str, p: Part) -> tuple[Part, ...]:
    if game == "lctr":
        return () if not p else (p[1:], sub(p, 0, 1))
    moves = (sub(p, a, b) for a, b in STEPS[game](len(p), p[0]))
    return tuple(q for q in moves if q)


@cache
def pair(game: str, p: Part) -> tuple[int, int]:
    opts = options(game, p)
    if not opts:
        return 0, 1
    return mex({pair(game, q)[0] for q in opts}), mex({pair(game, q)[1] for q in opts})


@cache
def nodes_leaves(game: str, p: Part) -> tuple[int, int]:
    opts = options(game, p)
    if not opts:
        return 1, 1
    counts = [nodes_leaves(game, q) for q in opts]
    return 1 + sum(c[0] for c in counts), sum(c[1] for c in counts)


def reachable(game: str, p: Part) -> set[Part]:
    seen, todo = {p}, [p]
    while todo:
        for q in options(game, todo.pop()):
            if q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


SWAP = {(0, 1), (1, 0)}


def region(game: str, p: Part) -> str:
    """The CGH region (docs/definitions.md §5) of the game started at p, e.g. 'M∩F'."""
    flags = dict.fromkeys(["domestic", "tame", "pet", "miserable", "forced", "returnable"], True)
    for x in reachable(game, p):
        a, b = pair(game, x)
        succ = [pair(game, y) for y in options(game, x)]
        flags["domestic"] &= not ((a == 0 and b >= 2) or (b == 0 and a >= 2))
        flags["tame"] &= (a, b) in SWAP or a == b
        flags["pet"] &= (a, b) in SWAP or a == b >= 2
        flags["miserable"] &= (a, b) in SWAP or not SWAP & set(succ) or SWAP <= set(succ)
        if (a, b) in SWAP:
            flags["forced"] &= all(s == (b, a) for s in succ)
            flags["returnable"] &= all(
                any(pair(game, z) == (a, b) for z in options(game, y))
                for y in options(game, x)
                if options(game, y)
            )
    names = ["pet", "miserable", "tame", "domestic"]
    c1 = next((c for c, f in zip("PMTD", names, strict=True) if flags[f]), "N")
    c2 = "F" if flags["forced"] else "R" if flags["returnable"] else "N'"
    return f"{c1}∩{c2}"


def sn_sg(s: int, moves: tuple[int, ...], p: Part) -> int:
    """Slow SetNim SN(s, moves) on the stacks p (padded with zeros)."""

    @cache
    def sg(x: Part) -> int:
        nonzero = [i for i, h in enumerate(x) if h]
        succ = set()
        for size in moves:
            for chosen in combinations(nonzero, size):
                y = [h - (i in chosen) for i, h in enumerate(x)]
                succ.add(sg(tuple(sorted(y, reverse=True))))
        return mex(succ)

    return sg(tuple(p) + (0,) * (s - len(p)))


# ---------------------------------------------------------------- running the searches ------------


def parts_of(cell: str) -> Part:
    """A partition as written in the CSV: '[3,3,1]' (a list column) or '(3,3,1)'."""
    inner = cell.strip("[]()")
    return tuple(int(x) for x in inner.split(",")) if inner else ()


def parts_list(cell: str) -> set[Part]:
    """A space-separated list of partitions '(5,5) (4,3,3)'."""
    return {parts_of(x) for x in cell.split()} if cell else set()


@pytest.fixture(scope="module")
def searched(small_store: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict]]:
    """Every search run once (on a copy of the small store, which gains a search/ folder)."""
    store = tmp_path_factory.mktemp("search") / "results"
    shutil.copytree(small_store, store)
    out = {}
    for name, _ in list_searches():
        text = run_search(store, name, "csv")
        path = store / "search" / f"{name}.csv"
        assert path.is_file(), name
        with path.open(newline="") as f:
            rows = list(csv.DictReader(f))
        assert text.splitlines()[0] == path.read_text().splitlines()[0], name
        out[name] = rows
    return out


def games_present(small_store: Path) -> set[str]:
    return {p.name[5:] for p in small_store.glob("game=*")}


def test_every_search_is_listed_with_a_description() -> None:
    listed = dict(list_searches())
    assert SEARCHES <= set(listed)
    assert all(listed[name] for name in SEARCHES)


def test_every_search_runs_and_saves_rows(searched: dict[str, list[dict]], small_store: Path) -> None:
    has_pairs = {"sn4_3", "sn4_3-4"} <= games_present(small_store)
    for name in SEARCHES:
        if name == "slownim_inclusion" and not has_pairs:
            continue
        assert searched[name], f"{name}: no rows"


def test_p_positions_totals_and_lctr_counts(searched: dict[str, list[dict]], small_store: Path) -> None:
    rows = searched["p_positions_per_n"]
    by = {(r["game"], int(r["n"])): r for r in rows}
    assert {g for g, _ in by} == games_present(small_store)
    for (game, n), r in by.items():
        played = get_game(game)
        if played.record_kind == "slownim":  # SN(s, A): its starts are stacks, at most s of them
            expected = sum(1 for p in partitions(n) if len(p) <= played.stacks)
        else:
            expected = len(partitions(n))
        assert int(r["positions"]) == expected, (game, n)
    for game in ("lctr", "downright", "king", "rook", "queen"):
        seq = []
        for n in range(1, N + 1):
            pairs = [pair(game, p) for p in partitions(n)]
            r = by[(game, n)]
            assert int(r["p_positions"]) == sum(a == 0 for a, _ in pairs), (game, n)
            assert int(r["misere_p_positions"]) == sum(b == 0 for _, b in pairs), (game, n)
            assert int(r["p_in_both"]) == sum(a == b == 0 for a, b in pairs), (game, n)
            seq.append(r["p_positions"])
            assert r["p_seq"] == ",".join(seq)


def test_cgh_regions_witnesses(searched: dict[str, list[dict]], small_store: Path) -> None:
    rows = searched["cgh_regions"]
    assert len(rows) == 15 * len(games_present(small_store))
    assert not [r for r in rows if r["region"] == "P∩N'" and r["witness"]]  # pet implies returnable
    assert {r["region"] for r in rows if r["figure7"] == "unknown"} == {
        "D∩F",
        "N∩F",
        "N∩R",
        "M∩N'",
        "T∩N'",
        "D∩N'",
    }
    for game in ("king", "rook", "lctr"):
        expected: dict[str, Part] = {}
        count: dict[str, int] = {}
        for n in range(1, N + 1):
            for p in sorted(partitions(n)):
                reg = region(game, p)
                expected.setdefault(reg, p)
                count[reg] = count.get(reg, 0) + 1
        got = {r["region"]: r for r in rows if r["game"] == game}
        for reg, r in got.items():
            assert (parts_of(r["witness"]) if r["witness"] else None) == expected.get(reg), (game, reg)
            assert int(r["records_in_region"]) == count.get(reg, 0), (game, reg)


def test_max_nodes_leaves_and_min_states(searched: dict[str, list[dict]]) -> None:
    big = {(r["game"], int(r["n"])): r for r in searched["max_nodes_leaves"]}
    small = {(r["game"], int(r["n"])): r for r in searched["min_states"]}
    for game in ("lctr", "king", "rook"):
        for n in range(1, N + 1):
            ps = partitions(n)
            nl = {p: nodes_leaves(game, p) for p in ps}
            top_nodes = max(v[0] for v in nl.values())
            top_leaves = max(v[1] for v in nl.values())
            r = big[(game, n)]
            assert int(r["max_nodes"]) == top_nodes
            assert int(r["max_leaves"]) == top_leaves
            at_nodes = {p for p in ps if nl[p][0] == top_nodes}
            assert int(r["max_nodes_count"]) == len(at_nodes)
            if len(at_nodes) <= 20:
                assert parts_list(r["max_nodes_at"]) == at_nodes
            assert parts_list(r["max_leaves_at"]) <= {p for p in ps if nl[p][1] == top_leaves}
            states = {p: len(reachable(game, p)) for p in ps}
            low = min(states.values())
            s = small[(game, n)]
            assert int(s["min_states"]) == low and int(s["max_states"]) == max(states.values())
            assert int(s["min_states_count"]) == sum(v == low for v in states.values())
            assert parts_list(s["min_states_at"]) <= {p for p in ps if states[p] == low}


def test_conjecture27_small_squares(searched: dict[str, list[dict]]) -> None:
    rows = {(r["game"], int(r["k"])): r for r in searched["conjecture27"]}
    assert set(rows) == {(g, k) for g in ("lctr", "downright") for k in (1, 2, 3)}
    for (game, k), r in rows.items():
        ps = partitions(k * k)
        nl = {p: nodes_leaves(game, p) for p in ps}
        square = (k,) * k
        top = max(v[0] for v in nl.values())
        assert int(r["max_nodes"]) == top
        assert parts_list(r["max_nodes_at"]) == {p for p, v in nl.items() if v[0] == top}
        assert r["conjecture_holds"] == "true" and nl[square][0] == top  # holds for k <= 3
        below = [v[0] for v in nl.values() if v[0] < top]
        assert r["runner_up_nodes"] == (str(max(below)) if below else "")
        top_leaves = max(v[1] for v in nl.values())
        assert r["leaves_conjecture_holds"] == ("true" if nl[square][1] == top_leaves else "false")
    # Downright's leaves are not maximised by the square: (4,3,2) and (3,3,2,1) have 7, (3,3,3) 6
    assert parts_list(rows[("downright", 3)]["max_leaves_at"]) == {(4, 3, 2), (3, 3, 2, 1)}


def test_queen_ratio2(searched: dict[str, list[dict]]) -> None:
    got = {(int(r["slack"]), parts_of(r["parts"])) for r in searched["queen_ratio2"]}
    expected = set()
    for n in range(2, N + 1):
        for p in partitions(n):
            a, b = p[0] - 1, len(p) - 1
            slack = 2 * min(a, b) - max(a, b)
            if slack in (0, 1) and pair("queen", p)[0] == 0:
                expected.add((slack, p))
    assert got == expected
    assert (0, (3, 3)) in got  # the paper's first example


def test_king_gen_staircase_against_conjectures(searched: dict[str, list[dict]]) -> None:
    rows = {(int(r["k"]), int(r["r"]), int(r["c"])): r for r in searched["king_gen_staircase"]}
    shapes = {
        (k, r, c)
        for k in range(1, N + 1)
        for r in range(1, N + 1)
        for c in range(1, N + 1)
        if r * c * k * (k + 1) // 2 <= N
    }
    assert set(rows) == shapes
    for (k, r, c), row in rows.items():
        p = tuple(step * c for step in range(k, 0, -1) for _ in range(r))
        assert parts_of(row["parts"]) == p
        assert (int(row["sg"]), int(row["sg_misere"])) == pair("king", p)
        if r == c and r % 2:
            m = k % (r + 2)
            predicted = 2 if m == 0 else 0 if m % 2 else 1
        elif r != c and r % 2 == 0 and c % 2 == 0:
            predicted = 2 if k % 2 else 3
        else:
            predicted = None
        assert row["predicted_sg"] == ("" if predicted is None else str(predicted)), (k, r, c)
        if predicted is not None:
            assert row["agrees"] == ("true" if pair("king", p)[0] == predicted else "false")


def test_slownim_inclusion(searched: dict[str, list[dict]], small_store: Path) -> None:
    present = games_present(small_store)
    rows = {(int(r["s"]), int(r["k"])): r for r in searched["slownim_inclusion"]}
    expected_pairs = {
        (s, k) for s in range(2, 10) for k in range(1, s) if {f"sn{s}_{k}", f"sn{s}_{k}-{s}"} <= present
    }
    assert set(rows) == expected_pairs
    if (4, 3) not in rows:
        pytest.skip("no SN(4,{3}) / SN(4,{3,4}) in the small store")
    r = rows[(4, 3)]
    positions = [p for n in range(1, N + 1) for p in partitions(n) if len(p) <= 4]
    p_ks = {p for p in positions if sn_sg(4, (3, 4), p) == 0}
    p_k = {p for p in positions if sn_sg(4, (3,), p) == 0}
    assert int(r["positions"]) == len(positions)
    assert (int(r["p_ks"]), int(r["p_k"]), int(r["p_both"])) == (len(p_ks), len(p_k), len(p_ks & p_k))
    assert int(r["counterexamples"]) == len(p_ks - p_k) == 0 and r["included"] == "true"  # Remark 6.2


def test_formula_finder_groups_are_constant(searched: dict[str, list[dict]], small_store: Path) -> None:
    from pipeline.query import connect

    rows = searched["formula_finder"]
    assert any(  # King on a rectangle with both sides odd is a P-position
        r["game"] == "king"
        and r["value"] == "sg"
        and r["constant"] == "0"
        and r["k"] == "1"
        and r["modulus"] == "2"
        and r["d1"] == "1"
        and r["m1"] == "1"
        for r in rows
    )
    con = connect(small_store)
    for game in ("king", "lctr"):
        values = {
            tuple(p): (sg, sgm)
            for p, sg, sgm in con.execute(f"SELECT parts, sg, sg_misere FROM {game}").fetchall()
        }
        shapes = {}
        for p in values:
            sizes = sorted(set(p), reverse=True)
            if len(sizes) <= 3:
                widths = [a - b for a, b in zip(sizes, [*sizes[1:], 0], strict=True)]
                shapes[p] = [x for s, d in zip(sizes, widths, strict=True) for x in (d, p.count(s))]
        for r in (r for r in rows if r["game"] == game):
            k, m = int(r["k"]), int(r["modulus"])
            key = [int(r[c]) for c in ("d1", "m1", "d2", "m2", "d3", "m3")[: 2 * k]]
            group = [p for p, sh in shapes.items() if len(sh) == 2 * k and [x % m for x in sh] == key]
            column = 0 if r["value"] == "sg" else 1
            assert len(group) == int(r["records"]) >= 5, r
            assert {values[p][column] for p in group} == {int(r["constant"])}, r
            assert parts_of(r["smallest"]) == min(group, key=lambda p: (sum(p), p))
