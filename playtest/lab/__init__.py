"""The balance lab: thousands of bot games, metrics with confidence intervals, variant
A/B tests and plots, for any game on the engine.

::

    from playtest import simulate
    from playtest.lab import metrics, seat_win_rates, card_stats, ab_test, plot_win_rates

    df = simulate("lazy_sunday", 4, "heuristic", games=2000, seed=1)   # one row per game
    metrics(df)                 # AdvantageP1, Balance, Drawishness, ... with 95% intervals
    seat_win_rates(df)          # per seat, Wilson intervals
    plot_win_rates(df)          # a matplotlib Figure

Scale-out (local processes by default, any ``concurrent.futures.Executor``, Dask through
``Client.get_executor()``) is described in :mod:`playtest.lab.simulate`.
"""
from .plots import plot_card_impact, plot_compare, plot_lengths, plot_win_rates
from .simulate import game_seed, simulate
from .stats import ABTest, ab_test, card_stats, compare, metrics, newcombe, seat_win_rates, wilson

__all__ = ["simulate", "game_seed", "metrics", "seat_win_rates", "card_stats", "compare", "ab_test", "ABTest",
           "wilson", "newcombe", "plot_win_rates", "plot_lengths", "plot_card_impact", "plot_compare"]
