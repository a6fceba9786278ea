"""Night Shift's game position (:class:`NightShiftState`) and its sizes: the hand drawn
(NS-5), the Supply Row (NS-4) and the most Patience a seat may have (NS-6)."""
from __future__ import annotations

from playtest.engine import Event, Outcome

MAX_PATIENCE = 25
HAND_SIZE = 5
ROW_SIZE = 5


class NightShiftState:
    """The whole game position. Piles are lists of card ids; the top of a deck or of
    the Laundry Basket is its last element. Only :class:`NightShift` changes it."""

    def __init__(self, rng):
        self.rng = rng
        self.decks: list[list[int]] = [[], []]      # Personal Decks (hidden order)
        self.hands: list[list[int]] = [[], []]
        self.shifts: list[list[int]] = [[], []]     # Current Shifts
        self.baskets: list[list[int]] = [[], []]    # Laundry Baskets (face up)
        self.supply: list[int] = []                  # Household Supply (hidden order)
        self.row: list[int] = []                     # Supply Row
        self.naps: list[int] = []                    # Nap Token stack
        self.health: dict[int, int] = {}             # structure id in a Current Shift -> health
        self.patience = [MAX_PATIENCE, MAX_PATIENCE]
        self.effort = [0, 0]
        self.actions = [3, 3]
        self.care = [0, 0]
        self.turn = 0
        self.shift = 1
        self.result: Outcome | None = None
        self.setup_events: list[Event] = []

    def dump(self) -> dict:
        """Everything, as plain data (for fingerprints)."""
        return {"decks": self.decks, "hands": self.hands, "shifts": self.shifts, "baskets": self.baskets,
                "supply": self.supply, "row": self.row, "naps": self.naps,
                "health": sorted(self.health.items()), "patience": self.patience, "effort": self.effort,
                "actions": self.actions, "care": self.care, "turn": self.turn, "shift": self.shift,
                "result": self.result and [self.result.finished, self.result.winners,
                                           self.result.scores, self.result.reason]}
