"""Chore Race, one or more unit tests per ruling (RULINGS G-2, G-4, CR-1..CR-21), each on a
real match reached the public way: a pinned setup (``pinned``, see test_chore_race_helpers.py;
``ChoreRace.SETUP``) and legal moves. A pinned hand is the hand before the first seat's
Draw step (CR-3), which draws the pinned top of the deck."""
import json
from collections import Counter

import pytest

from playtest.engine import SPECTATOR, IllegalMove, Move, OptionError
from playtest.games.chore_race import CardDataError, ChoreRace, load_cards
from playtest.games.chore_race.rules import CARDS_FILE
from test_chore_race_helpers import all_cards_once, keys, new_match, other_chores, pinned


def tableau(m, seat):
    """``[(name, progress), ...]`` of ``seat``'s tableau, from the public view."""
    return [(c["name"], c["progress"]) for c in m.view(SPECTATOR)["tableaus"][seat]]


def refused(m, text, ruling):
    """Play ``text``, expect IllegalMove naming ``ruling``, and prove nothing changed."""
    before = m.fingerprint()
    with pytest.raises(IllegalMove) as err:
        m.play(text)
    assert err.value.ruling == ruling, err.value
    assert m.fingerprint() == before
    return err.value


# --- CR-1, CR-2: the cards ------------------------------------------------------------------
def test_CR1_default_action_deck_is_the_printed_list_of_66():
    """CR-1: the per-card counts, 66 cards, not the rulebook's 74."""
    deck = Counter(ChoreRace(2).akey)
    assert deck == {"done": 30, "finally": 6, "inspection": 4, "excuse": 6, "delegate": 4,
                    "swap": 4, "meeting": 4, "later": 4, "teamwork": 4}
    assert sum(deck.values()) == 66


def test_CR1_option_action_deck_preset_74_and_mapping():
    """CR-1: preset "74" adds 8 Done; a mapping (names or keys) overrides the cards it names."""
    assert Counter(ChoreRace(2, {"action_deck": "74"}).akey)["done"] == 38
    assert len(ChoreRace(2, {"action_deck": "74"}).akey) == 74
    deck = Counter(ChoreRace(2, {"action_deck": {"Excuse": 2, "teamwork": 0}}).akey)
    assert deck["excuse"] == 2 and deck["teamwork"] == 0 and deck["done"] == 30


@pytest.mark.parametrize("deck, message", [
    ({"Snooze": 2}, "CR-1: unknown action card 'Snooze'"),
    ({"Done": -1}, "CR-1: the count of 'Done' must be a whole number"),
    ("75", "CR-1: use a mapping"),
    ({"Done": 0, "Finally!": 0, "Excuse": 0}, "CR-1: the action deck has 24 cards; 6 seats need at least 30"),
])
def test_CR1_bad_action_deck_is_refused_clearly(deck, message):
    """CR-1: option errors name the ruling and the bad card (66 - 42 = 24 cards < 6 x 5)."""
    seats = 6
    with pytest.raises(OptionError, match=message.replace("(", r"\(")):
        ChoreRace(seats, {"action_deck": deck})


def test_CR2_chore_deck_is_13_chores_times_3_with_levels_and_abilities():
    """CR-2: 39 chores; level 2 x15, level 3 x12, level 4 x12; the five abilities."""
    chores = ChoreRace(2).chores
    assert len(chores) == 39 and len({c.name for c in chores}) == 13
    assert Counter(c.level for c in chores) == {2: 15, 3: 12, 4: 12}
    abilities = {c.name: c.ability for c in chores if c.ability}
    assert abilities == {"Take Out the Trash": "steal", "Clean Your Room": "no_delegate",
                         "Wipe the Counters": "wipe", "Reorganize the Garage": "garage",
                         "Reorganize the Attic": "attic"}


@pytest.mark.parametrize("edit, message", [
    (('name = "Mop the Floor"\nlevel = 3', 'name = "Mop the Floor"\nlevel = 0'),
     r"cards\.toml: bad card data: \[\[chore\]\] #8 'Mop the Floor' field 'level'"),
    (('key = "teamwork"', 'key = "hug"'), r"\[\[action\]\] #9 'Teamwork' field 'key'"),
    (('name = "Feed the Cat"', 'name = "Make Your Bed"'), "chore names must be unique"),
    (("count = 30", "count = = 30"), r"cards\.toml: not valid TOML"),
])
def test_CR1_CR2_card_file_errors_name_the_file_and_entry(tmp_path, edit, message):
    """CR-1/CR-2: a designer's bad edit of cards.toml is refused naming file and entry."""
    path = tmp_path / "cards.toml"
    path.write_text(CARDS_FILE.read_text().replace(*edit, 1))
    with pytest.raises(CardDataError, match=message):
        load_cards(path)
    assert load_cards(CARDS_FILE).chore[0].name == "Take Out the Trash"


def test_CR2_clean_your_room_blocks_delegate_while_in_the_tableau():
    """CR-2 passive: opponents cannot choose its owner as the target of Delegate."""
    m = pinned(hands={0: ["delegate"]}, deck=["teamwork"],
               tableaus={0: [("Mow the Lawn", 0)], 1: [("Clean Your Room", 0)]})
    assert Move(0, "delegate", (1,)) not in m.legal_moves(0)
    assert Move(0, "teamwork", (1,)) in m.legal_moves(0)          # only Delegate is blocked
    refused(m, "0 delegate 1", "CR-2")


