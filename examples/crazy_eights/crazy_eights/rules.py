"""Crazy Eights as OpenSpiel's ``crazy_eights`` plays it (RULINGS.md beside this package:
CE-1..CE-12), written against the playtest engine contract (:class:`playtest.engine.Game`).

Moves (text form ``"<seat> <kind> <args>"``):

* ``play <card>``: play a card from the hand onto the discard pile, e.g. ``"0 play 8S"``
  (CE-4; a card is its rank ``2``..``10``, ``J``, ``Q``, ``K``, ``A`` and its suit letter
  ``C``, ``D``, ``H``, ``S``);
* ``nominate <suit>``: after an eight, name the suit to match: ``clubs``, ``diamonds``,
  ``hearts`` or ``spades`` (CE-5);
* ``draw``: draw a card from the deck (CE-6); under a draw-two penalty, draw every card
  owed (CE-10);
* ``pass``: end the turn without playing (CE-6, CE-7).

The view is drawn by the kit's generic board (:mod:`playtest.widgets.board`): it holds
the zone vocabulary's ``"zones"`` (the deck, the discard pile, each seat's hand, and the
counters) plus ``"suit"`` (the suit to match), ``"nominating"``, ``"direction"``,
``"draws"`` (cards drawn this turn), ``"owed"`` (draw-two cards owed), ``"plays"``
(card plays so far), ``"turn_seat"``, ``"to_act"`` and ``"outcome"``.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Mapping

from pydantic import Field

from playtest.engine import BaseOptions, Bot, Event, Game, ISMCTSBot, Move, OptionError, Outcome, RandomBot

SUITS = ("clubs", "diamonds", "hearts", "spades")
"""OpenSpiel's suit order (CE-1): a card's id is ``rank * 4 + suit``."""
SUIT_LETTERS = "CDHS"
SUIT_SIGNS = "♣♦♥♠"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""OpenSpiel's rank order (CE-1): rank 0 is the two, rank 12 the ace."""
EIGHT, QUEEN, ACE, TWO = 6, 10, 12, 0
CODES = tuple(f"{RANKS[c // 4]}{SUIT_LETTERS[c % 4]}" for c in range(52))
"""A card's text in a move, by its id: ``"2C"``, ``"2D"``, ..., ``"AS"``."""
NAMES = tuple(f"{RANKS[c // 4]}{SUIT_SIGNS[c % 4]}" for c in range(52))
"""A card's name on the board and in the log: ``"8♠"``."""
BY_CODE = {code: c for c, code in enumerate(CODES)}


def penalty(card: int) -> int:
    """What a card left in a hand costs at the end (CE-9), as OpenSpiel's ``ScoreUp``
    counts it: 50 for an eight, 10 for a J, Q, K or A, and the card's id + 2 for any
    other card (``card``: an id 0..51, ``rank * 4 + suit``)."""
    rank = card // 4
    return 50 if rank == EIGHT else 10 if rank >= 9 else card + 2


class CrazyEightsOptions(BaseOptions):
    """Crazy Eights options: OpenSpiel's parameters (CE-1, CE-6, CE-8, CE-10, CE-11),
    plus G-2 and G-4."""

    max_draw_cards: int = Field(
        5, ge=1, le=104, description="CE-6: the most cards a seat may draw in one turn (OpenSpiel's max_draw_cards)")
    max_plays: int = Field(
        100, ge=1, description="CE-8: the game ends and is scored after this many card plays "
                               "(OpenSpiel's max_turns)")
    use_special_cards: bool = Field(
        False, description="CE-10: Q skips the next seat, A reverses the direction, 2 makes the next seat "
                           "draw 2 (stackable)")
    reshuffle: bool = Field(
        False, description="CE-11: an empty deck is refilled by shuffling the discard pile under its top card")


