"""Night Shift rules, one ruling at a time (RULINGS NS-1..NS-10, G-2, G-4), each on a
real match reached the public way: a pinned setup (:func:`pinned`, ``NightShift.SETUP``)
and legal moves."""
import json
from collections import Counter

import pytest
from fresh_process import in_fresh_process

from playtest.engine import SPECTATOR, IllegalMove, Match, Move, OptionError, get_game
from playtest.games.night_shift import PRESETS, NightShift, load_cards

LL, BW, GV, CR, QN, TO = "Laundry Load", "Bottle Wash", "Grandparent Visit", "Coffee Refill", "Quick Nap", "Trade Off"
SC, CC, STP, NT = "Shared Calendar", "Chore Chart", "Sleep Training Plan", "Nap Token"


# --- test helpers ---------------------------------------------------------------------
SEATED = ("hands", "deck_top", "baskets", "structures")


def pinned(seed=0, options=None, **setup) -> Match:
    """A Night Shift match at a pinned setup: ``Match(..., setup=...)``, the public way
    (keys of ``NightShift.SETUP``; see :meth:`NightShift.pin`).

    Args:
        seed, options: the match's seed and options.
        setup: SETUP keys. ``hands``, ``deck_top``, ``baskets`` and ``structures`` may be
            given as ``{seat: [names]}``: a seat left out gets an empty list (its starter
            cards not named stay in its Personal Deck). Counters (``patience``, ``effort``,
            ``actions``, ``care``) are ``[seat 0, seat 1]``; they are what the view shows
            once the setup is done (after the start-of-Shift effects of pinned structures).
    """
    for key in SEATED:
        if isinstance(setup.get(key), dict):
            setup[key] = [list(setup[key].get(seat, [])) for seat in (0, 1)]
    return Match("night_shift", 2, options, seed, setup=setup)


def rest_of_supply(*named) -> list[str]:
    """The Household Supply cards (NS-1) except one copy of each name in ``named``: put in
    a Laundry Basket (where bought cards go, NS-4), they empty the Household Supply."""
    cards = Counter(c.name for c in NightShift(2).cards if c.where == "supply") - Counter(named)
    return sorted(cards.elements())


def play(m, *moves):
    """Play moves given as text (``"0 play 'Laundry Load'"``) on the match; an illegal
    one raises IllegalMove and changes nothing. Returns the events."""
    events = []
    for text in moves:
        events += m.play(text)
    return events


def names(m, ids):
    """The card names of ``ids`` (``m``: a Match or a NightShift game)."""
    return [getattr(m, "game", m).cards[c].name for c in ids]


def player(m, seat=0):
    """``seat``'s part of the public view (NS-6 counters, piles)."""
    return m.view(None)["players"][seat]


def refused(m, text):
    """The IllegalMove raised for ``text``; asserts the match did not change."""
    before = m.fingerprint()
    with pytest.raises(IllegalMove) as info:
        m.play(text)
    assert m.fingerprint() == before
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
    m = pinned(hands={0: [LL, CR, BW]})
    assert Move(0, "play", (CR,)) not in m.legal_moves(0)
    play(m, f"0 play '{LL}'")
    assert (player(m)["effort"], player(m)["actions"]) == (2, 2)
    play(m, f"0 play '{CR}'")
    assert (player(m)["effort"], player(m)["actions"]) == (5, 1)
    assert names(m, m.state.shifts[0]) == [LL, CR] and names(m, m.state.hands[0]) == [BW]


def test_NS2_refusals_explain_actions_effort_and_hand():
    m = pinned(hands={0: [CR, BW]}, actions=[1, 3])
    error = refused(m, f"0 play '{CR}'")
    assert error.ruling == "NS-2" and "costs 2 Effort" in error.reason
    assert refused(m, f"0 play '{GV}'").reason == "there is no Grandparent Visit in seat 0's hand"
    play(m, f"0 play '{BW}'")
    error = refused(m, f"0 play '{CR}'")
    assert error.ruling == "NS-2" and "no Actions left" in error.reason


def test_NS2_option_free_play_costs_no_effort_but_buying_still_does():
    """NS-2 option play_cost='free': only buying costs Effort."""
    m = pinned(options={"play_cost": "free"}, hands={0: [GV, STP]}, supply_row=[CR])
    play(m, f"0 play '{GV}'", f"0 play '{STP}'")
    assert (player(m)["effort"], player(m)["care"]) == (3, 1)
    m = pinned(options={"play_cost": "free"}, supply_row=[CR])
    assert refused(m, f"0 buy '{CR}'").ruling == "NS-4"


