"""Statements on a rules game's records (docs/rules.md, "Statements"): ``verify --rules FILE``
adds the game's consistency statement (consistency.rules.GAME: every record against its
followers' records, the followers from the rules) and the statements of the ``queries/`` folder
beside the file; ``sql --rules FILE`` has the game's view before its first record."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from harness import cli

from pipeline.rules import unregister

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

#: LCTR's moves (docs/definitions.md §2.1), those of every rules file below.
OPTIONS = """\
    @numba.njit
    def options(p):
        if len(p) > 0:
            yield p[1:]
            q = p - 1
            yield q[q > 0]
    """
LCTR = """\
    import numba
    GAME_ID = "{gid}"

""" + OPTIONS


@pytest.fixture
def ids():
    """Game ids a test registers (through the commands' --rules), forgotten afterwards."""
    made: list[str] = []
    yield made
    for gid in made:
        unregister(gid)


def rules_file(folder: Path, name: str, body: str, gid: str, ids: list[str]) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(body.format(gid=gid)))
    ids.append(gid)
    return str(path)


def partitions(n: int, cap: int | None = None, parts: int | None = None) -> list[tuple[int, ...]]:
    """The partitions of n (parts at most cap, at most ``parts`` of them), by brute force."""
    cap = n if cap is None else cap
    if n == 0:
        return [()]
    if parts == 0:
        return []
    return [(f, *rest) for f in range(min(n, cap), 0, -1)
            for rest in partitions(n - f, f, None if parts is None else parts - 1)]


def run(capsys, store: Path, files: list[str], games: str, max_n: int) -> None:
    args = [a for f in files for a in ("--rules", f)]
    code, _, err = cli(capsys, "run", *args, "--games", games, "--max-n", str(max_n),
                       "--out", str(store), "--quiet")
    assert code == 0, err


def verify(capsys, store: Path, files: list[str], *only: str) -> tuple[int, dict, str]:
    args = [a for f in files for a in ("--rules", f)] + [a for o in only for a in ("--only", o)]
    code, out, err = cli(capsys, "verify", "--results", str(store), *args, "--format", "json",
                         "--report", "-")
    results = {r["id"]: r for r in json.loads(out)} if out.strip() else {}
    return code, results, err


BESIDE = {
    "bound.sql": """\
        -- id: mine.lemma2
        -- source: lctr-some-results.txt, Lemma 2
        -- kind: lemma
        -- statement: Every LCTR value is at most 2.
        -- covers: mine_lctr; every partition
        -- games: mine_lctr
        -- assert: sg <= 2
        """,
    "wrong.sql": """\
        -- id: mine.wrong
        -- source: none: planted
        -- kind: theorem
        -- statement: Every LCTR value is 0 (false: (1) has value 1).
        -- covers: mine_lctr
        -- domain: SELECT n FROM mine_lctr
        SELECT n, parts, sg FROM mine_lctr WHERE sg <> 0
        """,
    "deeper/unplayed.sql": """\
        -- id: mine.unplayed
        -- source: none
        -- kind: conjecture
        -- statement: A game never run has no record.
        -- covers: never_run
        -- domain: SELECT n FROM never_run
        SELECT n FROM never_run
        """,
}
MAX_N = 6
#: mine_some's n: from n = 9 on, a swap position (returnable looks two moves ahead) has a
#: follower whose follower is not a start.
SOME_N = 9


