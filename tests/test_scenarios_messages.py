"""What a scenario's author reads when a file is wrong (fresh-user report items 14 and 20):
unknown keys list the keys allowed, a byte order mark is accepted, ruling ids are
checked, long values are shortened, and an unquoted card name says to quote it."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from playtest.scenarios import Scenario, ScenarioError, ScenarioMoveError, examples
from playtest.scenarios.scenario import known_rulings

sys.path.insert(0, str(Path(__file__).parent))
from test_rulings import defined_ids  # noqa: E402  (the repository's RULINGS.md ids)
from test_scenarios import BASE, line_of, load_error  # noqa: E402

ILLEGAL = BASE + 'illegal = [{ move = "0 draw", ruling = "LS-3" }]\n'


@pytest.mark.parametrize("change, needle, suggestion, keys", [
    (("moves = [", "mvoes = ["), "mvoes =", "did you mean 'moves'?",
     "title, description, game, seats, options, seed, stream, setup, moves, expect"),
    (("to_act = [1]", "to_akt = [1]"), "to_akt", "did you mean 'to_act'?",
     "after, name, seat, to_act, view, none, absent, length, contains, unordered, since, change, unchanged, log, "
     "log_hides, legal, illegal, outcome, fingerprint"),
    (('ruling = "LS-3"', 'rulling = "LS-3"'), "rulling", "did you mean 'ruling'?", "move, ruling"),
])
def test_an_unknown_key_lists_the_keys_allowed_there(change, needle, suggestion, keys):
    text = ILLEGAL.replace(*change)
    message = str(load_error(text))
    assert "unknown key" in message and suggestion in message and f"(keys here: {keys})" in message
    assert load_error(text).line == line_of(text, needle)


def test_an_unknown_outcome_key_lists_the_outcome_keys():
    message = str(load_error(BASE + "outcome = { finished = false, winner = [1] }\n"))
    assert "did you mean 'winners'?" in message and "(keys here: finished, winners)" in message


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    assert Scenario.from_toml("\ufeff" + BASE) == Scenario.from_toml(BASE)
    path = tmp_path / "notepad.toml"
    path.write_bytes(b"\xef\xbb\xbf" + BASE.encode("utf-8"))
    assert Scenario.load(path).title == "base"
    error = load_error("\ufeff" + BASE.replace("seats = 2", "seats = 9"))
    assert error.line == line_of(BASE, "seats =")           # lines still count from the first


def test_an_unknown_ruling_id_in_an_illegal_expectation_is_refused_with_its_line():
    for wrong in ("LS-99", "CR-7", "ls-3", "LS3", "LS-3 "):
        text = ILLEGAL.replace('"LS-3"', f'"{wrong}"')
        error = load_error(text)
        assert f"{wrong!r} is not a Lazy Sunday ruling id" in str(error)
        assert "its ids: G-1..G-4, LS-1..LS-11" in str(error)
        assert error.line == line_of(text, "illegal =")
    assert Scenario.from_toml(ILLEGAL).expect[0].illegal[0].ruling == "LS-3"


@pytest.mark.parametrize("game, prefix", [("lazy_sunday", "LS"), ("chore_race", "CR"), ("night_shift", "NS")])
def test_the_known_ruling_ids_are_exactly_the_games_ids_in_rulings_md(game, prefix):
    in_rulings = {rid for rid in defined_ids() if rid.split("-")[0] in ("G", prefix)}
    assert known_rulings(game) == in_rulings


def test_a_long_pasted_value_is_shortened_in_the_message():
    pasted = [f"Card {i}" for i in range(40)]
    text = BASE.replace('done = ["Nap"]', f"done = {pasted!r}".replace("'", '"'))
    message = str(load_error(BASE.replace('done = ["Nap"]', f"lists = {[pasted] * 3!r}".replace("'", '"'))))
    assert "2 lists for 2 seats" in message and "..." in message and "Card 39" not in message
    assert len(message) < 300, message
    message = str(load_error(text.replace('done = ["Card 0"', 'done = [1, "Card 0"')))
    assert "is a list of card names, not [1, 'Card 0'," in message and "Card 39" not in message


def test_a_failed_expectation_shortens_long_values():
    text = BASE.replace('view = { "done.top.name" = "Nap" }', 'view = { "lists" = [] }')
    failure, = Scenario.from_toml(text).verify()
    # the values are shortened; the detail names the first element that differs, in full
    assert "expected [], found [[{" in str(failure) and len(str(failure)) < 1400, str(failure)
    assert failure.detail == ("lists has 2 entries, expected 0; not expected from position 0 on, first "
                              "[{'face_up': False}, {'face_up': False}, {'face_up': False}, {'face_up': False}, "
                              "{'face_up': False}, {'face_up': False}]")


def test_an_unquoted_card_name_is_refused_with_the_quoting_hint():
    text = '''game = "night_shift"
seats = 2
seed = 1
moves = ["0 play Laundry Load"]

[setup]
hands = [["Laundry Load", "Bottle Wash"], ["Laundry Load"]]
'''
    error = load_error(text, ScenarioMoveError)
    assert "'play' takes 1 argument(s): 0 play <card>; a card name with spaces goes in quotes: " \
           '0 play "Laundry Load"' in str(error)
    assert Scenario.from_toml(text.replace("0 play Laundry Load", '0 play \\"Laundry Load\\"')).moves == \
        ['0 play "Laundry Load"']
    with pytest.raises(ScenarioMoveError) as caught:
        Scenario.from_toml(text.replace("0 play Laundry Load", "0 end now"))
    assert str(caught.value).endswith("'end' takes 0 argument(s): 0 end") and "quotes" not in str(caught.value)


def test_an_empty_file_and_a_game_record_say_what_they_are():
    """Two common wrong inputs get a sentence about what they are, not a parser's words:
    an empty file, and a JSON game record handed over as a scenario."""
    with pytest.raises(ScenarioError) as empty:
        Scenario.from_toml("", "case.toml")
    assert str(empty.value) == ("case.toml: the file is empty: a scenario names at least its game, seats and moves "
                                "(see the Scenarios page of the documentation)")
    from playtest import Match
    with pytest.raises(ScenarioError) as record:
        Scenario.from_toml(Match("lazy_sunday", 2, seed=1).to_json(), "game.toml")
    assert "this is a game record (JSON), not a scenario (TOML)" in str(record.value)
    assert "Scenario.from_match(Match.load(path))" in str(record.value)


def test_a_failed_legal_check_gives_the_whole_reason():
    """A move expected legal but refused: the ruling and the whole reason, never a cut
    copy of the engine's long message (it read "refused: Illegal move '0 dn... (16 in all)")."""
    scenario = Scenario.from_toml('game = "chore_race"\nseats = 2\nseed = 1\nmoves = []\n\n'
                                  '[[expect]]\nafter = 0\nlegal = ["0 teamwork 1"]\n', "case.toml")
    [failure] = scenario.report().failures
    assert (failure.expected, failure.found, failure.detail) == ("legal", "refused (CR-4)", "seat 0 holds no Teamwork")
    assert str(failure).endswith("found 'refused (CR-4)' (seat 0 holds no Teamwork)")


