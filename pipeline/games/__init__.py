"""Game families, one module each; this registry turns a game id into a game.

To add a game family: write ``pipeline/games/<family>.py`` with a class following
:class:`pipeline.games.base.Game` (rules + a numba kernel), give its ids a pattern, and add a
branch to :func:`get_game`. A new moveset piece needs no code at all: see ``moveset.BUILTIN``.
"""

from __future__ import annotations

import re

from pipeline.games.base import Game
from pipeline.games.moveset import BUILTIN, Moveset, MovesetError, MovesetGame

#: The board games of the papers, in the order runs and reports list them.
BOARD_GAMES: tuple[str, ...] = tuple(BUILTIN)

#: Largest n (or total N) a run accepts: cell tables are (n+2)² and p(150) ≈ 4·10¹¹.
MAX_N = 150


class GameError(ValueError):
    """An unknown or malformed game id."""


def get_game(game_id: str) -> Game:
    """The game with this id (SPEC §2: built-in ids, ``sn<s>_<A>``, user movesets)."""
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
