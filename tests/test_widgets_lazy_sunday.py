"""The Lazy Sunday app, driven from Python, and the kernel-side security test: no
face-down card identity reaches any widget's synced state unless the viewing seat may
see it now (LS-11)."""
from __future__ import annotations

import json
import random
import re

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances

from widget_support import answer_builder, check_due, fresh_widgets, random_seating  # noqa: F401 (fixture)

from playtest import Move
from playtest.games.lazy_sunday import LazySunday
from playtest.widgets import Card, GameApp
from playtest.widgets.components import BLANK

NAMES = sorted(set(LazySunday(2).cards.names))
# one pass for every name (longest first, so a name inside a longer one is not counted)
NAME = re.compile(r"(?<![\w'])(" + "|".join(re.escape(n) for n in sorted(NAMES, key=len, reverse=True)) + r")(?![\w'])")


def names_in(text: str) -> set[str]:
    return set(NAME.findall(text))


def synced_state() -> str:
    """Every live widget's synced state, but the "How to play" text (public rules that
    name every action card)."""
    return json.dumps([x.get_state() for x in list(_instances.values()) if "pt-rules" not in
                       getattr(x, "_dom_classes", ())], default=str)


def assert_no_leak(app) -> None:
    """Every live widget's synced state holds only card names the shown seat's view and
    log contain; face-down slots carry nothing; a random seed is never shown."""
    viewer = app.viewer
    assert viewer is None or viewer == app.control
    view = app.match.view(viewer)
    entitled = names_in(json.dumps(view) + "\n".join(t for _, t in app.match.log_for(viewer)))
    leaked = names_in(synced_state()) - entitled
    assert not leaked, f"names leaked to seat {viewer}: {leaked}"
    face_up_slots = sum(slot["face_up"] for lst in view["lists"] for slot in lst)
    shown = 0
    for row in app.board.rows[:view["seats"]]:
        for card in row.box.children:
            if "pt-back" in card._dom_classes:
                assert card.description == BLANK and card.tooltip == ""
                assert set(card._dom_classes) <= {"pt-card", "pt-back", "pt-clickable"}
            else:
                shown += 1
    assert shown == face_up_slots
    for card in (x for x in _instances.values() if isinstance(x, Card) and "pt-back" in x._dom_classes):
        assert card.description == BLANK and card.tooltip == ""
    for builder in (app.moves, app.open_moves):     # move buttons not on show say nothing
        shown = set(builder.kind_box.children)
        assert all(not b.description for pool in builder._pools for b in pool.values() if b not in shown)
    if app.match.outcome() is None and app.match.seed >= 10**6:   # long enough to grep for
        assert str(app.match.seed) not in synced_state()


def labels(builder):
    return [b.description for b in builder.kind_box.children]


def click_kind(builder, label):
    next(b for b in builder.kind_box.children if b.description == label).click()


def random_step(app, rng: random.Random, mischief: bool = True) -> None:
    """One thing a person might do, chosen at random, through the widgets only
    (``mischief``: also rewind and replay, and try illegal moves)."""
    if app.privacy.shown:
        app.privacy.button.click()
        return
    roll = rng.random()
    if roll < 0.12 and app.open_box.layout.display != "none":
        if len(app.claimer.options) > 1:
            app.claimer.value = rng.choice(app.claimer.options)[1]
        click_kind(app.open_moves, "Done it!")
        builder = app.open_moves
    elif roll < 0.15 and app.match.moves and mischief:
        app.timeline.back.click()
        assert_no_leak(app)
        app.timeline.live.click()
        return
    elif roll < 0.17 and app.viewer is not None and mischief:
        app.moves.on_move(Move(app.viewer, "claim", (0, 0, 10**6)))     # illegal: the banner says why
        assert "Illegal move" in app.banner.message
        return
    else:
        if not app.moves.kind_box.children:
            return
        rng.choice(app.moves.kind_box.children).click()
        builder = app.moves
    for _ in range(8):
        if builder.kind is None:
            return
        cards = sorted(c for c in builder.clickable_cards() if c[1] is not None)
        if cards and rng.random() < 0.6:
            seat, pos = rng.choice(cards)
            app.board.rows[seat].box.children[pos].click()
            continue
        answer_builder(builder, rng)


