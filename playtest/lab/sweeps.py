"""Sweeps: one option over a list of values (or two over a grid), every value played on the
same seeds, every metric with its interval per value, and a plot per metric::

    result = sweep("chore_race", 2, "heuristic", 500, "target_vp", [10, 15, 20])
    result.table            # per value and metric: value, low, high, n, interval
    plot_sweep(result)      # a panel per metric, the value on the x axis
    sweep("chore_race", 2, "heuristic", 500, {"target_vp": [10, 15], "tableau_size": [3, 4]})   # a grid

From a terminal: ``playtest simulate chore_race --sweep target_vp=10,15,20``.
"""
from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from playtest.engine import OptionError, get_game

from .simulation import Runner, _assemble, _reporter, check_games, check_progress, make_plan
from .stats import metrics, seat_win_rates

SHOWN = ("AdvantageP1", "FirstSeatWins", "Balance", "Drawishness", "Completion", "Timeouts", "DurationTurns",
         "DurationTurnsNotTimeouts", "LeadChangesPerGame", "ScoreMargin")
"""The metrics :func:`plot_sweep` draws by default (every one with an interval can be asked for)."""


class Sweep(NamedTuple):
    """The result of :func:`sweep`.

    Attributes:
        options: the swept option names (one or two).
        runs: per combination of values (a tuple, in the order of ``options``), the
            games played (:func:`~playtest.lab.simulate`'s rows; all on the same seeds).
        table: one row per combination and metric: a column per swept option, then
            ``metric``, ``value``, ``low``, ``high``, ``n``, ``interval`` and ``note``
            (the rows of :func:`~playtest.lab.metrics`, and ``Win rate seat N``).
    """

    options: tuple[str, ...]
    runs: dict[tuple, pd.DataFrame]
    table: pd.DataFrame


def sweep(game, seats: int, bots, games: int, option: str | Mapping[str, Sequence[Any]],
          values: Sequence[Any] | None = None, options: Mapping[str, Any] | str | None = None, seed: int = 0,
          confidence: float = 0.95, progress: bool | Callable[[int, int], Any] = True,
          cancel: threading.Event | None = None, executor: Any = None, workers: int | None = None,
          trace: bool = False) -> Sweep:
    """Play the same seeds under every value of one option (or every combination of two),
    the other options as ``options`` sets them.

    Args:
        game, seats, bots, games, seed, executor, workers, cancel, trace: as
            :func:`~playtest.lab.simulate`; every value plays games ``0 .. games - 1``
            of ``seed``, so the runs are paired by seed (:func:`~playtest.lab.compare`
            of any two pairs them).
        option: an option name with ``values`` (a list of 1 or more), or a mapping of
            one or two option names to their lists of values (a grid).
        options: the other options (a mapping or a preset name); a swept option
            overrides it.
        confidence: of the intervals.
        progress: True: one tqdm bar over all the games; a callable
            ``progress(done, total)``; False.

    Returns:
        :class:`Sweep`. A cancelled sweep keeps the values it finished, and the one it
        was playing (cut short).

    Raises:
        OptionError: an unknown option, an empty list of values, more than two
            options, a value the game refuses (naming it), or as
            :func:`~playtest.lab.simulate`; before any game is played.
    """
    grid = _grid(option, values)
    game_type = get_game(game)
    base = dict(game_type.PRESETS[_preset(game_type, options)]) if isinstance(options, str) else dict(options or {})
    known = game_type.Options.model_fields
    for name in grid:
        if name not in known:
            raise OptionError(f"{game_type.title} has no option {name!r}; options: {', '.join(known)}")
    names = tuple(grid)
    combos = list(itertools.product(*grid.values()))
    plans = []
    for combo in combos:
        try:
            plans.append(make_plan(game_type, seats, bots, {**base, **dict(zip(names, combo))}, seed, False, trace))
        except OptionError as exc:
            shown = ", ".join(f"{n}={v!r}" for n, v in zip(names, combo))
            raise OptionError(f"sweep value {shown}: {exc}") from None
    games = check_games(games)
    check_progress(progress, cancel)
    total = games * len(plans)
    report, close = _reporter(progress, total, f"{game_type.title}: sweep {', '.join(names)}")
    runs: dict[tuple, pd.DataFrame] = {}
    try:
        with Runner(executor, workers, total) as runner:
            for combo, plan in zip(combos, plans):
                frames, cancelled = runner.play(plan, 0, games, report, cancel)
                runs[combo] = _assemble(frames, plan, games, cancelled)
                if cancelled:
                    break
    finally:
        close()
    return Sweep(names, runs, _table(names, runs, confidence))


