"""Drive the Night Shift dashboard in headless Chromium (Playwright, system Chromium).

Starts ``playtest serve`` on a free port, opens the dashboard from the index, starts a
short game through the new-game panel (``turn_limit`` 6, a fixed seed; seat 0 human,
seat 1 the heuristic bot), plays it to the end by clicking the action buttons (plays,
one buy from the Nap Token stack, a refused Activate, End Shift), and checks the final
result shows and no error is left on screen. Then it checks what reached the browser:
no card name in the page or in the websocket frames of that game that seat 0 never
had the right to see (replaying the saved record to know), no more face-up copies of a
card in the page than seat 0's final view has, and no face-down card carrying text.
"""
from __future__ import annotations

import base64
import html
import json
import re
import time
from collections import Counter

import pytest
from browser_support import POLL_MS, dashboard_page, guard_wait
from browser_support import page_html as browser_page_html

from playtest import Match
from playtest.games.night_shift import NightShift

pytestmark = pytest.mark.browser

NAMES = sorted({c.name for c in NightShift.CARD_SPECS})
PATTERNS = {n: re.compile(r"(?<![\w'])" + re.escape(n) + r"(?![\w']| stack)") for n in NAMES}
SCREENSHOT = "/tmp/ns_dashboard.png"
TURN_LIMIT, SEED = 6, 7


def names_in(text: str) -> set[str]:
    return {n for n, p in PATTERNS.items() if p.search(text)}


def frame_text(payload) -> str:
    return payload if isinstance(payload, str) else payload.decode("utf-8", errors="replace")


def actions(page) -> list[str]:
    """The action buttons on offer (visible ones)."""
    return [b.inner_text().strip() for b in page.locator(".ns-actions button").all() if b.is_visible()]


def timeline(page) -> str:
    return page.locator(".pt-timeline").inner_text()


def assert_backs_blank(page) -> None:
    """Every face-down or empty card in the page shows no text and no hover title."""
    texts = page.eval_on_selector_all(".pt-back, .pt-empty", "els => els.map(e => e.textContent + (e.title || ''))")
    assert texts and all(not t.strip() for t in texts), [t for t in texts if t.strip()]


def click_and_wait(page, label: str, timeout: float = 60.0) -> None:
    """Click the action button ``label`` and wait until the record has grown."""
    before = timeline(page)
    guard_wait(page)        # a button that just appeared ignores clicks for CLICK_GUARD
    page.locator(".ns-actions").get_by_role("button", name=label, exact=True).click()
    deadline = time.monotonic() + timeout
    while timeline(page) == before:
        if time.monotonic() > deadline:
            raise AssertionError(f"clicking {label!r} changed nothing; {timeline(page)}")
        page.wait_for_timeout(100)
    page.wait_for_timeout(200)


