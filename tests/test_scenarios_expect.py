"""Expectations that say what a tester means (issue #15, items 2 and 4): none/absent,
length, contains, unordered, change and unchanged since an earlier position, a seat's
memory, the log a seat reads, illegal moves in one line that must leave the state as it
was; a mistake in the file is a ScenarioError with its line and "did you mean"; messages
name the differing element and the legal moves nearest to an illegal one; the counts."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from playtest.games.chore_race.rules import ChoreRace
from playtest.scenarios import Expectation, Scenario, ScenarioError, ScenarioMoveError
from playtest.scenarios.scenario import difference
from playtest.widgets.debugger import expectation_parts, failure_seat

sys.path.insert(0, str(Path(__file__).parent))
from test_scenarios import line_of, load_error  # noqa: E402

# the reaction window: seat 1 holds Done, Done, Excuse, I'll Do It Later, Teamwork; it
# draws a Done at move 1, plays one at move 2; seat 0 declares an Inspection at move 4,
# seat 1 answers with Excuse at move 5 (CR-7)
CR = '''title = "expect"
game = "chore_race"
seats = 2
seed = 1
moves = ["0 end", "1 done 0", "1 end", "0 inspection 1 0", "1 excuse"]

[setup]
hands = [
    ["Inspection", "Inspection", "Done", "Done", "Finally!"],
    ["Done", "Excuse", "I'll Do It Later", "Done", "Teamwork"],
]
tableaus = [
    ["Wash the Dishes", "Mop the Floor", "Feed the Cat"],
    ["Do the Laundry", "Make Your Bed", "Water the Plants"],
]
deck_top = ["Done", "Done", "Done"]
'''


def scenario(*entries: str, base: str = CR) -> Scenario:
    return Scenario.from_toml(base + "".join(f"\n[[expect]]\n{entry}\n" for entry in entries), "case.toml")


def failures(*entries: str, base: str = CR) -> list[str]:
    return [str(f) for f in scenario(*entries, base=base).verify()]


# --- each kind holds where it should, and fails where it should not ------------------------
def test_none_and_absent():
    assert failures('after = 3\nnone = ["pending", "trigger", "outcome"]\nabsent = ["tableaus.1.3", "pending.card"]') == []
    found = failures('after = 4\nnone = ["pending"]\nabsent = ["tableaus.1.2"]')
    assert len(found) == 2 and "view (spectator) 'pending' is none: expected None, found {'card': 'Inspection', " \
        "'key': 'inspection', 'by': 0" in found[0]
    assert "'tableaus.1.2' is absent: expected 'nothing there', found {'name': 'Water the Plants', 'level': 2," in found[1]


def test_length_contains_and_unordered_read_cards_by_name():
    assert failures('after = 1\nseat = 1\nlength = { "hand" = 6, "tableaus" = 2, "pending.card" = 0 }') == [
        "[[expect]] #1, after move 1 (0 end): view of seat 1 'pending.card' length: expected 0, found nothing "
        "(pending is None)"]
    ok = ('after = 1\nseat = 1\ncontains = { "hand" = ["Done", "Done", "Done", "Excuse"], "tableaus.1" = '
          '"Make Your Bed", "keys" = "Chore Swap" }\nunordered = { "hand" = ["Teamwork", "Done", "Excuse", "Done", '
          '"I\'ll Do It Later", "Done"], "tableaus.0" = ["Feed the Cat", "Mop the Floor", "Wash the Dishes"] }')
    assert failures(ok) == []
    found = failures('after = 2\nseat = 1\ncontains = { "hand" = ["Done", "Done", "Done"] }\n'
                     'unordered = { "hand" = ["Done", "Done", "Excuse", "Teamwork", "Finally!"] }')
    assert found[0].endswith("(missing: 'Done')")
    assert found[1].endswith("(missing: 'Finally!'; not expected: \"I'll Do It Later\")")


def test_contains_on_a_text_looks_for_pieces_of_it():
    base = CR.replace('"1 excuse"]', '"1 excuse"]\n[options]\ntarget_vp = 15')
    assert failures('after = 4\ncontains = { "pending.card" = ["Insp", "tion"] }', base=base) == []
    assert failures('after = 4\ncontains = { "pending.card" = "Excuse" }', base=base)[0].endswith("(missing: 'Excuse')")


def test_change_and_unchanged_since_the_move_before_a_number_or_a_name():
    entries = ['after = 1\nname = "drawn"\nseat = 1',
               'after = 1\nseat = 1\nchange = { "hand" = 1, "hand_sizes.1" = 1, "hand_sizes.0" = 0 }',
               'after = 3\nsince = "drawn"\nseat = 1\nchange = { "hand" = -1, "tableaus.1.0.progress" = 1 }\n'
               'unchanged = ["vp", "tableaus.0", "scored"]',
               'after = 5\nsince = 0\nchange = { "action_discard" = 2, "hand_sizes.1" = -1 }']
    assert failures(*entries) == []
    found = failures('after = 5\nsince = 3\nseat = 1\nchange = { "hand" = -2 }\nunchanged = ["action_discard"]')
    assert found[0].endswith("change since move 3: expected -2, found -1 (5 entries at move 3, 4 now)")
    assert "unchanged since move 3: expected [], found ['Excuse', 'Inspection'] (action_discard has 2 entries, " \
           "expected 0; not expected from position 0 on, first 'Excuse')" in found[1]


def test_the_log_a_seat_reads_and_what_it_hides():
    assert failures('after = 1\nseat = 1\nlog = ["you draw Done"]',
                    'after = 1\nlog = ["seat 1 draws 1 card"]\nlog_hides = ["Done"]',
                    'after = 0\nseat = 1\nlog = ["Your hand: Done, Done, Excuse"]',
                    'after = 5\nsince = 3\nlog = ["plays Inspection", "reacts with Excuse"]') == []
    found = failures('after = 1\nseat = 1\nlog_hides = ["Done"]', 'after = 2\nlog = ["Finally!"]')
    assert found[0].endswith("log of seat 1 of move 1 hides: expected 'Done', found ['Turn 2: you draw Done.'] "
                             "(seat 1 reads 'Done' in: Turn 2: you draw Done.)")
    assert found[1].endswith("log (spectator) of move 2: expected 'Finally!', found ['Seat 1 plays Done on Do the "
                             "Laundry.'] (no line the spectator reads holds 'Finally!')")


LS = '''game = "lazy_sunday"
seats = 2
seed = 1
moves = ["0 peek 0 1", "0 done", "1 peek 2 3", "1 done"]

[setup]
lists = [["Nap", "Make the Bed", "Feed the Fish"], ["Water the Plants", "Nap", "Clean the Oven", "Make the Bed"]]
memory = [[], [[0, 2]]]
'''


def test_a_seats_memory_is_read_with_memory_paths():
    """LS-11: seat 0 peeks at its positions 0 and 1; seat 1 was pinned to remember seat
    0's position 2 and peeks at its own 2 and 3."""
    assert failures('after = 4\nseat = 0\nview = { "memory.0.0" = "Nap", "memory.0.1" = "Make the Bed" }\n'
                    'none = ["memory.0.2", "memory.1.2"]',
                    'after = 4\nseat = 1\nnone = ["memory.1.0", "memory.0.0"]\n'
                    'view = { "memory.1.2" = "Clean the Oven", "memory.0.2" = "Feed the Fish" }',
                    'after = 3\nseat = 1\ncontains = { "memory.1" = ["Make the Bed", "Clean the Oven"] }\n'
                    'unchanged = ["memory.0"]',
                    base=LS) == []
    found = failures('after = 4\nseat = 1\nunordered = { "memory.1" = ["Clean the Oven", "Make the Bed"] }',
                     'after = 2\nseat = 1\ncontains = { "memory.1" = "Nap" }', base=LS)
    assert found[1].endswith("(not expected: None, None)") and found[0].endswith("(missing: 'Nap')")   # by move


