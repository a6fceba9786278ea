"""Live Chore Race tables in real browsers, each person in their own browser context: the
target of an Inspection answers with Excuse from its own browser (CR-7), its reaction
buttons within a laptop's and a phone's first screen; three people play
a Family Meeting, each choosing its pass by clicks in its own browser, and no page shows
another seat's choice before the cards change hands (CR-8)."""
from __future__ import annotations

import re
import time
from collections import Counter

import pytest
from browser_support import guard_wait
from table_support import (Player, api, assert_moves_above_the_fold, assert_turn_tab_and_name, browser,  # noqa: F401
                           create, seat_token, seat_url, server, state, stored_moves, wait_version)  # noqa: F401

from playtest import Match
from playtest.games.chore_race import CARDS as CR_CARDS

pytestmark = pytest.mark.browser


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
        # the reaction's buttons fit a laptop's and a phone's first screen (issue 24), the
        # tab says the seat must act, and a name works on a reaction page too
        assert_moves_above_the_fold(target, "chore_race reaction")
        assert_turn_tab_and_name(target, 1)
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
        players[1].page.locator(".pt-log").get_by_text("Seat 1 has chosen the cards to pass.").wait_for(timeout=30_000)
        players[1].page.locator(".pt-controls").get_by_text("You will pass:").wait_for(timeout=10_000)
        play(players[1])
        assert settled(lambda: state(base, made, 2)["view"]["meeting"]["committed"], [0, 1]) == [0, 1]
        for player in players[:2]:
            player.page.locator(".cr-prompt").get_by_text("Family Meeting: waiting for seat 3").wait_for(timeout=30_000)
        players[2].page.locator(".pt-log").get_by_text("Seat 2 has chosen the cards to pass.").wait_for(timeout=30_000)
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
            assert got and sorted(got[1].split(", ")) == chosen[left] and got[2] == str(left + 1), received[seat]   # seats counted from 1
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


