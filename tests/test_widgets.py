"""Generic widget components, driven from Python (clicks via ``button.click()``).

Game-agnostic: they use the engine's toy game (tests/toy_game.py: a seat on turn, a
reaction window, simultaneous secret choices, an open move ``slap`` and one secret
number per seat) and view dicts written by hand.
"""
from __future__ import annotations

import datetime
import html
import json
import reprlib

import ipywidgets as w
from ipywidgets.widgets.widget import _instances
import pytest
import toy_game  # noqa: F401  (registers the "toy" game)

from playtest import Match, Move, RecordError
from playtest.widgets import Card, CardRow, GameApp, GameBoard, MoveBuilder, NewGamePanel, Timeline
from playtest.widgets.components import BLANK


class ToyBoard(GameBoard):
    """Each seat shows one card: its secret number, face-up only to that seat."""

    card_args = {"poke": (("target", None),)}
    open_title = "Slap!"

    def __init__(self, app):
        super().__init__(app)
        self.rows = [CardRow(lambda pos, s=s: self.app.card_clicked(s, pos)) for s in range(5)]
        self.widget.children = tuple(r.widget for r in self.rows)

    def update(self, view, clickable):
        n = len(view["points"])
        for seat, row in enumerate(self.rows):
            mine = seat == view["viewer"]
            card = dict(face_up=True, title=f"Secret {view['secret']}", corner="") if mine else dict(face_up=False)
            row.show(f"{self.app.seat_name(seat)}: {view['points'][seat]} points" if seat < n else "",
                     [dict(card, clickable=(seat, None) in clickable)] if seat < n else [])

    def arg_label(self, kind, name, value, view):
        return f"seat {value}"


def kind_button(builder: MoveBuilder, label: str) -> w.Button:
    return next(b for b in builder.kind_box.children if b.description == label)


def step(app):
    """Click through one decision of the seat in control: pass if it may, else the first
    kind offered (dodge a poke, or a choice; a kind with arguments then its first value)."""
    labels = [b.description for b in app.moves.kind_box.children]
    kind_button(app.moves, "pass" if "pass" in labels else labels[0]).click()
    if app.moves.kind is not None:
        dropdown = app.moves.arg_box.children[0]
        dropdown.value = dropdown.options[0][1]
        app.moves.play_button.click()


def toy_app(players, seats=3, seed=5, **kw):
    return GameApp("toy", ToyBoard, seats, players, seed=seed, **kw)


# --- card and row -----------------------------------------------------------------
def test_face_down_card_carries_nothing():
    card = Card()
    card.show(True, title="Secret 7", corner="7", kind="chore", tooltip="a tip", highlight=True)
    assert "Secret 7" in card.description and card.tooltip == "a tip"
    assert {"pt-face", "pt-kind-chore", "pt-looking"} <= set(card._dom_classes)
    card.show(False)
    state = json.dumps(card.get_state(), default=str)
    assert "Secret" not in state and "chore" not in state and card.description == BLANK
    assert "pt-back" in card._dom_classes and card.tooltip == ""


def test_a_card_turning_over_sends_its_name_and_its_face_in_one_message(monkeypatch):
    """Sent apart, a card turning face up is for a moment a back showing a name on the page."""
    card = Card()
    sent = []
    monkeypatch.setattr(card, "send_state", lambda key=None: sent.append(set(key) if key else "all"))
    card.show(True, "Make the Bed", "3", kind="chore")
    card.show(False)
    card.show(None)
    assert len(sent) == 3 and all({"description", "_dom_classes"} <= keys for keys in sent[:2]), sent


def test_row_reuses_its_card_pool():
    clicks = []
    row = CardRow(clicks.append)
    row.show("six", [dict(face_up=False)] * 6)
    first = list(row.box.children)
    row.show("two", [dict(face_up=False)] * 2)
    row.show("five", [dict(face_up=True, title="x")] * 5)
    assert list(row.box.children) == first[:5] and len(row.cards) == 6
    row.box.children[3].click()
    assert clicks == [3]


# --- move builder -------------------------------------------------------------------
class Labels:
    def move_label(self, kind, view):
        return kind.upper()

    def move_tooltip(self, kind, view):
        return ""

    def arg_title(self, kind, name):
        return name

    def arg_label(self, kind, name, value, view):
        return f"{name}={value}"

    def describe(self, move, view):
        return " ".join([move.kind.upper(), *map(str, move.args)])


def builder(moves, card_args=None):
    played = []
    b = MoveBuilder({"trade": ("p", "s", "q"), "take": ("p",), "claim": ("s", "p", "serial"), "go": ()},
                    Labels(), played.append, card_args or {})
    b.show(0, moves, {})
    return b, played


