"""Seats and positions shown to people count from 1 (issue 24); the engine's texts, move
texts, records and scenario files keep theirs (from 0), and pages render engine texts
with :func:`playtest.engine.counting.for_people` when they show them."""
from __future__ import annotations

import re

import pytest

from playtest import Match, RandomBot
from playtest.engine import get_game
from playtest.engine.counting import api_seat, for_people, move_text_seat


@pytest.mark.parametrize("engine, people", [
    ("Seat 1 peeks at positions 2 and 3.", "Seat 2 peeks at positions 3 and 4."),
    ("Seat 1 gives its position 1 to seat 0, face-down, into position 0.",
     "Seat 2 gives its position 2 to seat 1, face-down, into position 1."),
    ("NS-10: seat 0 and seat 1 reached 0 Patience; a draw", "NS-10: seat 1 and seat 2 reached 0 Patience; a draw"),
    ("Seats 0 and 2 swap chores.", "Seats 1 and 3 swap chores."),
    ("waiting for seats 0, 1 or 3", "waiting for seats 1, 2 or 4"),
    ("Turn 3: seat 0 draws 2 cards (catch-up).", "Turn 3: seat 1 draws 2 cards (catch-up)."),
    ("Round 2 scored. Lists: seat 0: 3, seat 1: 9. Seat 1 called NOT ME! and was beaten: 50.",
     "Round 2 scored. Lists: seat 1: 3, seat 2: 9. Seat 2 called NOT ME! and was beaten: 50."),
    # move texts, ranges, counts and other numbers are kept
    ("Legal moves for seat 1: 1 draw, 1 take 2.", "Legal moves for seat 2: 1 draw, 1 take 2."),
    ("seats are numbered 0..2", "seats are numbered 0..2"),
    ("a 3-seat game; 4 seats; Shift 50: 5 cards", "a 3-seat game; 4 seats; Shift 50: 5 cards"),
    ("Seat 10 (you) draws Nap.", "Seat 11 (you) draws Nap."),
    # Chore Race's chores by their place in a tableau, as its board counts them
    ("there is no chore 3 in seat 1's own tableau", "there is no chore 4 in seat 2's own tableau"),
    ("chore 1 is not complete (complete: chores 0, 2)", "chore 2 is not complete (complete: chores 1, 3)"),
    ("Seat 0 has 2 complete chores: choose", "Seat 1 has 2 complete chores: choose"),
])
def test_engine_text_is_shown_with_seats_and_positions_counted_from_1(engine, people):
    assert for_people(engine) == people


def test_a_seat_beside_move_texts_is_named_both_ways():
    assert move_text_seat(1) == "seat 2 (move text 1)" and api_seat(1) == 'seat 2 ("seat": 1)'


@pytest.mark.parametrize("name, seats", [("lazy_sunday", 3), ("chore_race", 3), ("night_shift", 2)])
def test_no_log_line_of_a_whole_game_shows_seat_or_position_0_to_people(name, seats):
    """Every seat and position a game's log names is counted from 1 on pages: after
    :func:`for_people` no line says seat 0 or position 0, and each line that named seat
    0 now names seat 1 in its place."""
    match = Match(get_game(name), seats, {}, seed=7)
    bot = RandomBot(seed=1)
    while match.outcome() is None and len(match.moves) < 400:
        seat = match.to_act()[0]
        match.play(bot.choose(match.view(seat), match.legal_moves(seat)))
    lines = [text for seat in (None, *range(seats)) for _, text in match.log_for(seat)]
    outcome = match.outcome()
    lines += [outcome.reason] if outcome else []
    zero = re.compile(r"\b(?:[Ss]eats?|[Pp]ositions?|[Cc]hores?) 0\b")
    assert any(zero.search(line) for line in lines), "the game never named seat 0: the test proves nothing"
    shown = [for_people(line) for line in lines]
    assert not [line for line in shown if zero.search(line)]
    for before, after in zip(lines, shown):
        assert re.sub(r"\d+", "#", before) == re.sub(r"\d+", "#", after)     # only numbers change
