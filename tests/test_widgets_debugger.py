"""The scenario debugger widget and the game dashboards' scenario/link features, driven
from Python: load, step, rewind, jump, views that never leak a hidden card, what changed,
branch, why not, expectations, export round trips, bad uploads, page-address parameters."""
from __future__ import annotations

import base64
import html
import datetime
import json
import re
import subprocess
import sys
from collections import Counter

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances

from widget_support import bot_match, fresh_widgets  # noqa: F401 (autouse fixture)

from playtest import Match, Move
from playtest.engine.counting import for_people
from playtest.engine import IllegalMove, MoveSyntaxError
from playtest.scenarios import Expectation, Scenario, ScenarioError, find_scenario
from playtest.scenarios.scenario import state_hash
from playtest.widgets import Card, GameApp
from playtest.engine import ALL_CARDS
from playtest.widgets.board import ViewBoard, board_class
from playtest.widgets.debugger import (ALL_CARDS_LABEL, MISSING, ScenarioDebugger, describe_changes, move_text_for,
                                       path_label, value_label)
from playtest.widgets import records
from playtest.widgets.records import pack_record, parse_link, share_url


def bot_scenario(game: str = "lazy_sunday", seats: int = 3, seed: int = 11, moves: int = 16) -> Scenario:
    return Scenario.from_match(bot_match(game, seats, seed, moves), title="bots")


def upload(widget: w.FileUpload, name: str, content: bytes) -> None:
    widget.value = ({"name": name, "type": "", "size": len(content), "content": memoryview(content),
                     "last_modified": datetime.datetime.now(datetime.timezone.utc)},)


def data_of(link_html: str) -> str:
    """The text a data-URI download link carries."""
    return base64.b64decode(re.search(r"base64,([^']+)'", link_html)[1]).decode()


def synced_state() -> str:
    return json.dumps([x.get_state() for x in list(_instances.values())], default=str)


# --- loading and stepping -------------------------------------------------------------
def test_load_step_rewind_and_jump():
    scenario = bot_scenario()
    debugger = ScenarioDebugger(scenario, click_guard=0)
    total = len(scenario.moves)
    assert debugger.match is debugger.line and debugger.match.cursor == 0 and debugger.viewer is None
    assert debugger.back.disabled and not debugger.forward.disabled
    debugger.forward.click()
    debugger.forward.click()
    assert debugger.match.cursor == 2 and debugger.move_list.value == 2 and debugger.slider.value == 2
    debugger.back.click()
    assert debugger.match.cursor == 1
    debugger.last.click()
    assert debugger.match.cursor == total and debugger.forward.disabled
    assert debugger.match.fingerprint() == scenario.to_match().fingerprint()
    debugger.number.value = 5
    debugger.go.click()
    assert debugger.match.cursor == 5 and f"Move <b>5</b> of {total}" in debugger.position.value
    debugger.move_list.value = 3                      # a click in the move list jumps there
    assert debugger.match.cursor == 3
    debugger.slider.value = 7
    assert debugger.match.cursor == 7
    debugger.first.click()
    assert debugger.match.cursor == 0 and "setup" in debugger.changes.value
    labels = [label.split(" · ")[1].removesuffix(" ✓") for label, _ in debugger.move_list.options[1:]]
    assert labels == scenario.moves                   # Lazy Sunday moves name no card: shown in full
    assert debugger.line.moves == [Move.parse(m) for m in scenario.moves]       # stepping never edits the line


def test_board_of_each_game_and_a_plain_view_for_a_game_without_one():
    from playtest.games.night_shift.widget import NightShiftBoard
    from toy_game import Toy
    assert board_class(Match("night_shift", 2, seed=1).game.__class__) is NightShiftBoard
    assert board_class(Toy) is ViewBoard
    for game, seats in (("chore_race", 3), ("night_shift", 2)):
        debugger = ScenarioDebugger(bot_scenario(game, seats, seed=4, moves=10), click_guard=0)
        debugger.last.click()
        debugger.set_view(1)
        assert debugger.board.widget in debugger.board_box.children and not debugger.banner.message
        # the move boxes show how a move of this game is written (a kind of its own, no card)
        example = {"chore_race": "0 meeting", "night_shift": "0 tidy"}[game]
        assert debugger.why_text.placeholder == f"a move, e.g. {example}"
        assert debugger.move_text.placeholder == f"or type a move, e.g. {example}"
        Move.parse(example)


# --- views: nothing hidden reaches the widgets ------------------------------------------
def test_lazy_sunday_seat_views_show_no_hidden_card():
    from test_widgets_lazy_sunday import names_in
    debugger = ScenarioDebugger(bot_scenario("lazy_sunday", 4, seed=21, moves=40), click_guard=0)
    total = len(debugger.match.moves)
    checked = 0
    for cursor in range(0, total + 1, 3):
        debugger.goto(cursor)
        for viewer in (None, 0, 1, 2, 3):
            debugger.set_view(viewer)
            match = debugger.match
            views = [match.view(viewer)]
            if cursor:
                match.goto(cursor - 1)
                views.append(match.view(viewer))
                match.goto(cursor)
            entitled = names_in(json.dumps(views) + "\n".join(t for _, t in match.log_for(viewer)))
            leaked = names_in(synced_state()) - entitled
            assert not leaked, f"move {cursor}, view {viewer}: {leaked}"
            checked += bool(entitled)
    assert checked, "no view ever showed a card name: the check proved nothing"
    # the spectator sees fewer card names than a seat that peeked
    debugger.goto(total)
    debugger.set_view(None)
    spectator = names_in(synced_state())
    assert spectator <= names_in(json.dumps(debugger.match.view(None)) + json.dumps(debugger.match.log_for(None)))


