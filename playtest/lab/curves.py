"""Over a game: how the scores move turn by turn, when the lead changes, and where each seat
ends up. The curves and the timeline need the turn-by-turn measures of a traced run::

    df = simulate("chore_race", 3, "heuristic", games=500, trace=True)
    score_curves(df)            # per turn and seat: mean score with a band
    lead_change_timeline(df)    # per turn: how often the lead changes then
    rank_distribution(df)       # per seat: the share of games ending in each place (no trace needed)
    plot_score_curves(df); plot_lead_changes(df); plot_ranks(df)
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.figure import Figure

from .stats import _seats, _t, seat_ranks

BANDS = ("ci", "spread")


def _need_trace(df: pd.DataFrame, column: str) -> None:
    if column not in df.columns or df[column].isna().all():
        raise ValueError(f"no {column} column: these games were not traced; play them with "
                         "simulate(..., trace=True) (for a game without the hooks the curves need, none is kept)")


def score_curves(df: pd.DataFrame, band: str = "ci", confidence: float = 0.95, min_games: int = 10) -> pd.DataFrame:
    """Each seat's score turn by turn, averaged over the games still going, with a band.

    Args:
        df: rows of ``simulate(..., trace=True)`` (a ``score_curve`` column).
        band: ``"ci"``: the t interval of the mean at ``confidence``; ``"spread"``: the
            10% and 90% quantiles of the games' scores (where most games are).
        confidence: of the ``"ci"`` band.
        min_games: leave out the turns fewer games than this reached (their mean is noise).

    Returns:
        DataFrame with columns ``turn``, ``seat``, ``mean``, ``low``, ``high`` and
        ``games`` (games that reached the turn), one row per turn and seat, sorted.

    Raises:
        ValueError: the rows were not traced, or a bad ``band``.
    """
    if band not in BANDS:
        raise ValueError(f"band must be one of {', '.join(BANDS)}, not {band!r}")
    _need_trace(df, "score_curve")
    seats = _seats(df)
    samples = [np.asarray(curve, dtype=float) for curve in df["score_curve"] if isinstance(curve, (list, tuple))
               and len(curve)]
    if not samples:
        return pd.DataFrame(columns=["turn", "seat", "mean", "low", "high", "games"])
    stacked = np.vstack(samples)     # rows [turn, score of seat 0, ...] of every game
    long = pd.DataFrame({"turn": np.repeat(stacked[:, 0], seats).astype(int),
                         "seat": np.tile(np.arange(seats), len(stacked)),
                         "score": stacked[:, 1:1 + seats].ravel()})
    grouped = long.groupby(["turn", "seat"])["score"]
    table = grouped.agg(["mean", "std", "count"]).reset_index()
    if band == "ci":
        half = [(_t(confidence, n - 1) * sd / math.sqrt(n)) if n > 1 else math.nan
                for sd, n in zip(table["std"], table["count"])]
        table["low"], table["high"] = table["mean"] - half, table["mean"] + half
    else:
        quantiles = grouped.quantile([0.1, 0.9]).unstack()
        table["low"] = quantiles[0.1].to_numpy()
        table["high"] = quantiles[0.9].to_numpy()
    table = table.rename(columns={"count": "games"})
    table = table[table["games"] >= min_games]
    return table[["turn", "seat", "mean", "low", "high", "games"]].reset_index(drop=True)


def lead_change_timeline(df: pd.DataFrame, min_games: int = 10) -> pd.DataFrame:
    """When the lead changes: per turn, the lead changes made in it over the games that
    reached it.

    Args:
        df: rows of ``simulate(..., trace=True)`` (a ``lead_change_turns`` column).
        min_games: leave out turns fewer games than this reached.

    Returns:
        DataFrame indexed by ``turn`` with columns ``games`` (games that reached the
        turn), ``changes`` (lead changes in it, all games) and ``per_game`` (changes /
        games).

    Raises:
        ValueError: the rows were not traced.
    """
    _need_trace(df, "lead_change_turns")
    changes = pd.Series([t for turns in df["lead_change_turns"] if isinstance(turns, (list, tuple)) for t in turns],
                        dtype="int64").value_counts()
    lengths = pd.to_numeric(df["turns"], errors="coerce")
    if lengths.isna().all():
        lengths = pd.to_numeric(df["moves"], errors="coerce")   # a game without turns: the clock is moves
    last = int(max(lengths.max() if lengths.notna().any() else 0, changes.index.max() if len(changes) else 0))
    turns = np.arange(0, last + 1)
    reached = np.array([(lengths >= t).sum() for t in turns])
    table = pd.DataFrame({"games": reached, "changes": changes.reindex(turns, fill_value=0).to_numpy()},
                         index=pd.Index(turns, name="turn"))
    table["per_game"] = table["changes"] / table["games"].where(table["games"] > 0)
    return table[table["games"] >= min_games]


def rank_distribution(df: pd.DataFrame, by: str = "seat") -> pd.DataFrame:
    """Where each seat (or bot) ends: the share of its games in each place (1 = first;
    shared places as Ludii ranks them, e.g. 1.5 for a two-way shared win or a 2-seat draw).

    Args:
        df: rows of :func:`~playtest.lab.simulate` (no trace needed).
        by: ``"seat"`` or ``"bot"``.

    Returns:
        DataFrame indexed by seat (or bot), one column per place, plus ``mean_place`` and
        ``games``; each row's shares add up to 1.

    Raises:
        ValueError: a bad ``by``, or rows not from simulate.
    """
    if by not in ("seat", "bot"):
        raise ValueError(f"by must be 'seat' or 'bot', not {by!r}")
    places = seat_ranks(df)
    seats = _seats(df)
    long = pd.DataFrame({"who": np.concatenate([np.full(len(df), s) if by == "seat" else df[f"seat{s}_bot"].to_numpy()
                                               for s in range(seats)]),
                         "place": np.concatenate([places[s].to_numpy() for s in range(seats)])})
    table = pd.crosstab(long["who"], long["place"], normalize="index")
    table.columns = [float(c) for c in table.columns]
    table.index.name = by
    table["mean_place"] = long.groupby("who")["place"].mean()
    table["games"] = long.groupby("who").size()
    return table


def _figure(size):
    from .plots import LabFigure
    return LabFigure(figsize=size, layout="constrained")


def plot_score_curves(df: pd.DataFrame, band: str = "ci", confidence: float = 0.95) -> Figure:
    """Each seat's mean score per turn, a line per seat with its band (see
    :func:`score_curves`), and, below, how many games are still going.

    Raises:
        ValueError: as :func:`score_curves`.
    """
    curves = score_curves(df, band, confidence)
    fig = _figure((7, 4.5))
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=[3, 1])
    for seat, rows in curves.groupby("seat"):
        line, = top.plot(rows["turn"], rows["mean"], label=f"seat {seat}")
        top.fill_between(rows["turn"], rows["low"], rows["high"], color=line.get_color(), alpha=0.2)
    what = f"{confidence:.0%} interval of the mean" if band == "ci" else "10% to 90% of games"
    top.set_ylabel("score")
    top.set_title(f"Score per turn ({len(df):,} games; band: {what})")
    if len(curves):
        top.legend(loc="upper left", fontsize="small")
        going = curves[curves["seat"] == 0]
        bottom.fill_between(going["turn"], going["games"], step="mid", color="grey", alpha=0.5)
    bottom.set_ylabel("games going")
    bottom.set_xlabel("turn")
    return fig


def plot_lead_changes(df: pd.DataFrame) -> Figure:
    """Bars of lead changes per game in each turn (see :func:`lead_change_timeline`).

    Raises:
        ValueError: as :func:`lead_change_timeline`.
    """
    timeline = lead_change_timeline(df)
    fig = _figure((7, 3))
    ax = fig.add_subplot()
    ax.bar(timeline.index, timeline["per_game"], color="tab:orange", width=0.9)
    ax.set_xlabel("turn")
    ax.set_ylabel("lead changes per game\nthat reached the turn")
    ax.set_title(f"When the lead changes ({len(df):,} games)")
    return fig


def plot_ranks(df: pd.DataFrame, by: str = "seat") -> Figure:
    """Stacked bars: per seat (or bot), the share of games it ended in each place.

    Raises:
        ValueError: as :func:`rank_distribution`.
    """
    table = rank_distribution(df, by)
    places = [c for c in table.columns if isinstance(c, float)]
    fig = _figure((6, 3.5))
    ax = fig.add_subplot()
    labels = [f"seat {w}" if by == "seat" else str(w) for w in table.index]
    bottom = np.zeros(len(table))
    colours = colormaps["viridis"](np.linspace(0.15, 0.9, max(1, len(places))))
    for place, colour in zip(places, colours):
        ax.bar(labels, table[place], bottom=bottom, color=colour, label=f"place {place:g}")
        bottom += table[place].to_numpy()
    ax.set_ylabel("share of games")
    ax.set_ylim(0, 1)
    ax.set_title(f"Where each {by} ends ({len(df):,} games)")
    ax.legend(loc="center left", bbox_to_anchor=(1, 0.5), fontsize="small")
    return fig