def test_an_illegal_move_in_one_line_is_tried_and_must_leave_the_state_unchanged(monkeypatch):
    entry = 'after = 4\nillegal = ["0 end", "0 dodge", { move = "0 end", ruling = "CR-7" }]'
    assert failures(entry) == []
    assert scenario(entry).expect[0].illegal[0].move == "0 end" and scenario(entry).to_toml().count("0 end") == 3
    original = ChoreRace.explain

    def leaky(self, s, move):                     # a refusal that changes the state: caught
        s.vp[0] += 1
        return original(self, s, move)

    checked = scenario('after = 4\nillegal = ["0 accept"]')
    monkeypatch.setattr(ChoreRace, "explain", leaky)
    found = [str(f) for f in checked.verify()]
    assert found == ["[[expect]] #1, after move 4 (0 inspection 1 0): illegal '0 accept' leaves the state "
                     "unchanged: expected 'unchanged', found 'the state changed'"]


# --- mistakes in the file are ScenarioErrors with their line ---------------------------------
@pytest.mark.parametrize("entry, needle, message", [
    ('after = 2\nview = { "done.top.nmae" = 1 }', "view =",
     "[[expect]] #1, view 'done.top.nmae': the view has no 'done'. It has: game, seats"),
    ('after = 4\nview = { "pending.crad" = "Inspection" }', "view =",
     "[[expect]] #1, view 'pending.crad': pending has no 'crad'; did you mean 'card'? It has: card, key, by, target"),
    ('after = 2\nnone = ["tableau"]', "none =", "the view has no 'tableau'; did you mean 'tableaus'?"),
    ('after = 2\nlength = { "tableaus.one" = 3 }', "length =",
     "tableaus is a list: use a position 0, 1, 2, ... (-1 for the last), not 'one'"),
    ('after = 2\nlength = { "turn" = 3 }', "length =", "it is 2, which has no length"),
    ('after = 2\nlength = { "hand_sizes" = "two" }', "length =",
     "[[expect]] #1 length.hand_sizes: must be a whole number (got 'two')"),
    ('after = 2\nlength = { "hand_sizes" = -1 }', "length =", "[[expect]] #1 length.hand_sizes: must be 0 or more"),
    ('after = 2\ncontains = { "turn" = 3 }', "contains =", "contains reads a list, a table or a text"),
    ('after = 2\nunordered = { "turn_seat" = [1] }', "unordered =", "unordered reads a list"),
    ('after = 2\nchange = { "slots.progress" = 1 }', "change =", "it is true or false: change reads a number"),
    ('after = 2\nchange = { "turn" = true }', "change =",
     "[[expect]] #1 change.turn: must be a whole number or a number (got True)"),
    ('after = 2\nsince = 1.5\nchange = { "turn" = 1 }', "since =",
     "[[expect]] #1 since: must be a whole number or a text (in quotes) (got 1.5)"),
    ('after = 2\nview = { "turn.0" = 1 }', "view =", "turn is 2, which has no '0'"),
    ('after = 2\nview = { "vp..0" = 1 }', "view =", "has an empty part"),
    ('after = 2\nseat = 1\nview = { "memory.0" = 1 }', "view =", "Chore Race keeps no memory apart from the view"),
    ('after = 2\nsince = "dawn"\nchange = { "turn" = 1 }', "since =", "since = 'dawn' names no [[expect]] entry"),
    ('after = 2\nsince = 2\nchange = { "turn" = 1 }', "since =", "since = 2 is not earlier than after = 2"),
    ('after = 2\nsince = 1\nview = { "turn" = 2 }', "since =", "this entry has none of them"),
    ('after = 0\nchange = { "turn" = 1 }', "change =", "after = 0 is the first"),
    ('after = 2\nillegal = [3]', "illegal =", "illegal[0]"),
    # a path past the seats can never exist in this 2-seat game (G-1), as seat = 5 cannot
    ('after = 2\nview = { "tableaus.7.0.name" = "Mop the Floor" }', "view =", "[[expect]] #1: view "
     "'tableaus.7.0.name': tableaus has one entry per seat, and 7 is not a seat of this 2-seat game (0..1, G-1)"),
    ('after = 5\nabsent = ["vp.-3"]', "absent =", "vp has one entry per seat, and -3 is not a seat"),
])
def test_a_mistake_in_an_expectation_is_a_scenario_error_with_its_line(entry, needle, message):
    text = CR + "\n[[expect]]\n" + entry + "\n"
    error = load_error(text)
    assert message in str(error), str(error)
    assert error.line == line_of(text, needle), str(error)


