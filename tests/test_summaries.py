"""Summaries of every (game, n) and ``run --keep`` (pipeline/summaries.py, pipeline/keep.py).

The summaries of a ``--keep none`` run (no record written, many shards merged) must equal the
same aggregates computed by SQL over a full run's records, field by field; the expected values
come from the records alone (DuckDB's own ordering of lists, counts and minima), not from the
summary code.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from pipeline import runner
from pipeline.games import BOARD_GAMES
from pipeline.query import connect
from pipeline.runner import RunError, run
from pipeline.schema import FLAG_NAMES, SUMMARY_MEASURES

MAX_N = 30
GAMES = list(BOARD_GAMES) + ["sn3_2", "sn4_3-4"]
OLD_SEARCHES = Path(__file__).parent / "search_on_records"


@pytest.fixture(scope="module")
def full_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("full") / "results"
    run(GAMES, max_n=MAX_N, out=str(root), jobs=2, progress=False)
    return root


@pytest.fixture(scope="module")
def summary_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Summaries only, in shards of at most 700 records (n ≥ 19 has several to merge)."""
    root = tmp_path_factory.mktemp("none") / "results"
    run(GAMES, max_n=MAX_N, out=str(root), jobs=2, progress=False, keep="none", max_records=700)
    return root


def _rows(con: duckdb.DuckDBPyConnection, query: str) -> list[dict]:
    return con.sql(query).to_arrow_table().to_pylist()


def expected_summaries(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, int], dict]:
    """Every field of the ``summaries`` view, computed by SQL from the records."""
    out = {(r["game"], r["n"]): r for r in _rows(con, """
        SELECT game, n, count(*) AS records,
            count(*) FILTER (WHERE sg = 0) AS p_positions,
            count(*) FILTER (WHERE sg_misere = 0) AS misere_p_positions,
            count(*) FILTER (WHERE sg = 0 AND sg_misere = 0) AS p_in_both,
            count(*) FILTER (WHERE nodes IS NULL OR leaves IS NULL) AS overflow_records
        FROM records GROUP BY game, n""")}
    for r in _rows(con, """
        SELECT game, n, list({'sg': sg, 'sg_misere': sg_misere, 'records': c} ORDER BY sg, sg_misere) AS pairs
        FROM (SELECT game, n, sg, sg_misere, count(*) AS c FROM records GROUP BY ALL)
        GROUP BY game, n"""):
        out[(r["game"], r["n"])]["pairs"] = r["pairs"]
    mask = " + ".join(f"{name}::INTEGER * {1 << k}" for k, name in enumerate(FLAG_NAMES))
    flags = ", ".join(FLAG_NAMES)
    for r in _rows(con, f"""
        SELECT game, n, list({{{', '.join(f"'{f}': {f}" for f in FLAG_NAMES)}, 'records': c,
                             'first': first, 'first_sg': w.sg, 'first_sg_misere': w.sg_misere}}
                            ORDER BY mask) AS regions
        FROM (SELECT game, n, {flags}, {mask} AS mask, count(*) AS c, min(parts) AS first,
                     arg_min({{'sg': sg, 'sg_misere': sg_misere}}, parts) AS w
              FROM records GROUP BY ALL)
        GROUP BY game, n"""):
        out[(r["game"], r["n"])]["regions"] = r["regions"]
    for m in SUMMARY_MEASURES:
        for r in _rows(con, f"""
            WITH e AS (SELECT game, n, min({m}) AS lo, max({m}) AS hi FROM records GROUP BY game, n)
            SELECT r.game, r.n, any_value(e.lo) AS lo, any_value(e.hi) AS hi,
                count(*) FILTER (WHERE r.{m} = e.lo) AS lo_count,
                count(*) FILTER (WHERE r.{m} = e.hi) AS hi_count,
                coalesce(list_sort(list(r.parts) FILTER (WHERE r.{m} = e.lo), 'DESC')[:20], []) AS lo_at,
                coalesce(list_sort(list(r.parts) FILTER (WHERE r.{m} = e.hi), 'DESC')[:20], []) AS hi_at,
                min(r.{m}) FILTER (WHERE r.{m} > e.lo) AS lo_next,
                max(r.{m}) FILTER (WHERE r.{m} < e.hi) AS hi_next
            FROM records AS r JOIN e ON e.game = r.game AND e.n = r.n
            GROUP BY r.game, r.n"""):
            row = out[(r["game"], r["n"])]
            for side, key in (("min", "lo"), ("max", "hi")):
                row[f"{side}_{m}"] = r[key]
                row[f"{side}_{m}_count"] = r[f"{key}_count"]
                row[f"{side}_{m}_at"] = r[f"{key}_at"]
                row[f"{side}_{m}_next"] = r[f"{key}_next"]
    return out


