"""Hostile cases of the code digest, the README's command sequence and cluster runs: what a
changed worker, a bad scheduler address or a dying cluster must do (one line, promptly, exit 2).

The cluster tests start a real Dask scheduler and workers as processes on 127.0.0.1
(:class:`test_cluster.Cluster`); every test stops the processes it started.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
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
    assert pipeline._distribution_version(library) not in ("absent", "0.0.1")
    fake = tmp_path / "site"
    (fake / library).mkdir(parents=True)
    (fake / library / "__init__.py").write_text("raise ImportError('a stand-in')\n")
    (fake / f"{library}-0.0.1.dist-info").mkdir()
    (fake / f"{library}-0.0.1.dist-info" / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {library}\nVersion: 0.0.1\n")
    assert _digest_of(ROOT) != _digest_of(ROOT, fake)
    versions = {name: pipeline._distribution_version(name) for name in pipeline.RECORD_DEPENDENCIES}
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
