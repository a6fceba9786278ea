"""Helpers for the Playwright tests: serve the dashboards with ``playtest serve`` on a
free local port, and launch the system Chromium (Playwright's own download cannot
work here). Without /usr/bin/chromium the tests skip, except under CI=true, where
they fail."""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import tempfile
import urllib.parse
from pathlib import Path

import pytest

from playtest.server.launch import free_port, running, serve_command
from playtest.widgets.moves import CLICK_GUARD

GUARD_MS = CLICK_GUARD * 1000
POLL_MS = 100
"""How often a test's ``page.wait_for_function`` checks its condition: Playwright's default
polls on every animation frame, which kept Chromium at a tenth of a core for each waiting
page (1.0 CPU-s in 10 s of waiting against 0.1 at 100 ms, measured on a game page)."""
"""The double-click guard in ms (read at import, before the test suite's fixtures turn
it off for Python-side widget tests; the dashboard server runs with the real one)."""

def run_coroutine(coro):
    """``asyncio.run(coro)``, also in a test process whose session-scoped Chromium (the
    ``chromium`` fixture) keeps Playwright's event loop running in this thread, where
    asyncio.run refuses to start ("cannot be called from a running event loop"): then in
    a thread of its own. Returns the coroutine's result."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


CHROMIUM = "/usr/bin/chromium"
FEATURES_OFF = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "SpareRendererForSitePerProcess"]
"""The Chromium features the suite's browser runs without: a window's omnibox popups (WebUI
pages Chromium 156 makes for every browser context, in a renderer of their own) and the
spare renderer it keeps for the next site. No page needs them, and without them a page
load costs Chromium about a third less CPU (benchmarks/bench_browser_flags.py)."""
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 f"--disable-features={','.join(FEATURES_OFF)}"]
"""The flags of the suite's Chromium (:data:`FEATURES_OFF` switched off)."""
ROOT = Path(__file__).resolve().parent.parent


def require_chromium() -> None:
    """Skip (or fail under CI=true) when the system Chromium or Playwright is missing."""
    problem = None
    if not os.access(CHROMIUM, os.X_OK):
        problem = f"system Chromium not found at {CHROMIUM} (install the 'chromium' package)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "Playwright is not installed (pip install -e '.[test]')"
    if problem:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser test cannot run in CI: {problem}")
        pytest.skip(problem)


NO_POOLS = {"PlaytestVoila": {"pool_sizes": {}, "awaited_cap": 0}}
"""Voilà settings for the suite's servers: no preheated kernels. A page then starts its own
kernel as it opens (preheating only starts that kernel earlier), and no kernel is started
for a page that never comes: in a test run about a quarter of the preheated kernels never
got a page, about 1 CPU-s each on a 2-core machine. The pools themselves are tested with
servers of their own (tests/test_serve_server.py, tests/test_page_cost.py)."""


def voila_config_env(config: dict, folder: Path, env: dict | None = None) -> dict:
    """``env`` (default: this process's environment) with ``config`` (traitlets settings,
    e.g. :data:`NO_POOLS`) written as ``folder``/voila.json and ``folder`` put first on
    ``$JUPYTER_CONFIG_PATH``: Voilà reads it over playtest's defaults (``playtest serve``
    passes no Voilà options)."""
    env = dict(os.environ if env is None else env)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "voila.json").write_text(json.dumps(config), encoding="utf-8")
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(filter(None, [str(folder), env.get("JUPYTER_CONFIG_PATH", "")]))
    return env


@contextlib.contextmanager
def dashboard_server(timeout: float = 90.0, voila_config: dict | None = None):
    """Run ``playtest serve --port <free>`` (Voilà on 127.0.0.1) from the checkout for the
    duration of the block (:func:`playtest.server.launch.running`); yields the base URL.
    The server's output goes to ``$TMPDIR/playtest_serve_<port>.log``, removed when the
    block ends, unless it ended with an error.
    Its Voilà settings (:func:`voila_config_env`) are :data:`NO_POOLS` with ``voila_config``
    (e.g. ``{"VoilaConfiguration": {...}}``) added."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"playtest_serve_{port}.log"
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="playtest-voila-config-")))
        env = voila_config_env({**NO_POOLS, **(voila_config or {})}, folder)
        stack.enter_context(running(serve_command(port), f"{base}/voila/tree", log, cwd=ROOT, env=env,
                                    timeout=timeout, stop_wait=10))
        yield base
    log.unlink(missing_ok=True)     # kept only when the block failed, to read what the server said


def guard_wait(page) -> None:
    """Wait out the double-click guard: move buttons ignore clicks for CLICK_GUARD
    seconds after they change to a new decision (call it before clicking a move button
    that may have just appeared)."""
    page.wait_for_timeout(GUARD_MS)


def page_html(page) -> str:
    """The page's HTML without the "How to play" panel (public rules text that names
    cards), for checks that no hidden card name reached the page."""
    return page.evaluate("() => { const c = document.documentElement.cloneNode(true); "
                         "c.querySelectorAll('.pt-rules').forEach(e => e.remove()); return c.outerHTML; }")


def outside_requests(requests: list[str]) -> list[str]:
    """The URLs among ``requests`` (every URL a page asked for) that left this machine
    (data: and blob: never leave): a page must load no font or script from a CDN."""
    hosts = {urllib.parse.urlsplit(url).hostname for url in requests if not url.startswith(("data:", "blob:"))}
    return [url for url in requests if urllib.parse.urlsplit(url).hostname in hosts - {"127.0.0.1"}]


def launch_chromium(playwright):
    """The system Chromium, headless, with the flags that work in a sandboxed container."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


@contextlib.contextmanager
def dashboard_page(dashboards, link: str | None, ready: str, height: int = 1100, timeout: float = 120.0,
                   path: str | None = None):
    """Open a dashboard of the shared server (the ``dashboards`` fixture, see
    tests/conftest.py) in a fresh browser context and wait for the CSS selector ``ready``: with
    ``path`` (e.g. ``"game.ipynb?game=lazy_sunday&seed=4"``) that page directly, else the index,
    following the link named ``link`` (as a person would). Yields ``(page, frames,
    errors, base)``: the Playwright page, every websocket frame the page received (text
    or bytes), the page's uncaught errors, and the server's base URL. The context is
    closed at the end."""
    base, browser = dashboards.base, dashboards.browser
    frames: list = []
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": height})
    try:
        page = context.new_page()
        page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        if path is None:
            page.goto(f"{base}/voila/render/index.ipynb", timeout=timeout * 1000)
            assert page.locator(".anchor-link").count() and not page.locator(".anchor-link").first.is_visible()  # no "¶"
            page.get_by_role("link", name=link, exact=True).click()   # "Lazy Sunday", not "Learn Lazy Sunday"
        else:
            page.goto(f"{base}/voila/render/{path}", timeout=timeout * 1000)
        page.wait_for_selector(ready, timeout=timeout * 1000)
        yield page, frames, errors, base
    finally:
        context.close()
