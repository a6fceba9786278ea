"""Balance statistics over a :func:`~playtest.lab.simulate` DataFrame, with intervals.

Every metric is a mean over games of a per-game value (:func:`per_game`), so that one
run measures it, and two runs on the same seeds compare it game by game:

* rates (a yes or no per game: Completion, Drawishness, seat win rates, ...) get the
  Wilson score interval, which stays within 0..1 and covers near its nominal rate from
  a handful of games up; AdvantageP1 (a part win per game, within 0..1) gets the Wilson
  interval of its sum, conservative as a part win varies less than a yes or no;
* means (game length, lead changes, score margin) get the Student t interval, cut to the
  metric's range (a length is never negative): cutting never drops a true value inside
  the range, so it keeps the coverage;
* Balance gets a simultaneous interval from the seats' Bonferroni-adjusted Wilson
  intervals (see ``_balance``).

:func:`compare` pairs two runs by seed when they share them (an A/B test plays the same
deals, seats and first player under both variants): rates by Newcombe's paired interval
(his 1998 method 10, from the two Wilson intervals and the correlation of the pairs),
means by the t interval of the per-seed differences. Runs on other seeds fall back to
independent samples (Newcombe's hybrid score interval, Welch's t). The table says which.

Metric names follow Ludii's where Ludii has one, and compute what Ludii computes
(AdvantageP1, Balance, Completion, Drawishness, Timeouts, DurationTurns,
DurationTurnsNotTimeouts, DurationMoves, LeadChange); the lab's own have other names
(FirstSeatWins, LeadChangesPerGame, ScoreMargin).
"""
from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from playtest.engine import OptionError, PlaytestError, get_game

from .presets import describe_options
from .simulation import CARD_COLUMN, make_plan, ranks, simulate