def test_CR2_take_out_the_trash_steals_a_random_card_from_a_chosen_opponent():
    """CR-2 trigger: steal 1 random card (seeded stream) from the opponent you choose."""
    m = pinned(3, hands={1: ["excuse"] * 4 + ["inspection"] * 4, 2: ["meeting"]}, deck=["done"],
               tableaus={0: [("Take Out the Trash", 1)]})               # 8 cards: seat 1 draws none next
    m.play("0 done 0")
    m.play("0 end")
    assert m.view(0)["phase"] == "trigger" and m.legal_moves(0) == [Move(0, "steal", (1,)), Move(0, "steal", (2,))]
    m.play("0 steal 1")
    stolen = keys(m, 0)
    assert len(stolen) == 1 and Counter(keys(m, 1)) == Counter({"excuse": 4, "inspection": 4}) - Counter(stolen)
    assert any("steals your" in text for _, text in m.log_for(1))
    assert not any(stolen[0].capitalize() in text for _, text in m.log_for(2) if "steal" in text)
    assert all_cards_once(m)


def test_CR2_reorganize_the_attic_removes_up_to_2_progress_from_a_chosen_chore():
    """CR-2 trigger: up to 2 progress off one opponent chore (never below 0)."""
    m = pinned(deck=["done"], tableaus={0: [("Reorganize the Attic", 3)], 1: [("Mow the Lawn", 3), ("Make Your Bed", 1)]})
    m.play("0 done 0")
    m.play("0 end")
    assert m.legal_moves(0) == [Move(0, "attic", (1, 0)), Move(0, "attic", (1, 1))]
    m.play("0 attic 1 1")
    assert tableau(m, 1) == [("Mow the Lawn", 3), ("Make Your Bed", 0)]


@pytest.mark.parametrize("opponent_vp, gained", [(7, 5), (6, 4)])
def test_CR2_reorganize_the_garage_is_worth_5_if_an_opponent_has_7(opponent_vp, gained):
    """CR-2 scoring: 5 VP instead of 4 when an opponent has 7+ VP as it is scored."""
    m = pinned(tableaus={0: [("Reorganize the Garage", 4)]}, vp=[0, opponent_vp])
    m.play("0 end")
    assert m.view(SPECTATOR)["vp"] == [gained, opponent_vp]


# --- CR-3, CR-4, CR-5, CR-6: a turn -------------------------------------------------------------
@pytest.mark.parametrize("held, drawn", [(3, 1), (6, 1), (7, 0), (8, 0)])
def test_CR3_draw_step_draws_one_but_never_past_seven(held, drawn):
    """CR-3: 1 card, capped at a hand of 7 (cards over 7 stay)."""
    m = pinned(hands={1: ["done"] * held})
    m.play("0 end")
    assert m.view(SPECTATOR)["hand_sizes"][1] == held + drawn and m.to_act() == (1,)


def test_CR3_option_fill_to_7_draws_until_the_hand_holds_seven():
    """CR-3 option draw_rule="fill_to_7"."""
    m = pinned(hands={1: ["done"] * 2}, draw_rule="fill_to_7")
    m.play("0 end")
    assert m.view(SPECTATOR)["hand_sizes"][1] == 7


def test_CR3_cards_gained_otherwise_may_take_a_hand_past_seven():
    """CR-3: only the Draw step is capped; a steal may give an 8th card."""
    m = pinned(hands={0: ["done"] * 7 + ["excuse"], 1: ["meeting"]},       # 8 cards: seat 0 draws none
               tableaus={0: [("Take Out the Trash", 1)]})
    m.play("0 done 0")
    m.play("0 end")                       # one opponent with cards: the steal is automatic
    assert keys(m, 0).count("meeting") == 1 and len(keys(m, 0)) == 8


def test_CR4_two_slots_in_either_order_then_the_score_step_by_itself():
    """CR-4: action slot first, then progress; both used -> Score step -> next turn."""
    m = pinned(hands={0: ["done"]}, deck=["inspection"],
               tableaus={0: [("Make Your Bed", 0)], 1: [("Mow the Lawn", 1)]})
    m.play("0 inspection 1 0")
    m.play("1 accept")
    assert m.view(0)["slots"] == {"progress": False, "action": True} and m.to_act() == (0,)
    m.play("0 done 0")
    assert m.to_act() == (1,) and m.view(1)["turn_seat"] == 1 and tableau(m, 0)[0] == ("Make Your Bed", 1)


def test_CR4_each_slot_is_used_once_and_a_discard_uses_the_slot_named():
    """CR-4: discard any 1 card in place of a slot; a used slot refuses a second card."""
    m = pinned(hands={0: ["done", "finally", "excuse"]}, deck=["meeting"], tableaus={0: [("Mow the Lawn", 0)]})
    m.play("0 discard progress excuse")
    refused(m, "0 done 0", "CR-4")
    refused(m, "0 discard progress finally", "CR-4")
    assert Move(0, "meeting") in m.legal_moves(0)
    assert m.view(SPECTATOR)["action_discard"] == ["Excuse"]


