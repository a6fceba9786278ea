"""Why a Lazy Sunday move is refused, in a player's words with the ruling it breaks:
:func:`shape_problem` and :func:`explain` are :class:`~.rules.LazySunday`'s methods of
those names (the class binds them; ``self`` is the game)."""
from __future__ import annotations

from .cards import ACTIONS
from .state import CLAIM_PHASES, PHASE_KINDS

_DOING = {"peek": "peek", "done": "stop looking", "draw": "draw", "take": "take the DONE card",  # for refusals
          "notme": "call NOT ME!", "pass": "pass", "keep": "keep a card", "discard": "discard a card",
          "swap": "swap cards", "give": "give a card", "deal": "deal", **{a: "burn an action card" for a in ACTIONS}}
_KIND_RULING = {"peek": "LS-3", "done": "LS-3", "draw": "LS-4", "take": "LS-4", "notme": "LS-7",
                "pass": "LS-6", "keep": "LS-4", "discard": "LS-4", "swap": "LS-2", "claim": "LS-5",
                "give": "LS-5", "deal": "LS-3", **{a: "LS-2" for a in ACTIONS}}


def shape_problem(self, move):
    """See Game.shape_problem: whole-number arguments, as many as ``MOVE_ARGS``
    names; ``keep`` and ``take`` also without one (the empty-list form, LS-4)."""
    names = self.MOVE_ARGS.get(move.kind)
    if names is None or (move.kind in ("keep", "take") and not move.args):
        return ""
    if len(move.args) != len(names) or not all(type(a) is int for a in move.args):
        return f"'{move.kind}' takes {len(names)} whole-number argument(s): {' '.join(names) or 'none'}"
    return ""


def explain(self, s, move):
    """``(RULINGS id, one sentence)`` saying why ``move`` is illegal now (never raises)."""
    kind, seat, args = move.kind, move.seat, move.args
    if kind not in self.MOVE_ARGS:
        return "", f"'{kind}' is not a Lazy Sunday move; moves are {', '.join(self.MOVE_ARGS)}"
    ruling = _KIND_RULING[kind]
    shape = self.shape_problem(move)
    if shape:
        return ruling, shape
    if s.phase == "over":
        return ("G-4" if not s.outcome.finished else "LS-10"), "the match is over"
    if kind == "claim":
        return _explain_claim(self, s, seat, *args)
    if s.phase == "peek":  # setup: every seat peeks at once (LS-3)
        if seat not in s.peekers:
            return "LS-3", f"it is not seat {seat}'s decision (it has peeked): {_waiting(self, s)}"
        if kind not in ("peek", "done"):
            return ruling, f"'{kind}' is not possible now: {_waiting(self, s)}"
        if kind == "done" and not self._peeked(s, seat):
            return "LS-3", "peek at 2 of your cards first, then say you are done looking"
        if kind == "peek" and self._peeked(s, seat):
            return "LS-3", "you have peeked already (once, LS-3): say you are done looking"
    elif seat != s.actor:
        return ("LS-3" if s.turn is None else "G-1"), f"it is not seat {seat}'s decision: {_waiting(self, s)}"
    elif kind not in PHASE_KINDS[s.phase]:
        return ruling, f"you cannot {_DOING[kind]} now: {_waiting(self, s, seat)}"
    lists = s.lists
    own = len(lists[seat])
    if kind == "peek":
        if len(set(args)) == 1 and 0 <= args[0] < own:
            return "LS-3", "you picked the same card twice: pick two different cards of your list"
        return "LS-3", f"pick two different cards of your own list (it has {own} cards)"
    if kind == "swap":
        return "LS-2", "only Not My Job lets you swap the two cards you looked at"
    if kind == "draw":
        return "LS-6", "nothing can be drawn: the deck is empty and DONE has only its top card"
    if kind in ("take", "keep") and own and not args:
        return ruling, "choose the card of your list that it replaces"
    if kind == "take" and not s.done:
        return "LS-4", "the DONE pile is empty"
    if kind in ("take", "keep"):
        return "LS-4", ("your list is empty, so the card is simply added to it: choose no card" if not own
                        else f"that is not a card of your list (it has {own} cards)")
    if kind == "give":
        return "LS-5", f"give one of the cards of your own list (it has {own} cards)"
    if kind == "notme":
        return "LS-7", f"NOT ME! was already called this round by seat {s.caller}"
    if kind == "pass":
        return "LS-6", "you may pass only when you can neither draw, take from DONE nor call NOT ME!"
    if kind in ACTIONS:
        return _explain_burn(self, s, seat, kind, args)
    return ruling, f"'{move}' is not one of seat {seat}'s moves now"


