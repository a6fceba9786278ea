"""The balance-lab app driven from Python: a run in the background thread fills the
tables, plots and CSV link; bad options, a second Run and Cancel behave."""
from __future__ import annotations

import base64
import io
import re
import threading

import ipywidgets as w
import pandas as pd
import pytest

from widget_support import fresh_widgets  # noqa: F401 (autouse fixture)

from playtest import simulate
from playtest.engine import OptionError, get_game
from playtest.lab import metrics, seat_win_rates
from playtest.lab.csvfile import RUN_COLUMNS
from playtest.widgets.lab import MAX_GAMES, BalanceLab

PNG = b"\x89PNG\r\n\x1a\n"


def finished(lab: BalanceLab, timeout: float = 120) -> BalanceLab:
    assert lab.wait(timeout), "the run did not end"
    assert lab.banner.message == "", lab.banner.message
    return lab


def csv_rows(lab: BalanceLab) -> pd.DataFrame:
    """The rows behind the "Download CSV" link, parsed back from its data URI."""
    href = re.search(r"href='data:text/csv;base64,([^']*)'", lab.download.value)
    assert href, lab.download.value
    return pd.read_csv(io.StringIO(base64.b64decode(href[1]).decode()))


def test_a_small_run_shows_tables_plots_and_a_csv_of_the_same_rows():
    lab = BalanceLab("lazy_sunday", seats=3, games=12, seed=5)
    lab.bots[1].value = "random"
    lab.run()
    finished(lab)
    rows = lab.result["rows"]
    assert len(rows) == 12 and lab.progress.value == lab.progress.max == 12
    assert lab.progress.bar_style == "success" and "Played 12 games" in lab.status.value
    # the same games as simulate() with the same choices
    again = simulate("lazy_sunday", 3, bots=["heuristic", "random", "heuristic"], games=12, seed=5, progress=False)
    pd.testing.assert_frame_equal(rows.reset_index(drop=True), again.reset_index(drop=True))
    for name in ("metrics", "seats", "cards"):
        assert "<table" in lab.tables[name].value, name
    assert "AdvantageP1" in lab.tables["metrics"].value and lab.tables["compare"].value == ""
    images = lab.plots.children
    assert len(images) == 3 and all(isinstance(i, w.Image) and bytes(i.value).startswith(PNG) for i in images)
    back = csv_rows(lab)
    assert len(back) == 12 and list(back.columns) == [*rows.columns, *RUN_COLUMNS]
    pd.testing.assert_frame_equal(metrics(back), metrics(rows))     # the lab's CSV reads back
    assert (back["run_seed"] == 5).all()


def test_a_sweep_plays_every_value_on_the_same_seeds():
    lab = BalanceLab("lazy_sunday", seats=2, games=8, seed=2)
    lab.mode.value = "sweep"
    assert lab.variant_box.children[-1] is lab.sweep_box and "rounds" in lab.sweep_option.options
    lab.sweep_option.value, lab.sweep_values.value = "rounds", "1, 2, 3"
    lab.run()
    finished(lab)
    rows = lab.result["rows"]
    assert len(rows) == 24 and sorted(set(rows["rounds"])) == [1, 2, 3] and lab.progress.max == 24
    assert rows[rows["rounds"] == 1]["seed"].tolist() == rows[rows["rounds"] == 3]["seed"].tolist()
    shown = lab.tables["metrics"].value
    assert "rounds=1" in shown and "rounds=3" in shown and "DurationTurns" in shown
    assert len(lab.plots.children) == 1 and bytes(lab.plots.children[0].value).startswith(PNG)
    assert set(csv_rows(lab)["rounds"]) == {1, 2, 3} and "3 values of rounds" in lab.status.value
    lab.sweep_values.value = "1, 0"
    lab.run_button.click()
    assert "sweep value rounds=0" in lab.banner.message


def test_until_decided_stops_at_the_width_and_says_so():
    lab = BalanceLab("lazy_sunday", seats=2, games=400, seed=1)
    lab.mode.value = "until"
    lab.until_metric.value, lab.until_width.value = "DurationTurns", "3.0"
    shown = []
    original = lab._tick
    lab._tick = lambda done, t0: (original(done, t0), shown.append(lab.status.value))
    lab.run()
    finished(lab)
    rows = lab.result["rows"]
    assert len(rows) < 400 and "Decided after" in lab.status.value and "<table" in lab.tables["metrics"].value
    assert any("DurationTurns" in s and "[" in s for s in shown)        # the current interval beside the bar
    lab.until_width.value = "0"
    lab.run_button.click()
    assert "width must be above 0" in lab.banner.message


