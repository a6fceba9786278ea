"""Chore Race setup: the deal (rulebook setup, G-2, G-3) and a pinned position (scenarios).

Methods of :class:`~playtest.games.chore_race.rules.ChoreRace`, bound there:
``new_state`` and ``pin``.
"""
from __future__ import annotations

from playtest.engine import Event, OptionError
from playtest.engine.errors import short_repr
from playtest.engine.pinning import (card_names, check_keys, flags_per_seat, numbers_per_seat, per_seat, pin_piles,
                                     whole_number)
from playtest.engine.rng import shuffle

from .cards import CATCH_UP_VP, PROTECT_VP, START_HAND
from .state import CHORE, PROGRESS, UNDER, ChoreRaceState, new_entry


def new_state(self, rng):
    """Shuffle both decks, deal tableaus and 5-card hands, start turn 1 (G-2, G-3)."""
    s = ChoreRaceState(rng, self.seats)
    first = self.first_seat(rng)
    s.deck = list(range(len(self.akey)))
    shuffle(rng, s.deck)
    s.chore_deck = list(range(len(self.chores)))
    shuffle(rng, s.chore_deck)
    for seat in range(self.seats):
        s.tableaus[seat] = [new_entry(s.chore_deck.pop()) for _ in range(self.options.tableau_size)]
    for seat in range(self.seats):
        s.hands[seat] = [s.deck.pop() for _ in range(START_HAND)]
    events = [Event(f"Chore Race, {self.seats} seats, first to {self.options.target_vp} VP. "
                    f"Each seat gets {self.options.tableau_size} chores and {START_HAND} cards.",
                    {seat: "Your hand: " + self._names(s.hands[seat]) for seat in range(self.seats)})
              ] if self.keep_log else []
    self._start_turn(s, first, events)
    s.setup_events = events
    return s


def pin(self, s, setup):
    """Fix the position (keys of ``SETUP``): hands, tableaus with their progress
    (a Done under the chore for each point, CR-6, taken from the action deck),
    scored piles, the tops of both decks and both discard piles, by card name
    (a name with copies takes any unused copy); VP and CR-16's protection; then the
    first seat's Draw step is taken again from the pinned deck, with CR-15's
    catch-up as the pinned VP say.

    Args:
        s: a fresh state (from :meth:`new_state`). setup: key -> value, see ``SETUP``
            (per seat lists of names, of whole numbers or of true/false; ``catch_up``
            true/false).

    Raises:
        OptionError: an unknown key (with "did you mean"), card or chore name, too
            many copies (the Done under pinned progress count too), a list count
            other than the seat count, a tableau longer
            than ``tableau_size``, a progress list that does not match its tableau,
            VP at or over ``target_vp`` (CR-17), a protection that disagrees with the
            VP or protects the first seat (CR-16), or a catch_up that disagrees with
            the VP (CR-15).
    """
    check_keys(self, setup)
    first, n = s.turn_seat, self.seats
    while len(s.hands[first]) > START_HAND:      # undo the first Draw step (CR-3)
        s.deck.append(s.hands[first].pop())

    def seats_piles(key, most=None):    # the pinned piles of a per-seat key, by label ("tableaus[1]")
        return {f"{key}[{i}]": names for i, names in enumerate(per_seat(setup[key], key, n, maximum=most))
                } if key in setup else {}

    def shared_piles(*keys):
        return {key: card_names(setup[key], key) for key in keys if key in setup}

    chores = (seats_piles("tableaus", self.options.tableau_size) | seats_piles("scored")
              | shared_piles("chore_deck_top", "chore_discard"))
    actions = seats_piles("hands") | shared_piles("deck_top", "discard")
    piles = {f"tableaus[{i}]": [e[CHORE] for e in t] for i, t in enumerate(s.tableaus)}
    piles |= {f"scored[{i}]": list(pile) for i, pile in enumerate(s.scored)}
    piles |= {"chore_discard": s.chore_discard, "chore_deck_top": s.chore_deck}
    piles = pin_piles(self.title, [c.name for c in self.chores], piles,
                      {f"tableaus[{i}]": "chore_deck_top" for i in range(n)}, ["chore_deck_top"], chores,
                      other_kind=(set(self.aname), "is an action card: tableaus, scored, chore_deck_top and "
                                                   "chore_discard hold chores"))
    s.tableaus = [[new_entry(c) for c in piles[f"tableaus[{i}]"]] for i in range(n)]
    s.scored = [piles[f"scored[{i}]"] for i in range(n)]
    s.chore_discard, s.chore_deck = piles["chore_discard"], piles["chore_deck_top"]
    if "progress" in setup:
        _pin_progress(self, s, setup["progress"])
    # CR-6: the Done under a pinned chore, one per point of progress (CR-5), are real cards
    under = {f"progress[{i}][{p}]": [self.key_name["done"]] * e[PROGRESS]
             for i, t in enumerate(s.tableaus) for p, e in enumerate(t) if e[PROGRESS]}
    piles = {f"hands[{i}]": h for i, h in enumerate(s.hands)} | {"discard": s.discard, "deck_top": s.deck}
    piles |= dict.fromkeys(under, [])
    sources = {f"hands[{i}]": "deck_top" for i in range(n)} | dict.fromkeys(under, "deck_top")
    piles = pin_piles(self.title, self.aname, piles, sources, ["deck_top"], actions | under,
                      other_kind=({c.name for c in self.chores}, "is a chore: hands, deck_top and discard hold "
                                                                 "action cards"))
    s.hands = [piles[f"hands[{i}]"] for i in range(n)]
    s.discard, s.deck = piles["discard"], piles["deck_top"]
    for i, t in enumerate(s.tableaus):
        for p, e in enumerate(t):
            e[UNDER] = piles.get(f"progress[{i}][{p}]", [])
    target = self.options.target_vp
    s.vp = (numbers_per_seat(setup["vp"], "vp", n, 0, target - 1, f"CR-17: {target} VP ends the game")
            if "vp" in setup else [sum(self._level[c] for c in pile) for pile in s.scored])
    for seat, vp in enumerate(s.vp):
        worth = sum(self._level[c] for c in s.scored[seat])
        if vp < worth:      # a chore pays its level or more, and nothing takes VP away (CR-14)
            raise OptionError(f"setup 'vp[{seat}]' is {vp}, below the {worth} VP its scored chores are worth "
                              f"(CR-14: a chore pays at least its level; VP never go down): pin {worth} or more")
        if vp >= target:
            raise OptionError(f"setup 'scored[{seat}]' is worth {vp} VP, and {target} VP ends the game "
                              f"(CR-17): pin fewer chores, or vp")
    _pin_protection(self, s, setup, first)
    catch_up = s.vp[first] == 0 and max(s.vp) >= CATCH_UP_VP and self.options.draw_rule == "one"
    if "catch_up" in setup and setup["catch_up"] is not catch_up:
        if type(setup["catch_up"]) is not bool:
            raise OptionError(f"setup 'catch_up' is true or false, not {setup['catch_up']!r}")
        raise OptionError(f"setup 'catch_up' = {str(setup['catch_up']).lower()}, but CR-15 says "
                          f"{str(catch_up).lower()}: seat {first} (to act first) has {s.vp[first]} VP, the most "
                          f"is {max(s.vp)}, draw_rule {self.options.draw_rule!r}; catch-up needs 0 VP while "
                          f"an opponent has {CATCH_UP_VP}+, with draw_rule 'one'; pin vp to match")
    s.turns = 0
    events = [Event(f"Chore Race, {n} seats, first to {target} VP (pinned setup).",
                    {seat: "Your hand: " + self._names(s.hands[seat]) for seat in range(n)})]
    if any(s.vp) or any(s.scored):
        events.append(Event(f"Pinned: VP {s.vp}, chores scored {[len(p) for p in s.scored]}."))
    self._start_turn(s, first, events)
    s.setup_events = events


