"""The Night Shift app, driven from Python, and the kernel-side security test: no
hidden card (the opponent's hand, either Personal Deck, the Household Supply) reaches any
widget's synced state. Night Shift has many copies of each card, so the check counts:
no card name may appear more often than the shown seat's view and log allow."""
from __future__ import annotations

import json
import random
import re
from collections import Counter

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances

from widget_support import check_due, fresh_widgets  # noqa: F401 (autouse fixture)

from playtest import Move
from playtest.games.night_shift import NightShift
from playtest.widgets import Card, GameApp
from playtest.widgets.components import BLANK

NAMES = sorted({c.name for c in NightShift.CARD_SPECS})
# "Nap Token stack" and "Nap Tokens" name the pile, not a card
# one pass for every name (longest first, so a name inside a longer one is not counted)
NAME = re.compile(r"(?<![\w'])(" + "|".join(re.escape(n) for n in sorted(NAMES, key=len, reverse=True))
                  + r")(?![\w']| stack)")
LL, CC = "Laundry Load", "Chore Chart"


def counts(text: str) -> Counter:
    """How often each card name occurs in ``text``."""
    return Counter(NAME.findall(text))


def exceeding(found: Counter, allowed: Counter) -> dict:
    return {n: (k, allowed[n]) for n, k in found.items() if k > allowed[n]}


def assert_no_leak(app) -> None:
    """What the widgets hold is no more than the shown seat may know:

    * every face-up card widget shows a card of the view, copies counted: no name on
      more face-up cards than the view has visible copies of it;
    * all other synced state (texts, labels, tooltips, buttons, log) names each card at
      most as often as the view and the log together do;
    * face-down and empty card widgets carry no text, tooltip or telling class; move
      buttons not on show are blank; a random seed is never shown.
    """
    viewer = app.viewer
    assert viewer is None or viewer == app.control
    view = app.match.view(viewer)
    in_view = counts(json.dumps(view))
    in_log = counts("\n".join(t for _, t in app.match.log_for(viewer)))
    faces, texts = Counter(), []
    rules = app.rules.children[0]          # "How to play": public rules text
    for widget in list(_instances.values()):
        if widget is rules:
            continue
        state = widget.get_state()
        if isinstance(widget, Card):
            classes = set(widget._dom_classes)
            if "pt-face" in classes:
                faces[widget.description.split("\n")[0]] += 1
            else:
                assert widget.description == BLANK and widget.tooltip == "", (widget.description, widget.tooltip)
                assert classes <= {"pt-card", "pt-back", "pt-empty"}, classes
            state.pop("description")
        texts.append(json.dumps(state, default=str))
    assert not exceeding(faces, in_view), f"face-up cards beyond seat {viewer}'s view: {exceeding(faces, in_view)}"
    found = counts("\n".join(texts))
    assert not exceeding(found, in_view + in_log), (
        f"names beyond seat {viewer}'s view and log (found, allowed): {exceeding(found, in_view + in_log)}")
    shown = set(app.moves.kind_box.children)
    assert all(not b.description for pool in app.moves._pools for b in pool.values() if b not in shown)
    for seat, player in enumerate(view["players"]):
        panel = app.board.seats[0 if seat != (viewer if viewer is not None else 0) else 1]
        hand_cards = panel.hand.box.children
        assert len(hand_cards) == player["hand_count"]
        if player["hand"] is None:
            assert all("pt-back" in c._dom_classes for c in hand_cards)
    if app.match.outcome() is None and app.match.seed >= 10**6:     # long enough to grep for
        assert str(app.match.seed) not in "\n".join(texts)


def random_step(app, rng: random.Random) -> None:
    """One thing a person might do, at random, through the widgets only: unlock the
    privacy screen, rewind and come back, click an unavailable action, or click one of
    the move buttons on show (End Shift less often, so Shifts have some plays)."""
    if app.privacy.shown:
        app.privacy.button.click()
        return
    roll = rng.random()
    if roll < 0.05 and app.match.moves:
        app.timeline.back.click()
        assert_no_leak(app)
        app.timeline.live.click()
        return
    if roll < 0.1 and app.board.unavailable.layout.display != "none":
        button = rng.choice([b for b in (app.board.activate, app.board.tidy) if b.layout.display != "none"])
        button.click()
        assert "NS-9" in app.banner.message or "NS-7" in app.banner.message, app.banner.message
        app.banner.clear()
        return
    buttons = list(app.moves.kind_box.children)
    if not buttons:
        return
    others = [b for b in buttons if not b.description.startswith("End Shift")]
    (rng.choice(others) if others and rng.random() < 0.8 else rng.choice(buttons)).click()
    assert app.banner.message == "", app.banner.message


