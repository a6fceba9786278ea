"""Chore Race: the rules engine (RULINGS G-1..G-4, CR-1..CR-21).

Race to score ``target_vp`` (15) VP by completing chores. On your turn: the Draw step
(automatic), the Play step (two slots, CR-4), then the Score step (CR-14).

Moves
=====
Text form ``"<seat> <kind> <args>"``; positions are ints (0-based). ``P`` is a position in
the mover's own tableau, ``S`` an opponent seat, ``Q`` a position in S's tableau, ``CARD``
an action card key (``done finally inspection excuse delegate swap meeting later
teamwork``; see ``view["keys"]``).

==========  ===============  ==========  ====================================================
kind        args             phase       meaning
==========  ===============  ==========  ====================================================
done        P                play        progress slot: Done, +1 on own chore P (CR-5)
finally     P                play        progress slot: Finally!, +3 on own chore P (CR-5)
discard     SLOT CARD        play        SLOT is ``progress`` or ``action``: use that slot to
                                         discard one CARD from hand (CR-4)
inspection  S Q              play        action slot: -1 progress on S's chore Q, Q has 1+ (CR-13)
delegate    S                play        action slot: Delegate on S (CR-9)
teamwork    S                play        action slot: Teamwork with S (CR-10)
swap        P S Q            play        action slot: Chore Swap own P with S's Q (CR-11)
meeting     -                play        action slot: Family Meeting (CR-8)
later       P                play        action slot: I'll Do It Later, discard own chore P,
                                         draw a replacement into position P (CR-12)
end         -                play        leave the unused slots; go to the Score step (CR-4)
excuse      -                react       target only: Excuse cancels the declared action (CR-7)
dodge       -                react       target only, vs Inspection: I'll Do It Later as Dodge
accept      -                react       target only: let the declared action resolve
place       P                place       active seat: put the pending Done on own chore P
                                         (CR-9, CR-10)
stop        -                place       Teamwork without opponent Done: place no more (CR-10)
give        CARD CARD CARD   meeting     every seat, secretly: the 3 cards it passes to
                                         seat+1 (all of them if it holds fewer; canonical
                                         order in ``legal_moves``, any order accepted) (CR-8)
score       P                score       complete own chore P next (CR-14)
steal       S                trigger     Take Out the Trash: steal a random card from S (CR-2)
attic       S Q              trigger     Reorganize the Attic: -2 progress (to 0) on S's Q (CR-2)
==========  ===============  ==========  ====================================================

Options: see :class:`Options` (``action_deck``, ``draw_rule``, ``chore_swap_needs_progress``,
``target_vp``, ``tableau_size``, plus G-2 ``first_player`` and G-4 ``max_turns``);
``ChoreRace.PRESETS`` holds the rulebook's Quick Game, Long Game and 2-Player Variant.

Sequencing (how multi-step cards become moves)
----------------------------------------------
* The Draw step has no choice and happens automatically when a turn starts (CR-3, CR-15).
* A targeted action (inspection, delegate, teamwork, swap) is declared with its targets;
  its card leaves the hand and its slot is used. An Inspection on a seat with an unused
  Wipe the Counters is cancelled at once (CR-7). Otherwise phase ``react`` opens for the
  target *always*, even when it holds no reaction card (then ``accept`` is its only
  move): opening the window only for holders would tell everyone what the target holds.
* Delegate/Teamwork placements are ``place P`` moves by the active seat, one per Done,
  opponent's Done first (CR-9, CR-10). A Done placed this way uses no slot.
* Both slots used: the Score step starts by itself. Completions are ``score P`` when two
  or more chores are complete (the order is the player's, CR-14); a single one is
  completed automatically. Triggers that need a choice are ``steal``/``attic``.
* A decision with exactly one possible answer that depends on public facts only is made
  automatically (one complete chore, one chore to place on, one trigger target, a
  Family Meeting hand of 3 cards or fewer). The reaction window is never automatic.
* Reactions and the hand cap: the cap of 7 limits only the Draw step (CR-3). A held
  Excuse or I'll Do It Later counts toward it; playing one as a reaction frees the room
  and draws nothing in return.

View (``Game.view(state, seat)``: plain JSON; ``seat`` None is the spectator)
------------------------------------------------------------------------------
::

    {"game": "chore_race", "seats": n, "viewer": seat | None,
     "phase": "play" | "react" | "place" | "meeting" | "score" | "trigger" | "over",
     "turn": int (1-based, counts every seat's turns), "turn_seat": seat,
     "to_act": [seats], "target_vp": int, "tableau_size": int,
     "slots": {"progress": used?, "action": used?},          # the turn seat's slots
     "hand": [card names] | None,     # the viewer's own hand, canonical order (CR-21)
     "hand_sizes": [int per seat],
     "keys": {card name: move key},   # e.g. "Chore Swap" -> "swap"
     "tableaus": [[chore, ...] per seat],
     "scored": [[chore names] per seat], "vp": [int per seat],
     "action_deck": int, "action_discard": [names, oldest first],
     "chore_deck": int, "chore_discard": [names, oldest first],
     "pending": None | {"card": name, "key": key, "by": seat, "target": seat,
                        "chore": Q | None, "own_chore": P | None},       # phase react
     "placing": None | {"from": [seats still owing a Done], "optional": int},
     "meeting": None | {"committed": [seats], "mine": [names] | None},    # CR-8
     "complete": [P, ...],            # the turn seat's complete chores (phase score)
     "trigger": None | {"chore": name, "ability": "steal" | "attic"},
     "revealed": [{"seat": s, "hand": [names]}, ...],  # only right after a reveal, until
                                                       # the next move (CR-9/10/21)
     "protected": [bool], "protection_used": [bool],   # CR-16
     "catch_up": [bool],                               # CR-15, would draw 2 now
     "quiet_turns": int,                               # CR-18 idle turns with empty decks
     "outcome": None | {"finished", "winners", "scores", "reason"}}

    chore = {"name", "level", "ability" ("" or steal/attic/no_delegate/wipe/garage),
             "progress", "cards": [names under it], "wipe_used": bool}

No view holds another seat's hand card names, except ``revealed`` right after a reveal,
nor any card id. Log events name a drawn, given or stolen card only in the private text
of the seats that saw it; a reveal (Delegate, Teamwork) names the revealed cards in the
public text, as they are shown to everyone at that moment (CR-21).
"""
from __future__ import annotations

import itertools
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from playtest.engine import BaseOptions, Event, Game, Move, OptionError, Outcome, RandomBot
from playtest.engine.rng import shuffle
from playtest.engine.search import margin_rewards
from playtest.games import variants
from playtest.games.variants import card_file, card_variant_field
from playtest.engine.errors import PlaytestError

_new = tuple.__new__  # Move(...) without the NamedTuple's Python-level __new__: move lists are the hot path

CARDS_FILE = Path(__file__).with_name("cards.toml")
ACTION_KEYS = ("done", "finally", "inspection", "excuse", "delegate", "swap", "meeting", "later", "teamwork")
ABILITIES = ("", "steal", "attic", "no_delegate", "wipe", "garage")
TARGETED = ("inspection", "delegate", "swap", "teamwork")      # CR-7
START_HAND = 5                                                  # rulebook setup step 3
HAND_CAP = 7                                                    # CR-3
MEETING_PASS = 3                                                # CR-8
CATCH_UP_VP = 5                                                 # CR-15
PROTECT_VP = 8                                                  # CR-16
LONG_GAME_VP = 20                                               # CR-19


# --- card data (cards.toml) -----------------------------------------------------------
class CardDataError(PlaytestError, ValueError):
    """cards.toml cannot be used: the message names the file and the bad entry."""


