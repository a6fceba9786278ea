"""The worked example outside the kit (examples/crazy_eights): its entry point, its
rulings (declared, cited, listed in its RULINGS.md), its tutorial played through on the
generic board, and its example scenario."""
from __future__ import annotations

import re
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from widget_support import fresh_widgets  # noqa: F401 (autouse fixture)
from test_tutorials import check_step, make_move

from playtest.engine import Game, IllegalMove, Match, Move, Table, registry
from playtest.scenarios import Scenario
from playtest.widgets.board import ViewBoard
from playtest.widgets.tutorial import TutorialApp

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "crazy_eights"
sys.path.insert(0, str(EXAMPLE))
from crazy_eights import CrazyEights  # noqa: E402

PACKAGE = EXAMPLE / "crazy_eights"
SCENARIO = PACKAGE / "scenarios" / "crazy_eights_eight_names_the_suit.toml"


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    """The game by its name for this test only (as the installed entry point gives it)."""
    monkeypatch.setitem(registry._registered, CrazyEights.name, CrazyEights)


def test_the_entry_point_names_the_game_class():
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))
    points = project["project"]["entry-points"]["playtest.games"]
    assert list(points) == ["crazy_eights"]
    game = EntryPoint("crazy_eights", points["crazy_eights"], "playtest.games").load()
    assert game is CrazyEights and issubclass(game, Game) and game.name == "crazy_eights"


def test_rulings_are_declared_cited_and_listed():
    declared = set(CrazyEights.RULINGS)
    assert declared == {f"CE-{i}" for i in range(1, 13)}
    cited = set(re.findall(r"\bCE-\d+\b", (PACKAGE / "rules.py").read_text(encoding="utf-8")))
    listed = set(re.findall(r"^## (CE-\d+)", (EXAMPLE / "RULINGS.md").read_text(encoding="utf-8"), re.M))
    assert cited <= declared and listed == declared


@pytest.mark.parametrize("move, ruling", [("0 play KD", "CE-4"), ("0 pass", "CE-6"), ("1 play 4H", "CE-4"),
                                          ("0 nominate hearts", "CE-5"), ("0 play 8", "CE-1")])
def test_a_refused_move_cites_its_ruling_and_changes_nothing(move, ruling):
    match = Scenario.load(SCENARIO).to_match(upto=0)
    before = match.fingerprint()
    with pytest.raises(IllegalMove) as refused:
        match.play(move)
    assert refused.value.ruling == ruling and match.fingerprint() == before


def test_the_example_scenario_passes_and_a_wrong_expectation_fails():
    assert Scenario.load(SCENARIO).verify() == []
    wrong = SCENARIO.read_text(encoding="utf-8").replace('"outcome.scores" = [-16, 0]', '"outcome.scores" = [-15, 0]')
    assert len(Scenario.from_toml(wrong).verify()) == 1


def test_the_tutorial_plays_through_on_the_generic_board():
    app = TutorialApp(str(PACKAGE / "tutorial.toml"))
    assert isinstance(app.board, ViewBoard)
    tutorial = app.tutorial
    for lesson in tutorial.lessons:
        for step in lesson.steps:
            check_step(app, tutorial, step)
            if step.do:
                make_move(app, Move.parse(step.do))
            else:
                app.next_button.click()
            assert app.banner.message == ""
        app.next_button.click()
    assert app.in_finale
    for _ in range(400):
        if app.match.outcome() is not None or app.hint() and app.hinted is None:
            break
        make_move(app, app.hinted)
    assert app.match.outcome() is not None


def test_bots_finish_games_at_every_table_size():
    for seats in (2, 5, 6, 15):
        match = Match(CrazyEights, seats, seed=seats)
        table = Table(match, {s: "heuristic" if s % 2 else "random" for s in range(seats)})
        while table.step_bot() is not None:
            pass
        assert match.outcome() is not None and match.outcome().finished


def test_the_suit_to_match_reads_to_be_named_while_an_eight_waits_for_its_suit():
    """CE-5: after an eight and before its suit is named, the board's counter says the
    suit is to be named, not the suit it replaces; once named, it shows that suit."""
    match = Match(CrazyEights, 2, seed=0)
    for _ in range(500):
        eights = [m for m in match.legal_moves(match.to_act()[0]) if m.kind == "play" and m.args[0].startswith("8")]
        if eights:
            break
        match.play(next(m for m in match.legal_moves(match.to_act()[0]) if m.kind in ("draw", "pass", "play")))
    assert eights, "no eight came up to play"
    counter = lambda: next(z["value"] for z in match.view(None)["zones"] if z["name"] == "suit to match")
    match.play(eights[0])
    assert counter() == "to be named (CE-5)"
    match.play(Move(eights[0].seat, "nominate", ("hearts",)))
    assert counter() == "♥ hearts"
