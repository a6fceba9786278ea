"""Night Shift: a two-seat deck-builder (rulebook seed 001, RULINGS NS-1..NS-10).

Cards come from ``cards.toml`` beside this file (NS-1). Seats 0 and 1 alternate Shifts;
a Shift is a sequence of moves by the seat on turn, ended by ``end``, after which Lights
Out runs automatically and the other seat's Shift starts (NS-6).

Moves (text form ``"<seat> <kind> [args]"``; card names are quoted when they hold
spaces, e.g. ``0 play 'Laundry Load'``). Only the seat on turn has moves.

==========  ============  ============================================================
kind        args          what it does (ruling)
==========  ============  ============================================================
play        card name     1 Action plus the printed Effort cost (none with option
                          ``play_cost="free"``): a card from the hand into the Current
                          Shift, effect resolved; structures do nothing now (NS-2, NS-3)
buy         card name     1 Action plus the printed cost: a card of the Supply Row
                          (refilled at once from the Household Supply) or, for a Nap
                          Token, the top of the Nap Token stack (never refilled); the
                          card goes to the Laundry Basket (NS-4)
tidy        -             1 Action, needs 1+ Effort and no opponent structure in play:
                          all Effort becomes Patience (NS-7)
settle      card name     1 Action, Effort >= the health of that opponent structure:
                          pay it; the structure goes to its owner's Laundry Basket (NS-8)
end         -             end the Shift: Lights Out (hand and non-Permanent cards to the
                          Laundry Basket, draw 5), end check, next Shift (NS-5, NS-10)
activate    any           never offered: no card has an ability (NS-9); ``explain`` says so
==========  ============  ============================================================

Identical cards are interchangeable, so a move names a card, not a copy; legal moves list
each name once. ``explain(state, move)`` gives ``(ruling id, reason)`` for every refusal.

View (``NightShift.view(state, seat)``, plain JSON; ``seat=None`` is the spectator)::

    {
     "game": "night_shift", "seats": 2, "viewer": seat | None,
     "phase": "shift" | "over",
     "shift": n,                  # 1-based, Shifts of both seats counted together (NS-10)
     "turn_limit": 50, "turn_seat": seat | None, "to_act": [seat] or [],
     "options": {"play_cost": "printed"|"free", "reshuffle": bool, "turn_limit": int},
     "players": [                 # index = seat
       {"seat": s, "patience": int, "effort": int, "actions": int, "care": int,
        "hand": [card, ...] | None,   # None unless the viewer is s
        "hand_count": int, "deck_count": int,         # Personal Deck: count only
        "current_shift": [card + {"health": int|None}, ...],
        "laundry_basket": [card, ...],                # face up, bottom first
        "basket_count": int},
       ...],
     "supply_row": [card, ...],   # left to right, at most 5
     "household_supply": int,     # count only
     "nap_tokens": int, "nap_card": card | None,      # the stack's top card
     "outcome": None | {"finished": bool, "winners": [...], "scores": [care, care],
                        "reason": str},
    }
    card = {"name": str, "type": "unit"|"event"|"resource"|"structure",
            "cost": int | None, "health": int | None, "text": str,
            "play": {effect: amount}, "start_of_shift": {effect: amount}}

No card id and no order of a hidden pile ever appears in a view. ``bot_view`` is the view.
For speed, the card dicts of piles are shared between views (one per card kind): treat a
view as read-only data (copy it before changing it); ``current_shift`` dicts are fresh.
Events: public text for everyone; the drawing seat's private text names the cards drawn.
"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from playtest.engine import BaseOptions, Event, Game, ISMCTSBot, Move, OptionError, Outcome, RandomBot
from playtest.engine.rng import shuffle
from playtest.games import variants
from playtest.games.variants import card_file, card_variant_field

from .bots import HeuristicBot

_new = tuple.__new__  # Move(...) without the NamedTuple's Python-level __new__: move lists are the hot path
_END = (Move(0, "end"), Move(1, "end"))  # the one move of a seat out of actions, per seat

CARDS_FILE = Path(__file__).with_name("cards.toml")
MAX_PATIENCE = 25
HAND_SIZE = 5
ROW_SIZE = 5
EFFECTS = ("effort", "care", "patience", "draw", "opponent_patience")

PRESETS = {"as written": {}, "with reshuffle": {"reshuffle": True}}
"""Named option sets for the new-game panel: the rulebook as written (NS-5, no
reshuffle) and with the NS-5 reshuffle option."""


# --- card data (NS-1) -------------------------------------------------------------------
class Effects(BaseModel):
    """Effect amounts of a card (0 when left out); ``opponent_patience`` < 0 hurts."""

    model_config = ConfigDict(extra="forbid")
    effort: int = 0
    care: int = 0
    patience: int = 0
    draw: int = Field(0, ge=0)
    opponent_patience: int = 0


class CardSpec(BaseModel):
    """One ``[[card]]`` entry of cards.toml (see the comments at its top)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    type: Literal["unit", "event", "resource", "structure"]
    cost: int | None = Field(None, ge=0)
    health: int | None = Field(None, ge=1)
    where: Literal["starter", "supply", "nap"]
    count: int = Field(ge=0)
    text: str = ""
    play: Effects = Effects()
    start_of_shift: Effects = Effects()

    @model_validator(mode="after")
    def _structure_fields(self):
        if self.type == "structure":
            if self.health is None:
                raise ValueError("a structure needs a health of 1 or more (NS-1)")
            if self.play != Effects():
                raise ValueError("a structure does nothing when played (NS-3): use start_of_shift, not play")
        else:
            if self.health is not None:
                raise ValueError("only structures have health (NS-1)")
            if self.start_of_shift != Effects():
                raise ValueError("only structures stay in play for start_of_shift effects (NS-3)")
        return self


