import sys
from pathlib import Path

# the toy game and shared test helpers live beside the tests
sys.path.insert(0, str(Path(__file__).parent))


import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
from typing import NamedTuple  # noqa: E402

import pytest  # noqa: E402


def pytest_configure(config):
    """Before any fixture (module-scoped servers included): this test process's autosaves
    and table store live in a temporary folder of its own, never the user's."""
    folder = tempfile.mkdtemp(prefix="playtest-tests-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ["PLAYTEST_AUTOSAVE_DIR"] = os.path.join(folder, "autosave")
    os.environ["PLAYTEST_DATA_DIR"] = os.path.join(folder, "tables")
    # Crazy Eights, the example outside the kit, as pip install -e examples/crazy_eights gives it
    from example_install import install_for_this_process
    install_for_this_process(Path(folder) / "site")


SLOW_MARKERS = ("browser", "docs", "server")
"""The markers of tests that take seconds each (pages, a Sphinx build, server processes)."""


def pytest_collection_modifyitems(config, items):
    """The files with slow tests run first (xdist hands out files in collection order,
    ``--no-loadscope-reorder``): the quick files then fill the workers' last minute, where
    a browser file at the end kept one worker busy for half a minute after the others."""
    slow = {item.path for item in items if any(item.get_closest_marker(m) for m in SLOW_MARKERS)}
    items.sort(key=lambda item: item.path not in slow)     # stable: each file's order kept


@pytest.fixture(autouse=True)
def _autosave_in_tmp(tmp_path_factory, monkeypatch):
    """Every test (and every `playtest serve` a browser test starts) autosaves games
    into its own temporary directory, never into ~/.cache/playtest."""
    monkeypatch.setenv("PLAYTEST_AUTOSAVE_DIR", str(tmp_path_factory.mktemp("autosave")))


@pytest.fixture(autouse=True)
def _tables_in_tmp(tmp_path_factory, monkeypatch):
    """Every test's table store (and every server's a browser test starts) is a temporary
    folder, never the user's data folder, and no two test processes share one."""
    monkeypatch.setenv("PLAYTEST_DATA_DIR", str(tmp_path_factory.mktemp("tables")))


@pytest.fixture(autouse=True)
def _no_click_guard(monkeypatch):
    """Widget tests click buttons from Python right after they change; the scenario
    debugger's guard on its "Play this move" button (playtest.widgets.moves.CLICK_GUARD)
    would drop those clicks, so it is 0 here. A test of the guard passes its own
    ``click_guard``."""
    import playtest.widgets.moves as moves
    monkeypatch.setattr(moves, "CLICK_GUARD", 0.0, raising=False)


@pytest.fixture(autouse=True)
def _bots_never_wait(monkeypatch):
    """A game page's bots wait for a person's Done it! chance on the kernel's event loop
    (playtest.widgets.app.BOT_REACTION). Playwright's sync API runs an event loop in a test
    process that has opened a browser, so a widget test after a browser test would see
    one, and its bots would wait for a loop that never turns: 0 here (a test of the wait
    sets its own; the served pages' kernels keep theirs)."""
    import playtest.widgets.app as app
    monkeypatch.setattr(app, "BOT_REACTION", 0.0)


@pytest.fixture
def ctrl_c():
    """Ctrl-C (SIGINT) as a terminal delivers it, for a test that presses it: Python's
    default handler for the test, the process's own again after. A test process started
    with SIGINT ignored (a background job of a shell script, ``pytest &``) would pass the
    ignore on to the servers it starts, which then never stop on SIGINT, and would find
    the ignore, not Python's handler, restored after an in-process Ctrl-C."""
    import signal
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for every browser test of this test process (Playwright on
    the system Chromium); each test opens its own browser contexts (their own cookies and
    storage, as on separate devices). Skips (fails in CI) without Chromium."""
    from browser_support import launch_chromium, require_chromium
    require_chromium()
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        try:
            yield browser
        finally:
            browser.close()


class Dashboards(NamedTuple):
    """The shared dashboard server of a test process: its base URL, the browser, and the
    server's table store and scenarios folders."""
    base: str
    browser: object
    data: Path
    scenarios: Path


@pytest.fixture(scope="session")
def dashboards(chromium, tmp_path_factory):
    """One ``playtest serve`` for the browser tests of this test process, started on
    first use and stopped at the end (:class:`Dashboards`). Tests that need a server of
    their own (other settings, a restart) start one themselves. Pages of different tests
    do not meet: each browser context gets its own browser name (cookie), so its own
    autosaves, and a table is reached only by its links."""
    from browser_support import dashboard_server
    data, scenarios = tmp_path_factory.mktemp("shared-tables"), tmp_path_factory.mktemp("shared-scenarios")
    with pytest.MonkeyPatch.context() as env:     # what the server inherits, for this block only
        env.setenv("PLAYTEST_DATA_DIR", str(data))
        env.setenv("PLAYTEST_SCENARIOS_DIR", str(scenarios))
        with dashboard_server(timeout=180) as base:
            env.undo()
            yield Dashboards(base, chromium, data, scenarios)
