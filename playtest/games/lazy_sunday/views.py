"""What a seat, the spectator, a bot and a debugger see of a Lazy Sunday match (LS-11:
a face-down card shows only to a seat looking at it now): :func:`view`,
:func:`all_cards_view`, :func:`bot_view` and :func:`bot_glance` are
:class:`~.rules.LazySunday`'s methods of those names (the class binds them; ``self`` is
the game)."""
from __future__ import annotations

from .state import CLAIM_PHASES, REVEAL_PHASES


def view(self, s, seat):
    """What ``seat`` may see (None: spectator), as the JSON dict of the agreed contract.

    Face-down cards show only to a seat looking at them now, or to all once the round
    is scored (LS-11): ``looking`` lists them ([[seat, pos], ...]); right after a give,
    the giver looks at the card it gave (LS-5). The drawn card shows only to the
    drawer; no card id ever appears. ``start`` is the round's starting seat (LS-3)
    and ``turns`` the turns played (G-4), both public.
    """
    reveal = s.phase in REVEAL_PHASES
    if s.phase == "peek":  # setup (LS-3): each seat sees the two cards it peeks at
        looking = [spot for spot in s.looking if spot.seat == seat]
    else:
        looking = s.looking if seat is not None and seat == s.actor else ()
    shown = s.shown
    if shown is not None and seat == shown.giver:
        looking = shown.spots  # a give returns to a turn, where nobody is looking at anything else
    if reveal:
        lists = [[_slot(self, c, False) for c in lst] for lst in s.lists]
    else:
        lists = [[{"face_up": False} for _ in lst] for lst in s.lists]
        for t, p in looking:
            lists[t][p] = _slot(self, s.lists[t][p], True)
    drawn = _drawn_view(self, s, seat)
    o = s.outcome
    return {
        "game": self.name, "seats": self.seats, "viewer": seat, "phase": s.phase, "round": s.round,
        "start": s.start, "turns": s.turns, "turn_seat": s.turn, "to_act": list(self.to_act(s)),
        "deck": len(s.deck), "done": _done_view(self, s),
        "lists": lists, "drawn": drawn, "looking": [list(spot) for spot in looking],
        "caller": s.caller, "final_turns": list(s.final_turns), "skip_next": s.skip_next,
        "claims_open": s.phase in CLAIM_PHASES and bool(s.done),
        "give": s.give and {"seat": s.give.claimer, "to": s.give.to, "pos": s.give.pos},
        "scores": list(s.scores), "round_scores": [list(r) for r in s.round_scores],
        "outcome": o and {"finished": o.finished, "winners": list(o.winners), "scores": list(o.scores),
                          "reason": o.reason},
    }


def all_cards_view(self, s):
    """Every card face up, for debugging alone (see Game.all_cards_view; never a
    seat's view): the spectator's view with every list position named (LS-3), the
    drawn card named (LS-4), and under ``"all_cards"`` the deck and the DONE pile,
    top first (LS-6)."""
    view = self.view(s, None)
    view["lists"] = [[_slot(self, c, False) for c in lst] for lst in s.lists]
    if s.drawn is not None:
        view["drawn"] = {"seat": s.turn, "card": dict(self.cards.views[s.drawn])}
    names = self.cards.names
    view["all_cards"] = {"deck (top first)": [names[c] for c in reversed(s.deck)],
                         "DONE pile (top first)": [names[c] for c in reversed(s.done)]}
    return view


def _slot(self, card, looking):
    return {"face_up": True, "name": self.cards.names[card], "effort": self.cards.efforts[card],
            "kind": self.cards.kinds[card], "looking": looking}


def _drawn_view(self, s, seat) -> dict | None:
    if s.drawn is None:
        return None
    return {"seat": s.turn, "card": dict(self.cards.views[s.drawn]) if seat == s.turn else None}


def _done_view(self, s) -> dict:
    return {"top": dict(self.cards.views[s.done[-1]]) if s.done else None, "size": len(s.done),
            "serial": s.serial}


def _memory(self, s, seat) -> list[list[str | None]]:
    names, known, bit = self.cards.names, s.known, 1 << seat
    memory = []
    for lst in s.lists:  # plain loops: built for every bot before every move, where nested
        row = []         # comprehensions (a function call per list) cost a third more
        for c in lst:
            row.append(names[c] if known[c] & bit else None)
        memory.append(row)
    return memory


def _seen_by(self, s) -> list[list[list[int]]]:
    known, seats = s.known, range(self.seats)
    return [[[t for t in seats if known[c] >> t & 1] for c in lst] for lst in s.lists]


def bot_view(self, s, seat):
    """:meth:`view` plus ``"memory"``: per seat, per position, the card name ``seat``
    remembers there or None (LS-11); and ``"seen_by"``: per seat, per position, the
    seats that remember the card there. ``seen_by`` is the same for every seat and
    public: the log names every spot a seat peeks or looks at (LS-3, LS-2), keeps or
    takes into (LS-4), gives into (LS-5) or swaps (LS-2), a person can keep that
    record, and a bot is shown it (LS-11). For bots only, never for a browser."""
    view = self.view(s, seat)
    view["memory"] = _memory(self, s, seat)
    view["seen_by"] = _seen_by(self, s)
    return view


def bot_glance(self, s, seat):
    """The keys of :meth:`bot_view` that the claim question (LS-5), asked of every
    bot before every move, reads: the scalars ``viewer``, ``phase``, ``seats`` and
    ``claims_open``, and while claims are open ``done`` and ``memory`` (closed, the
    question ends at ``claims_open``, so the memory is not built for it), plus, for
    the seat on turn, ``drawn``, all a turn's decision reads besides (so the whole
    view is rarely built), and the memory of the seat that must give a card (LS-5)."""
    if s.phase in CLAIM_PHASES and s.done:
        glance = {"viewer": seat, "phase": s.phase, "seats": self.seats, "claims_open": True,
                  "done": _done_view(self, s), "memory": _memory(self, s, seat)}
        if seat == s.turn:
            glance["drawn"] = _drawn_view(self, s, seat)
        return glance
    glance = {"viewer": seat, "phase": s.phase, "seats": self.seats, "claims_open": False}
    if s.phase == "give" and seat == s.actor:
        glance["memory"] = _memory(self, s, seat)
    return glance
