"""``playtest simulate`` and ``playtest report``: the balance lab from a terminal.

``playtest simulate lazy_sunday -n 2000 --seats 4 --bots heuristic,random --option
rounds=2 --workers 2 --csv games.csv`` plays the games, prints the options, the metrics and
the win rates per seat (and per bot when several play), and writes one CSV row per game
(the lab's CSV: it reads back, see :mod:`playtest.lab.csvfile`). Ctrl-C stops early and
still reports (and writes) the games finished. With ``--sweep NAME=V1,V2,...`` (once, or
twice for a grid) it plays the same seeds under every value and prints every metric per
value; with ``--b-option``/``--b-preset`` it plays the same seeds under a variant B and
prints the paired comparison; with ``--until METRIC=WIDTH`` it stops as soon as the
metric's interval is that narrow (``-n`` is then the cap).

``playtest report GAME`` runs the design health report (:mod:`playtest.lab.report`).
"""
from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path

from playtest.arguments import one_or_more, parse_values, read_width, worker_count, zero_or_more
from playtest.engine import OptionError, PlaytestError, get_game


def games_text(count: int) -> str:
    """A count of games in words: "1 game", "2,000 games"."""
    return f"{count:,} game{'' if count == 1 else 's'}"


def add_simulate_command(commands) -> None:
    """Add the ``simulate`` subcommand to the ``playtest`` argument parser's subparsers."""
    p = commands.add_parser("simulate", help="play many bot games and print balance metrics",
                            description="Play many bot games and print balance metrics with 95% intervals.")
    p.add_argument("game", help="game name, e.g. lazy_sunday")
    p.add_argument("-n", "--games", type=one_or_more, default=1000, help="number of games (default 1000)")
    p.add_argument("--seats", type=one_or_more, help="seat count (default: the game's smallest)")
    p.add_argument("--bots", default="random",
                   help="one bot name for every seat, or one per seat separated by commas (default random)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable); VALUE is read as JSON where it parses, else as text")
    p.add_argument("--preset", help="start from one of the game's named option sets (any case), e.g. 'quick game'")
    p.add_argument("--seed", type=zero_or_more, default=0, help="seed of the whole run (default 0)")
    p.add_argument("--workers", type=worker_count,
                   help=f"local worker processes, 1 to {os.cpu_count() or 1} (default: one per CPU for many games)")
    p.add_argument("--csv", metavar="FILE", help="write one row per game to FILE ('-': to standard output, "
                                                 "and the report to standard error)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    runs = p.add_argument_group("other kinds of run (one at a time)")
    runs.add_argument("--sweep", action="append", default=[], metavar="NAME=V1,V2,...",
                      help="play the same seeds under every value of an option (twice: every pair of values of two "
                           "options); each value read as JSON where it parses")
    runs.add_argument("--b-option", action="append", default=[], metavar="KEY=VALUE",
                      help="an option of variant B (repeatable): play the same seeds under A (--option, --preset) "
                           "and B, and print B - A paired by seed")
    runs.add_argument("--b-preset", help="variant B starts from this preset (any case)")
    runs.add_argument("--until", metavar="METRIC=WIDTH",
                      help="stop once METRIC's 95%% interval is at most WIDTH wide (e.g. AdvantageP1=0.04); "
                           "-n is the cap")
    p.set_defaults(run=run_simulate)


def add_tables_report_command(commands) -> None:
    """Add the ``tables-report`` subcommand: simulate's report on the games of the live
    tables' export (:func:`~playtest.lab.read_tables`), people beside bots."""
    p = commands.add_parser("tables-report", help="balance metrics of people's games from the live tables' export",
                            description="Balance metrics (95% intervals) of the finished games in the live tables' "
                                        "export, people ('human') beside bots.")
    p.add_argument("export", help="the export file, JSON or CSV (the lobby's Export)")
    p.add_argument("--game", help="only this game's tables (needed when the export holds several games)")
    p.add_argument("--seats", type=one_or_more, help="only tables of this seat count (needed when it holds several)")
    p.set_defaults(run=run_tables_report)


def add_report_command(commands) -> None:
    """Add the ``report`` subcommand: the design health report (:mod:`playtest.lab.report`)."""
    p = commands.add_parser("report", help="a design health report: a battery of bot games and what it finds",
                            description="Play a standard battery of bot games and list what it finds, each with "
                                        "its evidence: draws or unfinished games, a first-seat edge, cards never "
                                        "played or bought, endings and resource bounds never reached, stalls, "
                                        "a flat skill gradient.")
    p.add_argument("game", help="game name, e.g. night_shift")
    p.add_argument("--seats", type=one_or_more, help="seat count (default: the game's smallest)")
    p.add_argument("--bots", default="heuristic", help="one bot name for every seat, or one per seat separated by "
                                                       "commas (default heuristic)")
    p.add_argument("-n", "--games", type=one_or_more, default=1000, help="games (default 1000)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option (repeatable)")
    p.add_argument("--preset", help="start from one of the game's named option sets (any case)")
    p.add_argument("--seed", type=zero_or_more, default=0, help="seed of the run (default 0)")
    p.add_argument("--workers", type=worker_count, help="local worker processes (default: one per CPU for many games)")
    p.add_argument("--explore-games", type=zero_or_more, default=200,
                   help="games of random bots for the card, ending and resource checks (default 200; 0: none)")
    p.add_argument("--skill-games", type=zero_or_more, default=200,
                   help="games per step of the skill check, random against heuristic (default 200; 0: no check)")
    p.add_argument("--html", metavar="FILE", help="also write the report with its plots as one HTML file")
    p.add_argument("--markdown", metavar="FILE", help="also write it as Markdown, the plots in FILE's folder")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> int:
    """Run ``playtest report``; returns 0, 2 for bad arguments or a file that cannot be
    written, 130 after Ctrl-C (nothing is reported)."""
    from .interrupt import interrupt_sets
    from .report import health_report
    from .simulation import WorkerError
    try:
        game = get_game(args.game)
        from .presets import chosen_options
        options = chosen_options(game, args.preset, args.option)
        bots = [b.strip() for b in args.bots.split(",")]
        for path in (args.html, args.markdown):
            if path and not Path(path).resolve().parent.is_dir():
                raise OptionError(f"{path}: the folder {Path(path).resolve().parent} does not exist")
        with interrupt_sets(threading.Event()) as interrupted:
            report = health_report(game, args.seats, bots[0] if len(bots) == 1 else bots, games=args.games,
                                   options=options, seed=args.seed, skill=args.skill_games > 0,
                                   skill_games=args.skill_games or 1, explore_games=args.explore_games,
                                   progress=not args.no_progress, cancel=interrupted, workers=args.workers)
            if interrupted.is_set():
                print("playtest report: interrupted (Ctrl-C): no report", file=sys.stderr)
                return 130
    except (OptionError, WorkerError) as exc:
        print(f"playtest report: {exc}", file=sys.stderr)
        return 2
    print(report.text())
    try:
        if args.html:
            print(f"\nWrote {report.save_html(args.html)}")
        if args.markdown:
            print(f"Wrote {report.save_markdown(args.markdown)} (plots in {Path(args.markdown).stem}_plots/)")
    except OSError as exc:
        print(f"playtest report: cannot write the report: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0


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

    found = metrics(df)
    table = found[["value", "low", "high", "interval"]]
    say("\nMetrics (95% intervals):")
    say(table.to_string(float_format=lambda x: f"{x:.4g}", na_rep=""))
    for line in metric_notes(found):
        say(line)
    say("\nWin rate per seat (95% Wilson intervals):")
    say(seat_win_rates(df).to_string(float_format=lambda x: f"{x:.3f}"))
    if per_bot:
        say("\nWin rate per bot:")
        say(seat_win_rates(df, by="bot").to_string(float_format=lambda x: f"{x:.3f}"))


def metric_notes(table) -> list[str]:
    """The notes of a :func:`~playtest.lab.metrics` table as lines to print under it, each
    note once: ``"Note: only 4 games: too few to say anything; play more."`` (the Python
    table's and the dashboard's ``note`` column); the metrics it is about are named
    when it is not about every metric with an interval."""
    lines = []
    with_interval = table.index[table["interval"] != ""]
    for note in dict.fromkeys(n for n in table["note"] if n):
        about = table.index[table["note"] == note]
        names = "" if set(with_interval) <= set(about) else f" ({', '.join(about)})"
        lines.append(f"Note{names}: {note}.")
    return lines


def run_simulate(args: argparse.Namespace) -> int:
    """Run ``playtest simulate``; returns the exit code: 0, 2 for bad arguments, 130
    after Ctrl-C (the first Ctrl-C stops the run; the games finished are still reported
    and written to the CSV; a second one stops at once)."""
    from .interrupt import interrupt_sets
    with interrupt_sets(threading.Event()) as interrupted:   # around the report too: see interrupt_sets
        return _simulate_and_report(args, interrupted)


def _simulate_and_report(args: argparse.Namespace, interrupted: threading.Event) -> int:
    from .presets import chosen_options, describe_options
    from .simulation import WorkerError, simulate

    try:
        game = get_game(args.game)
        options = chosen_options(game, args.preset, args.option)
        seats = args.seats or game.min_seats
        bots = [b.strip() for b in args.bots.split(",")]
        bots = bots[0] if len(bots) == 1 else bots
        if args.csv and args.csv != "-" and not Path(args.csv).resolve().parent.is_dir():
            raise OptionError(f"--csv {args.csv}: the folder {Path(args.csv).resolve().parent} does not exist")
        kinds = [name for name, given in (("--sweep", args.sweep), ("--b-option/--b-preset",
                                          args.b_option or args.b_preset), ("--until", args.until)) if given]
        if len(kinds) > 1:
            raise OptionError(f"{' and '.join(kinds)}: one kind of run at a time")
        if kinds:
            return _other_run(kinds[0], args, game, seats, bots, options, interrupted)
        df = simulate(game, seats, bots, games=args.games, options=options,
                      seed=args.seed, workers=args.workers, progress=not args.no_progress, cancel=interrupted)
    except (OptionError, WorkerError) as exc:
        print(f"playtest simulate: {exc}", file=sys.stderr)
        return 2
    if interrupted.is_set():
        print(f"playtest simulate: interrupted (Ctrl-C) after {len(df):,} of {args.games:,} games; "
              "reporting those", file=sys.stderr)
    if args.csv and not _write_csv(df, args.csv):
        return 2
    say = _sayer(args)

    line_up = ", ".join(df.attrs["bots"])
    say(f"{game.title}, {seats} seats, {games_text(len(df))}, bots {line_up} (rotating seats), seed {args.seed}")
    say(f"Options: {describe_options(game, df.attrs['options'])}")
    if not len(df):
        say("No game finished before the interrupt: nothing to measure.")
        return 130
    print_report(df, say, per_bot=len(set(df.attrs["bots"])) > 1)
    if args.csv and args.csv != "-":
        say(f"\nWrote {len(df):,} row{'' if len(df) == 1 else 's'} to {args.csv}")
    return 130 if interrupted.is_set() else 0  # 130: the shell's code for a stop by Ctrl-C


def _sayer(args: argparse.Namespace):
    """The report's ``say(text)``: on standard error when the CSV takes standard output."""
    def say(text: str) -> None:
        print(text, file=sys.stderr if args.csv == "-" else sys.stdout)
    return say


def _write_csv(df, target: str) -> bool:
    """Write the lab's CSV of ``df`` to ``target`` (``-``: standard output); False after
    saying why it could not."""
    from .csvfile import write_csv
    try:
        write_csv(df, sys.stdout if target == "-" else target)
    except BrokenPipeError:
        raise                       # the reader of --csv - left: the playtest command ends quietly
    except OSError as exc:
        print(f"playtest simulate: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def _other_run(kind: str, args: argparse.Namespace, game, seats: int, bots, options: dict,
               interrupted: threading.Event) -> int:
    """``--sweep``, an A/B test (``--b-option``/``--b-preset``) or ``--until``: play it,
    print what it found, write the CSV (every run's rows, with their options)."""
    import pandas as pd

    from .presets import chosen_options, describe_options
    say = _sayer(args)
    progress = not args.no_progress
    if kind == "--sweep":
        from .sweeps import sweep
        grid = {}
        for pair in args.sweep:
            name, sep, values = pair.partition("=")
            if not sep or not name.strip():
                raise OptionError(f"--sweep takes NAME=V1,V2,... (e.g. rounds=1,2,3), not {pair!r}")
            grid[name.strip()] = parse_values(values, name.strip())
        result = sweep(game, seats, bots, args.games, grid, options=options, seed=args.seed, progress=progress,
                       cancel=interrupted, workers=args.workers)
        frames = [df.assign(**dict(zip(result.options, combo))) for combo, df in result.runs.items()]
        say(f"{game.title}, {seats} seats, sweep of {' x '.join(result.options)}, {args.games:,} games per value on "
            f"the same seeds, seed {args.seed}; other options: {describe_options(game, options)}")
        say(sweep_text(result))
    elif kind == "--until":
        from .sequential import simulate_until
        metric, sep, width = args.until.partition("=")
        if not sep:
            raise OptionError(f"--until takes METRIC=WIDTH (e.g. AdvantageP1=0.04), not {args.until!r}")
        width = read_width(width, f"--until {metric.strip()}: the width")
        df = simulate_until(game, seats, bots, metric.strip(), width, max_games=args.games, options=options,
                            seed=args.seed, progress=progress, cancel=interrupted, workers=args.workers)
        until = df.attrs["until"]
        say(f"{game.title}, {seats} seats, until {metric.strip()}'s interval is {width:g} wide, at most "
            f"{games_text(args.games)}, seed {args.seed}; options: {describe_options(game, df.attrs['options'])}")
        say(until["reason"])
        if len(df):
            print_report(df, say, per_bot=len(set(df.attrs["bots"])) > 1)
        frames = [df]
    else:
        from .stats import ab_test
        options_b = chosen_options(game, args.b_preset, args.b_option, options)
        result = ab_test(game, seats, bots, args.games, options, options_b, seed=args.seed, progress=progress,
                         cancel=interrupted, workers=args.workers)
        table = result.comparison
        say(f"{game.title}, {seats} seats, {games_text(len(result.a))} per variant on the same seeds, seed {args.seed}")
        say(f"A: {table.attrs['A']}\nB: {table.attrs['B']}\n{table.attrs['pairing'].capitalize()}.")
        say("\nB - A (95% intervals):")
        say(table[["A", "B", "difference", "low", "high", "interval"]].to_string(
            float_format=lambda x: f"{x:.4g}", na_rep=""))
        frames = [result.a.assign(variant="A"), result.b.assign(variant="B")]
    if args.csv:
        from .csvfile import run_columns
        if not _write_csv(pd.concat([run_columns(f) for f in frames], ignore_index=True), args.csv):
            return 2
        if args.csv != "-":
            rows = sum(len(f) for f in frames)
            say(f"\nWrote {rows:,} row{'' if rows == 1 else 's'} to {args.csv}")
    return 130 if interrupted.is_set() else 0


def sweep_text(result) -> str:
    """A sweep's metrics as text: a row per metric with an interval, a column per value
    (``value [low, high]``)."""
    table = result.table[result.table["interval"] != ""]
    keys = list(result.options)
    table = table.assign(cell=[f"{v:.4g} [{lo:.4g}, {hi:.4g}]" if lo == lo else f"{v:.4g}"
                               for v, lo, hi in zip(table["value"], table["low"], table["high"])],
                         column=[", ".join(f"{k}={row[k]}" for k in keys) for _, row in table.iterrows()])
    wide = table.pivot(index="metric", columns="column", values="cell")
    wide = wide.reindex(index=list(dict.fromkeys(table["metric"])), columns=list(dict.fromkeys(table["column"])))
    wide.columns.name = None
    return wide.to_string()
