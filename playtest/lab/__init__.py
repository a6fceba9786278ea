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
    ab_test("lazy_sunday", 4, "heuristic", 500, None, {"rounds": 2}).comparison   # paired by seed
    sweep("chore_race", 2, "heuristic", 500, "target_vp", [10, 15, 20])        # one option over values
    simulate_until("chore_race", 2, "heuristic", "AdvantageP1", width=0.03)   # until it is decided
    score_curves(simulate("chore_race", 3, "heuristic", games=500, trace=True))
    print(health_report("night_shift").text())  # the design health report
    write_csv(df, "games.csv"); metrics(pd.read_csv("games.csv"))   # the CSV reads back
    skill_ladder("lazy_sunday", 2, games=200)                  # each bot against the one below it

Scale-out (local processes by default, any ``concurrent.futures.Executor``, a Dask
``distributed.Client``) is described in :mod:`playtest.lab.simulation`.
"""
from importlib import import_module

# name -> submodule; loaded on first use, so `playtest serve` (whose parser knows
# `playtest simulate`) does not wait for pandas and matplotlib to import
_EXPORTS = {
    "simulate": "simulation", "game_seed": "simulation",
    "metrics": "stats", "seat_win_rates": "stats", "card_stats": "stats", "compare": "stats", "ab_test": "stats",
    "ABTest": "stats", "wilson": "stats", "newcombe": "stats", "newcombe_paired": "stats", "per_game": "stats",
    "seat_ranks": "stats", "t_interval": "stats", "welch": "stats",
    "sweep": "sweeps", "Sweep": "sweeps", "plot_sweep": "sweeps",
    "simulate_until": "sequential", "ab_until": "sequential", "spending_bounds": "sequential",
    "score_curves": "curves", "lead_change_timeline": "curves", "rank_distribution": "curves",
    "plot_score_curves": "curves", "plot_lead_changes": "curves", "plot_ranks": "curves",
    "health_report": "report", "HealthReport": "report", "write_csv": "csvfile", "read_csv": "csvfile",
    "read_tables": "tables", "compare_people_and_bots": "tables",
    "skill_ladder": "skill", "skill_sentence": "skill",
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
