"""Lazy Sunday (rulebook seed 002, RULINGS LS-1..LS-11) on the playtest engine.

The state is plain lists and ints so that ``legal_moves``, ``apply`` and ``view`` stay
fast enough for bot simulations. Cards are ids 0..n-1 (the order of ``cards.toml``);
lists, the deck and the DONE pile hold ids, their last element is the top/end. What each
seat knows (LS-11) is one bitmask per card: bit ``s`` set means seat ``s`` knows where
that card is now. Public moves (swaps, trades, gifts) move a card without changing
who knows it, so only looking, discarding and reshuffling touch the masks (and a gift's
giver, who is shown the card it gives, LS-5). A list card's bit is set only if the
seat's view showed that card face-up (looked at, drawn, or on top of DONE): a bot
remembers nothing a person in its seat was not shown (tests/test_bot_information.py).

The game's jobs live in the modules beside this one: :mod:`.cards` (the deck, LS-1,
LS-2), :mod:`.state` (the position and its records), :mod:`.moves` (cached move lists),
:mod:`.setup` (the deal and pinned setups), :mod:`.views`, :mod:`.explain` (refusals),
:mod:`.search` (for the search bot) and :mod:`.lab` (the balance lab's hooks);
:class:`LazySunday` binds their functions as its methods. This module keeps the class
and the rules proper: whose decision, legal moves, applying them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from playtest.engine import BaseOptions, Event, Game, ISMCTSBot, Move, Outcome, RandomBot
from playtest.engine.rng import shuffle
from playtest.games.variants import card_file, card_variant_field

from . import explain, lab, rulings, search, setup, views
from .bots import GentleBot, HeuristicBot
from .cards import ACTIONS, CARDS_FILE, DeckError, load_cards  # noqa: F401 (ACTIONS: read from here too)
from .moves import _burns, _claims, _keep_or_discard, _look_moves, _peeks, _turn_moves
from .setup import LIST_SIZE, deal
from .state import CLAIM_PHASES, PHASE_KINDS, Give, Shown, Spot

MAX_ROUNDS = 20
"""The most rounds option ``rounds`` may ask for (LS-10; the kit's range, RULINGS.md): a
round is 13 to 49 turns (2 to 6 seats, heuristic bots), so 20 rounds is an evening."""


def _by_seat(values: list[int]) -> str:
    """A number per seat as a log line says it: ``"seat 0: 13, seat 1: 50"`` (seats counted
    from 0, as engine texts count them; pages show them from 1)."""
    return ", ".join(f"seat {seat}: {value}" for seat, value in enumerate(values))


_new = tuple.__new__  # Move(...), Spot(...) without the NamedTuple's Python-level __new__: the hot path


class LazySunday(Game):
    """Keep the lowest total effort in your face-down chore list and shout NOT ME! when yours
    is the lightest.

    Lazy Sunday for 2..7 seats (RULINGS LS-1..LS-11, G-1..G-4); the first paragraph is its
    blurb on the dashboards (:func:`playtest.pages.blurb`).

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
    BOTS = {"random": RandomBot, "gentle": GentleBot, "heuristic": HeuristicBot, "ismcts": ISMCTSBot}  # weakest first
    RULINGS = rulings.RULINGS
    """The ruling ids it cites -> one line each (its ``rulings.py``; RULINGS.md)."""
    BOARD = "playtest.games.lazy_sunday.widget:LazySundayBoard"
    TUTORIAL = Path(__file__).with_name("tutorial.toml")
    EXAMPLES = Path(__file__).with_name("scenarios")
    SEATS = 4
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
            cls._DISPATCH = ({phase: getattr(cls, "_moves_" + phase) for phase in PHASE_KINDS},
                             {kind: getattr(cls, "_do_" + kind) for kind in cls.MOVE_ARGS})

    # --- setup (setup.py, LS-3) -------------------------------------------------------
    new_state = setup.new_state
    pin = setup.pin

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
        if s.phase in CLAIM_PHASES and s.done:
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
        if move.kind != "claim" or len(move.args) != 3 or s.phase not in CLAIM_PHASES:
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

    def _look(self, s, seat, spots: list[Spot]) -> None:
        """``seat`` looks at ``spots`` (kept as the state's ``looking``)."""
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
            match_scores = f" Match scores: {_by_seat(s.scores)}." if s.scores != scores else ""  # else the same numbers
            events.append(Event(f"Round {s.round} scored. Lists: {_by_seat(totals)}. Seat {c} called NOT ME! "
                                f"and {'was lowest: 0' if lowest else 'was beaten: 50'}. Round scores: "
                                f"{_by_seat(scores)}.{match_scores}"))
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
        s.looking = s.looking + [_new(Spot, (seat, a)), _new(Spot, (seat, b))]  # every seat, every round
        # LS-11: the log never names a face-down card, the looker's own included (memory
        # is the game); the cards show on the table while the seat looks
        return [Event(f"Seat {seat} peeks at positions {a} and {b}.")] if self.keep_log else []

    def _do_done(self, s, seat):
        if s.turn is not None:
            return self._end_turn(s, [Event(f"Seat {seat} is done looking.")] if self.keep_log else [])
        s.looking = [spot for spot in s.looking if spot.seat != seat]
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
        self._look(s, seat, [Spot(seat, p)])
        return events

    def _do_nosy(self, s, seat, t, p):
        events = self._burn(s, seat, f"looks at seat {t}'s position {p}")
        self._look(s, seat, [Spot(t, p)])
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
        self._look(s, seat, [Spot(t, p), Spot(u, q)])
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
                s.give, s.resume = Give(seat, t, p), s.phase
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
        t, gap = s.give.to, s.give.pos
        s.lists[t].insert(gap, card)
        # LS-5: the giver is shown the card as it gives it (its view, until the next move),
        # so it remembers it; the receiver is not
        s.shown = Shown(seat, (Spot(t, gap),))
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
        return deal(self, s)

    # --- views (views.py) ---------------------------------------------------------------
    view = views.view
    all_cards_view = views.all_cards_view
    bot_view = views.bot_view
    bot_glance = views.bot_glance

    # --- search hooks (search.py; see Searchable.copy_state, Searchable.determinizer) ---------------
    copy_state = search.copy_state

    SEARCH_PLAYOUT_MOVES = None  # ismcts: playouts to the end (a round is short); see evaluate
    EVAL_SCALE = 5.0

    evaluate = search.evaluate
    search_open_move = search.search_open_move
    search_classes = search.search_classes
    determinizer = search.determinizer

    # --- balance-lab hooks (lab.py; see CountsTurns.turns_played, leaders, card_counts) --------
    turns_played = lab.turns_played
    leaders = lab.leaders
    card_counters = lab.card_counters
    card_counts = lab.card_counts

    HELD_COUNTERS = ("kept",)   # counted when the match ends (see Game.HELD_COUNTERS)
    LOW_SCORE_WINS = True       # LS-9, LS-10: the lowest total wins

    scores = lab.scores
    end_conditions = lab.end_conditions
    end_condition = lab.end_condition

    # --- explaining refusals (explain.py) -------------------------------------------------
    shape_problem = explain.shape_problem
    explain = explain.explain
