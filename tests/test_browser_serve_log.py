"""A full live game on a real ``playtest serve`` leaves no traceback in its log: seat and
spectator pages open in a browser (their kernels hold the table's websockets), the game
played to its end through the API, pages closed mid-game and at the end, and raw
websockets that drop without a word while the table sends."""
from __future__ import annotations

import asyncio
import json

import pytest
import tornado.websocket
from browser_support import NO_POOLS, run_coroutine
from table_support import Player, api, browser, seat_token  # noqa: F401 (fixture)
from test_serve_server import ROOT, standalone, wait_until

pytestmark = pytest.mark.browser


async def drop_sockets(base: str, table_id: str, token: str, count: int) -> None:
    """Join ``count`` websockets, read a little, then drop them: half with a close
    frame, half by cutting the connection."""
    url = base.replace("http", "ws", 1) + f"/playtest/api/tables/{table_id}/ws"
    sockets = []
    for _ in range(count):
        ws = await tornado.websocket.websocket_connect(url)
        ws.write_message(json.dumps({"type": "join", "token": token}))
        await asyncio.wait_for(ws.read_message(), 10)
        sockets.append(ws)
    for n, ws in enumerate(sockets):
        if n % 2:
            ws.close()
        else:
            ws.protocol.stream.close()        # no close frame: the server finds out writing


def play_one_move(base: str, made: dict) -> bool:
    """Play the first legal move of the seat to act; False once the game is over."""
    status, state = api(base, "GET", f"tables/{made['id']}/state", token=seat_token(made, 0))
    assert status == 200, state
    if state["status"] != "playing":
        return False
    seat = state["to_act"][0]
    token = seat_token(made, seat)
    status, mine = api(base, "GET", f"tables/{made['id']}/state", token=token)
    status, result = api(base, "POST", f"tables/{made['id']}/moves",
                         {"move": mine["moves"][0], "version": mine["version"]}, token=token)
    assert status in (200, 409), result           # 409: the table moved on meanwhile
    return True


def test_a_full_live_game_with_pages_closing_leaves_no_traceback_in_the_log(tmp_path, browser):
    # first_connect as a loaded machine needs it: three pages load one after the other, and
    # the fast reaper's 3 s can pass before a slow browser's page says it is alive
    with standalone(ROOT / "playtest" / "dashboards", tmp_path, first_connect=60,
                    voila_config=NO_POOLS) as (proc, base, log):
        status, made = api(base, "POST", "tables", {"game": "night_shift", "seats": 2, "players": ["human", "human"],
                                                    "seed": 1, "pace": "instant"})
        assert status == 201, made
        pages = [Player(browser, f"{base}/voila/render/{s['path']}") for s in made["seats"]]
        pages.append(Player(browser, f"{base}/voila/render/{made['spectator_path']}"))
        for page in pages:
            try:
                page.wait(".pt-live .pt-table", timeout=180)
            except AssertionError as error:
                raise AssertionError(f"{error}\nthe server's log ends:\n{log.read_text()[-4000:]}") from None
        moves = 0
        while play_one_move(base, made):
            moves += 1
            if moves == 10:
                run_coroutine(drop_sockets(base, made["id"], made["spectator_token"], 6))
            if moves == 20:
                pages.pop(1).close()                # seat 1's person closes the page mid-game
            assert moves < 500, "the game did not end"
        assert moves > 20
        status, final = api(base, "GET", f"tables/{made['id']}/state", token=made["spectator_token"])
        assert final["status"] == "over"
        pages[0].page.wait_for_timeout(3000)        # the pages draw the end
        run_coroutine(drop_sockets(base, made["id"], made["spectator_token"], 4))
        for page in pages:
            page.close()
        # the reaper shuts the pages' kernels down once their pages are gone
        wait_until(lambda: log.read_text().count("playtest: shutting down kernel") >= 3, 90,
                   "the closed pages' kernels shut down")
    text = log.read_text()
    assert "Traceback" not in text, text[text.index("Traceback") - 2000:][:6000]