def _waiting(self, s, seat: int | None = None) -> str:
    """What the match waits for, in a player's words ("you" for ``seat``, the mover)."""
    if s.actor == seat and s.phase != "peek":   # setup: every seat peeks at once (LS-3)
        return {
            "look": "you are looking at cards (until Done looking)",
            "turn": "you are starting your turn (draw, take the DONE card or NOT ME!)",
            "drawn": "you hold a drawn card (keep, discard or burn it)",
            "give": "you must give a card after your correct claim",
            "round_over": "the round is over; you deal the next one",
        }[s.phase]
    a = s.actor
    return {
        "peek": f"seat{'s' if len(s.peekers) > 1 else ''} {', '.join(map(str, s.peekers))} "
                f"{'are' if len(s.peekers) > 1 else 'is'} peeking at 2 of their cards (setup)",
        "look": f"seat {a} is looking at cards (until Done looking)",
        "turn": f"seat {a} is starting its turn (draw, take or NOT ME!)",
        "drawn": f"seat {a} holds a drawn card (keep, discard or burn it)",
        "give": f"seat {a} must give a card after its correct claim",
        "round_over": f"the round is over; seat {a} deals the next one",
    }[s.phase]


def _explain_burn(self, s, seat, action, args) -> tuple[str, str]:
    if self.cards.actions[s.drawn] != action:
        return "LS-2", f"an action triggers only when its own card was just drawn, and seat {seat} did not draw that one"
    n = self.seats
    if action in ("switcheroo", "not_my_job") and n - 1 - (s.caller is not None) < 2:
        return "LS-8", "this action needs two other players who may be targeted; you can only discard it"
    if action == "landlord" and not (s.deck or s.done):
        return "LS-6", "nothing can be drawn, so Landlord's Notice can only be discarded"
    own = range(len(s.lists[seat]))
    if action in ("double_check", "knock_out", "trade") and args[0] not in own:
        return "LS-8", "that is not a card of your list"
    spots = {"nosy": [args], "trade": [args[1:]], "switcheroo": [args[:2], args[2:]],
             "not_my_job": [args[:2], args[2:]], "landlord": [(args[0], None)]}.get(action, [])
    for t, p in spots:
        if not 0 <= t < n:
            return "LS-8", f"there is no seat {t}"
        if t == s.caller:
            return "LS-7", f"seat {t} called NOT ME! and its list is locked until the round is scored"
        if t == seat and action != "landlord":
            return "LS-8", "this action must target another player"
        if p is not None and not 0 <= p < len(s.lists[t]):
            return "LS-8", f"seat {t} has no card at position {p}"
    if action in ("switcheroo", "not_my_job") and not args[0] < args[2]:
        return "LS-8", "pick cards of two different other players"
    return "LS-8", "not a legal target for this action"


def _explain_claim(self, s, seat, t, p, serial) -> tuple[str, str]:
    if s.phase not in CLAIM_PHASES:
        why = {"peek": "during setup", "look": "during setup" if s.turn is None else "while an action resolves",
               "give": f"until seat {s.actor} has given its card", "round_over": "once the round is over"}
        return "LS-5", f"no quick discard {why[s.phase]}"
    if not s.done:
        return "LS-5", "the DONE pile is empty, so there is nothing to match"
    if not 0 <= t < self.seats or not 0 <= p < len(s.lists[t]):
        return "LS-5", f"seat {t} has no card at position {p}"
    if serial > s.serial or serial < 1:
        return "LS-5", f"no DONE card has serial {serial}: the top is serial {s.serial}"
    if t == s.caller and seat != t:
        return "LS-7", f"seat {t} called NOT ME! and its list is locked until the round is scored"
    return "LS-5", "claiming another player's card needs a card of your own to give"
