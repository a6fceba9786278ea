"""playtest.simulate: rows, seat rotation, determinism across workers and executors,
cancel, progress, bad input, game hooks, A/B runs and plots."""
import threading
from concurrent.futures import ThreadPoolExecutor

import pandas as pd
import pytest
from matplotlib.container import BarContainer
from matplotlib.figure import Figure

import toy_game  # noqa: F401  (registers the "toy" game)
from playtest import Match, OptionError, RandomBot, get_game, simulate
from playtest.games.lazy_sunday.bots import HeuristicBot
from playtest.lab import (ab_test, card_stats, game_seed, metrics, plot_card_impact, plot_compare, plot_lengths,
                          plot_win_rates, seat_win_rates)

LS = dict(game="lazy_sunday", seats=2, progress=False)


@pytest.fixture(scope="module")
def mixed():
    """40 three-seat Lazy Sunday games, heuristic against two random bots."""
    return simulate("lazy_sunday", 3, ["heuristic", "random", "random"], games=40, seed=7, workers=1, progress=False)


def test_one_row_per_game_with_the_documented_columns(mixed):
    df = mixed
    assert df["game"].tolist() == list(range(40))
    for column in ["seed", "first_seat", "finished", "draw", "winners", "winner_bots", "turns", "moves",
                   "lead_changes", "margin", "seat0_bot", "seat2_score", "seat1_won"]:
        assert column in df.columns
    assert "record" not in df.columns            # no record kept unless asked
    assert df.attrs["game"] == "lazy_sunday" and df.attrs["seats"] == 3 and df.attrs["games"] == 40
    assert df.attrs["bots"] == ["heuristic", "random", "random"] and df.attrs["seed"] == 7
    assert df.attrs["options"] == Match("lazy_sunday", 3).options_dict()   # every option, defaults included
    assert df.attrs["cancelled"] is False
    assert df["seed"].tolist() == [game_seed(7, i) for i in range(40)]
    for _, row in df.iterrows():
        won = [s for s in range(3) if row[f"seat{s}_won"]]
        assert tuple(won) == row["winners"]
        assert row["winner_bots"] == tuple(row[f"seat{s}_bot"] for s in won)
        assert row["draw"] == (row["finished"] and not won)
        assert row["moves"] >= row["turns"] >= 1


def test_seats_rotate_so_every_bot_plays_every_seat_equally(mixed):
    line_up = ["heuristic", "random", "random"]
    for i, row in mixed.iterrows():
        assert [row[f"seat{s}_bot"] for s in range(3)] == [line_up[(s - i) % 3] for s in range(3)]
    heuristic_seats = [next(s for s in range(3) if row[f"seat{s}_bot"] == "heuristic") for _, row in mixed.iterrows()]
    counts = pd.Series(heuristic_seats).value_counts()
    assert counts.max() - counts.min() <= 1
    # and the heuristic bot really plays: it wins far more than its fair third
    assert sum(bots.count("heuristic") for bots in mixed["winner_bots"]) > 40 / 3


def test_a_row_is_the_game_its_seed_and_line_up_replay(mixed):
    df = simulate(**LS, bots=["heuristic", "random"], games=3, seed=5, workers=1, keep_records=True)
    for _, row in df.iterrows():
        match = Match.from_json(row["record"])
        assert match.seed == row["seed"] and len(match.moves) == row["moves"]
        assert match.outcome().winners == row["winners"]
        assert list(match.outcome().scores) == [row["seat0_score"], row["seat1_score"]]


def test_same_rows_for_one_worker_two_processes_and_a_thread_pool():
    args = dict(LS, bots=["heuristic", "random"], games=60, seed=3)
    one = simulate(**args, workers=1)
    two = simulate(**args, workers=2)
    with ThreadPoolExecutor(3) as pool:
        threads = simulate(**args, executor=pool)
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, threads)
    # the first games do not depend on how many follow (chunking differs)
    # (card columns exist for the cards seen, so the extra ones of the long run are all 0 here)
    short = simulate(**dict(args, games=7), workers=1)
    pd.testing.assert_frame_equal(short, one.iloc[:7][short.columns])
    assert (one.iloc[:7].drop(columns=short.columns) == 0).all().all()
    assert not one.equals(simulate(**dict(args, seed=4), workers=1))


