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
from pipeline.schema import BOARD_GAMES, NR_GAMES

if tuple(BUILTIN) != BOARD_GAMES:  # one list of the board games, checked where both are seen
    raise ImportError(f"moveset.BUILTIN {tuple(BUILTIN)} is not schema.BOARD_GAMES {BOARD_GAMES}")

#: Largest n (or total N) a run accepts: cell tables are (n+2)² and p(150) ≈ 4·10¹¹.
MAX_N = 150


@dataclass(frozen=True)
class GameFamily:
    """A game family in the registry: the ids it claims (a regular expression matched against
    the whole id) and how it makes a game of one; ``parse`` raises a ``ValueError`` naming what
    is wrong with an id it claims."""

    name: str
    ids: re.Pattern[str]
    parse: Callable[[str], Game]


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
    GameFamily("slownim", re.compile(r"sn.*"), _slownim),
    GameFamily("nonrepetitive", re.compile(r"lctr_nr|downright_nr"), _nonrepetitive),
    GameFamily("lctr_d", _LCTR_D_IDS, _lctr_d),
    GameFamily("moveset", re.compile(r".*", re.DOTALL), _moveset),
]


def get_game(game_id: str) -> Game:
    """The game with this id (docs/definitions.md §2: built-in ids, ``sn<s>_<A>``, user movesets,
    games given by their rules, :mod:`pipeline.rules`)."""
    text = game_id.strip()
    if not text.isascii():  # int() reads other scripts' digits (٣): one spelling per game
        raise GameError(f"game id {text!r}: not ASCII (digits 0-9, e.g. moves_1.3_3.1)")
    if (text not in BOARD_GAMES + NR_GAMES and not text.startswith(("sn", "moves_"))
            and not _LCTR_D_IDS.fullmatch(text)):  # lctr_d<d> (an id such as lctr_dual may be rules)
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


__all__ = ["BOARD_GAMES", "GAME_FAMILIES", "MAX_N", "GameFamily", "Game", "GameError", "get_game"]
