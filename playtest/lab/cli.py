"""``playtest simulate``: the balance lab from a terminal.

``playtest simulate lazy_sunday -n 2000 --seats 4 --bots heuristic,random --option
rounds=2 --workers 2 --csv games.csv`` plays the games, prints the options, the metrics and
the win rates per seat (and per bot when several play), and writes one CSV row per game.
Ctrl-C stops early and still reports (and writes) the games finished.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
from pathlib import Path

from playtest.engine import OptionError, PlaytestError, get_game


def add_simulate_command(commands) -> None:
    """Add the ``simulate`` subcommand to the ``playtest`` argument parser's subparsers."""
    p = commands.add_parser("simulate", help="play many bot games and print balance metrics",
                            description="Play many bot games and print balance metrics with 95% intervals.")
    p.add_argument("game", help="game name, e.g. lazy_sunday")
    p.add_argument("-n", "--games", type=_positive, default=1000, help="number of games (default 1000)")
    p.add_argument("--seats", type=_positive, help="seat count (default: the game's smallest)")
    p.add_argument("--bots", default="random",
                   help="one bot name for every seat, or one per seat separated by commas (default random)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable); VALUE is read as JSON where it parses, else as text")
    p.add_argument("--preset", help="start from one of the game's named option sets (any case), e.g. 'quick game'")
    p.add_argument("--seed", type=_whole, default=0, help="seed of the whole run (default 0)")
    p.add_argument("--workers", type=_workers,
                   help=f"local worker processes, 1 to {os.cpu_count() or 1} (default: one per CPU for many games)")
    p.add_argument("--csv", metavar="FILE", help="write one row per game to FILE ('-': to standard output, "
                                                 "and the report to standard error)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run_simulate)


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number 1 or more")
    return int(text)


def _workers(text: str) -> int:
    cores = os.cpu_count() or 1
    if not text.isdigit() or not 1 <= int(text) <= cores:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number 1 to {cores} (the CPUs of this machine; "
                                         "more processes than CPUs only wait for each other)")
    return int(text)


def _whole(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number 0 or more")
    return int(text)


def parse_options(pairs: list[str]) -> dict:
    """``["rounds=2", "great_escape=true", "first_player=random"]`` -> option dict; each
    value is read as JSON where it parses (2, true, null, {"Done": 20}), else kept as text.

    Raises:
        OptionError: a pair without ``=`` or with an empty key.
    """
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"--option takes KEY=VALUE (e.g. rounds=2), not {pair!r}")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value
    return options


def add_tables_report_command(commands) -> None:
    """Add the ``tables-report`` subcommand: simulate's report on the games of the live
    tables' export (:func:`~playtest.lab.read_tables`), people beside bots."""
    p = commands.add_parser("tables-report", help="balance metrics of people's games from the live tables' export",
                            description="Balance metrics (95% intervals) of the finished games in the live tables' "
                                        "export, people ('human') beside bots.")
    p.add_argument("export", help="the export file, JSON or CSV (the lobby's Export)")
    p.add_argument("--game", help="only this game's tables (needed when the export holds several games)")
    p.add_argument("--seats", type=_positive, help="only tables of this seat count (needed when it holds several)")
    p.set_defaults(run=run_tables_report)


def run_tables_report(args: argparse.Namespace) -> int:
    """Run ``playtest tables-report``; returns 0, or 2 for an export that cannot be read
    or that mixes games or seat counts without ``--game`` / ``--seats``."""
    import warnings

    from .tables import read_tables
    try:
        with warnings.catch_warnings(record=True) as notes:   # tables left out: said on standard error
            warnings.simplefilter("always")
            df = read_tables(args.export, game=args.game, seats=args.seats)
    except PlaytestError as exc:        # a RecordError for the file, an OptionError for --game
        print(f"playtest tables-report: {exc}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"playtest tables-report: {note.message}", file=sys.stderr)
    if len(df) and (df.attrs["game"] is None or df.attrs["seats"] is None):
        print("playtest tables-report: the export holds tables of several games or seat counts; choose one with "
              "--game and --seats", file=sys.stderr)
        return 2
    if not len(df):
        print("No finished table: nothing to measure.")
        return 0
    print(f"{get_game(df.attrs['game']).title}, {df.attrs['seats']} seats, {len(df):,} finished tables, "
          f"{int(df['humans'].sum()):,} seats played by people")
    print_report(df, print, per_bot=True)
    return 0


def print_report(df, say, per_bot: bool) -> None:
    """Print the metrics and the win rates per seat (and per bot) of lab rows ``df``
    with ``say(text)``."""
    from .stats import metrics, seat_win_rates

    table = metrics(df)[["value", "low", "high", "interval"]]
    say("\nMetrics (95% intervals):")
    say(table.to_string(float_format=lambda x: f"{x:.4g}", na_rep=""))
    say("\nWin rate per seat (95% Wilson intervals):")
    say(seat_win_rates(df).to_string(float_format=lambda x: f"{x:.3f}"))
    if per_bot:
        say("\nWin rate per bot:")
        say(seat_win_rates(df, by="bot").to_string(float_format=lambda x: f"{x:.3f}"))


def run_simulate(args: argparse.Namespace) -> int:
    """Run ``playtest simulate``; returns the exit code: 0, 2 for bad arguments, 130
    after Ctrl-C (the first Ctrl-C stops the run; the games finished are still reported
    and written to the CSV; a second one stops at once)."""
    from .interrupt import interrupt_sets
    with interrupt_sets(threading.Event()) as interrupted:   # around the report too: see interrupt_sets
        return _simulate_and_report(args, interrupted)


def _simulate_and_report(args: argparse.Namespace, interrupted: threading.Event) -> int:
    from .presets import describe_options, find_preset
    from .simulation import simulate

    try:
        game = get_game(args.game)
        preset = find_preset(game, args.preset) if args.preset is not None else None
        options = {**(game.PRESETS[preset] if preset else {}), **parse_options(args.option)}
        seats = args.seats or game.min_seats
        bots = [b.strip() for b in args.bots.split(",")]
        if args.csv and args.csv != "-" and not Path(args.csv).resolve().parent.is_dir():
            raise OptionError(f"--csv {args.csv}: the folder {Path(args.csv).resolve().parent} does not exist")
        df = simulate(game, seats, bots[0] if len(bots) == 1 else bots, games=args.games, options=options,
                      seed=args.seed, workers=args.workers, progress=not args.no_progress, cancel=interrupted)
    except OptionError as exc:
        print(f"playtest simulate: {exc}", file=sys.stderr)
        return 2
    if interrupted.is_set():
        print(f"playtest simulate: interrupted (Ctrl-C) after {len(df):,} of {args.games:,} games; "
              "reporting those", file=sys.stderr)
    if args.csv:
        try:
            df.to_csv(sys.stdout if args.csv == "-" else args.csv, index=False)
        except BrokenPipeError:
            raise                       # the reader of --csv - left: the playtest command ends quietly
        except OSError as exc:
            print(f"playtest simulate: cannot write {args.csv}: {exc.strerror or exc}", file=sys.stderr)
            return 2

    def say(text: str) -> None:   # the report; on standard error when the CSV takes standard output
        print(text, file=sys.stderr if args.csv == "-" else sys.stdout)

    line_up = ", ".join(df.attrs["bots"])
    say(f"{game.title}, {seats} seats, {len(df):,} games, bots {line_up} (rotating seats), seed {args.seed}")
    say(f"Options: {describe_options(game, df.attrs['options'])}")
    if not len(df):
        say("No game finished before the interrupt: nothing to measure.")
        return 130
    print_report(df, say, per_bot=len(set(bots)) > 1)
    if args.csv and args.csv != "-":
        say(f"\nWrote {len(df):,} rows to {args.csv}")
    return 130 if interrupted.is_set() else 0  # 130: the shell's code for a stop by Ctrl-C
