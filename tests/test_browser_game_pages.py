"""In headless Chromium, against the test process's shared ``playtest serve``: the index
lists every game ``games()`` returns, and each one's game page (``game.ipynb?game=NAME``)
and learn page (``learn.ipynb?game=NAME``) open on its board (Crazy Eights, a package
outside the kit on the generic board, installed by the suite as ``pip install -e`` does,
is opened from its link on the index, as a person would); an address naming no game gets
the sentence linking every game, not a traceback.

Layout: each game page at its usual seat count fits a 1280x720 screen (the board, then
the seat's move controls, within the first 720 px after load) and on a 390 px phone no
card runs off the edge (screenshots in /tmp/pt_layout_*.png), and loads nothing from
outside 127.0.0.1."""
from __future__ import annotations

from importlib.metadata import entry_points

import pytest
from browser_support import outside_requests

from playtest.pages import game_page, learn_page

pytestmark = pytest.mark.browser

GAMES = {ep.name: ep.load() for ep in entry_points(group="playtest.games")}
"""The games the server finds: its ``games()`` (a game registered in this test process,
such as the toy game, is not the server's)."""
TAUGHT = sorted(name for name, game in GAMES.items() if game.TUTORIAL is not None)
OUTSIDE = "crazy_eights"
"""The example game outside the kit (examples/crazy_eights), which the suite installs as
``pip install -e`` does (tests/example_install.py): the index's link a person follows."""


def open_page(dashboards, path: str, ready: str, height: int = 1000, requests: list[str] | None = None):
    """A fresh context's page at ``path`` of the shared server (1280 px wide, ``height``
    px high), once ``ready`` shows; returns (page, its uncaught errors). The URL of every
    request the page makes is added to ``requests``. Close ``page.context`` after."""
    context = dashboards.browser.new_context(viewport={"width": 1280, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if requests is not None:
        page.on("request", lambda request: requests.append(request.url))
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
        assert page.title() == "Games and tools · playtest"           # the tab says what the page is
        outside = GAMES[OUTSIDE].title
        page.get_by_role("link", name=outside, exact=True).click()     # as a person would
        page.wait_for_selector(".pt-table .pt-card", timeout=180_000)
        assert page.locator("h1", has_text=outside).count() == 1 and f"game={OUTSIDE}" in page.url
    finally:
        page.context.close()
    assert not errors, errors


GEOMETRY = """() => {
  const box = (e) => { const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
  const cards = [...document.querySelectorAll('.pt-table .pt-card')].filter(e => e.offsetParent);
  const vw = document.documentElement.clientWidth;
  return {controls: box(document.querySelector('.pt-controls')),
          moves: box(document.querySelector('.pt-controls .pt-guarded')),
          lowest: Math.max(...cards.map(e => e.getBoundingClientRect().bottom)),
          clipped: cards.filter(e => { const b = e.getBoundingClientRect(); return b.left < -1 || b.right > vw + 1; }).length,
          cards: cards.length, scroll: document.documentElement.scrollWidth, vw};
}"""
"""Where the page's visible cards and move controls are (px from the viewport's top left)."""


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_games_page_opens_on_its_board_and_fits_a_laptop_and_a_phone(dashboards, name):
    requests: list[str] = []
    page, errors = open_page(dashboards, game_page(name, "seed=4"), ".pt-table .pt-card", 720, requests)
    try:
        assert page.locator("h1", has_text=GAMES[name].title).count() == 1 and page.title() == "Game · playtest"
        assert page.locator(".pt-controls button:visible").count() > 0             # the seat's moves
        assert page.locator(".pt-no-game").count() == 0
        assert page.locator(".pt-seatlabel").count() >= GAMES[name].SEATS
        page.wait_for_timeout(1500)                                                  # the last layout pass
        geometry = page.evaluate(GEOMETRY)
        page.screenshot(path=f"/tmp/pt_layout_{name}_1280x720.png")
        assert geometry["cards"] > 10 and geometry["clipped"] == 0, geometry
        assert 0 <= geometry["controls"]["top"] and geometry["controls"]["bottom"] <= 720, geometry
        assert geometry["moves"]["bottom"] <= 720, geometry                 # the seat's move buttons on screen
        assert geometry["lowest"] <= geometry["controls"]["top"] + 4, geometry   # no card hidden under them
        page.set_viewport_size({"width": 390, "height": 844})                   # the same page on a phone
        page.wait_for_timeout(1000)                                             # the layout pass
        geometry = page.evaluate(GEOMETRY)
        page.screenshot(path=f"/tmp/pt_layout_{name}_390.png", full_page=True)
        assert geometry["clipped"] == 0 and geometry["scroll"] <= 391, geometry      # rows wrap; nothing cut off
        assert geometry["controls"]["bottom"] <= 844, geometry
    finally:
        page.context.close()
    assert not errors, errors
    assert not outside_requests(requests), outside_requests(requests)


@pytest.mark.parametrize("name", TAUGHT)
def test_every_games_learn_page_opens_its_first_lesson(dashboards, name):
    page, errors = open_page(dashboards, learn_page(name), ".pt-table .pt-card")
    try:
        assert page.locator("h1", has_text=f"Learn to play {GAMES[name].title}").count() == 1
        assert page.title() == "Learn to play · playtest"
        assert page.locator(".pt-coach-progress").inner_text().strip()               # the coach: lesson 1
    finally:
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("path, says, follow", [
    ("game.ipynb?game=no_such_game", "No game installed here is named 'no_such_game'", True),
    ("game.ipynb", "names none", False),                 # the same links as the line above
    ("learn.ipynb?game=no_such_game", "No game installed here is named 'no_such_game'", True)])
def test_an_address_without_a_game_gets_the_sentence_linking_the_games(dashboards, path, says, follow):
    learn = path.startswith("learn")
    expected = [learn_page(name) for name in TAUGHT] if learn else [game_page(name) for name in sorted(GAMES)]
    page, errors = open_page(dashboards, path, ".pt-no-game")
    try:
        text = page.locator(".pt-no-game").inner_text()
        assert says in text and "Traceback" not in page.content()
        links = page.locator(".pt-no-game a")
        assert [links.nth(i).get_attribute("href") for i in range(links.count())] == expected
        if follow:
            links.first.click()                                                      # a link opens a game
            page.wait_for_selector(".pt-table .pt-card", timeout=180_000)
    finally:
        page.context.close()
    assert not errors, errors