@pytest.mark.parametrize("game", range(8))
def test_no_hidden_card_reaches_any_widget(game):
    rng = random.Random(game)
    seats, humans, players = random_seating(rng, 2, 6)
    app = GameApp("lazy_sunday", seats=seats, players=players, options={"rounds": rng.randint(1, 2)}, seed=rng.randrange(10**8, 2**31))
    assert_no_leak(app)
    for step in range(400):
        if app.match.outcome() is not None:
            break
        random_step(app, rng)
        if check_due(app, step):
            assert_no_leak(app)
    assert app.match.moves, "nothing was played"


def test_defaults_four_seats_one_human_three_heuristic_bots():
    app = GameApp("lazy_sunday")
    assert app.match.game.seats == 4 and app.humans == [0]
    assert app.players == {1: "heuristic", 2: "heuristic", 3: "heuristic"}
    assert [d.value for d in app.new_game.players[:4]] == ["human", "heuristic", "heuristic", "heuristic"]
    assert app.new_game.seed.value == ""
    assert "Round 1" in app.board.status.value


def test_peek_by_clicking_two_cards_shows_them_to_me_only():
    app = GameApp("lazy_sunday", seats=3, players={0: "human", 1: "random", 2: "random"}, seed=11)
    assert labels(app.moves) == ["Peek at 2 of my cards"]
    # LS-3: the bots peek at once, without waiting for seat 0's peek
    assert [(m.seat, m.kind) for m in app.match.moves] == [(1, "peek"), (1, "done"), (2, "peek"), (2, "done")]
    click_kind(app.moves, "Peek at 2 of my cards")
    row = app.board.rows[0]
    # LS-3: any two cards, in any order (the game lists peek a b with a < b)
    assert [("pt-clickable" in c._dom_classes) for c in row.box.children] == [True] * 6
    assert "pt-clickable" not in app.board.rows[1].box.children[0]._dom_classes
    row.box.children[4].click()
    assert [("pt-clickable" in c._dom_classes) for c in row.box.children] == [True] * 4 + [False, True]
    first = next(d for d in app.moves.arg_box.children if isinstance(d, w.Dropdown))
    assert len(first.options) == 6                  # the dropdown too offers the 6th card first
    row.box.children[1].click()
    assert app.match.moves[-1] == Move(0, "peek", (1, 4))
    row.box.children[4].click()         # a double click's second half: nothing is played
    assert len(app.match.moves) == 5
    looking = [c for c in row.box.children if "pt-face" in c._dom_classes]
    assert len(looking) == 2 and all("pt-looking" in c._dom_classes for c in looking)
    names = {c.description.split("\n")[0] for c in looking}
    assert names <= set(NAMES)
    assert labels(app.moves) == ["Done looking"]
    click_kind(app.moves, "Done looking")
    assert all("pt-back" in c._dom_classes for c in row.box.children)


def test_the_peek_form_says_two_cards_are_chosen():
    # LS-3: one "my card" dropdown and a grey Play read as if one card were enough
    app = GameApp("lazy_sunday", seats=3, players={0: "human", 1: "random", 2: "random"}, seed=11)
    click_kind(app.moves, "Peek at 2 of my cards")
    app.moves.cancel_button.click()
    assert app.moves.hint.value == ""
    click_kind(app.moves, "Peek at 2 of my cards")
    hint = app.moves.hint.value
    assert "Choose 2 cards (LS-3): click two of your cards, or pick them above" in hint and "Chosen" not in hint
    app.board.rows[0].box.children[4].click()
    assert "Chosen so far: position 5; choose 1 more" in app.moves.hint.value     # position 4, counted from 1
    shown = [dd for dd in app.moves.arg_box.children if isinstance(dd, w.Dropdown)]
    assert [dd.description for dd in shown] == ["my card", "and my card"]
    assert all(dd.style.description_width == "initial" for dd in shown)   # whole labels, not "and my c…"
    app.moves.choose(1, 1)                                    # the second card from its dropdown
    assert "press Play" in app.moves.hint.value and not app.moves.play_button.disabled
    app.moves.play_button.click()
    assert app.match.moves[4:] == [Move(0, "peek", (1, 4))] and app.moves.hint.value == ""


