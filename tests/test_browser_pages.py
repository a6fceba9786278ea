"""Pages and their kernels in headless Chromium (Playwright, the system Chromium), on one
``playtest serve`` shared by the module, its reaper's grace period shortened to 4 s.

* A page whose kernel process is killed says so, with how to get the game back, and
  reloading it does: the game resumes from its last move (autosave); another browser
  is not offered that game.
* A page closed, or reloaded, frees its kernel within the grace period whatever the
  browser does on unload (Playwright closes a page without running its unload handler,
  as a phone going to sleep does; a reload sends Voilà's unload request, which the
  server refuses: voila #1458).
* A page whose server stopped (a restart ends every kernel) says so within half a minute
  (15 s of "connecting", the page template's default; this module's server shortens it
  to CONNECTING_MS through ``VoilaConfiguration.resources``).

Many pages opened at once (1 to 16, their time to the first button against one page
alone, and the kernels left behind) are a load run: benchmarks/bench_pages.py.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import time
import urllib.error
import urllib.request

import pytest
from browser_support import POLL_MS, dashboard_server, guard_wait, require_chromium

pytestmark = pytest.mark.browser

GRACE = 4.0
CONNECTING_MS = 3000
"""How long a page's kernel connection may stay "connecting" before the page says it lost
its server (the template's default is 15 s)."""
PAGE = "/voila/render/game.ipynb?game=lazy_sunday"
FIRST_BUTTON = "button.widget-button:visible"
AFTER = " Reload the page to get your game back from its last move (a single game through its Resume button)."
KERNEL_GONE = "This page's kernel (the Python process that runs its game) stopped; the server is still running." + AFTER
SERVER_GONE = "The server stopped answering this page (stopped, restarted, or the network is down)." + AFTER


class ModuleServer:
    """The module's ``playtest serve`` (reaper grace GRACE): :meth:`start` runs it (once),
    :meth:`stop` stops it; a test after a stop starts another."""

    def __init__(self):
        self.stack, self.base = None, ""

    def start(self) -> str:
        if self.stack is None:
            stack = contextlib.ExitStack()
            self.base = stack.enter_context(dashboard_server(timeout=120, voila_config={
                "VoilaConfiguration": {"resources": {"playtest_page": {"connecting_ms": CONNECTING_MS}}}}))
            self.stack = stack
        return self.base

    def stop(self) -> None:
        if self.stack is not None:
            self.stack, stack = None, self.stack
            stack.close()


@pytest.fixture(scope="module")
def module_server():
    require_chromium()
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PLAYTEST_KERNEL_GRACE", str(GRACE))
        running = ModuleServer()     # its server inherits the grace from here
        try:
            yield running
        finally:
            running.stop()


@pytest.fixture
def server(module_server):
    return module_server.start()


@pytest.fixture(scope="module")
def browser(module_server, chromium):
    return chromium


def kernel_status(base: str, kernel_id: str) -> tuple[int, dict]:
    """(HTTP status, model) of ``GET /api/kernels/<id>``: 404 once it is shut down."""
    try:
        with urllib.request.urlopen(f"{base}/api/kernels/{kernel_id}", timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, {}


def kernel_of(page) -> str:
    return json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]


def open_game(browser, base: str):
    return open_games(browser, base, 1)[0]


def open_games(browser, base: str, count: int):
    """``count`` game pages, each in a browser context of its own, loading at once (their
    kernels start side by side); ``[(context, page), ...]`` once each shows a button."""
    opened = []
    for _ in range(count):
        context = browser.new_context(viewport={"width": 1280, "height": 1100})
        page = context.new_page()
        page.goto(base + PAGE, timeout=180_000, wait_until="commit")
        opened.append((context, page))
    for _, page in opened:
        page.wait_for_selector(FIRST_BUTTON, timeout=180_000)
    return opened


def wait_gone(base: str, kernel_id: str, within: float) -> float:
    """Seconds until the kernel is shut down; fails after ``within`` seconds."""
    start = time.monotonic()
    while kernel_status(base, kernel_id)[0] != 404:
        assert time.monotonic() - start < within, f"kernel {kernel_id} still running after {within:.0f} s"
        time.sleep(0.5)
    return time.monotonic() - start


def test_a_killed_kernel_says_so_on_the_page_and_a_reload_resumes_the_game(browser, server):
    import psutil

    context, page = open_game(browser, server)
    try:
        # one move, so that the game is autosaved: peek at two cards, then done
        controls = page.locator(".pt-controls")
        peek = controls.get_by_role("button", name="Peek at 2 of my cards", exact=True)
        peek.wait_for(state="visible", timeout=30_000)
        guard_wait(page)
        peek.click()
        cards = page.locator(".pt-row").first.locator(".pt-card")
        cards.nth(0).click()
        page.wait_for_timeout(300)
        cards.nth(1).click()
        done = controls.get_by_role("button", name="Done looking", exact=True)
        done.wait_for(state="visible", timeout=30_000)
        guard_wait(page)
        done.click()
        done.wait_for(state="hidden", timeout=30_000)
        assert not page.locator("#pt-kernel-lost").count()

        kernel_id = kernel_of(page)
        victim = next(p for p in psutil.process_iter(["cmdline"])
                      if any(f"kernel-{kernel_id}.json" in part for part in p.info["cmdline"] or []))
        os.kill(victim.pid, signal.SIGKILL)
        bar = page.locator("#pt-kernel-lost")
        bar.wait_for(state="visible", timeout=60_000)
        assert bar.get_attribute("role") == "alert"
        # the server answers: the page names its kernel as what stopped, not the server
        page.wait_for_function("document.getElementById('pt-kernel-lost').dataset.lost === 'kernel'",
                               timeout=10_000, polling=POLL_MS)
        assert KERNEL_GONE in bar.inner_text() and SERVER_GONE not in bar.inner_text()
        # the game under the message is greyed out and takes no clicks: it says "Connected" no more
        assert page.evaluate("getComputedStyle(document.querySelector('.pt-app').closest('.jp-OutputArea'))"
                             ".pointerEvents") == "none"

        # the server itself is up: the page finds it answering, and says that Reload works now
        page.wait_for_function("document.getElementById('pt-kernel-lost').dataset.server === 'answering'",
                               timeout=10_000, polling=POLL_MS)
        assert "The server is answering: Reload gets your game back." in bar.inner_text()
        bar.get_by_role("button", name="Reload the page").click()
        resume = page.locator(".pt-resume button", has_text="Resume your unfinished game")
        resume.wait_for(state="visible", timeout=180_000)
        assert "moves, saved at" in resume.inner_text() and not page.locator("#pt-kernel-lost").count()
        # another browser (another person's device) opens the game page meanwhile (checked below)
        other_context = browser.new_context(viewport={"width": 1280, "height": 1100})
        other = other_context.new_page()
        try:
            other.goto(server + PAGE, timeout=180_000, wait_until="commit")
            resume.click()
            page.wait_for_function("/Move [1-9][0-9]* \\(live\\)/.test(document.querySelector('.pt-timeline').innerText)",
                                   timeout=30_000, polling=POLL_MS)
            [cookie] = [c for c in context.cookies() if c["name"] == "playtest_browser"]
            assert cookie["httpOnly"] and len(cookie["value"]) >= 16
            # that browser is never offered this browser's game
            other.wait_for_selector(FIRST_BUTTON, timeout=180_000)
            assert other.locator(".pt-resume button", has_text="Resume").count() == 0
            assert [c["value"] for c in other_context.cookies() if c["name"] == "playtest_browser"] != [cookie["value"]]
        finally:
            other_context.close()
    finally:
        context.close()


def test_a_closed_or_reloaded_page_frees_its_kernel_within_the_grace_period(browser, server):
    (closed_context, closed), (reloaded_context, reloaded) = open_games(browser, server, 2)
    closed_kernel, first_kernel = kernel_of(closed), kernel_of(reloaded)
    status, model = kernel_status(server, closed_kernel)
    assert status == 200 and model["connections"] >= 1

    closed.close()                               # no unload handler runs
    assert kernel_status(server, closed_kernel)[0] == 200          # nothing else shuts it down
    reloaded.reload(timeout=180_000)             # Voilà's unload request goes out (and is refused)
    reloaded.wait_for_selector(FIRST_BUTTON, timeout=180_000)
    assert kernel_of(reloaded) != first_kernel
    limit = GRACE + 10                           # the grace, a check interval, the shutdown itself
    assert wait_gone(server, closed_kernel, limit) <= limit
    assert wait_gone(server, first_kernel, limit) <= limit
    assert kernel_status(server, kernel_of(reloaded))[0] == 200     # the open page keeps its own
    closed_context.close()
    reloaded_context.close()


def test_a_page_whose_server_stopped_says_so_within_half_a_minute(browser, module_server):
    # a server that stops (or restarts: every kernel ends with it) leaves the page's kernel
    # connection retrying for minutes; the page must not keep looking alive meanwhile.
    # The module's server is stopped (this is the module's last test; one after it would
    # start another): one server start less than a server of its own
    context, page = open_game(browser, module_server.start())
    assert f"CONNECTING_MS = {CONNECTING_MS}," in page.content()      # the server's setting reached the page
    module_server.stop()
    try:                                             # the server is stopped now
        start = time.monotonic()
        bar = page.locator("#pt-kernel-lost")
        bar.wait_for(state="visible", timeout=45_000)
        # the setting holds (the page checks every 2 s); the margin is for a loaded machine
        assert time.monotonic() - start < CONNECTING_MS / 1000 + 2 + 10
        page.wait_for_function("document.getElementById('pt-kernel-lost').dataset.lost === 'server'",
                               timeout=10_000, polling=POLL_MS)
        assert SERVER_GONE in bar.inner_text() and KERNEL_GONE not in bar.inner_text()
        assert bar.get_attribute("data-reason") in ("no connection", "disconnected", "no answer", "dead")
        # the page keeps asking whether the server is back; Reload waits for it (reloading now
        # would show the browser's "This site can't be reached" instead of the game)
        page.wait_for_function("document.getElementById('pt-kernel-lost').dataset.server === 'waiting'",
                               timeout=10_000, polling=POLL_MS)
        assert "Waiting for the server to answer again." in bar.inner_text()
        address = page.url
        bar.get_by_role("button", name="Reload the page").click()
        page.wait_for_timeout(2500)                  # a poll or more: still not answering
        assert "the page reloads as soon as it does" in bar.inner_text() and page.url == address
    finally:
        context.close()
