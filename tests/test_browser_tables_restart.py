"""A live table survives its server: killed mid-game and started again on the same data
folder, the table comes back at the same move (the SQLite store)."""
from __future__ import annotations

import os

import pytest

from playtest.engine.counting import for_people
from browser_support import POLL_MS, dashboard_server
from table_support import Player, api, browser, create, seat_token, seat_url, state  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser


def test_a_restarted_server_restores_the_table(tmp_path, browser):
    os.environ["PLAYTEST_DATA_DIR"], saved = str(tmp_path), os.environ.get("PLAYTEST_DATA_DIR")
    try:
        with dashboard_server() as base:
            made = create(base, game="chore_race", seats=2, players=["human", "human"], seed=9, pace="instant")
            for _ in range(4):
                now = state(base, made, state(base, made, 0)["to_act"][0])
                seat = now["seat"]
                assert api(base, "POST", f"tables/{made['id']}/moves", {"move": now["moves"][0]},
                           token=seat_token(made, seat))[0] == 200
            before = state(base, made, 0)
        with dashboard_server() as base:             # killed and started again
            after = state(base, made, 0)
            assert after["version"] == before["version"] == 4 and after["view"] == before["view"]
            player = Player(browser, seat_url(base, made, 0))
            try:
                player.wait(".pt-live .cr-seat")
                last = for_people(after["log"][-1][1])          # the page shows seats from 1
                player.page.wait_for_function("text => document.body.innerText.includes(text)", arg=last,
                                              timeout=30_000, polling=POLL_MS)
            finally:
                player.close()
    finally:
        if saved is None:
            os.environ.pop("PLAYTEST_DATA_DIR", None)
        else:
            os.environ["PLAYTEST_DATA_DIR"] = saved
