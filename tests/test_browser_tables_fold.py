"""A seat's own move controls sit above the fold in every game, at 1280x720 (a laptop)
and at 390x844 (a phone), on a live table's seat page served by ``playtest serve``
(issue 24: Chore Race's reaction buttons were below the fold at 1280x720; the reaction
case is checked in tests/test_browser_tables_chore_race.py, on its Excuse page); the tab
says whose turn it is; a name typed is kept, and a reloaded page fills it in."""
from __future__ import annotations

import time
import urllib.error

import pytest
from browser_support import POLL_MS
from table_support import (Player, assert_moves_above_the_fold, assert_turn_tab_and_name, browser,  # noqa: F401
                           create, seat_url, server)  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("game", ["chore_race", "night_shift"])
def test_the_seats_own_controls_are_above_the_fold_and_the_tab_and_the_name_work(server, browser, game):
    # seat 0 acts first; the bot plays slowly, after the page's checks (Lazy Sunday's
    # seat page: the reload test below)
    base, _data = server
    made = create(base, game=game, seats=2, players=["human", "random"], seed=5, pace="slow")
    player = Player(browser, seat_url(base, made, 0))
    try:
        assert_moves_above_the_fold(player, game)
        assert_turn_tab_and_name(player, 0)
    finally:
        player.close()


def test_a_reloaded_seat_page_fills_in_the_kept_name_and_its_old_kernel_stops(server, browser):
    """Found by a fresh user: opened again, the seat page's name box was empty although
    the browser kept the name; and the reloaded page's old kernel was not shut down
    (Voilà's unload request was refused for want of the _xsrf cookie). First, on the same
    page, Lazy Sunday's first peek is above the fold and the tab and the name work."""
    import urllib.request

    base, _data = server
    made = create(base, game="lazy_sunday", seats=2, players=["human", "random"], seed=5, pace="slow")
    player = Player(browser, seat_url(base, made, 0))
    try:
        page = player.page
        assert_moves_above_the_fold(player, "lazy_sunday")
        assert "You are seat 1." in page.inner_text(".pt-live-intro")       # seat 0, counted from 1
        assert_turn_tab_and_name(player, 0, "Ana")
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