_CARD = re.compile(r"^seat(\d+)_(\w+):(.+)$")
WILSON = "Wilson score"
NEWCOMBE = "Newcombe hybrid score"
NEWCOMBE_PAIRED = "Newcombe paired (method 10)"
T_INTERVAL = "Student t"
PAIRED_T = "paired t (per-seed differences)"
WELCH = "Welch t"
BALANCE_INTERVAL = "Wilson per seat, Bonferroni-adjusted (simultaneous)"
BALANCE_MEANING = "1 - the largest gap between two seats' win rates (1 = every seat wins as often)"
MIN_GAMES = 10
"""Below this many games (or pairs), a metric's ``note`` says it is too few to say anything."""
RATE, SCORE, MEAN = "rate", "score", "mean"
CHOICE, HELD = "played, a choice", "held at the end"
CARD_NOTE = ("vs_overall is a correlation, not an effect: who plays a card may be ahead already, and what a seat "
             "holds at the end says how the game ended; an A/B test on the same seeds measures an effect")


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1 (e.g. 0.95), not {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@functools.lru_cache(maxsize=4096)   # a sweep or a coverage check asks for the same few again and again
def _t(confidence: float, dof: float) -> float:
    """The two-sided Student t quantile (scipy's)."""
    from scipy.stats import t
    _z(confidence)   # the same check of confidence
    return float(t.ppf(0.5 + confidence / 2, dof))


def wilson(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    Args:
        successes: 0..n; a whole number of successes, or a sum of part successes
            within 0..1 each (AdvantageP1's part wins).
        n: number of trials, 0 or more.
        confidence: e.g. 0.95.

    Returns:
        ``(low, high)`` within 0..1; ``(0.0, 1.0)`` when ``n`` is 0 (nothing is known).

    Raises:
        ValueError: ``successes`` outside 0..n, or ``confidence`` outside (0, 1).
    """
    z = _z(confidence)
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..n and n >= 0, not {successes!r} of {n!r}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    low = 0.0 if successes == 0 else (centre - spread) / scale   # exact ends, no rounding residue
    high = 1.0 if successes == n else (centre + spread) / scale
    return low, high


def newcombe(successes_a: int, n_a: int, successes_b: int, n_b: int,
             confidence: float = 0.95) -> tuple[float, float, float]:
    """The difference of two independent proportions ``p_b - p_a`` and its interval by
    Newcombe's hybrid score method (1998, method 10: built from the two Wilson intervals).

    Returns:
        ``(difference, low, high)``; NaNs when either ``n`` is 0.

    Raises:
        ValueError: as :func:`wilson`.
    """
    if not n_a or not n_b:
        return math.nan, math.nan, math.nan
    pa, pb = successes_a / n_a, successes_b / n_b
    la, ua = wilson(successes_a, n_a, confidence)
    lb, ub = wilson(successes_b, n_b, confidence)
    d = pb - pa
    return d, d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2), d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)


def newcombe_paired(both: int, a_only: int, b_only: int, neither: int,
                    confidence: float = 0.95) -> tuple[float, float, float]:
    """The difference ``p_b - p_a`` of two proportions measured on the same units (the
    same seeds under variants A and B) and its interval by Newcombe's square-and-add
    method for paired data (1998, "Improved confidence intervals for the difference
    between binomial proportions based on paired data", method 10): the two Wilson
    intervals combined with the estimated correlation of the pairs, whose numerator is
    continuity-corrected (``|both * neither - a_only * b_only|`` shrunk by ``n / 2``
    when positive), as in the paper and in Fagerland, Lydersen and Laake (2017).

    Args:
        both, a_only, b_only, neither: the paired 2x2 table: units with a success
            under both, under A alone, under B alone, under neither (whole numbers >= 0).
        confidence: e.g. 0.95.

    Returns:
        ``(difference, low, high)`` with ``difference = (b_only - a_only) / n``, within
        -1..1; NaNs when the table is empty.

    Raises:
        ValueError: a negative count, or ``confidence`` outside (0, 1).
    """
    cells = (both, a_only, b_only, neither)
    if min(cells) < 0:
        raise ValueError(f"the paired table's counts must be 0 or more, not {cells!r}")
    n = sum(cells)
    if not n:
        return math.nan, math.nan, math.nan
    a, b = both + a_only, both + b_only              # successes under A, under B
    pa, pb = a / n, b / n
    la, ua = wilson(a, n, confidence)
    lb, ub = wilson(b, n, confidence)
    margins = a * (n - a) * b * (n - b)
    cross = both * neither - a_only * b_only
    # the correlation of the pairs, its numerator continuity-corrected towards 0
    psi = 0.0 if margins == 0 else (cross - n / 2 if cross > n / 2 else 0.0 if cross >= 0 else cross) / math.sqrt(margins)
    d = pb - pa
    low = d - math.sqrt(max(0.0, (pb - lb) ** 2 + (ua - pa) ** 2 - 2 * psi * (pb - lb) * (ua - pa)))
    high = d + math.sqrt(max(0.0, (ub - pb) ** 2 + (pa - la) ** 2 - 2 * psi * (ub - pb) * (pa - la)))
    return d, max(-1.0, low), min(1.0, high)


def t_interval(values: Sequence[float], confidence: float = 0.95,
               bounds: tuple[float, float] = (-math.inf, math.inf)) -> tuple[float, float, float, int]:
    """The mean of ``values`` and its Student t interval, cut to ``bounds``.

    Args:
        values: numbers (NaNs are left out). confidence: e.g. 0.95.
        bounds: the range the mean can take (e.g. ``(0, inf)`` for a length); the
            interval is cut to it, which never drops a true mean inside the range.

    Returns:
        ``(mean, low, high, n)``; NaN ends with fewer than 2 values (no spread to go on).

    Raises:
        ValueError: a bad ``confidence``.
    """
    x = _numbers(values)
    n = len(x)
    _z(confidence)
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    mean = float(x.mean())
    if n < 2:
        return mean, math.nan, math.nan, n
    half = _t(confidence, n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return mean, max(bounds[0], mean - half), min(bounds[1], mean + half), n


def _numbers(values: Sequence[float]) -> np.ndarray:
    """``values`` as a float array without its NaNs (None counts as NaN)."""
    x = np.asarray(values, dtype=float).ravel()
    return x[~np.isnan(x)]


def welch(values_a: Sequence[float], values_b: Sequence[float], confidence: float = 0.95,
          bounds: tuple[float, float] = (-math.inf, math.inf)) -> tuple[float, float, float, int]:
    """The difference of two independent means ``mean(b) - mean(a)`` and its Welch t
    interval (unequal variances, Welch-Satterthwaite degrees of freedom), cut to
    ``bounds`` (the range a difference can take).

    Returns:
        ``(difference, low, high, n)`` with ``n`` the values of both (NaNs left out);
        NaN ends when either side has fewer than 2 values.

    Raises:
        ValueError: a bad ``confidence``.
    """
    a, b = _numbers(values_a), _numbers(values_b)
    _z(confidence)
    if not len(a) or not len(b):
        return math.nan, math.nan, math.nan, len(a) + len(b)
    d = float(b.mean() - a.mean())
    if len(a) < 2 or len(b) < 2:
        return d, math.nan, math.nan, len(a) + len(b)
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    if va + vb == 0:
        return d, max(bounds[0], d), min(bounds[1], d), len(a) + len(b)
    dof = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    half = _t(confidence, dof) * math.sqrt(va + vb)
    return d, max(bounds[0], d - half), min(bounds[1], d + half), len(a) + len(b)


def _seats(df: pd.DataFrame) -> int:
    seats = df.attrs.get("seats") or sum(1 for c in df.columns if re.fullmatch(r"seat\d+_won", c))
    if not seats:
        raise ValueError("not a simulate() DataFrame: it has no seat{s}_won columns")
    return seats


def _as_seats(value: Any) -> tuple[int, ...]:
    """A ``winners`` cell as a tuple of seats: a tuple or list (simulate), JSON text
    (the lab's CSV: ``[0, 2]``) or Python tuple text (``(0,)``, CSVs of older versions)."""
    if isinstance(value, (tuple, list, np.ndarray)):
        return tuple(int(seat) for seat in value)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ()
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("(") and text.endswith(")"):
            text = "[" + text[1:-1].strip().rstrip(",") + "]"
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError:
            parsed = None
        if isinstance(parsed, list) and all(isinstance(s, int) and not isinstance(s, bool) for s in parsed):
            return tuple(parsed)
    raise ValueError(f"a winners cell must be a list of seat numbers (e.g. [0] or [1, 2]), not {value!r}")


def winners_of(df: pd.DataFrame) -> list[tuple[int, ...]]:
    """The ``winners`` of every game, as tuples of seats, however the rows were read
    (see :func:`~playtest.lab.read_csv`).

    Raises:
        ValueError: a cell that is not a list of seats.
    """
    return [_as_seats(w) for w in df["winners"]]


def _game_class(df: pd.DataFrame):
    """The Game class the rows are of (``attrs["game"]``, or the CSV's ``game_name``), or None."""
    name = df.attrs.get("game")
    if not name and "game_name" in df.columns and len(df):
        name = df["game_name"].iloc[0]
    try:
        return get_game(name) if isinstance(name, str) and name else None
    except PlaytestError:
        return None


def seat_ranks(df: pd.DataFrame) -> pd.DataFrame:
    """Each seat's place in each game (1 = first; ties share the mean of their places;
    a draw or an unfinished game puts every seat in the middle), as
    :func:`~playtest.lab.simulation.ranks` computes it: the ``seat{s}_rank`` columns, or
    for rows without them (hand-built, older CSVs) the same from ``winners``,
    ``finished`` and the scores.

    Returns:
        DataFrame, one row per game (``df``'s index), one column per seat (0..seats-1).
    """
    seats = _seats(df)
    columns = [f"seat{s}_rank" for s in range(seats)]
    if all(c in df.columns for c in columns) and df[columns].notna().all().all():
        table = df[columns].astype(float)
        table.columns = range(seats)
        return table
    game = _game_class(df)
    low_wins = game is not None and game.LOW_SCORE_WINS   # a hand-built frame: the highest wins
    scores = [pd.to_numeric(df[f"seat{s}_score"], errors="coerce").fillna(0).to_numpy()
              if f"seat{s}_score" in df.columns else np.zeros(len(df)) for s in range(seats)]
    rows = [ranks([scores[s][i] for s in range(seats)], won, bool(finished), low_wins)
            for i, (won, finished) in enumerate(zip(winners_of(df), df["finished"]))]
    return pd.DataFrame(rows, index=df.index, columns=range(seats), dtype=float)


@dataclass(frozen=True)
class MetricSpec:
    """One metric of :func:`metrics`: a mean over games of a per-game value.

    Attributes:
        name: as shown (Ludii's name where Ludii has the metric).
        meaning: one line.
        kind: ``"rate"`` (a yes or no per game: Wilson), ``"score"`` (a part win within
            0..1 per game: Wilson of the sum) or ``"mean"`` (t interval).
        bounds: the range of the per-game value, and so of the mean.
        values: ``values(df, seats) -> Series`` of per-game values (floats; NaN where
            the game does not count, e.g. ScoreMargin of a draw).
        needs: the game capability the per-game value comes from ("" = every game
            gives it): said in the note when no game gave a value.
    """

    name: str
    meaning: str
    kind: str
    bounds: tuple[float, float]
    values: Callable[[pd.DataFrame, int], pd.Series]
    needs: str = ""


def _advantage_p1(df: pd.DataFrame, seats: int) -> pd.Series:
    places = seat_ranks(df).to_numpy()
    first = pd.to_numeric(df["first_seat"], errors="coerce").to_numpy()
    out = np.full(len(df), np.nan)
    for i, seat in enumerate(first):
        if not math.isnan(seat) and seats > 1:
            out[i] = 1 - (places[i, int(seat)] - 1) / (seats - 1)
    return pd.Series(out, index=df.index)


def _first_seat_wins(df: pd.DataFrame, seats: int) -> pd.Series:
    first = pd.to_numeric(df["first_seat"], errors="coerce")
    return pd.Series([float(f in won) if not math.isnan(f) else math.nan
                      for f, won in zip(first, winners_of(df))], index=df.index)


def _number(df: pd.DataFrame, column: str) -> pd.Series:
    return pd.to_numeric(df[column], errors="coerce").astype(float)


def _flag(series: pd.Series) -> pd.Series:
    """A True/False column (bools, or the text a CSV holds) as 1.0 / 0.0."""
    if series.dtype == bool:
        return series.astype(float)
    return series.map(lambda v: 1.0 if v is True or v == "True" or v == 1 else 0.0).astype(float)


INF = math.inf
NEEDS_TURNS = "the game does not count its turns (playtest.engine.CountsTurns)"
NEEDS_LEADERS = "the game does not report its leaders (playtest.engine.Leads)"
"""Why a game gives no turn counts, or no lead changes (:attr:`MetricSpec.needs`)."""
METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("AdvantageP1", "the first seat to act's result, 1 = won, 0 = last, draws and middle places "
               "as part wins (Ludii's; fair = 0.5)", SCORE, (0.0, 1.0), _advantage_p1),
    MetricSpec("FirstSeatWins", "share of games the first seat to act (G-2) won, a shared win included",
               RATE, (0.0, 1.0), _first_seat_wins),
    MetricSpec("Drawishness", "share of games that finished without a winner (Ludii's)", RATE, (0.0, 1.0),
               lambda df, _: _flag(df["draw"])),
    MetricSpec("Completion", "share of games with a winner: no draw, not stopped by the G-4 cap (Ludii's)",
               RATE, (0.0, 1.0), lambda df, _: pd.Series([float(bool(w)) for w in winners_of(df)], index=df.index)),
    MetricSpec("Timeouts", "share of games stopped unfinished by the G-4 cap (Ludii's)", RATE, (0.0, 1.0),
               lambda df, _: 1.0 - _flag(df["finished"])),
    MetricSpec("DurationTurns", "mean turns per game, every game (Ludii's)", MEAN, (0.0, INF),
               lambda df, _: _number(df, "turns"), NEEDS_TURNS),
    MetricSpec("DurationTurnsNotTimeouts", "mean turns of the games that finished (Ludii's)", MEAN, (0.0, INF),
               lambda df, _: _number(df, "turns").where(_flag(df["finished"]) == 1.0), NEEDS_TURNS),
    MetricSpec("DurationMoves", "mean moves per game (Ludii's)", MEAN, (0.0, INF), lambda df, _: _number(df, "moves")),
    MetricSpec("LeadChange", "changes of the leading seats per move, averaged over games (Ludii's)", MEAN, (0.0, 1.0),
               lambda df, _: _number(df, "lead_changes") / _number(df, "moves").where(_number(df, "moves") > 0),
               NEEDS_LEADERS),
    MetricSpec("LeadChangesPerGame", "changes of the leading seats per game", MEAN, (0.0, INF),
               lambda df, _: _number(df, "lead_changes"), NEEDS_LEADERS),
    MetricSpec("ScoreMargin", "score distance from the winners to the nearest other seat (games with both)", MEAN,
               (0.0, INF), lambda df, _: _number(df, "margin")),
)
"""The metrics with a per-game value, in the order :func:`metrics` lists them."""
SPECS = {spec.name: spec for spec in METRICS}


def per_game(df: pd.DataFrame) -> pd.DataFrame:
    """Every metric of :data:`METRICS` game by game: the values whose means
    :func:`metrics` reports (a run until decided and :func:`compare` read them too).

    Returns:
        DataFrame indexed as ``df``, one float column per metric (NaN: the game does not
        count for it).

    Raises:
        ValueError: ``df`` is not from :func:`simulate`.
    """
    seats = _seats(df)
    return pd.DataFrame({spec.name: spec.values(df, seats) for spec in METRICS}, index=df.index)


def _note(n: int, games: int = 0, needs: str = "") -> str:
    """The note of a metric resting on ``n`` of ``games`` games (``needs``: see
    :class:`MetricSpec`)."""
    if n == 0:
        if games and needs:
            return f"no value in {games} game{'s' if games != 1 else ''}: {needs}"
        return "no games to go on" if not games else f"none of the {games} games counts for it"
    if n < MIN_GAMES:
        return f"only {n} game{'s' if n != 1 else ''}: too few to say anything; play more"
    return ""


def _rate_row(values: pd.Series, spec: MetricSpec, confidence: float) -> dict:
    x = values.dropna()
    n, successes = len(x), float(x.sum())
    low, high = wilson(min(successes, n), n, confidence)
    return {"value": successes / n if n else math.nan, "low": low, "high": high, "n": n, "interval": WILSON,
            "successes": successes, "meaning": spec.meaning, "note": _note(n, len(values), spec.needs)}


def _mean_row(values: pd.Series, spec: MetricSpec, confidence: float) -> dict:
    mean, low, high, n = t_interval(values, confidence, spec.bounds)
    se = float(values.dropna().std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    note = _note(n, len(values), spec.needs) or ("" if n > 1 else "one game: no interval")
    return {"value": mean, "low": low, "high": high, "n": n, "interval": T_INTERVAL, "se": se,
            "meaning": spec.meaning, "note": note}


def _plain_row(value: float, n: int, meaning: str) -> dict:
    return {"value": value, "low": math.nan, "high": math.nan, "n": n, "interval": "", "meaning": meaning, "note": ""}


def seat_win_rates(df: pd.DataFrame, by: str = "seat", confidence: float = 0.95) -> pd.DataFrame:
    """Win rate per seat (or per bot) with Wilson intervals.

    Every game counts, unfinished ones as no win. A shared win counts as a win for each
    of its winners, so with shared wins the rates of all seats add up to more than 1.

    Args:
        df: from :func:`simulate`. by: ``"seat"`` (index: seat number) or ``"bot"``
            (index: bot name; its games are the seat-games it played).
        confidence: of the intervals.

    Returns:
        DataFrame with columns ``wins``, ``games``, ``rate``, ``low``, ``high``.

    Raises:
        ValueError: ``by`` is neither ``"seat"`` nor ``"bot"``, or ``df`` is not from
            :func:`simulate`.
    """
    seats = _seats(df)
    won = {s: _flag(df[f"seat{s}_won"]) for s in range(seats)}
    if by == "seat":
        table = pd.DataFrame({"wins": [int(won[s].sum()) for s in range(seats)],
                              "games": [len(df)] * seats}, index=pd.RangeIndex(seats, name="seat"))
    elif by == "bot":
        long = pd.DataFrame({"bot": pd.concat([df[f"seat{s}_bot"] for s in range(seats)], ignore_index=True),
                             "won": pd.concat([won[s] for s in range(seats)], ignore_index=True)})
        grouped = long.groupby("bot")["won"]
        table = pd.DataFrame({"wins": grouped.sum().astype(int), "games": grouped.size()})
    else:
        raise ValueError(f"by must be 'seat' or 'bot', not {by!r}")
    table["rate"] = table["wins"] / table["games"].where(table["games"] > 0)
    bounds = [wilson(w, n, confidence) for w, n in zip(table["wins"], table["games"])]
    table["low"] = [b[0] for b in bounds]
    table["high"] = [b[1] for b in bounds]
    return table


def _balance(df: pd.DataFrame, seats: int, confidence: float) -> dict:
    """Ludii's Balance, 1 - (largest gap between two seats' win rates), with a
    simultaneous interval: each seat's Wilson interval at confidence ``1 - (1 -
    confidence) / seats`` (Bonferroni), so all seats' true rates lie in theirs with at
    least ``confidence``, and then Balance lies between ``1 - (highest high - lowest
    low)`` and ``1 - (highest low - lowest high)`` (1 where the intervals overlap). The
    interval always holds the value, stays within 0..1 and reaches 1 when the data
    cannot tell the seats apart; it is conservative (wider than it needs to be).
    Undefined (NaN) when no game had a winner: there are no win rates to compare."""
    n = len(df)
    wins = [int(_flag(df[f"seat{s}_won"]).sum()) for s in range(seats)]
    if not n or not any(wins):
        return {**_plain_row(math.nan, n, BALANCE_MEANING + " (none: no game had a winner)"), "note": _note(n)}
    rates = [w / n for w in wins]
    bounds = [wilson(w, n, 1 - (1 - confidence) / seats) for w in wins]
    lows, highs = [b[0] for b in bounds], [b[1] for b in bounds]
    return {**_plain_row(1 - (max(rates) - min(rates)), n, BALANCE_MEANING),
            "low": max(0.0, 1 - (max(highs) - min(lows))), "high": min(1.0, 1 - max(0.0, max(lows) - min(highs))),
            "interval": BALANCE_INTERVAL, "note": _note(n)}


def metrics(df: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """The balance metrics of a simulation, each with its value, interval and meaning.

    Rows: ``AdvantageP1`` (Ludii's: the first seat to act's result per game, 1 for a
    win, 0 for last place, a draw or an unfinished game 0.5, other places in between by
    rank; fair = 0.5; Wilson interval of the sum), ``FirstSeatWins`` (share of games the
    first seat won, a shared win included; Wilson), ``Balance`` (1 - largest gap between
    seat win rates; NaN when no game had a winner; a simultaneous interval from the
    seats' Bonferroni-adjusted Wilson intervals, which always holds the value),
    ``Drawishness`` (finished without a winner), ``Completion`` (Ludii's: has a winner:
    no draw, not stopped by the G-4 cap), ``Timeouts`` (stopped by the G-4 cap) (rates:
    Wilson), ``DurationTurns`` (every game), ``DurationTurnsNotTimeouts`` (finished
    games alone) and ``DurationMoves`` (means: t interval) with ``...StdDev``,
    ``...Median``, ``...Q10`` and ``...Q90`` (no interval), ``LeadChange`` (Ludii's:
    per game, changes of the set of leading seats divided by moves, averaged),
    ``LeadChangesPerGame`` (mean count) and ``ScoreMargin`` (mean score distance from
    the winners to the nearest other seat, games with winners and losers only) (means:
    t interval). Every interval stays within its metric's range.

    Args:
        df: from :func:`simulate`, :func:`~playtest.lab.read_tables` or
            ``pd.read_csv`` of the lab's CSV (a hand-built frame with the same
            columns works).
        confidence: of the intervals, e.g. 0.95.

    Returns:
        DataFrame indexed by metric, with columns ``value``, ``low``, ``high``, ``n``
        (games it rests on), ``interval`` (the method), ``meaning`` and ``note`` (e.g.
        "only 6 games: too few to say anything"; empty when none); plus ``successes``
        (rates) and ``se`` (means: the standard error).

    Raises:
        ValueError: ``df`` is not from :func:`simulate`, or a bad ``confidence``.
    """
    seats = _seats(df)
    _z(confidence)
    values = per_game(df)
    rows = {}
    for spec in METRICS:
        rows[spec.name] = (_mean_row if spec.kind == MEAN else _rate_row)(values[spec.name], spec, confidence)
        if spec.name == "FirstSeatWins":
            rows["Balance"] = _balance(df, seats, confidence)
        if spec.name in ("DurationTurns", "DurationMoves"):
            what = spec.name[len("Duration"):].lower()
            x = values[spec.name].dropna()
            rows[spec.name + "StdDev"] = _plain_row(x.std(ddof=1), len(x), f"standard deviation of {what}")
            rows[spec.name + "Median"] = _plain_row(x.median(), len(x), f"median {what}")
            rows[spec.name + "Q10"] = _plain_row(x.quantile(0.1), len(x), "10% of games are this short or shorter")
            rows[spec.name + "Q90"] = _plain_row(x.quantile(0.9), len(x), "90% of games are this short or shorter")
    table = pd.DataFrame.from_dict(rows, orient="index")
    table = table[["value", "low", "high", "n", "interval", "meaning", "note", "successes", "se"]]
    table.index.name = "metric"
    return table


def card_stats(df: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per card and counter (``played``, ``bought``, ``kept``, ...; see
    ``CountsCards.card_counts``): how often, and how the seats that did it fared.

    A card's ``vs_overall`` is a correlation, not the card's effect: seats that play a
    card may be the ones already ahead (or behind), and a card held at the end
    (``kind`` "held at the end": ``Game.HELD_COUNTERS``, e.g. Lazy Sunday's ``kept``)
    mostly says how the game ended (winners hold fewer or other cards), not what the
    card does. Only an A/B test (the card's count changed on the same seeds) measures
    an effect.

    Args:
        df: from :func:`simulate`. confidence: of the intervals.

    Returns:
        DataFrame indexed by ``(counter, card)`` with columns ``kind`` ("played, a
        choice" for counters counted move by move, "held at the end" for the game's
        held counters), ``per_game`` (mean count per game, all seats),
        ``share_of_games`` (games where some seat did it), ``seat_games`` (seat-games
        where that seat did it at least once), ``wins`` (of those, won), ``win_rate``
        with Wilson ``low`` / ``high``, and ``vs_overall`` (``win_rate`` minus the win
        rate of all seat-games). Empty (same columns) when the game has no card
        counters. ``attrs["note"]`` says the above in one line.

    Raises:
        ValueError: ``df`` is not from :func:`simulate`.
    """
    seats = _seats(df)
    n = len(df)
    won_by = {s: _flag(df[f"seat{s}_won"]).to_numpy(bool) for s in range(seats)}
    overall = sum(int(w.sum()) for w in won_by.values()) / (n * seats) if n else math.nan
    game = _game_class(df)
    held = set(game.HELD_COUNTERS) if game is not None else set()
    found: dict[tuple[str, str], list[int]] = {}
    for column in df.columns:
        match = _CARD.match(column)
        if match:
            found.setdefault((match[2], match[3]), []).append(int(match[1]))
    rows = {}
    for (counter, card), card_seats in sorted(found.items()):
        counts = np.column_stack([pd.to_numeric(df[CARD_COLUMN.format(seat=s, counter=counter, card=card)])
                                  .to_numpy() for s in card_seats])
        won = np.column_stack([won_by[s] for s in card_seats])
        used = counts > 0
        seat_games, wins = int(used.sum()), int((used & won).sum())
        low, high = wilson(wins, seat_games, confidence)
        rate = wins / seat_games if seat_games else math.nan
        rows[(counter, card)] = {"kind": HELD if counter in held else CHOICE,
                                 "per_game": counts.sum() / n if n else math.nan,
                                 "share_of_games": used.any(axis=1).mean() if n else math.nan,
                                 "seat_games": seat_games, "wins": wins, "win_rate": rate, "low": low, "high": high,
                                 "vs_overall": rate - overall}
    columns = ["kind", "per_game", "share_of_games", "seat_games", "wins", "win_rate", "low", "high", "vs_overall"]
    table = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    table.index = pd.MultiIndex.from_tuples(list(rows), names=["counter", "card"])
    table.attrs["note"] = CARD_NOTE
    return table



# --- A/B ---------------------------------------------------------------------------------
def pair_by_seed(df_a: pd.DataFrame, df_b: pd.DataFrame, paired: bool | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The rows of A and of B that played the same seed, in the same order, or None
    when the runs are to be compared as independent samples.

    Args:
        df_a, df_b: runs with a ``seed`` column (one seed per game).
        paired: None: pair when both runs played exactly the same seeds (an A/B test
            on one seed, or a sweep); True: pair on the seeds they share; False: never.

    Returns:
        ``(rows of A, rows of B)`` as positions, or None.

    Raises:
        ValueError: ``paired=True`` and the runs share no seed, or a run plays a seed twice.
    """
    if paired is False:
        return None
    if "seed" not in df_a.columns or "seed" not in df_b.columns:
        if paired:
            raise ValueError("paired=True needs a seed column in both runs")
        return None
    sa, sb = df_a["seed"].tolist(), df_b["seed"].tolist()
    if len(set(sa)) != len(sa) or len(set(sb)) != len(sb):
        if paired:
            raise ValueError("paired=True: a run plays some seed twice, so its games cannot be paired by seed")
        return None
    if paired is None and set(sa) != set(sb):
        return None
    where_b = {seed: i for i, seed in enumerate(sb)}
    ia = np.array([i for i, seed in enumerate(sa) if seed in where_b], dtype=int)
    ib = np.array([where_b[sa[i]] for i in ia], dtype=int)
    if not len(ia):
        if paired:
            raise ValueError("paired=True: the runs share no seed")
        return None
    return ia, ib


def _paired_rate(a: np.ndarray, b: np.ndarray, confidence: float) -> tuple[float, float, float, int]:
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep] > 0.5, b[keep] > 0.5
    d, low, high = newcombe_paired(int((a & b).sum()), int((a & ~b).sum()), int((~a & b).sum()),
                                   int((~a & ~b).sum()), confidence)
    return d, low, high, int(keep.sum())


def _paired_mean(a: np.ndarray, b: np.ndarray, confidence: float, bounds: tuple[float, float]):
    diff = b - a
    return t_interval(diff[~np.isnan(diff)], confidence, (bounds[0] - bounds[1], bounds[1] - bounds[0]))


def compare(df_a: pd.DataFrame, df_b: pd.DataFrame, confidence: float = 0.95,
            paired: bool | None = None) -> pd.DataFrame:
    """Metric by metric, variant A against variant B, with the difference B - A and its
    interval, paired by seed wherever the runs share their seeds.

    Paired (the runs played the same seeds: an :func:`ab_test`, a sweep): rates (win
    rates of each seat, Completion, Drawishness, ...) by Newcombe's paired interval
    (method 10) on the games' outcomes under A and B; means and AdvantageP1 by the t
    interval of the per-seed differences. Independent (other seeds, e.g. people's tables
    against bot games): Newcombe's hybrid score interval for rates, Welch's t for means.
    Metrics without an interval (Balance, medians, quantiles) get the difference alone.

    Args:
        df_a, df_b: from :func:`simulate`, same game and seat count.
        confidence: of the intervals.
        paired: None (pair when both runs played exactly the same seeds), True (pair on
            the seeds they share), False (independent samples); see :func:`pair_by_seed`.

    Returns:
        DataFrame indexed by metric (``Win rate seat 0``, ..., then the rows of
        :func:`metrics`) with columns ``A``, ``B`` (each run's value), ``difference``
        (B - A, over the pairs when paired), ``low``, ``high``, ``n`` (pairs, or games
        of both), ``interval`` (the method), ``kind`` (``rate``, ``score``, ``mean`` or
        empty) and ``note``; ``attrs`` hold ``game``, ``seats``, the variants' options in
        a few words as ``A`` and ``B`` (e.g. ``"preset 'Long Game'"``; empty for
        hand-built frames), ``paired`` (bool) and ``pairing`` (one line: how the games
        were paired, or why not).

    Raises:
        ValueError: the frames are of different games (by ``attrs["game"]``) or seat
            counts, are not from simulate, or ``paired=True`` cannot pair them.
    """
    seats = _seats(df_a)
    game_a, game_b = df_a.attrs.get("game"), df_b.attrs.get("game")
    if game_a and game_b and game_a != game_b:
        raise ValueError(f"A is {game_a} and B is {game_b}: compare variants (option sets) of the same game")
    if _seats(df_b) != seats:
        raise ValueError(f"A has {seats} seats and B {_seats(df_b)}: compare variants of the same seat count")
    _z(confidence)
    pairs = pair_by_seed(df_a, df_b, paired)
    rows = {}
    for seat in range(seats):
        a, b = _flag(df_a[f"seat{seat}_won"]).to_numpy(), _flag(df_b[f"seat{seat}_won"]).to_numpy()
        rows[f"Win rate seat {seat}"] = _compare_rate(a, b, pairs, confidence)
    ma, mb = metrics(df_a, confidence), metrics(df_b, confidence)
    va, vb = per_game(df_a), per_game(df_b)
    for name in ma.index:
        spec = SPECS.get(name)
        if spec is None:   # Balance, spreads and quantiles: no per-game value to pair
            row = {"difference": mb.at[name, "value"] - ma.at[name, "value"], "low": math.nan, "high": math.nan,
                   "n": int(ma.at[name, "n"] + mb.at[name, "n"]), "interval": "", "kind": "", "note": ""}
        elif spec.kind == RATE:
            row = _compare_rate(va[name].to_numpy(), vb[name].to_numpy(), pairs, confidence)
        else:
            row = _compare_mean(va[name].to_numpy(), vb[name].to_numpy(), pairs, confidence, spec)
        rows[name] = {**row, "A": ma.at[name, "value"], "B": mb.at[name, "value"]}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table = table[["A", "B", "difference", "low", "high", "n", "interval", "kind", "note"]]
    table.index.name = "metric"
    pairing = (f"paired by seed: {len(pairs[0]):,} games played under both" if pairs is not None else
               "independent samples: the runs did not play the same seeds")
    table.attrs.update(game=game_a or game_b, seats=seats, A=_variant_label(df_a), B=_variant_label(df_b),
                       paired=pairs is not None, pairing=pairing)
    return table


def _compare_rate(a: np.ndarray, b: np.ndarray, pairs, confidence: float) -> dict:
    if pairs is not None:
        d, low, high, n = _paired_rate(a[pairs[0]], b[pairs[1]], confidence)
        method = NEWCOMBE_PAIRED
    else:
        a, b = a[~np.isnan(a)], b[~np.isnan(b)]
        d, low, high = newcombe(int(a.sum()), len(a), int(b.sum()), len(b), confidence)
        n, method = len(a) + len(b), NEWCOMBE
    rate_a = float(np.nanmean(a)) if len(a) and not np.isnan(a).all() else math.nan
    rate_b = float(np.nanmean(b)) if len(b) and not np.isnan(b).all() else math.nan
    return {"A": rate_a, "B": rate_b, "difference": d, "low": low, "high": high, "n": n, "interval": method,
            "kind": RATE, "note": _note(n if pairs is not None else min(len(a), len(b)))}


def _compare_mean(a: np.ndarray, b: np.ndarray, pairs, confidence: float, spec: MetricSpec) -> dict:
    if pairs is not None:
        d, low, high, n = _paired_mean(a[pairs[0]], b[pairs[1]], confidence, spec.bounds)
        method, smallest = PAIRED_T, n
    else:
        span = spec.bounds[1] - spec.bounds[0]
        d, low, high, n = welch(a, b, confidence, (-span, span))
        method, smallest = WELCH, min(int((~np.isnan(a)).sum()), int((~np.isnan(b)).sum()))
    return {"difference": d, "low": low, "high": high, "n": n, "interval": method, "kind": spec.kind,
            "note": _note(smallest)}


def _variant_label(df: pd.DataFrame) -> str:
    """What a simulation's options were, in a few words (``""`` for a hand-built frame)."""
    if not df.attrs.get("game") or "options" not in df.attrs:
        return ""
    return describe_options(get_game(df.attrs["game"]), df.attrs["options"])


class ABTest(NamedTuple):
    """The result of :func:`ab_test`: ``a`` and ``b`` (the simulate DataFrames) and
    ``comparison`` (:func:`compare` of the two, paired by seed)."""

    a: pd.DataFrame
    b: pd.DataFrame
    comparison: pd.DataFrame


def ab_test(game, seats: int, bots, games: int, options_a: Mapping[str, Any] | str | None,
            options_b: Mapping[str, Any] | str | None, seed: int = 0, **simulate_kwargs) -> ABTest:
    """Play the same seeds under two variants and compare them, game by game.

    Args:
        game, seats, bots, games, seed: as :func:`simulate`; both variants play the same
            game seeds, seat rotation and first seats, so :func:`compare` pairs them.
        options_a, options_b: each an option mapping (e.g. a different deck through a
            deck option) or the name of one of the game's ``PRESETS``.
        **simulate_kwargs: passed to :func:`simulate` (``workers``, ``executor``,
            ``progress``, ``cancel``, ``trace``, ...).

    Returns:
        :class:`ABTest` ``(a, b, comparison)``; when a run was cancelled, the comparison
        pairs the seeds both played.

    Raises:
        OptionError: as :func:`simulate`, for either variant, before any game is played.
    """
    for options in (options_a, options_b):
        make_plan(game, seats, bots, options, seed)  # both checked before either runs
    if "options" in simulate_kwargs:
        raise OptionError("ab_test takes options_a and options_b, not options")
    a = simulate(game, seats, bots, games, options_a, seed, **simulate_kwargs)
    b = simulate(game, seats, bots, games, options_b, seed, **simulate_kwargs)
    cut = a.attrs.get("cancelled") or b.attrs.get("cancelled")
    return ABTest(a, b, compare(a, b, paired=True if cut and len(a) and len(b) else None))
