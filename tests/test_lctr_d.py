"""d-dimensional LCTR (``lctr_d2``, ``lctr_d3``, ``lctr_d4``; docs/definitions.md §2.6): the starts
counted against OEIS, every record of small n against the plain-Python reference
(tests/reference.py, which plays the paper's rule on corners), ``lctr_d2`` against ``lctr``, and
a store of these games through ``run``, ``check``, ``sql`` and ``verify``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from harness import cli, partitions
from reference import corners_of, diagrams, lctr_d_record

from pipeline.games import get_game
from pipeline.games.base import GameError
from pipeline.games.lctr_d import (
    MAX_STARTS,
    SOLID_PARTITIONS,
    count_starts,
    diagonal_counts,
    largest_n,
    start_count,
)

# OEIS A000219 (plane partitions of n, n = 0..30) and A000293 (solid partitions, n = 0..20),
# typed from the sequences' entries.
A000219 = [1, 1, 3, 6, 13, 24, 48, 86, 160, 282, 500, 859, 1479, 2485, 4167, 6879, 11297, 18334,
           29601, 47330, 75278, 118794, 186475, 290783, 451194, 696033, 1068745, 1632658, 2483234,
           3759612, 5668963]
A000293 = [1, 1, 4, 10, 26, 59, 140, 307, 684, 1464, 3122, 6500, 13426, 27248, 54804, 108802,
           214071, 416849, 805124, 1541637, 2930329]
FLAGS = ("domestic", "tame", "pet", "miserable", "forced", "returnable")
MAX_N = 8
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def macmahon(nmax: int) -> list[int]:
    """Plane partitions of 0..nmax from MacMahon's product Π_k (1 − x^k)^(−k)."""
    coeffs = [1] + [0] * nmax
    for k in range(1, nmax + 1):
        for _ in range(k):  # multiply by 1 / (1 − x^k), k times
            for m in range(k, nmax + 1):
                coeffs[m] += coeffs[m - k]
    return coeffs


def test_the_typed_sequences_are_right() -> None:
    assert macmahon(30) == A000219
    assert [len(diagrams(n, 3)) for n in range(7)] == A000219[:7]
    assert [len(diagrams(n, 4)) for n in range(7)] == A000293[:7]
    assert [len(diagrams(n, 2)) for n in range(9)] == [len(list(partitions(n))) if n else 1
                                                       for n in range(9)]


@pytest.mark.parametrize(("d", "nmax", "expected"), [(2, 20, None), (3, 22, A000219), (4, 16, A000293)])
def test_the_walk_counts_every_start_once(d: int, nmax: int, expected: list[int] | None) -> None:
    expected = expected or [len(list(partitions(n))) for n in range(nmax + 1)]
    assert [int(count_starts(n, d)) for n in range(1, nmax + 1)] == expected[1:nmax + 1]
    assert [get_game(f"lctr_d{d}").positions(n) for n in range(1, 9)] == expected[1:9]
    assert [start_count(n, d) for n in range(1, nmax + 1)] == expected[1:nmax + 1]


def test_start_count_without_the_walk() -> None:
    """The counts a run plans with: MacMahon's recurrence against his product to the bound, the
    module's solid partitions against the ones typed here (OEIS), each n's game count."""
    assert [start_count(n, 3) for n in range(45)] == macmahon(44)
    assert list(SOLID_PARTITIONS[:21]) == A000293 and start_count(51, 4) is None
    assert [largest_n(d) for d in (2, 3, 4)] == [114, 43, 29]
    assert start_count(43, 3) <= MAX_STARTS < start_count(44, 3)
    assert SOLID_PARTITIONS[29] <= MAX_STARTS < SOLID_PARTITIONS[30]