def test_chore_race_seat_views_show_no_other_hand():
    from test_widgets_chore_race import ACTIONS, entitled_cards, names_in
    from playtest.games.chore_race.widget import CARD_TEXT
    debugger = ScenarioDebugger(bot_scenario("chore_race", 3, seed=8, moves=30), click_guard=0)
    total = len(debugger.match.moves)
    for cursor in range(0, total + 1, 4):
        debugger.goto(cursor)
        for viewer in (None, 0, 1, 2):
            debugger.set_view(viewer)
            match = debugger.match
            view = match.view(viewer)
            face_up = Counter(c.description.split("\n")[0] for c in list(_instances.values())
                              if isinstance(c, Card) and "pt-face" in c._dom_classes
                              and c.description.split("\n")[0] in ACTIONS)
            assert not face_up - entitled_cards(view), (cursor, viewer)
            views = [view]
            if cursor:
                match.goto(cursor - 1)
                views.append(match.view(viewer))
                match.goto(cursor)
            for v in views:
                v.pop("keys")
            text = json.dumps(views) + "\n".join(t for _, t in match.log_for(viewer))
            text += " ".join(t for name, t in CARD_TEXT.items() if json.dumps(name) in text)
            skip = {x.model_id for x in _instances.values() if isinstance(x, (w.Layout, w.Style))}
            synced = json.dumps([x.get_state() for x in list(_instances.values()) if x.model_id not in skip],
                                default=str)
            assert not names_in(synced) - names_in(text), (cursor, viewer)


def test_moves_naming_cards_are_shown_in_full_only_to_their_seat():
    move = Move(1, "give", ("Excuse", "Done", "Done"))
    assert move_text_for(move, 1) == str(move)
    assert move_text_for(move, 0) == move_text_for(move, None) == "1 give …"
    assert move_text_for(Move(2, "claim", (0, 1, 5)), None) == "2 claim 0 1 5"


# --- what changed --------------------------------------------------------------------
def test_describe_changes_says_what_happened_in_words():
    words = {"lists.*": "seat {0}'s list", "lists.*.*": "seat {0}'s position {1}", "vp.*": "VP seat {0}",
             "hand": "seat {viewer}'s hand", "done.top": "DONE's top card"}
    nap, bed = {"face_up": True, "name": "Nap"}, {"face_up": True, "name": "Make the Bed"}
    down = {"face_up": False}
    before = {"vp": [3, 0], "hand": ["Done", "Excuse"], "done": {"top": None, "size": 0},
              "lists": [[down, down], [bed, down, down, down, down, nap]], "to_act": [0], "gone": "x"}
    after = {"vp": [5, 0], "hand": ["Done", "Laundry"], "done": {"top": bed, "size": 1},
             "lists": [[nap, down], [bed, down, down, down, down]], "to_act": [1]}
    assert describe_changes(before, after, words, viewer=0) == [                 # in the view's order
        "VP seat 0: 3 → 5", "seat 0's hand: +Laundry, -Excuse",
        "DONE's top card: none → Make the Bed", "done size: 0 → 1",
        "seat 0's position 0: a face-down card → Nap",          # same length: position by position
        "seat 1's position 5: Nap left the list",                # issue #15's own example
        "seats to act: seat 0 → seat 1", "gone: gone (was x)"]
    # seats are told as seats (the page counts them from 1): who is on turn, to act, won
    assert [for_people(line) for line in describe_changes(
        {"turn_seat": 0, "to_act": [0, 1, 2], "outcome": None},
        {"turn_seat": None, "to_act": [], "outcome": {"winners": [1], "reason": "x"}})] == [
        "seat on turn: seat 1 → none", "seats to act: seats 1, 2 and 3 → none", "outcome: none → winners seat 2, reason x"]
    assert describe_changes(after, after, words) == []
    # a face-down card that left cannot be placed: it is counted
    assert describe_changes({"lists": [[down, down, down]]}, {"lists": [[down, down]]}, words) == [
        "seat 0's list: a face-down card left (3 → 2 cards)"]
    # a card whose name stays is told by its fields; unnamed paths are worded from their keys
    chore = {"name": "Mop the Floor", "progress": 1}
    assert describe_changes({"tableaus": [[chore]]}, {"tableaus": [[{**chore, "progress": 2}]]},
                            {"tableaus.*.*": "seat {0}'s chore {1}"}) == [
        "seat 0's chore 0 (Mop the Floor) progress: 1 → 2"]
    # a chore scored and a new one dealt at the end: one left, one joined, not three renames
    names = lambda *n: [{"name": x} for x in n]   # noqa: E731
    assert describe_changes({"tableaus": [names("Take Out the Trash", "Mow the Lawn", "Feed the Cat")]},
                            {"tableaus": [names("Mow the Lawn", "Feed the Cat", "Reorganize the Attic")]},
                            {"tableaus.*": "seat {0}'s chores", "tableaus.*.*": "seat {0}'s chore {1}"}) == [
        "seat 0's chore 0: Take Out the Trash left the chores", "seat 0's chore 2: Reorganize the Attic joined the chores"]
    # two cards that trade places are still told position by position
    assert describe_changes({"lists": [names("A", "B")]}, {"lists": [names("B", "A")]}, words) == [
        "seat 0's position 0: A → B", "seat 0's position 1: B → A"]
    assert describe_changes({"a_b": [{"c": 1}]}, {"a_b": [{"c": 2}]}) == ["a b #0 c: 1 → 2"]


def test_describe_changes_names_the_zones_of_the_zone_vocabulary():
    """A game on the generic board (Crazy Eights): each zone is told by its name and owner
    (as the board matches zones: kind, name, owner), never as a card ("zones card 1
    (discard pile) count" before); a counter by its value; a zone that comes or goes."""
    def zone(kind, name, owner=None, **fields):
        return {"kind": kind, "name": name, "owner": owner, **fields}
    five = {"name": "5♠", "arg": "5S"}
    before = {"zones": [zone("pile", "deck", face="down", count=37),
                        zone("pile", "discard pile", face="up", count=1, cards=[{"name": "7♠", "arg": "7S"}]),
                        zone("counter", "card plays", value="0 of 100"),
                        zone("hand", "hand", 0, face="up", count=2, cards=[five, {"name": "K♦", "arg": "KD"}]),
                        zone("counter", "drawn this turn", 0, value="0 of 5")]}
    after = {"zones": [zone("pile", "deck", face="down", count=37),
                       zone("pile", "discard pile", face="up", count=2, cards=[five, {"name": "7♠", "arg": "7S"}]),
                       zone("counter", "card plays", value="1 of 100"),
                       zone("hand", "hand", 0, face="up", count=1, cards=[{"name": "K♦", "arg": "KD"}]),
                       zone("counter", "drawn this turn", 1, value="0 of 5")]}
    assert describe_changes(before, after) == [
        "discard pile count: 1 → 2", "discard pile: +5♠", "card plays: 0 of 100 → 1 of 100",
        "seat 0's hand count: 2 → 1", "seat 0's hand: -5♠", "seat 1's drawn this turn: now 0 of 5",
        "seat 0's drawn this turn: gone"]


