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

The view's format is in :mod:`.views`. Events: public text for everyone; the drawing
seat's private text names the cards drawn.

The game's jobs live in the modules beside this one: :mod:`.cards` (card data, NS-1),
:mod:`.state` (the position), :mod:`.setup` (the deal and pinned setups), :mod:`.views`,
:mod:`.explain` (refusals), :mod:`.search` (for the search bot) and :mod:`.lab` (the
balance lab's hooks); :class:`NightShift` binds their functions as its methods. This
module keeps the class and the rules proper: whose decision, legal moves, applying them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from playtest.engine import BaseOptions, Event, Game, ISMCTSBot, Move, Outcome, RandomBot
from playtest.engine.rng import shuffle
from playtest.games import variants
from playtest.games.variants import card_file, card_variant_field

from . import explain, lab, rulings, search, setup, views
from .bots import HeuristicBot
from .cards import CARDS_FILE, count_text, load_cards, numbered
from .state import HAND_SIZE, MAX_PATIENCE, ROW_SIZE

_new = tuple.__new__  # Move(...) without the NamedTuple's Python-level __new__: move lists are the hot path
_END = (Move(0, "end"), Move(1, "end"))  # the one move of a seat out of actions, per seat

PRESETS = {"as written": {}, "with reshuffle": {"reshuffle": True}}
"""Named option sets for the new-game panel: the rulebook as written (NS-5, no
reshuffle) and with the NS-5 reshuffle option."""

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


# --- the rules ------------------------------------------------------------------------------
class NightShift(Game):
    """A two-player deck-builder: turn chores into Care Points and keep your Patience above 0.

    Night Shift for exactly 2 seats (the first paragraph is its blurb on the dashboards,
    :func:`playtest.pages.blurb`); see the module docstring for moves and view.

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
    RULINGS = rulings.RULINGS
    """The ruling ids it cites -> one line each (its ``rulings.py``; RULINGS.md)."""
    BOARD = "playtest.games.night_shift.widget:NightShiftBoard"
    TUTORIAL = Path(__file__).with_name("tutorial.toml")
    EXAMPLES = Path(__file__).with_name("scenarios")
    SEATS = 2
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
        self.cards, self.places, self._name, self._cost = numbered(specs)
        self.by_name = {c.name: c for c in self.cards}

    # --- setup (setup.py) -----------------------------------------------------------------
    new_state = setup.new_state
    pin = setup.pin

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

    # --- explaining refusals (explain.py) ---------------------------------------------
    shape_problem = explain.shape_problem
    explain = explain.explain

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
            events.append(Event(f"Seat {seat} draws {count_text(len(drawn))}{shuffled}.",
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
        events = [Event(f"Seat {seat} ends Shift {s.shift}. Lights Out: {count_text(out)} to the Laundry Basket.")
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

    # --- search hooks (search.py; see Searchable.copy_state, Searchable.determinizer) ---------------
    copy_state = search.copy_state
    determinizer = search.determinizer

    # --- balance-lab hooks (lab.py; see CountsTurns.turns_played, leaders, card_counts) --------
    turns_played = lab.turns_played
    leaders = lab.leaders
    card_counters = lab.card_counters
    card_counts = lab.card_counts
    scores = lab.scores
    resources = lab.resources
    resource_bounds = lab.resource_bounds
    end_conditions = lab.end_conditions
    end_condition = lab.end_condition

    # --- reading --------------------------------------------------------------------------
    def outcome(self, s) -> Outcome | None:
        """None while the game goes on; scores are Care Points (NS-10)."""
        return s.result

    view = views.view
    all_cards_view = views.all_cards_view
