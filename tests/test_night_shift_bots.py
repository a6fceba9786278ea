"""Night Shift bots: the heuristic bot beats the random bot clearly under both presets,
decides from its view alone, follows designer-edited priority lists, and buys, plays and
settles structures and tidies up when it pays (NS-3, NS-7, NS-8)."""
from collections import Counter

import pytest

from playtest.engine import ISMCTSBot, Match, Move, RandomBot, Table, play_game
from playtest.games.night_shift import PRESETS, HeuristicBot, NightShift
from playtest.games.night_shift.bots import parse_condition
from night_shift_arrange import arrange
from fresh_process import in_fresh_process


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_heuristic_beats_random_clearly(preset):
    """200 games per preset (100 seeds, each bot in each seat): at least 80% wins and
    no more than 5% losses for the heuristic bot."""
    wins = losses = 0
    for seed in range(100):
        for heuristic_seat in (0, 1):
            bots = {heuristic_seat: "heuristic", 1 - heuristic_seat: "random"}
            _, outcome = play_game("night_shift", 2, bots, options=PRESETS[preset], seed=seed)
            wins += outcome.winners == (heuristic_seat,)
            losses += outcome.winners == (1 - heuristic_seat,)
    assert wins >= 160 and losses <= 10, (wins, losses)


def test_bots_are_registered_and_finish_reproducible_games():
    assert NightShift.BOTS == {"random": RandomBot, "heuristic": HeuristicBot, "ismcts": ISMCTSBot}
    a, outcome_a = play_game("night_shift", 2, "heuristic", options={"reshuffle": True}, seed=4)
    again = in_fresh_process("""
        from playtest.engine import play_game
        match, outcome = play_game("night_shift", 2, "heuristic", options={"reshuffle": True}, seed=4)
        result = [match.fingerprint(), list(outcome.scores)]""")   # the same game in another process (G-3)
    assert again == [a.fingerprint(), list(outcome_a.scores)] and outcome_a.finished


def test_heuristic_plays_a_lethal_trade_off_first():
    """NS-10: with the opponent at 3 Patience, Trade Off (-3) wins at once."""
    game, s = arrange(hands={0: ["Bottle Wash", "Trade Off"]}, patience=[25, 3], effort=[2, 0])
    move = HeuristicBot().choose(game.view(s, 0), game.legal_moves(s, 0))
    assert move == Move(0, "play", ("Trade Off",))
    s.patience[1] = 4
    assert HeuristicBot().choose(game.view(s, 0), game.legal_moves(s, 0)) == Move(0, "play", ("Bottle Wash",))


def test_heuristic_follows_an_edited_buy_priority_list():
    """The buy list is data: a designer's list changes what the bot buys."""
    game, s = arrange(options={"reshuffle": True}, row=["Coffee Refill", "Trade Off"], effort=[2, 0], actions=[1, 3])
    legal = game.legal_moves(s, 0)
    assert HeuristicBot().choose(game.view(s, 0), legal) == Move(0, "buy", ("Trade Off",))
    coffee_first = HeuristicBot(buy_priority=[("Coffee Refill", "effort >= 2")])
    assert coffee_first.choose(game.view(s, 0), legal) == Move(0, "buy", ("Coffee Refill",))
    never = HeuristicBot(buy_priority=[("Coffee Refill", "effort >= 3")])
    assert never.choose(game.view(s, 0), legal) == Move(0, "end")        # Patience 25: no Tidy Up either


def test_heuristic_as_written_spends_actions_on_care_not_buys():
    """NS-5 as written: bought cards never come back, so the default list buys nothing."""
    game, s = arrange(hands={0: ["Laundry Load", "Bottle Wash"]}, row=["Trade Off"], effort=[2, 0], actions=[1, 3])
    assert HeuristicBot().choose(game.view(s, 0), game.legal_moves(s, 0)) == Move(0, "play", ("Bottle Wash",))


def test_bot_sees_only_the_view():
    """A Table hands the bot its view, in which the opponent's hand is hidden."""
    seen = []

    class Spy(HeuristicBot):
        def choose(self, view, legal):
            seen.append(view)
            return super().choose(view, legal)

    match = Match("night_shift", 2, seed=2)
    Table(match, {0: Spy(), 1: "random"}).run_bots(limit=20)
    assert seen and all(v["viewer"] == 0 and v["players"][1]["hand"] is None for v in seen)


