"""Chore Race explanations: why a move is illegal now, as a ruling id and one sentence
(see Explains.explain, Game.shape_problem).

Methods of :class:`~playtest.games.chore_race.rules.ChoreRace`, bound there: ``explain``
and ``shape_problem``.
"""
from __future__ import annotations

from .cards import MEETING_PASS, TARGETED
from .state import CHORE, PROGRESS


def explain(self, s, move):
    """Why ``move`` is illegal now, as ``(ruling id, one sentence)``; covers every kind."""
    seat, kind, args = move.seat, move.kind, move.args
    if s.phase == "over":
        return ("G-4" if not s.result.finished else "CR-17"), f"the game is over ({s.result.reason})"
    if kind not in self.MOVE_ARGS:
        return "", f"'{kind}' is not a Chore Race move; moves are {', '.join(self.MOVE_ARGS)}"
    if seat not in self.to_act(s):
        if s.phase == "react":
            return "CR-7", f"only seat {s.pending.target}, the target, may answer the {self.key_name[s.pending.key]} now"
        if s.phase == "meeting":
            return "CR-8", f"seat {seat} has already committed its cards to the Family Meeting"
        return "CR-4", f"it is seat {s.turn_seat}'s turn"
    phase_kinds = {"play": ("done", "finally", "discard", "end", *TARGETED, "meeting", "later"),
                   "react": ("excuse", "dodge", "accept"), "place": ("place", "stop"),
                   "meeting": ("give",), "score": ("score",), "trigger": ("steal", "attic")}[s.phase]
    if kind not in phase_kinds:
        ruling = {"play": "CR-4", "react": "CR-7", "place": "CR-10", "meeting": "CR-8",
                  "score": "CR-14", "trigger": "CR-14"}[s.phase]
        return ruling, f"in the {s.phase} step seat {seat} may only {', '.join(phase_kinds)}"
    shape = self.shape_problem(move)
    if shape:
        return "", shape
    return WHY[s.phase](self, s, seat, kind, args)


def shape_problem(self, move):
    """See Game.shape_problem: a slot or card argument is a name (text), every other
    a whole number; ``give`` names up to three cards (CR-8)."""
    want = self.MOVE_ARGS.get(move.kind)
    if want is None or move.kind == "give":
        return ""
    if len(move.args) != len(want) or not all(
            isinstance(a, str) if w in ("slot", "card") else type(a) is int for a, w in zip(move.args, want)):
        return f"'{move.kind}' takes {' '.join(want) or 'no arguments'}"
    return ""


def _bad_pos(s, seat, p):
    """True if ``seat``'s tableau has no position ``p``."""
    return not 0 <= p < len(s.tableaus[seat])


def _bad_seat(self, who, seat):
    """True if ``who`` is not an opponent of ``seat``."""
    return not 0 <= who < self.seats or who == seat