class Card(NamedTuple):
    """A card kind as the rules use it: plain values for speed. ``play`` and ``start``
    are effect tuples in the order of ``EFFECTS``; ``view`` is the card's view dict."""

    name: str
    type: str
    cost: int | None
    health: int | None
    where: str
    structure: bool
    play: tuple
    start: tuple
    view: dict


def load_cards(path: str | Path = CARDS_FILE) -> list[CardSpec]:
    """Read and check a cards file (TOML, a list of ``[[card]]`` tables).

    Args:
        path: the file; the package's cards.toml by default.

    Returns:
        One :class:`CardSpec` per entry, in file order.

    Raises:
        ValueError: the file is not TOML, has no ``[[card]]`` list, an entry is wrong
            (the message names the file, the entry number and name, the field and why),
            or a name is used twice.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{path}: expected a list of [[card]] tables")
    specs, names = [], set()
    for number, entry in enumerate(entries, 1):
        label = f"{path}: card {number} ({entry.get('name', '?')!r})"
        try:
            spec = CardSpec.model_validate(entry)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors())
            raise ValueError(f"{label}: {problems}") from None
        if spec.name in names:
            raise ValueError(f"{label}: the name {spec.name!r} is used twice; one entry per card name")
        names.add(spec.name)
        specs.append(spec)
    return specs


def _card(spec: CardSpec) -> Card:
    def amounts(effects: Effects) -> tuple:
        return tuple(getattr(effects, e) for e in EFFECTS)

    def nonzero(effects: Effects) -> dict:
        return {e: getattr(effects, e) for e in EFFECTS if getattr(effects, e)}

    view = {"name": spec.name, "type": spec.type, "cost": spec.cost, "health": spec.health,
            "text": spec.text, "play": nonzero(spec.play), "start_of_shift": nonzero(spec.start_of_shift)}
    return Card(spec.name, spec.type, spec.cost, spec.health, spec.where, spec.type == "structure",
                amounts(spec.play), amounts(spec.start_of_shift), view)


def card_ids(specs: list[CardSpec]) -> tuple[list[Card], dict[str, list[int]]]:
    """Number every physical card: ids in file order, copies consecutive; a starter
    entry gives ``count`` copies per seat (seat 0's first). Returns ``(cards by id,
    place -> ids)`` with places ``"starter0"``, ``"starter1"``, ``"supply"``, ``"nap"``."""
    cards: list[Card] = []
    places: dict[str, list[int]] = {"starter0": [], "starter1": [], "supply": [], "nap": []}
    for spec in specs:
        card = _card(spec)
        for place in ("starter0", "starter1") if spec.where == "starter" else (spec.where,):
            for _ in range(spec.count):
                places[place].append(len(cards))
                cards.append(card)
    return cards, places


_NUMBERED: dict[tuple[int, ...], tuple] = {}


def _numbered(specs: list[CardSpec]) -> tuple[list[Card], dict[str, list[int]], tuple, tuple]:
    """:func:`card_ids` of ``specs``, worked out once per deck: every new game numbers
    the same cards (the result is only read; new games copy the places' lists). Also
    each id's name and cost (None as 0), as plain tuples: the move lists read them on
    every move."""
    key = tuple(map(id, specs))
    if key not in _NUMBERED:  # the entry keeps the specs alive, so their ids stay theirs
        cards, places = card_ids(specs)
        _NUMBERED[key] = (tuple(specs), cards, places, tuple(c.name for c in cards),
                          tuple(c.cost or 0 for c in cards))
    return _NUMBERED[key][1:]


def _copy(view: dict) -> dict:
    """A card's view dict, copied (for cards that get a per-copy field such as health)."""
    return {**view, "play": dict(view["play"]), "start_of_shift": dict(view["start_of_shift"])}


# --- options ------------------------------------------------------------------------------
MAX_SHIFTS = 200
"""The largest ``turn_limit`` (NS-10; the kit's range, RULINGS.md): four times the
rulebook's 50 Shifts."""


class NightShiftOptions(BaseOptions):
    """Night Shift options (RULINGS NS-2, NS-5, NS-10, plus G-2 and G-4); ``turn_limit``
    is 1 to :data:`MAX_SHIFTS` (NS-10)."""

    play_cost: Literal["printed", "free"] = Field(
        "printed", description="NS-2: 'printed' (playing a card costs its printed Effort) or 'free' "
                               "(only buying costs Effort)")
    reshuffle: bool = Field(
        False, description="NS-5: false (as written, an empty Personal Deck draws nothing) or true "
                           "(an empty Personal Deck is first refilled by shuffling the Laundry Basket)")
    turn_limit: int = Field(
        50, ge=1, le=MAX_SHIFTS, description=f"NS-10: the game ends at the end of this Shift, 1 to {MAX_SHIFTS} "
                                             "(Shifts of both seats counted together)")
    card_variant: str | None = card_variant_field("NS-1")   # NS-1 (playtest.games.variants)


# --- state --------------------------------------------------------------------------------
class NightShiftState:
    """The whole game position. Piles are lists of card ids; the top of a deck or of
    the Laundry Basket is its last element. Only :class:`NightShift` changes it."""

    def __init__(self, rng):
        self.rng = rng
        self.decks: list[list[int]] = [[], []]      # Personal Decks (hidden order)
        self.hands: list[list[int]] = [[], []]
        self.shifts: list[list[int]] = [[], []]     # Current Shifts
        self.baskets: list[list[int]] = [[], []]    # Laundry Baskets (face up)
        self.supply: list[int] = []                  # Household Supply (hidden order)
        self.row: list[int] = []                     # Supply Row
        self.naps: list[int] = []                    # Nap Token stack
        self.health: dict[int, int] = {}             # structure id in a Current Shift -> health
        self.patience = [MAX_PATIENCE, MAX_PATIENCE]
        self.effort = [0, 0]
        self.actions = [3, 3]
        self.care = [0, 0]
        self.turn = 0
        self.shift = 1
        self.result: Outcome | None = None
        self.setup_events: list[Event] = []

    def dump(self) -> dict:
        """Everything, as plain data (for fingerprints)."""
        return {"decks": self.decks, "hands": self.hands, "shifts": self.shifts, "baskets": self.baskets,
                "supply": self.supply, "row": self.row, "naps": self.naps,
                "health": sorted(self.health.items()), "patience": self.patience, "effort": self.effort,
                "actions": self.actions, "care": self.care, "turn": self.turn, "shift": self.shift,
                "result": self.result and [self.result.finished, self.result.winners,
                                           self.result.scores, self.result.reason]}


# --- the rules ------------------------------------------------------------------------------
class NightShift(Game):
    """Night Shift for exactly 2 seats; see the module docstring for moves and view.

    Args:
        seats: must be 2.
        options: see :class:`NightShiftOptions` (``play_cost``, ``reshuffle``,
            ``turn_limit``, ``first_player``, ``max_turns``); ``PRESETS`` names two sets.

    Raises:
        OptionError: a seat count other than 2 or a bad option.

    ``max_turns`` (G-4) counts Shifts like ``turn_limit``; the game stops unfinished at
    the end of Shift ``max_turns`` only if no NS-10 ending came first.
    """

    name = "night_shift"
    title = "Night Shift"
    min_seats = max_seats = 2
    Options = NightShiftOptions
    VIEW_WORDS = {
        "players.*": "seat {0}", "players.*.patience": "seat {0}'s Patience", "players.*.effort": "seat {0}'s Effort",
        "players.*.actions": "seat {0}'s Actions", "players.*.care": "seat {0}'s Care Points",
        "players.*.hand": "seat {0}'s hand", "players.*.hand_count": "seat {0}'s hand size",
        "players.*.deck_count": "cards in seat {0}'s Personal Deck",
        "players.*.current_shift": "seat {0}'s Current Shift",
        "players.*.current_shift.*": "seat {0}'s Current Shift card {1}",
        "players.*.laundry_basket": "seat {0}'s Laundry Basket",
        "players.*.basket_count": "cards in seat {0}'s Laundry Basket",
        "supply_row": "the Supply Row", "supply_row.*": "Supply Row position {0}",
        "household_supply": "cards in the Household Supply", "nap_tokens": "Nap Tokens left",
        "nap_card": "the Nap stack's top card", "shift": "Shift", "turn_seat": "seat on Shift"}
    MOVE_ARGS = {"play": ("card",), "buy": ("card",), "tidy": (), "settle": ("card",), "end": (),
                 "activate": ("card",)}
    BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "ismcts": ISMCTSBot}  # weakest first
    SEARCH_ITERATIONS = 500  # ismcts: about 0.2 s a decision (benchmarks/bench_bots.py)
    PRESETS = PRESETS
    CARD_SPECS = load_cards()
    SETUP = {  # a pinned position (scenarios); who starts is the option first_player (G-2)
        "hands": "one list of card names per seat: the opening hand (any number of cards; a seat's own "
                 "starter cards, Household Supply cards and Nap Tokens, never the other seat's starter cards, NS-1)",
        "deck_top": "one list per seat: the next cards of that Personal Deck, top first (the same cards "
                    "as hands)",
        "baskets": "one list per seat: its Laundry Basket, bottom first (the same cards as hands; "
                   "face up, NS-4: bought cards go there)",
        "structures": "one list per seat: the structures in play in its Current Shift (NS-3), each a card "
                      "name (printed health) or { name = ..., health = N }, N 1..printed health (NS-8 "
                      "pays the health to settle it); the seat to act gets their start-of-Shift effects",
        "supply_row": "the Supply Row's first cards, left to right (up to 5; the rest is refilled "
                      "from the Household Supply; Household Supply cards only, NS-4)",
        "supply_top": "the next cards of the Household Supply, top first",
        "nap_tokens": "how many Nap Tokens are left on the stack, 0..10 (NS-4: it never refills); the "
                      "others must be named in hands, deck_top or baskets",
        "patience": "one whole number per seat, 1..25 (NS-6; 0 would have ended the game, NS-10)",
        "effort": "one whole number 0+ per seat (NS-6; the other seat's goes to 0 when its Shift starts)",
        "actions": "one whole number per seat, 0..3 (NS-6: 3 at the start of a Shift)",
        "care": "one whole number 0+ per seat: Care Points (NS-10)",
        "shift": "the number of the Shift being played, 1..turn_limit and at most max_turns (NS-10, "
                 "G-4; Shifts of both seats counted together); first_player's seat plays it (G-2)",
    }
    """The pinned numbers (patience, effort, actions, care) are what the view shows right
    after the setup: they are set after the start-of-Shift effects of pinned structures."""

    def __init__(self, seats: int = 2, options=None):
        super().__init__(seats, options)
        specs = self.CARD_SPECS if self.options.card_variant is None else variants.load(
            load_cards, card_file(self.name, self.options.card_variant, CARDS_FILE))
        self.cards, self.places, self._name, self._cost = _numbered(specs)
        self.by_name = {c.name: c for c in self.cards}

    # --- setup ------------------------------------------------------------------------
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
        from playtest.engine.pinning import (card_names, check_keys, numbers_per_seat, per_seat, pin_piles,
                                                whole_number)
        check_keys(self, setup)
        pinned, health = {}, {}
        for key in ("hands", "deck_top", "baskets"):
            if key in setup:
                pinned.update({f"{key}[{i}]": cards for i, cards in enumerate(per_seat(setup[key], key, 2))})
        if "structures" in setup:
            for seat, entries in enumerate(self._structure_pins(setup["structures"])):
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
                          pinned, self._pin_limits())
        s.hands = [piles["hands[0]"], piles["hands[1]"]]
        s.decks = [piles["deck_top[0]"], piles["deck_top[1]"]]
        s.baskets = [piles["baskets[0]"], piles["baskets[1]"]]
        s.shifts = [piles["structures[0]"], piles["structures[1]"]]
        s.row, s.supply, s.naps = piles["supply_row"], piles["supply_top"], piles["naps"]
        if "nap_tokens" in setup:
            self._check_naps(s, whole_number(setup["nap_tokens"], "nap_tokens", 0, len(self.places["nap"]), "NS-4"))
        s.health = {}
        for seat in (0, 1):
            for cid, points in zip(s.shifts[seat], health.get(seat, ())):
                s.health[cid] = points or self.cards[cid].health
        self._refill(s)
        if shift is not None:
            s.shift = shift
        events = [Event(f"Seat {seat} draws {_cards(len(hand))} (pinned setup).",
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
        from playtest.engine.pinning import suggest, whole_number
        from playtest.engine.errors import short_repr
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

    # --- whose decision ---------------------------------------------------------------
    def to_act(self, s) -> tuple[int, ...]:
        """``(seat on turn,)``, or ``()`` once the game is over."""
        return () if s.result else (s.turn,)

    def legal_moves(self, s, seat: int) -> list[Move]:
        """The moves of the seat on turn (the other seat has none): plays (NS-2),
        buys (NS-4), tidy (NS-7), settles (NS-8), then ``end``; each card name once."""
        if s.result or seat != s.turn:
            return []
        if not s.actions[seat]:
            return [_END[seat]]
        moves = []
        effort = s.effort[seat]
        cards, name, cost = self.cards, self._name, self._cost
        free = self.options.play_cost == "free"
        seen = set()
        for cid in s.hands[seat]:
            if name[cid] not in seen:
                seen.add(name[cid])
                if free or cost[cid] <= effort:
                    moves.append(_new(Move, (seat, "play", (name[cid],))))
        seen = set()
        for cid in s.row:
            if name[cid] not in seen:
                seen.add(name[cid])
                if cost[cid] <= effort:
                    moves.append(_new(Move, (seat, "buy", (name[cid],))))
        if s.naps and cost[s.naps[-1]] <= effort:
            moves.append(_new(Move, (seat, "buy", (name[s.naps[-1]],))))
        other = s.shifts[1 - seat]
        if effort >= 1:
            structures = [cid for cid in other if cards[cid].structure]
            if not structures:
                moves.append(_new(Move, (seat, "tidy", ())))
            seen = set()
            for cid in structures:
                if name[cid] not in seen and s.health[cid] <= effort:
                    seen.add(name[cid])
                    moves.append(_new(Move, (seat, "settle", (name[cid],))))
        moves.append(_END[seat])
        return moves

    decision_moves = legal_moves    # no OPEN_MOVES: every legal move answers a decision (Game.decision_moves)

    def shape_problem(self, move):
        """See Game.shape_problem: as many arguments as ``MOVE_ARGS`` names; a card name
        split in words (unquoted) is told how to quote it."""
        reason = super().shape_problem(move)
        want = self.MOVE_ARGS.get(move.kind, ())
        if reason and "card" in want and len(move.args) > len(want):  # an unquoted name split in words
            quoted = " ".join(map(str, move.args))
            reason += f'; a card name with spaces goes in quotes: {move.seat} {move.kind} "{quoted}"'
        return reason

    def explain(self, s, move: Move) -> tuple[str, str]:
        """Why ``move`` is illegal now, as ``(ruling id, one sentence)``."""
        seat, kind, args = move.seat, move.kind, move.args
        if s.result:
            return "NS-10", "the game is over"
        if kind == "activate":
            return "NS-9", "no card has an ability to activate, so Activate an ability is never offered"
        if kind not in self.MOVE_ARGS:
            return "", f"'{kind}' is not a Night Shift move; moves are {', '.join(self.MOVE_ARGS)}"
        if seat != s.turn:
            return "NS-6", f"it is seat {s.turn}'s Shift, not seat {seat}'s"
        shape = self.shape_problem(move)
        if shape:
            return "", shape
        rule = {"play": "NS-2", "buy": "NS-4", "tidy": "NS-7", "settle": "NS-8"}.get(kind, "")
        name = args[0] if args else None
        card = self.by_name.get(name)
        effort = s.effort[seat]
        if kind == "play":
            if not any(self.cards[c].name == name for c in s.hands[seat]):
                return rule, f"there is no {name} in seat {seat}'s hand"
        elif kind == "buy":
            if card is not None and card.where == "nap":
                if not s.naps:
                    return rule, "the Nap Token stack is empty and never refills"
            elif not any(self.cards[c].name == name for c in s.row):
                return rule, f"there is no {name} in the Supply Row"
        elif kind == "settle":
            target = next((c for c in s.shifts[1 - seat] if self.cards[c].name == name), None)
            if target is None:
                return rule, f"the opponent has no {name} structure in their Current Shift"
        if s.actions[seat] < 1:
            return rule, f"seat {seat} has no Actions left this Shift"
        if kind == "play" and self.options.play_cost == "printed" and (card.cost or 0) > effort:
            return rule, f"playing {name} costs {card.cost} Effort and seat {seat} has {effort}"
        if kind == "buy" and (card.cost or 0) > effort:
            return rule, f"buying {name} costs {card.cost} Effort and seat {seat} has {effort}"
        if kind == "tidy":
            if effort < 1:
                return rule, "Tidy Up needs at least 1 Effort"
            blocker = next(self.cards[c].name for c in s.shifts[1 - seat] if self.cards[c].structure)
            return rule, f"Tidy Up is blocked while the opponent has a structure in play ({blocker})"
        if kind == "settle":
            return rule, f"settling {name} needs Effort of at least its health {s.health[target]}; seat {seat} has {effort}"
        return "", f"'{move}' is not one of seat {seat}'s moves now"

    # --- applying -----------------------------------------------------------------------
    def apply(self, s, move: Move) -> list[Event]:
        """Apply a legal move (checked by the caller); return the log events."""
        seat, kind = move.seat, move.kind
        if kind == "end":
            return self._end_shift(s, seat)
        s.actions[seat] -= 1
        if kind == "tidy":
            gained = s.effort[seat]
            s.patience[seat] = min(MAX_PATIENCE, s.patience[seat] + gained)
            s.effort[seat] = 0
            return [Event(f"Seat {seat} tidies up: {gained} Effort into Patience (now {s.patience[seat]}).")
                    ] if self.keep_log else []
        name = move.args[0]
        card = self.by_name[name]
        if kind == "play":
            hand = s.hands[seat]
            cid = next(c for c in hand if self.cards[c].name == name)
            hand.remove(cid)
            if self.options.play_cost == "printed" and card.cost:
                s.effort[seat] -= card.cost
            s.shifts[seat].append(cid)
            if card.structure:
                s.health[cid] = card.health
                return [Event(f"Seat {seat} plays {name}; it stays in their Current Shift.")] if self.keep_log else []
            events = [Event(f"Seat {seat} plays {name} ({card.view['text']}).")] if self.keep_log else []
            return events + self._resolve(s, seat, card.play)
        if kind == "buy":
            s.effort[seat] -= card.cost or 0
            if card.where == "nap":
                s.baskets[seat].append(s.naps.pop())
                return [Event(f"Seat {seat} buys {name} from the Nap Token stack ({len(s.naps)} left).")
                        ] if self.keep_log else []
            cid = next(c for c in s.row if self.cards[c].name == name)
            s.row.remove(cid)
            s.baskets[seat].append(cid)
            self._refill(s)
            return [Event(f"Seat {seat} buys {name} from the Supply Row.")] if self.keep_log else []
        # settle
        other = 1 - seat
        cid = next(c for c in s.shifts[other] if self.cards[c].name == name)
        s.effort[seat] -= s.health.pop(cid)
        s.shifts[other].remove(cid)
        s.baskets[other].append(cid)
        return [Event(f"Seat {seat} settles seat {other}'s {name}; it goes to their Laundry Basket.")
                ] if self.keep_log else []

    def _resolve(self, s, seat: int, effects: tuple) -> list[Event]:
        effort, care, patience, draw, hurt = effects
        events = []
        s.effort[seat] = max(0, s.effort[seat] + effort)
        s.care[seat] += care
        other = 1 - seat
        s.patience[seat] = min(MAX_PATIENCE, max(0, s.patience[seat] + patience))
        s.patience[other] = min(MAX_PATIENCE, max(0, s.patience[other] + hurt))
        if draw:
            self._draw(s, seat, draw, events)
        losers = [p for p in (0, 1) if s.patience[p] == 0]
        if losers:
            winners = () if len(losers) == 2 else (1 - losers[0],)
            who = " and ".join(f"seat {p}" for p in losers)
            s.result = Outcome(True, winners, tuple(s.care),
                               f"NS-10: {who} reached 0 Patience" + (f"; seat {winners[0]} wins" if winners else "; a draw"))
            events.append(Event(s.result.reason + "."))
        return events

    def _draw(self, s, seat: int, n: int, events: list[Event]) -> None:
        """Draw up to ``n`` cards (NS-5: reshuffle the Laundry Basket first if the option
        is on and the deck is empty); appends one event to ``events`` (when the game keeps
        a log), its private text naming the cards."""
        deck, hand, drawn, shuffled = s.decks[seat], s.hands[seat], [], ""
        if 0 < n <= len(deck):  # the usual case: n cards off the top, as n single draws would take them
            drawn = deck[:-n - 1:-1]
            del deck[-n:]
            n = 0
        for _ in range(n):
            if not deck and self.options.reshuffle and s.baskets[seat]:
                deck.extend(s.baskets[seat])
                s.baskets[seat].clear()
                shuffle(s.rng, deck)
                shuffled = f" (after shuffling the Laundry Basket, {len(deck)} cards, into the Personal Deck)"
            if not deck:
                break
            drawn.append(deck.pop())
        hand.extend(drawn)
        if self.keep_log:
            names = ", ".join(self.cards[c].name for c in drawn) or "nothing"
            events.append(Event(f"Seat {seat} draws {_cards(len(drawn))}{shuffled}.",
                                {seat: f"Seat {seat} (you) draws {names}{shuffled}."}))

    def _refill(self, s) -> None:
        while len(s.row) < ROW_SIZE and s.supply:
            s.row.append(s.supply.pop())

    def _start_shift(self, s) -> list[Event]:
        """NS-6: Effort to 0, Actions to 3, then the structures' start effects."""
        seat = s.turn
        s.effort[seat], s.actions[seat] = 0, 3
        events = [Event(f"Shift {s.shift}: seat {seat}'s Shift begins.")] if self.keep_log else []
        for cid in list(s.shifts[seat]):
            card = self.cards[cid]
            if card.structure and any(card.start) and not s.result:
                if self.keep_log:
                    events.append(Event(f"Seat {seat}'s {card.name}: {card.view['text']}."))
                events += self._resolve(s, seat, card.start)
        return events

    def _end_shift(self, s, seat: int) -> list[Event]:
        """Lights Out, then NS-10's end-of-Shift endings, then the next Shift."""
        hand, shift, basket = s.hands[seat], s.shifts[seat], s.baskets[seat]
        out = len(hand)
        basket.extend(hand)
        hand.clear()
        if shift:  # structures stay in the Current Shift, the rest goes out
            cards = self.cards
            kept = [c for c in shift if cards[c].structure]
            out += len(shift) - len(kept)
            basket.extend(c for c in shift if not cards[c].structure)
            s.shifts[seat] = kept
        events = [Event(f"Seat {seat} ends Shift {s.shift}. Lights Out: {_cards(out)} to the Laundry Basket.")
                  ] if self.keep_log else []
        self._draw(s, seat, HAND_SIZE, events)
        limit = self.options.turn_limit
        if not s.supply or s.shift >= limit:
            why = "the Household Supply is empty" if not s.supply else f"Shift {limit} was the last"
            s.result = self._final(s, f"NS-10: {why}")
        elif s.shift >= self.options.max_turns:
            s.result = Outcome(False, (), tuple(s.care), f"G-4: max_turns ({self.options.max_turns} Shifts) reached")
        if s.result:
            return events + [Event(s.result.reason + ".")]
        s.turn, s.shift = 1 - seat, s.shift + 1
        return events + self._start_shift(s)

    def _final(self, s, why: str) -> Outcome:
        """NS-10: most Care Points wins, then most Patience; an exact tie is a draw."""
        key = [(s.care[p], s.patience[p]) for p in (0, 1)]
        if key[0] == key[1]:
            return Outcome(True, (), tuple(s.care), f"{why}; a draw on Care Points and Patience")
        win = 0 if key[0] > key[1] else 1
        by = "Care Points" if s.care[0] != s.care[1] else "Patience (Care Points tied)"
        return Outcome(True, (win,), tuple(s.care), f"{why}; seat {win} wins on {by}")

    # --- search hooks (see Game.copy_state, Game.determinizer) ---------------------------
    def copy_state(self, s):
        """A copy of ``s`` to play on (its lists copied, its random stream shared): plain
        list copies, for the search bot's iterations."""
        c = NightShiftState.__new__(NightShiftState)
        c.rng, c.turn, c.shift, c.result, c.setup_events = s.rng, s.turn, s.shift, s.result, []
        c.decks, c.hands = [s.decks[0][:], s.decks[1][:]], [s.hands[0][:], s.hands[1][:]]
        c.shifts, c.baskets = [s.shifts[0][:], s.shifts[1][:]], [s.baskets[0][:], s.baskets[1][:]]
        c.supply, c.row, c.naps, c.health = s.supply[:], s.row[:], s.naps[:], dict(s.health)
        c.patience, c.effort, c.actions, c.care = s.patience[:], s.effort[:], s.actions[:], s.care[:]
        return c

    def determinizer(self, view, seat):
        """Sample states consistent with ``seat``'s view (see Game.determinizer; a Night
        Shift bot view is the view).

        Every face-up card stays where the view shows it: the Supply Row, both Current
        Shifts (structures with their health), both Laundry Baskets, the seat's own hand
        and the Nap Token stack (NS-1, NS-4). A seat's Starter Shift cards never leave its
        own piles, so its hidden piles (Personal Deck, and the other seat's hand) hold its
        starter cards not in view; the rest of a hidden pile, with the NS-5 reshuffle, is
        bought cards, drawn at random with the Household Supply among the cards nobody
        sees.

        Raises:
            ValueError: the view names more copies of a card than the game has, or its
                counts do not add up.
        """
        me, other = seat, 1 - seat
        name_of = self._name
        free: dict[str, list[int]] = {}
        for card, name in enumerate(name_of):
            free.setdefault(name, []).append(card)

        def take(name):
            ids = free.get(name)
            if not ids:
                raise ValueError(f"the view shows more {name!r} cards than Night Shift has (NS-1)")
            return ids.pop()

        players = view["players"]
        row = [take(c["name"]) for c in view["supply_row"]]
        shifts, health = [], {}
        for p in (0, 1):
            pile = []
            for c in players[p]["current_shift"]:
                card = take(c["name"])
                pile.append(card)
                if c["health"] is not None:
                    health[card] = c["health"]
            shifts.append(pile)
        baskets = [[take(c["name"]) for c in players[p]["laundry_basket"]] for p in (0, 1)]
        hand = [take(c["name"]) for c in players[me]["hand"]]
        naps = [take(name_of[self.places["nap"][0]]) for _ in range(view["nap_tokens"])]  # one name (NS-4)
        starters = {name_of[c] for c in self.places["starter0"]}
        per_seat = []  # per seat: its starter cards nobody sees (NS-1: starter decks are per seat)
        for p in (0, 1):
            left = [name_of[c] for c in self.places[f"starter{p}"]]
            for pile in (shifts[p], baskets[p], hand if p == me else ()):
                for card in pile:
                    if name_of[card] in starters and name_of[card] in left:
                        left.remove(name_of[card])
            per_seat.append([take(name) for name in left])
        unseen = [card for ids in free.values() for card in ids]
        supply = [card for card in unseen if self.cards[card].where == "supply"]
        bought_naps = [card for card in unseen if self.cards[card].where != "supply"]  # never back in the Supply
        deck_sizes = [players[p]["deck_count"] for p in (0, 1)]
        opp_hand = players[other]["hand_count"]
        hidden = [deck_sizes[me], opp_hand + deck_sizes[other]]  # my deck; the other's hand and deck
        extra = [hidden[0] - len(per_seat[me]), hidden[1] - len(per_seat[other])]
        if (min(extra) < 0 or len(bought_naps) > sum(extra) or len(unseen) - sum(extra) != view["household_supply"]):
            raise ValueError(f"the view's cards do not add up to Night Shift's: {len(unseen)} cards unseen for a "
                             f"Household Supply of {view['household_supply']} and {sum(extra)} bought cards in "
                             f"hidden piles")
        bought_supply = sum(extra) - len(bought_naps)  # how many of the unseen Supply cards were bought
        outcome = view["outcome"]
        result = outcome and Outcome(outcome["finished"], tuple(outcome["winners"]), tuple(outcome["scores"]),
                                     outcome["reason"])
        template = NightShiftState.__new__(NightShiftState)
        template.rng, template.setup_events, template.result = None, [], result
        template.turn = view["turn_seat"] if view["turn_seat"] is not None else 0
        template.shift, template.row, template.naps, template.health = view["shift"], row, naps, health
        template.shifts, template.baskets = shifts, baskets
        for field in ("patience", "effort", "actions", "care"):
            setattr(template, field, [players[p][field] for p in (0, 1)])
        template.decks, template.hands, template.supply = [[], []], [[], []], []
        mine, theirs = per_seat[me], per_seat[other]
        copy = self.copy_state

        def sample(rng):
            s = copy(template)
            s.rng = rng
            cards = supply[:]
            shuffle(rng, cards)
            bought = bought_naps + cards[:bought_supply]
            shuffle(rng, bought)
            deck = mine + bought[:extra[0]]
            pile = theirs + bought[extra[0]:]
            s.supply = cards[bought_supply:]
            shuffle(rng, deck)
            shuffle(rng, pile)
            s.decks[me], s.hands[me] = deck, hand[:]
            s.hands[other], s.decks[other] = pile[:opp_hand], pile[opp_hand:]
            return s

        return sample

    # --- balance-lab hooks (see Game.turns_played, leaders, card_counts) -----------------
    def turns_played(self, s):
        """Shifts begun so far (G-4 counts Shifts)."""
        return s.shift

    def leaders(self, s):
        """The seats ahead on Care Points, then Patience (NS-10's ranking)."""
        key = [(s.care[p], s.patience[p]) for p in (0, 1)]
        best = max(key)
        return tuple(p for p in (0, 1) if key[p] == best)

    def card_counters(self):
        """``played`` for every card (any card can reach a hand), ``bought`` for every card
        of the Household Supply and the Nap Tokens (NS-4)."""
        names = dict.fromkeys(c.name for c in self.cards)
        buyable = dict.fromkeys(c.name for c in self.cards if c.where != "starter")
        return [("played", name) for name in names] + [("bought", name) for name in buyable]

    def card_counts(self, s, move):
        """``played``: a card played from the hand; ``bought``: a card bought (NS-4)."""
        if move is not None and move.kind in ("play", "buy"):
            return (("played" if move.kind == "play" else "bought", move.seat, move.args[0]),)
        return ()

    def scores(self, s):
        """Each seat's Care Points (NS-10)."""
        return tuple(s.care)

    def resources(self, s):
        """Each seat's Patience (NS-6, NS-10: a seat at 0 loses)."""
        return {"patience": tuple(s.patience)}

    def resource_bounds(self):
        """Patience stays within 0..25 (NS-6)."""
        return {"patience": (0, MAX_PATIENCE)}

    def end_conditions(self):
        """NS-10's three endings."""
        return {"patience": "a seat at 0 Patience loses at once (NS-10)",
                "supply": "the Household Supply deck ran out (NS-10)",
                "turn_limit": f"Shift {self.options.turn_limit} ended (NS-10, turn_limit)"}

    def end_condition(self, s):
        """Which ending the game's result states (its reason names it)."""
        if s.result is None or not s.result.finished:
            return None
        reason = s.result.reason
        return ("patience" if "0 Patience" in reason else "supply" if "Supply is empty" in reason
                else "turn_limit" if reason.startswith("NS-10: Shift") else None)

    # --- reading --------------------------------------------------------------------------
    def outcome(self, s) -> Outcome | None:
        """None while the game goes on; scores are Care Points (NS-10)."""
        return s.result

    def view(self, s, seat: int | None) -> dict:
        """What ``seat`` may know (``None``: spectator); format in the module docstring."""
        cards = self.cards

        def show(ids):
            return [cards[c].view for c in ids]

        players = []
        for p in (0, 1):
            current = []
            for c in s.shifts[p]:
                d = _copy(cards[c].view)
                d["health"] = s.health.get(c)
                current.append(d)
            players.append({
                "seat": p, "patience": s.patience[p], "effort": s.effort[p], "actions": s.actions[p],
                "care": s.care[p], "hand": show(s.hands[p]) if seat == p else None,
                "hand_count": len(s.hands[p]), "deck_count": len(s.decks[p]), "current_shift": current,
                "laundry_basket": show(s.baskets[p]), "basket_count": len(s.baskets[p])})
        r = s.result
        opts = self.options
        return {
            "game": self.name, "seats": 2, "viewer": seat, "phase": "over" if r else "shift",
            "shift": s.shift, "turn_limit": opts.turn_limit, "turn_seat": None if r else s.turn,
            "to_act": list(self.to_act(s)),
            "options": {"play_cost": opts.play_cost, "reshuffle": opts.reshuffle, "turn_limit": opts.turn_limit},
            "players": players, "supply_row": show(s.row), "household_supply": len(s.supply),
            "nap_tokens": len(s.naps), "nap_card": cards[s.naps[-1]].view if s.naps else None,
            "outcome": r and {"finished": r.finished, "winners": list(r.winners), "scores": list(r.scores),
                              "reason": r.reason},
        }

    def all_cards_view(self, s) -> dict:
        """Every card face up, for debugging alone (see Game.all_cards_view; never a
        seat's view): the spectator's view with both hands named, and under
        ``"all_cards"`` each Personal Deck, the Household Supply and the Nap Token
        stack, top first (NS-1, NS-4, NS-5)."""
        view = self.view(s, None)
        names = [c.name for c in self.cards]
        for p, player in enumerate(view["players"]):
            player["hand"] = [self.cards[c].view for c in s.hands[p]]
        view["all_cards"] = {
            **{f"seat {p}'s Personal Deck (top first)": [names[c] for c in reversed(s.decks[p])] for p in (0, 1)},
            "Household Supply (top first)": [names[c] for c in reversed(s.supply)],
            "Nap Token stack (top first)": [names[c] for c in reversed(s.naps)]}
        return view


def _cards(n: int) -> str:
    """ "1 card", "5 cards" for the log."""
    return f"{n} card" if n == 1 else f"{n} cards"