@pytest.mark.parametrize(("game", "max_n", "says"), [
    ("lctr_d3", "60", "lctr_d3 has 1,234,363,833 starts at n=44 (plane partitions of n, OEIS A000219)"),
    ("lctr_d4", "30", "lctr_d4 has 1,281,403,841 starts at n=30 (solid partitions of n, OEIS A000293)"),
    ("lctr_d4", "80", "lctr_d4 has 1,281,403,841 starts at n=30"),
    ("lctr_d2", "150", "lctr_d2 has 1,064,144,451 starts at n=115 (partitions of n)"),
])
def test_a_run_beyond_the_bound_is_refused_up_front(game: str, max_n: str, says: str, tmp_path, capsys,
                                                     monkeypatch) -> None:
    """A --max-n whose starts exceed MAX_STARTS stops in one line, before any start is walked
    (count_starts would take hours there) and without creating or changing a byte of a store."""
    import pipeline.games.lctr_d as lctr_d

    def walked(*_args: object) -> int:
        raise AssertionError("the starts were walked")

    store = tmp_path / "r"
    code, _, err = cli(capsys, "run", "--games", game, "--max-n", "3", "--results", str(store), "--quiet")
    assert code == 0, err
    before = sorted((p.relative_to(store), p.stat().st_mtime_ns) for p in store.rglob("*"))
    monkeypatch.setattr(lctr_d, "count_starts", walked)
    for root in (store, tmp_path / "new"):
        code, out, err = cli(capsys, "run", "--games", game, "--max-n", max_n, "--results", str(root),
                             "--quiet")
        assert code == 2 and err.startswith("partgames: ") and says in err, err
        assert len(err.strip().splitlines()) == 1 and f"--max-n to {lctr_d.largest_n(int(game[-1]))}" in err
    assert not (tmp_path / "new").exists()
    assert sorted((p.relative_to(store), p.stat().st_mtime_ns) for p in store.rglob("*")) == before


def cells_of(d: int, row: dict) -> frozenset:
    corners = row["corners"]
    tops = [tuple(corners[i:i + d]) for i in range(0, len(corners), d)]
    return frozenset(x for c in tops for x in _below(c))


def _below(c: tuple[int, ...]):
    if len(c) == 1:
        yield from ((k,) for k in range(1, c[0] + 1))
        return
    for k in range(1, c[0] + 1):
        for rest in _below(c[1:]):
            yield (k, *rest)


def heights(cells: frozenset, d: int) -> list[tuple[tuple[int, ...], int]]:
    """The (base point, height) of every column, in the lexicographic order of the base."""
    columns: dict[tuple[int, ...], int] = {}
    for x in cells:
        columns[x[:-1]] = max(columns.get(x[:-1], 0), x[-1])
    return sorted(columns.items())


@pytest.mark.parametrize("d", [3, 4])
def test_every_record_equals_the_reference(d: int) -> None:
    game = get_game(f"lctr_d{d}")
    for n in range(1, MAX_N + 1):
        rows = game.solve_shard(n, 0, 10**6).to_pylist()
        expected = set(diagrams(n, d))
        got = [cells_of(d, r) for r in rows]
        assert len(got) == len(set(got)) == len(expected) and set(got) == expected, n
        for r, cells in zip(rows, got, strict=True):
            assert r["n"] == n and r["dims"] == d
            ref = lctr_d_record(cells)
            for key in ("sg", "sg_misere", "nodes", "leaves", "states", "height", *FLAGS):
                assert r[key] == ref[key], (n, sorted(corners_of(cells)), key, r[key], ref[key])
            cols = heights(cells, d)
            assert r["parts"] == [h for _, h in cols]
            assert r["num_parts"] == len(cols) and r["largest"] == cols[0][1]
            rows_of = [b[:-1] for b, _ in cols]
            assert r["row_lengths"] == [rows_of.count(k) for k in dict.fromkeys(rows_of)]
            assert sorted(tuple(r["corners"][i:i + d]) for i in range(0, len(r["corners"]), d)) \
                == sorted(corners_of(cells))


def test_values_never_exceed_d() -> None:
    """The paper's remark (lctr-sg-complexity.txt §8): a position has d options, so its value is at
    most d; d = 4 reaches 4 (n = 10 holds one such start)."""
    for d, n in ((3, 12), (4, 10)):
        rows = get_game(f"lctr_d{d}").solve_shard(n, 0, 10**6).to_pylist()
        assert max(r["sg"] for r in rows) <= d and max(r["sg_misere"] for r in rows) <= d