def test_a_peek_at_a_list_of_two_says_one_click_picks_both():
    """LS-3 with a list of two cards (the tutorial's lesson 3): the one pair is offered,
    the line says a click on either card picks both, and one click makes the peek."""
    from playtest.scenarios import Scenario
    scenario = Scenario(game="lazy_sunday", seats=2, seed=1, moves=[],
                        setup={"lists": [["Nap", "Make the Bed"], ["Fold the Laundry", "Scrub the Bathroom", "Nap"]]})
    app = GameApp("lazy_sunday", seats=2, players={0: "human", 1: "random"}, seed=1)
    app.open_scenario(scenario)
    assert app.moves.kind == "peek"                          # the only kind: chosen at once
    assert "there is one pair, so a click on either card picks both" in app.moves.hint.value
    app.board.rows[0].box.children[1].click()
    assert Move(0, "peek", (0, 1)) in app.match.moves


def drawn_action(action: str) -> GameApp:
    """A 3-seat game page where seat 0 (a person) has just drawn ``action`` (LS-2), after
    everyone's peek (LS-3), the other seats random bots."""
    from playtest.scenarios import Scenario
    lists = [["Nap", "Make the Bed", "Feed the Fish"], ["Fold the Laundry", "Scrub the Bathroom", "Nap"],
             ["Water the Plants", "Clean the Oven", "Make the Bed"]]
    scenario = Scenario(game="lazy_sunday", seats=3, seed=1, moves=[
        "0 peek 0 1", "0 done", "1 peek 0 1", "1 done", "2 peek 0 1", "2 done", "0 draw"],
        setup={"lists": lists, "deck_top": [action]})
    app = GameApp("lazy_sunday", seats=3, players={0: "human", 1: "random", 2: "random"}, seed=1)
    app.open_scenario(scenario)
    return app


def test_the_switcheroo_form_says_two_cards_of_others_are_chosen():
    # LS-2: the burn's form is built by two clicks on other players' cards, as the peek
    app = drawn_action("Switcheroo")
    click_kind(app.moves, "Burn: swap two others' cards")
    assert "Choose 2 cards (LS-2): click two cards of other players, or pick them above" in app.moves.hint.value
    app.board.rows[1].cards[2].click()
    assert "Chosen so far: seat 2's position 3; choose 1 more" in app.moves.hint.value
    app.moves.choose(2, 2)                                  # the second card from the dropdowns
    app.moves.choose(3, 0)
    assert "Both cards chosen: press Play, or click one of them again, to swap them." in app.moves.hint.value
    app.board.rows[2].cards[0].click()                      # one of them again: played, as Play does
    assert app.match.moves[7] == Move(0, "switcheroo", (1, 2, 2, 0))


def test_the_nosy_neighbour_form_says_a_card_of_another_is_clicked():
    # LS-2: a "seat" dropdown and a grey Play do not say that a click on a card is the way
    app = drawn_action("Nosy Neighbour")
    click_kind(app.moves, "Burn: look at another's card")
    assert "Choose a card (LS-2): click a card of another player, or pick it above." in app.moves.hint.value
    app.moves.choose(0, 2)
    app.moves.choose(1, 1)
    assert "The card chosen: press Play, or click it again, to look at it." in app.moves.hint.value
    app.moves.play_button.click()
    assert app.match.moves[7] == Move(0, "nosy", (2, 1))


def play_round_as_human(app, rng):
    """Seat 0 plays sensibly until the round is over: draw and discard, NOT ME! soon."""
    turns = 0
    while app.match.view(0)["phase"] not in ("round_over", "over"):
        offered = labels(app.moves)
        if "NOT ME!" in offered and turns >= 2:
            click_kind(app.moves, "NOT ME!")
        elif "Draw from the deck" in offered:
            click_kind(app.moves, "Draw from the deck")
            turns += 1
        elif "Discard it" in offered:
            click_kind(app.moves, "Discard it")
        elif offered:
            random_step(app, rng, mischief=False)
        else:
            raise AssertionError(f"seat 0 has nothing to do: {app.match.to_act()}")
        assert app.banner.message == ""


