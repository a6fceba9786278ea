"""The Chore Race app, driven from Python (clicks via ``button.click()``), and the
kernel-side security test: no hidden card (another seat's hand, a Family Meeting choice
before all committed, deck order) reaches any widget's synced state (CR-8, CR-21).

Every action card name is in the view's ``keys`` table and in public texts, so a plain
"which names appear" check would prove nothing. The leak check is therefore two-fold:

* count-aware on cards: the face-up action cards among *all* live Card widgets (shown or
  pooled) are, name by name and copy by copy, at most the viewer's hand, the revealed
  hands, the viewer's own Family Meeting choice and the discard pile's top card;
* by name on text: every action card name in the synced state of every live widget
  (the new-game panel's static option help left out) is named by the viewer's view
  (``keys`` left out), log, or the printed text of a card the view shows.
"""
from __future__ import annotations

import html
import json
import random
import re
from collections import Counter

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances

from widget_support import answer_builder, check_due, fresh_widgets, random_seating  # noqa: F401 (fixture)

from playtest import Match, Move
from playtest.games.chore_race import CARDS
from playtest.games.chore_race.widget import CARD_TEXT
from playtest.widgets import Card, GameApp
from playtest.widgets.components import BLANK

ACTIONS = [a.name for a in CARDS.action]
NAME = re.compile(r"(?<![\w'])(" + "|".join(re.escape(n) for n in ACTIONS) + r")(?![\w'])")


def names_in(text: str) -> set[str]:
    return set(NAME.findall(text))


def subtree(widget) -> set[str]:
    """Model ids of a widget and everything under it."""
    ids, stack = set(), [widget]
    while stack:
        x = stack.pop()
        ids.add(x.model_id)
        stack += [c for c in getattr(x, "children", ()) if isinstance(c, w.Widget)]
    return ids


def entitled_text(app) -> str:
    """What the shown seat may read: its view (minus the static ``keys`` table), its log,
    and the printed text of every card its view names."""
    view = dict(app.match.view(app.viewer))
    view.pop("keys")
    text = json.dumps(view) + "\n".join(t for _, t in app.match.log_for(app.viewer))
    return text + " ".join(t for name, t in CARD_TEXT.items() if json.dumps(name) in text)


def entitled_cards(view) -> Counter:
    """The action cards the board may show face-up for this view."""
    cards = Counter(view["hand"] or ())
    for r in view["revealed"]:
        cards.update(r["hand"] if r["seat"] != view["viewer"] else ())
    cards.update((view["meeting"] or {}).get("mine") or ())
    cards.update(view["action_discard"][-1:])
    return cards


def face_up_actions() -> Counter:
    return Counter(c.description.split("\n")[0] for c in list(_instances.values())
                   if isinstance(c, Card) and "pt-face" in c._dom_classes
                   and c.description.split("\n")[0] in ACTIONS)


def assert_no_leak(app) -> None:
    """See the module docstring; also: face-down cards carry nothing, hidden move
    buttons say nothing, and behind the privacy screen no hand is face-up."""
    viewer = app.viewer
    assert viewer is None or viewer == app.control
    view = app.match.view(viewer)
    extra = face_up_actions() - entitled_cards(view)
    assert not extra, f"face-up cards beyond seat {viewer}'s view: {extra}"
    skip = subtree(app.new_game.widget) | subtree(app.rules)       # option names; the public rules text
    synced = json.dumps([x.get_state() for x in list(_instances.values())
                         if x.model_id not in skip and not isinstance(x, (w.Layout, w.Style))], default=str)
    leaked = names_in(synced) - names_in(entitled_text(app))
    assert not leaked, f"names leaked to seat {viewer}: {leaked}"
    for card in (x for x in list(_instances.values()) if isinstance(x, Card) and "pt-face" not in x._dom_classes):
        assert card.description == BLANK and card.tooltip == ""
        assert set(card._dom_classes) <= {"pt-card", "pt-back", "pt-empty", "pt-clickable"}
    for pool in app.moves._pools:
        assert all(not b.description for b in pool.values() if b not in app.moves.kind_box.children)
    if app.privacy.shown:
        assert viewer is None and not app.moves.kind_box.children
        revealed = {r["seat"] for r in view["revealed"]}
        for seat, panel in enumerate(app.board.seats[:view["seats"]]):
            if seat not in revealed:
                assert all("pt-back" in c._dom_classes for c in panel.hand.box.children)
    if app.match.outcome() is None and app.match.seed >= 10**6:
        assert str(app.match.seed) not in synced


