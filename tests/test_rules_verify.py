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

LCTR = """\
    import numba
    GAME_ID = "{gid}"

    @numba.njit
    def options(p):
        if len(p) > 0:
            yield p[1:]
            q = p - 1
            yield q[q > 0]
    """
#: Downright (docs/definitions.md §2.1): LCTR's moves, but never to ().
DOWNRIGHT = """\
    import numba
    GAME_ID = "{gid}"

    @numba.njit
    def options(p):
        if len(p) > 1:
            yield p[1:]
        q = p - 1
        if q[0] > 0:
            yield q[q > 0]
    """


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


def test_a_rules_game_store_checks_itself(tmp_path, capsys, ids):
    # Both conventions of docs/definitions.md §4 and both kinds of starts: LCTR (every partition,
    # two moves to () from (1)) and SN(4,{3}) (its own starts, distinct multisets are the moves).
    lctr = rules_file(tmp_path / "a", "mine.py", LCTR, "mine_lctr", ids)
    slow = str(EXAMPLES / "slownim_4_3_rules.py")
    ids.append("slow_4_3")
    store = tmp_path / "st"
    run(capsys, store, [lctr, slow], "mine_lctr,slow_4_3", 7)
    code, res, err = verify(capsys, store, [lctr, slow], "consistency.rules.*")
    assert code == 0, err
    assert set(res) == {"consistency.rules.mine_lctr", "consistency.rules.slow_4_3"}
    mine, sn = res["consistency.rules.mine_lctr"], res["consistency.rules.slow_4_3"]
    assert mine["status"] == "holds" and mine["skipped"] == 0
    assert mine["rows"] == sum(len(partitions(n)) for n in range(1, 8))
    assert sn["status"] == "holds" and sn["skipped"] == 0
    assert sn["rows"] == sum(len(partitions(n, parts=4)) for n in range(1, 8))


@pytest.mark.parametrize("planted", ["other moves", "moves counted twice"])
def test_records_that_do_not_follow_the_rules_fail(tmp_path, capsys, ids, planted):
    # The store holds the records of one game; verify reads them with other rules of the same id:
    # the consistency statement must find them wrong. (Each rules file alone holds, above.)
    if planted == "other moves":
        made = rules_file(tmp_path / "a", "g.py", LCTR, "planted", ids)
        other = rules_file(tmp_path / "b", "g.py", DOWNRIGHT, "planted", ids)
        wrong = "sg"
    else:  # SN(4,{3}) read with two moves to one multiset as two edges: nodes and leaves differ
        made = str(EXAMPLES / "slownim_4_3_rules.py")
        ids.append("slow_4_3")
        text = Path(made).read_text().replace("MULTI_EDGES = False", "MULTI_EDGES = True")
        assert "MULTI_EDGES = True" in text
        (tmp_path / "b").mkdir()
        other = str(tmp_path / "b" / "slow.py")
        Path(other).write_text(text)
        wrong = "nodes"
    store = tmp_path / "st"
    gid = ids[-1]
    run(capsys, store, [made], gid, 7)
    unregister(gid)  # this process ran it: another file of the same id is then refused
    code, res, err = verify(capsys, store, [other], f"consistency.rules.{gid}")
    assert code == 1, err
    r = res[f"consistency.rules.{gid}"]
    assert r["status"] == "fails" and r["counterexamples"] > 0
    assert any(wrong in ex["wrong"] for ex in r["examples"]), r["examples"]


def test_options_that_are_not_partitions_are_not_checked(tmp_path, capsys, ids):
    # A position carrying more than its parts (a marker before them) has no record: the records
    # whose options are such positions are skipped, never counted as holding.
    path = rules_file(tmp_path / "a", "marked.py", """\
        import numba
        import numpy as np
        GAME_ID = "{gid}"

        @numba.njit
        def options(p):
            if len(p) > 0 and p[0] >= 0:
                q = np.empty(len(p), np.int64)
                q[0] = -1
                q[1:] = p[1:]
                yield q
            elif len(p) > 1:
                yield p[1:].copy()
        """, "marked", ids)
    store = tmp_path / "st"
    run(capsys, store, [path], "marked", 5)
    code, res, err = verify(capsys, store, [path], "consistency.rules.marked")
    r = res["consistency.rules.marked"]
    assert code == 0 and r["status"] == "no data", (err, r)
    assert r["rows"] == 0 and r["skipped"] == sum(len(partitions(n)) for n in range(1, 6))


