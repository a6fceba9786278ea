"""Night Shift's deal (NS-1, NS-4, NS-5) and pinned setups (``NightShift.SETUP``, for
scenarios): :func:`new_state` and :func:`pin` are :class:`~.rules.NightShift`'s methods
of those names (the class binds them; ``self`` is the game)."""
from __future__ import annotations

from playtest.engine import Event, OptionError
from playtest.engine.errors import short_repr
from playtest.engine.pinning import (card_names, check_keys, numbers_per_seat, per_seat, pin_piles, suggest,
                                     whole_number)
from playtest.engine.rng import shuffle

from .cards import count_text
from .state import HAND_SIZE, MAX_PATIENCE, ROW_SIZE, NightShiftState


def new_state(self, rng) -> NightShiftState:
    """Shuffle both Starter Shift decks and the Household Supply, stack the Nap
    Tokens unshuffled, draw 5 each, fill the Supply Row, start the first Shift."""
    s = NightShiftState(rng)
    for seat in (0, 1):
        s.decks[seat] = list(self.places[f"starter{seat}"])
        shuffle(rng, s.decks[seat])
    s.supply = list(self.places["supply"])
    shuffle(rng, s.supply)
    s.naps = list(self.places["nap"])
    s.turn = self.first_seat(rng)
    events = []
    for seat in (0, 1):
        self._draw(s, seat, HAND_SIZE, events)
    self._refill(s)
    events.append(Event("Supply Row: " + ", ".join(self.cards[c].name for c in s.row) + "."))
    events += self._start_shift(s)
    s.setup_events = events
    return s


def pin(self, s, setup):
    """Fix the position (keys of ``SETUP``): cards by name (a name with copies takes
    any unused copy a pile can hold: a seat's own starter cards, Household Supply
    cards and Nap Tokens, never the other seat's starter cards, NS-1), then the
    Shift number, the start of the Shift (NS-6, the effects of pinned structures) and
    the pinned counters. Cards a pinned hand or row held before go to the bottom of its
    deck or of the Household Supply.

    Args:
        s: a fresh state (from :meth:`new_state`). setup: key -> value, see ``SETUP``
            (lists of card names, per-seat lists of whole numbers, ``shift`` and
            ``nap_tokens`` whole numbers, structures as names or
            ``{"name": str, "health": int}``).

    Raises:
        OptionError: an unknown key (with "did you mean"), an unknown card name, too
            many copies, a card a pile cannot hold (the other seat's starter card in a
            hand, a non-structure in ``structures``, a Nap Token in the Supply Row), a
            list count other than 2 seats, more than 5 cards for the Supply Row, a
            number out of its range, or Nap Tokens left unplaced.
    """
    check_keys(self, setup)
    pinned, health = {}, {}
    for key in ("hands", "deck_top", "baskets"):
        if key in setup:
            pinned.update({f"{key}[{i}]": cards for i, cards in enumerate(per_seat(setup[key], key, 2))})
    if "structures" in setup:
        for seat, entries in enumerate(_structure_pins(self, setup["structures"])):
            pinned[f"structures[{seat}]"] = [name for name, _ in entries]
            health[seat] = [h for _, h in entries]
    if "supply_row" in setup:
        pinned["supply_row"] = card_names(setup["supply_row"], "supply_row", maximum=ROW_SIZE)
    if "supply_top" in setup:
        pinned["supply_top"] = card_names(setup["supply_top"], "supply_top")
    limit, cap = self.options.turn_limit, self.options.max_turns
    shift = whole_number(setup["shift"], "shift", 1, min(limit, cap), f"NS-10: turn_limit {limit}; G-4: "
                         f"max_turns {cap}") if "shift" in setup else None
    counters = {key: numbers_per_seat(setup[key], key, 2, low, high, why) for key, low, high, why in (
        ("patience", 1, MAX_PATIENCE, "NS-6, NS-10: 0 Patience ends the game"), ("effort", 0, None, "NS-6"),
        ("actions", 0, 3, "NS-6"), ("care", 0, None, "NS-10")) if key in setup}
    piles = {"hands[0]": s.hands[0], "hands[1]": s.hands[1], "supply_row": s.row, "deck_top[0]": s.decks[0],
             "deck_top[1]": s.decks[1], "supply_top": s.supply, "naps": s.naps, "baskets[0]": s.baskets[0],
             "baskets[1]": s.baskets[1], "structures[0]": s.shifts[0], "structures[1]": s.shifts[1]}
    sources = {"hands[0]": "deck_top[0]", "hands[1]": "deck_top[1]", "supply_row": "supply_top"}
    piles = pin_piles(self.title, self._name, piles, sources, ["deck_top[0]", "deck_top[1]", "supply_top", "naps"],
                      pinned, _pin_limits(self))
    s.hands = [piles["hands[0]"], piles["hands[1]"]]
    s.decks = [piles["deck_top[0]"], piles["deck_top[1]"]]
    s.baskets = [piles["baskets[0]"], piles["baskets[1]"]]
    s.shifts = [piles["structures[0]"], piles["structures[1]"]]
    s.row, s.supply, s.naps = piles["supply_row"], piles["supply_top"], piles["naps"]
    if "nap_tokens" in setup:
        _check_naps(self, s, whole_number(setup["nap_tokens"], "nap_tokens", 0, len(self.places["nap"]), "NS-4"))
    s.health = {}
    for seat in (0, 1):
        for cid, points in zip(s.shifts[seat], health.get(seat, ())):
            s.health[cid] = points or self.cards[cid].health
    self._refill(s)
    if shift is not None:
        s.shift = shift
    events = [Event(f"Seat {seat} draws {count_text(len(hand))} (pinned setup).",
                    {seat: f"Seat {seat} (you) draws {', '.join(self.cards[c].name for c in hand) or 'nothing'}."})
              for seat, hand in enumerate(s.hands)]
    events.append(Event("Supply Row: " + ", ".join(self.cards[c].name for c in s.row) + "."))
    events += self._start_shift(s)
    for key, values in counters.items():
        setattr(s, key, values)
    if counters:
        events.append(Event("Pinned: " + "; ".join(f"{key} {values}" for key, values in counters.items()) + "."))
    s.setup_events = events