def test_CR4_end_leaves_the_slots_and_passes_the_turn():
    """CR-4: leaving a slot is allowed; ``end`` goes to the Score step."""
    m = pinned(deck=["done"], tableaus={0: [("Mow the Lawn", 0)]})
    m.play("0 end")
    assert m.to_act() == (1,) and keys(m, 0) == ["done"]


def test_CR5_done_adds_1_and_finally_adds_3_to_an_own_chore_with_no_reaction():
    """CR-5: Done +1, Finally! +3, on own chores only; nothing reacts to them."""
    m = pinned(hands={1: ["excuse"]}, deck=["finally"],
               tableaus={0: [("Mow the Lawn", 0)], 1: [("Make Your Bed", 0)]})
    m.play("0 finally 0")
    assert tableau(m, 0) == [("Mow the Lawn", 3)] and m.to_act() == (0,)       # no window
    m2 = pinned(deck=["done"], tableaus={0: [("Mow the Lawn", 1)]})
    m2.play("0 done 0")
    assert tableau(m2, 0) == [("Mow the Lawn", 2)]
    refused(pinned(deck=["done"], tableaus={1: [("Mow the Lawn", 1)]}), "0 done 0", "CR-5")


def test_CR6_progress_is_a_counter_cards_stay_until_the_chore_leaves():
    """CR-6: Inspection lowers the counter but cards stay; on scoring they are discarded;
    progress past the target adds nothing."""
    m = pinned(deck=["inspection"], tableaus={0: [("Make Your Bed", 1)]}, first=1)
    m.play("1 inspection 0 0")
    m.play("0 accept")
    chore = m.view(SPECTATOR)["tableaus"][0][0]
    assert chore["progress"] == 0 and chore["cards"] == ["Done"]
    m = pinned(deck=["finally"], tableaus={0: [("Make Your Bed", 1)]})
    m.play("0 finally 0")
    assert tableau(m, 0) == [("Make Your Bed", 4)]
    m.play("0 end")
    view = m.view(SPECTATOR)
    assert view["vp"] == [2, 0] and view["action_discard"] == ["Done", "Finally!"]
    assert all_cards_once(m)


# --- CR-7: the reaction window ------------------------------------------------------------------
def test_CR7_wipe_the_counters_cancels_the_first_inspection_for_free_once_per_copy():
    """CR-7/CR-2: the free cancel comes first, automatically, once per copy."""
    m = pinned(hands={0: ["inspection"], 1: ["excuse"]}, deck=["inspection"],
               tableaus={1: [("Wipe the Counters", 0), ("Mow the Lawn", 2)]})
    m.play("0 inspection 1 1")
    view = m.view(SPECTATOR)
    assert m.to_act() == (0,) and view["pending"] is None and view["tableaus"][1][0]["wipe_used"]
    assert tableau(m, 1)[1] == ("Mow the Lawn", 2) and view["action_discard"] == ["Inspection"]
    assert keys(m, 1) == ["excuse"]                                 # the Excuse was not needed
    m.play("0 end")
    m.play("1 end")
    m.play("0 inspection 1 1")
    assert m.to_act() == (1,) and m.view(1)["phase"] == "react"   # that copy is used up


def test_CR7_excuse_cancels_a_targeted_action_both_cards_discarded_slot_used():
    """CR-7: only the target answers; Excuse cancels; both cards go to the discard."""
    m = pinned(hands={0: ["swap"], 1: ["excuse"]}, deck=["done"],
               tableaus={0: [("Make Your Bed", 0)], 1: [("Mow the Lawn", 3)]})
    m.play("0 swap 0 1 0")
    assert m.to_act() == (1,) and m.legal_moves(0) == []
    assert m.legal_moves(1) == [Move(1, "accept"), Move(1, "excuse")]
    refused(m, "0 end", "CR-7")
    m.play("1 excuse")
    view = m.view(SPECTATOR)
    assert tableau(m, 1) == [("Mow the Lawn", 3)] and sorted(view["action_discard"]) == ["Chore Swap", "Excuse"]
    assert view["slots"] == {"progress": False, "action": True} and m.to_act() == (0,)


def test_CR7_dodge_cancels_only_an_inspection():
    """CR-7: I'll Do It Later as Dodge answers an Inspection, not other actions."""
    m = pinned(hands={0: ["delegate"], 1: ["later", "done"]}, deck=["inspection"],
               tableaus={0: [("Make Your Bed", 0)], 1: [("Mow the Lawn", 1)]})
    m.play("0 delegate 1")
    assert m.legal_moves(1) == [Move(1, "accept")]
    refused(m, "1 dodge", "CR-7")
    m.play("1 accept")                                              # places on the only chore
    assert tableau(m, 0) == [("Make Your Bed", 1)]
    m.play("0 end")
    m.play("1 end")
    m.play("0 inspection 1 0")
    m.play("1 dodge")
    assert tableau(m, 1)[0] == ("Mow the Lawn", 1) and "I'll Do It Later" in m.view(SPECTATOR)["action_discard"]


def test_CR7_the_window_opens_even_for_a_target_without_reaction_cards():
    """CR-7: the target always decides (opening only for holders would leak its hand)."""
    m = pinned(deck=["inspection"], tableaus={1: [("Mow the Lawn", 1)]})
    m.play("0 inspection 1 0")
    assert m.to_act() == (1,) and m.legal_moves(1) == [Move(1, "accept")]
    m.play("1 accept")
    assert tableau(m, 1) == [("Mow the Lawn", 0)]


