import sys
from pathlib import Path

# the toy game and shared test helpers live beside the tests
sys.path.insert(0, str(Path(__file__).parent))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _autosave_in_tmp(tmp_path_factory, monkeypatch):
    """Every test (and every `playtest serve` a browser test starts) autosaves games
    into its own temporary directory, never into ~/.cache/playtest."""
    monkeypatch.setenv("PLAYTEST_AUTOSAVE_DIR", str(tmp_path_factory.mktemp("autosave")))


@pytest.fixture(autouse=True)
def _no_click_guard(monkeypatch):
    """Widget tests click buttons from Python right after they change; the double-click
    guard (playtest.widgets.moves.CLICK_GUARD) would drop those clicks, so it is 0 here.
    A test of the guard passes its own ``guard`` and a fake clock."""
    import playtest.widgets.moves as moves
    monkeypatch.setattr(moves, "CLICK_GUARD", 0.0, raising=False)