class CrazyEightsState:
    """The whole position. Piles are lists of card numbers, the top last; a card number
    is ``copy * 52 + id`` (two decks above 5 seats, CE-1). Only :class:`CrazyEights`
    changes it; the fields mirror OpenSpiel's ``CrazyEightsState``."""

    def __init__(self, rng: random.Random, seats: int):
        self.rng = rng
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.dealer = 0
        self.turned: list[int] = []     # the cards turned up at the start, eights put back included (CE-3)
        self.turn = 0
        self.suit = 0                   # the suit to match (CE-4, CE-5)
        self.nominating = False         # the seat on turn played an eight and names a suit (CE-5)
        self.direction = 1              # +1 (seat + 1 next) or -1 after an ace (CE-10)
        self.draws = 0                  # cards drawn this turn before playing (CE-6)
        self.passes = 0                 # passes in a row on an empty deck (CE-7)
        self.plays = 0                  # card plays so far (CE-8)
        self.owed = 0                   # draw-two cards owed by the seat on turn (CE-10)
        self.turns = 0                  # turns begun, for G-4
        self.result: Outcome | None = None
        self.setup_events: list[Event] = []

    def dump(self) -> dict:
        """Everything, as plain data (for fingerprints)."""
        return {k: v for k, v in vars(self).items() if k not in ("rng", "setup_events", "result")} | {
            "result": self.result and [self.result.finished, self.result.winners, self.result.scores,
                                       self.result.reason]}


class HeuristicBot(Bot):
    """Plays the costliest card it may that is not an eight (CE-9), an eight only when
    nothing else fits, names the suit it holds most of, and draws before passing. Reads
    only its view and its legal moves."""

    name = "heuristic"

    def choose(self, view: Mapping, legal: list[Move]) -> Move:
        """One of ``legal`` (see the class docstring)."""
        hand = next(z["cards"] for z in view["zones"] if z["kind"] == "hand" and z["owner"] == view["viewer"])
        codes = [card["arg"] for card in hand]
        if legal[0].kind == "nominate":
            held = [SUITS[SUIT_LETTERS.index(code[-1])] for code in codes if code[:-1] != "8"]
            return max(legal, key=lambda m: (held.count(m.args[0]), m.args[0]))
        plays = [m for m in legal if m.kind == "play"]
        plain = [m for m in plays if not m.args[0].startswith("8")]
        if plain or plays:
            return max(plain or plays, key=lambda m: penalty(BY_CODE[m.args[0]]))
        return next((m for m in legal if m.kind == "draw"), legal[0])