def test_builder_offers_only_values_allowed_by_earlier_choices():
    moves = [Move(0, "trade", (0, 1, 0)), Move(0, "trade", (0, 2, 3)), Move(0, "trade", (1, 2, 0)), Move(0, "go")]
    b, played = builder(moves)
    assert [x.description for x in b.kind_box.children] == ["TRADE", "GO"]
    kind_button(b, "TRADE").click()
    first = b.arg_box.children[0]
    assert first.options == (("p=0", 0), ("p=1", 1)) and first.index is None
    assert b.play_button.disabled
    first.value = 1           # only trade 1 2 0 is left: s and q are filled in, no dropdown
    assert b.prefix == [1, 2, 0] and not b.play_button.disabled
    assert [c for c in b.arg_box.children if isinstance(c, w.Dropdown)] == [first]
    b.play_button.click()
    assert played == [Move(0, "trade", (1, 2, 0))] and b.kind is None
    assert first.options == ()       # a dropdown not on show is emptied


def test_builder_plays_argument_free_move_at_once_and_ignores_stale_clicks():
    b, played = builder([Move(0, "go"), Move(0, "take", (2,))])
    go = kind_button(b, "GO")
    go.click()
    assert played == [Move(0, "go")]
    b.show(0, [Move(0, "take", (2,))], {})
    go.click()                # the button is no longer offered: nothing happens
    assert played == [Move(0, "go")]
    kind_button(b, "TAKE").click()   # a kind with one legal move plays at once
    assert played == [Move(0, "go"), Move(0, "take", (2,))]


def test_a_click_acts_only_on_the_decision_its_button_was_drawn_for(monkeypatch):
    """#11: a button's clicks are for the decision it was drawn for. Clicks queued while
    the kernel played the move (the same button clicked again, the page not redrawn)
    are ignored however many decisions came since: a pool of buttons is drawn again only
    after RETIRE seconds off screen (a new pool meanwhile, at most MAX_POOLS)."""
    from playtest.widgets import moves as move_controls
    clock = [100.0]
    monkeypatch.setattr(move_controls.time, "monotonic", lambda: clock[0])
    b, played = builder([Move(0, "go")])
    first = kind_button(b, "GO")
    first.click()
    for decision in range(1, 4):                 # three decisions within a second (bots, a hand-over)
        clock[0] += 0.2
        b.show(0, [Move(0, "go")], {}, decision=decision)
        first.click()                            # queued: made for the first decision
    assert played == [Move(0, "go")] and b.ignored == 3
    assert len(b._pools) == 4 and first not in kind_buttons(b)
    kind_button(b, "GO").click()                 # deliberate, on the decision shown: at once
    assert played == [Move(0, "go")] * 2
    clock[0] += 0.2
    b.show(0, [Move(0, "go")], {}, decision=4)   # at MAX_POOLS: the pool off screen longest
    assert len(b._pools) == move_controls.MAX_POOLS and first in kind_buttons(b)
    clock[0] += move_controls.RETIRE
    b.show(0, [Move(0, "go")], {}, decision=5)   # a pool off screen RETIRE seconds is drawn again
    b.show(0, [Move(0, "go")], {}, decision=6)
    assert len(b._pools) == move_controls.MAX_POOLS
    # every pool holds a (blank when hidden) button of every kind: nothing tells which were offered
    assert all(set(pool) == set(b.move_args) for pool in b._pools)
    assert all(not x.description for pool in b._pools for x in pool.values() if x not in kind_buttons(b))


def test_play_pressed_again_after_it_sent_the_move_is_ignored_without_a_word():
    b, played = builder([Move(0, "take", (1,)), Move(0, "take", (2,))])
    kind_button(b, "TAKE").click()
    b.arg_box.children[0].value = 2
    b.play_button.click()
    b.play_button.click()                        # queued before Play was disabled
    assert played == [Move(0, "take", (2,))] and b.ignored == 1 and b.hint.value == ""
    b.show(0, [Move(0, "take", (1,))], {}, decision=1)
    b.play_button.click()                        # still that press, now on the next decision
    assert played == [Move(0, "take", (2,))] and b.ignored == 2 and b.hint.value == ""


def kind_buttons(b: MoveBuilder) -> list:
    return list(b.kind_box.children)


def test_card_click_fills_card_arguments_and_plays():
    moves = [Move(0, "trade", (p, s, q)) for p in (0, 1) for s in (1, 2) for q in (0, 1)]
    moves += [Move(0, "claim", (s, p, 9)) for s in (0, 1) for p in (0, 1)]
    b, played = builder(moves, {"trade": ((None, "p"), ("s", "q")), "claim": (("s", "p"),)})
    assert not b.pick_card(2, 0)           # own-card-only first argument, ambiguous kinds
    kind_button(b, "TRADE").click()
    assert (0, 1) in b.clickable_cards() and (1, 0) not in b.clickable_cards()
    assert b.pick_card(0, 1) and b.prefix == [1]
    assert b.clickable_cards() == {(s, q) for s in (1, 2) for q in (0, 1)}
    assert not b.pick_card(0, 0)           # own card again: not a legal "s q"
    assert b.pick_card(2, 0)
    assert played == [Move(0, "trade", (1, 2, 0))]
    kind_button(b, "CLAIM").click()
    b.pick_card(1, 1)                       # the serial has one value: filled and played
    assert played[-1] == Move(0, "claim", (1, 1, 9))


