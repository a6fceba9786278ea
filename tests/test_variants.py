"""Card variants (playtest.games.variants) and the card editor (playtest.widgets.cards):
one mechanism, the game option ``card_variant``, for a new game, ``simulate`` and the lab's A/B;
card data checked as the kit checks it; the game's own cards.toml never written."""
from __future__ import annotations

import hashlib

import pytest
from widget_support import fresh_widgets  # noqa: F401 (autouse fixture)

from playtest import Match, OptionError, simulate
from playtest.engine import get_game
from playtest.games import variants
from playtest.lab import ab_test
from playtest.widgets.cards import CardEditor

GAMES = ["lazy_sunday", "chore_race", "night_shift"]


@pytest.fixture(autouse=True)
def variants_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYTEST_VARIANTS_DIR", str(tmp_path / "variants"))
    return tmp_path / "variants"


def digest(game: str) -> str:
    return hashlib.sha256(variants.default_cards(get_game(game)).read_bytes()).hexdigest()


@pytest.mark.parametrize("game", GAMES)
def test_a_saved_variant_is_played_by_option_cards_and_the_default_is_untouched(game):
    before = digest(game)
    editor = CardEditor(game)
    section = next(iter(editor.sections))
    first = editor.sections[section][0]
    count = editor.inputs[(section, 0, "count")]
    count.value = str(int(count.value) + 2)
    editor.inputs[(section, 0, "name")].value = "Renamed Card"
    editor.name.value = "mine"
    assert editor.save() == "mine" and "card_variant" in editor.note.value
    assert variants.variants(game) == {"mine": variants.variants_dir(game) / "mine.toml"}
    assert digest(game) == before                                   # never written
    seats = get_game(game).min_seats
    plain, variant = Match(game, seats, seed=3), Match(game, seats, {"card_variant": "mine"}, seed=3)
    names = {c for c in _card_names(variant)}
    assert "Renamed Card" in names and "Renamed Card" not in set(_card_names(plain))
    copies = 2 if first.get("where") == "starter" else 1        # Night Shift: a starter card in each deck
    assert _card_names(variant).count("Renamed Card") == _card_names(plain).count(first["name"]) + 2 * copies
    assert editor.base.value == "mine"                               # offered as a starting point now


def _card_names(match: Match) -> list[str]:
    """Every card id's name in the game's tables."""
    game = match.game
    if match.game.name == "lazy_sunday":
        return list(game.cards.names)
    if match.game.name == "chore_race":
        return list(game.aname) + [c.name for c in game.chores]
    return [c.name for c in game.cards]


def test_simulate_and_the_lab_ab_play_a_variant(variants_folder):
    editor = CardEditor("lazy_sunday")
    nap = next(i for i, e in enumerate(editor.sections["card"]) if e["name"] == "Nap")
    editor.inputs[("card", nap, "count")].value = "12"         # many Naps: lower lists
    editor.name.value = "nap_heavy"
    editor.save()
    rows = simulate("lazy_sunday", 3, "heuristic", games=4, seed=1, options={"card_variant": "nap_heavy"},
                    workers=1, progress=False)
    assert len(rows) == 4 and rows["finished"].all()
    ab = ab_test("lazy_sunday", 3, "heuristic", 4, None, {"card_variant": "nap_heavy"}, seed=1, workers=1,
                 progress=False)
    assert list(ab.a["seed"]) == list(ab.b["seed"])                  # the same games...
    score = [c for c in ab.a.columns if c.endswith("_score")]
    assert not ab.a[score].equals(ab.b[score])                        # ...dealt from other decks
    assert "DurationTurns" in ab.comparison.index


def test_a_new_game_panel_plays_a_variant():
    from playtest.widgets import GameApp
    editor = CardEditor("night_shift")
    editor.inputs[("card", 0, "count")].value = "9"
    editor.name.value = "laundry9"
    editor.save()
    app = GameApp("night_shift", seed=1, autosave=False)
    app.new_game.inputs["card_variant"].value = "laundry9"
    app.new_game.start.click()
    assert app.banner.message == "" and app.match.options_dict()["card_variant"] == "laundry9"
    app.new_game.inputs["card_variant"].value = "no_such_one"
    app.new_game.start.click()
    assert "no card variant of night_shift by that name" in app.banner.message and "laundry9" in app.banner.message


@pytest.mark.parametrize("game, edit, message", [
    ("lazy_sunday", lambda e: [e.inputs[("card", i, "count")].__setattr__("value", "0") for i in range(12)],
     "cannot deal 6 to each"),
    ("lazy_sunday", lambda e: e.inputs[("card", 1, "count")].__setattr__("value", "-1"),
     "[[card]] #2 ('Water the Plants'): count"),
    ("lazy_sunday", lambda e: e.inputs[("card", 1, "name")].__setattr__("value", "Nap"), "the name is used twice"),
    ("chore_race", lambda e: e.inputs[("chore", 0, "level")].__setattr__("value", "0"), "field 'level'"),
    ("night_shift", lambda e: e.inputs[("card", 0, "cost")].__setattr__("value", "two"),
     "cost: 'two' is not a whole number: use a whole number or blank (none)"),
    ("lazy_sunday", lambda e: e.inputs[("card", 1, "count")].__setattr__("value", "1e3"),     # not cut to 1
     "[[card]] #2 ('Water the Plants'): count: '1e3' is not a whole number"),
    ("night_shift", lambda e: e.inputs[("card", 0, "cost")].__setattr__("value", "²"),        # int() would fail
     "cost: '²' is not a whole number"),
    ("night_shift", lambda e: e.inputs[("card", 0, "health")].__setattr__("value", "3"), "only structures have health"),
])
def test_bad_card_data_is_refused_with_the_games_own_message(game, edit, message, variants_folder):
    editor = CardEditor(game)
    edit(editor)
    editor.name.value = "bad"
    editor.save_button.click()
    assert message in editor.banner.message, editor.banner.message
    assert not (variants_folder / game / "bad.toml").exists() and editor.note.value == ""


@pytest.mark.parametrize("name", ["../escape", "a b", "", "x" * 41, "(being checked)"])
def test_a_variant_is_named_never_a_path(name):
    with pytest.raises(OptionError, match="letters, digits"):
        variants.card_file("lazy_sunday", name, variants.default_cards(get_game("lazy_sunday")))
    with pytest.raises(OptionError):
        Match("lazy_sunday", 2, {"card_variant": name})


def test_a_missing_variant_lists_the_saved_ones():
    editor = CardEditor("chore_race")
    editor.name.value = "same"
    editor.save()
    with pytest.raises(OptionError, match=r"saved variants: same\)") as caught:
        Match("chore_race", 2, {"card_variant": "other"})
    assert str(variants.variants_dir("chore_race")) not in str(caught.value)     # no server folder in a message


def test_the_deck_total_follows_the_counts_and_says_when_one_is_not_a_number():
    editor = CardEditor("lazy_sunday")
    total = sum(e["count"] for e in editor.sections["card"])
    assert f"card: {total} cards" in editor.totals.value
    editor.inputs[("card", 0, "count")].value = str(editor.sections["card"][0]["count"] + 5)
    assert f"card: {total + 5} cards" in editor.totals.value
    editor.inputs[("card", 0, "count")].value = "1e3"               # being typed, or a mistake
    assert "card: ? cards" in editor.totals.value
