"""The all-cards view (``Game.all_cards_view``, ``Match.all_cards_view``): every card of
the position face up, for debugging a scenario alone (issue #15). It names what the
spectator's view hides, accounts for every card of the game, and leaves the seats' views
as they were."""
from __future__ import annotations

import json
from collections import Counter

from widget_support import bot_match

from playtest import Match
from playtest.engine import ALL_CARDS, Game
from playtest.engine.game import SPECTATOR
from playtest.games.lazy_sunday.rules import load_cards


def test_lazy_sunday_shows_every_list_card_the_drawn_card_deck_and_done_pile():
    match = Match("lazy_sunday", 3, seed=5)
    spectator = match.view(SPECTATOR)
    everything = match.all_cards_view()
    assert everything["viewer"] is None and ALL_CARDS == "all"
    assert all(not slot["face_up"] for lst in spectator["lists"] for slot in lst)     # the spectator sees none
    assert all(slot["face_up"] and slot["name"] for lst in everything["lists"] for slot in lst)
    names = [slot["name"] for lst in everything["lists"] for slot in lst]
    names += everything["all_cards"]["deck (top first)"] + everything["all_cards"]["DONE pile (top first)"]
    cards = load_cards()
    assert Counter(names) == Counter(cards.names)                    # every card, each once
    state = match.state
    assert everything["all_cards"]["deck (top first)"][0] == cards.names[state.deck[-1]]   # top first
    assert match.view(SPECTATOR) == spectator                       # the seats' views are untouched
    # a drawn card: the spectator sees only that it is held
    while match.state.drawn is None:
        seat = match.to_act()[0]
        moves = match.legal_moves(seat)
        match.play(next((m for m in moves if m.kind == "draw"), moves[0]))
    assert match.view(SPECTATOR)["drawn"]["card"] is None
    assert match.all_cards_view()["drawn"]["card"]["name"] == cards.names[match.state.drawn]


def test_chore_race_shows_every_hand_and_both_decks_in_order():
    match = bot_match("chore_race", 3, seed=4, moves=10)
    spectator, everything = match.view(SPECTATOR), match.all_cards_view()
    assert spectator["hand"] is None and "hands" not in spectator and "all_cards" not in spectator
    assert everything["hands"] == [match.view(seat)["hand"] for seat in range(3)]
    assert [len(h) for h in everything["hands"]] == spectator["hand_sizes"] and any(everything["hands"])
    zones = everything["all_cards"]
    assert len(zones["action deck (top first)"]) == spectator["action_deck"] > 0
    assert len(zones["chore deck (top first)"]) == spectator["chore_deck"] > 0
    game, state = match.game, match.state
    assert zones["action deck (top first)"][0] == game.aname[state.deck[-1]]
    assert {k: v for k, v in everything.items() if k not in ("hands", "all_cards")} == spectator


def test_chore_race_shows_the_family_meeting_cards_committed():
    game = Match("chore_race", 3, seed=1).game
    state = game.new_state(__import__("random").Random(1))
    state.meeting = [None, state.hands[1][:2], None]
    zones = game.all_cards_view(state)["all_cards"]
    assert zones["seat 1's Family Meeting pass"] == game._hand(state.hands[1][:2])
    assert "seat 0's Family Meeting pass" not in zones


def test_night_shift_shows_both_hands_both_decks_the_supply_and_naps():
    match = Match("night_shift", 2, seed=3)
    spectator, everything = match.view(SPECTATOR), match.all_cards_view()
    assert [p["hand"] for p in spectator["players"]] == [None, None]
    for seat in (0, 1):
        assert everything["players"][seat]["hand"] == match.view(seat)["players"][seat]["hand"]
    zones = everything["all_cards"]
    assert [len(zones[f"seat {s}'s Personal Deck (top first)"]) for s in (0, 1)] == [
        p["deck_count"] for p in spectator["players"]]
    assert len(zones["Household Supply (top first)"]) == spectator["household_supply"] > 0
    assert zones["Nap Token stack (top first)"][0] == spectator["nap_card"]["name"]


def test_a_game_without_its_own_shows_its_stored_state():
    """The default (Game.all_cards_view) is the spectator's view plus the raw state."""
    match = bot_match("lazy_sunday", 3, seed=2, moves=5)
    everything = Game.all_cards_view(match.game, match.state)
    assert everything["all_cards"] == {"state": match.state.dump()}
    assert {k: v for k, v in everything.items() if k != "all_cards"} == match.view(None)
    json.dumps(everything)                                            # plain JSON data
