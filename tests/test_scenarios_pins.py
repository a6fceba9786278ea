"""Pinned setups beyond cards (issue #15, item 1): each game's counters and zones reach the
position they say, every card stays accounted for, and every impossible pin is refused
with a message that names the key, what is wrong and what is allowed."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from playtest import Match, OptionError
from playtest.engine import get_game
from playtest.scenarios import Scenario, ScenarioError

sys.path.insert(0, str(Path(__file__).parent))
from test_scenarios import all_cards, line_of, random_line  # noqa: E402


def same_cards(game: str, seats: int, setup: dict, options=None) -> Match:
    """The pinned match, after checking it holds exactly the cards of the plain deal."""
    match = Match(game, seats, options, seed=4, setup=setup)
    assert all_cards(match) == all_cards(Match(game, seats, options, seed=4))
    return match


# --- Chore Race -----------------------------------------------------------------------------
def test_chore_race_pins_vp_progress_scored_and_protection():
    match = same_cards("chore_race", 3, {
        "scored": [["Mow the Lawn", "Clean the Gutters"], [], ["Feed the Cat"]],
        "vp": [8, 0, 9], "protected": [False, False, True],
        "tableaus": [["Make Your Bed", "Do the Laundry", "Mop the Floor"], ["Wash the Dishes"], []],
        "progress": [[1, 0, 3], [2], []],
        "hands": [["Inspection", "Delegate", "Chore Swap"], [], []]})
    view = match.view(0)
    assert view["vp"] == [8, 0, 9] and view["scored"] == [["Mow the Lawn", "Clean the Gutters"], [], ["Feed the Cat"]]
    assert view["protection_used"] == [True, False, True] and view["protected"] == [False, False, True]
    assert [e["progress"] for e in view["tableaus"][0]] == [1, 0, 3] and view["tableaus"][1][0]["progress"] == 2
    assert len(view["tableaus"][2]) == 0 and view["turn"] == 1 and view["to_act"] == [0]
    # CR-16: the protected seat 2 cannot be targeted, seat 1 can (CR-13: it has progress)
    assert match.refusal("0 inspection 2 0") is not None and match.refusal("0 delegate 2").ruling == "CR-16"
    assert match.refusal("0 inspection 1 0") is None
    random_line("chore_race", 3, 60, 4, match.setup)                   # plays on


def test_chore_race_scored_chores_give_their_vp_and_the_first_seat_draws_catch_up():
    match = same_cards("chore_race", 2, {"scored": [[], ["Mow the Lawn", "Do the Laundry"]],
                                         "hands": [["Done"], ["Done"]], "catch_up": True})
    view = match.view(0)
    assert view["vp"] == [0, 7] and view["catch_up"] == [True, False]
    assert view["hand_sizes"] == [3, 1]                       # CR-15: 1 pinned + 2 drawn
    assert [text for _, text in match.log_for(None)][-1] == "Turn 1: seat 0 draws 2 cards (catch-up)."
    plain = same_cards("chore_race", 2, {"hands": [["Done"], ["Done"]]})
    assert plain.view(0)["hand_sizes"] == [2, 1] and plain.view(0)["catch_up"] == [False, False]


def test_a_pinned_chore_race_at_14_vp_wins_on_its_next_chore():
    match = same_cards("chore_race", 2, {"vp": [14, 0], "tableaus": [["Make Your Bed"], []], "progress": [[1], []],
                                         "hands": [["Done"], []]})
    match.play("0 done 0")
    match.play("0 end")
    assert match.outcome().winners == (0,) and match.view(None)["vp"] == [16, 0]     # CR-17


# --- Night Shift -----------------------------------------------------------------------------
def test_night_shift_pins_the_counters_the_shift_structures_and_the_nap_stack():
    match = same_cards("night_shift", 2, {
        "shift": 50, "patience": [12, 25], "effort": [4, 0], "actions": [2, 3], "care": [7, 6],
        "structures": [["Chore Chart"], [{"name": "Sleep Training Plan", "health": 2}, "Shared Calendar"]],
        "nap_tokens": 7, "baskets": [["Nap Token", "Nap Token"], ["Nap Token", "Coffee Refill"]]})
    view = match.view(None)
    players = view["players"]
    assert view["shift"] == 50 and view["nap_tokens"] == 7 and view["to_act"] == [0]
    assert [(p["patience"], p["effort"], p["actions"], p["care"]) for p in players] == [(12, 4, 2, 7), (25, 0, 3, 6)]
    assert [(c["name"], c["health"]) for c in players[1]["current_shift"]] == [("Sleep Training Plan", 2),
                                                                               ("Shared Calendar", 3)]
    assert [c["name"] for c in players[1]["laundry_basket"]] == ["Nap Token", "Coffee Refill"]
    # NS-8: settling pays the pinned health; NS-7: tidy is blocked while a structure is in play
    assert match.refusal("0 settle 'Sleep Training Plan'") is None and match.refusal("0 tidy").ruling == "NS-7"
    match.play("0 settle 'Sleep Training Plan'")
    assert match.view(None)["players"][0]["effort"] == 2
    match.play("0 end")                                       # NS-10: Shift 50 was the last
    outcome = match.outcome()
    assert outcome.finished and outcome.winners == (0,) and "Shift 50 was the last" in outcome.reason


def test_pinned_structures_give_their_start_of_shift_effects_before_the_pinned_numbers():
    match = same_cards("night_shift", 2, {"structures": [["Chore Chart", "Sleep Training Plan"], []]})
    assert (match.view(None)["players"][0]["effort"], match.view(None)["players"][0]["care"]) == (1, 1)   # NS-3, NS-6
    pinned = same_cards("night_shift", 2, {"structures": [["Chore Chart"], []], "effort": [0, 0]})
    assert pinned.view(None)["players"][0]["effort"] == 0      # what is pinned is what the view shows


def test_a_night_shift_hand_holds_its_own_starter_cards_bought_cards_and_nap_tokens():
    match = same_cards("night_shift", 2, {"hands": [["Laundry Load"] * 6 + ["Coffee Refill", "Nap Token"], []]})
    assert len(match.view(0)["players"][0]["hand"]) == 8 and match.view(None)["nap_tokens"] == 9
    players = match.view(None)["players"]
    assert (players[0]["deck_count"], players[1]["hand_count"], players[1]["deck_count"]) == (4, 0, 10)


# --- Lazy Sunday -----------------------------------------------------------------------------
def test_lazy_sunday_pins_the_round_scores_caller_and_memory():
    match = same_cards("lazy_sunday", 3, {
        "round": 3, "round_scores": [[40, 25, 0], [0, 50, 20]], "scores": [40, 75, 20], "caller": 1,
        "lists": [["Nap", "Make the Bed"], ["Feed the Fish", "Clean the Oven", "Nap"], ["Water the Plants"] * 2],
        "memory": [[[0, 0], [0, 1]], [[1, 0], [0, 1]], []]}, {"match_to": 100})
    view = match.bot_view(2)
    assert (view["round"], view["start"], view["scores"], view["caller"]) == (3, 2, [40, 75, 20], 1)   # LS-3
    assert view["phase"] == "turn" and view["to_act"] == [2] and view["final_turns"] == [0]       # LS-7
    assert match.bot_view(0)["memory"][0] == ["Nap", "Make the Bed"]
    assert match.bot_view(1)["memory"] == [[None, "Make the Bed"], ["Feed the Fish", None, None], [None, None]]
    assert match.bot_view(2)["memory"] == [[None, None], [None, None, None], [None, None]]
    assert match.refusal("2 claim 1 0 1").ruling == "LS-7"               # the caller's list is locked
    match.play("2 draw")
    match.play("2 discard")
    match.play("0 draw")
    match.play("0 discard")                                              # the round is scored at once
    view = match.view(None)                                              # LS-10: the sums of all three rounds
    assert view["round_scores"][:2] == [[40, 25, 0], [0, 50, 20]] and len(view["round_scores"]) == 3
    assert view["scores"] == [sum(column) for column in zip(*view["round_scores"])]


def test_lazy_sunday_peeks_done_starts_the_turns_and_a_round_starts_to_the_left():
    match = same_cards("lazy_sunday", 4, {"peeks_done": True, "round": 2}, {"rounds": 2})
    assert match.view(None)["phase"] == "turn" and match.to_act() == (1,) and match.view(None)["start"] == 1
    assert match.bot_view(1)["memory"] == [[None] * 6] * 4                 # nobody has peeked
    peeking = same_cards("lazy_sunday", 4, {"memory": [[[3, 5]], [], [], []]})
    assert peeking.view(None)["phase"] == "peek" and peeking.bot_view(0)["memory"][3][5] is not None


# --- refusals -------------------------------------------------------------------------------
@pytest.mark.parametrize("game, seats, setup, options, message", [
    ("chore_race", 2, {"vp": [15, 0]}, None, "'vp[0]' = 15 is out of range: use 0..14 (CR-17"),
    ("chore_race", 2, {"vp": [3, 0]}, {"target_vp": 3}, "'vp[0]' = 3 is out of range: use 0..2"),
    ("chore_race", 2, {"vp": "8"}, None, "'vp' is one whole number per seat (2 numbers for 2 seats)"),
    ("chore_race", 2, {"vp": [8.0, 0]}, None, "'vp[0]' is a whole number 0..14"),
    ("chore_race", 2, {"scored": [["Mow the Lawn"] * 3 + ["Clean the Gutters"], []]}, None,
     "'scored[0]' is worth 16 VP, and 15 VP ends the game (CR-17)"),
    ("chore_race", 2, {"scored": [["Dnoe"], []]}, None, "no card named 'Dnoe'"),
    ("chore_race", 2, {"vp": [9, 0], "protection_used": [False, False]}, None,
     "'protection_used[0]' = false, but seat 0 has 9 VP: CR-16"),
    ("chore_race", 2, {"protection_used": [True, False]}, None, "'protection_used[0]' = true, but seat 0 has 0 VP"),
    ("chore_race", 2, {"vp": [9, 9], "protected": [True, False]}, None, "seat 0 acts first, and its protection ends"),
    ("chore_race", 2, {"protected": [False, True]}, None, "'protected[1]': seat 1 has 0 VP; only a seat that reached"),
    ("chore_race", 2, {"protected": [0, 1]}, None, "'protected' is one true or false per seat"),
    ("chore_race", 2, {"catch_up": True}, None, "'catch_up' = true, but CR-15 says false"),
    ("chore_race", 2, {"vp": [0, 5], "catch_up": False}, None, "'catch_up' = false, but CR-15 says true"),
    ("chore_race", 2, {"vp": [0, 5], "catch_up": True}, {"draw_rule": "fill_to_7"}, "CR-15 says false"),
    ("chore_race", 2, {"progress": [[1], [0, 0, 0]]}, None, "'progress[0]' has 1 numbers, but seat 0's tableau holds 3"),
    ("chore_race", 2, {"progress": [[0, -1, 0], [0, 0, 0]]}, None, "'progress[0][1]' = -1 is out of range"),
    ("chore_race", 2, {"progres": []}, None, "no key 'progres'; did you mean 'progress'?"),
    ("chore_race", 2, {"hands": [["Mow the Lawn"], []]}, None, "'hands[0]': 'Mow the Lawn' is a chore: hands, "
     "deck_top and discard hold action cards"),
    ("chore_race", 2, {"scored": [["Done"], []]}, None, "'Done' is an action card: tableaus, scored"),
    ("chore_race", 2, {"vp": [3, 0], "scored": [["Mow the Lawn"], []]}, None,
     "'vp[0]' is 3, below the 4 VP its scored chores are worth (CR-14"),
    ("night_shift", 2, {"hands": [["Laundry Load"] * 7, []]}, None,
     "names 'Laundry Load' more often than hands[0] can hold: a pile of seat 0 holds its own starter cards"),
    ("night_shift", 2, {"baskets": [[], ["Bottle Wash"] * 5]}, None, "never seat 0's starter cards (NS-1"),
    ("night_shift", 2, {"supply_row": ["Nap Token"]}, None, "'supply_row' cannot hold 'Nap Token': the Supply Row"),
    ("night_shift", 2, {"supply_top": ["Laundry Load"]}, None, "'supply_top' cannot hold 'Laundry Load'"),
    ("night_shift", 2, {"structures": [["Coffee Refill"], []]}, None, "'Coffee Refill' is not a structure"),
    ("night_shift", 2, {"structures": [["Chore Chat"], []]}, None, "is no Night Shift card; only structures stay in play in the Current Shift (NS-3); did you mean 'Chore Chart'?"),
    ("night_shift", 2, {"structures": [[{"name": "Chore Chart", "health": 5}], []]}, None,
     "'structures[0][0].health' = 5 is out of range: use 1..4 (Chore Chart's printed health is 4)"),
    ("night_shift", 2, {"structures": [[{"name": "Chore Chart", "helth": 2}], []]}, None, "did you mean 'health'?"),
    ("night_shift", 2, {"structures": [["Shared Calendar"] * 5, []]}, None, "has only 4"),
    ("night_shift", 2, {"nap_tokens": 8}, None, "'nap_tokens' = 8 leaves 2 Nap Token(s) to place"),
    ("night_shift", 2, {"nap_tokens": 10, "hands": [["Nap Token"], []]}, None,
     "the other pins take 1 Nap Tokens off the stack, leaving 9"),
    ("night_shift", 2, {"nap_tokens": 11}, None, "'nap_tokens' = 11 is out of range: use 0..10"),
    ("night_shift", 2, {"patience": [0, 25]}, None, "'patience[0]' = 0 is out of range: use 1..25"),
    ("night_shift", 2, {"patience": [26, 25]}, None, "use 1..25"),
    ("night_shift", 2, {"actions": [4, 3]}, None, "'actions[0]' = 4 is out of range: use 0..3 (NS-6)"),
    ("night_shift", 2, {"effort": [-1, 0]}, None, "'effort[0]' = -1 is out of range: use 0 or more"),
    ("night_shift", 2, {"shift": 51}, None, "'shift' = 51 is out of range: use 1..50 (NS-10: turn_limit 50"),
    ("night_shift", 2, {"shift": 20}, {"max_turns": 10}, "use 1..10"),
    ("lazy_sunday", 2, {"round": 2}, None, "'round' = 2 is out of range: use 1..1 (LS-10: option rounds is 1)"),
    ("lazy_sunday", 2, {"scores": [10, 0]}, None, "cumulative scores are all 0 in round 1 (LS-10); pin round too"),
    ("lazy_sunday", 2, {"round": 2, "scores": [101, 0]}, {"match_to": 100}, "'scores[0]' = 101 is out of range"),
    ("lazy_sunday", 2, {"round": 2, "scores": [100, 0]}, {"match_to": 100, "great_escape": True},
     "with great_escape a cumulative score of exactly 100 resets to 50"),
    ("lazy_sunday", 2, {"round": 2, "scores": [10, 0]}, {"rounds": 2},
     "'scores' = [10, 0], but round 2 has 1 earlier round(s), and no round_scores are pinned"),
    ("lazy_sunday", 2, {"round_scores": [[10, 0]], "scores": [10, 5]}, {"rounds": 2},
     "'scores' = [10, 5], but round_scores [[10, 0]] add up to [10, 0]"),
    ("lazy_sunday", 2, {"round": 3, "round_scores": [[10, 0]]}, {"rounds": 3},
     "'round_scores' has 1 rounds, but round 3 comes after 2"),
    ("lazy_sunday", 2, {"round_scores": [[10, 0]]}, None, "'round_scores' = 2 is out of range: use 1..1"),
    ("lazy_sunday", 2, {"round_scores": [[10, 12]]}, {"rounds": 2}, "'round_scores[0]' = [10, 12]: no seat scored 0 or 50"),
    ("lazy_sunday", 2, {"round_scores": [[60, 0], [50, 12]]}, {"match_to": 100},
     "after round 2 the cumulative scores are [110, 12], above 100"),
    ("lazy_sunday", 2, {"round_scores": [[10]]}, {"rounds": 2}, "'round_scores[0]' is one whole number per seat"),
    ("lazy_sunday", 2, {"caller": 2}, None, "'caller' = 2 is out of range: use 0..1"),
    ("lazy_sunday", 2, {"caller": 0, "peeks_done": False}, None, "calls NOT ME! at the start of a turn (LS-7)"),
    ("lazy_sunday", 2, {"peeks_done": 1}, None, "'peeks_done' is true or false, not 1"),
    ("lazy_sunday", 2, {"memory": [[[0, 6]], []]}, None, "'memory[0]': [0, 6] is no card: seat 0's list has positions 0..5"),
    ("lazy_sunday", 2, {"memory": [[[2, 0]], []]}, None, "seats are 0..1"),
    ("lazy_sunday", 2, {"memory": [[[0, 1], [0, 1]], []]}, None, "names [0, 1] twice"),
    ("lazy_sunday", 2, {"memory": [["0 1"], []]}, None, "each spot is a [seat, position] pair"),
    ("lazy_sunday", 2, {"memroy": []}, None, "did you mean 'memory'?"),
])
def test_impossible_pins_are_refused_saying_what_is_allowed(game, seats, setup, options, message):
    with pytest.raises(OptionError) as caught:
        Match(game, seats, options, seed=1, setup=setup)
    assert message in str(caught.value)


@pytest.mark.parametrize("game", ["chore_race", "night_shift", "lazy_sunday"])
def test_setup_documents_every_key_with_its_ruling(game):
    """Each key of a game's SETUP says what its value is; the counters cite their ruling."""
    setup = get_game(game).SETUP
    assert all(len(meaning) > 20 for meaning in setup.values())
    for key in {"chore_race": ("vp", "progress", "protection_used", "catch_up"),
                "night_shift": ("patience", "shift", "structures", "nap_tokens"),
                "lazy_sunday": ("round", "round_scores", "scores", "caller", "memory")}[game]:
        assert "-" in setup[key] and any(f"{p}-" in setup[key] for p in ("CR", "NS", "LS", "G")), key