# --- NS-3 structures ---------------------------------------------------------------------------
def test_NS3_structure_does_nothing_when_played_and_works_at_later_shifts():
    """NS-3: Sleep Training Plan gives nothing on play, stays through Lights Out, and
    gives +1 Care Point at the start of each later Shift of its owner."""
    m = pinned(hands={0: [STP, LL]}, effort=[5, 0], deck_top={0: [BW] * 4})
    play(m, f"0 play '{STP}'")
    assert (player(m)["effort"], player(m)["care"]) == (0, 0)
    play(m, "0 end")
    assert names(m, m.state.shifts[0]) == [STP] and names(m, m.state.baskets[0]) == [LL]
    assert player(m)["care"] == 0                           # seat 1's Shift now
    play(m, "1 end")
    assert m.to_act() == (0,) and player(m)["care"] == 1
    play(m, "0 end", "1 end")
    assert player(m)["care"] == 2


# --- NS-4 buying -------------------------------------------------------------------------------
def test_NS4_buy_from_row_refills_at_once_and_goes_to_the_laundry_basket():
    m = pinned(supply_row=[TO, CR, QN, GV, SC], supply_top=[CC, STP], effort=[2, 0])
    supply = m.view(None)["household_supply"]
    play(m, f"0 buy '{TO}'")
    assert names(m, m.state.baskets[0]) == [TO]
    assert sorted(names(m, m.state.row)) == sorted([CR, QN, GV, SC, CC])
    assert m.view(None)["household_supply"] == supply - 1 and names(m, m.state.supply[-1:]) == [STP]   # next
    assert (player(m)["effort"], player(m)["actions"]) == (0, 2)


def test_NS4_row_stops_refilling_when_the_supply_is_empty():
    m = pinned(supply_row=[QN, QN], baskets={1: rest_of_supply(QN, QN)}, effort=[2, 0])
    assert m.view(None)["household_supply"] == 0 and names(m, m.state.row) == [QN, QN]
    play(m, f"0 buy '{QN}'")
    assert names(m, m.state.row) == [QN]


def test_NS4_nap_token_stack_never_refills():
    m = pinned(nap_tokens=1, baskets={1: [NT] * 9}, effort=[2, 0])
    play(m, f"0 buy '{NT}'")
    assert m.view(None)["nap_tokens"] == 0 and names(m, m.state.baskets[0]) == [NT]
    error = refused(m, f"0 buy '{NT}'")
    assert (error.ruling, error.reason) == ("NS-4", "the Nap Token stack is empty and never refills")


def test_NS4_buy_refusals_name_the_ruling():
    m = pinned(supply_row=[STP, QN, QN, TO, TO], effort=[4, 0])
    assert "costs 5 Effort" in refused(m, f"0 buy '{STP}'").reason
    assert refused(m, f"0 buy '{CR}'").reason == "there is no Coffee Refill in the Supply Row"


# --- NS-5 drawing -------------------------------------------------------------------------------
ALL_STARTERS = [LL] * 6 + [BW] * 4       # a seat's whole Starter Shift deck (NS-1)


def test_NS5_no_reshuffle_as_written_an_empty_deck_draws_nothing():
    """NS-5 as written: the Personal Deck holds one card (every starter card is in hand),
    so Lights Out draws that one and nothing more."""
    m = pinned(hands={0: ALL_STARTERS}, deck_top={0: [QN]}, baskets={0: [TO]})
    assert player(m)["deck_count"] == 1
    play(m, "0 end")
    assert names(m, m.state.hands[0]) == [QN] and Counter(names(m, m.state.baskets[0])) == {LL: 6, BW: 4, TO: 1}
    assert player(m)["deck_count"] == 0


def test_NS5_option_reshuffle_refills_an_empty_deck_from_the_laundry_basket():
    """NS-5 option reshuffle: Lights Out discards first, so the discarded cards can come
    back in the same draw: the deck holds 1 card and the basket 2 before Lights Out, yet
    the seat draws 5 and the basket is empty."""
    m = pinned(options={"reshuffle": True}, hands={0: ALL_STARTERS}, deck_top={0: [QN]}, baskets={0: [TO, CR]})
    play(m, "0 end")
    hand = names(m, m.state.hands[0])
    assert len(hand) == 5 and hand[0] == QN and player(m)["basket_count"] == 0 and player(m)["deck_count"] == 8
    assert Counter(hand[1:] + names(m, m.state.decks[0])) == {LL: 6, BW: 4, TO: 1, CR: 1}


