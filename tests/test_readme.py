"""The README is a promise: a front page of at most 150 lines with its two set-up commands,
one picture that exists, and links into the documentation (tests/test_docs.py checks
that those pages exist and that the Python examples moved into them run as written)."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_shows_the_serve_and_test_commands():
    assert "```bash\npip install -e . && playtest serve\n```" in README
    assert '```bash\npip install -e ".[test]" && python -m pytest\n```' in README


def test_readme_is_a_front_page_with_one_picture():
    assert len(README.splitlines()) <= 150
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", README)
    assert len(pictures) == 1, pictures
    assert (ROOT / pictures[0]).is_file(), pictures[0]


def test_readme_has_a_five_step_first_session():
    session = README.split("## A first session in five steps", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"^(\d)\. ", session, re.M) == ["1", "2", "3", "4", "5"]