def test_statements_beside_a_rules_file(tmp_path, capsys, ids):
    folder = tmp_path / "mine"
    path = rules_file(folder, "mine.py", LCTR, "beside", ids)
    (folder / "queries").mkdir()
    (folder / "queries" / "bound.sql").write_text(textwrap.dedent("""\
        -- id: beside.lemma2
        -- source: lctr-some-results.txt, Lemma 2
        -- kind: lemma
        -- statement: Every LCTR value is at most 2.
        -- covers: beside; every partition
        -- games: beside
        -- assert: sg <= 2
        """))
    (folder / "queries" / "wrong.sql").write_text(textwrap.dedent("""\
        -- id: beside.wrong
        -- source: none: planted
        -- kind: theorem
        -- statement: Every LCTR value is 0 (false: (1) has value 1).
        -- covers: beside
        -- domain: SELECT n FROM beside
        SELECT n, parts, sg FROM beside WHERE sg <> 0
        """))
    (folder / "queries" / "unplayed.sql").write_text(textwrap.dedent("""\
        -- id: beside.unplayed
        -- source: none
        -- kind: conjecture
        -- statement: A game never run has no record.
        -- covers: never_run
        -- domain: SELECT n FROM never_run
        SELECT n FROM never_run
        """))
    ids.append("never_run")
    store = tmp_path / "st"
    run(capsys, store, [path], "beside", 6)
    code, res, err = verify(capsys, store, [path], "beside.*", "consistency.rules.*")
    assert code == 1, err  # beside.wrong fails
    assert res["beside.lemma2"]["status"] == "holds"
    assert res["beside.lemma2"]["rows"] == sum(len(partitions(n)) for n in range(1, 7))
    assert res["beside.wrong"]["status"] == "fails"
    assert res["beside.wrong"]["examples"][0]["parts"] == [1]
    assert res["beside.unplayed"]["status"] == "no data"
    assert res["consistency.rules.beside"]["status"] == "holds"
    # without --rules, the statements beside the file are not the catalogue's
    code, res, err = verify(capsys, store, [], "beside.*")
    assert code == 2 and "matches no statement" in err


def test_the_example_games_statements_hold(tmp_path, capsys, ids):
    # examples/queries/: Gale's and Zeilberger's Chomp and Sato's Welter formula
    # (docs/definitions.md §2.4) on the records of the example rules files.
    files = [str(EXAMPLES / "chomp_rules.py"), str(EXAMPLES / "welter_rules.py")]
    ids += ["chomp", "welter"]
    store = tmp_path / "st"
    run(capsys, store, files, "chomp,welter", 8)
    code, res, err = verify(capsys, store, files, "rules.*")
    assert code == 0, err
    assert {k: v["status"] for k, v in res.items()} == {"rules.chomp.gale": "holds",
                                                        "rules.welter.sato": "holds"}
    assert res["rules.welter.sato"]["rows"] == sum(len(partitions(n)) for n in range(1, 9))


def test_a_rules_game_view_exists_before_its_first_record(tmp_path, capsys, ids):
    path = rules_file(tmp_path / "a", "mine.py", LCTR, "unrun", ids)
    store = tmp_path / "st"
    run(capsys, store, [path], "unrun", 2)
    unregister("unrun")
    other = rules_file(tmp_path / "b", "other.py", LCTR, "not_yet", ids)
    code, out, err = cli(capsys, "sql", "--results", str(store), "--rules", other, "--format", "csv",
                         "SELECT count(*) AS k FROM not_yet")
    assert code == 0 and out.split() == ["k", "0"], err
    code, out, err = cli(capsys, "sql", "--results", str(store), "--rules", other, "--format", "csv",
                         "SELECT rules_options('not_yet', [2, 1]) AS o")
    assert code == 0 and out.split("\n")[1] == '"[[1],[1]]"', out


def test_bad_input_to_verify_rules_is_one_line(tmp_path, capsys, ids):
    folder = tmp_path / "mine"
    path = rules_file(folder, "mine.py", LCTR, "bad_beside", ids)
    store = tmp_path / "st"
    run(capsys, store, [path], "bad_beside", 2)
    report = tmp_path / "R.md"
    for args, says in [
        (["--rules", str(tmp_path / "missing.py")], "missing.py"),
        (["--rules", path, "--scheduler", "tcp://127.0.0.1:1"], "leave out --scheduler"),
    ]:
        code, _, err = cli(capsys, "verify", "--results", str(store), *args, "--report", str(report))
        assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    (folder / "queries").mkdir()
    (folder / "queries" / "broken.sql").write_text("-- id: broken\nSELECT 1\n")
    code, _, err = cli(capsys, "verify", "--results", str(store), "--rules", path, "--report", str(report))
    assert code == 2 and "broken.sql" in err and len(err.strip().splitlines()) == 1, err
    assert not report.exists()
