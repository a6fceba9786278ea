"""Every shipped tutorial is played through on its real board, by its controls.

At each step: the coach shows the step's text; every lit card is drawn lit on the board
at the path the script names, showing the name the text gives it; every claim of the
text holds in the learner's view; another legal move and a move the rules forbid are
refused with why, changing nothing; then the prompted move is made with the board's
buttons, card clicks and dropdowns, as a person would. After the lessons, the finale
is played to its end by following the Hint button. Then: a tutorial with a mistake is
refused with the line and the reason (a rules editor's file).
"""
from __future__ import annotations

import re

import pytest
from ipywidgets.widgets.widget import _instances
from widget_support import fresh_widgets  # noqa: F401 (autouse fixture)

from playtest.engine import Move, games
from playtest.games.lazy_sunday.rules import ACTIONS
from playtest.games.night_shift.widget import ActionButtons
from playtest.scenarios import view_value
from playtest.tutorials import Light, Tutorial, TutorialError, load_tutorial, tutorials
from playtest.widgets.app import refusal_text
from playtest.widgets.tutorial import TutorialApp, paragraphs

GAMES = ["lazy_sunday", "chore_race", "night_shift"]


def test_every_game_has_a_tutorial():
    """The kit's games ship one, and the list is every installed game's declared one."""
    assert set(GAMES) <= set(tutorials()) == {name for name, game in games().items() if game.TUTORIAL}


def make_move(app: TutorialApp, move: Move) -> None:
    """Make ``move`` through the app's controls: its button, then card clicks where the
    board takes them (a card of the right seat and position), else the dropdowns, then
    Play if it is still waiting."""
    game = app.game
    builder = app.open_moves if move.kind in game.OPEN_MOVES else app.moves
    if isinstance(builder, ActionButtons):                   # Night Shift: one button per move
        builder.click(app.board.describe(move, app.match.view(app.viewer)))
        return
    before = len(app.match.moves)
    builder.buttons[move.kind].click()
    names = list(game.MOVE_ARGS[move.kind])
    while builder.kind == move.kind and len(app.match.moves) == before:
        i = len(builder.prefix)
        if i >= len(names):
            builder.play_button.click()
            break
        pair = next(((s, p) for s, p in builder.card_args.get(move.kind, ())
                     if (names.index(s) if s else names.index(p) if p else -1) == i), None)
        if pair is not None:
            seat = move.args[names.index(pair[0])] if pair[0] else move.seat
            pos = move.args[names.index(pair[1])] if pair[1] else None
            app.card_clicked(seat, pos)
        else:
            builder.choose(i, move.args[i])
    assert len(app.match.moves) > before, f"{move} was not played; banner: {app.banner.message}"


def check_step(app: TutorialApp, tutorial: Tutorial, step) -> None:
    """The step as drawn: its text, its lit cards where the text says, its claims."""
    assert paragraphs(step.say) in app.text.value
    for entry in step.light:
        path = entry if isinstance(entry, str) else entry.card
        card = app.board.card_at(path)
        assert card is not None and "pt-lit" in card._dom_classes, path
        if isinstance(entry, Light):
            assert card.description.split("\n")[0] == entry.name and entry.name in " ".join(step.say.split())
    view = app.match.view(tutorial.seat)
    for path, value in step.claims.items():
        assert view_value(view, path) == value, path


def try_wrong_moves(app: TutorialApp, tutorial: Tutorial, step) -> None:
    """Another legal move, then a move the rules forbid: each refused, nothing changes."""
    seat = tutorial.seat
    before, refused = app.match.fingerprint(), app.refusals
    expected = Move.parse(step.do) if step.do else None
    other = next((m for m in app.match.decision_moves(seat) if m != expected), None)
    if other is not None:
        app.play(other)
        assert app.refusals == refused + 1 and app.feedback.value
        if step.wrong:
            assert " ".join(step.wrong.split())[:30] in app.feedback.value.replace("&quot;", '"')
    forbidden = Move(seat, "nonsense")
    app.play(forbidden)
    assert app.feedback.value.startswith("Not allowed")
    assert app.match.fingerprint() == before