#: Three games of one rules file, both conventions of docs/definitions.md §4 and both kinds of
#: starts: LCTR (every partition, two moves to () from (1)), LCTR on at most three rows with
#: two moves to one position counted once (its own starts, closed under the moves), and LCTR
#: from (1) and the partitions of two rows or more (its own starts, not closed: T(a, b) = (b)).
TWO_GAMES = """\
    import numba
    from pipeline.rules import Rules

""" + OPTIONS + """
    def three_rows(n, cap=None, rows=3):
        cap = n if cap is None else cap
        if n == 0:
            yield ()
        elif rows > 0:
            for first in range(min(n, cap), 0, -1):
                for rest in three_rows(n - first, first, rows - 1):
                    yield (first, *rest)

    def two_rows_or_more(n):  # and (1): a store with no (game, 1) holds no followers
        return [lam for lam in three_rows(n, rows=n) if len(lam) >= 2 or n == 1]

    RULES = [Rules("mine_lctr", options), Rules("mine_once", options, three_rows, False),
             Rules("mine_some", options, two_rows_or_more)]
    """


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A store of the games of :data:`TWO_GAMES`, n <= 6 (mine_some n <= 9), with statements
    beside their file."""
    from pipeline.rules import load_rules_file, register
    from pipeline.runner import run as run_games

    folder = tmp_path_factory.mktemp("mine")
    (folder / "mine.py").write_text(textwrap.dedent(TWO_GAMES))
    for name, text in BESIDE.items():
        (folder / "queries" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "queries" / name).write_text(textwrap.dedent(text))
    files = [str(folder / "mine.py")]
    for r in load_rules_file(files[0]):
        register(r)
    root = folder / "st"
    run_games(["mine_lctr", "mine_once"], max_n=MAX_N, out=str(root), jobs=1, progress=False)
    run_games(["mine_some"], max_n=SOME_N, out=str(root), jobs=1, progress=False)
    yield root, files
    for gid in ("mine_lctr", "mine_once", "mine_some", "never_run"):
        unregister(gid)


def test_a_rules_game_store_checks_itself(store, capsys):
    root, files = store
    code, res, err = verify(capsys, root, files, "consistency.rules.*")
    assert code == 0, err
    assert set(res) == {f"consistency.rules.{g}" for g in ("mine_lctr", "mine_once", "mine_some")}
    mine, once = res["consistency.rules.mine_lctr"], res["consistency.rules.mine_once"]
    assert mine["status"] == "holds" and mine["skipped"] == 0
    assert mine["rows"] == sum(len(partitions(n)) for n in range(1, MAX_N + 1))
    assert once["status"] == "holds" and once["skipped"] == 0
    assert once["rows"] == sum(len(partitions(n, parts=3)) for n in range(1, MAX_N + 1))
    # a follower that is not a start has no record: its record is skipped, never failed
    some = res["consistency.rules.mine_some"]
    starts = 1 + sum(len(partitions(n)) - 1 for n in range(2, SOME_N + 1))  # all but (n), n > 1
    assert some["status"] == "holds" and some["rows"] > 0 and some["skipped"] > 0
    assert some["rows"] + some["skipped"] == starts


@pytest.mark.parametrize("planted", ["other moves", "moves counted twice"])
def test_records_that_do_not_follow_the_rules_fail(store, planted):
    # The store's records read with other rules of the same id (Downright's options for LCTR's
    # records, or mine_once's two moves from (1) to () counted as two edges): the consistency
    # statement must find them wrong. (With their own rules they hold, above.)
    from pipeline.rules import Rules, find_rules, load_rules_file, register
    from pipeline.rules_verify import consistency_statement
    from pipeline.verify import verify as run_verify

    root, _ = store
    if planted == "other moves":
        dr = load_rules_file(EXAMPLES / "downright_rules.py")[0]
        other, wrong = Rules("mine_lctr", dr.options, None, True, "other"), "sg"
    else:
        once = find_rules("mine_once")
        assert once.multi_edges is False
        other, wrong = Rules("mine_once", once.options, once.starts, True, "other"), "nodes"
    mine = find_rules(other.game_id)
    register(other, replace=True)
    try:
        (r,) = run_verify(root, [f"consistency.rules.{other.game_id}"],
                          extra=[consistency_statement(other)])
    finally:
        register(mine, replace=True)
    assert r.status == "fails" and r.counterexamples > 0 and r.breaks
    assert any(wrong in ex["wrong"] for ex in r.examples), r.examples


def test_statements_beside_a_rules_file(store, capsys):
    root, files = store
    code, res, err = verify(capsys, root, files[:1], "mine.*")
    assert code == 1, err  # mine.wrong fails
    assert res["mine.lemma2"]["status"] == "holds"
    assert res["mine.lemma2"]["rows"] == sum(len(partitions(n)) for n in range(1, MAX_N + 1))
    assert res["mine.wrong"]["status"] == "fails"
    assert res["mine.wrong"]["examples"][0]["parts"] == [1]
    assert res["mine.unplayed"]["status"] == "no data"  # in a folder below, about no records
    # without --rules, the statements beside the file are not the catalogue's
    code, res, err = verify(capsys, root, [], "mine.*")
    assert code == 2 and "matches no statement" in err


def test_sql_rules_has_the_view_before_the_first_record(store, capsys):
    root, _ = store
    other = str(EXAMPLES / "downright_rules.py")
    try:
        code, out, err = cli(capsys, "sql", "--results", str(root), "--rules", other, "--format", "csv",
                             "SELECT count(*) AS k FROM downright_rules")
        assert code == 0 and out.split() == ["k", "0"], err
        code, out, err = cli(capsys, "sql", "--results", str(root), "--rules", other, "--format", "csv",
                             "SELECT rules_options('downright_rules', [2, 1]) AS o")
        assert code == 0 and out.split("\n")[1] == '"[[1],[1]]"', out
    finally:
        unregister("downright_rules")


def test_options_that_are_not_partitions_are_not_checked(tmp_path, capsys, ids):
    # A position that is not a partition has no record: the records whose options are such
    # positions are skipped, never counted as holding.
    path = rules_file(tmp_path / "a", "marked.py", """\
        import numba
        GAME_ID = "{gid}"

        @numba.njit
        def options(p):
            if len(p) > 0 and p[0] > 0:
                yield -p  # the parts negated: a position of the game, not a partition
        """, "marked", ids)
    store = tmp_path / "st"
    run(capsys, store, [path], "marked", 5)
    code, res, err = verify(capsys, store, [path], "consistency.rules.marked")
    r = res["consistency.rules.marked"]
    assert code == 0 and r["status"] == "no data", (err, r)
    assert r["rows"] == 0 and r["skipped"] == sum(len(partitions(n)) for n in range(1, 6))


def test_bad_input_to_verify_rules_is_one_line(tmp_path, capsys, ids):
    folder = tmp_path / "mine"
    path = rules_file(folder, "mine.py", LCTR, "bad_beside", ids)
    store = tmp_path / "st"
    run(capsys, store, [path], "bad_beside", 2)
    report = tmp_path / "R.md"
    for args, says in [
        (["--rules", str(tmp_path / "missing.py")], "missing.py"),
    ]:
        code, _, err = cli(capsys, "verify", "--results", str(store), *args, "--report", str(report))
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    (folder / "queries").mkdir()
    (folder / "queries" / "broken.sql").write_text("-- id: broken\nSELECT 1\n")
    code, _, err = cli(capsys, "verify", "--results", str(store), "--rules", path, "--report", str(report))
    assert code == 2 and "broken.sql" in err and len(err.strip().splitlines()) == 1, err
    assert not report.exists()


def test_verify_names_the_rules_games_it_did_not_check(store, tmp_path, capsys):
    # A store's rules games whose rules verify was not given are checked against nothing: said
    # in the summary, as are records computed by other rules than those given (the file edited).
    root, files = store
    code, out, err = cli(capsys, "verify", "--results", str(root), "--only", "consistency.lctr",
                         "--report", "-")
    assert code == 0, err
    for game in ("mine_lctr", "mine_once", "mine_some"):
        assert f"rules game {game} (mine.py sha256:" in out and f"adds consistency.rules.{game}" in out
    code, out, err = cli(capsys, "verify", "--results", str(root), "--rules", files[0],
                         "--only", "consistency.lctr", "--report", "-")
    assert code == 0 and "rules game" not in out, out
    edited = tmp_path / "mine.py"  # the same games, the file since edited (a comment)
    edited.write_text(Path(files[0]).read_text() + "# edited\n")
    for gid in ("mine_lctr", "mine_once", "mine_some"):
        unregister(gid)
    try:
        code, out, err = cli(capsys, "verify", "--results", str(root), "--rules", str(edited),
                             "--only", "consistency.rules.mine_lctr", "--report", "-")
    finally:
        from pipeline.rules import load_rules_file, register

        for gid in ("mine_lctr", "mine_once", "mine_some"):
            unregister(gid)
        for r in load_rules_file(files[0]):
            register(r)
    assert code == 0, err
    line = [x for x in out.splitlines() if "rules game mine_lctr" in x]
    assert line and "were computed by mine.py sha256:" in line[0] and "checked against mine.py" in line[0]


def test_verify_rules_on_a_cluster_equals_a_local_verify(store, tmp_path, capsys):
    """A real scheduler and two workers (processes): `verify --rules FILE --scheduler` gives what
    a local `verify --rules FILE` gives, statement by statement: the workers get the rules
    file's text and the statements it adds (the consistency statements, those beside it: a
    fusable one in the shared scan, a failing one, one about a game with no records)."""
    pytest.importorskip("distributed")
    from test_cluster import Cluster

    root, files = store
    args = ["--results", str(root), "--rules", files[0], "--only", "consistency.rules.*",
            "--only", "mine.*", "--only", "lctr1.lemma2", "--format", "json"]
    code, out, err = cli(capsys, "verify", *args, "--report", "-")
    local = json.loads(out)
    cluster = Cluster(tmp_path)
    try:
        cluster.add_worker()
        cluster.add_worker()
        cluster.wait_for_workers(2)
        code2, out2, err2 = cli(capsys, "verify", *args, "--report", "-", "--scheduler", cluster.address)
    finally:
        cluster.stop()
    remote = json.loads(out2)
    assert code == code2 == 1, (err, err2)  # mine.wrong fails, on both

    def key(r: dict) -> dict:
        return {k: r.get(k) for k in ("id", "status", "rows", "min_n", "max_n", "counterexamples",
                                      "printed_counterexamples", "examples", "skipped", "error")}

    assert [key(r) for r in remote] == [key(r) for r in local]
    got = {r["id"]: r["status"] for r in remote}
    assert got == {"consistency.rules.mine_lctr": "holds", "consistency.rules.mine_once": "holds",
                   "consistency.rules.mine_some": "holds", "lctr1.lemma2": "no data",
                   "mine.lemma2": "holds", "mine.unplayed": "no data", "mine.wrong": "fails"}