def mismatches(summaries: list[dict], expected: dict[tuple[str, int], dict]) -> list[tuple]:
    """(game, n, field, summary's value, expected value) for every field that differs."""
    found = []
    got = {(r["game"], r["n"]): r for r in summaries}
    for key in sorted(set(got) | set(expected)):
        if key not in got or key not in expected:
            found.append((*key, "row", key in got, key in expected))
            continue
        for field, want in expected[key].items():
            if got[key][field] != want:
                found.append((*key, field, got[key][field], want))
    return found


def test_summaries_equal_sql_over_the_records(full_store: Path, summary_store: Path) -> None:
    expected = expected_summaries(connect(full_store))
    assert len(expected) == len(GAMES) * MAX_N
    summaries = _rows(connect(summary_store), "FROM summaries")
    assert mismatches(summaries, expected) == []
    # the full run's own summaries too (one shard per (game, n) there)
    assert mismatches(_rows(connect(full_store), "FROM summaries"), expected) == []
    # fields that tell the two runs apart
    kept = {(r["kept"], r["kept_records"] == 0) for r in summaries}
    assert kept == {("none", True)}


def test_keep_none_writes_no_record(summary_store: Path) -> None:
    assert not list(summary_store.rglob("*.parquet"))
    assert not list(summary_store.rglob("*.staged"))
    con = connect(summary_store)
    assert con.sql("SELECT count(*) FROM records").fetchall()[0] == (0,)
    jobs = con.sql("SELECT count(*), sum(records), sum(kept_records), sum(bytes) FROM jobs").fetchall()[0]
    assert jobs == (len(GAMES) * MAX_N, con.sql("SELECT sum(records) FROM summaries").fetchall()[0][0], 0, 0)
    # the record contract's own reading finds no file at all
    with pytest.raises(duckdb.IOException):
        duckdb.sql(f"SELECT count(*) FROM read_parquet('{summary_store}/**/*.parquet', "
                   "hive_partitioning = true)").fetchall()


def test_keep_condition_keeps_exactly_the_p_positions(full_store: Path, tmp_path: Path) -> None:
    root = tmp_path / "p"
    games = ["lctr", "king", "sn3_2"]
    run(games, max_n=22, out=str(root), jobs=2, progress=False, keep="sg = 0", max_records=300)
    kept = connect(root)
    full = connect(full_store)
    cols = "game, n, parts, sg, sg_misere, nodes, leaves, states, height, " + ", ".join(FLAG_NAMES)
    want = full.sql(f"SELECT {cols} FROM records WHERE sg = 0 AND n <= 22 AND game IN "
                    f"{tuple(games)} ORDER BY ALL").fetchall()
    assert kept.sql(f"SELECT {cols} FROM records ORDER BY ALL").fetchall() == want
    assert len(want) > 100
    # the summaries still cover every record, and jobs says what each (game, n) kept
    jobs = kept.sql("SELECT sum(records), sum(kept_records), min(kept), max(kept) FROM jobs").fetchall()[0]
    assert jobs == (
        full.sql(f"SELECT count(*) FROM records WHERE n <= 22 AND game IN {tuple(games)}").fetchall()[0][0],
        len(want), "sg = 0", "sg = 0")
    expected = {k: v for k, v in expected_summaries(full).items() if k[0] in games and k[1] <= 22}
    got = _rows(kept, "FROM summaries")
    assert mismatches(got, expected) == []