# --- driving the app like a person -------------------------------------------------
def labels(app) -> list[str]:
    return [b.description for b in app.moves.kind_box.children]


def click_kind(app, label: str) -> None:
    next(b for b in app.moves.kind_box.children if b.description == label).click()


def unlock(app) -> None:
    assert app.privacy.shown
    app.privacy.button.click()
    assert not app.privacy.shown


def chore(app, seat, pos) -> Card:
    return app.board.seats[seat].tableau.box.children[pos]


def hand(app, seat) -> list[Card]:
    return list(app.board.seats[seat].hand.box.children)


def clickable_cards(app) -> list[Card]:
    return [c for p in app.board.seats for row in (p.tableau, p.hand) for c in row.box.children
            if "pt-clickable" in c._dom_classes]


def random_step(app, rng: random.Random, mischief: bool = True) -> None:
    """One thing a person might do, at random, through the widgets only (``mischief``:
    also rewind and come back, and send an illegal move)."""
    if app.privacy.shown:
        app.privacy.button.click()
        return
    roll = rng.random()
    if mischief and roll < 0.03 and app.match.moves:
        app.timeline.back.click()
        assert_no_leak(app)
        app.timeline.live.click()
        return
    if mischief and roll < 0.05 and app.viewer is not None:
        before, count = app.match.fingerprint(), len(app.match.moves)
        app.moves.on_move(Move(app.viewer, "inspection", (app.viewer, 9)))
        assert "Illegal move" in app.banner.message
        assert app.match.fingerprint() == before and len(app.match.moves) == count
        return
    if roll < 0.25 and clickable_cards(app):
        rng.choice(clickable_cards(app)).click()
    elif app.moves.kind_box.children:
        rng.choice(app.moves.kind_box.children).click()
    else:
        return
    for _ in range(10):
        builder = app.moves
        if builder.kind is None:
            return
        cards = clickable_cards(app)
        if cards and rng.random() < 0.7:
            rng.choice(cards).click()
            continue
        answer_builder(builder, rng)


@pytest.mark.parametrize("game", range(8))
def test_no_hidden_card_reaches_any_widget(game):
    rng = random.Random(game)
    seats, humans, players = random_seating(rng, 2, 5)
    app = GameApp("chore_race", seats=seats, players=players, options={"target_vp": rng.choice([8, 10])}, seed=rng.randrange(10**8, 2**31))
    assert_no_leak(app)
    switches = 0
    for step in range(500):
        if app.match.outcome() is not None:
            break
        control = app.control
        random_step(app, rng)
        if check_due(app, step):
            assert_no_leak(app)
        switches += app.control != control and app.privacy.shown
    assert app.match.moves, "nothing was played"
    assert len(humans) == 1 or switches, "control never passed between humans"


def test_defaults_three_seats_one_human_two_heuristic_bots():
    app = GameApp("chore_race")
    assert app.match.game.seats == 3 and app.humans == [0]
    assert app.players == {1: "heuristic", 2: "heuristic"}
    assert [d.value for d in app.new_game.players[:3]] == ["human", "heuristic", "heuristic"]
    assert app.new_game.seed.value == ""
    assert "Turn" in app.board.status.value and "progress free" in app.board.status.value
    assert len(app.board.seats) == 3 and all(len(p.tableau.box.children) == 3 for p in app.board.seats)
    assert_no_leak(app)


