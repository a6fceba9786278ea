"""playtest: teach and playtest tabletop card games in Jupyter.

Start with :class:`Match` (one game, its record, rewind and replay), :class:`Table`
(bots beside people) and :func:`play_game`; each game lives in ``playtest.games``.
:func:`simulate` plays thousands of bot games for the balance lab (:mod:`playtest.lab`).
"""
from .engine import (SPECTATOR, Bot, IllegalMove, Match, Move, OptionError, RandomBot,
                     RecordError, Table, games, get_game, play_game)

__version__ = "0.1.0"
"""The version of the kit (distribution jupyter-playtest): the one place it is written; the build
(pyproject.toml, dynamic version) and `playtest --version` read it."""
__all__ = ["SPECTATOR", "Bot", "IllegalMove", "Match", "Move", "OptionError", "RandomBot",
           "RecordError", "Table", "games", "get_game", "play_game", "simulate", "__version__"]


def __getattr__(name):
    # the balance lab pulls in pandas and matplotlib: load it on first use only
    if name == "simulate":
        from .lab import simulate
        return simulate
    raise AttributeError(f"module 'playtest' has no attribute {name!r}")