def _why_play(self, s, seat, kind, args):
    key = args[1] if kind == "discard" else kind
    if kind == "discard" and key not in self.order:
        cards = ", ".join(map(self.key_name.get, self.order))
        return "CR-4", f"there is no such action card: the action cards are {cards}"
    if kind != "end" and not self._holds(s, seat, key):
        return "CR-4", f"seat {seat} holds no {self.key_name[key]}"
    if kind == "discard":
        if args[0] not in ("progress", "action"):
            return "CR-4", "discard it into the progress slot or the action slot"
        if s.slots[args[0] == "action"]:
            return "CR-4", f"the {args[0]} slot is already used this turn"
        return "", "this discard is not allowed now"
    if kind in ("done", "finally"):
        if s.slots[0]:
            return "CR-4", "the progress slot is already used this turn"
        if _bad_pos(s, seat, args[0]):
            return "CR-5", f"there is no chore {args[0]} in seat {seat}'s own tableau"
    elif kind != "end":
        if s.slots[1]:
            return "CR-4", "the action slot is already used this turn"
        if kind in TARGETED:
            target = args[1] if kind == "swap" else args[0]
            if _bad_seat(self, target, seat):
                return "CR-7", f"{self.key_name[kind]} must name one opponent, not {target}"
            if kind != "teamwork" and s.protected[target]:
                return "CR-16", f"seat {target} is protected until their next turn"
        if kind == "inspection":
            if _bad_pos(s, args[0], args[1]):
                return "CR-13", f"seat {args[0]} has no chore {args[1]}"
            if s.tableaus[args[0]][args[1]][PROGRESS] == 0:
                return "CR-13", "a chore with 0 progress cannot be inspected"
        if kind in ("delegate", "teamwork") and not s.tableaus[seat]:
            return ("CR-9" if kind == "delegate" else "CR-10"), "you have no chore to receive the Done"
        if kind == "delegate" and _has(self, s, args[0], "no_delegate"):
            return "CR-2", f"seat {args[0]} has Clean Your Room: opponents cannot Delegate to them"
        if kind in ("swap", "later") and _bad_pos(s, seat, args[0]):
            return ("CR-11" if kind == "swap" else "CR-12"), f"you have no chore {args[0]}"
        if kind == "swap":
            if _bad_pos(s, args[1], args[2]):
                return "CR-11", f"seat {args[1]} has no chore {args[2]}"
            if self.options.chore_swap_needs_progress and s.tableaus[seat][args[0]][PROGRESS] == 0:
                return "CR-11", "option chore_swap_needs_progress: the chore you give needs 1+ progress"
    return "", f"'{kind}' is not possible now"


def _why_react(self, s, seat, kind, args):
    if kind == "dodge" and s.pending.key != "inspection":
        return "CR-7", "I'll Do It Later (Dodge) cancels only an Inspection"
    key = "later" if kind == "dodge" else "excuse"
    if not self._holds(s, seat, key):
        return "CR-7", f"seat {seat} holds no {self.key_name[key]}"
    return "CR-7", "this reaction is not possible now"


def _why_place(self, s, seat, kind, args):
    if kind == "stop":
        return "CR-10", f"seat {s.placing.owing[0]}'s Done must be placed"
    return ("CR-9" if s.placing.card == "delegate" else "CR-10"), f"there is no chore {args[0]} in your tableau"


def _why_meeting(self, s, seat, kind, args):
    count = min(MEETING_PASS, len(s.hands[seat]))
    if len(args) != count:
        return "CR-8", f"seat {seat} must pass exactly {count} cards"
    unknown = [a for a in args if a not in self.order]
    if unknown:
        return "CR-8", f"there is no action card {unknown[0]!r}"
    return "CR-8", f"seat {seat} does not hold all of {' '.join(map(str, args))}"


def _why_score(self, s, seat, kind, args):
    complete = self._complete(s, seat)
    return "CR-14", (f"chore {args[0]} is not complete (complete: "
                     f"{'chores ' + ', '.join(map(str, complete)) if complete else 'none'})")


def _why_trigger(self, s, seat, kind, args):
    ability = s.trigger.ability
    if kind != ability:
        return "CR-14", f"the trigger to resolve is {ability}"
    target = args[0]
    if _bad_seat(self, target, seat):
        return "CR-2", f"choose an opponent, not {target}"
    if kind == "steal":
        return "CR-2", f"seat {target} has no card to steal"
    if s.protected[target]:
        return "CR-16", f"seat {target} is protected until their next turn"
    return "CR-2", f"seat {target}'s chore {args[1]} does not exist or has no progress"


def _has(self, s, seat, ability):
    """True if a chore in ``seat``'s tableau has ``ability`` (CR-2)."""
    chores = self.chores
    return any(chores[e[CHORE]].ability == ability for e in s.tableaus[seat])


WHY = {"play": _why_play, "react": _why_react, "place": _why_place, "meeting": _why_meeting, "score": _why_score,
       "trigger": _why_trigger}
"""Phase -> the function that says why a move of that phase is illegal."""
