"""docs/architecture.md's "A new family" steps, followed literally by a newcomer in a temporary
copy of the checkout, give a game that runs, is queried and is verified, so the guide cannot
drift from the code.

The newcomer's family is Top Row (``toprow``): a move removes the top row of the diagram, so a
partition of r parts is a chain of r moves. Each step below is the guide's step of that number,
applied to the copy; the guide's text is read first, and a step that the guide no longer names
(or names with other files) fails here before anything runs.

The copy runs with ``NUMBA_DISABLE_JIT=1``: a copy of the package is a new source folder, so
numba would compile every kernel of the run afresh (about 20 s of one core); the kernels as
compiled are held to the reference by their own tests. Numba's cache is pointed into
``tmp_path`` all the same, so the shared cache is never touched.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pipeline

CHECKOUT = Path(pipeline.__file__).resolve().parent.parent
GUIDE = CHECKOUT / "docs" / "architecture.md"


def new_family_steps(guide: str) -> dict[int, str]:
    """The numbered steps of the guide's "A new family" list, by number (a step's lines joined)."""
    section = guide.split("- **A new family**", 1)[1].split("\n## ", 1)[0]
    steps: dict[int, str] = {}
    for match in re.finditer(r"^  (\d+)\. (.*?)(?=^  \d+\. |\Z)", section, re.M | re.S):
        steps[int(match.group(1))] = " ".join(match.group(2).split())
    return steps


#: What each step of the guide must name for the step below to be the one it describes.
STEP_NAMES = {
    1: ("definitions.md", "README", "Game ids"),
    2: ("pipeline/schema.py", "COMMON_FIELDS"),
    3: ("pipeline/games/<family>.py", "Game", "solve_shard", "common_columns", "KernelOutput",
        "njit(cache=True, nogil=True)", "pipeline/warmup.py", "_kernel_signatures", "KERNEL_MODULES"),
    4: ("write_features", "KernelOutput"),
    5: ("GAME_FAMILIES", "pipeline/games/__init__.py", "before", "moveset"),
    6: ("open_views", "_uncomputed_views", "empty"),
    7: ("tests/reference.py",),
    8: ("queries/", "packages", "pyproject.toml", "queries/FORMAT.md"),
}


def _insert(path: Path, anchor: str, text: str, after: bool = False) -> None:
    """Put ``text`` before (or after) the one line starting with ``anchor`` in ``path``."""
    lines = path.read_text().splitlines(keepends=True)
    found = [i for i, line in enumerate(lines) if line.startswith(anchor)]
    assert len(found) == 1, f"{path.name}: {len(found)} lines start with {anchor!r}"
    at = found[0] + (1 if after else 0)
    lines[at:at] = [text]
    path.write_text("".join(lines))


def step1_define(root: Path) -> None:
    _insert(root / "docs" / "definitions.md", "## 3. Values", textwrap.dedent("""\
        ### 2.7 Top Row: `toprow`

        A move removes the top row (the largest part) of the diagram; `()` is terminal. A
        partition of r parts is a chain of r moves.

        """))
    _insert(root / "README.md", "| `lctr_d2`", "| `toprow` | Top Row: remove the top row; `()` "
            "is terminal ([docs/definitions.md](docs/definitions.md) §2.7) |\n", after=True)


def step2_schema(root: Path) -> None:
    with (root / "pipeline" / "schema.py").open("a") as schema:
        schema.write(textwrap.dedent("""
            #: Top Row's ids and records (docs/definitions.md §2.7): the common columns only.
            TOPROW_GAMES: tuple[str, ...] = ("toprow",)
            TOPROW_SCHEMA = pa.schema(COMMON_FIELDS)
            """))


# Steps 3 and 4: the module, its kernel (reaching its positions from the enumeration, not by a
# walk of its own: a KernelOutput filled record by record, the features by write_features).
TOPROW = '''\
"""Top Row (docs/definitions.md §2.7): a move removes the top row, so a partition of r parts is a
chain of r moves, solved from its terminal end."""

from __future__ import annotations

import numba
import numpy as np
import pyarrow as pa

from pipeline.games.base import Game
from pipeline.games.cgh import ALL_AND, F_ALL, mex, summarize
from pipeline.games.columns import common_columns
from pipeline.games.walk import empty_outputs, write_features
from pipeline.partitions import (enumerate_partitions, flatten_prefixes, partition_numbers,
                                 plan_shards)
from pipeline.schema import TOPROW_SCHEMA


@numba.njit(cache=True, nogil=True)
def solve_toprow(values, offsets, out):  # pragma: no cover - compiled
    ppos = 0
    cpos = 0
    for rec in range(offsets.shape[0] - 1):
        parts = values[offsets[rec]:offsets[rec + 1]]
        depth = parts.shape[0]
        g, m, nodes, height = 0, 1, 1, 0
        own_and, own_or = summarize(0, 1, True, ALL_AND, 0)
        for _ in range(depth):  # one more row above the chain so far
            g, m = mex(1 << g), mex(1 << m)
            nodes += 1
            height += 1
            own_and, own_or = summarize(g, m, False, own_and, own_or)
        out.sg[rec] = g
        out.sg_misere[rec] = m
        out.nodes[rec] = nodes
        out.leaves[rec] = 1
        out.states[rec] = depth + 1
        out.height[rec] = height
        for f in range(6):
            out.flags[f, rec] = (own_and & F_ALL) >> f & 1
        ppos, cpos = write_features(rec, parts, depth, ppos, cpos, out)


class TopRowGame(Game):
    game_id = "toprow"
    schema = TOPROW_SCHEMA

    def positions(self, n: int) -> int:
        return partition_numbers(n)[n]

    def shard_count(self, n: int, max_records: int) -> int:
        return len(plan_shards(n, max_records))

    def solve_shard(self, n: int, shard: int, max_records: int, **shared: object) -> pa.Table:
        spec = plan_shards(n, max_records)[shard]
        prefix_values, prefix_offsets = flatten_prefixes(spec.prefixes)
        values = np.zeros(spec.part_values, np.int64)
        offsets = np.zeros(spec.records + 1, np.int64)
        enumerate_partitions(n, prefix_values, prefix_offsets, values, offsets)
        out = empty_outputs(spec.records, spec.part_values, spec.largest_values)
        solve_toprow(values, offsets, out)
        return pa.Table.from_arrays(common_columns(n, out), schema=TOPROW_SCHEMA)
'''


def step3_4_module(root: Path) -> None:
    (root / "pipeline" / "games" / "toprow.py").write_text(TOPROW)
    warmup = root / "pipeline" / "warmup.py"
    _insert(warmup, '    if type(game).__name__ == "LctrDGame":',
            '    if type(game).__name__ == "TopRowGame":\n        return [(("toprow",), TASK_N)]\n')
    _insert(warmup, '                  "pipeline.summaries", "pipeline.parquet.encodings")',
            '                  "pipeline.games.toprow",\n')


def step5_register(root: Path) -> None:
    registry = root / "pipeline" / "games" / "__init__.py"
    _insert(registry, "def _moveset(", textwrap.dedent("""\
        def _toprow(game_id: str) -> Game:
            from pipeline.games.toprow import TopRowGame

            return TopRowGame()


        """))
    _insert(registry, '    GameFamily("moveset"',
            '    GameFamily("toprow", re.compile(r"toprow"), _toprow),\n')


def step6_empty_view(root: Path) -> None:
    query = root / "pipeline" / "query.py"
    _insert(query, "    LCTR_D_GAMES,", "    TOPROW_GAMES,\n    TOPROW_SCHEMA,\n", after=True)
    _insert(query, "    for a, b in PAIRED_GAMES:", textwrap.indent(textwrap.dedent("""\
        for game in TOPROW_GAMES:
            if game not in games:
                con.execute(f"CREATE VIEW {quote_name(game)} AS {_empty_select(TOPROW_SCHEMA, game)}")
        """), "    "))


REFERENCE = '''

def toprow_values(parts: tuple[int, ...]) -> tuple[int, int]:
    """(sg, sg_misere) of Top Row at ``parts`` (docs/definitions.md §2.7), by recursion."""
    if not parts:
        return 0, 1
    g, m = toprow_values(parts[1:])
    return (1 if g == 0 else 0), (1 if m == 0 else 0)
'''


def step7_reference(root: Path) -> None:
    with (root / "tests" / "reference.py").open("a") as reference:
        reference.write(REFERENCE)


STATEMENT = """\
-- id: toprow.parity
-- source: docs/definitions.md, §2.7
-- kind: observation
-- statement: Top Row's Sprague-Grundy value is the parity of the number of parts.
-- covers: toprow; every partition
-- domain: SELECT n FROM toprow
SELECT n, parts, sg FROM toprow WHERE sg <> num_parts % 2
"""


def step8_statements(root: Path) -> None:
    (root / "queries" / "toprow").mkdir()
    (root / "queries" / "toprow" / "toprow.parity.sql").write_text(STATEMENT)
    _insert(root / "queries" / "FORMAT.md", "- `queries/search/`",
            "- `queries/toprow/` — Top Row (ids `toprow.*`)\n")
    _insert(root / "pyproject.toml", '    "pipeline.queries.slownim",',
            '    "pipeline.queries.toprow",\n', after=True)


STEPS = {1: step1_define, 2: step2_schema, 3: step3_4_module, 5: step5_register,
         6: step6_empty_view, 7: step7_reference, 8: step8_statements}


def _copy_checkout(root: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__")
    for folder in ("pipeline", "queries"):
        shutil.copytree(CHECKOUT / folder, root / folder, ignore=ignore)
    for name in ("README.md", "pyproject.toml", "docs/definitions.md", "tests/reference.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CHECKOUT / name, root / name)


def _python(root: Path, *args: str) -> str:
    """Python run in the copy (its package first on the path), its cache in the copy, the
    kernels plain Python."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES", "PARTGAMES_QUERIES",
                          "NUMBA_DISABLE_JIT")}
    env.update(PYTHONPATH=str(root), XDG_CACHE_HOME=str(root / "cache"),
               NUMBA_CACHE_DIR=str(root / "cache" / "numba"), NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr + done.stdout
    return done.stdout


def _partgames(root: Path, *args: str) -> str:
    return _python(root, "-c", "from pipeline.cli import main; main()", *args)


def test_the_guide_names_what_each_step_does() -> None:
    steps = new_family_steps(GUIDE.read_text())
    assert sorted(steps) == sorted(STEP_NAMES)
    for number, names in STEP_NAMES.items():
        missing = [name for name in names if name not in steps[number]]
        assert not missing, f"step {number} of the guide no longer names {missing}"


def test_a_new_family_added_by_the_guide_runs_and_is_queried(tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    _copy_checkout(root)
    for step in STEPS.values():
        step(root)

    # step 8: every folder of statements ships (tests/test_packaging.py's check, on the copy)
    packages = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    folders = {f"pipeline.queries.{d.name}" for d in (root / "queries").iterdir()
               if d.is_dir() and d.name != "__pycache__"}
    assert "pipeline.queries.toprow" in folders and folders <= set(packages)
    # step 3: a first run compiles the module's kernels up front, in a task whose marker its
    # kernels' stamps key (tests/test_kernel_cache.py checks this of every module with kernels,
    # importing all of them with the JIT on: 12 s in a new copy, too long here)
    planned = _python(root, "-c", "from pipeline import warmup; from pipeline.games import get_game; "
                      "print(warmup.plan_tasks([get_game('toprow')]), "
                      "'pipeline.games.toprow' in warmup.KERNEL_MODULES)")
    assert planned.split() == ["[(('toprow',),", "(('toprow',),", "False,", "False,", "4))]", "True"]
    # step 6: a store without Top Row's records has its view, empty
    _partgames(root, "run", "--games", "lctr", "--max-n", "3", "--jobs", "1", "--quiet",
               "--out", "other")
    assert _partgames(root, "sql", "--results", "other", "--format", "csv",
                      "SELECT count(*) AS c FROM toprow").split() == ["c", "0"]

    _partgames(root, "run", "--games", "toprow", "--max-n", "6", "--jobs", "1", "--quiet",
               "--out", "store")
    rows = _partgames(root, "sql", "--results", "store", "--format", "json",
                      "SELECT parts, sg, sg_misere FROM toprow ORDER BY n, ordinal")
    records = json.loads(rows)
    assert len(records) == 1 + 2 + 3 + 5 + 7 + 11  # p(1) + ... + p(6)
    # step 7: the reference added to tests/reference.py agrees with every record
    spec = importlib.util.spec_from_file_location("copied_reference", root / "tests" / "reference.py")
    assert spec is not None and spec.loader is not None
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    for record in records:
        assert reference.toprow_values(tuple(record["parts"])) == (record["sg"], record["sg_misere"])
    # step 8: its statement holds
    verified = _partgames(root, "verify", "--results", "store", "--only", "toprow.*",
                          "--report", "-")
    assert "toprow.parity" in verified and "holds" in verified
