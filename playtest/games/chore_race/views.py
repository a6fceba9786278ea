"""Chore Race views: what a seat, the spectator or a debugger may see (RULINGS CR-21),
and the card names the log prints.

Methods of :class:`~playtest.games.chore_race.rules.ChoreRace`, bound there: ``view``,
``all_cards_view``, and the naming helpers ``_names``, ``_hand``, ``_chore`` and
``_revealed_text``.

The view (``ChoreRace.view(state, seat)``: plain JSON; ``seat`` None is the spectator)
::

    {"game": "chore_race", "seats": n, "viewer": seat | None,
     "phase": "play" | "react" | "place" | "meeting" | "score" | "trigger" | "over",
     "turn": int (1-based, counts every seat's turns), "turn_seat": seat,
     "to_act": [seats], "target_vp": int, "tableau_size": int,
     "slots": {"progress": used?, "action": used?},          # the turn seat's slots
     "hand": [card names] | None,     # the viewer's own hand, canonical order (CR-21)
     "hand_sizes": [int per seat],
     "keys": {card name: move key},   # e.g. "Chore Swap" -> "swap"
     "tableaus": [[chore, ...] per seat],
     "scored": [[chore names] per seat], "vp": [int per seat],
     "action_deck": int, "action_discard": [names, oldest first],
     "chore_deck": int, "chore_discard": [names, oldest first],
     "pending": None | {"card": name, "key": key, "by": seat, "target": seat,
                        "chore": Q | None, "own_chore": P | None},       # phase react
     "placing": None | {"from": [seats still owing a Done], "optional": int},
     "meeting": None | {"committed": [seats], "mine": [names] | None},    # CR-8
     "complete": [P, ...],            # the turn seat's complete chores (phase score)
     "trigger": None | {"chore": name, "ability": "steal" | "attic"},
     "revealed": [{"seat": s, "hand": [names]}, ...],  # only right after a reveal, until
                                                       # the next move (CR-9/10/21)
     "protected": [bool], "protection_used": [bool],   # CR-16
     "catch_up": [bool],                               # CR-15, would draw 2 now
     "quiet_turns": int,                               # CR-18 idle turns with empty decks
     "outcome": None | {"finished", "winners", "scores", "reason"}}

    chore = {"name", "level", "ability" ("" or steal/attic/no_delegate/wipe/garage),
             "progress", "cards": [names under it], "wipe_used": bool}

No view holds another seat's hand card names, except ``revealed`` right after a reveal,
nor any card id. Log events name a drawn, given or stolen card only in the private text
of the seats that saw it; a reveal (Delegate, Teamwork) names the revealed cards in the
public text, as they are shown to everyone at that moment (CR-21).
"""
from __future__ import annotations

from .cards import CATCH_UP_VP
from .state import CHORE, PROGRESS, UNDER, WIPED


def _names(self, cards) -> str:
    """``cards`` (action card ids) named, comma-separated, in canonical order (CR-21)."""
    return ", ".join(self.aname[c] for c in sorted(cards, key=lambda c: (self.order[self.akey[c]], c)))



def _chore(self, s, seat, p) -> str:
    """The name of the chore at position ``p`` of ``seat``'s tableau."""
    return self.chores[s.tableaus[seat][p][CHORE]].name


def _hand(self, cards) -> list[str]:
    """``cards`` (action card ids) as names, in canonical order (CR-21)."""
    order, akey, aname = self.order, self.akey, self.aname
    return [aname[c] for c in sorted(cards, key=lambda c: order[akey[c]])]


def _revealed_text(self, s) -> str:
    """The revealed hands, named: they are public at that moment (CR-21)."""
    return " ".join(f"Seat {who}'s hand revealed: {', '.join(self._hand(cards)) or 'no cards'}."
                    for who, cards in s.revealed)


def view(self, s, seat) -> dict:
    """What ``seat`` (a seat number, or None for the spectator) may know (CR-21); shape
    in the module docstring. Never raises."""
    chores, aname, static = self.chores, self.aname, self._static
    n = self.seats
    vp = s.vp
    best = max(vp)      # CR-15: a seat at 0 VP is behind whoever holds the max, if 5+
    # CR-15 changes nothing under draw_rule "fill_to_7" (the hand is filled anyway)
    catch_up = [v == 0 and best >= CATCH_UP_VP and self.options.draw_rule == "one" for v in vp]
    pending = s.pending
    complete = self._complete(s, s.turn_seat) if s.phase == "score" else []
    return {
        "game": self.name, "seats": n, "viewer": seat, "phase": s.phase,
        "turn": s.turns, "turn_seat": s.turn_seat, "to_act": list(self.to_act(s)),
        "target_vp": self.options.target_vp, "tableau_size": self.options.tableau_size,
        "slots": {"progress": s.slots[0], "action": s.slots[1]},
        "hand": None if seat is None else self._hand(s.hands[seat]),
        "hand_sizes": [len(h) for h in s.hands],
        "keys": dict(self.keys),
        "tableaus": [[{**static[e[CHORE]], "progress": e[PROGRESS], "cards": [aname[c] for c in e[UNDER]],
                       "wipe_used": e[WIPED]} for e in t] for t in s.tableaus],
        "scored": [[chores[c].name for c in pile] for pile in s.scored],
        "vp": list(s.vp),
        "action_deck": len(s.deck), "action_discard": [aname[c] for c in s.discard],
        "chore_deck": len(s.chore_deck), "chore_discard": [chores[c].name for c in s.chore_discard],
        "pending": None if pending is None else {
            "card": self.key_name[pending.key], "key": pending.key, "by": s.turn_seat, "target": pending.target,
            "chore": pending.args[-1] if pending.key in ("inspection", "swap") else None,
            "own_chore": pending.args[0] if pending.key == "swap" else None},
        "placing": None if s.placing is None or s.phase != "place" else {
            "from": list(s.placing.owing), "optional": s.placing.optional},
        "meeting": None if s.meeting is None else {
            "committed": [i for i, c in enumerate(s.meeting) if c is not None],
            "mine": None if seat is None or s.meeting[seat] is None else self._hand(s.meeting[seat])},
        "complete": complete,
        "trigger": None if s.trigger is None else {"chore": chores[s.trigger.chore].name, "ability": s.trigger.ability},
        "revealed": [{"seat": who, "hand": self._hand(cards)} for who, cards in s.revealed or ()],
        "protected": list(s.protected), "protection_used": list(s.protection_used),
        "catch_up": catch_up,
        "quiet_turns": s.quiet,
        "outcome": None if s.result is None else {
            "finished": s.result.finished, "winners": list(s.result.winners), "scores": list(s.vp),
            "reason": s.result.reason},
    }


def all_cards_view(self, s) -> dict:
    """Every card face up, for debugging alone (see Game.all_cards_view; never a
    seat's view): the spectator's view plus ``"hands"`` (every seat's hand, canonical
    order, CR-21) and under ``"all_cards"`` the Family Meeting cards each seat has
    committed (CR-8) and the action and chore decks, top first (CR-1, CR-2)."""
    view = self.view(s, None)
    view["hands"] = [self._hand(h) for h in s.hands]
    zones = {}
    for seat, cards in enumerate(s.meeting or ()):
        if cards is not None:
            zones[f"seat {seat}'s Family Meeting pass"] = self._hand(cards)
    zones["action deck (top first)"] = [self.aname[c] for c in reversed(s.deck)]
    zones["chore deck (top first)"] = [self.chores[c].name for c in reversed(s.chore_deck)]
    view["all_cards"] = zones
    return view