def test_presets_fill_the_new_game_panel():
    app = GameApp("chore_race", seats=2, seed=1)
    app.presets.value = "Quick Game"
    assert app.new_game.inputs["target_vp"].value == "10"
    app.new_game.start.click()
    assert app.match.game.options.target_vp == 10 and app.banner.message == ""
    app.presets.value = "2-Player Variant"
    assert app.new_game.inputs["target_vp"].value == "15" and app.new_game.inputs["tableau_size"].value == "4"
    app.new_game.start.click()
    assert all(len(t) == 4 for t in app.match.view(0)["tableaus"])
    assert "first to <b>15 VP</b>" in app.board.status.value
    app = GameApp("chore_race", seats=2, preset="Quick Game", seed=1)
    assert app.match.game.options.target_vp == 10 and app.presets.value == "Quick Game"


def test_action_deck_option_presets_and_mappings_start_games():
    """CR-1: the "74" preset stays a preset (not the int 74), a mapping may be typed as
    JSON, a Python literal or name=count pairs, and a bad value shows the OptionError."""
    app = GameApp("chore_race", seats=2, seed=1)
    box = app.new_game.inputs["action_deck"]
    app.presets.value = "74-card action deck"
    assert box.value == "74" and app.presets.value == "74-card action deck"
    app.new_game.start.click()
    assert app.banner.message == "" and app.match.game.options.action_deck == "74"
    assert len(app.match.game.akey) == 74 and app.presets.value == "74-card action deck"
    for text in ('{"Done": 40}', "{'Done': 40}", "Done=40", " Done = 40 , Excuse=2 "):
        box.value = text
        assert app.presets.value is None
        app.new_game.start.click()
        assert app.banner.message == "", text
        assert app.match.game.akey.count("done") == 40
    assert app.match.game.options.action_deck == {"Done": 40, "Excuse": 2}
    app.presets.value = "Quick Game"
    assert box.value == "none"
    app.presets.set_options({"action_deck": {"Done": 40}})
    assert json.loads(box.value) == {"Done": 40}
    before, fingerprint = app.match, app.match.fingerprint()
    for text in ("Bogus=3", "Done=many", "75"):
        box.value = text
        app.new_game.start.click()
        assert "CR-1" in app.banner.message, text
        assert app.match is before and app.match.fingerprint() == fingerprint


def test_play_done_on_a_chore_by_clicking():
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "heuristic"}, seed=2)
    done = next(c for c in hand(app, 0) if c.description.startswith("Done"))
    assert "pt-clickable" in done._dom_classes
    done.click()                                   # the card starts "Play Done"; nothing played yet
    assert app.moves.kind == "done" and not app.match.moves
    assert all("pt-clickable" in chore(app, 0, p)._dom_classes for p in range(3))
    assert "pt-clickable" not in chore(app, 1, 0)._dom_classes
    chore(app, 0, 1).click()
    assert app.match.moves == [Move(0, "done", (1,))]
    assert chore(app, 0, 1).description.split("\n")[1].startswith("1/")
    assert "progress used" in app.board.status.value and "action free" in app.board.status.value
    assert "Play Done" not in labels(app)
    chore(app, 0, 1).click()                       # a second click does nothing
    assert len(app.match.moves) == 1 and app.banner.message == ""