def test_full_round_scores_and_record():
    app = GameApp("lazy_sunday", seats=3, players={0: "human", 1: "heuristic", 2: "heuristic"}, seed=4)
    play_round_as_human(app, random.Random(1))
    view = app.match.view(0)
    assert view["outcome"] is not None and "NOT ME! called by Seat" in app.board.status.value
    assert "round 1" in app.board.scores.value and str(view["scores"][0]) in app.board.scores.value
    app.records.save.click()        # the game is over: no warning, a link at once
    assert app.records.note.value == "" and "lazy_sunday_record.json" in app.records.link.value


def test_done_it_any_human_seat_may_claim():
    app = GameApp("lazy_sunday", seats=3, players={0: "human", 1: "human", 2: "random"}, seed=2)
    rng = random.Random(3)
    while not (app.match.view(None)["claims_open"] and app.open_box.layout.display != "none"):
        random_step(app, rng)
    assert [v for _, v in app.claimer.options] == [0, 1]
    app.claimer.value = 1 if app.control == 0 else 0
    claimer = app.claimer.value
    click_kind(app.open_moves, "Done it!")
    target = app.board.rows[2].box.children[0]
    assert "pt-clickable" in target._dom_classes
    target.click()
    move = next(m for m in reversed(app.match.moves) if m.kind == "claim")
    assert move.seat == claimer and move.args[:2] == (2, 0)
    assert app.banner.message == ""


def test_hotseat_privacy_hides_every_hand():
    app = GameApp("lazy_sunday", seats=2, players={0: "human", 1: "human"}, seed=8)
    app.privacy.button.click()
    click_kind(app.moves, "Peek at 2 of my cards")
    app.board.rows[0].box.children[0].click()
    app.board.rows[0].box.children[1].click()
    assert sum("pt-face" in c._dom_classes for c in app.board.rows[0].box.children) == 2
    click_kind(app.moves, "Done looking")
    assert app.control == 1 and app.privacy.shown and app.viewer is None
    assert "I am seat 2" in app.privacy.button.description
    assert all("pt-back" in c._dom_classes for r in app.board.rows for c in r.box.children)
    assert_no_leak(app)


def test_no_claim_while_the_device_changes_hands():
    """Behind the privacy screen the Done it! panel is hidden: a claim then would be made
    in the name of the seat that just handed the device over (LS-5 in hotseat)."""
    app = GameApp("lazy_sunday", seats=2, players={0: "human", 1: "human"}, seed=8)
    for seat in (0, 1):
        app.privacy.button.click()
        app.play(Move.parse(f"{seat} peek 0 1"))
        app.play(Move.parse(f"{seat} done"))
    assert app.privacy.shown and app.open_box.layout.display == "none"
    app.privacy.button.click()
    assert not app.privacy.shown and app.open_box.layout.display != "none"


def test_hidden_drawn_pile_keeps_no_card_name():
    """Once the drawn card is kept or discarded, the hidden drawn-card slot must not keep
    its name in the synced state (it leaked to the next hotseat player before)."""
    app = GameApp("lazy_sunday", seats=2, players={0: "human", 1: "human"}, seed=3)
    for _ in range(40):
        if app.privacy.shown:
            app.privacy.button.click()
        elif "Draw from the deck" in labels(app.moves):
            click_kind(app.moves, "Draw from the deck")
            assert app.board.drawn.card.description != BLANK
            click_kind(app.moves, "Discard it")
            break
        elif "Peek at 2 of my cards" in labels(app.moves):
            click_kind(app.moves, "Peek at 2 of my cards")
            app.board.rows[app.viewer].cards[0].click()
            app.board.rows[app.viewer].cards[1].click()
        else:
            click_kind(app.moves, labels(app.moves)[0])
    else:
        raise AssertionError("seat never drew")
    assert app.board.drawn.widget.layout.display == "none"
    assert app.board.drawn.card.description == BLANK and app.board.drawn.card.tooltip == ""
    assert_no_leak(app)


