"""Committed notebooks carry no saved widget state and stay small.

Running a notebook and saving it can store every widget's state in its metadata
(``metadata.widgets["application/vnd.jupyter.widget-state+json"]``: ``nbconvert
--execute`` and the classic Notebook do so): the Lazy Sunday tutorial grew from 74 kB to
1.36 MB that way. nbval runs do not write back; this check fails the suite when such a
file is committed, and says how to clean it::

    python tests/test_notebooks_clean.py playtest/notebooks/*.ipynb playtest/dashboards/*.ipynb
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted([*ROOT.glob("playtest/notebooks/*.ipynb"), *ROOT.glob("playtest/dashboards/*.ipynb")])
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
MAX_BYTES = 400_000
"""The largest a committed notebook may be (the biggest tutorial is about 110 kB)."""


def widget_state_places(nb: dict) -> list[str]:
    """Where ``nb`` (a parsed notebook) holds saved widget state: ``"metadata"`` and/or
    ``"cell N"`` (an output carrying the widget-state MIME type)."""
    places = ["metadata"] if WIDGET_STATE in (nb.get("metadata", {}).get("widgets") or {}) else []
    for n, cell in enumerate(nb.get("cells", [])):
        if any(WIDGET_STATE in out.get("data", {}) for out in cell.get("outputs", ())):
            places.append(f"cell {n}")
    return places


def strip_widget_state(nb: dict) -> dict:
    """``nb`` without saved widget state (the metadata entry and any output of that
    MIME type); widget views stay (they are a few bytes each)."""
    nb.get("metadata", {}).pop("widgets", None)
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", ()):
            out.get("data", {}).pop(WIDGET_STATE, None)
    return nb


def test_there_are_notebooks_to_check():
    assert len(NOTEBOOKS) >= 8, NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_committed_notebook_has_no_widget_state_and_is_small(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    places = widget_state_places(nb)
    assert not places, (f"{path.name} holds saved widget state ({', '.join(places)}): "
                        f"run `python tests/test_notebooks_clean.py {path.relative_to(ROOT)}`")
    size = path.stat().st_size
    assert size <= MAX_BYTES, f"{path.name} is {size:,} bytes (at most {MAX_BYTES:,}): clear its outputs"


def test_strip_removes_saved_state_and_keeps_the_rest():
    nb = {"metadata": {"kernelspec": {"name": "python3"}, "widgets": {WIDGET_STATE: {"state": {"x": 1}}}},
          "cells": [{"cell_type": "code", "source": "1", "outputs": [
              {"output_type": "display_data", "data": {"text/plain": "1", WIDGET_STATE: {"state": {}}}}]}]}
    assert widget_state_places(nb) == ["metadata", "cell 0"]
    clean = strip_widget_state(nb)
    assert widget_state_places(clean) == []
    assert clean["metadata"] == {"kernelspec": {"name": "python3"}}
    assert clean["cells"][0]["outputs"][0]["data"] == {"text/plain": "1"}


if __name__ == "__main__":      # strip saved widget state from the notebooks named
    for name in sys.argv[1:]:
        file = Path(name)
        data = json.loads(file.read_text(encoding="utf-8"))
        if widget_state_places(data):
            file.write_text(json.dumps(strip_widget_state(data), indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
            print(f"stripped {file}")
