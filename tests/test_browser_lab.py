"""Drive the balance-lab dashboard in headless Chromium (Playwright, system Chromium):
open it from the index, set a small Lazy Sunday run (3 seats, 20 games, a fixed seed,
one seat a random bot), Run, see the progress bar finish, the tables and the plots,
then download the CSV and check it holds the same games as ``playtest.simulate`` (the lab's
CSV reads back into the same rows and metrics)."""
from __future__ import annotations

import pandas as pd
import pytest
from browser_support import dashboard_page

from playtest import simulate
from playtest.lab import metrics, read_csv

pytestmark = pytest.mark.browser

GAMES, SEED = 20, 11
SCREENSHOT = "/tmp/balance_lab.png"


def field(page, label: str):
    """The input of the text field labelled ``label``."""
    return page.locator(".pt-lab .widget-text", has_text=label).locator("input")


def test_run_a_small_simulation_and_download_the_csv(dashboards):
    with dashboard_page(dashboards, None, ".pt-lab button:has-text('Run')", height=1400, timeout=180,
                        path="balance_lab.ipynb") as (
            page, _frames, errors, _base):
        page.locator(".pt-lab").get_by_label("Seats", exact=True).select_option("3")
        page.locator(".pt-lab .widget-dropdown", has_text="Seat 2").locator("select").select_option("random")
        field(page, "Games").fill(str(GAMES))
        field(page, "Games").press("Enter")
        field(page, "Seed").fill(str(SEED))
        field(page, "Seed").press("Enter")
        page.wait_for_timeout(500)
        page.locator(".pt-lab").get_by_role("button", name="Run").click()

        status = page.locator(".pt-lab-status")
        status.filter(has_text=f"Played {GAMES} games").wait_for(timeout=120_000)
        bar = page.locator(".pt-lab .widget-hprogress .progress-bar")
        assert bar.evaluate("b => b.style.width") == "100%"
        assert not page.locator(".pt-error").is_visible()
        tables = page.locator(".pt-lab-table table")
        shown = page.locator(".pt-lab-results").inner_text()
        assert tables.count() == 4 and "AdvantageP1" in shown   # metrics, seats, bots (two kinds seated), cards
        assert "Bot win rates" in shown and "random" in shown
        images = page.locator(".pt-lab img")
        assert images.count() == 3
        assert all(images.nth(i).evaluate("i => i.complete && i.naturalWidth > 100") for i in range(3))
        page.screenshot(path=SCREENSHOT, full_page=True)

        link = page.locator("a.pt-download")
        assert f"Download CSV ({GAMES} games)" in link.inner_text()
        with page.expect_download() as download_info:
            link.click()
        download = download_info.value
        assert download.suggested_filename == "balance_lab_lazy_sunday.csv"
        rows = pd.read_csv(download.path())
        expected = simulate("lazy_sunday", 3, bots=["heuristic", "heuristic", "random"], games=GAMES, seed=SEED,
                            progress=False)
        back = read_csv(download.path())   # the lab's CSV: the same games, their set-up in the file
        pd.testing.assert_frame_equal(back, expected, check_dtype=False)
        pd.testing.assert_frame_equal(metrics(rows), metrics(expected))
        assert not errors, errors