def test_two_seat_trade_takes_the_opponents_card_by_click():
    """With one other seat the builder fills the seat itself; the opponent's cards must
    still be clickable for the rest of the (seat, card) pair (LS-2 Let's Trade)."""
    from playtest.engine import Match
    for seed in range(400):
        m = Match("lazy_sunday", 2, seed=seed)
        for mv in ("0 peek 0 1", "0 done", "1 peek 0 1", "1 done", "0 draw"):
            m.play(mv)
        if m.view(0)["drawn"]["card"]["name"] == "Let's Trade":
            break
    app = GameApp("lazy_sunday", seats=2, players={0: "human", 1: "human"}, seed=seed)
    app.play(Move.parse("0 peek 0 1")), app.play(Move.parse("0 done"))
    app.unlock(1)
    app.play(Move.parse("1 peek 0 1")), app.play(Move.parse("1 done"))
    app.unlock(0)
    app.play(Move.parse("0 draw"))
    app.moves.select("trade")
    app.card_clicked(0, 2)
    assert app.moves.prefix == [2, 1] and (1, 3) in app._clickable()
    app.card_clicked(1, 3)
    assert str(app.match.moves[-1]) == "0 trade 2 1 3"


def test_status_names_the_seat_taking_its_final_turn_now_and_those_after_it():
    """LS-7: after a call, the seat on turn is taking its final turn; the status must not
    read as if it had none."""
    app = GameApp("lazy_sunday", seats=3, players={0: "human", 1: "human", 2: "human"}, seed=4)
    for move in ["0 peek 0 1", "0 done", "1 peek 0 1", "1 done", "2 peek 0 1", "2 done", "0 notme"]:
        app.play(Move.parse(move))
    # seats counted from 1 and named as the page names them: seat 0 called, seat 1 takes
    # its final turn now, then seat 2
    assert "NOT ME! called by Seat 1 — final turns: Seat 2 now; then Seat 3 (LS-7)" in app.board.status.value


def test_the_board_counts_one_card_and_names_the_quick_discard_by_its_button():
    """Fresh-user findings: a one-card list read "1 cards"; the status line spoke of
    "quick discards" and "setup", where the page's button says Done it! (LS-5) and the
    first thing each seat does is peek at 2 cards (LS-3)."""
    app = GameApp("lazy_sunday", seats=3, players={0: "human", 1: "random", 2: "random"}, seed=11)
    # the bots have peeked (LS-3): only the person is left to
    assert "you: peeking at 2 cards (LS-3) · no Done it! now (LS-5)" in app.board.status.value
    from playtest.scenarios import Scenario, example
    lists = [["Nap", "Make the Bed"], ["Fold the Laundry", "Nap"], ["Water the Plants", "Clean the Oven", "Feed the Fish"]]
    setup = {"lists": lists, "deck_top": ["Knock It Out"], "peeks_done": True}
    app.open_scenario(Scenario(game="lazy_sunday", seats=3, seed=1, moves=[], setup=setup))
    assert "<b>Your turn</b> · Done it! open to all (LS-5)" in app.board.status.value   # DONE has its first card
    # seat 0 knocks out one of its two cards (LS-2): a list of one, face up on DONE
    app.open_scenario(Scenario(game="lazy_sunday", seats=3, seed=1, moves=["0 draw", "0 knock_out 1"], setup=setup))
    assert [re.search(r"\d+ cards?\b", row.label.value)[0] for row in app.board.rows] == ["1 card", "2 cards", "3 cards"]
    assert "Seat 2 (random bot): on turn · Done it! open to all (LS-5)" in app.board.status.value   # as its panel says
    assert "quick discard" not in app.board.status.value and "setup" not in app.board.status.value
    # once the match is over, the status says so and who called, and no more (no final
    # turns, no Done it!)
    app.open_scenario(example("lazy_sunday_great_escape"))
    assert app.match.view(None)["outcome"] and "Match over" in app.board.status.value
    assert app.board.status.value.endswith(" · NOT ME! called by Seat 3 (random bot)") and "Done it!" not in app.board.status.value