# --- CR-8: Family Meeting ------------------------------------------------------------------------
def meeting_match():
    return pinned(3, hands={0: ["meeting", "done", "done", "excuse"], 1: ["inspection", "delegate", "swap", "teamwork"],
                            2: ["later", "done"]}, deck=["finally"])


def test_CR8_everyone_passes_3_secretly_to_the_left_including_short_hands():
    """CR-8: all seats choose at once (a hand of 3 or fewer passes all, automatically);
    no view shows a choice before every seat has committed; then cards go to seat+1."""
    m = meeting_match()
    m.play("0 meeting")
    assert m.to_act() == (0, 1)                                      # seat 2 passed its 2 cards
    # ...and every seat reads why it was not asked; only seat 2 reads which cards went
    said = [t for _, t in m.log_for(2)]
    assert "You hold 3 cards or fewer, so all of them pass, with no choice (CR-8): Done, I'll Do It Later " \
           "to seat 0." in said
    assert "Seat 2 holds 3 cards or fewer and passes them all (CR-8)." in [t for _, t in m.log_for(0)]
    m.play("1 give teamwork delegate swap")                          # any order is accepted
    for seat in (0, 2, SPECTATOR):
        view = m.view(seat)
        assert view["meeting"]["committed"] == [1, 2] and view["meeting"]["mine"] in (None, ["Done", "I'll Do It Later"])
        assert "Delegate" not in json.dumps({k: v for k, v in view.items() if k != "keys"})
    assert m.view(1)["meeting"]["mine"] == ["Delegate", "Chore Swap", "Teamwork"]
    refused(m, "1 give inspection", "CR-8")                          # committed is committed
    refused(m, "0 give done done", "CR-8")                           # must pass exactly 3
    m.play("0 give done excuse finally")
    assert m.to_act() == (0,) and m.view(0)["meeting"] is None
    assert keys(m, 0) == ["done", "done", "later"]
    assert keys(m, 1) == ["done", "excuse", "finally", "inspection"]
    assert keys(m, 2) == ["delegate", "swap", "teamwork"]
    assert any("You receive" in t for _, t in m.log_for(2)) and all_cards_once(m)


def test_CR8_commit_order_does_not_matter():
    """CR-8: simultaneous: any commit order gives the identical position."""
    prints = []
    for order in ((0, 1), (1, 0)):
        m = meeting_match()
        m.play("0 meeting")
        for seat in order:
            m.play({0: "0 give done done excuse", 1: "1 give inspection delegate swap"}[seat])
        prints.append(m.fingerprint())
    assert prints[0] == prints[1]


# --- CR-9, CR-10: Delegate, Teamwork --------------------------------------------------------------
def test_CR9_delegate_the_target_gives_a_done_onto_a_chore_the_active_player_chooses():
    """CR-9: the active seat chooses the chore; the Done comes from the target's hand."""
    m = pinned(hands={1: ["done", "excuse"]}, deck=["delegate"],
               tableaus={0: [("Mow the Lawn", 0), ("Make Your Bed", 1)]})
    m.play("0 delegate 1")
    m.play("1 accept")
    assert m.to_act() == (0,) and m.legal_moves(0) == [Move(0, "place", (0,)), Move(0, "place", (1,))]
    m.play("0 place 1")
    assert tableau(m, 0) == [("Mow the Lawn", 0), ("Make Your Bed", 2)] and keys(m, 1) == ["excuse"]
    assert m.view(0)["phase"] == "play" and m.view(0)["slots"]["progress"] is False


def test_CR9_CR21_delegate_without_done_reveals_the_hand_until_the_next_move():
    """CR-9/CR-21: no Done: the hand is shown to everyone at that moment only."""
    m = pinned(3, hands={1: ["excuse", "finally"]}, deck=["delegate"], tableaus={0: [("Mow the Lawn", 0)]})
    m.play("0 delegate 1")
    m.play("1 accept")
    for seat in (0, 2, SPECTATOR):
        assert m.view(seat)["revealed"] == [{"seat": 1, "hand": ["Finally!", "Excuse"]}]
    assert tableau(m, 0) == [("Mow the Lawn", 0)]
    m.play("0 end")
    assert m.view(0)["revealed"] == [] and "Finally!" not in json.dumps(m.view(2)["revealed"])


def test_CR21_the_public_log_names_the_revealed_cards():
    """CR-21: a revealed hand is public at that moment, so the public log line names its
    cards (bots may move on at once); an empty hand reads "no cards"."""
    m = pinned(3, hands={1: ["excuse", "finally"]}, deck=["delegate"], tableaus={0: [("Mow the Lawn", 0)]})
    m.play("0 delegate 1")
    m.play("1 accept")
    line = m.log_for(SPECTATOR)[-1][1]
    assert "Seat 1's hand revealed: Finally!, Excuse." in line
    assert all(t == line for t in (m.log_for(s)[-1][1] for s in (0, 1, 2)))
    m = pinned(hands={1: ["meeting"]}, deck=["teamwork"], tableaus={0: [("Mow the Lawn", 0)]})
    m.play("0 teamwork 1")
    m.play("1 accept")
    text = "\n".join(t for _, t in m.log_for(SPECTATOR))
    assert "Seat 0's hand revealed: no cards." in text and "Seat 1's hand revealed: Family Meeting." in text


