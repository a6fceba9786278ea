"""The scenario tutorial's shell commands work as written (fresh-user report item 19):
the tutorial saves its scenario in a temporary folder, so every ``playtest replay``
command it shows names that file by its full path."""
from __future__ import annotations

import json
import re
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parent.parent / "playtest" / "notebooks" / "scenario_debugging.ipynb"


def shown_replay_files() -> list[str]:
    """The .toml file of every ``playtest replay`` command in the tutorial's text and
    in its saved outputs."""
    files = []
    for cell in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]:
        texts = ["".join(cell["source"])] if cell["cell_type"] == "markdown" else [
            "".join(out.get("text", "")) for out in cell.get("outputs", ())]
        for text in texts:
            files += [m[1] for m in re.finditer(r"playtest replay (\S+\.toml)", text)]
    return files


def test_every_replay_command_the_tutorial_shows_names_the_saved_file_by_its_full_path():
    files = shown_replay_files()
    assert files, "the tutorial shows no `playtest replay FILE.toml` command"
    for name in files:
        assert Path(name).is_absolute() and Path(name).name == "nosy_final_turn.toml", (
            f"`playtest replay {name}` does not work as written: the tutorial saves the file in a temporary folder")