def test_inspection_answered_by_excuse_from_human_target_in_hotseat():
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "human"}, seed=2)     # seat 1 holds an Excuse (seed chosen so)
    unlock(app)
    click_kind(app, "End play step")
    unlock(app)
    assert app.viewer == 1
    click_kind(app, "Play Done")
    chore(app, 1, 0).click()
    click_kind(app, "End play step")
    unlock(app)
    assert app.viewer == 0
    click_kind(app, "Play Inspection")      # one chore with progress: the only target (CR-13)
    assert app.match.moves[-1] == Move(0, "inspection", (1, 0))
    # the target must answer: the privacy screen goes up, nobody's hand is on screen
    assert app.match.to_act() == (1,) and app.privacy.shown and app.control == 1
    assert all("pt-back" in c._dom_classes for s in (0, 1) for c in hand(app, s))
    assert_no_leak(app)
    unlock(app)
    assert "plays Inspection against you" in app.board.prompt.value and "under Your move" in app.board.prompt.value
    assert "Let it happen and that chore loses 1 progress (CR-13)." in app.board.prompt.value  # what it costs
    assert "to answer: seat 2 <b>(you)</b>" in app.board.status.value        # on a phone the buttons are far below
    assert "pt-looking" in chore(app, 1, 0)._dom_classes
    assert set(labels(app)) >= {"Let the Inspection happen", "Excuse: cancel it"}
    click_kind(app, "Excuse: cancel it")
    assert app.match.moves[-1] == Move(1, "excuse")
    assert app.match.view(None)["tableaus"][1][0]["progress"] == 1
    assert any("Excuse" in t and "cancelled" in t for _, t in app.match.log_for(None))
    assert app.privacy.shown and app.control == 0
    assert_no_leak(app)
    unlock(app)
    assert app.board.discard.card.description.startswith(("Inspection", "Excuse"))


def test_family_meeting_with_two_humans():
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "human"}, seed=10)    # seat 0 holds a Family Meeting
    unlock(app)
    before = [list(app.match.view(s)["hand"]) for s in (0, 1)]
    click_kind(app, "Play Family Meeting")
    assert app.match.view(None)["phase"] == "meeting" and app.control == 0 and not app.privacy.shown
    assert "choose 3 cards to pass to seat 2" in app.board.prompt.value     # seat 1, counted from 1
    click_kind(app, "Pass 3 cards")
    cards = hand(app, 0)
    for pos in (0, 3, 1):                        # any order; the board sorts them
        cards[pos].click()
    assert len(app.match.moves) == 1
    assert sum("pt-looking" in c._dom_classes for c in hand(app, 0)) == 3
    mine = sorted(app.match.view(0)["hand"][p] for p in (0, 1, 3))
    app.moves.play_button.click()
    assert app.match.moves[-1].kind == "give"
    # seat 1 must choose now: screen up, seat 0's choice nowhere
    assert app.privacy.shown and app.control == 1
    assert app.match.view(1)["meeting"]["mine"] is None
    assert_no_leak(app)
    unlock(app)
    assert_no_leak(app)
    assert not app.board.seats[0].passing.box.children
    click_kind(app, "Pass 3 cards")
    for _ in range(3):                            # by the dropdowns this time
        dd = next(d for d in app.moves.arg_box.children if isinstance(d, w.Dropdown) and d.index is None)
        dd.value = dd.options[0][1]
    app.moves.play_button.click()
    assert app.match.view(None)["phase"] == "play" and app.banner.message == ""
    got = [t for _, t in app.match.log_for(1) if t.startswith("You receive")]
    assert got == [f"You receive {', '.join(mine)} from seat 0."]
    assert len(app.match.view(1)["hand"]) == len(before[1])
    assert app.privacy.shown and app.control == 0
    assert_no_leak(app)


