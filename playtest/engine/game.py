"""The game contract: what every game implements, and nothing game-specific.

A :class:`Game` is a rules object bound to a seat count and validated options. The
state it works on is the game's own mutable object (any class with an ``rng``
attribute and a ``dump()`` method); only the game reads or writes it. Callers go
through :class:`playtest.engine.match.Match`, which checks legality before applying,
keeps the record and never hands out the raw state to widgets or bots.

Three shapes of decision are covered by one idea, :meth:`Game.to_act`:

* the seat on turn (the usual case);
* a seat that is not on turn with a pending decision (a reaction window);
* several seats at once (secret simultaneous choices: each seat's choice stays in the
  state, hidden from the others' views, until all have chosen);

plus *open moves* (``OPEN_MOVES``): kinds any seat may make at any moment the game
allows, even when it is nobody's decision (Lazy Sunday's quick discard).
"""
from __future__ import annotations

import json
import random
import re
import reprlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable, Literal, Mapping, Protocol, Sequence, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .bot import Bot, RandomBot
from .errors import IllegalMove, OptionError, requirements, suggest
from .moves import Move

SPECTATOR = None
"""Pass as ``seat`` to :meth:`Game.view` for the public view: what a spectator or a
teacher projecting the table may see (no hidden card at all)."""

ALL_CARDS = "all"
"""The name of the all-cards view (:meth:`Game.all_cards_view`) where a viewer is named:
the scenario debugger's view choice and ``playtest replay --all`` (its JSON ``"viewer"``).
Never a seat, and never passed to :meth:`Game.view`."""


RULING_ID = re.compile(r"([A-Z]{1,4})-([1-9][0-9]*)")
"""A ruling id: an uppercase prefix of 1 to 4 letters, a dash and a number from 1
(``"CR-7"``, ``"G-2"``, ``"CE-12"``). Games declare theirs in :attr:`Game.RULINGS`;
texts cite them (:func:`playtest.scenarios.scenario.cited_rulings`)."""


G_RULINGS: Mapping[str, str] = {
    "G-1": "seats are numbered in turn order, and play passes to the next seat (clockwise)",
    "G-2": "the first seat starts unless the first-player option picks another seat or a random one",
    "G-3": "every shuffle comes from the game's one seeded random stream, so its record replays it exactly",
    "G-4": "a safety cap on turns (max_turns) ends a game that runs too long, as unfinished",
}
"""The engine's ruling ids (RULINGS.md, "General") -> one line; every game may cite them."""


MAX_TURNS = 10_000
"""The largest ``max_turns`` (G-4): 40 times the longest game the heuristic bots play
(a 6-seat Lazy Sunday match to 100 with the Great Escape, 226 turns at most in 6 seeds)."""


class BaseOptions(BaseModel):
    """Options every game has (RULINGS G-2, G-4). Games subclass this model.

    Each field's ``description`` starts with the RULINGS id it comes from; the new-game
    panel and the error messages show it. An option that sets a game's length has a
    range a session can use, declared with the field (``ge``/``le``), said in its
    description and in RULINGS.md ("The kit's ranges for a game's length"): here
    ``max_turns``, 1 to :data:`MAX_TURNS` (G-4). A value out of range is refused with
    that range, before any game is dealt.
    """

    # strict: "2" is not 2 and "yes" is not True; records and panels pass real values
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    first_player: int | Literal["random"] = Field(
        0, description="G-2: the seat that starts, or 'random' (drawn from the game's seeded stream)")
    max_turns: int = Field(
        1000, ge=1, le=MAX_TURNS, description=f"G-4: safety cap, 1 to {MAX_TURNS:,} turns; reaching it ends the "
                                              "game as unfinished")


