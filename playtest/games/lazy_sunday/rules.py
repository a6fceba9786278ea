"""Lazy Sunday (rulebook seed 002, RULINGS LS-1..LS-11) on the playtest engine.

The state is plain lists and ints so that ``legal_moves``, ``apply`` and ``view`` stay
fast enough for bot simulations. Cards are ids 0..N-1 (the order of ``cards.toml``);
lists, the deck and the DONE pile hold ids, their last element is the top/end. What each
seat knows (LS-11) is one bitmask per card: bit ``s`` set means seat ``s`` knows where
that card is now. Public moves (swaps, trades, gifts) move a card without changing
who knows it, so only looking, discarding and reshuffling touch the masks (and a gift's
giver, who is shown the card it gives, LS-5). A list card's bit is set only if the
seat's view showed that card face-up (looked at, drawn, or on top of DONE): a bot
remembers nothing a person in its seat was not shown (tests/test_bot_information.py).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain
from operator import add
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from playtest.engine import BaseOptions, Event, Game, ISMCTSBot, Move, OptionError, Outcome, PlaytestError, RandomBot
from playtest.engine.rng import shuffle
from playtest.engine.search import margin_rewards
from playtest.games.variants import card_file, card_variant_field

from .bots import HeuristicBot

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

CARDS_FILE = Path(__file__).with_name("cards.toml")
LIST_SIZE = 6  # LS-3: cards dealt to each list
MAX_ROUNDS = 20
"""The most rounds option ``rounds`` may ask for (LS-10; the kit's range, RULINGS.md): a
round is 13 to 49 turns (2 to 6 seats, heuristic bots), so 20 rounds is an evening."""
_new = tuple.__new__  # Move(...) without the NamedTuple's Python-level __new__: move lists are the hot path
ACTIONS = ("busy", "double_check", "nosy", "trade", "switcheroo", "not_my_job", "landlord", "knock_out")


# --- the deck (LS-1, LS-2) ------------------------------------------------------------
class DeckError(PlaytestError, ValueError):
    """``cards.toml`` cannot be used; the message names the file and the bad entry."""


class CardSpec(BaseModel):
    """One ``[[card]]`` entry of ``cards.toml`` (LS-1, LS-2): ``name`` (str), ``effort``
    (int >= 0), ``kind`` ("chore" | "action"), ``count`` (int >= 0), ``action`` (the
    burn move kind, actions only) and ``text`` (str)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    effort: int = Field(ge=0)
    kind: Literal["chore", "action"]
    count: int = Field(ge=0)
    action: Literal[ACTIONS] | None = None
    text: str = ""

    @model_validator(mode="after")
    def _action_iff_action_kind(self):
        if (self.kind == "action") != (self.action is not None):
            raise ValueError("an action card needs `action` (one of " + ", ".join(ACTIONS)
                             + ") and a chore card must not have one")
        return self


@dataclass(frozen=True)
class Cards:
    """The deck expanded to card ids: per-id tuples ``names``, ``efforts``, ``kinds``,
    ``actions`` (burn move kind or None) and ``views`` (the view's card dict), plus the
    ``specs`` it came from. Two cards match (LS-5) when their names are equal."""

    specs: tuple[CardSpec, ...]
    names: tuple[str, ...]
    efforts: tuple[int, ...]
    kinds: tuple[str, ...]
    actions: tuple[str | None, ...]
    views: tuple[dict, ...]


def load_cards(path: str | os.PathLike = CARDS_FILE) -> Cards:
    """Read and validate a deck file (default: this package's ``cards.toml``; LS-1, LS-2).

    Cached per file version, so an edited file is read again by the next new game.

    Raises:
        DeckError: unreadable TOML, no ``[[card]]`` entries, a bad entry (the message
            gives the file, the entry's number and name, the field and the problem) or a
            card name used twice.
    """
    path = os.fspath(path)  # os.stat on the text: this runs for every new game
    return _parse_cards(path, os.stat(path).st_mtime_ns)


@cache
def _parse_cards(path: str, _mtime_ns: int) -> Cards:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{path}: not valid TOML: {exc}") from None
    entries = data.get("card")
    if not isinstance(entries, list) or not entries:
        raise DeckError(f"{path}: no [[card]] entries found")
    specs = []
    for number, entry in enumerate(entries, 1):
        try:
            specs.append(CardSpec.model_validate(entry))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors())
            name = entry.get("name", "?") if isinstance(entry, dict) else "?"
            raise DeckError(f"{path}: [[card]] #{number} ({name!r}): {problems}") from None
    seen = set()
    for number, spec in enumerate(specs, 1):
        if spec.name in seen:  # names are what a quick discard matches on (LS-5)
            raise DeckError(f"{path}: [[card]] #{number} ({spec.name!r}): the name is used twice")
        seen.add(spec.name)
    ids = [spec for spec in specs for _ in range(spec.count)]
    return Cards(
        specs=tuple(specs),
        names=tuple(c.name for c in ids),
        efforts=tuple(c.effort for c in ids),
        kinds=tuple(c.kind for c in ids),
        actions=tuple(c.action for c in ids),
        views=tuple({"name": c.name, "effort": c.effort, "kind": c.kind, "text": c.text} for c in ids),
    )


# --- state ------------------------------------------------------------------------------
class State:
    """The whole position of a Lazy Sunday match (plain data; see the module docstring).

    Attributes: ``rng`` (the G-3 stream), ``phase`` (peek | look | turn | drawn | give |
    round_over | over), ``round`` (1-based), ``start`` (this round's starting seat),
    ``turn`` (seat on turn, None in setup and between rounds), ``actor`` (the seat with
    the pending decision; in setup the first seat still peeking), ``deck`` / ``done`` /
    ``lists`` (card ids, top last), ``serial`` (cards put on DONE this round), ``drawn``
    (held card id or None), ``looking`` ([[seat, pos], ...] the actor looks at; in
    setup, the spots every seat that has peeked looks at, each its own), ``known`` (per card: bitmask of
    seats knowing where it is), ``caller``, ``final_turns`` (seats still owed a final
    turn after the current one), ``skip_next`` (I'm Busy pending), ``give`` ([claimer,
    to, pos] or None), ``resume`` (phase to return to after a give), ``shown`` ([giver,
    [[to, pos]]] right after a give, until the next move but a late claim: the card the
    giver is shown as it gives it, LS-5; else None), ``peekers`` (seats
    still peeking in setup, all deciding at once, LS-3), ``scores``, ``round_scores``, ``turns`` (G-4 count),
    ``outcome``.
    """

    __slots__ = ("rng", "phase", "round", "start", "turn", "actor", "deck", "done", "serial", "lists",
                 "drawn", "looking", "known", "caller", "final_turns", "skip_next", "give", "resume",
                 "shown", "peekers", "scores", "round_scores", "turns", "outcome", "setup_events")
    _DUMPED = __slots__[1:-2]

    def dump(self) -> dict:
        """The complete state (without the rng, which the fingerprint adds) as JSON data."""
        data = {name: getattr(self, name) for name in self._DUMPED}
        o = self.outcome
        data["outcome"] = o and {"finished": o.finished, "winners": list(o.winners), "scores": list(o.scores),
                                 "reason": o.reason}
        return data

    @property
    def seen(self) -> list[set[int]]:
        """Per seat, the set of card ids whose current place that seat knows (LS-11)."""
        return [{c for c, mask in enumerate(self.known) if mask >> s & 1} for s in range(len(self.lists))]


