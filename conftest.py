"""Test-session settings that must reach every test item, notebooks (nbval) included."""
import os
import tempfile


def pytest_configure(config):
    # dashboards and tutorials autosave games (playtest.widgets.autosave); a test run must
    # never write into, or resume from, the user's own ~/.cache/playtest
    os.environ["PLAYTEST_AUTOSAVE_DIR"] = tempfile.mkdtemp(prefix="playtest-autosave-")
    # likewise the live tables' database (playtest.tables.store.data_dir)
    os.environ["PLAYTEST_DATA_DIR"] = tempfile.mkdtemp(prefix="playtest-data-")
