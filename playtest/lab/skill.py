"""The skill ladder: is a game decided by skill or by luck?

Bots ordered by strength (:data:`LADDER`: random, the heuristic, the IS-MCTS search bot
at a small and at its default budget) each play against the one below them: one seat
for the stronger bot, every other seat for the weaker one, seats rotating
(:func:`~playtest.lab.simulate`). If skill matters, each step up wins more than its fair
share; if the game is luck, every step wins its fair share. ::

    from playtest.lab import skill_ladder
    ladder = skill_ladder("lazy_sunday", 2, games=200)
    ladder[["rate", "low", "high", "fair", "points"]]
    ladder.attrs["sentence"]     # "skill matters: +21 points per step"

From a terminal: ``playtest skill lazy_sunday --seats 2 --games 200``.
"""
from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

LADDER = ("random", "heuristic", "ismcts:100", "ismcts")
"""The default ladder, weakest first: bot names as :func:`~playtest.lab.simulate` takes
them (a search bot with its budget per decision)."""
COLUMNS = ["bot", "below", "games", "wins", "rate", "low", "high", "fair", "ratio", "points"]


def skill_ladder(game, seats: int, games: int = 100, ladder: Sequence[str] = LADDER,
                 options: Mapping[str, Any] | str | None = None, seed: int = 0, confidence: float = 0.95,
                 progress: bool | Callable[[int, int], Any] = False, **simulate_kwargs):
    """Play each bot of ``ladder`` against the one below it and measure the gradient.

    Args:
        game: a registry name or Game class. seats: the seat count.
        games: games per step (1 or more); ``len(ladder) - 1`` steps.
        ladder: two or more bot names, weakest first (see :data:`LADDER`).
        options: option mapping or preset name, as :func:`~playtest.lab.simulate`.
        seed: the run's seed; every step plays the same game seeds.
        confidence: of the Wilson intervals, e.g. 0.95.
        progress: False, or ``progress(done, total)`` called with the games played over
            all steps (True: a tqdm bar per step).
        **simulate_kwargs: passed to :func:`~playtest.lab.simulate` (``workers``,
            ``executor``, ``cancel``).

    Returns:
        A DataFrame, one row per step (index ``"<bot> vs <below>"``), columns ``bot``,
        ``below``, ``games`` (played), ``wins`` (the stronger bot's wins, a shared win
        counting as its share), ``rate`` (wins / games) with its Wilson interval
        ``low``..``high`` (on the wins rounded to whole games), ``fair`` (the rate of a
        seat no better than the others: ``(1 - share of games with no winner) / seats``),
        ``ratio`` (rate / fair) and ``points`` (``100 * (rate - fair)``, percentage
        points). ``attrs`` holds ``game``, ``seats``, ``ladder``, ``options``,
        ``sentence`` (see :func:`skill_sentence`) and ``cancelled``.

    Raises:
        OptionError: an unknown game, bot or preset, fewer than two bots, a bad seat or
            game count, before any game is played.
    """
    import pandas as pd

    from playtest.engine import OptionError

    from .simulation import make_plan, simulate
    from .stats import wilson

    ladder = list(ladder)
    if len(ladder) < 2:
        raise OptionError(f"a skill ladder needs two or more bots, weakest first, not {ladder!r}")
    plans = [make_plan(game, seats, [upper] + [lower] * (seats - 1), options, seed)
             for lower, upper in zip(ladder, ladder[1:])]  # every step checked before any runs
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise OptionError(f"games must be a whole number of games per step, 1 or more, not {games!r}")
    steps = len(plans)
    rows, cancelled = [], False
    for i, (lower, upper) in enumerate(zip(ladder, ladder[1:])):
        report = progress
        if callable(progress) and not isinstance(progress, bool):
            def report(done, total, before=i * games):  # the games of all steps, in one count
                progress(before + done, steps * games)
        df = simulate(game, seats, [upper] + [lower] * (seats - 1), games=games, options=options, seed=seed,
                      progress=report, **simulate_kwargs)
        cancelled = cancelled or bool(df.attrs.get("cancelled"))
        n = len(df)
        if not n:
            break
        # the stronger bot sits at line-up position 0: seat ``game % seats`` (Plan.lineup)
        upper_won = [bool(row[f"seat{game % seats}_won"]) for game, (_, row) in zip(df["game"], df.iterrows())]
        wins = float(sum(1 / len(winners) for won, winners in zip(upper_won, df["winners"]) if won))
        no_winner = float((df["winners"].apply(len) == 0).mean())
        fair = (1 - no_winner) / seats
        low, high = wilson(min(n, round(wins)), n, confidence)
        rate = wins / n
        rows.append({"bot": upper, "below": lower, "games": n, "wins": wins, "rate": rate, "low": low, "high": high,
                     "fair": fair, "ratio": rate / fair if fair else math.nan, "points": 100 * (rate - fair)})
        if cancelled:
            break
    table = pd.DataFrame(rows, columns=COLUMNS, index=[f"{r['bot']} vs {r['below']}" for r in rows])
    plan = plans[0]
    table.attrs.update(game=plan.game.name, seats=seats, ladder=ladder, options=plan.options.model_dump(),
                       cancelled=cancelled, sentence=skill_sentence(table))
    return table