def test_lctr_d2_is_lctr() -> None:
    """lctr_d2's records equal lctr's on every partition of n <= 30 (docs/definitions.md §2.6)."""
    d2, lctr = get_game("lctr_d2"), get_game("lctr")
    keys = ("sg", "sg_misere", "nodes", "leaves", "states", "height", *FLAGS, "num_parts", "largest")
    for n in range(1, 31):
        ours = {tuple(r["parts"]): r for r in d2.solve_shard(n, 0, 10**6).to_pylist()}
        theirs = lctr.solve_shard(n, 0, 10**6).to_pylist()
        assert len(ours) == len(theirs)
        for r in theirs:
            mine = ours[tuple(r["parts"])]
            assert [mine[k] for k in keys] == [r[k] for k in keys], (n, r["parts"])
            assert mine["row_lengths"] == [r["num_parts"]]


def test_shards_resume_and_restart() -> None:
    """Shards in any order give the records of the whole n, in the same order."""
    game = get_game("lctr_d3")
    whole = game.solve_shard(9, 0, 10**6).to_pylist()
    fresh = get_game("lctr_d3")
    parts = [fresh.solve_shard(9, s, 50).to_pylist() for s in (2, 0, 1, 3, 4, 5)]
    assert [r for p in (parts[1], parts[2], parts[0], *parts[3:]) for r in p] == whole
    assert fresh.shard_count(9, 50) == 6 and fresh.shard_records(9, 5, 50) == 282 - 250


@pytest.mark.parametrize("bad", ["lctr_d1", "lctr_d5", "lctr_d33"])
def test_bad_dimension_is_refused(bad: str) -> None:
    with pytest.raises(GameError, match="lctr_d2, lctr_d3 or lctr_d4"):
        get_game(bad)


def test_a_store_of_lctr_d(tmp_path, capsys) -> None:
    """run, check, sql (views, records, summaries) and verify on a store holding only these games."""
    store = str(tmp_path / "r")
    code, _, err = cli(capsys, "run", "--games", "lctr_d3,lctr_d4", "--max-n", "7", "--results", store,
                       "--quiet")
    assert code == 0, err
    code, out, _ = cli(capsys, "check", "--results", store)
    assert code == 0 and "14 (game, n) sound" in out
    code, out, _ = cli(capsys, "sql", "--results", store, "--format", "json",
                       "SELECT game, n, count(*) AS c, count(*) FILTER (sg = 0) AS p FROM records "
                       "WHERE n = 7 GROUP BY game, n ORDER BY game")
    rows = json.loads(out)
    assert [(r["game"], r["c"]) for r in rows] == [("lctr_d3", 86), ("lctr_d4", 307)]
    reference_p = sum(lctr_d_record(c)["sg"] == 0 for c in diagrams(7, 3))
    assert rows[0]["p"] == reference_p
    code, out, _ = cli(capsys, "sql", "--results", store, "--format", "json",
                       "SELECT records, p_positions FROM summaries WHERE game = 'lctr_d3' AND n = 7")
    assert json.loads(out) == [{"records": 86, "p_positions": reference_p}]
    code, out, err = cli(capsys, "verify", "--results", store)
    assert code == 0 and "0 errors" in out, out + err


def test_diagonal_counts_equal_the_reference() -> None:
    """diagonal_counts against the reference: the diagonal shift removes one layer in every
    direction (its corners: every coordinate lowered by one, those at 1 gone)."""
    for d, n in ((2, 9), (3, 8), (4, 7)):
        counts = [0] * 5
        for cells in diagrams(n, d):
            shifted = frozenset(tuple(c - 1 for c in x) for x in cells if min(x) >= 2)
            counts[0] += 1
            if shifted:
                sg, sgd = lctr_d_record(cells)["sg"], lctr_d_record(shifted)["sg"]
                counts[1] += 1
                counts[2] += sgd == 0
                counts[3] += sgd == 0 and sg != 0
                counts[4] += sg == sgd
        assert list(diagonal_counts(n, d)) == counts, (d, n)
    assert diagonal_counts(20, 2)[3] == 0  # LCTR: Lemma 15.1 of lctr-sg-complexity.txt


