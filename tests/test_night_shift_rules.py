"""Night Shift rules, one ruling at a time (RULINGS NS-1..NS-10, G-2, G-4), each on a
real state arranged with :func:`arrange`."""
import json
import random
from collections import Counter

import pytest

from playtest.engine import SPECTATOR, IllegalMove, Match, Move, OptionError, get_game
from playtest.games.night_shift import PRESETS, NightShift, load_cards

LL, BW, GV, CR, QN, TO = "Laundry Load", "Bottle Wash", "Grandparent Visit", "Coffee Refill", "Quick Nap", "Trade Off"
SC, CC, STP, NT = "Shared Calendar", "Chore Chart", "Sleep Training Plan", "Nap Token"


# --- test helpers ---------------------------------------------------------------------
def arrange(seed=0, options=None, *, hands=None, decks=None, shifts=None, baskets=None, row=None,
            supply=None, naps=None, patience=None, effort=None, actions=None, care=None, turn=0, shift=1):
    """A Night Shift game and state in an exact position, by card names.

    Args:
        seed, options: the game's seed and options.
        hands, decks, shifts, baskets: ``{seat: [names]}``; decks are listed top card
            first. A seat left out has that zone empty.
        row: the Supply Row, left to right (default empty).
        supply: the Household Supply, top card first (default: every supply card not
            placed elsewhere, so ending a Shift does not end the game by NS-10).
        naps: Nap Tokens left in the stack (default all not placed elsewhere).
        patience, effort, actions, care: ``[seat 0, seat 1]`` (defaults 25, 0, 3, 0).
        turn, shift: the seat on turn and the Shift number.

    Returns:
        ``(game, state)``. Card ids are taken from the real deal, so every id stays
        unique; starter cards not named are left out of the game. Structures in a
        Current Shift get their printed health. The state has no record: play on it
        with :func:`play`, not with a Match.

    Raises:
        ValueError: a name with no copy left to place.
    """
    game = NightShift(2, options or {})
    state = game.new_state(random.Random(seed))
    pool: dict[str, list[int]] = {}
    for cid, card in enumerate(game.cards):
        pool.setdefault(card.name, []).append(cid)

    def take(names):
        ids = []
        for name in names:
            if not pool.get(name):
                raise ValueError(f"no copy of {name!r} left to place")
            ids.append(pool[name].pop())
        return ids

    def per_seat(zone):
        return [take((zone or {}).get(seat, [])) for seat in (0, 1)]

    state.hands, state.shifts, state.baskets = per_seat(hands), per_seat(shifts), per_seat(baskets)
    state.decks = [list(reversed(d)) for d in per_seat(decks)]        # top = last
    state.row = take(row or [])
    if supply is None:
        state.supply = [cid for name, ids in pool.items() if game.by_name[name].where == "supply" for cid in ids]
    else:
        state.supply = list(reversed(take(supply)))
    nap_left = [cid for cid in pool.get(NT, [])]
    state.naps = nap_left if naps is None else nap_left[:naps]
    state.health = {cid: game.cards[cid].health for seat in (0, 1) for cid in state.shifts[seat]
                    if game.cards[cid].structure}
    state.patience = list(patience or [25, 25])
    state.effort = list(effort or [0, 0])
    state.actions = list(actions or [3, 3])
    state.care = list(care or [0, 0])
    state.turn, state.shift = turn, shift
    return game, state


def play(game, state, *moves):
    """Check and apply moves given as text (``"0 play 'Laundry Load'"``), as a Match
    would: an illegal one raises IllegalMove and changes nothing. Returns the events."""
    events = []
    for text in moves:
        move = Move.parse(text)
        game.check(state, move, game.legal_moves(state, move.seat))
        events += game.apply(state, move)
    return events


def names(game, ids):
    return [game.cards[c].name for c in ids]


def refused(game, state, text):
    """The IllegalMove raised for ``text``; asserts the state did not change."""
    before = json.dumps(state.dump())
    with pytest.raises(IllegalMove) as info:
        play(game, state, text)
    assert json.dumps(state.dump()) == before
    return info.value