def test_diff_labels_are_words():
    assert path_label("drawn.card") == "drawn card" and path_label("lists.0.2.face_up") == "lists #0 #2 face up"
    assert [value_label(v) for v in (None, MISSING, True, False, "Nap", 3, [], {}, [1, None])] == [
        "none", "absent", "yes", "no", "Nap", "3", "empty", "empty", "[1, none]"]
    assert value_label({"seat": 1, "card": None}) == "seat 1, card none"
    assert value_label({"face_up": False}) == "a face-down card" and value_label({"name": "Nap", "effort": 0}) == "Nap"


def test_what_changed_shows_the_moves_log_and_sentences_for_each_game():
    debugger = ScenarioDebugger(bot_scenario(), click_guard=0)
    debugger.goto(2)            # seat 0's 'done': the seats still peeking change (LS-3)
    match = debugger.match
    lines = [t for n, t in match.log_for(None) if n == 2]
    # the log lines as people read them: seats and positions counted from 1
    assert lines and all(json.dumps(for_people(t))[1:-1].replace("'", "&#x27;") in debugger.changes.value
                         for t in lines)
    match.goto(1)
    before = match.view(None)
    match.goto(2)
    sentences = describe_changes(before, match.view(None), type(match.game).VIEW_WORDS)
    assert sentences and all(f"<li>{html.escape(for_people(s))}</li>" in debugger.changes.value for s in sentences)


def changed(name: str, move: int, viewer) -> str:
    debugger = ScenarioDebugger(find_scenario(name), click_guard=0)
    debugger.set_view(viewer)
    debugger.goto(move)
    return html.unescape(re.sub("<[^>]+>", "\n", debugger.changes.value))


def test_what_changed_words_each_games_zones():
    """Issue #15: "seat 1's position 5: Nap left the list", "seat 0's hand: +Laundry"."""
    claim = changed("lazy_sunday_claim_on_caller", 9, ALL_CARDS)       # 0 claim 0 1 1 (LS-5)
    assert "seat 1's position 2: Make the Bed left the list" in claim and "DONE pile (top first): +Make the Bed" in claim
    assert "seat 1's list: a face-down card left (6 → 5 cards)" in changed("lazy_sunday_claim_on_caller", 9, None)
    peek = changed("lazy_sunday_claim_on_caller", 1, 0)
    assert "seat 1's position 1: a face-down card → Nap" in peek and "lists #" not in peek
    excuse = changed("chore_race_reaction_window", 5, 1)             # 1 excuse (CR-7)
    assert "seat 2's hand: -Excuse" in excuse and "action discard: +Excuse, +Inspection" in excuse
    assert "seat 2's hand size: 5 → 4" in excuse
    done = changed("chore_race_reaction_window", 2, None)
    assert "seat 2's chore 1 (Do the Laundry) progress: 0 → 1" in done      # seat 1's chore 0, counted from 1
    night = changed("night_shift_with_reshuffle", 3, 0)
    assert "seat 1's hand: +Laundry Load, -Bottle Wash" in night and "cards in seat 1's Personal Deck: 0 → 5" in night


def test_what_changed_reads_as_words_when_a_card_is_drawn():
    """Tester report 12: move 8 of claim_on_caller showed `drawn null -> —` and
    `drawn.card — -> null`."""
    changes = changed("lazy_sunday_claim_on_caller", 8, None)
    assert "the drawn card: none → seat 2, card none" in changes        # seat 1, counted from 1
    assert "null" not in changes and "—" not in changes and "drawn card card" not in changes
    assert "the drawn card: none → seat 2, card Nosy Neighbour" in changed("lazy_sunday_claim_on_caller", 8, ALL_CARDS)


# --- the all-cards view ----------------------------------------------------------------
def test_all_cards_view_is_a_clearly_marked_choice_that_shows_hidden_cards():
    from test_widgets_lazy_sunday import names_in, synced_state      # without the rules' own card names
    debugger = ScenarioDebugger(find_scenario("lazy_sunday_claim_on_caller"), click_guard=0)
    assert debugger.views.options[-1] == (ALL_CARDS_LABEL, ALL_CARDS) and "no player sees this" in ALL_CARDS_LABEL
    debugger.goto(8)
    deck_top = debugger.match.all_cards_view()["all_cards"]["deck (top first)"][0]
    spectator = names_in(synced_state())
    assert debugger.all_cards.layout.display == "none"
    debugger.views.value = ALL_CARDS                    # the toggle button
    assert debugger.viewer == ALL_CARDS and debugger.all_cards.layout.display is None
    assert "no player sees this view" in debugger.all_cards.value and html.escape(deck_top) in debugger.all_cards.value
    everything = names_in(synced_state())
    every_list = {slot["name"] for lst in debugger.match.all_cards_view()["lists"] for slot in lst}
    hidden = every_list - spectator
    assert hidden and every_list <= everything          # list cards face down to the spectator, shown here
    assert "the drawn card: none → seat 2, card Nosy Neighbour" in debugger.changes.value
    # expectations are still checked on the seats' own views
    assert debugger.results == ScenarioDebugger._check(debugger.scenario)
    debugger.set_view(None)
    assert debugger.all_cards.layout.display == "none" and not hidden & names_in(synced_state())


def test_all_cards_view_draws_every_chore_race_hand_face_up():
    from test_widgets_chore_race import ACTIONS
    debugger = ScenarioDebugger(find_scenario("chore_race_reaction_window"), click_guard=0)
    debugger.set_view(ALL_CARDS)
    face_up = Counter(c.description.split("\n")[0] for c in list(_instances.values())
                      if isinstance(c, Card) and "pt-face" in c._dom_classes and c.description.split("\n")[0] in ACTIONS)
    hands = debugger.match.all_cards_view()["hands"]
    assert face_up >= Counter(name for hand in hands for name in hand) and all(hands)
    # why not answers any seat's move here, without asking for its view
    assert debugger.why_not("1 excuse").startswith("'1 excuse' is illegal") and debugger.viewer == ALL_CARDS