def test_the_giver_sees_the_card_it_gives_on_the_board():
    """LS-5: after a correct claim on another seat's card, the person giving a card is
    shown it on the board as they give it: face-up and marked as looked at, in the gap
    of the receiver's row, with a log line saying so; with their next move it is
    face-down again. No other card shows, and nothing leaks (LS-11)."""
    from playtest.scenarios import Scenario
    scenario = Scenario(game="lazy_sunday", seats=3, seed=1, moves=[
        "0 peek 0 1", "0 done", "1 peek 0 1", "1 done", "2 peek 0 1", "2 done"], setup={
        "lists": [["Nap", "Make the Bed", "Feed the Fish", "Clean the Oven", "Water the Plants", "Take Out the Bins"],
                  ["Fold the Laundry", "Scrub the Bathroom", "Load the Dishwasher", "Make the Bed", "Feed the Fish",
                   "Vacuum the Stairs"],
                  ["Nap", "Fold the Laundry", "Water the Plants", "Make the Bed", "Feed the Fish", "Take Out the Bins"]],
        "done": ["Load the Dishwasher"]})  # no remembered copy of it: no bot claims after the give
    app = GameApp("lazy_sunday", seats=3, players={0: "human", 1: "heuristic", 2: "heuristic"}, seed=1)
    app.open_scenario(scenario)
    click_kind(app.open_moves, "Done it!")
    app.board.rows[1].cards[2].click()          # seat 1's Load the Dishwasher matches the DONE top
    assert labels(app.moves) == ["Give a card"]
    assert all("pt-back" in c._dom_classes for r in app.board.rows for c in r.box.children)   # chosen unseen
    click_kind(app.moves, "Give a card")
    app.board.rows[0].cards[3].click()          # seat 0's Clean the Oven, into seat 1's gap
    assert [str(m) for m in app.match.moves[-2:]] == ["0 claim 1 2 1", "0 give 3"] and app.control == 0
    given = app.board.rows[1].box.children[2]
    assert {"pt-face", "pt-looking"} <= set(given._dom_classes) and given.description.startswith("Clean the Oven")
    faces = [(seat, pos) for seat, r in enumerate(app.board.rows) for pos, c in enumerate(r.box.children)
             if "pt-back" not in c._dom_classes]
    assert faces == [(1, 2)]
    assert "is shown the card as it gives it (LS-5)" in synced_state()
    assert_no_leak(app)
    click_kind(app.moves, "Draw from the deck")  # the giver's next move
    assert "pt-back" in app.board.rows[1].box.children[2]._dom_classes
    assert_no_leak(app)


@pytest.mark.parametrize("seed", [4, 5])          # the caller lowest (seed 4), and not (seed 5)
def test_the_reveal_shows_each_total_and_how_LS9_scored_it(seed):
    """LS-9 on the board: once a round's lists are revealed, each seat's total beside its
    round score, and why (the caller's 0 or 50, the others' own totals)."""
    app = GameApp("lazy_sunday", seats=3, players={0: "heuristic", 1: "heuristic", 2: "heuristic"}, seed=seed, autosave=False)
    view = app.match.view(None)                # no human seat: the bots played the match out
    assert view["phase"] == "over"
    totals = [sum(c["effort"] for c in cards) for cards in view["lists"]]
    reveal = app.board.scores.value
    caption = f"Round {len(view['round_scores'])} revealed (LS-9)"
    assert caption in reveal
    rows = re.findall(r"<tr><td>(seat \d[^<]*)</td><td>(\d+)</td><td><b>(\d+)</b></td><td>([^<]*)</td></tr>", reveal)
    assert [int(t) for _, t, _, _ in rows] == totals
    assert [int(s) for _, _, s, _ in rows] == view["round_scores"][-1]
    caller = view["caller"]
    for seat, (who, total, score, why) in enumerate(rows):
        if seat == caller:
            lowest = int(total) <= min(totals)
            assert "(caller)" in who and int(score) == (0 if lowest else 50)
            assert ("lowest or tied" in why) == lowest
            if not lowest:                       # the seats with the lowest total are named
                named = [f"seat {s + 1}" for s, t in enumerate(totals) if s != seat and t == min(totals)]
                assert f"{' and '.join(named)} had a strictly lower total ({min(totals)})" in why
        else:
            assert int(score) == int(total) and why == "scores their own total"
    assert app.again_button.layout.display != "none"
    old = app.match
    app.again_button.click()                    # Play again: same seats and options, a new deal
    assert app.match is not old and app.match.game.seats == 3 and app.match.options_dict() == old.options_dict()


