"""Balance-lab statistics against published values and hand-built games with known answers."""
import math

import numpy as np
import pandas as pd
import pytest

from scipy import stats as scipy_stats

from playtest.lab import card_stats, compare, metrics, newcombe, seat_win_rates, wilson
from playtest.lab.stats import (BALANCE_INTERVAL, CARD_NOTE, HELD, NEWCOMBE, NEWCOMBE_PAIRED, PAIRED_T, T_INTERVAL,
                                WELCH, WILSON, newcombe_paired, seat_ranks)


@pytest.mark.parametrize("successes, n, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:857-872, Table I (Wilson score, method 3)
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718),
    (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0),
])
def test_wilson_matches_published_intervals(successes, n, low, high):
    got = wilson(successes, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_no_data_and_other_confidence_and_bad_input():
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(5, 10, 0.90), wilson(5, 10, 0.99)
    assert narrow[0] > wilson(5, 10)[0] > wide[0]
    for bad in [(11, 10), (-1, 10), (1, -1)]:
        with pytest.raises(ValueError, match="within 0..n"):
            wilson(*bad)
    with pytest.raises(ValueError, match="confidence"):
        wilson(1, 2, confidence=95)


@pytest.mark.parametrize("a, b, expected", [
    # Newcombe (1998b), Statistics in Medicine 17:873-890, Table II, method 10
    ((48, 80), (56, 70), (0.2, 0.0524, 0.3339)),
    ((3, 10), (9, 10), (0.6, 0.1705, 0.8090)),
    ((0, 20), (0, 10), (0.0, -0.1611, 0.2775)),  # 0/10 - 0/20
])
def test_newcombe_matches_published_intervals(a, b, expected):
    assert newcombe(*a, *b) == pytest.approx(expected, abs=5e-5)


def hand_built() -> pd.DataFrame:
    """Five 2-seat games: seat 0 wins, seat 0 wins, seat 1 wins, a draw, an unfinished game."""
    df = pd.DataFrame({
        "game": range(5), "seed": range(5), "first_seat": [0, 1, 0, 0, 0],
        "finished": [True, True, True, True, False], "draw": [False, False, False, True, False],
        "winners": [(0,), (0,), (1,), (), ()], "winner_bots": [("a",), ("b",), ("a",), (), ()],
        "turns": [10, 20, 30, 40, 50], "moves": [10, 20, 30, 40, 100], "lead_changes": [1, 2, 0, 0, 4],
        "margin": [5.0, 3.0, 1.0, math.nan, math.nan],
        "seat0_bot": ["a", "b", "a", "b", "a"], "seat1_bot": ["b", "a", "b", "a", "b"],
        "seat0_score": [1, 2, 3, 4, 5], "seat1_score": [6, 5, 2, 4, 5],
        "seat0_won": [True, True, False, False, False], "seat1_won": [False, False, True, False, False],
        "seat0_played:X": [1, 0, 2, 0, 0], "seat1_played:X": [0, 1, 1, 0, 0],
        "seat1_played:Y": [0, 0, 0, 0, 3],
    })
    df.attrs["seats"] = 2
    return df


def test_metrics_on_hand_built_games():
    m = metrics(hand_built())
    # Ludii's AdvantageP1: game 0 the first seat won (1), games 1 and 2 it lost (0), a draw and an
    # unfinished game count half (0.5 each): 2 of 5; its interval is Wilson's of that sum
    assert m.at["AdvantageP1", "value"] == pytest.approx(2 / 5)
    assert (m.at["AdvantageP1", "low"], m.at["AdvantageP1", "high"]) == pytest.approx(wilson(2, 5))
    assert m.at["FirstSeatWins", "value"] == pytest.approx(1 / 5)   # only game 0: first seat 0 won
    assert m.at["Drawishness", "value"] == pytest.approx(1 / 5)
    assert m.at["Completion", "value"] == pytest.approx(3 / 5)      # Ludii's: games with a winner
    assert m.at["Timeouts", "value"] == pytest.approx(1 / 5)
    assert m.at["Balance", "value"] == pytest.approx(1 - (2 / 5 - 1 / 5))
    assert m.at["Balance", "low"] <= m.at["Balance", "value"] <= m.at["Balance", "high"]
    assert m.at["DurationTurns", "value"] == 30
    half_width = scipy_stats.t.ppf(0.975, 4) * np.std([10, 20, 30, 40, 50], ddof=1) / math.sqrt(5)
    assert (m.at["DurationTurns", "low"], m.at["DurationTurns", "high"]) == pytest.approx((30 - half_width, 30 + half_width))
    assert m.at["DurationTurnsNotTimeouts", "value"] == 25 and m.at["DurationTurnsNotTimeouts", "n"] == 4
    assert m.at["DurationTurnsMedian", "value"] == 30
    assert m.at["DurationMovesQ90", "value"] == pytest.approx(np.quantile([10, 20, 30, 40, 100], 0.9))
    assert m.at["LeadChange", "value"] == pytest.approx(np.mean([0.1, 0.1, 0, 0, 0.04]))
    assert m.at["LeadChangesPerGame", "value"] == pytest.approx(7 / 5)
    assert m.at["ScoreMargin", "value"] == pytest.approx(3.0)
    assert m.at["ScoreMargin", "n"] == 3
    assert m.loc["AdvantageP1", "interval"] == WILSON
    assert m.loc["Balance", "interval"] == BALANCE_INTERVAL
    assert m.loc["DurationTurns", "interval"] == T_INTERVAL
    assert math.isnan(m.at["DurationTurnsMedian", "low"])
    assert m.at["ScoreMargin", "low"] >= 0   # the t interval cut to the metric's range (a margin is never negative)
    assert "too few" in m.at["DurationTurns", "note"] and m["meaning"].str.len().gt(10).all()


def test_a_metric_no_game_gives_says_which_capability_the_game_lacks():
    """A game without the Leads or CountsTurns capability (its turns and lead changes are
    None in every game) gets a note naming the capability, not "no games to go on"."""
    games = hand_built().assign(turns=None, lead_changes=None)
    m = metrics(games)
    for metric in ("LeadChange", "LeadChangesPerGame"):
        assert m.at[metric, "n"] == 0 and m.at[metric, "note"] == (
            "no value in 5 games: the game does not report its leaders (playtest.engine.Leads)")
    assert m.at["DurationTurns", "note"].endswith("does not count its turns (playtest.engine.CountsTurns)")
    assert m.at["DurationMoves", "n"] == 5 and "no value" not in m.at["DurationMoves", "note"]
    # a metric every game may give, that none of these did (no game with winners and others)
    assert metrics(games.assign(margin=None)).at["ScoreMargin", "note"] == "none of the 5 games counts for it"
    assert metrics(games.iloc[:0]).at["LeadChange", "note"] == "no games to go on"


def test_ranks_shared_places_draws_and_a_lowest_score_game():
    df = hand_built()
    places = seat_ranks(df)
    assert places.loc[0].tolist() == [1, 2] and places.loc[2].tolist() == [2, 1]
    assert places.loc[3].tolist() == [1.5, 1.5] and places.loc[4].tolist() == [1.5, 1.5]   # draw, unfinished
    from playtest.lab.simulation import ranks
    assert ranks([10, 30, 20, 30], (0,), True) == [1, 2.5, 4, 2.5]           # ties share the mean place
    assert ranks([10, 30, 20, 30], (0,), True, low_score_wins=True) == [1, 3.5, 2, 3.5]
    assert ranks([5, 5, 1], (0, 1), True) == [1.5, 1.5, 3]


def test_seat_win_rates_per_seat_and_per_bot():
    df = hand_built()
    seats = seat_win_rates(df)
    assert seats["wins"].tolist() == [2, 1] and seats["games"].tolist() == [5, 5]
    assert (seats.at[0, "low"], seats.at[0, "high"]) == pytest.approx(wilson(2, 5))
    bots = seat_win_rates(df, by="bot")
    # bot a: seat 0 in games 0, 2, 4 (won game 0) and seat 1 in games 1, 3 (no win)
    assert bots.loc["a", ["wins", "games"]].tolist() == [1, 5]
    assert bots.loc["b", ["wins", "games"]].tolist() == [2, 5]
    with pytest.raises(ValueError, match="'seat' or 'bot'"):
        seat_win_rates(df, by="card")


def test_card_stats_on_hand_built_games():
    stats = card_stats(hand_built())
    assert stats.attrs["note"] == CARD_NOTE and "not an effect" in CARD_NOTE
    x = stats.loc[("played", "X")]
    # seat-games that played X: (g0, s0) won, (g2, s0) lost, (g1, s1) lost, (g2, s1) won
    assert (x["seat_games"], x["wins"]) == (4, 2)
    assert x["win_rate"] == pytest.approx(0.5)
    assert x["vs_overall"] == pytest.approx(0.5 - 3 / 10)
    assert x["per_game"] == pytest.approx(5 / 5)
    assert x["share_of_games"] == pytest.approx(3 / 5)
    assert (x["low"], x["high"]) == pytest.approx(wilson(2, 4))
    y = stats.loc[("played", "Y")]
    assert (y["seat_games"], y["wins"], y["per_game"]) == (1, 0, pytest.approx(3 / 5))


def variant_b() -> pd.DataFrame:
    """hand_built's seeds under another variant: seat 0 wins four, the games run longer by 5 to 15 turns."""
    b = hand_built()
    b["seat0_won"] = [True, True, True, True, False]
    b["seat1_won"] = False
    b["winners"] = [(0,)] * 4 + [()]
    b["draw"] = False
    b["turns"] = [15, 30, 45, 50, 60]
    return b


def test_compare_pairs_runs_on_the_same_seeds():
    a, b = hand_built(), variant_b()
    c = compare(a, b)
    assert c.attrs["paired"] and "paired by seed: 5 games" in c.attrs["pairing"]
    row = c.loc["Win rate seat 0"]
    assert (row["A"], row["B"]) == (pytest.approx(0.4), pytest.approx(0.8))
    # seat 0 won under both in games 0, 1; under B alone in games 2, 3; under neither in game 4
    assert (row["difference"], row["low"], row["high"]) == pytest.approx(newcombe_paired(2, 0, 2, 1))
    assert row["interval"] == NEWCOMBE_PAIRED and row["n"] == 5
    turns = c.loc["DurationTurns"]
    diffs = [5, 10, 15, 10, 10]    # per seed, B - A
    expected = scipy_stats.ttest_rel(b["turns"], a["turns"]).confidence_interval(0.95)
    assert turns["difference"] == pytest.approx(np.mean(diffs)) and turns["interval"] == PAIRED_T
    assert (turns["low"], turns["high"]) == pytest.approx((expected.low, expected.high))
    assert c.loc["Drawishness", "difference"] == pytest.approx(-0.2)
    assert c.loc["Balance", "interval"] == "" and math.isnan(c.loc["Balance", "low"])
    same = compare(a, a)
    assert (same["difference"].dropna() == 0).all()


def test_compare_falls_back_to_independent_samples_when_the_seeds_differ():
    a, b = hand_built(), variant_b().assign(seed=range(100, 105))
    c = compare(a, b)
    assert not c.attrs["paired"] and "did not play the same seeds" in c.attrs["pairing"]
    row = c.loc["Win rate seat 0"]
    assert (row["difference"], row["low"], row["high"]) == pytest.approx(newcombe(2, 5, 4, 5))
    assert row["interval"] == NEWCOMBE
    expected = scipy_stats.ttest_ind(b["turns"], a["turns"], equal_var=False).confidence_interval(0.95)
    assert c.loc["DurationTurns", "interval"] == WELCH
    assert (c.at["DurationTurns", "low"], c.at["DurationTurns", "high"]) == pytest.approx((expected.low, expected.high))
    # the same seeds, told not to pair: the same as other seeds
    assert compare(hand_built(), variant_b(), paired=False).loc["DurationTurns", "interval"] == WELCH
    with pytest.raises(ValueError, match="share no seed"):
        compare(a, b, paired=True)
    # some seeds shared: paired=True pairs those
    partial = compare(hand_built(), variant_b().iloc[:3], paired=True)
    assert partial.attrs["paired"] and partial.at["DurationTurns", "n"] == 3


def test_compare_refuses_different_seat_counts():
    a = hand_built()
    b = hand_built().assign(seat2_won=False)
    b.attrs["seats"] = 3
    with pytest.raises(ValueError, match="same seat count"):
        compare(a, b)


def two_seat_games(wins0: int, wins1: int, n: int) -> pd.DataFrame:
    """``n`` finished 2-seat games: seat 0 wins the first ``wins0``, seat 1 the next ``wins1``."""
    won0 = [i < wins0 for i in range(n)]
    won1 = [wins0 <= i < wins0 + wins1 for i in range(n)]
    df = pd.DataFrame({"game": range(n), "first_seat": 0, "finished": True, "draw": [not (a or b) for a, b in zip(won0, won1)],
                       "winners": [(0,) if a else (1,) if b else () for a, b in zip(won0, won1)],
                       "turns": 10, "moves": 20, "lead_changes": 1, "margin": 1.0,
                       "seat0_won": won0, "seat1_won": won1})
    df.attrs["seats"] = 2
    return df


@pytest.mark.parametrize("wins0, wins1, n", [(100, 99, 200), (100, 100, 200), (50, 40, 100), (90, 10, 100), (1, 0, 30)])
def test_balance_interval_holds_the_value_and_is_the_simultaneous_wilson_one(wins0, wins1, n):
    row = metrics(two_seat_games(wins0, wins1, n)).loc["Balance"]
    assert row["low"] <= row["value"] <= row["high"] <= 1
    (l0, h0), (l1, h1) = wilson(wins0, n, 0.975), wilson(wins1, n, 0.975)   # Bonferroni: 0.05 / 2 seats
    assert row["low"] == pytest.approx(max(0, 1 - (max(h0, h1) - min(l0, l1))))
    assert row["high"] == pytest.approx(min(1, 1 - max(0, max(l0, l1) - min(h0, h1))))


def test_balance_of_nearly_even_seats_reaches_1_and_of_a_lopsided_game_stays_below():
    even = metrics(two_seat_games(100, 99, 200)).loc["Balance"]
    assert even["value"] == pytest.approx(0.995) and even["high"] == 1.0
    lopsided = metrics(two_seat_games(90, 10, 100)).loc["Balance"]
    assert lopsided["high"] < 0.5


def test_balance_is_undefined_when_nobody_won():
    row = metrics(two_seat_games(0, 0, 50)).loc["Balance"]
    assert math.isnan(row["value"]) and math.isnan(row["low"]) and math.isnan(row["high"])
    assert "no game had a winner" in row["meaning"]


def test_compare_refuses_frames_of_different_games():
    a, b = hand_built(), hand_built()
    a.attrs["game"], b.attrs["game"] = "chore_race", "lazy_sunday"
    with pytest.raises(ValueError, match="A is chore_race and B is lazy_sunday"):
        compare(a, b)
