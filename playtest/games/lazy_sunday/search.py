"""Lazy Sunday for the search bot (``ismcts``, :mod:`playtest.engine.search`): states
copied to play on, judged, and sampled from a seat's bot view (LS-11: what the seat
remembers), the quick discards of simulated seats (LS-5) and the moves a seat cannot
tell apart. Each public function is :class:`~.rules.LazySunday`'s method of that name
(the class binds them; ``self`` is the game)."""
from __future__ import annotations

from playtest.engine import Move, Outcome
from playtest.engine.rng import shuffle
from playtest.engine.search import Unplaced, margin_rewards

from .state import CLAIM_PHASES, Give, Shown, Spot, State

_new = tuple.__new__  # Move(...) without the NamedTuple's Python-level __new__


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


def evaluate(self, s):
    """Each seat's chance to win as the search bot judges a position (see
    Evaluates.evaluate): its total so far, cumulative score plus the effort of its list
    now (:meth:`scores`; LS-9, LS-10: lowest wins), negated, through
    :func:`~playtest.engine.search.margin_rewards` (scale ``EVAL_SCALE`` effort)."""
    return margin_rewards([-total for total in self.scores(s)], self.EVAL_SCALE)


def search_open_move(self, s, rng):
    """The quick discard (LS-5) a simulated seat makes now: a card of a list, other than
    the caller's (LS-7) unless it is its own, that the seat knows (its ``known`` bit)
    to match the DONE top, its own cards first, as the heuristic bot claims. Several
    seats know one: ``rng`` picks who taps first. None if nobody knows a match."""
    if s.phase not in CLAIM_PHASES or not s.done:
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
        for t, p in _SPOT_ARGS.get(move.kind, ()) if args else ():  # an empty list's take/keep: none
            t = me if t is None else args[t]
            q = args[p]
            args[p] = (memory[t][q], tuple(seen_by[t][q]))
        classes.setdefault((move.kind, tuple(args)), []).append(move)
    return list(classes.values())


def determinizer(self, view, seat):
    """Sample states consistent with ``seat``'s bot view (see Searchable.determinizer).

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
    free = Unplaced(names, "the Lazy Sunday deck holds (LS-1, LS-2)")
    place = free.take

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
    pool = free.rest()
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
    looking = [Spot(*spot) for spot in view["looking"]]
    shown = None
    if looking and phase not in ("peek", "look"):  # right after its give, the giver is shown the card (LS-5)
        shown, looking = Shown(me, tuple(looking)), []
    peekers = list(to_act) if phase == "peek" else []  # setup: every seat still peeking (LS-3)
    if phase == "peek":  # another peeker that remembers its own cards peeked and looks at them
        looking += [Spot(t, p) for t in peekers if t != me for p in range(len(lists[t])) if masks[t][p] >> t & 1]
    caller = view["caller"]
    outcome = view["outcome"]
    fixed = (view["round"], start, turn, actor, view["done"]["serial"], caller, list(view["final_turns"]),
             view["skip_next"], view["give"] and Give(view["give"]["seat"], view["give"]["to"], view["give"]["pos"]),
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
            s.looking = _sample_looking(self, s, actor, actions[s.done[-1]], rng)
        s.resume, s.peekers, s.setup_events = resume, peekers[:], []
        return s

    return sample


def _sample_looking(self, s, actor, action, rng) -> list[Spot]:
    """Spots ``actor`` may be looking at, drawn with ``rng`` among the spots it
    remembers (the look has just taught it them, LS-11): the spots of the action
    just burned (LS-2, LS-8)."""
    bit, known = 1 << actor, s.known
    spots = [Spot(t, p) for t, lst in enumerate(s.lists) for p, card in enumerate(lst) if known[card] & bit]
    own = [spot for spot in spots if spot.seat == actor]
    if action == "double_check":
        return [rng.choice(own)]
    first = rng.choice([spot for spot in spots if spot.seat != actor])
    if action == "nosy":
        return [first]
    second = rng.choice([spot for spot in spots if spot.seat not in (actor, first.seat)])  # not_my_job
    return sorted([first, second])
