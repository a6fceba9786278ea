"""Uploads too large for the page's websocket, in headless Chromium: the limit is shown
beside the upload button before anyone tries, and a larger file is refused there with a
message (it used to vanish: the server drops a websocket message over 10 MiB, so the
kernel never heard of it). The game on the table is unchanged and the page still works."""
from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from pathlib import Path

import pytest

from browser_support import POLL_MS, dashboard_page

from playtest import Match
from playtest.engine import limits

pytestmark = pytest.mark.browser


def choose_file(page, scope: str, name: str, data: bytes) -> None:
    """Pick ``name`` (``data``) in the upload button's file chooser inside ``scope``. The
    file is written to a folder of its own and handed over by its path (the browser reads
    it from disk): as a buffer, Playwright would send a 12 MiB file through its pipe as
    base64, several seconds per file."""
    folder = Path(tempfile.mkdtemp(prefix="playtest-upload-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)   # the page may read it later
    (folder / name).write_bytes(data)
    with page.expect_file_chooser() as chooser:
        page.locator(f"{scope} .pt-upload button").click()
    chooser.value.set_files(str(folder / name))


def refusal(name: str, size: str) -> str:
    return (f"{name} is {size}: records and scenarios may be at most 1 MiB (1,048,576 bytes); "
            "nothing was loaded.")


def test_an_oversized_upload_is_refused_beside_the_button_and_the_game_goes_on(dashboards):
    with dashboard_page(dashboards, None, ".pt-card", height=1100, path="game.ipynb?game=lazy_sunday") as (page, _frames, errors, base):
        page.locator(".pt-app").get_by_text("Save / load record", exact=True).click()
        upload = page.locator(".pt-app .pt-upload")
        upload.wait_for(state="visible", timeout=30_000)
        # the limit is on show before anyone tries
        assert upload.locator(".pt-upload-hint").inner_text() == f"Records and scenarios up to {limits.SIZE_TEXT}"
        assert "Load record or scenario" in upload.locator("button").inner_text()
        assert not upload.locator(".pt-upload-note").is_visible()
        status, timeline = page.locator(".pt-status").inner_text(), page.locator(".pt-timeline").inner_text()

        # 12 MiB: over the websocket's 10 MiB, so it could never reach the kernel
        choose_file(page, ".pt-app", "huge.json", b" " * (12 << 20))
        note = upload.locator(".pt-upload-note")
        note.wait_for(state="visible", timeout=10_000)
        assert note.inner_text() == refusal("huge.json", "12.0 MiB")
        # 3 MiB: under the websocket's limit, over the kit's
        choose_file(page, ".pt-app", "big.json", b"[" * (3 << 20))
        page.wait_for_function("() => document.querySelector('.pt-app .pt-upload-note').innerText.includes('big.json')",
                               timeout=10_000, polling=POLL_MS)
        assert note.inner_text() == refusal("big.json", "3.0 MiB")
        assert page.locator(".pt-status").inner_text() == status
        assert page.locator(".pt-timeline").inner_text() == timeline
        assert not page.locator(".pt-error").is_visible()

        # the page still talks to its kernel: a small bad record reaches it and is explained
        bad = Match("chore_race", 3, seed=2).to_json()
        choose_file(page, ".pt-app", "cr.json", bad.encode())
        page.wait_for_selector(".pt-error", state="visible", timeout=30_000)
        assert "this is a Chore Race record" in page.locator(".pt-error").inner_text()
        assert not note.is_visible()                    # a file that was sent clears the size note
        assert page.locator(".pt-status").inner_text() == status

        # the scenario debugger's upload, on the same server
        page.goto(f"{base}/voila/render/scenario_debugger.ipynb", wait_until="commit", timeout=180_000)
        page.wait_for_selector(".pt-debugger .pt-upload button", timeout=240_000)
        debugger = page.locator(".pt-debugger .pt-upload")
        assert debugger.locator(".pt-upload-hint").inner_text() == f"Scenarios (.toml) or records (.json) up to {limits.SIZE_TEXT}"
        choose_file(page, ".pt-debugger", "huge.toml", b"#" * (11 << 20))
        debugger.locator(".pt-upload-note").wait_for(state="visible", timeout=10_000)
        assert debugger.locator(".pt-upload-note").inner_text() == refusal("huge.toml", "11.0 MiB")
        bad_scenario = json.dumps({"not": "toml"}).encode()
        choose_file(page, ".pt-debugger", "bad.toml", bad_scenario)
        page.wait_for_selector(".pt-error", state="visible", timeout=30_000)
        assert "bad.toml" in page.locator(".pt-error").inner_text()
        assert errors == []
