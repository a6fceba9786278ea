"""Drive the balance-lab dashboard in headless Chromium (Playwright, system Chromium):
open it from the index, set a small Lazy Sunday run (3 seats, 20 games, a fixed seed,
one seat a random bot), Run, see the progress bar finish, the tables and the plots,
then download the CSV and check it holds the same games as ``playtest.simulate`` (the lab's
CSV reads back into the same rows and metrics); then, on the same page (one lab kernel for
the file), the People's games tab takes an export and plays bot games beside it, and the
game picker offers Crazy Eights, installed from outside the kit, with its bots."""
from __future__ import annotations

import pandas as pd
import pytest
from browser_support import dashboard_page
from test_widgets_lab_people import exports  # noqa: F401 (fixture)

from playtest import simulate
from playtest.lab import metrics, read_csv

pytestmark = pytest.mark.browser

GAMES, SEED = 20, 11
SCREENSHOT = "/tmp/balance_lab.png"


def field(page, label: str):
    """The input of the text field labelled ``label``."""
    return page.locator(".pt-lab .widget-text", has_text=label).locator("input")


@pytest.fixture(scope="module")
def lab_page(dashboards):
    """One balance lab page for the file's tests (a page load costs about 3 CPU-s of
    Chromium and kernel): ``(page, its uncaught errors)``. Each test sets what it uses."""
    with dashboard_page(dashboards, None, ".pt-lab button:has-text('Run')", height=1400, timeout=180,
                        path="balance_lab.ipynb") as (page, _frames, errors, _base):
        yield page, errors


def test_run_a_small_simulation_and_download_the_csv(lab_page):
    page, errors = lab_page
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


def test_in_the_browser_the_tab_loads_an_export_and_sets_bots_beside_people(exports, lab_page):
    """Headless Chromium: the People's games tab of balance_lab.ipynb takes the export
    through the upload button, refuses one too large beside it, and plays bot games."""
    _service, _ids, files = exports
    page, errors = lab_page
    lab = page.locator(".pt-lab")
    lab.get_by_label("Seats", exact=True).select_option("3")
    games = lab.locator(".widget-text", has_text="Games").locator("input")
    games.fill("20")
    games.press("Enter")
    page.get_by_role("tab", name="People's games").click()
    people = page.locator(".pt-lab-people")
    upload = people.locator(".pt-upload")
    upload.wait_for(state="visible", timeout=30_000)
    assert upload.locator(".pt-upload-hint").inner_text() == "The lobby's Results export (JSON or CSV), up to 1 MiB"

    def choose(name: str, data: bytes) -> None:
        with page.expect_file_chooser() as chooser:
            upload.locator("button").click()
        chooser.value.set_files(files=[{"name": name, "mimeType": "application/json", "buffer": data}])

    choose("huge.json", b" " * (2 << 20))
    note = upload.locator(".pt-upload-note")
    note.wait_for(state="visible", timeout=10_000)
    assert note.inner_text().startswith("huge.json is 2.0 MiB: the dashboard reads table exports of at most")
    choose("tables.json", files["json"])
    people.get_by_text("3 finished tables").wait_for(timeout=60_000)
    # the summary's line and its table are messages of their own: the table may come a moment later
    people.get_by_text("AdvantageP1").first.wait_for(timeout=30_000)
    shown = people.inner_text()
    assert "AdvantageP1" in shown and "human" in shown and "1 table(s) of other games than Lazy Sunday" in shown
    people.get_by_role("button", name="Play bot games beside them").click()
    people.get_by_text("Played 20 games of bots").wait_for(timeout=120_000)
    shown = people.inner_text()
    assert "people − bots" in shown and "DurationTurns" in shown
    assert not page.locator(".pt-error").is_visible()
    assert not errors, errors


def test_the_lab_offers_a_game_installed_from_outside_the_kit_with_its_bots(lab_page):
    """Issue 27: Crazy Eights, installed beside the kit (examples/crazy_eights), is a game of
    the lab, each seat offered the bots the package declares."""
    page, errors = lab_page
    page.get_by_role("tab", name="Runs").click()          # the page's first tab (another test may leave another)
    game = page.locator(".pt-lab").get_by_role("combobox", name="Game")
    game.select_option(label="Crazy\xa0Eights")
    seat = page.locator(".pt-lab .widget-dropdown", has_text="Seat 1").locator("option")
    seat.filter(has_text="ismcts").wait_for(state="attached", timeout=30_000)     # its declared bots
    assert {"random", "heuristic", "ismcts"} <= {t.replace("Bot:\xa0", "") for t in seat.all_inner_texts()}
    assert not page.locator(".pt-error").is_visible()
    assert not errors, errors
