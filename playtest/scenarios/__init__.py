"""Scenarios: an exact game situation in a hand-editable TOML file, rebuilt by pinning
the deal and replaying moves, checked by expectations, exported from any match.

    from playtest.scenarios import Scenario, example
    scenario = example("lazy_sunday_stale_claim")
    assert scenario.verify() == []            # every expectation holds
    scenario.report().checks                  # how many single checks that was
    match = scenario.to_match(upto=3)         # a live Match after move 3

``playtest replay FILE`` prints a scenario move by move. See :mod:`.scenario` for the
format, and ``playtest/notebooks/scenario_debugging.ipynb`` for a tutorial.
"""
from __future__ import annotations

import os
import re
import reprlib
from pathlib import Path

from playtest.engine import games, get_game, limits
from .scenario import (Expectation, Failure, OutcomeExpectation, Refusal, Report, Scenario, ScenarioError,
                       ScenarioMoveError, state_hash, view_value)

SCENARIOS_DIR_ENV = "PLAYTEST_SCENARIOS_DIR"
"""Environment variable naming the folder that :func:`find_scenario` (a dashboard's
``?scenario=NAME``, a live table's ``"scenario"``) looks in for ``NAME.toml`` after the
shipped examples; default ``scenarios/`` in the working folder of the process (a
kernel's, which under ``playtest serve`` is the dashboards folder, or the server's)."""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def examples(game: str | None = None) -> dict[str, Path]:
    """The example scenarios the installed games ship (each game's ``EXAMPLES`` folder,
    ``*.toml``): name (the file's stem) -> path, sorted by name. Where two games ship
    the same name, the game first by name keeps it.

    Args:
        game: a registry name (``"chore_race"``) to list only that game's examples.

    Raises:
        OptionError: ``game`` is no game's name.
    """
    shipping = {game: get_game(game)} if game is not None else games()
    found: dict[str, Path] = {}
    for rules in shipping.values():
        if rules.EXAMPLES is not None:
            for path in sorted(rules.EXAMPLES.glob("*.toml")):
                found.setdefault(path.stem, path)
    return dict(sorted(found.items()))


def example(name: str) -> Scenario:
    """Load the shipped example ``name`` (a key of :func:`examples`).

    Raises:
        ScenarioError: no example has that name (the message lists them).
    """
    paths = examples()
    if name not in paths:
        raise ScenarioError("examples", None, f"no example scenario named {name!r}; examples: "
                                              f"{', '.join(paths) or 'none'}")
    return Scenario.load(paths[name])


def is_scenario_name(name: str) -> bool:
    """A plain file name of at most ``limits.MAX_NAME`` characters: letters, digits and
    ``_ . -``, starting with a letter or digit, no ``..``."""
    return len(name) <= limits.MAX_NAME and bool(_NAME.fullmatch(name)) and ".." not in name


def scenarios_dir() -> Path:
    """The folder :func:`find_scenario` reads ``NAME.toml`` from (see :data:`SCENARIOS_DIR_ENV`)."""
    return Path(os.environ.get(SCENARIOS_DIR_ENV) or Path.cwd() / "scenarios")


def find_scenario(name: str) -> Scenario:
    """The scenario called ``name``: a shipped example (:func:`examples`), else
    ``NAME.toml`` (or ``NAME`` if it ends in ``.toml``) in :func:`scenarios_dir`.

    Raises:
        ScenarioError: no such example or file (the message lists the examples), a name
            that is not a plain file name of at most 100 characters, a file over an
            input limit (:mod:`playtest.engine.limits`; at most 1 MiB is read), or not a
            valid scenario (line and reason). Messages name the file, never the server's
            folder (a dashboard shows them to whoever opens the page).
    """
    if name in examples():
        return example(name)
    shown = reprlib.repr(name)
    if not is_scenario_name(name):
        raise ScenarioError(f"?scenario={shown}", None, f"{shown} is not a scenario name: use a shipped example's "
                            f"name ({', '.join(examples()) or 'none'}) or a file name in the scenarios folder "
                            f"(letters, digits, _ . -; at most {limits.MAX_NAME} characters)")
    path = scenarios_dir() / (name if name.endswith(".toml") else f"{name}.toml")
    try:                                      # messages name the file only, never the server's folders
        text = limits.read_text(path, path.name)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise ScenarioError(f"?scenario={name}", None, f"no scenario called {name!r}: it is neither a shipped "
                            f"example ({', '.join(examples()) or 'none'}) nor a file {path.name} in the "
                            f"scenarios folder") from None
    except limits.LimitError as exc:
        raise ScenarioError(path.name, exc.line, f"cannot read the scenario: {exc.reason}") from None
    except OSError:
        raise ScenarioError(path.name, None, "cannot read the scenario: it is not a readable UTF-8 text file") from None
    return Scenario.from_toml(text, path.name)


__all__ = ["Scenario", "ScenarioError", "ScenarioMoveError", "Expectation", "Refusal", "OutcomeExpectation",
           "Failure", "Report", "examples", "example", "find_scenario", "is_scenario_name", "scenarios_dir",
           "state_hash", "view_value", "SCENARIOS_DIR_ENV"]
