"""``playtest replay FILE``: print a scenario move by move, worded for one view.

``--at N`` replays and checks moves 1..N only: a move after N is not played (so an
illegal move after N is not reached) and expectations after move N are reported as not
reached. ``--view SEAT`` words the log and the per-move summary for that seat: the
summary is built from that seat's view alone, so it shows the cards the seat holds or
is looking at, and never a card the view hides. ``--all`` prints the all-cards view
instead, for debugging alone (:meth:`playtest.engine.Game.all_cards_view`: every card
face up, deck order included; the log as everyone reads it plus what each seat read
instead, every move in full); it never changes what the expectations check, which read
the seats' own views. ``--json`` prints one JSON document on
stdout, also when the run fails (then with an ``"error"`` field); its ``"expectations"``
says how many ``[[expect]]`` entries the file has, how many were checked and how many
single checks they made, and ``"warnings"`` flags a file that states no expectation
(it still exits 0: its moves replayed; the text output says so, and stderr warns).

Exit codes: 0 when every move up to ``--at`` is legal and every expectation reached
holds; 1 when a move is illegal or an expectation fails (the message names the move and
the ruling); 2 when the file cannot be read or is not a valid scenario (a move that no
position could offer, such as an unknown kind of move or seat, is a mistake in the
file), or for bad arguments. Argument *syntax* errors (an unknown flag, no FILE) are argparse's usage
message on stderr, with exit 2, before ``--json`` is known.
"""
from __future__ import annotations

import argparse
import json
import reprlib
import sys
from pathlib import Path
from typing import Any

from playtest.engine import ALL_CARDS, Match, Move, limits
from playtest.engine.errors import nearest_first, suggest

from . import examples
from .scenario import Scenario, ScenarioError, ScenarioMoveError


def summary(view: dict) -> str:
    """One line about the position in ``view``: the view's short facts (phase, whose
    decision, counts, scores, and the cards the view shows, by name, ``?`` for a card it
    hides), never anything the view itself does not hold. The zones of an all-cards
    view's ``"all_cards"`` are left to :func:`zone_lines`."""
    parts = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key not in ("game", "seats", "viewer", "keys", "text", "options", "kind", "all_cards"):
                    walk(f"{prefix}{key}.", item)
        elif isinstance(value, bool):
            if value:
                parts.append(prefix[:-1])
        elif isinstance(value, (int, float)) or (isinstance(value, str) and len(value) <= 40):
            parts.append(f"{prefix[:-1]} {value}")
        elif isinstance(value, list) and value:
            if len(value) <= 10 and all(isinstance(v, (int, float, str)) and not isinstance(v, bool)
                                        for v in value):
                parts.append(f"{prefix[:-1]} {value}")
            elif all(_card_name(v) is not None for v in value):
                parts.append(f"{prefix[:-1]} [{', '.join(map(_card_name, value))}]")
            else:
                for index, item in enumerate(value):
                    walk(f"{prefix}{index}.", item)

    outcome = view.get("outcome")
    walk("", {k: v for k, v in view.items() if k != "outcome"})
    if outcome:
        parts.append(f"over: {outcome['reason']}")
    return "; ".join(parts)


def zone_lines(view: dict) -> list[str]:
    """The zones of an all-cards view (its ``"all_cards"``, see
    :meth:`playtest.engine.Game.all_cards_view`), one line each: ``"deck (top first):
    Nap, Dishes"``; ``"empty"`` for an empty zone; a game's stored state (the default)
    as compact JSON. No lines for a seat's or the spectator's view."""
    lines = []
    for zone, cards in (view.get("all_cards") or {}).items():
        if isinstance(cards, list) and all(isinstance(c, str) for c in cards):
            lines.append(f"{zone}: {', '.join(cards) or 'empty'}")
        else:
            lines.append(f"{zone}: {json.dumps(cards, sort_keys=True, default=str)}")
    return lines


def _card_name(item: Any) -> str | None:
    """A card as a view shows it: its name (with a Chore Race chore's progress or a
    Night Shift structure's health), ``?`` for a card face down to the viewer
    (``{"face_up": false}`` and no name), None for anything that is not a card."""
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("name"), str):
        number = lambda key: isinstance(item.get(key), int) and not isinstance(item.get(key), bool)
        if number("progress"):          # a chore: its progress toward its level (CR-5)
            return f"{item['name']} {item['progress']}/{item['level']}" if number("level") else \
                f"{item['name']} progress {item['progress']}"
        if number("health"):            # a structure in play (NS-3)
            return f"{item['name']} health {item['health']}"
        return item["name"]
    return "?" if item.get("face_up") is False else None


