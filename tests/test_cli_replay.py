"""``playtest replay FILE [--at N] [--view SEAT|spectator] [--json]`` (issue #3): the
output, what each view may show, and the exit codes 0 / 1 / 2."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from playtest.cli import main
from playtest.scenarios import examples

STALE = examples()["lazy_sunday_stale_claim"]
REACTION = examples()["chore_race_reaction_window"]
CALLER = examples()["lazy_sunday_claim_on_caller"]
NIGHT = examples()["night_shift_with_reshuffle"]


def stale_with(tmp_path, old: str, new: str):
    """A copy of the stale-claim example with the first ``old`` replaced by ``new``."""
    path = tmp_path / "changed.toml"
    path.write_text(STALE.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    return path


def run(capsys, *argv):
    code = main(["replay", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_good_scenario_prints_every_move_and_exits_0(capsys):
    code, out, err = run(capsys, STALE)
    assert code == 0 and err == ""
    assert "[0] setup" in out and "[9] 1 claim 1 0 1" in out
    assert "came too late: returned, no penalty (LS-5)" in out
    assert "OK: 9 moves, 3 expectations hold" in out
    assert "not reached" not in out


def test_at_stops_after_move_n_and_checks_only_what_it_reached(capsys):
    code, out, _ = run(capsys, STALE, "--at", 7)
    assert code == 0
    assert "[7] 0 draw" in out and "[8]" not in out
    assert "OK: 7 moves, 1 expectation holds (5 checks); stopped at --at 7: 2 moves and 2 expectations not reached" in out


def test_at_before_an_illegal_move_does_not_reach_it(tmp_path, capsys):
    """--at N replays and checks moves 1..N only: an illegal move 9 is not reached at
    --at 8, and is at --at 9."""
    path = stale_with(tmp_path, '"1 claim 1 0 1"', '"1 nosy 0 0"')          # move 9
    code, out, err = run(capsys, path, "--at", 8)
    assert code == 0 and err == "", err
    assert "[8] 0 discard" in out
    assert "OK: 8 moves, 2 expectations hold (7 checks); stopped at --at 8: 1 move and 1 expectation not reached" in out
    code, out, _ = run(capsys, path, "--at", 8, "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] and data["illegal_move"] is None
    assert (data["unreached_moves"], data["unreached_expectations"]) == (1, 1)
    code, _, err = run(capsys, path, "--at", 9)
    assert code == 1 and "move 9 ('1 nosy 0 0') is illegal (LS-2)" in err


def test_view_text_shows_the_cards_that_seat_looks_at_and_no_one_elses(capsys):
    """Seat 0 peeks at its Nap and Make the Bed (LS-3): its text shows them; the
    spectator and seat 1 see the same list face down."""
    _, as_seat_0, _ = run(capsys, CALLER, "--view", 0, "--at", 1)
    _, as_seat_1, _ = run(capsys, CALLER, "--view", 1, "--at", 1)
    _, as_spectator, _ = run(capsys, CALLER, "--at", 1)
    after_peek = [line for line in as_seat_0.splitlines() if line.strip().startswith("=")][1]
    assert "lists.0 [Nap, Make the Bed, ?, ?, ?, ?]" in after_peek
    assert "lists.1 [?, ?, ?, ?, ?, ?]" in after_peek
    for other in (as_seat_1, as_spectator):
        assert "lists.0 [?, ?, ?, ?, ?, ?]" in other and "Nap" not in other


def test_view_text_shows_that_seats_hand_only(capsys):
    """Night Shift hands are secret: seat 1 reads its own hand, seat 0 only its count."""
    _, as_seat_1, _ = run(capsys, NIGHT, "--view", 1, "--at", 0)
    _, as_seat_0, _ = run(capsys, NIGHT, "--view", 0, "--at", 0)
    hand = "players.1.hand [Laundry Load, Laundry Load, Laundry Load, Bottle Wash, Bottle Wash]"
    assert hand in as_seat_1 and "players.0.hand [" not in as_seat_1
    assert "players.1.hand [" not in as_seat_0 and "players.1.hand_count 5" in as_seat_0
    assert "players.0.hand [" in as_seat_0


def test_view_words_the_log_for_that_seat_and_never_shows_another_hand(capsys):
    _, as_seat_1, _ = run(capsys, REACTION, "--view", 1)
    _, as_spectator, _ = run(capsys, REACTION)
    _, as_seat_0, _ = run(capsys, REACTION, "--view", 0)
    assert "Turn 2: you draw Done." in as_seat_1            # seat 1's own draw, named
    assert "Turn 2: you draw" not in as_seat_0 and "Turn 2: seat 1 draws 1 card." in as_seat_0
    assert "hand ['Done', 'Done', 'Excuse', \"I'll Do It Later\", 'Teamwork']" in as_seat_1
    assert "Excuse', \"I'll Do It Later\"" not in as_seat_0    # seat 1's hand is secret (CR-21)
    assert "hand [" not in as_spectator and "you draw" not in as_spectator
    # every chore shows its progress toward its level (CR-5), in every view
    assert re.search(r"tableaus\.1 \[Do the Laundry \d/3, ", as_spectator), as_spectator


def test_a_secret_choice_is_hidden_from_the_other_seats(tmp_path, capsys):
    """A Family Meeting pass (CR-8) is chosen in secret: only its seat reads its cards."""
    path = tmp_path / "meeting.toml"
    path.write_text('''game = "chore_race"
seats = 2
seed = 1
moves = ["0 meeting", "0 give done done excuse", "1 give done done done"]

[setup]
hands = [["Family Meeting", "Done", "Done", "Excuse", "Teamwork"], ["Done", "Done", "Done", "Done", "Excuse"]]
''', encoding="utf-8")
    code, mine, _ = run(capsys, path, "--view", 0)
    assert code == 0 and "[2] 0 give done done excuse" in mine
    _, theirs, _ = run(capsys, path, "--view", 1)
    assert "[2] 0 give (hidden)" in theirs and "give done done excuse" not in theirs
    assert "[3] 1 give done done done" in theirs


def test_all_shows_every_card_face_up_where_the_spectator_sees_none(capsys):
    """--all (issue #15): every list position named, the deck in order, the title says
    no player sees it; the spectator's text of the same moves shows them face down."""
    code, everything, err = run(capsys, CALLER, "--all", "--at", 1)
    _, as_spectator, _ = run(capsys, CALLER, "--at", 1)
    assert code == 0 and err == ""
    assert "view: all cards (debugging: no player sees this)" in everything.splitlines()[0]
    assert "lists.0 [Nap, Make the Bed, " in everything and "?" not in everything
    assert "lists.0 [?, ?, ?, ?, ?, ?]" in as_spectator and "Nap" not in as_spectator
    deck = [line for line in everything.splitlines() if line.strip().startswith("+ deck (top first): ")]
    assert len(deck) == 2 and "deck (top first)" not in as_spectator          # one per step
    assert "OK: 1 move" in everything


def test_all_names_every_hand_and_words_the_log_with_each_seats_reading(capsys):
    code, everything, _ = run(capsys, REACTION, "--all")
    assert code == 0
    assert "hands.1 ['Done', 'Done', 'Excuse', \"I'll Do It Later\", 'Teamwork']" in everything
    assert "Turn 2: seat 1 draws 1 card. (seat 1 read: Turn 2: you draw Done.)" in everything
    assert "+ chore deck (top first): " in everything


def test_all_json_holds_the_all_cards_view_and_checks_the_same_expectations(capsys):
    from playtest.scenarios import Scenario
    code, out, _ = run(capsys, STALE, "--json", "--all")
    data = json.loads(out)
    _, plain, _ = run(capsys, STALE, "--json")
    assert code == 0 and data["ok"] is True and data["viewer"] == "all"
    match = Scenario.load(STALE).to_match(upto=3)
    assert data["steps"][3]["view"] == json.loads(json.dumps(match.all_cards_view()))
    assert data["steps"][3]["view"]["all_cards"]["deck (top first)"]
    assert data["expectations"] == json.loads(plain)["expectations"] and data["expectations"]["checks"] > 0


def test_all_and_view_together_are_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["replay", str(STALE), "--all", "--view", "1"])
    assert stopped.value.code == 2 and "not allowed with argument --all" in capsys.readouterr().err


