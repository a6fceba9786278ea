"""Chore Race: the rules engine (RULINGS G-1..G-4, CR-1..CR-21): the game class, who
acts, the legal moves and applying a move.

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

The other jobs live beside this module, as methods bound in :class:`ChoreRace`: the card
data and the rulebook's numbers (``cards.py``), the options (``options.py``), the state
and its records (``state.py``), the cached move lists (``moves.py``), the deal and a
pinned setup (``setup.py``), the views and their shape (``views.py``), the search hooks
(``search.py``), the balance-lab hooks (``lab.py``) and the explanations of an illegal
move (``explain.py``).
"""
from __future__ import annotations

import itertools
from pathlib import Path

from playtest.engine import Event, Game, ISMCTSBot, Move, OptionError, Outcome, RandomBot
from playtest.engine.rng import shuffle
from playtest.games import variants
from playtest.games.variants import card_file

from . import lab, rulings, search, setup, views
from .bots import HeuristicBot
from . import explain as explanation
from .cards import (ACTION_BY, BIT, CARDS, CARDS_FILE, CATCH_UP_VP, HAND_CAP, LONG_GAME_VP, MEETING_PASS, PROTECT_VP,
                    START_HAND, TARGETED_BITS, CardDataError, action_deck, load_cards, tables)
from .moves import action_part, new_move, others, progress_part, swaps, teamworks, untargeted
from .options import Options
from .state import CHORE, PROGRESS, UNDER, WIPED, Pending, Placing, Result, Reveal, Trigger, new_entry

__all__ = ["ChoreRace", "Options", "CARDS", "CARDS_FILE", "CardDataError", "load_cards"]  # records and callers name them here