class CrazyEights(Game):
    """Match the top card's suit or rank, or play an eight and name the suit; the first to
    play their last card ends the game, as OpenSpiel plays it.

    The rulings are CE-1..CE-12 (RULINGS.md beside this package).

    Args:
        seats: 2..15 (CE-1: one deck up to 5 seats, two above).
        options: see :class:`CrazyEightsOptions` (``max_draw_cards``, ``max_plays``,
            ``use_special_cards``, ``reshuffle``, ``first_player``, ``max_turns``).

    Raises:
        OptionError: a seat count out of range or a bad option.

    ``max_turns`` (G-4) counts turns (a seat's turn ends when play passes on); it stops
    the game unfinished only if CE-8's ending did not come first.
    """

    name = "crazy_eights"
    title = "Crazy Eights"
    min_seats, max_seats = 2, 15
    Options = CrazyEightsOptions
    MOVE_ARGS = {"play": ("card",), "nominate": ("suit",), "draw": (), "pass": ()}
    MOVE_WORDS = {"play": ("Play a card", "CE-4: a card of the suit to match or of the top card's rank; "
                                          "an eight at any time"),
                  "nominate": ("Name the suit", "CE-5: the next seat must match this suit (or play an eight)"),
                  "draw": ("Draw", "CE-6: draw a card from the deck (at most 5 a turn; option max_draw_cards)"),
                  "pass": ("Pass", "CE-6, CE-7: only after drawing the most cards allowed, or when the deck "
                                   "is empty")}
    BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "ismcts": ISMCTSBot}     # weakest first
    RULINGS = {
        "CE-1": "one 52-card deck for 2 to 5 seats, two decks for 6 to 15",
        "CE-2": "the seat before the first player deals 7 cards each to 2 seats, 5 each to more, one at a time",
        "CE-3": "the dealer turns up the first card; an eight goes back into the deck and another is turned up",
        "CE-4": "on your turn, play a card of the suit to match or of the top card's rank, or any eight",
        "CE-5": "after playing an eight you name the suit the next seat must match",
        "CE-6": "instead of playing you may draw, at most 5 cards a turn (option max_draw_cards); pass only after "
                "the last draw",
        "CE-7": "with an empty deck any seat may pass; seats + 1 passes in a row end the game",
        "CE-8": "the game ends when a seat plays its last card, after 100 card plays (option max_plays), or when "
                "blocked",
        "CE-9": "each seat scores minus its hand: 50 an eight, 10 a J, Q, K or A, another card its id + 2 "
                "(a card's hover text says)",
        "CE-10": "special cards: Q skips the next seat, A reverses play, 2 makes the next seat draw 2 (stackable)",
        "CE-11": "reshuffle: an empty deck is refilled by shuffling the discard pile under its top card",
        "CE-12": "a seat sees its own hand, every hand's size, the deck's size and the whole discard pile",
    }
    LOW_SCORE_WINS = False
    PRESETS = {"special cards": {"use_special_cards": True}, "with reshuffle": {"reshuffle": True}}
    TUTORIAL = Path(__file__).with_name("tutorial.toml")       # "Learn to play Crazy Eights"
    EXAMPLES = Path(__file__).with_name("scenarios")           # the debugger's and the lobby's examples
    SEATS = 2                                                  # BOARD: None, the kit's generic board
    SETUP = {
        "hands": "one list of cards per seat, e.g. [\"8S\", \"10H\"]: its hand (CE-2 deals 7 cards to "
                 "2 seats, 5 to more, but any number 1+ may be pinned)",
        "top": "the card on the discard pile, not an eight (CE-3)",
        "deck_top": "the next cards of the deck, top first",
    }

    # --- setup -----------------------------------------------------------------------
    def new_state(self, rng: random.Random) -> CrazyEightsState:
        """Shuffle, deal and turn up the first card (CE-1..CE-3); the seat after the
        dealer starts (``first_player``, G-2)."""
        s = CrazyEightsState(rng, self.seats)
        s.deck = list(range(52 * self._decks()))
        rng.shuffle(s.deck)
        first = self.first_seat(rng)
        s.dealer = (first - 1) % self.seats
        for _ in range(self._hand_size()):
            for i in range(1, self.seats + 1):
                s.hands[(s.dealer + i) % self.seats].append(s.deck.pop())
        s.turn = s.dealer
        events = [Event(f"Seat {s.dealer} deals {self._hand_size()} cards each (CE-2).")]
        events += self._turn_up(s)
        s.setup_events = events
        return s

    def _decks(self) -> int:
        return 2 if self.seats > 5 else 1

    def _hand_size(self) -> int:
        return 7 if self.seats == 2 else 5

    def _turn_up(self, s: CrazyEightsState) -> list[Event]:
        """CE-3: the dealer turns up the deck's top card; an eight goes back into the
        deck at a random place and the next is turned up. With special cards the first
        card acts as if the dealer played it (CE-10). Starts the first turn."""
        events = []
        while True:
            card = s.deck.pop()
            s.turned.append(card)
            if card % 52 // 4 != EIGHT:
                break
            s.deck.insert(s.rng.randrange(len(s.deck) + 1), card)
            events.append(Event(f"{NAMES[card % 52]} is turned up and shuffled back into the deck (CE-3)."))
        self._start(s, card)
        events.append(Event(f"{NAMES[card % 52]} is turned up; seat {s.turn} starts."))
        return events

    def _start(self, s: CrazyEightsState, card: int) -> None:
        """The first turn, with ``card`` turned up: the seat after the dealer starts;
        with special cards, the card acts as if the dealer played it (CE-10)."""
        s.discard, s.suit, s.direction, s.owed, s.turns = [card], card % 4, 1, 0, 1
        rank = card % 52 // 4
        s.turn = (s.dealer + 1) % self.seats
        if self.options.use_special_cards:
            if rank == QUEEN:
                s.turn = (s.dealer + 2) % self.seats
            elif rank == ACE:
                s.turn, s.direction = (s.dealer - 1) % self.seats, -1
            elif rank == TWO:
                s.owed = 2

    def pin(self, s: CrazyEightsState, setup: Mapping[str, Any]) -> None:
        """Fix the hands, the discard pile's top and the deck's next cards (``SETUP``);
        cards are moved from wherever the deal put them, never created.

        Raises:
            OptionError: an unknown key, a card code that is no card, more copies of a
                card than the decks hold, an eight as the top (CE-3), or a hand count
                that is not the seat count.
        """
        unknown = set(setup) - set(self.SETUP)
        if unknown:
            raise OptionError(f"Crazy Eights cannot pin {', '.join(sorted(unknown))}; it pins {', '.join(self.SETUP)}")
        pool = sorted(s.deck + s.discard + [c for hand in s.hands for c in hand])

        def take(code, key: str) -> int:
            if not isinstance(code, str) or code.upper() not in BY_CODE:
                raise OptionError(f"setup '{key}': {code!r} is not a card; a card is its rank 2..10, J, Q, K, A and "
                                  f"its suit C, D, H, S, e.g. \"8S\" (CE-1)")
            wanted = BY_CODE[code.upper()]
            copy = next((c for c in pool if c % 52 == wanted), None)
            if copy is None:
                raise OptionError(f"setup '{key}': more {code.upper()} than the {self._decks()} deck(s) hold (CE-1)")
            pool.remove(copy)
            return copy

        hands = setup.get("hands")
        if hands is not None:
            if not isinstance(hands, list) or len(hands) != self.seats or not all(
                    isinstance(h, list) and h for h in hands):
                raise OptionError(f"setup 'hands' is one non-empty list of cards per seat ({self.seats} lists)")
            s.hands = [[take(code, "hands") for code in hand] for hand in hands]
        else:
            for hand in s.hands:
                for c in hand:
                    pool.remove(c)
        if "top" in setup:
            top = take(setup["top"], "top")
            if top % 52 // 4 == EIGHT:
                raise OptionError("setup 'top' cannot be an eight: an eight turned up goes back into the deck (CE-3)")
        elif s.discard[-1] in pool:
            top = s.discard[-1]
            pool.remove(top)
        else:
            raise OptionError(f"setup 'hands' holds the turned-up card {CODES[s.discard[-1] % 52]}: pin 'top' too")
        deck_top = [take(code, "deck_top") for code in setup.get("deck_top", [])]
        s.rng.shuffle(pool)
        s.deck = pool + deck_top[::-1]
        s.turned = [top]
        self._start(s, top)
        s.setup_events = [Event(f"A pinned deal: {NAMES[top % 52]} is turned up; seat {s.turn} starts.")]

    # --- play ------------------------------------------------------------------------
    def to_act(self, s: CrazyEightsState) -> tuple[int, ...]:
        """The seat on turn (CE-4), none once the game is over."""
        return () if s.result else (s.turn,)

    def legal_moves(self, s: CrazyEightsState, seat: int) -> list[Move]:
        """OpenSpiel's ``PlayLegalActions`` for the seat on turn (CE-4..CE-7, CE-10):
        plays in card order, then draw, then pass."""
        if s.result or seat != s.turn:
            return []
        if s.nominating:
            return [Move(seat, "nominate", (suit,)) for suit in SUITS]
        moves = []
        hand = sorted({c % 52 for c in s.hands[seat]})
        if s.owed:
            moves += [Move(seat, "play", (CODES[c],)) for c in hand if c // 4 == TWO]
            moves.append(Move(seat, "draw"))
        else:
            top = s.discard[-1] % 52 // 4
            moves += [Move(seat, "play", (CODES[c],)) for c in hand
                      if c // 4 == EIGHT or c % 4 == s.suit or c // 4 == top]
            if s.deck and s.draws != self.options.max_draw_cards:
                moves.append(Move(seat, "draw"))
        if s.draws == self.options.max_draw_cards or not s.deck:     # OpenSpiel's can_pass_action_
            moves.append(Move(seat, "pass"))
        return moves

    def explain(self, s: CrazyEightsState, move: Move) -> tuple[str, str]:
        """Why ``move`` is not legal now: the ruling it breaks and one sentence."""
        if s.result:
            return "CE-8", "the game is over"
        if move.seat != s.turn:
            return "CE-4", f"it is seat {s.turn}'s turn"
        if s.nominating and move.kind != "nominate":
            return "CE-5", "an eight was played: name the suit to match first (nominate clubs, diamonds, hearts or spades)"
        if move.kind == "nominate":
            if not s.nominating:
                return "CE-5", "a suit is named only right after playing an eight"
            return "CE-5", f"{move.args[0] if move.args else 'that'!r} is not a suit: clubs, diamonds, hearts or spades"
        if move.kind == "play":
            code = move.args[0] if move.args else ""
            if code not in BY_CODE:
                return "CE-1", (f"{code!r} is not a card: its rank 2..10, J, Q, K or A then its suit C, D, H or S, "
                                f"e.g. 8S")
            card = BY_CODE[code]
            if card not in {c % 52 for c in s.hands[move.seat]}:
                return "CE-4", f"{NAMES[card]} is not in seat {move.seat}'s hand"
            if s.owed:
                return "CE-10", f"seat {move.seat} owes {s.owed} cards: draw them, or stack a 2 before drawing"
            return "CE-4", (f"{NAMES[card]} matches neither the suit to match ({SUITS[s.suit]}) nor the top card's "
                            f"rank ({RANKS[s.discard[-1] % 52 // 4]}); an eight may always be played")
        if move.kind == "draw":
            if not s.deck:
                return "CE-7", "the deck is empty: play or pass"
            return "CE-6", f"seat {move.seat} has drawn {s.draws} cards this turn, the most allowed: play or pass"
        if move.kind == "pass":
            return "CE-6", (f"a seat passes only after drawing {self.options.max_draw_cards} cards, or when the deck "
                            f"is empty: play a card or draw")
        return "", f"'{move.kind}' is not a Crazy Eights move: play, nominate, draw or pass"

    def apply(self, s: CrazyEightsState, move: Move) -> list[Event]:
        """Apply a legal move, as OpenSpiel's ``ApplyPlayAction`` and the chance deals
        that follow a draw (CE-4..CE-11)."""
        seat, n = move.seat, self.seats
        if move.kind == "pass":
            s.passes = s.passes + 1 if not s.deck else 0
            if s.passes == n + 1:
                return [Event(f"Seat {seat} passes.")] + self._end(s, "nobody can play or draw (CE-7)")
            if s.draws == self.options.max_draw_cards:
                s.draws = 0
            return [Event(f"Seat {seat} passes.")] + self._next(s, 1)
        s.passes = 0
        if move.kind == "draw":
            return self._draw(s, seat)
        if move.kind == "nominate":
            s.suit, s.nominating = SUITS.index(move.args[0]), False
            return [Event(f"Seat {seat} names {move.args[0]} (CE-5).")] + self._next(s, 1)
        card = BY_CODE[move.args[0]]
        hand = s.hands[seat]
        copy = next(c for c in hand if c % 52 == card)     # either copy of two decks' card (CE-1)
        hand.remove(copy)
        s.discard.append(copy)
        s.plays += 1
        s.draws = 0
        s.suit = card % 4
        events = [Event(f"Seat {seat} plays {NAMES[card]}.")]
        if not hand:
            events += self._end(s, f"seat {seat} played their last card (CE-8)")
        elif s.plays >= self.options.max_plays:
            events += self._end(s, f"{s.plays} cards were played, the most allowed (CE-8, max_plays)")
        if not s.deck and self.options.reshuffle:
            events += self._reshuffle(s)
        rank = card // 4
        if rank == EIGHT:
            s.nominating = not s.result
            return events
        if s.result:
            return events
        step = 1
        if self.options.use_special_cards:
            if rank == QUEEN:
                step = 2
                events.append(Event(f"Seat {(seat + s.direction) % n} is skipped (CE-10)."))
            elif rank == ACE:
                s.direction = -s.direction
                events.append(Event("The direction of play is reversed (CE-10)."))
            elif rank == TWO and s.deck:
                s.owed += 2
        return events + self._next(s, step)

    def _draw(self, s: CrazyEightsState, seat: int) -> list[Event]:
        """A draw (CE-6), or all the cards owed under a draw-two penalty (CE-10)."""
        hand, drawn, events = s.hands[seat], [], []
        owed = s.owed
        while True:
            card = s.deck.pop()
            hand.append(card)
            drawn.append(NAMES[card % 52])
            if not s.deck and self.options.reshuffle:
                events += self._reshuffle(s)
            if owed:
                s.owed -= 1
                if not s.deck:
                    if not s.owed:
                        s.passes += 1
                    s.owed = 0
                if s.owed:
                    continue
                text = f"Seat {seat} draws {len(drawn)} owed cards (CE-10)"
                events.insert(0, Event(f"{text}.", {seat: f"{text}: {', '.join(drawn)}."}))
                return events + self._next(s, 1)
            s.draws += 1
            if not s.deck:
                s.draws = self.options.max_draw_cards
            events.insert(0, Event(f"Seat {seat} draws a card.", {seat: f"Seat {seat} (you) draws {drawn[0]}."}))
            return events

    def _reshuffle(self, s: CrazyEightsState) -> list[Event]:
        """CE-11: the discard pile under its top card becomes the deck, shuffled."""
        s.deck, s.discard = s.discard[:-1], s.discard[-1:]
        s.rng.shuffle(s.deck)
        return [Event(f"The discard pile is shuffled into a new deck of {len(s.deck)} cards (CE-11).")]

    def _next(self, s: CrazyEightsState, step: int) -> list[Event]:
        """Pass the turn ``step`` seats on in the direction of play; G-4's cap."""
        s.turn = (s.turn + step * s.direction) % self.seats
        s.turns += 1
        if s.turns > self.options.max_turns:
            s.result = Outcome(False, (), self._scores(s), f"the G-4 cap of {self.options.max_turns} turns was reached")
            return [Event(f"Game stopped unfinished: {s.result.reason}.")]
        return []

    def _scores(self, s: CrazyEightsState) -> tuple[int, ...]:
        return tuple(-sum(penalty(c % 52) for c in hand) for hand in s.hands)

    def _end(self, s: CrazyEightsState, reason: str) -> list[Event]:
        """CE-9: every seat scores minus the cards left in its hand; the best score wins."""
        scores = self._scores(s)
        best = max(scores)
        s.result = Outcome(True, tuple(p for p, v in enumerate(scores) if v == best), scores, reason)
        return [Event(f"Game over: {reason}. Scores: {', '.join(map(str, scores))} (CE-9).")]

    # --- reading ---------------------------------------------------------------------
    def outcome(self, s: CrazyEightsState) -> Outcome | None:
        """None while the game goes on (CE-8, CE-9)."""
        return s.result

    def turns_played(self, s: CrazyEightsState) -> int:
        """Turns begun (G-4 counts them)."""
        return s.turns

    def scores(self, s: CrazyEightsState) -> tuple[int, ...]:
        """Each seat's score if the game ended now (CE-9)."""
        return self._scores(s)

    def view(self, s: CrazyEightsState, seat: int | None) -> dict:
        """What ``seat`` may know (None: the spectator): its own hand, every hand's size,
        the discard pile's top, the deck's size, and the counters. In the zone
        vocabulary of :mod:`playtest.widgets.board`."""
        o = self.options
        zones = [
            {"kind": "pile", "name": "deck", "owner": None, "face": "down", "count": len(s.deck),
             "move": "draw"},                                            # a click on it draws (CE-6)
            {"kind": "pile", "name": "discard pile", "owner": None, "face": "up", "count": len(s.discard),
             "cards": [_card(c % 52) for c in reversed(s.discard)]},     # all played face up (CE-12)
            {"kind": "counter", "name": "suit to match", "owner": None,      # named after an eight (CE-5)
             "value": "to be named (CE-5)" if s.nominating else f"{SUIT_SIGNS[s.suit]} {SUITS[s.suit]}"},
            {"kind": "counter", "name": "card plays", "owner": None, "value": f"{s.plays} of {o.max_plays}"},
        ]
        if o.use_special_cards:
            zones.append({"kind": "counter", "name": "direction", "owner": None,
                          "value": "seat + 1" if s.direction == 1 else "seat − 1"})
        for p, hand in enumerate(s.hands):
            if p == seat:
                zones.append({"kind": "hand", "name": "hand", "owner": p, "face": "up", "count": len(hand),
                              "cards": [_card(c % 52) for c in sorted(hand, key=lambda c: (c % 52 % 4, c % 52))]})
            else:
                zones.append({"kind": "hand", "name": "hand", "owner": p, "face": "down", "count": len(hand)})
            if p == s.turn and not s.result:
                zones.append({"kind": "counter", "name": "drawn this turn", "owner": p,
                              "value": f"{s.draws} of {o.max_draw_cards}"})
                if s.owed:
                    zones.append({"kind": "counter", "name": "cards owed", "owner": p, "value": s.owed})
        r = s.result
        return {
            "game": self.name, "seats": self.seats, "viewer": seat, "turn_seat": None if r else s.turn,
            "to_act": list(self.to_act(s)), "suit": SUITS[s.suit], "nominating": s.nominating,
            "direction": s.direction, "draws": s.draws, "owed": s.owed, "plays": s.plays, "passes": s.passes,
            "turns": s.turns, "zones": zones,
            "outcome": r and {"finished": r.finished, "winners": list(r.winners), "scores": list(r.scores),
                              "reason": r.reason},
        }

    def determinizer(self, view: Mapping, seat: int):
        """A sampler of states consistent with ``seat``'s view (CE-12): its hand and the
        discard pile as shown, the other cards dealt at random to the other hands and
        the deck by their sizes (see :meth:`~playtest.engine.game.Searchable.determinizer`).

        Raises:
            ValueError: the view holds more copies of a card than the decks (CE-1).
        """
        zones = {(z["kind"], z["owner"]): z for z in view["zones"] if z["kind"] in ("hand", "pile")}
        known = {"hand": [BY_CODE[c["arg"]] for c in zones["hand", seat]["cards"]],
                 "discard": [BY_CODE[c["arg"]] for c in reversed(zones["pile", None]["cards"])]}
        unknown = list(range(52 * self._decks()))
        for part, cards in known.items():
            numbered = []
            for card in cards:
                copy = next((c for c in unknown if c % 52 == card), None)
                if copy is None:
                    raise ValueError(f"the view holds more {CODES[card]} than the {self._decks()} deck(s) (CE-1)")
                unknown.remove(copy)
                numbered.append(copy)
            known[part] = numbered
        sizes = {z["owner"]: z["count"] for z in view["zones"] if z["kind"] == "hand"}
        scalars = {"turn": view["turn_seat"], "suit": SUITS.index(view["suit"]), "nominating": view["nominating"],
                   "direction": view["direction"], "draws": view["draws"], "owed": view["owed"],
                   "plays": view["plays"], "passes": view["passes"], "turns": view["turns"]}

        def sample(rng: random.Random) -> CrazyEightsState:
            s = CrazyEightsState(rng, self.seats)
            pool = unknown[:]
            rng.shuffle(pool)
            for p in range(self.seats):
                if p == seat:
                    s.hands[p] = known["hand"][:]
                else:
                    s.hands[p], pool = pool[:sizes[p]], pool[sizes[p]:]
            s.deck, s.discard, s.turned = pool, known["discard"][:], known["discard"][:1]
            s.__dict__.update(scalars)
            return s

        return sample

    def all_cards_view(self, s: CrazyEightsState) -> dict:
        """Every card face up, for debugging alone: the spectator's view with each hand
        named, and the deck and the discard pile under ``"all_cards"``, top first."""
        view = self.view(s, None)
        for zone in view["zones"]:
            if zone["kind"] == "hand":
                zone["face"], zone["cards"] = "up", [_card(c % 52) for c in s.hands[zone["owner"]]]
        view["all_cards"] = {"deck (top first)": [NAMES[c % 52] for c in reversed(s.deck)],
                             "discard pile (top first)": [NAMES[c % 52] for c in reversed(s.discard)]}
        return view

    def copy_state(self, s: CrazyEightsState) -> CrazyEightsState:
        """A copy with its own lists (the search bot's hook)."""
        c = CrazyEightsState(s.rng, self.seats)
        c.__dict__.update(s.__dict__)
        c.deck, c.discard, c.turned = s.deck[:], s.discard[:], s.turned[:]
        c.hands = [hand[:] for hand in s.hands]
        c.setup_events = []
        return c


def _card(card: int) -> dict:
    """A face-up card in the zone vocabulary: its name, the ``card`` argument a click
    on it fills (CE-1's code), its colour (diamonds and hearts red), and its CE-9
    penalty in its hover text (not in its corner: a number under "9♠" reads as a rank,
    and OpenSpiel's penalty for 9♠ is 33)."""
    points = penalty(card)
    why = ": OpenSpiel counts a plain card as its id + 2, rank × 4 + suit, not its face value" \
        if points == card + 2 else ""           # an eight or a J, Q, K, A counts as printed
    return {"name": NAMES[card], "arg": CODES[card], "kind": "red" if card % 4 in (1, 2) else "black",
            "text": f"{NAMES[card]}: {points} penalty points if left in hand (CE-9{why})"}
