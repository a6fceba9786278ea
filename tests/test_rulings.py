"""The ruling ids the kit cites exist in RULINGS.md, and the repository's copy of
RULINGS.md matches the design team's shared file when that is present."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "RULINGS.md"
KIT_SECTION = "\n## The kit's ranges for a game's length (not in the shared rulings)\n"
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
    body, kits = copy.split("\n", 2)[2].split(KIT_SECTION)
    assert body == SHARED.read_text(encoding="utf-8"), "RULINGS.md is out of date: copy shared/RULINGS.md again"
    assert kits.strip(), "the kit's own section (option ranges) follows the shared rulings"


def test_the_kits_ranges_for_a_games_length_are_the_options_own():
    """RULINGS.md's last section states each length option's range as its option
    declares it (pydantic's ge/le), with the ruling id."""
    from playtest.engine import get_game

    kits = (ROOT / "RULINGS.md").read_text(encoding="utf-8").split(KIT_SECTION)[1]
    for ruling, game, option in [("G-4", "chore_race", "max_turns"), ("LS-10", "lazy_sunday", "rounds"),
                                 ("NS-10", "night_shift", "turn_limit"), ("CR-17", "chore_race", "target_vp")]:
        field = get_game(game).Options.model_fields[option]
        low = next(m.ge for m in field.metadata if getattr(m, "ge", None) is not None)
        high = next(m.le for m in field.metadata if getattr(m, "le", None) is not None)
        assert f"- {ruling} `{option}`: {low} to {high:,} " in kits
        assert field.description.startswith(f"{ruling}:") and f"1 to {high:,}" in field.description
