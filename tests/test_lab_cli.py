"""`playtest simulate` and `playtest report`: output, CSV, options, sweeps, A/B, until, exit codes."""
import io
import json
import re

import pandas as pd
import pytest

from playtest.cli import main
from playtest.lab import metrics
from playtest.arguments import parse_options, parse_values
from playtest.lab.csvfile import read_csv


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
    # the CSV reads back: JSON lists, the run's seed and options in the file
    assert all(isinstance(json.loads(w), list) for w in rows["winners"])
    assert (rows["run_seed"] == 4).all() and json.loads(rows.at[0, "options"])["rounds"] == 2
    assert metrics(rows).loc["Completion", "value"] == metrics(read_csv(csv)).loc["Completion", "value"]


def test_sweep_plays_every_value_on_the_same_seeds(tmp_path, capsys):
    csv = tmp_path / "sweep.csv"
    assert main(["simulate", "lazy_sunday", "-n", "6", "--sweep", "rounds=1,2", "--workers", "1", "--csv", str(csv),
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "sweep of rounds, 6 games per value" in out and "rounds=1" in out and "rounds=2" in out
    assert "DurationTurns" in out and "[" in out
    rows = pd.read_csv(csv)
    assert sorted(rows["rounds"].unique()) == [1, 2] and len(rows) == 12
    assert rows[rows["rounds"] == 1]["seed"].tolist() == rows[rows["rounds"] == 2]["seed"].tolist()
    assert parse_values('10,15,20') == [10, 15, 20] and parse_values("one,fill_to_7") == ["one", "fill_to_7"]
    assert parse_values('{"Done": 38},{"Done": 30}') == [{"Done": 38}, {"Done": 30}]


def test_ab_from_the_command_line_is_paired_by_seed(capsys):
    assert main(["simulate", "lazy_sunday", "-n", "8", "--b-option", "rounds=2", "--workers", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "B: rounds=2" in out and "Paired by seed: 8 games" in out and "Newcombe paired" in out
    assert "paired t" in out


def test_until_stops_once_the_interval_is_narrow(capsys):
    assert main(["simulate", "lazy_sunday", "-n", "400", "--until", "DurationTurns=30", "--workers", "1",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "decided after 50 games" in out and "Metrics (95% intervals)" in out


@pytest.mark.parametrize("argv, message", [
    (["--sweep", "rounds=1", "--until", "AdvantageP1=0.1"], "one kind of run at a time"),
    (["--sweep", "rounds"], "NAME=V1,V2"),
    (["--sweep", "no_such_option=1,2"], "no option 'no_such_option'"),
    (["--until", "AdvantageP1"], "METRIC=WIDTH"),
    (["--until", "AdvantageP1=wide"], "AdvantageP1: the width: 'wide' is not a decimal number"),
    (["--until", "Fun=0.1"], "unknown metric 'Fun'"),
    (["--b-preset", "best of 3"], "no preset 'best of 3'"),
])
def test_bad_sweeps_ab_and_until_exit_2(argv, message, capsys):
    assert main(["simulate", "lazy_sunday", "-n", "2", "--no-progress", *argv]) == 2
    assert message in capsys.readouterr().err


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
                                  ["simulate", "lazy_sunday", "--workers", "two"], ["simulate"],
                                  ["simulate", "lazy_sunday", "--workers", "999"]])
def test_unreadable_arguments_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "usage: playtest simulate" in capsys.readouterr().err


def test_a_preset_is_found_in_any_case_and_named_in_the_report(tmp_path, capsys):
    csv = tmp_path / "games.csv"
    assert main(["simulate", "chore_race", "-n", "2", "--seats", "3", "--preset", "quick GAME", "--workers", "1",
                 "--csv", str(csv), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Options: preset 'Quick Game'" in out
    assert main(["simulate", "chore_race", "-n", "2", "--option", "target_vp=12", "--workers", "1",
                 "--no-progress"]) == 0
    assert "Options: target_vp=12" in capsys.readouterr().out


def test_an_unknown_preset_lists_the_presets(capsys):
    assert main(["simulate", "chore_race", "--preset", "74", "-n", "2", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "no preset '74'" in err and "'74-card action deck'" in err and "'Quick Game'" in err


@pytest.mark.parametrize("signals", [1, 2])
def test_ctrl_c_stops_reports_and_writes_the_games_finished(signals, tmp_path, capsys, monkeypatch, ctrl_c):
    """In-process: the first chunk ends with a SIGINT, as if Ctrl-C were pressed then;
    delivered twice at once (as `timeout -s INT` does: the command, then its process
    group), it is still one Ctrl-C and the games are kept."""
    import signal

    from playtest.lab import simulation

    play = simulation.play_games

    def play_then_interrupt(plan, start, stop):
        rows = play(plan, start, stop)
        for _ in range(signals):
            signal.raise_signal(signal.SIGINT)
        return rows

    monkeypatch.setattr(simulation, "play_games", play_then_interrupt)
    csv = tmp_path / "games.csv"
    code = main(["simulate", "lazy_sunday", "-n", "500", "--workers", "1", "--csv", str(csv), "--no-progress"])
    captured = capsys.readouterr()
    assert code == 130
    assert "interrupted (Ctrl-C) after 1 of 500 games" in captured.err   # the first chunk is one game
    assert "Lazy Sunday, 2 seats, 1 game," in captured.out and "AdvantageP1" in captured.out
    assert pd.read_csv(csv)["game"].tolist() == [0]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # the usual Ctrl-C again


def test_ctrl_c_in_a_terminal_run_with_worker_processes(tmp_path):
    """A real SIGINT to the whole process group (as a terminal sends it), workers included."""
    import os
    import signal
    import subprocess
    import sys
    import time

    csv, err = tmp_path / "games.csv", tmp_path / "err.txt"
    with err.open("w") as err_file:
        run = subprocess.Popen([sys.executable, "-m", "playtest.cli", "simulate", "lazy_sunday", "-n", "200000",
                                "--workers", "2", "--csv", str(csv)], stdout=subprocess.PIPE, stderr=err_file,
                               text=True, start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while "game" not in err.read_text() and time.monotonic() < deadline:   # the progress bar is up
                time.sleep(0.2)
            time.sleep(1)
            os.killpg(run.pid, signal.SIGINT)
            out, _ = run.communicate(timeout=60)
        finally:
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == 130, err.read_text()[-2000:]
    assert "Traceback" not in err.read_text() and "interrupted (Ctrl-C)" in err.read_text()
    rows = pd.read_csv(csv)
    assert 0 < len(rows) < 200000 and f"{len(rows):,} games" in out and "AdvantageP1" in out


@pytest.mark.parametrize("extra, first_bytes", [([], b"Lazy Sunday"), (["--csv", "-"], b"game,seed")])
def test_a_reader_that_stops_early_gets_no_traceback(extra, first_bytes):
    """`playtest simulate ... | head -1`: the pipe closes under the report (or under the
    rows of ``--csv -``); no BrokenPipeError and no error message."""
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-c", "from playtest.cli import main; raise SystemExit(main())",
                             "simulate", "lazy_sunday", "-n", "300", "--workers", "1", "--no-progress", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    first = proc.stdout.read(9)
    proc.stdout.close()                 # the reader leaves, as `head` does
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert first == first_bytes[:9] and proc.returncode in (0, 1)   # 0 if it wrote everything before the reader left
    assert "Traceback" not in stderr and "Broken pipe" not in stderr and "BrokenPipeError" not in stderr


def test_csv_dash_writes_the_rows_to_stdout_and_the_report_to_stderr(capsys):
    assert main(["simulate", "night_shift", "-n", "4", "--workers", "1", "--csv", "-", "--no-progress"]) == 0
    captured = capsys.readouterr()
    rows = pd.read_csv(io.StringIO(captured.out))
    assert rows["game"].tolist() == [0, 1, 2, 3]
    assert "Night Shift, 2 seats, 4 games" in captured.err and "Metrics" in captured.err


# --- fresh-user findings: limits, integer arguments, notes, wording ---------------------------------------------
DIGITS_600 = "1" * 600
SAID_600 = "the option rounds: it has a number of 600 digits; numbers may have at most 40 digits"


@pytest.fixture
def nothing_is_played(monkeypatch):
    """Every way the command plays games fails the test."""
    from playtest.lab import sequential, simulation, stats, sweeps

    def played(*_args, **_kwargs):
        raise AssertionError("a game was played")
    import playtest.cli
    for module, name in ((simulation, "simulate"), (sweeps, "sweep"), (sequential, "simulate_until"),
                         (stats, "ab_test"), (simulation, "play_games"), (playtest.cli, "serve")):
        monkeypatch.setattr(module, name, played)


@pytest.mark.parametrize("argv, said", [
    (["--option", "rounds=" + "9" * 43],
     "the option rounds: it has a number of 43 digits; numbers may have at most 40 digits"),
    (["--option", f"rounds={DIGITS_600}"], SAID_600),
    (["--sweep", f"rounds=1,{DIGITS_600}"], SAID_600),
    (["--sweep", "rounds=1," + "9" * 43],
     "the option rounds: it has a number of 43 digits; numbers may have at most 40 digits"),
    (["--sweep", "rounds=1,2." + "0" * 41 + "1"],
     "the option rounds: it has a number of 42 digits; numbers may have at most 40 digits"),
    (["--option", "first_player=" + "x" * 501],
     "the option first_player: it is 501 characters long; at most 500 are allowed"),
    (["--b-option", "rounds=" + "1" * 41],
     "the option rounds: it has a number of 41 digits; numbers may have at most 40 digits"),
])
def test_option_and_sweep_values_over_the_limits_are_refused_before_any_game(argv, said, nothing_is_played,
                                                                             capsys):
    assert main(["simulate", "lazy_sunday", "-n", "20", "--no-progress", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.err == f"playtest simulate: {said}\n" and captured.out == ""      # one line, no traceback


def test_values_within_the_limits_are_read_as_before():
    assert parse_options(["rounds=12345678901234567890", "first_player=" + "x" * 500]) == {
        "rounds": 12345678901234567890, "first_player": "x" * 500}
    assert parse_values("1, 2.5, -3, x") == [1, 2.5, -3, "x"]
    assert parse_values('{"Done": 38},{"Done": 30}') == [{"Done": 38}, {"Done": 30}]


@pytest.mark.parametrize("argv", [
    ["simulate", "lazy_sunday", "--seed", "\u0663"], ["simulate", "lazy_sunday", "--seats", "\u0663"],
    ["simulate", "lazy_sunday", "-n", "\u00b2"], ["simulate", "lazy_sunday", "--workers", "\u0661"],
    ["simulate", "lazy_sunday", "--seed", "9" * 45], ["report", "night_shift", "--explore-games", "\uff15"],
    ["skill", "lazy_sunday", "--games", "\u0663"], ["serve", "--port", "\u0668\u0660\u0668\u0660"],
    ["serve", "--crowd", "\u00b2"], ["tables-report", "x.json", "--seats", "\u0663"],
])
def test_every_integer_argument_takes_ascii_digits_only(argv, nothing_is_played, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "Traceback" not in err
    assert "is not a whole number" in err and "use the digits 0-9 (at most 40 of them)" in err


def test_the_integer_type_names_the_range_and_reads_ascii_digits():
    import argparse

    from playtest.arguments import whole_number
    read = whole_number(1, 6, " (seats)")
    assert read("3") == 3 and read(" 6 ") == 6
    for bad, said in (("\u0663", "'\u0663' is not a whole number 1 to 6 (seats): use the digits 0-9"),
                      ("7", "7 is not allowed: use a whole number 1 to 6 (seats)"),
                      ("1e3", "'1e3' is not a whole number 1 to 6"), ("-1", "'-1' is not a whole number")):
        with pytest.raises(argparse.ArgumentTypeError, match=re.escape(said)):
            read(bad)


@pytest.mark.parametrize("width", ["2e3", "nan", "inf", "-0.1", "\u0663", "0x10", "1.2.3", "1" * 41])
def test_until_takes_a_plain_decimal_width(width, nothing_is_played, capsys):
    assert main(["simulate", "lazy_sunday", "-n", "20", "--no-progress", "--until", f"AdvantageP1={width}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a decimal number: use a number above 0 such as 0.05" in err


def test_too_few_games_are_said_under_the_metrics(capsys, tmp_path):
    assert main(["simulate", "lazy_sunday", "-n", "4", "--workers", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Note: only 4 games: too few to say anything; play more." in out
    assert out.index("ScoreMargin") < out.index("Note: only 4 games") < out.index("Win rate per seat")
    assert main(["simulate", "lazy_sunday", "-n", "12", "--workers", "1", "--no-progress"]) == 0
    assert "Note" not in capsys.readouterr().out
    assert main(["simulate", "lazy_sunday", "-n", "1", "--workers", "1", "--no-progress", "--csv",
                 str(tmp_path / "one.csv")]) == 0
    out = capsys.readouterr().out
    assert "Lazy Sunday, 2 seats, 1 game, bots" in out and "Wrote 1 row to" in out     # not "1 games", "1 rows"


def test_a_note_about_some_metrics_names_them():
    from playtest.lab.cli import metric_notes
    table = pd.DataFrame({"interval": ["Wilson score", "Student t", ""], "note": ["", "only 3 games: x", "y"]},
                         index=["AdvantageP1", "ScoreMargin", "Plain"])
    assert metric_notes(table) == ["Note (ScoreMargin): only 3 games: x.", "Note (Plain): y."]


def test_skill_help_and_table_print_plain_numbers(capsys):
    with pytest.raises(SystemExit):
        main(["skill", "--help"])
    out = capsys.readouterr().out
    assert "95% Wilson" in " ".join(out.split()) and "%%" not in out
    assert main(["skill", "lazy_sunday", "--games", "6", "--ladder", "random,heuristic", "--no-progress",
                 "--workers", "1"]) == 0
    row = capsys.readouterr().out.splitlines()[2].split()
    assert row[:3] == ["heuristic", "vs", "random"] and row[3] == "6" and re.fullmatch(r"\d(\.5)?", row[4]), row
    from playtest.lab.skill import count_text
    assert [count_text(x) for x in (20.0, 19.5, 19 + 1 / 3, 0.0, 1000.0)] == ["20", "19.5", "19.33", "0", "1,000"]
