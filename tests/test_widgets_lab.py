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
    assert len(back) == 12 and list(back.columns) == list(rows.columns)
    pd.testing.assert_frame_equal(back, pd.read_csv(io.StringIO(rows.to_csv(index=False))))


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
    assert len(lab.plots.children) == 4
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
        lab.run_button.disabled = False           # a click that raced the button being disabled
        lab.run_button.click()
        assert "going on already" in lab.banner.message
    finally:
        lab.cancel_button.click()
    assert lab.wait(60)
    played = len(lab.result["rows"])
    assert 0 < played < MAX_GAMES and lab.progress.bar_style == "warning"
    assert f"Cancelled after {played} games" in lab.status.value
    assert not lab.run_button.disabled and lab.cancel_button.disabled


def test_changing_game_rebuilds_seats_bots_and_options():
    lab = BalanceLab("lazy_sunday")
    lab.game.value = "chore_race"
    assert list(lab.seats.options) == [2, 3, 4, 5, 6]
    assert set(lab.bots[0].options) == {"random", "heuristic"} and len(lab.bot_box.children) == 2
    assert "action_deck" in lab.variant_a.inputs and "match_to" not in lab.variant_a.inputs
    lab.seats.value = 5
    assert len(lab.bot_box.children) == 5
    lab.variant_a.presets.apply("Quick Game")
    assert lab.plan()["variants"] == {"Quick Game": {"target_vp": 10}}
