"""Games given by their rules (pipeline/rules.py) and the generic solver
(pipeline/games/generic.py): the rules files of examples/ give records identical, every column,
to the bespoke kernels on every partition of n <= 30 (LCTR, Downright, king, rook; SN(4,{3}) on
its starts of n <= 30); a planted error in a rules file is caught by that comparison; the
commands take a rules game; bad rules files are one line."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from harness import cli

from pipeline.games import get_game
from pipeline.games.generic import GenericGame
from pipeline.partitions import partition_numbers
from pipeline.rules import Rules, load_rules_file, register, unregister

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: The rules files equal the bespoke kernels, every column, on every start of n <= MAX_N (some 2.5 s
#: a game: 28,628 partitions in shards of SHARD records).
MAX_N = 30
#: Small shards: several per n, so one table serves several starts and the shard plan matters.
SHARD = 9


def rules_of(name: str) -> Rules:
    return load_rules_file(EXAMPLES / f"{name}_rules.py")[0]


def shards(game, n: int) -> list[pa.Table]:
    return [game.solve_shard(n, s, SHARD) for s in range(game.shard_count(n, SHARD))]


def first_difference(generic: GenericGame, bespoke_id: str, max_n: int = MAX_N) -> str | None:
    """The first (n, shard, column) where the rules game's records differ from the bespoke
    kernel's, or None when every column of every partition of n <= max_n is equal."""
    bespoke = get_game(bespoke_id)
    for n in range(1, max_n + 1):
        assert generic.shard_count(n, SHARD) == bespoke.shard_count(n, SHARD)
        for s, (a, b) in enumerate(zip(shards(generic, n), shards(bespoke, n), strict=True)):
            assert a.schema == b.schema
            for column in a.column_names:
                if not a.column(column).equals(b.column(column)):
                    return f"n={n} shard {s} column {column}"
    return None


@pytest.mark.parametrize("name", ["lctr", "downright", "king", "rook"])
def test_rules_files_equal_the_bespoke_kernels(name):
    """LCTR, Downright, king and rook as rules files: every column of every partition of
    n <= MAX_N (30) equal to the kernel's, shard by shard."""
    generic = GenericGame(rules_of(name))
    assert first_difference(generic, name) is None
    assert sum(generic.positions(n) for n in range(1, MAX_N + 1)) == sum(partition_numbers(MAX_N)[1:])


def test_slow_setnim_as_rules_equals_its_kernel():
    """SN(4,{3}) as a rules file: every column of every start of n <= MAX_N (30) equal to the
    kernel's."""
    # SN(4,{3}) (docs/definitions.md §2.3): distinct multisets are the moves (MULTI_EDGES =
    # False), its own starts (at most 4 parts); every column a rules game writes.
    generic = GenericGame(load_rules_file(EXAMPLES / "slownim_4_3_rules.py")[0])
    bespoke = get_game("sn4_3")
    columns = generic.schema.names
    for n in range(1, MAX_N + 1):
        mine = generic.solve_shard(n, 0, 1 << 18).sort_by("ordinal")
        theirs = bespoke.solve_shard(n, 0, 1 << 18).select(columns).sort_by("ordinal")
        assert mine.num_rows == theirs.num_rows == generic.positions(n)
        for column in columns:
            assert mine.column(column).equals(theirs.column(column)), (n, column)


def test_an_option_may_be_a_view_or_one_reused_array(tmp_path):
    # docs/rules.md: the solver reads each option before asking for the next, so the rules may
    # yield a view of the position and one scratch array overwritten from option to option.
    path = tmp_path / "reused_rules.py"
    path.write_text(textwrap.dedent("""
        import numba
        import numpy as np
        GAME_ID = "reused"

        @numba.njit
        def options(p):
            if len(p) > 0:
                yield p[1:]
                scratch = np.empty(len(p), np.int64)
                k = 0
                for v in p:
                    if v > 1:
                        scratch[k] = v - 1
                        k += 1
                yield scratch[:k]
                scratch[:] = -7  # what the solver read is not what it keeps
    """))
    assert first_difference(GenericGame(load_rules_file(path)[0]), "lctr", 10) is None


