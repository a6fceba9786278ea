"""Drive the Chore Race dashboard in headless Chromium (Playwright, system Chromium).

Starts ``playtest serve`` on a free port (tests/browser_support.py), opens the dashboard
from the index, starts a short game through the new-game panel (2 seats, the Quick Game
preset: first to 10 VP, CR-17; a fixed seed; seat 0 human, seat 1 the heuristic bot) and
plays it to the end by clicking: progress cards onto the chore nearest completion (move
button, then the chore card), answers to the bot's attacks (Excuse when held, CR-7), and
whatever else is asked. No error may show. Then it checks what reached the browser,
replaying the saved record to know what seat 0 was entitled to at each decision:

* count-aware: the face-up action cards in the page at each decision are, copy by copy,
  at most seat 0's hand, the revealed hands, its Family Meeting choice and the discard
  top of that position;
* by name: every action card name in the board, the move controls and the log is named
  by seat 0's view (its ``keys`` table left out), log, or a shown card's printed text;
  the websocket frames of the game carry no name seat 0 never had the right to see;
* face-down cards carry no text, in the page and in every widget state sent.
"""
from __future__ import annotations

import base64
import json
import re
import time
from collections import Counter

import pytest
from browser_support import POLL_MS, dashboard_page, guard_wait

from playtest import Match
from playtest.games.chore_race import CARDS
from playtest.games.chore_race.widget import CARD_TEXT

pytestmark = pytest.mark.browser

ACTIONS = [a.name for a in CARDS.action]
NAME = re.compile(r"(?<![\w'])(" + "|".join(re.escape(n) for n in ACTIONS) + r")(?![\w'])")
SCREENSHOT = "/tmp/cr_dashboard.png"
SEED = 114          # with the policy below: 14 decisions, the bot attacks twice, seat 0 wins
REACTIONS = ("Excuse: cancel it", "Dodge with I'll Do It Later")


def names_in(text: str) -> set[str]:
    return set(NAME.findall(text))


def frame_text(payload) -> str:
    return payload if isinstance(payload, str) else payload.decode("utf-8", errors="replace")


def entitled(match: Match) -> tuple[set[str], Counter]:
    """Seat 0's entitled names (view without ``keys``, log, printed text of shown cards)
    and the face-up action cards the board may show, at the match's cursor."""
    view = match.view(0)
    cards = Counter(view["hand"])
    for r in view["revealed"]:
        cards.update(r["hand"] if r["seat"] != 0 else ())
    cards.update((view["meeting"] or {}).get("mine") or ())
    cards.update(view["action_discard"][-1:])
    view.pop("keys")
    text = json.dumps(view) + "\n".join(t for _, t in match.log_for(0))
    text += " ".join(t for name, t in CARD_TEXT.items() if json.dumps(name) in text)
    return names_in(text), cards


def offered(page) -> list[str]:
    """The move buttons on offer (visible), without Play/Cancel."""
    return [t for t in (b.inner_text().strip() for b in page.locator(".pt-controls .widget-hbox button").all()
                        if b.is_visible()) if t and t not in ("Play", "Cancel")]


def move_number(page) -> int:
    return int(re.search(r"Move (\d+)", page.locator(".pt-timeline").inner_text())[1])


def over(page) -> bool:
    return "Game over" in page.locator(".pt-status").inner_text()


def settle(page, timeout: float = 90.0) -> list[str]:
    """Wait until the page stops changing and seat 0 has a move (or the game is over)."""
    deadline, last = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        page.wait_for_timeout(300)
        now = (page.locator(".pt-timeline").inner_text(), page.locator(".pt-status").inner_text(), offered(page))
        if now == last and (now[2] or over(page)):
            return now[2]
        last = now
    raise AssertionError(f"no move offered to seat 0; status: {page.locator('.pt-status').inner_text()}")