def test_NS5_grandparent_visit_draws_one_card():
    m = pinned(hands={0: [GV]}, deck_top={0: [TO, QN]}, effort=[3, 0])
    play(m, f"0 play '{GV}'")
    assert names(m, m.state.hands[0]) == [TO] and (player(m)["effort"], player(m)["care"]) == (3, 1)


# --- NS-6 start of Shift and bounds --------------------------------------------------------------
def test_NS6_start_of_shift_resets_then_structures_give():
    """NS-6: Effort to 0 and Actions to 3 first, then structure effects."""
    m = pinned(structures={1: [SC, CC]}, effort=[4, 7], actions=[1, 0])
    play(m, "0 end")
    assert m.to_act() == (1,) and (player(m, 1)["effort"], player(m, 1)["actions"]) == (2, 3)


def test_NS6_patience_stays_within_0_and_25():
    m = pinned(hands={0: [QN, NT]}, patience=[24, 25], effort=[2, 0])
    play(m, f"0 play '{QN}'")
    assert player(m)["patience"] == 25
    play(m, f"0 play '{NT}'")
    assert (player(m)["patience"], player(m)["care"]) == (25, 1)


def test_NS6_effort_cannot_go_below_zero():
    m = pinned(hands={0: [CR]}, effort=[1, 0])
    assert refused(m, f"0 play '{CR}'").ruling == "NS-2"
    assert player(m)["effort"] == 1


def test_NS6_playing_out_of_turn_is_refused():
    m = pinned(hands={1: [LL]})
    error = refused(m, f"1 play '{LL}'")
    assert error.ruling == "NS-6" and "seat 0's Shift" in error.reason


# --- NS-7 Tidy Up ----------------------------------------------------------------------------------
def test_NS7_tidy_up_turns_all_effort_into_patience_excess_lost():
    m = pinned(patience=[20, 25], effort=[7, 0])
    play(m, "0 tidy")
    assert (player(m)["patience"], player(m)["effort"], player(m)["actions"]) == (25, 0, 2)


def test_NS7_tidy_up_needs_effort_and_no_opponent_structure():
    m = pinned(patience=[20, 25])
    assert refused(m, "0 tidy").reason == "Tidy Up needs at least 1 Effort"
    m = pinned(patience=[20, 25], effort=[3, 0], structures={1: [SC]})
    error = refused(m, "0 tidy")
    assert error.ruling == "NS-7" and "Shared Calendar" in error.reason
    m = pinned(patience=[20, 25], effort=[3, 0], structures={0: [SC]})          # own structure: fine
    assert Move(0, "tidy") in m.legal_moves(0)


# --- NS-8 Settle a Household Problem ---------------------------------------------------------------
def test_NS8_settle_pays_health_and_sends_structure_to_owners_basket():
    m = pinned(structures={1: [CC, SC]}, effort=[5, 0])
    assert Move(0, "settle", (STP,)) not in m.legal_moves(0)
    play(m, f"0 settle '{CC}'")
    assert (player(m)["effort"], player(m)["actions"]) == (1, 2)
    assert names(m, m.state.shifts[1]) == [SC] and names(m, m.state.baskets[1]) == [CC]
    error = refused(m, f"0 settle '{SC}'")
    assert error.ruling == "NS-8" and "health 3" in error.reason
    assert refused(m, f"0 settle '{STP}'").reason.startswith("the opponent has no Sleep Training Plan")


# --- NS-9 Activate an ability ------------------------------------------------------------------------
def test_NS9_activate_is_never_offered_and_explained():
    m = pinned(hands={0: [SC, LL]}, structures={0: [CC]}, effort=[5, 0])
    assert all(mv.kind != "activate" for mv in m.legal_moves(0))
    error = refused(m, f"0 activate '{CC}'")
    assert error.ruling == "NS-9" and "never offered" in error.reason
    m = Match("night_shift", 2, seed=1)
    with pytest.raises(IllegalMove, match=r"NS-9"):
        m.play("0 activate")


