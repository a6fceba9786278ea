"""Live tables in real browsers: several players, each in their own browser context (its
own cookies and storage, as on their own device), at one table served by ``playtest
serve``, with bots on a clock.

* Lazy Sunday, 4 seats (2 people, 2 paced heuristic bots): a person's quick discard beats
  a bot that knows the same match (LS-5; the bot waits its reaction time); two people slap
  the same match at once: the first registered wins, the other is returned without
  penalty; a reloaded page rejoins its seat while the other page sees it leave and come
  back; a wrong token gets a plain page.
* Chore Race: the target of an Inspection answers with Excuse from its own browser (CR-7);
  three people play a Family Meeting, each choosing its pass by clicks in its own browser,
  and no page shows another seat's choice before the cards change hands (CR-8).
* A restarted server restores the table at the same move (the SQLite store).
* Security: over full games, no frame any seat's page received names a card that seat's
  view had not shown by then (the record replayed to know every hidden card; the store's
  move times say which position a frame may know of).
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from browser_support import dashboard_server, guard_wait, launch_chromium, require_chromium

from playtest import Match
from playtest.games.chore_race import CARDS as CR_CARDS
from playtest.games.lazy_sunday import LazySunday
from playtest.games.lazy_sunday.widget import RULES_HTML

pytestmark = pytest.mark.browser

LS_NAMES = sorted(set(LazySunday(2).cards.names))
RULES = json.dumps(RULES_HTML, ensure_ascii=False)[1:-1]   # the "How to play" panel, as a frame carries it (UTF-8)
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
def server(tmp_path_factory):
    """``playtest serve`` with its own data folder and a scenarios folder holding the
    test's scenarios; yields ``(base URL, data folder)``."""
    require_chromium()
    scenarios = tmp_path_factory.mktemp("scenarios")
    (scenarios / "slaps.toml").write_text(SLAPS, encoding="utf-8")
    (scenarios / "reaction.toml").write_text(REACTION, encoding="utf-8")
    (scenarios / "meeting.toml").write_text(MEETING, encoding="utf-8")
    data = tmp_path_factory.mktemp("data")
    saved = {k: os.environ.get(k) for k in ("PLAYTEST_SCENARIOS_DIR", "PLAYTEST_DATA_DIR")}
    os.environ.update(PLAYTEST_SCENARIOS_DIR=str(scenarios), PLAYTEST_DATA_DIR=str(data))
    try:
        with dashboard_server() as base:
            yield base, data
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        yield browser
        browser.close()


