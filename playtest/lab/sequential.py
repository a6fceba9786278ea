"""Runs until decided: play games in batches and stop as soon as the question is answered,
with a cap on games.

* :func:`simulate_until`: until a metric's interval is narrower than a width ("AdvantageP1
  to within +-0.01"). The stopping rule looks at the interval's width, not at where it
  lies, so the interval keeps its coverage; no correction is needed.
* :func:`ab_until`: an A/B test on the same seeds that stops when the difference of a
  metric excludes zero. Looking again and again at a difference and stopping when it
  shows would find differences that are not there, so the test is group-sequential:
  ``looks`` planned looks at equal steps up to the cap, each with a bound on the
  standardized paired difference from an alpha-spending function (Lan and DeMets 1983;
  O'Brien-Fleming-type by default, which spends almost nothing early, or Pocock-type),
  so that the chance of a false "decided" over all looks is at most ``alpha``. The
  interval shown at each look is the repeated confidence interval (the difference plus
  or minus the look's bound times its standard error), which holds at every look at
  once.

The bounds come from the recursive numerical integration of Armitage, McPherson and Rowe
(1969) as Jennison and Turnbull (2000, chapter 19) describe it: the density of the score
statistic among the runs not stopped yet, carried from look to look on a grid
(:func:`spending_bounds`).
"""
from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from playtest.engine import OptionError

from .simulation import Runner, _assemble, _is_whole, _reporter, check_progress, make_plan
from .stats import SPECS, compare, metrics, per_game

SPENDING = ("obrien-fleming", "pocock")
GRID = 201
"""Points of the integration grid per look (odd, for Simpson's rule): the densities are
smooth, and 201 points give the bounds to 1e-7 (against 801)."""


def alpha_spent(fractions: Sequence[float], alpha: float = 0.05, spending: str = "obrien-fleming") -> np.ndarray:
    """The two-sided type I error spent by each information fraction (Lan and DeMets's
    spending functions): O'Brien-Fleming-type ``4 - 4 * Phi(z(1 - alpha / 4) / sqrt(t))``
    (each side spends ``alpha / 2`` as ``2 - 2 * Phi(z / sqrt(t))``, the convention of
    ldbounds and gsDesign), Pocock-type ``alpha * log(1 + (e - 1) * t)``.

    Args:
        fractions: increasing information fractions within (0, 1] (games so far / cap).
        alpha: the total two-sided error, within (0, 1). spending: one of :data:`SPENDING`.

    Returns:
        An array of the same length, increasing, the last ``alpha`` when the last fraction is 1.

    Raises:
        ValueError: fractions not increasing within (0, 1], alpha outside (0, 1), an
            unknown spending function.
    """
    from scipy.stats import norm
    t = np.asarray(fractions, dtype=float)
    if not len(t) or t[0] <= 0 or t[-1] > 1 or np.any(np.diff(t) <= 0):
        raise ValueError(f"information fractions must increase within (0, 1], not {list(fractions)!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1 (e.g. 0.05), not {alpha!r}")
    if spending == "obrien-fleming":
        return 4 - 4 * norm.cdf(norm.isf(alpha / 4) / np.sqrt(t))
    if spending == "pocock":
        return alpha * np.log(1 + (math.e - 1) * t)
    raise ValueError(f"spending must be one of {', '.join(SPENDING)}, not {spending!r}")