def test_an_out_of_range_new_game_value_gets_a_message_not_a_clamp():
    app = GameApp("lazy_sunday", seats=3, seed=2, autosave=False)
    rounds = app.new_game.inputs["rounds"]
    rounds.value = "0"
    assert rounds.value == "0"                    # kept as typed, never clamped
    warned = [c for c in app.new_game.widget.children if isinstance(c, w.HBox) and rounds in c.children]
    assert "0 is not allowed: use 1 to 20" in warned[0].children[1].value
    old = app.match
    app.new_game.start.click()
    assert "rounds" in app.banner.message and app.match is old
    rounds.value = "2"
    assert "not allowed" not in warned[0].children[1].value
    app.new_game.start.click()
    assert app.match is not old and app.match.game.options.rounds == 2
    assert app.setup.selected_index is None      # the panel closes once it has started the game


def test_a_deeply_nested_json_array_upload_names_the_depth_limit_not_toml():
    from playtest.engine.limits import MAX_DEPTH, LimitError
    app = GameApp("lazy_sunday", autosave=False)
    before = app.match
    with pytest.raises(LimitError, match=f"nested more than {MAX_DEPTH} levels deep"):
        app.load("[" * 50_000 + "]" * 50_000, "nested.json")
    assert app.match is before


def test_a_file_refused_for_its_size_clears_the_error_of_the_file_before():
    # a fresh user saw "deep.json ... nested more than 32 levels" still on top while the
    # message beside the upload button said big.json was too large
    app = GameApp("lazy_sunday", seed=5, browser="")
    app.banner.show("deep.json, line 1: it is nested more than 32 levels deep")    # as the load's error is shown
    app.records.upload._received(None, {"event": "too_large", "name": "big.json", "size": 2_000_000}, [])
    assert "big.json is 1.9 MiB" in app.records.upload.message and app.banner.text.value == ""
    app.records.upload._received(None, {"event": "file", "name": "deep.json", "size": 9}, [b"{not json"])
    assert "not valid JSON" in app.banner.text.value              # a file read and refused by the game
    assert "not valid JSON" in app.records.note.value              # beside the button too
    app.records.upload._received(None, {"event": "too_large", "name": "big.json", "size": 2_000_000}, [])
    assert app.banner.text.value == "" and app.records.note.value == ""   # the same big file again: heard again


def test_a_record_of_an_unknown_game_is_not_named_as_if_it_were_a_game():
    import pytest

    from playtest.engine import PlaytestError
    app = GameApp("lazy_sunday", seed=5, browser="")
    before = app.match.fingerprint()
    with pytest.raises(PlaytestError) as unknown:
        app.load('{"game": "../../etc", "seats": 2}', "odd.json")
    assert "'../../etc', which this kit does not have" in str(unknown.value)
    assert "this is a ../../etc record" not in str(unknown.value)
    with pytest.raises(PlaytestError, match="this is a Chore Race record, not a Lazy Sunday one"):
        app.load('{"game": "chore_race", "seats": 2}', "cr.json")
    assert app.match.fingerprint() == before


def test_a_click_on_the_deck_draws_when_the_viewer_may_draw():
    from playtest.widgets.tutorial import TutorialApp
    app = TutorialApp("lazy_sunday")
    deck = app.board.deck.card
    assert app.current.do == "0 peek 0 1" and "pt-clickable" not in deck._dom_classes
    deck.click()                                               # no draw during the peek: nothing happens
    assert app.match.moves[-1:] != [Move(0, "draw")] and app.step == 0
    app.open_lesson(1)                                         # lesson 2 starts with a draw (LS-4)
    assert app.current.do == "0 draw" and "pt-clickable" in deck._dom_classes
    moves = len(app.match.moves)
    deck.click()                                               # as "Draw from the deck" would
    assert app.match.moves[moves] == Move(0, "draw") and app.step == 1
    assert "pt-clickable" not in deck._dom_classes             # drawn: keep it or discard it now