def test_the_health_report_tab_shows_the_findings_and_a_download():
    lab = BalanceLab("night_shift", games=30, seed=0)
    assert lab.tabs.titles == ("Runs", "Health report", "People's games")
    lab.report_button.click()
    finished(lab, 300)
    report = lab.result["report"]
    assert any(f.check == "draws" for f in report.findings)
    assert "Design health report" in lab.report_out.value and "data:image/png;base64" in lab.report_out.value
    assert "health_report_night_shift.html" in lab.report_download.value
    assert f"{len(report.findings)} findings" in lab.report_status.value
    assert not lab.report_button.disabled and lab.report_cancel.disabled


def test_ab_run_compares_the_same_seeds_under_two_option_sets():
    lab = BalanceLab("chore_race", seats=2, games=10, seed=3)
    lab.mode.value = "ab"
    lab.variant_b.presets.apply("74-card action deck")
    plan = lab.plan()
    assert list(plan["variants"].values()) == [{}, {"action_deck": "74"}]
    lab.run()
    finished(lab)
    rows = lab.result["rows"]
    assert len(rows) == 20 and lab.progress.max == 20
    assert rows["variant"].tolist() == ["A: defaults"] * 10 + ["B: 74-card action deck"] * 10
    assert "<table" in lab.tables["compare"].value and "AdvantageP1" in lab.tables["compare"].value
    assert len(lab.plots.children) == 7   # the comparison, then three plots of each variant
    assert csv_rows(lab)["variant"].tolist() == rows["variant"].tolist()


def test_bad_options_are_refused_and_nothing_runs():
    lab = BalanceLab("lazy_sunday", seats=2, games=5)
    lab.variant_a.inputs["first_player"].value = "3"          # no seat 3 at a 2-seat table
    lab.run_button.click()
    assert "first_player" in lab.banner.message and lab._thread is None and lab.result is None
    assert lab.progress.value == 0 and lab.download.value == ""
    # A/B with two identical variants compares nothing
    lab.banner.clear()
    lab.variant_a.inputs["first_player"].value = "0"
    lab.mode.value = "ab"
    lab.run_button.click()
    assert "same options" in lab.banner.message and lab._thread is None


def test_a_second_run_is_refused_and_cancel_stops_a_long_run_early():
    lab = BalanceLab("night_shift", games=MAX_GAMES, seed=0)
    started = threading.Event()
    original = lab._tick
    lab._tick = lambda done, t0: (original(done, t0), started.set())
    lab.run()
    try:
        assert started.wait(60) and lab.running and lab.run_button.disabled
        # the whole form is locked while it runs: it must keep showing what the results are of
        locked = [lab.games, lab.seed, lab.workers, lab.mode, *lab.bots[:2], *lab.variant_a.inputs.values()]
        assert all(control.disabled for control in locked) and not lab.cancel_button.disabled
        lab.run_button.disabled = False           # a click that raced the button being disabled
        lab.run_button.click()
        assert "going on already" in lab.banner.message
    finally:
        lab.cancel_button.click()
    assert lab.wait(60)
    played = len(lab.result["rows"])
    assert 0 < played < MAX_GAMES and lab.progress.bar_style == "warning"
    assert f"Cancelled after {played:,} game" in lab.status.value
    assert not lab.run_button.disabled and lab.cancel_button.disabled
    assert not any(control.disabled for control in locked)
    assert "bots in the first game: heuristic, heuristic" in lab.status.value


def test_changing_game_rebuilds_seats_bots_and_options():
    lab = BalanceLab("lazy_sunday")
    lab.game.value = "chore_race"
    assert list(lab.seats.options) == [2, 3, 4, 5, 6]
    assert set(lab.bots[0].options) == {"random", "heuristic", "ismcts"} and len(lab.bot_box.children) == 2
    assert "action_deck" in lab.variant_a.inputs and "match_to" not in lab.variant_a.inputs
    lab.seats.value = 5
    assert len(lab.bot_box.children) == 5
    lab.variant_a.presets.apply("Quick Game")
    assert lab.plan()["variants"] == {"Quick Game": {"target_vp": 10}}


@pytest.mark.parametrize("box, value, message", [
    ("games", "0", "Games must be 1 to 100,000"), ("games", "-5", "Games must be 1 to 100,000"),
    ("seed", "-1", "Seed must be 0 or more"), ("workers", "0", "Workers must be 1 to"),
    ("workers", "64", "Workers must be 1 to"),
])
def test_out_of_range_numbers_are_refused_not_clamped(box, value, message):
    lab = BalanceLab("lazy_sunday", games=5)
    getattr(lab, box).value = value
    assert getattr(lab, box).value == value          # kept as typed, so the message matches the screen
    lab.run_button.click()
    assert message in lab.banner.message and f"not {value}" in lab.banner.message and lab._thread is None


