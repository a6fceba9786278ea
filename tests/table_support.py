"""What the live-table browser tests share: the tables' scenarios (written into the test
process's shared ``playtest serve``'s scenarios folder), its Chromium, the HTTP API, and a :class:`Player` (one person's browser context, recording every
websocket message its page receives)."""
from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import time
import urllib.request

import pytest
from browser_support import POLL_MS

from playtest import Match
from playtest.games.lazy_sunday import LazySunday
from playtest.games.lazy_sunday.widget import RULES_HTML
from playtest.widgets.gameboard import how_to_play_html


LS_NAMES = sorted(set(LazySunday(2).cards.names))
RULES = json.dumps(how_to_play_html(LazySunday, RULES_HTML), ensure_ascii=False)[1:-1]
"""The "How to play" panel (rules text and rulings), as a frame carries it (UTF-8)."""
LS_PATTERNS = {n: re.compile(r"(?<![\w'])" + re.escape(n) + r"(?![\w'])") for n in LS_NAMES}

# 4 seats after setup (each seat peeked at its positions 0 and 1, LS-3): Water the Plants
# tops DONE; seat 0 (a person) holds it at 0, seat 1 (a person) at 3, seat 2 (a heuristic
# bot) at 0, which it peeked, so it will slap it once its reaction time is up
SLAPS = '''
title = "Slaps"
game = "lazy_sunday"
seats = 4
seed = 3
moves = ["0 peek 0 1", "0 done", "1 peek 0 1", "1 done", "2 peek 0 1", "2 done", "3 peek 0 1", "3 done"]

[setup]
lists = [
    ["Water the Plants", "Nap", "Feed the Fish", "Clean the Oven", "Make the Bed", "Take Out the Bins"],
    ["Nap", "Fold the Laundry", "Make the Bed", "Water the Plants", "Feed the Fish", "Scrub the Bathroom"],
    ["Water the Plants", "Load the Dishwasher", "Clean the Oven", "Vacuum the Stairs", "Make the Bed", "Feed the Fish"],
    ["Vacuum the Stairs", "Load the Dishwasher", "Clean the Oven", "Fold the Laundry", "Make the Bed", "Scrub the Bathroom"],
]
done = ["Water the Plants"]
'''

# Chore Race, 2 people: seat 0 is about to inspect seat 1's Do the Laundry; seat 1 holds
# an Excuse (the shipped reaction-window example, before its last two moves)
REACTION = '''
title = "Reaction"
game = "chore_race"
seats = 2
seed = 1
moves = ["0 end", "1 done 0", "1 end"]

[setup]
hands = [
    ["Inspection", "Inspection", "Done", "Done", "Finally!"],
    ["Done", "Excuse", "I'll Do It Later", "Done", "Teamwork"],
]
tableaus = [
    ["Wash the Dishes", "Mop the Floor", "Feed the Cat"],
    ["Do the Laundry", "Make Your Bed", "Water the Plants"],
]
deck_top = ["Done", "Done", "Done"]
'''

# Chore Race, 3 people: seat 0 (on turn, its draw done) holds a Family Meeting; each seat
# holds card kinds no other seat holds, so a name on a page tells whose card it is
MEETING = '''
title = "Family Meeting"
game = "chore_race"
seats = 3
seed = 2
moves = []

[setup]
hands = [
    ["Family Meeting", "Done", "Done", "Finally!", "Finally!"],
    ["Inspection", "Inspection", "Delegate", "Chore Swap", "Chore Swap"],
    ["Teamwork", "Teamwork", "Excuse", "I'll Do It Later", "I'll Do It Later"],
]
deck_top = ["Done"]
'''


@pytest.fixture(scope="module")
def server(dashboards):
    """The test process's shared ``playtest serve``, its scenarios folder holding the
    tables' scenarios; ``(base URL, the server's table store folder)``."""
    for name, text in (("slaps", SLAPS), ("reaction", REACTION), ("meeting", MEETING)):
        (dashboards.scenarios / f"{name}.toml").write_text(text, encoding="utf-8")
    return dashboards.base, dashboards.data


@pytest.fixture(scope="module")
def browser(chromium):
    """The test process's headless Chromium (each player opens a context of their own)."""
    return chromium


