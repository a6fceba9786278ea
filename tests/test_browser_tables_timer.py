"""Issue 24's "Done when", in a real browser on ``playtest serve``: a named 3-person Chore
Race table with a bot and a turn timer is played to the end (a person's time runs out at
least once, and the table plays for them), then opened in the host page's replay and in
the scenario debugger (the record's JSON); the export of that table has names, hand-overs,
think times and the timed-out moves; the all-tables page shows two tables in progress.

The people type their names on their own pages (one browser context each); their moves are
sent with their seat tokens over the HTTP API (a script at the table), fast, except the
first timed decision, which is left to run out."""
from __future__ import annotations

import base64
import json
import random
import time

import pytest
from browser_support import POLL_MS
from table_support import Player, api, browser, create, seat_token, seat_url, server, state  # noqa: F401 (fixtures)
from test_browser_uploads import choose_file

pytestmark = pytest.mark.browser

NAMES = ["Ana", "Ben", "Cleo"]


def text_appears(player: Player, text: str, timeout: float = 60) -> None:
    player.page.wait_for_function(f"document.body.innerText.includes({json.dumps(text)})",
                                  timeout=timeout * 1000, polling=POLL_MS)


def downloaded(player: Player, scope: str) -> dict:
    href = player.page.locator(f"{scope} a.pt-download").get_attribute("href", timeout=60_000)
    return json.loads(base64.b64decode(href.split(",", 1)[1]).decode())


