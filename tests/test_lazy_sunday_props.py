"""Property tests for Lazy Sunday over random games, 2-7 seats (RULINGS G-3, LS-1..LS-11).

Hypothesis draws the seed, seat count, options and every move choice; each example is a
short game (capped by G-4 ``max_turns``) checked after every move.
"""
import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playtest.engine import IllegalMove, Match, Move
from playtest.games.lazy_sunday import LazySunday
from playtest.games.lazy_sunday.rules import load_cards

CARDS = load_cards()
NAMES = set(CARDS.names)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(SETTINGS, max_examples=30)  # the per-move checks of these are heavier

options_st = st.fixed_dictionaries({
    "rounds": st.integers(1, 3),
    "match_to": st.sampled_from([None, 100]),
    "great_escape": st.booleans(),
    "first_player": st.sampled_from([0, 1, "random"]),
    "max_turns": st.integers(5, 80),
})


def play_random(data, seats, options, seed, check=None, steps=400):
    """Play up to ``steps`` moves chosen by hypothesis: mostly the pending decision, now
    and then a claim (open move) by any seat. Calls ``check(match, move)`` after each."""
    match = Match(LazySunday, seats, options, seed)
    choices = data.draw(st.lists(st.integers(0, 2**16), min_size=steps, max_size=steps), label="choices")
    for choice in choices:
        if match.outcome() is not None:
            break
        seat = match.to_act()[0]
        legal = match.legal_moves(seat)
        decisions = [m for m in legal if m.kind != "claim"]
        if choice % 8 == 0:  # an open move by any seat
            claimer = choice // 8 % seats
            claims = [m for m in match.legal_moves(claimer) if m.kind == "claim"]
            pool = claims or decisions
        else:
            pool = decisions
        move = pool[choice // 64 % len(pool)]
        match.play(move)
        if check:
            check(match, move)
    return match


def all_cards(state):
    cards = state.deck + state.done + [c for lst in state.lists for c in lst]
    return cards + ([state.drawn] if state.drawn is not None else [])


@SETTINGS
@given(data=st.data(), seats=st.integers(2, 7), options=options_st, seed=st.integers(0, 2**31))
def test_LS1_every_card_accounted_once_and_LS9_round_scores(data, seats, options, seed):
    """LS-1/LS-2: the 54 cards are always in exactly one place (deck, DONE, a list, the
    drawn card). LS-9: each round's scores are the list totals, the caller's 0 if lowest
    or tied lowest, else 50."""
    scored = []

    def check(match, move):
        s = match.state
        assert sorted(all_cards(s)) == list(range(54))
        if len(s.round_scores) > len(scored):
            totals = [sum(CARDS.efforts[c] for c in lst) for lst in s.lists]
            expected = list(totals)
            expected[s.caller] = 0 if totals[s.caller] <= min(totals) else 50
            assert s.round_scores[-1] == expected
            scored.append(expected)

    match = play_random(data, seats, options, seed, check)
    if match.outcome() is not None and match.outcome().finished and not options["great_escape"]:
        assert list(match.outcome().scores) == [sum(col) for col in zip(*scored)]


@SETTINGS
@given(data=st.data(), seats=st.integers(2, 7), options=options_st, seed=st.integers(0, 2**31))
def test_G3_saved_record_replays_to_same_fingerprint(data, seats, options, seed):
    """G-3: (game, options, seed, moves) rebuilds the same state: save and reload the
    record (to_json / from_json) and the fingerprint is identical; so is a rewind to the
    middle and back."""
    match = play_random(data, seats, options, seed)
    loaded = Match.from_json(match.to_json())
    assert loaded.fingerprint() == match.fingerprint()
    assert json.loads(json.dumps(match.state.dump())) == match.state.dump()  # JSON-able
    end = match.cursor
    match.goto(end // 2)
    match.goto(end)
    assert match.fingerprint() == loaded.fingerprint()


def bogus_moves(match, choice):
    """A few moves that are illegal now: wrong seat, a claim on a future serial, a made-up
    position, an unknown kind, a burn of an action not drawn."""
    s = match.state
    seats = len(s.lists)
    actor = s.actor
    other = (actor + 1 + choice % (seats - 1)) % seats
    return [
        Move(other, "draw"), Move(other, "discard"),
        Move(choice % seats, "claim", (choice % seats, 0, s.serial + 1)),
        Move(actor, "keep", (99,)), Move(actor, "take", (99,)), Move(actor, "fly"),
        Move(actor, "knock_out", (99,)), Move(actor, "peek", (3, 3)), Move(actor, "give", (99,)),
    ]


@FEWER
@given(data=st.data(), seats=st.integers(2, 7), options=options_st, seed=st.integers(0, 2**31))
def test_illegal_moves_leave_state_unchanged_and_name_a_ruling(data, seats, options, seed):
    """Every illegal move raises IllegalMove naming a RULINGS id (LS-*/G-*), and the
    fingerprint (whole state plus rng) is unchanged."""
    def check(match, move):
        if match.outcome() is not None:
            return
        before = match.fingerprint()
        for bad in bogus_moves(match, len(match.moves)):
            if match.game.is_legal(match.state, bad, match.legal_moves(bad.seat)):
                continue
            with pytest.raises(IllegalMove) as err:
                match.play(bad)
            assert err.value.ruling.startswith(("LS-", "G-")) or bad.kind == "fly"
            assert err.value.reason
            assert match.fingerprint() == before

    play_random(data, seats, options, seed, check, steps=150)


def allowed_names(match, seat):
    """Card names ``seat`` may see now: the DONE top, its own drawn card, cards it looks
    at, the card it has just given (LS-5), and every list card once the round is scored."""
    s = match.state
    names = {CARDS.names[s.done[-1]]} if s.done else set()
    if s.drawn is not None and seat == s.turn:
        names.add(CARDS.names[s.drawn])
    if seat is not None and seat == s.actor:
        names |= {CARDS.names[s.lists[t][p]] for t, p in s.looking}
    if s.shown is not None and seat == s.shown[0]:
        (t, gap), = s.shown[1]  # where the give put the card
        names.add(CARDS.names[s.lists[t][gap]])
    if s.phase in ("round_over", "over"):
        names |= {CARDS.names[c] for lst in s.lists for c in lst}
    return names


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


def relabel(state, a, b):
    """A copy of ``state`` with card ids ``a`` and ``b`` (same name) exchanged everywhere."""
    other = copy.deepcopy(state)
    swap = {a: b, b: a}
    fix = lambda cards: [swap.get(c, c) for c in cards]  # noqa: E731
    other.deck, other.done = fix(other.deck), fix(other.done)
    other.lists = [fix(lst) for lst in other.lists]
    other.drawn = swap.get(other.drawn, other.drawn)
    other.known[a], other.known[b] = other.known[b], other.known[a]
    return other


@FEWER
@given(data=st.data(), seats=st.integers(2, 7), options=options_st, seed=st.integers(0, 2**31))
def test_LS11_views_hide_face_down_cards_and_card_ids(data, seats, options, seed):
    """LS-11: no view (any seat, spectator) names a face-down card that seat is not
    looking at now (LS-5: a giver looks at the card it gives only right after its give),
    and views carry no card identity: exchanging two copies of the same
    card in the state leaves every view identical. Views are JSON data."""
    game = LazySunday(seats, options)

    def check(match, move):
        s = match.state
        # a given card is shown to its giver right after the give only (these games make
        # no late claim, the one move that would leave it shown)
        assert (s.shown is not None) == (move.kind == "give")
        for seat in [None, *range(seats)]:
            view = game.view(s, seat)
            assert json.loads(json.dumps(view)) == view
            leaked = {x for x in strings(view) if x in NAMES} - allowed_names(match, seat)
            assert not leaked, (seat, leaked)
        twin = relabel(s, 0, 1)  # ids 0 and 1 are the two Nap cards
        assert CARDS.names[0] == CARDS.names[1]
        for seat in [None, *range(seats)]:
            assert game.view(twin, seat) == game.view(s, seat)
            if seat is not None:
                assert game.bot_view(twin, seat) == game.bot_view(s, seat)

    play_random(data, seats, options, seed, check, steps=120)


@SETTINGS
@given(data=st.data(), seats=st.integers(2, 7), seed=st.integers(0, 2**31))
def test_LS11_memory_is_exact(data, seats, seed):
    """LS-11: whatever a seat's memory names at a position is the card really there."""
    def check(match, move):
        s = match.state
        for seat in range(seats):
            memory = match.game.bot_view(s, seat)["memory"]
            for t, lst in enumerate(s.lists):
                assert len(memory[t]) == len(lst)
                for p, name in enumerate(memory[t]):
                    assert name is None or name == CARDS.names[lst[p]]

    play_random(data, seats, {"max_turns": 60}, seed, check, steps=200)