def spending_bounds(looks: int | Sequence[float], alpha: float = 0.05, spending: str = "obrien-fleming") -> np.ndarray:
    """The two-sided bounds of a group-sequential test: at look ``k`` the test stops when
    ``|Z_k| >= bound[k]``, ``Z_k`` being the standardized statistic on the data so far.

    Each bound is chosen so that, with no true difference, the chance of stopping by
    look ``k`` equals the error spent by then (:func:`alpha_spent`): the density of the
    score statistic among the runs not stopped is carried from look to look on a grid
    of :data:`GRID` points (Simpson's rule), and the chance of going on past a bound is
    exact in the bound (a sum of normal probabilities), solved by Brent's method.

    Args:
        looks: the number of equally spaced looks (1 or more), or their information
            fractions (increasing within (0, 1]).
        alpha, spending: as :func:`alpha_spent`.

    Returns:
        One bound per look, on the z scale. With 5 equal looks and alpha 0.05:
        O'Brien-Fleming-type 4.877, 3.357, 2.680, 2.290, 2.031; Pocock-type 2.438,
        2.427, 2.410, 2.397, 2.386 (Jennison and Turnbull 2000, ldbounds).

    Raises:
        ValueError: as :func:`alpha_spent`, or ``looks`` below 1.
    """
    from scipy.optimize import brentq
    from scipy.stats import norm
    if isinstance(looks, (int, np.integer)) and not isinstance(looks, bool):
        if looks < 1:
            raise ValueError(f"looks must be 1 or more, not {looks!r}")
        fractions = np.arange(1, looks + 1) / looks
    else:
        fractions = np.asarray(looks, dtype=float)
    spent = alpha_spent(fractions, alpha, spending)
    weights = np.full(GRID, 2.0)
    weights[1:-1:2], weights[0], weights[-1] = 4.0, 1.0, 1.0
    bounds, grid, density = [], None, None
    for k, (t, a) in enumerate(zip(fractions, spent)):
        if k == 0:
            bound = float(norm.isf(a / 2))
        else:
            step = math.sqrt(t - fractions[k - 1])
            w = weights * (grid[1] - grid[0]) / 3 * density   # Simpson: mass of the runs not stopped yet

            def stay(b: float) -> float:   # the chance of not stopping through look k (score scale)
                return float(np.sum(w * (norm.cdf((b - grid) / step) - norm.cdf((-b - grid) / step))))

            target = 1 - a
            if stay(60.0) <= target:   # nothing (left) to spend at this look: never stop here
                bound = math.inf
            else:
                bound = brentq(lambda b: stay(b) - target, 1e-9, 60.0, xtol=1e-12) / math.sqrt(t)
        bounds.append(bound)
        edge = min(bound, 60.0) * math.sqrt(t)
        new = np.linspace(-edge, edge, GRID)
        if k == 0:
            density = norm.pdf(new, scale=math.sqrt(t))
        else:
            density = (w[None, :] * norm.pdf((new[:, None] - grid[None, :]) / step) / step).sum(axis=1)
        grid = new
    return np.array(bounds)


# --- values a run is judged on ----------------------------------------------------------
def _values(df: pd.DataFrame, metric: str) -> np.ndarray:
    """Per game, the value of ``metric`` (a :data:`~playtest.lab.stats.METRICS` name, or
    ``"Win rate seat N"``)."""
    if metric.startswith("Win rate seat "):
        seat = int(metric.rsplit(" ", 1)[1])
        return df[f"seat{seat}_won"].astype(float).to_numpy()
    return per_game(df)[metric].to_numpy()


def _check_metric(metric: str, seats: int, with_interval: bool = True) -> str:
    names = [*SPECS, *(f"Win rate seat {s}" for s in range(seats))]
    if metric in names:
        return metric
    if with_interval and metric == "Balance":
        return metric
    raise OptionError(f"unknown metric {metric!r}; metrics with a per-game value: {', '.join(names)}")


class Look(NamedTuple):
    """One look of a run until decided: ``games`` (per variant), ``value`` (the metric,
    or the difference B - A), ``low``, ``high`` (its interval), and for an A/B test
    ``z`` (the standardized difference) and ``bound`` (the look's bound)."""

    games: int
    value: float
    low: float
    high: float
    z: float = math.nan
    bound: float = math.nan


def _interval_text(metric: str, look: Look) -> str:
    return f"{metric} {look.value:.4g} [{look.low:.4g}, {look.high:.4g}]"