@dataclass(frozen=True)
class Event:
    """One line of the game log.

    Attributes:
        text: what everyone may read (never a hidden card's name).
        private: seat -> the fuller text that seat may read instead (it saw more).
    """

    text: str
    private: Mapping[int, str] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> str:
        """The text ``seat`` may read; the public text for ``SPECTATOR`` (None)."""
        return self.private.get(seat, self.text) if seat is not None else self.text

    def for_all(self) -> str:
        """The public text, then what each seat read instead, for the all-cards view
        (:data:`ALL_CARDS`): ``"Seat 1 draws. (seat 1 read: Seat 1 (you) draws Nap.)"``."""
        return self.text + "".join(f" (seat {seat} read: {text})" for seat, text in sorted(self.private.items())
                                   if text != self.text)


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    Attributes:
        finished: False when the G-4 ``max_turns`` cap stopped it (an *unfinished* game).
        winners: the winning seats (several on a shared win; empty on a draw or when
            unfinished).
        scores: one number per seat, in the game's own unit (VP, effort, Care Points).
        reason: one sentence, e.g. ``"seat 2 called NOT ME! and was lowest"``.
    """

    finished: bool
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str


class Game(ABC):
    """A game's rules, bound to a seat count and options.

    Subclasses set the class attributes and implement the abstract methods.

    Args:
        seats: number of seats, ``min_seats``..``max_seats``.
        options: a mapping of option name -> value; missing names take their defaults.

    Raises:
        OptionError: a seat count out of range, an unknown option or a bad value; the
            message lists the options the game accepts.
    """

    name: ClassVar[str]                 # registry key, e.g. "lazy_sunday"
    title: ClassVar[str]                # e.g. "Lazy Sunday"
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    Options: ClassVar[type[BaseOptions]] = BaseOptions
    OPEN_MOVES: ClassVar[frozenset[str]] = frozenset()
    MOVE_ARGS: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """Every move kind the game has -> the names of its arguments (``()`` for none).
    Move builders create one control per kind up front from it, so list them all."""
    MOVE_WORDS: ClassVar[Mapping[str, tuple[str, str]]] = {}
    """How a board without labels of its own (the generic board,
    :mod:`playtest.widgets.board`) words each move kind: kind -> (button text, hover text
    citing the ruling), e.g. ``{"draw": ("Draw", "CE-6: draw a card from the deck")}``.
    A kind left out is labelled by its name."""
    VIEW_WORDS: ClassVar[Mapping[str, str]] = {}
    """How the scenario debugger's "What changed" names the places of a view: a dotted
    view path pattern (``*`` matches any one key or list index) -> words, where
    ``{0}``, ``{1}`` are the keys the stars matched and ``{viewer}`` the view's seat,
    e.g. ``{"lists.*": "seat {0}'s list", "lists.*.*": "seat {0}'s position {1}",
    "vp.*": "VP seat {0}"}``. A list of cards whose ``path.*`` is named is told
    position by position ("seat 1's position 5: Nap left the list"), another by the
    cards that came and went ("seat 0's hand: +Done"). Paths left out are worded from
    their keys (``"lists #0 #5"``)."""
    # --- what the game package declares (read through the entry point's class) --------
    BOTS: ClassVar[Mapping[str, type[Bot]]] = {"random": RandomBot}
    """The game's bots, weakest first: name -> a :class:`~playtest.engine.bot.Bot`
    subclass (``make_bot`` calls its ``for_game``). Tables, the lab, the skill ladder and
    the new-game panel offer these names; ``"heuristic"``, if declared, is a new seat's
    default bot and a search's rollout policy."""
    RULINGS: ClassVar[Mapping[str, str]] = {}
    """The game's own ruling ids -> one line saying the rule, e.g.
    ``{"CE-4": "play a card of the suit to match or of the top card's rank, or an 8"}``:
    the ids its refusals (:class:`IllegalMove`), explanations, tutorial and scenarios
    cite, besides the engine's :data:`G_RULINGS`. Scenario checks accept these ids and no others;
    :func:`playtest.testing.check_game` fails a refusal citing another."""
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    """Named option sets a playtester picks in one click (e.g. Night Shift's
    ``"with reshuffle"``): preset name -> options."""
    BOARD: ClassVar[str | None] = None
    """The game's own board widget as ``"module:Class"`` (a
    :class:`playtest.widgets.GameBoard` subclass, imported only where a board is drawn,
    so the rules never import ipywidgets), e.g.
    ``"playtest.games.lazy_sunday.widget:LazySundayBoard"``. None: the kit's generic
    board (:class:`playtest.widgets.board.ViewBoard`) draws the view."""
    TUTORIAL: ClassVar[Path | None] = None
    """The game's "learn to play" lessons: a tutorial TOML file (see
    :mod:`playtest.tutorials`), usually ``Path(__file__).with_name("tutorial.toml")``;
    None: the game has no learn page."""
    EXAMPLES: ClassVar[Path | None] = None
    """A folder of the game's example scenarios (``*.toml``, see
    :mod:`playtest.scenarios`), offered by the scenario debugger and the lobby; None:
    none."""
    SEATS: ClassVar[int | None] = None
    """The seat count a new game starts with on the game's page (None: ``min_seats``)."""
    SETUP: ClassVar[Mapping[str, str]] = {}
    """What a pinned setup (:meth:`~playtest.engine.game.Pinnable.pin`) may fix: key -> what its value is (its shape,
    range and ruling). Empty for a game that cannot pin its setup."""
    SEARCH_ITERATIONS: ClassVar[int] = 300
    """The search bot's default budget (plain ``"ismcts"``), in iterations per decision:
    about 1 s a decision at most on one core at the game's usual tables (measured by
    ``benchmarks/bench_bots.py``; a game sets its own, and may set it per instance,
    e.g. by seat count)."""
    keep_log: bool = True
    """Whether :meth:`apply` must return the move's log events. :class:`Match` sets it to
    its own ``keep_log``; when False (simulations) a game may skip building the event
    text, but changes the state exactly as when True, and logs the same text when True."""

    def __init__(self, seats: int, options: Mapping[str, Any] | None = None):
        if type(seats) is not int or not self.min_seats <= seats <= self.max_seats:
            allowed = (f"exactly {self.min_seats}" if self.min_seats == self.max_seats
                       else f"{self.min_seats} to {self.max_seats}")
            raise OptionError(f"{self.title} takes {allowed} seats, not {seats!r}")
        self.seats = seats
        self.options = self.validate_options(options or {})
        first = self.options.first_player
        if isinstance(first, int) and not 0 <= first < seats:
            raise OptionError(f"option first_player={first} is not a seat: use 0..{seats - 1} or 'random' (G-2)")

    @classmethod
    def validate_options(cls, options: Mapping[str, Any]) -> BaseOptions:
        """Validate ``options`` against ``cls.Options``.

        Raises:
            OptionError: naming each bad option, what it must be, and what is allowed
                (that option's default and ruling; for an unknown name, every option's
                name and the nearest one).
        """
        if isinstance(options, cls.Options):
            return options
        if not isinstance(options, Mapping):
            raise OptionError(f"{cls.title} options are a mapping of name -> value, not {options!r}. "
                              f"Accepted: {cls.describe_options()}")
        try:
            return cls.Options(**dict(options))
        except ValidationError as exc:
            by_option: dict[str, list[dict]] = {}
            for error in exc.errors():
                by_option.setdefault(str(error["loc"][0]) if error["loc"] else "options", []).append(error)
            fields = cls.Options.model_fields
            problems = "; ".join(_problem(name, errors, list(fields)) for name, errors in by_option.items())
            # what is allowed: the option's own line (default and ruling), or every option's name
            known = [name for name in by_option if name in fields]
            allowed = "; ".join(f"{name} (default {fields[name].default!r}) {fields[name].description}"
                                for name in known)
            if len(known) < len(by_option):
                allowed = "; ".join(filter(None, [allowed, f"the options are {', '.join(fields)}"]))
            raise OptionError(f"bad {cls.title} option: {problems}. Allowed: {allowed}") from None

    @classmethod
    def describe_options(cls) -> str:
        """One line per option: name, default and its RULINGS description."""
        return "; ".join(f"{name} (default {f.default!r}) {f.description}"
                         for name, f in cls.Options.model_fields.items())

    def first_seat(self, rng: random.Random) -> int:
        """The starting seat per G-2 (``first_player``), drawing from ``rng`` if random."""
        first = self.options.first_player
        return rng.randrange(self.seats) if first == "random" else first

    # --- the contract -------------------------------------------------------------
    @abstractmethod
    def new_state(self, rng: random.Random):
        """Set up a new game. ``rng`` is the game's one seeded stream (G-3); keep it as
        ``state.rng`` and draw every random event from it."""

    @abstractmethod
    def to_act(self, state) -> tuple[int, ...]:
        """Seats with a pending decision now, in the order they are asked. Empty once
        the game is over."""

    @abstractmethod
    def legal_moves(self, state, seat: int) -> list[Move]:
        """Every move ``seat`` may make now, open moves included. Never raises."""

    @abstractmethod
    def apply(self, state, move: Move) -> list[Event]:
        """Apply a move already known to be legal; return the log events."""

    @abstractmethod
    def view(self, state, seat: int | None) -> dict:
        """What ``seat`` may know now, as plain JSON data; ``SPECTATOR`` (None) for the
        public view. This is the only thing widgets and browsers ever receive."""

    def all_cards_view(self, state) -> dict:
        """Every card of the position face up, as plain JSON data: for the person
        debugging a scenario alone (the scenario debugger's "All cards" view, ``playtest
        replay --all``). No seat, bot, browser page or live table ever receives it;
        expectations and "what a seat sees" use :meth:`view`.

        Returns:
            the spectator's view (its shape and keys, so a board draws it as the
            spectator's, ``"viewer"`` None) with every card it shows face down or leaves
            out named where that shape has room for it (e.g. a face-down list position,
            a hand), plus ``"all_cards"``: zone in words -> the card names in it, in
            order (a pile or deck top first), for every zone the spectator's view does
            not show card by card (e.g. ``{"deck (top first)": ["Nap", ...]}``).
            Default, for a game without its own: the spectator's view plus
            ``{"state": state.dump()}`` under ``"all_cards"`` (the state as the game
            stores it). Never raises.
        """
        view = self.view(state, SPECTATOR)
        view["all_cards"] = {"state": state.dump()}
        return view

    @abstractmethod
    def outcome(self, state) -> Outcome | None:
        """None while the game goes on."""

    def round_break(self, state) -> bool:
        """True while a round's results are on show and the next round waits to be dealt
        (e.g. Lazy Sunday's ``round_over`` phase, LS-7/LS-9). A live table holds the
        deal until every human at it has seen the reveal. Default: never."""
        return False

    def decision_moves(self, state, seat: int) -> list[Move]:
        """The legal moves of ``seat`` that answer a pending decision of that seat: the
        legal moves without the open moves (empty when ``seat`` has no decision now).
        The default filters :meth:`legal_moves`; a game with many open moves overrides
        this and :meth:`open_moves` so that bots build only the list they read. The two
        together must hold exactly the legal moves."""
        legal = self.legal_moves(state, seat)
        open_kinds = self.OPEN_MOVES
        return [m for m in legal if m.kind not in open_kinds] if open_kinds else legal

    def open_moves(self, state, seat: int) -> list[Move]:
        """The legal open moves of ``seat`` now (kinds in ``OPEN_MOVES``); see
        :meth:`decision_moves`."""
        open_kinds = self.OPEN_MOVES
        return [m for m in self.legal_moves(state, seat) if m.kind in open_kinds] if open_kinds else []

    def shape_problem(self, move: Move) -> str:
        """Why ``move`` has a shape no position of the game offers ("" when its shape is
        fine): its arguments, counted and typed against ``MOVE_ARGS``, whatever the
        position. A scenario holding such a move has a mistake in the file, not a rules
        result. Default: the number of arguments must be that of ``MOVE_ARGS[kind]``
        (a kind not in ``MOVE_ARGS`` is for :meth:`~playtest.engine.game.Explains.explain`); games with optional or
        text arguments override it."""
        names = self.MOVE_ARGS.get(move.kind)
        if names is None or len(move.args) == len(names):
            return ""
        shape = " ".join(f"<{name}>" for name in names)
        return f"'{move.kind}' takes {len(names)} argument(s): {move.seat} {move.kind} {shape}".rstrip()

    def is_legal(self, state, move: Move, legal: list[Move]) -> bool:
        """Whether ``move`` is legal, given ``legal`` = ``legal_moves(state, move.seat)``.
        Override only for legal moves too many or too odd to list."""
        return move in legal

    def bot_view(self, state, seat: int) -> dict:
        """What a bot at ``seat`` decides from: its view plus what that seat remembers
        having seen (perfect recall). Defaults to :meth:`view`."""
        return self.view(state, seat)

    # --- search tuning (playtest.engine.search; the game must be Searchable) --------
    def search_classes(self, view: Mapping, moves: Sequence[Move]) -> list[list[Move]]:
        """``moves`` (a seat's legal moves) grouped into classes the seat cannot tell
        apart from its bot ``view`` (e.g. a card put into any of its unknown positions
        alike): the search weighs one move of each class and plays one of the best class
        at random, so alike moves neither split its samples nor win by noise alone.
        Default: every move a class of its own."""
        return [[move] for move in moves]

    SEARCH_FLAT: ClassVar[bool] = False
    """True: the search bot weighs its decision's moves alone, each sample played out once
    after every move by the game's heuristic bot at every seat, deciding from that seat's
    bot view of the sample (a flat search on common samples; see
    :mod:`playtest.engine.search`). False (the default): one IS-MCTS tree, random playouts."""

    SEARCH_PLAYOUT_MOVES: ClassVar[int | None] = None
    """How many moves a search playout plays before it stops and scores the position with
    :meth:`evaluate` (0: at once, right after the search tree's new move); None (the
    default): playouts go on to the end of the game. Ignored for a game without its own
    :meth:`evaluate`."""

    # --- balance lab (playtest.lab; see also the capabilities below) ----------------
    HELD_COUNTERS: ClassVar[tuple[str, ...]] = ()
    """The card counters :meth:`card_counts` counts once, when the game is over (what a
    seat holds then, e.g. Lazy Sunday's ``kept``), as opposed to choices made during the
    game (``played``, ``bought``): the balance lab shows them apart, as what a seat holds
    at the end says more about how the game ended than about the card."""

    LOW_SCORE_WINS: ClassVar[bool] = False
    """Whether the lowest score is the best (Lazy Sunday's effort; VP and Care Points: no).
    The balance lab ranks the seats that did not win by their scores in this direction."""

    def end_conditions(self) -> Mapping[str, str]:
        """The ways a game can end under these options (the G-4 cap aside): key -> one line
        with its ruling, e.g. ``{"patience": "a seat at 0 Patience loses (NS-10)"}``, for
        the design health report (an ending no game reaches). Default: none."""
        return {}

    def end_condition(self, state) -> str | None:
        """The key of :meth:`end_conditions` that ended the game in ``state``; None while it
        goes on, when the G-4 cap stopped it, or for a game that does not say (default)."""
        return None

    def check(self, state, move: Move, legal: list[Move]) -> None:
        """Raise :class:`IllegalMove` (naming the ruling and the legal alternatives)
        unless ``move`` is legal now."""
        if not self.is_legal(state, move, legal):
            ruling, reason = (self.explain(state, move) if isinstance(self, Explains)
                              else ("", f"'{move.kind}' is not one of seat {move.seat}'s moves now"))
            raise IllegalMove(move, ruling, reason, legal)


