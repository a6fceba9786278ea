"""Balance statistics over a :func:`~playtest.lab.simulate` DataFrame, with intervals.

Rates get the Wilson score interval; Balance a simultaneous interval built from the
seats' Bonferroni-adjusted Wilson intervals (see ``_balance``); differences of two rates (A/B) Newcombe's hybrid
score interval (his method 10); means and their differences the normal approximation.
Metric names follow Ludii's where one matches (AdvantageP1, Balance, Drawishness,
Completion, Timeouts, DurationTurns, DurationMoves, LeadChange).
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from playtest.engine import OptionError, get_game

from .presets import describe_options
from .simulation import CARD_COLUMN, make_plan, simulate

_CARD = re.compile(r"^seat(\d+)_(\w+):(.+)$")
WILSON = "Wilson score"
NEWCOMBE = "Newcombe hybrid score"
NORMAL = "normal approximation"
BALANCE_INTERVAL = "Wilson per seat, Bonferroni-adjusted (simultaneous)"
BALANCE_MEANING = "1 - the largest gap between two seats' win rates (1 = every seat wins as often)"


def _z(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1 (e.g. 0.95), not {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    Args:
        successes: whole number 0..n. n: number of trials, 0 or more.
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
    """The difference of two proportions ``p_b - p_a`` and its interval by Newcombe's
    hybrid score method (1998, method 10: built from the two Wilson intervals).

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


def _seats(df: pd.DataFrame) -> int:
    seats = df.attrs.get("seats") or sum(1 for c in df.columns if re.fullmatch(r"seat\d+_won", c))
    if not seats:
        raise ValueError("not a simulate() DataFrame: it has no seat{s}_won columns")
    return seats


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
    if by == "seat":
        table = pd.DataFrame({"wins": [int(df[f"seat{s}_won"].sum()) for s in range(seats)],
                              "games": [len(df)] * seats}, index=pd.RangeIndex(seats, name="seat"))
    elif by == "bot":
        long = pd.DataFrame({"bot": pd.concat([df[f"seat{s}_bot"] for s in range(seats)], ignore_index=True),
                             "won": pd.concat([df[f"seat{s}_won"] for s in range(seats)], ignore_index=True)})
        grouped = long.groupby("bot")["won"]
        table = pd.DataFrame({"wins": grouped.sum().astype(int), "games": grouped.size()})
    else:
        raise ValueError(f"by must be 'seat' or 'bot', not {by!r}")
    table["rate"] = table["wins"] / table["games"].where(table["games"] > 0)
    bounds = [wilson(w, n, confidence) for w, n in zip(table["wins"], table["games"])]
    table["low"] = [b[0] for b in bounds]
    table["high"] = [b[1] for b in bounds]
    return table


def _rate_row(successes: int, n: int, confidence: float, meaning: str) -> dict:
    low, high = wilson(successes, n, confidence)
    return {"value": successes / n if n else math.nan, "low": low, "high": high, "n": n, "interval": WILSON,
            "successes": successes, "meaning": meaning}


def _mean_row(values: pd.Series, confidence: float, meaning: str) -> dict:
    values = pd.to_numeric(values, errors="coerce").dropna()
    n = len(values)
    mean = values.mean() if n else math.nan
    se = values.std(ddof=1) / math.sqrt(n) if n > 1 else math.nan
    z = _z(confidence)
    return {"value": mean, "low": mean - z * se, "high": mean + z * se, "n": n, "interval": NORMAL,
            "se": se, "meaning": meaning}


def _plain_row(value: float, n: int, meaning: str) -> dict:
    return {"value": value, "low": math.nan, "high": math.nan, "n": n, "interval": "", "meaning": meaning}


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
    wins = [int(df[f"seat{s}_won"].sum()) for s in range(seats)]
    if not n or not any(wins):
        return _plain_row(math.nan, n, BALANCE_MEANING + " (none: no game had a winner)")
    rates = [w / n for w in wins]
    bounds = [wilson(w, n, 1 - (1 - confidence) / seats) for w in wins]
    lows, highs = [b[0] for b in bounds], [b[1] for b in bounds]
    return {**_plain_row(1 - (max(rates) - min(rates)), n, BALANCE_MEANING),
            "low": max(0.0, 1 - (max(highs) - min(lows))), "high": min(1.0, 1 - max(0.0, max(lows) - min(highs))),
            "interval": BALANCE_INTERVAL}