def simulate_until(game, seats: int, bots="random", metric: str = "AdvantageP1", width: float = 0.02,
                   max_games: int = 10_000, batch: int | None = None, options: Mapping[str, Any] | str | None = None,
                   seed: int = 0, confidence: float = 0.95, progress: bool | Callable[[int, int], Any] = True,
                   on_look: Callable[[Look], Any] | None = None, cancel: threading.Event | None = None,
                   executor: Any = None, workers: int | None = None, trace: bool = False) -> pd.DataFrame:
    """Play games in batches until ``metric``'s interval is narrower than ``width``, or
    ``max_games`` are played.

    Args:
        game, seats, bots, options, seed, executor, workers, cancel, trace: as
            :func:`~playtest.lab.simulate`; the games are the same as ``simulate``'s
            first games of the same seed.
        metric: a row of :func:`~playtest.lab.metrics` with an interval (e.g.
            ``"AdvantageP1"``, ``"DurationTurns"``, ``"Balance"``) or ``"Win rate seat N"``.
        width: stop when ``high - low`` is at most this, in the metric's unit (> 0).
        max_games: the cap (1 or more). batch: games between looks (default: a
            twentieth of the cap, at least 50, at most the cap).
        confidence: of the interval.
        progress: True: a tqdm bar of games whose text shows the current interval; a
            callable: ``progress(done, max_games)``; False: silent.
        on_look: called with each :class:`Look` (e.g. a dashboard's live interval).

    Returns:
        The rows of the games played (as :func:`~playtest.lab.simulate`), with
        ``attrs["until"]``: ``metric``, ``width``, ``decided`` (the width was reached),
        ``reason`` (one line), ``looks`` (list of :class:`Look` as dicts) and ``interval``
        (the last ``(value, low, high)``).

    Raises:
        OptionError: as :func:`~playtest.lab.simulate`, an unknown metric, a width not
            above 0, a bad cap or batch; before any game is played.
    """
    plan = make_plan(game, seats, bots, options, seed, False, trace)
    metric = _check_metric(metric, plan.seats)
    if not isinstance(width, (int, float)) or isinstance(width, bool) or not width > 0:
        raise OptionError(f"width must be a number above 0 (the interval's width to reach), not {width!r}")
    max_games, batch = _check_counts(max_games, batch)
    check_progress(progress, cancel)
    table_row = metric if not metric.startswith("Win rate seat ") else None
    looks: list[Look] = []
    frames: list[pd.DataFrame] = []
    report, close, show = _bar(progress, max_games, plan)
    cancelled, done = False, 0
    try:
        with Runner(executor, workers, max_games) as runner:
            while done < max_games and not cancelled:
                stop = min(max_games, done + batch)
                more, cancelled = runner.play(plan, done, stop, report, cancel)
                frames += more
                done = sum(len(f) for f in frames)
                df = _assemble(frames, plan, max_games, cancelled)
                look = _look(df, metric, table_row, confidence)
                looks.append(look)
                show(_interval_text(metric, look))
                if on_look is not None:
                    on_look(look)
                if look.high - look.low <= width:
                    break
    finally:
        close()
    df = _assemble(frames, plan, max_games, cancelled)
    last = looks[-1] if looks else Look(0, math.nan, math.nan, math.nan)
    decided = bool(looks) and last.high - last.low <= width
    reason = (f"decided after {len(df):,} games: the interval is {last.high - last.low:.4g} wide (asked: {width:g})"
              if decided else f"cancelled after {len(df):,} games" if cancelled else
              f"not decided: the cap of {max_games:,} games left the interval {last.high - last.low:.4g} wide "
              f"(asked: {width:g})")
    df.attrs["until"] = {"metric": metric, "width": width, "decided": decided, "reason": reason,
                         "looks": [look._asdict() for look in looks], "interval": (last.value, last.low, last.high)}
    return df


def _look(df: pd.DataFrame, metric: str, row: str | None, confidence: float) -> Look:
    if row is not None:
        m = metrics(df, confidence).loc[row]
        return Look(len(df), float(m["value"]), float(m["low"]), float(m["high"]))
    from .stats import wilson
    won = _values(df, metric)
    low, high = wilson(int(won.sum()), len(won), confidence)
    return Look(len(df), float(won.mean()) if len(won) else math.nan, low, high)