def skill_sentence(table) -> str:
    """One sentence on a :func:`skill_ladder` table: ``"skill matters: +x points per step"``
    (x: the mean of the steps' ``points``) when some step's interval lies wholly above its
    fair share, else ``"no measurable effect of skill"``."""
    if len(table) and ((table["low"] > table["fair"]) & (table["points"] > 0)).any():
        return f"skill matters: {table['points'].mean():+.0f} points per step"
    return "no measurable effect of skill"


def count_text(count: float) -> str:
    """A count of games or wins as printed: ``"20"``, ``"19.5"`` (a shared win counts as
    its share), ``"6.33"``; never ``"20.000"``."""
    return f"{count:,.2f}".rstrip("0").rstrip(".")


# --- playtest skill ---------------------------------------------------------------------------
def add_skill_command(commands) -> None:
    """Add the ``skill`` subcommand to the ``playtest`` argument parser's subparsers
    (``playtest skill GAME --seats N --games N [--ladder a,b,c] [--seed N] [--workers W]
    [--option KEY=VALUE] [--preset NAME]``)."""
    from playtest.arguments import one_or_more, worker_count, zero_or_more
    p = commands.add_parser("skill", help="the skill ladder: each bot against the one below it",
                            description="Each bot of the ladder (weakest first) against the one below it: win rates "
                                        "with 95% Wilson intervals beside the fair share, and whether skill matters.")
    p.add_argument("game", help="game name, e.g. lazy_sunday")
    p.add_argument("--seats", type=one_or_more, help="seat count (default: the game's smallest)")
    p.add_argument("-n", "--games", type=one_or_more, default=100, help="games per step (default 100)")
    p.add_argument("--ladder", default=",".join(LADDER),
                   help=f"bot names, weakest first, separated by commas (default {','.join(LADDER)})")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeatable)")
    p.add_argument("--preset", help="start from one of the game's named option sets (any case)")
    p.add_argument("--seed", type=zero_or_more, default=0, help="seed of the run (default 0)")
    p.add_argument("--workers", type=worker_count, help="local worker processes (default: one per CPU for many games)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run_skill)


def run_skill(args: argparse.Namespace) -> int:
    """Run ``playtest skill``; returns 0, or 2 for bad arguments."""
    from playtest.engine import OptionError, get_game

    from .presets import chosen_options
    try:
        game = get_game(args.game)
        options = chosen_options(game, args.preset, args.option)
        seats = args.seats or game.min_seats
        ladder = [b.strip() for b in args.ladder.split(",")]
        table = skill_ladder(game, seats, args.games, ladder, options, args.seed, workers=args.workers,
                             progress=not args.no_progress)
    except OptionError as exc:
        print(f"playtest skill: {exc}", file=sys.stderr)
        return 2
    print(f"{game.title}, {seats} seats, {args.games:,} games per step, seed {args.seed}: "
          f"each bot in one seat, the one below it in the others (rotating seats)")
    print(table[["games", "wins", "rate", "low", "high", "fair", "ratio", "points"]].to_string(
        float_format=lambda x: f"{x:.3f}", formatters={"games": count_text, "wins": count_text}))
    print(table.attrs["sentence"])
    return 0