def test_a_planted_error_in_a_rules_file_is_caught(tmp_path):
    # King without its diagonal move from two-row positions: one wrong option, deep in the tree.
    source = (EXAMPLES / "king_rules.py").read_text()
    planted = source.replace("if k > 1:", "if k > 1 and len(p) != 2:")
    assert planted != source
    path = tmp_path / "king_planted.py"
    path.write_text(planted.replace('"king_rules"', '"king_planted"'))
    assert first_difference(GenericGame(load_rules_file(path)[0]), "king") is not None


def test_the_multi_edge_convention_is_caught():
    # LCTR's two moves from (1) to () are two edges (docs/definitions.md §2.1): counted once,
    # nodes and leaves differ and the comparison says so.
    lctr = rules_of("lctr")
    once = Rules("lctr_once", lctr.options, None, False, "test")
    found = first_difference(GenericGame(once), "lctr", max_n=3)
    assert found is not None and found.endswith(("nodes", "leaves"))


def test_one_table_for_many_starts_and_its_flush():
    # A table flushed before every start gives the same records as one table for the shard.
    lctr = rules_of("lctr")
    big = GenericGame(lctr).solve_shard(10, 0, 1 << 18)
    flushed = GenericGame(lctr, table_limit=1).solve_shard(10, 0, 1 << 18)
    assert big.equals(flushed)


def test_run_with_a_rules_file_writes_records_summaries_and_keep(tmp_path, capsys):
    rules = str(EXAMPLES / "lctr_rules.py")
    out = tmp_path / "st"
    code, _, err = cli(capsys, "run", "--rules", rules, "--games", "lctr_rules,lctr", "--max-n", "9",
                       "--out", str(out), "--quiet", "--jobs", "1", "--shard-records", "7")
    assert code == 0, err
    for n in range(1, 10):
        mine = pq.read_table(out / "game=lctr_rules" / f"n={n}", partitioning=None).sort_by("ordinal")
        theirs = pq.read_table(out / "game=lctr" / f"n={n}", partitioning=None).sort_by("ordinal")
        assert mine.num_rows == partition_numbers(n)[n] and mine.equals(theirs)
    code, text, err = cli(capsys, "sql", "--results", str(out),
                          "SELECT game, p_positions FROM summaries WHERE n = 9 ORDER BY game")
    assert code == 0, err
    assert text.split("\n")[2].split()[1] == text.split("\n")[3].split()[1]  # lctr, lctr_rules
    kept = tmp_path / "kept"
    code, _, err = cli(capsys, "run", "--rules", rules, "--games", "lctr_rules", "--max-n", "6",
                       "--out", str(kept), "--quiet", "--keep", "sg = 0")
    assert code == 0, err
    sg = pq.read_table(kept / "game=lctr_rules", partitioning=None).column("sg").to_pylist()
    assert sg and all(v == 0 for v in sg)


def test_records_of_other_rules_are_not_kept_as_these(tmp_path, capsys):
    # The same id given by edited rules: a rerun refuses the complete (game, n) of the old
    # rules instead of skipping them as done; --force recomputes them.
    lctr = rules_of("lctr")
    out = str(tmp_path / "st")
    register(Rules("edited", lctr.options, None, True, "edited.py sha256:aaaa"))
    try:
        code, _, err = cli(capsys, "run", "--games", "edited", "--max-n", "4", "--out", out, "--quiet")
        assert code == 0, err
    finally:
        unregister("edited")
    register(Rules("edited", lctr.options, None, False, "edited.py sha256:bbbb"))
    try:
        code, _, err = cli(capsys, "run", "--games", "edited", "--max-n", "4", "--out", out, "--quiet")
        assert code == 2 and "edited.py sha256:aaaa" in err and "--force" in err, err
        code, _, err = cli(capsys, "run", "--games", "edited", "--max-n", "4", "--out", out, "--quiet",
                           "--force")
        assert code == 0, err
    finally:
        unregister("edited")
    nodes = pq.read_table(Path(out) / "game=edited" / "n=1", partitioning=None).column("nodes")
    assert nodes.to_pylist() == [2]  # (1) -> () counted once: the new rules' records


