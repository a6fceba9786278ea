"""Lazy Sunday's match position (:class:`State`), its records (:class:`Spot`,
:class:`Give`, :class:`Shown`) and its phases."""
from __future__ import annotations

from typing import NamedTuple

from .cards import ACTIONS

CLAIM_PHASES = ("turn", "drawn")       # LS-5: never in setup, action resolution or a give
REVEAL_PHASES = ("round_over", "over")  # LS-7: lists are revealed once the round is scored
PHASE_KINDS = {  # the move kinds of each phase's decision (claims are open moves, LS-5)
    "peek": ("peek",), "look": ("done", "swap"), "turn": ("draw", "take", "notme", "pass"),
    "drawn": ("keep", "discard", *ACTIONS), "give": ("give",), "round_over": ("deal",),
}


class Spot(NamedTuple):
    """A list position: ``seat``'s list, position ``pos`` (0 first)."""

    seat: int
    pos: int


class Give(NamedTuple):
    """A give pending after a correct claim on another's card (LS-5): ``claimer`` gives
    one of its cards to seat ``to``, into the gap at position ``pos``."""

    claimer: int
    to: int
    pos: int


class Shown(NamedTuple):
    """Right after a give (LS-5): ``giver`` is shown the card it gave, at ``spots`` (one
    :class:`Spot`)."""

    giver: int
    spots: tuple[Spot, ...]


class State:
    """The whole position of a Lazy Sunday match (plain data; see the rules' module docstring).

    Attributes: ``rng`` (the G-3 stream), ``phase`` (peek | look | turn | drawn | give |
    round_over | over), ``round`` (1-based), ``start`` (this round's starting seat),
    ``turn`` (seat on turn, None in setup and between rounds), ``actor`` (the seat with
    the pending decision; in setup the first seat still peeking), ``deck`` / ``done`` /
    ``lists`` (card ids, top last), ``serial`` (cards put on DONE this round), ``drawn``
    (held card id or None), ``looking`` (the :class:`Spot` list the actor looks at; in
    setup, the spots every seat that has peeked looks at, each its own), ``known`` (per
    card: bitmask of seats knowing where it is), ``caller``, ``final_turns`` (seats still
    owed a final turn after the current one), ``skip_next`` (I'm Busy pending), ``give``
    (a :class:`Give` or None), ``resume`` (phase to return to after a give), ``shown`` (a
    :class:`Shown` right after a give, until the next move but a late claim: the card the
    giver is shown as it gives it, LS-5; else None), ``peekers`` (seats still peeking in
    setup, all deciding at once, LS-3), ``scores``, ``round_scores``, ``turns`` (G-4
    count), ``outcome``. ``looking``, ``give`` and ``shown`` are replaced, never changed
    in place (copies share them).
    """

    __slots__ = ("rng", "phase", "round", "start", "turn", "actor", "deck", "done", "serial", "lists",
                 "drawn", "looking", "known", "caller", "final_turns", "skip_next", "give", "resume",
                 "shown", "peekers", "scores", "round_scores", "turns", "outcome", "setup_events")
    _DUMPED = __slots__[1:-2]

    def dump(self) -> dict:
        """The complete state (without the rng, which the fingerprint adds) as JSON data."""
        data = {name: getattr(self, name) for name in self._DUMPED}
        data["looking"] = [list(spot) for spot in self.looking]  # the records as JSON lists
        if self.give is not None:
            data["give"] = list(self.give)
        if self.shown is not None:
            data["shown"] = [self.shown.giver, [list(spot) for spot in self.shown.spots]]
        o = self.outcome
        data["outcome"] = o and {"finished": o.finished, "winners": list(o.winners), "scores": list(o.scores),
                                 "reason": o.reason}
        return data

    @property
    def seen(self) -> list[set[int]]:
        """Per seat, the set of card ids whose current place that seat knows (LS-11)."""
        return [{c for c, mask in enumerate(self.known) if mask >> s & 1} for s in range(len(self.lists))]