def test_since_names_an_earlier_entry_with_did_you_mean_and_names_are_unique():
    text = CR + '\n[[expect]]\nafter = 1\nname = "drawn"\n\n[[expect]]\nafter = 2\nsince = "dawn"\nchange = { "turn" = 0 }\n'
    assert "since = 'dawn' names no [[expect]] entry; did you mean 'drawn'? Names: 'drawn'" in str(load_error(text))
    later = text.replace('after = 1\nname', 'after = 3\nname').replace('"dawn"', '"drawn"')
    assert "since = 'drawn' (after move 3) is not earlier than after = 2" in str(load_error(later))
    twice = CR + '\n[[expect]]\nafter = 1\nname = "x"\n\n[[expect]]\nafter = 2\nname = "x"\n'
    error = load_error(twice)
    assert "name 'x' is already the name of [[expect]] #1" in str(error)
    assert error.line == len(twice.splitlines())


def test_a_memory_path_past_the_seats_is_a_mistake_and_a_list_position_past_its_end_is_a_failure():
    # LS-11: memory holds one list per seat; a seat's list may grow (penalty cards, LS-5)
    assert "memory has one entry per seat, and 2 is not a seat of this 2-seat game" in str(
        load_error(LS + '\n[[expect]]\nafter = 4\nseat = 1\nnone = ["memory.2.0"]\n'))
    assert failures('after = 4\nseat = 1\nview = { "lists.1.9.face_up" = false }', base=LS) != []