@pytest.mark.parametrize("game", GAMES)
def test_the_tutorial_plays_through_on_the_real_board(game):
    app = TutorialApp(game)
    tutorial = app.tutorial
    assert app.coach in app.widget.children and app.viewer == tutorial.seat
    for i, lesson in enumerate(tutorial.lessons):
        assert app.lesson == i and not app.in_finale
        for j, step in enumerate(lesson.steps):
            assert app.step == j and app.current is step
            check_step(app, tutorial, step)
            shown = app.moves.kind_box.children          # a step to read greys the moves out, saying why
            assert all(button.disabled != bool(step.do) for button in shown), (i, j)
            assert step.do or all(button.disabled for button in app.open_moves.kind_box.children), (i, j)
            assert step.do or "Read this step first, then press Next." in app.moves.hint.value, app.moves.hint.value
            if j == 0:
                try_wrong_moves(app, tutorial, step)
            if step.do:
                assert app.next_button.layout.display == "none"
                make_move(app, Move.parse(step.do))
                assert ("Well done" in app.feedback.value) == (app.current is None)   # not under a new step
                assert ("Well done. Next:" in app.text.value) == (app.current is not None)  # above it
            else:
                app.next_button.click()
            assert app.banner.message == ""
        assert app.current is None and app.next_button.layout.display != "none"
        shown = app.moves.kind_box.children + app.open_moves.kind_box.children   # the lesson done: moves greyed out
        assert all(button.disabled for button in shown)
        assert f"This lesson is done: press {app.next_button.description}." in app.moves.hint.value   # its label
        assert app.next_button.description in ("Next lesson", "Start the game")
        app.next_button.click()                                  # next lesson, or the game
    assert app.in_finale and app.hint_button.layout.display != "none"
    assert set(app.match.game.seats and app.players.values()) == {tutorial.finale.bot}
    for _ in range(600):
        if app.match.outcome() is not None:
            break
        text = app.hint()
        if app.hinted is None:
            assert text == "Nothing to decide right now."
            break
        assert text.startswith("Hint: ") and app.hinted in app.match.legal_moves(tutorial.seat)
        assert text[-1] in ".!?" and not text.endswith(("!.", "?.", "..")), text     # one stop
        make_move(app, app.hinted)
        assert "Hint:" not in app.feedback.value                 # the hint was for the position before
    assert app.match.outcome() is not None, "the finale did not end by following the hints"
    assert app.again_button.layout.display != "none" and app.banner.message == ""
    assert app.feedback.value.startswith("Game over: ") and "the tutorial&#x27;s last game" in app.feedback.value
    assert app.hint_button.disabled                                  # nothing left to hint
    app.again_button.click()                                         # Play again: hints again
    assert app.match.outcome() is None and not app.hint_button.disabled


def test_wrong_moves_are_refused_in_the_coach_with_why():
    app = TutorialApp("lazy_sunday")
    before = app.match.fingerprint()
    app.play(Move(0, "draw"))                    # setup: nobody draws before peeking (LS-3, LS-4)
    assert app.feedback.value.startswith("Not allowed (LS-4)") and "peeking" in app.feedback.value
    assert app.match.fingerprint() == before and app.step == 0
    app.open_lesson(1)
    while app.current.do != "0 claim 0 0 4":
        make_move(app, Move.parse(app.current.do))
    before = app.match.fingerprint()
    app.open_moves.buttons["claim"].click()      # "Done it!", then a click on Ann's first card:
    app.board.rows[1].cards[0].click()           # a legal claim (a wrong one), not this step's
    assert app.feedback.value.startswith("Claim your first card") and app.match.fingerprint() == before
    assert app.banner.message == "" and app.step == 2


def test_a_card_click_that_makes_no_move_in_a_lesson_is_answered_with_what_the_step_asks():
    app = TutorialApp("lazy_sunday")
    make_move(app, Move.parse(app.current.do))                     # lesson 1: the peek; now "Done looking"
    assert app.current.do == "0 done"
    before, refusals = app.match.fingerprint(), app.refusals
    app.board.rows[1].cards[0].click()                              # Ann's card: no move uses it now
    assert app.feedback.value == "That card is not part of this step, which asks for: Done looking."
    assert app.refusals == refusals + 1 and app.match.fingerprint() == before and app.banner.message == ""


