"""The balance lab: thousands of bot games, metrics with confidence intervals, variant
A/B tests and plots, for any game on the engine.

::

    from playtest import simulate
    from playtest.lab import metrics, seat_win_rates, card_stats, ab_test, plot_win_rates

    df = simulate("lazy_sunday", 4, "heuristic", games=2000, seed=1)   # one row per game
    metrics(df)                 # AdvantageP1, Balance, Drawishness, ... with 95% intervals
    seat_win_rates(df)          # per seat, Wilson intervals
    plot_win_rates(df)          # a matplotlib Figure
    people = read_tables("tables.json", game="lazy_sunday")   # live tables' games, "human" seats

Scale-out (local processes by default, any ``concurrent.futures.Executor``, Dask through
``Client.get_executor()``) is described in :mod:`playtest.lab.simulation`.
"""
from importlib import import_module

# name -> submodule; loaded on first use, so `playtest serve` (whose parser knows
# `playtest simulate`) does not wait for pandas and matplotlib to import
_EXPORTS = {
    "simulate": "simulation", "game_seed": "simulation",
    "metrics": "stats", "seat_win_rates": "stats", "card_stats": "stats", "compare": "stats", "ab_test": "stats",
    "ABTest": "stats", "wilson": "stats", "newcombe": "stats",
    "read_tables": "tables", "compare_people_and_bots": "tables",
    "plot_win_rates": "plots", "plot_lengths": "plots", "plot_card_impact": "plots", "plot_compare": "plots",
}
__all__ = list(_EXPORTS)


def __getattr__(name):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'playtest.lab' has no attribute {name!r}")
    value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *__all__})