def test_a_card_click_that_only_chooses_a_move_says_to_press_play():
    """A card click that picks one kind among several selects it and waits for Play
    (it must not take a move the person never chose); the hint says so, and goes once
    the move is played."""
    moves = [Move(0, "trade", (p, 1, 0)) for p in (0, 1)] + [Move(0, "claim", (1, p, 9)) for p in (0, 1)]
    b, played = builder(moves, {"trade": ((None, "p"),), "claim": (("s", "p"),)})
    b.show(0, moves, {}, note="Your turn.")
    assert b.pick_card(1, 1) and b.kind == "claim" and played == []
    assert "That card chose “CLAIM 1 1 9”: click it again or press Play to make the move, or Cancel." in b.hint.value
    b.play_button.click()
    assert played == [Move(0, "claim", (1, 1, 9))] and b.hint.value == "<i>Your turn.</i>"
    # a second click on the same card makes the move as Play does; a click on another card
    # changes the choice (and plays nothing), and a click on that one then makes it
    b.show(0, moves, {}, note="Your turn.")
    assert b.pick_card(1, 1) and played == [Move(0, "claim", (1, 1, 9))]
    assert b.pick_card(1, 0) and b.prefix == [1, 0, 9] and len(played) == 1 and "click it again" in b.hint.value
    assert b.pick_card(1, 0) and played[-1] == Move(0, "claim", (1, 0, 9)) and b.kind is None


def test_a_card_click_just_after_the_offer_changed_finishes_the_move_on_the_old_offer(monkeypatch):
    """LS-5 on a live table: a slap begun ("Done it!") before another seat's claim changed
    the DONE top, and clicked within REACTION seconds of it, is the claim on the old top
    (the table returns it, no penalty), not a claim on the card now under the pointer."""
    import playtest.widgets.moves as moves_module
    clock = [100.0]
    monkeypatch.setattr(moves_module.time, "monotonic", lambda: clock[0])
    claims = lambda lengths, serial: [Move(0, "claim", (s, p, serial)) for s, n in enumerate(lengths) for p in range(n)]
    b, played = builder(claims((3, 4), 5), {"claim": (("s", "p"),)})
    b.show(0, claims((3, 4), 5), {}, decision="seat 0")
    kind_button(b, "CLAIM").click()
    b.show(0, claims((3, 3), 6), {}, decision="seat 0")        # seat 1's position 3 left: new top
    clock[0] += moves_module.REACTION / 2
    assert b.pick_card(1, 3) and played == [Move(0, "claim", (1, 3, 5))]
    # the same, clicked after a person could have seen the change: the new offer
    kind_button(b, "CLAIM").click()
    b.show(0, claims((3, 2), 7), {}, decision="seat 0")
    clock[0] += moves_module.REACTION * 2
    assert not b.pick_card(1, 2) and b.pick_card(1, 1) and played[-1] == Move(0, "claim", (1, 1, 7))
    # a click within the window on a card the old offer never had is judged on the new one
    kind_button(b, "CLAIM").click()
    b.show(0, claims((3, 3), 8), {}, decision="seat 0")
    assert b.pick_card(1, 2) and played[-1] == Move(0, "claim", (1, 2, 8))


# --- the app ------------------------------------------------------------------------
def test_click_plays_move_and_bots_answer():
    app = toy_app({1: "random", 2: "random"})
    assert app.control == 0 and app.viewer == 0 and not app.privacy.shown
    kind_button(app.moves, "pass").click()
    assert app.match.moves[0] == Move(0, "pass")
    assert len(app.match.moves) > 1          # the bots played their turns
    assert app.match.to_act() == (0,) or app.match.outcome() is not None
    assert "Seat 1 passes." in app.log.html.value        # seat 0's log line, counted from 1


def test_card_click_fills_target():
    app = toy_app({1: "random", 2: "random"})
    kind_button(app.moves, "poke").click()
    assert {(1, None), (2, None)} <= app.moves.clickable_cards()
    assert "pt-clickable" in app.board.rows[2].cards[0]._dom_classes
    app.board.rows[2].cards[0].click()
    assert app.match.moves[0] == Move(0, "poke", (2,))


def test_error_banner_shows_illegal_move_and_game_goes_on():
    app = toy_app({1: "random", 2: "random"})
    app.moves.on_move(Move(0, "choose", (2,)))      # not offered now
    assert "Illegal move '0 choose 2'" in app.banner.message and "Legal moves for seat 0" in app.banner.message
    assert app.banner.widget.layout.display != "none" and app.match.moves == []
    kind_button(app.moves, "pass").click()
    assert app.banner.message == "" and app.match.moves[0] == Move(0, "pass")


def test_handler_exceptions_reach_the_banner():
    app = toy_app({1: "random", 2: "random"})
    app.new_game.seed.value = "abc"
    app.new_game.start.click()
    assert "seed must be a whole number" in app.banner.message
    app.timeline.on_goto(10**6)
    assert "not in the record" in app.banner.message


