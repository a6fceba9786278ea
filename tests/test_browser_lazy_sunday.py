"""Drive the Lazy Sunday dashboard in headless Chromium (Playwright, system Chromium).

Starts ``playtest serve`` on a free port, opens the dashboard, peeks in the page's first
game, reloads the page and resumes that game from its autosave; then starts a 3-seat game
(seat 0 human, two heuristic bots), plays a full round by clicking (peek, draw and
discard, double clicks, a late second click landing on the next decision's button,
NOT ME!), checks the scores and that no error banner shows,
then checks what reached the browser: no face-down card name in the page or in the
widget messages on the websocket beyond what seat 0 was entitled to see (replaying the
saved record to know), and no face-down card slot carrying a name.
"""
from __future__ import annotations

import base64
import html
import json
import re
import time

import pytest
from browser_support import POLL_MS, dashboard_page, guard_wait, page_html

from playtest import Match
from playtest.games.lazy_sunday import LazySunday

pytestmark = pytest.mark.browser

NAMES = sorted(set(LazySunday(2).cards.names))
PATTERNS = {n: re.compile(r"(?<![\w'])" + re.escape(n) + r"(?![\w'])") for n in NAMES}
SCREENSHOT = "/tmp/ls_dashboard.png"


def names_in(text: str) -> set[str]:
    return {n for n, p in PATTERNS.items() if p.search(text)}


def decode(payload) -> list[dict]:
    """The Jupyter messages in one websocket frame: JSON text, or the binary
    ``v1.kernel.websocket.jupyter.org`` form (offset count, offsets, channel, header,
    parent header, metadata, content, buffers)."""
    if isinstance(payload, str):
        try:
            return [json.loads(payload)]
        except ValueError:
            return []
    n = int.from_bytes(payload[:8], "little")
    offsets = [int.from_bytes(payload[8 * (i + 1):8 * (i + 2)], "little") for i in range(n)] + [len(payload)]
    parts = [payload[offsets[i]:offsets[i + 1]] for i in range(n)]
    try:
        return [{"channel": parts[0].decode(), "header": json.loads(parts[1]), "content": json.loads(parts[4])}]
    except (IndexError, ValueError):
        return []


def frame_text(payload) -> str:
    return payload if isinstance(payload, str) else payload.decode("utf-8", errors="replace")


def widget_states(messages):
    """Every widget state (full or partial update) in the messages."""
    for msg in messages:
        data = msg.get("content", {}).get("data", {})
        if isinstance(data, dict) and isinstance(data.get("state"), dict):
            yield data["state"]


def move_button(page, label):
    return page.locator(".pt-controls").get_by_role("button", name=label, exact=True)


def click_move(page, label, double=False):
    """Click a move button once it is shown and the double-click guard has passed."""
    button = move_button(page, label)
    button.wait_for(state="visible", timeout=30_000)
    guard_wait(page)
    button.dblclick() if double else button.click()


def move_number(page) -> int:
    return int(re.search(r"Move (\d+)", page.locator(".pt-timeline").inner_text())[1])


def last_logged(page) -> str:
    """The number of the newest log line."""
    return page.locator(".pt-log .pt-moveno").first.inner_text().strip()


def upload(page, name: str, data: bytes) -> None:
    """Load a record file through the "Load record" button's file chooser."""
    with page.expect_file_chooser() as chooser:
        page.locator(".pt-app .jupyter-widgets.widget-upload, .pt-app button", has_text="Load record").first.click()
    chooser.value.set_files(files=[{"name": name, "mimeType": "application/json", "buffer": data}])


BUTTON_AT = """([x, y]) => { const b = document.elementFromPoint(x, y)?.closest('button');
  return b ? b.innerText.trim() : null; }"""


def late_double_click(page, label) -> str | None:
    """A double click on the move button ``label`` whose second click lands on the next
    decision's button drawn in the same spot (the browser counts it as the second click
    of a double click: ``event.detail`` 2). Returns that button's text (None: nothing was
    drawn there)."""
    box = move_button(page, label).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    # on every frame (not POLL_MS): the second press must follow the new button at once
    page.wait_for_function(f"({BUTTON_AT})([{x}, {y}]) !== {label!r}", timeout=30_000)
    under = page.evaluate(BUTTON_AT, [x, y])
    page.mouse.down(click_count=2)          # the second press alone: event.detail 2 (Playwright's
    page.mouse.up(click_count=2)            # click_count=2 would send a first click before it)
    return under


def offered(page) -> list[str]:
    """The move buttons on offer in the controls (visible ones)."""
    return [b.inner_text().strip() for b in page.locator(".pt-controls .widget-hbox button").all() if b.is_visible()]


def assert_backs_blank(page) -> None:
    """Every face-down or empty card in the page shows no text and no hover title."""
    texts = page.eval_on_selector_all(".pt-back, .pt-empty", "els => els.map(e => e.textContent + (e.title || ''))")
    assert texts and all(not t.strip() for t in texts), [t for t in texts if t.strip()]