def _structure_pins(self, value) -> list[list[tuple[str, int | None]]]:
    """``setup["structures"]`` as per seat ``[(name, health or None), ...]``.

    Raises:
        OptionError: not one list per seat of names or ``{name, health}`` tables, a
            card that is not a structure (NS-3), or a health outside 1..printed.
    """
    structures = sorted({c.name for c in self.cards if c.structure})
    if not isinstance(value, list) or len(value) != 2 or not all(isinstance(v, list) for v in value):
        raise OptionError(f"setup 'structures' is one list per seat (2 lists), not {short_repr(value)}")
    result = []
    for seat, entries in enumerate(value):
        pins = []
        for k, entry in enumerate(entries):
            key = f"structures[{seat}][{k}]"
            if isinstance(entry, dict):
                extra = sorted(set(entry) - {"name", "health"})
                if extra or not isinstance(entry.get("name"), str):
                    hint = suggest(extra[0], ["name", "health"]) if extra else ""
                    raise OptionError(f"setup '{key}' is a structure's name or {{ name = ..., health = N }}, not "
                                      f"{short_repr(entry)}{hint}")
                name, points = entry["name"], entry.get("health")
            elif isinstance(entry, str):
                name, points = entry, None
            else:
                raise OptionError(f"setup '{key}' is a structure's name or {{ name = ..., health = N }}, not "
                                  f"{short_repr(entry)}")
            card = self.by_name.get(name)
            if card is None or not card.structure:
                what = "is not a structure" if card else "is no Night Shift card"
                raise OptionError(f"setup '{key}': {name!r} {what}; only structures stay in play in the Current "
                                  f"Shift (NS-3){suggest(name, structures) or '.'} Structures: {', '.join(structures)}")
            if points is not None:
                whole_number(points, f"{key}.health", 1, card.health, f"{name}'s printed health is {card.health}")
            pins.append((name, points))
        result.append(pins)
    return result


def _pin_limits(self) -> dict[str, tuple[frozenset[int], str]]:
    """Per pile label of :meth:`pin`, the card ids it can hold and why (NS-1, NS-3, NS-4)."""
    places, cards = self.places, self.cards
    bought = frozenset(places["supply"]) | frozenset(places["nap"])
    limits = {}
    for seat in (0, 1):
        own = frozenset(places[f"starter{seat}"]) | bought
        why = (f"a pile of seat {seat} holds its own starter cards, Household Supply cards and Nap Tokens, "
               f"never seat {1 - seat}'s starter cards (NS-1: each seat has its own Starter Shift deck)")
        for key in ("hands", "deck_top", "baskets"):
            limits[f"{key}[{seat}]"] = (own, why)
        limits[f"structures[{seat}]"] = (frozenset(c for c in places["supply"] if cards[c].structure),
                                         "only structures from the Household Supply stay in play (NS-3)")
    supply = frozenset(places["supply"])
    limits["supply_row"] = (supply, "the Supply Row holds only Household Supply cards (NS-4)")
    limits["supply_top"] = (supply, "the Household Supply holds only its own cards (NS-1)")
    return limits


def _check_naps(self, s, wanted: int) -> None:
    """Refuse a ``nap_tokens`` pin that the other pins do not account for (NS-4: the
    stack never refills, so every other Nap Token is named in some pile)."""
    left = len(s.naps)
    if left < wanted:
        raise OptionError(f"setup 'nap_tokens' = {wanted}, but the other pins take {len(self.places['nap']) - left} "
                          f"Nap Tokens off the stack, leaving {left}: use nap_tokens = {left} or name fewer")
    if left > wanted:
        raise OptionError(f"setup 'nap_tokens' = {wanted} leaves {left - wanted} Nap Token(s) to place: name them "
                          f"in baskets (a bought card goes to the Laundry Basket, NS-4), hands or deck_top")