def test_solve_and_family_take_a_rules_game(tmp_path, capsys):
    rules = str(EXAMPLES / "king_rules.py")
    code, text, err = cli(capsys, "solve", "--rules", rules, "king_rules,king", "5,5,3,2,1",
                          "--format", "csv")
    assert code == 0, err
    a, b = text.strip().split("\n")[1:]
    assert a.split(",", 1)[1] == b.split(",", 1)[1]
    out = tmp_path / "fam"
    code, _, err = cli(capsys, "run", "--rules", rules, "--games", "king_rules,king", "--family",
                       "staircase,rectangle", "--max-n", "12", "--out", str(out), "--quiet")
    assert code == 0, err
    order = [("n", "ascending"), ("ordinal", "ascending")]
    mine = pq.read_table(out / "game=king_rules", partitioning=None).sort_by(order)
    theirs = pq.read_table(out / "game=king", partitioning=None).sort_by(order)
    assert mine.num_rows > 0 and mine.equals(theirs)


def test_run_partitions_takes_a_rules_game(tmp_path, capsys):
    """`run --partitions FILE` solves a rules game's records of the file's partitions, equal,
    every column, to the bespoke kernel's of the same file."""
    listed = tmp_path / "shapes.txt"
    listed.write_text("5,5,3,2,1\n4 4 4\n7\n1,1,1,1\n3,1\n")
    out = tmp_path / "listed"
    code, _, err = cli(capsys, "run", "--rules", str(EXAMPLES / "king_rules.py"), "--games",
                       "king_rules,king", "--partitions", str(listed), "--out", str(out), "--quiet")
    assert code == 0, err
    order = [("n", "ascending"), ("ordinal", "ascending")]
    mine = pq.read_table(out / "game=king_rules", partitioning=None).sort_by(order)
    theirs = pq.read_table(out / "game=king", partitioning=None).sort_by(order)
    assert sorted(map(tuple, mine.column("parts").to_pylist())) == sorted(
        [(5, 5, 3, 2, 1), (4, 4, 4), (7,), (1, 1, 1, 1), (3, 1)])
    assert mine.equals(theirs)


def _section(text: str, game: str) -> str:
    start = text.index(f'<section id="game-{game}"')
    return text[start:text.index("</section>", start)]


def test_report_takes_a_rules_game(tmp_path, capsys):
    """`report` on a store with a rules game charts it; with `--rules FILE` (its rules say its
    positions are partitions) it draws its grids as it does the bespoke game's."""
    rules = str(EXAMPLES / "king_rules.py")
    store = tmp_path / "st"
    code, _, err = cli(capsys, "run", "--rules", rules, "--games", "king_rules,king", "--max-n", "7",
                       "--out", str(store), "--quiet")
    assert code == 0, err
    unregister("king_rules")  # a later command knows the game only from --rules
    try:
        code, _, err = cli(capsys, "report", "--results", str(store), "--out", str(tmp_path / "a.html"))
        assert code == 0, err
        text = (tmp_path / "a.html").read_text()
        assert 'data-chart="king_rules"' in text
        assert "Families of the theorems" not in _section(text, "king_rules")
        assert "Families of the theorems" in _section(text, "king")
        code, _, err = cli(capsys, "report", "--rules", rules, "--results", str(store),
                           "--out", str(tmp_path / "b.html"))
        assert code == 0, err
        text = (tmp_path / "b.html").read_text()
        mine, theirs = _section(text, "king_rules"), _section(text, "king")
        figures = re.compile(r"<figcaption>([^<]*)</figcaption>")
        assert figures.findall(mine) == figures.findall(theirs) != []
    finally:
        unregister("king_rules")