def test_memory_without_a_seat_says_to_add_one():
    assert "'memory' is what a seat remembers: add seat = N" in str(load_error(LS + '\n[[expect]]\nafter = 4\n'
                                                                               'none = ["memory.0.0"]\n'))


def test_verify_of_a_scenario_built_in_python_raises_for_a_mistake():
    built = scenario()
    built.expect.append(Expectation(after=2, view={"hnad": []}))
    with pytest.raises(ScenarioError, match="the view has no 'hnad'; did you mean 'hand'?"):
        built.verify()


# --- messages and counts -------------------------------------------------------------------------
def test_the_difference_names_the_element_that_differs():
    assert difference([4, 0], [8, 0], "vp") == "vp.0: expected 4, found 8"
    assert difference(["a", "b", "c", "d", "e", "f"], ["a", "b", "c", "d", "e"], "hand") == \
        "hand has 5 entries, expected 6; missing from position 5 on, first 'f'"
    assert difference([{"name": "Nap", "effort": 0}], [{"name": "Nap", "effort": 1}], "x") == "x.0.effort: expected 0, found 1"
    assert difference({"a": 1}, {"a": 1, "b": 2}, "t") == "t: keys not expected: b"
    assert difference(1, 1) == ""


def test_a_failed_list_expectation_names_the_differing_element_past_the_shortened_values():
    found = failures('after = 5\nview = { "action_discard" = ["Excuse", "Inspection", "Done"] }')
    assert found[0].endswith("(action_discard has 2 entries, expected 3; missing from position 2 on, first 'Done')")