@pytest.mark.parametrize("text, facts, expected", [
    ("", {}, True),
    ("effort >= 2", {"effort": 2}, True),
    ("effort >= 2 and reshuffle", {"effort": 2, "reshuffle": 0}, False),
    ("patience <= 10 or actions >= 2", {"patience": 20, "actions": 2}, True),
])
def test_conditions(text, facts, expected):
    assert parse_condition(text)(facts) is expected


@pytest.mark.parametrize("text", ["luck > 2", "effort => 2", "effort >= two", "effort >="])
def test_bad_conditions_are_refused_clearly(text):
    with pytest.raises(ValueError, match="bad bot condition"):
        HeuristicBot(buy_priority=[("Trade Off", text)])


def heuristic_move(game, s, seat=0):
    return HeuristicBot().choose(game.view(s, seat), game.legal_moves(s, seat))


def test_heuristic_buys_a_structure_before_playing_when_it_pays():
    """NS-3/NS-4: with the reshuffle and 12+ Shifts left, a Sleep Training Plan the bot
    can afford is bought at once (it comes back and gives a Care Point every later
    Shift); as written (no reshuffle) a bought card never returns, so the bot plays."""
    hand = {0: ["Bottle Wash", "Laundry Load"]}
    game, s = arrange(options={"reshuffle": True}, hands=hand, row=["Sleep Training Plan"], effort=[5, 0], shift=10)
    assert heuristic_move(game, s) == Move(0, "buy", ("Sleep Training Plan",))
    game, s = arrange(options={"reshuffle": True}, hands=hand, row=["Sleep Training Plan"], effort=[5, 0], shift=45)
    assert heuristic_move(game, s) == Move(0, "play", ("Bottle Wash",))   # too late to pay back
    game, s = arrange(hands=hand, row=["Sleep Training Plan"], effort=[5, 0], shift=10)
    assert heuristic_move(game, s) == Move(0, "play", ("Bottle Wash",))


def test_heuristic_settles_the_structures_that_cost_it():
    """NS-8: the opponent's Sleep Training Plan (a Care Point for them every Shift) is
    settled as soon as the Effort is there; an Effort structure with the Shift's last
    Action, or at once when it blocks a Tidy Up the bot needs (NS-7)."""
    game, s = arrange(hands={0: ["Bottle Wash"]}, shifts={1: ["Sleep Training Plan"]}, effort=[5, 0])
    assert heuristic_move(game, s) == Move(0, "settle", ("Sleep Training Plan",))
    game, s = arrange(hands={0: ["Bottle Wash"]}, shifts={1: ["Shared Calendar"]}, effort=[3, 0])
    assert heuristic_move(game, s) == Move(0, "play", ("Bottle Wash",))
    game, s = arrange(hands={0: ["Bottle Wash"]}, shifts={1: ["Shared Calendar"]}, effort=[3, 0], actions=[1, 3])
    assert heuristic_move(game, s) == Move(0, "settle", ("Shared Calendar",))
    game, s = arrange(hands={0: ["Bottle Wash"]}, shifts={1: ["Shared Calendar"]}, effort=[3, 0], patience=[12, 25])
    assert heuristic_move(game, s) == Move(0, "settle", ("Shared Calendar",))


def test_heuristic_tidies_up_when_patience_runs_low():
    """NS-7: at 6 Patience or less (two Trade Offs from losing, NS-10) the bot turns its
    Effort into Patience before anything else; with Patience to spare it plays first
    and tidies up with a spare Action."""
    game, s = arrange(hands={0: ["Bottle Wash"]}, effort=[2, 0], patience=[6, 25])
    assert heuristic_move(game, s) == Move(0, "tidy")
    game, s = arrange(hands={0: ["Bottle Wash"]}, effort=[2, 0], patience=[20, 25])
    assert heuristic_move(game, s) == Move(0, "play", ("Bottle Wash",))
    game, s = arrange(effort=[2, 0], patience=[20, 25])
    assert heuristic_move(game, s) == Move(0, "tidy")


def test_heuristic_games_with_the_reshuffle_build_structures():
    """NS-3 in the lab: over 40 heuristic games with the NS-5 reshuffle the bots buy
    structures and play them (before this they never did)."""
    kinds = Counter()
    for seed in range(40):
        match, _ = play_game("night_shift", 2, "heuristic", {"reshuffle": True}, seed=seed)
        for move in match.moves:
            if move.kind in ("buy", "play") and move.args[0] in ("Sleep Training Plan", "Chore Chart",
                                                                 "Shared Calendar"):
                kinds[move.kind] += 1
    assert kinds["buy"] >= 10 and kinds["play"] >= 1, kinds