PLAYERS = [{0: "human", 1: "human"}, {0: "human", 1: "heuristic"}, {0: "random", 1: "human"},
           {0: "human", 1: "random"}]


@pytest.mark.parametrize("game", range(8))
def test_no_hidden_card_reaches_any_widget(game):
    rng = random.Random(game)
    options = {"reshuffle": rng.random() < 0.5, "turn_limit": rng.randint(4, 16),
               "play_cost": rng.choice(["printed", "printed", "free"])}
    app = GameApp("night_shift", players=PLAYERS[game % len(PLAYERS)], options=options, seed=rng.randrange(10**8, 2**31))
    assert_no_leak(app)
    switches = 0
    for step in range(500):
        if app.match.outcome() is not None:
            break
        before = app.control
        random_step(app, rng)
        if check_due(app, step):
            assert_no_leak(app)
        if app.control != before and len(app.humans) == 2:
            switches += 1
            assert app.privacy.shown and app.viewer is None     # NS hands hidden between humans
    assert app.match.outcome() is not None, "the game did not end"
    assert "Game over" in app.board.status.value or "unfinished" in app.board.status.value
    if len(app.humans) == 2:
        assert switches >= 2


def test_defaults_two_seats_human_against_heuristic_as_written():
    app = GameApp("night_shift", seed=0)
    assert app.match.game.seats == 2 and app.humans == [0] and app.players == {1: "heuristic"}
    assert [d.value for d in app.new_game.players[:2]] == ["human", "heuristic"]
    assert app.presets.value == "as written" and app.new_game.config()[2]["reshuffle"] is False
    assert app.match.game.options.reshuffle is False
    bottom, top = app.board.seats[1], app.board.seats[0]
    assert "Seat 1 (you)" in bottom.meters.value and "Seat 2 (heuristic bot)" in top.meters.value
    for meter in ("Patience", "Effort", "Actions", "Care Points"):
        assert meter in bottom.meters.value and meter in top.meters.value
    assert ">25</span>/25" in bottom.meters.value and ">3</span>/3" in bottom.meters.value
    assert all("pt-face" in c._dom_classes for c in bottom.hand.box.children)
    assert [("pt-back" in c._dom_classes) for c in top.hand.box.children] == [True] * 5
    assert "Hand: 5 cards, hidden" in top.hand.label.value
    assert len(app.board.row.box.children) == 5 and "cost 2" in app.board.row.box.children[0].description
    assert app.board.supply.caption.value.endswith("Household Supply: 28</span>")
    assert "Nap Tokens: 10" in app.board.naps.caption.value
    assert "Personal Deck: 5" in bottom.deck.caption.value and "Laundry Basket: 0" in bottom.basket.caption.value
    assert sorted(app.moves.labels_shown()) == ["End Shift (no cost)", "Play Bottle Wash (1 Action)",
                                                "Play Laundry Load (1 Action)"]
    assert "NS-9" in app.board.why.value and app.board.unavailable.layout.display != "none"


def test_play_a_card():
    app = GameApp("night_shift", seed=0)
    app.moves.click("Play Laundry Load (1 Action)")
    me = app.match.view(0)["players"][0]
    assert (me["effort"], me["actions"], me["hand_count"]) == (2, 2, 4)
    shift = app.board.seats[1].shift.box.children
    assert [c.description.split("\n")[0] for c in shift] == [LL]
    assert ">2</span></span>" in app.board.seats[1].meters.value      # Effort 2
    assert "Buy Coffee Refill (1 Action + 2 Effort)" in app.moves.labels_shown()
    assert app.banner.message == ""


def test_stale_double_click_plays_once():
    app = GameApp("night_shift", seed=0)
    button = next(b for b in app.moves.kind_box.children if b.description.startswith("Play Laundry Load"))
    button.click()
    button.click()          # the second half of a double click, made for the old position
    assert [str(m) for m in app.match.moves] == ["0 play 'Laundry Load'"]