def _check_counts(max_games, batch) -> tuple[int, int]:
    if not _is_whole(max_games) or max_games < 1:
        raise OptionError(f"max_games must be a whole number of games, 1 or more, not {max_games!r}")
    max_games = int(max_games)
    if batch is None:
        batch = min(max_games, max(50, math.ceil(max_games / 20)))
    if not _is_whole(batch) or not 1 <= batch <= max_games:
        raise OptionError(f"batch must be a whole number of games from 1 to max_games ({max_games}), not {batch!r}")
    return max_games, int(batch)


def _bar(progress, total: int, plan):
    """``(report(n), close(), show(text))``: simulate's progress, plus the current
    interval shown beside a tqdm bar."""
    if progress is True:
        from tqdm.auto import tqdm
        bar = tqdm(total=total, unit="game", desc=f"{plan.game.title}, {plan.seats} seats")
        return bar.update, bar.close, lambda text: bar.set_postfix_str(text)
    report, close = _reporter(progress, total, f"{plan.game.title}, {plan.seats} seats")
    return report, close, lambda text: None


class Sequential(NamedTuple):
    """The result of :func:`ab_until`: ``a`` and ``b`` (the games of each variant, on the
    same seeds), ``comparison`` (:func:`~playtest.lab.compare`, paired by seed, of the
    games played: its intervals are the usual ones, for one look), ``looks`` (a
    DataFrame: per look ``games``, ``difference`` B - A, its repeated confidence
    interval ``low``/``high``, ``z``, ``bound``), ``decided`` (the difference excluded
    zero at some look) and ``reason`` (one line)."""

    a: pd.DataFrame
    b: pd.DataFrame
    comparison: pd.DataFrame
    looks: pd.DataFrame
    decided: bool
    reason: str