@pytest.mark.parametrize("option, value, message", [
    ("max_turns", "0", "max_turns: must be 1 or more (got 0)"),
    ("target_vp", "-3", "target_vp: must be 1 or more (got -3)"),
    ("tableau_size", "0", "tableau_size: must be 1 or more (got 0)"),
    ("max_turns", "1e9", "Max turns: '1e9' is not a whole number: use 1 to 10000, in the digits 0-9"),
    ("target_vp", "5.5", "Target VP: '5.5' is not a whole number"),
    ("action_deck", "{bad", "action_deck: CR-1"),
])
def test_a_bad_option_is_refused_with_its_own_message_only(option, value, message):
    lab = BalanceLab("chore_race", seats=3, games=5)
    lab.variant_a.inputs[option].value = value
    assert lab.variant_a.inputs[option].value == value
    lab.run_button.click()
    assert message in lab.banner.message and lab._thread is None
    others = set(lab.variant_a.inputs) - {option}
    assert not [name for name in others if name in lab.banner.message]   # no other option's documentation


def test_a_refused_run_clears_the_last_results():
    lab = BalanceLab("chore_race", seats=2, games=4)
    lab.run()
    finished(lab)
    assert lab.result is not None and "<table" in lab.tables["metrics"].value
    lab.variant_a.inputs["action_deck"].value = "{bad"
    lab.run_button.click()
    assert "action_deck" in lab.banner.message
    assert lab.result is None and lab.download.value == "" and lab.plots.children == ()
    assert all(table.value == "" for table in lab.tables.values()) and lab.status.value == ""


def test_per_bot_win_rates_are_shown_when_the_seats_have_different_bots():
    lab = BalanceLab("chore_race", seats=3, games=9, seed=1)
    lab.bots[0].value, lab.bots[1].value, lab.bots[2].value = "heuristic", "random", "random"
    lab.run()
    finished(lab)
    shown = lab.tables["bots"].value
    assert "Bot win rates" in shown and "heuristic" in shown and "random" in shown
    pd.testing.assert_frame_equal(lab.result["bots"], seat_win_rates(lab.result["rows"], by="bot"))
    same = BalanceLab("chore_race", seats=2, games=2)
    same.bots[0].value = same.bots[1].value = "random"
    same.run()
    finished(same)
    assert "bots" not in same.result and same.tables["bots"].value == ""


def test_a_preset_is_taken_in_any_case_and_an_unknown_one_lists_the_presets():
    lab = BalanceLab("chore_race", seats=3, preset="long game")
    assert lab.plan()["variants"] == {"Long Game": {"target_vp": 20}}
    with pytest.raises(OptionError, match="no preset '74'; presets: 'Quick Game', .*'74-card action deck'"):
        BalanceLab("chore_race", preset="74")
    with pytest.raises(OptionError, match="presets: 'Quick Game'"):
        lab.variant_b.use_preset("74")


def test_the_preset_picker_opens_on_the_preset_the_default_options_are():
    """Lazy Sunday's defaults are its 'one round' preset, Night Shift's 'as written': the
    picker says so, as the command line does; Chore Race's defaults are no preset: the
    picker says they are the game's defaults, as the command line does."""
    from playtest.lab.presets import describe_options
    for game, shown, said in (("lazy_sunday", "one round", "preset 'one round'"),
                              ("night_shift", "as written", "preset 'as written'"),
                              ("chore_race", "(the game's defaults)", "defaults")):
        lab = BalanceLab(game)
        assert lab.variant_a.presets.dropdown.value == shown
        assert describe_options(get_game(game), {}) == said


def test_one_game_is_counted_as_one_game_not_one_games():
    from playtest.lab.cli import games_text
    assert games_text(1) == "1 game" and games_text(2) == "2 games" and games_text(10_000) == "10,000 games"