# --- act as -----------------------------------------------------------------------------
def test_act_as_offers_every_seat_with_a_legal_move_including_open_moves():
    """Lazy Sunday, move 8 of claim_on_caller: seat 1 holds a drawn card, and every seat
    may quick-discard (claim, an open move, LS-5): all three are offered."""
    debugger = ScenarioDebugger(find_scenario("lazy_sunday_claim_on_caller"), click_guard=0)
    debugger.goto(8)
    probe = debugger._probe_match()
    assert probe.to_act() == (1,)
    assert dict(debugger.actor.options) == {"seat 1 (out of turn: claim)": 0, "seat 2": 1,
                                            "seat 3 (out of turn: claim)": 2}
    debugger.actor.value = 2                            # acting as seat 2 shows its view and its claims
    assert debugger.viewer == 2
    offered = [t for _, t in debugger.legal.options[1:]]
    assert offered == [str(m) for m in probe.legal_moves(2)] and all(Move.parse(t).kind == "claim" for t in offered)
    debugger.legal.value = offered[0]
    debugger.play_button.click()                        # an out-of-turn branch
    assert debugger.match is not debugger.line and str(debugger.match.moves[-1]) == offered[0]


def test_act_as_offers_only_the_seat_to_act_when_nobody_else_may_move():
    debugger = ScenarioDebugger(find_scenario("chore_race_reaction_window"), click_guard=0)
    debugger.goto(4)                                    # seat 1's reaction window (CR-7)
    assert [s for _, s in debugger.actor.options] == [1] and debugger.actor.options[0][0] == "seat 2"


# --- branch ----------------------------------------------------------------------------
def test_branch_with_another_legal_move_keeps_the_loaded_line():
    scenario = bot_scenario()
    debugger = ScenarioDebugger(scenario, click_guard=0)
    debugger.goto(6)
    seat = debugger.actor.options[0][1]
    debugger.actor.value = seat                     # acting as a seat shows its view
    assert debugger.viewer == seat
    played = Move.parse(scenario.moves[6])
    other = next(t for _, t in debugger.legal.options[1:] if Move.parse(t) != played)
    debugger.legal.value = other
    debugger.play_button.click()
    assert debugger.match is not debugger.line and debugger.branch_point == 6
    assert debugger.match.cursor == 7 and str(debugger.match.moves[6]) == other
    assert [str(m) for m in debugger.line.moves] == scenario.moves      # the loaded line is whole
    assert debugger.reload.layout.display is None and "branch" in debugger.position.value
    # going on in the branch, then back to the loaded line
    seat = debugger.match.to_act()[0]
    debugger.move_text.value = str(debugger.match.legal_moves(seat)[0])
    debugger.play_button.click()
    assert debugger.match.cursor == 8
    debugger.reload.click()
    assert debugger.match is debugger.line and debugger.match.cursor == 6


def test_branching_inside_a_branch_asks_before_dropping_its_later_moves():
    debugger = ScenarioDebugger(bot_scenario(), click_guard=0)
    debugger.goto(4)
    for _ in range(3):
        probe = debugger._probe_match()
        debugger.branch(probe.legal_moves(probe.to_act()[0])[-1])
    branch = debugger.match
    assert branch.cursor == 7 and debugger.branch_point == 4
    debugger.goto(5)
    probe = debugger._probe_match()
    move = probe.legal_moves(probe.to_act()[0])[0]
    debugger.branch(move)
    assert debugger.confirm_box.layout.display == "flex" and "drops the 2 later moves" in debugger.confirm_text.value
    assert debugger.match is branch and len(branch.moves) == 7          # nothing happened yet
    debugger.cancel()
    assert debugger.match is branch and len(branch.moves) == 7
    debugger.branch(move)
    debugger.confirm()
    assert debugger.match is not branch and debugger.match.cursor == 6 and debugger.match.moves[5] == move


def test_illegal_branch_move_changes_nothing_and_says_why():
    debugger = ScenarioDebugger(bot_scenario(), click_guard=0)
    debugger.goto(6)
    before = (debugger.match, debugger.match.cursor, debugger.match.fingerprint())
    debugger.move_text.value = "0 keep 99"
    debugger.play_button.click()
    assert "Illegal move" in debugger.banner.message
    assert (debugger.match, debugger.match.cursor, debugger.match.fingerprint()) == before
    with pytest.raises(MoveSyntaxError):
        debugger.branch("no move")


def test_play_button_ignores_a_double_clicks_second_half():
    debugger = ScenarioDebugger(bot_scenario(), click_guard=60)
    debugger.goto(6)
    debugger.move_text.value = str(debugger._probe_match().legal_moves(debugger._probe_match().to_act()[0])[0])
    debugger.play_button.click()                    # within 60 s of the position changing
    assert debugger.match is debugger.line and debugger.match.cursor == 6


# --- why not -----------------------------------------------------------------------------
def test_why_not_names_the_ruling_and_the_alternatives():
    match = Match("lazy_sunday", 3, seed=5)
    match.play("0 peek 0 1")
    debugger = ScenarioDebugger(Scenario.from_match(match), click_guard=0)
    debugger.last.click()
    debugger.set_view(1)                            # its alternatives are seat 1's business
    answer = debugger.why_not("1 draw")             # seat 1 draws during the setup peeks
    with pytest.raises(IllegalMove) as refused:
        match.play("1 draw")
    assert refused.value.ruling and refused.value.ruling in answer and for_people(refused.value.reason) in answer
    # and what that ruling says: the line the game declares for it
    line = match.game.RULINGS[refused.value.ruling]
    assert f". The rule: {line}. Legal moves" in answer and html.escape(f"The rule: {line}.") in debugger.why_result.value
    # the move texts listed keep their seat number; the seat is named both ways
    assert "Legal moves for seat 2 (move text 1): 1 " in answer
    debugger.set_view(0)
    legal = match.legal_moves(0)
    assert debugger.why_not(str(legal[0])) == f"'{legal[0]}' is legal" and "Legal" in debugger.why_result.value
    debugger.goto(0)                                # rewound: asks about that position
    assert "is legal" in debugger.why_not("0 peek 1 2")



