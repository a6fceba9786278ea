"""The dashboards that take a game by name (``game.ipynb?game=NAME``, ``learn.ipynb?game=NAME``)
and the index built from ``games()``: every installed game (Crazy Eights, the example
package outside the kit, included) gets both pages and a line on the index, with no kit
file naming it; an address without a game it can show gets one sentence with links."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import toy_game  # noqa: F401  (registers the "toy" game: no board, tutorial or docstring of its own)
from widget_support import fresh_widgets  # noqa: F401 (autouse fixture)

from playtest import Match
from playtest.engine import games
from playtest.pages import blurb, game_page, games_html, learn_page, seat_range
from playtest.widgets import GameApp
from playtest.widgets.board import board_class
from playtest.widgets.gamepage import GamePage, LearnPage
from playtest.widgets.newgame import HUMAN, default_bot
from playtest.widgets.records import pack_record

ROOT = Path(__file__).resolve().parent.parent
DASHBOARDS = ROOT / "playtest" / "dashboards"
GAMES = sorted(games())
TAUGHT = sorted(name for name, game in games().items() if game.TUTORIAL is not None)


def test_crazy_eights_an_installed_package_outside_the_kit_is_one_of_the_games():
    assert {"chore_race", "crazy_eights", "lazy_sunday", "night_shift"} <= set(GAMES)
    assert not list((ROOT / "playtest").rglob("*crazy_eights*"))      # no kit file of its own


def code_of(notebook: str) -> str:
    cells = json.loads((DASHBOARDS / notebook).read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def test_no_dashboard_is_a_single_games_and_no_dashboards_code_names_a_game():
    names = {p.name for p in DASHBOARDS.glob("*.ipynb")}
    assert {"game.ipynb", "learn.ipynb", "index.ipynb"} <= names
    for notebook in names:
        for name in games():
            assert f"{name}.ipynb" not in names and f"learn_{name}.ipynb" not in names
            assert name not in code_of(notebook), (notebook, name)


def test_every_dashboard_names_itself_in_the_browsers_tab():
    """The tab of a page says what it is (a fresh user's tabs read "index", "game",
    "learn" and "lobby", the file names): Voilà's page title is the notebook's
    ``metadata.title``. A seat page then shows whose turn it is (PageSignals)."""
    titles = {p.stem: json.loads(p.read_text())["metadata"].get("title") for p in DASHBOARDS.glob("*.ipynb")}
    assert all(title and title.endswith(" · playtest") for title in titles.values()), titles
    assert len(set(titles.values())) == len(titles), titles


def test_the_index_lists_every_game_with_its_seats_blurb_and_pages():
    shown = {}
    exec(code_of("index.ipynb"), shown)             # the index's code cell, as its kernel runs it
    text = shown["HTML"](games_html()).data
    assert text == games_html()
    items = re.findall(r"<li>(.*?)</li>", text)
    assert len(items) == len(GAMES)
    for name, game in games().items():
        item = next(i for i in items if f"href='{game_page(name)}'" in i)
        assert item.startswith(f"<a href='{game_page(name)}' target='_self'>{game.title}</a> ({seat_range(game)})")
        assert (blurb(game) or name == "toy") and blurb(game) in item
        assert (f"<a href='{learn_page(name)}' target='_self'>Learn {game.title}</a>" in item) == (game.TUTORIAL is not None)
    titles = [re.sub("<[^>]+>", "", i).split(" (")[0] for i in items]
    assert titles == sorted(titles)                                                          # by title
    assert seat_range(games()["night_shift"]) == "2 seats" and seat_range(games()["lazy_sunday"]) == "2–7 seats"
    assert blurb(games()["lazy_sunday"]).startswith("Keep the lowest total effort")         # the docstring's first paragraph


@pytest.mark.parametrize("name", GAMES)
def test_the_game_page_plays_every_game_on_its_declared_board_with_its_first_seat_count(name):
    page = GamePage()
    assert page.app is None and page.widget.children == (page.header,)      # before the page asks
    page.open(f"game={name}&seed=3")
    game = games()[name]
    app = page.app
    assert page.game is game and isinstance(app.board, board_class(game)) and page.widget.children[-1] is app.widget
    assert app.match.game.seats == (game.SEATS or game.min_seats) and app.match.seed == 3
    assert app.players == {s: default_bot(game) for s in range(1, app.match.game.seats)} and app.humans == [0]
    assert f"<h1>{game.title}</h1>" in page.header.value and "More: seats, rules, saving, share links" in page.header.value
    assert (f"href='{learn_page(name)}'" in page.header.value) == (game.TUTORIAL is not None)


@pytest.mark.parametrize("query, says", [("", "names none"), ("seed=3", "names none"),
                                         ("game=no_such_game", "No game installed here is named 'no_such_game' (a "
                                          "game installed since `playtest serve` started shows once the server is "
                                          "restarted)"),
                                         ("game=chore_race&game=lazy_sunday", "?game= 2 times")])
def test_an_address_without_a_game_gets_one_sentence_linking_every_game(query, says):
    page = GamePage()
    page.open(query)
    assert page.app is None and page.widget.children == (page.header,)
    sentence = re.sub("<[^>]+>", "", re.sub("(?s)<style>.*</style>", "", page.header.value))
    assert says in sentence and sentence.count(".") - sentence.count("ipynb") - sentence.count("?game=") <= 1
    for name, game in games().items():
        assert f"<a href='{game_page(name)}'>{game.title}</a>" in page.header.value


def test_a_record_or_scenario_of_another_game_opens_that_game_and_says_so():
    record = pack_record(Match("lazy_sunday", 3, seed=4))
    page = GamePage()
    page.open(f"game=chore_race&record={record}&players=human,random,random")
    assert page.game.name == "lazy_sunday" and page.app.match.seed == 4 and page.app.players == {1: "random", 2: "random"}
    assert "The link's shared position is a Lazy Sunday game, so this page plays Lazy Sunday" in page.header.value
    page = GamePage()
    page.open(f"record={record}")                        # no ?game= at all: the record says which
    assert page.game.name == "lazy_sunday" and not page.app.banner.message and "pt-page-note" not in page.header.value
    page = GamePage()
    page.open("game=lazy_sunday&scenario=chore_race_winning_chore")
    assert page.game.name == "chore_race" and "scenario is a Chore Race game" in page.header.value
    page = GamePage()
    page.open("game=lazy_sunday&record=damaged!")       # unreadable: the named game says why
    assert page.game.name == "lazy_sunday" and "damaged" in page.app.banner.message


def test_share_links_name_the_game_and_reopen_the_position_on_the_game_page():
    app = GameApp("crazy_eights", seed=2, autosave=False)
    app.play(app.decision_moves(0)[0])
    (_, here), (_, fresh) = app._links()
    assert here.startswith("game=crazy_eights&record=") and fresh.startswith("game=crazy_eights&record=")
    page = GamePage()
    page.open(here)
    assert page.app.match.fingerprint() == app.match.fingerprint() and not page.app.banner.message


def test_a_game_app_takes_board_seats_and_players_from_the_games_declarations():
    for name, game in games().items():
        app = GameApp(name, start=False, autosave=False)
        seats = game.SEATS or game.min_seats
        assert type(app.board) is board_class(game) and app.new_game.seats.value == seats
        assert app._first[:2] == (seats, {0: HUMAN, **{s: default_bot(game) for s in range(1, seats)}})
    hotseat = GameApp("lazy_sunday", seats=2, players={}, seed=1, autosave=False)      # {}: every seat human
    assert hotseat.humans == [0, 1]


@pytest.mark.parametrize("name", TAUGHT)
def test_the_learn_page_teaches_every_game_with_a_tutorial(name):
    page = LearnPage(f"game={name}")
    assert page.app is not None and page.app.game is games()[name] and page.widget.children[-1] is page.app.widget
    assert f"Learn to play {games()[name].title}" in page.header.value and page.app.coach is not None


def test_the_learn_page_without_a_game_or_tutorial_names_those_it_teaches():
    for query, says in [("", "names none"), ("game=nope", "named 'nope'"), ("game=toy", "Toy has no tutorial yet")]:
        page = LearnPage(query)
        assert page.app is None and says in page.header.value, query
        for name in TAUGHT:
            assert f"<a href='{learn_page(name)}'>" in page.header.value
        assert "learn.ipynb?game=toy'" not in page.header.value
