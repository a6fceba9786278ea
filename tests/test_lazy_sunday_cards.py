"""Lazy Sunday's deck file (LS-1, LS-2): editable TOML, validated with clear errors."""
import os
import shutil

import pytest

from playtest.games.lazy_sunday.rules import CARDS_FILE, DeckError, load_cards


def test_LS1_LS2_default_file_loads_in_order():
    """LS-1/LS-2: ids follow file order with copies consecutive; views carry no id."""
    cards = load_cards()
    assert cards.names[:3] == ("Nap", "Nap", "Water the Plants") and cards.names[-1] == "Knock It Out"
    assert cards.views[0] == {"name": "Nap", "effort": 0, "kind": "chore", "text": "The best thing on any Sunday list."}
    assert sum(spec.count for spec in cards.specs) == 54


def write(tmp_path, old, new):
    path = tmp_path / "cards.toml"
    text = CARDS_FILE.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize("old,new,needle", [
    ('effort = 9\n', 'effort = -9\n', "[[card]] #10 ('Clean the Oven'): effort"),
    ('action = "busy"', 'action = "sleep"', "#11 (\"I'm Busy\"): action"),
    ('action = "busy"\n', '', "an action card needs `action`"),
    ('count = 2\n', 'count = 2\ncolour = "red"\n', "colour: Extra inputs are not permitted"),
    ('name = "Feed the Fish"', 'name = "Nap"', "#3 ('Nap'): the name is used twice"),
    ('kind = "chore"', 'kind = "task"', "#1 ('Nap'): kind"),
    ('[[card]]\nname = "Nap"', '[[card]\nname = "Nap"', "not valid TOML"),
])
def test_bad_deck_file_names_the_file_and_entry(tmp_path, old, new, needle):
    """A bad entry gives a DeckError naming the file, the entry and the problem."""
    path = write(tmp_path, old, new)
    with pytest.raises(DeckError) as err:
        load_cards(path)
    assert str(path) in str(err.value) and needle in str(err.value), str(err.value)


def test_edited_counts_are_read_again(tmp_path):
    """A playtester's edit (file changed on disk) is picked up by the next load."""
    path = tmp_path / "cards.toml"
    shutil.copy(CARDS_FILE, path)
    assert len(load_cards(path).names) == 54
    path.write_text(path.read_text().replace('name = "Nap"\neffort = 0\nkind = "chore"\ncount = 2',
                                             'name = "Nap"\neffort = 0\nkind = "chore"\ncount = 5'))
    os.utime(path, ns=(1, 10**18))  # a different mtime, as a real edit would give
    assert load_cards(path).names.count("Nap") == 5


def test_empty_deck_file(tmp_path):
    """No [[card]] entries at all is a DeckError."""
    path = tmp_path / "cards.toml"
    path.write_text("# nothing\n")
    with pytest.raises(DeckError, match="no \\[\\[card\\]\\] entries"):
        load_cards(path)
