"""Lazy Sunday's deal (LS-3) and pinned setups (``LazySunday.SETUP``, for scenarios):
:func:`new_state` and :func:`pin` are :class:`~.rules.LazySunday`'s methods of those
names (the class binds them; ``self`` is the game); :func:`deal` deals every round."""
from __future__ import annotations

from playtest.engine import Event, OptionError
from playtest.engine.errors import short_repr
from playtest.engine.pinning import card_names, check_keys, numbers_per_seat, per_seat, pin_piles, whole_number
from playtest.engine.rng import shuffle

from .state import State

LIST_SIZE = 6  # LS-3: cards dealt to each list


def new_state(self, rng):
    """Deal round 1 from ``rng`` (G-3); round 1 starts with ``first_player`` (G-2, LS-3)."""
    s = State()
    s.rng = rng
    s.start = self.first_seat(rng)
    s.round, s.turns, s.outcome = 1, 0, None
    s.scores, s.round_scores = [0] * self.seats, []
    s.setup_events = deal(self, s)
    return s


def deal(self, s: State) -> list[Event]:
    """Shuffle all cards, deal 6 to each list, flip one onto DONE; memory is reset (LS-3, LS-11)."""
    n = self.seats
    s.deck = deck = list(range(len(self.cards.names)))
    shuffle(s.rng, deck)
    s.lists = []
    for _ in range(n):  # dealt off the top (the end) one by one: the top card is position 0
        s.lists.append(deck[:-LIST_SIZE - 1:-1])
        del deck[-LIST_SIZE:]
    s.done = [deck.pop()]
    s.serial = 1
    s.known = [0] * len(self.cards.names)
    s.known[s.done[0]] = self.everyone
    s.phase, s.turn, s.drawn, s.looking = "peek", None, None, []
    s.caller, s.final_turns, s.skip_next, s.give, s.resume, s.shown = None, [], False, None, None, None
    s.peekers = [(s.start + i) % n for i in range(n)]
    s.actor = s.start
    return [Event(f"Round {s.round}: seat {s.start} starts; DONE shows {self._label(s.done[0])}. "
                  f"Each seat peeks at 2 of its cards.")] if self.keep_log else []


def pin(self, s, setup):
    """Fix the deal (keys of ``SETUP``): lists, DONE pile and the deck's top, by card
    name (a name with copies takes any unused copy); the round, the scores of the
    earlier rounds and the cumulative scores (their sums, LS-10),
    the end of the setup peeks or a NOT ME! call, and what each seat remembers. Unless
    ``memory`` says so, nobody has seen a list card; the DONE cards are face up, known
    to all (LS-11).

    Args:
        s: a fresh state (from :meth:`new_state`). setup: key -> value, see ``SETUP``
            (lists of names, ``round`` and ``caller`` whole numbers, ``scores`` one
            whole number per seat, ``round_scores`` one such list per earlier round,
            ``peeks_done`` true/false, ``memory`` per seat a list of ``[seat,
            position]`` pairs).

    Raises:
        OptionError: an unknown key (with "did you mean"), card name or seat count,
            too many copies, a list of fewer than 2 cards (each seat peeks at 2,
            LS-3), an empty DONE, a round past option ``rounds`` or scores a match
            cannot have (LS-9, LS-10; scores that are not the sums of round_scores), a caller that is not a seat or with peeks_done false
            (LS-7), or a memory spot that is not a card of the pinned lists.
    """
    check_keys(self, setup)
    n = self.seats
    pinned = {}
    if "lists" in setup:
        for seat, names in enumerate(per_seat(setup["lists"], "lists", n, minimum=2)):
            pinned[f"lists[{seat}]"] = names
    if "done" in setup:
        pinned["done"] = card_names(setup["done"], "done", minimum=1)
    if "deck_top" in setup:
        pinned["deck_top"] = card_names(setup["deck_top"], "deck_top")
    piles = {f"lists[{seat}]": lst for seat, lst in enumerate(s.lists)} | {"done": s.done, "deck_top": s.deck}
    piles = pin_piles(self.title, self.cards.names, piles, {k: "deck_top" for k in piles if k != "deck_top"},
                      ["deck_top"], pinned)
    s.lists = [piles[f"lists[{seat}]"] for seat in range(n)]
    s.done, s.deck = piles["done"], piles["deck_top"]
    s.known = [0] * len(self.cards.names)
    for card in s.done:
        s.known[card] = self.everyone
    s.serial = len(s.done)
    _pin_match(self, s, setup)
    events = [Event(f"Round {s.round} (pinned setup): seat {s.start} starts; DONE shows "
                    f"{self._label(s.done[-1])}. Each seat peeks at 2 of its cards.")]
    caller = setup.get("caller")
    peeks_done = setup.get("peeks_done", caller is not None)
    if type(peeks_done) is not bool:
        raise OptionError(f"setup 'peeks_done' is true or false, not {peeks_done!r}")
    if caller is not None:
        whole_number(caller, "caller", 0, n - 1, "a seat, G-1")
        if not peeks_done:
            raise OptionError("setup 'caller' calls NOT ME! at the start of a turn (LS-7), after the setup "
                              "peeks: leave out peeks_done, or set it true")
    if peeks_done:
        s.phase, s.peekers, s.looking, s.turn = "turn", [], [], s.start
        events = [Event(f"Round {s.round} (pinned setup): seat {s.start} starts; DONE shows "
                        f"{self._label(s.done[-1])}; the peeks are over (LS-3).")]
    if caller is not None:
        s.caller, s.turn = caller, (caller + 1) % n
        s.final_turns = [(caller + i) % n for i in range(2, n)]
        events.append(Event(f"Seat {caller} has called NOT ME! (pinned); seat {s.turn} takes its final turn "
                            f"(LS-7)."))
    s.actor = s.turn if peeks_done else s.start
    if "memory" in setup:
        _pin_memory(self, s, setup["memory"])
    if s.round_scores:
        events.append(Event(f"Earlier rounds (pinned): {s.round_scores}; cumulative scores {s.scores}."))
    s.setup_events = events