# --- optional capabilities -------------------------------------------------------------
# A game implements a capability by defining its methods; the kit asks
# ``isinstance(game, Capability)`` (the Game base defines none of them), never compares
# methods with the base class.


@runtime_checkable
class Searchable(Protocol):
    """The game can sample full states from a seat's knowledge, so the search bot
    (:class:`~playtest.engine.search.ISMCTSBot`, ``"ismcts"``) and ``check_game``'s
    determinizer property can play and check it."""

    def copy_state(self, state):
        """An independent copy of ``state`` that :meth:`apply` may change without touching
        the original; the copy shares the original's random stream object (``rng``), so
        set the copy's own stream if both are played on. A search copies a state for every
        iteration, so use plain list copies (``copy.deepcopy(state, {id(state.rng):
        state.rng})`` is the slow way)."""
        ...

    def determinizer(self, view: Mapping, seat: int) -> Callable[[random.Random], Any]:
        """A sampler of full states consistent with what ``seat`` knows: "determinize
        this seat's knowledge with this random stream" (information-set search).

        Args:
            view: the seat's :meth:`bot_view` (its view plus its memory), as a Mapping;
                the only input: a sampler never reads the real state.
            seat: the seat whose knowledge it is.

        Returns:
            ``sample(rng) -> state``: a new state, every card the view shows or the
            memory holds in its place, every other card drawn from ``rng`` among the
            cards the seat cannot place (the public counts say how many go where); the
            state's own random stream is ``rng`` itself. For the seat, :meth:`view` and
            :meth:`bot_view` of a sample equal ``view`` and its
            :meth:`decision_moves` are the same. Worked out once per decision, called
            once per search iteration.

        Raises:
            ValueError: ``view`` is not one this game's rules can reach (e.g. more
                copies of a card than the deck holds).
        """
        ...