def test_ab_run_shows_seat_card_and_plot_results_for_both_variants_labelled():
    lab = BalanceLab("night_shift", games=6, seed=2)
    lab.mode.value = "ab"
    lab.variant_b.use_preset("with reshuffle")
    lab.run()
    finished(lab)
    label_a, label_b = lab.plan()["variants"]
    assert (label_a, label_b) == ("A: as written", "B: with reshuffle")
    rows = lab.result["rows"]
    for table, title in (("seats", "Seat win rates"), ("cards", "Card statistics")):
        shown = lab.tables[table].value
        assert f"{title} ({label_a})" in shown and f"{title} ({label_b})" in shown, table
        assert shown.count("<table") == 2
        assert set(lab.result[table].index.get_level_values(0)) == {label_a, label_b}
    pd.testing.assert_frame_equal(lab.result["seats"].loc[label_b],
                                  seat_win_rates(rows[rows["variant"] == label_b].drop(columns="variant")))
    # the comparison plot, then win rates, lengths and card impact of A and of B
    images = [bytes(i.value) for i in lab.plots.children]
    assert len(images) == 7 and len(set(images)) == 7 and "<table" in lab.tables["compare"].value


@pytest.mark.parametrize("workers", [1, 2])
def test_a_cancelled_ab_run_still_compares_the_same_games_of_both_variants(workers):
    """A and B run side by side (one pool of workers), so a Cancel leaves games of both:
    the comparison takes the games both played, on the same seeds."""
    lab = BalanceLab("night_shift", games=MAX_GAMES, seed=0, workers=workers)
    lab.mode.value = "ab"
    lab.variant_b.use_preset("with reshuffle")
    started = threading.Event()
    original = lab._tick
    lab._tick = lambda done, t0: (original(done, t0), done >= 400 and started.set())
    lab.run()
    try:
        assert started.wait(120)
    finally:
        lab.cancel()
    finished(lab, 120)
    rows = lab.result["rows"]
    a, b = (rows[rows["variant"] == label] for label in lab.plan()["variants"])
    assert 0 < len(a) < MAX_GAMES and a["game"].tolist() == b["game"].tolist()   # the same games, paired
    assert a["seed"].tolist() == b["seed"].tolist()
    assert "<table" in lab.tables["compare"].value and lab.result["compare"].at["DurationTurns", "A"] > 0
    assert "Cancelled after" in lab.status.value and "no comparison" not in lab.status.value
    assert len(lab.plots.children) == 7                    # the comparison, then three plots per variant


def test_the_skill_ladder_button_shows_each_step_and_the_sentence(monkeypatch):
    """The "Skill ladder" button plays playtest.lab.skill_ladder on the form's game, seats,
    games, seed and options: a table of each bot against the one below it and the
    sentence, the same numbers as the lab function gives."""
    from playtest.lab import skill, skill_ladder
    monkeypatch.setattr(skill, "LADDER", ("random", "heuristic", "ismcts:3"))  # small and quick
    lab = BalanceLab("night_shift", games=4, seed=2)
    lab.variant_a.use_preset("with reshuffle")
    lab.skill_button.click()
    finished(lab)
    table = lab.result["skill"]
    again = skill_ladder("night_shift", 2, 4, ("random", "heuristic", "ismcts:3"), {"reshuffle": True}, seed=2)
    pd.testing.assert_frame_equal(table, again)
    assert list(table.index) == ["heuristic vs random", "ismcts:3 vs heuristic"]
    shown = lab.tables["skill"].value
    assert "<table" in shown and "heuristic vs random" in shown and table.attrs["sentence"].capitalize() in shown
    assert lab.progress.value == lab.progress.max == 8 and "Played 8 games" in lab.status.value
    assert not lab.run_button.disabled and not lab.skill_button.disabled


# --- fresh-user findings: limits, strict boxes, plain wording, Cancel -------------------------------------------
def cli_error(capsys, *argv) -> str:
    """What `playtest simulate` says on standard error for ``argv`` (exit 2), without its prefix."""
    from playtest.cli import main
    assert main(["simulate", *argv, "--no-progress"]) == 2
    return capsys.readouterr().err.removeprefix("playtest simulate: ").rstrip("\n")


def refused(lab: BalanceLab) -> str:
    """Run is pressed: the message shown; nothing ran (no thread, no result, no progress)."""
    lab.run_button.click()
    assert lab._thread is None and lab.result is None and lab.progress.value == 0
    return lab.banner.message


@pytest.mark.parametrize("values, digits", [("1" * 600, 600), ("1, 2, " + "9" * 45, 45)])
def test_sweep_values_over_the_digit_limit_are_refused_before_any_game_as_the_cli_says(values, digits, capsys,
                                                                                       monkeypatch):
    from playtest.lab import simulation, sweeps
    monkeypatch.setattr(sweeps, "sweep", lambda *a, **k: pytest.fail("a sweep was played"))
    monkeypatch.setattr(simulation, "play_games", lambda *a, **k: pytest.fail("a game was played"))
    lab = BalanceLab("lazy_sunday", seats=2, games=20)
    lab.mode.value = "sweep"
    lab.sweep_option.value, lab.sweep_values.value = "rounds", values
    message = refused(lab)
    assert message == f"the option rounds: it has a number of {digits} digits; numbers may have at most 40 digits"
    assert message == cli_error(capsys, "lazy_sunday", "-n", "20", "--sweep", f"rounds={values.replace(' ', '')}")


