"""Chore Race properties over random games, 2-6 seats and many option sets (hypothesis):
every card is accounted for exactly once (CR-1, CR-2, CR-6), VP equals the scored
chores' values with the Garage modifier (CR-2, CR-14), the record replays to the same
fingerprint (G-3), an illegal move changes nothing, and no view shows a card of another
seat's hand except right after a reveal (CR-9, CR-10, CR-21)."""
import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from playtest.engine import IllegalMove, Match, Move
from test_chore_race_helpers import all_cards_once

OPTIONS = st.fixed_dictionaries({}, optional={
    "draw_rule": st.sampled_from(["one", "fill_to_7"]),
    "chore_swap_needs_progress": st.booleans(),
    "target_vp": st.sampled_from([10, 15, 20]),
    "tableau_size": st.integers(2, 4),
    "action_deck": st.sampled_from([None, "74", {"Excuse": 1, "Done": 20, "Family Meeting": 8}]),
    "first_player": st.just("random"),
    "max_turns": st.sampled_from([25, 1000]),
})
MAX_MOVES = 260


def expected_gain(game, vp_before, seat, chore_ids):
    """CR-2/CR-14: level, +bonus for the Garage when an opponent had 7+ VP (opponents'
    VP cannot change during the active seat's Score step)."""
    total = 0
    for cid in chore_ids:
        chore = game.chores[cid]
        total += chore.level
        if chore.ability == "garage" and any(v >= chore.opponent_vp for o, v in enumerate(vp_before) if o != seat):
            total += chore.bonus_vp
    return total


def perturbed(m, other):
    """A copy of the state in which ``other``'s hidden cards (hand and committed meeting
    cards) are exchanged with cards from the deck, and the deck is reshuffled: everything
    another seat may not know about ``other``, changed."""
    s = copy.deepcopy(m.state)
    hidden = s.hands[other] + (s.meeting[other] or [] if s.meeting else [])
    k = min(len(hidden), len(s.deck))
    swapped, s.deck[:k] = s.deck[:k], hidden[:k]
    new = swapped + hidden[k:]
    s.hands[other] = new[:len(s.hands[other])]
    if s.meeting and s.meeting[other] is not None:
        s.meeting[other] = new[len(s.hands[other]):]
    random.Random(len(s.deck)).shuffle(s.deck)
    return s


def random_illegal(game, rng, seats):
    kind = rng.choice(list(game.MOVE_ARGS) + ["fly"])
    args = tuple(rng.choice([rng.randrange(-1, 7), rng.choice(["done", "action", "progress", "x"])])
                 for _ in game.MOVE_ARGS.get(kind, ()))
    return Move(rng.randrange(seats), kind, args)


@settings(max_examples=45, deadline=None)
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**31 - 1), options=OPTIONS)
def test_random_games_keep_every_invariant(seats, seed, options):
    m = Match("chore_race", seats, options, seed)
    game, rng = m.game, random.Random(seed)
    assert all_cards_once(m)
    for step in range(MAX_MOVES):
        if m.outcome() is not None:
            break
        seat = rng.choice(m.to_act())
        legal = m.legal_moves(seat)
        assert legal, f"seat {seat} must decide but has no move"
        if step % 6 == 0:                                    # an illegal move changes nothing
            bad = random_illegal(game, rng, seats)
            if not game.is_legal(m.state, bad, m.legal_moves(bad.seat)):
                before = m.fingerprint()
                try:
                    m.play(bad)
                    raise AssertionError(f"{bad} was accepted")
                except IllegalMove as err:
                    assert isinstance(err.ruling, str) and err.reason
                assert m.fingerprint() == before
        if step % 4 == 0:                                    # non-interference of hidden hands
            viewer, other = rng.sample(range(seats), 2)
            shown = {r["seat"] for r in m.view(viewer)["revealed"]}
            if other not in shown:
                assert game.view(perturbed(m, other), viewer) == m.view(viewer)
                assert game.view(perturbed(m, other), None) == m.view(None)
        vp_before, active = list(m.state.vp), m.state.turn_seat
        scored_before = [len(p) for p in m.state.scored]
        move = rng.choice(legal)
        m.play(move)
        for s_ in range(seats):
            new = m.state.scored[s_][scored_before[s_]:]
            assert m.state.vp[s_] - vp_before[s_] == expected_gain(game, vp_before, s_, new)
        assert all_cards_once(m)
        view = m.view(seat)
        assert view["hand"] == game._hand(m.state.hands[seat])
        if view["revealed"]:                                 # only right after a reveal
            assert move.kind == "accept" and {r["seat"] for r in view["revealed"]} <= {seat, active}
    replay = Match.from_json(m.to_json())
    assert replay.fingerprint() == m.fingerprint()
    assert replay.view(0) == m.view(0)


@settings(max_examples=12, deadline=None)
@given(seats=st.integers(2, 6), seed=st.integers(0, 2**31 - 1))
def test_random_games_finish_with_a_consistent_outcome(seats, seed):
    """CR-17/CR-18/G-4: random bots always reach an outcome; winners lead the ranking."""
    m = Match("chore_race", seats, {}, seed, keep_log=False)
    rng = random.Random(seed)
    while m.outcome() is None:
        seat = m.to_act()[0]
        m.play(rng.choice(m.legal_moves(seat)))
    outcome, vp = m.outcome(), m.state.vp
    assert m.to_act() == () and all(m.legal_moves(s) == [] for s in range(seats))
    if outcome.finished:
        assert outcome.winners and all(vp[w] == max(vp) for w in outcome.winners)
        if outcome.reason.startswith("CR-17"):
            assert outcome.winners == (m.state.turn_seat,) and vp[outcome.winners[0]] >= m.game.options.target_vp