def wait_for_moves(page, timeout=30.0) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page.wait_for_timeout(250)
        labels = [x for x in offered(page) if x not in ("Play", "Cancel")]
        status = page.locator(".pt-status").inner_text()
        if labels or "Match over" in status or "Round over" in status:
            assert_backs_blank(page)
            return labels
    raise AssertionError(f"no move offered to seat 0; status: {page.locator('.pt-status').inner_text()}")


def test_play_a_round_in_the_browser(dashboards):
    with dashboard_page(dashboards, "Lazy Sunday", ".pt-card", height=1100) as (page, frames, errors, base):
        assert not page.locator(".pt-resume").is_visible()
        rules = page.locator(".pt-app").get_by_text("How to play", exact=True)
        assert rules.is_visible() and not page.locator(".pt-rules").is_visible()   # closed at first

        # never lose a game: play a few moves in the page's first game, reload, resume
        assert wait_for_moves(page) == ["Peek at 2 of my cards"]
        click_move(page, "Peek at 2 of my cards")
        page.locator(".pt-row").first.locator(".pt-card").nth(0).click()
        page.wait_for_timeout(300)
        page.locator(".pt-row").first.locator(".pt-card").nth(1).click()
        click_move(page, "Done looking")
        move_button(page, "Done looking").wait_for(state="hidden", timeout=30_000)
        wait_for_moves(page)
        played, logged = move_number(page), last_logged(page)
        assert played >= 2 and logged == str(played)
        page.reload()
        page.wait_for_selector(".pt-card", timeout=120_000)
        resume = page.locator(".pt-resume button", has_text="Resume your unfinished game")
        resume.wait_for(state="visible", timeout=30_000)
        assert f"4 seats: seat 1 human, seats 2–4 heuristic bot; {played} moves, saved at" in resume.inner_text()
        assert move_number(page) == 6          # a new game: its 3 bots have peeked at once (LS-3), seat 0 not yet
        resume.click()
        page.wait_for_function(f"document.querySelector('.pt-timeline').innerText.includes('Move {played} (live)')",
                               timeout=30_000, polling=POLL_MS)
        page.locator(".pt-resume").wait_for(state="hidden", timeout=10_000)    # the offer goes once taken
        assert last_logged(page) == logged
        assert wait_for_moves(page)[0] == "Draw from the deck"
        page.screenshot(path=SCREENSHOT.replace(".png", "_resumed.png"), full_page=True)

        # a new 3-seat game: seat 0 human, two bots (the panel's defaults)
        page.locator(".pt-app").get_by_text("New game", exact=True).click()
        page.get_by_label("Seats", exact=True).select_option(label="3")
        frames_at_start = len(frames)      # the page's first game (4 seats) is not ours
        page.get_by_role("button", name="Start new game").click()
        page.wait_for_function("document.querySelectorAll('.pt-row').length === 3 || "
                               "[...document.querySelectorAll('.pt-row')].filter(e => e.offsetParent).length === 3",
                               polling=POLL_MS)
        page.wait_for_timeout(500)
        assert "Seat 2 (heuristic bot)" in page.inner_text(".pt-table")

        # setup: peek at the first two cards by clicking them
        labels = wait_for_moves(page)
        assert labels == ["Peek at 2 of my cards"]
        click_move(page, "Peek at 2 of my cards")
        my_cards = page.locator(".pt-row").first.locator(".pt-card")
        my_cards.nth(0).dblclick()           # a double click picks the card once, not twice (LS-3's refusal)
        page.locator(".pt-controls", has_text="choose 1 more").wait_for(timeout=30_000)
        page.wait_for_timeout(300)
        assert not page.locator(".pt-error").is_visible(), page.locator(".pt-error").inner_text()
        my_cards.nth(1).click()
        page.wait_for_function("document.querySelectorAll('.pt-row .pt-card.pt-looking').length === 2",
                               timeout=30_000, polling=POLL_MS)         # both cards drawn face-up, and no other
        assert page.locator(".pt-row .pt-face").count() == 2
        click_move(page, "Done looking")
        move_button(page, "Done looking").wait_for(state="hidden", timeout=30_000)

        turns, cursor_before_call, late_checked = 0, None, False
        for _ in range(60):
            labels = wait_for_moves(page)
            status = page.locator(".pt-status").inner_text()
            if "Match over" in status:
                break
            if "NOT ME!" in labels and turns >= 2:
                cursor_before_call = int(re.search(r"Move (\d+)", page.locator(".pt-timeline").inner_text())[1])
                page.screenshot(path=SCREENSHOT, full_page=True)
                frames_before_call = len(frames)
                html_before_call = page_html(page)
                click_move(page, "NOT ME!")
                page.wait_for_function("document.querySelector('.pt-status').innerText.includes('Match over')",
                                       timeout=30_000, polling=POLL_MS)
            elif "Draw from the deck" in labels:
                if late_checked:
                    click_move(page, "Draw from the deck", double=True)     # the second click must do nothing
                else:                   # the second click lands on the next decision's button: dropped
                    dropped = page.evaluate("window.__ptClickGuard.dropped")
                    under = late_double_click(page, "Draw from the deck")
                    if under in ("Discard it", "Keep it"):
                        late_checked = True
                        page.wait_for_timeout(1000)
                        assert page.evaluate("window.__ptClickGuard.dropped") == dropped + 1
                        assert move_button(page, "Discard it").is_visible() and move_button(page, "Keep it").is_visible(), \
                            "a late click answered the drawn card"
                move_button(page, "Discard it").wait_for(state="visible", timeout=30_000)
                # the drawn card shows face-up to its drawer, beside the DONE top
                page.wait_for_function("document.querySelectorAll('.pt-pile .pt-face').length === 2",
                                       timeout=30_000, polling=POLL_MS)
                click_move(page, "Discard it", double=True)             # the second click must do nothing
                move_button(page, "Discard it").wait_for(state="hidden", timeout=30_000)
                turns += 1
            elif labels:
                click_move(page, labels[0])
                page.wait_for_timeout(1000)
            assert not page.locator(".pt-error").is_visible(), page.locator(".pt-error").inner_text()
        status = page.locator(".pt-status").inner_text()
        assert "Match over" in status and "NOT ME! called by Seat" in status
        assert cursor_before_call is not None, "seat 0 never called NOT ME!"
        assert late_checked, "the late second click was never tried"
        scores = page.locator(".pt-scores:not(.pt-reveal)")          # the match table, under the reveal
        assert scores.is_visible() and "round 1" in scores.inner_text() and "total" in scores.inner_text()
        assert not page.locator(".pt-error").is_visible()
        assert not errors, errors

        # the record (offered without warning now the game is over) tells us what seat 0 saw
        page.locator(".pt-app").get_by_text("Save / load record", exact=True).click()
        page.get_by_role("button", name="Save record").click()
        href = page.locator("a.pt-download").get_attribute("href", timeout=10_000)
        record = base64.b64decode(href.split(",", 1)[1]).decode()
        link = page.locator("a.pt-download").evaluate(
            "a => { const s = getComputedStyle(a); return [s.backgroundColor, s.display, s.textDecorationLine]; }")
        assert link[0] not in ("rgba(0, 0, 0, 0)", "transparent") and link[1] == "inline-block", link
        page.screenshot(path=SCREENSHOT.replace(".png", "_end.png"), full_page=True)

        # loading a bad record or another game's record: a clear banner, the game stays
        status = page.locator(".pt-status").inner_text()
        bad = Match("lazy_sunday", 4, seed=1).record().model_dump()
        bad["moves"] = ["0 draw"]                       # illegal at setup: a long message
        upload(page, "bad.json", json.dumps(bad).encode())
        page.wait_for_selector(".pt-error", state="visible", timeout=30_000)
        assert "Legal moves" in page.locator(".pt-error").inner_text()
        ok = page.locator(".pt-error").get_by_role("button", name="OK")
        whole = ok.evaluate("b => [b.innerText.trim(), b.scrollWidth <= b.clientWidth, b.offsetWidth]")
        page.screenshot(path=SCREENSHOT.replace(".png", "_banner.png"), full_page=True)
        assert whole[0] == "OK" and whole[1] and whole[2] >= 50, whole
        ok.click()
        page.wait_for_selector(".pt-error", state="hidden", timeout=30_000)
        other = Match("chore_race", 3, seed=2).to_json()
        upload(page, "cr.json", other.encode())
        page.wait_for_selector(".pt-error", state="visible", timeout=30_000)
        assert "this is a Chore Race record" in page.locator(".pt-error").inner_text()
        assert page.locator(".pt-status").inner_text() == status

    match = Match.from_json(record)
    assert str(next(m for m in match.moves if m.seat == 0)) == "0 peek 0 1"    # the bots peek at once (LS-3)
    assert sum(1 for m in match.moves if m.seat == 0 and m.kind == "draw") == turns  # double clicks: one draw each
    entitled: set[str] = set()
    for n in range(cursor_before_call + 1):
        match.goto(n)
        entitled |= names_in(json.dumps(match.view(0)) + "\n".join(t for _, t in match.log_for(0)))
    early = [frame_text(f) for f in frames[frames_at_start:frames_before_call]]
    leaked = names_in("\n".join(early)) - entitled
    assert not leaked, f"websocket carried {leaked} before the reveal: " + " | ".join(
        f[:2000] for f in early if names_in(f) & leaked)
    page_names = names_in(html.unescape(html_before_call))
    assert not page_names - entitled, f"page showed {page_names - entitled} before the reveal"
    assert len(entitled) < len(NAMES), "the check needs names seat 0 never saw"
    checked = 0
    for state in widget_states(m for f in frames for m in decode(f)):
        classes = state.get("_dom_classes") or ()
        if "pt-back" in classes:
            checked += 1
            assert not (state.get("description") or "").strip() and not state.get("tooltip"), state
    assert checked, "no face-down card state seen on the websocket"


def test_missing_chromium_skips_but_fails_under_ci(monkeypatch):
    import browser_support
    monkeypatch.setattr(browser_support, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception, match="Chromium not found"):
        browser_support.require_chromium()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="cannot run in CI"):
        browser_support.require_chromium()
