"""The documentation site in docs/ builds without a warning (Sphinx with -W), every page the
README links to exists, and the Python examples on its pages run as written (they were the
README's)."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.docs
def test_docs_build_without_a_warning(tmp_path):
    # one build (about half a minute on 2 cores); -W makes any warning an error, and
    # --keep-going lists them all
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(DOCS), str(tmp_path / "html")], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-5000:]
    assert "WARNING" not in done.stderr and "ERROR" not in done.stderr, done.stderr[-5000:]
    for page in ["index", "getting-started", "dashboards/lobby", "rulings", "api/engine",
                 "notebooks/lazy_sunday_rules"]:
        assert (tmp_path / "html" / f"{page}.html").is_file(), page
    # the notebooks are pages with their saved outputs (nb_execution_mode "off": nbval runs
    # them in the suite): each code cell saved with outputs shows them, and no other does
    # (docs/conf.py copies them into docs/notebooks/ from the one folder it names)
    notebooks = sorted((DOCS / "notebooks").glob("*.ipynb"))
    assert len(notebooks) >= 5, notebooks
    for notebook in notebooks:
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        saved = sum(1 for cell in cells if cell["cell_type"] == "code" and cell.get("outputs"))
        html = (tmp_path / "html" / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
        assert html.count('class="cell_output') == saved, notebook.name


def test_every_page_the_readme_links_exists():
    links = [link for link in re.findall(r"\]\(([^)]+)\)", README) if "://" not in link]
    assert len(links) >= 15, links
    for link in links:
        assert (ROOT / link.split("#")[0]).is_file(), f"README links to {link}, which does not exist"
    linked = {link for link in links if link.startswith("docs/") and link.endswith(".md")}
    pages = {str(p.relative_to(ROOT)) for p in DOCS.rglob("*.md")
             if not p.relative_to(DOCS).parts[0].startswith(("_", "notebooks"))}
    # every page is reached from the README, but for the site's own front page, the rulings
    # (the README links RULINGS.md itself) and the reference's pages (through its index)
    unlinked = {page for page in pages - linked if not page.startswith("docs/api/")}
    assert unlinked <= {"docs/index.md", "docs/rulings.md"}, unlinked


@pytest.mark.parametrize("page", ["python.md", "scenarios.md", "dashboards/lab.md"])
def test_python_examples_on_the_pages_run(page, tmp_path, monkeypatch):
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), re.S)
    assert blocks, f"{page} has no Python example"
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        exec(compile(block, page, "exec"), {})
    if page == "python.md":
        assert (tmp_path / "game.json").is_file()
    if page == "scenarios.md":
        assert (tmp_path / "mine.toml").is_file()
    if page == "dashboards/lab.md":
        assert (tmp_path / "win_rates.png").is_file()
