"""Balance-lab plots with matplotlib. Each function returns a new ``Figure`` built
without pyplot (no global figure list to leak in a long-running dashboard); Jupyter
shows a Figure returned by a cell, with or without ``%matplotlib inline``, and
``fig.savefig(...)`` writes it to a file."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from playtest.engine import PlaytestError, get_game
from playtest.engine.game import CountsCards

from .stats import HELD, RATE, ABTest, _seats, card_stats, seat_win_rates


class LabFigure(Figure):
    """A matplotlib ``Figure`` that Jupyter shows as a PNG even where no matplotlib
    backend was set up for the notebook (``%matplotlib inline`` not run); where one was,
    its own display is used."""

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png")
        return buffer.getvalue()


def plot_win_rates(df: pd.DataFrame, by: str = "seat", confidence: float = 0.95) -> Figure:
    """Bars of the win rate per seat (or per bot, ``by="bot"``) with Wilson interval
    bars, and a dashed line at the fair share 1/seats.

    Raises:
        ValueError: as :func:`~playtest.lab.seat_win_rates`.
    """
    rates = seat_win_rates(df, by=by, confidence=confidence)
    fig = LabFigure(figsize=(6, 3.5), layout="constrained")
    ax = fig.add_subplot()
    labels = [f"seat {s}" if by == "seat" else str(s) for s in rates.index]
    errors = np.vstack([rates["rate"] - rates["low"], rates["high"] - rates["rate"]])
    ax.bar(labels, rates["rate"], yerr=errors, capsize=4, color="tab:blue")
    seats = _seats(df)
    ax.axhline(1 / seats, color="grey", linestyle="--", label=f"fair share 1/{seats}")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, min(1, max(float(rates["high"].max()), 1 / seats) * 1.15))
    ax.set_title(f"Win rate per {by}, {len(df):,} games ({confidence:.0%} Wilson intervals)")
    ax.legend(loc="upper right")
    return fig


def plot_lengths(df: pd.DataFrame) -> Figure:
    """Histograms of game length in turns and in moves; games stopped by the G-4 cap
    are stacked in a second colour."""
    fig = LabFigure(figsize=(9, 3.8), layout="constrained")
    finished = df["finished"].astype(bool)
    for ax, what in zip(fig.subplots(1, 2), ("turns", "moves")):
        values = pd.to_numeric(df[what], errors="coerce")
        if values.notna().any():
            low, high = values.min(), values.max()
            # a bar per whole number while they fit, else 30 bars whose edges are whole numbers
            step = max(1, int(np.ceil((high - low + 1) / 30)))
            bins = np.arange(low - 0.5, high + step + 0.5, step)
            ax.hist([values[finished].dropna(), values[~finished].dropna()], bins=bins, stacked=True,
                    color=["tab:blue", "tab:red"], label=["finished", "unfinished (G-4 cap)"])
            ax.axvline(values.median(), color="black", linestyle="--", label=f"median {values.median():g}")
            ax.set_ylim(top=ax.get_ylim()[1] * 1.4)   # room above the bars for the legend
            ax.legend(loc="upper right", fontsize="small", framealpha=0.8)
        ax.set_xlabel(what)
        ax.set_ylabel("games")
        ax.set_title(f"Game length in {what}")
    return fig


def plot_card_impact(df: pd.DataFrame, counter: str | None = None, confidence: float = 0.95) -> Figure:
    """Per card, the win rate of seats that ``counter``-ed it (e.g. ``"played"``; by
    default the game's first counter) minus the overall win rate, with Wilson interval
    bars: right of zero, doing it goes with winning. The title says whether the counter
    is a choice made during the game or what a seat held at the end, and the caption
    that this is a correlation, not the card's effect (see :func:`~playtest.lab.card_stats`).

    Raises:
        ValueError: ``counter`` is not one of the game's card counters.
    """
    stats = card_stats(df, confidence)
    counters = list(dict.fromkeys(stats.index.get_level_values("counter")))
    fig = LabFigure(figsize=(7, 0.5 + 0.3 * max(4, len(stats) / max(1, len(counters)))), layout="constrained")
    ax = fig.add_subplot()
    if not counters:
        ax.set_title("This game has no card counters")
        return fig
    counter = counter or _first_counter(df, counters)
    if counter not in counters:
        raise ValueError(f"no card counter {counter!r}; this simulation has {', '.join(counters)}")
    rows = stats.loc[counter].sort_values("vs_overall")
    if rows["vs_overall"].isna().all():   # no seat won, or nobody did it: nothing to compare
        ax.set_title(f"Card impact: {counter} ({len(df):,} games): no game was won by a seat that did it")
        return fig
    kind = rows["kind"].iloc[0] if "kind" in rows.columns else ""
    baseline = rows["win_rate"] - rows["vs_overall"]
    errors = np.vstack([rows["win_rate"] - rows["low"], rows["high"] - rows["win_rate"]])
    ax.barh(rows.index, rows["vs_overall"], xerr=errors, capsize=3,
            color=np.where(rows["vs_overall"] >= 0, "tab:green", "tab:red"))
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel(f"win rate when {counter} ({kind}) minus overall win rate ({baseline.iloc[0]:.1%})")
    ax.set_title(f"Card impact: {counter} ({len(df):,} games, {confidence:.0%} Wilson intervals)")
    caveat = ("a correlation, not the card's effect: what a seat holds at the end says how the game ended"
              if kind == HELD else "a correlation, not the card's effect: an A/B test on the same seeds measures one")
    fig.text(0.01, 0.005, caveat, fontsize="small", color="dimgrey", ha="left", va="bottom")
    return fig


def _first_counter(df: pd.DataFrame, counters: list[str]) -> str:
    """The game's first card counter (a :class:`~playtest.engine.game.CountsCards` game's
    ``card_counters``: e.g. ``played``), so that every run of a game, A or B, plots the
    same one; else the first of ``counters``."""
    try:
        game = get_game(df.attrs["game"])(df.attrs["seats"], df.attrs["options"])
        first = game.card_counters()[0][0] if isinstance(game, CountsCards) else counters[0]
    except (KeyError, IndexError, PlaytestError):   # a hand-built frame, or a game without counters
        return counters[0]
    return first if first in counters else counters[0]


def plot_compare(comparison: pd.DataFrame | ABTest) -> Figure:
    """The A/B comparison of :func:`~playtest.lab.compare` (or an :func:`~playtest.lab.ab_test`
    result): left, the rates and AdvantageP1 (seat win rates, Completion, ...) as B - A in
    percentage points; right, the means as B - A in percent of A; each with the interval
    the table names (paired by seed where the runs share them). The title names the game
    and variants A and B, and how the games were paired.

    Raises:
        TypeError: ``comparison`` is neither a compare() table nor an ab_test() result.
    """
    if isinstance(comparison, ABTest):
        comparison = comparison.comparison
    if not isinstance(comparison, pd.DataFrame) or "difference" not in comparison.columns:
        raise TypeError(f"plot_compare takes compare(df_a, df_b) or ab_test(...), not {type(comparison).__name__}")
    fig = LabFigure(figsize=(10, 4), layout="constrained")
    labels = comparison.attrs
    if labels.get("A") or labels.get("B"):
        game = get_game(labels["game"]).title + ": " if labels.get("game") else ""
        fig.suptitle(f"{game}A = {labels.get('A') or '?'}   vs   B = {labels.get('B') or '?'}"
                     + (f"\n({labels['pairing']})" if labels.get("pairing") else ""))
    left, right = fig.subplots(1, 2)
    kind = comparison["kind"] if "kind" in comparison.columns else pd.Series("", index=comparison.index)
    rates = comparison[kind.isin([RATE, "score"]) & comparison["low"].notna()]
    means = comparison[(kind == "mean") & comparison["low"].notna()]
    means = means[means["A"] != 0]
    for ax, rows, scale, unit in ((left, rates, rates["A"] * 0 + 100, "percentage points"),
                                  (right, means, 100 / means["A"].abs(), "% of A")):
        y = np.arange(len(rows))
        diff = rows["difference"] * scale
        errors = np.vstack([(rows["difference"] - rows["low"]) * scale, (rows["high"] - rows["difference"]) * scale])
        ax.errorbar(diff, y, xerr=errors, fmt="o", capsize=3, color="tab:purple")
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(y, rows.index)
        ax.invert_yaxis()
        ax.set_xlabel(f"B - A ({unit})")
    paired = "paired " if labels.get("paired") else ""
    left.set_title(f"Rates (95% {paired}intervals)")
    right.set_title(f"Means (95% {paired}intervals)")
    return fig
