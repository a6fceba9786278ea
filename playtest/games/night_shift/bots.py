"""Night Shift bots. They decide from the seat's view only (``bot_view`` = ``view``).

:class:`HeuristicBot` follows two priority lists a designer can edit, in the manner of
the Dominion simulators' "Big Money" bots: ``PLAY_PRIORITY`` and ``BUY_PRIORITY``, each
a list of ``(card name, condition)`` rules; the first rule whose card is on offer (a
legal move) and whose condition holds wins.

A condition is a small text: ``""`` (always), or terms joined by ``" and "``, each
``"<fact> <op> <whole number>"`` with op one of ``< <= == != >= >``, or a bare fact
(true when not 0). Facts, read from the view for the bot's own seat:

=================  ==============================================================
effort, actions    the bot's Effort and Actions left this Shift
patience, care     the bot's Patience and Care Points
opp_patience       the opponent's Patience; ``opp_care`` their Care Points
care_lead          care - opp_care
shift, shifts_left the Shift number and ``turn_limit - shift`` (both seats counted)
supply             cards left in the Household Supply
reshuffle          1 if option ``reshuffle`` (NS-5) is on, else 0
free_play          1 if option ``play_cost`` is ``"free"`` (NS-2), else 0
hand, deck         cards in the bot's hand and Personal Deck
my_structures      the bot's structures in play; ``opp_structures`` the opponent's
=================  ==============================================================
"""
from __future__ import annotations

import operator
from typing import Callable, Sequence

from playtest.engine import Bot, Move

PLAY_PRIORITY: list[tuple[str, str]] = [
    ("Sleep Training Plan", "shifts_left >= 8"),   # structures work every later Shift (NS-3)
    ("Chore Chart", "shifts_left >= 14"),
    ("Shared Calendar", "shifts_left >= 14"),
    ("Grandparent Visit", ""),                     # Effort back, a card and a Care Point
    ("Coffee Refill", ""),                         # net +3 Effort at the printed cost 2
    ("Bottle Wash", ""),
    ("Trade Off", ""),
    ("Nap Token", ""),
    ("Laundry Load", ""),
    ("Quick Nap", "patience <= 23"),
]
"""Which card to play, best first (a card's rule is used only when playing it is legal,
i.e. affordable)."""

BUY_PRIORITY: list[tuple[str, str]] = [
    ("Sleep Training Plan", "reshuffle and shifts_left >= 16"),
    ("Grandparent Visit", "reshuffle"),
    ("Trade Off", "reshuffle"),
    ("Nap Token", "reshuffle and shifts_left >= 4"),
]
"""Which card to buy, best first. As written (no reshuffle, NS-5) a bought card is never
drawn, so the default list buys nothing then and the bot's Actions go to plays. Found by
a few hundred heuristic-vs-heuristic games: Actions (3 a Shift) are the scarce resource,
so cards that turn an Action into Care Points beat Effort engines (Coffee Refill,
Chore Chart) over a 50-Shift game."""

BUILD_PRIORITY: list[tuple[str, str]] = [
    ("Sleep Training Plan", "reshuffle and shifts_left >= 12"),
    ("Shared Calendar", "reshuffle and shifts_left >= 30 and my_structures == 0"),
]
"""Structures to buy as soon as the Effort is there, before any play (NS-3, NS-4): a
structure works at the start of every later Shift of its owner, so an early one pays
many times over, but only with the NS-5 reshuffle (as written a bought card is never
drawn). A Sleep Training Plan (+1 Care Point a Shift) bought with 12+ Shifts left is
drawn, played and pays back its cost and two Actions well before the end; one early
Shared Calendar (+1 Effort a Shift) also blocks the opponent's Tidy Up (NS-7). More
Effort structures did not pay in heuristic-vs-heuristic games (200 games with the
reshuffle: no better than the bot without them)."""

SETTLE_PRIORITY: list[tuple[str, str]] = [
    ("Sleep Training Plan", "shifts_left >= 2"),
    ("Chore Chart", "patience <= 15 or actions <= 1"),
    ("Shared Calendar", "patience <= 15 or actions <= 1"),
]
"""Opponent structures to settle (NS-8), best first, when the Effort is there: a Sleep
Training Plan costs the bot a Care Point every Shift of the opponent's it stays; an
Effort structure is settled before any play when it blocks the bot's Tidy Up (NS-7)
while its Patience runs low, else with the Shift's last Action (the opponent's Effort
engine goes back to its Laundry Basket)."""

TIDY_DANGER = 6
"""Tidy Up (NS-7) before anything else when Patience is at most this (two Trade Offs
from 0, NS-10) and the Effort is there."""

_OPS = {"<=": operator.le, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
        "<": operator.lt, ">": operator.gt}
FACTS = ("effort", "actions", "patience", "care", "opp_patience", "opp_care", "care_lead", "shift",
         "shifts_left", "supply", "reshuffle", "free_play", "hand", "deck", "my_structures", "opp_structures")


