"""Presets and option labels for the balance lab: find a game's preset by its name in any
case, and name the options of a run in a few words (its preset, else what differs from
the RULINGS defaults)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from playtest.engine import OptionError


def find_preset(game_type, name: str) -> str:
    """The name of ``game_type``'s preset called ``name``, compared without regard to case
    or surrounding spaces (``"quick game"`` finds ``"Quick Game"``).

    Args:
        game_type: a Game class (its ``PRESETS``). name: what the user typed.

    Raises:
        OptionError: no preset has that name; the message lists the game's presets.
    """
    presets = game_type.PRESETS
    wanted = str(name).strip().casefold()
    for preset in presets:
        if preset.casefold() == wanted:
            return preset
    listed = ", ".join(map(repr, presets)) or "none"
    raise OptionError(f"{game_type.title} has no preset {name!r}; presets: {listed}")


def chosen_options(game_type, preset: str | None, pairs: list[str], base: Mapping[str, Any] | None = None) -> dict:
    """The options a command asks for: the preset's (``--preset``, found by
    :func:`find_preset`; without one, ``base``), then each ``KEY=VALUE`` of ``pairs``
    (``--option``, read by :func:`playtest.arguments.parse_options`) over them.

    Args:
        game_type: a Game class. preset: the preset's name as typed, or None.
        pairs: ``["rounds=2", ...]``. base: the options without a preset (default none).

    Raises:
        OptionError: no such preset, or a pair that is not ``KEY=VALUE`` within the
            kit's limits. The options themselves are checked by the game, later.
    """
    from playtest.arguments import parse_options
    start = game_type.PRESETS[find_preset(game_type, preset)] if preset is not None else base or {}
    return {**start, **parse_options(pairs)}


def describe_options(game_type, options: Mapping[str, Any] | None) -> str:
    """A short name of a run's options: ``"preset 'Quick Game'"`` when they are exactly a
    preset's, else the options that differ from the defaults as ``key=value`` pairs, or
    ``"defaults"``.

    Args:
        game_type: a Game class. options: option name -> value (all or some; missing
            ones take their defaults), e.g. ``df.attrs["options"]`` of a simulation.

    Raises:
        OptionError: ``options`` are not valid options of the game.
    """
    chosen = game_type.validate_options(options or {}).model_dump()
    for preset, values in game_type.PRESETS.items():
        if game_type.validate_options(values).model_dump() == chosen:
            return f"preset {preset!r}"
    defaults = game_type.validate_options({}).model_dump()
    changed = [f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}"
               for key, value in chosen.items() if value != defaults.get(key)]
    return ", ".join(changed) or "defaults"