@runtime_checkable
class SearchesOpenMoves(Protocol):
    """In a search's simulated play, seats make the game's open moves (``OPEN_MOVES``)."""

    def search_open_move(self, state, rng: random.Random) -> Move | None:
        """In a search's simulated play, the open move (``OPEN_MOVES``) a seat makes now,
        as the game's heuristic bot would (e.g. a Lazy Sunday seat slapping a card it
        remembers to match the DONE top, LS-5), or None. When several seats would,
        ``rng`` picks who is first. Called after every simulated move, so keep it cheap;
        it reads the sampled state, whose per-seat knowledge the sample made up."""
        ...


@runtime_checkable
class Evaluates(Protocol):
    """A search playout may stop early (:attr:`Game.SEARCH_PLAYOUT_MOVES`) and score the
    position with the game's own judgement."""

    def evaluate(self, state) -> tuple[float, ...] | None:
        """In a search's playout stopped before the end (:attr:`SEARCH_PLAYOUT_MOVES`), each
        seat's reward for the position: its chance to win as the game judges it, each in
        0..1 and summing to 1 at most (e.g. from the VP margins, through
        :func:`playtest.engine.search.margin_rewards`). Reads the sampled state, so it may
        use cards the searching seat does not see. Called once per search iteration, so
        keep it cheap. None: the game does not say for this position, and a stopped
        playout counts the leaders (:class:`Leads`) as the winners."""
        ...


