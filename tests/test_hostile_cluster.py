"""Hostile cases of the code digest, the README's command sequence and cluster runs: what a
changed worker, a bad scheduler address or a dying cluster must do (one line, promptly, exit 2).

The cluster tests start a real Dask scheduler and workers as processes on 127.0.0.1
(:class:`test_cluster.Cluster`); every test stops the processes it started.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import pipeline

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PARTGAMES = str(BIN / "partgames")


def _digest_of(package_parent: Path, *path: Path) -> str:
    """``pipeline.source_digest()`` in a fresh interpreter importing the package under
    ``package_parent``, with ``path`` in front of the import path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, [*path, package_parent]))}
    env.pop("PARTGAMES_QUERIES", None)
    done = subprocess.run([sys.executable, "-c", "import pipeline; print(pipeline.__file__); "
                           "print(pipeline.source_digest())"],
                          capture_output=True, text=True, env=env, cwd=package_parent, timeout=60)
    assert done.returncode == 0, done.stderr
    where, digest = done.stdout.split()
    assert Path(where).resolve().is_relative_to(package_parent.resolve()), where
    return digest


def _copy_package(where: Path) -> Path:
    copy = where / "pipeline"
    shutil.copytree(ROOT / "pipeline", copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_the_digest_covers_the_parquet_writer(tmp_path: Path) -> None:
    """A copy of the package whose Parquet writer adds 1 to every sg is other code: its digest
    is not the untouched copy's (the writer's folder was once left out of the digest)."""
    copy = _copy_package(tmp_path)
    before = _digest_of(tmp_path)
    writer = copy / "parquet" / "writer.py"
    text = writer.read_text()
    assert "def write_table(" in text
    writer.write_text(text.replace("def write_table(table", "def _write_table(table", 1)
                      + "\n\ndef write_table(table, *args, **kwargs):\n"
                        "    import pyarrow.compute as pc\n"
                        "    i = table.schema.get_field_index('sg')\n"
                        "    if i >= 0:\n"
                        "        table = table.set_column(i, 'sg', pc.add(table.column(i), 1)"
                        ".cast(table.schema.field(i).type))\n"
                        "    return _write_table(table, *args, **kwargs)\n")
    assert _digest_of(tmp_path) != before


def test_the_digest_covers_every_source_file_of_the_package(tmp_path: Path) -> None:
    """One byte more in any .py file under the package, at any depth, changes the digest; so
    does the --keep macros file. The statement catalogue's other files do not (they read records
    and write none)."""
    copy = _copy_package(tmp_path)
    versions = {"numba": "1"}
    before = pipeline.code_digest(copy, versions)
    sources = sorted(copy.rglob("*.py"))
    assert {"parquet", "games"} <= {p.parent.name for p in sources}
    for path in sources:
        original = path.read_bytes()
        path.write_bytes(original + b"\n")
        assert pipeline.code_digest(copy, versions) != before, path
        path.write_bytes(original)
    assert pipeline.code_digest(copy, versions) == before
    queries = tmp_path / "queries"
    queries.mkdir()
    (queries / "macros.sql").write_text("CREATE MACRO one() AS 1;\n")
    (queries / "statement.sql").write_text("SELECT 1;\n")
    env = {"PARTGAMES_QUERIES": str(queries)}
    with pytest.MonkeyPatch.context() as mp:
        for k, v in env.items():
            mp.setenv(k, v)
        with_macros = pipeline.code_digest(copy, versions)
        (queries / "statement.sql").write_text("SELECT 2;\n")
        assert pipeline.code_digest(copy, versions) == with_macros
        (queries / "macros.sql").write_text("CREATE MACRO one() AS 2;\n")
        assert pipeline.code_digest(copy, versions) != with_macros


@pytest.mark.parametrize("library", ["numba", "llvmlite", "numpy", "pyarrow"])
def test_the_digest_covers_the_versions_of_the_libraries_that_compute_records(
        tmp_path: Path, library: str) -> None:
    """A process that would import another version of numba, llvmlite, numpy or pyarrow (here
    a stand-in package with its .dist-info, first on the path; the digest does not import it)
    computes another digest."""
    assert pipeline.distribution_version(library) not in ("absent", "0.0.1")
    fake = tmp_path / "site"
    (fake / library).mkdir(parents=True)
    (fake / library / "__init__.py").write_text("raise ImportError('a stand-in')\n")
    (fake / f"{library}-0.0.1.dist-info").mkdir()
    (fake / f"{library}-0.0.1.dist-info" / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {library}\nVersion: 0.0.1\n")
    assert _digest_of(ROOT) != _digest_of(ROOT, fake)
    versions = {name: pipeline.distribution_version(name) for name in pipeline.RECORD_DEPENDENCIES}
    package = Path(pipeline.__file__).resolve().parent
    assert pipeline.code_digest(package, versions) == pipeline.source_digest()
    assert pipeline.code_digest(package, {**versions, library: versions[library] + ".post1"}) \
        != pipeline.source_digest()


def _partgames(cwd: Path, *args: str, progress: bool = False) -> str:
    """The command's standard output; it must succeed with nothing on standard error but, where
    ``progress``, the run's plan line and progress bars."""
    done = subprocess.run([PARTGAMES, *args], capture_output=True, text=True, cwd=cwd, timeout=300)
    err = done.stderr.strip()
    assert done.returncode == 0, (args, err)
    assert (err.startswith("partgames: ") and "error" not in err) if progress else not err, (args, err)
    return done.stdout


def test_the_readme_tour_in_its_order_on_a_fresh_store(tmp_path: Path) -> None:
    """The README's commands, in the README's order, as the ``partgames`` command, into the
    default ``results/`` of a fresh directory: run, run further, check, sql, verify, report,
    draw. ``report`` after ``verify`` once failed on a result ``verify`` left unfinished on the
    shared DuckDB connection."""
    _partgames(tmp_path, "run", "--games", "lctr,downright,king", "--max-n", "10", "--quiet")
    _partgames(tmp_path, "run", "--games", "lctr", "--max-n", "12", progress=True)
    assert _partgames(tmp_path, "check").startswith("32 (game, n) sound (")
    out = _partgames(tmp_path, "sql", "SELECT n, count(*) AS records, count(*) FILTER (sg = 0) "
                     "AS p_positions FROM lctr WHERE n >= 10 GROUP BY n ORDER BY n")
    counts = [line.split()[:2] for line in out.splitlines()[2:5]]
    assert counts == [["10", "42"], ["11", "56"], ["12", "77"]], out  # p(10), p(11), p(12)
    out = _partgames(tmp_path, "sql", "--format", "csv",
                     "SELECT parts, sg, sg_misere FROM king WHERE is_staircase(parts)")
    assert out.splitlines()[0] == "parts,sg,sg_misere" and len(out.splitlines()) == 1 + 4  # S(1)..S(4)
    assert "(4 rows)" in _partgames(tmp_path, "sql", "FROM cell_grid('lctr', [4,3,2,1])")
    out = _partgames(tmp_path, "verify", "--only", "lctr2.*")
    assert " 0 fail " in out and (tmp_path / "results" / "VERIFY.md").is_file()
    assert _partgames(tmp_path, "report").startswith("wrote results/report.html")
    assert "lctr2.proposition28" in (tmp_path / "results" / "report.html").read_text()
    assert _partgames(tmp_path, "draw", "king", "4,3,2,1", "--both", "--out", "king.svg") \
        == "wrote king.svg\n"
    assert (tmp_path / "king.svg").read_text().lstrip().startswith("<?xml")


# ---- cluster runs: a real scheduler and workers as processes (tests/test_cluster.py) ----

def _cluster_module():  # noqa: ANN202
    pytest.importorskip("distributed")
    import test_cluster

    return test_cluster


@pytest.mark.parametrize("address", ["garbage://x", "localhost", "tcp://127.0.0.1:99999", "tcp://a b:1"])
def test_a_malformed_scheduler_address_is_one_line_at_once(tmp_path: Path, address: str) -> None:
    """Refused before anything connects or is created, in one line (a malformed address once
    reached Dask, whose half-made client printed "Exception ignored in Client.__del__" 20 s later)."""
    start = time.monotonic()
    done = subprocess.run([PARTGAMES, "run", "--games", "lctr", "--max-n", "5", "--out", "r", "--quiet",
                           "--scheduler", address], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"partgames: error: --scheduler {address!r}: "), done.stderr
    assert time.monotonic() - start < 8 and not (tmp_path / "r").exists()


def test_a_scheduler_that_does_not_answer_within_connect_timeout(tmp_path: Path) -> None:
    port = _cluster_module().free_port()
    start = time.monotonic()
    done = subprocess.run([PARTGAMES, "run", "--games", "lctr", "--max-n", "5", "--out", "r", "--quiet",
                           "--scheduler", f"tcp://127.0.0.1:{port}", "--connect-timeout", "1"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "cannot reach the Dask scheduler" in done.stderr and "within 1 s" in done.stderr
    assert time.monotonic() - start < 8
    assert not (tmp_path / "r").exists()  # the refused run leaves no store behind


@pytest.mark.parametrize("option", ["--lost-workers-timeout", "--connect-timeout"])
@pytest.mark.parametrize("value", ["-1", "0", "inf", "nan"])
def test_a_timeout_that_is_no_positive_number_is_refused(tmp_path: Path, option: str, value: str) -> None:
    from pipeline.cli import main

    assert main(["run", "--games", "lctr", "--max-n", "5", "--out", str(tmp_path / "r"), "--quiet",
                 "--scheduler", "tcp://127.0.0.1:1", option, value]) == 2
    assert not (tmp_path / "r").exists()


def _cluster_run(tc, cluster, out: Path, *extra: str, cwd: Path | None = None) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "run", "--out", str(out), "--scheduler", cluster.address,
         "--quiet", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd or ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("lose", ["workers", "scheduler"])
def test_a_lost_cluster_is_one_line_promptly(tmp_path: Path, lose: str) -> None:
    """Every worker killed while results of finished tasks wait on them (the client stopped
    meanwhile), or the scheduler killed: the run ends with one line of partgames' own (no
    Dask warning or ERROR line, no traceback) soon after --lost-workers-timeout, or after
    --connect-timeout of trying to reconnect to the scheduler."""
    tc = _cluster_module()
    cluster = tc.Cluster(tmp_path)
    try:
        cluster.add_worker()
        cluster.add_worker()
        cluster.wait_for_workers(2)
        out = tmp_path / "results"
        client = _cluster_run(tc, cluster, out, "--games", ",".join(tc.GAMES), "--max-n", "40",
                              "--shard-records", "3000", "--lost-workers-timeout", "2",
                              "--connect-timeout", "3")
        tc._wait_for_staged_shards(out, 3)
        if lose == "workers":
            os.kill(client.pid, signal.SIGSTOP)  # finished tasks' results pile up on the workers
            time.sleep(2)
            for worker in cluster.workers:
                os.killpg(worker.pid, signal.SIGKILL)
            os.kill(client.pid, signal.SIGCONT)
        else:
            os.killpg(cluster.scheduler.pid, signal.SIGKILL)
        lost = time.monotonic()
        _, err = client.communicate(timeout=120)
        took = time.monotonic() - lost
    finally:
        cluster.stop()
    assert client.returncode == 2 and err.count("\n") == 1, err
    assert "rerun to resume" in err
    if lose == "workers":
        assert "no worker left on the cluster" in err and took < 2 + 6, (took, err)
    else:
        assert "lost the Dask scheduler at tcp://127.0.0.1:" in err and took < 3 + 6, (took, err)


@pytest.fixture(scope="module")
def shared_cluster(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    yield from _cluster_module().two_worker_cluster(tmp_path_factory.mktemp("cluster"))


def test_a_relative_out_reaches_the_workers_absolute(shared_cluster, tmp_path: Path) -> None:
    """`--out results` in the client's directory: the workers (started elsewhere) write into that
    store, not into a `results` of their own directory."""
    tc = _cluster_module()
    here = tmp_path / "client"
    here.mkdir()
    client = _cluster_run(tc, shared_cluster, Path("results"), "--games", "lctr", "--max-n", "12",
                          cwd=here)
    _, err = client.communicate(timeout=300)
    assert client.returncode == 0, err
    from pipeline.query import connect

    rows = connect(here / "results").execute("SELECT n, count(*) FROM lctr GROUP BY n ORDER BY n").fetchall()
    assert rows[-1] == (12, 77) and len(rows) == 12
    assert not (Path.cwd() / "results" / ".staging").exists() or Path.cwd() == here


def test_a_worker_with_another_parquet_writer_is_refused(shared_cluster, tmp_path: Path) -> None:
    """A worker importing a copy of the package whose Parquet writer differs (by a comment here):
    other code, refused in one line before anything is written (the writer's folder was once
    outside the digest, so such a worker was accepted)."""
    tc = _cluster_module()
    copy = _copy_package(tmp_path / "other")
    with open(copy / "parquet" / "writer.py", "a") as fh:
        fh.write("\n# a changed writer\n")
    stranger = shared_cluster.add_worker(env={"PYTHONPATH": str(copy.parent)})
    shared_cluster.wait_for_workers(3)
    out = tmp_path / "results"
    client = _cluster_run(tc, shared_cluster, out, "--games", "lctr", "--max-n", "12")
    _, err = client.communicate(timeout=300)
    assert client.returncode == 2 and err.count("\n") == 1, err
    assert "runs other partgames code" in err
    assert not list(out.glob("game=*")) and not list(out.rglob("*.staged"))
    assert stranger.poll() is None