def test_play_a_short_game_in_the_browser(dashboards):
    with dashboard_page(dashboards, None, ".ns-actions button", height=1250, timeout=180, path="game.ipynb?game=night_shift") as (page, frames, errors, base):
        assert "Shift 1 of 50" in page.locator(".pt-status").inner_text()

        # a short game from the new-game panel: turn_limit 6, a fixed seed
        page.locator(".pt-app").get_by_text("New game", exact=True).click()
        assert page.locator(".widget-dropdown", has_text="Preset").locator("select").input_value() != ""
        limit = page.locator(".widget-text", has_text="Turn limit").locator("input")
        limit.fill(str(TURN_LIMIT))
        limit.press("Enter")
        seed = page.locator(".widget-text", has_text="Seed").locator("input")
        seed.fill(str(SEED))
        seed.press("Enter")
        page.wait_for_timeout(500)
        frames_at_start = len(frames)      # the page's first game (Shift limit 50) is not ours
        page.get_by_role("button", name="Start new game").click()
        page.wait_for_function(f"document.querySelector('.pt-status').innerText.includes('Shift 1 of {TURN_LIMIT}')",
                               timeout=60_000, polling=POLL_MS)
        assert "Seat 2 (heuristic bot)" in page.inner_text(".pt-table")      # seat 1, counted from 1

        # Activate is shown as unavailable; clicking it gives the NS-9 reason
        activate = page.get_by_role("button", name="Activate an ability (1 Action)")
        assert activate.is_visible() and "NS-9" in page.locator(".ns-why").inner_text()
        activate.click()
        page.wait_for_selector(".pt-error", state="visible", timeout=30_000)
        assert "NS-9" in page.locator(".pt-error").inner_text()
        page.locator(".pt-error").get_by_role("button", name="OK").click()
        page.wait_for_selector(".pt-error", state="hidden", timeout=30_000)

        bought = shot = False
        my_moves = 0
        for _ in range(60):
            status = page.locator(".pt-status").inner_text()
            if "Game over" in status:
                break
            labels = actions(page)
            assert labels, f"no action offered to seat 0; {status}"
            assert_backs_blank(page)
            nap = next((x for x in labels if x.startswith("Buy Nap Token")), None)
            play = next((x for x in labels if x.startswith("Play ")), None)
            if nap and not bought and "Shift 3" in status:
                click_and_wait(page, nap)
                bought = True
            elif play:
                click_and_wait(page, play)
            else:
                if not shot and "Shift 3" in status:
                    page.evaluate("document.querySelector('.pt-app').scrollIntoView()")
                    page.screenshot(path=SCREENSHOT)
                    shot = True
                click_and_wait(page, next(x for x in labels if x.startswith("End Shift")))
            my_moves += 1
            assert not page.locator(".pt-error").is_visible(), page.locator(".pt-error").inner_text()
        status = page.locator(".pt-status").inner_text()
        assert "Game over" in status and f"Shift {TURN_LIMIT} was the last" in status, status
        assert "Care Points" in status
        assert actions(page) == []
        assert not page.locator(".pt-error").is_visible()
        assert not errors, errors
        assert bought and shot
        assert_backs_blank(page)
        page_html = html.unescape(browser_page_html(page))
        faces = Counter(t.split("\n")[0].strip() for t in page.eval_on_selector_all(
            ".pt-face", "els => els.map(e => e.innerText)"))

        page.locator(".pt-app").get_by_text("Save / load record", exact=True).click()
        page.get_by_role("button", name="Save record").click()
        href = page.locator("a.pt-download").get_attribute("href", timeout=30_000)
        record = base64.b64decode(href.split(",", 1)[1]).decode()
        page.evaluate("document.querySelector('.pt-app').scrollIntoView()")
        page.screenshot(path=SCREENSHOT.replace(".png", "_end.png"))

    match = Match.from_json(record)
    assert match.seed == SEED and match.game.options.turn_limit == TURN_LIMIT
    assert sum(m.seat == 0 for m in match.moves) == my_moves
    final = match.view(0)
    in_view = Counter()
    for name, pattern in PATTERNS.items():
        in_view[name] = len(pattern.findall(json.dumps(final)))
    over = {n: (k, in_view[n]) for n, k in faces.items() if k > in_view[n]}
    assert not over, f"more face-up copies in the page than seat 0's view has: {over}"
    entitled: set[str] = set()
    for n in range(len(match.moves) + 1):
        match.goto(n)
        entitled |= names_in(json.dumps(match.view(0)) + "\n".join(t for _, t in match.log_for(0)))
    ours = "\n".join(frame_text(f) for f in frames[frames_at_start:])
    leaked = names_in(ours) - entitled
    assert not leaked, f"websocket carried {leaked}, which seat 0 never saw"
    assert not names_in(page_html) - entitled, f"page showed {names_in(page_html) - entitled}"
    assert len(entitled) < len(NAMES), "the check needs names seat 0 never saw"


def test_end_shift_pressed_ten_times_ends_one_shift(dashboards):
    """#11 in the browser: a burst of ten presses on End Shift (the browser counts them,
    event.detail 1..10), the last nine after the page redrew seat 0's next Shift, on its
    End Shift button. The first ends Shift 1 (the bot plays Shift 2); the nine land on a
    button drawn after the first press and are dropped by the page's click guard, all of
    them: Shift 3 is not ended."""
    with dashboard_page(dashboards, None, ".ns-actions button", path=f"game.ipynb?game=night_shift&seed={SEED}",
                        timeout=180) as (page, _frames, errors, _base):
        guard_wait(page)
        end = page.locator(".ns-actions").get_by_role("button", name="End Shift (no cost)", exact=True)
        end.evaluate("b => { b.dataset.ptOld = '1'; }")
        box = end.bounding_box()
        dropped = page.evaluate("window.__ptClickGuard.dropped")
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down(click_count=1)
        page.mouse.up(click_count=1)
        page.wait_for_function("document.querySelector('.pt-status').innerText.includes('Shift 3 of 50')",
                               timeout=60_000, polling=POLL_MS)
        new = page.locator(".ns-actions button:not([data-pt-old])", has_text="End Shift")
        new.wait_for(state="visible", timeout=30_000)          # seat 0's Shift 3, drawn after the press
        log = page.locator(".pt-log").inner_text()
        box = new.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        for count in range(2, 11):      # the rest of the burst, as quick as a person mashes
            page.mouse.down(click_count=count)
            page.mouse.up(click_count=count)
            page.wait_for_timeout(60)
        page.wait_for_timeout(2000)
        assert page.evaluate("window.__ptClickGuard.dropped") == dropped + 9
        assert "Shift 3 of 50" in page.locator(".pt-status").inner_text()
        assert page.locator(".pt-log").inner_text() == log, "a press of the burst played a move"
        assert not page.locator(".pt-error").is_visible() and not errors
        guard_wait(page)
        new.click()                     # a deliberate press, a moment later: plays
        page.wait_for_function("document.querySelector('.pt-status').innerText.includes('Shift 5 of 50')",
                               timeout=60_000, polling=POLL_MS)