def test_why_not_keeps_the_view_and_says_whose_view_is_needed():
    """Tester report 11: asking "0 draw" as seat 1 switched the view silently."""
    debugger = ScenarioDebugger(find_scenario("lazy_sunday_claim_on_caller"), click_guard=0)
    debugger.goto(7)
    debugger.set_view(1)
    answer = debugger.why_not("0 draw")
    assert debugger.viewer == 1 and "seat 1's view only (this is seat 2's view)" in answer
    assert "'0 draw' is seat 1 (move text 0)'s move" in answer and "Legal moves" not in debugger.why_result.value
    assert debugger.why_switch.layout.display != "none" and "seat 1" in debugger.why_switch.description
    debugger.why_switch.click()                     # asked explicitly: now answered in seat 0's view
    assert debugger.viewer == 0 and "Illegal" in debugger.why_result.value
    assert debugger.why_switch.layout.display == "none"


def test_why_not_clears_stale_answers_and_banners_and_answers_on_enter():
    """Tester report 11: unreadable input kept the previous answer, errors went to the
    banner and stayed there, Enter did nothing, an unknown move read "not on offer"."""
    debugger = ScenarioDebugger(find_scenario("lazy_sunday_claim_on_caller"), click_guard=0)
    debugger.goto(7)
    debugger.set_view(0)
    debugger.why_text.value = "0 draw"              # what Enter sends (continuous_update=False)
    assert "Illegal" in debugger.why_result.value
    for bad in ("garbage", "5 draw"):
        debugger.why_text.value = bad
        assert "Illegal" not in debugger.why_result.value and "Not a move here" in debugger.why_result.value
        assert debugger.banner.message == ""
    debugger.banner.show("an old error")
    debugger.why_text.value = "0 fly"               # no such move kind: no ruling forbids it
    assert debugger.banner.message == ""
    assert "not on offer" not in debugger.why_result.value and "is not a Lazy Sunday move" in debugger.why_result.value
    assert "<b>" not in debugger.why_result.value.split(":")[0]     # no empty ruling slot
    debugger.why_text.value = ""
    debugger.why_button.click()                     # an empty question is answered, not ignored
    assert "Not a move here" in debugger.why_result.value
    debugger.forward.click()                        # another position: the old answer goes
    assert debugger.why_result.value == ""


# --- expectations ------------------------------------------------------------------------
def test_expectations_are_marked_at_their_moves_and_private_ones_stay_private():
    match = bot_match("lazy_sunday", 3, 11, 10)
    good = Scenario.from_match(match, title="expectations")
    seat0_name = match.view(0)["lists"][0]
    wrong = [] if match.branch(2).to_act() else [0]
    good.expect += [Expectation(after=2, to_act=wrong),                                 # fails
                    Expectation(after=1, seat=0, view={"lists.0.0.face_up": True})]     # seat 0 only
    text = good.to_toml()
    scenario = Scenario.from_toml(text)
    debugger = ScenarioDebugger(scenario, click_guard=0)
    labels = dict((v, label) for label, v in debugger.move_list.options)
    assert labels[10].endswith("✓") and labels[2].endswith("✗")
    assert "✗ fails" in debugger.expectations.value and "to_act" in debugger.expectations.value
    assert "switch the view to seat 1" in debugger.expectations.value
    assert "lists.0.0.face_up" not in debugger.expectations.value
    debugger.set_view(0)
    assert "lists.0.0.face_up" in debugger.expectations.value
    assert seat0_name is not None


# --- export --------------------------------------------------------------------------------
def test_export_round_trip_of_a_rewound_line_and_of_a_branch(tmp_path):
    debugger = ScenarioDebugger(bot_scenario(seed=3), click_guard=0)
    debugger.goto(7)
    debugger.export_toml.click()
    exported = Scenario.from_toml(data_of(debugger.export_link.value))
    assert len(exported.moves) == 7 and exported.to_match().fingerprint() == debugger.match.fingerprint()
    assert exported.verify() == []
    debugger.goto(8)
    assert debugger.export_link.value == ""                    # the link goes at the next change
    probe = debugger._probe_match()
    debugger.branch(probe.legal_moves(probe.to_act()[0])[-1])
    text = debugger.export("toml")
    branch = Scenario.from_toml(text)
    assert "(branch at move 8)" in branch.title and branch.to_match().fingerprint() == debugger.match.fingerprint()
    source = debugger.export("pytest")
    assert "download='test_lazy_sunday_move9.py'" in debugger.export_link.value
    test_file = tmp_path / "test_exported.py"
    test_file.write_text(source)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:nbval",
                          str(test_file)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0 and "1 passed" in run.stdout, run.stdout + run.stderr
    # the exported test fails once the final position differs
    test_file.write_text(re.sub(r"FINAL_FINGERPRINT = '[0-9a-f]+'", "FINAL_FINGERPRINT = '" + "0" * 64 + "'", source))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:nbval",
                          str(test_file)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1 and "the final position changed" in run.stdout


def test_export_keeps_the_scenarios_own_expectations_up_to_the_shown_move():
    """Fresh user (d): Export dropped the loaded scenario's [[expect]] entries."""
    scenario = find_scenario("chore_race_reaction_window")
    debugger = ScenarioDebugger(scenario, click_guard=0)
    debugger.goto(4)
    exported = Scenario.from_toml(debugger.export("toml"))
    assert exported.expect[:-1] == [e for e in scenario.expect if e.after <= 4]
    assert exported.expect[-1].after == 4 and exported.expect[-1].fingerprint and exported.verify() == []
    debugger.goto(3)                                 # a branch keeps those at or before its branch point
    debugger.branch("0 end")
    branch = Scenario.from_toml(debugger.export("toml"))
    assert [e.after for e in branch.expect] == [1, 3, 4] and branch.verify() == []


# --- bad files ----------------------------------------------------------------------------
def test_bad_upload_shows_line_and_reason_and_changes_nothing():
    scenario = bot_scenario()
    debugger = ScenarioDebugger(scenario, click_guard=0)
    debugger.goto(4)
    shown = (debugger.scenario, debugger.match, debugger.match.cursor)
    upload(debugger.upload, "broken.toml", b'game = "lazy_sunday"\nseats = 3\nseed = oops\nmoves = []\n')
    assert "broken.toml, line 3" in debugger.banner.message and "not valid TOML" in debugger.banner.message
    assert (debugger.scenario, debugger.match, debugger.match.cursor) == shown
    upload(debugger.upload, "binary.toml", b"\xff\xfe\x00")
    assert "not a UTF-8 text file" in debugger.banner.message
    upload(debugger.upload, "good.toml", scenario.to_toml().encode())
    assert debugger.banner.message == "" and debugger.source == "good.toml" and debugger.match.cursor == 0