def parse_condition(text: str) -> Callable[[dict], bool]:
    """Compile a condition (see the module docstring) into ``facts -> bool``.

    ``" or "`` joins alternatives of ``" and "`` groups (``and`` binds tighter).

    Raises:
        ValueError: an unknown fact, operator or number, naming the condition.
    """
    alternatives = []
    for group in (text.split(" or ") if text.strip() else []):
        terms = []
        for term in group.split(" and "):
            words = term.split()
            if len(words) == 1:
                words = [words[0], "!=", "0"]
            if len(words) != 3 or words[0] not in FACTS or words[1] not in _OPS or not words[2].lstrip("-").isdigit():
                raise ValueError(f"bad bot condition {text!r} at {term!r}: write '<fact> <op> <number>' "
                                 f"with op in {' '.join(_OPS)} and fact in {', '.join(FACTS)}")
            terms.append((words[0], _OPS[words[1]], int(words[2])))
        alternatives.append(terms)
    if not alternatives:
        return lambda facts: True
    return lambda facts: any(all(op(facts[f], n) for f, op, n in terms) for terms in alternatives)


def facts(view: dict) -> dict:
    """The facts a condition may use, from a Night Shift view for its viewer."""
    seat, players, options = view["viewer"], view["players"], view["options"]
    me, opp = players[seat], players[1 - seat]
    shift = view["shift"]
    return {
        "effort": me["effort"], "actions": me["actions"], "patience": me["patience"], "care": me["care"],
        "opp_patience": opp["patience"], "opp_care": opp["care"], "care_lead": me["care"] - opp["care"],
        "shift": shift, "shifts_left": options["turn_limit"] - shift,
        "supply": view["household_supply"], "reshuffle": int(options["reshuffle"]),
        "free_play": int(options["play_cost"] == "free"), "hand": me["hand_count"],
        "deck": me["deck_count"],
        "my_structures": sum(c["type"] == "structure" for c in me["current_shift"]),
        "opp_structures": sum(c["type"] == "structure" for c in opp["current_shift"]),
    }


class HeuristicBot(Bot):
    """A rule bot for Night Shift, deciding from its view only.

    Each decision, in order: a Trade Off (any card hurting Patience) that brings the
    opponent to 0 Patience (NS-10); Tidy Up when its Patience is at most
    ``TIDY_DANGER`` (NS-7); the first ``build_priority`` structure it can buy (NS-3,
    NS-4); the first ``settle_priority`` structure of the opponent's it can settle
    (NS-8); with 2+ Actions left, the first ``play_priority`` rule; the first
    ``buy_priority`` rule; the first ``play_priority`` rule; Tidy Up when Patience is
    below 25 (Patience breaks a Care Point tie, NS-10); else end the Shift.

    Args:
        seed: seeds the bot's own random stream (unused: the bot is deterministic).
        play_priority, buy_priority, build_priority, settle_priority: ``(card name,
            condition)`` lists; default the module's ``PLAY_PRIORITY``,
            ``BUY_PRIORITY``, ``BUILD_PRIORITY`` and ``SETTLE_PRIORITY``.

    Raises:
        ValueError: a condition that does not parse (see :func:`parse_condition`).
    """

    name = "heuristic"

    def __init__(self, seed=None, play_priority: Sequence[tuple[str, str]] | None = None,
                 buy_priority: Sequence[tuple[str, str]] | None = None,
                 build_priority: Sequence[tuple[str, str]] | None = None,
                 settle_priority: Sequence[tuple[str, str]] | None = None):
        super().__init__(seed)

        def rules(given, default):
            return [(card, parse_condition(cond)) for card, cond in (default if given is None else given)]

        self.play_rules = rules(play_priority, PLAY_PRIORITY)
        self.buy_rules = rules(buy_priority, BUY_PRIORITY)
        self.build_rules = rules(build_priority, BUILD_PRIORITY)
        self.settle_rules = rules(settle_priority, SETTLE_PRIORITY)

    def choose(self, view: dict, legal: list[Move]) -> Move:
        """Pick one of ``legal`` (Night Shift moves of the viewer) from ``view``."""
        by = {"play": {}, "buy": {}, "settle": {}}
        end = tidy = None
        for move in legal:
            if move.kind in by:
                by[move.kind][move.args[0]] = move
            elif move.kind == "tidy":
                tidy = move
            elif move.kind == "end":
                end = move
        if end is not None and len(legal) == 1:
            return end  # out of Actions: nothing to read
        f = facts(view)
        seat, players = view["viewer"], view["players"]
        me = players[seat]
        for card in me["hand"] or ():
            hurt = card["play"].get("opponent_patience", 0)
            if card["name"] in by["play"] and hurt < 0 and f["opp_patience"] + hurt <= 0:
                return by["play"][card["name"]]
        if tidy and f["patience"] <= TIDY_DANGER:  # NS-7: stay out of reach of a lethal Trade Off
            return tidy
        move = self._first(self.build_rules, by["buy"], f) or self._first(self.settle_rules, by["settle"], f)
        if move:
            return move
        if f["actions"] >= 2:
            move = self._first(self.play_rules, by["play"], f)
            if move:
                return move
        move = self._first(self.buy_rules, by["buy"], f) or self._first(self.play_rules, by["play"], f)
        if move:
            return move
        if tidy and f["patience"] < 25:  # NS-7: spare Effort into Patience (NS-10's tie-break) when short
            return tidy
        return end or legal[0]

    @staticmethod
    def _first(rules, offered: dict, f: dict) -> Move | None:
        for card, condition in rules:
            if card in offered and condition(f):
                return offered[card]
        return None