def test_timeline_rewind_branch_and_back_to_live():
    app = toy_app({1: "random", 2: "random"})
    for _ in range(3):
        step(app)
    total = len(app.match.moves)
    app.timeline.back.click()
    assert app.match.cursor == total - 1 and app.timeline.rewound
    assert all(b.disabled for b in app.moves.kind_box.children)
    assert app.timeline.live.layout.display is None and "Rewound" in app.timeline.label.value
    app.moves.on_move(Move(0, "pass"))
    assert "rewound" in app.banner.message and len(app.match.moves) == total
    app.timeline.slider.value = 1
    assert app.match.cursor == 1
    app.timeline.live.click()
    assert app.match.cursor == total and app.match.at_end
    app.timeline.first.click()
    app.timeline.forward.click()
    app.timeline.branch.click()                   # asks first: nothing dropped yet
    assert app.timeline.confirm_box.layout.display == "flex" and len(app.match.moves) == total
    assert f"drops the {total - 1} later moves" in app.timeline.question.value
    app.timeline.cancel.click()
    assert len(app.match.moves) == total
    app.timeline.branch.click()
    app.timeline.confirm.click()
    assert len(app.match.moves) >= 1 and app.match.moves[0] == Move(0, "pass") and app.match.at_end
    assert not app.timeline.rewound


def test_new_game_panel_builds_inputs_from_options():
    from playtest.games.lazy_sunday import LazySunday
    started = []
    panel = NewGamePanel(LazySunday, lambda *a: started.append(a), seats=4,
                         players={1: "heuristic", 2: "random", 3: "heuristic"})
    assert set(panel.inputs) == set(LazySunday.Options.model_fields)
    for name, field in LazySunday.Options.model_fields.items():
        assert panel.inputs[name].tooltip == field.description
    assert panel.inputs["match_to"].description == "Match to" and panel.inputs["rounds"].description == "Rounds"
    assert isinstance(panel.inputs["great_escape"], w.Checkbox)
    assert panel.inputs["match_to"].options == ("100", "none") and panel.inputs["match_to"].value == "none"
    assert len(panel.player_box.children) == 4
    panel.seats.value = 2
    assert len(panel.player_box.children) == 2
    panel.inputs["rounds"].value = "3"
    panel.inputs["match_to"].value = "100"
    panel.inputs["first_player"].value = "random"
    panel.seed.value = "42"
    panel.start.click()
    assert started == [(2, {0: "human", 1: "heuristic"},
                        {"first_player": "random", "max_turns": 1000, "rounds": 3, "match_to": 100,
                         "great_escape": False, "card_variant": None}, 42)]


def test_new_game_from_panel_and_bad_option():
    app = toy_app({1: "random", 2: "random"})
    app.new_game.seats.value = 2
    app.new_game.players[1].value = "human"
    app.new_game.inputs["max_turns"].value = "50"
    app.new_game.start.click()
    assert app.match.game.seats == 2 and app.humans == [0, 1] and app.match.game.options.max_turns == 50
    old = app.match
    app.new_game.inputs["max_turns"].value = "0"
    app.new_game.start.click()
    assert "max_turns: must be 1 or more (got 0)" in app.banner.message and app.match is old


def test_the_first_player_is_picked_among_the_seats_counted_from_1_and_follows_the_seat_count():
    from playtest.games.lazy_sunday import LazySunday
    started = []
    panel = NewGamePanel(LazySunday, lambda *config: started.append(config))
    first = panel.inputs["first_player"]
    assert isinstance(first, w.Dropdown) and first.description == "First player"
    assert first.options == (("Seat 1", 0), ("Seat 2", 1), ("Seat 3", 2), ("Seat 4", 3), ("Random", "random"))
    assert first.value == 0 and first.label == "Seat 1"                       # G-2's default
    first.value = 1
    panel.seats.value = 2                                                    # seat 2 is still there
    assert first.options == (("Seat 1", 0), ("Seat 2", 1), ("Random", "random")) and first.value == 1
    panel.seats.value = 4
    first.value = 3
    panel.seats.value = 3                                                    # seat 4 is gone: seat 1
    assert first.value == 0 and [label for label, _ in first.options][-1] == "Random"
    assert "A 3-seat table has no seat 4: Seat 1 starts." in panel.first_player_line.value   # said, not silent
    panel.seats.value = 4                                  # the warning was for that change only
    assert "pt-warn" not in panel.first_player_line.value
    panel.seats.value = 3
    first.value = 2                                                          # a new choice: the warning goes
    assert "pt-warn" not in panel.first_player_line.value and "G-2" in panel.first_player_line.value
    panel.start.click()
    assert started[-1][0] == 3 and started[-1][2]["first_player"] == 2
    panel.set_options({"first_player": "random"})
    assert first.value == "random"
    panel.set_options({})
    assert first.value == 0


@pytest.mark.parametrize("typed", ["1e9", "5.5", "0x10", "٣", "", "1" * 41])
def test_a_number_typed_in_new_game_is_taken_whole_or_refused_never_cut(typed):
    # a browser number box would read "1e9" as 1 and start a one-turn game without a word
    app = toy_app({1: "random"})
    old = app.match
    box = app.new_game.inputs["max_turns"]
    box.value = typed
    assert box.value == typed                                  # kept as typed: the message matches the screen
    row_help = next(c for row in app.new_game.widget.children if isinstance(row, w.HBox) and box in row.children
                    for c in row.children if c is not box)
    said = ("Max turns is empty: type a whole number, 1 to 10000" if not typed else
            f"Max turns: {reprlib.repr(typed)} is not a whole number: use 1 to 10000, in the digits 0-9")
    assert said in html.unescape(row_help.value)               # said at once, beside the box
    app.new_game.start.click()
    assert app.match is old and said in app.banner.message     # no game started
    box.value = " 12 "
    assert "⚠" not in row_help.value
    app.new_game.start.click()
    assert app.match is not old and app.match.game.options.max_turns == 12