def test_a_bad_pin_in_a_scenario_names_the_line_of_its_key():
    text = '''game = "chore_race"
seats = 2
seed = 1

[setup]
tableaus = [["Mow the Lawn"], []]
vp = [3, 0]
protected = [false, true]
'''
    with pytest.raises(ScenarioError) as caught:
        Scenario.from_toml(text, "pins.toml")
    assert caught.value.line == line_of(text, "protected =") and "seat 1 has 0 VP" in str(caught.value)


def test_chore_race_pinned_progress_puts_real_done_cards_under_the_chore():
    """CR-5/CR-6: progress p is p Done played onto the chore; a pinned chore has them under
    it, taken from the action deck (every card still once), and they go to the action
    discard when the chore is scored."""
    match = same_cards("chore_race", 2, {"tableaus": [["Make Your Bed", "Mow the Lawn"], ["Do the Laundry"]],
                                         "progress": [[2, 1], [0]], "hands": [["Done"], []]})
    view = match.view(None)
    assert [e["cards"] for e in view["tableaus"][0]] == [["Done", "Done"], ["Done"]]
    assert view["tableaus"][1][0]["cards"] == [] and view["action_discard"] == []
    plain = Match("chore_race", 2, seed=4, setup={"tableaus": [["Make Your Bed", "Mow the Lawn"], ["Do the Laundry"]],
                                                  "hands": [["Done"], []]})
    assert view["action_deck"] == plain.view(None)["action_deck"] - 3
    match.play("0 end")                                        # Make Your Bed is complete (CR-14)
    assert match.view(None)["action_discard"] == ["Done", "Done"]
    with pytest.raises(OptionError, match=r"names 'Done' 31 times \(in hands\[0\], progress\[0\]\[0\]\)"):
        Match("chore_race", 2, seed=1, setup={"tableaus": [["Make Your Bed"], []], "progress": [[30], []],
                                              "hands": [["Done"], []]})