class ChoreRace(Game):
    """Finish chores to score VP, first to the target wins: each turn a progress card and an
    action card.

    Chore Race for 2-6 seats (the first paragraph is its blurb on the dashboards,
    :func:`playtest.pages.blurb`). See the module docstring for moves, ``views.py`` for views.

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
    BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "ismcts": ISMCTSBot}  # weakest first
    RULINGS = rulings.RULINGS
    """The ruling ids it cites -> one line each (its ``rulings.py``; RULINGS.md)."""
    BOARD = "playtest.games.chore_race.widget:ChoreRaceBoard"
    TUTORIAL = Path(__file__).with_name("tutorial.toml")
    EXAMPLES = Path(__file__).with_name("scenarios")
    SEATS = 3
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
        found = tables(self.cards)
        counts = {a.key: a.count for a in self.cards.action}
        deck_option = self.options.action_deck
        if deck_option == "74":
            counts["done"] += 8
        elif deck_option:
            counts.update({found.by.get(name, ACTION_BY[name]).key: n for name, n in deck_option.items()})
        self.akey, self.aname, self.abit = action_deck(self.cards, tuple(counts.values()))
        self.key_name, self.keys, self.order = found.key_name, found.keys, found.order
        self.chores, self._level, self._no_delegate, self._static = (found.chores, found.level, found.no_delegate,
                                                                    found.static)
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

    # --- the other jobs, in their modules ----------------------------------------------------
    new_state = setup.new_state                 # the deal (G-2, G-3)
    pin = setup.pin                             # a pinned position (scenarios, SETUP)
    view = views.view                           # CR-21
    all_cards_view = views.all_cards_view
    _names, _hand, _chore, _revealed_text = views._names, views._hand, views._chore, views._revealed_text
    copy_state = search.copy_state              # search hooks (see Searchable.copy_state, determinizer, evaluate)
    determinizer = search.determinizer
    evaluate = search.evaluate
    SEARCH_PLAYOUT_MOVES = 4  # ismcts: playouts stop after 4 moves and score the position (evaluate)
    EVAL_PROGRESS, EVAL_HAND, EVAL_SCALE = 0.6, 0.3, 3.0
    turns_played, leaders, scores = lab.turns_played, lab.leaders, lab.scores   # balance-lab hooks
    card_counters, card_counts = lab.card_counters, lab.card_counts
    HELD_COUNTERS = ("scored",)   # counted when the game ends (see Game.HELD_COUNTERS)
    end_conditions, end_condition = lab.end_conditions, lab.end_condition
    explain = explanation.explain               # why a move is illegal (ruling id, sentence)
    shape_problem = explanation.shape_problem

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
            return (s.pending.target,)
        if phase == "meeting":
            return tuple(i for i, c in enumerate(s.meeting) if c is None)
        return (s.turn_seat,)

    def reaction_default(self, s, seat):
        """The target of a declared action lets it happen (``accept``, CR-7) when its
        reaction window closes unanswered."""
        if s.phase == "react" and seat == s.pending.target:
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
            if seat != s.pending.target:
                return []
            moves = [Move(seat, "accept")]
            held = self._held(s.hands[seat])
            if held & BIT["excuse"]:
                moves.append(Move(seat, "excuse"))
            if s.pending.key == "inspection" and held & BIT["later"]:
                moves.append(Move(seat, "dodge"))
            return moves
        if phase == "meeting":
            return self._give_moves(s, seat) if s.meeting[seat] is None else []
        if seat != s.turn_seat:
            return []
        if phase == "place":
            moves = [Move(seat, "place", (p,)) for p in range(len(s.tableaus[seat]))]
            if not s.placing.owing:
                moves.append(Move(seat, "stop"))
            return moves
        if phase == "score":
            return [Move(seat, "score", (p,)) for p in self._complete(s, seat)]
        if phase == "trigger":
            return self._trigger_moves(s, seat)
        return []

    decision_moves = legal_moves    # no OPEN_MOVES: every legal move answers a decision (Game.decision_moves)

    def _play_moves(self, s, seat):
        """The play step's moves (order: see ``moves.progress_part``, the targeted actions,
        ``moves.action_part``). The parts that depend only on the seat, the held kinds, the
        tableau sizes and the used slots are cached tuples; targets that depend on
        progress, protection (CR-16) or abilities are listed from the tableaus each time."""
        held, abit = 0, self.abit
        for card in s.hands[seat]:          # _held, inlined: once per move
            held |= abit[card]
        own = s.tableaus[seat]
        k = len(own)
        slots = s.slots
        if slots[1] or not held & TARGETED_BITS:                    # no target to list
            return list(untargeted(seat, held, k, slots[0], slots[1]))
        moves = list(progress_part(seat, held, k)) if not slots[0] else []
        tableaus = s.tableaus
        opponents = others(self.seats, seat)
        protected, open_ = s.protected, []
        for o in opponents:
            if not protected[o]:                                        # CR-16
                open_.append(o)
        if held & BIT["inspection"]:
            moves += [new_move(Move, (seat, "inspection", (o, q))) for o in open_
                      for q, e in enumerate(tableaus[o]) if e[PROGRESS] > 0]  # CR-13
        if k:
            if held & BIT["delegate"]:
                no_delegate = self._no_delegate
                for o in open_:
                    for e in tableaus[o]:
                        if e[CHORE] in no_delegate:             # CR-2: this tableau refuses Delegate
                            break
                    else:
                        moves.append(new_move(Move, (seat, "delegate", (o,))))
            if held & BIT["teamwork"]:
                moves += teamworks(seat, opponents)
        if held & BIT["swap"]:
            if self.options.chore_swap_needs_progress:                  # CR-11
                mine = tuple([p for p, e in enumerate(own) if e[PROGRESS] > 0])
            else:
                mine = k
            moves += swaps(seat, mine, tuple([(o, len(tableaus[o])) for o in open_]))
        moves += action_part(seat, held, k)
        return moves

    def _give_moves(self, s, seat):
        keys = sorted((self.akey[c] for c in s.hands[seat]), key=self.order.__getitem__)
        count = min(MEETING_PASS, len(keys))
        return [Move(seat, "give", combo) for combo in dict.fromkeys(itertools.combinations(keys, count))]

    def _trigger_moves(self, s, seat):
        ability = s.trigger.ability
        others = [o for o in range(self.seats) if o != seat]
        if ability == "steal":
            return [Move(seat, "steal", (o,)) for o in others if s.hands[o]]
        return [Move(seat, "attic", (o, q)) for o in others if not s.protected[o]       # CR-16
                for q, e in enumerate(s.tableaus[o]) if e[PROGRESS] > 0]

    def _complete(self, s, seat):
        """Positions of ``seat``'s complete chores: progress at least the level (CR-14)."""
        level, complete = self._level, []
        for p, e in enumerate(s.tableaus[seat]):     # a loop, not a comprehension: once a turn
            if e[PROGRESS] >= level[e[CHORE]]:
                complete.append(p)
        return complete


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
        entry[PROGRESS] += amount
        entry[UNDER].append(card)
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
                if self.chores[entry[CHORE]].ability == "wipe" and not entry[WIPED]:
                    entry[WIPED] = True
                    s.discard.append(card)
                    ev.append(Event(f"Wipe the Counters cancels the Inspection on seat {target} for free."))
                    return
        s.pending = Pending(key, card, target, tuple(args))
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
        s.discard.extend(old[UNDER])              # CR-12: its cards to the action discard
        s.chore_discard.append(old[CHORE])
        new = self._draw_chore(s)
        if new is None:
            del s.tableaus[seat][p]
        else:
            s.tableaus[seat][p] = new_entry(new)
        if self.keep_log:
            got = f", draws {self.chores[new].name}" if new is not None else ", no chore left to draw"
            ev.append(Event(f"Seat {seat} plays I'll Do It Later: discards {self.chores[old[CHORE]].name}{got}."))

    def _do_end(self, s, seat, args, ev):
        s.phase = "score"

    def _react(self, s, seat, key, ev):
        card = self._take(s, seat, key)
        s.discard += [card, s.pending.card]       # CR-7: both to the discard pile
        if self.keep_log:
            ev.append(Event(f"Seat {seat} reacts with {self.key_name[key]}"
                            f"{' (Dodge)' if key == 'later' else ''}: the {self.key_name[s.pending.key]} is cancelled."))
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
            chore = s.tableaus[target][targs[1]]
            chore[PROGRESS] -= 1
            if self.keep_log:
                ev.append(Event(f"The Inspection takes 1 progress off seat {target}'s {self.chores[chore[CHORE]].name}."))
        elif key == "swap":
            p, _, q = targs
            mine, theirs = s.tableaus[active], s.tableaus[target]
            mine[p], theirs[q] = theirs[q], mine[p]
            if self.keep_log:
                ev.append(Event(f"Seats {active} and {target} swap chores."))
        elif key == "delegate":
            if self._holds(s, target, "done"):
                s.placing = Placing((target,), 0, "delegate")
                s.phase = "place"
                if self.keep_log:
                    ev.append(Event(f"Seat {target} must give a Done; seat {active} chooses the chore."))
            else:
                s.revealed = [Reveal(target, list(s.hands[target]))]
                if self.keep_log:
                    ev.append(Event(f"Seat {target} holds no Done and shows their hand; the Delegate has no effect. "
                                    + self._revealed_text(s)))
        else:   # teamwork (CR-10)
            s.revealed = [Reveal(active, list(s.hands[active])), Reveal(target, list(s.hands[target]))]
            if self._holds(s, target, "done"):
                s.placing = Placing((target, active) if self._holds(s, active, "done") else (target,), 0, "teamwork")
            else:
                owned = sum(self.akey[c] == "done" for c in s.hands[active])
                s.placing = Placing((), min(2, owned), "teamwork")
            s.phase = "place"
            if self.keep_log:
                ev.append(Event(f"Seats {active} and {target} show their hands for Teamwork. " + self._revealed_text(s)))

    def _held(self, cards):
        """The kinds of action card among ``cards`` (ids), as a bitmask of ``BIT``."""
        held, abit = 0, self.abit
        for card in cards:                  # a plain loop: faster than reduce/map or a set
            held |= abit[card]
        return held

    def _holds(self, s, seat, key):
        return bool(self._held(s.hands[seat]) & BIT[key])

    def _do_place(self, s, seat, args, ev):
        placing = s.placing
        if placing.owing:
            source = placing.owing[0]
            s.placing = placing._replace(owing=placing.owing[1:])
        else:                                   # Teamwork: the optional own Done (CR-10)
            source = seat
            s.placing = placing._replace(optional=placing.optional - 1)
        self._progress(s, seat, args[0], self._take(s, source, "done"), 1)
        if self.keep_log:
            ev.append(Event(f"Seat {source}'s Done goes on seat {seat}'s {self._chore(s, seat, args[0])}."))

    def _do_stop(self, s, seat, args, ev):
        s.placing = s.placing._replace(optional=0)

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
        chore = s.tableaus[target][q]
        lost = min(2, chore[PROGRESS])
        chore[PROGRESS] -= lost
        s.trigger = None
        s.phase = "score"
        if self.keep_log:
            ev.append(Event(f"Reorganize the Attic: seat {target}'s {self.chores[chore[CHORE]].name} loses {lost} progress."))

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
                    self._APPLIERS[moves[0].kind](self, s, s.turn_seat, moves[0].args, ev)
                else:
                    ev.append(Event(f"{self.chores[s.trigger.chore].name}: no target, the trigger does nothing."))
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
        done = s.tableaus[seat].pop(p)
        chore = self.chores[done[CHORE]]
        vp = chore.level
        if chore.ability == "garage" and any(v >= chore.opponent_vp for o, v in enumerate(s.vp) if o != seat):
            vp += chore.bonus_vp
        s.vp[seat] += vp
        s.scored[seat].append(done[CHORE])
        s.discard.extend(done[UNDER])            # CR-6: its cards to the action discard
        if self.keep_log:
            ev.append(Event(f"Seat {seat} completes {chore.name}: +{vp} VP ({s.vp[seat]})."))
        if s.vp[seat] >= self.options.target_vp:
            self._finish(s, [seat], f"CR-17: seat {seat} reached {s.vp[seat]} VP", ev)
            return
        if s.vp[seat] >= PROTECT_VP and not s.protection_used[seat]:
            s.protected[seat] = s.protection_used[seat] = True
            ev.append(Event(f"Seat {seat} reached {PROTECT_VP}+ VP: protected until their next turn (CR-16)."))
        if chore.ability in ("steal", "attic"):
            s.trigger = Trigger(chore.ability, done[CHORE])
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
            tableau.append(new_entry(new))
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
            s.result = Result(False, [], f"G-4: max_turns ({options.max_turns}) reached")
            ev.append(Event(s.result.reason + "; the game is unfinished."))
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
        s.result = Result(True, winners, reason)
        s.phase = "over"
        ev.append(Event(f"Game over: {reason}. Winner{'s' * (len(winners) > 1)}: "
                        f"{', '.join(f'seat {w}' for w in winners)}."))

    def outcome(self, s):
        """None while playing; else the winners and every seat's VP (CR-17, CR-18, G-4)."""
        if s.result is None:
            return None
        finished, winners, reason = s.result
        return Outcome(finished, tuple(winners), tuple(float(v) for v in s.vp), reason)