def test_buy_from_the_supply_row():
    app = GameApp("night_shift", seed=0)
    app.moves.click("Play Laundry Load")
    app.moves.click("Play Laundry Load")
    app.moves.click("Buy Coffee Refill (1 Action + 2 Effort)")
    view = app.match.view(0)
    me = view["players"][0]
    assert (me["effort"], me["actions"]) == (2, 0)
    assert [c["name"] for c in me["laundry_basket"]] == ["Coffee Refill"]
    assert view["household_supply"] == 27 and len(view["supply_row"]) == 5      # refilled at once (NS-4)
    assert "Laundry Basket: 1" in app.board.seats[1].basket.caption.value
    assert app.board.seats[1].basket.card.description.startswith("Coffee Refill")
    assert "Coffee Refill ×1" in app.board.seats[1].basket_list.value
    assert app.moves.labels_shown() == ["End Shift (no cost)"]


def test_buy_from_the_nap_token_stack():
    app = GameApp("night_shift", seed=0)
    app.moves.click("Play Laundry Load")
    app.moves.click("Buy Nap Token from the stack (1 Action + 1 Effort)")
    view = app.match.view(0)
    assert view["nap_tokens"] == 9 and [c["name"] for c in view["players"][0]["laundry_basket"]] == ["Nap Token"]
    assert "Nap Tokens: 9" in app.board.naps.caption.value


def opponent_structure(app, name: str = CC) -> None:
    """Arrange (test only): one ``name`` from the Household Supply into seat 1's Current
    Shift, with its printed health, then redraw."""
    state, game = app.match.state, app.match.game
    cid = next(c for c in state.supply if game.cards[c].name == name)
    state.supply.remove(cid)
    state.shifts[1].append(cid)
    state.health[cid] = game.cards[cid].health
    app.refresh()


def test_tidy_up_refused_with_its_reason_while_an_opponent_structure_is_in_play():
    app = GameApp("night_shift", seed=0)
    opponent_structure(app)
    app.moves.click("Play Laundry Load")
    assert not any(label.startswith("Tidy Up") for label in app.moves.labels_shown())
    assert app.board.tidy.layout.display != "none"
    assert "blocked while the opponent has a structure in play (Chore Chart) (NS-7)" in app.board.why.value
    before = app.match.fingerprint()
    app.board.tidy.click()
    assert "(NS-7)" in app.banner.message and "Tidy Up is blocked" in app.banner.message
    assert "Chore Chart" in app.banner.message and app.banner.widget.layout.display == "flex"
    assert app.match.fingerprint() == before
    # the game goes on
    app.moves.click("Play Laundry Load")
    assert app.banner.message == ""


def test_tidy_up_when_allowed():
    app = GameApp("night_shift", seed=0)
    app.moves.click("Play Laundry Load")
    assert app.board.tidy.layout.display == "none"
    app.moves.click("Tidy Up (1 Action + all 2 Effort → Patience)")
    assert str(app.match.moves[-1]) == "0 tidy"


def test_activate_is_shown_unavailable_and_refused_with_ns9():
    app = GameApp("night_shift", seed=0)
    assert "Activate an ability (1 Action)" == app.board.activate.description
    assert "no card has an ability" in app.board.why.value and "NS-9" in app.board.why.value
    app.board.activate.click()
    assert "(NS-9)" in app.banner.message and not app.match.moves


def test_settle_an_opponent_structure():
    app = GameApp("night_shift", seed=0)
    opponent_structure(app)
    assert app.board.seats[0].shift.box.children[0].description == "Chore Chart\ncost 4 ♥4"
    app.moves.click("Play Laundry Load")
    app.moves.click("Play Laundry Load")
    app.moves.click("Settle Chore Chart (1 Action + 4 Effort)")
    view = app.match.view(0)
    assert view["players"][1]["current_shift"] == [] and view["players"][0]["effort"] == 0
    assert [c["name"] for c in view["players"][1]["laundry_basket"]] == [CC]
    assert "Chore Chart ×1" in app.board.seats[0].basket_list.value
    assert app.board.tidy.layout.display == "none" or "no Actions" in app.board.why.value


def test_end_shift_lets_the_bot_play_and_comes_back():
    app = GameApp("night_shift", seed=0)
    app.moves.click("Play Laundry Load")
    app.moves.click("End Shift (no cost)")
    view = app.match.view(0)
    assert view["turn_seat"] == 0 and view["shift"] == 3
    assert any(m.seat == 1 for m in app.match.moves) and app.match.moves[-1] == Move(1, "end")
    assert "Shift 3 of 50" in app.board.status.value and "Seat 1 ends Shift 1" in app.log.html.value
    me = view["players"][0]
    assert me["basket_count"] == 5 and me["hand_count"] == 5 and me["deck_count"] == 0
    assert len(app.board.seats[1].hand.box.children) == 5