# --- NS-10 endings -----------------------------------------------------------------------------------
def test_NS10_zero_patience_loses_at_once():
    m = pinned(hands={0: [TO, LL]}, patience=[25, 3], effort=[2, 0])
    play(m, f"0 play '{TO}'")
    result = m.outcome()
    assert result.finished and result.winners == (0,) and "0 Patience" in result.reason
    assert m.to_act() == () and m.legal_moves(0) == []
    assert refused(m, f"0 play '{LL}'").ruling == "NS-10"


def test_NS10_supply_exhausted_ends_at_the_end_of_that_shift():
    m = pinned(supply_row=[QN, SC, SC, SC, SC], supply_top=[TO], baskets={1: rest_of_supply(QN, SC, SC, SC, SC, TO)},
               effort=[3, 0], care=[1, 0])
    assert m.view(None)["household_supply"] == 1
    play(m, f"0 buy '{QN}'")                          # the refill empties the supply
    assert m.view(None)["household_supply"] == 0 and m.outcome() is None
    play(m, f"0 buy '{TO}'")                          # the Shift goes on
    play(m, "0 end")
    result = m.outcome()
    assert result.finished and result.winners == (0,) and "Household Supply is empty" in result.reason


def test_NS10_turn_limit_counts_shifts_of_both_seats():
    m = pinned(options={"turn_limit": 3})
    play(m, "0 end", "1 end")
    assert m.outcome() is None and m.view(None)["shift"] == 3 and m.to_act() == (0,)
    play(m, "0 end")
    assert m.outcome().finished and "Shift 3 was the last" in m.outcome().reason


@pytest.mark.parametrize("care, patience, winners, word", [
    ([3, 5], [25, 1], (1,), "Care Points"),
    ([4, 4], [10, 12], (1,), "Patience"),
    ([4, 4], [12, 12], (), "draw"),
])
def test_NS10_care_points_then_patience_then_draw(care, patience, winners, word):
    m = pinned(options={"turn_limit": 1}, care=care, patience=patience)
    play(m, "0 end")
    result = m.outcome()
    assert result.winners == winners and word in result.reason and result.scores == tuple(care)


def test_G4_max_turns_ends_unfinished_after_that_many_shifts():
    m = Match("night_shift", 2, {"max_turns": 2}, seed=3)
    m.play("0 end")
    m.play("1 end")
    assert m.outcome().finished is False and m.to_act() == ()


# --- options, presets, registry, views ------------------------------------------------------------------
def test_G2_first_player_int_and_seeded_random():
    assert Match("night_shift", 2, {"first_player": 1}, seed=0).to_act() == (1,)
    firsts = [list(Match("night_shift", 2, {"first_player": "random"}, seed=s).to_act()) for s in range(20)]
    assert {tuple(f) for f in firsts} == {(0,), (1,)}
    # the seed decides (G-3): the same first seats in another process
    assert firsts == in_fresh_process("""
        from playtest.engine import Match
        result = [list(Match("night_shift", 2, {"first_player": "random"}, seed=s).to_act()) for s in range(20)]""")


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
    m = pinned(hands={0: [LL, BW], 1: [TO]}, deck_top={0: [QN], 1: [CR, GV]}, structures={1: [SC]},
               baskets={0: [NT]}, supply_row=[STP, QN, QN, QN, QN], supply_top=[CC])
    v = m.view(0)
    me, opp = v["players"]
    assert [c["name"] for c in me["hand"]] == [LL, BW] and opp["hand"] is None and opp["hand_count"] == 1
    # seat 0's deck: QN on its 8 other starter cards; seat 1's: CR, GV on its 10; the
    # Household Supply: 33 less the row, TO, CR, GV, SC and seat 0's QN
    assert (me["deck_count"], opp["deck_count"], v["household_supply"]) == (9, 12, 23)
    assert [(c["name"], c["health"]) for c in opp["current_shift"]] == [(SC, 3)]
    assert [c["name"] for c in me["laundry_basket"]] == [NT] and [c["name"] for c in v["supply_row"]] == [STP] + [QN] * 4
    assert v["nap_tokens"] == 9 and v["nap_card"]["name"] == NT and v["to_act"] == [0]
    spectator = m.view(SPECTATOR)
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
    m = pinned(hands={0: [LL]}, effort=[2, 0])
    error = refused(m, text)
    assert error.ruling == ruling and error.reason.startswith(reason)