def test_an_illegal_move_lists_the_nearest_legal_moves_first():
    text = CR.replace('"0 end", "1 done 0"', '"0 end", "1 done 7"')
    error = load_error(text, ScenarioMoveError)
    assert "Legal moves then, nearest first: 1 done 0, 1 done 1, 1 done 2, 1 later 0" in str(error)
    text = CR.replace('"0 inspection 1 0", "1 excuse"', '"0 inspection 1 0", "0 excuse"')
    error = load_error(text, ScenarioMoveError)
    assert "nearest first (seat 0 has none): 1 excuse, 1 accept, 1 dodge" in str(error)


def test_report_counts_the_entries_and_checks_made():
    checked = scenario('after = 1\nseat = 1\nlength = { "hand" = 6 }\nlog = ["Done"]\nto_act = [1]',
                       'after = 5\nillegal = ["1 excuse"]\nview = { "vp" = [0, 0], "turn" = 3 }')
    report = checked.report()
    assert (report.entries, report.checks, report.unreached, report.failures) == (2, 6, 0, [])
    assert checked.report(upto=2).entries == 1 and checked.report(upto=2).unreached == 1
    assert scenario().report().checks == 0


def test_new_fields_survive_a_round_trip_through_toml():
    checked = scenario('after = 1\nname = "a"\nseat = 1\nnone = ["pending"]\nabsent = ["tableaus.1.5"]\n'
                       'length = { "hand" = 6 }\ncontains = { "hand" = "Done" }\nunordered = { "vp" = [0, 0] }',
                       'after = 3\nsince = "a"\nchange = { "turn" = 1 }\nunchanged = ["vp"]\nlog = ["Turn 3"]\n'
                       'log_hides = ["Finally!"]\nillegal = ["1 excuse"]')
    assert Scenario.from_toml(checked.to_toml()) == checked and checked.verify() == []


def test_the_debugger_keeps_a_seats_memory_and_log_to_that_seat():
    entry = Expectation(after=1, seat=1, length={"hand": 6}, log=["you draw"], change={"hand": 1}, none=["pending"])
    parts = expectation_parts(entry)
    assert {seat for seat, _ in parts} == {1}
    assert "log of seat 1 shows 'you draw'" in [text for _, text in parts]
    spectator = Expectation(after=1, log=["draws"], absent=["lists.0.9"])
    assert {seat for seat, _ in expectation_parts(spectator)} == {None}
    failure, = scenario('after = 1\nseat = 1\nlog = ["Finally!"]').verify()
    assert failure_seat(scenario('after = 1\nseat = 1\nlog = ["Finally!"]').expect[0], failure) == 1