def test_preset_picker_sets_reshuffle():
    app = GameApp("night_shift", seed=0)
    panel = app.new_game
    app.presets.dropdown.label = "with reshuffle"
    assert panel.inputs["reshuffle"].value is True
    panel.inputs["turn_limit"].value = "6"            # a change by hand: no preset matches now
    assert app.presets.value is None and app.presets.dropdown.label == "(custom options)"
    panel.inputs["turn_limit"].value = "50"
    assert app.presets.value == "with reshuffle"
    panel.start.click()
    assert app.match.game.options.reshuffle is True and app.banner.message == ""
    assert "reshuffle on (NS-5)" in app.board.status.value
    app.presets.dropdown.label = "as written"
    assert panel.inputs["reshuffle"].value is False


def test_first_game_options_shown_in_the_panel():
    app = GameApp("night_shift", options={"reshuffle": True}, seed=1)
    assert app.presets.value == "with reshuffle" and app.new_game.inputs["reshuffle"].value is True


def test_full_game_shows_the_result():
    app = GameApp("night_shift", options={"turn_limit": 4}, seed=3)
    for _ in range(40):
        if app.match.outcome():
            break
        labels = app.moves.labels_shown()
        app.moves.click(next((x for x in labels if x.startswith("Play")), labels[-1]))
    outcome = app.match.outcome()
    assert outcome and outcome.finished and "Shift 4 was the last" in outcome.reason
    assert "Game over" in app.board.status.value and "Care Points" in app.board.status.value
    assert app.moves.labels_shown() == [] and app.board.unavailable.layout.display == "none"
    assert app.banner.message == ""
    app.records.save.click()
    assert "night_shift_record.json" in app.records.link.value


def test_hotseat_privacy_screen_hides_the_hand_between_humans():
    app = GameApp("night_shift", players={0: "human", 1: "human"}, seed=5)
    assert app.privacy.shown and app.viewer is None         # the first seat confirms too
    assert all("pt-back" in c._dom_classes for p in app.board.seats for c in p.hand.box.children)
    assert_no_leak(app)
    app.privacy.button.click()
    assert app.viewer == 0 and all("pt-face" in c._dom_classes for c in app.board.seats[1].hand.box.children)
    app.moves.click("Play")
    app.moves.click("End Shift")
    assert app.control == 1 and app.privacy.shown and app.viewer is None
    assert "I am seat 2" in app.privacy.button.description and app.moves.labels_shown() == []
    assert all("pt-back" in c._dom_classes for p in app.board.seats for c in p.hand.box.children)
    assert_no_leak(app)
    app.privacy.button.click()
    assert app.viewer == 1 and "Seat 2 (you)" in app.board.seats[1].meters.value
    assert all("pt-face" in c._dom_classes for c in app.board.seats[1].hand.box.children)
    assert all("pt-back" in c._dom_classes for c in app.board.seats[0].hand.box.children)
    assert_no_leak(app)


def test_a_shrinking_row_keeps_no_old_name():
    app = GameApp("night_shift", seed=0)
    for _ in range(3):
        app.moves.click("Play")
    row = app.board.seats[1].hand
    assert len(row.box.children) == 2 and len(row.cards) == 5
    assert all(c.description == BLANK for c in row.cards[2:])


def test_the_leak_check_counts_copies():
    """The check itself: a face-up copy beyond the view, or a name said once too often
    (e.g. an opponent's hand card whose name is also public), is caught."""
    app = GameApp("night_shift", seed=0)
    assert_no_leak(app)
    view = app.match.view(0)
    public = view["supply_row"][0]["name"]
    extra = Card()
    extra.show(True, title=public)
    with pytest.raises(AssertionError, match="face-up cards beyond"):
        assert_no_leak(app)
    extra.close()
    allowed = counts(json.dumps(view)) + counts("\n".join(t for _, t in app.match.log_for(0)))
    note = w.HTML(" ".join([public] * (allowed[public] + 1)))
    with pytest.raises(AssertionError, match="names beyond"):
        assert_no_leak(app)
    note.close()
    assert_no_leak(app)