def _move_text(match: Match, number: int, seat: int | None) -> str:
    """The move as ``seat`` may read it: a move whose first log line its mover reads
    differently from everyone else is a secret choice (e.g. a Family Meeting pass,
    CR-8), so others see only its seat and kind."""
    move = match.moves[number - 1]
    if seat == ALL_CARDS:
        return str(move)
    first = next((event for n, event in match.log if n == number), None)
    if seat != move.seat and first is not None and move.seat in first.private and move.args:
        return f"{move.seat} {move.kind} (hidden)"
    return str(move)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


def replay(args: argparse.Namespace) -> int:
    """Run ``playtest replay`` with parsed arguments; returns the exit code.

    Never a traceback: a file over an input limit (:mod:`playtest.engine.limits`) or
    not a valid scenario is exit 2 with one line on stderr, and so is anything the kit
    did not foresee (named as such, without Python's own text)."""

    def stop(message: str, code: int, **fields) -> int:
        if args.json:
            print(json.dumps({"file": str(args.file), "ok": False, "error": message, **fields},
                             indent=1, default=str))
        print(f"playtest replay: {message}", file=sys.stderr)
        return code

    name = args.file if len(args.file) <= 200 else reprlib.repr(args.file)
    try:
        return _replay(args, stop)
    except (BrokenPipeError, KeyboardInterrupt):
        raise                             # the command line's own handling
    except OSError as exc:
        return stop(f"{name}: cannot be read or written: {exc.strerror or 'an input/output error'}", 2)
    except (RecursionError, MemoryError):
        return stop(f"{name}: too large or too deeply nested to replay; a scenario may be at most "
                    f"{limits.SIZE_TEXT}, nested at most {limits.MAX_DEPTH} deep", 2)
    except Exception:  # noqa: BLE001 - one line, never a traceback, for what no check foresaw
        return stop(f"{name}: cannot be replayed (an unexpected error in playtest; please report it "
                    "with the file)", 2)