def test_a_pinned_lazy_sunday_round_3_has_its_earlier_rounds_and_ends_the_match_right():
    """LS-9/LS-10: a pinned round 3 of 3 carries the scores of rounds 1 and 2 (all 0 unless
    round_scores says otherwise), so the final table has one row per round, the totals are
    their sums and the lowest total wins."""
    options = {"rounds": 3}
    plain = same_cards("lazy_sunday", 2, {"round": 3}, options)
    assert plain.view(None)["round_scores"] == [[0, 0], [0, 0]] and plain.view(None)["scores"] == [0, 0]
    match = same_cards("lazy_sunday", 2, {"round_scores": [[50, 3], [0, 21]], "caller": 1,
                                          "lists": [["Nap", "Feed the Fish"], ["Clean the Oven", "Clean the Oven"]]},
                       options)
    assert match.view(None)["round"] == 3 and match.view(None)["scores"] == [50, 24]
    match.play("0 draw")
    match.play("0 discard")                                # seat 0's final turn: the round is scored
    view, outcome = match.view(None), match.outcome()
    assert view["round_scores"] == [[50, 3], [0, 21], [2, 50]] and view["scores"] == [52, 74]   # seat 1 beaten
    assert outcome.finished and outcome.winners == (0,) and outcome.scores == (52.0, 74.0)
    assert "after 3 rounds" in outcome.reason