@pytest.mark.parametrize("name", ["p_positions_per_n", "max_nodes_leaves", "min_states", "cgh_regions",
                                  "conjecture27"])
def test_searches_from_summaries_equal_the_records(name: str, full_store: Path, summary_store: Path) -> None:
    """Each search reads the summaries; on a store without records it gives the table the same
    question asked of the records gives (``search_on_records/``: the queries over records)."""
    from pipeline.search import search_files

    search = search_files()[name].read_text()
    assert "FROM summaries" in search and "FROM records" not in search
    on_records = (OLD_SEARCHES / f"{name}.sql").read_text()
    if name == "cgh_regions":  # the same regions table and final SELECT, other counts
        on_records = (on_records + search[search.index("regions(class1"):]).replace(
            "FROM summaries", "FROM records")
    want = connect(full_store).sql(on_records).fetchall()
    assert len(want) > 0
    assert connect(summary_store).sql(search).fetchall() == want


def test_a_wrong_maximum_in_one_shard_is_caught(full_store: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Plant a maximum of nodes one too large in the summary of the shard holding the
    maximum of king at n = 24: the comparison names that (game, n) and its maximum of nodes,
    and nothing else."""
    expected = {k: v for k, v in expected_summaries(connect(full_store)).items()
                if k[0] == "king" and 23 <= k[1] <= 25}
    top = expected[("king", 24)]["max_nodes"]
    real = runner.summarize_table
    planted = []

    def plant(table):
        summary = real(table)
        if not planted and summary["extremes"]["nodes"]["max"] == top and table.column("n")[0].as_py() == 24:
            summary["extremes"]["nodes"]["max"] += 1
            planted.append(True)
        return summary

    monkeypatch.setattr(runner, "summarize_table", plant)
    root = tmp_path / "planted"
    run(["king"], min_n=23, max_n=25, out=str(root), jobs=1, progress=False, keep="none", max_records=300)
    assert planted
    found = mismatches(_rows(connect(root), "FROM summaries"), expected)
    # the wrong maximum, and what follows from it (its count, partitions and runner-up)
    assert {(g, n) for g, n, *_ in found} == {("king", 24)}
    fields = {f for _, _, f, *_ in found}
    assert "max_nodes" in fields
    assert fields <= {"max_nodes", "max_nodes_count", "max_nodes_at", "max_nodes_next"}


def _partgames(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


@pytest.mark.parametrize("keep, message", [
    ("sg +", "not a SQL expression over the records' columns (syntax error"),
    ("no_such_column = 1", "not a SQL expression over the records' columns"),
    ("sg", "not a boolean expression"),
    ("true; DROP TABLE x", "a ';' ends the statement"),
    ("", "--keep is empty"),
])
def test_bad_keep_is_one_line_before_solving(keep: str, message: str, tmp_path: Path) -> None:
    done = _partgames("run", "--games", "lctr", "--max-n", "3", "--keep", keep, "--quiet",
                      "--out", str(tmp_path / "r"), cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], done.stderr
    assert not list(tmp_path.rglob("game=*"))


def test_a_slownim_column_is_known_to_slownim_games_only(tmp_path: Path) -> None:
    with pytest.raises(RunError, match="odd_stacks"):
        run(["lctr", "sn3_2"], max_n=3, out=str(tmp_path / "r"), progress=False, keep="odd_stacks = 0")
    run(["sn3_2"], max_n=3, out=str(tmp_path / "r"), progress=False, keep="odd_stacks = 0")


def test_another_keep_over_a_complete_job_needs_force(tmp_path: Path) -> None:
    root = tmp_path / "r"
    run(["lctr"], max_n=6, out=str(root), progress=False, keep="none")
    before = {p: p.read_bytes() for p in root.rglob("_complete.json")}
    with pytest.raises(RunError, match=r"n=1 is complete with --keep 'none', not 'all': pass --force"):
        run(["lctr"], max_n=6, out=str(root), progress=False)
    assert {p: p.read_bytes() for p in root.rglob("_complete.json")} == before
    run(["lctr"], max_n=6, out=str(root), progress=False, keep="none")  # the same --keep: nothing to do
    run(["lctr"], max_n=6, out=str(root), progress=False, force=True)
    con = connect(root)
    assert con.sql("SELECT count(*), min(kept) FROM jobs").fetchall()[0] == (6, "all")
    assert con.sql("SELECT count(*) FROM records").fetchall()[0] == (29,)  # p(1) + … + p(6)


def test_verify_reads_only_wholly_kept_jobs(tmp_path: Path) -> None:
    """A summaries-only or filtered (game, n) is never read by a statement: a store of them
    gives `no data` everywhere and says why; with whole (game, n) beside them, only those count."""
    root = tmp_path / "r"
    run(["lctr"], max_n=8, out=str(root), progress=False, keep="sg = 0")
    done = _partgames("verify", "--only", "lctr1.*", "--results", str(root), "--report", "-", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    statuses = [line.split()[2] for line in done.stdout.splitlines() if line.startswith("lctr1.")]
    assert statuses and set(statuses) == {"NO"}  # "NO DATA"
    assert ("skipped 8 (game, n) of lctr (n 1..8): only the records of --keep 'sg = 0' were kept"
            in done.stdout)
    run(["lctr"], max_n=4, out=str(root), progress=False, force=True)  # n ≤ 4 whole again
    from pipeline.verify import verify

    results = {r.id: r for r in verify(root, ["lctr1.*"])}
    assert any(r.status == "holds" for r in results.values())
    assert all(r.max_n is None or r.max_n <= 4 for r in results.values())


def test_check_adopt_summarises_jobs_committed_without_a_summary(full_store: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture) -> None:
    """A (game, n) committed by an older partgames has no summary: the views say so, and
    `check --adopt` gives it the summary of its records (equal to the one a run writes)."""
    import json
    import shutil

    from pipeline.cli import main
    from pipeline.storage import COMPLETE, record_checksum

    root = tmp_path / "old"
    shutil.copytree(full_store, root)
    job = root / "game=queen" / "n=17"
    record = json.loads((job / COMPLETE).read_text())
    summary = record.pop("summary")
    record["checksum"] = record_checksum(record)
    (job / COMPLETE).write_text(json.dumps(record))
    warnings: list[str] = []
    con = connect(root, on_damage=warnings.append)
    assert con.sql("SELECT count(*) FROM summaries WHERE game = 'queen' AND n = 17").fetchall() == [(0,)]
    assert warnings == ["partgames: warning: 1 (game, n) have no summary (an older partgames committed "
                        "them); `partgames check --adopt` adds them"]
    assert main(["check", "--adopt", "--results", str(root)]) == 0
    assert "summarised 1 (game, n) committed without a summary" in capsys.readouterr().out
    assert json.loads((job / COMPLETE).read_text())["summary"] == summary


def test_an_interrupted_keep_none_run_resumes_to_the_same_summaries(full_store: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Killed in the middle of a (game, n), a summaries-only run keeps its finished shards'
    summaries in staging and the rerun solves only the others: the summaries equal SQL over
    the full run's records, and every shard was solved once."""
    real = runner.stage_shard
    calls = {"n": 0}

    def dying(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 40:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    root = tmp_path / "r"
    monkeypatch.setattr(runner, "stage_shard", dying)
    with pytest.raises(KeyboardInterrupt):
        run(["lctr", "knight"], min_n=22, max_n=24, out=str(root), jobs=1, progress=False, keep="none",
            max_records=60)
    monkeypatch.setattr(runner, "stage_shard", real)
    assert list((root / ".staging").rglob("part-*.json")), "finished shards' summaries wait in staging"
    again = run(["lctr", "knight"], min_n=22, max_n=24, out=str(root), jobs=1, progress=False, keep="none",
                max_records=60)
    assert again.records < 2 * sum(connect(full_store).sql(
        "SELECT count(*) FROM lctr WHERE n BETWEEN 22 AND 24").fetchall()[0])
    expected = {k: v for k, v in expected_summaries(connect(full_store)).items()
                if k[0] in ("lctr", "knight") and 22 <= k[1] <= 24}
    assert mismatches(_rows(connect(root), "FROM summaries"), expected) == []


def test_a_summaries_only_run_is_estimated_to_write_its_commit_records(tmp_path: Path) -> None:
    """The free-space check counts the records a run writes: none for --keep none (its commit
    records only), at most all of them for a condition."""
    from pipeline.games import get_game
    from pipeline.keep import KeepFilter
    from pipeline.partitions import partition_numbers
    from pipeline.storage import Store

    store = Store.open(tmp_path / "r")
    jobs = [(get_game("lctr"), 121), (get_game("downright"), 121)]
    records, size = runner.estimate(store, jobs, KeepFilter("none"))
    assert records == 2 * partition_numbers(121)[121] and size == 2 * runner.COMMIT_RECORD_BYTES
    _, everything = runner.estimate(store, jobs)
    assert everything == runner.estimate(store, jobs, KeepFilter("sg = 0"))[1]
    p121 = partition_numbers(121)[121]
    shards = -(-p121 // runner.MAX_SHARD_RECORDS)
    assert everything == 2 * (int(p121 * runner.BOARD_RECORD_BYTES) + shards * runner.SHARD_FILE_BYTES
                              + runner.COMMIT_RECORD_BYTES)


def _summary_by_python(rows: list[dict]) -> dict:
    """The summary of records, straight from the module docstring's definitions."""
    pairs: dict[tuple[int, int], int] = {}
    regions: dict[int, list] = {}
    for r in rows:
        pairs[(r["sg"], r["sg_misere"])] = pairs.get((r["sg"], r["sg_misere"]), 0) + 1
        mask = sum(1 << k for k, name in enumerate(FLAG_NAMES) if r[name])
        region = regions.setdefault(mask, [mask, 0, r["parts"], r["sg"], r["sg_misere"]])
        region[1] += 1
        if r["parts"] < region[2]:
            region[2:] = [r["parts"], r["sg"], r["sg_misere"]]
    extremes = {}
    for m in SUMMARY_MEASURES:
        values = sorted({r[m] for r in rows if r[m] is not None})
        entry = {}
        for side, best, inward in (("min", values[0], values[1:2]), ("max", values[-1], values[-2:-1])):
            at = sorted((r["parts"] for r in rows if r[m] == best), reverse=True)
            entry.update({side: best, f"{side}_count": len(at), f"{side}_at": at[:20],
                          f"{side}_next": inward[0] if inward else None})
        extremes[m] = entry
    return {"records": len(rows), "overflow": sum(r["nodes"] is None or r["leaves"] is None for r in rows),
            "pairs": [[s, m, c] for (s, m), c in sorted(pairs.items())],
            "regions": [regions[mask] for mask in sorted(regions)], "extremes": extremes}


@pytest.mark.parametrize("game, n", [("king", 14), ("lctr", 15), ("sn4_3-4", 22)])
def test_a_table_at_any_offset_or_in_chunks_is_summarised_as_its_records(game: str, n: int) -> None:
    """The kernels read the flags' bitmaps at their bit offsets and the columns chunk by chunk:
    a sliced table (every bit offset 0..7 and a few more) and a table of three chunks give the
    summary of their records."""
    from pipeline.games import get_game
    from pipeline.summaries import summarize_table

    table = get_game(game).solve_shard(n, 0, 10 ** 6)
    assert table.num_rows > 100
    for start in range(12):
        piece = table.slice(start, table.num_rows - start - 3)
        assert summarize_table(piece) == _summary_by_python(piece.to_pylist()), start
    third = table.num_rows // 3
    chunked = pa.concat_tables([table.slice(0, third), table.slice(third, third), table.slice(2 * third)])
    assert chunked.column("sg").num_chunks == 3
    assert summarize_table(chunked) == _summary_by_python(table.to_pylist())
