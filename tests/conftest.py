import sys
from pathlib import Path

# the toy game and shared test helpers live beside the tests
sys.path.insert(0, str(Path(__file__).parent))


import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

import pytest  # noqa: E402


def pytest_configure(config):
    """Before any fixture (module-scoped servers included): this test process's autosaves
    and table store live in a temporary folder of its own, never the user's."""
    folder = tempfile.mkdtemp(prefix="playtest-tests-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ["PLAYTEST_AUTOSAVE_DIR"] = os.path.join(folder, "autosave")
    os.environ["PLAYTEST_DATA_DIR"] = os.path.join(folder, "tables")


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
    """Widget tests click buttons from Python right after they change; the double-click
    guard (playtest.widgets.moves.CLICK_GUARD) would drop those clicks, so it is 0 here.
    A test of the guard passes its own ``guard`` and a fake clock."""
    import playtest.widgets.moves as moves
    monkeypatch.setattr(moves, "CLICK_GUARD", 0.0, raising=False)