def test_CR10_teamwork_both_reveal_and_each_places_one_done_chosen_by_the_active_player():
    """CR-10: opponent's Done first, then the active seat's; both on the active tableau."""
    m = pinned(hands={0: ["teamwork"], 1: ["done", "meeting"]}, deck=["done"],
               tableaus={0: [("Mow the Lawn", 0), ("Make Your Bed", 0)]})
    m.play("0 teamwork 1")
    m.play("1 accept")
    assert [r["seat"] for r in m.view(1)["revealed"]] == [0, 1]
    assert m.view(0)["placing"] == {"from": [1, 0], "optional": 0}
    refused(m, "0 stop", "CR-10")
    m.play("0 place 0")
    assert m.view(0)["revealed"] == []                              # shown until the next move
    m.play("0 place 0")
    assert tableau(m, 0) == [("Mow the Lawn", 2), ("Make Your Bed", 0)]
    assert keys(m, 0) == [] and keys(m, 1) == ["meeting"] and m.view(0)["phase"] == "play"


def test_CR10_teamwork_without_opponent_done_lets_the_active_player_place_up_to_2():
    """CR-10: up to 2 of the active seat's own Done; ``stop`` ends early."""
    m = pinned(hands={0: ["teamwork", "done", "done"], 1: ["excuse"]}, deck=["done"],
               tableaus={0: [("Mow the Lawn", 0), ("Make Your Bed", 0)]})
    m.play("0 teamwork 1")
    m.play("1 accept")
    assert m.view(0)["placing"] == {"from": [], "optional": 2} and Move(0, "stop") in m.legal_moves(0)
    m.play("0 place 1")
    m.play("0 stop")
    assert tableau(m, 0) == [("Mow the Lawn", 0), ("Make Your Bed", 1)] and keys(m, 0) == ["done", "done"]


# --- CR-11, CR-12, CR-13 ----------------------------------------------------------------------------
def test_CR11_chore_swap_keeps_progress_and_cards_and_passives_travel():
    """CR-11: the two entries trade places with their progress, cards and passives."""
    m = pinned(hands={1: ["delegate"]}, deck=["swap"],
               tableaus={0: [("Make Your Bed", 0)], 1: [("Clean Your Room", 1), ("Mow the Lawn", 3)]})
    m.play("0 swap 0 1 0")
    m.play("1 accept")
    assert tableau(m, 0) == [("Clean Your Room", 1)] and m.view(0)["tableaus"][0][0]["cards"] == ["Done"]
    assert tableau(m, 1) == [("Make Your Bed", 0), ("Mow the Lawn", 3)]
    m.play("0 end")
    assert Move(1, "delegate", (0,)) not in m.legal_moves(1)        # Clean Your Room moved
    refused(m, "1 delegate 0", "CR-2")


def test_CR11_option_chore_swap_needs_progress():
    """CR-11 option: with chore_swap_needs_progress the chore you give needs 1+ progress."""
    setup = dict(deck=["swap"], tableaus={0: [("Make Your Bed", 0), ("Feed the Cat", 1)], 1: [("Mow the Lawn", 3)]})
    assert Move(0, "swap", (0, 1, 0)) in pinned(**setup).legal_moves(0)
    m = pinned(**setup, chore_swap_needs_progress=True)
    assert [mv.args for mv in m.legal_moves(0) if mv.kind == "swap"] == [(1, 1, 0)]
    refused(m, "0 swap 0 1 0", "CR-11")


def test_CR12_ill_do_it_later_discards_a_chore_and_draws_a_replacement_in_place():
    """CR-12: no VP; its cards to the action discard, the chore to the chore discard."""
    m = pinned(deck=["later"], tableaus={0: [("Mow the Lawn", 2), ("Make Your Bed", 0)]}, chore_deck=["Feed the Cat"])
    m.play("0 later 0")
    view = m.view(SPECTATOR)
    assert tableau(m, 0) == [("Feed the Cat", 0), ("Make Your Bed", 0)] and view["vp"] == [0, 0]
    assert view["chore_discard"] == ["Mow the Lawn"] and Counter(view["action_discard"]) == {
        "Done": 2, "I'll Do It Later": 1}


def test_CR13_inspection_needs_a_chore_with_progress():
    """CR-13: a 0-progress chore is not a legal target."""
    m = pinned(deck=["inspection"], tableaus={1: [("Mow the Lawn", 0), ("Make Your Bed", 1)]})
    assert [mv.args for mv in m.legal_moves(0) if mv.kind == "inspection"] == [(1, 1)]
    refused(m, "0 inspection 1 0", "CR-13")


