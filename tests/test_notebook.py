"""``pipeline.Store`` (pipeline/notebook.py), the notebook's view of a store, and the example
notebook docs/pictures.ipynb run against a small store."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import reference

from pipeline.pictures import cells
from pipeline.query import connect
from pipeline.verify import load_catalogue, verify

NOTEBOOK = Path(__file__).resolve().parent.parent / "docs" / "pictures.ipynb"


def test_import_pipeline_stays_light() -> None:
    """``import pipeline`` loads no DuckDB, matplotlib, numba or Dask; ``pipeline.Store`` loads
    the notebook module on first use, still without matplotlib."""
    probe = ("import sys, pipeline; heavy = ('duckdb', 'matplotlib', 'numba', 'dask', 'distributed');"
             "print([m for m in heavy if m in sys.modules]); from pipeline import Store;"
             "print(Store.__module__, 'matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:2] == ["[]", "pipeline.notebook False"]


def test_sql_draw_verify(small_store: Path) -> None:
    from pipeline import Store

    s = Store(small_store, max_n=10)
    assert repr(s).startswith(f"Store({str(small_store)!r}: ") and "records)" in repr(s)
    rel = s.sql("SELECT n, count(*) AS k FROM king GROUP BY n ORDER BY n")
    assert rel.fetchall() == connect(small_store, max_n=10).execute(
        "SELECT n, count(*) FROM king GROUP BY n ORDER BY n").fetchall()
    assert rel.arrow().read_all().column_names == ["n", "k"]
    # the figure's box texts are the grid, drawn from the store (n ≤ 10 holds every box of (3,3,2))
    fig = s.draw("king", [3, 3, 2], both=True)
    texts = {t.get_gid(): t.get_text() for ax in fig.axes for t in ax.texts}
    for i, j, sub in cells([3, 3, 2]):
        record = reference.board_record("king", sub)
        assert texts[f"sg-{i}-{j}"] == str(record["sg"])
        assert texts[f"sg_misere-{i}-{j}"] == str(record["sg_misere"])
    table = s.verify(only="chess.thm3_8").fetchall()
    (want,) = verify(small_store, ["chess.thm3_8"], max_n=10)
    assert [(r[0], r[3], r[4], r[7]) for r in table] == [
        (want.id, want.status, want.rows, want.counterexamples)]


def test_the_example_notebook_runs(small_store: Path, tmp_path: Path, monkeypatch) -> None:
    """Every code cell of docs/pictures.ipynb in order, on a store at ``results``, the last
    expression of each evaluated as Jupyter shows it; no outputs are stored in the file. The
    report's cell is only parsed: the report is written and checked by tests/test_report.py."""
    nb = json.loads(NOTEBOOK.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] for c in code)
    # the small store's n ≤ 6 (the catalogue and the report run on it in seconds)
    shutil.copytree(small_store, tmp_path / "results", ignore=lambda folder, names: [
        name for name in names if name.startswith("n=") and int(name[2:]) > 6])
    monkeypatch.chdir(tmp_path)
    env: dict = {}
    shown = []
    for c in code:
        tree = ast.parse("".join(c["source"]))
        if "s.report(" in "".join(c["source"]):
            continue
        last = tree.body.pop() if isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, "cell", "exec"), env)
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), "cell", "eval"), env))
    assert [type(v).__name__ for v in shown] == ["Store", "DuckDBPyRelation", "Figure", "Figure",
                                                 "DuckDBPyRelation", "DuckDBPyRelation"]
    lctr = [st for st in load_catalogue() if st.id.startswith("lctr")]
    assert len(shown[-1].fetchall()) == len(lctr) > 20