@runtime_checkable
class Glances(Protocol):
    """Bots read a few keys of their view cheaply before every move."""

    def bot_glance(self, state, seat: int) -> dict | None:
        """A few keys of :meth:`bot_view`, cheap to build, that bots read before every
        move (e.g. what an open move needs), each with exactly its ``bot_view`` value.
        The table serves those keys from here and builds the whole bot view only when a
        bot reads another one. None: no shortcut now."""
        ...


@runtime_checkable
class Reacts(Protocol):
    """The game has reaction windows a seat may let pass (a live table's reaction limit
    plays the default when time runs out; the lobby offers the limit)."""

    def reaction_default(self, state, seat: int) -> Move | None:
        """The move ``seat`` makes by letting a reaction window pass, if it has one open
        now (e.g. Chore Race's ``accept``, CR-7), else None. A live table with a time
        limit for reactions plays it when the limit runs out."""
        ...


@runtime_checkable
class CountsTurns(Protocol):
    """The game counts turns as G-4's ``max_turns`` does (the lab's ``turns``, score
    curves' clock, a table's turn count)."""

    def turns_played(self, state) -> int | None:
        """Turns played so far, counted as G-4's ``max_turns`` counts them."""
        ...


@runtime_checkable
class Leads(Protocol):
    """The game says who is ahead (the lab's lead changes, a stopped search playout's winners)."""

    def leaders(self, state) -> tuple[int, ...] | None:
        """The seats ahead right now by the game's own measure of who would win (ties:
        several seats), for the balance lab's lead changes (Ludii's LeadChange). Called
        after every move of a simulation, so keep it cheap. None: no seat is ahead now."""
        ...