def test_other_lctr_d_names_stay_free_for_rules(tmp_path) -> None:
    """Only lctr_d<digits> belongs to the family: a rules file may name its game lctr_dual, not
    lctr_d3."""
    from pipeline.rules import RulesError, load_rules_file, register, unregister

    text = (EXAMPLES / "lctr_nr_rules.py").read_text()
    assert 'GAME_ID = "lctr_nr_rules"' in text  # the id each round below replaces
    for gid in ("lctr_dual", "lctr_d3"):
        path = tmp_path / f"{gid}.py"
        path.write_text(text.replace('GAME_ID = "lctr_nr_rules"', f'GAME_ID = "{gid}"'))
        (rules,) = load_rules_file(path)
        if gid == "lctr_d3":
            with pytest.raises(RulesError, match="lctr_d<d>"):
                register(rules)
            continue
        register(rules)
        try:
            assert type(get_game(gid)).__name__ == "GenericGame"
        finally:
            unregister(gid)


@pytest.mark.parametrize("args", [("solve", "lctr_d3", "3,2"), ("draw", "lctr_d3", "3,2"),
                                  ("run", "--games", "lctr_d3", "--family", "staircase", "--max-n", "6")])
def test_partition_commands_refuse_it_by_name(args: tuple[str, ...], tmp_path, capsys) -> None:
    """The commands that take a partition (solve, draw, a family run) refuse d-dimensional LCTR
    in one line that names it, and write nothing."""
    code, out, err = cli(capsys, *args, *(("--out", str(tmp_path / "x.svg")) if args[0] == "draw" else ()),
                         *(("--results", str(tmp_path / "r")) if args[0] == "run" else ()))
    assert code == 2 and err.startswith("partgames: ") and "d-dimensional" in err, err
    assert len(err.strip().splitlines()) == 1 and not list(tmp_path.iterdir())


def test_one_warmup_task_compiles_every_d() -> None:
    """A run's warm-up compiles the kernel once for every d, with the writer of its schema."""
    from pipeline.warmup import plan_tasks

    tasks = [task for _, task in plan_tasks([get_game(g) for g in ("lctr_d3", "lctr_d4", "lctr_d2")])]
    assert tasks == [(("lctr_d3",), False, True, 4)]


# ---- the catalogue's statements about d-dimensional LCTR (queries/open/lctrd.*) --------------

STAR3 = [1, 1, 2, 1, 2, 1, 2, 1, 1]  # the star of d = 3: the origin and its three neighbours
WITNESS3 = [2, 2, 3, 2, 3, 2, 3, 2, 2]  # its cells shifted by (1, 1, 1), down-closed (n = 20)
LCTRD = ["lctrd.values_at_most_d", "lctrd.zero_values_do_not_propagate", "lctrd.d2_zero_propagates",
         "lctrd.first_p_positions", "lctrd.d2_is_lctr"]


@pytest.fixture(scope="module")
def lctrd_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """lctr and lctr_d2 to n = 12, lctr_d3 to n = 20 (the witness of zero values not
    propagating), lctr_d4 to n = 10: the statements' records, built by the real run."""
    from pipeline.runner import run

    root = tmp_path_factory.mktemp("lctrd") / "results"
    run(["lctr", "lctr_d2", "lctr_d4"], max_n=10, out=str(root), jobs=1, progress=False)
    run(["lctr", "lctr_d2"], max_n=12, out=str(root), jobs=1, progress=False)
    run(["lctr_d3"], max_n=20, out=str(root), jobs=1, progress=False)
    return root


def plant_diagram(store: Path, dest: Path, game: str, n: int, corners: list[int], **columns: object) -> Path:
    """A copy of ``store`` with the record of the diagram ``corners`` (n cells) of ``game`` given
    ``columns``, committed as the store's own (a d-dimensional partition is named by its corners:
    its heights alone do not tell it, as (3,1) of d = 3 shows)."""
    import shutil

    import duckdb
    import pyarrow.parquet as pq
    from conftest import recommit

    shutil.copytree(store, dest)
    hits = 0
    match = f"corners = {corners}::SMALLINT[]"
    for f in sorted((dest / f"game={game}" / f"n={n}").glob("*.parquet")):
        con = duckdb.connect()
        original = pq.read_table(f)
        hits += con.execute(f"SELECT count(*) FROM read_parquet('{f}') WHERE {match}").fetchall()[0][0]
        exprs = ", ".join(f"CASE WHEN {match} THEN {columns[c]!r} ELSE {c} END AS {c}" if c in columns else c
                          for c in original.column_names)
        new = con.sql(f"SELECT {exprs} FROM read_parquet('{f}')").to_arrow_table()
        pq.write_table(new.cast(original.schema), f)
    assert hits == 1, (game, n, corners, hits)
    recommit(dest / f"game={game}" / f"n={n}")
    return dest


