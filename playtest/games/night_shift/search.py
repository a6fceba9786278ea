"""Night Shift for the search bot (``ismcts``, :mod:`playtest.engine.search`): states
copied to play on and states sampled from a seat's view. :func:`copy_state` and
:func:`determinizer` are :class:`~.rules.NightShift`'s methods of those names (the class
binds them; ``self`` is the game)."""
from __future__ import annotations

from playtest.engine import Outcome
from playtest.engine.rng import shuffle
from playtest.engine.search import Unplaced

from .state import NightShiftState


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
    """Sample states consistent with ``seat``'s view (see Searchable.determinizer; a Night
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
    free = Unplaced(name_of, "Night Shift has (NS-1)")
    take = free.take

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
    unseen = free.rest()
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