# --- CR-14 .. CR-17 ---------------------------------------------------------------------------------
def test_CR14_completions_one_at_a_time_in_the_chosen_order_triggers_in_full_then_refill():
    """CR-14: the player orders completions; a trigger resolves before the next one."""
    m = pinned(3, hands={1: ["done"], 2: ["excuse"]},
               tableaus={0: [("Take Out the Trash", 2), ("Make Your Bed", 2), ("Mow the Lawn", 1)]},
               chore_deck=["Feed the Cat", "Do the Laundry"])
    m.play("0 end")
    assert m.legal_moves(0) == [Move(0, "score", (0,)), Move(0, "score", (1,))]
    refused(m, "0 score 2", "CR-14")
    m.play("0 score 0")
    assert m.view(0)["phase"] == "trigger" and tableau(m, 0)[0] == ("Make Your Bed", 2)   # not yet scored
    m.play("0 steal 2")
    view = m.view(SPECTATOR)
    assert view["scored"][0] == ["Take Out the Trash", "Make Your Bed"] and view["vp"] == [4, 0, 0]
    assert tableau(m, 0) == [("Mow the Lawn", 1), ("Feed the Cat", 0), ("Do the Laundry", 0)]
    assert m.to_act() == (1,)


def test_CR15_catch_up_draws_2_at_0_vp_while_an_opponent_has_5():
    """CR-15: 2 cards instead of 1; shown as a flag in every view."""
    for opponent_vp, drawn in ((5, 2), (4, 1)):
        m = pinned(hands={0: ["done"] * 3}, vp=[0, opponent_vp], first=1)
        assert m.view(1)["catch_up"] == [opponent_vp >= 5, False]
        m.play("1 end")
        assert m.view(SPECTATOR)["hand_sizes"][0] == 3 + drawn


def test_CR15_catch_up_is_not_flagged_under_fill_to_7():
    """CR-15 with draw_rule "fill_to_7" (CR-3): the hand is filled anyway, so no seat is
    shown as catching up."""
    m = pinned(hands={0: ["done"] * 3}, vp=[0, 5], first=1, draw_rule="fill_to_7")
    assert m.view(1)["catch_up"] == [False, False]


def test_CR16_reaching_8_protects_until_the_next_turn_once_per_player():
    """CR-16: no Inspection/Delegate/Swap/Attic on the leader until their next turn;
    Teamwork is not in the list; protection comes only once."""
    m = pinned(3, hands={1: ["inspection", "delegate", "swap", "teamwork"]},
               tableaus={0: [("Make Your Bed", 2), ("Mow the Lawn", 3)], 1: [("Feed the Cat", 0)],
                         2: [("Mow the Lawn", 1)]}, vp=[6, 0, 0],
               deck=["excuse"] * 5 + ["done"])   # seat 0 draws 1, seats 1 and 2 draw 2 (CR-15), then seat 0 a Done
    m.play("0 end")
    assert m.view(1)["protected"] == [True, False, False]
    targets = {(mv.kind, mv.args[1] if mv.kind == "swap" else mv.args[0]) for mv in m.legal_moves(1)
               if mv.kind in ("inspection", "delegate", "swap", "teamwork")}
    assert targets == {("inspection", 2), ("delegate", 2), ("swap", 2), ("teamwork", 0), ("teamwork", 2)}
    refused(m, "1 inspection 0 0", "CR-16")
    m.play("1 end")
    m.play("2 end")
    assert m.view(0)["protected"] == [False, False, False] and m.view(0)["protection_used"][0]
    m.play("0 done 0")                                              # Mow the Lawn complete: 8 -> 12 VP
    m.play("0 end")
    assert m.view(1)["vp"][0] == 12 and m.view(1)["protected"] == [False, False, False]   # once per player


def test_CR16_attic_trigger_cannot_target_a_protected_player():
    """CR-16: the Reorganize the Attic trigger skips protected opponents."""
    m = pinned(3, tableaus={0: [("Reorganize the Attic", 4)], 1: [("Mow the Lawn", 3)], 2: [("Mow the Lawn", 1)]},
               vp=[0, 8, 0], protected=[False, True, False])     # seat 1 reached 8 VP on its last turn
    m.play("0 end")                      # one legal target left: resolved automatically
    assert tableau(m, 1) == [("Mow the Lawn", 3)] and tableau(m, 2) == [("Mow the Lawn", 0)]


@pytest.mark.parametrize("target, start, over", [(15, 13, True), (15, 10, False), (10, 8, True)])
def test_CR17_reaching_the_target_ends_the_game_at_once(target, start, over):
    """CR-17: the game ends the moment VP reaches target_vp, even mid Score step."""
    m = pinned(tableaus={0: [("Make Your Bed", 2), ("Feed the Cat", 2)]}, vp=[start, 0], target_vp=target)
    m.play("0 end")
    m.play("0 score 0")
    outcome = m.outcome()
    if over:
        assert outcome.finished and outcome.winners == (0,) and m.to_act() == ()
        assert tableau(m, 0)[0] == ("Feed the Cat", 2)              # never scored
        assert m.legal_moves(1) == [] and m.view(1)["outcome"]["reason"].startswith("CR-17")
        refused(m, "1 end", "CR-17")
    else:
        assert outcome is None and m.view(SPECTATOR)["vp"][0] == start + 4


