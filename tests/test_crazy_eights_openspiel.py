"""The Crazy Eights example (examples/crazy_eights) against OpenSpiel's ``crazy_eights``:
both are driven through the same deals (OpenSpiel's chance outcomes are chosen to deal
the cards our seeded deck dealt), the same random moves, and compared at every step:
whose turn it is, the legal moves (ours mapped to OpenSpiel's action ids), and at the end
that both are over with the same scores (OpenSpiel's returns, CE-9)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "crazy_eights"))
from crazy_eights.rules import BY_CODE, SUITS, CrazyEights  # noqa: E402

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install open_spiel (the bench extra)")

DRAW, PASS, NOMINATE = 52, 53, 54
"""OpenSpiel's action ids: 0..51 play a card, 52 draw, 53 pass, 54..57 nominate a suit."""


def action(move) -> int:
    """Our move as OpenSpiel's action id."""
    if move.kind == "play":
        return BY_CODE[move.args[0]]
    return {"draw": DRAW, "pass": PASS}.get(move.kind) or NOMINATE + SUITS.index(move.args[0])


def play_both(seats: int, options: dict, seed: int) -> int:
    """Play one random game in both engines, asserting at every step; returns the
    number of moves played."""
    game = CrazyEights(seats, {**options, "max_turns": 10_000, "first_player": "random"})
    state = game.new_state(random.Random(seed))
    spiel = pyspiel.load_game("crazy_eights", {
        "players": seats, "max_draw_cards": options.get("max_draw_cards", 5),
        "max_turns": options.get("max_plays", 100), "use_special_cards": options.get("use_special_cards", False),
        "reshuffle": options.get("reshuffle", False)}).new_initial_state()
    # the same deal: the dealer, one card at a time from the seat after the dealer, the turned-up cards (CE-2, CE-3)
    spiel.apply_action(52 + state.dealer)
    for i in range(len(state.hands[0])):
        for step in range(1, seats + 1):
            spiel.apply_action(state.hands[(state.dealer + step) % seats][i] % 52)
    for card in state.turned:
        spiel.apply_action(card % 52)
    chooser = random.Random(seed)
    moves = 0
    while state.result is None:
        assert not spiel.is_chance_node() and not spiel.is_terminal()
        seat = state.turn
        assert spiel.current_player() == seat, f"move {moves}: seat on turn"
        legal = game.legal_moves(state, seat)
        assert sorted(action(m) for m in legal) == sorted(spiel.legal_actions()), f"move {moves}: legal moves"
        move = chooser.choice(legal)
        held = len(state.hands[seat])
        game.apply(state, move)
        spiel.apply_action(action(move))
        if move.kind == "draw":              # the cards our deck gave, as OpenSpiel's chance outcomes
            for card in state.hands[seat][held:]:
                assert spiel.is_chance_node()
                spiel.apply_action(card % 52)
        moves += 1
    assert spiel.is_terminal(), "ours ended, OpenSpiel's goes on"
    assert list(state.result.scores) == spiel.returns()
    assert state.result.finished
    return moves


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 8])
def test_same_legal_moves_and_results_as_openspiel(seats):
    """400 games per seat count over the options: defaults, special cards, reshuffle, a
    small draw limit and a short play limit (CE-6, CE-8, CE-10, CE-11)."""
    options = [{}, {"use_special_cards": True}, {"reshuffle": True},
               {"use_special_cards": True, "reshuffle": True, "max_draw_cards": 2}, {"max_plays": 20}]
    total = sum(play_both(seats, options[seed % len(options)], seed) for seed in range(400))
    assert total > 400 * seats      # the games were played, not ended at once


def test_openspiel_scores_a_hand_by_card_id():
    """CE-9 as OpenSpiel counts it (``ScoreUp``): an eight 50, J Q K A 10, any other card
    its id (rank * 4 + suit) + 2, e.g. 3♠ (id 7) costs 9 and 10♥ (id 34) 36."""
    from crazy_eights.rules import penalty
    assert [penalty(BY_CODE[c]) for c in ("8S", "JC", "AS", "3S", "10H", "2C")] == [50, 10, 10, 9, 36, 2]