def test_game_over_line_shows_the_winner_first_and_plurals_read_right():
    """NS-10: the result names each score's seat, the winner's first; "1 card", "0 cards"."""
    from playtest.games.night_shift.widget import n_cards
    app = GameApp("night_shift", seed=0)
    view = dict(app.match.view(0))
    view["outcome"] = {"winners": [1], "scores": [2, 4], "finished": True, "reason": "NS-10: most Care Points"}
    status = app.board._status(view)
    assert "wins · Care Points seat 2 4, seat 1 2" in status and "2 – 4" not in status
    view["outcome"] = {"winners": [0, 1], "scores": [3, 3], "finished": True, "reason": "NS-10: a tie"}
    assert "Care Points seat 1 3, seat 2 3" in app.board._status(view)
    assert [n_cards(n) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    texts, stack = [], [app.board.widget]       # the board (the log's text is the rules')
    while stack:
        x = stack.pop()
        texts += [x.value] if isinstance(x, w.HTML) else []
        stack += [c for c in getattr(x, "children", ()) if isinstance(c, w.Widget)]
    assert "card(s)" not in " ".join(texts) and "Hand: 5 cards" in " ".join(texts)


def test_end_my_empty_shifts_when_end_shift_is_the_only_move():
    """NS-5 as written: a seat that only ever ends its Shift runs out of cards; then
    "End my empty Shifts" (shown only while End Shift is its only move) ends its Shifts
    until the game is over (NS-10), the bot playing its own Shifts between."""
    app = GameApp("night_shift", players={0: "human", 1: "heuristic"}, seed=3, autosave=False)
    skip = app.board.skip
    for _ in range(10):
        kinds = [m.kind for m in app.decision_moves(0)]
        if kinds == ["end"]:
            break
        assert skip.layout.display == "none"
        app.play(Move(0, "end"))
    assert [m.kind for m in app.decision_moves(0)] == ["end"]
    assert skip.layout.display != "none" and "End my empty Shifts" in skip.description
    shift = app.match.view(0)["shift"]
    skip.click()
    assert app.banner.message == ""
    assert app.match.outcome() is not None and app.match.view(0)["shift"] > shift + 2
    assert skip.layout.display == "none" and app.again_button.layout.display != "none"


def test_cards_can_be_lit_up_by_their_view_path():
    app = GameApp("night_shift", players={0: "human", 1: "heuristic"}, seed=3, autosave=False)
    view = app.match.view(0)
    paths = ["players.0.hand.0", "supply_row.2", "nap_card", "players.1.deck_count"]
    app.light(paths)
    lit = [app.board.card_at(p) for p in paths]
    assert all(c is not None and "pt-lit" in c._dom_classes for c in lit)
    assert lit[0].description.startswith(view["players"][0]["hand"][0]["name"])
    assert lit[1].description.startswith(view["supply_row"][2]["name"])
    app.play(app.decision_moves(0)[0])          # a redraw keeps them lit
    assert all("pt-lit" in c._dom_classes for c in lit)
    app.light(())
    assert not any("pt-lit" in c._dom_classes for c in lit)
    assert app.board.card_at("players.0.hand.99") is None and app.board.card_at("nowhere") is None


@pytest.mark.parametrize("players", [{0: "human", 1: "heuristic"}, {0: "human", 1: "human"}],
                         ids=["against a bot", "hotseat"])
def test_end_shift_pressed_ten_times_ends_one_shift(players):
    """#11: End Shift pressed ten times quickly, the page not redrawn between the presses
    (the same button, as the browser sent them): the first ends seat 0's Shift; the other
    nine were made for that decision and are dropped, whatever happened since: the bot's
    whole Shift, or (hotseat) seat 1 taking the device, whose Shift is not ended for it.
    A press on the new decision's button then plays at once."""
    app = GameApp("night_shift", players=players, seed=0, autosave=False)
    app.unlock(app.control)
    end = next(b for b in app.moves.kind_box.children if b.description.startswith("End Shift"))
    for _ in range(10):
        end.click()
        if app.unlocked != app.control:
            app.privacy.button.click()          # hotseat: seat 1 confirms it holds the device
    assert app.match.moves.count(Move(0, "end")) == 1 and app.moves.ignored == 9
    assert app.banner.message == ""
    if players[1] == "human":
        assert app.match.moves == [Move(0, "end")] and app.viewer == 1      # seat 1's Shift, untouched
    else:
        assert app.match.moves[-1] == Move(1, "end") and app.viewer == 0    # the bot's Shift, then seat 0's
    played = len(app.match.moves)
    again = next(b for b in app.moves.kind_box.children if b.description.startswith("End Shift"))
    assert again is not end
    again.click()                               # deliberate, on the decision it shows
    assert len(app.match.moves) > played and app.match.moves[played] == Move(app.match.moves[played].seat, "end")