def test_json_is_one_document_with_steps_views_and_the_verdict(capsys):
    code, out, _ = run(capsys, STALE, "--json", "--view", 2, "--at", 8)
    data = json.loads(out)
    assert code == 0 and data["ok"] is True and data["viewer"] == 2 and data["at"] == 8
    assert [s["number"] for s in data["steps"]] == list(range(9))
    assert data["steps"][8]["move"] == "0 discard" and data["steps"][8]["view"]["viewer"] == 2
    assert data["steps"][8]["view"]["done"]["top"]["name"] == "Clean the Oven"
    assert data["failures"] == [] and data["illegal_move"] is None and data["unreached_expectations"] == 1


def test_an_illegal_move_exits_1_naming_the_move_and_ruling(tmp_path, capsys):
    path = stale_with(tmp_path, '"1 claim 1 0 1"', '"1 nosy 0 0"')
    code, out, err = run(capsys, path)
    assert code == 1
    assert "[8] 0 discard" in out and "[9]" not in out      # the moves before it are shown
    assert "move 9 ('1 nosy 0 0') is illegal (LS-2)" in err and "line 17" in err
    code, out, _ = run(capsys, path, "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and data["illegal_move"]["number"] == 9
    assert data["illegal_move"]["ruling"] == "LS-2"
    nearest = data["illegal_move"]["nearest"]             # every seat's legal moves then, nearest first
    assert nearest and nearest[0].startswith("1 ") and all(m in data["illegal_move"]["message"] for m in nearest[:3])


def test_the_expectations_before_an_illegal_move_are_still_checked(tmp_path, capsys):
    """An illegal move 9 does not hide the entries after moves 6 and 8: they are checked
    (here the one after move 8 fails) and counted; moves 9.. are not reached."""
    path = stale_with(tmp_path, '"1 claim 1 0 1"', '"1 nosy 0 0"')
    broken = tmp_path / "both.toml"
    broken.write_text(path.read_text(encoding="utf-8").replace('"done.serial" = 2', '"done.serial" = 7', 1),
                      encoding="utf-8")
    code, out, err = run(capsys, broken)
    assert code == 1 and "FAILED [[expect]] #2, after move 8" in out and "'done.serial': expected 7, found 2" in out
    assert "move 9 ('1 nosy 0 0') is illegal (LS-2)" in err and "before it, 1 expectation failed" in err
    code, out, _ = run(capsys, broken, "--json")
    data = json.loads(out)
    assert data["expectations"] == {"entries": 3, "checked": 2, "checks": data["expectations"]["checks"]}
    assert data["unreached_moves"] == 1 and data["unreached_expectations"] == 1 and len(data["failures"]) == 1


@pytest.mark.parametrize("where, text, reason", [
    ("moves", "0 ned", "Chore Race has no move 'ned'; did you mean 'end'?"),
    ("moves", "5 end", "5 is not a seat of this 2-seat game (0..1, G-1)"),
    ("illegal", "0 dnoe 1", "illegal '0 dnoe 1': Chore Race has no move 'dnoe'; did you mean 'done'?"),
    ("illegal", "7 done 0", "illegal '7 done 0': 7 is not a seat of this 2-seat game"),
    ("legal", "0 edn", "legal '0 edn': Chore Race has no move 'edn'; did you mean 'end'?"),
])
def test_a_move_no_position_could_offer_is_a_mistake_in_the_file(tmp_path, capsys, where, text, reason):
    """A typo in a move (an unknown kind, a seat the game lacks) exits 2 as a mistake in
    the file, naming its line: it never passes as "refused" nor fails as a rules result."""
    moves = [text] if where == "moves" else ["0 end"]
    expect = "" if where == "moves" else f'\n[[expect]]\nafter = 1\n{where} = ["{text}"]\n'
    path = tmp_path / "typo.toml"
    path.write_text(f'game = "chore_race"\nseats = 2\nseed = 1\nmoves = {json.dumps(moves)}\n{expect}',
                    encoding="utf-8")
    code, out, err = run(capsys, path)
    assert code == 2 and reason in err, err
    assert f"line {4 if where == 'moves' else 8}:" in err


def test_a_path_past_the_seats_is_a_mistake_in_the_file_not_a_failed_expectation(tmp_path, capsys):
    """``lists.7.0`` at 3 seats can never exist, as ``seat = 5`` cannot (G-1): exit 2 with
    its line; a list position past its end in this position is a failed expectation."""
    path = tmp_path / "seats.toml"
    text = ('game = "lazy_sunday"\nseats = 3\nseed = 1\nmoves = ["0 peek 0 1"]\n\n[[expect]]\nafter = 1\n'
            'seat = 0\nview = { "lists.7.0.face_up" = false }\n')
    path.write_text(text, encoding="utf-8")
    code, _out, err = run(capsys, path)
    assert code == 2 and "line 9: [[expect]] #1: view 'lists.7.0.face_up': lists has one entry per seat, " \
        "and 7 is not a seat of this 3-seat game (0..2, G-1)" in err, err
    path.write_text(text.replace("lists.7.0", "lists.2.9"), encoding="utf-8")
    code, _out, err = run(capsys, path)
    assert code == 1 and "lists.2 has 6 entries, no position 9" in err, err


def test_an_unknown_setup_key_names_its_own_line(tmp_path, capsys):
    path = tmp_path / "key.toml"
    path.write_text('game = "chore_race"\nseats = 2\nseed = 1\nmoves = []\n\n[setup]\nvp = [3, 0]\n'
                    'hands = [["Done"], ["Done"]]\nprogres = [[0, 0, 0], [0, 0, 0]]\n', encoding="utf-8")
    code, _out, err = run(capsys, path)
    assert code == 2 and "line 9: cannot set up the game: Chore Race setup has no key 'progres'" in err, err


def test_a_failed_expectation_exits_1_naming_it(tmp_path, capsys):
    path = stale_with(tmp_path, '"deck" = 34', '"deck" = 33')
    code, out, err = run(capsys, path)
    assert code == 1
    assert "FAILED [[expect]] #3, after move 9 (1 claim 1 0 1): view (spectator) 'deck': expected 33, found 34" in out
    assert "1 expectation failed; first: [[expect]] #3" in err
    code, _, _ = run(capsys, path, "--at", 8)                 # not reached: fine
    assert code == 0


@pytest.mark.parametrize("argv, message", [
    (["missing.toml"], "cannot read the scenario"),
    ([STALE, "--at", "99"], "has moves 0..9"),
    ([STALE, "--at", "two"], "not a move number"),
    ([STALE, "--view", "7"], "use a seat 0..2 or 'spectator'"),
    ([STALE, "--view", "north"], "use a seat 0..2 or 'spectator'"),
])
def test_unreadable_files_and_bad_arguments_exit_2_with_json_errors_on_stdout_too(argv, message, capsys):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and out == ""
    code, out, err = run(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 2 and data["ok"] is False and message in data["error"] and message in err


def test_json_names_the_error_of_an_illegal_move_and_a_failed_expectation(tmp_path, capsys):
    illegal = stale_with(tmp_path, '"1 claim 1 0 1"', '"1 nosy 0 0"')
    code, out, _ = run(capsys, illegal, "--json")
    assert code == 1 and "move 9 ('1 nosy 0 0') is illegal (LS-2)" in json.loads(out)["error"]
    wrong = stale_with(tmp_path, '"deck" = 34', '"deck" = 33')
    code, out, _ = run(capsys, wrong, "--json")
    assert code == 1 and json.loads(out)["error"].startswith("1 expectation failed; first: [[expect]] #3")
    code, out, _ = run(capsys, STALE, "--json")
    assert code == 0 and "error" not in json.loads(out)


def test_an_invalid_file_exits_2_with_its_line(tmp_path, capsys):
    path = tmp_path / "broken.toml"
    path.write_text('game = "lazy_sunday"\nseats = 2\nseed = "x"\n', encoding="utf-8")
    code, _, err = run(capsys, path)
    assert code == 2 and "broken.toml, line 3" in err and "seed" in err


def test_argument_syntax_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["replay", str(STALE), "--colour"])
    assert exit_.value.code == 2 and "unrecognized arguments: --colour" in capsys.readouterr().err


def test_the_console_script_runs_replay():
    done = subprocess.run([sys.executable, "-m", "playtest.cli", "replay", str(REACTION), "--at", "4"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "[4] 0 inspection 1 0" in done.stdout and "phase react" in done.stdout


def test_a_shipped_example_replays_by_name_and_a_missing_file_names_them(capsys):
    code, out, _ = run(capsys, "lazy_sunday_stale_claim", "--at", 2)
    assert code == 0 and "Stale claim" in out
    code, _, err = run(capsys, "lazy_sunday_stale_clam")
    assert code == 2 and "cannot read the scenario" in err and "replay by name: chore_race_leader_protection" in err
    assert "did you mean 'lazy_sunday_stale_claim'?" in err


def test_json_counts_the_expectations_and_checks_made(capsys):
    code, out, _ = run(capsys, STALE, "--json")
    assert code == 0 and json.loads(out)["expectations"] == {"entries": 3, "checked": 3, "checks": 12}
    code, out, _ = run(capsys, STALE, "--json", "--at", 8)
    assert json.loads(out)["expectations"] == {"entries": 3, "checked": 2, "checks": 7}
    assert json.loads(out)["warnings"] == []
    code, out, _ = run(capsys, STALE)
    assert "OK: 9 moves, 3 expectations hold (12 checks)" in out


def test_a_file_with_no_expectation_is_flagged(tmp_path, capsys):
    text = STALE.read_text(encoding="utf-8")
    path = tmp_path / "unchecked.toml"
    path.write_text(text[:text.index("[[expect]]")], encoding="utf-8")
    code, out, err = run(capsys, path)
    assert code == 0 and "nothing else was checked: the file states no expectation" in out
    assert "warning:" in err and "states no expectation" in err
    code, out, _ = run(capsys, path, "--json")
    data = json.loads(out)
    assert data["ok"] is True and data["expectations"] == {"entries": 0, "checked": 0, "checks": 0}
    assert len(data["warnings"]) == 1 and "states no expectation" in data["warnings"][0]


def test_a_mistyped_view_path_is_a_mistake_in_the_file_not_a_failed_expectation(tmp_path, capsys):
    path = stale_with(tmp_path, '"done.top.name" = "Clean the Oven"', '"done.top.nmae" = "Clean the Oven"')
    code, out, err = run(capsys, path, "--json")
    data = json.loads(out)
    assert code == 2 and data["ok"] is False and "failures" not in data
    assert "[[expect]] #2, view 'done.top.nmae': done.top has no 'nmae'; did you mean 'name'? It has: name, " \
           "effort, kind, text" in data["error"]
    assert "changed.toml, line 37: " in data["error"]


def test_a_seats_view_shows_what_it_remembers_and_the_spectators_does_not(capsys):
    """LS-11: memory is the game; --view N prints that seat's memory, never another's."""
    _, as_seat_1, _ = run(capsys, STALE, "--view", 1)
    _, as_spectator, _ = run(capsys, STALE)
    assert "remembers: seat 0's list [-, -, -, -, -, -]; seat 1's list [Water the Plants, Nap, -" in as_seat_1
    assert "remembers" not in as_spectator
    _, out, _ = run(capsys, STALE, "--view", 1, "--json")
    assert json.loads(out)["steps"][-1]["memory"][1][:2] == ["Water the Plants", "Nap"]