def api(base, method, path, body=None, token=None):
    request = urllib.request.Request(f"{base}/playtest/api/{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def create(base, **spec):
    status, made = api(base, "POST", "tables", spec)
    assert status == 201, made
    return made


RECORD_FRAMES = """(() => {
  // every websocket message the page receives, stamped when it arrives (Playwright's own
  // frame events reach Python only while the test calls into Playwright)
  window.__ptFrames = [];
  const decoder = new TextDecoder('utf-8');
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const at = Date.now() / 1000, data = event.data;
        if (typeof data === 'string') window.__ptFrames.push([at, data]);
        else if (data instanceof ArrayBuffer) window.__ptFrames.push([at, decoder.decode(data)]);
        else if (data instanceof Blob) data.arrayBuffer().then(b => window.__ptFrames.push([at, decoder.decode(b)]));
      });
    }
  };
})();"""


class Player:
    """One person's browser context (their device) on a page of the table; ``frames()``
    gives every websocket message the page received and when."""

    def __init__(self, browser, url, wait_until="load"):
        self.context = browser.new_context(viewport={"width": 1280, "height": 1000})
        self.context.add_init_script(RECORD_FRAMES)
        self.page = self.context.new_page()
        self.page.goto(url, timeout=120_000, wait_until=wait_until)   # "commit": load several pages at once

    def frames(self) -> list[tuple[float, str]]:
        """``(arrival time in seconds since the epoch, message text)`` of every message so far."""
        return [(at, text) for at, text in self.page.evaluate("window.__ptFrames")]

    def wait(self, selector, timeout=120):
        """Wait for ``selector``; on timeout fail with what the page shows instead."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout
        try:
            self.page.wait_for_selector(selector, timeout=timeout * 1000)
        except PlaywrightTimeout:
            shown = self.page.evaluate("document.body ? document.body.innerText : ''")
            raise AssertionError(f"{selector!r} not shown in {timeout} s at {self.page.url}; "
                                 f"the page shows: {shown[-1500:]!r}") from None

    def close(self):
        self.context.close()


FOLD_SIZES = [(1280, 720), (390, 844)]
"""A laptop's screen and a phone's (px): a seat's own move buttons must fit in the first screen."""


def assert_moves_above_the_fold(player: Player, what: str) -> None:
    """Every move button of the seat's page lies within the first screen at each of
    :data:`FOLD_SIZES` (issue 24: Chore Race's reaction buttons were below the fold at
    1280x720); ``what`` names the case in a failure. The page is left at 1280x1000."""
    buttons = player.page.locator(".pt-controls .widget-button:visible")
    buttons.first.wait_for(timeout=120_000)
    for width, height in FOLD_SIZES:
        player.page.set_viewport_size({"width": width, "height": height})
        player.page.evaluate("window.scrollTo(0, 0)")
        player.page.wait_for_timeout(300)          # the layout settles
        boxes = [buttons.nth(i).bounding_box() for i in range(buttons.count())]
        assert boxes, f"{what}: no move button at {width}x{height}"
        for box in boxes:
            assert box is not None and box["width"] > 0
            assert 0 <= box["x"] and box["x"] + box["width"] <= width + 1, (what, width, box)
            assert 0 <= box["y"] and box["y"] + box["height"] <= height, (what, width, height, box)
    player.page.set_viewport_size({"width": 1280, "height": 1000})


def assert_turn_tab_and_name(player: Player, seat: int, name: str = "Ana") -> None:
    """The page's tab says it is this seat's turn; a name typed and saved is shown on the
    players line ("Seat 2 · Ana", seats counted from 1) and kept in the browser."""
    player.page.wait_for_function("document.title.startsWith('● Your turn — ')", timeout=30_000,
                                  polling=POLL_MS)
    player.page.get_by_role("textbox", name="Your name").fill(name)
    player.page.get_by_role("button", name="Save name").click()
    named = f"Seat {seat + 1} · {name}"
    player.page.wait_for_function(f"document.querySelector('.pt-players').innerText.includes('{named}')",
                                  timeout=30_000, polling=POLL_MS)
    assert player.page.evaluate("localStorage.getItem('playtest-name')") == name


def create_in_lobby(host: Player) -> tuple[str, str]:
    """The host's lobby page: Create table with the default form (seat 0 a person, bots
    in the others); returns seat 0's link (relative to the lobby) and the full address
    the lobby shows beside it, the one to send to the player."""
    create = host.page.get_by_role("button", name="Create table")
    create.wait_for(timeout=150_000)
    create.click()
    link = host.page.locator(".pt-lobby-links a", has_text="Seat 1")
    link.wait_for(timeout=60_000)
    return link.get_attribute("href"), host.page.locator(".pt-lobby-links .pt-address").first.inner_text()


def seat_url(base, made, seat):
    return f"{base}/voila/render/{next(s['path'] for s in made['seats'] if s['seat'] == seat)}"


def seat_token(made, seat):
    return next(s["token"] for s in made["seats"] if s["seat"] == seat)


def state(base, made, seat):
    status, body = api(base, "GET", f"tables/{made['id']}/state", token=seat_token(made, seat))
    assert status == 200, body
    return body


def wait_version(base, made, seat, version, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = state(base, made, seat)
        if now["version"] >= version:
            return now
        time.sleep(0.2)
    raise AssertionError(f"the table did not reach move {version}: {now['version']}")


def stored_moves(data, table_id):
    with contextlib.closing(sqlite3.connect(data / "tables.sqlite3")) as db:
        return db.execute("SELECT number, text, seat, by_bot, time FROM moves WHERE table_id=? ORDER BY number",
                          (table_id,)).fetchall()


def claim_button(player):
    return player.page.get_by_role("button", name="Done it!", exact=True)


def my_card(player, seat, pos):
    return player.page.locator(".pt-table .pt-row").nth(seat).locator(".pt-card").nth(pos)


def entitled_names(match: Match, seat: int | None) -> set[str]:
    text = json.dumps(match.view(seat)) + "\n".join(t for _, t in match.log_for(seat))
    return {n for n, p in LS_PATTERNS.items() if p.search(text)}
