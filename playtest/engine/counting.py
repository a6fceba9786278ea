"""How people count seats and list positions: from 1 (issue 24).

Move texts (``"0 peek 2 3"``), scenario files, records, the API's fields and the
engine's own texts (a game's log lines, outcome reasons and refusals, which scenario
files quote in their ``log`` expectations) count seats and positions from 0. Every page
shows people numbers counted from 1: a page writes its own words with
:func:`seat_number`, and shows an engine text through :func:`for_people` when it shows
it, so that records, fingerprints and scenario files stay as they are.
"""
from __future__ import annotations

import re

_COUNTED = re.compile(r"\b((?:[Ss]eat|[Pp]osition|[Cc]hore)s? )(\d+(?:(?:, | and | or )\d+)*)\b(?!\.\.|-seat)")
"""A seat or position word and the numbers it counts: "seat 0", "Seats 0 and 2",
"positions 1 and 3", "seats 0, 1 or 2", "chore 2" (a Chore Race chore's place in its
tableau); not a range such as "seats 0..2"."""
_NUMBER = re.compile(r"\d+")


def seat_number(seat: int) -> int:
    """The number people read for ``seat`` (a 0-based seat index): ``seat + 1``."""
    return seat + 1


def for_people(text: str) -> str:
    """An engine text (a log line, an outcome reason, a refusal's reason; 0-based) as
    people read it: each number after the words seat(s), position(s) or chore(s)
    counted from 1.
    ``"Seat 1 peeks at positions 2 and 3."`` -> ``"Seat 2 peeks at positions 3 and 4."``.
    Other numbers (turns, rounds, scores, move texts such as ``'1 draw'``) are kept.

    Args:
        text: the engine's text (str).

    Returns:
        The text with those numbers one higher (str); a text without them unchanged.
    """
    return _COUNTED.sub(lambda m: m.group(1) + _NUMBER.sub(lambda n: str(int(n.group()) + 1), m.group(2)), text)


def api_seat(seat: int) -> str:
    """A seat named in a refusal of an API request that named it by its ``"seat"`` field,
    which counts seats from 0 (the host page's hand-overs come that way too): ``'seat 2
    ("seat": 1)'`` for seat index 1."""
    return f'seat {seat + 1} ("seat": {seat})'


def move_text_seat(seat: int) -> str:
    """A seat named beside move texts it makes, which count seats from 0: ``"seat 2
    (move text 1)"`` for seat index 1. Only where a message quotes move texts; elsewhere
    a seat is ``f"seat {seat_number(seat)}"``."""
    return f"seat {seat + 1} (move text {seat})"