def test_the_readmes_toml_examples_hold():
    """The documentation's Scenarios page shows a [setup] (Night Shift) and two [[expect]]
    entries (on the Chore Race reaction-window example): both are true."""
    import re
    from playtest import Match
    from playtest.scenarios import examples
    page = (Path(__file__).resolve().parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    setup_block, expect_block = re.findall(r"```toml\n(.*?)```", page, re.S)
    assert setup_block.startswith("[setup]") and expect_block.startswith("[[expect]]")
    pinned = Scenario.from_toml('game = "night_shift"\nseats = 2\n' + setup_block).to_match()
    assert pinned.view(None)["shift"] == 50 and isinstance(pinned, Match)
    text = examples()["chore_race_reaction_window"].read_text(encoding="utf-8")
    checked = Scenario.from_toml(text[:text.index("[[expect]]")] + expect_block)
    assert checked.verify() == [] and checked.report().checks == 7


# --- fresh-user report (issue #15): shapes, types, face-down names, whole values -----------------
@pytest.mark.parametrize("entry, message", [
    ('after = 0\nillegal = ["0 inspection 1"]', "illegal '0 inspection 1': 'inspection' takes seat chore"),
    ('after = 0\nillegal = ["0 inspection 1 x"]', "illegal '0 inspection 1 x': 'inspection' takes seat chore"),
    ('after = 0\nlegal = ["0 end now"]', "legal '0 end now': 'end' takes no arguments"),
    ('after = "1"', "after"),
    ('after = 1\noutcome = { finished = "no" }', "finished"),
    ('after = 1\noutcome = { finished = 0 }', "finished"),
    ('after = 1\nseat = "1"', "seat"),
])
def test_a_move_no_position_takes_or_a_value_of_the_wrong_type_is_a_mistake_in_the_file(entry, message):
    """A move whose arguments no position takes (Game.shape_problem) cannot be 'illegal'
    as a rules result, and a text is no number or true/false: the file is refused."""
    error = load_error(CR + f"\n[[expect]]\n{entry}\n")
    assert message in str(error) and not isinstance(error, ScenarioMoveError)


def test_a_move_of_the_wrong_shape_in_moves_is_a_mistake_not_a_rules_result():
    for game, move, message in [("chore_race", "0 done", "'done' takes chore"),
                                ("lazy_sunday", "0 peek 0", "'peek' takes 2 whole-number argument(s): a b"),
                                ("night_shift", "0 end now", "'end' takes 0 argument(s): 0 end")]:
        error = load_error(f'game = "{game}"\nseats = 2\nseed = 1\nmoves = ["{move}"]\n', ScenarioMoveError)
        assert error.mistake and str(error).endswith(message), str(error)


def test_change_of_a_text_is_a_mistake():
    error = load_error(CR + '\n[[expect]]\nafter = 1\nchange = { "phase" = 1 }\n')
    assert "it is a text ('play' now): change reads a number, or the length of a list or table" in str(error)


def test_a_name_face_down_to_the_seat_is_absent_not_a_mistake():
    """The all-cards view has the name of a face-down card; a seat's view has not: absent
    for that seat (a typo in the key stays a mistake)."""
    assert failures('after = 0\nabsent = ["lists.1.0.name"]', base=LS) == []
    found = failures('after = 0\nnone = ["lists.1.0.name"]\nview = { "lists.1.0.name" = "Nap" }', base=LS)
    assert "view (spectator) 'lists.1.0.name': expected 'Nap', found nothing (not shown to the spectator)" in found[0]
    assert found[1].endswith("is none: expected None, found nothing (not shown to the spectator) (nothing is there "
                             "at all: absent says that)")
    assert "has no 'nmae'" in str(load_error(LS + '\n[[expect]]\nafter = 0\nabsent = ["lists.1.0.nmae"]\n'))


def test_a_seats_path_read_as_the_spectator_says_to_add_a_seat_and_values_are_shown_whole():
    found = failures('after = 1\nlength = { "hand" = 6 }', 'after = 1\nfingerprint = "' + "0" * 64 + '"')
    assert found[0].endswith("length: expected 6, found None (the spectator sees nothing there; add seat = N to "
                             "read that seat's own view)")
    assert found[1].count("0" * 64) == 1 and len(found[1].split("found '")[1]) == 64 + 1   # the hash in full
    ruling = failures('after = 4\nillegal = [{ move = "0 end", ruling = "CR-4" }]')[0]
    assert ruling.endswith("ruling: expected 'CR-4', found 'CR-7: only seat 1, the target, may answer the "
                           "Inspection now'"), ruling          # the reason whole, not cut in its middle


def test_a_failure_names_its_entry_and_its_since_position_by_name():
    found = failures('after = 1\nname = "drawn"\nseat = 1', 'after = 3\nname = "played"\nsince = "drawn"\nseat = 1\n'
                     'change = { "hand" = 5 }')
    assert found == ["[[expect]] #2 ('played'), after move 3 (1 end): view of seat 1 'hand' change since 'drawn' "
                     "(move 1): expected 5, found -1 (6 entries at 'drawn' (move 1), 5 now)"]


def test_a_key_given_twice_is_said_in_words():
    error = load_error(CR + "\n[[expect]]\nafter = 1\nafter = 2\n")
    assert "a key is given a value twice" in str(error) and error.line == line_of(CR + "\n[[expect]]\nafter = 1\n"
                                                                                   "after = 2\n", "after = 2")