def test_a_named_timed_table_plays_to_the_end_and_replays_with_its_names(server, browser):
    base, _data = server
    made = create(base, game="chore_race", seats=4, players=["human", "human", "human", "heuristic"],
                  preset="Quick Game", seed=3, pace="instant", turn_limit=3600)   # the bot: no think time to wait
    tid = made["id"]
    other = create(base, game="night_shift", seats=2, players=["human", "heuristic"], pace="slow")
    people = [Player(browser, seat_url(base, made, seat), wait_until="commit") for seat in range(3)]
    host = Player(browser, f"{base}/voila/render/{made['host_path']}", wait_until="commit")
    overview = Player(browser, f"{base}/voila/render/tables.ipynb", wait_until="commit")
    try:
        # the all-tables page: both tables in progress, each with its spectator link
        rows = overview.page.locator(".pt-overview-tables tr")
        rows.filter(has_text=tid).wait_for(timeout=240_000)
        rows.filter(has_text=other["id"]).wait_for(timeout=30_000)
        assert rows.filter(has_text=tid).get_by_role("link", name="Watch").count() == 1
        # the scenario debugger loads while the game is played (it opens the record at the end)
        overview.page.goto(f"{base}/voila/render/scenario_debugger.ipynb", wait_until="commit", timeout=180_000)

        for person, name in zip(people, NAMES):
            person.page.get_by_role("textbox", name="Your name").fill(name, timeout=240_000)
            person.page.get_by_role("button", name="Save name").click()
        deadline = time.monotonic() + 60
        while [p["name"] for p in state(base, made, 0)["players"][:3]] != NAMES:
            assert time.monotonic() < deadline, "the names did not reach the table"
            time.sleep(0.2)

        # the host sets a short turn timer from the host page, during the game
        host.page.get_by_role("textbox", name="Turn timer").fill("5", timeout=240_000)
        host.page.get_by_role("button", name="Set", exact=True).click()
        host.page.locator(".pt-host", has_text="now 5 s per decision").wait_for(timeout=30_000)

        choose = random.Random(5)
        timed_out = None            # (seat, log line) once a person's time ran out
        handed = watched = False
        deadline = time.monotonic() + 240
        while True:
            assert time.monotonic() < deadline, "the game did not end in time"
            states = [state(base, made, seat) for seat in range(3)]
            now = states[0]
            if now["status"] != "playing":
                break
            last = now["last_move"] or {}
            if timed_out is None and last.get("timed_out"):
                seat = last["seat"]
                timed_out = seat, f"Time ran out for seat {seat + 1} ({NAMES[seat]}): the table made that move"
            for seat, mine in enumerate(states):
                timed = [d["seat"] for d in mine["turn_deadlines"]]
                if timed_out is None and seat in timed:
                    # the first timed decision is left to run out: its page counts down, the others show it
                    if not watched:
                        own_clock = people[seat].page.locator(".pt-turn-clock.pt-mine")
                        own_clock.filter(has_text="the table plays for you").wait_for(timeout=4_000)
                        host.page.locator(".pt-turn-clock", has_text=f"Turn timer: Seat {seat + 1}").wait_for(
                            timeout=4_000)
                        watched = True
                    continue
                if mine["moves"] and mine["status"] == "playing":
                    status, answer = api(base, "POST", f"tables/{tid}/moves",
                                         {"move": choose.choice(mine["moves"]), "version": mine["version"]},
                                         token=seat_token(made, seat))
                    assert status in (200, 409), answer          # 409: the table moved on (a bot, a timeout)
            if timed_out is not None and not handed and now["version"] > 20:
                # a hand-over and back: seat 2's person leaves for a moment, the bot plays for them
                handed = True
                for body in ({"action": "bot", "seat": 1, "bot": "heuristic", "force": True},
                             {"action": "bot", "seat": 1, "bot": "human"}):
                    status, answer = api(base, "POST", f"tables/{tid}/host", body, token=made["host_token"])
                    assert status == 200, answer
                    if body["bot"] == "heuristic":
                        start = time.monotonic()
                        while state(base, made, 0)["version"] < now["version"] + 2 and time.monotonic() - start < 30:
                            time.sleep(0.1)
            time.sleep(0.05)
        assert timed_out is not None and handed
        seat, line = timed_out
        for page in people + [host]:                    # every page says so, in its log
            text_appears(page, line, timeout=30)

        # the host page's replay: who played (names, the hand-over) and the timed-out moves
        host.page.get_by_role("button", name="Replay the game").click()
        replay = host.page.locator(".pt-replay")
        replay.locator(".pt-scenario-about", has_text="for a person whose time ran out").wait_for(timeout=60_000)
        about = replay.locator(".pt-scenario-about").inner_text()
        assert "seat 1 Ana" in about and "seat 2 Ben, the heuristic bot from move" in about and "seat 3 Cleo" in about
        replay.get_by_role("button", name="Last ▶|").click()
        total = now["version"]
        replay.locator(".pt-debugger", has_text=f"Move {total} of {total}").first.wait_for(timeout=30_000)
        host.page.get_by_role("button", name="Get the record").click()
        record = downloaded(host, ".pt-host")
        assert record["timed_out"] and all(int(record["moves"][n - 1].split()[0]) < 3 for n in record["timed_out"])
        assert [(h["seat"], h["player"], h["name"]) for h in record["holders"] if h["seat"] == 1] == [
            (1, "human", "Ben"), (1, "heuristic", ""), (1, "human", "Ben")]

        # the scenario debugger opens the same record, with the same line
        overview.page.wait_for_selector(".pt-debugger .pt-upload button", timeout=240_000)
        choose_file(overview.page, ".pt-debugger", f"table_{tid}.json", json.dumps(record).encode())
        debugger = overview.page.locator(".pt-debugger .pt-scenario-about")
        debugger.filter(has_text="seat 1 Ana").wait_for(timeout=60_000)
        assert "for a person whose time ran out" in debugger.inner_text()

        # the export (the lobby's, with the server key): names, hand-overs, think times, timed-out moves
        overview.page.goto(f"{base}/voila/render/lobby.ipynb", wait_until="commit", timeout=180_000)
        overview.page.get_by_role("button", name="Export JSON").click(timeout=240_000)
        [row] = [t for t in downloaded(overview, ".pt-lobby")["tables"] if t["table"] == tid]
        assert row["names"][:3] == NAMES and row["timed_out"] == record["timed_out"]
        assert [(h["player"], h["name"]) for h in row["holders"] if h["seat"] == 1] == [
            ("human", "Ben"), ("heuristic", ""), ("human", "Ben")]
        kinds = {(t["seat"], t["player"]) for t in row["think"]}
        assert {(0, "human"), (1, "human"), (2, "human"), (3, "bot")} <= kinds
        assert all(t["decisions"] > 0 and t["p90_s"] >= t["median_s"] >= 0 for t in row["think"])
    finally:
        for player in people + [host, overview]:
            player.close()
        api(base, "POST", f"tables/{other['id']}/host", {"action": "end"}, token=other["host_token"])
