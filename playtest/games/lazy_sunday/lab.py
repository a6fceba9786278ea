"""Lazy Sunday's balance-lab hooks (see ``CountsTurns.turns_played``, ``leaders``,
``card_counts`` and the rest, :mod:`playtest.lab`): what the lab counts and ranks in a
match. Each function is :class:`~.rules.LazySunday`'s method of that name (the class
binds them; ``self`` is the game)."""
from __future__ import annotations

from operator import add

from .cards import ACTIONS
from .state import REVEAL_PHASES


def turns_played(self, s):
    """Turns played so far (G-4 counts these)."""
    return s.turns


def leaders(self, s):
    """The seats with the lowest cumulative score plus current list effort (LS-9:
    lowest wins); between rounds and at the end, the cumulative scores alone."""
    if s.phase in REVEAL_PHASES:
        totals = list(s.scores)
    else:
        summed, efforts = self._summed_lists, self._summed_efforts
        if s.lists != summed:  # most moves change one list or none: re-sum only those that did
            effort = self.cards.efforts.__getitem__
            for seat, lst in enumerate(s.lists):
                if summed[seat] != lst:
                    summed[seat], efforts[seat] = lst[:], sum(map(effort, lst))
        totals = list(map(add, s.scores, efforts))
    if totals != self._led_totals:  # same totals, same leaders
        best = min(totals)
        self._led_totals, self._leaders = totals, ((totals.index(best),) if totals.count(best) == 1 else
                                                   tuple(seat for seat, total in enumerate(totals) if total == best))
    return self._leaders


def card_counters(self):
    """``played`` for every action card of the deck (LS-2), ``kept`` for every card
    (LS-1)."""
    cards = self.cards
    return ([("played", c.name) for c in cards.specs if c.action] + [("kept", c.name) for c in cards.specs])


def card_counts(self, s, move):
    """``played``: an action card burned (LS-2); ``kept``: each card in a seat's list
    when the match ends (the last round's lists)."""
    names = self.cards.names
    if move is None:
        return [("kept", seat, names[c]) for seat, lst in enumerate(s.lists) for c in lst]
    if move.kind in ACTIONS:  # the burned card lies on DONE, under the knocked-out one
        return (("played", move.seat, names[s.done[-2] if move.kind == "knock_out" else s.done[-1]]),)
    return ()


def scores(self, s):
    """Each seat's cumulative score plus the effort of its list now (what :meth:`leaders`
    ranks; lowest is best); between rounds and at the end, the cumulative scores."""
    if s.phase in REVEAL_PHASES:
        return tuple(s.scores)
    effort = self.cards.efforts
    return tuple(score + sum(effort[c] for c in lst) for score, lst in zip(s.scores, s.lists))


def end_conditions(self):
    """LS-10: the match ends after the set rounds, or once a total passes 100."""
    if self.options.match_to:
        return {"match_to": "a cumulative score went above 100 (LS-10, match_to)"}
    return {"rounds": f"the last of the {self.options.rounds} set round(s) was scored (LS-10)"}


def end_condition(self, s):
    """The one ending these options have, once the match is over (LS-10)."""
    if s.outcome is None or not s.outcome.finished:
        return None
    return "match_to" if self.options.match_to else "rounds"