@pytest.mark.parametrize("chore, level", [("Take Out the Trash", 2), ("Reorganize the Attic", 4)])
def test_CR14_CR17_the_winning_chores_trigger_does_not_resolve(chore, level):
    """CR-14/CR-17: the win is checked as the VP is added; a chore that reaches the target
    ends the game there, and its trigger (a steal, an Attic) never resolves: no card
    changes hands, no progress is lost, the seeded stream is not drawn from."""
    m = pinned(hands={1: ["excuse", "inspection"]}, deck=["meeting"],
               tableaus={0: [(chore, level)], 1: [("Mow the Lawn", 3)]}, vp=[15 - level, 0])
    hand, rng = keys(m, 1), m.state.rng.getstate()
    m.play("0 end")                      # one complete chore: scored automatically (CR-14)
    outcome = m.outcome()
    assert outcome.finished and outcome.winners == (0,) and outcome.reason.startswith("CR-17")
    view = m.view(SPECTATOR)
    assert view["vp"] == [15, 0] and view["scored"][0] == [chore]
    assert view["phase"] == "over" and view["trigger"] is None and m.to_act() == ()
    assert keys(m, 0) == ["meeting"] and keys(m, 1) == hand         # nothing stolen
    assert tableau(m, 1) == [("Mow the Lawn", 3)]                   # no Attic
    assert m.state.rng.getstate() == rng                            # the steal's roll never made
    assert not any("steals" in text or "loses" in text for n, text in m.log_for(0) if n == 1)
    refused(m, "0 steal 1" if chore == "Take Out the Trash" else "0 attic 1 0", "CR-17")


# --- CR-18, CR-19, CR-20 ------------------------------------------------------------------------------
def test_CR18_empty_action_deck_reshuffles_the_discard():
    """CR-18: the discard pile becomes the new action deck when a draw needs it."""
    deck = {a.name: 0 for a in ChoreRace.cards.action} | {"Done": 10, "Excuse": 1}
    m = pinned(hands={0: ["done"] * 9, 1: ["done"]}, discard=["excuse"], action_deck=deck)
    assert m.view(1)["action_deck"] == 0                            # seat 0 holds 9: it drew none (CR-3)
    m.play("0 end")                                                 # only the Excuse is left to draw
    view = m.view(1)
    assert view["action_deck"] == 0 and view["action_discard"] == [] and view["hand"] == ["Done", "Excuse"]
    assert all_cards_once(m)


TINY = {a.name: 0 for a in ChoreRace.cards.action} | {"Done": 10}
"""A 10-card action deck, all Done: pinned all into the hands, both action piles are empty."""


def test_CR18_a_quiet_round_with_both_piles_empty_ends_the_game_with_tie_breaks():
    """CR-18: both piles empty and a full round with no card played: most VP, then most
    chores scored, then most cards in hand wins."""
    m = pinned(hands={0: ["done"] * 4, 1: ["done"] * 6}, vp=[3, 3], action_deck=TINY)
    m.play("0 end")
    assert m.outcome() is None and m.view(1)["quiet_turns"] == 1
    m.play("1 end")
    outcome = m.outcome()
    assert outcome.finished and outcome.winners == (1,) and outcome.reason.startswith("CR-18")


def test_CR18_tie_breaks_chores_scored_then_shared_win():
    """CR-18: equal VP -> more chores scored; equal after all -> shared win."""
    m = pinned(hands={0: ["done"] * 5, 1: ["done"] * 5}, vp=[4, 4], action_deck=TINY,
               scored={0: ["Make Your Bed", "Feed the Cat"], 1: ["Mow the Lawn"]})
    m.play("0 end")
    m.play("1 end")
    assert m.outcome().winners == (0,)
    m = pinned(hands={0: ["done"] * 5, 1: ["done"] * 5}, vp=[4, 4], action_deck=TINY)
    m.play("0 end")
    m.play("1 end")
    assert m.outcome().winners == (0, 1)


def test_CR18_the_game_ends_when_the_chore_deck_and_every_tableau_are_empty():
    """CR-18: chores run out -> highest VP wins."""
    m = pinned(tableaus={0: [("Make Your Bed", 2)]}, vp=[1, 2], chore_discard=other_chores("Make Your Bed"))
    assert m.view(None)["chore_deck"] == 0
    m.play("0 end")
    outcome = m.outcome()
    assert outcome.finished and outcome.winners == (0,) and outcome.scores == (3.0, 2.0)
    assert "every chore is gone" in outcome.reason


@pytest.mark.parametrize("target, refilled", [(20, 3), (15, 0)])
def test_CR19_long_game_reshuffles_the_chore_discard(target, refilled):
    """CR-19: with target_vp 20 the chore discard becomes the new chore deck."""
    m = pinned(tableaus={0: [("Make Your Bed", 2)], 1: [("Mow the Lawn", 0)]}, target_vp=target,
               chore_discard=other_chores("Make Your Bed", "Mow the Lawn"))
    assert m.view(None)["chore_deck"] == 0
    m.play("0 end")
    assert len(tableau(m, 0)) == refilled


def test_CR20_tableau_size_option():
    """CR-20: tableaus of 4 for the 2-player variant, refilled to 4."""
    m = new_match(2, tableau_size=4)
    assert [len(t) for t in m.view(SPECTATOR)["tableaus"]] == [4, 4]
    m = pinned(tableaus={0: [("Make Your Bed", 2)]}, tableau_size=4)
    m.play("0 end")
    assert len(tableau(m, 0)) == 4
    with pytest.raises(OptionError, match="tableau_size"):
        new_match(2, tableau_size=7)


