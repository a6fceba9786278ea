"""A seat's own move controls sit above the fold in every game, at 1280x720 (a laptop)
and at 390x844 (a phone), on a live table's seat page served by ``playtest serve``
(issue 24: Chore Race's reaction buttons were below the fold at 1280x720)."""
from __future__ import annotations

import time
import urllib.error

import pytest
from browser_support import POLL_MS
from table_support import Player, api, browser, create, seat_token, seat_url, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

SIZES = [(1280, 720), (390, 844)]


@pytest.mark.parametrize("game", ["lazy_sunday", "chore_race", "night_shift", "chore_race reaction"])
def test_the_seats_own_controls_are_above_the_fold_and_the_tab_and_the_name_work(server, browser, game):
    base, _data = server
    if game == "chore_race reaction":
        # Chore Race's reaction buttons (CR-7): seat 1 answers seat 0's Inspection
        made = create(base, scenario="reaction", players=["human", "human"], pace="instant")
        status, result = api(base, "POST", f"tables/{made['id']}/moves", {"move": "0 inspection 1 0", "id": "i"},
                             token=seat_token(made, 0))
        assert status == 200 and result["ok"], result
        seat = 1
    else:
        # seat 0 acts first in each game (Lazy Sunday's first peek, the first turn elsewhere);
        # the bot plays slowly, after the page's checks
        made = create(base, game=game, seats=2, players=["human", "random"], seed=5, pace="slow")
        seat = 0
    player = Player(browser, seat_url(base, made, seat))
    try:
        buttons = player.page.locator(".pt-controls .widget-button:visible")
        buttons.first.wait_for(timeout=120_000)
        for width, height in SIZES:
            player.page.set_viewport_size({"width": width, "height": height})
            player.page.evaluate("window.scrollTo(0, 0)")
            player.page.wait_for_timeout(300)          # the layout settles
            boxes = [buttons.nth(i).bounding_box() for i in range(buttons.count())]
            assert boxes, f"{game}: no move button at {width}x{height}"
            for box in boxes:
                assert box is not None and box["width"] > 0
                assert 0 <= box["x"] and box["x"] + box["width"] <= width + 1, (game, width, box)
                assert 0 <= box["y"] and box["y"] + box["height"] <= height, (game, width, height, box)
        # the tab says whose turn it is; a name typed is kept in the browser and shown
        player.page.wait_for_function("document.title.startsWith('● Your turn — ')", timeout=30_000,
                                      polling=POLL_MS)
        player.page.get_by_role("textbox", name="Your name").fill("Ana")
        player.page.get_by_role("button", name="Save name").click()
        named = f"Seat {seat + 1} · Ana"
        player.page.wait_for_function(f"document.querySelector('.pt-players').innerText.includes('{named}')",
                                      timeout=30_000, polling=POLL_MS)
        assert player.page.evaluate("localStorage.getItem('playtest-name')") == "Ana"
    finally:
        player.close()


def test_a_reloaded_seat_page_fills_in_the_kept_name_and_its_old_kernel_stops(server, browser):
    """Found by a fresh user: opened again, the seat page's name box was empty although
    the browser kept the name; and the reloaded page's old kernel was not shut down
    (Voilà's unload request was refused for want of the _xsrf cookie)."""
    import urllib.request

    base, _data = server
    made = create(base, game="lazy_sunday", seats=2, players=["human", "random"], seed=5, pace="slow")
    player = Player(browser, seat_url(base, made, 0))
    try:
        page = player.page
        page.locator(".pt-controls .widget-button").first.wait_for(timeout=120_000)
        assert "You are seat 1." in page.inner_text(".pt-live-intro")       # seat 0, counted from 1
        page.get_by_role("textbox", name="Your name").fill("Ana")
        page.get_by_role("button", name="Save name").click()
        page.wait_for_function("localStorage.getItem('playtest-name') === 'Ana'", timeout=30_000, polling=POLL_MS)
        old = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
        page.reload(timeout=120_000)
        page.locator(".pt-controls .widget-button").first.wait_for(timeout=120_000)
        box = page.get_by_role("textbox", name="Your name")
        page.wait_for_function("[...document.querySelectorAll('.pt-you input')].some(i => i.value === 'Ana')",
                               timeout=30_000, polling=POLL_MS)
        assert box.input_value() == "Ana"
        # the old kernel went with its page (the reaper would wait 45 s for it)
        deadline = time.monotonic() + 20
        status = 200
        while status != 404 and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{base}/api/kernels/{old}", timeout=10) as answer:
                    status = answer.status
            except urllib.error.HTTPError as error:
                status = error.code
            time.sleep(0.5)
        assert status == 404, f"the reloaded page's old kernel {old} still runs"
    finally:
        player.close()
    # the link opened on another device (a browser that kept no name): the table's name
    other = Player(browser, seat_url(base, made, 0))
    try:
        other.page.wait_for_function("[...document.querySelectorAll('.pt-you input')].some(i => i.value === 'Ana')",
                                     timeout=120_000, polling=POLL_MS)
        other.page.wait_for_function("localStorage.getItem('playtest-name') === 'Ana'", timeout=30_000, polling=POLL_MS)
    finally:
        other.close()
