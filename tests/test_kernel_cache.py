"""Numba's cache of the kernels is keyed per kernel on the sources it depends on
(pipeline/kernel_cache.py): an edit of a file no kernel reads recompiles nothing, and an edit of a
file some kernels inline recompiles exactly those.

Each check runs in fresh processes (numba's cache is read when a process first compiles), on a
copy of the sources in a temporary folder, so the checkout is never edited."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pipeline

PACKAGE = Path(pipeline.__file__).resolve().parent


def _env(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "NUMBA_CACHE_LOCATOR_CLASSES")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # pipeline/__init__.py's default cache folder
    env["PYTHONPATH"] = str(tmp_path / "src")
    return env


def _python(tmp_path: Path, script: str) -> dict:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], env=_env(tmp_path),
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _append(path: Path, line: str) -> None:
    path.write_text(path.read_text() + line)


# A tiny package of three modules: a kernel inlining a helper of another module, a kernel that
# does not, and a module without kernels.
HELPER = """
import numba

STEP = 1

@numba.njit(cache=True, inline="always")
def add_step(x):
    return x + STEP
"""
KERNELS = """
import numba

from kpkg import helper, plain  # noqa: F401 (plain: imported, never called by a kernel)

@numba.njit(cache=True)
def uses_helper(x):
    return helper.add_step(x) * 2

@numba.njit(cache=True)
def alone(x):
    return x * 3
"""
COMPILE = """
import json, sys
import pipeline
from pipeline import kernel_cache
kernel_cache.PACKAGES.add("kpkg")
from kpkg import kernels
values = [kernels.uses_helper(5), kernels.alone(5)]
print(json.dumps({"values": values,
                  "compiled": [name for name in ("uses_helper", "alone")
                               if getattr(kernels, name).stats.cache_misses]}))
"""


def test_an_edit_recompiles_exactly_the_kernels_that_read_the_file(tmp_path: Path) -> None:
    package = tmp_path / "src" / "kpkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "helper.py").write_text(HELPER)
    (package / "kernels.py").write_text(KERNELS)
    (package / "plain.py").write_text("WORDS = 'no kernel here'\n")

    def index_files() -> dict[str, int]:
        return {path.name: path.stat().st_mtime_ns
                for path in (tmp_path / "cache").rglob("kernels.*.nbi")}

    assert _python(tmp_path, COMPILE) == {"values": [12, 15], "compiled": ["uses_helper", "alone"]}
    first = index_files()
    assert sorted(name.split("-")[0] for name in first) == ["kernels.alone", "kernels.uses_helper"]

    _append(package / "plain.py", "# an edit of a module no kernel reads\n")
    assert _python(tmp_path, COMPILE) == {"values": [12, 15], "compiled": []}
    assert index_files() == first  # nothing written

    _append(package / "helper.py", "STEP = 2\n")  # the inlined helper changes: its kernel follows
    assert _python(tmp_path, COMPILE) == {"values": [14, 15], "compiled": ["uses_helper"]}
    second = index_files()
    assert [name for name in first if second[name] != first[name]] == [
        name for name in first if name.startswith("kernels.uses_helper")]


KEYS = """
import importlib, json, pickle, pkgutil
import numba
import pipeline, pipeline.games
from numba.core.dispatcher import Dispatcher
names = ["pipeline." + info.name for info in pkgutil.iter_modules(pipeline.__path__)]
names += ["pipeline.games." + info.name for info in pkgutil.iter_modules(pipeline.games.__path__)]
names += ["pipeline.parquet.encodings"]
keys = {}
for name in names:
    try:
        module = importlib.import_module(name)
    except ImportError:
        continue
    assert module.__file__.startswith(%r), module.__file__
    for attr, value in vars(module).items():
        if isinstance(value, Dispatcher) and value.__module__ == name and value._cache is not None:
            cache_file = value._cache._cache_file
            # What numba's index is named and stamped with (the stamp as the index stores it).
            keys[name + "." + attr] = [cache_file._index_path.replace(%r, ""),
                                       repr(pickle.loads(pickle.dumps(cache_file._source_stamp)))]