def test_family_meeting_pass_shows_exactly_what_play_sends():
    """CR-8: the highlighted cards and the hint line name the cards the pass holds; Play
    is enabled only for a whole pass, and then sends exactly those cards."""
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "human"}, seed=10)
    unlock(app)
    click_kind(app, "Play Family Meeting")
    view = app.match.view(0)
    assert view["hand"] == ["Done", "Done", "Done", "Inspection", "I'll Do It Later"]   # every pass holds a Done

    def check():
        shown = [c.description.split("\n")[0] for c in hand(app, 0) if "pt-looking" in c._dom_classes]
        hint = html.unescape(re.sub("<[^>]+>", "", app.moves.hint.value))
        listed = re.search(r"pass: (.*?)(?: \(|;)", hint).group(1)
        assert sorted(listed.split(", ")) == sorted(shown)
        move = app.moves._complete()
        assert app.moves.play_button.disabled == (move is None)
        if move is not None:
            assert "You will pass" in hint and len(shown) == 3
            assert sorted(move.args) == sorted(view["keys"][n] for n in shown)
        else:
            assert len(shown) < 3 and "choose" in hint
        return shown

    hand(app, 0)[3].click()     # no move chosen yet: the card starts the pass, in any order
    assert app.moves.kind == "give" and check() == ["Inspection"]
    hand(app, 0)[4].click()
    assert sorted(check()) == sorted(["Inspection", "I'll Do It Later"])
    hand(app, 0)[0].click()
    assert sorted(check()) == sorted(["Done", "Inspection", "I'll Do It Later"])
    hand(app, 0)[1].click()                     # a fourth pick drops the oldest
    assert sorted(check()) == ["Done", "Done", "I'll Do It Later"]
    hand(app, 0)[4].click()                     # unpick
    assert check() == ["Done", "Done"]
    app.moves.select(None)
    click_kind(app, "Pass 3 cards")             # the dropdowns: the highlight follows them
    for _ in range(3):
        dd = next((d for d in app.moves.arg_box.children if isinstance(d, w.Dropdown) and d.index is None), None)
        if dd is None:
            break
        dd.value = dd.options[-1][1]
        check()
    shown = check()
    assert len(shown) == 3
    app.moves.play_button.click()
    assert app.match.moves[-1].kind == "give"
    assert sorted(app.match.view(0)["meeting"]["mine"]) == sorted(shown)


def score_choice_record() -> tuple[str, int]:
    """A 2-seat record ending where the seat on turn must order 2+ completions (CR-14)."""
    for seed in range(500):
        match, rng = Match("chore_race", 2, seed=seed), random.Random(seed)
        while match.outcome() is None and len(match.moves) < 300:
            view = match.view(None)
            if view["phase"] == "score" and len(view["complete"]) >= 2:
                return match.to_json(), view["turn_seat"]
            match.play(rng.choice(match.legal_moves(match.to_act()[0])))
    raise AssertionError("no score choice found")


def test_score_step_order_is_the_players_choice():
    record, seat = score_choice_record()
    other = 1 - seat
    app = GameApp("chore_race", seats=2, players={seat: "human", other: "random"}, start=False)
    app.load(record)
    view = app.match.view(seat)
    complete = view["complete"]
    assert app.viewer == seat and labels(app) == ["Score a chore"]
    assert "choose which to score first" in app.board.prompt.value
    assert all("pt-looking" in chore(app, seat, p)._dom_classes for p in complete)
    last = complete[-1]
    name = view["tableaus"][seat][last]["name"]
    chore(app, seat, last).click()             # the only kind on offer: the click scores it at once
    first = next(m for m in app.match.moves if m.kind == "score" and m.seat == seat)
    assert first.args == (last,)
    assert any(f"completes {name}" in t for _, t in app.match.log_for(seat))
    assert app.banner.message == ""


def test_illegal_move_shows_the_banner_and_changes_nothing():
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "heuristic"}, seed=2)
    before, count = app.match.fingerprint(), len(app.match.moves)
    chore(app, 1, 0).click()                   # not clickable now: nothing happens
    assert app.moves.kind is None and app.banner.message == ""
    app.moves.on_move(Move(0, "done", (7,)))      # a stale click: there is no chore 7 (CR-5)
    assert "Illegal move" in app.banner.message and "CR-5" in app.banner.message
    assert app.banner.widget.layout.display != "none"
    assert app.match.fingerprint() == before and len(app.match.moves) == count
    click_kind(app, "Play Done")
    chore(app, 0, 0).click()
    assert app.banner.message == "" and len(app.match.moves) == count + 1


