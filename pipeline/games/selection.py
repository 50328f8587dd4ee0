"""A game on chosen start partitions: a family run's or a partitions file's (``run
--family`` / ``--partitions``), solved by the game (:attr:`pipeline.games.base.Game.solves_chosen`:
the single-partition solver of a moveset game, the generic solver of a game given by its rules).

An exhaustive run's (game, n) holds every partition of n; a selection's holds the members of n
of the named families (:mod:`pipeline.partition_families`), or the partitions of n listed in a file. Its
records have the same schema and the same values (:mod:`pipeline.games.single_partition`); the store says
which selection each (game, n) holds (the commit record's ``selection``, the ``jobs`` view), and
a store holds one selection or none (:func:`pipeline.runner.run` refuses to mix them).

>>> sel = family_selection(["staircase", "rectangle"])
>>> sel.label, sel.count(6), sel.members_list(6)
('family staircase,rectangle', 5, [(6,), (3, 3), (3, 2, 1), (2, 2, 2), (1, 1, 1, 1, 1, 1)])
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

import numpy as np
import pyarrow as pa

from pipeline.errors import PartgamesError
from pipeline.games.base import Game
from pipeline.games.single_partition import SolveError, chosen_solver, parse_partition
from pipeline.partition_families import member_count, members, partitions_as_tuples

#: Cells (Σ n over its records) of a shard, at most, besides the run's records per shard: a
#: record of n takes about 4n bytes of parts and conjugate, so a shard of 2^22 cells about 17 MB.
SHARD_CELLS = 1 << 22


class SelectionError(PartgamesError, ValueError):
    """A partitions file or family list that cannot be run (one line)."""


class Selection:
    """The start partitions of each n: ``members(n)`` as (values, offsets), decreasing."""

    def __init__(self, kind: str, label: str, names: tuple[str, ...] = (),
                 listed: dict[int, list[tuple[int, ...]]] | None = None):
        self.kind = kind  # "family" or "partitions"
        self.label = label
        self._names = names
        self._listed = listed
        self._counts: dict[int, int] = {}
        self._lock = threading.Lock()

    def ns(self) -> list[int] | None:
        """The n a partitions file lists (None for families: every n has members, or few)."""
        return sorted(self._listed) if self._listed is not None else None

    def members(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        if self._listed is not None:
            lams = self._listed.get(n, [])
        elif len(self._names) == 1:
            return members(self._names[0], n)
        else:  # a partition in two of the families is solved once
            lams = sorted({m for name in self._names for m in partitions_as_tuples(*members(name, n))},
                          reverse=True)
        values = np.fromiter((v for lam in lams for v in lam), dtype=np.int64)
        offsets = np.zeros(len(lams) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(lam) for lam in lams])
        return values, offsets

    def members_list(self, n: int) -> list[tuple[int, ...]]:
        return partitions_as_tuples(*self.members(n))

    def count(self, n: int) -> int:
        with self._lock:
            if n not in self._counts:
                if self._listed is not None:
                    self._counts[n] = len(self._listed.get(n, []))
                elif len(self._names) == 1:
                    self._counts[n] = member_count(self._names[0], n)
                else:
                    self._counts[n] = len(self.members(n)[1]) - 1
            return self._counts[n]


def family_selection(names: list[str]) -> Selection:
    """The members of the named families (:data:`pipeline.partition_families.FAMILIES`)."""
    from pipeline.partition_families import family_index

    clean = tuple(dict.fromkeys(name.strip() for name in names if name.strip()))
    if not clean:
        raise SelectionError("--family needs a family name (e.g. --family hook,rectangle)")
    for name in clean:
        family_index(name)  # unknown names: one line
    return Selection("family", "family " + ",".join(clean), names=clean)


def file_selection(path: str | Path) -> Selection:
    """The partitions listed in a file, one a line (``5,3,3,1`` or ``5 3 3 1``; blank lines and
    lines starting with ``#`` skipped). A bad line is one error naming it, before any solving."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SelectionError(f"--partitions {path}: {exc.strerror or exc}") from exc
    listed: dict[int, set[tuple[int, ...]]] = {}
    for number, line in enumerate(data.decode(errors="replace").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            lam = parse_partition(line, what=f"{path}, line {number}:")
        except SolveError as exc:
            raise SelectionError(str(exc)) from exc
        listed.setdefault(sum(lam), set()).add(lam)
    if not listed:
        raise SelectionError(f"--partitions {path}: no partition in the file")
    digest = hashlib.sha256(data).hexdigest()[:16]
    return Selection("partitions", f"partitions {path.name} sha256:{digest}",
                     listed={n: sorted(lams, reverse=True) for n, lams in listed.items()})


class SelectionGame(Game):
    """A game that solves chosen partitions (:attr:`pipeline.games.base.Game.solves_chosen`: a
    board game, a user moveset, a game given by its rules) on a :class:`Selection`, as the
    runner sees a game (:class:`pipeline.games.base.Game`). Its id is the game's: a store holds
    its records under ``game=<id>``, read by the same views."""

    parallel = True

    def __init__(self, game_id: str, selection: Selection):
        #: The game solves the members (:attr:`pipeline.games.base.Game.solves_chosen`).
        game = chosen_solver(game_id)
        self._game = game
        self.game_id = game.game_id
        self.selection = selection
        self.schema = game.schema
        # its members are partitions of the game's, with the game's moveset (if any)
        self.diagram_positions = game.diagram_positions
        self.positions_are = game.positions_are
        self.family = game.family
        self.moveset = game.moveset
        self.solves_chosen = True
        self.rules_source = game.rules_source
        #: The games of one selection solve the same members in the same order (shared columns).
        self.record_order = "selection " + selection.label
        self.commit_fields = {"selection": selection.label}
        self._plans: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self._lock = threading.Lock()

    def positions(self, n: int) -> int:
        return self.selection.count(n)

    def plan(self, n: int, max_records: int) -> list[tuple[int, int]]:
        """Shards as ranges of members: at most ``max_records`` records and, beyond one record,
        :data:`SHARD_CELLS` cells each."""
        key = (n, max_records)
        with self._lock:
            if key not in self._plans:
                _, offsets = self.selection.members(n)
                count = len(offsets) - 1
                per = max(1, min(max_records, SHARD_CELLS // max(n, 1)))
                self._plans[key] = [(a, min(a + per, count)) for a in range(0, count, per)] or [(0, 0)]
            return self._plans[key]

    def shard_records(self, n: int, shard: int, max_records: int) -> int:
        a, b = self.plan(n, max_records)[shard]
        return b - a

    def solve_shard(self, n: int, shard: int, max_records: int,
                    partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
        a, b = self.plan(n, max_records)[shard]
        values, offsets = self.selection.members(n)
        part_values = values[offsets[a]:offsets[b]]
        part_offsets = offsets[a:b + 1] - offsets[a]
        return self._game.solve_chosen(n, part_values, part_offsets, partition_columns)

    def solve_chosen(self, n: int, values: np.ndarray, offsets: np.ndarray,
                     partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
        return self._game.solve_chosen(n, values, offsets, partition_columns)