print(json.dumps(keys))
"""


def test_the_real_kernels_keys_follow_their_sources_only(tmp_path: Path) -> None:
    copy = tmp_path / "src" / "pipeline"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    script = KEYS % (str(copy), str(tmp_path))
    before = _python(tmp_path, script)
    assert {"pipeline.games.moveset.solve_moveset", "pipeline.games.lctr_downright.solve_lctr_downright",
            "pipeline.games.cgh.summarize", "pipeline.summaries._pairs_and_regions",
            "pipeline.parquet.encodings.integer_page"} <= set(before)

    _append(copy / "cli.py", "# a comment line\n")
    assert _python(tmp_path, script) == before  # editing cli.py recompiles nothing

    _append(copy / "games" / "cgh.py", "# a comment line\n")
    after = _python(tmp_path, script)
    assert set(after) == set(before)
    changed = {name for name in before if after[name] != before[name]}
    # The kernels that inline cgh.summarize (docs/architecture.md: every board game's walk).
    assert {"pipeline.games.cgh.summarize", "pipeline.games.moveset.solve_moveset",
            "pipeline.games.lctr_downright.solve_lctr_downright"} <= changed
    # ... and only kernels of cgh.py and of modules importing it: a kernel elsewhere keeps its
    # machine code.
    for name in changed:
        module = name.rsplit(".", 1)[0]
        source = (copy / Path(*module.split(".")[1:])).with_suffix(".py").read_text()
        assert module == "pipeline.games.cgh" or re.search(r"^from pipeline\.games\.cgh import",
                                                            source, re.MULTILINE), name
    assert not any(name.startswith(("pipeline.summaries.", "pipeline.parquet.",
                                    "pipeline.games.columns.")) for name in changed)


def test_the_first_run_compiles_one_task_per_kernel_it_needs() -> None:
    """One worker task per distinct compiled kernel (docs/definitions.md §2.2's movesets: below
    TUPLE_STEPS_MIN_N one kernel for every piece, the steps an array; from it on a kernel per
    number of steps, the steps-free pieces sharing the array's; LCTR and Downright in one walk),
    and none for a game the run does not solve."""
    from pipeline.games import get_game
    from pipeline.games.moveset import BUILTIN, TUPLE_STEPS_MIN_N
    from pipeline.schema import BOARD_GAMES
    from pipeline.warmup import TASK_N, plan_tasks

    games = [get_game(g) for g in BOARD_GAMES]
    small = [task for _, task in plan_tasks(games)]  # the README's n <= 30
    assert small == [(("pawn",), False, False, TASK_N), (("lctr", "downright"), True, False, TASK_N)]
    tasks = [task for _, task in plan_tasks(games, ns=range(1, 81))]
    assert (("lctr", "downright"), True, False, TASK_N) in tasks
    singles = [ids[0] for ids, with_partner, _, n in tasks if not with_partner and n == TUPLE_STEPS_MIN_N]
    steps = sorted(len(BUILTIN[game][0]) for game in singles)
    kinds = {len(BUILTIN[g][0]) for g in BOARD_GAMES if g not in ("lctr", "downright")} - {0}
    assert steps == sorted(kinds) and len(tasks) == len(kinds) + 2
    assert len(plan_tasks(games, ns=range(41, 81))) == len(kinds) + 2  # bishop's array kernel too
    assert len(plan_tasks(games[2:4], ns=range(41, 81))) == 1  # pawn and pawn_t: one tuple kernel
    assert [task for _, task in plan_tasks([get_game("lctr")])] == [(("lctr",), False, False, TASK_N)]
    assert [task for _, task in plan_tasks([get_game("rook"), get_game("queen")], ns=range(1, 81))] == [
        (("rook",), False, False, TASK_N)]


def test_the_rate_counts_solving_not_compiling(tmp_path: Path, monkeypatch) -> None:
    """The final line's seconds (and so its rate) leave out the first run's compiling."""
    import time

    from pipeline import warmup
    from pipeline.runner import run

    calls = []

    def compiling(games, cores, say, with_partners=True, ns=warmup.DEFAULT_NS) -> float:
        calls.append(([g.game_id for g in games], sorted(ns)))
        time.sleep(1.0)
        return 1.0

    monkeypatch.setattr(warmup, "compile_kernels", compiling)
    summary = run(["lctr", "king"], max_n=3, out=str(tmp_path / "results"), jobs=1, progress=False)
    assert calls == [(["lctr", "king"], [1, 2, 3])] and summary.records == 2 * (1 + 2 + 3)
    assert summary.seconds < 1.0
    again = run(["lctr", "king"], max_n=3, out=str(tmp_path / "results"), jobs=1, progress=False)
    assert len(calls) == 1 and again.jobs_skipped == 6  # nothing to solve: no compiling


def _processes_with(text: str) -> list[int]:
    """The processes whose environment holds ``text`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def test_ctrl_c_while_compiling_stops_the_workers_in_one_line(tmp_path: Path) -> None:
    """Ctrl-C during the first run's compiling: the command's one line and status 130, and no
    worker left compiling (they would otherwise finish their kernels first)."""
    import signal
    import time

    if not Path("/proc/self/environ").exists():
        import pytest

        pytest.skip("needs /proc")
    env = _env(tmp_path)
    del env["PYTHONPATH"]
    command = [str(Path(sys.executable).with_name("partgames")), "run", "--games", "king",
               "--max-n", "5", "--quiet", "--out", str(tmp_path / "results")]
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stderr.readline()
        assert first == "partgames: compiling kernels (first run only): 1 group on 1 core\n"
        deadline = time.monotonic() + 20
        while len(_processes_with(str(tmp_path / "cache"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # the worker has started
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 130
        assert proc.stderr.read() == "partgames: interrupted; finished shards are kept, rerun to resume\n"
        time.sleep(0.5)
        assert _processes_with(str(tmp_path / "cache")) == []
    finally:
        for pid in _processes_with(str(tmp_path / "cache")):  # this test's, by their environment
            os.kill(pid, signal.SIGKILL)


def _recording_pool(handed: list[tuple]) -> type:
    """A stand-in for the workers' pool that records what each task is handed (the task and the
    run's rules sources) and does nothing."""
    from concurrent.futures import Future

    class Pool:
        def __init__(self, **_options: object) -> None:
            self._processes: dict = {}

        def submit(self, _function, task, sources=()) -> Future:
            handed.append((task, sources))
            future: Future = Future()
            future.set_result(None)
            return future

        def shutdown(self, **_options: object) -> None:
            pass

    return Pool


def test_compiling_is_skipped_once_done_and_each_schema_is_written_once(tmp_path: Path,
                                                                         monkeypatch) -> None:
    """The tasks a run hands to the workers: those not done before (a marker in numba's cache
    folder), each record schema's writer kernels in exactly one of them."""

    from numba.core import config

    from pipeline import warmup
    from pipeline.games import get_game
    from pipeline.schema import BOARD_GAMES

    handed: list[tuple] = []
    monkeypatch.setattr(warmup, "ProcessPoolExecutor", _recording_pool(handed))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    said: list[str] = []
    games = [get_game(g) for g in (*BOARD_GAMES, "sn5_4")]
    assert warmup.compile_kernels(games, 2, said.append) > 0
    submitted = [task for task, _ in handed]
    writes = sorted(ids for ids, _, write, _ in submitted if write)
    assert writes == [("lctr", "downright"), ("sn5_4",)]  # the board games' shortest, and SN's
    assert len(submitted) == 3 and said[0] == ("partgames: compiling kernels (first run only): "
                                               "3 groups on 2 cores")
    handed.clear()
    for again in (games, [get_game("king")], [get_game("lctr"), get_game("downright")]):
        assert warmup.compile_kernels(again, 2, said.append) == 0.0 and handed == []
    assert warmup.compile_kernels([get_game("{(1,1)}"), get_game("lctr")], 2, said.append,
                                  ns=range(41, 43)) > 0
    assert [task for task, _ in handed] == [(("moves_1.1",), False, False, 41), (("lctr",), False, False, 4)]



def test_a_rules_game_compiles_its_solver_up_front(tmp_path: Path, monkeypatch) -> None:
    """A rules game's first run compiles the generic solver and its records' writer in a worker,
    like the other games' kernels (not while its rate counts): the worker gets the rules file's
    text, since a spawned process knows only the package's games, and registers it."""

    from numba.core import config

    from pipeline import rules as rules_module
    from pipeline import warmup
    from pipeline.games import get_game

    source = Path(__file__).resolve().parent.parent / "examples" / "lctr_rules.py"
    for rules in rules_module.load_rules_file(source):
        rules_module.register(rules, replace=True)
    submitted: list[tuple] = []
    monkeypatch.setattr(warmup, "ProcessPoolExecutor", _recording_pool(submitted))
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    said: list[str] = []
    assert warmup.compile_kernels([get_game("lctr_rules")], 2, said.append) > 0
    assert said[0] == "partgames: compiling kernels (first run only): 1 group on 1 core"
    (task, sources), = submitted
    assert task == (("lctr_rules",), False, True, 4)
    assert sources == ((source.name, source.read_text()),)
    # the worker's side: the game unknown until its source is registered
    rules_module.unregister("lctr_rules")
    warmup.compile_task((("lctr_rules",), False, False, 4), sources)
    assert get_game("lctr_rules").game_id == "lctr_rules"
    rules_module.unregister("lctr_rules")


def test_a_second_checkout_sharing_the_cache_compiles_up_front(tmp_path: Path) -> None:
    """Two checkouts of the same sources share numba's cache folder but not its kernels (numba
    keeps them per source folder): each has its own markers of tasks done, in the folder of its
    own package's kernels, so the second one's first run compiles up front and says so, instead
    of compiling inside its solve (its rate then counting compiling)."""
    script = """
        import json
        from pathlib import Path
        from numba.core import config
        from pipeline import partitions, warmup
        from pipeline.kernel_cache import KernelCacheLocator
        kernels = KernelCacheLocator.get_suitable_cache_subpath(partitions.__file__)
        print(json.dumps({"marker": str(warmup.task_marker(("moveset",), "stamps")),
                          "kernels": str(Path(config.CACHE_DIR) / kernels)}))
    """
    found = []
    for checkout in ("one", "two"):
        shutil.copytree(PACKAGE, tmp_path / checkout / "src" / "pipeline",
                        ignore=shutil.ignore_patterns("__pycache__"))
        env = _env(tmp_path / checkout)
        env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # one cache for both checkouts
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], env=env,
                              cwd=tmp_path / checkout, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        found.append(json.loads(done.stdout))
    assert found[0]["marker"] != found[1]["marker"]
    for paths in found:
        assert Path(paths["marker"]).parent.parent == Path(paths["kernels"])
        assert Path(paths["kernels"]).is_relative_to(tmp_path / "cache")


def test_every_kernel_module_a_task_compiles_is_stamped() -> None:
    """The markers of tasks done are keyed by the stamps of every kernel a task can compile
    (warmup.KERNEL_MODULES): a module of kernels left out would keep its marker after an edit,
    and its kernels would compile inside the solve."""
    import importlib
    import pkgutil

    from numba.core.dispatcher import Dispatcher

    from pipeline.warmup import KERNEL_MODULES

    # compiled in the run, by no task: a family run's solver
    in_the_run = {"pipeline.partition_families", "pipeline.games.single_partition"}
    with_kernels = set()
    for info in pkgutil.walk_packages(pipeline.__path__, "pipeline."):
        module = importlib.import_module(info.name)
        if any(isinstance(value, Dispatcher) and value.__module__ == info.name
               for value in vars(module).values()):
            with_kernels.add(info.name)
    assert with_kernels - in_the_run == set(KERNEL_MODULES)