def test_an_exported_scenario_writes_short_arrays_on_one_line_and_reads_back_the_same():
    """tomli_w writes an item per line (a memory pin of two spots took 15 lines): short
    arrays of plain values are joined on one line, long ones keep a line per item, and
    the text always reads back to the same scenario."""
    import tomllib

    import tomli_w

    from playtest.scenarios.scenario import ARRAY_WIDTH, compact_arrays
    data = {"moves": ["0 peek 0 1", "0 done"], "setup": {"memory": [[[0, 0], [0, 1]], []],
            "lists": [["Nap", 'a "quoted" \\ [x]'], []], "long": [f"Card number {i}" for i in range(12)]}}
    text = compact_arrays(tomli_w.dumps(data))
    assert 'moves = ["0 peek 0 1", "0 done"]' in text and "memory = [[[0, 0], [0, 1]], []]" in text
    assert '    "Card number 0",\n' in text and all(len(line) <= ARRAY_WIDTH + 12 for line in text.splitlines())
    assert tomllib.loads(text) == data
    for name in ("lazy_sunday_claim_on_caller", "chore_race_reaction_window", "night_shift_last_shift"):
        scenario = Scenario.load(examples()[name])
        assert Scenario.from_toml(scenario.to_toml()) == scenario


def test_did_you_mean_and_a_unions_requirements_come_from_one_place_in_engine_errors():
    """One ``suggest`` and one ``requirements`` (playtest.engine.errors) for the game
    options, the scenario format and the pinned setups: no copies left to drift apart."""
    import playtest.engine.game as game
    import playtest.engine.pinning as pinning
    import playtest.scenarios.scenario as scenario
    from playtest.engine import errors
    assert game.suggest is scenario.suggest is pinning.suggest is errors.suggest
    assert game.requirements is scenario.requirements is errors.requirements
    assert errors.suggest("sede", ["seed", "seats"]) == "; did you mean 'seed'?" and errors.suggest("zzz", ["seed"]) == ""
    union = [{"type": "int_type", "msg": "Input should be a valid integer"},
             {"type": "string_type", "msg": "Input should be a valid string"},
             {"type": "int_type", "msg": "Input should be a valid integer"}]
    assert errors.requirements(union) == "must be a whole number or a text (in quotes)"


def test_lines_are_found_by_the_toml_scanner_not_in_a_text_that_looks_like_toml():
    # a description may hold a [table] line, a `moves =` line and quotes: none of them is
    # a table, a key or a move (the limits' scanner, playtest.engine.limits.toml_tokens)
    from playtest.scenarios.lines import TomlLines, line_of as toml_line_of
    text = ('title = "x"\ndescription = """\n[[expect]]\nmoves = ["not", "these"]\n"""\r\n'
            'moves = [  # the real ones, with "quotes" in a comment\n  "0 draw", \'1 done\',\n  "0 done",\n]\n'
            '[[expect]]\nafter = 1\n[expect.view]\n"done.top.name" = "Nap"\n')
    assert toml_line_of(text, ("moves",)) == 6
    assert [toml_line_of(text, ("moves", i)) for i in range(4)] == [7, 7, 8, 6]        # a 4th move: its key
    assert toml_line_of(text, ("expect", 0)) == 10 and toml_line_of(text, ("expect", 0, "after")) == 11
    assert toml_line_of(text, ("expect", 0, "view", "done.top.name")) == 13
    assert TomlLines(text).sections == [("", 0, 9), ("expect", 9, 11), ("expect.view", 11, 13)]
