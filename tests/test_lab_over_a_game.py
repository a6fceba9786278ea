"""Over a game: the balance-lab hooks of every game, traced runs (score curves, lead-change
turns, stalls, resources), places and their distribution, Ludii's AdvantageP1 and
DurationTurnsNotTimeouts on real games, and card impact that tells choices from holdings."""
import math

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from playtest import Match, Table, simulate
from playtest.lab import card_stats, metrics, plot_card_impact
from playtest.lab.curves import (lead_change_timeline, plot_lead_changes, plot_ranks, plot_score_curves,
                                 rank_distribution, score_curves)
from playtest.lab.stats import CHOICE, HELD, seat_ranks


@pytest.fixture(scope="module")
def traced():
    return simulate("chore_race", 3, "heuristic", games=24, seed=3, workers=1, progress=False, trace=True)


@pytest.mark.parametrize("game, seats, endings", [
    ("lazy_sunday", 3, {"rounds"}), ("chore_race", 2, {"target", "actions_out", "chores_out"}),
    ("night_shift", 2, {"patience", "supply", "turn_limit"}),
])
def test_every_game_says_its_scores_endings_and_how_it_ended(game, seats, endings):
    match = Match(game, seats, seed=4)
    rules = match.game
    assert set(rules.end_conditions()) == endings and all(rules.end_conditions().values())
    assert rules.end_condition(match.state) is None                    # not over yet
    assert len(rules.scores(match.state)) == seats
    Table(match, {s: "heuristic" for s in range(seats)}).run_bots()
    outcome = match.outcome()
    assert rules.end_condition(match.state) in endings
    assert tuple(rules.scores(match.state)) == tuple(outcome.scores)   # the curve ends where the game does


def test_night_shift_patience_is_a_resource_within_its_bounds():
    match = Match("night_shift", 2, seed=1)
    assert match.game.resources(match.state) == {"patience": (25, 25)}
    assert match.game.resource_bounds() == {"patience": (0, 25)}


def test_traced_rows_hold_curves_that_end_at_the_final_scores(traced):
    for _, row in traced.iterrows():
        curve = row["score_curve"]
        turns = [point[0] for point in curve]
        assert turns == sorted(set(turns)) and turns[-1] == row["turns"]
        assert curve[-1][1:] == [row[f"seat{s}_score"] for s in range(3)]
        assert len(row["lead_change_turns"]) == row["lead_changes"]
        assert all(1 <= t <= row["turns"] for t in row["lead_change_turns"])
        assert 0 <= row["longest_stall"] < row["turns"]
    assert "score_curve" not in simulate("chore_race", 3, "heuristic", games=2, workers=1, progress=False).columns


def test_a_stall_is_the_longest_run_of_turns_without_a_score_change():
    df = simulate("night_shift", 2, "heuristic", games=4, seed=0, workers=1, progress=False, trace=True)
    for _, row in df.iterrows():
        curve = [tuple(point[1:]) for point in row["score_curve"]]
        turns = [point[0] for point in row["score_curve"]]
        longest, start = 0, 0
        for i in range(1, len(curve)):
            start = start if curve[i] == curve[start] else i
            longest = max(longest, turns[i] - turns[start])
        assert row["longest_stall"] == longest
        assert 0 < row["min_patience"] <= row["max_patience"] == 25     # NS-6: within 0..25


def test_score_curves_average_the_games_still_going(traced):
    curves = score_curves(traced, min_games=1)
    first = curves[(curves["turn"] == 2) & (curves["seat"] == 0)].iloc[0]
    at_two = [next(p[1] for p in row if p[0] == 2) for row in traced["score_curve"]]
    assert first["mean"] == pytest.approx(np.mean(at_two)) and first["games"] == len(traced)
    banded = curves.dropna()   # a turn one game reached has no interval
    assert len(banded) > 0.8 * len(curves)
    assert (banded["low"] <= banded["mean"] + 1e-12).all() and (banded["mean"] <= banded["high"] + 1e-12).all()
    spread = score_curves(traced, band="spread", min_games=1)
    row = spread[(spread["turn"] == 10) & (spread["seat"] == 1)].iloc[0]
    at_ten = [next(p[2] for p in r if p[0] == 10) for r in traced["score_curve"] if any(p[0] == 10 for p in r)]
    assert (row["low"], row["high"]) == pytest.approx(tuple(np.quantile(at_ten, [0.1, 0.9])))
    assert score_curves(traced)["games"].min() >= 10
    with pytest.raises(ValueError, match="trace=True"):
        score_curves(simulate("chore_race", 3, "random", games=2, workers=1, progress=False))
    with pytest.raises(ValueError, match="band"):
        score_curves(traced, band="iqr")


def test_lead_change_timeline_counts_every_change_once(traced):
    timeline = lead_change_timeline(traced, min_games=1)
    assert timeline["changes"].sum() == traced["lead_changes"].sum()
    assert timeline.loc[1, "games"] == len(traced)
    assert timeline["per_game"].between(0, 10).all()


def test_places_and_rank_distribution(traced):
    places = seat_ranks(traced)
    for i, row in traced.iterrows():
        for seat in row["winners"]:
            assert places.at[i, seat] == (1 + len(row["winners"])) / 2
        assert sorted(places.loc[i]) == pytest.approx(sorted(places.loc[i]))
        assert places.loc[i].sum() == pytest.approx(6)                 # 1 + 2 + 3, however shared
    table = rank_distribution(traced)
    shares = table.drop(columns=["mean_place", "games"])
    assert np.allclose(shares.sum(axis=1), 1) and (table["games"] == len(traced)).all()
    assert table["mean_place"].mean() == pytest.approx(2)
    assert set(rank_distribution(traced, by="bot").index) == {"heuristic"}


def test_ludii_metrics_on_real_games(traced):
    m = metrics(traced)
    first = traced["first_seat"].to_numpy()
    expected = np.mean([1 - (seat_ranks(traced).at[i, first[i]] - 1) / 2 for i in range(len(traced))])
    assert m.at["AdvantageP1", "value"] == pytest.approx(expected)
    finished = traced[traced["finished"]]
    assert m.at["DurationTurnsNotTimeouts", "value"] == pytest.approx(finished["turns"].mean())
    assert m.at["Completion", "value"] == pytest.approx(np.mean([bool(w) for w in traced["winners"]]))


def test_card_impact_tells_choices_from_cards_held_at_the_end():
    df = simulate("lazy_sunday", 2, "heuristic", games=12, seed=2, workers=1, progress=False)
    stats = card_stats(df)
    assert set(stats.loc["played", "kind"]) == {CHOICE} and set(stats.loc["kept", "kind"]) == {HELD}
    assert "not an effect" in stats.attrs["note"]
    kept = plot_card_impact(df, "kept")
    assert HELD in kept.axes[0].get_xlabel() and "correlation" in kept.texts[0].get_text()


def test_over_a_game_plots(traced):
    for figure in (plot_score_curves(traced), plot_lead_changes(traced), plot_ranks(traced)):
        assert isinstance(figure, Figure) and figure.axes[0].get_title()
    curves = plot_score_curves(traced).axes[0]
    assert len(curves.get_lines()) == 3 and len(curves.collections) == 3   # a line and a band per seat
    assert len(plot_ranks(traced).axes[0].patches) == 3 * (rank_distribution(traced).shape[1] - 2)
