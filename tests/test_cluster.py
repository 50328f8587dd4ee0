"""`partgames run --scheduler`: a real Dask scheduler and real workers, as processes on 127.0.0.1.

Every test stops the processes it started, also when it fails (the fixtures' ``finally``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from pipeline.cli import main  # noqa: E402
from pipeline.cluster import ClusterError, ClusterOptions  # noqa: E402
from pipeline.query import connect  # noqa: E402
from pipeline.runner import run  # noqa: E402
from pipeline.storage import Store  # noqa: E402

DASK = str(Path(sys.executable).parent / "dask")
GAMES = ["lctr", "downright", "king", "sn3_2"]
ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A scheduler and workers started as processes; :meth:`stop` ends them all."""

    def __init__(self, tmp: Path, tls: dict[str, str] | None = None):
        self.tmp, self.tls = tmp, tls
        self.port = free_port()
        self.address = f"{'tls' if tls else 'tcp'}://127.0.0.1:{self.port}"
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        flags = self._tls_flags()
        self.scheduler = self._start([DASK, "scheduler", "--host", "127.0.0.1", "--port", str(self.port),
                                      "--no-dashboard", *(["--protocol", "tls"] if tls else []), *flags],
                                     "scheduler")

    def _tls_flags(self) -> list[str]:
        if not self.tls:
            return []
        return ["--tls-ca-file", self.tls["ca"], "--tls-cert", self.tls["cert"], "--tls-key", self.tls["key"]]

    def _start(self, cmd: list[str], name: str, env: dict | None = None, prefix: list[str] | None = None
               ) -> subprocess.Popen:
        log = open(self.tmp / f"{name}-{len(self.procs)}.log", "w")
        p = subprocess.Popen([*(prefix or []), *cmd], stdout=log, stderr=subprocess.STDOUT,
                             env={**os.environ, **(env or {})}, start_new_session=True)
        self.procs.append(p)
        return p

    def add_worker(self, env: dict | None = None, prefix: list[str] | None = None) -> subprocess.Popen:
        # --no-nanny: one process per worker, so that a SIGKILL ends the worker itself
        p = self._start([DASK, "worker", self.address, "--nthreads", "1", "--host", "127.0.0.1",
                         "--no-dashboard", "--no-nanny", "--death-timeout", "60", *self._tls_flags()],
                        f"worker{len(self.workers)}", env, prefix)
        self.workers.append(p)
        return p

    def client(self) -> distributed.Client:
        security = None
        if self.tls:
            security = distributed.Security(tls_ca_file=self.tls["ca"], tls_client_cert=self.tls["cert"],
                                            tls_client_key=self.tls["key"], require_encryption=True)
        return distributed.Client(self.address, security=security, timeout="30s", set_as_default=False)

    def wait_for_workers(self, count: int) -> None:
        client = self.client()
        try:
            client.wait_for_workers(count, timeout=120)
        finally:
            client.close()

    def options(self, **kwargs) -> ClusterOptions:
        tls = self.tls or {}
        return ClusterOptions(self.address, tls.get("ca"), tls.get("cert"), tls.get("key"), **kwargs)

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()


def two_worker_cluster(tmp: Path):  # noqa: ANN201
    """A scheduler and two workers, stopped when the generator closes (a fixture's body)."""
    c = Cluster(tmp)
    try:
        c.add_worker()
        c.add_worker()
        c.wait_for_workers(2)
        yield c
    finally:
        c.stop()


@pytest.fixture
def cluster(tmp_path: Path):
    yield from two_worker_cluster(tmp_path)


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("local") / "results"
    run(GAMES, max_n=40, out=str(root), jobs=2, progress=False)
    return root


def records(root: Path, game: str) -> list[tuple]:
    return connect(root).execute(f'SELECT * EXCLUDE (game) FROM "{game}" ORDER BY n, parts').fetchall()


def assert_same_store(a: Path, b: Path) -> None:
    """Every column of every record equal, both ways; the store sound; no record twice."""
    for game in GAMES:
        got, want = records(a, game), records(b, game)
        assert got == want and got, game
    assert not Store(a).committed(deep=True, rows=True)[1]
    con = connect(a)
    twice = "SELECT count(*) FROM (SELECT game, parts FROM records GROUP BY ALL HAVING count(*) > 1)"
    assert con.execute(twice).fetchall() == [(0,)]


def test_a_cluster_run_writes_the_local_run_record_for_record(cluster: Cluster, local: Path,
                                                              tmp_path: Path) -> None:
    out = tmp_path / "results"
    summary = run(GAMES, max_n=40, out=str(out), progress=False, cluster=cluster.options(),
                  max_records=20_000)
    assert_same_store(out, local)
    assert len(summary.tasks_per_worker) == 2, summary.tasks_per_worker  # both workers solved
    assert summary.jobs_done == 4 * 40
    # a rerun finds everything complete, with the cluster or without
    assert run(GAMES, max_n=40, out=str(out), progress=False, cluster=cluster.options()).jobs_done == 0


