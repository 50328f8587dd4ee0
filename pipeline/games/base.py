"""What the run machinery needs from a game family (CGSuite-style: rules apart from solving).

A game cuts the start positions of total n into shards and solves one shard into an Arrow table
with its schema. The runner (:mod:`pipeline.runner`) schedules shards over solver threads and the
store (:mod:`pipeline.storage`) writes them; neither knows any rule of any game.

Every family subclasses :class:`Game`: it must give what a run cannot do without (an id, a
schema, the positions of n, shards and their solving), and may override the optional
capabilities, whose defaults here say "not offered" (no record order shared with other games,
no fields of its own in a commit record, no partner, no per-shard record counts, no state kept
across totals, positions that are not partitions drawn as diagrams, no moveset, no solver of
chosen partitions, no rules file).

What a game offers is asked of the game, never read off its id or its class: the commands
that draw a diagram or solve chosen partitions (``draw``, ``solve``, ``--family``,
``--partitions``, the report's grids) ask :attr:`Game.diagram_positions` and
:attr:`Game.solves_chosen`, a cluster run ships :attr:`Game.rules_source` to its workers, the
SQL views ask :attr:`Game.record_kind` (a store's records tell it too:
:func:`pipeline.schema.record_kind`).

>>> Game.record_order is None and not Game.commit_fields and Game.partner_in(Game(), []) is None
True
>>> Game.diagram_positions, Game.moveset, Game.solves_chosen, Game.rules_source
(False, None, False, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from pipeline.errors import PartgamesError
from pipeline.schema import record_kind

if TYPE_CHECKING:  # the moveset module compiles kernels: imported by the games that have one
    from pipeline.games.moveset import Moveset


class GameError(PartgamesError, ValueError):
    """An unknown or malformed game id."""


class Game:
    """A game family's member as the runner sees it."""

    #: The game's id, as a run, the store and SQL name it (docs/definitions.md §2).
    game_id: str
    #: The schema of its records (:mod:`pipeline.schema`).
    schema: pa.Schema
    #: Shards of one n may be solved by different threads at once (False: one thread solves the
    #: chain of totals in increasing n, one such chain at a time).
    parallel: bool = True
    #: A name shared by the games whose shards of (n, max_records) hold the same start positions
    #: in the same order (the board games: "partitions"), or None. The runner solves such a
    #: shard for all of them in turn and passes the first one's
    #: :data:`pipeline.schema.PARTITION_COLUMNS` to the others as
    #: ``solve_shard(..., partition_columns=...)``, which then skip computing them.
    record_order: str | None = None
    #: What a commit record (``_complete.json``) and a staged plan of this game say besides the
    #: fields every game writes (a family run: its ``selection``, docs/families.md). A plan
    #: staged with other fields is not resumed. Nothing by default.
    commit_fields: Mapping[str, str] = MappingProxyType({})
    #: Its start positions are partitions λ (docs/definitions.md §1) and the game started at the
    #: sub-partition λ[i,j] of any box is one of its positions, so that its values fill a Young
    #: diagram box by box: ``draw`` and the report's grids take it, and so do the commands that
    #: solve chosen partitions (``solve``, ``run --family``/``--partitions``) when it solves
    #: them (:attr:`solves_chosen`). False by default.
    diagram_positions: bool = False
    #: What its positions are, as a command that refuses the game names them ("stacks",
    #: "d-dimensional diagrams"): set by every game whose :attr:`diagram_positions` is False.
    positions_are: str = "not partitions"
    #: The family's name as messages say it ("Slow SetNim", "d-dimensional LCTR").
    family: str = "a game family"
    #: The moveset (steps, rays, exits: docs/definitions.md §2.2) of a moveset game (LCTR,
    #: Downright, the chess pieces, a user's moveset), which the single-partition solver
    #: (:mod:`pipeline.games.single_partition`) takes; None for a game without one.
    moveset: Moveset | None = None
    #: It solves any chosen start partitions of one n (:meth:`solve_chosen`), so that the
    #: commands that solve chosen partitions (``solve``, ``draw``, ``run --family``/
    #: ``--partitions``, the SQL function ``solve``) take it: the moveset games (by the
    #: single-partition solver) and the games given by their rules (by the generic solver).
    #: False by default.
    solves_chosen: bool = False
    #: The ``--rules`` file (name, text) the game's rules were read from, which a cluster run
    #: ships to its workers (:attr:`pipeline.rules.Rules.source`); None for any other game.
    rules_source: tuple[str, str] | None = None

    @property
    def record_kind(self) -> str:
        """The kind of its records (:data:`pipeline.schema.RECORD_KINDS`), from its
        :attr:`schema`: ``slownim`` records are in the ``slownim`` view, a game of ``state`` or
        ``lctr_d`` records has those columns in its view even before its first record."""
        return record_kind(self.schema)

    def positions(self, n: int) -> int:
        """Number of start positions (records) of total n."""
        raise NotImplementedError

    def plan(self, n: int, max_records: int) -> list:
        """The shards of total n with at most ``max_records`` records each, an item a shard
        (what an item holds is the game's own). A game that counts its shards another way
        overrides :meth:`shard_count` instead."""
        raise NotImplementedError

    def shard_count(self, n: int, max_records: int) -> int:
        """Number of shards of total n with at most ``max_records`` records each (as many as
        :meth:`plan` gives)."""
        return len(self.plan(n, max_records))

    def solve_shard(self, n: int, shard: int, max_records: int, **shared: object) -> pa.Table:
        """The records of shard ``shard`` of total n, in a fixed order (with ``partition_columns``
        among ``shared`` only for a game with a :attr:`record_order`)."""
        raise NotImplementedError

    # ---- optional capabilities ----------------------------------------------------------------

    def shard_records(self, n: int, shard: int, max_records: int) -> int | None:
        """Records of one shard, or None if the game does not tell (the runner solves the largest
        shards of an n first when it knows them)."""
        return None

    def partner_in(self, games: list[Game]) -> Game | None:
        """A game among ``games`` (of the same :attr:`record_order`) that this one solves in the
        same kernel call (:meth:`solve_shard_with`), or None. The runner asks a shard's first
        unsolved game for a partner among the games after it (LCTR and Downright:
        :mod:`pipeline.games.lctr_downright_pair`)."""
        return None

    def solve_shard_with(self, partner: Game, n: int, shard: int, max_records: int,
                         partition_columns: dict[str, pa.Array] | None = None,
                         ) -> tuple[pa.Table, pa.Table]:
        """(This game's table, ``partner``'s) of one shard, each exactly its :meth:`solve_shard`;
        only for a ``partner`` from :meth:`partner_in`."""
        raise NotImplementedError(f"{self.game_id} solves no shard with a partner")

    def solve_chosen(self, n: int, values: np.ndarray, offsets: np.ndarray,
                     partition_columns: dict[str, pa.Array] | None = None) -> pa.Table:
        """The records (schema :attr:`schema`) of the game started at each partition
        ``values[offsets[p]:offsets[p+1]]`` of n, in that order; only for a game whose
        :attr:`solves_chosen` (``partition_columns``: those columns of these partitions, as
        :meth:`solve_shard` takes them)."""
        raise NotImplementedError(f"{self.game_id} solves no chosen partitions")

    def reserve(self, n: int) -> None:
        """Called before a thread solves a chain of shards whose largest total is n, so that a
        game that keeps state across totals (Slow SetNim) allocates it once. Nothing by default."""