def illegal_at_move_3() -> str:
    """A Lazy Sunday scenario whose move 3 ("1 draw" during the setup peeks) breaks LS-4."""
    return Scenario(title="draws too early", game="lazy_sunday", seats=3, seed=5,
                    moves=["0 peek 0 1", "0 done", "1 draw", "1 done"],
                    expect=[Expectation(after=1, to_act=[0, 1, 2]), Expectation(after=3, to_act=[2])]).to_toml()


def test_scenario_with_an_illegal_move_opens_at_the_move_before_it():
    """Tester report 6: such a scenario only showed an error banner."""
    debugger = ScenarioDebugger(click_guard=0)
    upload(debugger.upload, "early.toml", illegal_at_move_3().encode())
    assert debugger.banner.message == "" and debugger.source == "early.toml"
    assert debugger.match is debugger.line and debugger.match.cursor == len(debugger.line.moves) == 2
    assert debugger.failure.number == 3 and debugger.failure.ruling == "LS-4"
    assert debugger.move_list.options[-1] == ("3 · ✗ 1 draw (cannot be played)", 3)
    with pytest.raises(IllegalMove) as refused:
        debugger.line.branch().play("1 draw")
    # the spectator reads which move and ruling; the reason and alternatives are seat 1's
    assert "Move 3 cannot be played" in debugger.failing.value and "LS-4" in debugger.failing.value
    rule = html.escape(f"The rule: {debugger.line.game.RULINGS['LS-4']}.")   # what LS-4 says: public, every view
    assert rule in debugger.failing.value
    assert "switch the view to Seat 2" in debugger.failing.value and "1 peek" not in debugger.failing.value
    debugger.set_view(1)
    assert html.escape(for_people(refused.value.reason)) in debugger.failing.value
    assert all(str(m) in debugger.failing.value for m in refused.value.legal)
    assert list(debugger.results) == [0] and debugger.results[0] == []    # expectations up to move 2 only
    debugger.move_list.value = 3                    # the failing step cannot be shown: stay at move 2
    assert debugger.match.cursor == 2 and debugger.move_list.value == 2
    debugger.back.click()
    assert debugger.match.cursor == 1 and "Move 3 cannot be played" in debugger.failing.value
    debugger.last.click()
    debugger.branch("1 peek 0 1")                   # branch from the last move that replays
    assert debugger.match is not debugger.line and debugger.failing.value == ""
    debugger.back_to_line()
    assert "Move 3 cannot be played" in debugger.failing.value
    upload(debugger.upload, "unreadable.toml", illegal_at_move_3().replace('"1 draw"', '"1"').encode())
    assert debugger.failure.number == 3 and "cannot read move" in debugger.failing.value
    # a move written wrong tells nothing its seat holds: every view reads why, as replay says it
    debugger.set_view(None)
    upload(debugger.upload, "typo.toml", illegal_at_move_3().replace('"1 draw"', '"1 dnoe"').encode())
    assert debugger.failure.number == 3 and debugger.viewer is None
    shown = html.unescape(debugger.failing.value)
    assert "no move 'dnoe'; did you mean 'done'?" in shown and "switch the view" not in shown
    assert "Legal moves" not in debugger.failing.value        # those would tell seat 1's cards


