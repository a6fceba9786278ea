"""The ruling ids the kit cites exist in RULINGS.md, and the repository's copy of
RULINGS.md matches the design team's shared file when that is present."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "RULINGS.md"
ID = re.compile(r"\b(G|LS|CR|NS)-(\d+)\b")


def defined_ids() -> set[str]:
    text = (ROOT / "RULINGS.md").read_text(encoding="utf-8")
    return {f"{m[1]}-{m[2]}" for m in re.finditer(r"^(?:- |)\*{0,2}(G|LS|CR|NS)-(\d+)\b", text, re.M)}


def test_rulings_defines_every_id_range():
    ids = defined_ids()
    expected = ({f"G-{i}" for i in range(1, 5)} | {f"LS-{i}" for i in range(1, 12)}
                | {f"CR-{i}" for i in range(1, 22)} | {f"NS-{i}" for i in range(1, 11)})
    assert expected <= ids


def test_every_cited_ruling_id_exists():
    ids = defined_ids()
    cited = {}
    for path in [*ROOT.glob("playtest/**/*.py"), *ROOT.glob("playtest/**/*.toml"), *ROOT.glob("playtest/notebooks/*.ipynb"),
                 *ROOT.glob("playtest/dashboards/*.ipynb"), ROOT / "README.md", *ROOT.glob("docs/**/*.md")]:
        for m in ID.finditer(path.read_text(encoding="utf-8")):
            cited.setdefault(f"{m[1]}-{m[2]}", path.relative_to(ROOT))
    unknown = {rid: str(where) for rid, where in cited.items() if rid not in ids}
    assert not unknown, f"ruling ids cited but not in RULINGS.md: {unknown}"


@pytest.mark.skipif(not SHARED.is_file(), reason="the design team's shared/RULINGS.md is not beside this checkout")
def test_repository_copy_matches_the_shared_rulings():
    copy = (ROOT / "RULINGS.md").read_text(encoding="utf-8")
    body = copy.split("\n", 2)[2]
    assert body == SHARED.read_text(encoding="utf-8"), "RULINGS.md is out of date: copy shared/RULINGS.md again"
