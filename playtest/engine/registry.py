"""Game registry: games register through the ``playtest.games`` entry-point group, so a
third-party package adds a game by declaring one entry point, without editing ours::

    [project.entry-points."playtest.games"]
    my_game = "my_package.rules:MyGame"
"""
from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from .errors import OptionError
from .game import Game


@cache
def _installed() -> dict[str, type[Game]]:
    found = {ep.name: ep for ep in entry_points(group="playtest.games")}
    return {name: found[name].load() for name in sorted(found)}


_registered: dict[str, type[Game]] = {}


def register(game: type[Game]) -> type[Game]:
    """Register a Game class under ``game.name`` for this Python session (a game being
    prototyped in a notebook, or a test's toy game). Usable as a class decorator."""
    _registered[game.name] = game
    return game


def games() -> dict[str, type[Game]]:
    """Every game: registry name -> Game class, installed ones and registered ones."""
    return {**_installed(), **_registered}


def get_game(name: str | type[Game]) -> type[Game]:
    """The Game class registered as ``name`` (a Game class passes through).

    Raises:
        OptionError: no installed game has that name; the message lists those that do.
    """
    if isinstance(name, type) and issubclass(name, Game):
        return name
    try:
        return games()[name]
    except KeyError:
        raise OptionError(f"unknown game {name!r}; installed games: {', '.join(games()) or 'none'}") from None