@runtime_checkable
class CountsCards(Protocol):
    """The game counts cards played, bought or kept (the lab's per-card counters)."""

    def card_counts(self, state, move: Move | None) -> Iterable[tuple[str, int, str]]:
        """Per-card counters for the balance lab: ``(counter, seat, card name)`` triples,
        each adding 1, e.g. ``("played", 2, "Excuse")``. Called after each ``move`` has
        been applied, and once more with ``move=None`` when the game is over (for
        end-of-game counters such as ``"kept"``)."""
        ...

    def card_counters(self) -> list[tuple[str, str]]:
        """Every ``(counter, card name)`` pair :meth:`card_counts` can count in this game
        (its options included), so that the balance lab shows a card nobody played or
        kept, as a zero, rather than leaving it out."""
        ...


@runtime_checkable
class Scores(Protocol):
    """The game says each seat's score during play (the lab's score curves and stalls)."""

    def scores(self, state) -> tuple[float, ...] | None:
        """Each seat's score right now, in the unit of :attr:`Outcome.scores` (VP, Care
        Points, effort so far), for the balance lab's score curves and stalls; read once
        per turn of a traced simulation."""
        ...


@runtime_checkable
class HasResources(Protocol):
    """The game names resources a seat holds and their bounds (the design health report)."""

    def resources(self, state) -> Mapping[str, tuple[float, ...]]:
        """Per resource a seat holds (e.g. ``"patience"``), each seat's amount right now,
        for the design health report (a bound the rules allow that no game reaches); read
        once per turn of a traced simulation."""
        ...

    def resource_bounds(self) -> Mapping[str, tuple[float | None, float | None]]:
        """Per resource of :meth:`resources`, the least and the most the rules allow
        (None: no bound), e.g. ``{"patience": (0, 25)}``."""
        ...