# --- move lists that depend only on a seat and a list length (moves are immutable values) --
@cache
def _peeks(seat: int, k: int) -> tuple[Move, ...]:
    """The peek moves of ``seat`` with a list of ``k`` cards (LS-3): positions a < b."""
    return tuple(Move(seat, "peek", (a, b)) for a in range(k) for b in range(a + 1, k))


@cache
def _positions(seat: int, kind: str, k: int) -> tuple[Move, ...]:
    """``take`` or ``keep`` at each of ``k`` positions, or its empty-list form (LS-4)."""
    return tuple(Move(seat, kind, (p,)) for p in range(k)) if k else (Move(seat, kind),)


@cache
def _look_moves(seat: int, can_swap: bool) -> tuple[Move, ...]:
    """Done looking, and the swap only Not My Job allows (LS-2, LS-3)."""
    return (Move(seat, "done"), Move(seat, "swap")) if can_swap else (Move(seat, "done"),)


@cache
def _turn_moves(seat: int, can_draw: bool, takes: int | None, can_call: bool) -> tuple[Move, ...]:
    """A turn's moves (LS-4, LS-6, LS-7): draw if something can be drawn, take into each
    of ``takes`` positions while DONE has a card (None: it has none), NOT ME! while
    nobody has called; pass when none of these is possible."""
    moves = (Move(seat, "draw"),) if can_draw else ()
    if takes is not None:
        moves += _positions(seat, "take", takes)
    if can_call:
        moves += (Move(seat, "notme"),)
    return moves or (Move(seat, "pass"),)


@cache
def _keep_or_discard(seat: int, k: int) -> tuple[Move, ...]:
    """A drawn card's keep moves into a list of ``k`` cards, then its discard (LS-4)."""
    return (*_positions(seat, "keep", k), Move(seat, "discard"))


@lru_cache(maxsize=8192)
def _claims(seat: int, t: int, k: int, serial: int) -> tuple[Move, ...]:
    """``seat``'s claims (LS-5) on each of the ``k`` positions of seat ``t``'s list, on
    the DONE top of ``serial``: a bot that remembers a match reads them all, and serials
    run alike from game to game."""
    return tuple(_new(Move, (seat, "claim", (t, p, serial))) for p in range(k))


@cache
def _aimed(seat: int, action: str, lead: tuple, t: int, k: int) -> tuple[Move, ...]:
    """``seat``'s ``action`` moves aimed at each of the ``k`` positions ``q`` of seat
    ``t``, with the arguments ``(*lead, t, q)``: the pieces the many-target burns are
    put together from, so that a new combination of list sizes costs no new moves."""
    return tuple(_new(Move, (seat, action, (*lead, t, q))) for q in range(k))


@lru_cache(maxsize=4096)
def _burns(seat: int, action: str, caller: int | None, sizes: tuple[int, ...], can_draw: bool) -> tuple[Move, ...]:
    """The legal burns of ``action`` by ``seat`` (LS-2, LS-8) when the lists have
    ``sizes`` cards, ``caller`` called NOT ME! (its list is locked, LS-7) and
    ``can_draw`` says whether the deck or DONE has a card (Landlord's Notice)."""
    own = range(sizes[seat])
    others = [t for t in range(len(sizes)) if t != seat and t != caller]
    if action == "busy":
        return (_new(Move, (seat, action, ())),)
    if action in ("double_check", "knock_out"):
        return tuple(_new(Move, (seat, action, (p,))) for p in own)
    if action == "landlord":
        # after this card lands on DONE, a non-empty DONE can always refill the deck (LS-6)
        return tuple(_new(Move, (seat, action, (t,))) for t in range(len(sizes)) if t != caller) if can_draw else ()
    if action == "nosy":  # (t, p)
        parts = [_aimed(seat, action, (), t, sizes[t]) for t in others]
    elif action == "trade":  # (p, t, q)
        parts = [_aimed(seat, action, (p,), t, sizes[t]) for p in own for t in others]
    else:  # switcheroo, not_my_job: (t, p, u, q), two other players, the lower seat first
        parts = [_aimed(seat, action, (t, p), u, sizes[u]) for i, t in enumerate(others) for u in others[i + 1:]
                 for p in range(sizes[t])]
    return tuple(chain.from_iterable(parts))


# --- the game ---------------------------------------------------------------------------
_CLAIM_PHASES = ("turn", "drawn")       # LS-5: never in setup, action resolution or a give
_REVEAL_PHASES = ("round_over", "over")  # LS-7: lists are revealed once the round is scored
_PHASE_KINDS = {
    "peek": ("peek",), "look": ("done", "swap"), "turn": ("draw", "take", "notme", "pass"),
    "drawn": ("keep", "discard", *ACTIONS), "give": ("give",), "round_over": ("deal",),
}
_DOING = {"peek": "peek", "done": "stop looking", "draw": "draw", "take": "take the DONE card",  # for refusals
          "notme": "call NOT ME!", "pass": "pass", "keep": "keep a card", "discard": "discard a card",
          "swap": "swap cards", "give": "give a card", "deal": "deal", **{a: "burn an action card" for a in ACTIONS}}
_KIND_RULING = {"peek": "LS-3", "done": "LS-3", "draw": "LS-4", "take": "LS-4", "notme": "LS-7",
                "pass": "LS-6", "keep": "LS-4", "discard": "LS-4", "swap": "LS-2", "claim": "LS-5",
                "give": "LS-5", "deal": "LS-3", **{a: "LS-2" for a in ACTIONS}}


