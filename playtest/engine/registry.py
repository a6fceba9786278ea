"""Game registry: games register through the ``playtest.games`` entry-point group, so a
third-party package adds a game by declaring one entry point, without editing ours::

    [project.entry-points."playtest.games"]
    my_game = "my_package.rules:MyGame"

A game being prototyped in a notebook (or a test's toy game) uses :func:`register`.
"""
from __future__ import annotations

import warnings
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from .errors import OptionError
from .game import Game

_registered: dict[str, type[Game]] = {}
_loaded: dict[str, type[Game]] = {}  # entry points already loaded: every new match asks


@cache
def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group="playtest.games")}


def register(game: type[Game]) -> type[Game]:
    """Register a Game class under ``game.name`` for this Python session. Usable as a
    class decorator; returns the class."""
    _registered[game.name] = game
    return game


def game_names() -> list[str]:
    """The names of every game, installed or registered, sorted."""
    return sorted({*_entry_points(), *_registered})


def get_game(name: str | type[Game]) -> type[Game]:
    """The Game class registered as ``name`` (a Game class passes through).

    Raises:
        OptionError: no game has that name (the message lists those that do), or its
            package fails to import (the message says why).
    """
    if isinstance(name, type) and issubclass(name, Game):
        return name
    if name in _registered:
        return _registered[name]
    if name in _loaded:
        return _loaded[name]
    if name not in _entry_points():
        raise OptionError(f"unknown game {name!r}; games: {', '.join(game_names()) or 'none'}")
    try:
        game = _loaded[name] = _entry_points()[name].load()
    except Exception as exc:  # a broken plugin must not take the other games down
        raise OptionError(f"game {name!r} failed to load: {type(exc).__name__}: {exc}") from exc
    return game


def other_game(name: str, here: str | type[Game], what: str = "record") -> str:
    """How a refusal names a thing of another game than the one expected, in one
    clause: ``"this is a Chore Race scenario, not a Lazy Sunday one"``. A game app
    (:class:`playtest.widgets.GameApp`) says it of a record, scenario or shared position of
    another game loaded into it; the table service of a scenario whose game is not the one sent.

    Args:
        name: the registry name of the game the thing is of. here: the game expected
            (a registry name or a Game class). what: the thing ("record", "scenario").

    Raises:
        OptionError: ``name`` or ``here`` is no game's name.
    """
    return f"this is a {get_game(name).title} {what}, not a {get_game(here).title} one"


def games() -> dict[str, type[Game]]:
    """Every game that loads: name -> Game class. A game whose package fails to import
    is left out with a warning saying why."""
    found = {}
    for name in game_names():
        try:
            found[name] = get_game(name)
        except OptionError as exc:
            warnings.warn(str(exc), stacklevel=2)
    return found
