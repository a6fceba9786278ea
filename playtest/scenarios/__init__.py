"""Scenarios: an exact game situation in a hand-editable TOML file, rebuilt by pinning
the deal and replaying moves, checked by expectations, exported from any match.

    from playtest.scenarios import Scenario, example
    scenario = example("lazy_sunday_stale_claim")
    assert scenario.verify() == []            # every expectation holds
    scenario.report().checks                  # how many single checks that was
    match = scenario.to_match(upto=3)         # a live Match after move 3

``playtest replay FILE`` prints a scenario move by move. See :mod:`.scenario` for the
format, and ``notebooks/scenario_debugging.ipynb`` for a tutorial.
"""
from __future__ import annotations

from pathlib import Path

from .scenario import (Expectation, Failure, OutcomeExpectation, Refusal, Report, Scenario, ScenarioError,
                       ScenarioMoveError, state_hash, view_value)

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

EXAMPLES_DIR = Path(__file__).with_name("examples")


def examples(game: str | None = None) -> dict[str, Path]:
    """The shipped example scenarios: name -> path, sorted by name.

    Args:
        game: a registry name (``"chore_race"``) to list only that game's examples.
    """
    found = {}
    for path in sorted(EXAMPLES_DIR.glob("*.toml")):
        if game is None or tomllib.loads(path.read_text(encoding="utf-8")).get("game") == game:
            found[path.stem] = path
    return found


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


__all__ = ["Scenario", "ScenarioError", "ScenarioMoveError", "Expectation", "Refusal", "OutcomeExpectation",
           "Failure", "Report", "examples", "example", "state_hash", "view_value", "EXAMPLES_DIR"]