def _pin_progress(self, s, value) -> None:
    """Set the pinned progress counters (CR-6) on the pinned tableaus.

    Raises:
        OptionError: not one list per seat of whole numbers 0+, one per chore.
    """
    if not isinstance(value, list) or len(value) != self.seats or not all(isinstance(v, list) for v in value):
        raise OptionError(f"setup 'progress' is one list of whole numbers per seat ({self.seats} lists), "
                          f"not {short_repr(value)}")
    for seat, (counters, tableau) in enumerate(zip(value, s.tableaus)):
        if len(counters) != len(tableau):
            names = [self.chores[e[CHORE]].name for e in tableau]
            raise OptionError(f"setup 'progress[{seat}]' has {len(counters)} numbers, but seat {seat}'s tableau "
                              f"holds {len(tableau)} chores ({', '.join(names) or 'none'}): one number per chore")
        for p, (amount, e) in enumerate(zip(counters, tableau)):
            e[PROGRESS] = whole_number(amount, f"progress[{seat}][{p}]", 0, None, "CR-6")


def _pin_protection(self, s, setup, first) -> None:
    """Set CR-16's ``protection_used`` (from the VP, or pinned and agreeing with them)
    and ``protected`` (pinned; never the first seat, only a seat whose protection
    is used).

    Raises:
        OptionError: a pin that disagrees with the VP or protects whom it cannot.
    """
    n = self.seats
    used = [vp >= PROTECT_VP for vp in s.vp]
    if "protection_used" in setup:
        pinned = flags_per_seat(setup["protection_used"], "protection_used", n)
        for seat in range(n):
            if pinned[seat] != used[seat]:
                raise OptionError(f"setup 'protection_used[{seat}]' = {str(pinned[seat]).lower()}, but seat {seat} "
                                  f"has {s.vp[seat]} VP: CR-16's protection is used exactly when VP reached "
                                  f"{PROTECT_VP}+ (VP never go down); pin vp to match")
    s.protection_used = used
    s.protected = [False] * n
    if "protected" in setup:
        protected = flags_per_seat(setup["protected"], "protected", n)
        for seat in range(n):
            if protected[seat] and not used[seat]:
                raise OptionError(f"setup 'protected[{seat}]': seat {seat} has {s.vp[seat]} VP; only a seat that "
                                  f"reached {PROTECT_VP}+ VP is protected (CR-16)")
            if protected[seat] and seat == first:
                raise OptionError(f"setup 'protected[{seat}]': seat {seat} acts first, and its protection ends "
                                  f"when its turn starts (CR-16); protect another seat, or set first_player")
        s.protected = protected