def test_privacy_screen_between_two_human_seats():
    app = toy_app({2: "random"}, seed=1)
    assert app.privacy.shown and app.viewer is None       # who holds the device first?
    assert "Secret" not in json.dumps([x.get_state() for x in app.board.rows[0].cards], default=str)
    app.privacy.button.click()
    assert not app.privacy.shown and app.viewer == 0
    assert app.board.rows[0].cards[0].description.startswith("Secret")
    kind_button(app.moves, "pass").click()                 # seat 1 (human) is next
    assert app.control == 1 and app.privacy.shown and app.viewer is None
    assert "I am seat 2" in app.privacy.button.description        # seat 1, counted from 1
    states = json.dumps([x.get_state() for x in _instances.values()], default=str)
    assert "Secret" not in states                           # no seat's secret anywhere
    assert app.moves.kind_box.children == ()
    app.privacy.button.click()
    assert app.viewer == 1 and app.board.rows[1].cards[0].description.startswith("Secret")
    assert app.board.rows[0].cards[0].description == BLANK


def test_open_move_panel_lets_any_human_seat_move():
    app = toy_app({2: "random"}, seed=1)
    app.privacy.button.click()
    assert [v for _, v in app.claimer.options] == [0, 1]
    app.claimer.value = 1
    kind_button(app.open_moves, "slap").click()
    assert app.match.moves[-1] == Move(1, "slap")


def test_record_save_warns_and_load_rejects_corrupt_file():
    app = toy_app({1: "random", 2: "random"})
    app.records.save.click()
    assert "Warning" in app.records.note.value and app.records.link.value == ""
    app.records.anyway.click()
    assert "data:application/json;base64," in app.records.link.value
    step(app)
    assert app.records.link.value == ""                     # gone at the next move
    old, moves = app.match, list(app.match.moves)
    with pytest.raises(RecordError):
        app.load("{not json")
    app.records.upload.value = ({"name": "r.json", "type": "application/json", "size": 3,
                                 "content": memoryview(b"[1]"),
                                 "last_modified": datetime.datetime.now(datetime.timezone.utc)},)
    assert "not a playtest record" in app.banner.message
    assert app.match is old and app.match.moves == moves
    other = Match("toy", 3, seed=9)
    other.play("0 pass")
    app.load(other.to_json())
    assert app.match.seed == 9 and app.match.moves[0] == Move(0, "pass")


def test_stale_double_clicks_do_nothing():
    app = toy_app({1: "random", 2: "random"}, seed=6)    # seat 0 passes on two turns running
    stale = kind_button(app.moves, "pass")
    stale.click()
    played = list(app.match.moves)
    assert "pass" in [b.description for b in app.moves.kind_box.children]   # offered again, new decision
    stale.click()                       # the second half of a double click: ignored
    assert app.match.moves == played and app.banner.message == ""
    assert kind_button(app.moves, "pass") is not stale
    kind_button(app.moves, "pass").click()
    assert len(app.match.moves) > len(played)


def test_widgets_are_updated_in_place():
    app = toy_app({1: "random", 2: "random"})
    for _ in range(3):
        step(app)
    before, cards = len(_instances), [r.cards[0] for r in app.board.rows[:3]]
    for _ in range(12):
        if app.match.outcome() is None:
            step(app)
    # only first-seen move kinds add a button (3 widgets each: button, layout, style)
    assert len(_instances) - before <= 3 * 7
    assert [r.cards[0] for r in app.board.rows[:3]] == cards


@pytest.fixture(autouse=True)
def _close_widgets():
    yield
    w.Widget.close_all()


def test_timeline_component_alone():
    calls = []
    t = Timeline(calls.append, lambda: calls.append("branch"))
    t.show(5, 5)
    assert t.live.layout.display == "none" and t.forward.disabled
    t.show(2, 5)
    t.forward.click()
    t.back.click()
    t.first.click()
    assert calls == [3, 1, 0]


def test_card_row_blanks_pooled_cards_it_no_longer_shows():
    """A row that shrinks must not keep a card's name in the synced state of the pooled
    card widgets it hides (a hand that shrinks in hotseat would leak otherwise)."""
    from playtest.widgets import CardRow
    row = CardRow()
    row.show("hand", [{"face_up": True, "title": "Secret Card", "corner": "3"}] * 3)
    row.show("hand", [{"face_up": True, "title": "Other", "corner": "1"}])
    hidden = row.cards[1:]
    assert len(hidden) == 2 and all("Secret" not in str(card.get_state()) for card in hidden)


