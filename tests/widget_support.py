"""Helpers shared by the widget tests that play random games through an app."""
from __future__ import annotations

import random

import ipywidgets as w
import pytest

from playtest import Match, Table


@pytest.fixture(autouse=True)
def fresh_widgets():
    """Close every widget before and after each test, so that every live widget a test
    inspects belongs to the app under test (imported by the widget test modules)."""
    w.Widget.close_all()
    yield
    w.Widget.close_all()


CHECK_EVERY = 3
"""Long random widget games walk every widget's synced state for a leak after every
CHECK_EVERY-th step and after the last (:func:`check_due`), not after each: the walk
(get_state of some 350 widgets) was two thirds of those tests' time. A hotseat hand-over
takes two steps (the move that raises the privacy screen, then its unlock), so an odd
CHECK_EVERY lands on both kinds; in the games with several people most steps are
hand-overs, so most checks still follow one. Rewinds are checked where they happen."""


def check_due(app, step: int) -> bool:
    """Whether a random game's step number ``step`` (0, 1, ...) is followed by a leak
    check: every :data:`CHECK_EVERY`-th step, and the step that ended the game."""
    return step % CHECK_EVERY == 0 or app.match.outcome() is not None


def random_seating(rng: random.Random, min_seats: int, max_seats: int) -> tuple[int, list[int], dict[int, str]]:
    """A random table: ``(seats, human seats, seat -> "human" | bot name)`` with 1 to 3
    humans (hotseat when more than one) and random or heuristic bots elsewhere."""
    seats = rng.randint(min_seats, max_seats)
    humans = rng.sample(range(seats), rng.randint(1, min(3, seats)))
    players = {s: "human" if s in humans else rng.choice(["random", "heuristic"]) for s in range(seats)}
    return seats, humans, players


def answer_builder(builder, rng: random.Random) -> None:
    """One step of a move being built by hand: pick a random value in the first open
    dropdown, else press Play if it is enabled, else Cancel."""
    dropdowns = [d for d in builder.arg_box.children if isinstance(d, w.Dropdown) and d.index is None]
    if dropdowns:
        dropdowns[0].value = rng.choice(dropdowns[0].options)[1]
    elif not builder.play_button.disabled:
        builder.play_button.click()
    else:
        builder.cancel_button.click()


def bot_match(game: str, seats: int, seed: int, moves: int) -> Match:
    """A match of random bots, ``moves`` moves long (or until it ends)."""
    match = Match(game, seats, seed=seed)
    table = Table(match, {s: "random" for s in range(seats)})
    for _ in range(moves):
        if table.step_bot() is None:
            break
    return match
