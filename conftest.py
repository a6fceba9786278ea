"""Test-session settings that must reach every test item, notebooks (nbval) included."""
import os
import sys
import tempfile

# The suite starts hundreds of Python processes (test workers, servers, kernels, command
# lines). Where PYTHONDONTWRITEBYTECODE is set (this project's machines set it), each one
# compiled the kit, and pytest rewrote every test module, from source again: the suite
# writes the usual __pycache__ folders (git ignores them) for itself and what it starts.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

from playtest.server import skip_iri_format_checker

# nbval (the notebooks as tests) imports nbformat, so jsonschema, whose "iri" checker costs
# about 3 s of import in every test process (controller and workers): skipped first, as the
# server skips it, then nbval is loaded here instead of as an entry point plugin, which
# pytest imports before any conftest (pyproject.toml's addopts has "-p no:nbval")
skip_iri_format_checker()
pytest_plugins = ["nbval.plugin"]


def pytest_configure(config):
    # dashboards and tutorials autosave games (playtest.widgets.autosave); a test run must
    # never write into, or resume from, the user's own ~/.cache/playtest
    os.environ["PLAYTEST_AUTOSAVE_DIR"] = tempfile.mkdtemp(prefix="playtest-autosave-")
    # likewise the live tables' database (playtest.tables.store.data_dir)
    os.environ["PLAYTEST_DATA_DIR"] = tempfile.mkdtemp(prefix="playtest-data-")


def pytest_collection_modifyitems(config, items):
    """The order pytest-xdist hands out files in (``--dist loadfile
    --no-loadscope-reorder``): the notebooks and the docs build first (long, each a kernel
    or a build of its own), then the other tests, then the browser tests. Browser tests
    come last in each process because the Playwright session they share, once started,
    keeps its event loop running in the process's thread: a later test's
    ``asyncio.run()`` would be refused."""
    def group(item) -> int:
        if item.get_closest_marker("browser"):
            return 2
        return 0 if item.get_closest_marker("docs") or item.path.suffix == ".ipynb" else 1
    items.sort(key=group)      # stable: a file's tests keep their order
