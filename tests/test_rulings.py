"""Ruling ids: every game declares its own (``Game.RULINGS``, id -> one line) and the
engine its ``G-*`` ids (``G_RULINGS``); the kit's games declare exactly the ids
RULINGS.md defines for them, every id a game package cites is one it declares, the ids
the kit cites exist, and the repository's copy of RULINGS.md matches the design team's
shared file when that is present. ``playtest rulings`` prints the declarations."""
import inspect
import re
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from playtest.cli import main
from playtest.engine import G_RULINGS, games, ruling_lines
from playtest.scenarios.scenario import _id_ranges, cited_rulings, known_rulings

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "RULINGS.md"
KIT_SECTION = "\n## The kit's ranges for a game's length (not in the shared rulings)\n"
KIT_GAMES = sorted(name for name, game in games().items() if game.__module__.startswith("playtest.games."))
"""The games of the kit's own package, whose ids RULINGS.md defines."""


def defined_ids() -> set[str]:
    """The ids RULINGS.md defines: each at the start of a line (``G-1 ...``, ``- G-1 ...``,
    ``**CR-1**``)."""
    text = (ROOT / "RULINGS.md").read_text(encoding="utf-8")
    return {f"{m[1]}-{m[2]}" for m in re.finditer(r"^(?:- |)\*{0,2}([A-Z]{1,4})-(\d+)\b", text, re.M)}


def prefix(game) -> str:
    """The one prefix of the ids a game declares (``"CR"`` for Chore Race)."""
    prefixes = {rid.split("-")[0] for rid in game.RULINGS}
    assert len(prefixes) == 1, f"{game.title} declares ids of several prefixes: {sorted(prefixes)}"
    return prefixes.pop()


def test_rulings_defines_every_id_range():
    ids = defined_ids()
    expected = ({f"G-{i}" for i in range(1, 5)} | {f"LS-{i}" for i in range(1, 12)}
                | {f"CR-{i}" for i in range(1, 22)} | {f"NS-{i}" for i in range(1, 11)})
    assert expected == ids


def test_the_engine_declares_exactly_the_general_ids_of_rulings_md():
    assert set(G_RULINGS) == {rid for rid in defined_ids() if rid.startswith("G-")}


@pytest.mark.parametrize("name", KIT_GAMES)
def test_each_kit_game_declares_exactly_the_ids_rulings_md_defines_for_it(name):
    game = games()[name]
    own = {rid for rid in defined_ids() if rid.split("-")[0] == prefix(game)}
    assert set(game.RULINGS) == own
    assert list(game.RULINGS) == sorted(own, key=lambda rid: int(rid.split("-")[1]))     # in order
    assert known_rulings(name) == own | set(G_RULINGS) == set(ruling_lines(game))
    assert list(ruling_lines(game)) == [*G_RULINGS, *game.RULINGS]                        # G first


@pytest.mark.parametrize("name", sorted(games()))
def test_every_ruling_line_is_one_short_line(name):
    for rid, line in ruling_lines(games()[name]).items():
        assert isinstance(line, str) and line.strip() == line and line, (rid, line)
        assert "\n" not in line and len(line) <= 120, (rid, len(line), line)
        assert re.fullmatch(r"[A-Z]{1,4}-\d+", rid), rid


INSTALLED = sorted({ep.name for ep in entry_points(group="playtest.games")})
"""The game packages installed (a toy game a test registers is a module, not a package)."""


@pytest.mark.parametrize("name", INSTALLED)
def test_every_id_a_game_package_cites_is_one_it_declares(name):
    """Its source, tutorial, example scenarios and card data: a cited id is the game's
    own or the engine's, ranges (``LS-1..LS-11``) counted id by id."""
    folder = Path(inspect.getfile(games()[name])).parent
    cited: dict[str, str] = {}
    files = [path for path in sorted(folder.rglob("*")) if path.suffix in (".py", ".toml", ".md") and path.is_file()]
    assert any(path.suffix == ".toml" for path in files) or games()[name].TUTORIAL is None
    for path in files:
        for rid in cited_rulings(path.read_text(encoding="utf-8")):
            cited.setdefault(rid, str(path.relative_to(folder)))
    undeclared = {rid: where for rid, where in cited.items() if rid not in known_rulings(name)}
    assert not undeclared, f"{name} cites ruling ids it does not declare: {undeclared}"
    assert set(games()[name].RULINGS) & set(cited), f"{name} cites none of its own ruling ids"


def test_every_cited_ruling_id_exists():
    """Every ruling id the kit's code, notebooks, dashboards, README and docs cite is
    one RULINGS.md defines or an installed game declares (ids of the prefixes rulings
    use: ``UTF-8`` is no ruling)."""
    declared = set().union(*(known_rulings(name) for name in games()))
    prefixes = {rid.split("-")[0] for rid in declared}
    ids = defined_ids() | declared
    cited = {}
    for path in [*ROOT.glob("playtest/**/*.py"), *ROOT.glob("playtest/**/*.toml"), *ROOT.glob("playtest/notebooks/*.ipynb"),
                 *ROOT.glob("playtest/dashboards/*.ipynb"), ROOT / "README.md", *ROOT.glob("docs/**/*.md")]:
        for rid in cited_rulings(path.read_text(encoding="utf-8")):
            if rid.split("-")[0] in prefixes:
                cited.setdefault(rid, path.relative_to(ROOT))
    unknown = {rid: str(where) for rid, where in cited.items() if rid not in ids}
    assert not unknown, f"ruling ids cited but neither in RULINGS.md nor declared by a game: {unknown}"
    assert {rid for rid in cited if rid.startswith(("G-", "CR-"))}, "the scan found the kit's citations"


def test_ruling_ids_of_any_prefix_are_read_and_ranges_counted():
    assert cited_rulings("LS-3, CE-1..CE-3 and G-2..4; UTF8, ABCDE-1, cr-2") == {
        "LS-3", "CE-1", "CE-2", "CE-3", "G-2", "G-3", "G-4"}
    assert _id_ranges({"LS-2", "G-1", "G-2", "CE-9", "CE-10", "ZZ-1", "A-1"}) == "G-1..G-2, A-1, CE-9..CE-10, LS-2, ZZ-1"


def test_playtest_rulings_prints_a_games_ids_with_their_lines(capsys):
    assert main(["rulings", "night_shift"]) == 0
    out = capsys.readouterr().out
    game = games()["night_shift"]
    for rid, line in ruling_lines(game).items():
        assert re.search(rf"^  {rid} +{re.escape(line)}$", out, re.M), rid
    assert out.index("G-4") < out.index("Night Shift (night_shift):") < out.index("NS-1 ")
    assert "CR-1" not in out and "LS-1" not in out


def test_playtest_rulings_without_a_game_prints_every_installed_game(capsys):
    assert main(["rulings"]) == 0
    out = capsys.readouterr().out
    assert out.count("G-1 ") == 1                                   # the engine's ids once
    for game in games().values():
        assert f"{game.title} ({game.name}):" in out
        assert all(f"  {rid} " in out for rid in game.RULINGS)


def test_playtest_rulings_refuses_an_unknown_game_naming_the_games(capsys):
    assert main(["rulings", "go_fish"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"playtest rulings: unknown game 'go_fish'; games: {', '.join(sorted(games()))}\n"


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
