"""In headless Chromium, against the test process's shared ``playtest serve``: the Lazy
Sunday tutorial is completed by clicking, as a learner would: the lit cards are lit, a
wrong move is refused with why, the finale offers a hint; no request leaves 127.0.0.1
(no font or script from a CDN). Each game page's layout is checked in
test_browser_game_pages.py."""
from __future__ import annotations

import pytest
from browser_support import POLL_MS, outside_requests

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser_and_base(dashboards):
    """The test process's dashboard server and browser (each page in a context of its own:
    its own browser name, so no autosaved game of another test is offered)."""
    return dashboards.browser, dashboards.base


def open_page(browser, base, path: str, width: int, height: int, requests: list[str]):
    """Open the dashboard at ``path`` (e.g. ``"game.ipynb?game=lazy_sunday"``) and wait for its board."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{base}/voila/render/{path}", timeout=180_000)
    page.wait_for_selector(".pt-table .pt-card", timeout=180_000)
    page.wait_for_timeout(1500)                                   # the last layout pass
    return page


def test_the_lazy_sunday_tutorial_is_completed_by_clicking(browser_and_base):
    browser, base = browser_and_base
    requests: list[str] = []
    page = open_page(browser, base, "learn.ipynb?game=lazy_sunday", 1280, 720, requests)
    row = lambda seat: page.locator(".pt-row").nth(seat).locator(".pt-card")   # noqa: E731
    move = lambda label: page.locator(".pt-controls").get_by_role("button", name=label, exact=True)  # noqa: E731

    def step(text: str) -> None:
        page.wait_for_function(f"document.querySelector('.pt-coach').innerText.includes({text!r})",
                               timeout=60_000, polling=POLL_MS)

    def click(locator) -> None:
        locator.wait_for(state="visible", timeout=60_000)
        locator.click()

    def next_button(label: str = "Next") -> None:
        button = page.locator(".pt-coach-next")          # by class: its icon's glyph is part of its name
        page.wait_for_function(f"(() => {{ const b = document.querySelector('.pt-coach-next'); "
                               f"return b && b.offsetParent && b.innerText.trim() === {label!r}; }})()",
                               timeout=60_000, polling=POLL_MS)
        button.click()

    try:
        # lesson 1: peek at the two lit cards, then Done looking
        step("Lesson 1 of 6")
        assert "pt-lit" in row(0).nth(0).get_attribute("class") and "pt-lit" in row(0).nth(1).get_attribute("class")
        # on a 720 px screen the lit cards are scrolled clear of the move controls stuck to the bottom
        page.wait_for_function("""() => { const lit = document.querySelector('.pt-lit').getBoundingClientRect();
            return lit.top >= 0 && lit.bottom <= document.querySelector('.pt-controls').getBoundingClientRect().top; }""",
                               timeout=10_000, polling=POLL_MS)
        assert "pt-lit" not in row(0).nth(2).get_attribute("class")
        click(move("Peek at 2 of my cards"))
        click(row(0).nth(2))
        click(row(0).nth(2))                                         # the same card twice: said in a player's words
        page.wait_for_function("document.querySelector('.pt-coach-feedback').innerText.includes("
                               "'You picked the same card twice: pick two different cards of your list')",
                               timeout=60_000, polling=POLL_MS)
        assert "0.." not in page.locator(".pt-coach-feedback").inner_text()
        click(move("Peek at 2 of my cards"))
        click(row(0).nth(2))                                         # not the lit card: refused, with why
        click(row(0).nth(3))
        page.wait_for_function("document.querySelector('.pt-coach-feedback').innerText.includes('Peek at your two lit')",
                               timeout=60_000, polling=POLL_MS)
        click(move("Peek at 2 of my cards"))
        click(row(0).nth(1))                                         # the second one first: any order
        click(row(0).nth(0))
        step("You are looking at them")
        assert "Nap" in row(0).nth(0).inner_text() and "pt-lit" in row(0).nth(0).get_attribute("class")
        click(move("Done looking"))
        step("step 3 of 3")
        next_button()
        next_button("Next lesson")
        # lesson 2: draw, keep it in place of the second card, Done it! on the first
        step("Lesson 2 of 6")
        click(move("Draw from the deck"))
        step("You drew Water the Plants")
        click(move("Keep it"))
        click(row(0).nth(1))
        step("Your first card is a Nap")
        click(page.locator(".pt-controls").get_by_role("button", name="Done it!", exact=True))
        click(row(0).nth(0))
        step("Right: your Nap went onto DONE")
        next_button()
        next_button("Next lesson")
        # lesson 3: peek, Done looking, NOT ME!, the reveal
        step("Lesson 3 of 6")
        click(move("Peek at 2 of my cards"))
        click(row(0).nth(0))
        click(row(0).nth(1))
        click(move("Done looking"))
        click(move("NOT ME!"))
        step("All lists are revealed")
        assert "Round 1 revealed (LS-9)" in page.locator(".pt-table").inner_text()
        next_button()
        next_button("Next lesson")
        # lesson 4: take the DONE card, Done it! on Ann's card and the give, a wrong claim
        done_it = lambda: page.locator(".pt-controls").get_by_role("button", name="Done it!", exact=True)  # noqa: E731
        step("Lesson 4 of 6")
        click(move("Take the DONE card"))
        click(row(0).nth(1))
        step("You remember that Ann's first card")
        click(done_it())
        click(row(1).nth(0))
        step("A correct claim on another player's card")
        click(move("Give a card"))
        click(row(0).nth(2))
        step("You are shown the card as you give it")
        assert "Vacuum the Stairs" in row(1).nth(0).inner_text()
        next_button()
        step("What does a wrong claim cost?")
        click(done_it())
        click(row(2).nth(0))
        step("Wrong: Bo's card stays")
        assert row(0).count() == 4                                   # the penalty card joined the list
        next_button()
        next_button("Next lesson")
        # lesson 5: an action card drawn and burned
        step("Lesson 5 of 6")
        click(move("Draw from the deck"))
        step("You drew Double Check")
        click(move("Burn: look at my card"))
        click(row(0).nth(2))
        step("you see your third card: Feed the Fish")
        click(move("Done looking"))
        step("Your turn again")
        click(page.locator(".pt-coach").get_by_role("button", name="Skip to the game"))
        # the finale: a game against the gentle bot, with a hint
        step("Your first round")
        click(page.locator(".pt-coach-hint"))
        page.wait_for_function("document.querySelector('.pt-coach-feedback').innerText.startsWith('Hint: ')",
                               timeout=60_000, polling=POLL_MS)
        assert not page.locator(".pt-error").is_visible()
        page.screenshot(path="/tmp/pt_tutorial_finale.png")
    finally:
        page.close()
    assert not outside_requests(requests), outside_requests(requests)