def test_scenario_with_an_illegal_move_opens_from_the_address(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYTEST_SCENARIOS_DIR", str(tmp_path))
    (tmp_path / "early.toml").write_text(illegal_at_move_3())
    debugger = ScenarioDebugger(click_guard=0)
    debugger.open_link("scenario=early")
    assert debugger.banner.message == "" and debugger.match.cursor == 2 and debugger.failure.number == 3


# --- page addresses ---------------------------------------------------------------------------
def test_parse_link_reads_seed_and_scenario_and_refuses_bad_values():
    assert parse_link("") == parse_link(None) == (None, None, None, None)
    assert parse_link("?seed=42").seed == 42 and parse_link("scenario=ls_stale&voila-x=1").scenario == "ls_stale"
    assert parse_link("record=eNq_-9") == (None, None, "eNq_-9", None)
    assert parse_link("record=eNq_-9&players=human,random").players == ("human", "random")
    for bad, says in [("seed=-3", "whole number"), ("seed=abc", "whole number"), ("seed=1&seed=2", "2 times"),
                      ("seed=1&scenario=a", "one of them"), ("scenario=../etc/passwd", "not a scenario name"),
                      ("record=abc&seed=1", "one of them"), ("record=ab%2Bc", "damaged"), ("record=", "damaged"),
                      ("scenario=", "not a scenario name"), ("record=a&players=a,,b", "not a list of players"),
                      ("seed=1&players=human", "without [?]record=")]:
        with pytest.raises(ValueError, match=says):
            parse_link(bad)


def test_find_scenario_reads_the_scenarios_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYTEST_SCENARIOS_DIR", str(tmp_path))
    scenario = bot_scenario()
    scenario.save(tmp_path / "mine.toml")
    assert find_scenario("mine") == scenario == find_scenario("mine.toml")
    with pytest.raises(ScenarioError, match="no scenario called 'nope'") as missing:
        find_scenario("nope")
    (tmp_path / "syntax.toml").write_text('game = "lazy_sunday"\nseats = [\n')
    with pytest.raises(ScenarioError, match=r"^syntax\.toml(, line \d+)?: not valid TOML") as broken:
        find_scenario("syntax")
    # tester report 17: a dashboard shows these to whoever opens the page: the file name only
    assert all(str(tmp_path) not in str(e.value) for e in (missing, broken))


def test_debugger_opens_a_scenario_from_the_address(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYTEST_SCENARIOS_DIR", str(tmp_path))
    bot_scenario().save(tmp_path / "shared.toml")
    debugger = ScenarioDebugger(click_guard=0)
    debugger.open_link("scenario=shared")
    assert debugger.scenario is not None and debugger.source == "shared" and not debugger.banner.message
    for bad in ("scenario=missing", "seed=5", "seed=x", "record=eNqx"):
        debugger.open_link(bad)
        assert debugger.banner.message and debugger.source == "shared"
    match = bot_match("chore_race", 3, 4, 6)
    debugger.open_link(f"record={pack_record(match)}")       # a game dashboard's shared position
    debugger.last.click()
    assert not debugger.banner.message and debugger.match.fingerprint() == match.fingerprint()


def test_game_dashboard_opens_a_seed_and_a_scenario_from_the_address(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYTEST_SCENARIOS_DIR", str(tmp_path))
    app = GameApp("lazy_sunday", autosave=False)
    app.open_link("seed=4242")
    assert app.match.seed == 4242 and app.scenario_name == "" and not app.banner.message
    assert app.match.branch(0).fingerprint() == Match("lazy_sunday", 4, seed=4242).fingerprint()
    assert app.new_game.seed.value == "4242"
    before = (app.match, list(app.match.moves))
    for bad in ("seed=-1", "seed=abc", "seed=1&seed=2", "scenario=nope", "scenario=../x"):
        app.open_link(bad)
        assert app.banner.message and (app.match, list(app.match.moves)) == before, bad
    app.open_link("seed=abc")
    assert "is not a seed" in app.banner.message
    scenario = bot_scenario("lazy_sunday", 4, seed=9, moves=12)
    scenario.save(tmp_path / "lazy.toml")
    app.open_link("scenario=lazy")
    assert [str(m) for m in app.match.moves[:12]] == scenario.moves and app.scenario_name == "lazy"
    assert not app.banner.message
    other = bot_scenario("chore_race", 3, seed=2, moves=4)
    other.save(tmp_path / "cr.toml")
    app.open_link("scenario=cr")
    assert "Chore Race" in app.banner.message and app.scenario_name == "lazy"


def test_save_as_scenario_and_share_link(monkeypatch):
    app = GameApp("chore_race", autosave=False, seed=77)
    app.records.save_scenario.click()
    assert "Warning" in app.records.note.value and app.records.link.value == ""
    app.records.anyway.click()
    scenario = Scenario.from_toml(data_of(app.records.link.value))
    assert "data:application/toml;base64," in app.records.link.value
    assert scenario.to_match().fingerprint() == app.match.fingerprint() and scenario.verify() == []
    app.records.share.click()
    assert "link contains the seed" in app.records.note.value and app.records.link.value == ""
    app.records.anyway.click()
    assert "A new game with the same set-up (move 0)</b>: <a class='pt-share' href='?game=chore_race&amp;record=" in app.records.link.value
    # the page's address from Voilà's request variables, which a preheated kernel gets too
    # (VOILA_REQUEST_URL only a kernel started for the page)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.setenv("SERVER_NAME", "host")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/game.ipynb")
    assert share_url("game=chore_race&seed=77") == "http://host:8866/voila/render/game.ipynb?game=chore_race&seed=77"
    # a scenario file loads through the same upload as a record, and plays on
    app.load(scenario.to_toml())
    assert app.match.branch(len(scenario.moves)).fingerprint() == scenario.to_match().fingerprint()
    with pytest.raises(ScenarioError, match="line"):
        app.load('game = "chore_race"\nseats = "three"\n')
    assert app.match.moves[:len(scenario.moves)] == [Move.parse(m) for m in scenario.moves]


def share_links(app) -> dict[str, str]:
    """The Share link panel's links: label -> query."""
    app.records.share.click()
    if app.records.anyway.layout.display != "none":
        app.records.anyway.click()
    return {label: html.unescape(href).lstrip("?") for label, href in
            re.findall(r"<b>([^<]+)</b>: <a class='pt-share' href='([^']+)'", app.records.link.value)}


def test_share_link_opens_the_shown_position():
    """Tester report 4: "Share link" gave ?seed=5, a new game at move 0."""
    app = GameApp("chore_race", autosave=False, seed=5)
    for _ in range(2):
        app.play(app.table.decision_moves(app.control)[0])
    links = share_links(app)
    here = f"This position (move {len(app.match.moves)}, with the moves so far)"
    assert list(links) == [here, "A new game with the same set-up (move 0)"]
    assert links[here].startswith("game=chore_race&record=") and "characters" not in app.records.link.value
    other = GameApp("chore_race", autosave=False)
    other.open_link(links[here])
    assert not other.banner.message and other.match.fingerprint() == app.match.fingerprint()
    assert "Shared position" in other.about.value and other.opened_box.layout.display != "none"
    app.goto(1)                                     # rewound: the link shares the shown move
    rewound = share_links(app)["This position (move 1, with the moves so far)"]
    other.open_link(rewound)
    assert other.match.fingerprint() == app.match.branch(1).fingerprint() and len(other.match.moves) == 1


def test_new_game_link_keeps_the_set_up_and_links_keep_who_sits_where():
    """Fresh user (b), (c): "A new game with the same seed" (?seed=5) opened 3 seats and
    default options for a 4-seat Quick Game; a ?record= link seated heuristic bots
    where random ones sat."""
    app = GameApp("chore_race", autosave=False)
    players = {1: "random", 2: "heuristic", 3: "random"}
    app.start(4, players, {"target_vp": 10}, seed=5)
    app.play(app.table.decision_moves(app.control)[0])
    links = share_links(app)
    new_game, here = links["A new game with the same set-up (move 0)"], links[next(iter(links))]
    assert new_game.endswith("&players=human,random,heuristic,random") and here.endswith("&players=human,random,heuristic,random")
    other = GameApp("chore_race", autosave=False)          # 3 seats, default options
    other.open_link(new_game)
    assert not other.banner.message and other.match.game.seats == 4 and other.match.seed == 5
    assert other.match.options_dict() == app.match.options_dict() and other.players == players
    assert other.match.branch(0).fingerprint() == app.match.branch(0).fingerprint()
    assert other.match.moves == [] and not other.paused and other.about.value == ""      # a new game, not paused
    other.open_link(here)
    assert other.players == players and len(other.match.moves) == 1 and other.paused
    kept = (other.match, other.players)
    for query, says in [(here.replace("human,random,heuristic,random", "human,random"), "one per seat"),
                        (here.replace("heuristic", "genius"), "genius"),
                        (here.replace("heuristic", "Robot!"), "players"),
                        ("seed=5&players=human,random", "without ?record=")]:
        other.open_link(query)
        assert says in other.banner.message and (other.match, other.players) == kept, query
    other.open_link("seed=9")                                       # a seed typed by hand still opens
    assert other.match.seed == 9 and not other.banner.message


def test_damaged_or_foreign_record_links_keep_the_game(monkeypatch):
    app = GameApp("chore_race", autosave=False, seed=5)
    app.play(app.table.decision_moves(app.control)[0])
    kept = (app.match, list(app.match.moves))
    good = pack_record(app.match)
    lazy = pack_record(bot_match("lazy_sunday", 3, 2, 5))
    not_a_record = base64.urlsafe_b64encode(__import__("zlib").compress(b'{"moves": 3}')).decode()
    for query, says in [(f"record={good[:-6]}", "damaged"), (f"record={good[:10]}x{good[11:]}", "damaged"),
                        ("record=%%%", "damaged"), (f"record={lazy}", "Lazy Sunday"),
                        (f"record={not_a_record}", "record")]:
        app.open_link(query)
        assert says in app.banner.message and (app.match, list(app.match.moves)) == kept, query
    monkeypatch.setattr(records, "LONG_LINK", 50)   # a long link says it may be cut
    share_links(app)
    assert "characters: some browsers" in app.records.link.value


def test_scenario_opens_paused_at_its_last_move_with_its_title():
    """Tester report 5: the bots played on at once ("Match over" at move 13)."""
    scenario = find_scenario("lazy_sunday_claim_on_caller")
    app = GameApp("lazy_sunday", autosave=False)
    app.open_link("scenario=lazy_sunday_claim_on_caller")
    assert [str(m) for m in app.match.moves] == scenario.moves and app.match.outcome() is None
    assert html.escape(scenario.title) in app.about.value and html.escape(scenario.description) in app.about.value
    assert app.pause_box.layout.display != "none" and "Continue" in app.continue_button.description
    assert "game=lazy_sunday&scenario=lazy_sunday_claim_on_caller" in share_links(app).values()
    app.goto(3)                                     # rewinding and coming back keeps the pause
    app.goto(len(scenario.moves))
    assert len(app.match.moves) == len(scenario.moves) and app.pause_box.layout.display != "none"
    app.continue_button.click()
    assert len(app.match.moves) > len(scenario.moves) and app.pause_box.layout.display == "none"
    # a move of the player also lets the bots play on
    app.open_link("scenario=lazy_sunday_claim_on_caller")
    app.play(app.table.open_moves(0)[0])
    assert len(app.match.moves) > len(scenario.moves) + 1
    app.start(3, {1: "random", 2: "random"}, seed=3)     # a new game: no scenario shown
    assert app.about.value == "" and app.opened_box.layout.display == "none"


def test_a_seats_legal_moves_in_an_expectation_stay_in_its_view():
    """Fresh user (a): "legal: 1 accept, 1 excuse, 1 dodge" told the spectator that seat 1
    holds the reaction cards (chore_race_reaction_window, after move 4)."""
    debugger = ScenarioDebugger(find_scenario("chore_race_reaction_window"), click_guard=0)
    debugger.goto(4)
    for viewer in (None, 0):
        debugger.set_view(viewer)
        shown = debugger.expectations.value
        assert "1 excuse" not in shown and "1 dodge" not in shown and "switch the view to seat 2" in shown
        assert "to act: [1]" in shown                     # public parts stay readable
    assert "0 end" in shown                               # seat 0's own illegal move, in seat 0's view
    debugger.set_view(1)
    assert "legal: 1 accept, " not in debugger.expectations.value          # one part per move
    assert "legal: 1 excuse" in debugger.expectations.value and "0 end" not in debugger.expectations.value
    # a failing legal expectation's finding (the refusal) is a seat's secret too
    scenario = find_scenario("chore_race_reaction_window")
    scenario.expect[2].legal.append("1 teamwork 1")
    failing = ScenarioDebugger(Scenario.from_toml(scenario.to_toml()), click_guard=0)
    assert "✗ fails" in failing.expectations.value and "teamwork" not in failing.expectations.value
    failing.set_view(1)
    assert "legal '1 teamwork 1': expected 'legal'" in html.unescape(failing.expectations.value)


def test_upload_takes_a_record_json_with_times_and_refuses_a_bad_one_in_a_sentence():
    match = bot_match("chore_race", 3, 4, 12)
    record = {**match.record().model_dump(), "times": ["2026-12-05T13:00:00Z"] * len(match.moves)}
    debugger = ScenarioDebugger(click_guard=0)
    upload(debugger.upload, "table.json", json.dumps(record).encode())
    assert debugger.banner.message == "" and debugger.source == "table.json"
    assert debugger.scenario.moves == record["moves"] and debugger.match.cursor == 0
    debugger.goto(len(record["moves"]))
    assert state_hash(debugger.match) == state_hash(match)
    shown = (debugger.scenario, debugger.match)
    upload(debugger.upload, "bad.json", b'{"format": "playtest.record", "game": "chore_race"')
    assert "bad.json cannot be opened as a record" in debugger.banner.message
    assert "not valid JSON" in debugger.banner.message and (debugger.scenario, debugger.match) == shown
    upload(debugger.upload, "other.json", json.dumps({**record, "moves": ["9 fly"]}).encode())
    assert "other.json cannot be opened as a record" in debugger.banner.message and "move 1" in debugger.banner.message
    assert (debugger.scenario, debugger.match) == shown


def test_a_game_drawn_by_the_generic_board_opens_from_its_record():
    """A plug-in game without a board of its own (Crazy Eights, the worked example) opens
    in the debugger on the generic ViewBoard, stepping through its moves."""
    from playtest.engine import games, play_game
    from playtest.widgets.board import ViewBoard
    match, _ = play_game(games()["crazy_eights"], 3, "random", seed=2)
    debugger = ScenarioDebugger()
    debugger.load_record(json.dumps(match.record().model_dump()))
    assert isinstance(debugger.board, ViewBoard) and debugger.game is games()["crazy_eights"]
    assert [str(m) for m in debugger.scenario.moves] == [str(m) for m in match.moves]     # the whole line to step