# --- NS-1 card data ---------------------------------------------------------------------
def test_NS1_card_table_and_counts():
    """NS-1: the printed table: 10-card Starter Shift decks, a 33-card Household Supply,
    10 Nap Tokens; costs, health and effects as listed."""
    game = NightShift(2)
    assert Counter(len(ids) for ids in game.places.values()) == Counter({10: 3, 33: 1})
    assert len(game.places["nap"]) == 10 and len(game.cards) == 63
    for seat in (0, 1):
        assert Counter(names(game, game.places[f"starter{seat}"])) == {LL: 6, BW: 4}
    assert Counter(names(game, game.places["supply"])) == {GV: 4, CR: 5, QN: 5, TO: 8, SC: 4, CC: 4, STP: 3}
    table = {c.name: (c.type, c.cost, c.health, c.view["play"], c.view["start_of_shift"]) for c in game.cards}
    assert table == {
        LL: ("unit", None, None, {"effort": 2}, {}),
        BW: ("unit", None, None, {"effort": 1, "care": 1}, {}),
        GV: ("unit", 3, None, {"effort": 3, "draw": 1, "care": 1}, {}),
        CR: ("resource", 2, None, {"effort": 5}, {}),
        QN: ("event", 1, None, {"patience": 2}, {}),
        TO: ("event", 2, None, {"opponent_patience": -3, "care": 1}, {}),
        SC: ("structure", 3, 3, {}, {"effort": 1}),
        CC: ("structure", 4, 4, {}, {"effort": 1}),
        STP: ("structure", 5, 5, {}, {"care": 1}),
        NT: ("resource", 1, None, {"patience": 2, "care": 1}, {}),
    }


@pytest.mark.parametrize("entry, message", [
    ('name = "X"\ntype = "structure"\ncost = 1\nwhere = "supply"\ncount = 1', r"card 1 \('X'\).*needs a health"),
    ('name = "X"\ntype = "unit"\nwhere = "shop"\ncount = 1', r"card 1 \('X'\): where"),
    ('name = "X"\ntype = "unit"\nwhere = "supply"\ncount = 1\nplay = { effort = 1, luck = 2 }', r"play.luck"),
    ('name = "X"\ntype = "unit"\nwhere = "supply"\ncount = -1', r"count"),
    ('name = "X"\ntype = "event"\nwhere = "supply"\ncount = 1\nstart_of_shift = { care = 1 }', r"only structures"),
])
def test_NS1_bad_card_file_names_file_entry_and_field(tmp_path, entry, message):
    """NS-1: the card file is checked on load; errors name the file, entry and field."""
    path = tmp_path / "cards.toml"
    path.write_text("[[card]]\n" + entry + "\n")
    with pytest.raises(ValueError, match=message) as info:
        load_cards(path)
    assert str(path) in str(info.value)