def test_a_sweep_with_no_option_picked_says_to_pick_one():
    lab = BalanceLab("lazy_sunday", seats=2, games=5)
    lab.mode.value = "sweep"
    lab.sweep_option.value, lab.sweep_values.value = None, "1, 2"
    message = refused(lab)
    assert message == "pick the option to sweep (the Sweep list), then give its values" and "None" not in message


@pytest.mark.parametrize("box, typed, said", [
    ("games", "2e3", "Games: '2e3' is not a whole number: use 1 to 100,000, in the digits 0-9"),
    ("games", "5.5", "Games: '5.5' is not a whole number"),
    ("workers", "\u0662", "Workers: '\u0662' is not a whole number: use 1 to"),
    ("seed", "9" * 45, "Seed: '999999999999...9999999999999' is not a whole number: use 0 or more, in the digits 0-9 "
                       "(at most 40 of them)"),
    ("seed", "0x10", "Seed: '0x10' is not a whole number"),
])
def test_number_boxes_are_text_read_whole_never_cut(box, typed, said):
    lab = BalanceLab("lazy_sunday", games=5)
    assert isinstance(getattr(lab, box), w.Text)
    getattr(lab, box).value = typed
    message = refused(lab)
    assert said in message and "10000000000000000905969664" not in message


def test_a_seed_of_twenty_digits_is_taken_whole():
    lab = BalanceLab("lazy_sunday", games=5)
    lab.seed.value = " " + "9" * 20 + " "
    assert lab.plan()["seed"] == 10**20 - 1 and lab.plan()["games"] == 5


@pytest.mark.parametrize("typed", ["2e3", "nan", "inf", "-1", "\u0663", "", "0.05.1", "1" * 41])
def test_the_until_width_is_a_plain_decimal_number(typed):
    lab = BalanceLab("lazy_sunday", games=5)
    lab.mode.value = "until"
    lab.until_width.value = typed
    message = refused(lab)
    assert message.startswith("is within: the width: ") and "is not a decimal number: use a number above 0" in message
    lab.until_width.value = ".5"
    assert lab.plan()["until"] == ("AdvantageP1", 0.5)


def test_a_bad_option_reads_as_the_command_line_says_it(capsys):
    lab = BalanceLab("chore_race", seats=2, games=5)
    lab.variant_a.inputs["max_turns"].value = "0"
    message = refused(lab)
    assert message == cli_error(capsys, "chore_race", "-n", "5", "--option", "max_turns=0")
    assert "must be 1 or more (got 0)" in message and "Input should" not in message
    lab.variant_a.inputs["max_turns"].value = "1000"
    lab.variant_a.inputs["action_deck"].value = "{bad"
    assert "Value error" not in refused(lab)


def test_cancel_says_what_it_waits_for(monkeypatch):
    lab = BalanceLab("lazy_sunday", games=5)
    lab._running_workers = 1
    lab.cancel()
    assert lab.status.value == "Cancelling… (the game being played finishes first)"
    lab._running_workers = 4
    lab.cancel()
    assert "the 4 worker processes finish the games they hold first" in lab.status.value


def test_cancel_of_slow_games_in_this_kernel_ends_after_the_game_being_played():
    """Night Shift with ismcts bots: most of a second a game. In this kernel chunks of
    slow games are one game each, so Cancel ends the run within that game (a 20-game
    chunk made it wait 17 s)."""
    import time
    lab = BalanceLab("night_shift", games=40, seed=0, workers=1)
    for bot in lab.bots[:2]:
        bot.value = "ismcts"
    lab.run()
    lab.cancel_button.click()
    started = time.monotonic()
    assert lab.wait(60)
    assert time.monotonic() - started < 8 and len(lab.result["rows"]) <= 2
    assert "Cancelled after" in lab.status.value


def test_an_option_box_over_the_digit_limit_says_what_the_command_line_says(capsys):
    lab = BalanceLab("chore_race", seats=2, games=5)
    lab.variant_a.inputs["action_deck"].value = '{"Done": ' + "9" * 44 + "}"
    message = refused(lab)
    assert message == "the option action_deck: it has a number of 44 digits; numbers may have at most 40 digits"
    assert message == cli_error(capsys, "chore_race", "-n", "5", "--option", 'action_deck={"Done": ' + "9" * 44 + "}")
