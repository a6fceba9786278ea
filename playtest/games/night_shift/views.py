"""What a seat, the spectator and a debugger see of a Night Shift game: :func:`view` and
:func:`all_cards_view` are :class:`~.rules.NightShift`'s methods of those names (the


class binds them; ``self`` is the game).

View (``NightShift.view(state, seat)``, plain JSON; ``seat=None`` is the spectator)::

    {
     "game": "night_shift", "seats": 2, "viewer": seat | None,
     "phase": "shift" | "over",
     "shift": n,                  # 1-based, Shifts of both seats counted together (NS-10)
     "turn_limit": 50, "turn_seat": seat | None, "to_act": [seat] or [],
     "options": {"play_cost": "printed"|"free", "reshuffle": bool, "turn_limit": int},
     "players": [                 # index = seat
       {"seat": s, "patience": int, "effort": int, "actions": int, "care": int,
        "hand": [card, ...] | None,   # None unless the viewer is s
        "hand_count": int, "deck_count": int,         # Personal Deck: count only
        "current_shift": [card + {"health": int|None}, ...],
        "laundry_basket": [card, ...],                # face up, bottom first
        "basket_count": int},
       ...],
     "supply_row": [card, ...],   # left to right, at most 5
     "household_supply": int,     # count only
     "nap_tokens": int, "nap_card": card | None,      # the stack's top card
     "outcome": None | {"finished": bool, "winners": [...], "scores": [care, care],
                        "reason": str},
    }
    card = {"name": str, "type": "unit"|"event"|"resource"|"structure",
            "cost": int | None, "health": int | None, "text": str,
            "play": {effect: amount}, "start_of_shift": {effect: amount}}

No card id and no order of a hidden pile ever appears in a view. ``bot_view`` is the view.
For speed, the card dicts of piles are shared between views (one per card kind): treat a
view as read-only data (copy it before changing it); ``current_shift`` dicts are fresh.
"""
from __future__ import annotations


def view(self, s, seat: int | None) -> dict:
    """What ``seat`` may know (``None``: spectator); format in the module docstring."""
    cards = self.cards

    def show(ids):
        return [cards[c].view for c in ids]

    players = []
    for p in (0, 1):
        current = []
        for c in s.shifts[p]:
            d = _copy(cards[c].view)
            d["health"] = s.health.get(c)
            current.append(d)
        players.append({
            "seat": p, "patience": s.patience[p], "effort": s.effort[p], "actions": s.actions[p],
            "care": s.care[p], "hand": show(s.hands[p]) if seat == p else None,
            "hand_count": len(s.hands[p]), "deck_count": len(s.decks[p]), "current_shift": current,
            "laundry_basket": show(s.baskets[p]), "basket_count": len(s.baskets[p])})
    r = s.result
    opts = self.options
    return {
        "game": self.name, "seats": 2, "viewer": seat, "phase": "over" if r else "shift",
        "shift": s.shift, "turn_limit": opts.turn_limit, "turn_seat": None if r else s.turn,
        "to_act": list(self.to_act(s)),
        "options": {"play_cost": opts.play_cost, "reshuffle": opts.reshuffle, "turn_limit": opts.turn_limit},
        "players": players, "supply_row": show(s.row), "household_supply": len(s.supply),
        "nap_tokens": len(s.naps), "nap_card": cards[s.naps[-1]].view if s.naps else None,
        "outcome": r and {"finished": r.finished, "winners": list(r.winners), "scores": list(r.scores),
                          "reason": r.reason},
    }


def all_cards_view(self, s) -> dict:
    """Every card face up, for debugging alone (see Game.all_cards_view; never a
    seat's view): the spectator's view with both hands named, and under
    ``"all_cards"`` each Personal Deck, the Household Supply and the Nap Token
    stack, top first (NS-1, NS-4, NS-5)."""
    view = self.view(s, None)
    names = [c.name for c in self.cards]
    for p, player in enumerate(view["players"]):
        player["hand"] = [self.cards[c].view for c in s.hands[p]]
    view["all_cards"] = {
        **{f"seat {p}'s Personal Deck (top first)": [names[c] for c in reversed(s.decks[p])] for p in (0, 1)},
        "Household Supply (top first)": [names[c] for c in reversed(s.supply)],
        "Nap Token stack (top first)": [names[c] for c in reversed(s.naps)]}
    return view


def _copy(view: dict) -> dict:
    """A card's view dict, copied (for cards that get a per-copy field such as health)."""
    return {**view, "play": dict(view["play"]), "start_of_shift": dict(view["start_of_shift"])}