def _pin_match(self, s, setup) -> None:
    """Set the pinned round (and with it the starting seat, LS-3), the scores of the
    earlier rounds (LS-9) and the cumulative scores, their running sums (LS-10).

    Raises:
        OptionError: a round past option ``rounds`` without ``match_to``, round
            scores that are not one list per earlier round or have no caller (LS-9)
            or pass 100 with ``match_to``, scores in round 1, a score above 100 with
            ``match_to`` or exactly 100 with ``great_escape``, or scores that are not
            the sums of the round scores.
    """
    n, options = self.seats, self.options
    rows = _pin_round_scores(self, setup["round_scores"]) if "round_scores" in setup else None
    if "round" in setup or rows:
        most = None if options.match_to else options.rounds
        why = "LS-10: match_to is set" if options.match_to else f"LS-10: option rounds is {options.rounds}"
        key = "round" if "round" in setup else "round_scores"
        s.round = whole_number(setup["round"] if "round" in setup else len(rows) + 1, key, 1, most, why)
        s.start = (s.start + s.round - 1) % n
        s.peekers = [(s.start + i) % n for i in range(n)]
        s.actor = s.start
    if rows is not None and len(rows) != s.round - 1:
        raise OptionError(f"setup 'round_scores' has {len(rows)} rounds, but round {s.round} comes after "
                          f"{s.round - 1}: one list per earlier round (LS-10)")
    # LS-10: the cumulative scores are the running sums of the round scores
    s.round_scores = rows if rows is not None else [[0] * n for _ in range(s.round - 1)]
    totals = [0] * n
    for r, row in enumerate(s.round_scores, 1):
        totals = [50 if options.great_escape and x + y == 100 else x + y for x, y in zip(totals, row)]
        if options.match_to and max(totals) > 100:
            raise OptionError(f"setup 'round_scores': after round {r} the cumulative scores are {totals}, "
                              f"above 100, so the match to 100 was over then (LS-10)")
    if "scores" in setup:
        scores = numbers_per_seat(setup["scores"], "scores", n, 0, 100 if options.match_to else None, "LS-10")
        if s.round == 1 and any(scores):
            raise OptionError("setup 'scores': cumulative scores are all 0 in round 1 (LS-10); pin round too")
        if options.great_escape and 100 in scores:
            raise OptionError(f"setup 'scores' = {scores}: with great_escape a cumulative score of exactly "
                              f"100 resets to 50 (LS-10)")
        if scores != totals:
            given = (f"round_scores {s.round_scores} add up to {totals}" if rows is not None else
                     f"round {s.round} has {s.round - 1} earlier round(s), and no round_scores are pinned")
            raise OptionError(f"setup 'scores' = {scores}, but {given}: the cumulative scores are the sums "
                              f"of the round scores (LS-10); pin round_scores, one list per earlier round")
    s.scores = totals


def _pin_round_scores(self, value) -> list[list[int]]:
    """``setup["round_scores"]`` checked: one list per earlier round of one whole
    number 0+ per seat, each with a seat that scored 0 or 50 (the caller, LS-9).

    Raises:
        OptionError: not a list of lists of whole numbers, or a round with no caller.
    """
    if not isinstance(value, list):
        raise OptionError(f"setup 'round_scores' is one list per earlier round, not {short_repr(value)}")
    rows = [numbers_per_seat(row, f"round_scores[{r}]", self.seats, 0, None, "LS-9") for r, row in enumerate(value)]
    for r, row in enumerate(rows):
        if not any(x in (0, 50) for x in row):
            raise OptionError(f"setup 'round_scores[{r}]' = {row}: no seat scored 0 or 50, but every round was "
                              f"scored after a NOT ME! call, and the caller scores 0 or 50 (LS-9)")
    return rows


def _pin_memory(self, s, value) -> None:
    """Add each seat's pinned memory (LS-11): the cards at its ``[seat, position]`` spots.

    Raises:
        OptionError: not one list per seat of ``[seat, position]`` pairs, a spot that
            is no card of the pinned lists, or a spot named twice.
    """
    n = self.seats
    if not isinstance(value, list) or len(value) != n or not all(isinstance(v, list) for v in value):
        raise OptionError(f"setup 'memory' is one list of [seat, position] pairs per seat ({n} lists), "
                          f"not {short_repr(value)}")
    for seat, spots in enumerate(value):
        seen = set()
        for spot in spots:
            if not (isinstance(spot, list) and len(spot) == 2 and all(type(x) is int for x in spot)):
                raise OptionError(f"setup 'memory[{seat}]': each spot is a [seat, position] pair of whole "
                                  f"numbers, not {short_repr(spot)}")
            t, p = spot
            if not 0 <= t < n or not 0 <= p < len(s.lists[t]):
                where = f"seat {t}'s list has positions 0..{len(s.lists[t]) - 1}" if 0 <= t < n else \
                    f"seats are 0..{n - 1} (G-1)"
                raise OptionError(f"setup 'memory[{seat}]': {spot} is no card: {where}")
            if (t, p) in seen:
                raise OptionError(f"setup 'memory[{seat}]' names {spot} twice")
            seen.add((t, p))
            s.known[s.lists[t][p]] |= 1 << seat
