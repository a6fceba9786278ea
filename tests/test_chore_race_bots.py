"""Chore Race bots: the heuristic bot plays from its view only, follows its rules of
thumb (finish near-complete chores, attack the leader, keep Excuse for real threats,
CR-7) and beats random bots clearly."""
from playtest.engine import ISMCTSBot, Move, RandomBot, play_game
from playtest.games.chore_race import ChoreRace, HeuristicBot
from test_chore_race_helpers import arrange, new_match
from fresh_process import in_fresh_process


def choice(m, seat):
    """What the heuristic bot plays at ``seat`` now, from ``bot_view`` and legal moves."""
    return HeuristicBot(0).choose(m.bot_view(seat), m.legal_moves(seat))


def test_bots_are_registered_on_the_game():
    assert ChoreRace.BOTS == {"random": RandomBot, "heuristic": HeuristicBot, "ismcts": ISMCTSBot}


def test_heuristic_finishes_the_chore_one_done_from_complete():
    """CR-5: a Done on the chore it completes, not on the one with most progress left."""
    m = arrange(new_match(2), hands={0: ["done"]},
                tableaus={0: [("Mow the Lawn", 2), ("Make Your Bed", 1), ("Feed the Cat", 2)]})
    assert choice(m, 0) == Move(0, "done", (1,))


def test_heuristic_attacks_the_leader():
    """CR-13: Inspection goes to the opponent with most VP, on their most advanced chore."""
    m = arrange(new_match(3), hands={0: ["inspection"]},
                tableaus={1: [("Mow the Lawn", 3)], 2: [("Mow the Lawn", 1), ("Do the Laundry", 2)]},
                vp=[0, 2, 9])
    assert choice(m, 0) == Move(0, "inspection", (2, 1))


def test_heuristic_keeps_excuse_for_real_threats():
    """CR-7: accept a harmless Inspection; Excuse one on a chore about to complete."""
    for progress, expected in ((1, "accept"), (3, "excuse")):
        m = arrange(new_match(2), hands={0: ["inspection"], 1: ["excuse"]},
                    tableaus={1: [("Mow the Lawn", progress)]})
        m.play("0 inspection 1 0")
        assert choice(m, 1).kind == expected


def test_heuristic_dodges_with_a_spare_ill_do_it_later_before_spending_excuse():
    m = arrange(new_match(2), hands={0: ["inspection"], 1: ["excuse", "later"]},
                tableaus={1: [("Mow the Lawn", 3)]})
    m.play("0 inspection 1 0")
    assert choice(m, 1) == Move(1, "dodge")


def test_heuristic_decides_from_the_view_alone():
    """The bot reads only the view: equal views give equal choices."""
    a = arrange(new_match(2, seed=1), hands={0: ["done", "excuse"], 1: ["done"]},
                tableaus={0: [("Mow the Lawn", 1)]})
    b = arrange(new_match(2, seed=2), hands={0: ["done", "excuse"], 1: ["teamwork"]},
                tableaus={0: [("Mow the Lawn", 1)]})
    assert a.bot_view(0) == b.bot_view(0) and choice(a, 0) == choice(b, 0)


def test_heuristic_beats_random_clearly_over_200_games():
    """One heuristic seat against random seats (2-4 seats, rotating): it should win far
    more than its fair share (1/2 .. 1/4)."""
    wins = fair = 0.0
    for seed in range(200):
        seats = 2 + seed % 3
        me = seed % seats
        bots = {s: ("heuristic" if s == me else "random") for s in range(seats)}
        _, outcome = play_game("chore_race", seats, bots, seed=seed)
        wins += me in outcome.winners
        fair += 1 / seats
    assert wins >= 0.85 * 200 and wins > 2.5 * fair


def test_heuristic_games_are_reproducible_and_finish():
    """The same seed plays the same game in another process (G-3)."""
    first = play_game("chore_race", 4, "heuristic", seed=3)
    again = in_fresh_process("""
        from playtest.engine import play_game
        result = [str(m) for m in play_game("chore_race", 4, "heuristic", seed=3)[0].moves]""")
    assert first[1].finished and [str(m) for m in first[0].moves] == again
