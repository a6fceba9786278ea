"""Chore Race search hooks: copy a position, sample positions a seat's view allows,
score a position for the search bot (see Searchable.copy_state, Searchable.determinizer,
Evaluates.evaluate).

Methods of :class:`~playtest.games.chore_race.rules.ChoreRace`, bound there:
``copy_state``, ``determinizer`` and ``evaluate``.
"""
from __future__ import annotations

from playtest.engine.rng import shuffle
from playtest.engine.search import Unplaced, margin_rewards

from .cards import MEETING_PASS
from .state import CHORE, PROGRESS, UNDER, WIPED, ChoreRaceState, Pending, Placing, Result, Reveal, Trigger


def copy_state(self, s):
    """A copy of ``s`` to play on (its lists copied, its random stream shared): plain
    list copies, for the search bot's iterations. The records (named tuples) are
    immutable and shared."""
    c = ChoreRaceState.__new__(ChoreRaceState)
    c.__dict__.update(s.__dict__)  # scalars, records, and the lists the rules replace rather than change
    c.deck, c.discard, c.hands = s.deck[:], s.discard[:], [h[:] for h in s.hands]
    c.chore_deck, c.chore_discard = s.chore_deck[:], s.chore_discard[:]
    c.tableaus = [[[e[CHORE], e[PROGRESS], e[UNDER][:], e[WIPED]] for e in t] for t in s.tableaus]
    c.scored, c.vp, c.slots = [p[:] for p in s.scored], s.vp[:], s.slots[:]
    c.protected, c.protection_used = s.protected[:], s.protection_used[:]
    if s.meeting is not None:
        c.meeting = s.meeting[:]
    c.setup_events = []
    return c


def determinizer(self, view, seat):
    """Sample states consistent with ``seat``'s view (see Searchable.determinizer; a Chore
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
    free_actions = Unplaced(self.aname, "the Chore Race action deck holds (CR-1)")
    free_chores = Unplaced((card.name for card in self.chores), "the Chore Race chore deck holds (CR-2)")
    action, chore = free_actions.take, free_chores.take

    hands: list[list[int] | None] = [None] * n   # None: unknown, filled per sample
    hands[me] = [action(name) for name in view["hand"]]
    tableaus = [[[chore(c["name"]), c["progress"], [action(a) for a in c["cards"]], c["wipe_used"]]
                 for c in row] for row in view["tableaus"]]
    scored = [[chore(name) for name in pile] for pile in view["scored"]]
    discard = [action(name) for name in view["action_discard"]]
    chore_discard = [chore(name) for name in view["chore_discard"]]
    phase, pending_view = view["phase"], view["pending"]
    pending = None
    if pending_view is not None:
        key, target = pending_view["key"], pending_view["target"]
        args = {"inspection": (target, pending_view["chore"]), "swap": (pending_view["own_chore"], target,
                                                                         pending_view["chore"])}.get(key, (target,))
        pending = Pending(key, action(self.key_name[key]), target, args)
    meeting_view = view["meeting"]
    meeting = None
    if meeting_view is not None:
        meeting = [None] * n
        for t in meeting_view["committed"]:
            meeting[t] = [action(name) for name in meeting_view["mine"]] if t == me else []
    trigger = None
    if view["trigger"] is not None:  # the chore just completed: the last the turn seat scored (CR-14)
        trigger = Trigger(view["trigger"]["ability"], scored[view["turn_seat"]][-1])
    placing = None
    if view["placing"] is not None:  # its card is the one just resolved, on top of the discard (CR-9, CR-10)
        placing = Placing(tuple(view["placing"]["from"]), view["placing"]["optional"],
                          self.akey[discard[-1]] if discard else "delegate")
    sizes = view["hand_sizes"]
    holds: list[list[int]] = [[] for _ in range(n)]  # cards a hidden hand surely holds
    if placing is not None:  # a seat owing a Done holds one; Teamwork's own Dones likewise (CR-9, CR-10)
        owing = placing.owing + (view["turn_seat"],) * placing.optional
        for t in owing:
            if hands[t] is None:
                holds[t].append(action(self.key_name["done"]))
    for shown in view["revealed"]:  # a hand shown to everyone by this move (CR-21), before the
        t = shown["seat"]           # automatic steps that followed it (a Done placed, a steal, a draw)
        if t != me:
            for name in shown["hand"]:
                if len(holds[t]) < sizes[t] and free_actions.has(name):
                    holds[t].append(action(name))
    pool, chores = free_actions.rest(), free_chores.rest()
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
        result=outcome and Result(outcome["finished"], list(outcome["winners"]), outcome["reason"]),
        # as shown (names; the ids are any copies: the view names them, nothing reads them)
        revealed=[Reveal(r["seat"], [self.aname.index(name) for name in r["hand"]]) for r in view["revealed"]] or None)
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


def evaluate(self, s) -> tuple[float, ...]:
    """Each seat's chance to win as the search bot judges a position (see
    Evaluates.evaluate): its standing is its VP (CR-17), plus ``EVAL_PROGRESS`` VP per
    progress on its chores up to their level (a complete chore: its level, as CR-14
    scores it), plus ``EVAL_HAND`` per card in hand; the standings become rewards
    through :func:`~playtest.engine.search.margin_rewards` (scale ``EVAL_SCALE`` VP)."""
    levels, progress, hand = self._level, self.EVAL_PROGRESS, self.EVAL_HAND
    values = []
    for seat, row in enumerate(s.tableaus):
        value = s.vp[seat] + hand * len(s.hands[seat])
        for e in row:
            level = levels[e[CHORE]]
            value += level if e[PROGRESS] >= level else progress * e[PROGRESS]
        values.append(value)
    return margin_rewards(values, self.EVAL_SCALE)