def _client_process(out: Path, address: str, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline.cli", "run", "--games", ",".join(GAMES), "--max-n", "40",
         "--out", str(out), "--scheduler", address, "--quiet", "--shard-records", "3000", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


def _wait_for_staged_shards(out: Path, count: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        staged = list((out / ".staging").rglob("*.staged")) + list(out.glob("game=*/n=*/*.parquet"))
        if len(staged) >= count:
            return
        time.sleep(0.05)
    raise AssertionError("the run wrote no shards")


def test_a_worker_killed_mid_run(cluster: Cluster, local: Path, tmp_path: Path) -> None:
    """SIGKILL one worker while tasks run (and start a fresh one): Dask runs its task again, and
    the store ends identical to the local run's."""
    out = tmp_path / "results"
    client = _client_process(out, cluster.address)
    _wait_for_staged_shards(out, 10)
    os.killpg(cluster.workers[0].pid, signal.SIGKILL)
    cluster.add_worker()
    _, err = client.communicate(timeout=600)
    assert client.returncode == 0, err
    assert_same_store(out, local)


def test_the_client_killed_mid_run_and_rerun(cluster: Cluster, local: Path, tmp_path: Path) -> None:
    """SIGKILL the client mid-run; the same command again (on the cluster, then locally for the
    rest) finishes the store, identical, with no record twice."""
    out = tmp_path / "results"
    client = _client_process(out, cluster.address)
    _wait_for_staged_shards(out, 10)
    client.kill()
    client.wait()
    assert not Store(out).committed(deep=True)[1]
    rerun = _client_process(out, cluster.address)
    stdout, err = rerun.communicate(timeout=600)
    assert rerun.returncode == 0, err
    assert "already complete" in stdout
    assert_same_store(out, local)


def test_a_worker_with_other_code_is_refused_before_anything_is_written(cluster: Cluster,
                                                                         tmp_path: Path) -> None:
    """A worker importing a copy of the package with one source file changed: the run ends with
    one line naming it, and nothing it computed is in the store."""
    copy = tmp_path / "other" / "pipeline"
    shutil.copytree(ROOT / "pipeline", copy, ignore=shutil.ignore_patterns("__pycache__"))
    with open(copy / "partitions.py", "a") as fh:
        fh.write("\n# a changed source file\n")
    stranger = cluster.add_worker(env={"PYTHONPATH": str(copy.parent)})
    cluster.wait_for_workers(3)
    out = tmp_path / "results"
    client = _client_process(out, cluster.address)
    _, err = client.communicate(timeout=300)
    assert client.returncode == 2 and err.count("\n") == 1, err
    assert "runs other partgames code" in err and "worker tcp://127.0.0.1:" in err
    assert not list(out.glob("game=*")) and not list(out.rglob("*.staged"))
    assert stranger.poll() is None


def test_an_unreachable_scheduler_is_one_line_within_a_bound(tmp_path: Path, capsys) -> None:
    start = time.monotonic()
    code = main(["run", "--games", "lctr", "--max-n", "5", "--out", str(tmp_path / "r"),
                 "--scheduler", f"tcp://127.0.0.1:{free_port()}", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "cannot reach the Dask scheduler" in err, err
    assert time.monotonic() - start < 30


def test_a_store_the_workers_cannot_see(cluster: Cluster, tmp_path: Path) -> None:
    """A worker whose view of the store's path is another directory (its own mount namespace,
    with a filesystem of its own over the store's parent): refused before any solving."""
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode:
        pytest.skip("unshare --mount is not permitted here")
    parent = tmp_path / "shared"
    parent.mkdir()
    cluster.add_worker(prefix=["unshare", "--mount", "--propagation", "private", "sh", "-c",
                               f'mount -t tmpfs tmpfs "{parent}" && exec "$0" "$@"'])
    cluster.wait_for_workers(3)
    with pytest.raises(ClusterError, match="cannot use the store"):
        run(["lctr"], max_n=10, out=str(parent / "results"), progress=False, cluster=cluster.options())
    assert not list((parent / "results").glob("game=*"))


def test_workers_lost_for_good_end_the_run_with_one_line(cluster: Cluster, tmp_path: Path) -> None:
    out = tmp_path / "results"
    client = _client_process(out, cluster.address, "--lost-workers-timeout", "3")
    _wait_for_staged_shards(out, 3)
    for worker in cluster.workers:
        os.killpg(worker.pid, signal.SIGKILL)
    _, err = client.communicate(timeout=120)
    assert client.returncode == 2 and err.count("\n") == 1, err
    assert "no worker left on the cluster" in err and "rerun to resume" in err


def _certificates(where: Path) -> dict[str, str]:
    """A CA and one certificate signed by it for 127.0.0.1 (scheduler, workers and client)."""
    def ssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=where, check=True, capture_output=True)

    ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-days", "2", "-subj", "/CN=partgames test CA")
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "node.key", "-out", "node.csr",
        "-subj", "/CN=127.0.0.1")
    (where / "ext.cnf").write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n")
    ssl("x509", "-req", "-in", "node.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "node.pem", "-days", "2", "-extfile", "ext.cnf")
    return {"ca": str(where / "ca.pem"), "cert": str(where / "node.pem"), "key": str(where / "node.key")}


def test_the_whole_round_trip_over_tls(tmp_path: Path, local: Path, capsys) -> None:
    """Scheduler, workers and client speak TLS with certificates of a CA made here; a client
    without them is not let in."""
    tls = _certificates(tmp_path)
    c = Cluster(tmp_path, tls=tls)
    try:
        c.add_worker()
        c.add_worker()
        c.wait_for_workers(2)
        out = tmp_path / "results"
        code = main(["run", "--games", ",".join(GAMES), "--max-n", "40", "--out", str(out), "--quiet",
                     "--scheduler", c.address, "--tls-ca-file", tls["ca"], "--tls-cert", tls["cert"],
                     "--tls-key", tls["key"]])
        assert code == 0, capsys.readouterr().err
        assert_same_store(out, local)
        code = main(["run", "--games", "lctr", "--max-n", "5", "--out", str(tmp_path / "r2"), "--quiet",
                     "--scheduler", c.address.replace("tls://", "tcp://")])
        assert code == 2 and "cannot reach the Dask scheduler" in capsys.readouterr().err
    finally:
        c.stop()


def test_the_slurm_recipe_makes_its_job_script() -> None:
    """docs/cluster_slurm.py as far as a machine without SLURM allows: it builds dask-jobqueue's
    SLURMCluster (a scheduler, here) and the worker job script, one one-thread worker per core."""
    pytest.importorskip("dask_jobqueue")
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "cluster_slurm.py"), "--out", "/shared/r",
                           "--max-n", "120", "--cores", "16", "--queue", "compute", "--dry-run"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "#SBATCH -p compute" in done.stdout and "--nworkers 16" in done.stdout
    assert "--nthreads 1" in done.stdout and "scheduler: tcp://" in done.stdout


def test_a_local_run_does_not_import_dask(tmp_path: Path) -> None:
    code = ("import sys; from pipeline.cli import main; "
            f"main(['run', '--games', 'lctr', '--max-n', '6', '--out', {str(tmp_path / 'r')!r}, '--quiet']); "
            "print(sorted(m for m in ('dask', 'distributed') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_dask_coroutines_left_behind_report_nothing(caplog) -> None:
    """A coroutine of Dask's that ends in an exception nobody retrieves (``AllExit`` once every
    worker is gone) adds nothing to the run's one line; any other such exception is reported."""
    import asyncio
    import gc

    from pipeline.cluster import load_distributed
    distributed = load_distributed()

    async def fails(exc: BaseException) -> None:
        raise exc

    for exc in (distributed.client.AllExit(), ValueError("not Dask's")):
        loop = asyncio.new_event_loop()
        task = loop.create_task(fails(exc))
        loop.run_until_complete(asyncio.sleep(0.01))
        del task
        gc.collect()
        loop.close()
    assert "AllExit" not in caplog.text
    assert "not Dask's" in caplog.text


def test_a_rules_game_on_the_cluster(cluster: Cluster, tmp_path: Path) -> None:
    # The rules file's text goes to the workers with the tasks: here the file is gone before the
    # run, so a worker that looked for it (or knew only entry points) could not solve the game.
    from pipeline.rules import load_rules_file, register, unregister

    path = tmp_path / "shipped.py"
    path.write_text((ROOT / "examples" / "lctr_rules.py").read_text()
                    .replace('GAME_ID = "lctr_rules"', 'GAME_ID = "shipped"'))
    (rules,) = load_rules_file(path)
    register(rules)
    path.unlink()
    try:
        out = tmp_path / "results"
        summary = run(["shipped"], max_n=14, out=str(out), progress=False, cluster=cluster.options(),
                      max_records=40)
        assert len(summary.tasks_per_worker) == 2, summary.tasks_per_worker  # both workers solved
        mine = tmp_path / "local"
        run(["lctr"], max_n=14, out=str(mine), jobs=1, progress=False)
        got, want = records(out, "shipped"), records(mine, "lctr")
        assert got == want and got  # lctr_rules.py's records are LCTR's (tests/test_rules.py)
        assert not Store(out).committed(deep=True, rows=True)[1]
    finally:
        unregister("shipped")
