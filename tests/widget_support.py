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
