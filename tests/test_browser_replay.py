"""The replay of a finished live table in a real browser: the host page of an ended
table offers Replay; it opens the scenario debugger on the table's record, and its
buttons step through the game (the one browser test of live tables' history)."""
from __future__ import annotations

import pytest
from table_support import Player, api, browser, create, seat_token, server  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def test_the_host_page_replays_an_ended_table_in_the_debugger(server, browser):
    base, _ = server
    made = create(base, game="night_shift", seats=2, players=["human", "human"], pace="instant")
    tid = made["id"]
    for _ in range(3):                    # three moves by whoever is to act
        for seat in (0, 1):
            status, state = api(base, "GET", f"tables/{tid}/state", token=seat_token(made, seat))
            if state.get("moves"):
                status, answer = api(base, "POST", f"tables/{tid}/moves", {"move": state["moves"][0]},
                                     token=seat_token(made, seat))
                assert status == 200, answer
                break
    assert api(base, "POST", f"tables/{tid}/host", {"action": "end"}, token=made["host_token"])[0] == 200
    host = Player(browser, f"{base}/voila/render/{made['host_path']}")
    try:
        replay = host.page.get_by_role("button", name="Replay the game")
        replay.wait_for(timeout=150_000)
        replay.click()
        position = host.page.locator(".pt-replay .pt-debugger", has_text="Move 0 of 3")
        position.wait_for(timeout=60_000)
        host.page.locator(".pt-replay").get_by_role("button", name="Last ▶|").click()
        host.page.locator(".pt-replay", has_text="Move 3 of 3").wait_for(timeout=30_000)
        assert host.page.locator(".pt-error:visible").count() == 0       # the page's banner and the replay's
    finally:
        host.close()
