"""Test-session settings that must reach every test item, notebooks (nbval) included."""
import os
import shutil
import tempfile

from playtest.server import skip_iri_format_checker

# nbval (the notebooks as tests) imports nbformat, so jsonschema, whose "iri" checker costs
# about 3 s of import in every test process (controller and workers): skipped first, as the
# server skips it, then nbval is loaded here instead of as an entry point plugin, which
# pytest imports before any conftest (pyproject.toml's addopts has "-p no:nbval")
skip_iri_format_checker()
pytest_plugins = ["nbval.plugin"]


_FOLDERS: list[str] = []
"""This test process's own autosave and table folders, removed when it ends."""


def pytest_configure(config):
    # dashboards and tutorials autosave games (playtest.widgets.autosave); a test run must
    # never write into, or resume from, the user's own ~/.cache/playtest
    os.environ["PLAYTEST_AUTOSAVE_DIR"] = tempfile.mkdtemp(prefix="playtest-autosave-")
    # likewise the live tables' database (playtest.tables.store.data_dir)
    os.environ["PLAYTEST_DATA_DIR"] = tempfile.mkdtemp(prefix="playtest-data-")
    _FOLDERS[:] = [os.environ["PLAYTEST_AUTOSAVE_DIR"], os.environ["PLAYTEST_DATA_DIR"]]


def pytest_unconfigure(config):
    for folder in _FOLDERS:          # each test process made two (about 8 were left per run)
        shutil.rmtree(folder, ignore_errors=True)