# --- CR-21: hidden information -------------------------------------------------------------------------
def test_CR21_a_view_shows_only_its_own_hand_and_public_zones():
    """CR-21: own hand, others' sizes; spectator sees no hand; logs name own draws only."""
    m = pinned(3, hands={1: ["teamwork"], 2: ["finally"]}, deck=["done"], tableaus={0: [("Make Your Bed", 1)]})
    public = lambda seat: json.dumps({k: v for k, v in m.view(seat).items() if k != "keys"})  # noqa: E731
    assert m.view(1)["hand"] == ["Teamwork"] and m.view(SPECTATOR)["hand"] is None
    assert m.view(0)["hand_sizes"] == [1, 1, 1]
    assert "Teamwork" not in public(0) + public(2) + public(SPECTATOR)
    assert "Finally!" not in public(0) + public(1)
    m.play("0 end")
    drawn = m.view(1)["hand"]
    private = [t for _, t in m.log_for(1) if "you draw" in t]
    assert private and all(name in private[-1] for name in set(drawn) - {"Teamwork"})
    assert not any("you draw" in t for n, t in m.log_for(0) if n > 0)


# --- G-2, G-4, options, explanations ---------------------------------------------------------------------
def test_G2_first_player_option_and_random_first_player():
    """G-2: seat 0 starts by default; first_player picks a seat or 'random' (seeded)."""
    assert new_match(3).to_act() == (0,) and new_match(3, first_player=2).to_act() == (2,)
    firsts = {new_match(4, seed=s, first_player="random").to_act() for s in range(40)}
    assert len(firsts) == 4


def test_G4_max_turns_ends_the_game_unfinished():
    """G-4: the cap ends the game as unfinished, with no winner."""
    m = new_match(2, max_turns=3)
    for seat in (0, 1, 0):
        m.play(f"{seat} end")
    outcome = m.outcome()
    assert outcome is not None and not outcome.finished and outcome.winners == () and m.to_act() == ()
    refused(m, "1 end", "G-4")


def test_CR17_CR19_CR20_presets_are_valid_option_sets():
    """The rulebook's Quick Game, Long Game and 2-Player Variant as one-click presets."""
    assert ChoreRace(2, ChoreRace.PRESETS["Quick Game"]).options.target_vp == 10
    assert ChoreRace(2, ChoreRace.PRESETS["Long Game"]).long_game
    assert ChoreRace(2, ChoreRace.PRESETS["2-Player Variant"]).options.tableau_size == 4
    assert len(ChoreRace(2, ChoreRace.PRESETS["74-card action deck"]).akey) == 74


def test_options_have_ruling_descriptions_and_bad_values_are_refused():
    """G-2/G-4/CR-*: every option's description starts with its ruling id."""
    for name, field in ChoreRace.Options.model_fields.items():
        assert field.description.split(":")[0] in {"G-2", "G-4", "CR-1", "CR-3", "CR-11", "CR-17", "CR-20"}, name
    for bad in ({"draw_rule": "two"}, {"target_vp": 0}, {"chore_swap_needs_progress": "maybe"}, {"snacks": 1}):
        with pytest.raises(OptionError, match=next(iter(bad))):
            new_match(2, **bad)


@pytest.mark.parametrize("text, ruling", [
    ("0 fly", ""), ("0 done", ""), ("0 discard progress snooze", "CR-4"), ("0 discard middle done", "CR-4"),
    ("0 delegate 0", "CR-7"), ("0 inspection 1 5", "CR-13"), ("0 swap 9 1 0", "CR-11"),
    ("0 swap 0 1 9", "CR-11"), ("0 later 3", "CR-12"), ("0 finally 0", "CR-4"), ("1 end", "CR-4"),
    ("0 excuse", "CR-4"), ("0 place 0", "CR-4"), ("0 give done", "CR-4"), ("0 score 0", "CR-4"),
    ("0 steal 1", "CR-4"), ("0 attic 1 0", "CR-4"), ("0 stop", "CR-4"), ("0 dodge", "CR-4"),
    ("0 accept", "CR-4"), ("0 meeting", "CR-4"), ("0 teamwork 5", "CR-7"), ("0 done 4", "CR-5"),
])
def test_explain_names_a_ruling_for_every_kind_of_illegal_move(text, ruling):
    """Every refused move names its ruling (or none for an unknown/ill-formed move) and
    changes nothing."""
    m = pinned(hands={0: ["done", "delegate", "inspection", "swap", "later"]}, deck=["teamwork"],
               tableaus={0: [("Mow the Lawn", 0)], 1: [("Make Your Bed", 1)]})
    error = refused(m, text, ruling)
    assert error.reason and error.legal == m.legal_moves(0) or error.move.seat == 1


def test_explain_in_resolution_steps():
    """Trigger, score and react steps refuse wrong answers with their rulings."""
    m = pinned(3, hands={1: ["excuse"], 2: ["later"]}, deck=["meeting"],
               tableaus={0: [("Take Out the Trash", 2)], 1: [("Mow the Lawn", 1)]})
    m.play("0 end")
    refused(m, "0 steal 0", "CR-2")
    refused(m, "0 attic 1 0", "CR-14")
    refused(m, "0 end", "CR-14")
    refused(m, "1 excuse", "CR-4")
