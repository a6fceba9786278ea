"""`playtest simulate`: output, CSV, options and exit codes."""
import pandas as pd
import pytest

from playtest.cli import main
from playtest.lab.cli import parse_options


def test_simulate_prints_metrics_and_win_rates_and_writes_the_csv(tmp_path, capsys):
    csv = tmp_path / "games.csv"
    code = main(["simulate", "lazy_sunday", "-n", "12", "--seats", "3", "--bots", "heuristic,random,random",
                 "--option", "rounds=2", "--seed", "4", "--workers", "1", "--csv", str(csv), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Lazy Sunday, 3 seats, 12 games" in out
    for name in ["AdvantageP1", "Balance", "Drawishness", "Completion", "DurationTurns", "LeadChange",
                 "Win rate per seat", "Win rate per bot", "heuristic"]:
        assert name in out
    rows = pd.read_csv(csv)
    assert rows["game"].tolist() == list(range(12))
    assert {"seat0_bot", "seat2_won", "turns", "moves", "winners"} <= set(rows.columns)
    assert sorted(set(rows["seat1_bot"])) == ["heuristic", "random"]


def test_simulate_takes_a_preset_and_overrides_from_options(tmp_path, capsys):
    csv = tmp_path / "games.csv"
    assert main(["simulate", "lazy_sunday", "-n", "3", "--preset", "match to 100", "--option", "great_escape=true",
                 "--workers", "1", "--csv", str(csv), "--no-progress"]) == 0
    scores = pd.read_csv(csv)[["seat0_score", "seat1_score"]]
    assert (scores.max(axis=1) > 100).all()     # LS-10: played to 100


def test_option_values_are_json_where_they_parse_else_text():
    assert parse_options(["rounds=2", "great_escape=true", "match_to=null", "first_player=random",
                          'action_deck={"Done": 20}']) == {
        "rounds": 2, "great_escape": True, "match_to": None, "first_player": "random", "action_deck": {"Done": 20}}


@pytest.mark.parametrize("argv, message", [
    (["simulate", "no_such_game"], "unknown game 'no_such_game'"),
    (["simulate", "lazy_sunday", "--bots", "robot"], "unknown bot 'robot'"),
    (["simulate", "lazy_sunday", "--bots", "random,random,random"], "one per seat"),
    (["simulate", "lazy_sunday", "--seats", "9"], "2 to 7 seats"),
    (["simulate", "lazy_sunday", "--option", "rounds=zero"], "rounds"),
    (["simulate", "lazy_sunday", "--option", "rounds"], "KEY=VALUE"),
    (["simulate", "lazy_sunday", "--preset", "best of 3"], "no preset 'best of 3'"),
    (["simulate", "lazy_sunday", "--csv", "/no/such/folder/games.csv"], "does not exist"),
])
def test_bad_arguments_exit_2_with_a_message(argv, message, capsys):
    assert main(argv + ["-n", "2", "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


@pytest.mark.parametrize("argv", [["simulate", "lazy_sunday", "-n", "0"], ["simulate", "lazy_sunday", "--seed", "-3"],
                                  ["simulate", "lazy_sunday", "--workers", "two"], ["simulate"]])
def test_unreadable_arguments_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "usage: playtest simulate" in capsys.readouterr().err