def _preset(game_type, name: str) -> str:
    from .presets import find_preset
    return find_preset(game_type, name)


def _grid(option, values) -> dict[str, list]:
    if isinstance(option, str):
        if values is None:
            raise OptionError(f"sweep {option!r} over which values? pass values=[...]")
        grid = {option: values}
    elif isinstance(option, Mapping):
        if values is not None:
            raise OptionError("give the values in the mapping {option: [values]}, not also as values=")
        grid = dict(option)
    else:
        raise OptionError(f"option must be an option name or a mapping of one or two names to values, not {option!r}")
    if not 1 <= len(grid) <= 2:
        raise OptionError(f"a sweep takes one option, or two for a grid, not {len(grid)}")
    out = {}
    for name, vals in grid.items():
        if isinstance(vals, (str, bytes)) or not isinstance(vals, Sequence) or not len(vals):
            raise OptionError(f"sweep {name!r}: give a list of one or more values, not {vals!r}")
        out[name] = list(vals)
    return out


def _table(names: tuple[str, ...], runs: dict[tuple, pd.DataFrame], confidence: float) -> pd.DataFrame:
    parts = []
    for combo, df in runs.items():
        if not len(df):
            continue
        table = metrics(df, confidence)[["value", "low", "high", "n", "interval", "note"]]
        rates = seat_win_rates(df, confidence=confidence)
        seats = pd.DataFrame({"value": rates["rate"].to_numpy(), "low": rates["low"].to_numpy(),
                              "high": rates["high"].to_numpy(), "n": rates["games"].to_numpy(),
                              "interval": "Wilson score", "note": ""},
                             index=[f"Win rate seat {s}" for s in rates.index])
        table = pd.concat([table, seats])
        table.index.name = "metric"
        table = table.reset_index()
        for name, value in zip(names, combo):
            table[name] = [value] * len(table)
        parts.append(table)
    columns = [*names, "metric", "value", "low", "high", "n", "interval", "note"]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(columns=columns)


def plot_sweep(result: Sweep, metrics: Sequence[str] | None = None) -> Figure:
    """A panel per metric: its value and interval (error bars) against the swept
    option's values; with two options, a line per value of the second.

    Args:
        result: from :func:`sweep`.
        metrics: which rows of the table (default :data:`SHOWN`, those present).

    Raises:
        ValueError: a metric not in the table.
    """
    from .plots import LabFigure
    table = result.table
    wanted = [m for m in (metrics or SHOWN) if metrics or m in set(table["metric"])]
    missing = [m for m in wanted if m not in set(table["metric"])]
    if missing:
        raise ValueError(f"no metric {', '.join(missing)} in this sweep; metrics: {', '.join(dict.fromkeys(table['metric']))}")
    columns = min(3, max(1, len(wanted)))
    rows = max(1, math.ceil(len(wanted) / columns))
    fig = LabFigure(figsize=(4.2 * columns, 3.0 * rows), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, columns, squeeze=False)).ravel()
    first = result.options[0]
    xs = list(dict.fromkeys(result.table[first])) if len(table) else []
    numeric = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in xs)
    for ax, metric in zip(axes, wanted):
        rows_of = table[table["metric"] == metric]
        groups = rows_of.groupby(result.options[1], sort=False) if len(result.options) > 1 else [(None, rows_of)]
        for label, group in groups:
            x = group[first].to_numpy() if numeric else [xs.index(v) for v in group[first]]
            y, low, high = (group[c].to_numpy(dtype=float) for c in ("value", "low", "high"))
            err = np.vstack([np.where(np.isnan(low), 0, y - low), np.where(np.isnan(high), 0, high - y)])
            ax.errorbar(x, y, yerr=err, fmt="o-", capsize=3,
                        label=None if label is None else f"{result.options[1]}={label}")
        if not numeric:
            ax.set_xticks(range(len(xs)), [str(v) for v in xs])
        elif len(xs) <= 12:
            ax.set_xticks(xs, [f"{v:g}" for v in xs])   # the values swept, not fractions between them
        ax.set_title(metric, fontsize="medium")
        ax.set_xlabel(first)
        if len(result.options) > 1:
            ax.legend(fontsize="x-small")
    for ax in axes[len(wanted):]:
        ax.set_visible(False)
    games = len(next(iter(result.runs.values()))) if result.runs else 0
    fig.suptitle(f"Sweep of {' x '.join(result.options)}: {games:,} games per value, the same seeds, 95% intervals")
    return fig