def metrics(df: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """The balance metrics of a simulation, each with a value and, where one exists, an
    interval.

    Rows (Ludii's names where one matches): ``AdvantageP1`` (share of games the first
    seat to act won; Wilson), ``Balance`` (1 - largest gap between seat win rates;
    NaN when no game had a winner; a simultaneous interval from the seats'
    Bonferroni-adjusted Wilson intervals, which always holds the value), ``Drawishness`` (finished without a winner; Wilson), ``Completion``
    (finished before the G-4 cap; Wilson), ``Timeouts`` (stopped by the G-4 cap;
    Wilson), ``DurationTurns`` / ``DurationMoves`` (mean; normal approximation) with
    ``...StdDev``, ``...Median``, ``...Q10`` and ``...Q90`` (no interval),
    ``LeadChange`` (Ludii's: per game, changes of the set of leading seats divided by
    moves, averaged; normal approximation), ``LeadChangesPerGame`` (mean count) and
    ``ScoreMargin`` (mean score distance from the winners to the nearest other seat,
    games with winners and losers only; normal approximation). All rates are over every
    game in ``df``.

    Args:
        df: from :func:`simulate` (a hand-built frame with the same columns works).
        confidence: of the intervals, e.g. 0.95.

    Returns:
        DataFrame indexed by metric, with columns ``value``, ``low``, ``high``, ``n``
        (games it rests on), ``interval`` (the method) and ``meaning``; plus the
        internals :func:`compare` uses (``successes`` for rates, ``se`` for means).

    Raises:
        ValueError: ``df`` is not from :func:`simulate`, or a bad ``confidence``.
    """
    seats = _seats(df)
    n = len(df)
    first_won = sum(1 for first, winners in zip(df["first_seat"], df["winners"]) if first in winners)
    finished = int(df["finished"].sum())
    rows = {
        "AdvantageP1": _rate_row(first_won, n, confidence, "share of games won by the first seat to act (G-2)"),
        "Balance": _balance(df, seats, confidence),
        "Drawishness": _rate_row(int(df["draw"].sum()), n, confidence, "share of games finished without a winner"),
        "Completion": _rate_row(finished, n, confidence, "share of games that finished before the G-4 cap"),
        "Timeouts": _rate_row(n - finished, n, confidence, "share of games stopped unfinished by the G-4 cap"),
    }
    for what in ("turns", "moves"):
        name = "Duration" + what.capitalize()
        values = pd.to_numeric(df[what], errors="coerce").dropna()
        rows[name] = _mean_row(values, confidence, f"mean {what} per game")
        rows[name + "StdDev"] = _plain_row(values.std(ddof=1), len(values), f"standard deviation of {what}")
        rows[name + "Median"] = _plain_row(values.median(), len(values), f"median {what}")
        rows[name + "Q10"] = _plain_row(values.quantile(0.1), len(values), f"10% of games are this short or shorter")
        rows[name + "Q90"] = _plain_row(values.quantile(0.9), len(values), f"90% of games are this short or shorter")
    changes = pd.to_numeric(df["lead_changes"], errors="coerce")
    moves = pd.to_numeric(df["moves"], errors="coerce")
    rows["LeadChange"] = _mean_row(changes / moves.where(moves > 0), confidence,
                                   "changes of the leading seats per move (Ludii's LeadChange)")
    rows["LeadChangesPerGame"] = _mean_row(changes, confidence, "changes of the leading seats per game")
    rows["ScoreMargin"] = _mean_row(df["margin"], confidence,
                                    "score distance from the winners to the nearest other seat")
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "metric"
    return table


def card_stats(df: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per card and counter (``played``, ``kept``, ...; see ``Game.card_counts``): how
    often, and how the seats that did it fared.

    Args:
        df: from :func:`simulate`. confidence: of the intervals.

    Returns:
        DataFrame indexed by ``(counter, card)`` with columns ``per_game`` (mean count per
        game, all seats), ``share_of_games`` (games where some seat did it),
        ``seat_games`` (seat-games where that seat did it at least once), ``wins``
        (of those, won), ``win_rate`` with Wilson ``low`` / ``high``, and ``vs_overall``
        (``win_rate`` minus the win rate of all seat-games). Empty (same columns) when
        the game has no card counters.

    Raises:
        ValueError: ``df`` is not from :func:`simulate`.
    """
    seats = _seats(df)
    n = len(df)
    overall = sum(int(df[f"seat{s}_won"].sum()) for s in range(seats)) / (n * seats) if n else math.nan
    found: dict[tuple[str, str], list[int]] = {}
    for column in df.columns:
        match = _CARD.match(column)
        if match:
            found.setdefault((match[2], match[3]), []).append(int(match[1]))
    rows = {}
    for (counter, card), card_seats in sorted(found.items()):
        counts = np.column_stack([df[CARD_COLUMN.format(seat=s, counter=counter, card=card)].to_numpy() for s in card_seats])
        won = np.column_stack([df[f"seat{s}_won"].to_numpy(bool) for s in card_seats])
        used = counts > 0
        seat_games, wins = int(used.sum()), int((used & won).sum())
        low, high = wilson(wins, seat_games, confidence)
        rate = wins / seat_games if seat_games else math.nan
        rows[(counter, card)] = {"per_game": counts.sum() / n if n else math.nan,
                                 "share_of_games": used.any(axis=1).mean() if n else math.nan,
                                 "seat_games": seat_games, "wins": wins, "win_rate": rate, "low": low, "high": high,
                                 "vs_overall": rate - overall}
    columns = ["per_game", "share_of_games", "seat_games", "wins", "win_rate", "low", "high", "vs_overall"]
    table = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    table.index = pd.MultiIndex.from_tuples(list(rows), names=["counter", "card"])
    return table


def compare(df_a: pd.DataFrame, df_b: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Metric by metric, variant A against variant B, with the difference B - A and its
    interval: Newcombe's hybrid score method for rates (win rates of each seat and the
    rate metrics of :func:`metrics`), the normal approximation for means (the variants
    are treated as independent samples, which is conservative for runs on the same
    seeds). Metrics without an interval (Balance, medians, quantiles) get the
    difference alone.

    Args:
        df_a, df_b: from :func:`simulate`, same game and seat count.
        confidence: of the intervals.

    Returns:
        DataFrame indexed by metric (``Win rate seat 0``, ..., then the rows of
        :func:`metrics`) with columns ``A``, ``B``, ``difference``, ``low``, ``high``
        and ``interval`` (the method); ``attrs`` hold ``game``, ``seats`` and the
        variants' options in a few words as ``A`` and ``B`` (e.g. ``"preset 'Long
        Game'"``; empty for hand-built frames).

    Raises:
        ValueError: the frames are of different games (by ``attrs["game"]``) or seat
            counts, or are not from simulate.
    """
    seats = _seats(df_a)
    game_a, game_b = df_a.attrs.get("game"), df_b.attrs.get("game")
    if game_a and game_b and game_a != game_b:
        raise ValueError(f"A is {game_a} and B is {game_b}: compare variants (option sets) of the same game")
    if _seats(df_b) != seats:
        raise ValueError(f"A has {seats} seats and B {_seats(df_b)}: compare variants of the same seat count")
    z = _z(confidence)
    rows = {}
    wa, wb = seat_win_rates(df_a, confidence=confidence), seat_win_rates(df_b, confidence=confidence)
    for seat in range(seats):
        d, low, high = newcombe(wa.at[seat, "wins"], wa.at[seat, "games"], wb.at[seat, "wins"], wb.at[seat, "games"],
                                confidence)
        rows[f"Win rate seat {seat}"] = {"A": wa.at[seat, "rate"], "B": wb.at[seat, "rate"], "difference": d,
                                         "low": low, "high": high, "interval": NEWCOMBE}
    ma, mb = metrics(df_a, confidence), metrics(df_b, confidence)
    for name in ma.index:
        a, b = ma.loc[name], mb.loc[name]
        row = {"A": a["value"], "B": b["value"], "difference": b["value"] - a["value"], "low": math.nan,
               "high": math.nan, "interval": ""}
        if a["interval"] == WILSON:
            _, row["low"], row["high"] = newcombe(int(a["successes"]), int(a["n"]), int(b["successes"]), int(b["n"]),
                                                  confidence)
            row["interval"] = NEWCOMBE
        elif a["interval"] == NORMAL:
            spread = z * math.sqrt(a["se"] ** 2 + b["se"] ** 2)
            row.update(low=row["difference"] - spread, high=row["difference"] + spread, interval=NORMAL)
        rows[name] = row
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "metric"
    table.attrs.update(game=game_a or game_b, seats=seats, A=_variant_label(df_a), B=_variant_label(df_b))
    return table


def _variant_label(df: pd.DataFrame) -> str:
    """What a simulation's options were, in a few words (``""`` for a hand-built frame)."""
    if not df.attrs.get("game") or "options" not in df.attrs:
        return ""
    return describe_options(get_game(df.attrs["game"]), df.attrs["options"])


class ABTest(NamedTuple):
    """The result of :func:`ab_test`: ``a`` and ``b`` (the simulate DataFrames) and
    ``comparison`` (:func:`compare` of the two)."""

    a: pd.DataFrame
    b: pd.DataFrame
    comparison: pd.DataFrame


def ab_test(game, seats: int, bots, games: int, options_a: Mapping[str, Any] | str | None,
            options_b: Mapping[str, Any] | str | None, seed: int = 0, **simulate_kwargs) -> ABTest:
    """Play the same seeds under two variants and compare them.

    Args:
        game, seats, bots, games, seed: as :func:`simulate`; both variants use the same
            game seeds and seat rotation.
        options_a, options_b: each an option mapping (e.g. a different deck through a
            deck option) or the name of one of the game's ``PRESETS``.
        **simulate_kwargs: passed to :func:`simulate` (``workers``, ``executor``,
            ``progress``, ``cancel``, ...).

    Returns:
        :class:`ABTest` ``(a, b, comparison)``.

    Raises:
        OptionError: as :func:`simulate`, for either variant, before any game is played.
    """
    for options in (options_a, options_b):
        make_plan(game, seats, bots, options, seed)  # both checked before either runs
    if "options" in simulate_kwargs:
        raise OptionError("ab_test takes options_a and options_b, not options")
    a = simulate(game, seats, bots, games, options_a, seed, **simulate_kwargs)
    b = simulate(game, seats, bots, games, options_b, seed, **simulate_kwargs)
    return ABTest(a, b, compare(a, b))