def _write(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return str(path)


@pytest.mark.parametrize("body, says", [
    ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
    ("GAME_ID = 'king'\nimport numba\n@numba.njit\ndef options(p):\n    yield p\n", "has a game of that id"),
    ("GAME_ID = 'plain'\ndef options(p):\n    yield p\n", "@numba.njit"),
    ("GAME_ID = 'Bad-Id'\n", "GAME_ID must be"),
    ("GAME_ID = 'nothing'\n", "no options"),
])
def test_a_bad_rules_file_is_one_line(tmp_path, capsys, body, says):
    path = _write(tmp_path, "bad.py", body)
    out = tmp_path / "st"
    code, _, err = cli(capsys, "run", "--rules", path, "--games", "lctr", "--max-n", "3", "--out", str(out))
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()
    code, _, err = cli(capsys, "run", "--rules", str(tmp_path / "missing.py"), "--max-n", "3",
                       "--out", str(out))
    assert code == 2 and "missing.py" in err and not out.exists()


def test_rules_that_loop_are_refused(tmp_path):
    path = _write(tmp_path, "loop.py", """\
        import numba
        GAME_ID = "loop"
        @numba.njit
        def options(p):
            if len(p) > 1:
                yield p[::-1].copy()
        """)
    game = GenericGame(load_rules_file(path)[0])
    from pipeline.games.generic import RulesLoopError

    assert game.solve_shard(1, 0, 10).column("sg").to_pylist() == [0]
    with pytest.raises(RulesLoopError, match="returns to a position"):
        game.solve_shard(3, 0, 10)


def test_an_entry_point_adds_a_game(tmp_path, monkeypatch):
    from importlib.metadata import EntryPoint

    import pipeline.rules as rules_module

    # A package's object: a Rules (its options the downright example's, compiled already).
    (tmp_path / "someone_elses_games.py").write_text(textwrap.dedent(f"""\
        from pipeline.rules import Rules, load_rules_file
        _dr = load_rules_file({str(EXAMPLES / "downright_rules.py")!r})[0]
        RULES = Rules("dr_entry", _dr.options)
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    eps = [EntryPoint("dr_entry", "someone_elses_games:RULES", rules_module.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(rules_module, "entry_points",
                        lambda group: eps if group == rules_module.ENTRY_POINT_GROUP else [])
    rules_module.forget_entry_points()
    try:
        assert "dr_entry" in rules_module.known_game_ids()  # named before it is loaded
        game = get_game("dr_entry")
        assert isinstance(game, GenericGame)
        bespoke = get_game("downright").solve_shard(6, 0, 100)
        assert game.solve_shard(6, 0, 100).equals(bespoke)
    finally:
        unregister("dr_entry")
        rules_module.forget_entry_points()


def test_register_refuses_an_id_twice_with_other_rules():
    lctr = rules_of("lctr")
    register(Rules("twice", lctr.options, None, True, "a"))
    try:
        with pytest.raises(ValueError, match="given twice"):
            register(Rules("twice", lctr.options, None, True, "b"))
    finally:
        unregister("twice")


def test_a_rules_game_has_its_view_empty_before_any_record(tmp_path):
    """Registered rules have a SQL view from the start, empty until the game's first commit,
    like the board games'."""
    from pipeline.query import connect
    from pipeline.runner import run

    run(["lctr"], max_n=3, out=str(tmp_path / "r"), jobs=1, progress=False)
    lctr = rules_of("lctr")
    register(Rules("unplayed", lctr.options, None, True, "a"))
    try:
        con = connect(tmp_path / "r")
        assert con.execute("SELECT count(*) FROM unplayed").fetchall() == [(0,)]
        assert "sg" in [r[0] for r in con.execute("DESCRIBE unplayed").fetchall()]
    finally:
        unregister("unplayed")


# ---- the games shipped as rules files: welter and chomp (docs/definitions.md §2.4) ----------

def _cells(lam):
    return {(i, j) for i, row in enumerate(lam) for j in range(row)}


def _rows(cells):
    rows = []
    i = 0
    while any((i, 0) == c for c in cells):
        rows.append(sum(1 for c in cells if c[0] == i))
        i += 1
    return tuple(rows)


def welter_moves(lam):
    """Every rim hook of λ, from the definition: λ/μ for a partition μ ⊂ λ, λ/μ nonempty,
    edge-connected and without a 2×2 square."""
    def inside(k, cap):  # the partitions μ with μ_i <= λ_i, rows k on, parts at most cap
        if k == len(lam):
            yield ()
            return
        # μ_k < λ_{k+1} − 1 would leave the 2×2 square of rows k, k+1 and columns μ_k, μ_k + 1
        # in λ/μ (μ_{k+1} <= μ_k): only those μ are skipped, and the check below still runs
        low = max(0, lam[k + 1] - 1) if k + 1 < len(lam) else 0
        for v in range(min(lam[k], cap), low - 1, -1):
            for rest in inside(k + 1, v) if v else [()]:
                yield (v, *rest)

    big = _cells(lam)
    found = []
    for mu in inside(0, lam[0]) if lam else ():
        if sum(mu) < sum(lam):
            mu = tuple(v for v in mu if v)
            strip = big - _cells(mu)
            if any({(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)} <= strip for i, j in strip):
                continue
            todo, seen = [next(iter(strip))], set()
            while todo:
                i, j = todo.pop()
                if (i, j) in seen:
                    continue
                seen.add((i, j))
                todo += [c for c in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)) if c in strip]
            if seen == strip:
                found.append(mu)
    return tuple(found)


def chomp_moves(lam):
    """Every box (i, j) other than (0, 0), removed with the boxes weakly below and right of it."""
    cells = _cells(lam)
    return tuple(_rows({(a, b) for a, b in cells if not (a >= i and b >= j)})
                 for i, j in sorted(cells) if (i, j) != (0, 0))


def _compare_with_reference(name, moves, max_n):
    import reference

    game = GenericGame(rules_of(name))
    ref = reference.Game(moves)
    for n in range(1, max_n + 1):
        table = game.solve_shard(n, 0, 1 << 18).to_pylist()
        assert [tuple(r["parts"]) for r in table] == sorted(reference.partitions(n), key=lambda x: x[::-1])
        for row in table:
            lam = tuple(row["parts"])
            want = {**ref.record(lam), **reference.features(lam), "n": n, "parts": list(lam)}
            want["conjugate"] = list(want["conjugate"])
            got = {k: row[k] for k in want}
            assert got == want, (name, lam)
    return game


def test_welter_equals_its_reference():
    """Every column of every partition of n <= 14, as for chomp."""
    _compare_with_reference("welter", welter_moves, 14)


def test_chomp_equals_its_reference():
    _compare_with_reference("chomp", chomp_moves, 14)


def _sg(game, lam):
    return game.solve_table([lam]).column("sg").to_pylist()[0]


def test_welter_known_values():
    # A row (n) and a column (1^n) are Nim heaps of n (their rim hooks: the last h boxes);
    # (2,1): options (2), (1,1), () of values 2, 2, 0, so 1. Sato's formula (docs/definitions.md
    # §2.4): sg(λ) is the nim-sum over the boxes of 2^(v+1) − 1, v the 2-adic valuation of the
    # box's hook length.
    from functools import reduce

    import reference

    game = GenericGame(rules_of("welter"))
    assert _sg(game, (2, 1)) == 1
    for n in range(1, 9):
        assert _sg(game, (n,)) == n and _sg(game, (1,) * n) == n
    for n in range(1, 13):
        for lam in reference.partitions(n):
            conj = reference.conjugate(lam)
            hooks = [lam[i] - j + conj[j] - i - 1 for i in range(len(lam)) for j in range(lam[i])]
            want = reduce(lambda a, h: a ^ (h ^ (h - 1)), hooks, 0)
            assert _sg(game, lam) == want, lam


def test_chomp_known_values():
    # A row (n) is a Nim heap of n − 1; a hook (a, 1^b) two heaps a − 1 and b; two-row Chomp's
    # P-positions are (b+1, b) (Zeilberger); every rectangle but (1) is a first-player win
    # (Gale's strategy stealing).
    import reference

    game = GenericGame(rules_of("chomp"))
    for n in range(1, 10):
        assert _sg(game, (n,)) == n - 1
    for a in range(1, 7):
        for b in range(0, 6):
            assert _sg(game, (a,) + (1,) * b) == (a - 1) ^ b
    for n in range(2, 15):
        for lam in reference.partitions(n):
            if len(lam) == 2:
                assert (_sg(game, lam) == 0) == (lam[0] == lam[1] + 1), lam
            if len(set(lam)) == 1:
                assert _sg(game, lam) != 0, lam


def test_the_example_games_statements_hold(tmp_path, capsys):
    # examples/queries/ (docs/rules.md): Gale's and Zeilberger's Chomp and Sato's Welter formula
    # (docs/definitions.md §2.4) on the records of the example rules files, by `verify --rules`
    # (here, where the two files are compiled already; tests/test_rules_verify.py has the rest).
    import json

    files = [str(EXAMPLES / "chomp_rules.py"), str(EXAMPLES / "welter_rules.py")]
    store = str(tmp_path / "st")
    rules = [a for f in files for a in ("--rules", f)]
    try:
        code, _, err = cli(capsys, "run", *rules, "--games", "chomp,welter", "--max-n", "8",
                           "--out", store, "--quiet")
        assert code == 0, err
        code, out, err = cli(capsys, "verify", "--results", store, *rules, "--only", "rules.*",
                             "--format", "json", "--report", "-")
    finally:
        unregister("chomp")
        unregister("welter")
    assert code == 0, err
    res = {r["id"]: r for r in json.loads(out)}
    assert {k: v["status"] for k, v in res.items()} == {"rules.chomp.gale": "holds",
                                                        "rules.welter.sato": "holds"}
    assert res["rules.welter.sato"]["rows"] == sum(partition_numbers(8)[1:])


def test_rules_runs_refuse_what_they_cannot_do(tmp_path, capsys):
    loop = _write(tmp_path, "loop.py", """\
        import numba
        GAME_ID = "loop_cli"
        @numba.njit
        def options(p):
            if len(p) > 1:
                yield p[::-1].copy()
        """)
    out = tmp_path / "st"
    code, _, err = cli(capsys, "run", "--rules", loop, "--games", "loop_cli", "--max-n", "4",
                       "--out", str(out), "--quiet")
    assert code == 2 and "returns to a position" in err and len(err.strip().splitlines()) == 1, err
    # a cluster run ships the rules to the workers (tests/test_cluster.py): here no scheduler
    code, _, err = cli(capsys, "run", "--rules", loop, "--games", "loop_cli", "--max-n", "4",
                       "--out", str(out), "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", "1",
                       "--quiet")
    assert code == 2 and "cannot reach the Dask scheduler" in err.strip().splitlines()[-1], err
    assert not out.exists()
    unregister("loop_cli")


def test_draw_takes_a_rules_game(tmp_path, capsys):
    out = tmp_path / "welter.svg"
    code, text, err = cli(capsys, "draw", "--rules", str(EXAMPLES / "welter_rules.py"), "welter",
                          "3,2,1", "--out", str(out), "--results", str(tmp_path / "none"))
    assert code == 0 and out.stat().st_size > 0, err


def test_run_table_limit_gives_the_same_records(tmp_path, capsys):
    from pipeline.games import generic

    rules = str(EXAMPLES / "king_rules.py")
    try:
        code, _, err = cli(capsys, "run", "--rules", rules, "--games", "king_rules", "--max-n", "8",
                           "--out", str(tmp_path / "a"), "--quiet", "--table-limit", "3")
        assert code == 0, err
        assert GenericGame(load_rules_file(rules)[0]).table_limit == 3  # the games made since
    finally:
        generic.set_table_limit(generic.TABLE_LIMIT)
    code, _, err = cli(capsys, "run", "--rules", rules, "--games", "king_rules", "--max-n", "8",
                       "--out", str(tmp_path / "b"), "--quiet")
    assert code == 0, err
    for n in range(1, 9):
        a = pq.read_table(tmp_path / "a" / "game=king_rules" / f"n={n}", partitioning=None)
        b = pq.read_table(tmp_path / "b" / "game=king_rules" / f"n={n}", partitioning=None)
        assert a.sort_by("ordinal").equals(b.sort_by("ordinal"))