def api(base, method, path, body=None, token=None):
    request = urllib.request.Request(f"{base}/playtest/api/{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
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
        self.page.wait_for_selector(selector, timeout=timeout * 1000)

    def close(self):
        self.context.close()


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


def test_lazy_sunday_slaps_between_people_and_paced_bots(server, browser):
    base, data = server
    made = create(base, scenario="slaps", players=["human", "human", "heuristic", "heuristic"], pace="slow")
    tid = made["id"]
    host = lambda action: api(base, "POST", f"tables/{tid}/host", {"action": action}, token=made["host_token"])
    assert host("pause")[0] == 200          # the bots wait until both players see the table
    first = Player(browser, seat_url(base, made, 0))
    second = Player(browser, seat_url(base, made, 1))
    try:
        for player in (first, second):
            player.wait(".pt-live .pt-table .pt-card")
        claim_button(first).wait_for(state="visible")
        assert host("resume")[0] == 200
        # a person who spots the match beats the bot (its reaction time is 2.5 s or more)
        claim_button(first).click()
        my_card(first, 0, 0).click()
        wait_version(base, made, 0, 9)
        moves = stored_moves(data, tid)
        assert moves[8][1:4] == ("0 claim 0 0 1", 0, 0), moves[8:]
        # both people slap seat 1's Water the Plants at once: the first registered wins,
        # the other is judged on the new top and returned, no penalty (LS-5)
        second.wait(".pt-live")
        first.page.wait_for_function("document.querySelector('.pt-last-move').innerText.includes('Seat 0')")
        deck = state(base, made, 0)["view"]["deck"]
        claim_button(first).click()
        claim_button(second).click()
        first_card, second_card = my_card(first, 1, 3), my_card(second, 1, 3)
        first_card.evaluate("card => card.click()")
        second_card.evaluate("card => card.click()")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            time.sleep(0.5)
            people = [m for m in stored_moves(data, tid)[9:] if m[3] == 0 and " claim " in m[1]]
            if len(people) == 2:
                break
        final = state(base, made, 0)
        log = [text for _, text in final["log"]]
        assert people, "neither person's slap reached the table"
        won = [line for line in log if "quick-discards seat 1's position 3: Water the Plants" in line]
        assert won == [f"Done it! Seat {people[0][2]} quick-discards seat 1's position 3: Water the Plants (1)."], \
            (people, log[-6:])
        if len(people) == 2:     # the other reached the table: judged on the new top, returned
            assert f"Seat {people[1][2]}'s claim on seat 1's position 3 came too late: returned, no penalty (LS-5)." \
                in log, log[-6:]
        # else its page had already drawn the new top, and dropped the click meant for the old one
        assert final["view"]["deck"] == deck                   # no penalty card was drawn
        bot_slaps = [m for m in stored_moves(data, tid) if m[3] == 1 and " claim " in m[1]]
        # a reload rejoins the seat; the other page sees it leave and come back
        second.page.reload()
        second.wait(".pt-live .pt-table .pt-card")
        first.page.wait_for_function("document.querySelector('.pt-players').innerText.includes('Seat 1 · connected')")
        assert "Seat 1 · connected · you" in second.page.locator(".pt-players").inner_text()
        # the bot slaps too, in its own time, once the claimer has given its card (LS-5)
        winner = state(base, made, people[0][2])
        if winner["moves"]:
            give = winner["moves"][0]
            assert " give " in give, winner["moves"]
            assert api(base, "POST", f"tables/{tid}/moves", {"move": give}, token=seat_token(made, winner["seat"]))[0] == 200
        deadline = time.monotonic() + 30
        while not bot_slaps and time.monotonic() < deadline:
            time.sleep(0.5)
            bot_slaps = [m for m in stored_moves(data, tid) if m[3] == 1 and " claim " in m[1]]
        assert bot_slaps, "the heuristic bot never slapped the Water the Plants it peeked"
        assert not first.page.locator(".pt-error").is_visible()
        # a person closes their page: the others see the seat disconnected within one check
        # of the kernel reaper (5 s), long before its kernel is shut down (45 s)
        second.close()
        first.page.wait_for_function(
            "document.querySelector('.pt-players').innerText.includes('Seat 1 · disconnected')", timeout=15_000)
    finally:
        first.close()
        second.close()


def test_a_wrong_token_gets_a_plain_page(server, browser):
    base, _ = server
    made = create(base, game="lazy_sunday", seats=2, players=["human", "random"], pace="instant")
    player = Player(browser, f"{base}/voila/render/table.ipynb?table={made['id']}&token=forged")
    try:
        player.wait(".pt-live-message")
        text = player.page.locator(".pt-live-message").inner_text()
        assert "not valid for this table" in text and "Traceback" not in player.page.content()
    finally:
        player.close()


def test_chore_race_the_target_answers_from_its_own_browser(server, browser):
    base, data = server
    made = create(base, scenario="reaction", players=["human", "human"], pace="instant")
    target = Player(browser, seat_url(base, made, 1))
    try:
        target.wait(".pt-live .cr-seat")
        status, result = api(base, "POST", f"tables/{made['id']}/moves", {"move": "0 inspection 1 0", "id": "i"},
                             token=seat_token(made, 0))
        assert status == 200 and result["ok"], result
        excuse = target.page.locator(".pt-controls").get_by_role("button", name="Excuse: cancel it", exact=True)
        excuse.wait_for(state="visible", timeout=60_000)
        target.page.wait_for_timeout(400)            # the double-click guard of a new decision
        excuse.click()
        after = wait_version(base, made, 0, 5)
        assert stored_moves(data, made["id"])[4][1:3] == ("1 excuse", 1)
        assert after["view"]["action_discard"][-2:] == ["Excuse", "Inspection"]     # CR-7
    finally:
        target.close()


CR_NAMES = "|".join(re.escape(a.name) for a in CR_CARDS.action)            # Chore Race's action cards
CR_NAME = re.compile(rf"(?<![\w'])({CR_NAMES})(?![\w'])")
CR_FACE = re.compile(rf'"description":\s*"({CR_NAMES})(?:\\n|")')   # a face-up card's widget, in a frame


def hand_row(player):
    """The cards of the hand on a player's page (its own panel: .cr-me)."""
    return player.page.locator(".cr-seat.cr-me .pt-row").nth(1).locator(".pt-card")


def card_names(locator) -> list[str]:
    return [text.split("\n")[0].strip() for text in locator.all_text_contents()]


def settled(read, expected, timeout=30.0):
    """``read()`` once it returns ``expected``, else its last answer after ``timeout``
    seconds (a page draws a state in several widget updates: the board comes last)."""
    deadline = time.monotonic() + timeout
    while (got := read()) != expected and time.monotonic() < deadline:
        time.sleep(0.2)
    return got


def shown_text(player) -> str:
    """What the page shows of the hands and moves: every seat's hand and pass rows, the
    prompt, the move controls, the log and the last move (not the public chores, whose
    ability lines name action cards; no hover text, no "How to play" panel)."""
    return player.page.evaluate("""() => {
        const parts = [];
        document.querySelectorAll('.cr-seat').forEach(seat =>
            Array.from(seat.querySelectorAll('.pt-row')).slice(1).forEach(row => parts.push(row.innerText)));
        document.querySelectorAll('.cr-prompt, .pt-controls, .pt-log, .pt-last-move').forEach(e => parts.push(e.innerText));
        return parts.join('\\n'); }""")


def test_chore_race_family_meeting_each_person_passes_from_their_own_browser(server, browser):
    """CR-8: every seat secretly chooses the 3 cards it passes to seat+1, all choices
    committed before anyone sees what they receive. Three people, each in their own
    browser context, choose by clicking their own cards; no page shows another seat's
    choice before the cards change hands, and the hands after match the record."""
    base, data = server
    made = create(base, scenario="meeting", players=["human"] * 3, pace="instant")
    tid = made["id"]
    before = {s: Counter(state(base, made, s)["view"]["hand"]) for s in range(3)}
    kinds = [set(before[s]) for s in range(3)]
    assert not (kinds[0] & kinds[1] or kinds[1] & kinds[2] or kinds[0] & kinds[2])    # whose card a name is
    # the names a page may show before the pass: its own cards and the Family Meeting,
    # face up on the discard pile once played
    own = {s: kinds[s] | {"Family Meeting"} for s in range(3)}
    players = [Player(browser, seat_url(base, made, s), wait_until="commit") for s in range(3)]
    try:
        for player in players:
            player.wait(".pt-live .cr-seat .pt-card")
        meeting = players[0].page.locator(".pt-controls").get_by_role("button", name="Play Family Meeting", exact=True)
        meeting.wait_for(state="visible", timeout=60_000)
        guard_wait(players[0].page)
        meeting.click()
        chosen = {}
        for seat, player in enumerate(players):       # everyone picks; nobody has committed yet
            player.page.locator(".cr-prompt").get_by_text("Family Meeting: choose 3 cards").wait_for(timeout=60_000)
            guard_wait(player.page)
            hand = card_names(hand_row(player))
            for pos in (0, 2, 4):
                hand_row(player).nth(pos).click()
            chosen[seat] = sorted(hand[p] for p in (0, 2, 4))
            hint = player.page.locator(".pt-controls").get_by_text("You will pass:")
            hint.wait_for(timeout=30_000)
            assert sorted(hint.inner_text().split(": ", 1)[1].split(" (")[0].split(", ")) == chosen[seat]
        assert chosen[0] == ["Done", "Done", "Finally!"] and chosen[1] == ["Chore Swap", "Delegate", "Inspection"]
        play = lambda player: player.page.locator(".pt-controls").get_by_role("button", name="Play", exact=True).click()
        play(players[0])
        # seat 1's page learns of seat 0's choice; its own pass, picked before, stays
        players[1].page.locator(".pt-log").get_by_text("Seat 0 has chosen the cards to pass.").wait_for(timeout=30_000)
        players[1].page.locator(".pt-controls").get_by_text("You will pass:").wait_for(timeout=10_000)
        play(players[1])
        assert settled(lambda: state(base, made, 2)["view"]["meeting"]["committed"], [0, 1]) == [0, 1]
        for player in players[:2]:
            player.page.locator(".cr-prompt").get_by_text("Family Meeting: waiting for seat 2").wait_for(timeout=30_000)
        players[2].page.locator(".pt-log").get_by_text("Seat 1 has chosen the cards to pass.").wait_for(timeout=30_000)
        # two choices are made and one is not: each page shows only its own cards face up,
        # its own choice (seats 0 and 1), and names no card of another seat's
        for seat, player in enumerate(players):
            passing = player.page.locator(".cr-seat.cr-me .pt-row").nth(2).locator(".pt-card")
            mine = chosen[seat] if seat < 2 else []
            assert settled(lambda: sorted(card_names(passing)), mine) == mine, seat
            faces = {n for n in card_names(player.page.locator(".pt-table .pt-face")) if CR_NAME.fullmatch(n)}
            named = set(CR_NAME.findall(shown_text(player)))
            assert faces <= own[seat] and set(chosen[seat]) <= named <= own[seat], (seat, faces, named)
            backs = player.page.eval_on_selector_all(".pt-back", "els => els.map(e => e.textContent + e.title)")
            assert backs and not any(t.strip() for t in backs)
        play(players[2])
        received, after = {}, {}
        for seat, player in enumerate(players):
            left = (seat - 1) % 3
            line = player.page.locator(".pt-log").get_by_text("You receive")
            line.wait_for(timeout=30_000)
            received[seat] = line.inner_text()
            # its hand: less its pass (and the Family Meeting played), plus seat-1's pass
            expected = before[seat] - Counter(chosen[seat]) - Counter(["Family Meeting"] * (seat == 0)) \
                + Counter(chosen[left])
            after[seat] = settled(lambda: Counter(card_names(hand_row(player))), expected)
            assert after[seat] == expected, seat
            got = re.search(r"You receive (.+) from seat (\d)\.$", received[seat].strip())
            assert got and sorted(got[1].split(", ")) == chosen[left] and got[2] == str(left), received[seat]
        reveal = stored_moves(data, tid)[-1][4]             # the last choice: the cards change hands
        assert api(base, "POST", f"tables/{tid}/host", {"action": "end"}, token=made["host_token"])[0] == 200
        status, record = api(base, "GET", f"tables/{tid}/record", token=made["host_token"])
        assert status == 200
        # every choice came from its own browser (the test sent no move), as clicked there
        gives = [m for m in stored_moves(data, tid) if " give " in m[1]]
        assert sorted((m[2], m[3]) for m in gives) == [(0, 0), (1, 0), (2, 0)]
        keys = Match.from_record(record).view(0)["keys"]
        for _, text, seat, _, _ in gives:
            assert sorted(text.split()[2:]) == sorted(keys[n] for n in chosen[seat]), (seat, text)
        # the hands the pages show after the pass are those of the record
        replay = Match.from_record(record)
        assert all(after[seat] == Counter(replay.view(seat)["hand"]) for seat in range(3)), (after, record["moves"])
        # nor did any page receive a card of another seat's choice before the reveal (a
        # face-up card's name is its widget's description); its own cards it did receive
        for seat, player in enumerate(players):
            early = "\n".join(text for at, text in player.frames() if at < reveal)
            faces = set(CR_FACE.findall(early))
            assert set(chosen[seat]) <= faces <= own[seat], (seat, faces)
    finally:
        for player in players:
            player.close()


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
                last = after["log"][-1][1]
                player.page.wait_for_function("text => document.body.innerText.includes(text)", arg=last,
                                              timeout=30_000)
            finally:
                player.close()
    finally:
        if saved is None:
            os.environ.pop("PLAYTEST_DATA_DIR", None)
        else:
            os.environ["PLAYTEST_DATA_DIR"] = saved


def entitled_names(match: Match, seat: int | None) -> set[str]:
    text = json.dumps(match.view(seat)) + "\n".join(t for _, t in match.log_for(seat))
    return {n for n, p in LS_PATTERNS.items() if p.search(text)}


def test_no_seat_ever_receives_a_card_it_was_not_shown(server, browser):
    """Two people (playing through the API, as scripts may) and two instant bots play a
    whole Lazy Sunday match while both people's pages and a spectator page watch."""
    base, data = server
    made = create(base, game="lazy_sunday", seats=4, players=["human", "human", "heuristic", "random"],
                  seed=21, pace="instant")
    pages = {0: Player(browser, seat_url(base, made, 0)), 1: Player(browser, seat_url(base, made, 1)),
             None: Player(browser, f"{base}/voila/render/{made['spectator_path']}")}
    try:
        for player in pages.values():
            player.wait(".pt-live .pt-table")
        for _ in range(400):
            now = [state(base, made, s) for s in (0, 1)]
            if now[0]["outcome"]:
                break
            if now[0]["hold"]:
                api(base, "POST", f"tables/{made['id']}/host", {"action": "continue"}, token=made["host_token"])
                continue
            mover = next((s for s in now if s["moves"]), None)
            if mover is None:
                time.sleep(0.05)
                continue
            move = next((m for m in mover["moves"] if " notme" not in m or mover["version"] > 40), mover["moves"][0])
            api(base, "POST", f"tables/{made['id']}/moves", {"move": move, "version": mover["version"]},
                token=seat_token(made, mover["seat"]))
        assert state(base, made, 0)["outcome"], "the match did not end"
        time.sleep(2)                                           # the last frames reach the pages
        moves = stored_moves(data, made["id"])
        status, record = api(base, "GET", f"tables/{made['id']}/record", token=made["host_token"])
        assert status == 200 and record["moves"] == [m[1] for m in moves]
        # each seat's entitled names after each move, replaying the record
        replay = Match.from_record({**record, "moves": []})
        allowed = {seat: [entitled_names(replay, seat)] for seat in pages}
        for text in record["moves"]:
            replay.play(text)
            for seat in pages:
                allowed[seat].append(allowed[seat][-1] | entitled_names(replay, seat))
        times = [m[4] for m in moves]
        checked = named = 0
        for seat, player in pages.items():
            # the pages watched the whole match: each got a frame after the last move was stored
            frames = player.frames()
            assert any(at > times[-1] for at, _ in frames), f"seat {seat}'s page missed the end"
            for at, frame in frames:
                known = sum(t <= at for t in times)            # moves stored before the frame arrived
                frame = frame.replace(RULES, "")                 # public rules text names cards
                names = {n for n, p in LS_PATTERNS.items() if p.search(frame)}
                extra = names - allowed[seat][known]
                if extra:
                    at_name = LS_PATTERNS[min(extra)].search(frame).start()
                    raise AssertionError(f"seat {seat}'s page received {sorted(extra)} before its view showed them "
                                         f"(after {known} moves), in: ...{frame[max(0, at_name - 300):at_name + 200]}...")
                checked += 1
                named += bool(names)
        assert checked >= 3 * 10 and named >= 3, (checked, named)   # the frames held cards to check
    finally:
        for player in pages.values():
            player.close()