def _replay(args: argparse.Namespace, stop) -> int:
    """The body of :func:`replay`; ``stop(message, code)`` reports and returns ``code``."""
    path = Path(args.file)
    shipped = examples()
    if not path.exists() and args.file in shipped:   # a shipped example, by name
        path = shipped[args.file]
    try:
        scenario = Scenario.load(path)
        error = None
    except ScenarioMoveError as exc:
        if exc.mistake:                               # a typo in the file, not a rules result
            return stop(str(exc), 2)
        scenario, error = exc.scenario, exc
    except ScenarioError as exc:
        hint = "" if path.exists() else (f"{suggest(args.file, list(shipped)) or ';'} shipped examples replay by "
                                         f"name: {', '.join(shipped)}")
        return stop(f"{exc}{hint}", 2)
    if args.at is not None and not limits.is_number(args.at):
        return stop(f"--at {reprlib.repr(args.at)}: not a move number 0, 1, 2, ... (digits 0-9)", 2)
    at = len(scenario.moves) if args.at is None else int(args.at)
    if at > len(scenario.moves):
        return stop(f"--at {at}: {args.file} has moves 0..{len(scenario.moves)}", 2)
    seats = scenario.seats
    if args.view != "spectator" and not (limits.is_number(args.view) and int(args.view) < seats):
        return stop(f"--view {reprlib.repr(args.view)}: use a seat 0..{seats - 1} or 'spectator'", 2)
    seat = ALL_CARDS if args.all else None if args.view == "spectator" else int(args.view)
    if error is not None and error.number > at:
        error = None                                  # after --at: not reached
    last = at if error is None else error.number - 1

    match = scenario.to_match(upto=0)
    steps = []
    for number in range(last + 1):
        if number:                                    # legal: loading replayed them
            match.play(scenario.moves[number - 1])
        view = match.all_cards_view() if seat == ALL_CARDS else match.view(seat)
        # what the seat remembers (LS-11): its bot view's memory, where the game keeps one
        memory = match.bot_view(seat).get("memory") if isinstance(seat, int) and seat >= 0 else None
        steps.append({"number": number, "move": _move_text(match, number, seat) if number else None,
                      "log": [text for n, text in match.log_for(seat) if n == number],
                      "to_act": list(match.to_act()), "summary": summary(view), "view": view,
                      **({"memory": memory} if memory is not None else {})})
    report = scenario.report(upto=last)     # before an illegal move too: its earlier entries count
    failures = report.failures
    unreached = sum(1 for e in scenario.expect if e.after > last)
    unreached_moves = len(scenario.moves) - last
    warnings = [] if scenario.expect else [f"{args.file} states no expectation: it checks only that its moves "
                                           f"are legal; add [[expect]] entries saying what must hold"]
    if error is not None:
        verdict = f"{error}"
        if failures:
            verdict += (f"; before it, {_plural(len(failures), 'expectation')} failed; first: {failures[0]}")
    elif failures:
        verdict = f"{_plural(len(failures), 'expectation')} failed; first: {failures[0]}"
    else:
        checked = len(scenario.expect) - unreached
        verdict = (f"OK: {_plural(last, 'move')}, {_plural(checked, 'expectation')} "
                   f"hold{'s' * (checked == 1)} ({_plural(report.checks, 'check')})")
        if unreached or unreached_moves:
            verdict += (f"; stopped at --at {at}: {_plural(unreached_moves, 'move')} and "
                        f"{_plural(unreached, 'expectation')} not reached")
        if warnings:
            verdict += "; nothing else was checked: the file states no expectation"

    if args.json:
        document = {
            "file": str(args.file), "title": scenario.title, "game": scenario.game, "seats": seats,
            "seed": scenario.seed, "stream": scenario.stream, "options": scenario.options, "setup": scenario.setup,
            "viewer": seat, "at": last, "steps": steps,
            "failures": [{"entry": f.entry, "after": f.after, "move": f.move, "expectation": f.expectation,
                          "expected": f.expected, "found": f.found, "message": str(f)} for f in failures],
            "unreached_moves": unreached_moves, "unreached_expectations": unreached,
            "expectations": {"entries": len(scenario.expect), "checked": report.entries, "checks": report.checks},
            "warnings": warnings,
            "illegal_move": error and {"number": error.number, "move": error.move, "ruling": error.ruling,
                                       "message": str(error), "legal": [str(m) for m in error.legal],
                                       "nearest": [str(m) for m in nearest_first(
                                           [m for s in range(seats) for m in match.legal_moves(s)],
                                           Move.parse(error.move))]},
            "ok": not failures and error is None,
        }
        if not document["ok"]:
            document["error"] = verdict
        print(json.dumps(document, indent=1, default=str))
    else:
        who = ("spectator" if seat is None else "all cards (debugging: no player sees this)" if seat == ALL_CARDS
               else f"seat {seat}")
        print(f"{scenario.title or args.file} ({scenario.game}, {seats} seats, seed {scenario.seed}); "
              f"view: {who}")
        for step in steps:
            print(f"[{step['number']}] {step['move'] or 'setup'}")
            for line in step["log"]:
                print(f"      {line}")
            print(f"      = {step['summary']}")
            for line in zone_lines(step["view"]):
                print(f"      + {line}")
            if "memory" in step:
                remembered = "; ".join(f"seat {t}'s list [{', '.join(c or '-' for c in row)}]"
                                       for t, row in enumerate(step["memory"]))
                print(f"      remembers: {remembered}")
        for failure in failures:
            print(f"FAILED {failure}")
        if not failures and error is None:
            print(verdict)
    if error is not None or failures:
        print(f"playtest replay: {verdict}", file=sys.stderr)
        return 1
    for warning in warnings:
        print(f"playtest replay: warning: {warning}", file=sys.stderr)
    return 0


def add_parser(commands) -> None:
    """Add the ``replay`` subcommand to the ``playtest`` argument parser."""
    p = commands.add_parser("replay", help="print a scenario file move by move and check its expectations")
    p.add_argument("file", help="a scenario file (.toml), or the name of a shipped example "
                   "(e.g. lazy_sunday_stale_claim)")
    p.add_argument("--at", metavar="N", help="replay and check moves 1..N only (0: the setup only); "
                                             "later moves and expectations are reported as not reached")
    views = p.add_mutually_exclusive_group()
    views.add_argument("--view", default="spectator", metavar="SEAT",
                       help="whose view to print: a seat number, or 'spectator' (default)")
    views.add_argument("--all", action="store_true",
                       help="print every card face up, deck order included (debugging alone: no player "
                            "sees this); expectations still read the seats' own views")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    p.set_defaults(run=replay)