def test_lctrd_statements_hold(lctrd_store: Path, verify_ids) -> None:
    """Every statement holds on the real records, on the records the reference counts."""
    results = verify_ids(lctrd_store, LCTRD)
    assert {sid: r["status"] for sid, r in results.items()} == dict.fromkeys(LCTRD, "holds")
    every = sum(len(diagrams(n, 2)) for n in range(1, 13)) + sum(A000219[1:21]) + sum(A000293[1:11])
    assert results["lctrd.values_at_most_d"]["rows"] == every
    assert results["lctrd.first_p_positions"]["rows"] == sum(
        len(diagrams(n, d)) for d in (2, 3, 4) for n in range(1, d + 2))
    assert results["lctrd.zero_values_do_not_propagate"]["rows"] == 1
    assert results["lctrd.d2_is_lctr"]["rows"] == sum(len(diagrams(n, 2)) for n in range(1, 13))
    # Lemma 15.1's domain: the partitions whose diagonal shift is a nonempty P-position (reference)
    shifted_p = 0
    for n in range(1, 13):
        for cells in diagrams(n, 2):
            shift = frozenset((a - 1, b - 1) for a, b in cells if a >= 2 and b >= 2)
            shifted_p += bool(shift) and lctr_d_record(shift)["sg"] == 0
    assert results["lctrd.d2_zero_propagates"]["rows"] == shifted_p > 0


def test_zero_values_witness_is_the_first(lctrd_store: Path) -> None:
    """The witness is the reference's: sg(π) ≠ 0 and sg(π⁺) = 0, and it is the only start of
    n ≤ 20 with π⁺ a nonempty P-position and π not (diagonal_counts)."""
    pi = frozenset(x for c in ((2, 2, 3), (2, 3, 2), (3, 2, 2)) for x in _below(c))
    star = frozenset(x for c in ((1, 1, 2), (1, 2, 1), (2, 1, 1)) for x in _below(c))
    assert len(pi) == 20 and lctr_d_record(pi)["sg"] != 0 and lctr_d_record(star)["sg"] == 0
    assert frozenset(tuple(c - 1 for c in x) for x in pi if min(x) >= 2) == star
    assert [int(diagonal_counts(n, 3)[3]) for n in range(1, 21)] == [0] * 19 + [1]


def test_the_shifted_star_in_other_dimensions() -> None:
    """docs/open-problems.md: the witness's construction (the star, the first P-position, shifted
    by (1, …, 1) and closed downwards) loses the zero for d = 3 and 5, not for d = 2 and 4."""
    got = {}
    for d in (2, 3, 4, 5):
        star = [tuple(2 if j == i else 1 for j in range(d)) for i in range(d)]
        cells = frozenset(x for c in star for x in _below(tuple(v + 1 for v in c)))
        star_cells = frozenset(x for c in star for x in _below(c))
        assert lctr_d_record(star_cells)["sg"] == 0
        got[d] = (len(cells), lctr_d_record(cells)["sg"])
    assert got == {2: (8, 0), 3: (20, 1), 4: (48, 0), 5: (112, 1)}


