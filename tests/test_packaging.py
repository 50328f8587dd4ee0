"""The package as a user installs it: ``queries/`` ships inside it as ``pipeline.queries``.

The catalogue stays at the top of the repository; ``pyproject.toml`` maps it onto the package
``pipeline.queries``, so a wheel carries every statement, the macros and the searches, and
:func:`pipeline.query.queries_dir` finds them wherever the package is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

import pipeline
from pipeline.query import queries_dir
from pipeline.runner import run

REPO = Path(__file__).resolve().parent.parent
QUERIES = REPO / "queries"


def statement_files(root: Path) -> list[Path]:
    """The statement files of a catalogue: every ``.sql`` but the macros and the searches."""
    return [p for p in root.rglob("*.sql")
            if p.name != "macros.sql" and "search" not in p.relative_to(root).parts]


def test_queries_dir_in_a_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARTGAMES_QUERIES", raising=False)
    assert queries_dir() == QUERIES
    assert (queries_dir() / "macros.sql").is_file()


def test_queries_dir_honours_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PARTGAMES_QUERIES", str(tmp_path))
    assert queries_dir() == tmp_path


def test_every_folder_of_queries_is_a_listed_package() -> None:
    """A folder of ``queries/`` missing from ``packages`` would not ship (setuptools warns only)."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert config["package-dir"] == {"pipeline.queries": "queries"}
    folders = {QUERIES, *(p.parent for p in QUERIES.rglob("*") if p.is_file())}
    wanted = {".".join(("pipeline", "queries", *f.relative_to(QUERIES).parts)) for f in folders}
    assert wanted <= set(config["packages"]), sorted(wanted - set(config["packages"]))
    assert {p.suffix for p in QUERIES.rglob("*") if p.is_file()} <= {".sql", ".md"}


def test_every_package_of_pipeline_is_listed() -> None:
    """A package of ``pipeline/`` (a folder with ``__init__.py``) missing from ``packages`` would
    not ship: a wheel would fail at its first import."""
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {".".join(f.parent.relative_to(REPO).parts) for f in (REPO / "pipeline").rglob("__init__.py")}
    assert found <= set(config["packages"]), sorted(found - set(config["packages"]))


def test_the_version_is_defined_once() -> None:
    """pyproject.toml reads the version from ``pipeline.__version__``; CHANGELOG.md has its entry."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "pipeline.__version__"}
    assert f"## [{pipeline.__version__}]" in (REPO / "CHANGELOG.md").read_text()


def _copy_source(dest: Path) -> Path:
    """The checkout's working tree as a build sees it, so a build leaves nothing in the checkout."""
    src = dest / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "*.nbi", "*.nbc")
    for name in ("pipeline", "queries"):
        shutil.copytree(REPO / name, src / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    return src


def test_a_wheel_installed_elsewhere_finds_the_catalogue(tmp_path: Path) -> None:
    """Build a wheel, install it into a fresh virtual environment and run the commands that read
    ``queries/`` from a directory outside the checkout: every statement is found, the macros are
    defined and the searches listed.

    The wheel is installed without its dependencies, which the new environment reads from this
    one's site-packages (a ``.pth`` line): ``pipeline`` itself comes from the wheel alone, as the
    test checks, and no download of numba or pyarrow is needed.
    """
    src = _copy_source(tmp_path)
    dist = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dist),
                            str(src)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = dist.glob("partgames-*.whl")
    assert wheel.name.startswith(f"partgames-{pipeline.__version__}-")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                              "--no-deps", "--no-index", str(wheel)], capture_output=True, text=True)
    assert install.returncode == 0, install.stderr[-3000:]
    (purelib / "partgames_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    store = outside / "results"
    run(["lctr", "downright"], max_n=6, out=str(store), jobs=1, progress=False)
    env = {k: v for k, v in os.environ.items() if k not in ("PARTGAMES_QUERIES", "PYTHONPATH")}

    def partgames(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([venv / "bin" / "partgames", *args], cwd=outside, env=env,
                              capture_output=True, text=True, timeout=300)

    where = subprocess.run([python, "-c", "import pipeline, pipeline.query as q; "
                            "print(pipeline.__file__); print(q.queries_dir())"],
                           cwd=outside, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert all(Path(p).is_relative_to(venv) for p in where), where
    shipped = Path(where[1])
    assert sorted(p.relative_to(shipped) for p in shipped.rglob("*") if p.is_file()) == \
        sorted(p.relative_to(QUERIES) for p in QUERIES.rglob("*") if p.is_file())

    verify = partgames("verify", "--results", str(store), "--format", "json", "--report", "-")
    assert verify.returncode in (0, 1), verify.stderr  # 1: a statement fails, which is not this test's
    results = json.loads(verify.stdout)
    assert len(results) == len(statement_files(QUERIES)) > 100
    assert not [r["id"] for r in results if r["status"] == "error"]

    macro = partgames("sql", "--results", str(store), "--format", "csv",
                      "SELECT is_staircase([3, 2, 1]) AS yes, is_staircase([3, 1]) AS no")
    assert macro.returncode == 0, macro.stderr
    assert macro.stdout.split() == ["yes,no", "true,false"]

    search = partgames("search")
    assert search.returncode == 0, search.stderr
    listed = [line.split()[0] for line in search.stdout.splitlines() if line.strip()]
    assert listed == sorted(p.stem for p in (QUERIES / "search").glob("*.sql"))
