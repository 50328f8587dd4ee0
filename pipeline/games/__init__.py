"""Game families, one module each; this registry turns a game id into a game.

To add a game family: write ``pipeline/games/<family>.py`` with a subclass of
:class:`pipeline.games.base.Game` (rules + a numba kernel), and register its ids' pattern and
parser here (:data:`GAME_FAMILIES`, before the moveset family; docs/architecture.md lists every
step). A user's moveset needs no code at all (its id is the moveset); a new built-in piece is an
entry in ``moveset.BUILTIN`` and its id in ``pipeline.schema.BOARD_GAMES``.

>>> get_game("king").game_id, get_game("{(1,3),(3,1)}").game_id
('king', 'moves_1.3_3.1')
>>> [family.name for family in GAME_FAMILIES]
['slownim', 'nonrepetitive', 'lctr_d', 'moveset']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pipeline.games.base import Game, GameError
from pipeline.games.moveset import BUILTIN, Moveset, MovesetError, MovesetGame
from pipeline.schema import BOARD_GAMES

if tuple(BUILTIN) != BOARD_GAMES:  # one list of the board games, checked where both are seen
    raise ImportError(f"moveset.BUILTIN {tuple(BUILTIN)} is not schema.BOARD_GAMES {BOARD_GAMES}")

#: Largest n (or total N) a run accepts: cell tables are (n+2)² and p(150) ≈ 4·10¹¹.
MAX_N = 150


@dataclass(frozen=True)
class GameFamily:
    """A game family in the registry: the ids it parses (a regular expression matched against
    the whole id) and how it makes a game of one; ``parse`` raises a ``ValueError`` naming what
    is wrong with an id it claims. ``reserved``: the ids no game given by its rules may take
    (``ids`` when None; the moveset family parses every id but reserves its own only)."""

    name: str
    ids: re.Pattern[str]
    parse: Callable[[str], Game]
    reserved: re.Pattern[str] | None = None

    def reserves(self, game_id: str) -> bool:
        """Whether this family has (or claims) a game of this id."""
        return bool((self.reserved or self.ids).fullmatch(game_id))


def _slownim(game_id: str) -> Game:
    # Imported on first use: its kernels are compiled or loaded only by runs that solve it.
    from pipeline.games.slownim import SlowNimGame

    return SlowNimGame.parse(game_id)


def _nonrepetitive(game_id: str) -> Game:
    from pipeline.games.nonrepetitive import NonRepetitiveGame

    return NonRepetitiveGame(game_id)


_LCTR_D_IDS = re.compile(r"lctr_d[0-9]+")


def _lctr_d(game_id: str) -> Game:
    from pipeline.games.lctr_d import LctrDGame

    return LctrDGame.parse(game_id)


def _moveset(game_id: str) -> Game:
    try:
        return MovesetGame(Moveset.parse(game_id))
    except MovesetError as exc:
        if not str(exc).startswith("unknown game"):  # a moveset with a bad offset: the message says it
            raise GameError(str(exc)) from exc
        known = ", ".join(BOARD_GAMES)
        raise GameError(f"{exc} (known: {known}, sn<s>_<A> such as sn5_4, or a moveset such as "
                        f"'{{(1,3),(3,1)}}' / moves_1.2+, or a game given by --rules FILE)") from exc


#: The families, tried in order: the first whose ``ids`` match the id parses it (docs/definitions.md
#: §2: ``sn<s>_<A>``, ``lctr_d<d>``, then the built-in ids and user movesets, which take every
#: other id). The moveset family matches every id, so it stays last: a family listed after it is
#: never reached.
GAME_FAMILIES: list[GameFamily] = [
    GameFamily("slownim", re.compile(r"sn.*"), _slownim, re.compile(r"sn.*", re.DOTALL)),
    GameFamily("nonrepetitive", re.compile(r"lctr_nr|downright_nr"), _nonrepetitive),
    GameFamily("lctr_d", _LCTR_D_IDS, _lctr_d),
    GameFamily("moveset", re.compile(r".*", re.DOTALL), _moveset,
               re.compile("|".join(BOARD_GAMES) + r"|moves_.*", re.DOTALL)),
]


def reserved_id(game_id: str) -> bool:
    """Whether a built-in family has or claims the id (a board game, ``sn…``, ``moves_…``,
    ``lctr_d<d>``, the non-repetitive games): one that no game given by its rules may take.

    >>> reserved_id("sn5_4"), reserved_id("moves_1.2"), reserved_id("lctr_dual"), reserved_id("welter")
    (True, True, False, False)
    """
    return any(family.reserves(game_id) for family in GAME_FAMILIES)


def get_game(game_id: str) -> Game:
    """The game with this id (docs/definitions.md §2: built-in ids, ``sn<s>_<A>``, user movesets,
    games given by their rules, :mod:`pipeline.rules`)."""
    text = game_id.strip()
    if not text.isascii():  # int() reads other scripts' digits (٣): one spelling per game
        raise GameError(f"game id {text!r}: not ASCII (digits 0-9, e.g. moves_1.3_3.1)")
    if not reserved_id(text):  # lctr_d<d> is reserved, an id such as lctr_dual may be rules
        # A game given by its rules (--rules FILE, or a package's partgames.games entry point).
        from pipeline.rules import RulesError, find_rules

        try:
            rules = find_rules(text)
        except RulesError as exc:
            raise GameError(str(exc)) from exc
        if rules is not None:
            from pipeline.games.generic import GenericGame

            return GenericGame(rules)
    for family in GAME_FAMILIES:
        if family.ids.fullmatch(text):
            try:
                return family.parse(text)
            except GameError:
                raise
            except ValueError as exc:
                raise GameError(str(exc)) from exc
    raise GameError(f"unknown game {text!r}")


def known_game(game_id: str) -> Game | None:
    """The game of an id, as :func:`get_game` gives it, or None when this process knows no game
    of that id (a store's rules game whose rules were not given): what code that holds a store's
    game ids asks what each game offers."""
    try:
        return get_game(game_id)
    except GameError:
        return None


__all__ = ["BOARD_GAMES", "GAME_FAMILIES", "MAX_N", "GameFamily", "Game", "GameError", "get_game",
           "known_game", "reserved_id"]