def wait_moved(page, before: int, timeout: float = 90.0) -> None:
    page.wait_for_function(f"(document.querySelector('.pt-timeline').innerText.match(/Move (\\d+)/) || [0, 0])[1]"
                           f" > {before}", timeout=timeout * 1000, polling=POLL_MS)


def my_rows(page):
    seat = page.locator(".cr-seat.cr-me")            # the viewer's own panel (drawn last, above the moves)
    return seat.locator(".pt-row").nth(0).locator(".pt-card"), seat.locator(".pt-row").nth(1).locator(".pt-card")


def best_chore(page) -> int:
    """My chore nearest completion (fewest progress missing, then leftmost)."""
    chores, _ = my_rows(page)
    gaps = []
    for i in range(chores.count()):
        have, need = map(int, re.search(r"(\d+)/(\d+)", chores.nth(i).inner_text()).groups())
        gaps.append((need - have, i))
    return min(gaps)[1]


def click_move(page, label: str):
    guard_wait(page)        # a button that just appeared ignores clicks for CLICK_GUARD
    page.locator(".pt-controls").get_by_role("button", name=label, exact=True).click()


def then_card(page, before: int, card) -> None:
    """After a move button: if the move still needs a target, click ``card``; wait for
    the move to be played."""
    deadline = time.monotonic() + 60
    while move_number(page) == before and time.monotonic() < deadline:
        target = card()
        if target.count() and "pt-clickable" in (target.get_attribute("class") or ""):
            guard_wait(page)                 # a card that just became clickable ignores clicks for a moment
            if move_number(page) == before:
                target.click()
            break
        page.wait_for_timeout(200)           # the move button's targets are not drawn yet
    wait_moved(page, before)


def snapshot(page) -> tuple[int, Counter, str]:
    """The move number, the face-up action cards and the game-bearing HTML now."""
    faces = page.eval_on_selector_all(".pt-table .pt-face", "els => els.map(e => e.textContent)")
    cards = Counter(t.split("\n")[0].strip() for t in faces if t.split("\n")[0].strip() in ACTIONS)
    text = "".join(page.eval_on_selector_all(".pt-table, .pt-controls, .pt-log", "els => els.map(e => e.innerHTML)"))
    backs = page.eval_on_selector_all(".pt-back, .pt-empty", "els => els.map(e => e.textContent + (e.title || ''))")
    assert all(not t.strip() for t in backs), [t for t in backs if t.strip()]
    return move_number(page), cards, text