def test_widgets_are_updated_in_place():
    app = GameApp("chore_race", seats=3, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        random_step(app, rng, mischief=False)
    count = len(_instances)
    for _ in range(60):
        if app.match.outcome() is not None:
            break
        random_step(app, rng, mischief=False)
    assert len(_instances) <= count + 40      # pools grow to the largest hand, not per move


def reveal_record() -> tuple[str, int, int]:
    """A 2-seat record ending right after a Delegate or Teamwork showed a hand (CR-9, CR-10)."""
    for seed in range(500):
        match, rng = Match("chore_race", 2, seed=seed), random.Random(seed)
        while match.outcome() is None and len(match.moves) < 300:
            view = match.view(None)
            shown = [r["seat"] for r in view["revealed"] if r["seat"] != view["turn_seat"]]
            if shown and match.to_act() == (view["turn_seat"],):
                return match.to_json(), view["turn_seat"], shown[0]
            match.play(rng.choice(match.legal_moves(match.to_act()[0])))
    raise AssertionError("no reveal found")


def test_revealed_hand_shows_until_the_next_move():
    record, seat, other = reveal_record()
    app = GameApp("chore_race", seats=2, players={seat: "human", other: "random"}, start=False)
    app.load(record)
    shown = app.match.view(seat)["revealed"]
    names = next(r["hand"] for r in shown if r["seat"] == other)
    row = hand(app, other)
    assert [c.description.split("\n")[0] for c in row] == names
    assert all("pt-looking" in c._dom_classes for c in row)
    assert f"Seat {other}'s hand is shown to everyone" in app.board.prompt.value
    assert_no_leak(app)
    rng, count = random.Random(1), len(app.match.moves)
    while len(app.match.moves) == count:
        random_step(app, rng, mischief=False)
    view = app.match.view(app.viewer)
    if not any(r["seat"] == other for r in view["revealed"]):
        assert all("pt-back" in c._dom_classes for c in hand(app, other))
    assert_no_leak(app)


def test_an_empty_revealed_hand_reads_no_cards_and_the_log_names_revealed_cards():
    """CR-21: the reveal is public at that moment: the log names the cards; an empty hand
    says so on the board and in the log."""
    from test_chore_race_helpers import arrange, new_match
    m = arrange(new_match(2), hands={0: ["delegate"], 1: []}, tableaus={0: [("Mow the Lawn", 0)]})
    m.play("0 delegate 1")
    m.play("1 accept")
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "human"}, start=False)
    app._seat(m, {0: "human", 1: "human"}, seed_chosen=True)
    unlock(app)
    assert "Hand revealed: no cards" in app.board.seats[1].hand.label.value
    assert "Seat 2&#x27;s hand revealed: no cards." in app.log.html.value
    assert_no_leak(app)


def test_chore_swap_target_is_clickable_and_labelled_with_its_seat():
    """CR-11: with one opponent the seat fills itself; the opponent's chores are then
    clickable for the swap target, and the dropdown names the seat of each target."""
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "random"}, seed=0)
    click_kind(app, "Play Chore Swap")
    chore(app, 0, 0).click()
    assert app.moves.kind == "swap" and app.moves.prefix == [0, 1]
    targets = next(d for d in app.moves.arg_box.children if isinstance(d, w.Dropdown) and d.description == "their chore")
    view = app.match.view(0)
    assert [label for label, _ in targets.options][0] == \
        f"seat 2: {view['tableaus'][1][0]['name']} 0/{view['tableaus'][1][0]['level']}"
    assert len({label for label, _ in targets.options}) == len(targets.options)
    assert all(label.startswith("seat 2: ") for label, _ in targets.options)
    assert all("pt-clickable" in chore(app, 1, q)._dom_classes for q in range(3))
    assert "pt-clickable" not in chore(app, 0, 1)._dom_classes
    mine, theirs = view["tableaus"][0][0]["name"], view["tableaus"][1][2]["name"]
    chore(app, 1, 2).click()
    assert Move(0, "swap", (0, 1, 2)) in app.match.moves and app.banner.message == ""
    after = app.match.view(None)["tableaus"]
    assert after[0][0]["name"] == theirs and after[1][2]["name"] == mine or \
        any("Excuse" in t for _, t in app.match.log_for(None))
    assert_no_leak(app)


