"""``playtest replay FILE``: print a scenario move by move, worded for one view.

Exit codes: 0 when every move is legal and every expectation (up to ``--at``) holds; 1
when a move is illegal or an expectation fails (the message names the move and the
ruling); 2 when the file cannot be read or is not a valid scenario, or for bad arguments.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from playtest.engine import Match

from .scenario import Scenario, ScenarioError, ScenarioMoveError


def summary(match: Match, view: dict) -> str:
    """One line about the position in ``view``: the game's own ``summary(view)`` if its
    Game class has one, else the view's short public facts (phase, whose decision,
    counts, scores), never anything the view itself does not hold."""
    own = getattr(match.game, "summary", None)
    if callable(own):
        return own(view)
    parts = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key not in ("game", "seats", "viewer", "keys", "text", "options", "kind"):
                    walk(f"{prefix}{key}.", item)
        elif isinstance(value, bool):
            if value:
                parts.append(prefix[:-1])
        elif isinstance(value, (int, float)) or (isinstance(value, str) and len(value) <= 40):
            parts.append(f"{prefix[:-1]} {value}")
        elif isinstance(value, list) and value and len(value) <= 10 and all(
                isinstance(v, (int, float, str)) and not isinstance(v, bool) for v in value):
            parts.append(f"{prefix[:-1]} {value}")

    outcome = view.get("outcome")
    walk("", {k: v for k, v in view.items() if k != "outcome"})
    if outcome:
        parts.append(f"over: {outcome['reason']}")
    return "; ".join(parts)


def _move_text(match: Match, number: int, seat: int | None) -> str:
    """The move as ``seat`` may read it: a move whose first log line its mover reads
    differently from everyone else is a secret choice (e.g. a Family Meeting pass,
    CR-8), so others see only its seat and kind."""
    move = match.moves[number - 1]
    first = next((event for n, event in match.log if n == number), None)
    if seat != move.seat and first is not None and move.seat in first.private and move.args:
        return f"{move.seat} {move.kind} (hidden)"
    return str(move)


def replay(args: argparse.Namespace) -> int:
    """Run ``playtest replay`` with parsed arguments; returns the exit code."""
    try:
        scenario = Scenario.load(args.file)
        error = None
    except ScenarioMoveError as exc:
        scenario, error = exc.scenario, exc
    except ScenarioError as exc:
        print(f"playtest replay: {exc}", file=sys.stderr)
        return 2
    last = len(scenario.moves) if error is None else error.number - 1
    if args.at is not None:
        if args.at > len(scenario.moves):
            print(f"playtest replay: --at {args.at}: {args.file} has moves 0..{len(scenario.moves)}", file=sys.stderr)
            return 2
        last = min(last, args.at)
    seats = scenario.seats
    seat = None if args.view == "spectator" else int(args.view)
    if seat is not None and not 0 <= seat < seats:
        print(f"playtest replay: --view {args.view}: use a seat 0..{seats - 1} or 'spectator'", file=sys.stderr)
        return 2

    match = scenario.to_match(upto=last)
    steps = []
    for number in range(last + 1):
        match.goto(number)
        view = match.view(seat)
        steps.append({"number": number, "move": _move_text(match, number, seat) if number else None,
                      "log": [text for n, text in match.log_for(seat) if n == number],
                      "to_act": list(match.to_act()), "summary": summary(match, view), "view": view})
    failures = [] if error else scenario.verify(upto=last)
    unreached = sum(1 for e in scenario.expect if e.after > last)

    if args.json:
        print(json.dumps({
            "file": str(args.file), "title": scenario.title, "game": scenario.game, "seats": seats,
            "seed": scenario.seed, "options": scenario.options, "setup": scenario.setup,
            "viewer": seat, "at": last, "steps": steps,
            "failures": [{"entry": f.entry, "after": f.after, "move": f.move, "expectation": f.expectation,
                          "expected": f.expected, "found": f.found, "message": str(f)} for f in failures],
            "unreached_expectations": unreached,
            "illegal_move": error and {"number": error.number, "move": error.move, "ruling": error.ruling,
                                       "message": str(error), "legal": [str(m) for m in error.legal]},
            "ok": not failures and error is None,
        }, indent=1, default=str))
    else:
        who = "spectator" if seat is None else f"seat {seat}"
        print(f"{scenario.title or args.file} ({scenario.game}, {seats} seats, seed {scenario.seed}); "
              f"view: {who}")
        for step in steps:
            print(f"[{step['number']}] {step['move'] or 'setup'}")
            for line in step["log"]:
                print(f"      {line}")
            print(f"      = {step['summary']}")
        for failure in failures:
            print(f"FAILED {failure}")
        if not failures and error is None:
            checked = len(scenario.expect) - unreached
            print(f"OK: {last} move{'s' * (last != 1)}, {checked} expectation{'s' * (checked != 1)} hold"
                  + (f" ({unreached} after move {last} not reached)" if unreached else ""))
    if error is not None:
        print(f"playtest replay: {error}", file=sys.stderr)
        return 1
    if failures:
        print(f"playtest replay: {len(failures)} expectation{'s' * (len(failures) != 1)} failed; first: "
              f"{failures[0]}", file=sys.stderr)
        return 1
    return 0


def add_parser(commands) -> None:
    """Add the ``replay`` subcommand to the ``playtest`` argument parser."""
    p = commands.add_parser("replay", help="print a scenario file move by move and check its expectations")
    p.add_argument("file", help="a scenario file (.toml)")
    p.add_argument("--at", type=_move_number, help="stop after move N (0: the setup only)")
    p.add_argument("--view", default="spectator", type=_viewer,
                   help="whose view to print: a seat number, or 'spectator' (default)")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    p.set_defaults(run=replay)


def _move_number(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a move number 0, 1, 2, ...")
    return int(text)


def _viewer(text: str) -> str:
    if text != "spectator" and not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is neither a seat number nor 'spectator'")
    return text
