"""The README is a promise: its two set-up commands are there, and its Python example
runs as written."""
import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_readme_shows_the_serve_and_test_commands():
    assert "pip install -e . && playtest serve" in README
    assert 'pip install -e ".[test]" && python -m pytest' in README


def test_readme_python_example_runs(tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks, "the README has no Python example"
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert (tmp_path / "game.json").is_file()
