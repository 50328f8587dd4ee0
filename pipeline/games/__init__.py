"""Game families, one module each; this registry turns a game id into a game.

To add a game family: write ``pipeline/games/<family>.py`` with a class following
:class:`pipeline.games.base.Game` (rules + a numba kernel), give its ids a pattern, and add a
branch to :func:`get_game`. A user's moveset needs no code at all (its id is the moveset); a
new built-in piece is an entry in ``moveset.BUILTIN`` and its id in
``pipeline.schema.BOARD_GAMES``.
"""

from __future__ import annotations

import re

from pipeline.errors import PartgamesError
from pipeline.games.base import Game
from pipeline.games.moveset import BUILTIN, Moveset, MovesetError, MovesetGame
from pipeline.schema import BOARD_GAMES

if tuple(BUILTIN) != BOARD_GAMES:  # one list of the board games, checked where both are seen
    raise ImportError(f"moveset.BUILTIN {tuple(BUILTIN)} is not schema.BOARD_GAMES {BOARD_GAMES}")

#: Largest n (or total N) a run accepts: cell tables are (n+2)² and p(150) ≈ 4·10¹¹.
MAX_N = 150


class GameError(PartgamesError, ValueError):
    """An unknown or malformed game id."""


def get_game(game_id: str) -> Game:
    """The game with this id (docs/definitions.md §2: built-in ids, ``sn<s>_<A>``, user movesets)."""
    text = game_id.strip()
    if re.fullmatch(r"sn.*", text):
        from pipeline.games.slownim import SlowNimError, SlowNimGame

        try:
            return SlowNimGame.parse(text)
        except SlowNimError as exc:
            raise GameError(str(exc)) from exc
    try:
        return MovesetGame(Moveset.parse(text))
    except MovesetError as exc:
        known = ", ".join(BOARD_GAMES)
        raise GameError(f"{exc} (known: {known}, sn<s>_<A> such as sn5_4, or a moveset such as "
                        f"'{{(1,3),(3,1)}}' / moves_1.2+)") from exc


__all__ = ["BOARD_GAMES", "MAX_N", "Game", "GameError", "get_game"]