def test_NS1_duplicate_name_and_broken_toml_are_refused(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text('[[card]]\nname="A"\ntype="unit"\nwhere="supply"\ncount=1\n' * 2)
    with pytest.raises(ValueError, match=r"card 2 \('A'\).*used twice"):
        load_cards(path)
    path.write_text("[[card\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        load_cards(path)


# --- NS-2 playing ---------------------------------------------------------------------------
def test_NS2_play_costs_an_action_plus_printed_effort():
    """NS-2: Coffee Refill costs 2 Effort and 1 Action; Laundry Load (no printed cost) only
    the Action."""
    game, s = arrange(hands={0: [LL, CR, BW]})
    assert Move(0, "play", (CR,)) not in game.legal_moves(s, 0)
    play(game, s, f"0 play '{LL}'")
    assert (s.effort[0], s.actions[0]) == (2, 2)
    play(game, s, f"0 play '{CR}'")
    assert (s.effort[0], s.actions[0]) == (5, 1)
    assert names(game, s.shifts[0]) == [LL, CR] and names(game, s.hands[0]) == [BW]


def test_NS2_refusals_explain_actions_effort_and_hand():
    game, s = arrange(hands={0: [CR, BW]}, actions=[1, 3])
    error = refused(game, s, f"0 play '{CR}'")
    assert error.ruling == "NS-2" and "costs 2 Effort" in error.reason
    assert refused(game, s, f"0 play '{GV}'").reason == "there is no Grandparent Visit in seat 0's hand"
    play(game, s, f"0 play '{BW}'")
    error = refused(game, s, f"0 play '{CR}'")
    assert error.ruling == "NS-2" and "no Actions left" in error.reason


def test_NS2_option_free_play_costs_no_effort_but_buying_still_does():
    """NS-2 option play_cost='free': only buying costs Effort."""
    game, s = arrange(options={"play_cost": "free"}, hands={0: [GV, STP]}, row=[CR])
    play(game, s, f"0 play '{GV}'", f"0 play '{STP}'")
    assert (s.effort[0], s.care[0]) == (3, 1)
    game, s = arrange(options={"play_cost": "free"}, row=[CR])
    assert refused(game, s, f"0 buy '{CR}'").ruling == "NS-4"


# --- NS-3 structures ---------------------------------------------------------------------------
def test_NS3_structure_does_nothing_when_played_and_works_at_later_shifts():
    """NS-3: Sleep Training Plan gives nothing on play, stays through Lights Out, and
    gives +1 Care Point at the start of each later Shift of its owner."""
    game, s = arrange(hands={0: [STP, LL]}, effort=[5, 0], decks={0: [BW] * 4})
    play(game, s, f"0 play '{STP}'")
    assert (s.effort[0], s.care[0]) == (0, 0)
    play(game, s, "0 end")
    assert names(game, s.shifts[0]) == [STP] and names(game, s.baskets[0]) == [LL]
    assert s.care[0] == 0                                   # seat 1's Shift now
    play(game, s, "1 end")
    assert s.turn == 0 and s.care[0] == 1
    play(game, s, "0 end", "1 end")
    assert s.care[0] == 2


# --- NS-4 buying -------------------------------------------------------------------------------
def test_NS4_buy_from_row_refills_at_once_and_goes_to_the_laundry_basket():
    game, s = arrange(row=[TO, CR, QN, GV, SC], supply=[CC, STP], effort=[2, 0])
    play(game, s, f"0 buy '{TO}'")
    assert names(game, s.baskets[0]) == [TO]
    assert sorted(names(game, s.row)) == sorted([CR, QN, GV, SC, CC])
    assert names(game, s.supply) == [STP] and (s.effort[0], s.actions[0]) == (0, 2)


def test_NS4_row_stops_refilling_when_the_supply_is_empty():
    game, s = arrange(row=[QN, QN], supply=[], effort=[2, 0])
    play(game, s, f"0 buy '{QN}'")
    assert names(game, s.row) == [QN]


def test_NS4_nap_token_stack_never_refills():
    game, s = arrange(naps=1, effort=[2, 0])
    play(game, s, f"0 buy '{NT}'")
    assert s.naps == [] and names(game, s.baskets[0]) == [NT]
    error = refused(game, s, f"0 buy '{NT}'")
    assert (error.ruling, error.reason) == ("NS-4", "the Nap Token stack is empty and never refills")


def test_NS4_buy_refusals_name_the_ruling():
    game, s = arrange(row=[STP], effort=[4, 0])
    assert "costs 5 Effort" in refused(game, s, f"0 buy '{STP}'").reason
    assert refused(game, s, f"0 buy '{CR}'").reason == "there is no Coffee Refill in the Supply Row"


# --- NS-5 drawing -------------------------------------------------------------------------------
def test_NS5_no_reshuffle_as_written_an_empty_deck_draws_nothing():
    game, s = arrange(hands={0: [LL, BW]}, decks={0: [QN]}, baskets={0: [TO]})
    play(game, s, "0 end")
    assert names(game, s.hands[0]) == [QN] and sorted(names(game, s.baskets[0])) == [BW, LL, TO]
    assert s.decks[0] == []


def test_NS5_option_reshuffle_refills_an_empty_deck_from_the_laundry_basket():
    """NS-5 option reshuffle: Lights Out discards first, so the discarded cards can come
    back in the same draw."""
    game, s = arrange(options={"reshuffle": True}, hands={0: [LL, BW]}, decks={0: [QN]}, baskets={0: [TO, CR]})
    play(game, s, "0 end")
    assert sorted(names(game, s.hands[0])) == sorted([QN, LL, BW, TO, CR])
    assert s.decks[0] == [] and s.baskets[0] == []


def test_NS5_grandparent_visit_draws_one_card():
    game, s = arrange(hands={0: [GV]}, decks={0: [TO, QN]}, effort=[3, 0])
    play(game, s, f"0 play '{GV}'")
    assert names(game, s.hands[0]) == [TO] and (s.effort[0], s.care[0]) == (3, 1)


# --- NS-6 start of Shift and bounds --------------------------------------------------------------
def test_NS6_start_of_shift_resets_then_structures_give():
    """NS-6: Effort to 0 and Actions to 3 first, then structure effects."""
    game, s = arrange(shifts={1: [SC, CC]}, effort=[4, 7], actions=[1, 0])
    play(game, s, "0 end")
    assert s.turn == 1 and (s.effort[1], s.actions[1]) == (2, 3)


def test_NS6_patience_stays_within_0_and_25():
    game, s = arrange(hands={0: [QN, NT]}, patience=[24, 25], effort=[2, 0])
    play(game, s, f"0 play '{QN}'")
    assert s.patience[0] == 25
    play(game, s, f"0 play '{NT}'")
    assert (s.patience[0], s.care[0]) == (25, 1)


def test_NS6_effort_cannot_go_below_zero():
    game, s = arrange(hands={0: [CR]}, effort=[1, 0])
    assert refused(game, s, f"0 play '{CR}'").ruling == "NS-2"
    assert s.effort[0] == 1


def test_NS6_playing_out_of_turn_is_refused():
    game, s = arrange(hands={1: [LL]})
    error = refused(game, s, f"1 play '{LL}'")
    assert error.ruling == "NS-6" and "seat 0's Shift" in error.reason


# --- NS-7 Tidy Up ----------------------------------------------------------------------------------
def test_NS7_tidy_up_turns_all_effort_into_patience_excess_lost():
    game, s = arrange(patience=[20, 25], effort=[7, 0])
    play(game, s, "0 tidy")
    assert (s.patience[0], s.effort[0], s.actions[0]) == (25, 0, 2)


def test_NS7_tidy_up_needs_effort_and_no_opponent_structure():
    game, s = arrange(patience=[20, 25])
    assert refused(game, s, "0 tidy").reason == "Tidy Up needs at least 1 Effort"
    game, s = arrange(patience=[20, 25], effort=[3, 0], shifts={1: [SC]})
    error = refused(game, s, "0 tidy")
    assert error.ruling == "NS-7" and "Shared Calendar" in error.reason
    game, s = arrange(patience=[20, 25], effort=[3, 0], shifts={0: [SC]})      # own structure: fine
    assert Move(0, "tidy") in game.legal_moves(s, 0)


# --- NS-8 Settle a Household Problem ---------------------------------------------------------------
def test_NS8_settle_pays_health_and_sends_structure_to_owners_basket():
    game, s = arrange(shifts={1: [CC, SC]}, effort=[5, 0])
    assert Move(0, "settle", (STP,)) not in game.legal_moves(s, 0)
    play(game, s, f"0 settle '{CC}'")
    assert (s.effort[0], s.actions[0]) == (1, 2)
    assert names(game, s.shifts[1]) == [SC] and names(game, s.baskets[1]) == [CC]
    error = refused(game, s, f"0 settle '{SC}'")
    assert error.ruling == "NS-8" and "health 3" in error.reason
    assert refused(game, s, f"0 settle '{STP}'").reason.startswith("the opponent has no Sleep Training Plan")


# --- NS-9 Activate an ability ------------------------------------------------------------------------
def test_NS9_activate_is_never_offered_and_explained():
    game, s = arrange(hands={0: [SC, LL]}, shifts={0: [CC]}, effort=[5, 0])
    assert all(m.kind != "activate" for m in game.legal_moves(s, 0))
    error = refused(game, s, f"0 activate '{CC}'")
    assert error.ruling == "NS-9" and "never offered" in error.reason
    m = Match("night_shift", 2, seed=1)
    with pytest.raises(IllegalMove, match=r"NS-9"):
        m.play("0 activate")


# --- NS-10 endings -----------------------------------------------------------------------------------
def test_NS10_zero_patience_loses_at_once():
    game, s = arrange(hands={0: [TO, LL]}, patience=[25, 3], effort=[2, 0])
    play(game, s, f"0 play '{TO}'")
    result = game.outcome(s)
    assert result.finished and result.winners == (0,) and "0 Patience" in result.reason
    assert game.to_act(s) == () and game.legal_moves(s, 0) == []
    assert refused(game, s, f"0 play '{LL}'").ruling == "NS-10"


def test_NS10_supply_exhausted_ends_at_the_end_of_that_shift():
    game, s = arrange(row=[QN], supply=[TO], effort=[3, 0], care=[1, 0])
    play(game, s, f"0 buy '{QN}'")                   # the refill empties the supply
    assert s.supply == [] and game.outcome(s) is None
    play(game, s, f"0 buy '{TO}'")                    # the Shift goes on
    play(game, s, "0 end")
    result = game.outcome(s)
    assert result.finished and result.winners == (0,) and "Household Supply is empty" in result.reason


def test_NS10_turn_limit_counts_shifts_of_both_seats():
    game, s = arrange(options={"turn_limit": 3})
    play(game, s, "0 end", "1 end")
    assert game.outcome(s) is None and s.shift == 3 and s.turn == 0
    play(game, s, "0 end")
    assert game.outcome(s).finished and "Shift 3 was the last" in game.outcome(s).reason


@pytest.mark.parametrize("care, patience, winners, word", [
    ([3, 5], [25, 1], (1,), "Care Points"),
    ([4, 4], [10, 12], (1,), "Patience"),
    ([4, 4], [12, 12], (), "draw"),
])
def test_NS10_care_points_then_patience_then_draw(care, patience, winners, word):
    game, s = arrange(options={"turn_limit": 1}, care=care, patience=patience)
    play(game, s, "0 end")
    result = game.outcome(s)
    assert result.winners == winners and word in result.reason and result.scores == tuple(care)


def test_G4_max_turns_ends_unfinished_after_that_many_shifts():
    m = Match("night_shift", 2, {"max_turns": 2}, seed=3)
    m.play("0 end")
    m.play("1 end")
    assert m.outcome().finished is False and m.to_act() == ()


# --- options, presets, registry, views ------------------------------------------------------------------
def test_G2_first_player_int_and_seeded_random():
    assert Match("night_shift", 2, {"first_player": 1}, seed=0).to_act() == (1,)
    firsts = {Match("night_shift", 2, {"first_player": "random"}, seed=s).to_act() for s in range(20)}
    assert firsts == {(0,), (1,)}
    assert all(Match("night_shift", 2, {"first_player": "random"}, seed=s).to_act()
               == Match("night_shift", 2, {"first_player": "random"}, seed=s).to_act() for s in range(5))


@pytest.mark.parametrize("options, message", [
    ({"play_cost": "cheap"}, "NS-2"), ({"reshuffle": "maybe"}, "NS-5"), ({"turn_limit": 0}, "NS-10"),
    ({"first_player": 2}, "G-2"), ({"colour": "red"}, "colour"),
])
def test_bad_options_are_refused_naming_the_ruling(options, message):
    with pytest.raises(OptionError, match=message):
        NightShift(2, options)


def test_exactly_two_seats_presets_and_registry():
    with pytest.raises(OptionError, match="exactly 2 seats"):
        Match("night_shift", 3)
    assert get_game("night_shift") is NightShift and NightShift.title == "Night Shift"
    assert set(PRESETS) == {"as written", "with reshuffle"}
    assert NightShift(2, PRESETS["with reshuffle"]).options.reshuffle is True
    assert NightShift(2, PRESETS["as written"]).options.reshuffle is False


def test_view_shows_own_hand_counts_for_hidden_piles_and_public_zones():
    game, s = arrange(hands={0: [LL, BW], 1: [TO]}, decks={0: [QN], 1: [CR, GV]}, shifts={1: [SC]},
                      baskets={0: [NT]}, row=[STP], supply=[CC])
    v = game.view(s, 0)
    me, opp = v["players"]
    assert [c["name"] for c in me["hand"]] == [LL, BW] and opp["hand"] is None and opp["hand_count"] == 1
    assert (me["deck_count"], opp["deck_count"], v["household_supply"]) == (1, 2, 1)
    assert [(c["name"], c["health"]) for c in opp["current_shift"]] == [(SC, 3)]
    assert [c["name"] for c in me["laundry_basket"]] == [NT] and [c["name"] for c in v["supply_row"]] == [STP]
    assert v["nap_tokens"] == 9 and v["nap_card"]["name"] == NT and v["to_act"] == [0]
    spectator = game.view(s, SPECTATOR)
    assert all(p["hand"] is None for p in spectator["players"])
    text = json.dumps(spectator)
    assert TO not in text and CR not in text and GV not in text and CC not in text   # hidden cards only


def test_log_names_drawn_cards_only_to_the_drawer():
    m = Match("night_shift", 2, seed=5)
    m.play("0 end")
    public = [text for _, text in m.log_for(1)]
    private = [text for _, text in m.log_for(0)]
    hand = [c["name"] for c in m.view(0)["players"][0]["hand"]]
    assert any(", ".join(hand) in t for t in private) and not any(", ".join(hand) in t for t in public)


@pytest.mark.parametrize("text, ruling, reason", [
    ("0 dance", "", "'dance' is not a Night Shift move"),
    ("0 play", "", "'play' takes 1 argument(s): 0 play <card>"),
    ("0 tidy now", "", "'tidy' takes 0 argument(s)"),
])
def test_unknown_kinds_and_wrong_arguments_are_explained(text, ruling, reason):
    game, s = arrange(hands={0: [LL]}, effort=[2, 0])
    error = refused(game, s, text)
    assert error.ruling == ruling and error.reason.startswith(reason)
