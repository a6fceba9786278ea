"""playtest: teach and playtest tabletop card games in Jupyter.

Start with :class:`Match` (one game, its record, rewind and replay), :class:`Table`
(bots beside people) and :func:`play_game`; each game lives in ``playtest.games``.
"""
from .engine import (SPECTATOR, Bot, IllegalMove, Match, Move, OptionError, RandomBot,
                     RecordError, Table, games, get_game, play_game)

__version__ = "0.1.0"
__all__ = ["SPECTATOR", "Bot", "IllegalMove", "Match", "Move", "OptionError", "RandomBot",
           "RecordError", "Table", "games", "get_game", "play_game", "__version__"]