@pytest.mark.parametrize(("game", "n", "corners", "columns", "failing"), [
    ("lctr_d4", 10, None, {"sg": 5}, {"lctrd.values_at_most_d"}),
    ("lctr_d3", 7, None, {"sg_misere": 4}, {"lctrd.values_at_most_d"}),
    ("lctr_d3", 20, WITNESS3, {"sg": 0}, {"lctrd.zero_values_do_not_propagate"}),
    ("lctr_d3", 4, STAR3, {"sg": 2}, {"lctrd.zero_values_do_not_propagate", "lctrd.first_p_positions"}),
    ("lctr_d2", 8, [2, 3, 3, 2], {"sg": 1}, {"lctrd.d2_zero_propagates", "lctrd.d2_is_lctr"}),
    ("lctr_d4", 4, None, {"sg": 0}, {"lctrd.first_p_positions"}),
    ("lctr_d2", 11, None, {"nodes": 12345}, {"lctrd.d2_is_lctr"}),
])
def test_planted_lctrd_value_is_reported(lctrd_store: Path, tmp_path: Path, verify_ids, game: str, n: int,
                                         corners: list[int] | None, columns: dict, failing: set[str]) -> None:
    """One value changed in one record: exactly the statements it contradicts fail. (corners
    None: the first record of n whose planted value is wrong for every statement that reads it.)"""
    if corners is None:
        from pipeline.query import connect

        (corners,), = connect(lctrd_store).execute(
            f"SELECT corners FROM {game} WHERE n = {n} AND sg <> 0 ORDER BY corners LIMIT 1").fetchall()
    store = plant_diagram(lctrd_store, tmp_path / "planted" / "results", game, n, corners, **columns)
    results = verify_ids(store, LCTRD)
    assert {sid for sid, r in results.items() if r["status"] == "fails"} == failing
    assert all(r["status"] == "holds" for sid, r in results.items() if sid not in failing)


def test_zero_values_witness_absent_is_no_data(lctrd_store: Path, tmp_path: Path, verify_ids) -> None:
    """A store without n = 20 of lctr_d3 lacks the witness: no data, never holds. Without
    lctr_d2 and lctr_d4 their views are empty, not missing: the statements that name them run
    on what is there."""
    import shutil

    store = tmp_path / "r"
    shutil.copytree(lctrd_store, store)
    for job in ("game=lctr_d3/n=20", "game=lctr_d2", "game=lctr_d4"):
        shutil.rmtree(store / job)
    results = verify_ids(store, LCTRD)
    assert results["lctrd.zero_values_do_not_propagate"]["status"] == "no data"
    assert results["lctrd.zero_values_do_not_propagate"]["rows"] == 0
    assert results["lctrd.values_at_most_d"]["status"] == "holds"
    assert results["lctrd.values_at_most_d"]["rows"] == sum(A000219[1:20])
    assert results["lctrd.d2_zero_propagates"]["status"] == "no data"
    assert results["lctrd.d2_is_lctr"]["status"] == "no data"  # lctr alone: nothing to compare


def test_lctr_d_values_search(lctrd_store: Path, tmp_path: Path) -> None:
    """`partgames search lctr_d_values` against the reference: per (game, n) the starts, the
    P-positions, each value's starts, the misère P-positions, and the diagonal shift's counts
    (those of diagonal_counts); the witness of zero values not propagating at n = 20."""
    import csv
    import shutil

    from pipeline.search import run_search

    store = tmp_path / "r"
    shutil.copytree(lctrd_store, store)
    run_search(store, "lctr_d_values", "csv")
    with (store / "search" / "lctr_d_values.csv").open(newline="") as f:
        rows = {(r["game"], int(r["n"])): r for r in csv.DictReader(f)}
    assert len(rows) == 12 + 20 + 10
    for d, nmax in ((2, 8), (3, 8), (4, 6)):
        for n in range(1, nmax + 1):
            cells = diagrams(n, d)
            recs = [lctr_d_record(c) for c in cells]
            r = rows[(f"lctr_d{d}", n)]
            assert int(r["starts"]) == len(cells) and int(r["p"]) == sum(x["sg"] == 0 for x in recs)
            assert int(r["misere_p"]) == sum(x["sg_misere"] == 0 for x in recs)
            for v in range(1, 5):
                want = str(sum(x["sg"] == v for x in recs)) if v <= d else ""
                assert r[f"sg{v}"] == want, (d, n, v)
            counts = [int(r[k]) for k in ("shifted", "shift_p", "zero_lost", "same_value")]
            assert counts == [int(x) for x in diagonal_counts(n, d)[1:]], (d, n)
    assert [rows[("lctr_d3", n)]["zero_lost"] for n in (19, 20)] == ["0", "1"]
