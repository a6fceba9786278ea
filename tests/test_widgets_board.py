"""The generic board (playtest.widgets.board.ViewBoard): a view in the zone vocabulary
drawn as a playable table for a game without a board of its own (the Crazy Eights
example, examples/crazy_eights), hidden cards as backs, moves made with the kit's move
controls and card clicks, components updated in place; a view without zones as JSON."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from ipywidgets.widgets.widget import _instances

from widget_support import answer_builder, fresh_widgets  # noqa: F401 (autouse fixture)

from playtest.engine import Move
from playtest.engine.counting import for_people
from playtest.widgets import GameApp
from playtest.widgets.board import ViewBoard
from playtest.widgets.components import BLANK
from playtest.widgets.board import board_class

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "crazy_eights"))
from crazy_eights import CrazyEights  # noqa: E402


def app(seats: int = 3, seed: int = 3, players=None) -> GameApp:
    players = {s: "heuristic" for s in range(1, seats)} if players is None else players
    return GameApp(CrazyEights, board_class(CrazyEights), seats, players, seed=seed, autosave=False)


def synced_state() -> str:
    return json.dumps([x.get_state() for x in list(_instances.values())], default=str)


def hand_zone(view: dict, seat: int) -> dict:
    return next(z for z in view["zones"] if z["kind"] == "hand" and z["owner"] == seat)


def test_a_game_without_a_board_gets_the_generic_board_drawing_its_zones():
    game = app()
    board = game.board
    assert board_class(CrazyEights) is ViewBoard and isinstance(board, ViewBoard)
    view = game.match.view(0)
    mine = hand_zone(view, 0)["cards"]
    row = board.parts[("hand", "hand", 0)]
    # a tile shows the card's name alone: the example puts its CE-9 penalty in the hover text
    assert [c.description for c in row.box.children] == [c["name"] for c in mine]
    assert all("penalty points" in c.tooltip for c in row.box.children)
    # CE-9: a plain card's says why it costs its id + 2; an eight's or a J, Q, K, A's counts as printed
    assert all(("id + 2" in c.tooltip) == (c.description[:-1] not in ("8", "J", "Q", "K", "A"))
               for c in row.box.children)
    top = board.parts[("pile", "discard pile", None)]
    assert top.card.description.startswith(view["zones"][1]["cards"][0]["name"])
    assert "discard pile: 1" in top.caption.value
    assert "pt-back" in board.parts[("pile", "deck", None)].card._dom_classes
    assert "suit to match" in board.counters.value and "card plays" in board.counters.value
    assert "Seat 1 (you)" in board.status.value and "to move" in board.status.value
    assert "on turn" in board.panels[0][1].value and "drawn this turn" in board.panels[0][1].value
    assert {b.description for b in game.moves.kind_box.children} == {"Play a card", "Draw"}


def test_other_seats_hands_are_backs_and_no_hidden_card_reaches_the_page():
    game = app(seats=3, seed=8)
    board = game.board
    for seat in (1, 2):
        row = board.parts[("hand", "hand", seat)]
        shown = row.box.children
        assert len(shown) == hand_zone(game.match.view(0), seat)["count"] > 0
        assert all(c.description == BLANK and c.tooltip == "" and "pt-back" in c._dom_classes for c in shown)
        assert "pt-mini" in row.widget._dom_classes
    hidden = {card["name"] for seat in (1, 2) for card in hand_zone(game.match.all_cards_view(), seat)["cards"]}
    page = synced_state()
    assert hidden and not [name for name in hidden if name in page]


def test_a_card_click_chooses_the_play_and_play_makes_it():
    game = app(seats=2, seed=3, players={1: "heuristic"})
    board = game.board
    legal = [m for m in game.match.legal_moves(0) if m.kind == "play"]
    assert legal
    view = game.match.view(0)
    cards = hand_zone(view, 0)["cards"]
    pos = [c["arg"] for c in cards].index(legal[0].args[0])
    row = board.parts[("hand", "hand", 0)]
    assert "pt-clickable" in row.cards[pos]._dom_classes
    row.cards[pos].click()
    assert game.moves.kind == "play" and game.moves.prefix == [legal[0].args[0]]
    game.moves.play_button.click()
    assert game.match.moves[0] == legal[0]


def test_a_second_click_on_the_chosen_card_plays_it_and_another_card_changes_the_choice():
    """Where Play and Draw are both on offer, a click only chooses the play; the same card
    clicked again plays it, as in card games on screens, and a click on another playable
    card first changes the choice."""
    game = app(seats=2, seed=3, players={1: "heuristic"})
    row = game.board.parts[("hand", "hand", 0)]
    codes = [c["arg"] for c in hand_zone(game.match.view(0), 0)["cards"]]
    playable = [codes.index(m.args[0]) for m in game.match.legal_moves(0) if m.kind == "play"]
    assert len(playable) >= 2, "seed 3 deals seat 1 two playable cards"
    first, second = playable[:2]
    row.cards[first].click()
    assert game.moves.prefix == [codes[first]] and not game.match.moves
    names = [c["name"] for c in hand_zone(game.match.view(0), 0)["cards"]]
    assert f"Play a card (card: {names[first]})" in game.moves.hint.value         # which card
    assert "click it again or press Play" in game.moves.hint.value
    # the chosen card and the others it may give way to stay outlined; no other card is
    assert {i for i, card in enumerate(row.cards) if "pt-clickable" in card._dom_classes} == set(playable)
    row.cards[second].click()                       # another card: chosen instead, nothing played
    assert game.moves.prefix == [codes[second]] and not game.match.moves
    row.cards[second].click()                       # the same card again: played
    assert game.match.moves[0].kind == "play" and game.match.moves[0].args == (codes[second],)


def test_a_click_on_the_deck_draws_while_draw_is_offered_and_does_nothing_otherwise():
    """The example's deck names the move "draw" (the zone vocabulary's pile "move"): it is
    outlined while Draw is among seat 1's moves and a click on it draws (CE-6); the
    discard pile names no move; a rewound match offers no move, and the deck takes no
    click."""
    game = app(seats=2, seed=3, players={1: "heuristic"})
    deck = game.board.parts[("pile", "deck", None)].card
    discard = game.board.parts[("pile", "discard pile", None)].card
    assert "pt-clickable" in deck._dom_classes and "pt-clickable" not in discard._dom_classes
    discard.click()
    assert not game.match.moves
    held = hand_zone(game.match.view(0), 0)["count"]
    deck.click()
    assert [(m.seat, m.kind) for m in game.match.moves] == [(0, "draw")]
    assert hand_zone(game.match.view(0), 0)["count"] == held + 1 and not game.banner.message
    game.goto(0)                                    # rewound: moves are off
    assert "pt-clickable" not in deck._dom_classes
    deck.click()
    assert len(game.match.moves) == 1 and game.match.cursor == 0


def test_a_decision_of_one_kind_starts_with_that_kind_chosen():
    """After an eight (CE-5) the only moves are the four suits: "Name the suit" starts
    chosen, its suit list on show, so naming a suit is a choice and Play (it was: the
    button, the list, Play); a decision of several kinds starts with none chosen."""
    game = app(seats=2, seed=0, players={1: "heuristic"})
    assert game.moves.kind is None                                  # Play a card or Draw
    game.play(Move(0, "play", ("8C",)))
    assert game.moves.kind == "nominate" and game.moves.prefix == []
    [suits] = [d for d in game.moves.dropdowns if d in game.moves.arg_box.children]
    assert [value for _label, value in suits.options] == ["clubs", "diamonds", "hearts", "spades"]
    suits.value = "hearts"
    game.moves.play_button.click()
    assert game.match.moves[1] == Move(0, "nominate", ("hearts",))


def test_a_whole_game_is_played_on_the_board_with_components_updated_in_place():
    game = app(seats=3, seed=5)
    board = game.board
    rng = random.Random(1)
    parts, panels = dict(board.parts), list(board.panels)
    assert game.moves.buttons and game.moves.title.layout.display is None      # "Your move" over its buttons
    for _ in range(3000):
        if game.match.outcome() is not None:
            break
        if game.moves.kind is None:
            game.moves.select(rng.choice([m.kind for m in game.match.decision_moves(0)]))
        else:
            answer_builder(game.moves, rng)
    outcome = game.match.outcome()
    assert outcome is not None
    assert "Game over" in board.status.value and for_people(outcome.reason) in board.status.value   # seats from 1
    assert game.moves.title.layout.display == "none" and "Game over." in game.moves.hint.value   # no "Your move"
    assert all(board.parts[key] is part for key, part in parts.items())
    assert board.panels[:3] == panels
    assert f"score {outcome.scores[0]}" in board.panels[0][1].value


def test_a_view_without_zones_is_shown_as_json_and_a_bad_zone_is_named():
    game = app()
    board = game.board
    board.update({"seats": 3, "anything": [1, 2]}, set())
    assert board.widget.children == (board.text,) and "anything" in board.text.value
    with pytest.raises(ValueError, match="zone vocabulary has hand, pile, tableau, row, counter"):
        board.update({"seats": 3, "zones": [{"kind": "stack", "name": "x", "owner": None}]}, set())


def test_card_at_finds_a_hand_card_and_a_pile_top():
    game = app()
    board = game.board
    view = game.match.view(0)
    index = view["zones"].index(hand_zone(view, 0))
    assert board.card_at(f"zones.{index}.cards.0") is board.parts[("hand", "hand", 0)].cards[0]
    assert board.card_at("zones.1") is board.parts[("pile", "discard pile", None)].card
    assert board.card_at("zones.99.cards.0") is None and board.card_at("hands.0") is None


def test_a_game_without_a_rules_text_shows_its_rulings_in_how_to_play():
    """Crazy Eights has no board, so no rules text of its own: its "How to play" panel
    lists the rulings it declares (and the engine's G ids), each id with its line."""
    import html
    from playtest.engine import G_RULINGS
    game = app()
    assert game.board.rules_html == "" and game.rules.layout.display != "none"
    assert game.rules.get_title(0) == "How to play" and game.rules.selected_index is None
    text = game.rules.children[0].value
    for rid, line in [*G_RULINGS.items(), *CrazyEights.RULINGS.items()]:
        assert f"<li><b>{rid}</b>: {html.escape(line)}</li>" in text, rid
    assert text.index("G-4") < text.index("CE-1") and "pt-rules" in game.rules.children[0]._dom_classes


def test_a_refused_move_says_what_its_ruling_says():
    """A move the rules refuse is said in the banner with its ruling id and that
    ruling's line, as the game declares it."""
    from playtest import Move
    game = app()
    text = game.refuse(Move.parse("0 pass"))
    assert text.startswith("Not allowed (CE-6): A seat passes only after drawing")
    assert text.endswith(f". The rule: {CrazyEights.RULINGS['CE-6']}.") and game.banner.message == text
