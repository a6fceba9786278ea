"""``.ci/wheel-check`` runs only in CI, after the suite: the addresses it opens must stay
the kit's own, or CI fails after a green suite (it once asked for a per-game dashboard
that had been removed)."""
import importlib.machinery
import importlib.util
from pathlib import Path

from playtest.pages import game_page

ROOT = Path(__file__).resolve().parent.parent


def load_wheel_check():
    loader = importlib.machinery.SourceFileLoader("wheel_check", str(ROOT / ".ci" / "wheel-check"))
    spec = importlib.util.spec_from_loader("wheel_check", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_wheel_check_opens_the_kits_game_page_and_the_lobby():
    check = load_wheel_check()
    assert check.GAME_PAGE == game_page("lazy_sunday")
    dashboards = ROOT / "playtest" / "dashboards"
    assert (dashboards / check.GAME_PAGE.split("?")[0]).is_file()
    assert (dashboards / "lobby.ipynb").is_file()