# --- new-user test fixes ------------------------------------------------------------
def test_load_refuses_another_games_record_and_keeps_the_game():
    app = GameApp("lazy_sunday", seed=3)
    kind_button(app.moves, "Peek at 2 of my cards").click()
    app.board.rows[0].cards[0].click()
    app.board.rows[0].cards[1].click()
    old, moves, fp = app.match, list(app.match.moves), app.match.fingerprint()
    other = Match("chore_race", 3, seed=4)
    with pytest.raises(RecordError, match=r"this is a Chore Race record.*open it on the Chore Race page \(game.ipynb\?game=chore_race\)") as err:
        app.load(other.to_json())
    assert "Lazy Sunday" in str(err.value)
    assert app.match is old and app.match.moves == moves and app.match.fingerprint() == fp
    # through the upload button: the banner says it and the game plays on
    app.records.upload.value = ({"name": "cr.json", "type": "application/json", "size": 3,
                                 "content": memoryview(other.to_json().encode()),
                                 "last_modified": datetime.datetime.now(datetime.timezone.utc)},)
    assert "Chore Race record" in app.banner.message and app.match is old
    assert "Not loaded:" in app.records.note.value and "Chore Race record" in app.records.note.value   # beside the button
    assert [b.description for b in app.moves.kind_box.children] == ["Done looking"]
    kind_button(app.moves, "Done looking").click()
    assert len(app.match.moves) > len(moves)


def test_a_new_game_that_fails_to_draw_leaves_the_running_game_untouched():
    app = toy_app({1: "random", 2: "random"})
    step(app)
    old, moves, players = app.match, list(app.match.moves), dict(app.players)
    update = app.board.update

    def broken(view, clickable):
        if len(view["points"]) == 2:
            raise KeyError("looking")
        update(view, clickable)
    app.board.update = broken
    with pytest.raises(KeyError):
        app.start(2, {1: "random"})
    assert app.match is old and app.match.moves == moves and app.players == players
    assert app.board.rows[2].label.value.startswith("Seat 3")      # the old 3-seat table is on screen
    step(app)
    assert len(app.match.moves) > len(moves)


def test_a_deliberate_click_right_after_the_buttons_change_is_played():
    """No time window: the new decision's button plays at once, however soon it is
    clicked; only a click on the earlier decision's button (a double click's second
    half that reached it) is dropped. The page's guard handles the second half that
    lands on the new button (tests/test_browser_tutorial.py)."""
    app = toy_app({1: "random", 2: "random"}, seed=6)    # seat 0 passes on two turns running
    first = kind_button(app.moves, "pass")
    first.click()
    played = list(app.match.moves)
    first.click()                                        # the old decision's button
    assert app.match.moves == played and app.moves.ignored == 1
    kind_button(app.moves, "pass").click()               # at once: a deliberate click
    assert len(app.match.moves) > len(played) and app.banner.message == ""


def test_every_app_page_carries_the_click_guard():
    from playtest.widgets.clickguard import ClickGuard
    app = toy_app({1: "random", 2: "random"})
    style = app.widget.children[0]
    assert any(isinstance(c, ClickGuard) for c in style.children)
    assert "pt-guarded" in app.moves.widget._dom_classes and "pt-guarded" in app.board.widget._dom_classes
    assert "pt-guarded" in app.privacy.widget._dom_classes     # a burst never confirms the next seat
    # a later click of a burst on another button is dropped, and the burst stays with the
    # button it began on (a dropped click is not "the last click")
    assert "event.detail > 1" in ClickGuard._esm and "last === button" in ClickGuard._esm


def test_new_seats_default_to_the_heuristic_bot_and_seat_0_to_human():
    from playtest.games.lazy_sunday import LazySunday
    panel = NewGamePanel(LazySunday, lambda *a: None, seats=4,
                         players={0: "human", 1: "heuristic", 2: "random", 3: "heuristic"})
    panel.seats.value = 7
    assert panel.config()[1] == {0: "human", 1: "heuristic", 2: "random", 3: "heuristic",
                                 4: "heuristic", 5: "heuristic", 6: "heuristic"}
    toy = NewGamePanel(get_toy(), lambda *a: None, seats=2)
    toy.seats.value = 4                           # the toy game has only the random bot
    assert toy.config()[1] == {0: "human", 1: "human", 2: "random", 3: "random"}


def get_toy():
    from playtest.engine import get_game
    return get_game("toy")


def test_claimer_follows_the_confirmed_seat():
    app = toy_app({2: "random"}, seed=1)
    app.privacy.button.click()                    # "I am seat 0"
    assert app.viewer == 0 and app.claimer.value == 0
    kind_button(app.moves, "pass").click()
    assert app.control == 1 and app.privacy.shown
    app.privacy.button.click()                    # "I am seat 1"
    assert app.viewer == 1 and app.claimer.value == 1
    kind_button(app.open_moves, "slap").click()
    assert app.match.moves[-1] == Move(1, "slap")
    app.claimer.value = 0                         # a hand-picked claimer is kept while seat 1 plays
    app.refresh()
    assert app.claimer.value == 0


