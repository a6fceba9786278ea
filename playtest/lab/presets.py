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
    presets = getattr(game_type, "PRESETS", None) or {}
    wanted = str(name).strip().casefold()
    for preset in presets:
        if preset.casefold() == wanted:
            return preset
    listed = ", ".join(map(repr, presets)) or "none"
    raise OptionError(f"{game_type.title} has no preset {name!r}; presets: {listed}")


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
    for preset, values in (getattr(game_type, "PRESETS", None) or {}).items():
        if game_type.validate_options(values).model_dump() == chosen:
            return f"preset {preset!r}"
    defaults = game_type.validate_options({}).model_dump()
    changed = [f"{key}={value!r}" if isinstance(value, str) else f"{key}={value}"
               for key, value in chosen.items() if value != defaults.get(key)]
    return ", ".join(changed) or "defaults"
