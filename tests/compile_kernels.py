"""The kernels of the suite's runs, compiled into numba's on-disk cache.

The session fixture ``compiled_kernels`` (conftest.py) calls :func:`compile_suite_kernels` in
every pytest process, so that no test's time includes compiling. Under pytest-xdist that is one
call per worker, all at once on a fresh cache, each compiling the same kernels on every core:
two workers that way take about twice as long as one process alone. ``.ci/run`` therefore runs
this file once before each pytest command starts its workers (``python tests/compile_kernels.py``),
with the environment of that command, and the workers' fixtures then load what it cached.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pipeline.games import BOARD_GAMES, get_game
from pipeline.games.moveset import TUPLE_STEPS_MIN_N
from pipeline.runner import run


def slownim_available() -> bool:
    try:
        import pipeline.games.slownim  # noqa: F401
    except ImportError:
        return False
    return True


def compile_suite_kernels(scratch: Path) -> None:
    """Every kernel of a run compiled (or loaded from the cache), by tiny runs into stores under
    ``scratch``: every built-in game family, LCTR alone (its own kernel) and beside Downright
    (both in one walk), the pieces' kernel of steps as an array and those of 2 and 3 steps as
    a tuple (a few records of n = TUPLE_STEPS_MIN_N), Slow SetNim, the Parquet encoder."""
    games = list(BOARD_GAMES) + (["sn5_4", "sn2_1-2"] if slownim_available() else [])
    run(games, max_n=6, out=str(scratch / "all" / "results"), jobs=1, progress=False)
    run(["lctr"], max_n=6, out=str(scratch / "lctr" / "results"), jobs=1, progress=False)
    for piece in ("pawn", "king"):
        get_game(piece).solve_shard(TUPLE_STEPS_MIN_N, 0, 64)


if __name__ == "__main__":  # spawned compile workers import this file again, as __mp_main__
    with tempfile.TemporaryDirectory(prefix="partgames-ci-compile-") as scratch:
        compile_suite_kernels(Path(scratch))
