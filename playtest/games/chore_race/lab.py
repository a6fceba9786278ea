"""Chore Race balance-lab hooks: turns, leaders, scores, card counters and endings
(see CountsTurns.turns_played, leaders, card_counts, scores, end_conditions).

Methods of :class:`~playtest.games.chore_race.rules.ChoreRace`, bound there.
"""
from __future__ import annotations

PLAYED_KEY = {"done": "done", "finally": "finally", "inspection": "inspection", "delegate": "delegate",
              "teamwork": "teamwork", "swap": "swap", "meeting": "meeting", "later": "later",
              "excuse": "excuse", "dodge": "later"}  # move kind -> the action card it plays
ENDINGS = {"CR-17": "target", "CR-18: both action piles": "actions_out", "CR-18: every chore": "chores_out"}
"""The start of a finished game's reason (its ruling) -> its ending's key."""


def turns_played(self, s):
    """Turns begun so far (G-4 counts these); the turn the G-4 cap stopped before it
    began is not one."""
    return min(s.turns, self.options.max_turns)


def leaders(self, s):
    """The seats with the most VP (CR-17)."""
    best = max(s.vp)
    return tuple(seat for seat, vp in enumerate(s.vp) if vp == best)


def card_counters(self):
    """``played`` for every action card of this deck (CR-1), ``scored`` for every
    chore (CR-14)."""
    played = dict.fromkeys(name for name in self.aname)          # deck order, each name once
    return [("played", name) for name in played] + [("scored", name) for name in dict.fromkeys(
        c.name for c in self.chores)]


def card_counts(self, s, move):
    """``played``: an action card played from the hand, reactions included (a Done
    placed through Delegate or Teamwork counts for that card); ``scored``: each chore
    a seat completed (CR-14), counted when the game ends."""
    if move is None:
        return [("scored", seat, self.chores[c].name) for seat, pile in enumerate(s.scored) for c in pile]
    key = PLAYED_KEY.get(move.kind)
    return (("played", move.seat, self.key_name[key]),) if key else ()


def scores(self, s):
    """Each seat's VP (CR-17)."""
    return tuple(s.vp)


def end_conditions(self):
    """CR-17's target, and CR-18's two ways to run out of cards."""
    return {"target": f"a seat reached {self.options.target_vp} VP (CR-17)",
            "actions_out": "both action piles empty and a full round with no card played (CR-18)",
            "chores_out": "the chore deck and every tableau empty (CR-18)"}


def end_condition(self, s):
    """Which ending the game's result states (its reason names the ruling)."""
    if s.result is None or not s.result.finished:
        return None
    return next((key for prefix, key in ENDINGS.items() if s.result.reason.startswith(prefix)), None)