def test_in_a_kernel_the_bots_give_a_person_time_to_slap_first(monkeypatch):
    """LS-5 on a game page (an event loop running, as in a kernel): when a new card on
    DONE gives the person at the page a new Done it! chance, and whenever a bot wants a
    Done it! the person may race it to, the bots wait BOT_REACTION seconds before they
    move on (once more while the person's Done it! is being made); a Done it! of the
    person's meanwhile is played first. Without an event loop
    (scripts, these tests) bots move at once."""
    import asyncio
    import playtest.widgets.app as app_module
    monkeypatch.setattr(app_module, "BOT_REACTION", 0.5)     # margins for a busy machine

    def new_app() -> GameApp:
        return GameApp("lazy_sunday", seats=3, players={0: "human", 1: "heuristic", 2: "heuristic"}, seed=0,
                       autosave=False)

    async def next_wait(app: GameApp, rng: random.Random) -> int:
        """The person plays until the bots wait; returns the move count then."""
        for _ in range(200):
            if app._bot_wait is not None:
                return len(app.match.moves)
            assert app.match.outcome() is None, "the game ended without a wait"
            app.play(rng.choice([m for m in app.table.decision_moves(0) if m.kind != "call"]))
        raise AssertionError("the bots never waited")

    async def bots_wait_for_each_chance_and_before_their_slaps():
        app, rng, slaps = new_app(), random.Random(0), 0
        for _ in range(30):
            waiting_at = await next_wait(app, rng)
            assert app.table.open_moves(0)                              # the person may slap now
            wanted, loop = app.table.proposals()[0], asyncio.get_running_loop()
            ends = app._bot_wait.when()
            assert ends - loop.time() > 0.25                            # the reaction time left
            await asyncio.sleep(ends - loop.time() - 0.25)
            assert len(app.match.moves) == waiting_at                   # nobody moved in the reaction time
            await asyncio.sleep(0.3)
            assert len(app.match.moves) > waiting_at                    # then the bots went on
            if wanted:                                                  # a bot's slap, after the wait
                assert app.match.moves[waiting_at].kind == "claim" and app.match.moves[waiting_at].seat != 0
                slaps += 1
            if slaps and waiting_at > 12:
                break
        assert slaps, "no bot wanted a Done it! in 30 waits"

    async def a_person_slaps_first():
        app = new_app()
        waiting_at = await next_wait(app, random.Random(0))
        app.play(app.table.open_moves(0)[0])                              # in the reaction time
        assert app.match.moves[waiting_at].seat == 0 and app.match.moves[waiting_at].kind == "claim"

    async def a_done_it_being_made_gets_one_more_reaction_time():
        app = new_app()
        waiting_at = await next_wait(app, random.Random(0))
        app.open_moves.buttons["claim"].click()                           # Done it! pressed, no card yet
        await asyncio.sleep(0.6)                                          # just past the first reaction time
        assert len(app.match.moves) == waiting_at and app.open_moves.kind == "claim"
        await asyncio.sleep(0.6)                                          # past the second: the bots go on
        assert len(app.match.moves) > waiting_at

    # a thread of its own: a test process that has opened a browser runs Playwright's loop here
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, bots_wait_for_each_chance_and_before_their_slaps()).result()
        thread.submit(asyncio.run, a_person_slaps_first()).result()
        thread.submit(asyncio.run, a_done_it_being_made_gets_one_more_reaction_time()).result()


def test_a_done_it_being_made_survives_the_moves_made_meanwhile():
    """LS-5 on a game page, as on a live seat page: Done it! pressed, then the person's
    discard and the bots' turns change DONE; the Done it! stays chosen (it was dropped
    without a word; a card clicked just after a change is judged on the top it was begun
    on, as tests/test_widgets.py checks of the builder)."""
    app = GameApp("lazy_sunday", seats=3, players={0: "human", 1: "random", 2: "random"}, seed=11)
    rng = random.Random(3)
    for _ in range(100):
        moves = app.table.decision_moves(0)
        if any(m.kind == "discard" for m in moves):
            break
        app.play(rng.choice([m for m in moves if m.kind in ("peek", "done", "draw")] or moves))
    else:
        raise AssertionError("seat 0 never held a drawn card")
    app.open_moves.buttons["claim"].click()
    assert app.open_moves.kind == "claim"
    before = len(app.match.moves)
    app.play(next(m for m in app.table.decision_moves(0) if m.kind == "discard"))
    assert len(app.match.moves) > before + 1 and app.match.outcome() is None      # the bots moved too
    assert app.open_moves.kind == "claim"
