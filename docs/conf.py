"""Sphinx configuration of the playtest documentation.

Build it (warnings are errors, as in tests/test_docs.py)::

    pip install -e ".[docs]"
    sphinx-build -W --keep-going -b html docs docs/_build/html
"""
from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# the kit's tutorial notebooks, rendered as pages (copied into docs/notebooks/ at each build,
# as Sphinx reads only files under docs/): the one place that says where they live
NOTEBOOKS = ROOT / "playtest" / "notebooks"
sys.path.insert(0, str(ROOT))

import playtest  # noqa: E402

project = "playtest"
author = "the playtest team"
copyright = "2026, the playtest team"
release = version = playtest.__version__

extensions = [
    "myst_nb",                 # MyST markdown pages and the notebooks (myst_parser inside)
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
# _incoming: the fragments engineers write about their changes, folded in by hand
exclude_patterns = ["_build", "_incoming", "_generated", "Thumbs.db", ".DS_Store", "README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "off"      # the notebooks are tested by nbval; here they are only shown

html_theme = "pydata_sphinx_theme"
html_title = "playtest"
html_static_path = ["_static"]
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "description"
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True       # "Attributes:" as fields, not a second entry beside autodoc's own
# the kit re-exports its classes (playtest.Match is playtest.engine.match.Match), so a name in
# a signature has several targets: any of them is the same class
suppress_warnings = ["ref.python"]


def copy_notebooks() -> None:
    """Copy NOTEBOOKS/*.ipynb into docs/notebooks/ (generated; not in git)."""
    target = DOCS / "notebooks"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir()
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        shutil.copy2(notebook, target / notebook.name)


def write_cli_help() -> None:
    """``playtest <command> --help`` of every command into docs/_generated/cli/, for cli.md."""
    from playtest.cli import main

    target = DOCS / "_generated" / "cli"
    target.mkdir(parents=True, exist_ok=True)
    os.environ["COLUMNS"] = "88"
    for command in ["", "serve", "notebooks", "tables backup", "replay", "rulings", "simulate", "report", "skill",
                    "tables-report"]:
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main([*command.split(), "--help"])
        (target / f"{command.replace(' ', '-') or 'playtest'}.txt").write_text(out.getvalue(), encoding="utf-8")


copy_notebooks()
write_cli_help()