def test_error_banner_keeps_its_button_whole_and_the_link_looks_like_a_button():
    from playtest.widgets.style import STYLE
    app = toy_app({1: "random", 2: "random"})
    app.banner.show("x " * 400)
    assert app.banner.dismiss.layout.flex == "0 0 auto" and app.banner.dismiss.layout.min_width == "60px"
    assert app.banner.text.layout.flex == "1 1 auto"
    app.records.save.click()
    app.records.anyway.click()
    assert "class='pt-download'" in app.records.link.value and "Download" in app.records.link.value
    assert "a.pt-download" in STYLE and "background" in STYLE.split("a.pt-download", 1)[1].split("}")[0]


def test_no_style_animates_without_end():
    # an endless animation repaints an idle page for as long as it is open (a lit tutorial
    # card cost ~0.2 of a core per learn page); the tutorial's glow pulses a few times
    import re
    from playtest.widgets.live.style import STYLE as LIVE_STYLE
    from playtest.widgets.style import STYLE
    for css in (STYLE, LIVE_STYLE):
        assert "infinite" not in css
        for count in re.findall(r"animation:[^;}]*?\b(\d+) alternate", css):
            assert 1 <= int(count) <= 10
    assert re.search(r"\.pt-card\.pt-lit \{[^}]*animation: pt-glow [^;]* 6 alternate", STYLE)


@pytest.mark.parametrize("game", ["lazy_sunday", "chore_race", "night_shift"])
def test_how_to_play_panel_is_there_and_closed(game):
    app = GameApp(game, seed=1)
    assert app.rules.selected_index is None and app.rules.layout.display != "none"
    text = app.rules.children[0].value
    assert app.rules.get_title(0) == "How to play" and len(text) > 500
    ids = {"lazy_sunday": ["LS-2", "LS-3", "LS-4", "LS-5", "LS-7", "LS-9", "LS-11", "Knock It Out", "Landlord's Notice",
                           "I'm Busy", "Switcheroo", "Not My Job", "Nosy Neighbour", "Double Check", "Let's Trade",
                           "scores 0", "50"],
           "chore_race": ["CR-4", "CR-7", "CR-17", "Excuse"], "night_shift": ["NS-2", "NS-7", "NS-10"]}[game]
    for needle in ids:
        assert needle in text, needle
    assert "<b>Rulings</b>" in text and f"<li><b>{ids[0]}</b>: " in text     # the game's rulings close it
    toy = toy_app({1: "random", 2: "random"}).rules                         # a board without rules text:
    assert toy.layout.display != "none" and "<li><b>G-1</b>: " in toy.children[0].value   # the rulings alone


def test_game_page_intros_hold_for_any_seat_count():
    from playtest.engine import games
    from playtest.widgets.gamepage import header_html
    for game in games().values():
        intro = header_html(game, rules=True)
        assert not any(w in intro for w in ("three bots", "two bots", "against 3", "against 2")), game.name
        # neutral about hotseat: the seats with bots are only the default
        assert f"By default you are seat 1 of {game.SEATS or game.min_seats}, " in intro and "hotseat" in intro, game.name
        assert "seat 0" not in intro and "How to play" in intro, game.name
    assert "How to play" not in header_html(game, rules=False)      # a board without rules: not promised


# --- autosave -----------------------------------------------------------------------
def autosave_files():
    """The toy game's autosave files, newest first."""
    from playtest.widgets.autosave import saved_paths
    return saved_paths("toy")


def test_autosave_after_every_move_then_resume_restores_match_and_seats():
    import os
    # a fixed, long seed: the run is the same every time, and its digits cannot turn up in
    # the widget states by chance
    app = toy_app({1: "random", 2: "random"}, seed=1_618_033_988)
    assert autosave_files() == [] and app.resume_box.layout.display == "none"
    step(app)
    step(app)
    [path] = autosave_files()
    assert str(path).startswith(os.environ["PLAYTEST_AUTOSAVE_DIR"]) and path == app.autosave_path
    data = json.loads(path.read_text())
    assert data["format"] == "playtest.autosave" and data["players"] == {"1": "random", "2": "random"}
    assert data["record"]["moves"] == [str(m) for m in app.match.moves]
    seed, moves, fp = app.match.seed, list(app.match.moves), app.match.fingerprint()
    states = json.dumps([x.get_state() for x in _instances.values()], default=str)
    assert str(path) not in states and f'"seed": {seed}' not in states and str(seed) not in states
    w.Widget.close_all()
    # "reload the page": a new app of the same game, with another first game
    again = GameApp("toy", ToyBoard, 2, {}, seed=77)
    assert again.resume_box.layout.display == "flex" and again.match.seed == 77
    label = again.resume_button.description
    assert label.startswith("Resume your unfinished game (3 seats: seat 1 human, seats 2–3 random bot; "
                            f"{len(moves)} moves, saved at ")
    again.resume_button.click()
    # the saved line comes back exactly; the bots may go on at once (an open move is theirs
    # to make at any moment), so compare the saved part
    assert again.match.seed == seed and again.match.moves[:len(moves)] == moves
    assert again.match.branch(len(moves)).fingerprint() == fp
    assert again.players == {1: "random", 2: "random"} and again.humans == [0]
    assert again.seed_chosen and again.resume_box.layout.display == "none"   # as saved: the seed was given
    assert again.new_game.config()[:2] == (3, {0: "human", 1: "random", 2: "random"})
    step(again)
    # it plays on in a file of its own (the old name is free for a tab still playing it)
    assert autosave_files() == [again.autosave_path] and again.autosave_path != path and not path.exists()