def test_hand_sizes_read_in_the_singular_and_plural():
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "heuristic"}, seed=2)
    view = json.loads(json.dumps(app.match.view(0)))
    for size, text in ((1, "1 card"), (0, "0 cards"), (5, "5 cards")):
        view["hand_sizes"][1] = size
        app.board.update(view, set())
        assert app.board.seats[1].hand.label.value == f"<b>Hand</b>: {text}"


def test_a_family_meeting_pass_may_start_with_any_card_of_the_hand():
    """CR-8: the first dropdown of a pass lists every card the pass may take (the game
    lists a pass in its canonical card order; the picker takes any order)."""
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "human"}, seed=10)
    unlock(app)
    click_kind(app, "Play Family Meeting")
    click_kind(app, "Pass 3 cards")
    first = next(d for d in app.moves.arg_box.children if isinstance(d, w.Dropdown))
    assert {label for label, _ in first.options} == {"Done", "Inspection", "I'll Do It Later"}
    first.value = "later"                       # I'll Do It Later first: canonical order puts it last
    second = [d for d in app.moves.arg_box.children if isinstance(d, w.Dropdown)][1]
    second.value = "inspection"
    app.moves.play_button.click()
    assert app.match.moves[-1] == Move(0, "give", ("done", "inspection", "later"))


def test_clicking_the_excuse_card_in_hand_plays_the_reaction():
    """CR-7: in the reaction window the Excuse card in hand is clickable and plays the
    Excuse, as its button does; I'll Do It Later would Dodge."""
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "human"}, seed=2)     # seat 1 holds an Excuse (seed chosen so)
    unlock(app)
    while not any(m.kind == "inspection" for m in app.match.legal_moves(0)):
        move = next(m for m in app.match.legal_moves(app.match.to_act()[0]) if m.kind in ("done", "end"))
        app.match.play(move)
        app.refresh()
        if app.privacy.shown:
            unlock(app)
    target = next(m for m in app.match.legal_moves(0) if m.kind == "inspection")
    app.play(target)
    unlock(app)
    assert app.viewer == 1
    view = app.match.view(1)
    pos = view["hand"].index("Excuse")
    card = hand(app, 1)[pos]
    assert "pt-clickable" in card._dom_classes
    card.click()
    assert app.match.moves[-1] == Move(1, "excuse")


def test_a_card_click_no_rule_allows_is_explained():
    """A card click that completes a move the rules refuse says why, with the ruling id
    (CR-13: a chore with 0 progress cannot be inspected), and changes nothing."""
    from playtest.scenarios import example
    scenario = example("chore_race_reaction_window")
    scenario = scenario.model_copy(update={"moves": scenario.moves[:3], "expect": []})
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "heuristic"}, start=False, autosave=False)
    app.open_scenario(scenario)
    before = app.match.fingerprint()
    # Inspection has one legal target, so its button plays at once: build it by hand to
    # click the other chore, as a person with Inspection chosen would
    app.moves.kind, app.moves.prefix = "inspection", [1]
    chore(app, 1, 1).click()
    assert app.banner.message.startswith("Not allowed (CR-13)"), app.banner.message
    assert app.match.fingerprint() == before


def test_end_play_step_pressed_ten_times_on_a_hotseat_ends_one_step():
    """#11, as in Night Shift: ten quick presses of a move button (the page not redrawn
    between them) act once; seat 1 taking the device meanwhile does not let the queued
    presses end its play step."""
    app = GameApp("chore_race", seats=2, players={0: "human", 1: "human"}, seed=1, autosave=False)
    app.unlock(app.control)
    end = next(b for b in app.moves.kind_box.children if b.description == "End play step")
    for _ in range(10):
        end.click()
        if app.unlocked != app.control:
            app.privacy.button.click()
    ended = [m for m in app.match.moves if m.kind == "end"]
    assert ended == [Move(0, "end")] and app.moves.ignored == 9 and app.banner.message == ""