class LazySunday(Game):
    """Lazy Sunday for 2..7 seats (RULINGS LS-1..LS-11, G-1..G-4).

    Args:
        seats: 2..7. options: see :class:`LazySunday.Options`.

    Raises:
        OptionError: a bad seat count or option (see :class:`Game`).
        DeckError: ``cards.toml`` is invalid or has fewer than 6 cards per seat + 1.

    Moves are listed in ``MOVE_ARGS``; ``claim`` (the quick discard) is an open move.
    """

    name = "lazy_sunday"
    title = "Lazy Sunday"
    min_seats, max_seats = 2, 7
    OPEN_MOVES = frozenset({"claim"})
    VIEW_WORDS = {
        "lists.*": "seat {0}'s list", "lists.*.*": "seat {0}'s position {1}", "deck": "cards in the deck",
        "done.top": "DONE's top card", "done.size": "cards on DONE", "done.serial": "DONE serial (LS-5)",
        "drawn": "the drawn card", "drawn.card": "the drawn card", "looking": "cards looked at (LS-11)",
        "caller": "NOT ME! caller (LS-7)", "final_turns": "seats owed a final turn (LS-7)",
        "skip_next": "I'm Busy pending (LS-2)", "claims_open": "claims open (LS-5)", "give": "card to give (LS-5)",
        "scores.*": "seat {0}'s effort",
        "start": "starting seat", "turns": "turns played"}
    BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "ismcts": ISMCTSBot}  # weakest first
    SEARCH_ITERATIONS = 800  # ismcts playouts at 2 seats, fewer at more (see __init__)
    SEARCH_FLAT = True  # ismcts: heuristic playouts from each move, common samples (see playtest.engine.search)
    SETUP = {  # a pinned deal (scenarios); who starts round 1 is the option first_player (G-2)
        "lists": "one list of card names per seat, in position order, 2 or more cards each (LS-3)",
        "done": "the DONE pile, bottom first (its last card is the top), 1 or more cards",
        "deck_top": "the next cards drawn, top first; the rest of the deck stays in seeded order",
        "round": "the round being dealt, 1 or more (at most option rounds, without match_to, LS-10); "
                 "round r starts r-1 seats to the left of first_player (LS-3)",
        "round_scores": "the scores of the earlier rounds: one list of one whole number 0+ per seat per "
                        "round, oldest first (a caller at 0 or 50 in each, LS-9); default all 0",
        "scores": "one whole number 0+ per seat: the cumulative scores before this round, the sums of "
                  "round_scores (LS-10; with great_escape 100 resets to 50; with match_to none above 100)",
        "peeks_done": "true: the setup peeks are over (LS-3) and the round's starting seat takes its "
                      "turn; each seat remembers only what memory says",
        "caller": "the seat that has just called NOT ME! at the start of its turn (LS-7): the next seat "
                  "takes its final turn now, the others after it (the peeks are over)",
        "memory": "one list per seat: the [seat, position] spots whose card it remembers (LS-11), e.g. "
                  "[[0, 0], [0, 1]] for the first two of its own list; the DONE pile is known to all",
    }
    PRESETS = {  # the rulebook's optional rules (LS-10)
        "one round": {}, "match to 100": {"match_to": 100},
        "match to 100, Great Escape": {"match_to": 100, "great_escape": True},
    }
    MOVE_ARGS = {
        "peek": ("a", "b"), "done": (), "draw": (), "take": ("p",), "notme": (), "pass": (),
        "keep": ("p",), "discard": (), "busy": (), "double_check": ("p",), "nosy": ("s", "p"),
        "trade": ("p", "s", "q"), "switcheroo": ("s", "p", "t", "q"), "not_my_job": ("s", "p", "t", "q"),
        "swap": (), "landlord": ("s",), "knock_out": ("p",), "claim": ("s", "p", "serial"),
        "give": ("p",), "deal": (),
    }

    class Options(BaseOptions):
        """G-2/G-4 options plus LS-10's match options; ``rounds`` is 1 to :data:`MAX_ROUNDS`
        (LS-10, the kit's range: see RULINGS.md)."""

        rounds: int = Field(1, ge=1, le=MAX_ROUNDS, description=f"LS-10: number of rounds, 1 to {MAX_ROUNDS}, "
                                                                "when match_to is not set")
        match_to: Literal[100] | None = Field(
            None, description="LS-10: play rounds until a cumulative score is above 100 (None: use rounds)")
        great_escape: bool = Field(False, description="LS-10: a cumulative score of exactly 100 resets to 50")
        card_variant: str | None = card_variant_field("LS-1")   # LS-1, LS-2 (playtest.games.variants)

    def __init__(self, seats, options=None):
        super().__init__(seats, options)
        path = card_file(self.name, self.options.card_variant, CARDS_FILE)
        self.cards = load_cards(path)
        if len(self.cards.names) < LIST_SIZE * seats + 1:
            raise DeckError(f"{path}: {len(self.cards.names)} cards cannot deal {LIST_SIZE} to each of "
                            f"{seats} seats plus the first DONE card (LS-3)")
        self.everyone = (1 << seats) - 1
        # ismcts: a playout costs about seats ** 1.5 as much, so about 0.25 s a decision
        # (at most 0.75) at any table (benchmarks/bench_bots.py)
        self.SEARCH_ITERATIONS = round(type(self).SEARCH_ITERATIONS * (2 / seats) ** 1.5)
        # per seat, a copy of the list leaders() last summed and its effort
        self._summed_lists, self._summed_efforts = [None] * seats, [0] * seats
        self._led_totals, self._leaders = None, ()  # the totals leaders() last saw, and its answer
        cls = type(self)
        if "_DISPATCH" not in cls.__dict__:  # phase -> its move lister, kind -> its applier (a subclass's own)
            cls._DISPATCH = ({phase: getattr(cls, "_moves_" + phase) for phase in _PHASE_KINDS},
                             {kind: getattr(cls, "_do_" + kind) for kind in cls.MOVE_ARGS})

    # --- setup (LS-3) ---------------------------------------------------------------
    def new_state(self, rng):
        """Deal round 1 from ``rng`` (G-3); round 1 starts with ``first_player`` (G-2, LS-3)."""
        s = State()
        s.rng = rng
        s.start = self.first_seat(rng)
        s.round, s.turns, s.outcome = 1, 0, None
        s.scores, s.round_scores = [0] * self.seats, []
        s.setup_events = self._deal(s)
        return s

    def _deal(self, s: State) -> list[Event]:
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
        from playtest.engine.pinning import (card_names, check_keys, numbers_per_seat, per_seat, pin_piles,
                                                whole_number)
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
        self._pin_match(s, setup, whole_number, numbers_per_seat)
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
            self._pin_memory(s, setup["memory"])
        if s.round_scores:
            events.append(Event(f"Earlier rounds (pinned): {s.round_scores}; cumulative scores {s.scores}."))
        s.setup_events = events

    def _pin_match(self, s, setup, whole_number, numbers_per_seat) -> None:
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
        rows = self._pin_round_scores(setup["round_scores"], numbers_per_seat) if "round_scores" in setup else None
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

    def _pin_round_scores(self, value, numbers_per_seat) -> list[list[int]]:
        """``setup["round_scores"]`` checked: one list per earlier round of one whole
        number 0+ per seat, each with a seat that scored 0 or 50 (the caller, LS-9).

        Raises:
            OptionError: not a list of lists of whole numbers, or a round with no caller.
        """
        from playtest.engine.errors import short_repr
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
        from playtest.engine.errors import short_repr
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

    # --- contract ---------------------------------------------------------------------
    def to_act(self, s):
        """In setup every seat still peeking, at once (LS-3: each player peeks at 2 of
        their own cards; nobody waits for another), else ``(actor,)``; ``()`` once the
        match is over."""
        if s.phase == "peek":
            return tuple(s.peekers)
        return () if s.phase == "over" else (s.actor,)

    def round_break(self, s) -> bool:
        """The round is scored and its lists revealed (LS-7/LS-9), the next one not yet
        dealt: a live table waits here until every player has seen the reveal."""
        return s.phase == "round_over"

    def outcome(self, s):
        """The match's Outcome (LS-10, or unfinished per G-4), None while it goes on."""
        return s.outcome

    def legal_moves(self, s, seat):
        """The moves of ``seat`` now: its decision's moves (if it is the actor), then its
        current-serial claims (LS-5). Deterministic order, no duplicates."""
        return self.decision_moves(s, seat) + self.open_moves(s, seat)

    def decision_moves(self, s, seat):
        """The moves of ``seat``'s pending decision (empty unless it is the actor, or in
        setup a seat still peeking: its peek, then 'done' once it looks, LS-3)."""
        if s.phase == "peek":
            if seat not in s.peekers:
                return []
            return self._moves_look(s, seat) if self._peeked(s, seat) else self._moves_peek(s, seat)
        if seat != s.actor or s.phase == "over":
            return []
        return self._DISPATCH[0][s.phase](self, s, seat)

    @staticmethod
    def _peeked(s, seat) -> bool:
        """In setup: ``seat`` has peeked and still looks at its two cards (LS-3)."""
        return any(t == seat for t, _ in s.looking)

    def open_moves(self, s, seat):
        """``seat``'s claims on the current DONE top (LS-5): one per card it may claim."""
        moves = []
        if s.phase in _CLAIM_PHASES and s.done:
            lists, serial, caller = s.lists, s.serial, s.caller
            mine = lists[seat]
            for t, lst in enumerate(lists):
                # another's card needs a card to give back; the caller's list is locked (LS-5, LS-7)
                if lst and (t == seat or (mine and t != caller)):
                    moves += _claims(seat, t, len(lst), serial)
        return moves

    def _moves_peek(self, s, seat):
        return list(_peeks(seat, len(s.lists[seat])))

    def _moves_look(self, s, seat):
        return list(_look_moves(seat, self._can_swap(s)))

    def _moves_turn(self, s, seat):
        done = s.done  # something can be drawn, counting the LS-6 reshuffle of DONE under its top
        return list(_turn_moves(seat, bool(s.deck) or len(done) > 1, len(s.lists[seat]) if done else None,
                                s.caller is None))

    def _moves_drawn(self, s, seat):
        moves = list(_keep_or_discard(seat, len(s.lists[seat])))
        action = self.cards.actions[s.drawn]
        if action:
            moves += _burns(seat, action, s.caller, tuple(map(len, s.lists)), bool(s.deck or s.done))
        return moves

    def _moves_give(self, s, seat):
        return [_new(Move, (seat, "give", (p,))) for p in range(len(s.lists[seat]))]

    def _moves_round_over(self, s, seat):
        return [Move(seat, "deal")]

    def is_legal(self, s, move, legal):
        """``move in legal``, plus late claims (LS-5): while claims are open, a claim naming
        an older DONE top is returned with no penalty, even if the card it named has moved
        since (the player slapped it when it was there)."""
        if move in legal:
            return True
        if move.kind != "claim" or len(move.args) != 3 or s.phase not in _CLAIM_PHASES:
            return False
        t, p, serial = move.args
        return (all(type(x) is int for x in move.args) and 0 <= t < self.seats and p >= 0
                and 1 <= serial < s.serial)

    # --- applying moves -------------------------------------------------------------
    def apply(self, s, move):
        """Apply a legal ``move``; returns its log events (public text never names a
        face-down card, not even to the seat that saw it: LS-11, memory is the game)."""
        if s.shown is not None:  # LS-5: the giver sees the card it gave only as it gives it,
            args = move.args     # though a late claim, returned, changes nothing at all
            if not (move.kind == "claim" and args[2] < s.serial):
                s.shown = None
        return self._DISPATCH[1][move.kind](self, s, move.seat, *move.args)

    def _label(self, card: int) -> str:
        return f"{self.cards.names[card]} ({self.cards.efforts[card]})"

    def _can_swap(self, s) -> bool:
        # only Not My Job looks at two cards during a turn (setup peeks have turn None)
        return s.turn is not None and len(s.looking) == 2

    def _draw_card(self, s, events) -> int | None:
        """Pop the top deck card; reshuffle DONE except its top first if the deck is empty
        (LS-6); None if nothing can be drawn. Reshuffled cards are forgotten (LS-11)."""
        if not s.deck:
            if len(s.done) < 2:
                return None
            s.deck = s.done[:-1]
            del s.done[:-1]
            shuffle(s.rng, s.deck)
            for card in s.deck:
                s.known[card] = 0
            events.append(Event(f"The deck ran out: the DONE pile under its top is shuffled into a new deck "
                                f"of {len(s.deck)} (LS-6)."))
        return s.deck.pop()

    def _put_done(self, s, card) -> None:
        """Card face-up onto DONE: known to all, and a new serial (LS-5)."""
        s.done.append(card)
        s.serial += 1
        s.known[card] = self.everyone

    def _look(self, s, seat, spots: list[list[int]]) -> None:
        """``seat`` looks at ``spots`` ([[seat, pos], ...], kept as the state's ``looking``)."""
        for t, p in spots:
            s.known[s.lists[t][p]] |= 1 << seat
        s.looking = spots
        s.phase = "look"

    def _end_turn(self, s, events) -> list[Event]:
        """Pass the turn on: I'm Busy skips the next turn (LS-2), final turns follow a
        call and then the round is scored (LS-7); G-4 stops the match at max_turns."""
        s.turns += 1
        s.drawn, s.looking = None, []
        if s.turns >= self.options.max_turns:
            s.phase, s.turn = "over", None
            s.outcome = Outcome(False, (), tuple(s.scores), f"stopped unfinished after {s.turns} turns (G-4 max_turns)")
            events.append(Event(s.outcome.reason[0].upper() + s.outcome.reason[1:] + "."))
            return events
        if s.caller is None:
            nxt = (s.turn + 1) % self.seats
            if s.skip_next:
                events.append(Event(f"Seat {nxt} is skipped (I'm Busy)."))
                nxt = (nxt + 1) % self.seats
        else:
            if s.skip_next and s.final_turns:
                events.append(Event(f"Seat {s.final_turns.pop(0)} loses its final turn (I'm Busy, LS-7)."))
            if not s.final_turns:
                return self._score(s, events)
            nxt = s.final_turns.pop(0)
        s.skip_next = False
        s.turn = s.actor = nxt
        s.phase = "turn"
        return events

    def _score(self, s, events) -> list[Event]:
        """Reveal and score the round (LS-9); end the match per LS-10."""
        effort = self.cards.efforts.__getitem__
        totals = [sum(map(effort, lst)) for lst in s.lists]
        c = s.caller
        lowest = totals[c] <= min(totals)  # ties go to the caller
        scores = list(totals)
        scores[c] = 0 if lowest else 50
        s.round_scores.append(scores)
        for seat, points in enumerate(scores):
            s.scores[seat] += points
            if self.options.great_escape and s.scores[seat] == 100:
                s.scores[seat] = 50
        if self.keep_log:
            events.append(Event(f"Round {s.round} scored: totals {totals}; seat {c} called NOT ME! and "
                                f"{'was lowest: 0' if lowest else 'was beaten: 50'}; round scores {scores}, "
                                f"cumulative {s.scores}."))
        s.turn = None
        over = max(s.scores) > 100 if self.options.match_to else s.round >= self.options.rounds
        if not over:
            s.phase, s.actor = "round_over", (s.start + 1) % self.seats
            return events
        best = min(s.scores)
        winners = tuple(seat for seat, x in enumerate(s.scores) if x == best)
        reason = (f"seat{'s' if len(winners) > 1 else ''} {', '.join(map(str, winners))} "
                  f"{'share' if len(winners) > 1 else 'has'} the lowest match score ({best}) after {s.round} "
                  f"round{'s' if s.round > 1 else ''}")
        s.phase, s.outcome = "over", Outcome(True, winners, tuple(s.scores), reason)
        events.append(Event(f"Match over: {reason}."))
        return events

    def _do_peek(self, s, seat, a, b):
        # LS-3: every seat peeks at once; each looks at its own two cards until its 'done'
        for p in (a, b):
            s.known[s.lists[seat][p]] |= 1 << seat
        s.looking = s.looking + [[seat, a], [seat, b]]
        # LS-11: the log never names a face-down card, the looker's own included (memory
        # is the game); the cards show on the table while the seat looks
        return [Event(f"Seat {seat} peeks at positions {a} and {b}.")] if self.keep_log else []

    def _do_done(self, s, seat):
        if s.turn is not None:
            return self._end_turn(s, [Event(f"Seat {seat} is done looking.")] if self.keep_log else [])
        s.looking = [spot for spot in s.looking if spot[0] != seat]
        s.peekers = [t for t in s.peekers if t != seat]
        if s.peekers:
            s.actor = s.peekers[0]
        else:
            s.phase, s.turn, s.actor = "turn", s.start, s.start
        return [Event(f"Seat {seat} is done peeking.")] if self.keep_log else []

    def _do_draw(self, s, seat):
        events = []
        s.drawn = card = self._draw_card(s, events)
        s.known[card] = 1 << seat
        s.phase = "drawn"
        if self.keep_log:
            events.append(Event(f"Seat {seat} draws a card."))  # shown to the drawer while held (LS-11)
        return events

    def _do_take(self, s, seat, p=None):
        card = s.done.pop()
        lst = s.lists[seat]
        if p is None:  # LS-4: an empty list simply gains the card
            lst.append(card)
            s.serial += 1  # the DONE top changed, so claims on the old top are late (LS-5)
            if self.keep_log:
                text = f"Seat {seat} takes {self._label(card)} from DONE into its empty list."
        else:
            old, lst[p] = lst[p], card
            self._put_done(s, old)
            if self.keep_log:
                text = f"Seat {seat} takes {self._label(card)} from DONE into position {p}, discarding {self._label(old)}."
        return self._end_turn(s, [Event(text)] if self.keep_log else [])

    def _do_notme(self, s, seat):
        s.caller = seat
        s.final_turns = [(seat + i) % self.seats for i in range(1, self.seats)]
        return self._end_turn(s, [Event(f"Seat {seat} calls NOT ME! Everyone else gets one final turn.")]
                              if self.keep_log else [])

    def _do_pass(self, s, seat):
        return self._end_turn(s, [Event(f"Seat {seat} can neither draw, take nor call, and passes.")]
                              if self.keep_log else [])

    def _do_keep(self, s, seat, p=None):
        lst = s.lists[seat]
        if p is None:
            lst.append(s.drawn)
            text = f"Seat {seat} keeps the drawn card in its empty list."
        else:
            old, lst[p] = lst[p], s.drawn
            self._put_done(s, old)
            if self.keep_log:
                text = f"Seat {seat} keeps the drawn card at position {p}, discarding {self._label(old)}."
        return self._end_turn(s, [Event(text)] if self.keep_log else [])

    def _do_discard(self, s, seat):
        self._put_done(s, s.drawn)
        return self._end_turn(s, [Event(f"Seat {seat} discards {self._label(s.drawn)}.")] if self.keep_log else [])

    def _burn(self, s, seat, what: str) -> list[Event]:
        """The drawn action card goes onto DONE before its action (LS-2)."""
        card = s.drawn
        self._put_done(s, card)
        s.drawn = None
        return [Event(f"Seat {seat} burns {self._label(card)}: {what}.")] if self.keep_log else []

    def _do_busy(self, s, seat):
        s.skip_next = True
        return self._end_turn(s, self._burn(s, seat, "the next player who would take a turn skips it"))

    def _do_double_check(self, s, seat, p):
        events = self._burn(s, seat, f"looks at own position {p}")
        self._look(s, seat, [[seat, p]])
        return events

    def _do_nosy(self, s, seat, t, p):
        events = self._burn(s, seat, f"looks at seat {t}'s position {p}")
        self._look(s, seat, [[t, p]])
        return events

    def _do_trade(self, s, seat, p, t, q):
        events = self._burn(s, seat, f"swaps own position {p} with seat {t}'s position {q}, unseen")
        a, b = s.lists[seat], s.lists[t]
        a[p], b[q] = b[q], a[p]
        return self._end_turn(s, events)

    def _do_switcheroo(self, s, seat, t, p, u, q):
        events = self._burn(s, seat, f"swaps seat {t}'s position {p} with seat {u}'s position {q}, unseen")
        a, b = s.lists[t], s.lists[u]
        a[p], b[q] = b[q], a[p]
        return self._end_turn(s, events)

    def _do_not_my_job(self, s, seat, t, p, u, q):
        events = self._burn(s, seat, f"looks at seat {t}'s position {p} and seat {u}'s position {q}")
        self._look(s, seat, [[t, p], [u, q]])
        return events

    def _do_swap(self, s, seat):
        (t, p), (u, q) = s.looking
        a, b = s.lists[t], s.lists[u]
        a[p], b[q] = b[q], a[p]
        return self._end_turn(s, [Event(f"Seat {seat} swaps seat {t}'s position {p} with seat {u}'s position {q}.")]
                              if self.keep_log else [])

    def _do_landlord(self, s, seat, t):
        events = self._burn(s, seat, f"seat {t} adds the top deck card to its list, unseen")
        s.lists[t].append(self._draw_card(s, events))
        return self._end_turn(s, events)

    def _do_knock_out(self, s, seat, p):
        events = self._burn(s, seat, f"knocks out own position {p}")
        card = s.lists[seat].pop(p)
        self._put_done(s, card)
        if self.keep_log:
            events.append(Event(f"Seat {seat} discards {self._label(card)} from its list (Knock It Out)."))
        return self._end_turn(s, events)

    def _do_claim(self, s, seat, t, p, serial):
        if serial < s.serial:
            return [Event(f"Seat {seat}'s claim on seat {t}'s position {p} came too late: returned, no penalty (LS-5).")]
        lst, top = s.lists[t], s.done[-1]
        whose = "its own" if t == seat else f"seat {t}'s"
        if self.cards.names[lst[p]] == self.cards.names[top]:
            card = lst.pop(p)
            self._put_done(s, card)
            if t != seat:  # LS-5: the claimer fills the gap with one of its own cards
                s.give, s.resume = [seat, t, p], s.phase
                s.phase, s.actor = "give", seat
            return [Event(f"Done it! Seat {seat} quick-discards {whose} position {p}: {self._label(card)}.")]
        events = [Event(f"Seat {seat} claims {whose} position {p} matches {self._label(top)}: wrong, "
                        f"the card stays and seat {seat} takes a penalty card.")]
        card = self._draw_card(s, events)
        if card is not None:  # LS-6: no penalty when nothing can be drawn
            s.lists[seat].append(card)
        return events

    def _do_give(self, s, seat, p):
        card = s.lists[seat].pop(p)
        _, t, gap = s.give
        s.lists[t].insert(gap, card)
        # LS-5: the giver is shown the card as it gives it (its view, until the next move),
        # so it remembers it; the receiver is not
        s.shown = [seat, [[t, gap]]]
        s.known[card] |= 1 << seat
        s.give, s.phase, s.resume, s.actor = None, s.resume, None, s.turn
        if not self.keep_log:
            return []
        text = f"Seat {seat} gives its position {p} to seat {t}, face-down, into position {gap}"
        # the giver's line says it was shown the card, never its name (LS-11: memory is the game)
        return [Event(f"{text}.", {seat: f"{text}, and is shown the card as it gives it (LS-5)."})]

    def _do_deal(self, s, seat):
        s.round += 1
        s.start = (s.start + 1) % self.seats  # LS-3: one seat to the left of the last start
        return self._deal(s)

    # --- views --------------------------------------------------------------------------
    def view(self, s, seat):
        """What ``seat`` may see (None: spectator), as the JSON dict of the agreed contract.

        Face-down cards show only to a seat looking at them now, or to all once the round
        is scored (LS-11): ``looking`` lists them ([[seat, pos], ...]); right after a give,
        the giver looks at the card it gave (LS-5). The drawn card shows only to the
        drawer; no card id ever appears. ``start`` is the round's starting seat (LS-3)
        and ``turns`` the turns played (G-4), both public.
        """
        reveal = s.phase in _REVEAL_PHASES
        if s.phase == "peek":  # setup (LS-3): each seat sees the two cards it peeks at
            looking = [spot for spot in s.looking if spot[0] == seat]
        else:
            looking = s.looking if seat is not None and seat == s.actor else ()
        shown = s.shown
        if shown is not None and seat == shown[0]:
            looking = shown[1]  # a give returns to a turn, where nobody is looking at anything else
        if reveal:
            lists = [[self._slot(c, False) for c in lst] for lst in s.lists]
        else:
            lists = [[{"face_up": False} for _ in lst] for lst in s.lists]
            for t, p in looking:
                lists[t][p] = self._slot(s.lists[t][p], True)
        drawn = self._drawn_view(s, seat)
        o = s.outcome
        return {
            "game": self.name, "seats": self.seats, "viewer": seat, "phase": s.phase, "round": s.round,
            "start": s.start, "turns": s.turns, "turn_seat": s.turn, "to_act": list(self.to_act(s)),
            "deck": len(s.deck), "done": self._done_view(s),
            "lists": lists, "drawn": drawn, "looking": [list(spot) for spot in looking],
            "caller": s.caller, "final_turns": list(s.final_turns), "skip_next": s.skip_next,
            "claims_open": s.phase in _CLAIM_PHASES and bool(s.done),
            "give": s.give and {"seat": s.give[0], "to": s.give[1], "pos": s.give[2]},
            "scores": list(s.scores), "round_scores": [list(r) for r in s.round_scores],
            "outcome": o and {"finished": o.finished, "winners": list(o.winners), "scores": list(o.scores),
                              "reason": o.reason},
        }

    def all_cards_view(self, s):
        """Every card face up, for debugging alone (see Game.all_cards_view; never a
        seat's view): the spectator's view with every list position named (LS-3), the
        drawn card named (LS-4), and under ``"all_cards"`` the deck and the DONE pile,
        top first (LS-6)."""
        view = self.view(s, None)
        view["lists"] = [[self._slot(c, False) for c in lst] for lst in s.lists]
        if s.drawn is not None:
            view["drawn"] = {"seat": s.turn, "card": dict(self.cards.views[s.drawn])}
        names = self.cards.names
        view["all_cards"] = {"deck (top first)": [names[c] for c in reversed(s.deck)],
                             "DONE pile (top first)": [names[c] for c in reversed(s.done)]}
        return view

    def _slot(self, card, looking):
        return {"face_up": True, "name": self.cards.names[card], "effort": self.cards.efforts[card],
                "kind": self.cards.kinds[card], "looking": looking}

    def _drawn_view(self, s, seat) -> dict | None:
        if s.drawn is None:
            return None
        return {"seat": s.turn, "card": dict(self.cards.views[s.drawn]) if seat == s.turn else None}

    def _done_view(self, s) -> dict:
        return {"top": dict(self.cards.views[s.done[-1]]) if s.done else None, "size": len(s.done),
                "serial": s.serial}

    def _memory(self, s, seat) -> list[list[str | None]]:
        names, known, bit = self.cards.names, s.known, 1 << seat
        memory = []
        for lst in s.lists:  # plain loops: built for every bot before every move, where nested
            row = []         # comprehensions (a function call per list) cost a third more
            for c in lst:
                row.append(names[c] if known[c] & bit else None)
            memory.append(row)
        return memory

    def _seen_by(self, s) -> list[list[list[int]]]:
        known, seats = s.known, range(self.seats)
        return [[[t for t in seats if known[c] >> t & 1] for c in lst] for lst in s.lists]

    def bot_view(self, s, seat):
        """:meth:`view` plus ``"memory"``: per seat, per position, the card name ``seat``
        remembers there or None (LS-11); and ``"seen_by"``: per seat, per position, the
        seats that remember the card there. ``seen_by`` is the same for every seat and
        public: the log names every spot a seat peeks or looks at (LS-3, LS-2), keeps or
        takes into (LS-4), gives into (LS-5) or swaps (LS-2), a person can keep that
        record, and a bot is shown it (LS-11). For bots only, never for a browser."""
        view = self.view(s, seat)
        view["memory"] = self._memory(s, seat)
        view["seen_by"] = self._seen_by(s)
        return view

    def bot_glance(self, s, seat):
        """The keys of :meth:`bot_view` that the claim question (LS-5), asked of every
        bot before every move, reads: the scalars ``viewer``, ``phase``, ``seats`` and
        ``claims_open``, and while claims are open ``done`` and ``memory`` (closed, the
        question ends at ``claims_open``, so the memory is not built for it), plus, for
        the seat on turn, ``drawn``, all a turn's decision reads besides (so the whole
        view is rarely built), and the memory of the seat that must give a card (LS-5)."""
        if s.phase in _CLAIM_PHASES and s.done:
            glance = {"viewer": seat, "phase": s.phase, "seats": self.seats, "claims_open": True,
                      "done": self._done_view(s), "memory": self._memory(s, seat)}
            if seat == s.turn:
                glance["drawn"] = self._drawn_view(s, seat)
            return glance
        glance = {"viewer": seat, "phase": s.phase, "seats": self.seats, "claims_open": False}
        if s.phase == "give" and seat == s.actor:
            glance["memory"] = self._memory(s, seat)
        return glance

    # --- search hooks (see Game.copy_state, Game.determinizer) ---------------------------
    def copy_state(self, s):
        """A copy of ``s`` to play on (its lists copied, its random stream shared): plain
        list copies, for the search bot's iterations."""
        c = State()
        c.rng, c.phase, c.round, c.start, c.turn, c.actor = s.rng, s.phase, s.round, s.start, s.turn, s.actor
        c.deck, c.done, c.serial, c.lists = s.deck[:], s.done[:], s.serial, [lst[:] for lst in s.lists]
        c.drawn, c.looking, c.known, c.caller = s.drawn, s.looking, s.known[:], s.caller
        # looking, give and shown are replaced by the rules, never changed in place: shared
        c.final_turns, c.skip_next, c.give, c.resume, c.shown = s.final_turns[:], s.skip_next, s.give, s.resume, s.shown
        c.peekers, c.scores, c.round_scores = s.peekers[:], s.scores[:], s.round_scores[:]
        c.turns, c.outcome, c.setup_events = s.turns, s.outcome, []
        return c

    SEARCH_PLAYOUT_MOVES = None  # ismcts: playouts to the end (a round is short); see evaluate
    EVAL_SCALE = 5.0

    def evaluate(self, s):
        """Each seat's chance to win as the search bot judges a position (see
        Game.evaluate): its total so far, cumulative score plus the effort of its list
        now (:meth:`scores`; LS-9, LS-10: lowest wins), negated, through
        :func:`~playtest.engine.search.margin_rewards` (scale ``EVAL_SCALE`` effort)."""
        return margin_rewards([-total for total in self.scores(s)], self.EVAL_SCALE)

    def search_open_move(self, s, rng):
        """The quick discard (LS-5) a simulated seat makes now: a card of a list, other than
        the caller's (LS-7) unless it is its own, that the seat knows (its ``known`` bit)
        to match the DONE top, its own cards first, as the heuristic bot claims. Several
        seats know one: ``rng`` picks who taps first. None if nobody knows a match."""
        if s.phase not in _CLAIM_PHASES or not s.done:
            return None
        names, known, lists, caller = self.cards.names, s.known, s.lists, s.caller
        top = names[s.done[-1]]
        spots = {}
        for t, lst in enumerate(lists):
            for p, card in enumerate(lst):
                mask = known[card]
                if mask and names[card] == top:
                    for seat in range(self.seats):
                        if mask >> seat & 1 and (t == seat or (lists[seat] and t != caller)) \
                                and (seat not in spots or (t == seat != spots[seat][0])):
                            spots[seat] = (t, p)
        if not spots:
            return None
        seat = list(spots)[rng.randrange(len(spots))] if len(spots) > 1 else next(iter(spots))
        return _new(Move, (seat, "claim", (*spots[seat], s.serial)))

    # per move kind, the list spots its arguments name: (index of the seat argument, or
    # None for the mover's own list, index of the position argument)
    _SPOT_ARGS = {"peek": ((None, 0), (None, 1)), "take": ((None, 0),), "keep": ((None, 0),),
                  "double_check": ((None, 0),), "knock_out": ((None, 0),), "give": ((None, 0),),
                  "nosy": ((0, 1),), "trade": ((None, 0), (1, 2)), "switcheroo": ((0, 1), (2, 3)),
                  "not_my_job": ((0, 1), (2, 3))}

    def search_classes(self, view, moves):
        """Moves alike for the seat (see Game.search_classes): the same kind aimed at spots
        it cannot tell apart, the same card name remembered there or none (LS-11) and the
        same seats remembering it (the public ``seen_by``): e.g. keeping a drawn card at
        any of its unknown positions (LS-4), or peeking at any two of its cards (LS-3)."""
        memory, seen_by, me = view["memory"], view["seen_by"], view["viewer"]
        classes: dict[tuple, list[Move]] = {}
        for move in moves:
            args = list(move.args)
            for t, p in self._SPOT_ARGS.get(move.kind, ()) if args else ():  # an empty list's take/keep: none
                t = me if t is None else args[t]
                q = args[p]
                args[p] = (memory[t][q], tuple(seen_by[t][q]))
            classes.setdefault((move.kind, tuple(args)), []).append(move)
        return list(classes.values())

    def determinizer(self, view, seat):
        """Sample states consistent with ``seat``'s bot view (see Game.determinizer).

        A card the view shows face-up or the memory names (LS-11) stays where it is; the
        DONE top and the drawer's own drawn card too. Every other card is one of the
        deck's cards nobody placed, dealt at random into the unknown list positions, the
        DONE pile under its top, the deck (its public count) and another seat's drawn
        card, and then the cards another seat remembers in its own list are made lower,
        as a seat that keeps its low cards would have made them (LS-4; see the comment
        in the code). Every seat remembers exactly the spots the view's public
        ``seen_by`` names (LS-11: who peeked where, LS-3; who kept or took a card where,
        LS-4; who gave what where, LS-5; who looked where, LS-2), the drawer its drawn
        card and everyone the DONE pile, so a simulated seat slaps only what that seat
        could know (:meth:`search_open_move`); the spots another seat is looking at are
        drawn among the spots it remembers that the burned action allows (LS-2, LS-3).

        Raises:
            ValueError: the view names more copies of a card than the deck holds, or its
                counts do not add up to the deck.
        """
        names, n, me = self.cards.names, self.seats, seat
        free: dict[str, list[int]] = {}
        for card, name in enumerate(names):
            free.setdefault(name, []).append(card)

        def place(name):
            ids = free.get(name)
            if not ids:
                raise ValueError(f"the view shows more {name!r} cards than the Lazy Sunday deck holds (LS-1, LS-2)")
            return ids.pop()

        rows = view["lists"]
        memory = view.get("memory") or [[None] * len(row) for row in rows]
        seen_by = view.get("seen_by") or [[[] if name is None else [me] for name in row] for row in memory]
        masks = [[sum(1 << t for t in seats) for seats in row] for row in seen_by]
        lists, holes = [], []   # per seat, per position: a card id or None; holes: (seat, pos)
        for t, row in enumerate(rows):
            out = []
            for p, slot in enumerate(row):
                name = slot["name"] if slot["face_up"] else memory[t][p]
                out.append(None if name is None else place(name))
                if name is None:
                    holes.append((t, p))
            lists.append(out)
        done_view = view["done"]
        top = place(done_view["top"]["name"]) if done_view["top"] else None
        drawn_view = view["drawn"]
        drawn = place(drawn_view["card"]["name"]) if drawn_view and drawn_view["card"] else None
        unknown_drawn = drawn_view is not None and drawn_view["card"] is None
        under = done_view["size"] - (top is not None)
        pool = [card for ids in free.values() for card in ids]
        if len(pool) != len(holes) + under + view["deck"] + unknown_drawn:
            raise ValueError(f"the view's cards do not add up to the Lazy Sunday deck: {len(pool)} unplaced for "
                             f"{len(holes)} unknown list cards, {under} under the DONE top, {view['deck']} in the deck")
        known = [0] * len(names)
        for t, row in enumerate(lists):  # who remembers what (LS-11); the reveal adds nothing
            for p, card in enumerate(row):
                if card is not None:
                    known[card] = masks[t][p]
        if drawn is not None:
            known[drawn] = 1 << me
        if top is not None:
            known[top] = self.everyone
        phase, to_act, start = view["phase"], view["to_act"], view["start"]
        actor = to_act[0] if to_act else None
        turn = view["turn_seat"]
        looking = [list(spot) for spot in view["looking"]]
        shown = None
        if looking and phase not in ("peek", "look"):  # right after its give, the giver is shown the card (LS-5)
            shown, looking = [me, looking], []
        peekers = list(to_act) if phase == "peek" else []  # setup: every seat still peeking (LS-3)
        if phase == "peek":  # another peeker that remembers its own cards peeked and looks at them
            looking += [[t, p] for t in peekers if t != me for p in range(len(lists[t])) if masks[t][p] >> t & 1]
        caller = view["caller"]
        outcome = view["outcome"]
        fixed = (view["round"], start, turn, actor, view["done"]["serial"], caller, list(view["final_turns"]),
                 view["skip_next"], view["give"] and [view["give"]["seat"], view["give"]["to"], view["give"]["pos"]],
                 list(view["scores"]), [list(r) for r in view["round_scores"]], view["turns"],
                 outcome and Outcome(outcome["finished"], tuple(outcome["winners"]), tuple(outcome["scores"]),
                                     outcome["reason"]))
        resume = ("drawn" if drawn_view else "turn") if phase == "give" else None
        # Cards another seat kept are lower than uniform draws: it keeps what beats the
        # card it replaces (LS-4), and it knows what it kept. Modelled as ``keeps``
        # chances, four in five of the cards put on DONE this round, each a random
        # unseen card taking one of the spots of the seat's own list that it remembers
        # and we do not, if lower: measured on 150 heuristic 2-seat games, such cards
        # average 3.2 effort, and 3.3 in samples (with one chance in two: 4.0)
        effort = self.cards.efforts
        keeps = view["done"]["serial"] * 4 // 5
        their_holes = [(t, [p for u, p in holes if u == t and masks[t][p] >> t & 1]) for t in range(n) if t != me]
        their_holes = [(t, spots) for t, spots in their_holes if spots]
        deck_size = view["deck"]
        actions = self.cards.actions
        everyone = self.everyone

        def sample(rng):
            s = State()
            s.rng, s.phase = rng, phase
            (s.round, s.start, s.turn, s.actor, s.serial, s.caller, s.final_turns, s.skip_next, s.give,
             s.scores, s.round_scores, s.turns, s.outcome) = fixed
            s.final_turns, s.scores, s.round_scores = s.final_turns[:], s.scores[:], s.round_scores[:]
            cards = pool[:]
            shuffle(rng, cards)
            s.lists = [row[:] for row in lists]
            for t, p in holes:
                s.lists[t][p] = cards.pop()
            if cards:
                for t, spots in their_holes:  # LS-4: a seat keeps its low cards (see above)
                    row = s.lists[t]
                    for _ in range(keeps):
                        i, p = rng.randrange(len(cards)), spots[rng.randrange(len(spots))]
                        if effort[cards[i]] < effort[row[p]]:
                            cards[i], row[p] = row[p], cards[i]
            s.drawn = cards.pop() if unknown_drawn else drawn
            s.done = [cards.pop() for _ in range(under)]
            if top is not None:
                s.done.append(top)
            s.deck = cards
            s.known = known[:]
            for card in s.done:
                s.known[card] = everyone
            for t, p in holes:
                s.known[s.lists[t][p]] = masks[t][p]
            if unknown_drawn:
                s.known[s.drawn] = 1 << turn
            s.looking, s.shown = looking, shown
            if phase == "look" and actor != me:  # which of its spots the actor looks at is not in this view
                s.looking = self._sample_looking(s, actor, actions[s.done[-1]], rng)
            s.resume, s.peekers, s.setup_events = resume, peekers[:], []
            return s

        return sample

    def _sample_looking(self, s, actor, action, rng) -> list[list[int]]:
        """Spots ``actor`` may be looking at, drawn with ``rng`` among the spots it
        remembers (the look has just taught it them, LS-11): the spots of the action
        just burned (LS-2, LS-8)."""
        bit, known = 1 << actor, s.known
        spots = [[t, p] for t, lst in enumerate(s.lists) for p, card in enumerate(lst) if known[card] & bit]
        own = [spot for spot in spots if spot[0] == actor]
        if action == "double_check":
            return [rng.choice(own)]
        first = rng.choice([spot for spot in spots if spot[0] != actor])
        if action == "nosy":
            return [first]
        second = rng.choice([spot for spot in spots if spot[0] not in (actor, first[0])])  # not_my_job
        return sorted([first, second])

    # --- balance-lab hooks (see Game.turns_played, leaders, card_counts) -----------------
    def turns_played(self, s):
        """Turns played so far (G-4 counts these)."""
        return s.turns

    def leaders(self, s):
        """The seats with the lowest cumulative score plus current list effort (LS-9:
        lowest wins); between rounds and at the end, the cumulative scores alone."""
        if s.phase in _REVEAL_PHASES:
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

    HELD_COUNTERS = ("kept",)   # counted when the match ends (see Game.HELD_COUNTERS)
    LOW_SCORE_WINS = True       # LS-9, LS-10: the lowest total wins

    def scores(self, s):
        """Each seat's cumulative score plus the effort of its list now (what :meth:`leaders`
        ranks; lowest is best); between rounds and at the end, the cumulative scores."""
        if s.phase in _REVEAL_PHASES:
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

    # --- explaining refusals --------------------------------------------------------------
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
            return self._explain_claim(s, seat, *args)
        if s.phase == "peek":  # setup: every seat peeks at once (LS-3)
            if seat not in s.peekers:
                return "LS-3", f"it is not seat {seat}'s decision (it has peeked): {self._waiting(s)}"
            if kind not in ("peek", "done"):
                return ruling, f"'{kind}' is not possible now: {self._waiting(s)}"
            if kind == "done" and not self._peeked(s, seat):
                return "LS-3", "peek at 2 of your cards first, then say you are done looking"
            if kind == "peek" and self._peeked(s, seat):
                return "LS-3", "you have peeked already (once, LS-3): say you are done looking"
        elif seat != s.actor:
            return ("LS-3" if s.turn is None else "G-1"), f"it is not seat {seat}'s decision: {self._waiting(s)}"
        elif kind not in _PHASE_KINDS[s.phase]:
            return ruling, f"you cannot {_DOING[kind]} now: {self._waiting(s, seat)}"
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
            return self._explain_burn(s, seat, kind, args)
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
        if s.phase not in _CLAIM_PHASES:
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