def test_a_browser_is_offered_only_its_own_games_and_two_tabs_never_overwrite_each_other():
    from playtest.widgets.autosave import saved_paths
    ann, bob = "a" * 24, "B-_" * 8                  # two browsers' names (playtest serve's cookie)
    first = GameApp("toy", ToyBoard, 3, {1: "random", 2: "random"}, browser=ann)
    step(first)
    step(first)
    assert saved_paths("toy", ann) == [first.autosave_path] and autosave_files() == []
    other = GameApp("toy", ToyBoard, 3, {1: "random", 2: "random"}, browser=bob)
    assert other.saved is None and other.resume_box.layout.display == "none"    # not Ann's game
    nameless = GameApp("toy", ToyBoard, 3, {1: "random", 2: "random"}, browser="")
    assert nameless.saved is None                                              # nor a page without a name
    tab = GameApp("toy", ToyBoard, 3, {1: "random", 2: "random"}, browser=ann)
    assert "from this browser" in tab.resume_note.value
    tab.resume_button.click()                       # Ann's second tab takes the game over...
    step(tab)
    step(first)                                     # ...while the first tab plays on: both lines kept
    lines = sorted(json.loads(p.read_text())["record"]["moves"] for p in saved_paths("toy", ann))
    assert lines == sorted([list(map(str, first.match.moves)), list(map(str, tab.match.moves))])
    assert first.autosave_path.exists() and tab.autosave_path.exists() and first.autosave_path != tab.autosave_path
    with pytest.raises(ValueError, match="is not a browser name"):
        GameApp("toy", ToyBoard, 3, {}, browser="../../etc")


def test_two_games_on_one_server_keep_separate_autosaves():
    """Two people playing at once (two pages) never overwrite each other's save; a new
    page offers the newest unfinished game and says older ones are kept."""
    first, second = toy_app({1: "random", 2: "random"}), toy_app({1: "random", 2: "random"})
    step(first)
    step(second)
    files = autosave_files()
    assert len(files) == 2 and {first.autosave_path, second.autosave_path} == set(files)
    third = toy_app({1: "random", 2: "random"})
    newest = third._saved_path
    assert third.saved is not None and "Unfinished games were saved" in third.resume_note.value
    assert third.saved_choice.layout.display is None and len(third.saved_choice.options) == 2
    assert third.saved_choice.options[0][0].endswith("(newest)")
    third.saved_choice.value = 1                    # an older game is chosen and resumed, not only the newest
    older = third._saved_path
    owner = first if older == first.autosave_path else second
    assert older != newest and owner.autosave_path == older
    third.resume_button.click()
    assert third.match.moves == owner.match.moves and third.saved is None
    fourth = toy_app({1: "random", 2: "random"})
    assert len(fourth.saved_choice.options) == 2
    fourth.discard_button.click()                   # the newest on offer goes; the other stays on offer
    assert fourth.saved is not None and "An unfinished game was saved" in fourth.resume_note.value
    assert fourth.saved_choice.layout.display == "none"
    step(fourth)                                    # playing on hides the offer
    assert fourth.saved is None and fourth.resume_box.layout.display == "none"
    fourth._offer_saved()                           # offered again: never its own game
    assert fourth.autosave_path.exists() and [path for path, _ in fourth._offered] == [third.autosave_path]


def test_autosave_discard_finish_and_corrupt_file():
    app = toy_app({1: "random", 2: "random"})
    step(app)
    [path] = autosave_files()
    again = toy_app({1: "random", 2: "random"})
    again.discard_button.click()
    assert not path.exists() and again.resume_box.layout.display == "none"
    for _ in range(200):                          # a finished game deletes its save
        if again.match.outcome() is not None:
            break
        step(again)
        assert again.autosave_path.exists() == (again.match.outcome() is None)
    assert again.match.outcome() is not None and autosave_files() == []
    path.write_text('{"format": "playtest.autosave", "version": 1, "game": "toy", "rec')
    broken = toy_app({1: "random", 2: "random"})   # never a crash: a one-line notice
    assert broken.resume_box.layout.display == "flex" and "could not be read" in broken.resume_note.value
    assert broken.resume_button.layout.display == "none" and broken.banner.message == ""
    assert autosave_files() == [] and path.with_suffix(".corrupt").exists()   # set aside, kept
    step(broken)
    assert autosave_files() == [broken.autosave_path] and broken.resume_box.layout.display == "none"


def test_the_waiting_line_names_the_seats_a_page_waits_for():
    from playtest.widgets.moves import waiting_note
    name = lambda seat: f"Seat {seat + 1}" + (" (Ana)" if seat == 1 else "")
    assert waiting_note([1], name) == "Waiting for Seat 2 (Ana)."
    assert waiting_note([0, 1, 3], name) == "Waiting for Seat 1, Seat 2 (Ana) and Seat 4."
    assert waiting_note([], name) == "Waiting for another seat."       # a round's reveal, say
