"""Live tables in real browsers: several players, each in their own browser context (its
own cookies and storage, as on their own device), at one Lazy Sunday table served by
``playtest serve``, with bots on a clock (the Chore Race tables and the restart are in
test_browser_tables_chore_race.py and test_browser_tables_restart.py).

* 4 seats (2 people, 2 paced heuristic bots): a person's quick discard beats a bot that
  knows the same match (LS-5; the bot waits its reaction time); two people slap the same
  match at once: the first registered wins, the other is returned without penalty; a
  reloaded page rejoins its seat while the other page sees it leave and come back; a
  wrong token gets a plain page.
* Security: over a full match, no frame any seat's page received names a card that seat's
  view had not shown by then (the record replayed to know every hidden card; the store's
  move times say which position a frame may know of).
"""
from __future__ import annotations

import time

import pytest
from browser_support import POLL_MS
from table_support import (LS_PATTERNS, RULES, Player, api, browser, claim_button, create, create_in_lobby,  # noqa: F401 (fixtures)
                           entitled_names, my_card, seat_token, seat_url, server, state, stored_moves, wait_version)

from playtest import Match

pytestmark = pytest.mark.browser


def test_lazy_sunday_slaps_between_people_and_paced_bots(server, browser):
    base, data = server
    made = create(base, scenario="slaps", players=["human", "human", "heuristic", "heuristic"], pace="slow")
    tid = made["id"]
    host = lambda action: api(base, "POST", f"tables/{tid}/host", {"action": action}, token=made["host_token"])
    assert host("pause")[0] == 200          # the bots wait until both players see the table
    # both pages load at once ("commit": their kernels start side by side), then each is awaited
    first = Player(browser, seat_url(base, made, 0), wait_until="commit")
    second = Player(browser, seat_url(base, made, 1), wait_until="commit")
    try:
        for player in (first, second):
            player.wait(".pt-live .pt-table .pt-card")
        claim_button(first).wait_for(state="visible")
        # a person who spots the match beats the bot (its reaction time is 2.5 s or more)
        claim_button(first).click()
        assert host("resume")[0] == 200
        my_card(first, 0, 0).click()
        wait_version(base, made, 0, 9)
        moves = stored_moves(data, tid)
        assert moves[8][1:4] == ("0 claim 0 0 1", 0, 0), moves[8:]
        # both people slap seat 1's Water the Plants at once: the first registered wins,
        # the other is judged on the new top and returned, no penalty (LS-5)
        second.wait(".pt-live")
        first.page.wait_for_function("document.querySelector('.pt-last-move').innerText.includes('Seat 1 (you)')",
                                     polling=POLL_MS)
        deck = state(base, made, 0)["view"]["deck"]
        claim_button(first).click()
        claim_button(second).click()
        first_card, second_card = my_card(first, 1, 3), my_card(second, 1, 3)
        first_card.evaluate("card => card.click()")
        second_card.evaluate("card => card.click()")
        # both clicks left the pages together: the second claim, if its page sent it, reaches
        # the table within moments of the first (the margin is for a loaded machine)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            time.sleep(0.2)
            people = [m for m in stored_moves(data, tid)[9:] if m[3] == 0 and " claim " in m[1]]
            if len(people) == 2:
                break
            if people:
                deadline = min(deadline, time.monotonic() + 5)
        final = state(base, made, 0)
        log = [text for _, text in final["log"]]
        assert people, "neither person's slap reached the table"
        won = [line for line in log if "quick-discards" in line and "position 3: Water the Plants" in line]
        whose = "its own" if people[0][2] == 1 else "seat 1's"      # seat 1 slapped its own card
        assert won == [f"Done it! Seat {people[0][2]} quick-discards {whose} position 3: Water the Plants (1)."], \
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
        first.page.wait_for_function("document.querySelector('.pt-players').innerText.includes('Seat 2 · connected')",
                                     polling=POLL_MS)
        assert "Seat 2 · connected · you" in second.page.locator(".pt-players").inner_text()
        # the bot slaps too, in its own time, once the claimer has given its card (LS-5)
        winner = state(base, made, people[0][2])
        gives = [move for move in winner["moves"] if " give " in move]
        if people[0][2] == 0:    # a slap on another seat's list: the gap is filled (LS-5)
            assert gives, winner["moves"]
            assert api(base, "POST", f"tables/{tid}/moves", {"move": gives[0]},
                       token=seat_token(made, winner["seat"]))[0] == 200
        else:                    # its own card: nothing to give
            assert not gives, winner["moves"]
        deadline = time.monotonic() + 30
        while not bot_slaps and time.monotonic() < deadline:
            time.sleep(0.5)
            bot_slaps = [m for m in stored_moves(data, tid) if m[3] == 1 and " claim " in m[1]]
        assert bot_slaps, "the heuristic bot never slapped the Water the Plants it peeked"
        banner = first.page.locator(".pt-error")
        if len(people) == 2 and people[0][2] == 1:   # the first person lost the race: told so, plainly
            assert banner.inner_text().startswith("Too late: seat 2 moved first (claim); your claim came after it "
                                                  "and was returned: nothing changed"), banner.inner_text()
        else:
            assert not banner.is_visible(), banner.inner_text()
        # a person closes their page: the others see the seat disconnected as soon as the
        # server sees the page's websocket close (the kernel reaper hears it), long before
        # the kernel is shut down (45 s after the page left: only then would the table see
        # the seat's kernel go); the margin is for a loaded test machine
        second.close()
        first.page.wait_for_function(
            "document.querySelector('.pt-players').innerText.includes('Seat 2 · disconnected')",
                                     timeout=25_000, polling=POLL_MS)
    finally:
        first.close()
        second.close()


def test_the_lobby_creates_a_table_whose_seat_link_opens_it_in_another_browser(server, browser):
    """The host's first steps: the lobby (its default form: seat 0 a person, bots in the
    others), Create table, the seat link opened on another device shows that seat's
    board, and the lobby lists the table."""
    base, _ = server
    host = Player(browser, f"{base}/voila/render/lobby.ipynb")
    guest = None
    try:
        href, address = create_in_lobby(host)
        assert href.startswith("table.ipynb?table=") and "&token=" in href, href
        assert address == f"{base}/voila/render/{href}", address        # the full address to send
        guest = Player(browser, f"{base}/voila/render/{href}")
        guest.wait(".pt-live .pt-table .pt-card")
        assert "Seat 1 · connected · you" in guest.page.locator(".pt-players").inner_text()
        assert not guest.page.locator(".pt-error").is_visible()
        table_id = href.split("table=", 1)[1].split("&", 1)[0]
        host.page.get_by_role("button", name="Refresh").click()
        host.page.locator(".pt-lobby-tables", has_text=table_id).wait_for(timeout=30_000)
        assert not host.page.locator(".pt-error").is_visible()
    finally:
        host.close()
        if guest is not None:
            guest.close()


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


def test_no_seat_ever_receives_a_card_it_was_not_shown(server, browser):
    """Two people (playing through the API, as scripts may) and two instant bots play a
    whole Lazy Sunday match while both people's pages and a spectator page watch."""
    base, data = server
    made = create(base, game="lazy_sunday", seats=4, players=["human", "human", "heuristic", "random"],
                  seed=21, pace="instant")
    pages = {0: Player(browser, seat_url(base, made, 0), wait_until="commit"),       # loading at once
             1: Player(browser, seat_url(base, made, 1), wait_until="commit"),
             None: Player(browser, f"{base}/voila/render/{made['spectator_path']}", wait_until="commit")}
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