def test_a_new_step_leads_with_the_last_steps_well_done_and_has_none_under_it():
    # Lazy Sunday lesson 2: after "Keep it", step 3 asks for a Done it! that is not done yet
    app = TutorialApp("lazy_sunday")
    app.open_lesson(1)
    for text in ["0 draw", "0 keep 1"]:
        make_move(app, Move.parse(text))
    assert app.step == 2 and app.current.do == "0 claim 0 0 4"
    assert app.feedback.value == ""                                        # nothing under the new step
    assert app.text.value.startswith("<p class='pt-coach-done'>✓ Well done. Next:</p>")   # the last one's, above
    # a move that ends its lesson (no new step starts) is still met with "Well done."
    last = GOOD.index('[[lessons.steps]]\nsay = """\nAnn and Bo have peeked too.')
    short = TutorialApp(Tutorial.from_toml(GOOD[:last] + GOOD[GOOD.index("# --- lesson 2"):], "short.toml"))
    for text in ["0 peek 0 1", "0 done"]:
        make_move(short, Move.parse(text))
    assert short.current is None and short.feedback.value == "Well done."
    # a wrong move on the new step takes the last step's praise away: the refusal stands alone
    app.play(Move(0, "draw"))
    assert app.feedback.value and "pt-good" not in app.feedback._dom_classes
    assert "Well done" not in app.text.value and app.step == 2


# --- a rules editor's mistakes ------------------------------------------------------------------
GOOD = tutorials()["lazy_sunday"].read_text(encoding="utf-8")


@pytest.mark.parametrize("change, line_text, reason", [
    (('do = "0 peek 0 1"', 'do = "0 draw"'), 'do = "0 draw"', "is illegal (LS-4)"),
    (('do = "0 peek 0 1"', 'do = "1 peek 0 1"'), 'do = "1 peek 0 1"', "other seats' moves go in `then`"),
    (('{ card = "lists.0.0", name = "Nap" }, { card', '{ card = "lists.0.0", name = "Bins" }, { card'),
     'name = "Bins"', "shows 'Nap' to the learner, not 'Bins'"),
    (('claims = { "lists.0.0.effort" = 0,', 'claims = { "lists.0.0.effort" = 4,'), '"lists.0.0.effort" = 4',
     "but the learner's view shows 0"),
    (('light = ["deck"]', 'light = ["decks"]'), 'light = ["decks"]', "not in the learner's view"),
    (('wrong = "Draw from', 'worng = "Draw from'), "worng =", "did you mean 'wrong'?"),
    (('then = ["1 draw", "1 discard",', 'then = ["1 draw", "1 keep 9",'), '"1 keep 9"', "is illegal"),
])
def test_a_tutorial_with_a_mistake_names_the_line_and_the_reason(change, line_text, reason):
    old, new = change
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    with pytest.raises(TutorialError) as caught:
        Tutorial.from_toml(text, "mine.toml")
    error = caught.value
    assert reason in error.reason, error.reason
    assert error.line is not None and line_text in text.splitlines()[error.line - 1], (error.line, str(error))
    assert str(error).startswith(f"mine.toml, line {error.line}: ")


def test_an_unknown_tutorial_lists_the_shipped_ones():
    with pytest.raises(TutorialError, match=f"tutorials: {', '.join(tutorials())}$"):
        load_tutorial("go_fish")


def test_the_tutorial_app_is_built_once_and_updated_in_place():
    app = TutorialApp("night_shift")
    make_move(app, Move.parse(app.current.do))
    app.restart()
    app.open_lesson(1)
    count = len(_instances)
    for _ in range(3):
        app.restart()
        make_move(app, Move.parse(app.current.do))
    assert len(_instances) == count                   # the same widgets, updated in place


# --- the whole of Lazy Sunday, and refusals in a player's words -------------------------------
def test_the_lazy_sunday_tutorial_teaches_the_whole_game():
    """LS-2, LS-4, LS-5: some step's move burns each of the eight action cards, takes the
    DONE card, claims another player's card rightly and gives a card into the gap, and
    claims wrongly (the card stays, a penalty card joins the learner's list). The
    play-through test above reaches each of these steps on the real board and makes its
    move by the controls."""
    tutorial = load_tutorial("lazy_sunday")
    taught = set()
    for at in tutorial.walk():
        if not at.step.do:
            continue
        move, match = Move.parse(at.step.do), at.match
        before = [len(cards) for cards in match.view(0)["lists"]]
        after = match.branch()
        after.play(move)
        lists = [len(cards) for cards in after.view(0)["lists"]]
        if move.kind == "claim" and move.args[0] != move.seat:
            right = lists[move.args[0]] == before[move.args[0]] - 1
            taught.add("claim on another's card" if right else "wrong claim")
            if not right:       # the card stays; the learner draws a penalty card (LS-5)
                assert lists == [before[0] + 1, *before[1:]]
            else:
                assert after.view(0)["give"] == {"seat": 0, "to": move.args[0], "pos": move.args[1]}
        elif move.kind in (*ACTIONS, "take", "give"):
            taught.add(move.kind)
    assert taught == {*ACTIONS, "take", "give", "claim on another's card", "wrong claim"}
    intro = tutorial.lessons[0].steps[0].say
    assert "10 to 13" in intro       # efforts do not stop at 9 (LS-2)