def ab_until(game, seats: int, bots, options_a: Mapping[str, Any] | str | None,
             options_b: Mapping[str, Any] | str | None, metric: str = "DurationTurns", max_games: int = 2000,
             looks: int = 5, alpha: float = 0.05, spending: str = "obrien-fleming", seed: int = 0,
             progress: bool | Callable[[int, int], Any] = True, on_look: Callable[[Look], Any] | None = None,
             cancel: threading.Event | None = None, executor: Any = None, workers: int | None = None) -> Sequential:
    """An A/B test that stops as soon as ``metric``'s difference excludes zero (a
    group-sequential test; see the module's notes), or at the cap.

    Both variants play the same seeds (as :func:`~playtest.lab.ab_test`). At look ``k``
    (after ``k * max_games / looks`` games of each), the per-seed differences B - A of
    ``metric`` give ``Z = mean / standard error``; the run stops, decided, when ``|Z|``
    reaches the look's bound (:func:`spending_bounds`), so that over all looks the
    chance of a false "decided" is at most ``alpha``.

    Args:
        game, seats, bots, seed, executor, workers, cancel: as :func:`~playtest.lab.simulate`.
        options_a, options_b: the variants (option mappings or preset names).
        metric: a metric with a per-game value (e.g. ``"DurationTurns"``,
            ``"AdvantageP1"``, ``"Completion"``) or ``"Win rate seat N"``.
        max_games: the cap, games per variant (2 or more); looks: planned looks (1 to
            ``max_games``); alpha: the total two-sided error; spending: one of
            :data:`SPENDING`.
        progress: True: a tqdm bar (both variants' games) showing the current interval;
            a callable ``progress(done, total)``; False. on_look: called with each :class:`Look`.

    Returns:
        :class:`Sequential`.

    Raises:
        OptionError: as :func:`~playtest.lab.simulate` for either variant, an unknown
            metric, bad counts, alpha or spending; before any game is played.
    """
    plans = [make_plan(game, seats, bots, options, seed) for options in (options_a, options_b)]
    metric = _check_metric(metric, plans[0].seats, with_interval=False)
    if not _is_whole(max_games) or max_games < 2:
        raise OptionError(f"max_games must be a whole number of games per variant, 2 or more, not {max_games!r}")
    if not _is_whole(looks) or not 1 <= looks <= max_games:
        raise OptionError(f"looks must be a whole number from 1 to max_games ({max_games}), not {looks!r}")
    try:
        bounds = spending_bounds(int(looks), alpha, spending)
    except ValueError as exc:
        raise OptionError(str(exc)) from None
    check_progress(progress, cancel)
    stops = [round(max_games * (k + 1) / looks) for k in range(looks)]
    report, close, show = _bar(progress, 2 * max_games, plans[0])
    frames: tuple[list, list] = ([], [])
    rows: list[dict] = []
    decided = cancelled = False
    done = 0
    try:
        with Runner(executor, workers, max_games) as runner:
            for k, stop in enumerate(stops):
                if stop <= done:
                    continue
                for plan, kept in zip(plans, frames):
                    more, cut = runner.play(plan, done, stop, report, cancel)
                    kept += more
                    cancelled = cancelled or cut
                a, b = (_assemble(f, p, max_games, cancelled) for f, p in zip(frames, plans))
                common = np.intersect1d(a["game"], b["game"])   # a cancel may leave one variant short
                a, b = a[a["game"].isin(common)], b[b["game"].isin(common)]
                done = stop
                look = _sequential_look(a, b, metric, bounds[k])
                rows.append({**look._asdict(), "look": k + 1})
                show(f"B - A " + _interval_text(metric, look)[len(metric) + 1:])
                if on_look is not None:
                    on_look(look)
                if abs(look.z) >= bounds[k] or cancelled:
                    decided = abs(look.z) >= bounds[k]
                    break
    finally:
        close()
    a, b = (_assemble(f, p, max_games, cancelled) for f, p in zip(frames, plans))
    table = pd.DataFrame(rows, columns=["look", "games", "value", "low", "high", "z", "bound"]).rename(
        columns={"value": "difference"}).set_index("look")
    last = table.iloc[-1] if len(table) else None
    if decided:
        side = "more" if last["difference"] > 0 else "less"
        reason = (f"decided at look {len(table)} of {looks} ({int(last['games']):,} games each): B has {side} "
                  f"{metric} than A, {last['difference']:+.4g} [{last['low']:+.4g}, {last['high']:+.4g}]")
    elif cancelled:
        reason = f"cancelled after {len(a):,} games of each variant: not decided"
    else:
        reason = (f"not decided at the cap ({max_games:,} games each): no difference in {metric} shown, "
                  f"{last['difference']:+.4g} [{last['low']:+.4g}, {last['high']:+.4g}]")
    comparison = compare(a, b, paired=True) if len(a) and len(b) else compare(a, b)
    return Sequential(a, b, comparison, table, decided, reason)


def _sequential_look(a: pd.DataFrame, b: pd.DataFrame, metric: str, bound: float) -> Look:
    """The paired difference B - A of ``metric`` at one look, its z and repeated interval."""
    order = b.set_index("seed").loc[a["seed"]].reset_index()   # B's rows in A's seed order
    diff = _values(order, metric) - _values(a.reset_index(drop=True), metric)
    diff = diff[~np.isnan(diff)]
    n = len(diff)
    if n < 2:
        return Look(n, float(diff.mean()) if n else math.nan, -math.inf, math.inf, 0.0, bound)
    mean, se = float(diff.mean()), float(diff.std(ddof=1)) / math.sqrt(n)
    if se == 0:   # every pair differs alike: any difference but 0 is certain, 0 is none
        z = 0.0 if mean == 0 else math.copysign(math.inf, mean)
        return Look(n, mean, mean, mean, z, bound)
    return Look(n, mean, mean - bound * se, mean + bound * se, mean / se, bound)