def test_progress_callable_counts_every_game_and_tqdm_bar_runs():
    calls = []
    simulate("lazy_sunday", 2, games=30, workers=1, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (30, 30)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and all(t == 30 for _, t in calls)
    assert len(simulate("lazy_sunday", 2, games=3, workers=1, progress=True)) == 3


@pytest.mark.parametrize("workers", [1, 2])
def test_cancel_returns_the_games_finished_so_far(workers):
    cancel = threading.Event()
    df = simulate("lazy_sunday", 2, games=400, workers=workers, cancel=cancel,
                  progress=lambda done, total: cancel.set())
    assert df.attrs["cancelled"] is True
    assert 0 < len(df) < 400
    assert df["game"].is_unique and df["game"].is_monotonic_increasing
    full = simulate(**LS, games=400, workers=1)
    same = full[full["game"].isin(df["game"])].reset_index(drop=True)
    pd.testing.assert_frame_equal(df, same[df.columns])   # card columns: only the cards seen so far


def test_cancel_before_the_start_returns_no_games():
    cancel = threading.Event()
    cancel.set()
    df = simulate(**LS, games=10, workers=1, cancel=cancel)
    assert len(df) == 0 and df.attrs["cancelled"] is True and "winners" in df.columns
    # the tables and plots still work on it (a dashboard shows what it has)
    assert seat_win_rates(df)["games"].tolist() == [0, 0]
    assert metrics(df).at["Completion", "n"] == 0 and (card_stats(df)["seat_games"] == 0).all()   # every card, none done
    assert isinstance(plot_win_rates(df), Figure) and isinstance(plot_lengths(df), Figure)


@pytest.mark.parametrize("kwargs, message", [
    (dict(game="no_such_game"), "unknown game"),
    (dict(seats=8), "2 to 7 seats"),
    (dict(bots="robot"), "unknown bot 'robot'.*random, gentle, heuristic"),
    (dict(bots=["random"]), "one per seat"),
    (dict(bots=[1, 2]), "a bot is a name"),
    (dict(options={"rounds": 0}), "rounds"),
    (dict(options={"colour": "red"}), "colour"),
    (dict(options="no such preset"), "presets: 'one round'"),
    (dict(games=0), "1 or more"),
    (dict(seed=-1), "seed"),
    (dict(workers=0), "workers"),
    (dict(workers=2, executor=ThreadPoolExecutor(1)), "not both"),
    (dict(executor="dask"), "Executor"),
    (dict(progress="yes"), "progress"),
    (dict(cancel=True), "threading.Event"),
])
def test_bad_input_is_refused_before_any_game(kwargs, message):
    calls = []
    args = dict(game="lazy_sunday", seats=2, games=5, progress=lambda done, total: calls.append(done), workers=1)
    args.update(kwargs)
    if "executor" in kwargs:
        args.pop("workers") if "workers" not in kwargs else None
    with pytest.raises(OptionError, match=message):
        simulate(**args)
    assert calls == []


def test_unpicklable_bot_factory_is_refused_for_processes():
    local = lambda seed: RandomBot(seed)  # noqa: E731 (a lambda cannot be sent to a process)
    with pytest.raises(OptionError, match="worker processes"):
        simulate(**LS, games=5, bots=[local, "random"], workers=2)
    assert len(simulate(**LS, games=2, bots=[local, "random"], workers=1)) == 2


def test_bot_factories_and_presets():
    df = simulate("lazy_sunday", 2, [HeuristicBot, RandomBot], games=4, workers=1, progress=False,
                  options="match to 100")
    assert df.attrs["bots"] == ["heuristic", "random"]
    assert df.attrs["options"]["match_to"] == 100
    assert (df[["seat0_score", "seat1_score"]].max(axis=1) > 100).all()   # LS-10: played past 100


@pytest.mark.parametrize("game, seats, counters", [
    ("lazy_sunday", 3, {"played", "kept"}), ("chore_race", 2, {"played", "scored"}),
    ("night_shift", 2, {"played", "bought"}),
])
def test_every_game_reports_turns_lead_changes_and_card_counters(game, seats, counters):
    df = simulate(game, seats, games=20, workers=1, progress=False)
    assert (df["turns"] >= 1).all() and (df["lead_changes"] >= 0).all()
    stats = card_stats(df)
    assert set(stats.index.get_level_values("counter")) == counters
    card_columns = [c for c in df.columns if ":" in c]
    assert all(df[c].dtype == "int32" for c in card_columns) and (df[card_columns] >= 0).all().all()
    played = df[[c for c in card_columns if "_played:" in c]].sum(axis=1)
    assert played.sum() > 0 and (played <= df["moves"]).all()


def test_a_game_without_the_lab_hooks_still_simulates():
    df = simulate("toy", 2, games=5, workers=1, progress=False)
    assert df["turns"].isna().all() and df["lead_changes"].isna().all()
    assert card_stats(df).empty
    m = metrics(df)
    assert m.at["Completion", "n"] == 5 and pd.isna(m.at["LeadChange", "value"])


def test_ab_test_plays_the_same_seeds_under_both_variants():
    result = ab_test("lazy_sunday", 2, "random", 30, None, "match to 100", seed=2, workers=1, progress=False)
    assert result.a["seed"].tolist() == result.b["seed"].tolist()
    assert result.b.attrs["options"]["match_to"] == 100 and result.a.attrs["options"]["match_to"] is None
    longer = result.comparison.loc["DurationTurns"]
    assert longer["difference"] > 0 and longer["low"] > 0      # a match to 100 takes several rounds
    with pytest.raises(OptionError, match="no preset"):
        ab_test("lazy_sunday", 2, "random", 30, None, "to 200", workers=1, progress=False)


def _bars(ax):
    """The bar container of ``ax``, checked to carry interval bars."""
    bars = next(c for c in ax.containers if isinstance(c, BarContainer))
    assert bars.errorbar is not None and len(bars.errorbar.lines[2]) > 0
    return bars


def test_plots_return_figures_with_the_expected_artists(mixed):
    fig = plot_win_rates(mixed)
    assert isinstance(fig, Figure)
    assert len(_bars(fig.axes[0]).patches) == 3
    assert len(_bars(plot_win_rates(mixed, by="bot").axes[0]).patches) == 2
    lengths = plot_lengths(mixed)
    assert [ax.get_xlabel() for ax in lengths.axes] == ["turns", "moves"]
    assert sum(p.get_height() for p in lengths.axes[0].patches) == 40
    impact = _bars(plot_card_impact(mixed, "played").axes[0])
    assert len(impact.patches) == len(card_stats(mixed).loc["played"])
    with pytest.raises(ValueError, match="played, kept|kept, played"):
        plot_card_impact(mixed, "bought")
    result = ab_test("lazy_sunday", 3, ["heuristic", "random", "random"], 20, None, {"rounds": 2}, seed=1,
                     workers=1, progress=False)
    compared = plot_compare(result.comparison)
    rates, means = compared.axes
    shown = result.comparison["low"].notna()
    assert len(rates.get_yticklabels()) == (result.comparison["kind"].isin(["rate", "score"]) & shown).sum()
    assert len(means.get_yticklabels()) <= (result.comparison["kind"] == "mean").sum()
    assert rates.containers and means.containers


def test_plots_show_in_a_notebook_without_a_matplotlib_backend_set_up(mixed):
    """No ``%matplotlib inline``: IPython's own formatters still find a PNG for each plot."""
    from IPython.core.formatters import DisplayFormatter
    lengths = plot_lengths(mixed)
    for fig in (plot_win_rates(mixed), lengths, plot_card_impact(mixed)):
        data, _ = DisplayFormatter().format(fig)
        assert data["image/png"][:8] == b"\x89PNG\r\n\x1a\n"
    # length bars are whole turns: every bar edge sits half-way between whole numbers
    edges = [p.get_x() for p in lengths.axes[0].patches]
    assert all(abs(x - round(x) - 0.5) < 1e-9 or abs(x - round(x) + 0.5) < 1e-9 for x in edges)


def test_numpy_whole_numbers_are_accepted_as_counts_and_seeds():
    import numpy as np
    df = simulate("lazy_sunday", np.int64(2), games=np.int64(3), seed=np.int32(2), workers=1, progress=False)
    assert len(df) == 3 and df.attrs["seed"] == 2 and df.attrs["seats"] == 2
    with pytest.raises(OptionError, match="1 or more"):
        simulate("lazy_sunday", 2, games=True, workers=1, progress=False)


def test_plot_compare_takes_an_ab_test_and_names_both_variants():
    result = ab_test("chore_race", 2, "random", 6, None, "quick game", seed=1, workers=1, progress=False)
    assert result.comparison.attrs["A"] == "defaults" and result.comparison.attrs["B"] == "preset 'Quick Game'"
    title = plot_compare(result)._suptitle.get_text()
    assert "Chore Race" in title and "A = defaults" in title and "B = preset 'Quick Game'" in title
    with pytest.raises(TypeError, match="compare"):
        plot_compare(result.a)


@pytest.mark.parametrize("game, seats", [("lazy_sunday", 3), ("chore_race", 3), ("night_shift", 2)])
def test_a_game_stopped_by_the_turn_cap_counts_the_turns_played_and_no_lead_change_of_its_own(game, seats):
    df = simulate(game, seats, games=6, options={"max_turns": 1}, workers=1, progress=False)
    assert not df["finished"].any() and (df["turns"] == 1).all()     # G-4: one turn, not the one refused
    unscored = df[[f"seat{s}_score" for s in range(seats)]].eq(0).all(axis=1)
    assert unscored.any() and (df.loc[unscored, "lead_changes"] == 0).all()


@pytest.mark.parametrize("game, seats, options", [("lazy_sunday", 3, {}), ("chore_race", 3, {"action_deck": "74"}),
                                                  ("night_shift", 2, {"reshuffle": True})])
def test_every_card_has_its_columns_even_when_nobody_played_it(game, seats, options):
    """Game.card_counters names every counter card_counts can produce, so a dead card
    shows as zeros and runs of any length have the same columns."""
    short = simulate(game, seats, games=2, options=options, workers=1, progress=False)
    longer = simulate(game, seats, games=40, options=options, workers=1, progress=False)
    assert list(short.columns) == list(longer.columns)
    declared = {f"seat{s}_{counter}:{card}" for counter, card in get_game(game)(seats, options).card_counters()
                for s in range(seats)}
    assert declared == {c for c in longer.columns if ":" in c}    # nothing counted that was not declared
    stats = card_stats(short)
    assert len(stats) == len(declared) // seats and (stats["per_game"] >= 0).all()
    never = stats[stats["seat_games"] == 0]
    assert never["win_rate"].isna().all()           # no seat did it: no rate, but the row is there


def test_in_this_process_chunks_of_slow_games_are_one_game_so_cancel_is_seen_soon(monkeypatch):
    """Chunks start at one game and grow to LOCAL_CHUNK_SECONDS of play: fast games soon
    go 20 or more at a time, slow ones (here: every chunk counts as too slow) one at a
    time, so a Cancel waits for one game, not twenty; the rows are the same."""
    import threading

    from playtest.lab import simulation
    chunks = []
    play = simulation.play_games
    monkeypatch.setattr(simulation, "play_games", lambda plan, a, b: (chunks.append(b - a), play(plan, a, b))[1])
    fast = simulate("lazy_sunday", 2, "heuristic", games=100, seed=3, workers=1, progress=False)
    assert chunks[0] == 1 and max(chunks) >= 20 and sum(chunks) == 100
    chunks.clear()
    monkeypatch.setattr(simulation, "LOCAL_CHUNK_SECONDS", 0.0)
    slow = simulate("lazy_sunday", 2, "heuristic", games=30, seed=3, workers=1, progress=False)
    assert chunks == [1] * 30
    pd.testing.assert_frame_equal(slow, fast.iloc[:30], check_like=True)
    cancel = threading.Event()
    chunks.clear()
    df = simulate("lazy_sunday", 2, "heuristic", games=30, seed=3, workers=1, cancel=cancel,
                  progress=lambda done, total: cancel.set())
    assert len(df) == 1 and df.attrs["cancelled"] and chunks == [1]