def test_play_a_quick_game_in_the_browser(dashboards):
    snapshots, reactions = [], []
    with dashboard_page(dashboards, None, ".cr-seat .pt-card", height=1200, path="game.ipynb?game=chore_race") as (page, frames, errors, base):

        # a new game: 2 seats (seat 1 stays the heuristic bot), Quick Game, fixed seed
        page.locator(".pt-app").get_by_text("New game", exact=True).click()
        page.get_by_label("Seats", exact=True).select_option(label="2")
        page.locator(".widget-dropdown", has_text="Preset").locator("select").select_option(label="Quick Game")
        page.locator(".widget-text", has_text="Seed").locator("input").fill(str(SEED))
        page.wait_for_timeout(500)
        frames_at_start = len(frames)      # the page's first game (3 seats) is not ours
        page.get_by_role("button", name="Start new game").click()
        page.wait_for_function("[...document.querySelectorAll('.cr-seat')].filter(e => e.offsetParent).length === 2",
                               timeout=60_000, polling=POLL_MS)
        page.wait_for_function("document.querySelector('.pt-status').innerText.includes('first to 10 VP')",
                               timeout=60_000, polling=POLL_MS)
        assert "Seat 2 (heuristic bot)" in page.inner_text(".pt-table")      # seat 1, counted from 1

        for _ in range(80):
            labels = settle(page)
            snapshots.append(snapshot(page))
            assert not page.locator(".pt-error").is_visible(), page.locator(".pt-error").inner_text()
            if over(page):
                break
            before = move_number(page)
            chores, hand = my_rows(page)
            answer = next((x for x in REACTIONS if x in labels), None) or next(
                (x for x in labels if x.startswith("Let the ")), None)
            if answer:
                reactions.append((page.locator(".cr-prompt").inner_text(), answer))
                if len(reactions) == 1:
                    page.screenshot(path=SCREENSHOT.replace(".png", "_prompt.png"), full_page=True)
                click_move(page, answer)
                wait_moved(page, before)
            elif "Place a Done" in labels or "Place my own Done" in labels:
                click_move(page, "Place a Done" if "Place a Done" in labels else "Place my own Done")
                then_card(page, before, lambda: chores.first)
            elif "Score a chore" in labels:
                click_move(page, "Score a chore")
                then_card(page, before, lambda: page.locator(".cr-seat.cr-me .pt-clickable").first)
            elif any(x.startswith(("Steal", "Attic")) for x in labels):
                click_move(page, next(x for x in labels if x.startswith(("Steal", "Attic"))))
                then_card(page, before, lambda: page.locator(".cr-seat:not(.cr-me) .pt-clickable").first)
            elif any(x.startswith("Pass ") for x in labels):
                label = next(x for x in labels if x.startswith("Pass "))
                click_move(page, label)
                for i in range(int(label.split()[1])):
                    hand.nth(i).click()
                    page.wait_for_timeout(300)
                page.locator(".pt-controls").get_by_role("button", name="Play", exact=True).click()
                wait_moved(page, before)
            elif "Play Finally! (+3)" in labels or "Play Done" in labels:
                target = best_chore(page)
                if len(snapshots) == 3:
                    page.screenshot(path=SCREENSHOT, full_page=True)
                click_move(page, "Play Finally! (+3)" if "Play Finally! (+3)" in labels else "Play Done")
                then_card(page, before, lambda: chores.nth(target))
            elif "End play step" in labels:
                click_move(page, "End play step")
                wait_moved(page, before)
            else:
                raise AssertionError(f"unexpected moves offered: {labels}")
        assert over(page), "the game did not end within 80 decisions"
        assert not page.locator(".pt-error").is_visible()
        assert not errors, errors
        status = page.locator(".pt-status").inner_text()
        assert "winner: seat" in status

        # the record (offered without warning now the game is over) tells us what seat 0 saw
        page.locator(".pt-app").get_by_text("Save / load record", exact=True).click()
        page.get_by_role("button", name="Save record").click()
        href = page.locator("a.pt-download").get_attribute("href", timeout=20_000)
        record = base64.b64decode(href.split(",", 1)[1]).decode()
        page.screenshot(path=SCREENSHOT.replace(".png", "_end.png"), full_page=True)

    assert reactions, "seat 0 never answered a reaction prompt"
    assert any(answer in REACTIONS for _, answer in reactions), reactions
    assert all("against you" in prompt for prompt, _ in reactions), reactions

    match = Match.from_json(record)
    assert match.game.options.target_vp == 10 and match.seed == SEED and match.outcome() is not None
    ever: set[str] = set()
    for n in range(len(match.moves) + 1):
        match.goto(n)
        ever |= entitled(match)[0]
    for n, cards, text in snapshots:
        match.goto(n)
        names, allowed = entitled(match)
        extra = cards - allowed
        assert not extra, f"move {n}: face-up cards seat 0 may not see: {extra}"
        leaked = names_in(text) - names
        assert not leaked, f"move {n}: the page named {leaked}"
    panel = " ".join(f.description or "" for f in type(match.game).Options.model_fields.values())
    game_frames = "\n".join(frame_text(f) for f in frames[frames_at_start:])
    leaked = names_in(game_frames) - ever - names_in(panel)
    assert not leaked, f"websocket carried {leaked}, which seat 0 never had the right to see"
    assert len(snapshots) >= 8
