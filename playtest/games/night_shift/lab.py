"""Night Shift's balance-lab hooks (see ``CountsTurns.turns_played``, ``leaders``,
``card_counts`` and the rest, :mod:`playtest.lab`): what the lab counts and ranks in a
game. Each function is :class:`~.rules.NightShift`'s method of that name (the class binds
them; ``self`` is the game)."""
from __future__ import annotations

from .state import MAX_PATIENCE


def turns_played(self, s):
    """Shifts begun so far (G-4 counts Shifts)."""
    return s.shift


def leaders(self, s):
    """The seats ahead on Care Points, then Patience (NS-10's ranking)."""
    key = [(s.care[p], s.patience[p]) for p in (0, 1)]
    best = max(key)
    return tuple(p for p in (0, 1) if key[p] == best)


def card_counters(self):
    """``played`` for every card (any card can reach a hand), ``bought`` for every card
    of the Household Supply and the Nap Tokens (NS-4)."""
    names = dict.fromkeys(c.name for c in self.cards)
    buyable = dict.fromkeys(c.name for c in self.cards if c.where != "starter")
    return [("played", name) for name in names] + [("bought", name) for name in buyable]


def card_counts(self, s, move):
    """``played``: a card played from the hand; ``bought``: a card bought (NS-4)."""
    if move is not None and move.kind in ("play", "buy"):
        return (("played" if move.kind == "play" else "bought", move.seat, move.args[0]),)
    return ()


def scores(self, s):
    """Each seat's Care Points (NS-10)."""
    return tuple(s.care)


def resources(self, s):
    """Each seat's Patience (NS-6, NS-10: a seat at 0 loses)."""
    return {"patience": tuple(s.patience)}


def resource_bounds(self):
    """Patience stays within 0..25 (NS-6)."""
    return {"patience": (0, MAX_PATIENCE)}


def end_conditions(self):
    """NS-10's three endings."""
    return {"patience": "a seat at 0 Patience loses at once (NS-10)",
            "supply": "the Household Supply deck ran out (NS-10)",
            "turn_limit": f"Shift {self.options.turn_limit} ended (NS-10, turn_limit)"}


def end_condition(self, s):
    """Which ending the game's result states (its reason names it)."""
    if s.result is None or not s.result.finished:
        return None
    reason = s.result.reason
    return ("patience" if "0 Patience" in reason else "supply" if "Supply is empty" in reason
            else "turn_limit" if reason.startswith("NS-10: Shift") else None)