@runtime_checkable
class Pinnable(Protocol):
    """A scenario or a tutorial can fix the game's setup (the keys of ``Game.SETUP``);
    a game that is not Pinnable refuses any pinned setup."""

    def pin(self, state, setup: Mapping[str, Any]) -> None:
        """Fix what the deal left to chance and what play would have built up (the keys of
        ``SETUP``: deck order, each seat's cards, discard piles, and counters and zones
        such as scores, the round or the turn number) in a freshly set-up ``state``, so a
        scenario rebuilds an exact situation in a few lines. Keys left out keep what the
        seeded deal gave. Cards are moved, never created or lost
        (:mod:`playtest.engine.pinning` helps). Updates ``state.setup_events`` to
        describe the pinned setup.

        Args:
            state: from :meth:`new_state`. setup: key -> plain TOML/JSON value.

        Raises:
            OptionError: an unknown key (with the nearest one), or a value that names a
                card the game does not have, uses more copies than exist, puts a card
                where the rules never let it be, is out of its range, or does not fit
                the seat count; the message names the key, what is allowed and the
                ruling. ``state`` may be half-pinned afterwards: callers pin a fresh
                state and discard it on error.
        """
        ...


@runtime_checkable
class Explains(Protocol):
    """The game says why a refused move is illegal, with its ruling; a game that does
    not explain refuses a move with the engine's plain reason ("'x' is not one of seat
    0's moves now") and no ruling."""

    def explain(self, state, move: Move) -> tuple[str, str]:
        """Why ``move`` is illegal now: ``(ruling id, reason)``. Called only for moves
        that :meth:`is_legal` refused, so it may be slow and thorough."""
        ...


_GIVEN = reprlib.Repr()
_GIVEN.maxstring = _GIVEN.maxother = 80     # an option's value quoted in a message: at most this long


def _problem(name: str, errors: list[dict], names: list[str]) -> str:
    """The pydantic errors of one option as ``name: must be <what> (got value)``, in
    plain words (a union's branches, e.g. a seat number or ``'random'``, joined by "or");
    an unknown option names the nearest known one. The value is quoted shortened."""
    given = _GIVEN.repr(errors[0].get("input"))
    if errors[0]["type"] == "extra_forbidden":
        return f"{name}: no such option{suggest(name, names)} (got {given})"
    return f"{name}: {requirements(errors)} (got {given})"


def fingerprint(state) -> str:
    """A canonical text of the whole state, random stream included: two states with the
    same fingerprint are the same game position, byte for byte (G-3)."""
    return json.dumps({"state": state.dump(), "rng": state.rng.getstate()}, sort_keys=True, default=list)


def ruling_lines(game: Game | type[Game]) -> dict[str, str]:
    """Every ruling id ``game`` (a Game class or instance) may cite -> its one line: the
    engine's :data:`G_RULINGS` first, then the game's own (:attr:`Game.RULINGS`), in the
    order declared. Scenario checks, ``check_game``, the explanations of a refused move,
    the game page's rulings list and ``playtest rulings`` all read the ids and lines
    from here, e.g. ``ruling_lines(game).get("CR-7", "")`` for the line of one id."""
    return {**G_RULINGS, **game.RULINGS}
