"""Scenario files (issue #3): parsing, every kind of error with its line, nothing
half-loaded, expectations, export round trips, pinned setups and the shipped examples."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playtest import Match, OptionError
from playtest.engine import G_RULINGS, get_game
from playtest.scenarios import Scenario, ScenarioError, ScenarioMoveError, example, examples, state_hash
from playtest.scenarios.scenario import cited_rulings

BASE = '''title = "base"
game = "lazy_sunday"
seats = 2
seed = 3
moves = [
    "0 peek 0 1",
    "0 done",
    "1 peek 0 1",
]

[options]
rounds = 2

[setup]
done = ["Nap"]

[[expect]]
after = 2
to_act = [1]
view = { "done.top.name" = "Nap" }
'''


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def load_error(text: str, kind=ScenarioError) -> ScenarioError:
    with pytest.raises(kind) as caught:
        Scenario.from_toml(text, source="case.toml")
    return caught.value


# --- parsing ------------------------------------------------------------------------------
def test_a_scenario_loads_and_its_expectations_hold():
    scenario = Scenario.from_toml(BASE)
    assert scenario.game == "lazy_sunday" and scenario.options == {"rounds": 2}
    assert scenario.moves[1] == "0 done" and scenario.expect[0].view == {"done.top.name": "Nap"}
    assert scenario.verify() == []
    match = scenario.to_match()
    assert match.view(None)["done"]["top"]["name"] == "Nap" and match.cursor == 3


def test_load_reads_a_file_and_names_it_in_errors(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(BASE, encoding="utf-8")
    assert Scenario.load(path).title == "base"
    missing = tmp_path / "nope.toml"
    with pytest.raises(ScenarioError, match="nope.toml: cannot read the scenario"):
        Scenario.load(missing)
    binary = tmp_path / "b.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ScenarioError, match="not a UTF-8 text file"):
        Scenario.load(binary)


@pytest.mark.parametrize("change, needle, reason", [
    (("seats = 2", "seats = [2"), "seed =", "not valid TOML"),   # where tomllib notices
    (("game = \"lazy_sunday\"", "game = \"lazy_monday\""), "game =", "unknown game 'lazy_monday'"),
    (("rounds = 2", "rounds = \"two\""), "rounds =", "rounds"),
    (("rounds = 2", "roundz = 2"), "roundz =", "roundz"),
    (("done = [\"Nap\"]", "dome = [\"Nap\"]"), "dome =", "no key 'dome'"),
    (("done = [\"Nap\"]", "done = [\"Nope\"]"), "done =", "no card named 'Nope'"),
    (("done = [\"Nap\"]", "done = [\"Nap\", \"Nap\", \"Nap\"]"), "done =", "has only 2"),
    (("done = [\"Nap\"]", "done = [\"Nap\"]\nlists = [[\"Nap\", \"Nap\"]]"), "lists =", "2 lists for 2 seats"),
    (("after = 2", "after = 7"), "after = 7", "scenario has 3 moves"),
    (("after = 2", "when = 2"), "[[expect]]", "when"),
    (("to_act = [1]", "to_act = [4]"), "to_act", "not a seat"),
    (("seed = 3", "seed = -3"), "seed =", "seed"),
    (("title = \"base\"", "title = \"base\"\ncolour = \"red\""), "colour", "colour: unknown key"),
])
def test_every_mistake_names_the_line_and_the_reason(change, needle, reason):
    text = BASE.replace(*change)
    error = load_error(text)
    assert reason in str(error)
    assert error.line == line_of(text, needle), str(error)
    assert str(error).startswith(f"case.toml, line {error.line}: ")


def test_an_illegal_move_names_its_number_line_and_ruling():
    text = BASE.replace('"1 peek 0 1"', '"0 draw"')
    error = load_error(text, ScenarioMoveError)
    assert (error.number, error.move, error.ruling) == (3, "0 draw", "LS-3")
    assert error.line == line_of(text, '"0 draw"')
    assert "move 3 ('0 draw') is illegal (LS-3): it is not seat 0's decision" in str(error)
    assert "Legal moves then, nearest first (seat 0 has none): 1 peek 0 1, 1 peek 0 2" in str(error)
    assert str(error).endswith("... (15 in all)")
    assert error.scenario.moves[:2] == ["0 peek 0 1", "0 done"]


def test_an_unreadable_move_names_its_line():
    text = BASE.replace('"0 done"', '"zero done"')
    error = load_error(text, ScenarioMoveError)
    assert error.number == 2 and error.line == line_of(text, "zero done") and "not a number" in str(error)


def test_a_repeated_move_text_points_at_the_right_line():
    text = BASE.replace('"1 peek 0 1",', '"1 peek 0 1",\n    "1 done",\n    "1 done",')
    error = load_error(text, ScenarioMoveError)
    assert error.number == 5 and error.line == line_of(text, '"1 done"') + 1


def test_a_bad_expectation_move_is_refused_at_load():
    text = BASE.replace('to_act = [1]', 'legal = ["one peek"]')
    error = load_error(text)
    assert "legal" in str(error) and error.line == line_of(text, "legal =")


def test_nothing_is_half_loaded():
    """A failed load raises before returning anything; a good scenario built from the
    same text afterwards is untouched by the failure."""
    bad = BASE.replace('"1 peek 0 1"', '"0 draw"')
    with pytest.raises(ScenarioMoveError):
        Scenario.from_toml(bad)
    good = Scenario.from_toml(BASE)
    assert good.to_match().cursor == 3


# --- expectations -------------------------------------------------------------------------
def test_failed_expectations_name_the_move_what_and_what_was_found():
    text = BASE.replace('"done.top.name" = "Nap"', '"done.top.name" = "Nope", "deck" = 1, "lists.0.9" = 1')
    text += 'legal = ["1 draw"]\nillegal = [{ move = "1 peek 0 1", ruling = "LS-3" }, { move = "0 draw", ruling = "LS-7" }]\n'
    text += 'outcome = { finished = true }\nfingerprint = "' + "0" * 64 + '"\n'
    failures = Scenario.from_toml(text).verify()
    what = {f.expectation: f for f in failures}
    assert what["view (spectator) 'done.top.name'"].found == "Nap"
    assert what["view (spectator) 'deck'"].found == 41
    assert what["view (spectator) 'lists.0.9'"].found.reason == "lists.0 has 6 entries, no position 9"   # lists.9: a mistake (G-1)
    assert what["legal '1 draw'"].found.startswith("refused")
    assert what["illegal '1 peek 0 1'"].found == "legal"
    assert what["illegal '0 draw' ruling"].expected == "LS-7" and what["illegal '0 draw' ruling"].found.startswith("LS-3")
    assert what["outcome finished"].found is False
    assert what["fingerprint (the exact state)"].found != "0" * 64
    assert all(f.after == 2 and f.move == "0 done" and f.entry == 1 for f in failures)
    assert str(failures[0]).startswith("[[expect]] #1, after move 2 (0 done): ")


def test_verify_upto_checks_only_expectations_reached():
    text = BASE.replace('"done.top.name" = "Nap"', '"done.top.name" = "Nope"')
    scenario = Scenario.from_toml(text)
    assert scenario.verify(upto=1) == [] and len(scenario.verify()) == 1


def test_a_seat_view_expectation_reads_that_seats_view():
    text = BASE.replace('after = 2', 'after = 1\nseat = 0').replace(
        'to_act = [1]', 'to_act = [0, 1]').replace('"done.top.name" = "Nap"', '"looking" = [[0, 0], [0, 1]]')
    assert Scenario.from_toml(text).verify() == []
    spectator = Scenario.from_toml(text.replace("seat = 0\n", ""))
    assert [f.found for f in spectator.verify()] == [[]]


# --- export and round trips ---------------------------------------------------------------
def random_line(game: str, seats: int, moves: int, seed: int, setup=None) -> Match:
    match = Match(game, seats, seed=seed, setup=setup)
    rng = random.Random(seed)
    for _ in range(moves):
        if match.outcome():
            break
        seat = match.to_act()[0]
        match.play(rng.choice(match.legal_moves(seat)))
    return match


@pytest.mark.parametrize("game, seats, setup", [
    ("lazy_sunday", 3, {"done": ["Nap"], "deck_top": ["I'm Busy"]}),
    ("chore_race", 3, {"hands": [["Excuse"], ["Done", "Done"], []], "tableaus": [["Mow the Lawn"], [], []]}),
    ("night_shift", 2, {"supply_row": ["Chore Chart"], "deck_top": [["Bottle Wash"], []]}),
])
def test_match_to_scenario_to_toml_and_back_gives_the_same_position(game, seats, setup, tmp_path):
    match = random_line(game, seats, 40, seed=11, setup=setup)
    scenario = Scenario.from_match(match, title="round trip", description="line one\nline two")
    text = scenario.to_toml()
    again = Scenario.from_toml(text)
    assert again == scenario
    assert again.to_match().fingerprint() == match.fingerprint()
    assert again.verify() == [] and again.expect[-1].fingerprint == state_hash(match)
    saved = scenario.save(tmp_path / "line.toml")
    assert Scenario.load(saved) == scenario and not list(tmp_path.glob("*.tmp"))


def test_from_match_exports_the_cursor_and_leaves_the_match_alone():
    match = random_line("lazy_sunday", 2, 12, seed=5)
    before = match.fingerprint()
    match.goto(6)
    scenario = Scenario.from_match(match)
    assert len(scenario.moves) == 6 and scenario.expect[0].after == 6
    assert scenario.to_match().fingerprint() == match.fingerprint()
    match.goto(len(match.moves))
    assert match.fingerprint() == before
    assert Scenario.from_match(match, expect_final=False).expect == []
    with pytest.raises(IndexError):
        Scenario.from_match(match, upto=99)


def test_from_match_keeps_only_options_that_differ_from_the_defaults():
    match = Match("chore_race", 2, {"target_vp": 10, "draw_rule": "one"}, seed=2)
    assert Scenario.from_match(match).options == {"target_vp": 10}


def test_the_finished_outcome_is_pinned_by_the_export():
    match = random_line("night_shift", 2, 5000, seed=3)
    assert match.outcome() is not None
    scenario = Scenario.from_match(match)
    final = scenario.expect[-1]
    assert final.outcome.finished == match.outcome().finished and final.to_act == []
    assert final.outcome.winners == list(match.outcome().winners)


def test_the_exported_pytest_module_passes_and_catches_a_changed_scenario():
    scenario = Scenario.from_match(random_line("lazy_sunday", 2, 15, seed=9), title="exported")
    source = scenario.to_pytest("test_exported")
    namespace: dict = {}
    exec(compile(source, "test_exported.py", "exec"), namespace)
    namespace["test_exported"]()                    # passes as exported
    namespace["SCENARIO"] = namespace["SCENARIO"].replace("seed = 9", "seed = 10")
    with pytest.raises((AssertionError, ScenarioError)):
        namespace["test_exported"]()
    with pytest.raises(ValueError, match="pytest test name"):
        scenario.to_pytest("not a name")


# --- pinned setups ------------------------------------------------------------------------
def all_cards(match: Match) -> Counter:
    game, s = match.game, match.state
    if game.name == "lazy_sunday":
        return Counter([*s.deck, *s.done, *(c for lst in s.lists for c in lst)])
    if game.name == "chore_race":
        return Counter([*s.deck, *s.discard, *(c for h in s.hands for c in h),
                        *(c for t in s.tableaus for e in t for c in e[2])]) + Counter(
            1000 + c for c in [*s.chore_deck, *s.chore_discard, *(e[0] for t in s.tableaus for e in t),
                               *(c for pile in s.scored for c in pile)])
    return Counter([*s.supply, *s.row, *s.naps, *(c for p in (0, 1) for c in
                                                  [*s.decks[p], *s.hands[p], *s.baskets[p], *s.shifts[p]])])


LS_NAMES = sorted({"Nap", "Water the Plants", "Feed the Fish", "Make the Bed", "I'm Busy", "Knock It Out",
                   "Clean the Oven", "Nosy Neighbour"})


@settings(max_examples=25, deadline=None)
@given(seats=st.integers(2, 5), seed=st.integers(0, 10**6),
       lists=st.lists(st.lists(st.sampled_from(LS_NAMES), min_size=2, max_size=4), min_size=5, max_size=5),
       done=st.lists(st.sampled_from(LS_NAMES), min_size=1, max_size=3),
       top=st.lists(st.sampled_from(LS_NAMES), max_size=3))
def test_lazy_sunday_pins_keep_every_card_and_memory_consistent(seats, seed, lists, done, top):
    setup = {"lists": lists[:seats], "done": done, "deck_top": top}
    try:
        match = Match("lazy_sunday", seats, seed=seed, setup=setup)
    except OptionError as exc:
        assert "has only" in str(exc)          # more copies named than the deck holds
        return
    plain = Match("lazy_sunday", seats, seed=seed)
    assert all_cards(match) == all_cards(plain)
    s, names = match.state, match.game.cards.names
    assert [[names[c] for c in lst] for lst in s.lists] == lists[:seats]
    assert [names[c] for c in s.done] == done and [names[c] for c in s.deck[::-1][:len(top)]] == top
    assert all(s.known[c] == match.game.everyone for c in s.done)                  # LS-11
    assert not any(s.known[c] for c in s.deck) and not any(s.known[c] for lst in s.lists for c in lst)
    assert s.serial == len(done)
    random_line("lazy_sunday", seats, 30, seed, setup)                               # plays on


@pytest.mark.parametrize("game, seats, setup", [
    ("chore_race", 4, {"hands": [["Excuse", "Excuse"], [], ["Done"] * 9, ["Finally!"]],
                       "tableaus": [["Mow the Lawn", "Mow the Lawn"], [], ["Feed the Cat"], []],
                       "deck_top": ["Teamwork"], "discard": ["Inspection"], "chore_deck_top": ["Mow the Lawn"]}),
    ("night_shift", 2, {"hands": [["Coffee Refill", "Nap Token"], []], "deck_top": [[], ["Trade Off"]],
                        "supply_row": ["Sleep Training Plan"] * 3, "supply_top": ["Quick Nap"]}),
])
def test_chore_race_and_night_shift_pins_keep_every_card(game, seats, setup):
    match = Match(game, seats, seed=4, setup=setup)
    assert all_cards(match) == all_cards(Match(game, seats, seed=4))
    view = match.view(0)
    if game == "chore_race":
        assert view["hand"] == ["Excuse", "Excuse", "Teamwork"]      # pinned, plus the first draw
        assert view["hand_sizes"] == [3, 0, 9, 1] and view["action_discard"] == ["Inspection"]
        assert [c["name"] for c in view["tableaus"][0]] == ["Mow the Lawn"] * 2
        random_line(game, seats, 60, 4, setup)
    else:
        assert [c["name"] for c in view["players"][0]["hand"]] == ["Coffee Refill", "Nap Token"]
        assert [c["name"] for c in view["supply_row"]][:4] == ["Sleep Training Plan"] * 3 + ["Quick Nap"]
        assert view["nap_tokens"] == 9
        match.play("0 end")
        match.play("1 end")
        assert [c["name"] for c in match.view(1)["players"][1]["hand"]][0] == "Trade Off"


@pytest.mark.parametrize("game, seats, setup, message", [
    ("chore_race", 2, {"hand": []}, "no key 'hand'; did you mean 'hands'? hands: one list of action card names per seat"),
    ("chore_race", 2, {"hands": [["Excuse"]]}, "2 lists for 2 seats"),
    ("chore_race", 2, {"tableaus": [["Mow the Lawn"] * 4, []]}, "'tableaus[0]' needs 0 to 3 cards"),
    ("chore_race", 2, {"tableaus": [["Excuse"], []]}, "'Excuse' is an action card: tableaus, scored, chore_deck_top and chore_discard hold chores"),
    ("chore_race", 2, {"hands": [["Excuse"] * 7, []]}, "has only 6"),
    ("night_shift", 2, {"supply_row": ["Quick Nap"] * 6}, "'supply_row' needs 0 to 5 cards"),
    ("night_shift", 2, {"hands": "Quick Nap"}, "one list of card names per seat"),
    ("lazy_sunday", 2, {"lists": [["Nap"], ["Nap", "Nap"]]}, "'lists[0]' needs at least 2 cards"),
    ("lazy_sunday", 2, {"done": []}, "'done' needs at least 1 card,"),
])
def test_bad_pins_say_which_key_and_what_is_allowed(game, seats, setup, message):
    with pytest.raises(OptionError) as caught:
        Match(game, seats, seed=1, setup=setup)
    assert message in str(caught.value)


def test_a_pinned_match_rewinds_and_branches_to_the_pinned_deal():
    scenario = example("lazy_sunday_stale_claim")
    match = scenario.to_match()
    end = match.fingerprint()
    match.goto(0)
    assert match.view(None)["done"]["top"]["name"] == "Water the Plants"
    other = match.branch()
    for text in scenario.moves:
        other.play(text)
    assert other.fingerprint() == end


# --- the shipped examples -----------------------------------------------------------------
def test_examples_cover_every_game_and_the_tricky_rulings():
    assert set(examples("lazy_sunday")) == {"lazy_sunday_stale_claim", "lazy_sunday_claim_on_caller",
                                            "lazy_sunday_busy_final_turn", "lazy_sunday_reshuffle",
                                            "lazy_sunday_empty_list", "lazy_sunday_great_escape",
                                            "lazy_sunday_give_is_seen_by_the_giver"}
    assert set(examples("chore_race")) == {"chore_race_reaction_window", "chore_race_leader_protection",
                                           "chore_race_winning_chore"}
    assert "night_shift_last_shift" in examples("night_shift") and set(examples()) >= set(examples("night_shift"))
    with pytest.raises(ScenarioError, match="no example scenario named 'nope'; examples: chore_race"):
        example("nope")


@pytest.mark.parametrize("name", sorted(examples()))
def test_every_example_verifies_and_cites_its_rulings(name):
    scenario = example(name)
    assert scenario.title and scenario.expect
    cited = cited_rulings(scenario.description)
    assert cited & set(get_game(scenario.game).RULINGS) and cited <= {*get_game(scenario.game).RULINGS, *G_RULINGS}
    assert scenario.verify() == []
    assert scenario.expect[-1].after == len(scenario.moves) or any(e.after == len(scenario.moves)
                                                                   for e in scenario.expect)


@pytest.mark.parametrize("name, counters", [
    ("chore_race_winning_chore", {"progress", "scored"}),
    ("night_shift_last_shift", {"shift", "patience", "care", "structures", "nap_tokens"}),
    ("lazy_sunday_great_escape", {"round", "round_scores", "scores", "caller", "memory"}),
])
def test_the_late_game_examples_pin_their_position_and_say_what_they_mean(name, counters):
    """Issue #15: a late-game position in a few moves, pinned, with the new expectations."""
    scenario = example(name)
    assert len(scenario.moves) <= 5 and counters <= set(scenario.setup)
    used = {field for entry in scenario.expect for field in ("none", "length", "contains", "unordered", "change",
                                                             "unchanged", "log", "since") if getattr(entry, field)}
    assert {"change", "since", "log", "none"} <= used and len(used) >= 6, used
    assert scenario.report().checks >= 25 and scenario.to_match().outcome().finished


@pytest.mark.parametrize("name", sorted(examples()))
def test_breaking_an_examples_expectation_is_caught(name):
    """The expectations are not decorative: change the last checked value and verify fails."""
    scenario = example(name)
    entry = scenario.expect[-1]
    if entry.view:
        path = next(iter(entry.view))
        entry.view[path] = ["something else"]
    else:
        entry.to_act = [99]
    assert scenario.verify() != []