class ActionCard(BaseModel):
    """One ``[[action]]`` entry of cards.toml (CR-1)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    key: Literal[ACTION_KEYS]
    kind: str
    count: int = Field(ge=0)
    text: str = ""


class ChoreCard(BaseModel):
    """One ``[[chore]]`` entry of cards.toml (CR-2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str = Field(min_length=1)
    level: int = Field(ge=1)
    count: int = Field(ge=0)
    ability: Literal[ABILITIES] = ""
    text: str = ""
    bonus_vp: int = Field(0, ge=0)
    opponent_vp: int = Field(0, ge=0)


class CardSet(BaseModel):
    """The whole of cards.toml: ``action`` and ``chore`` entries."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    action: list[ActionCard]
    chore: list[ChoreCard]

    @model_validator(mode="after")
    def _consistent(self):
        keys = [a.key for a in self.action]
        missing = [k for k in ACTION_KEYS if k not in keys]
        if missing or len(keys) != len(set(keys)):
            raise ValueError(f"each action key must appear exactly once; missing {missing}, "
                             f"repeated {sorted({k for k in keys if keys.count(k) > 1})}")
        for kind, entries in (("action", self.action), ("chore", self.chore)):
            names = [e.name for e in entries]
            if len(names) != len(set(names)):
                raise ValueError(f"{kind} names must be unique; repeated "
                                 f"{sorted({n for n in names if names.count(n) > 1})}")
        return self


def load_cards(path: str | Path = CARDS_FILE) -> CardSet:
    """Read and validate a Chore Race card file.

    Args:
        path: a TOML file shaped like the bundled ``cards.toml``.

    Raises:
        CardDataError: the file is missing, not TOML, or an entry is wrong; the message
            names the file, the entry (``[[chore]] #5 'Clean Your Room'``) and the field.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CardDataError(f"{path}: cannot read the card file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(f"{path}: not valid TOML ({exc})") from None
    try:
        return CardSet.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = err["loc"]
            where = "file"
            if len(loc) >= 2 and isinstance(loc[1], int):
                entries = data.get(loc[0]) or []
                name = entries[loc[1]].get("name", "?") if loc[1] < len(entries) and isinstance(
                    entries[loc[1]], dict) else "?"
                where = f"[[{loc[0]}]] #{loc[1] + 1} {name!r}" + (f" field {loc[2]!r}" if len(loc) > 2 else "")
            elif loc:
                where = f"[[{loc[0]}]]"
            problems.append(f"{where}: {err['msg']}")
        raise CardDataError(f"{path}: bad card data: " + "; ".join(problems)) from None


CARDS = load_cards()
_ACTION_BY = {**{a.name: a for a in CARDS.action}, **{a.key: a for a in CARDS.action}}


# --- options ------------------------------------------------------------------------------
class Options(BaseOptions):
    """Chore Race options (RULINGS CR-1, CR-3, CR-11, CR-17, CR-20; G-2, G-4);
    ``target_vp`` is 1 to 500 (CR-17; the kit's range, RULINGS.md: past the decks' VP
    the game ends by CR-18)."""

    action_deck: dict[str, int] | Literal["74"] | None = Field(
        None, description="CR-1: action card counts; None = cards.toml (66 cards), '74' adds 8 Done, "
                          "or a mapping card name (or key) -> count overriding those it names")
    draw_rule: Literal["one", "fill_to_7"] = Field(
        "one", description="CR-3: 'one' draws 1 (2 on catch-up) never past 7; 'fill_to_7' draws until 7")
    chore_swap_needs_progress: bool = Field(
        False, description="CR-11: true = the chore you give in a Chore Swap needs 1+ progress")
    target_vp: int = Field(
        15, ge=1, le=500, title="Target VP", description="CR-17: VP that wins at once, 1 to 500 (10 Quick Game, 20 Long Game; "
                                      "20+ also reshuffles the chore discard, CR-19)")
    tableau_size: int = Field(
        3, ge=1, le=6, description="CR-20: chores per tableau (the 2-player variant uses 4)")
    card_variant: str | None = card_variant_field("CR-1")   # CR-1, CR-2 (playtest.games.variants)

    @field_validator("action_deck", mode="before")
    @classmethod
    def _deck(cls, value: Any):
        if value is None or value == "74":
            return value
        if not isinstance(value, dict):
            raise ValueError("CR-1: use a mapping card name -> count, or the preset '74'")
        for name, count in value.items():
            if name not in _ACTION_BY:
                raise ValueError(f"CR-1: unknown action card {name!r}; cards: "
                                 f"{', '.join(a.name for a in CARDS.action)}")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise ValueError(f"CR-1: the count of {name!r} must be a whole number >= 0, not {count!r}")
        return value


# --- state --------------------------------------------------------------------------------
class ChoreRaceState:
    """A Chore Race position. Only :class:`ChoreRace` reads or writes it.

    Action cards and chores are ids (indexes into the game's card tables); a tableau
    entry is ``[chore id, progress, [action ids under it], wipe used]`` (CR-6).
    """

    def __init__(self, rng, seats: int):
        self.rng = rng
        self.deck: list[int] = []            # action deck, top = end
        self.discard: list[int] = []         # action discard, top = end
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.chore_deck: list[int] = []
        self.chore_discard: list[int] = []
        self.tableaus: list[list[list]] = [[] for _ in range(seats)]
        self.scored: list[list[int]] = [[] for _ in range(seats)]
        self.vp = [0] * seats
        self.turn_seat = 0
        self.turns = 0
        self.phase = "play"
        self.slots = [False, False]          # progress used, action used (CR-4)
        self.pending = None                  # [key, card id, target, args] (CR-7)
        self.placing = None                  # [[seats owing a Done], optional count, card key]
        self.meeting = None                  # per seat: None or the committed card ids
        self.trigger = None                  # [ability, chore id]
        self.revealed = None                 # [[seat, [card ids]], ...] until the next move
        self.protected = [False] * seats     # CR-16
        self.protection_used = [False] * seats
        self.quiet = 0                       # CR-18: turns in a row with no card played
        self.acted = False
        self.result = None                   # [finished, [winners], reason]
        self.setup_events: list[Event] = []

    def dump(self) -> dict:
        """The whole state as plain JSON data (for fingerprints and debugging)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("rng", "setup_events")}


# --- move lists that depend only on small values (moves are immutable, so they are shared) --
# The kinds of action card a hand holds are a bitmask (bit i: ACTION_KEYS[i]): cheap to build
# from a hand and to use as a cache key.
BIT = {key: 1 << i for i, key in enumerate(ACTION_KEYS)}
TARGETED_BITS = sum(BIT[key] for key in TARGETED)


@cache
def _at_positions(seat: int, kind: str, k: int) -> tuple[Move, ...]:
    """``kind`` on each of ``k`` own positions (Done, Finally!, I'll Do It Later)."""
    return tuple(Move(seat, kind, (p,)) for p in range(k))


@cache
def _discards(seat: int, slot: str, held: int) -> tuple[Move, ...]:
    """Discarding each ``held`` action kind (bitmask) through ``slot`` ("progress" or
    "action"), in ACTION_KEYS order (so random bots replay identically anywhere)."""
    return tuple(Move(seat, "discard", (slot, key)) for key in ACTION_KEYS if held & BIT[key])


@cache
def _others(seats: int, seat: int) -> tuple[int, ...]:
    return tuple(o for o in range(seats) if o != seat)


@cache
def _progress_part(seat: int, held: int, k: int) -> tuple[Move, ...]:
    """The progress slot's moves with the ``held`` kinds (bitmask) and ``k`` own chores:
    Done, then Finally!, on each position, then the progress-slot discards (CR-4, CR-5)."""
    return (*(_at_positions(seat, "done", k) if held & BIT["done"] else ()),
            *(_at_positions(seat, "finally", k) if held & BIT["finally"] else ()),
            *_discards(seat, "progress", held))


@cache
def _action_part(seat: int, held: int, k: int) -> tuple[Move, ...]:
    """The action slot's untargeted moves with the ``held`` kinds (bitmask) and ``k`` own
    chores, then ``end``: Family Meeting, I'll Do It Later on each position, the
    action-slot discards (CR-4, CR-8, CR-12)."""
    return (*((Move(seat, "meeting"),) if held & BIT["meeting"] else ()),
            *(_at_positions(seat, "later", k) if held & BIT["later"] else ()),
            *_discards(seat, "action", held), Move(seat, "end"))


@cache
def _untargeted(seat: int, held: int, k: int, progress_used: bool, action_used: bool) -> tuple[Move, ...]:
    """The whole play-step move list when it names no opponent: no targeted action card
    held, or the action slot used (CR-4)."""
    head = () if progress_used else _progress_part(seat, held, k)
    return head + ((Move(seat, "end"),) if action_used else _action_part(seat, held, k))


@cache
def _teamworks(seat: int, opponents: tuple[int, ...]) -> tuple[Move, ...]:
    return tuple(Move(seat, "teamwork", (o,)) for o in opponents)


@cache
def _swaps(seat: int, mine: int | tuple[int, ...], theirs: tuple[tuple[int, int], ...]) -> tuple[Move, ...]:
    """Chore Swap of each own position in ``mine`` (a count: all of them) with each
    chore of each ``(opponent, tableau length)`` in ``theirs`` (CR-11)."""
    return tuple(Move(seat, "swap", (p, o, q)) for p in (range(mine) if type(mine) is int else mine)
                 for o, n in theirs for q in range(n))


# --- the game ---------------------------------------------------------------------------
# --- card tables (the same for every game; the action deck's copies depend on an option) --
class _Tables(NamedTuple):
    """The card tables of one card set (CR-1, CR-2), worked out once per set."""

    key_name: dict[str, str]            # action key -> card name
    keys: dict[str, str]                # card name -> action key
    order: dict[str, int]               # action key -> canonical card order
    by: dict[str, ActionCard]           # card name or key -> its entry (option action_deck)
    chores: tuple[ChoreCard, ...]       # chore id -> card
    level: tuple[int, ...]
    no_delegate: frozenset[int]
    static: tuple[dict, ...]


_TABLES: dict[int, tuple[CardSet, _Tables]] = {}


def _tables(cards: CardSet) -> _Tables:
    """The tables of ``cards`` (cached; the entry keeps the set alive, so its id stays its own)."""
    if id(cards) not in _TABLES:
        chores = tuple(c for c in cards.chore for _ in range(c.count))
        _TABLES[id(cards)] = (cards, _Tables(
            {a.key: a.name for a in cards.action}, {a.name: a.key for a in cards.action},
            {a.key: i for i, a in enumerate(cards.action)},
            {**{a.name: a for a in cards.action}, **{a.key: a for a in cards.action}},
            chores, tuple(c.level for c in chores),
            frozenset(i for i, c in enumerate(chores) if c.ability == "no_delegate"),
            tuple({"name": c.name, "level": c.level, "ability": c.ability} for c in chores)))
    return _TABLES[id(cards)][1]


_DECKS: dict[tuple[int, tuple[int, ...]], tuple] = {}


def _action_deck(cards: CardSet, copies: tuple[int, ...]) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """Key, name and kind bit of every action card id, for ``copies`` of each card of
    ``cards.action`` in order (CR-1); ids run through the cards in that order. Cached."""
    found = _DECKS.get((id(cards), copies))
    if found is None:
        key_name = _tables(cards).key_name
        keys = tuple(a.key for a, n in zip(cards.action, copies) for _ in range(n))
        found = _DECKS[(id(cards), copies)] = (keys, tuple(key_name[k] for k in keys), tuple(BIT[k] for k in keys))
    return found


class ChoreRace(Game):
    """Chore Race for 2-6 seats. See the module docstring for moves and views.

    Args:
        seats: 2..6. options: see :class:`Options`.

    Raises:
        OptionError: bad options, or an action deck too small to deal 5 cards a seat, or
            a chore deck too small for the tableaus.
    """

    name = "chore_race"
    title = "Chore Race"
    min_seats, max_seats = 2, 6
    Options = Options
    VIEW_WORDS = {
        "hand": "seat {viewer}'s hand", "hands.*": "seat {0}'s hand", "hand_sizes.*": "seat {0}'s hand size",
        "tableaus.*": "seat {0}'s chores", "tableaus.*.*": "seat {0}'s chore {1}",
        "scored.*": "seat {0}'s completed chores", "vp.*": "VP seat {0}",
        "action_deck": "cards in the action deck", "action_discard": "action discard",
        "chore_deck": "cards in the chore deck", "chore_discard": "chore discard",
        "slots.progress": "progress slot used (CR-4)", "slots.action": "action slot used (CR-4)",
        "pending": "declared action (CR-7)", "placing": "Dones to place (CR-9, CR-10)",
        "meeting": "Family Meeting (CR-8)", "revealed": "hands revealed (CR-21)", "trigger": "trigger (CR-2)",
        "complete": "complete chores (CR-14)", "protected.*": "seat {0} protected (CR-16)",
        "protection_used.*": "seat {0}'s protection used (CR-16)", "catch_up.*": "seat {0} catching up (CR-15)",
        "quiet_turns": "turns in a row with no card played (CR-18)", "turn": "turn"}
    MOVE_ARGS = {
        "done": ("chore",), "finally": ("chore",), "discard": ("slot", "card"),
        "inspection": ("seat", "chore"), "delegate": ("seat",), "teamwork": ("seat",),
        "swap": ("chore", "seat", "their_chore"), "meeting": (), "later": ("chore",), "end": (),
        "excuse": (), "dodge": (), "accept": (), "place": ("chore",), "stop": (),
        "give": ("card", "card", "card"), "score": ("chore",), "steal": ("seat",),
        "attic": ("seat", "chore"),
    }
    PRESETS = {                           # the rulebook's variants (CR-1, CR-17, CR-19, CR-20)
        "Quick Game": {"target_vp": 10},
        "Long Game": {"target_vp": 20},
        "2-Player Variant": {"tableau_size": 4},
        "74-card action deck": {"action_deck": "74"},
    }
    BOTS: dict = {"random": RandomBot}    # bots.py adds "heuristic"
    SEARCH_ITERATIONS = 2500  # ismcts, 4-move playouts: about 0.32 s a decision at 2 seats, at most 0.6 (bench_bots.py)
    cards = CARDS
    SETUP = {  # a pinned position (scenarios); who starts is the option first_player (G-2)
        "hands": "one list of action card names per seat (any number of cards), before the first "
                 "seat's opening Draw step (CR-3), which draws from deck_top",
        "tableaus": "one list of chore names per seat, in position order, at most tableau_size each",
        "progress": "one list per seat, one whole number 0+ per chore of its tableau, in position order: "
                    "the progress counter (CR-6; complete at its level, CR-14), each point a Done from "
                    "the action deck under the chore (CR-5); default 0",
        "scored": "one list of chore names per seat: the chores it has completed (CR-14), oldest first",
        "vp": "one whole number per seat, 0..target_vp-1 (CR-17: the target ends the game); default: "
              "the levels of its scored chores",
        "protection_used": "one true/false per seat: CR-16's once-per-player protection is used up; it "
                           "is used exactly when the seat's VP reached 8+, so it must agree with vp "
                           "(default: it does)",
        "protected": "one true/false per seat: protected now (CR-16), until the start of its next turn: "
                     "only a seat whose protection is used, never the first seat to act (its turn has "
                     "begun); default: nobody",
        "catch_up": "true/false: the first seat's opening Draw step draws 2 (CR-15); it must agree with "
                    "vp: that seat at 0 VP while an opponent has 5+, draw_rule 'one' (default: it does)",
        "deck_top": "the next action cards drawn, top first (the first seat's first draw is the first)",
        "chore_deck_top": "the next chores drawn, top first",
        "discard": "the action discard pile, oldest first",
        "chore_discard": "the chore discard pile, oldest first (CR-12, CR-19)",
    }

    def __init__(self, seats, options=None):
        super().__init__(seats, options)
        if self.options.card_variant is not None:     # a card variant; else the module's cards.toml
            self.cards = variants.load(load_cards, card_file(self.name, self.options.card_variant, CARDS_FILE))
        tables = _tables(self.cards)
        counts = {a.key: a.count for a in self.cards.action}
        deck_option = self.options.action_deck
        if deck_option == "74":
            counts["done"] += 8
        elif deck_option:
            counts.update({tables.by.get(name, _ACTION_BY[name]).key: n for name, n in deck_option.items()})
        self.akey, self.aname, self.abit = _action_deck(self.cards, tuple(counts.values()))
        self.key_name, self.keys, self.order = tables.key_name, tables.keys, tables.order
        self.chores, self._level, self._no_delegate, self._static = (tables.chores, tables.level, tables.no_delegate,
                                                                    tables.static)
        if len(self.akey) < START_HAND * seats:
            raise OptionError(f"CR-1: the action deck has {len(self.akey)} cards; {seats} seats need "
                              f"at least {START_HAND * seats} to deal {START_HAND} each")
        if len(self.chores) < self.options.tableau_size * seats:
            raise OptionError(f"CR-20: the chore deck has {len(self.chores)} cards; {seats} tableaus of "
                              f"{self.options.tableau_size} need {self.options.tableau_size * seats}")
        self.long_game = self.options.target_vp >= LONG_GAME_VP
        cls = type(self)
        if "_APPLIERS" not in cls.__dict__:  # kind -> its applier (a subclass's own)
            cls._APPLIERS = {kind: getattr(cls, "_do_" + kind) for kind in cls.MOVE_ARGS}

    # --- setup -----------------------------------------------------------------------
    def new_state(self, rng):
        """Shuffle both decks, deal tableaus and 5-card hands, start turn 1 (G-2, G-3)."""
        s = ChoreRaceState(rng, self.seats)
        first = self.first_seat(rng)
        s.deck = list(range(len(self.akey)))
        shuffle(rng, s.deck)
        s.chore_deck = list(range(len(self.chores)))
        shuffle(rng, s.chore_deck)
        for seat in range(self.seats):
            s.tableaus[seat] = [[s.chore_deck.pop(), 0, [], False] for _ in range(self.options.tableau_size)]
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
        from playtest.engine.pinning import (card_names, check_keys, flags_per_seat, numbers_per_seat, per_seat,
                                                pin_piles)
        check_keys(self, setup)
        first, n = s.turn_seat, self.seats
        while len(s.hands[first]) > START_HAND:      # undo the first Draw step (CR-3)
            s.deck.append(s.hands[first].pop())
        actions, chores = {}, {}
        if "tableaus" in setup:
            size = self.options.tableau_size
            chores.update({f"tableaus[{i}]": t for i, t in enumerate(
                per_seat(setup["tableaus"], "tableaus", n, maximum=size))})
        if "scored" in setup:
            chores.update({f"scored[{i}]": t for i, t in enumerate(per_seat(setup["scored"], "scored", n))})
        if "chore_deck_top" in setup:
            chores["chore_deck_top"] = card_names(setup["chore_deck_top"], "chore_deck_top")
        if "chore_discard" in setup:
            chores["chore_discard"] = card_names(setup["chore_discard"], "chore_discard")
        piles = {f"tableaus[{i}]": [e[0] for e in t] for i, t in enumerate(s.tableaus)}
        piles |= {f"scored[{i}]": list(pile) for i, pile in enumerate(s.scored)}
        piles |= {"chore_discard": s.chore_discard, "chore_deck_top": s.chore_deck}
        piles = pin_piles(self.title, [c.name for c in self.chores], piles,
                          {f"tableaus[{i}]": "chore_deck_top" for i in range(n)}, ["chore_deck_top"], chores,
                          other_kind=(set(self.aname), "is an action card: tableaus, scored, chore_deck_top and "
                                                       "chore_discard hold chores"))
        s.tableaus = [[[c, 0, [], False] for c in piles[f"tableaus[{i}]"]] for i in range(n)]
        s.scored = [piles[f"scored[{i}]"] for i in range(n)]
        s.chore_discard, s.chore_deck = piles["chore_discard"], piles["chore_deck_top"]
        if "progress" in setup:
            self._pin_progress(s, setup["progress"])
        if "hands" in setup:
            actions.update({f"hands[{i}]": h for i, h in enumerate(per_seat(setup["hands"], "hands", n))})
        if "deck_top" in setup:
            actions["deck_top"] = card_names(setup["deck_top"], "deck_top")
        if "discard" in setup:
            actions["discard"] = card_names(setup["discard"], "discard")
        # CR-6: the Done under a pinned chore, one per point of progress (CR-5), are real cards
        under = {f"progress[{i}][{p}]": [self.key_name["done"]] * e[1]
                 for i, t in enumerate(s.tableaus) for p, e in enumerate(t) if e[1]}
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
                e[2] = piles.get(f"progress[{i}][{p}]", [])
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
        self._pin_protection(s, setup, first, flags_per_seat)
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
        from playtest.engine.pinning import whole_number
        from playtest.engine.errors import short_repr
        if not isinstance(value, list) or len(value) != self.seats or not all(isinstance(v, list) for v in value):
            raise OptionError(f"setup 'progress' is one list of whole numbers per seat ({self.seats} lists), "
                              f"not {short_repr(value)}")
        for seat, (counters, tableau) in enumerate(zip(value, s.tableaus)):
            if len(counters) != len(tableau):
                names = [self.chores[e[0]].name for e in tableau]
                raise OptionError(f"setup 'progress[{seat}]' has {len(counters)} numbers, but seat {seat}'s tableau "
                                  f"holds {len(tableau)} chores ({', '.join(names) or 'none'}): one number per chore")
            for p, (amount, entry) in enumerate(zip(counters, tableau)):
                entry[1] = whole_number(amount, f"progress[{seat}][{p}]", 0, None, "CR-6")

    def _pin_protection(self, s, setup, first, flags_per_seat) -> None:
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

    # --- who acts ---------------------------------------------------------------------------
    def to_act(self, s):
        """The turn seat; the target in a reaction window (CR-7); every seat still to
        commit in a Family Meeting (CR-8); nobody once the game is over."""
        phase = s.phase
        if phase == "play":                 # most positions: checked first
            return (s.turn_seat,)
        if phase == "over":
            return ()
        if phase == "react":
            return (s.pending[2],)
        if phase == "meeting":
            return tuple(i for i, c in enumerate(s.meeting) if c is None)
        return (s.turn_seat,)

    def reaction_default(self, s, seat):
        """The target of a declared action lets it happen (``accept``, CR-7) when its
        reaction window closes unanswered."""
        if s.phase == "react" and seat == s.pending[2]:
            return Move(seat, "accept")
        return None

    # --- legal moves ---------------------------------------------------------------------
    def legal_moves(self, s, seat):
        """Every legal move of ``seat`` now, in a fixed order (no set iteration, so random
        bots replay identically in any process)."""
        phase = s.phase
        if phase == "play":
            return self._play_moves(s, seat) if seat == s.turn_seat else []
        if phase == "react":
            if seat != s.pending[2]:
                return []
            moves = [Move(seat, "accept")]
            held = self._held(s.hands[seat])
            if held & BIT["excuse"]:
                moves.append(Move(seat, "excuse"))
            if s.pending[0] == "inspection" and held & BIT["later"]:
                moves.append(Move(seat, "dodge"))
            return moves
        if phase == "meeting":
            return self._give_moves(s, seat) if s.meeting[seat] is None else []
        if seat != s.turn_seat:
            return []
        if phase == "place":
            moves = [Move(seat, "place", (p,)) for p in range(len(s.tableaus[seat]))]
            if not s.placing[0]:
                moves.append(Move(seat, "stop"))
            return moves
        if phase == "score":
            return [Move(seat, "score", (p,)) for p in self._complete(s, seat)]
        if phase == "trigger":
            return self._trigger_moves(s, seat)
        return []

    decision_moves = legal_moves    # no OPEN_MOVES: every legal move answers a decision (Game.decision_moves)

    def _play_moves(self, s, seat):
        """The play step's moves (order: see ``_progress_part``, the targeted actions,
        ``_action_part``). The parts that depend only on the seat, the held kinds, the
        tableau sizes and the used slots are cached tuples; targets that depend on
        progress, protection (CR-16) or abilities are listed from the tableaus each time."""
        held, abit = 0, self.abit
        for card in s.hands[seat]:          # _held, inlined: once per move
            held |= abit[card]
        own = s.tableaus[seat]
        k = len(own)
        slots = s.slots
        if slots[1] or not held & TARGETED_BITS:                    # no target to list
            return list(_untargeted(seat, held, k, slots[0], slots[1]))
        moves = list(_progress_part(seat, held, k)) if not slots[0] else []
        tableaus = s.tableaus
        opponents = _others(self.seats, seat)
        protected, open_ = s.protected, []
        for o in opponents:
            if not protected[o]:                                        # CR-16
                open_.append(o)
        if held & BIT["inspection"]:
            moves += [_new(Move, (seat, "inspection", (o, q))) for o in open_
                      for q, e in enumerate(tableaus[o]) if e[1] > 0]  # CR-13
        if k:
            if held & BIT["delegate"]:
                no_delegate = self._no_delegate
                for o in open_:
                    for e in tableaus[o]:
                        if e[0] in no_delegate:             # CR-2: this tableau refuses Delegate
                            break
                    else:
                        moves.append(_new(Move, (seat, "delegate", (o,))))
            if held & BIT["teamwork"]:
                moves += _teamworks(seat, opponents)
        if held & BIT["swap"]:
            if self.options.chore_swap_needs_progress:                  # CR-11
                mine = tuple([p for p, e in enumerate(own) if e[1] > 0])
            else:
                mine = k
            moves += _swaps(seat, mine, tuple([(o, len(tableaus[o])) for o in open_]))
        moves += _action_part(seat, held, k)
        return moves

    def _give_moves(self, s, seat):
        keys = sorted((self.akey[c] for c in s.hands[seat]), key=self.order.__getitem__)
        count = min(MEETING_PASS, len(keys))
        return [Move(seat, "give", combo) for combo in dict.fromkeys(itertools.combinations(keys, count))]

    def _trigger_moves(self, s, seat):
        ability = s.trigger[0]
        others = [o for o in range(self.seats) if o != seat]
        if ability == "steal":
            return [Move(seat, "steal", (o,)) for o in others if s.hands[o]]
        return [Move(seat, "attic", (o, q)) for o in others if not s.protected[o]       # CR-16
                for q, e in enumerate(s.tableaus[o]) if e[1] > 0]

    def _complete(self, s, seat):
        """Positions of ``seat``'s complete chores: progress at least the level (CR-14)."""
        level, complete = self._level, []
        for p, e in enumerate(s.tableaus[seat]):     # a loop, not a comprehension: once a turn
            if e[1] >= level[e[0]]:
                complete.append(p)
        return complete

    def _has(self, s, seat, ability):
        chores = self.chores
        return any(chores[e[0]].ability == ability for e in s.tableaus[seat])

    def is_legal(self, s, move, legal):
        """As listed, and a ``give`` naming its cards in any order (CR-8)."""
        if move in legal:
            return True
        if move.kind == "give" and all(a in self.order for a in move.args):
            return Move(move.seat, "give", tuple(sorted(move.args, key=self.order.__getitem__))) in legal
        return False

    # --- applying moves ------------------------------------------------------------------
    def apply(self, s, move):
        """Apply a legal move, then run every automatic step up to the next decision."""
        s.revealed = None                    # a reveal lasts until the next move (CR-21)
        events: list[Event] = []
        seat, kind, args = move                 # unpacked: cheaper than three attribute reads
        self._APPLIERS[kind](self, s, seat, args, events)
        if s.phase != "play" or (s.slots[0] and s.slots[1]):   # else the play step goes on
            self._advance(s, events)
        return events

    def _take(self, s, seat, key):
        """Remove one card of ``key`` from ``seat``'s hand and return its id."""
        hand, akey = s.hands[seat], self.akey
        for i, c in enumerate(hand):
            if akey[c] == key:
                return hand.pop(i)
        raise AssertionError(f"seat {seat} holds no {key}")   # legal_moves guarantees it

    def _progress(self, s, seat, p, card, amount):
        entry = s.tableaus[seat][p]
        entry[1] += amount
        entry[2].append(card)
        s.acted = True

    def _do_done(self, s, seat, args, ev):
        self._progress(s, seat, args[0], self._take(s, seat, "done"), 1)
        s.slots[0] = True
        if self.keep_log:
            ev.append(Event(f"Seat {seat} plays Done on {self._chore(s, seat, args[0])}."))

    def _do_finally(self, s, seat, args, ev):
        self._progress(s, seat, args[0], self._take(s, seat, "finally"), 3)
        s.slots[0] = True
        if self.keep_log:
            ev.append(Event(f"Seat {seat} plays Finally! on {self._chore(s, seat, args[0])} (+3)."))

    def _do_discard(self, s, seat, args, ev):
        slot, key = args
        s.discard.append(self._take(s, seat, key))
        s.slots[slot == "action"] = True
        s.acted = True
        if self.keep_log:
            ev.append(Event(f"Seat {seat} discards {self.key_name[key]} (its {slot} slot)."))

    def _declare(self, s, seat, key, target, args, ev, text):
        """A targeted action (CR-7): card out of the hand, action slot used, then the free
        Wipe the Counters cancel or the target's reaction window."""
        card = self._take(s, seat, key)
        s.slots[1] = True
        s.acted = True
        if self.keep_log:
            ev.append(Event(f"Seat {seat} plays {self.key_name[key]} {text}."))
        if key == "inspection":
            for entry in s.tableaus[target]:
                if self.chores[entry[0]].ability == "wipe" and not entry[3]:
                    entry[3] = True
                    s.discard.append(card)
                    ev.append(Event(f"Wipe the Counters cancels the Inspection on seat {target} for free."))
                    return
        s.pending = [key, card, target, list(args)]
        s.phase = "react"

    def _do_inspection(self, s, seat, args, ev):
        target, q = args
        self._declare(s, seat, "inspection", target, args, ev,
                      f"on seat {target}'s {self._chore(s, target, q)}")

    def _do_delegate(self, s, seat, args, ev):
        self._declare(s, seat, "delegate", args[0], args, ev, f"on seat {args[0]}")

    def _do_teamwork(self, s, seat, args, ev):
        self._declare(s, seat, "teamwork", args[0], args, ev, f"with seat {args[0]}")

    def _do_swap(self, s, seat, args, ev):
        p, target, q = args
        self._declare(s, seat, "swap", target, args, ev,
                      f"to trade {self._chore(s, seat, p)} for seat {target}'s {self._chore(s, target, q)}")

    def _do_meeting(self, s, seat, args, ev):
        s.discard.append(self._take(s, seat, "meeting"))
        s.slots[1] = True
        s.acted = True
        s.meeting = [None] * self.seats
        s.phase = "meeting"
        if self.keep_log:
            ev.append(Event(f"Seat {seat} calls a Family Meeting: everyone passes "
                            f"{MEETING_PASS} cards to the left, secretly."))

    def _do_later(self, s, seat, args, ev):
        p = args[0]
        s.discard.append(self._take(s, seat, "later"))
        s.slots[1] = True
        s.acted = True
        old = s.tableaus[seat][p]
        s.discard.extend(old[2])                  # CR-12: its cards to the action discard
        s.chore_discard.append(old[0])
        new = self._draw_chore(s)
        if new is None:
            del s.tableaus[seat][p]
        else:
            s.tableaus[seat][p] = [new, 0, [], False]
        if self.keep_log:
            got = f", draws {self.chores[new].name}" if new is not None else ", no chore left to draw"
            ev.append(Event(f"Seat {seat} plays I'll Do It Later: discards {self.chores[old[0]].name}{got}."))

    def _do_end(self, s, seat, args, ev):
        s.phase = "score"

    def _react(self, s, seat, key, ev):
        card = self._take(s, seat, key)
        s.discard += [card, s.pending[1]]         # CR-7: both to the discard pile
        if self.keep_log:
            ev.append(Event(f"Seat {seat} reacts with {self.key_name[key]}"
                            f"{' (Dodge)' if key == 'later' else ''}: the {self.key_name[s.pending[0]]} is cancelled."))
        s.pending = None
        s.acted = True
        s.phase = "play"

    def _do_excuse(self, s, seat, args, ev):
        self._react(s, seat, "excuse", ev)

    def _do_dodge(self, s, seat, args, ev):
        self._react(s, seat, "later", ev)

    def _do_accept(self, s, seat, args, ev):
        key, card, target, targs = s.pending
        active = s.turn_seat
        s.pending = None
        s.phase = "play"
        s.discard.append(card)
        if key == "inspection":
            entry = s.tableaus[target][targs[1]]
            entry[1] -= 1
            if self.keep_log:
                ev.append(Event(f"The Inspection takes 1 progress off seat {target}'s {self.chores[entry[0]].name}."))
        elif key == "swap":
            p, _, q = targs
            mine, theirs = s.tableaus[active], s.tableaus[target]
            mine[p], theirs[q] = theirs[q], mine[p]
            if self.keep_log:
                ev.append(Event(f"Seats {active} and {target} swap chores."))
        elif key == "delegate":
            if self._holds(s, target, "done"):
                s.placing = [[target], 0, "delegate"]
                s.phase = "place"
                if self.keep_log:
                    ev.append(Event(f"Seat {target} must give a Done; seat {active} chooses the chore."))
            else:
                s.revealed = [[target, list(s.hands[target])]]
                if self.keep_log:
                    ev.append(Event(f"Seat {target} holds no Done and shows their hand; the Delegate has no effect. "
                                    + self._revealed_text(s)))
        else:   # teamwork (CR-10)
            s.revealed = [[active, list(s.hands[active])], [target, list(s.hands[target])]]
            if self._holds(s, target, "done"):
                s.placing = [[target] + ([active] if self._holds(s, active, "done") else []), 0, "teamwork"]
            else:
                owned = sum(self.akey[c] == "done" for c in s.hands[active])
                s.placing = [[], min(2, owned), "teamwork"]
            s.phase = "place"
            if self.keep_log:
                ev.append(Event(f"Seats {active} and {target} show their hands for Teamwork. " + self._revealed_text(s)))

    def _revealed_text(self, s):
        """The revealed hands, named: they are public at that moment (CR-21)."""
        return " ".join(f"Seat {who}'s hand revealed: {', '.join(self._hand(cards)) or 'no cards'}."
                        for who, cards in s.revealed)

    def _held(self, cards):
        """The kinds of action card among ``cards`` (ids), as a bitmask of ``BIT``."""
        held, abit = 0, self.abit
        for card in cards:                  # a plain loop: faster than reduce/map or a set
            held |= abit[card]
        return held

    def _holds(self, s, seat, key):
        return bool(self._held(s.hands[seat]) & BIT[key])

    def _do_place(self, s, seat, args, ev):
        owing = s.placing[0]
        if owing:
            source = owing.pop(0)
        else:                                   # Teamwork: the optional own Done (CR-10)
            source = seat
            s.placing[1] -= 1
        self._progress(s, seat, args[0], self._take(s, source, "done"), 1)
        if self.keep_log:
            ev.append(Event(f"Seat {source}'s Done goes on seat {seat}'s {self._chore(s, seat, args[0])}."))

    def _do_stop(self, s, seat, args, ev):
        s.placing[1] = 0

    def _do_give(self, s, seat, args, ev, whole_hand=False):
        s.meeting[seat] = [self._take(s, seat, key) for key in args]
        if self.keep_log:
            to = (seat + 1) % self.seats
            if whole_hand:      # no choice to make, and the log says why none was asked for
                ev.append(Event(f"Seat {seat} holds {MEETING_PASS} cards or fewer and passes them all (CR-8).",
                                {seat: f"You hold {MEETING_PASS} cards or fewer, so all of them pass, with no choice "
                                       f"(CR-8): {self._names(s.meeting[seat]) or 'nothing'} to seat {to}."}))
            else:
                ev.append(Event(f"Seat {seat} has chosen the cards to pass.",
                                {seat: f"You pass {self._names(s.meeting[seat]) or 'nothing'} to seat {to}."}))

    def _do_score(self, s, seat, args, ev):
        self._score(s, seat, args[0], ev)

    def _do_steal(self, s, seat, args, ev):
        victim = args[0]
        card = s.hands[victim].pop(s.rng.randrange(len(s.hands[victim])))   # G-3: seeded stream
        s.hands[seat].append(card)
        s.trigger = None
        s.phase = "score"
        name = self.aname[card]
        if self.keep_log:
            ev.append(Event(f"Take Out the Trash: seat {seat} steals a random card from seat {victim}.",
                            {seat: f"Take Out the Trash: you steal {name} from seat {victim}.",
                             victim: f"Take Out the Trash: seat {seat} steals your {name}."}))

    def _do_attic(self, s, seat, args, ev):
        target, q = args
        entry = s.tableaus[target][q]
        lost = min(2, entry[1])
        entry[1] -= lost
        s.trigger = None
        s.phase = "score"
        if self.keep_log:
            ev.append(Event(f"Reorganize the Attic: seat {target}'s {self.chores[entry[0]].name} loses {lost} progress."))

    # --- automatic steps ----------------------------------------------------------------------
    def _advance(self, s, ev):
        """Run automatic steps until some seat has a real decision or the game is over."""
        while True:
            phase = s.phase
            if phase == "play":
                if not (s.slots[0] and s.slots[1]):
                    return
                s.phase = "score"
            elif phase == "score":
                seat = s.turn_seat
                complete = self._complete(s, seat)
                if len(complete) > 1:
                    return
                if complete:
                    self._score(s, seat, complete[0], ev)
                else:
                    self._end_turn(s, ev)
            elif phase == "trigger":
                moves = self._trigger_moves(s, s.turn_seat)
                if len(moves) > 1:
                    return
                if moves:
                    getattr(self, "_do_" + moves[0].kind)(s, s.turn_seat, moves[0].args, ev)
                else:
                    ev.append(Event(f"{self.chores[s.trigger[1]].name}: no target, the trigger does nothing."))
                    s.trigger = None
                    s.phase = "score"
            elif phase == "place":
                seat = s.turn_seat
                owing, optional, _ = s.placing
                if not (owing or optional) or not s.tableaus[seat]:
                    s.placing = None
                    s.phase = "play"
                elif owing and len(s.tableaus[seat]) == 1:
                    self._do_place(s, seat, (0,), ev)
                else:
                    return
            elif phase == "meeting":
                # only a hand of 3 or fewer is forced; anything else could leak its makeup
                for seat, chosen in enumerate(s.meeting):
                    if chosen is None and len(s.hands[seat]) <= MEETING_PASS:
                        self._do_give(s, seat, tuple(self.akey[c] for c in s.hands[seat]), ev, whole_hand=True)
                if any(c is None for c in s.meeting):
                    return
                self._pass_cards(s, ev)
            else:   # react waits for the target; over is over
                return

    def _pass_cards(self, s, ev):
        """CR-8: every committed set goes to seat+1 at once."""
        n = self.seats
        for seat, cards in enumerate(s.meeting):
            s.hands[(seat + 1) % n].extend(cards)
        if self.keep_log:
            ev.append(Event("The Family Meeting cards change hands.", {
                (seat + 1) % n: f"You receive {self._names(cards) or 'nothing'} from seat {seat}."
                for seat, cards in enumerate(s.meeting)}))
        s.meeting = None
        s.phase = "play"

    def _score(self, s, seat, p, ev):
        """CR-14: complete one chore: VP (with modifier), the win checked at once (CR-17:
        a win ends the game there and this chore's trigger does not resolve), else the
        trigger."""
        entry = s.tableaus[seat].pop(p)
        chore = self.chores[entry[0]]
        vp = chore.level
        if chore.ability == "garage" and any(v >= chore.opponent_vp for o, v in enumerate(s.vp) if o != seat):
            vp += chore.bonus_vp
        s.vp[seat] += vp
        s.scored[seat].append(entry[0])
        s.discard.extend(entry[2])               # CR-6: its cards to the action discard
        if self.keep_log:
            ev.append(Event(f"Seat {seat} completes {chore.name}: +{vp} VP ({s.vp[seat]})."))
        if s.vp[seat] >= self.options.target_vp:
            self._finish(s, [seat], f"CR-17: seat {seat} reached {s.vp[seat]} VP", ev)
            return
        if s.vp[seat] >= PROTECT_VP and not s.protection_used[seat]:
            s.protected[seat] = s.protection_used[seat] = True
            ev.append(Event(f"Seat {seat} reached {PROTECT_VP}+ VP: protected until their next turn (CR-16)."))
        if chore.ability in ("steal", "attic"):
            s.trigger = [chore.ability, entry[0]]
            s.phase = "trigger"

    def _end_turn(self, s, ev):
        """Refill the tableau (CR-14), check the CR-18 ends, start the next turn."""
        seat = s.turn_seat
        tableau = s.tableaus[seat]
        size = self.options.tableau_size
        while len(tableau) < size:
            new = self._draw_chore(s)
            if new is None:
                break
            tableau.append([new, 0, [], False])
        s.quiet = s.quiet + 1 if not (s.acted or s.deck or s.discard) else 0
        if s.quiet >= self.seats:
            self._finish(s, None, "CR-18: both action piles are empty and a full round passed "
                                  "with no card played", ev)
        elif not s.chore_deck and not (self.long_game and s.chore_discard) and not any(s.tableaus):
            self._finish(s, None, "CR-18: every chore is gone", ev)
        else:
            self._start_turn(s, (seat + 1) % self.seats, ev)

    def _start_turn(self, s, seat, ev):
        """G-4 cap, CR-16 protection ends, then the Draw step (CR-3, CR-15)."""
        s.turns += 1
        options = self.options
        if s.turns > options.max_turns:
            s.phase = "over"
            s.result = [False, [], f"G-4: max_turns ({options.max_turns}) reached"]
            ev.append(Event(s.result[2] + "; the game is unfinished."))
            return
        s.turn_seat = seat
        s.phase = "play"
        s.slots = [False, False]
        s.acted = False
        s.protected[seat] = False
        hand = s.hands[seat]
        vp = s.vp
        catch_up = vp[seat] == 0 and max(vp) >= CATCH_UP_VP     # CR-15 (the seat's own 0 is never that max)
        wanted = HAND_CAP - len(hand)                             # draw_rule "fill_to_7"
        if options.draw_rule == "one" and wanted > 1:
            wanted = 2 if catch_up else 1
        drawn = []
        for _ in range(wanted):                                   # none when wanted <= 0
            if not s.deck:
                if not s.discard:
                    break
                s.deck, s.discard = s.discard, []                 # CR-18 reshuffle
                shuffle(s.rng, s.deck)
                ev.append(Event("The action discard pile is shuffled into a new action deck."))
            drawn.append(s.deck.pop())
        hand += drawn
        if self.keep_log:
            extra = " (catch-up)" if catch_up and options.draw_rule == "one" else ""
            ev.append(Event(f"Turn {s.turns}: seat {seat} draws {len(drawn)} card{'s' * (len(drawn) != 1)}{extra}.",
                            {seat: f"Turn {s.turns}: you draw {self._names(drawn) or 'nothing'}{extra}."}))

    def _draw_chore(self, s):
        if not s.chore_deck and self.long_game and s.chore_discard:
            s.chore_deck, s.chore_discard = s.chore_discard, []   # CR-19
            shuffle(s.rng, s.chore_deck)
        return s.chore_deck.pop() if s.chore_deck else None

    def _finish(self, s, winners, reason, ev):
        """End the game; ``winners`` None means the CR-18 ranking: VP, chores scored,
        cards in hand; a tie after that is a shared win."""
        if winners is None:
            rank = [(s.vp[i], len(s.scored[i]), len(s.hands[i])) for i in range(self.seats)]
            best = max(rank)
            winners = [i for i in range(self.seats) if rank[i] == best]
        s.result = [True, winners, reason]
        s.phase = "over"
        ev.append(Event(f"Game over: {reason}. Winner{'s' * (len(winners) > 1)}: "
                        f"{', '.join(f'seat {w}' for w in winners)}."))

    def outcome(self, s):
        """None while playing; else the winners and every seat's VP (CR-17, CR-18, G-4)."""
        if s.result is None:
            return None
        finished, winners, reason = s.result
        return Outcome(finished, tuple(winners), tuple(float(v) for v in s.vp), reason)

    # --- views ---------------------------------------------------------------------------------
    def _names(self, cards):
        return ", ".join(self.aname[c] for c in sorted(cards, key=lambda c: (self.order[self.akey[c]], c)))

    def _chore(self, s, seat, p):
        return self.chores[s.tableaus[seat][p][0]].name

    def _hand(self, cards):
        order, akey, aname = self.order, self.akey, self.aname
        return [aname[c] for c in sorted(cards, key=lambda c: order[akey[c]])]

    def view(self, s, seat):
        """What ``seat`` may know (CR-21); shape in the module docstring. Never raises."""
        chores, aname, static = self.chores, self.aname, self._static
        n = self.seats
        vp = s.vp
        best = max(vp)      # CR-15: a seat at 0 VP is behind whoever holds the max, if 5+
        # CR-15 changes nothing under draw_rule "fill_to_7" (the hand is filled anyway)
        catch_up = [v == 0 and best >= CATCH_UP_VP and self.options.draw_rule == "one" for v in vp]
        pending = s.pending
        complete = self._complete(s, s.turn_seat) if s.phase == "score" else []
        return {
            "game": self.name, "seats": n, "viewer": seat, "phase": s.phase,
            "turn": s.turns, "turn_seat": s.turn_seat, "to_act": list(self.to_act(s)),
            "target_vp": self.options.target_vp, "tableau_size": self.options.tableau_size,
            "slots": {"progress": s.slots[0], "action": s.slots[1]},
            "hand": None if seat is None else self._hand(s.hands[seat]),
            "hand_sizes": [len(h) for h in s.hands],
            "keys": dict(self.keys),
            "tableaus": [[{**static[e[0]], "progress": e[1], "cards": [aname[c] for c in e[2]],
                           "wipe_used": e[3]} for e in t] for t in s.tableaus],
            "scored": [[chores[c].name for c in pile] for pile in s.scored],
            "vp": list(s.vp),
            "action_deck": len(s.deck), "action_discard": [aname[c] for c in s.discard],
            "chore_deck": len(s.chore_deck), "chore_discard": [chores[c].name for c in s.chore_discard],
            "pending": None if pending is None else {
                "card": self.key_name[pending[0]], "key": pending[0], "by": s.turn_seat, "target": pending[2],
                "chore": pending[3][-1] if pending[0] in ("inspection", "swap") else None,
                "own_chore": pending[3][0] if pending[0] == "swap" else None},
            "placing": None if s.placing is None or s.phase != "place" else {
                "from": list(s.placing[0]), "optional": s.placing[1]},
            "meeting": None if s.meeting is None else {
                "committed": [i for i, c in enumerate(s.meeting) if c is not None],
                "mine": None if seat is None or s.meeting[seat] is None else self._hand(s.meeting[seat])},
            "complete": complete,
            "trigger": None if s.trigger is None else {"chore": chores[s.trigger[1]].name, "ability": s.trigger[0]},
            "revealed": [{"seat": who, "hand": self._hand(cards)} for who, cards in s.revealed or ()],
            "protected": list(s.protected), "protection_used": list(s.protection_used),
            "catch_up": catch_up,
            "quiet_turns": s.quiet,
            "outcome": None if s.result is None else {
                "finished": s.result[0], "winners": list(s.result[1]), "scores": list(s.vp), "reason": s.result[2]},
        }

    def all_cards_view(self, s):
        """Every card face up, for debugging alone (see Game.all_cards_view; never a
        seat's view): the spectator's view plus ``"hands"`` (every seat's hand, canonical
        order, CR-21) and under ``"all_cards"`` the Family Meeting cards each seat has
        committed (CR-8) and the action and chore decks, top first (CR-1, CR-2)."""
        view = self.view(s, None)
        view["hands"] = [self._hand(h) for h in s.hands]
        zones = {}
        for seat, cards in enumerate(s.meeting or ()):
            if cards is not None:
                zones[f"seat {seat}'s Family Meeting pass"] = self._hand(cards)
        zones["action deck (top first)"] = [self.aname[c] for c in reversed(s.deck)]
        zones["chore deck (top first)"] = [self.chores[c].name for c in reversed(s.chore_deck)]
        view["all_cards"] = zones
        return view

    # --- search hooks (see Game.copy_state, Game.determinizer) ---------------------------
    def copy_state(self, s):
        """A copy of ``s`` to play on (its lists copied, its random stream shared): plain
        list copies, for the search bot's iterations."""
        c = ChoreRaceState.__new__(ChoreRaceState)
        d = c.__dict__
        d.update(s.__dict__)  # scalars, and the lists the rules replace rather than change
        c.deck, c.discard, c.hands = s.deck[:], s.discard[:], [h[:] for h in s.hands]
        c.chore_deck, c.chore_discard = s.chore_deck[:], s.chore_discard[:]
        c.tableaus = [[[e[0], e[1], e[2][:], e[3]] for e in t] for t in s.tableaus]
        c.scored, c.vp, c.slots = [p[:] for p in s.scored], s.vp[:], s.slots[:]
        c.protected, c.protection_used = s.protected[:], s.protection_used[:]
        if s.placing is not None:
            c.placing = [s.placing[0][:], s.placing[1], s.placing[2]]
        if s.meeting is not None:
            c.meeting = s.meeting[:]
        c.setup_events = []
        return c

    def determinizer(self, view, seat):
        """Sample states consistent with ``seat``'s view (see Game.determinizer; a Chore
        Race bot view is the view, CR-21).

        Public cards stay where the view shows them: tableaus with their progress and
        cards (CR-6), scored chores, both discard piles, the declared card (CR-7), a hand
        revealed right now (CR-9, CR-10) and the seat's own hand and Family Meeting
        choice (CR-8). The other action cards are dealt at random into the other hands
        (their public sizes), the cards other seats committed to a Family Meeting and the
        action deck; the other chores make the chore deck.

        Raises:
            ValueError: the view names more copies of a card than the decks hold, or its
                counts do not add up.
        """
        n, me = self.seats, seat
        free_actions: dict[str, list[int]] = {}
        for card, name in enumerate(self.aname):
            free_actions.setdefault(name, []).append(card)
        free_chores: dict[str, list[int]] = {}
        for chore, card in enumerate(self.chores):
            free_chores.setdefault(card.name, []).append(chore)

        def take(free, name):
            ids = free.get(name)
            if not ids:
                raise ValueError(f"the view shows more {name!r} cards than the Chore Race decks hold (CR-1, CR-2)")
            return ids.pop()

        def action(name):
            return take(free_actions, name)

        hands: list[list[int] | None] = [None] * n   # None: unknown, filled per sample
        hands[me] = [action(name) for name in view["hand"]]
        tableaus = [[[take(free_chores, c["name"]), c["progress"], [action(a) for a in c["cards"]], c["wipe_used"]]
                     for c in row] for row in view["tableaus"]]
        scored = [[take(free_chores, name) for name in pile] for pile in view["scored"]]
        discard = [action(name) for name in view["action_discard"]]
        chore_discard = [take(free_chores, name) for name in view["chore_discard"]]
        phase, pending_view = view["phase"], view["pending"]
        pending = None
        if pending_view is not None:
            key, target = pending_view["key"], pending_view["target"]
            args = {"inspection": [target, pending_view["chore"]], "swap": [pending_view["own_chore"], target,
                                                                             pending_view["chore"]]}.get(key, [target])
            pending = [key, action(self.key_name[key]), target, args]
        meeting_view = view["meeting"]
        meeting = None
        if meeting_view is not None:
            meeting = [None] * n
            for t in meeting_view["committed"]:
                meeting[t] = [action(name) for name in meeting_view["mine"]] if t == me else []
        trigger = None
        if view["trigger"] is not None:  # the chore just completed: the last the turn seat scored (CR-14)
            trigger = [view["trigger"]["ability"], scored[view["turn_seat"]][-1]]
        placing = None
        if view["placing"] is not None:  # its card is the one just resolved, on top of the discard (CR-9, CR-10)
            placing = [list(view["placing"]["from"]), view["placing"]["optional"],
                       self.akey[discard[-1]] if discard else "delegate"]
        sizes = view["hand_sizes"]
        holds: list[list[int]] = [[] for _ in range(n)]  # cards a hidden hand surely holds
        if placing is not None:  # a seat owing a Done holds one; Teamwork's own Dones likewise (CR-9, CR-10)
            owing = placing[0] + [view["turn_seat"]] * placing[1]
            for t in owing:
                if hands[t] is None:
                    holds[t].append(action(self.key_name["done"]))
        for shown in view["revealed"]:  # a hand shown to everyone by this move (CR-21), before the
            t = shown["seat"]           # automatic steps that followed it (a Done placed, a steal, a draw)
            if t != me:
                for name in shown["hand"]:
                    if len(holds[t]) < sizes[t] and free_actions.get(name):
                        holds[t].append(action(name))
        pool = [card for ids in free_actions.values() for card in ids]
        chores = [chore for ids in free_chores.values() for chore in ids]
        unknown_hands = [t for t in range(n) if hands[t] is None]
        committed = [t for t in range(n) if meeting is not None and meeting[t] == [] and t != me]
        passed = len(pool) - view["action_deck"] - sum(sizes[t] - len(holds[t]) for t in unknown_hands)
        # CR-8: a seat passes 3 cards, or all it held (then its hand is empty now: the
        # cards left over are spread over those seats)
        counts = {t: MEETING_PASS for t in committed if sizes[t]}
        rest = passed - sum(counts.values())
        for t in committed:
            if not sizes[t]:
                counts[t] = min(MEETING_PASS, max(0, rest))
                rest -= counts[t]
        if passed != sum(counts.values()) or len(chores) != view["chore_deck"]:
            raise ValueError(f"the view's cards do not add up to the Chore Race decks: {len(pool)} action cards "
                             f"unplaced for {view['action_deck']} in the deck and the hidden hands, "
                             f"{len(chores)} chores for a chore deck of {view['chore_deck']}")
        outcome = view["outcome"]
        slots = [view["slots"]["progress"], view["slots"]["action"]]
        fixed = dict(
            discard=discard, chore_discard=chore_discard, tableaus=tableaus, scored=scored, vp=list(view["vp"]),
            turn_seat=view["turn_seat"], turns=view["turn"], phase=phase, slots=slots, pending=pending,
            placing=placing, trigger=trigger, protected=list(view["protected"]),
            protection_used=list(view["protection_used"]), quiet=view["quiet_turns"],
            acted=slots[0] or slots[1],  # a card played or discarded this turn uses a slot (CR-4)
            result=outcome and [outcome["finished"], list(outcome["winners"]), outcome["reason"]],
            # as shown (names; the ids are any copies: the view names them, nothing reads them)
            revealed=[[r["seat"], [self.aname.index(name) for name in r["hand"]]] for r in view["revealed"]] or None)
        template = ChoreRaceState.__new__(ChoreRaceState)
        template.__dict__.update(fixed, deck=[], chore_deck=[], hands=[], meeting=None, setup_events=[], rng=None)
        copy = self.copy_state

        def sample(rng):
            s = copy(template)
            s.rng = rng
            cards = pool[:]
            shuffle(rng, cards)
            s.hands = [h[:] if h is not None else holds[t] + [cards.pop() for _ in range(sizes[t] - len(holds[t]))]
                       for t, h in enumerate(hands)]
            if meeting is not None:
                s.meeting = [m if m is None or t == me else [cards.pop() for _ in range(counts[t])]
                             for t, m in enumerate(meeting)]
                if s.meeting[me] is not None:
                    s.meeting[me] = s.meeting[me][:]
            s.deck = cards
            s.chore_deck = chores[:]
            shuffle(rng, s.chore_deck)
            return s

        return sample

    SEARCH_PLAYOUT_MOVES = 4  # ismcts: playouts stop after 4 moves and score the position (evaluate)
    EVAL_PROGRESS, EVAL_HAND, EVAL_SCALE = 0.6, 0.3, 3.0

    def evaluate(self, s):
        """Each seat's chance to win as the search bot judges a position (see
        Game.evaluate): its standing is its VP (CR-17), plus ``EVAL_PROGRESS`` VP per
        progress on its chores up to their level (a complete chore: its level, as CR-14
        scores it), plus ``EVAL_HAND`` per card in hand; the standings become rewards
        through :func:`~playtest.engine.search.margin_rewards` (scale ``EVAL_SCALE`` VP)."""
        levels, progress, hand = self._level, self.EVAL_PROGRESS, self.EVAL_HAND
        values = []
        for seat, row in enumerate(s.tableaus):
            value = s.vp[seat] + hand * len(s.hands[seat])
            for entry in row:
                level = levels[entry[0]]
                value += level if entry[1] >= level else progress * entry[1]
            values.append(value)
        return margin_rewards(values, self.EVAL_SCALE)

    # --- balance-lab hooks (see Game.turns_played, leaders, card_counts) -----------------
    _PLAYED_KEY = {"done": "done", "finally": "finally", "inspection": "inspection", "delegate": "delegate",
                   "teamwork": "teamwork", "swap": "swap", "meeting": "meeting", "later": "later",
                   "excuse": "excuse", "dodge": "later"}  # move kind -> the action card it plays

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
        key = self._PLAYED_KEY.get(move.kind)
        return (("played", move.seat, self.key_name[key]),) if key else ()

    HELD_COUNTERS = ("scored",)   # counted when the game ends (see Game.HELD_COUNTERS)

    def scores(self, s):
        """Each seat's VP (CR-17)."""
        return tuple(s.vp)

    _ENDINGS = {"CR-17": "target", "CR-18: both action piles": "actions_out", "CR-18: every chore": "chores_out"}

    def end_conditions(self):
        """CR-17's target, and CR-18's two ways to run out of cards."""
        return {"target": f"a seat reached {self.options.target_vp} VP (CR-17)",
                "actions_out": "both action piles empty and a full round with no card played (CR-18)",
                "chores_out": "the chore deck and every tableau empty (CR-18)"}

    def end_condition(self, s):
        """Which ending the game's result states (its reason names the ruling)."""
        if s.result is None or not s.result[0]:
            return None
        return next((key for prefix, key in self._ENDINGS.items() if s.result[2].startswith(prefix)), None)

    # --- explanations --------------------------------------------------------------------
    def explain(self, s, move):
        """Why ``move`` is illegal now, as ``(ruling id, one sentence)``; covers every kind."""
        seat, kind, args = move.seat, move.kind, move.args
        if s.phase == "over":
            return ("G-4" if not s.result[0] else "CR-17"), f"the game is over ({s.result[2]})"
        if kind not in self.MOVE_ARGS:
            return "", f"'{kind}' is not a Chore Race move; moves are {', '.join(self.MOVE_ARGS)}"
        if seat not in self.to_act(s):
            if s.phase == "react":
                return "CR-7", f"only seat {s.pending[2]}, the target, may answer the {self.key_name[s.pending[0]]} now"
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
        return getattr(self, "_why_" + s.phase)(s, seat, kind, args)

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

    def _bad_pos(self, s, seat, p):
        return not 0 <= p < len(s.tableaus[seat])

    def _bad_seat(self, who, seat):
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
            if self._bad_pos(s, seat, args[0]):
                return "CR-5", f"there is no chore {args[0]} in seat {seat}'s own tableau"
        elif kind != "end":
            if s.slots[1]:
                return "CR-4", "the action slot is already used this turn"
            if kind in TARGETED:
                target = args[1] if kind == "swap" else args[0]
                if self._bad_seat(target, seat):
                    return "CR-7", f"{self.key_name[kind]} must name one opponent, not {target}"
                if kind != "teamwork" and s.protected[target]:
                    return "CR-16", f"seat {target} is protected until their next turn"
            if kind == "inspection":
                if self._bad_pos(s, args[0], args[1]):
                    return "CR-13", f"seat {args[0]} has no chore {args[1]}"
                if s.tableaus[args[0]][args[1]][1] == 0:
                    return "CR-13", "a chore with 0 progress cannot be inspected"
            if kind in ("delegate", "teamwork") and not s.tableaus[seat]:
                return ("CR-9" if kind == "delegate" else "CR-10"), "you have no chore to receive the Done"
            if kind == "delegate" and self._has(s, args[0], "no_delegate"):
                return "CR-2", f"seat {args[0]} has Clean Your Room: opponents cannot Delegate to them"
            if kind in ("swap", "later") and self._bad_pos(s, seat, args[0]):
                return ("CR-11" if kind == "swap" else "CR-12"), f"you have no chore {args[0]}"
            if kind == "swap":
                if self._bad_pos(s, args[1], args[2]):
                    return "CR-11", f"seat {args[1]} has no chore {args[2]}"
                if self.options.chore_swap_needs_progress and s.tableaus[seat][args[0]][1] == 0:
                    return "CR-11", "option chore_swap_needs_progress: the chore you give needs 1+ progress"
        return "", f"'{kind}' is not possible now"

    def _why_react(self, s, seat, kind, args):
        if kind == "dodge" and s.pending[0] != "inspection":
            return "CR-7", "I'll Do It Later (Dodge) cancels only an Inspection"
        key = "later" if kind == "dodge" else "excuse"
        if not self._holds(s, seat, key):
            return "CR-7", f"seat {seat} holds no {self.key_name[key]}"
        return "CR-7", "this reaction is not possible now"

    def _why_place(self, s, seat, kind, args):
        if kind == "stop":
            return "CR-10", f"seat {s.placing[0][0]}'s Done must be placed"
        return ("CR-9" if s.placing[2] == "delegate" else "CR-10"), f"there is no chore {args[0]} in your tableau"

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
        ability = s.trigger[0]
        if kind != ability:
            return "CR-14", f"the trigger to resolve is {ability}"
        target = args[0]
        if self._bad_seat(target, seat):
            return "CR-2", f"choose an opponent, not {target}"
        if kind == "steal":
            return "CR-2", f"seat {target} has no card to steal"
        if s.protected[target]:
            return "CR-16", f"seat {target} is protected until their next turn"
        return "CR-2", f"seat {target}'s chore {args[1]} does not exist or has no progress"
