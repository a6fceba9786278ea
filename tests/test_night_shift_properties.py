"""Night Shift under random play (hypothesis), both presets and both NS-2 play costs:
every card is somewhere exactly once, the NS-6 bounds hold at every step, a record
replays to the identical state (G-3), an illegal move changes nothing, and a view never
depends on the opponent's hand or on any hidden order."""
import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from playtest.engine import IllegalMove, Match, Move
from playtest.games.night_shift import PRESETS, NightShift

games = st.builds(
    lambda preset, play_cost, first, seed, moves_seed: (
        {**PRESETS[preset], "play_cost": play_cost, "first_player": first}, seed, moves_seed),
    st.sampled_from(sorted(PRESETS)), st.sampled_from(["printed", "free"]),
    st.sampled_from([0, 1, "random"]), st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1))

FAST = settings(max_examples=50, deadline=None)


def random_game(options, seed, moves_seed, each_step=lambda match: None):
    """Play a whole game with moves picked by ``random.Random(moves_seed)``, calling
    ``each_step(match)`` before the first move and after every move."""
    match = Match("night_shift", 2, options, seed, keep_log=False)
    rng = random.Random(moves_seed)
    each_step(match)
    while match.to_act():
        seat = match.to_act()[0]
        match.play(rng.choice(match.legal_moves(seat)))
        each_step(match)
    return match


def every_card(state):
    return (sum(state.decks + state.hands + state.shifts + state.baskets, [])
            + state.row + state.supply + state.naps)


@FAST
@given(games)
def test_every_card_is_in_exactly_one_place_at_every_step(game):
    """NS-1: 63 cards, each in exactly one of: Personal Decks, hands, Current Shifts,
    Laundry Baskets, Supply Row, Household Supply, Nap Token stack."""
    n = len(NightShift(2).cards)

    def check(match):
        assert sorted(every_card(match.state)) == list(range(n))
        assert len(match.state.row) <= 5

    random_game(*game, each_step=check)


@FAST
@given(games)
def test_bounds_hold_at_every_step(game):
    """NS-6: Patience within 0..25, Effort >= 0, Actions 0..3; only structures stay in a
    Current Shift between Shifts, each with its health (NS-3, NS-8)."""
    def check(match):
        s, cards = match.state, match.game.cards
        assert all(0 <= p <= 25 for p in s.patience) and all(e >= 0 for e in s.effort)
        assert all(0 <= a <= 3 for a in s.actions)
        off_turn = 1 - s.turn
        assert all(cards[c].structure for c in s.shifts[off_turn])
        assert set(s.health) == {c for seat in (0, 1) for c in s.shifts[seat] if cards[c].structure}
        assert bool(match.to_act()) == (match.outcome() is None)

    match = random_game(*game, each_step=check)
    assert match.outcome().finished and match.state.shift <= 50


@FAST
@given(games)
def test_record_replays_to_the_identical_fingerprint(game):
    """G-3: the record (options, seed, moves) rebuilds the same state, byte for byte."""
    match = random_game(*game)
    again = Match.from_json(match.to_json(), keep_log=False)
    assert again.fingerprint() == match.fingerprint() and len(again.moves) == len(match.moves)


@FAST
@given(games, st.integers(0, 10**6))
def test_an_illegal_move_leaves_the_fingerprint_unchanged(game, pick):
    """An illegal move raises IllegalMove naming a ruling and changes nothing."""
    checked = []

    def check(match):
        if match.outcome() is not None or len(checked) > 6:
            return
        seat = match.to_act()[0]
        legal = set(match.legal_moves(seat))
        candidates = [Move(seat, "activate"), Move(1 - seat, "end"), Move(seat, "tidy"),
                      *(Move(seat, kind, (name,)) for kind in ("play", "buy", "settle")
                        for name in ("Sleep Training Plan", "Trade Off", "Laundry Load", "Nap Token"))]
        illegal = [m for m in candidates if m not in legal]
        move = illegal[(pick + len(checked)) % len(illegal)]
        before = match.fingerprint()
        try:
            match.play(move)
        except IllegalMove as error:
            assert error.ruling.startswith("NS-")
        else:
            raise AssertionError(f"{move} was accepted")
        assert match.fingerprint() == before
        checked.append(move)

    random_game(*game, each_step=check)
    assert checked


@FAST
@given(games, st.integers(0, 2**31 - 1))
def test_views_hide_the_opponents_hand_and_every_hidden_order(game, shuffle_seed):
    """A seat's view is the same whatever the opponent holds (of the same size) and
    whatever order both Personal Decks and the Household Supply are in."""
    rng = random.Random(shuffle_seed)

    def check(match):
        s, g = match.state, match.game
        if len(checked) > 8 or rng.random() < 0.7:
            return
        for seat in (0, 1):
            other = copy.deepcopy(s)
            other.rng = s.rng
            opp = 1 - seat
            pool = other.hands[opp] + other.decks[opp]          # same pile sizes, other cards
            rng.shuffle(pool)
            other.hands[opp], other.decks[opp] = pool[:len(s.hands[opp])], pool[len(s.hands[opp]):]
            for pile in (other.decks[0], other.decks[1], other.supply):
                rng.shuffle(pile)
            assert json.dumps(g.view(other, seat)) == json.dumps(g.view(s, seat))
            assert g.view(s, seat)["players"][opp]["hand"] is None
            assert g.bot_view(s, seat) == g.view(s, seat)
        checked.append(1)

    checked = []
    random_game(*game, each_step=check)
    assert checked
