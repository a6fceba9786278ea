"""The Chore Race state: a position as plain data, and its records.

Action cards and chores are ids (indexes into the game's card tables, see
``cards.tables``). Only :class:`~playtest.games.chore_race.rules.ChoreRace` reads or
writes a state. The records are named tuples, so a state's :meth:`ChoreRaceState.dump`
(and with it every fingerprint) is the same JSON as when they were plain lists.

A tableau entry is the one record changed in place (progress, the cards under it, its
Wipe the Counters): a 4-item list read through the index names below (CR-6).
"""
from __future__ import annotations

from typing import NamedTuple

from playtest.engine import Event

CHORE, PROGRESS, UNDER, WIPED = range(4)
"""Tableau entry indexes: the chore id, its progress counter (CR-5, CR-6), the action
card ids under it (CR-6), whether its Wipe the Counters is used (CR-2, CR-7)."""


def new_entry(chore: int) -> list:
    """A new tableau entry for chore id ``chore``: no progress, no card under it (CR-6)."""
    return [chore, 0, [], False]


class Pending(NamedTuple):
    """A declared targeted action waiting for its target's answer (CR-7)."""

    key: str                    # action key: inspection, delegate, swap or teamwork
    card: int                   # the action card id played
    target: int                 # the seat it targets
    args: tuple[int, ...]       # the declaring move's arguments


class Placing(NamedTuple):
    """Dones still to place after a Delegate or Teamwork (CR-9, CR-10)."""

    owing: tuple[int, ...]      # seats that still owe a Done, in order
    optional: int               # Teamwork: own Dones the active seat may still place
    card: str                   # the action key that started it: delegate or teamwork


class Trigger(NamedTuple):
    """A completed chore's ability waiting for its target (CR-2, CR-14)."""

    ability: str                # steal or attic
    chore: int                  # the chore id just completed


class Reveal(NamedTuple):
    """A hand shown to everyone, until the next move (CR-9, CR-10, CR-21)."""

    seat: int
    cards: list[int]            # action card ids


class Result(NamedTuple):
    """How the game ended (CR-17, CR-18, G-4)."""

    finished: bool              # False: stopped by G-4's max_turns
    winners: list[int]
    reason: str                 # begins with the ruling id


class ChoreRaceState:
    """A Chore Race position. Only :class:`~playtest.games.chore_race.rules.ChoreRace`
    reads or writes it.

    Args:
        rng: the game's random stream (G-3). seats: 2..6.
    """

    def __init__(self, rng, seats: int):
        self.rng = rng
        self.deck: list[int] = []            # action deck, top = end
        self.discard: list[int] = []         # action discard, top = end
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.chore_deck: list[int] = []
        self.chore_discard: list[int] = []
        self.tableaus: list[list[list]] = [[] for _ in range(seats)]   # entries: see CHORE..WIPED
        self.scored: list[list[int]] = [[] for _ in range(seats)]
        self.vp = [0] * seats
        self.turn_seat = 0
        self.turns = 0
        self.phase = "play"
        self.slots = [False, False]          # progress used, action used (CR-4)
        self.pending: Pending | None = None
        self.placing: Placing | None = None
        self.meeting: list[list[int] | None] | None = None   # per seat: None or the committed card ids
        self.trigger: Trigger | None = None
        self.revealed: list[Reveal] | None = None
        self.protected = [False] * seats     # CR-16
        self.protection_used = [False] * seats
        self.quiet = 0                       # CR-18: turns in a row with no card played
        self.acted = False
        self.result: Result | None = None
        self.setup_events: list[Event] = []

    def dump(self) -> dict:
        """The whole state as plain JSON data (for fingerprints and debugging)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("rng", "setup_events")}