def test_no_lazy_sunday_lesson_refuses_a_right_done_it():
    """LS-5: whenever the card on DONE matches a card the learner remembers, a Done it! on
    it is right, and a lesson may not refuse it: such a step asks for that Done it! (fresh
    users found lesson 6 opening on DONE's Feed the Fish, the learner's known third card,
    and lesson 5 saying a Done it! would be right, then refusing it for a draw)."""
    chances = []
    for at in load_tutorial("lazy_sunday").walk():
        view = at.match.bot_view(0)
        top = (view["done"].get("top") or {}).get("name")
        if top in view["memory"][0] and any(m.kind == "claim" for m in at.match.legal_moves(0)):
            chances.append((at.lesson + 1, at.index + 1, top, at.step.do))
    assert chances, "no lesson teaches a Done it!"
    assert all(do and Move.parse(do).kind == "claim" for *_, do in chances), chances


NOTATION = re.compile(r"\b[a-z] < [a-z]\b|\.\.\d|'[a-z_]+'")
"""Programmer's notation in a message: ``a < b``, ``0..5``, a quoted move kind."""


def wrong_moves(match, seat: int) -> list[Move]:
    """Typical wrong moves of ``seat`` here: its moves with a card picked twice or a
    position not in a list (each whole-number argument set to another argument's value,
    or to 0, 1, 6 or 9; each card name to another card named by its moves), and the
    other seats' moves made by ``seat`` (out of turn)."""
    own = match.legal_moves(seat)[:40]
    names = sorted({a for move in own for a in move.args if type(a) is str})       # cards named by name
    found = []
    for move in own:
        for i, arg in enumerate(move.args):
            if type(arg) is int:
                values = {0, 1, 6, 9, *(a for a in move.args if type(a) is int)}
            elif type(arg) is str:
                values = set(names)
            else:
                continue
            for value in values:
                found.append(Move(seat, move.kind, (*move.args[:i], value, *move.args[i + 1:])))
    for other in range(match.game.seats):
        if other != seat:
            found += [Move(seat, m.kind, m.args) for m in match.decision_moves(other)[:10]]
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_refusal_in_a_tutorial_is_in_a_players_words(game):
    """At every step, the same card twice, a card not in a list and moves out of turn
    are refused with a ruling id and words a player reads: no ``a < b``, no ``0..5``, no
    move text. One of them per step goes through the coach panel itself."""
    app = TutorialApp(game)
    tutorial, seat, checked = app.tutorial, app.tutorial.seat, 0
    for i, lesson in enumerate(tutorial.lessons):
        app.open_lesson(i)
        for step in lesson.steps:
            refused = []
            for move in wrong_moves(app.match, seat):
                refusal = app.match.refusal(move)
                if refusal is not None:
                    text = refusal_text(refusal, app.game)
                    assert not NOTATION.search(text), (i, step.say[:40], str(move), text)
                    assert refusal.ruling and f"({refusal.ruling})" in text, text
                    refused.append(move)
            if refused:
                before = app.match.fingerprint()
                app.play(refused[0])
                assert app.feedback.value.startswith("Not allowed (") and not NOTATION.search(app.feedback.value)
                assert app.match.fingerprint() == before
            checked += len(refused)
            if step.do:
                app.play(Move.parse(step.do))
            else:
                app.next()
    assert checked > 50


def test_the_same_card_clicked_twice_to_peek_is_refused_in_a_players_words():
    app = TutorialApp("lazy_sunday")
    app.moves.buttons["peek"].click()
    app.card_clicked(0, 1)
    app.card_clicked(0, 1)                       # the same card again
    assert app.feedback.value == ("Not allowed (LS-3): You picked the same card twice: pick two different "
                                  f"cards of your list. The rule: {app.game.RULINGS['LS-3']}.")
    assert app.step == 0 and app.refusals == 1


def test_the_bots_give_a_reaction_time_in_the_closing_game_only(monkeypatch):
    """A lesson is a script, so its bots never wait; in the closing game they give the
    learner the game page's reaction time before a Done it! (playtest.widgets.app.BOT_REACTION,
    0 in the tests but here)."""
    import playtest.widgets.app as app_module
    monkeypatch.setattr(app_module, "BOT_REACTION", 1.5)
    app = TutorialApp("lazy_sunday")
    assert app.reaction_time() == 0.0
    app.open_finale()
    assert app.reaction_time() == 1.5
