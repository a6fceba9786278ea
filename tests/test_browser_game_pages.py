"""In headless Chromium, against the test process's shared ``playtest serve``: the index
lists every game ``games()`` returns, and each one's game page (``game.ipynb?game=NAME``)
and learn page (``learn.ipynb?game=NAME``) open on its board (Crazy Eights, a package
outside the kit on the generic board, where it is installed; test_browser_crazy_eights.py
installs it for its own server); an address naming no game gets the
sentence linking every game, not a traceback."""
from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from playtest.pages import game_page, learn_page

pytestmark = pytest.mark.browser

GAMES = {ep.name: ep.load() for ep in entry_points(group="playtest.games")}
"""The games the server finds: its ``games()`` (a game registered in this test process,
such as the toy game, is not the server's)."""
TAUGHT = sorted(name for name, game in GAMES.items() if game.TUTORIAL is not None)


def open_page(dashboards, path: str, ready: str):
    """A fresh context's page at ``path`` of the shared server, once ``ready`` shows;
    returns (page, its uncaught errors). Close ``page.context`` after."""
    context = dashboards.browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{dashboards.base}/voila/render/{path}", timeout=180_000)
    page.wait_for_selector(ready, timeout=180_000)
    return page, errors


def test_the_index_links_every_game_and_its_learn_page(dashboards):
    page, errors = open_page(dashboards, "index.ipynb", "a:has-text('Balance lab')")
    try:
        page.wait_for_selector(f"a[href='{game_page(sorted(GAMES)[-1])}']", timeout=180_000)
        for name, game in GAMES.items():
            link = page.get_by_role("link", name=game.title, exact=True)
            assert link.count() == 1 and link.get_attribute("href") == game_page(name), name
            learn = page.get_by_role("link", name=f"Learn {game.title}", exact=True)
            assert learn.count() == (game.TUTORIAL is not None), name
            if game.TUTORIAL is not None:
                assert learn.get_attribute("href") == learn_page(name)
        for kit_page in ("Lobby: live tables", "All tables", "Card editor", "Balance lab", "Scenario debugger"):
            assert page.get_by_role("link", name=kit_page, exact=True).count() == 1, kit_page
        last = GAMES[sorted(GAMES)[-1]].title
        page.get_by_role("link", name=last, exact=True).click()     # as a person would
        page.wait_for_selector(".pt-table .pt-card", timeout=180_000)
        assert page.locator("h1", has_text=last).count() == 1
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_page_opens_on_its_board(dashboards, name):
    page, errors = open_page(dashboards, game_page(name, "seed=4"), ".pt-table .pt-card")
    try:
        assert page.locator("h1", has_text=GAMES[name].title).count() == 1
        assert page.locator(".pt-controls button:visible").count() > 0             # the seat's moves
        assert page.locator(".pt-no-game").count() == 0
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("name", TAUGHT)
def test_every_games_learn_page_opens_its_first_lesson(dashboards, name):
    page, errors = open_page(dashboards, learn_page(name), ".pt-table .pt-card")
    try:
        assert page.locator("h1", has_text=f"Learn to play {GAMES[name].title}").count() == 1
        assert page.locator(".pt-coach-progress").inner_text().strip()               # the coach: lesson 1
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("path, says, listed", [
    ("game.ipynb?game=no_such_game", "No game installed here is named 'no_such_game'", len(GAMES)),
    ("game.ipynb", "names none", len(GAMES)),
    ("learn.ipynb?game=no_such_game", "No game installed here is named 'no_such_game'", len(TAUGHT))])
def test_an_address_without_a_game_gets_the_sentence_linking_the_games(dashboards, path, says, listed):
    page, errors = open_page(dashboards, path, ".pt-no-game")
    try:
        text = page.locator(".pt-no-game").inner_text()
        assert says in text and "Traceback" not in page.content()
        links = page.locator(".pt-no-game a")
        assert links.count() == listed and "?game=" in links.first.get_attribute("href")
        links.first.click()                                                          # a link opens a game
        page.wait_for_selector(".pt-table .pt-card", timeout=180_000)
    finally:
        page.context.close()
    assert not errors, errors
